"""What every use case shares: the store, the clock, rulesets, per-game locks and the working state.

The *working state* of a game is its current snapshot's engine state plus the players who joined
since (RULES 4: a joiner is a player without pieces until their king placement resolves). Orders
are validated against it, the update resolves it, and views draw it.
"""

from __future__ import annotations

import asyncio
import gc
import uuid
from collections import OrderedDict
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import AsyncIterator, Callable

from bot.engine import serialize
from bot.engine.model import Player
from bot.engine.ruleset import Ruleset, RulesetError, load_preset
from bot.engine.state import GameState
from bot.engine.variants import Variant, VariantUnavailable, variant_for
from bot.shards import Shards
from bot.store import Game, Queries, Store

from .errors import NotAllowed, NotFound, WrongTime
from .rulebook import Rulebook
from .settings import GameSettings, Schedule

__all__ = ["ServiceBase", "Clock", "utc_now", "new_identity", "with_joiners", "is_row_number", "departed",
           "OrderContext", "OrdersBarrier", "position_token", "frozen"]

Clock = Callable[[], datetime]

#: SQLite's integers: a number outside them can name no row (and would crash the driver)
_SQL_INTEGERS = range(-2**63, 2**63)


def is_row_number(value) -> bool:
    """True for an int that SQLite can store (ids and update numbers typed by people may not be)."""
    return isinstance(value, int) and not isinstance(value, bool) and value in _SQL_INTEGERS


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def with_joiners(ruleset: Ruleset, state: GameState, joiners: list[tuple[str, str]]) -> GameState:
    """``state`` with players added, each as the ruleset's variant seats a newcomer (RULES 4: with
    the starting balance)."""
    if not joiners:
        return state
    variant = variant_for(ruleset)
    added: dict[str, Player] = {name: variant.new_player(name, colour) for name, colour in joiners}
    return replace(state, players={**state.players, **added})


def departed(player, game: Game) -> str:
    """Why ``player`` (a row with status 'kicked') may not act in ``game`` any more, in words."""
    if player.departure == "left":
        return f"you left game {game.id} ({game.name})"
    if player.departure == "replaced":
        return f"a moderator gave your seat in game {game.id} ({game.name}) to another member"
    return f"a moderator removed you from game {game.id} ({game.name})"


def frozen(work, *args):
    """``work(*args)`` with every object that exists before it out of the garbage collector's
    reach while it runs (``gc.freeze``; given back after, whatever happens). Run in a thread on a
    large game, each full collection the work triggers would walk the whole heap (the positions
    loaded: hundreds of thousands of objects) holding the interpreter lock, and so stall the event
    loop for a tenth of a second or more; and it would slow the work itself.

    The collector is also off while the work runs: what the work makes is freed by reference
    counting, and the collections it would trigger only walk the large young containers it builds
    (a copied board of 500,000 pieces: a fifth of an update's time, issue 25). At the end, what it
    made and kept is frozen too before the collector is back, so that no young collection walks it
    all at once, on the event loop perhaps; it joins the oldest generation (any cycle made meanwhile
    is collected with it, later)."""
    gc.freeze()
    enabled = gc.isenabled()
    gc.disable()
    try:
        return work(*args)
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
        gc.unfreeze()


def new_identity() -> str:
    """A running service's identity, what its claims name: unique whatever the host or the pid
    (two services of one process, a re-created container, a reused pid; see .claims)."""
    return uuid.uuid4().hex


@dataclass(frozen=True, slots=True)
class OrderContext:
    """The position a game's orders were last validated against (the working state of the open
    update) and what validating needs: the game's row, its variant, its players' rows as last
    read. Only a help for validating ahead of the write (see .orders): each group of submissions
    checks that ``token`` is still the game's."""

    game: Game
    variant: Variant
    token: tuple
    state: GameState
    players: dict


@dataclass(frozen=True, slots=True)
class OrdersBarrier:
    """A use case's place in a game's queue of submissions (see ``_after_orders``): the writer sets
    ``reached`` when every submission before it is written, and waits for ``released``."""

    reached: asyncio.Future
    released: asyncio.Future


def position_token(game: Game, joiners: list[tuple[str, str]]) -> tuple:
    """What the working state of the game's open update, and so the engine's answers on it,
    depend on: the ruleset as the game plays it, the update, the current snapshot, the joiners."""
    return (game.ruleset, game.settings, game.update_no, game.snapshot_update, game.snapshot_revision, tuple(joiners))


class ServiceBase:
    """The shared part of :class:`bot.service.Service`; the use cases are its mixins."""

    #: where players read the rules that messages cite (the bot sets it from ``[docs] rulebook_url``)
    rulebook: Rulebook = Rulebook()

    def __init__(self, store: Store, *, clock: Clock = utc_now, holder: str | None = None,
                 shards: Shards | None = None) -> None:
        self.store = store
        self.clock = clock
        #: this service's identity: what its claims name (see .claims)
        self.holder = holder or new_identity()
        #: the Discord shards this process runs: it schedules, resolves and posts only the games of
        #: their servers (docs/sharding.md); by default every game
        self.shards = shards or Shards.whole()
        self._locks: dict[int, asyncio.Lock] = {}
        self._states: dict[int, tuple[tuple[int, int], GameState]] = {}
        #: order suggestions (issue 28): each player's moves per position, and each game's position
        #: for movement queries, kept while the snapshot revision stays (see .suggestions)
        self._move_lists: OrderedDict = OrderedDict()
        self._positions: dict[int, tuple] = {}
        #: orders (issue 25): each game's submissions waiting for their group's transaction, the task
        #: writing them, and the position orders were last validated against (see .orders)
        self._order_queues: dict[int, list] = {}
        self._order_writers: dict[int, asyncio.Task] = {}
        self._order_contexts: dict[int, OrderContext] = {}
        #: careers (issue 42): each (game, member)'s count of the stored updates, kept between
        #: profiles and carried on from the last update counted (see .careers)
        self._career_counts: OrderedDict = OrderedDict()
        #: set whenever a transaction wrote posts to the outbox; the publisher waits on it
        self.posts_waiting = asyncio.Event()
        #: called (besides setting ``posts_waiting``) after a transaction that wrote posts commits
        self.on_posts_waiting: Callable[[], None] | None = None
        #: called with the game id after anything that moves a game's deadlines (the scheduler)
        self.on_schedule_change: Callable[[int], None] | None = None

    # ------------------------------------------------------------------ helpers
    def now(self) -> datetime:
        moment = self.clock()
        if moment.tzinfo is None:
            raise ValueError("the service clock must return timezone-aware UTC times")
        return moment

    def owns(self, game: Game) -> bool:
        """Whether this process schedules, resolves and posts ``game`` (its server is on our shards)."""
        return self.shards.owns(game.guild_id)

    async def owned_games(self, statuses: tuple[str, ...] = ("running",)) -> list[Game]:
        """The games of our shards' servers with these statuses, by id (the scheduler's)."""
        async with self.store.snapshot_read() as q:
            return await q.games(statuses=statuses, owned=self.shards)

    def lock_for(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    @staticmethod
    def ruleset(game: Game) -> Ruleset:
        """The game's ruleset as it plays it: the preset with the game's settings applied."""
        try:
            return GameSettings.from_json(game.settings).applied_to(load_preset(game.ruleset))
        except RulesetError as exc:  # a preset removed since the game was made: an operator's problem
            raise NotFound(f"game {game.id}'s ruleset {game.ruleset!r} cannot be loaded: {exc}") from None

    @classmethod
    def variant(cls, game: Game) -> Variant:
        """The variant that plays the game (its ruleset as the game plays it): what the cogs, the
        posts and the views ask instead of reading the ruleset's rules."""
        try:
            return variant_for(cls.ruleset(game))
        except VariantUnavailable as exc:  # a game made before its family was withdrawn: an operator's problem
            raise NotFound(f"game {game.id}'s ruleset {game.ruleset!r} cannot be played: {exc}") from None

    @staticmethod
    def settings(game: Game) -> GameSettings:
        return GameSettings.from_json(game.settings)

    @classmethod
    def resolves_early(cls, game: Game) -> bool:
        """Whether the game resolves an update once every player who may order has ordered: the
        game's setting, else its variant's default (issue 20)."""
        features = cls.variant(game).features
        if features.turn_based:             # a turn ends at its player's accepted submission (RULES 5.4.8)
            return True
        chosen = cls.settings(game).early_resolution
        return features.early_resolution if chosen is None else chosen

    @staticmethod
    def schedule(game: Game) -> Schedule:
        return Schedule.from_json(game.schedule)

    def _schedule_changed(self, game_id: int) -> None:
        if self.on_schedule_change is not None:
            self.on_schedule_change(game_id)

    async def _game(self, q: Queries, game_id: int) -> Game:
        self._require_game_number(game_id)
        game = await q.game(game_id)
        if game is None:
            raise NotFound(f"there is no game {game_id}", hint="/game list shows the games of this server")
        return game

    @staticmethod
    def _require_game_number(game_id) -> None:
        """Refuse what cannot be a game's id (``True`` is not game 1)."""
        if isinstance(game_id, bool) or not isinstance(game_id, int):
            raise NotFound(f"{str(game_id)[:40]!r} is not a game number")
        if not is_row_number(game_id):
            raise NotFound(f"there is no game {str(game_id)[:20]}...", hint="/game list shows the games of this server")

    @staticmethod
    def _require_live(game: Game) -> None:
        if game.status == "setup":
            raise WrongTime(f"game {game.id} ({game.name}) has not started yet",
                            hint="a moderator starts it with /game start")
        if game.status == "ended":
            raise WrongTime(f"game {game.id} ({game.name}) has ended")

    async def _player(self, q: Queries, game: Game, user_id: int):
        return self._require_player(game, await q.player(game.id, user_id) if is_row_number(user_id) else None)

    @staticmethod
    def _require_player(game: Game, player):
        """``player`` (a row of ``game``, or None) if they play it; else why not (NotAllowed)."""
        if player is None:
            raise NotAllowed(f"you are not a player of game {game.id} ({game.name})",
                             hint="join it first with /join")
        if player.status == "kicked":
            raise NotAllowed(departed(player, game))
        return player

    async def _snapshot_state(self, q: Queries, game: Game) -> GameState:
        """The current snapshot's state, read once per revision and kept (states are not mutated)."""
        if game.snapshot_update is None:
            raise WrongTime(f"game {game.id} ({game.name}) has not started yet")
        key = (game.snapshot_update, game.snapshot_revision)
        cached = self._states.get(game.id)
        if cached is not None and cached[0] == key:
            return cached[1]
        # off the event loop: a 50,000-piece state takes half a second to read
        state = await asyncio.to_thread(frozen, serialize.loads, await q.snapshot_state(game.id, *key))
        self._states[game.id] = (key, state)
        return state

    async def _working_state(self, q: Queries, game: Game) -> GameState:
        """The snapshot's state with the players who joined since (a shallow copy: the board is shared)."""
        state = await self._snapshot_state(q, game)
        return with_joiners(self.ruleset(game), state, await self._joiners(q, game, state))

    async def _joiners(self, q: Queries, game: Game, state: GameState) -> list[tuple[str, str]]:
        """``(name, colour)`` of the players who joined and are not yet in ``state``, by name."""
        # A player who joined while update k was open is in every current snapshot of update k or later: it
        # was resolved from a claim taken after the join, or baked by an edit (one who joins while update k is
        # being resolved joins for k + 1). So only players who joined after the snapshot's update can be
        # missing from it, and the read stays small however many players the game has.
        recent = await q.joined_since(game.id, game.snapshot_update + 1)
        return [(name, colour) for name, colour in recent if name not in state.players]

    async def _may_order_now(self, q: Queries, game: Game) -> set[str]:
        """The names of the players who may order for the open update, as the variant says
        (reminders, /mod status and the "who has ordered" view name only them)."""
        if game.snapshot_update is None:
            return set()
        return set(self.variant(game).who_may_order(await self._working_state(q, game)))

    def _remember_position(self, game: Game, token: tuple, state: GameState, rows: dict | None = None) -> None:
        """Validate the game's next submissions ahead of their group against ``state`` (the
        working state that ``token`` names), knowing ``rows`` of its players besides those known."""
        context = self._order_contexts.get(game.id)
        players = context.players if context is not None else {}
        players.update(rows or {})
        self._order_contexts[game.id] = OrderContext(game, self.variant(game), token, state, players)

    @asynccontextmanager
    async def _after_orders(self, game_id: int) -> AsyncIterator[None]:
        """Run the block after the submissions made to the game so far are written or refused (see
        .orders) and before any made later: a use case that changes orders (cancel, lock, claim)
        then comes exactly where it would if each submission took the game's lock itself."""
        queue = self._order_queues.get(game_id)
        if not queue:       # none waiting; a group being written holds the lock, asked for before ours
            yield
            return
        loop = asyncio.get_running_loop()
        barrier = OrdersBarrier(loop.create_future(), loop.create_future())
        queue.append(barrier)
        try:
            await barrier.reached
            yield
        finally:
            if not barrier.released.done():
                barrier.released.set_result(None)

    def _forget_state(self, game_id: int) -> None:
        self._states.pop(game_id, None)

    # ------------------------------------------------------------------ shared steps of use cases
    def _deadlines(self, game: Game, schedule: Schedule, start: datetime) -> dict:
        """The lock and deadline of the update after ``start`` (both None for a manual schedule)."""
        deadline = schedule.next_deadline(start)
        if deadline is None:
            return {"deadline_at": None, "lock_at": None, "reminded_for": None}
        lock_at = max(start, deadline - timedelta(minutes=self.settings(game).lock_before))
        return {"deadline_at": deadline, "lock_at": lock_at, "reminded_for": None}

    async def _finish(self, q, game: Game, actor: int, reason: str, result: str = "") -> None:
        """End a game in the current transaction: pending orders cancelled, the end announced in one
        post (why it ended, then ``result``: who won and the final standings, when a verdict ended
        it), and the timelapse owed. The caller makes it after the commit (:meth:`make_timelapse`):
        drawing it here would hold the database for every game while it draws."""
        now = self.now()
        await q.move_orders(game.id, game.update_no, "pending", "cancelled")
        await q.move_orders(game.id, game.update_no, "locked", "cancelled")
        await q.update_game(game.id, status="ended", locked=True, lock_at=None, deadline_at=None, claimed_by=None,
                            claimed_at=None)
        await q.audit(game_id=game.id, actor=actor, action="end", detail={"reason": reason}, at=now)
        ended = f"**{game.name}** has ended: {reason}."
        await self._post(q, game, max(game.update_no - 1, 0), "announcement",
                         f"{ended} {result}" if result else ended)
        if len(await q.snapshot_keys(game.id)) >= 2:          # something happened since the start
            await q.owe_timelapse(game.id, max(game.update_no - 1, 0), now)

    async def _post(self, q, game: Game, update_no: int, kind: str, body: str = "", attachment: bytes | None = None,
                    filename: str | None = None, recipient: int | None = None) -> int:
        post_id = await q.insert_post(game_id=game.id, update_no=update_no, kind=kind, body=body,
                                      attachment=attachment, filename=filename, recipient=recipient,
                                      created_at=self.now())
        if self._posts_written not in q.on_commit:
            q.on_commit.append(self._posts_written)
        return post_id

    async def _posts(self, q, game: Game, posts: list[tuple]) -> None:
        """Many posts at once, in order (an update's): ``(update_no, kind, body, attachment,
        filename, recipient)`` each, as :meth:`_post` writes one."""
        if not posts:
            return
        await q.insert_posts(game_id=game.id, created_at=self.now(), posts=posts)
        if self._posts_written not in q.on_commit:
            q.on_commit.append(self._posts_written)

    def _posts_written(self) -> None:
        self.posts_waiting.set()
        if self.on_posts_waiting is not None:
            self.on_posts_waiting()
