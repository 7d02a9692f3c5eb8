"""The SQLite store: schema and migrations (PRAGMA user_version), transactions, snapshots of reads,
and the two statements the service's guarantees rest on (``claim`` and ``mark_sent``)."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import datetime, timezone
from importlib import resources

import pytest

from bot.store import SCHEMA_VERSION, Store, StoreError
from bot.store.database import migrations

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
TABLES = ["audit", "games", "orders", "outbox", "players", "snapshots", "team_members", "team_threads", "timelapse_frames",
          "timelapses"]


def user_version(path) -> int:
    with sqlite3.connect(path) as connection:
        version = connection.execute("PRAGMA user_version").fetchone()[0]
    connection.close()
    return version


def columns(path, table: str) -> list[str]:
    connection = sqlite3.connect(path)
    try:
        return [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
    finally:
        connection.close()


def schema_of(path) -> list[tuple]:
    connection = sqlite3.connect(path)
    try:
        return connection.execute("SELECT type, name, tbl_name FROM sqlite_master ORDER BY type, name").fetchall()
    finally:
        connection.close()


def dump(path) -> list[str]:
    connection = sqlite3.connect(path)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


@pytest.fixture
def path(tmp_path):
    return tmp_path / "skirmish.sqlite3"


@pytest.fixture
async def store(path):
    store = await Store.open(path)
    yield store
    await store.close()


async def add_game(q, channel_id: int = 10, name: str = "test") -> int:
    return await q.insert_game(name=name, ruleset="neisg", guild_id=1, channel_id=channel_id, seed="7", settings={},
                               schedule={"kind": "manual"}, created_at=NOW, created_by=99)


# ---------------------------------------------------------------------------------------------- schema
def test_migrations_are_numbered_from_one_without_gaps():
    found = migrations()
    assert [version for version, _, _ in found] == list(range(1, len(found) + 1))
    assert found[0][1] == "schema.sql" and SCHEMA_VERSION == len(found) >= 2


async def test_a_new_database_gets_the_current_schema(store, path):
    assert user_version(path) == SCHEMA_VERSION
    tables = sorted(name for kind, name, _ in schema_of(path) if kind == "table")
    assert tables == TABLES
    assert "reminded_for" in columns(path, "games")
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    connection.close()


async def test_a_version_1_database_is_upgraded_on_open_and_keeps_its_rows(tmp_path, path):
    schema = resources.files("bot.store").joinpath("schema.sql").read_text(encoding="utf-8")
    with sqlite3.connect(path) as connection:
        connection.executescript(schema)
        connection.execute("PRAGMA user_version = 1")
        connection.execute("INSERT INTO games (name, ruleset, guild_id, channel_id, seed, created_at, created_by)"
                           " VALUES ('old game', 'neisg', 1, 10, '7', ?, 99)", (NOW.isoformat(),))
    connection.close()
    assert "reminded_for" not in columns(path, "games")

    store = await Store.open(path)
    try:
        assert user_version(path) == SCHEMA_VERSION
        assert "reminded_for" in columns(path, "games")
        async with store.snapshot_read() as q:
            game = await q.game(1)
        assert (game.name, game.reminded_for, game.status) == ("old game", None, "setup")
    finally:
        await store.close()

    fresh = tmp_path / "fresh.sqlite3"            # an upgraded database has exactly a fresh one's schema
    await (await Store.open(fresh)).close()
    assert columns(path, "games") == columns(fresh, "games")
    assert schema_of(path) == schema_of(fresh)

    before = dump(path)                           # opening again migrates nothing
    await (await Store.open(path)).close()
    assert dump(path) == before


async def test_a_database_newer_than_the_code_is_refused_untouched(path):
    await (await Store.open(path)).close()
    with sqlite3.connect(path) as connection:
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    before = dump(path)
    with pytest.raises(StoreError) as caught:
        await Store.open(path)
    message = str(caught.value)
    assert f"has schema version {SCHEMA_VERSION + 1}, newer than this code's {SCHEMA_VERSION}" in message
    assert "upgrade Skirmish before opening it" in message
    assert dump(path) == before and user_version(path) == SCHEMA_VERSION + 1


async def test_a_file_that_is_not_a_database_is_refused(path):
    path.write_bytes(b"these are not the tables you are looking for" * 100)
    with pytest.raises(StoreError, match="is not a Skirmish database"):
        await Store.open(path)


# ---------------------------------------------------------------------------------------------- transactions
async def test_a_transaction_that_raises_leaves_nothing(store, path):
    with pytest.raises(RuntimeError):
        async with store.transaction() as q:
            await add_game(q)
            raise RuntimeError("the use case failed half-way")
    assert not any(line.startswith('INSERT INTO "games"') for line in dump(path))
    async with store.transaction() as q:           # and the connection is usable afterwards
        assert await add_game(q) == 1


async def test_on_commit_callbacks_run_after_a_commit_only(store):
    calls = []
    async with store.transaction() as q:
        q.on_commit.append(lambda: calls.append("committed"))
        await add_game(q)
    with pytest.raises(ValueError):
        async with store.transaction() as q:
            q.on_commit.append(lambda: calls.append("rolled back"))
            raise ValueError
    assert calls == ["committed"]


async def test_a_read_sees_only_committed_data(store):
    async with store.transaction() as q:
        game_id = await add_game(q)
        async with store.snapshot_read() as reader:
            assert await reader.game(game_id) is None          # not committed yet
    async with store.snapshot_read() as reader:
        assert (await reader.game(game_id)).name == "test"
        with pytest.raises(RuntimeError, match="read-only"):
            await reader.update_game(game_id, name="changed")


async def test_sql_in_values_is_only_data(store, path):
    name = "Robert'); DROP TABLE games;--"
    async with store.transaction() as q:
        game_id = await add_game(q, name=name)
        await q.insert_player(game_id=game_id, user_id=1, name=name, colour="Red", joined_at=NOW, joined_update=1)
    async with store.snapshot_read() as q:
        assert (await q.game(game_id)).name == name
        assert (await q.player_named(game_id, name.upper())).name == name
    assert sorted(n for kind, n, _ in schema_of(path) if kind == "table") == TABLES
    with pytest.raises(KeyError, match="not a writable game column"):
        async with store.transaction() as q:
            await q.update_game(game_id, **{"name = 'x'; DROP TABLE games; --": 1})


async def test_one_live_game_per_channel_and_one_live_order_per_player(store):
    async with store.transaction() as q:
        game_id = await add_game(q, channel_id=10)
        await q.insert_player(game_id=game_id, user_id=1, name="Alice", colour="Red", joined_at=NOW, joined_update=1)
        await q.insert_order(game_id=game_id, update_no=1, user_id=1, text="K(0,0)", canonical="+K(0,0)",
                             source="channel", submitted_at=NOW)
    with pytest.raises(sqlite3.IntegrityError):
        async with store.transaction() as q:
            await add_game(q, channel_id=10)
    with pytest.raises(sqlite3.IntegrityError):
        async with store.transaction() as q:
            await q.insert_order(game_id=game_id, update_no=1, user_id=1, text="K(1,1)", canonical="+K(1,1)",
                                 source="channel", submitted_at=NOW)
    with pytest.raises(sqlite3.IntegrityError):
        async with store.transaction() as q:
            await q.insert_player(game_id=game_id, user_id=2, name="ALICE", colour="Blue", joined_at=NOW,
                                  joined_update=1)


# ---------------------------------------------------------------------------------------------- guarantees
async def test_exactly_one_of_two_processes_claims_an_update(store, path):
    async with store.transaction() as q:
        game_id = await add_game(q)
        await q.update_game(game_id, status="running", update_no=1)
    other = await Store.open(path)
    try:
        async def claim(s: Store, holder: str) -> bool:
            async with s.transaction() as q:
                return await q.claim(game_id, 1, holder, NOW)
        results = await asyncio.gather(claim(store, "a"), claim(other, "b"), claim(store, "c"), claim(other, "d"))
        assert results.count(True) == 1
        async with other.snapshot_read() as q:
            game = await q.game(game_id)
        assert game.claimed_by == "abcd"[results.index(True)] and game.locked
        async with store.transaction() as q:
            assert await q.claim(game_id, 2, "e", NOW) is False        # not the open update
    finally:
        await other.close()


async def test_a_post_is_marked_sent_once(store, path):
    async with store.transaction() as q:
        game_id = await add_game(q)
        post_id = await q.insert_post(game_id=game_id, update_no=0, kind="announcement", body="hi", created_at=NOW)
    other = await Store.open(path)
    try:
        async def mark(s: Store, message: str) -> bool:
            async with s.transaction() as q:
                return await q.mark_sent(post_id, NOW, message)
        assert sorted(await asyncio.gather(mark(store, "one"), mark(other, "two"))) == [False, True]
        async with store.transaction() as q:
            await q.mark_failed(post_id, "late failure", None)            # a sent row stays sent
        async with store.snapshot_read() as q:
            [post] = await q.posts(game_id)
            assert await q.unsent_count() == 0
        assert post.attempts == 1 and post.last_error is None and post.message_id in ("one", "two")
    finally:
        await other.close()


async def test_times_are_stored_in_utc(store):
    with pytest.raises(ValueError, match="timezone-aware"):
        async with store.transaction() as q:
            await q.insert_game(name="x", ruleset="neisg", guild_id=1, channel_id=1, seed="1", settings={},
                                schedule={}, created_at=datetime(2026, 1, 1), created_by=1)
