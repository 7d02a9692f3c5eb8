"""The update: lock, resolve once, store, announce; extend, roll back, replay.

``resolve_if_due(game_id, update_no)`` is idempotent. It claims the game in one transaction (only
one caller, in any process, gets the claim: the claim names the service's identity), runs the
engine and the renderer off the event loop, then stores the snapshot, the orders' outcomes and every
post in one transaction, which first checks that the claim is still its own (fencing). A claim
whose holder stopped beating for a lease (a killed process, a host gone; see .claims) is free: the
next call, the heartbeat's sweep or :meth:`recover` at start-up frees it, and a live holder's claim
is never taken over. So an update is never lost and never stored twice.
"""

from __future__ import annotations

import asyncio
import logging
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Iterator

from bot.engine import serialize
from bot.engine.report import Report
from bot.engine.resolution import resolve
from bot.engine.state import GameState
from bot.render.board import paint_board, render_board
from bot.render.game import drawn_whole, render_game_board
from bot.render.scene.timelapse import Extent
from bot.store import Game

from .actors import Moderator, require_moderator
from .base import frozen, is_row_number, position_token, with_joiners
from .claims import ClaimCases
from .errors import Conflict, InvalidInput, NotFound, WrongTime
from .faults import fault_point
from .posts import update_posts
from .rulebook import Rulebook
from .timelapses import Frame, TimelapseCases, frame_place, update_frame
from .views import pending_pieces

__all__ = ["UpdateCases", "Resolution", "HistoryEntry", "Stages"]

log = logging.getLogger(__name__)


def _placements(pieces: tuple[tuple[str, str], ...]) -> str:
    """Pieces to place, as a reminder names them: "queen +Q(x,y), knight +N(x,y)"."""
    return ", ".join(f"{name.lower()} `+{letter}(x,y)`" for letter, name in pieces)


def resolve_frozen(ruleset, state: GameState, orders, seed):
    """The engine's ``resolve``, with every object that exists before it (the loaded position
    above all: tens of thousands of pieces in a large game) kept out of the garbage collector's
    reach while it runs. A resolution makes many short-lived objects, and each full collection
    they trigger would otherwise walk the whole position again (a fifth of a 1,000-player update,
    see benchmarks/resolve.py). The result is the same either way; the objects are handed back to
    the collector afterwards."""
    return frozen(resolve, ruleset, state, orders, seed)


@dataclass(frozen=True, slots=True)
class Resolution:
    """What ``resolve_if_due`` did: ``resolved``, or why not (``not_due``, ``already_resolved``,
    ``busy``: another caller holds the claim, ``not_running``: setup, paused or ended)."""

    game_id: int
    update_no: int
    outcome: str
    report: Report | None = None
    ended: bool = False
    #: seconds spent in each stage of a resolved update (load, resolve, render, store, outbox, total)
    stages: dict[str, float] = field(default_factory=dict, compare=False)

    @property
    def resolved(self) -> bool:
        return self.outcome == "resolved"


class Stages:
    """Wall-clock seconds of the stages of one update, for the log and benchmarks/update.py."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - started

    def text(self) -> str:
        return ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in self.seconds.items())


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    update_no: int
    revision: int
    orders: dict[str, str]
    report: Report | None
    state: GameState
    reason: str


@dataclass(frozen=True, slots=True)
class Prepared:
    """Everything the update's transaction writes that takes time to make, made off the event loop
    before it begins: the posts, the timelapse frame, the new state and the report as JSON text (a
    50,000-piece state takes a fifth of a second to encode: on the loop, every other game would wait)."""

    drafts: list
    frame: Frame
    state: str
    report: str


def prepare_update(ruleset, state: GameState, new_state: GameState, report: Report, user_ids: dict[str, int],
                   game_name: str, palette: str, earlier: list[Extent | None],
                   rulebook: Rulebook | None = None) -> Prepared:
    """The update's posts and its timelapse frame (the board drawn once for both), the state and
    the report encoded: off the event loop, on the thread that calls it. The board's PNG is written
    first, which frees its picture before the state is encoded. Every picture is drawn here: the
    worker processes that drew a large game's health board and overview while this thread went on
    (issue 25) saved about 0.2 s of a 1,000-player update, which its budget (under 2 s end to end)
    does not need (issue 38; docs/rendering.md, "Machinery kept for speed")."""
    board = paint_board(ruleset, new_state, palette=palette).encode()
    state_json, report_json = serialize.dumps(new_state), report.to_json_text()
    shown = board
    if drawn_whole(ruleset, new_state):      # territory: its own picture, with the turn's action drawn
        shown = render_game_board(ruleset, new_state, palette=palette, report=report)
    place = frame_place(new_state, earlier)
    drafts = update_posts(ruleset, state, new_state, report, user_ids, game_name, palette, board=shown,
                          rulebook=rulebook)
    frame = update_frame(ruleset, new_state, earlier, board, palette, place)
    return Prepared(drafts, frame, state_json, report_json)


class UpdateCases(ClaimCases, TimelapseCases):
    # ------------------------------------------------------------------ claims
    async def recover(self) -> list[int]:
        """At start-up: register this service (see .claims) and free the claims of dead holders
        (no heartbeat within the lease, or no row: a process killed, a host gone); returns the games
        whose claim was freed. Their locked orders stay locked, and the next ``resolve_if_due``
        resolves the update once. Only the games of this process's shards (``self.shards``): the
        others are their owners' (a dead claim is free for them too, whoever frees it)."""
        async with self.store.transaction() as q:
            await self._register(q)
            mine = {game.id for game in await q.games(statuses=("running", "paused"), owned=self.shards)}
            freed = await self._free_dead_claims(q, mine)
            owing = await q.games_owing_timelapses(owned=self.shards)
        for game_id in owing:           # a game ended, and the process stopped before its timelapse was made
            await self.make_timelapse(game_id)
        return freed

    # ------------------------------------------------------------------ the lock
    async def lock_orders(self, game_id: int, *, actor: Moderator) -> Game:
        """A moderator freezes the order book of the open update (the scheduler's lock at the lock
        time is :meth:`lock_if_due`)."""
        async with self._after_orders(game_id), self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                actor_id = require_moderator(actor, game.guild_id, "lock a game's orders")
                self._require_live(game)
                if game.locked:
                    raise WrongTime(f"orders for update {game.update_no} are already locked")
                await self._lock(q, game, actor_id)
                return await q.game(game.id)

    async def _lock(self, q, game: Game, actor: int | None) -> None:
        await q.update_game(game.id, locked=True)
        await q.move_orders(game.id, game.update_no, "pending", "locked")
        if actor is not None:
            await q.audit(game_id=game.id, actor=actor, action="lock", detail={"update": game.update_no}, at=self.now())
        when = f"; the update resolves at {game.deadline_at:%Y-%m-%d %H:%M} UTC" if game.deadline_at else ""
        await self._post(q, game, game.update_no, "announcement",
                         f"Orders for update {game.update_no} are locked{when}.")

    async def lock_if_due(self, game_id: int, update_no: int) -> bool:
        """The scheduler's lock job: lock ``update_no`` if its lock time has come (once)."""
        async with self._after_orders(game_id), self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await q.game(game_id)
                if (game is None or game.status != "running" or game.update_no != update_no or game.locked
                        or game.lock_at is None or game.lock_at > self.now()):
                    return False
                await self._lock(q, game, None)
                return True

    async def remind_if_due(self, game_id: int, update_no: int) -> bool:
        """The scheduler's reminder: once per deadline, ``remind_before`` minutes before the lock,
        tell the channel who has not ordered yet ("3 of 7 players have not moved"). True if sent."""
        async with self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await q.game(game_id)
                if (game is None or game.status != "running" or game.update_no != update_no or game.locked
                        or game.deadline_at is None or game.reminded_for == game.deadline_at):
                    return False
                remind_at = (game.lock_at or game.deadline_at) - timedelta(minutes=self.settings(game).remind_before)
                if self.settings(game).remind_before <= 0 or self.now() < remind_at:
                    return False
                may = await self._may_order_now(q, game)
                players = [p for p in await q.players(game.id) if p.name in may]
                ordered = {o.user_id for o in await q.live_orders(game.id, update_no)}
                waiting = sorted(p.name for p in players if p.user_id not in ordered)
                await q.update_game(game.id, reminded_for=game.deadline_at)
                if not waiting:
                    return False
                closes = game.lock_at or game.deadline_at
                ruleset = self.ruleset(game)
                state = await self._working_state(q, game)
                placing = {p.name: _placements(pending_pieces(ruleset, state.players[p.name]))
                           for p in players if p.name in state.players and state.players[p.name].pending}
                to_place = "; ".join(f"{name} {what}" for name, what in sorted(placing.items()))
                await self._post(q, game, update_no, "reminder",
                                 f"{len(waiting)} of {len(players)} players have not moved for update {update_no}: "
                                 f"{', '.join(waiting)}. Orders close at {closes:%Y-%m-%d %H:%M} UTC."
                                 + (f"\nTo place this round: {to_place}." if to_place else ""))
                for player in players:          # by name; only those who asked (issue 28)
                    if player.dm_reminder and player.user_id not in ordered:
                        own = (f" You have to place {placing[player.name]}, each as a line of your order."
                               if player.name in placing else "")
                        await self._post(q, game, update_no, "reminder",
                                         f"Reminder: you have not ordered for update {update_no} of **{game.name}**. "
                                         f"Orders close at {closes:%Y-%m-%d %H:%M} UTC.{own} Send your order with /move "
                                         f"in the game's channel" + (" or here, by direct message"
                                                                     if self.variant(game).features.secret_orders
                                                                     else "") + ".",
                                         recipient=player.user_id)
                return True

    async def unlock_orders(self, game_id: int, *, actor: Moderator) -> Game:
        async with self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                actor_id = require_moderator(actor, game.guild_id, "unlock a game's orders")
                self._require_live(game)
                if not game.locked:
                    raise WrongTime(f"orders for update {game.update_no} are not locked")
                if game.claimed_by is not None:
                    raise WrongTime(f"update {game.update_no} is being resolved and cannot be unlocked")
                await q.update_game(game.id, locked=False)
                await q.move_orders(game.id, game.update_no, "locked", "pending")
                await q.audit(game_id=game.id, actor=actor_id, action="unlock", detail={"update": game.update_no},
                              at=self.now())
                await self._post(q, game, game.update_no, "announcement",
                                 f"Orders for update {game.update_no} are open again.")
                return await q.game(game.id)

    # ------------------------------------------------------------------ resolution
    async def resolve_now(self, game_id: int, *, actor: Moderator) -> Resolution:
        """A moderator's "resolve now": the open update, whatever its deadline (audited)."""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
        actor_id = require_moderator(actor, game.guild_id, "resolve an update now")
        if game.status != "running":
            raise WrongTime(f"game {game.id} ({game.name}) is {game.status}, not running")
        result = await self.resolve_if_due(game.id, game.update_no, force=True)
        if result.outcome == "busy":
            raise WrongTime(f"update {game.update_no} is already being resolved")
        if result.resolved:
            async with self.store.transaction() as q:
                await q.audit(game_id=game.id, actor=actor_id, action="resolve", detail={"update": game.update_no},
                              at=self.now())
        return result

    async def resolve_if_due(self, game_id: int, update_no: int, *, force: bool = False) -> Resolution:
        """Resolve ``update_no`` if it is the open update and its deadline has passed (or ``force``).
        Safe to call any number of times, from any number of processes: it resolves once."""
        if (game_id, update_no) in self._resolving:        # this service is at it: a late result must not
            return Resolution(game_id, update_no, "busy")   # find the claim renewed (see .claims)
        self._resolving.add((game_id, update_no))
        try:
            return await self._resolve_claimed(game_id, update_no, force)
        finally:
            self._resolving.discard((game_id, update_no))

    async def _resolve_claimed(self, game_id: int, update_no: int, force: bool) -> Resolution:
        stages = Stages()
        began = time.perf_counter()
        with stages("load"):
            claimed = await self._claim(game_id, update_no, force)
        if isinstance(claimed, Resolution):
            return claimed
        game, ruleset, state, orders, joiners, user_ids = claimed
        fault_point("after_claim", update_no)
        try:
            with stages("resolve"):
                new_state, report = await asyncio.to_thread(resolve_frozen, ruleset, state, orders, game.seed)
            fault_point("after_engine", update_no)
            with stages("render"):
                palette = self.settings(game).palette
                earlier = await self._earlier_extents(game.id, update_no)
                prepared = await asyncio.to_thread(frozen, prepare_update, ruleset, state, new_state, report,
                                                   user_ids, game.name, palette, earlier, self.rulebook)
            ended = await self._commit(game, update_no, new_state, report, orders, joiners, prepared, stages)
        except Exception:
            # a bug in the engine or the renderer: give the claim back so a later call can retry
            # (a killed process cannot; its claim goes stale and is taken over instead)
            await self._release(game.id, update_no)
            raise
        if ended is None:
            return Resolution(game_id, update_no, "busy")
        fault_point("after_commit", update_no)
        self._schedule_changed(game_id)
        stages.seconds["total"] = time.perf_counter() - began
        log.info("game %s: update %s resolved (%s)", game_id, update_no, stages.text())
        if ended:
            await self.make_timelapse(game_id)
        return Resolution(game_id, update_no, "resolved", report, ended, stages.seconds)

    async def _claim(self, game_id: int, update_no: int, force: bool):
        now = self.now()
        async with self._after_orders(game_id), self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                if game.update_no > update_no or game.status == "ended":
                    return Resolution(game_id, update_no, "already_resolved")
                if game.status != "running" or game.update_no != update_no:
                    return Resolution(game_id, update_no, "not_running")
                if game.claimed_by == self.holder:
                    # ours, left by a task of this service that was cancelled: none of ours is at it now
                    await q.release_claim(game.id, update_no, self.holder)
                elif game.claimed_by is not None and not await self._free_dead_claims(q, (game.id,)):
                    return Resolution(game_id, update_no, "busy")          # its holder lives: never taken over
                if not force and (game.deadline_at is None or game.deadline_at > now):
                    return Resolution(game_id, update_no, "not_due")
                await self._register(q)                 # a claim names a live, registered service
                if not await q.claim(game.id, update_no, self.holder, now):
                    return Resolution(game_id, update_no, "busy")
                await q.move_orders(game.id, update_no, "pending", "locked")
                ruleset = self.ruleset(game)
                base = await self._snapshot_state(q, game)
                joiners = await self._joiners(q, game, base)
                state = with_joiners(ruleset, base, joiners)
                players = await q.player_names(game.id)         # rows read as they are needed: no whole rows
                live = await q.live_canonical(game.id, update_no)
                orders = {players[user_id]: canonical for user_id, canonical in live if user_id in players}
                user_ids = {name: user_id for user_id, name in players.items()}
                return await q.game(game.id), ruleset, state, orders, joiners, user_ids

    async def _release(self, game_id: int, update_no: int) -> None:
        async with self.lock_for(game_id):
            async with self.store.transaction() as q:
                await q.release_claim(game_id, update_no, self.holder)

    async def _commit(self, game: Game, update_no: int, new_state: GameState, report: Report,
                      orders: dict[str, str], joiners, prepared: Prepared, stages: Stages | None = None
                      ) -> bool | None:
        """Store the update in one transaction; None if the claim was lost meanwhile."""
        stages = stages or Stages()
        began = time.perf_counter()
        try:
            return await self._store_update(game, update_no, new_state, report, orders, joiners, prepared, stages)
        finally:   # the snapshot, the orders' outcomes and the game; the posts are the outbox stage
            stages.seconds["store"] = time.perf_counter() - began - stages.seconds.get("outbox", 0.0)

    async def _store_update(self, game: Game, update_no: int, new_state: GameState, report: Report,
                            orders: dict[str, str], joiners, prepared: Prepared, stages: Stages) -> bool | None:
        async with self.lock_for(game.id):
            async with self.store.transaction() as q:
                if not await q.hold_claim(game.id, update_no, self.holder):     # fencing (see .claims)
                    current = await q.game(game.id)
                    log.warning("game %s: update %s was computed but is not stored: the claim of this service (%s) "
                                "was taken over meanwhile (%s); its result is given up", game.id, update_no,
                                self.holder, "the update is already resolved" if current.update_no != update_no
                                else f"now held by {current.claimed_by}" if current.claimed_by else "now free")
                    return None
                current = await q.game(game.id)
                now = self.now()
                revision = await q.next_revision(game.id, update_no)
                await q.insert_snapshot(game_id=game.id, update_no=update_no, revision=revision,
                                        base_revision=current.snapshot_revision, state=prepared.state,
                                        orders=orders, joiners=joiners, seed=current.seed, report=prepared.report,
                                        reason="update", created_at=now)
                frame = prepared.frame
                await q.insert_frame(game_id=game.id, update_no=update_no, revision=revision, label=frame.label,
                                     extent=frame.extent, bounds=frame.bounds, region=frame.region, png=frame.png)
                refusals = {e.players[0]: e.data.get("reason", "refused") for e in report.of_type("refused")}
                refused = {}
                if refusals:
                    refused = {row.user_id: refusals[row.name]
                               for row in await q.players(game.id, include_kicked=True) if row.name in refusals}
                await q.settle_orders(game.id, update_no, refused)
                outbox_began = time.perf_counter()
                await self._posts(q, current, [(update_no, d.kind, d.body, d.attachment, d.filename, d.recipient)
                                               for d in prepared.drafts])
                stages.seconds["outbox"] = time.perf_counter() - outbox_began
                schedule = self.schedule(current)
                next_deadline = None
                if current.deadline_at is not None:
                    next_deadline = schedule.next_deadline(current.deadline_at)
                if next_deadline is None or next_deadline <= now:
                    next_deadline = schedule.next_deadline(now)
                if self.resolves_early(current) and self.variant(current).may_resolve_early(new_state, ()):
                    next_deadline = now     # nobody to wait for (a skipped territory turn): resolve it at once
                lock_before = timedelta(minutes=self.settings(current).lock_before)
                await q.update_game(game.id, update_no=update_no + 1, snapshot_update=update_no,
                                    snapshot_revision=revision, locked=False, claimed_by=None, claimed_at=None,
                                    deadline_at=next_deadline, reminded_for=None,
                                    lock_at=None if next_deadline is None else max(now, next_deadline - lock_before))
                self._states[game.id] = ((update_no, revision), new_state)
                opened = await q.game(game.id)         # the next update's orders are checked on its position
                joiners = await self._joiners(q, opened, new_state)
                self._remember_position(opened, position_token(opened, joiners),
                                        with_joiners(self.ruleset(opened), new_state, joiners))
                await self._sync_teams(q, current, new_state, update_no)
                verdict = self.variant(current).verdict(new_state)
                length = self.settings(current).length
                if verdict.over:
                    game = await q.game(game.id)
                    await self._finish(q, game, 0, verdict.reason or ("drawn" if verdict.drawn else "won"),
                                       self._verdict_text(game, new_state, verdict))
                    return True
                if length is not None and update_no >= length:
                    await self._finish(q, await q.game(game.id), 0, f"all {length} updates are played")
                    return True
                return False

    def _verdict_text(self, game: Game, state: GameState, verdict) -> str:
        """The result as the channel reads it, after the end's "has ended: <why>." in the same
        announcement (``_finish``; two posts back to back said the end twice): the winners (or the
        draw) and the final standings in the variant's words (arena: each player's points)."""
        winners = list(verdict.winners)
        if verdict.drawn:
            headline = "The game is drawn"
        elif len(winners) == 1:
            headline = f"{winners[0]} wins"
        else:
            headline = f"{', '.join(winners[:-1])} and {winners[-1]} share the win"
        lines = self.variant(game).standing_lines(state)
        return "\n".join([f"{headline} after update {state.update - 1}.", "Final standings:", *lines])

    # ------------------------------------------------------------------ moderator timing
    async def extend(self, game_id: int, *, minutes: float, actor: Moderator) -> Game:
        """Move the deadline (and the lock) later; refused while paused. A lock that moves into the
        future reopens the order book."""
        async with self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                actor_id = require_moderator(actor, game.guild_id, "extend a deadline")
                if isinstance(minutes, bool) or not isinstance(minutes, (int, float)) or not 0 < minutes <= 7 * 24 * 60:
                    raise InvalidInput(f"extend by 1 minute to a week (10,080 minutes), not {minutes!r}")
                self._require_live(game)
                if game.status == "paused":
                    raise WrongTime(f"game {game.id} is paused: its clock is stopped",
                                    hint="resume it first; the deadline then moves by the paused time")
                if game.deadline_at is None:
                    raise WrongTime(f"game {game.id} has no deadline (its schedule is manual)",
                                    hint="set a schedule with /game schedule, or resolve with /mod resolve")
                if game.claimed_by is not None:
                    raise WrongTime(f"update {game.update_no} is being resolved; it is too late to extend it")
                now = self.now()
                delta = timedelta(minutes=minutes)
                deadline = game.deadline_at + delta
                lock_at = (game.lock_at or game.deadline_at) + delta
                changes = {"deadline_at": deadline, "lock_at": lock_at, "reminded_for": None}
                if game.locked and lock_at > now:
                    changes["locked"] = False
                    await q.move_orders(game.id, game.update_no, "locked", "pending")
                await q.update_game(game.id, **changes)
                await q.audit(game_id=game.id, actor=actor_id, action="extend",
                              detail={"minutes": minutes, "deadline": deadline.isoformat()}, at=now)
                await self._post(q, game, game.update_no, "announcement",
                                 f"The deadline of update {game.update_no} is extended to "
                                 f"{deadline:%Y-%m-%d %H:%M} UTC.")
                game = await q.game(game.id)
        self._schedule_changed(game.id)
        return game

    async def rollback(self, game_id: int, *, to_update: int, actor: Moderator, reason: str = "") -> Game:
        """Make update ``to_update``'s last revision current again. Later snapshots are kept, marked
        rolled back; pending orders are cancelled (their players are told); nothing posted is deleted.
        A game that ended at its verdict may be rolled back too (a win decided by a wrong update): it
        runs again from there, and its result leaves the ratings until it ends again (issue 42)."""
        async with self._after_orders(game_id), self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                actor_id = require_moderator(actor, game.guild_id, "roll a game back")
                reopened = game.status == "ended"
                if reopened:
                    await self._require_reopenable(q, game)
                else:
                    self._require_live(game)
                if game.claimed_by is not None:
                    raise WrongTime(f"update {game.update_no} is being resolved; roll back once it is posted")
                if isinstance(to_update, bool) or not isinstance(to_update, int) or not 0 <= to_update < game.snapshot_update:
                    raise InvalidInput(f"roll back to an earlier update, 0 to {game.snapshot_update - 1}, not {to_update!r}"
                                       if game.snapshot_update else "there is no earlier update to roll back to",
                                       hint=f"the board now shows the position after update {game.snapshot_update}")
                target = await q.current_revision(game.id, to_update)
                undone = await q.roll_back_after(game.id, to_update)
                now = self.now()
                players = {row.user_id: row.name for row in await q.players(game.id, include_kicked=True)}
                for order in await q.live_orders(game.id, game.update_no):
                    await q.set_order_status(order.id, "cancelled")
                    await self._post(q, game, to_update + 1, "notice",
                                     f"Your order for update {game.update_no} of {game.name} was "
                                     f"cancelled: a moderator rolled the game back to update {to_update}. "
                                     f"Send an order for update {to_update + 1}.", recipient=order.user_id)
                changes = {"update_no": to_update + 1, "snapshot_update": to_update,
                           "snapshot_revision": target.revision, "locked": False}
                if reopened:
                    changes["status"] = "running"
                    await q.forget_game_result(game.id)
                changes.update(self._deadlines(game, self.schedule(game), now))
                await q.update_game(game.id, **changes)
                await q.audit(game_id=game.id, actor=actor_id, action="rollback",
                              detail={"to": to_update, "from": game.snapshot_update, "snapshots_undone": undone,
                                      "reason": reason[:500], **({"reopened": True} if reopened else {})}, at=now)
                self._forget_state(game.id)
                game = await q.game(game.id)
                state = serialize.loads(target.state)
                await self._sync_teams(q, game, state, to_update)
                board = await asyncio.to_thread(render_board, self.ruleset(game), state,
                                                palette=self.settings(game).palette)
                why = f" ({reason[:500]})" if reason else ""
                if reopened:
                    why += "; the game had ended and runs again: its result no longer counts"
                await self._post(q, game, to_update, "announcement",
                                 f"A moderator rolled **{game.name}** back to the board after update {to_update}"
                                 f"{why}. Orders are open for update {to_update + 1}; orders sent for later updates "
                                 f"were cancelled (their players were told). {len(players)} players are in the game.",
                                 board.png, "board.png")
        self._schedule_changed(game.id)
        return game

    async def _require_reopenable(self, q, game: Game) -> None:
        """An ended game may be rolled back only if it ended at its verdict (a moderator's end
        stands) and its channel has no other live game now (one live game a channel)."""
        if game.snapshot_update is None or not self.variant(game).verdict(await self._snapshot_state(q, game)).over:
            raise WrongTime(f"game {game.id} ({game.name}) was ended by a moderator, not by its verdict, and "
                            f"cannot be rolled back")
        others = [other for other in await q.games(channel_id=game.channel_id) if other.id != game.id]
        if others:
            raise Conflict(f"game {game.id} ({game.name}) cannot run again here: game {others[0].id} "
                           f"({others[0].name}) is live in its channel", hint="end that game first")

    # ------------------------------------------------------------------ history
    async def history(self, game_id: int, update_no: int) -> HistoryEntry:
        """An earlier update as it stands now: its state, its orders and its report."""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            if game.snapshot_update is None:
                raise WrongTime(f"game {game.id} has not started yet")
            if isinstance(update_no, bool) or not isinstance(update_no, int) or not 0 <= update_no <= game.snapshot_update:
                raise NotFound(f"game {game.id} has updates 0 to {game.snapshot_update}, not {update_no!r}")
            snapshot = await q.current_revision(game.id, update_no)
            resolved = await q.resolved_revision(game.id, update_no) or snapshot   # edited since: its report
        report = None if resolved.report is None else Report.from_json(resolved.report)
        return HistoryEntry(snapshot.update_no, snapshot.revision, resolved.orders, report,
                            serialize.loads(snapshot.state), snapshot.reason)

    async def replay(self, game_id: int, update_no: int) -> bool:
        """Re-resolve a stored update from its base, orders and seed: True if it gives the same state."""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            snapshot = await q.resolved_revision(game.id, update_no) if is_row_number(update_no) else None
            if snapshot is None:
                raise NotFound(f"update {str(update_no)[:20]} of game {game.id} was not resolved by the engine")
            base = await q.snapshot(game.id, update_no - 1, snapshot.base_revision)
        ruleset = self.ruleset(game)
        state = with_joiners(ruleset, serialize.loads(base.state), snapshot.joiners)
        new_state, _ = await asyncio.to_thread(resolve_frozen, ruleset, state, snapshot.orders, snapshot.seed)
        # compared as this code writes states: a snapshot stored in an older format is migrated first
        return serialize.dumps(new_state) == serialize.dumps(serialize.loads(snapshot.state))

