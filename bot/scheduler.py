"""Deadline jobs: APScheduler triggers, the database decides (docs/scheduling.md).

A running game with a schedule has up to three moments, all read from its row in the games table:
the reminder (``remind_before`` minutes before the lock), the lock (``lock_at``) and the deadline
(``deadline_at``). :class:`GameScheduler` keeps one APScheduler job per moment, with deterministic
ids (``game-{id}-remind``, ``game-{id}-lock``, ``game-{id}-deadline``), each a one-off
:class:`~apscheduler.triggers.date.DateTrigger` that calls :meth:`GameScheduler.run_due`.

``run_due`` is the single place that decides what is due, by the service's clock; it calls the
service's idempotent triggers (``remind_if_due``, ``lock_if_due``, ``resolve_if_due``) and then
places the game's jobs again from the database. A job that fires late, twice, or in two processes
at once therefore does no harm, and a job that never fires (the bot was down) is made up for by
:meth:`GameScheduler.start`, which runs ``run_due`` for every running game before anything else.

With several bot processes (docs/sharding.md) a scheduler places jobs only for the games its
service owns (``service.owns``: the game's server is on the process's shards). Another process may
still move an owned game's moments in the shared database (shard 0 takes every direct-message
order, and the order that completes the set makes the deadline now): :meth:`GameScheduler.sweep`,
which the bot runs every few seconds (``[scheduler] sweep_seconds``), rereads the owned running
games and places again the jobs of those whose moments changed, of games started or resumed
elsewhere, and of games whose claim was freed.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Awaitable, Callable, NamedTuple

from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger

from bot.service import NotFound, Resolution, Schedule, Service
from bot.store import Game

__all__ = ["GameScheduler", "DueRun", "JOB_KINDS", "RETRY_AFTER", "job_id"]

log = logging.getLogger(__name__)

#: the moments of an update, in the order they fall
JOB_KINDS = ("remind", "lock", "deadline")

#: how long to wait before trying a due moment again when it could not be done (another process
#: holds the claim, or the service raised)
RETRY_AFTER = timedelta(seconds=30)

#: run_due serialises itself per game, so extra concurrent instances of one job only wait their
#: turn; APScheduler's default of 1 would *skip* (drop) a run that fires while another is running
_MAX_INSTANCES = 16

_SHUTDOWN_GRACE_SECONDS = 60.0


def job_id(game_id: int, kind: str) -> str:
    """The APScheduler job id of one moment of a game: ``game-7-deadline``."""
    if kind not in JOB_KINDS:
        raise ValueError(f"a job kind is one of {', '.join(JOB_KINDS)}, not {kind!r}")
    return f"game-{game_id}-{kind}"


@dataclass(frozen=True, slots=True)
class DueRun:
    """What one :meth:`GameScheduler.run_due` did for a game. ``update_no`` is the update that was
    open when it looked (None: no such game); ``resolution`` is set when the deadline was due;
    ``error`` names an exception the service raised (the moment is retried after ``RETRY_AFTER``)."""

    game_id: int
    update_no: int | None
    reminded: bool = False
    locked: bool = False
    resolution: Resolution | None = None
    error: str | None = None

    @property
    def resolved(self) -> bool:
        return self.resolution is not None and self.resolution.resolved


@dataclass(slots=True)
class _Retry:
    update_no: int
    at: datetime


@dataclass(slots=True)
class _GameLocks:
    run: asyncio.Lock = field(default_factory=asyncio.Lock)
    place: asyncio.Lock = field(default_factory=asyncio.Lock)


class _Moments(NamedTuple):
    """What a game's jobs are made from, as read from its row: when it differs from what the jobs
    were placed for, something (maybe another process) changed the game, and its jobs are placed again."""

    status: str
    update_no: int
    deadline_at: datetime | None
    lock_at: datetime | None
    locked: bool
    reminded_for: datetime | None
    claimed_by: str | None
    settings: dict
    schedule: dict

    @classmethod
    def of(cls, game: Game) -> "_Moments":
        return cls(game.status, game.update_no, game.deadline_at, game.lock_at, game.locked, game.reminded_for,
                   game.claimed_by, game.settings, game.schedule)


def _period(schedule: Schedule) -> timedelta | None:
    """How long an update is open on this schedule (None: manual)."""
    if schedule.kind == "interval" and schedule.seconds:
        return timedelta(seconds=schedule.seconds)
    if schedule.kind == "daily":
        return timedelta(days=1)
    return None


class GameScheduler:
    """The deadline jobs of every running game of one :class:`~bot.service.Service`.

    ``scheduler``: an :class:`AsyncIOScheduler` to use (it is started by :meth:`start` if it is not
    running yet, and left running by :meth:`shutdown`); by default one of its own, in UTC, which
    :meth:`shutdown` stops. ``retry_after``: the wait before a due moment that could not be done is
    tried again. ``ready``: awaited with a running game before its due moments are done (under the
    game's lock); False: nothing is done now, True: the game is read again and its due moments done.
    The demo's players use it so that a deadline waits for their orders (bot/demo/session.py); the
    bot has none.
    """

    def __init__(self, service: Service, *, scheduler: AsyncIOScheduler | None = None,
                 retry_after: timedelta = RETRY_AFTER,
                 ready: Callable[[Game], Awaitable[bool]] | None = None) -> None:
        self.service = service
        self.ready = ready
        self.scheduler = scheduler if scheduler is not None else AsyncIOScheduler(timezone=timezone.utc)
        self.retry_after = retry_after
        self._placed_for: dict[int, _Moments] = {}         # game id -> what its jobs were placed for
        self._owns_scheduler = scheduler is None
        self._started_scheduler = False
        self._started = False
        self._closing = False
        self._locks: dict[int, _GameLocks] = {}
        self._retries: dict[int, _Retry] = {}
        self._games: set[int] = set()                       # games that may have jobs
        self._pending_placements: set[asyncio.Task] = set()  # from reschedule()
        self._running: set[asyncio.Task] = set()             # run_due calls in flight

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> list[DueRun]:
        """Start scheduling: free the claims of dead processes (``service.recover()``), hook
        ``service.on_schedule_change``, start APScheduler, then for every running game do what is
        due now (an update that fell due while the bot was down resolves here, once) and place its
        jobs. Returns what was done, one :class:`DueRun` per running game, by game id."""
        if self._started:
            raise RuntimeError("this GameScheduler has already been started")
        self._started = True
        freed = await self.service.recover()
        if freed:
            log.info("released the stale resolution claims of games %s", ", ".join(map(str, freed)))
        self.service.on_schedule_change = self.reschedule
        if not self.scheduler.running:
            self.scheduler.start()
            self._started_scheduler = True
        runs = []
        for game in await self.service.owned_games():
            runs.append(await self.run_due(game.id))
        caught_up = [run for run in runs if run.resolved]
        if caught_up:
            log.info("resolved %d overdue update(s) at start-up: %s", len(caught_up),
                     ", ".join(f"game {run.game_id} update {run.update_no}" for run in caught_up))
        return runs

    async def shutdown(self, *, timeout: float = _SHUTDOWN_GRACE_SECONDS) -> None:
        """Stop scheduling: unhook the service, let run_due calls in flight finish (a resolution
        under way commits; after ``timeout`` seconds it is cancelled and the next start-up takes it
        over), remove this scheduler's jobs, and stop APScheduler if this object started its own."""
        self._closing = True
        if self.service.on_schedule_change == self.reschedule:
            self.service.on_schedule_change = None
        for task in list(self._pending_placements):
            task.cancel()
        in_flight = [task for task in self._running if task is not asyncio.current_task()]
        if in_flight:
            _, late = await asyncio.wait(in_flight, timeout=timeout)
            for task in late:
                log.warning("cancelling a scheduled run that did not finish within %ss of shutdown", timeout)
                task.cancel()
        await asyncio.gather(*self._pending_placements, return_exceptions=True)
        for game_id in list(self._games):
            self._remove_jobs(game_id)
        if self._owns_scheduler and self._started_scheduler and self.scheduler.running:
            self.scheduler.shutdown(wait=False)
            await asyncio.sleep(0)           # AsyncIOScheduler shuts down in a loop callback

    # ------------------------------------------------------------------ the jobs
    def reschedule(self, game_id: int) -> None:
        """Replace ``game_id``'s jobs from the database, soon (the service's ``on_schedule_change``
        hook: it is called from inside use cases, so it only starts a task). :meth:`settle` waits
        for these tasks."""
        if self._closing:
            return
        task = asyncio.get_running_loop().create_task(self._place_logged(game_id),
                                                      name=f"reschedule game {game_id}")
        self._pending_placements.add(task)
        task.add_done_callback(self._pending_placements.discard)

    async def settle(self) -> None:
        """Wait until every :meth:`reschedule` asked for so far has placed its jobs."""
        while self._pending_placements:
            await asyncio.gather(*list(self._pending_placements), return_exceptions=True)

    async def refresh(self, game_id: int) -> dict[str, datetime]:
        """Replace ``game_id``'s jobs from the database now; returns when each job will fire."""
        return await self._place(game_id, after_run=False)

    def jobs(self, game_id: int) -> dict[str, datetime]:
        """The game's jobs as APScheduler holds them: kind -> next run time (UTC)."""
        found = {}
        for kind in JOB_KINDS:
            job = self.scheduler.get_job(job_id(game_id, kind))
            if job is not None and getattr(job, "next_run_time", None) is not None:
                found[kind] = job.next_run_time
        return found

    # ------------------------------------------------------------------ the sweep
    async def sweep(self) -> list[int]:
        """Place again, from the database, the jobs of every owned game whose moments changed
        since its jobs were placed (by another process: an order by direct message that completed
        the set, a game started or resumed there, a claim freed), and remove the jobs of games no
        longer running; returns those game ids. A game being run is left to its run. Run it often
        (the bot: every few seconds): it is one read of the owned running games."""
        if self._closing or not self._started:
            return []
        games = {game.id: game for game in await self.service.owned_games()}
        changed = []
        for game_id in sorted(set(games) | self._games | set(self._placed_for)):
            if self._closing:
                break
            game = games.get(game_id)
            placed_for = self._placed_for.get(game_id)
            if game is not None and placed_for == _Moments.of(game):
                continue
            if game is None and game_id not in self._games:
                self._placed_for.pop(game_id, None)         # no jobs to remove
                continue
            if self._locks_of(game_id).run.locked():        # its run places its jobs when it is done
                continue
            if game is not None and placed_for is not None and placed_for.claimed_by and not game.claimed_by:
                self._retries.pop(game_id, None)            # the claim that held it up is gone: no need to wait
            await self._place(game_id, after_run=False)
            changed.append(game_id)
        if changed:
            log.debug("the sweep placed again the jobs of games %s", ", ".join(map(str, changed)))
        return changed

    # ------------------------------------------------------------------ what is due
    async def run_due(self, game_id: int) -> DueRun:
        """Do what is due for ``game_id`` by the service's clock, then place its jobs again.

        The deadline, when due, resolves the open update (``resolve_if_due``: once, however often
        and from however many processes this runs) and nothing else is done. Otherwise the reminder
        is sent and the orders locked when their times have come. A paused, ended or manual game
        has nothing due and no jobs. Every APScheduler job of the game calls this."""
        task = asyncio.current_task()
        if task is not None:
            self._running.add(task)
        try:
            async with self._locks_of(game_id).run:
                run = await self._act(game_id)
                if not self._closing:
                    await self._place(game_id, after_run=True, ran_update=run.update_no)
                return run
        finally:
            if task is not None:
                self._running.discard(task)

    async def _act(self, game_id: int) -> DueRun:
        game = await self._read(game_id)
        if game is not None and game.status == "running" and self.ready is not None:
            if not await self.ready(game):
                return DueRun(game_id, game.update_no)
            game = await self._read(game_id)            # as it stands after the wait
        if game is None:
            return DueRun(game_id, None)
        if self._closing or game.status != "running" or not self.service.owns(game):
            return DueRun(game_id, game.update_no)
        now = self.service.now()
        due = {kind for kind, moment in self._plan(game, now).items() if moment <= now}
        reminded = locked = False
        resolution = None
        try:
            if "deadline" in due:
                # the resolution locks the orders itself, and a reminder now would be too late
                resolution = await self.service.resolve_if_due(game.id, game.update_no)
                level = logging.INFO if resolution.resolved else logging.DEBUG
                log.log(level, "game %d update %d at its deadline: %s", game.id, game.update_no, resolution.outcome)
            else:
                if "remind" in due:
                    reminded = await self.service.remind_if_due(game.id, game.update_no)
                    if reminded:
                        log.info("game %d update %d: reminder sent", game.id, game.update_no)
                if "lock" in due:
                    locked = await self.service.lock_if_due(game.id, game.update_no)
                    if locked:
                        log.info("game %d update %d: orders locked", game.id, game.update_no)
        except Exception as exc:     # a job must not die silently: log it, and the moment is retried
            log.exception("game %d update %d: scheduled %s failed", game.id, game.update_no,
                          " and ".join(sorted(due)))
            return DueRun(game.id, game.update_no, reminded, locked, resolution, f"{type(exc).__name__}: {exc}")
        return DueRun(game.id, game.update_no, reminded, locked, resolution)

    def _plan(self, game: Game, now: datetime) -> dict[str, datetime]:
        """The moments still to be acted on for the open update, by kind (database times)."""
        if game.status != "running" or game.deadline_at is None:
            return {}
        plan = {"deadline": game.deadline_at}
        if game.locked:
            return plan
        if game.lock_at is not None and game.lock_at < game.deadline_at:
            plan["lock"] = game.lock_at        # a lock at the deadline is the resolution's own
        closes = game.lock_at or game.deadline_at
        settings = self.service.settings(game)
        remind_before = timedelta(minutes=settings.remind_before)
        period = _period(self.service.schedule(game))
        if (remind_before > timedelta(0) and game.reminded_for != game.deadline_at and now < closes
                # a reminder that would fall before the update opens would only repeat its opening post
                and (period is None or remind_before + (game.deadline_at - closes) < period)):
            plan["remind"] = closes - remind_before
        return plan

    # ------------------------------------------------------------------ placing jobs
    async def _place_logged(self, game_id: int) -> None:
        try:
            await self._place(game_id, after_run=False)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("could not reschedule game %d; its jobs are placed again at the next change "
                          "or start-up", game_id)

    async def _place(self, game_id: int, *, after_run: bool, ran_update: int | None = None) -> dict[str, datetime]:
        """Replace the game's jobs with its plan. After a run, a moment of the update it ran for
        (``ran_update``) that is still due could not be done (busy, or an error): it fires again
        after ``retry_after`` rather than at once. A moment of a later update that is already due
        (a turn with nobody to play, whose deadline the resolution set to now) fires at once."""
        async with self._locks_of(game_id).place:
            if self._closing:
                return {}
            game = await self._read(game_id)
            now = self.service.now()
            plan = {} if game is None or not self.service.owns(game) else self._plan(game, now)
            if game is None or not self.service.owns(game):
                self._placed_for.pop(game_id, None)
            else:
                self._placed_for[game_id] = _Moments.of(game)
            if not plan:
                self._retries.pop(game_id, None)
                self._remove_jobs(game_id)
                return {}
            if after_run:
                stuck = any(moment <= now for moment in plan.values()) and (ran_update is None
                                                                            or game.update_no == ran_update)
                self._retries.pop(game_id, None)
                if stuck:
                    self._retries[game_id] = _Retry(game.update_no, now + self.retry_after)
            retry = self._retries.get(game_id)
            if retry is not None and retry.update_no != game.update_no:
                del self._retries[game_id]
                retry = None
            placed = {}
            for kind in JOB_KINDS:
                if kind not in plan:
                    self._remove_job(game_id, kind)
                    continue
                moment = plan[kind]
                if retry is not None and moment <= now:
                    moment = max(moment, retry.at)
                self.scheduler.add_job(self.run_due, DateTrigger(run_date=moment, timezone=timezone.utc),
                                       args=[game_id], id=job_id(game_id, kind),
                                       name=f"game {game_id} update {game.update_no} {kind}",
                                       replace_existing=True, coalesce=True, misfire_grace_time=None,
                                       max_instances=_MAX_INSTANCES)
                self._games.add(game_id)
                placed[kind] = moment
            log.debug("game %d update %d jobs: %s", game_id, game.update_no,
                      ", ".join(f"{kind} {moment:%Y-%m-%d %H:%M:%S}" for kind, moment in placed.items()))
            return placed

    def _remove_jobs(self, game_id: int) -> None:
        for kind in JOB_KINDS:
            self._remove_job(game_id, kind)
        self._games.discard(game_id)

    def _remove_job(self, game_id: int, kind: str) -> None:
        try:
            self.scheduler.remove_job(job_id(game_id, kind))
        except JobLookupError:       # a one-off job that has already fired is gone by itself
            pass

    # ------------------------------------------------------------------ helpers
    async def _read(self, game_id: int) -> Game | None:
        try:
            return await self.service.get_game(game_id)
        except NotFound:
            return None

    def _locks_of(self, game_id: int) -> _GameLocks:
        return self._locks.setdefault(game_id, _GameLocks())
