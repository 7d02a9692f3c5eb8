"""The test table for the service: a real SQLite file, a clock the test moves, and helpers.

Every test gets a fresh database under ``tmp_path`` and a :class:`Table`. Nothing sleeps on the wall
clock: deadlines, backoffs and pauses are crossed by moving ``table.clock``.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.service import Moderator, Service
from bot.store import Store

START = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
MODERATOR = Moderator(user_id=99, guild_id=1)     # a moderator of the tests' server (guild 1)

#: (user id, name, colour, king square) of the usual players; kings far enough apart not to attack
PLAYERS = [(1, "Alice", "Red", (0, 0)), (2, "Bob", "Blue", (10, 0)), (3, "Cleo", "Green", (0, 10))]


class Clock:
    """A service clock the test moves by hand."""

    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> datetime:
        self.now += timedelta(**delta)
        return self.now

    def past(self, moment: datetime) -> datetime:
        """Move just past ``moment`` (a deadline, a retry time)."""
        self.now = moment + timedelta(seconds=1)
        return self.now


def dump(path: Path) -> list[str]:
    """Every table of the database, schema and rows, as SQL text (a separate connection: committed
    data only)."""
    connection = sqlite3.connect(path)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


def rows(path: Path, sql: str, params=()) -> list[tuple]:
    connection = sqlite3.connect(path)
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


class Table:
    """One database file, its store, a service on it and the clock they share."""

    MODERATOR = MODERATOR
    PLAYERS = PLAYERS

    def __init__(self, path: Path, store: Store, clock: Clock) -> None:
        self.path = path
        self.store = store
        self.clock = clock
        self.service = Service(store, clock=clock)
        self._extra: list[Store] = []

    # ------------------------------------------------------------------ database
    async def refused(self, coroutine, error_type, *words):
        """Run a use case that must be refused: its error's type and words (a user reads them, in
        one Discord message), and a database left exactly as it was."""
        before = self.dump()
        with pytest.raises(error_type) as caught:
            await coroutine
        told = caught.value.describe()
        for word in words:
            assert word in told, f"{word!r} not in {told!r}"
        assert len(told) < 2000, "the answer would not fit in a Discord message"
        assert self.dump() == before, "a refused request changed the database"
        return caught.value

    def dump(self) -> list[str]:
        return dump(self.path)

    def rows(self, sql: str, params=()) -> list[tuple]:
        return rows(self.path, sql, params)

    async def posts(self, game_id: int):
        async with self.store.snapshot_read() as q:
            return await q.posts(game_id)

    async def orders(self, game_id: int, update_no: int | None = None):
        async with self.store.snapshot_read() as q:
            return await q.orders(game_id, update_no)

    async def snapshots(self, game_id: int, include_rolled_back: bool = True):
        async with self.store.snapshot_read() as q:
            return await q.snapshots(game_id, include_rolled_back=include_rolled_back)

    async def other_process(self, holder: str) -> Service:
        """A second Store on the same file and a Service on it: what another process would have."""
        store = await Store.open(self.path)
        self._extra.append(store)
        return Service(store, clock=self.clock, holder=holder)

    async def close(self) -> None:
        for store in self._extra:
            await store.close()
        await self.store.close()

    # ------------------------------------------------------------------ games
    async def new_game(self, *, channel_id: int = 10, schedule: str = "every 1 hour", seed: int = 7,
                       players=PLAYERS, settings: dict | None = None, ruleset: str = "neisg", name: str | None = None):
        """A started game with ``players`` joined (no king placed yet): update 1 is open."""
        service = self.service
        game = await service.create_game(guild_id=1, channel_id=channel_id, actor=MODERATOR, schedule=schedule,
                                         seed=seed, settings=settings, ruleset=ruleset, name=name)
        game = await service.start_game(game.id, actor=MODERATOR)
        for user_id, name_, colour, _ in players:
            await service.join(game.id, user_id=user_id, name=name_, colour=colour)
        return game

    async def playing_game(self, **kwargs):
        """A game whose update 1 (every player's king placement) is resolved: update 2 is open."""
        players = kwargs.get("players", PLAYERS)
        game = await self.new_game(**kwargs)
        for user_id, _, _, (x, y) in players:
            await self.service.submit_order(game.id, user_id=user_id, text=f"K({x},{y})")
        result = await self.resolve(game.id)
        assert result.resolved, result
        return await self.service.get_game(game.id)

    async def resolve(self, game_id: int):
        """Move the clock past the open update's deadline and resolve it (a manual game: force it)."""
        game = await self.service.get_game(game_id)
        if game.deadline_at is None:
            return await self.service.resolve_if_due(game_id, game.update_no, force=True)
        self.clock.past(game.deadline_at)
        return await self.service.resolve_if_due(game_id, game.update_no)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_path(tmp_path) -> Path:
    return tmp_path / "skirmish.sqlite3"


@pytest.fixture
async def table(db_path, clock):
    store = await Store.open(db_path)
    table = Table(db_path, store, clock)
    try:
        yield table
    finally:
        await table.close()
