"""Claims that survive hosts (issue 26 item 5): which running service resolves an update, and
whether it still runs.

Every :class:`~bot.service.Service` has an identity of its own (``service.holder``: a uuid4), so two
services of one process, a service on a re-created container or one whose pid was reused are never
taken for one another. While it runs it has a row in the ``services`` table (identity; host, pid
and start for people to read; its heartbeat) and beats every :attr:`Liveness.beat` (5 s). A claim
(``games.claimed_by``) names its holder's identity; it is **free** when the holder's row is gone
(it stopped cleanly, or was forgotten as dead) or its heartbeat is older than the lease
(:attr:`Liveness.lease`: 3 beats, 15 s). A live holder's claim is never taken over.

- ``start()`` registers the service and starts its heartbeat, a task on the event loop (or the
  caller's timer: the bot's ``discord.ext.tasks`` loop): it goes on beating while an update is
  computed in a thread. Each beat also sweeps: the claims of dead holders
  are freed (each by one conditional statement, in the beat's transaction) and the scheduler is
  told, and dead services' rows are forgotten. ``stop()`` ends the heartbeat and removes the row.
- ``resolve_if_due`` refreshes its own heartbeat when it claims (a claim always names a registered,
  live service) and frees a dead holder's claim in the same transaction as the claim itself;
  ``recover()`` at start-up frees every dead holder's claim.
- **Fencing.** A holder that stalled past its lease and had its claim taken over must not store its
  result: the update's storing transaction first checks that the claim is still its own for that
  update (:meth:`~bot.store.Queries.hold_claim`, a write, so nobody can take it over until the
  commit) and otherwise gives up without writing. Within one service, an update it is computing is
  never claimed again by it (a late result could otherwise find "its" claim renewed). So an update
  is stored exactly once whatever the timing.

The same identities, heartbeats and lease decide which service sends a game's posts
(``games.posting_by``, taken and fenced by the outbox relay: .publishing).

Times come from the service's clock; hosts sharing a database keep their clocks in step (NTP): a
skew near the lease only makes a live holder look dead, which fencing turns into wasted work,
never into an update stored twice.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Collection

from bot.store import Store

from .base import Clock, ServiceBase, utc_now

__all__ = ["ClaimCases", "Liveness", "LIVENESS"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Liveness:
    """How often a service beats and how long a silent one keeps its claims (one place: the bot
    runs on :data:`LIVENESS`; the demo passes its own, a beat every second, so that a demo killed
    and run again goes on after 3 s; tests pass theirs)."""

    #: the time between two heartbeats
    beat: timedelta = timedelta(seconds=5)
    #: a holder is dead after this many beats' time without one
    lease_beats: int = 3

    def __post_init__(self) -> None:
        if self.beat <= timedelta(0) or self.lease_beats < 2:
            raise ValueError("a heartbeat needs a positive interval and a lease of at least 2 beats")

    @property
    def lease(self) -> timedelta:
        return self.beat * self.lease_beats


LIVENESS = Liveness()


class ClaimCases(ServiceBase):
    """The service's row in ``services``, its heartbeat and the freeing of dead holders' claims."""

    def __init__(self, store: Store, *, clock: Clock = utc_now, liveness: Liveness = LIVENESS, **options) -> None:
        super().__init__(store, clock=clock, **options)
        self.liveness = liveness
        self.host = socket.gethostname()
        self.pid = os.getpid()
        self.started_at: datetime | None = None
        self._heartbeat: asyncio.Task | None = None
        #: (game, update) this service is resolving now: it does not claim them again meanwhile
        self._resolving: set[tuple[int, int]] = set()

    # ------------------------------------------------------------------ life
    async def start(self, *, heartbeat: bool = True) -> None:
        """Register this service and start its heartbeat (again: nothing more). The bot calls it
        before its scheduler starts; :meth:`stop` when it closes. ``heartbeat=False``: the caller
        runs :meth:`beat` every ``liveness.beat`` itself (the bot, from a ``discord.ext.tasks``
        loop, which discord.py and its test tools know as a timer)."""
        async with self.store.transaction() as q:
            await self._register(q)
        if heartbeat and (self._heartbeat is None or self._heartbeat.done()):
            self._heartbeat = asyncio.get_running_loop().create_task(self._beat_forever(),
                                                                      name=f"heartbeat of service {self.holder}")
        log.info("service %s (host %s, pid %s) started; heartbeat every %ss", self.holder, self.host, self.pid,
                 self.liveness.beat.total_seconds())

    async def stop(self) -> None:
        """Stop beating and remove this service's row: any claim it still holds is free at once.
        (The bot stops its scheduler first, so no update of its own is left half done.)"""
        task, self._heartbeat = self._heartbeat, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        async with self.store.transaction() as q:
            await q.remove_service(self.holder)
        log.info("service %s stopped", self.holder)

    @property
    def beating(self) -> bool:
        """Whether the heartbeat task runs."""
        return self._heartbeat is not None and not self._heartbeat.done()

    async def beat(self) -> list[int]:
        """One heartbeat and sweep (the heartbeat task's step): this service's row beats (made
        again if it was taken for dead), dead holders' claims are freed and dead services
        forgotten, in one transaction. Returns the games whose claim was freed; the scheduler is
        told of each, so their due updates resolve."""
        async with self.store.transaction() as q:
            if not await q.beat(self.holder, self.now()):
                log.warning("service %s had been taken for dead (no heartbeat within %ss); it beats again, "
                            "and updates it was resolving are stored only if nobody took them over",
                            self.holder, self.liveness.lease.total_seconds())
                await self._register(q)
            freed = await self._free_dead_claims(q)
            await q.remove_dead_services(self._alive_since())
        for game_id in freed:
            self._schedule_changed(game_id)
        return freed

    async def _beat_forever(self) -> None:
        seconds = self.liveness.beat.total_seconds()
        while True:
            await asyncio.sleep(seconds)
            try:
                await self.beat()
            except asyncio.CancelledError:
                raise
            except Exception:      # a database restarting: beat again at the next beat
                log.warning("service %s: the heartbeat could not be written; trying again in %ss", self.holder,
                            seconds, exc_info=True)

    # ------------------------------------------------------------------ inside transactions
    async def _register(self, q) -> None:
        """This service's row, beating now (a claim always names a registered, live service)."""
        now = self.now()
        if self.started_at is None:
            self.started_at = now
        await q.register_service(identity=self.holder, host=self.host, pid=self.pid, started_at=self.started_at,
                                 now=now)

    def _alive_since(self) -> datetime:
        """A holder that has beaten since this moment lives."""
        return self.now() - self.liveness.lease

    async def _free_dead_claims(self, q, games: Collection[int] | None = None) -> list[int]:
        """Free the claims of dead holders (on ``games``, or on every game); returns the games freed."""
        freed = []
        alive_since = self._alive_since()
        only = None if games is None or len(games) != 1 else next(iter(games))
        for game, update_no, holder, host, pid, heartbeat in await q.dead_claims(alive_since, only):
            if games is not None and game not in games:
                continue
            if await q.free_dead_claim(game, holder, alive_since):
                silent = ("it has no row in services" if heartbeat is None
                          else f"on host {host}, pid {pid}, silent since {heartbeat:%Y-%m-%d %H:%M:%S} UTC")
                log.warning("game %s: the claim on update %s of service %s (%s) is freed; the update resolves again",
                            game, update_no, holder, silent)
                freed.append(game)
        return freed
