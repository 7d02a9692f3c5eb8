"""The store on both back ends (SQLite and PostgreSQL, the ``store_url`` fixture): schema and
migrations, transactions, snapshots of reads, and the statements the service's guarantees rest on
(``claim`` and ``mark_sent``)."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import datetime, timezone
from importlib import resources

import asyncpg
import pytest
from postgres import run_async

from bot.store import SCHEMA_VERSION, IntegrityError, Store, StoreError
from bot.store.database import migrations, parse_url
from bot.store.portable import to_postgres

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
TABLES = {"audit", "games", "orders", "outbox", "players", "snapshots", "team_members", "team_threads",
          "timelapse_frames", "timelapses"}


class Database:
    """Looks into a store's database behind its back, the same way on both back ends."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.backend, self.where = parse_url(url)

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Rows of ``sql`` (SQLite's ``?`` placeholders; numbered for PostgreSQL)."""
        if self.backend == "sqlite":
            connection = sqlite3.connect(self.where)
            try:
                with connection:
                    return [tuple(row) for row in connection.execute(sql, params)]
            finally:
                connection.close()
        from bot.store.postgres import numbered

        async def run():
            connection = await asyncpg.connect(self.url)
            try:
                return [tuple(row) for row in await connection.fetch(numbered(sql), *params)]
            finally:
                await connection.close()
        return run_async(run())

    def script(self, statements: list[str]) -> None:
        if self.backend == "sqlite":
            connection = sqlite3.connect(self.where)
            try:
                connection.executescript("BEGIN;\n" + ";\n".join(statements) + ";\nCOMMIT;")
            finally:
                connection.close()
            return

        async def run():
            connection = await asyncpg.connect(self.url)
            try:
                async with connection.transaction():
                    for statement in statements:
                        await connection.execute(statement)
            finally:
                await connection.close()
        run_async(run())

    def version(self) -> int:
        if self.backend == "sqlite":
            return self.query("PRAGMA user_version")[0][0]
        return self.query("SELECT MAX(version) FROM skirmish_schema")[0][0]

    def set_version(self, version: int) -> None:
        if self.backend == "sqlite":
            self.script([f"PRAGMA user_version = {version}"])
        else:
            self.script([f"INSERT INTO skirmish_schema (version, name) VALUES ({version}, 'from the future')"])

    def tables(self) -> set[str]:
        if self.backend == "sqlite":
            return {name for (name,) in self.query("SELECT name FROM sqlite_master WHERE type = 'table'")}
        return {name for (name,) in self.query("SELECT table_name FROM information_schema.tables"
                                               " WHERE table_schema = 'public'")} - {"skirmish_schema"}

    def columns(self, table: str) -> list[str]:
        if self.backend == "sqlite":
            return [row[1] for row in self.query(f"PRAGMA table_info({table})")]
        return [name for (name,) in self.query("SELECT column_name FROM information_schema.columns WHERE"
                                               " table_schema = 'public' AND table_name = ? ORDER BY ordinal_position",
                                               (table,))]

    def dump(self) -> dict[str, list[tuple]]:
        """Every row of every table (and the schema's version)."""
        found = {table: sorted(map(repr, self.query(f"SELECT * FROM {table}"))) for table in sorted(self.tables())}
        found["version"] = [self.version()]
        return found


@pytest.fixture
async def store(store_url):
    store = await Store.open(store_url)
    yield store
    await store.close()


@pytest.fixture
def database(store_url) -> Database:
    return Database(store_url)


async def add_game(q, channel_id: int = 10, name: str = "test") -> int:
    return await q.insert_game(name=name, ruleset="neisg", guild_id=1, channel_id=channel_id, seed="7", settings={},
                               schedule={"kind": "manual"}, created_at=NOW, created_by=99)


# ---------------------------------------------------------------------------------------------- schema
def test_migrations_are_numbered_from_one_without_gaps():
    found = migrations()
    assert [version for version, _, _ in found] == list(range(1, len(found) + 1))
    assert found[0][1] == "schema.sql" and SCHEMA_VERSION == len(found) >= 2


async def test_a_new_database_gets_the_current_schema(store, database):
    assert database.version() == SCHEMA_VERSION
    assert TABLES <= database.tables()
    assert "reminded_for" in database.columns("games")
    if database.backend == "sqlite":
        assert database.query("PRAGMA journal_mode")[0][0] == "wal"


async def test_a_version_1_database_is_upgraded_on_open_and_keeps_its_rows(store_url, database, tmp_path):
    schema = resources.files("bot.store").joinpath("schema.sql").read_text(encoding="utf-8")
    insert = ("INSERT INTO games (name, ruleset, guild_id, channel_id, seed, created_at, created_by)"
              f" VALUES ('old game', 'neisg', 1, 10, '7', '{NOW.isoformat()}', 99)")
    if database.backend == "sqlite":
        database.script([schema, insert])
        database.set_version(1)
    else:
        database.script([*to_postgres(schema, "schema.sql"),
                         "CREATE TABLE skirmish_schema (version BIGINT PRIMARY KEY, name TEXT NOT NULL,"
                         " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
                         "INSERT INTO skirmish_schema (version, name) VALUES (1, 'schema.sql')", insert])
    assert "reminded_for" not in database.columns("games")

    store = await Store.open(store_url)
    try:
        assert database.version() == SCHEMA_VERSION
        assert "reminded_for" in database.columns("games")
        async with store.snapshot_read() as q:
            game = await q.game(1)
        assert (game.name, game.reminded_for, game.status) == ("old game", None, "setup")
        async with store.transaction() as q:      # the next id follows the rows there were
            assert await add_game(q, channel_id=11) == 2
    finally:
        await store.close()

    before = database.dump()                       # opening again migrates nothing
    await (await Store.open(store_url)).close()
    assert database.dump() == before


async def test_an_upgraded_sqlite_file_has_exactly_a_fresh_ones_schema(tmp_path):
    old, fresh = tmp_path / "old.sqlite3", tmp_path / "fresh.sqlite3"
    schema = resources.files("bot.store").joinpath("schema.sql").read_text(encoding="utf-8")
    connection = sqlite3.connect(old)
    connection.executescript(schema)
    connection.execute("PRAGMA user_version = 1")
    connection.close()
    await (await Store.open(old)).close()
    await (await Store.open(f"sqlite:///{fresh}")).close()
    shape = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
    assert Database(str(old)).query(shape) == Database(str(fresh)).query(shape)


async def test_a_database_newer_than_the_code_is_refused_untouched(store_url, database):
    await (await Store.open(store_url)).close()
    database.set_version(SCHEMA_VERSION + 1)
    before = database.dump()
    with pytest.raises(StoreError) as caught:
        await Store.open(store_url)
    message = str(caught.value)
    assert f"has schema version {SCHEMA_VERSION + 1}, newer than this code's {SCHEMA_VERSION}" in message
    assert "upgrade Skirmish before opening it" in message
    assert database.dump() == before and database.version() == SCHEMA_VERSION + 1


async def test_a_database_that_is_not_skirmishs_is_refused(store_url, database):
    if database.backend == "sqlite":
        from pathlib import Path
        Path(database.where).write_bytes(b"these are not the tables you are looking for" * 100)
    else:                                          # someone else's table of that name
        database.script(["CREATE TABLE games (title TEXT)", "INSERT INTO games VALUES ('chess')"])
    with pytest.raises(StoreError, match="is not a Skirmish database"):
        await Store.open(store_url)
    if database.backend == "postgresql":
        assert database.query("SELECT * FROM games") == [("chess",)] and database.tables() == {"games"}


# ---------------------------------------------------------------------------------------------- transactions
async def test_a_transaction_that_raises_leaves_nothing(store, database):
    with pytest.raises(RuntimeError):
        async with store.transaction() as q:
            await add_game(q)
            raise RuntimeError("the use case failed half-way")
    assert database.query("SELECT COUNT(*) FROM games") == [(0,)]
    async with store.transaction() as q:           # and the connection is usable afterwards
        assert await add_game(q) >= 1
    assert database.query("SELECT name FROM games") == [("test",)]


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


async def test_a_read_keeps_its_snapshot_while_a_write_commits(store):
    async with store.transaction() as q:
        game_id = await add_game(q)
    async with store.snapshot_read() as reader:
        assert (await reader.game(game_id)).name == "test"
        async with store.transaction() as q:
            await q.update_game(game_id, name="renamed")
        assert (await reader.game(game_id)).name == "test"       # the state the read began with
    async with store.snapshot_read() as reader:
        assert (await reader.game(game_id)).name == "renamed"


async def test_sql_in_values_is_only_data(store, database):
    name = "Robert'); DROP TABLE games;--"
    async with store.transaction() as q:
        game_id = await add_game(q, name=name)
        await q.insert_player(game_id=game_id, user_id=1, name=name, colour="Red", joined_at=NOW, joined_update=1)
    async with store.snapshot_read() as q:
        assert (await q.game(game_id)).name == name
        assert (await q.player_named(game_id, name.upper())).name == name
    assert TABLES <= database.tables()
    with pytest.raises(KeyError, match="not a writable game column"):
        async with store.transaction() as q:
            await q.update_game(game_id, **{"name = 'x'; DROP TABLE games; --": 1})


async def test_one_live_game_per_channel_and_one_live_order_per_player(store):
    async with store.transaction() as q:
        game_id = await add_game(q, channel_id=10)
        await q.insert_player(game_id=game_id, user_id=1, name="Alice", colour="Red", joined_at=NOW, joined_update=1)
        await q.insert_order(game_id=game_id, update_no=1, user_id=1, text="K(0,0)", canonical="+K(0,0)",
                             source="channel", submitted_at=NOW)
    with pytest.raises(IntegrityError):
        async with store.transaction() as q:
            await add_game(q, channel_id=10)
    with pytest.raises(IntegrityError):
        async with store.transaction() as q:
            await q.insert_order(game_id=game_id, update_no=1, user_id=1, text="K(1,1)", canonical="+K(1,1)",
                                 source="channel", submitted_at=NOW)
    with pytest.raises(IntegrityError):
        async with store.transaction() as q:
            await q.insert_player(game_id=game_id, user_id=2, name="ALICE", colour="Blue", joined_at=NOW,
                                  joined_update=1)
    with pytest.raises(IntegrityError):
        async with store.transaction() as q:
            await q.insert_player(game_id=game_id, user_id=2, name="Bob", colour="rED", joined_at=NOW,
                                  joined_update=1)
    async with store.snapshot_read() as q:
        assert [p.name for p in await q.players(game_id)] == ["Alice"]
        assert len(await q.games()) == 1 and len(await q.orders(game_id)) == 1


# ---------------------------------------------------------------------------------------------- guarantees
async def test_exactly_one_of_two_processes_claims_an_update(store, store_url):
    async with store.transaction() as q:
        game_id = await add_game(q)
        await q.update_game(game_id, status="running", update_no=1)
    other = await Store.open(store_url)
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


async def test_a_post_is_marked_sent_once(store, store_url):
    async with store.transaction() as q:
        game_id = await add_game(q)
        post_id = await q.insert_post(game_id=game_id, update_no=0, kind="announcement", body="hi", created_at=NOW)
    other = await Store.open(store_url)
    try:
        async def mark(s: Store, message: str) -> bool:
            async with s.transaction() as q:
                return await q.mark_sent(post_id, NOW, message)
        assert sorted(await asyncio.gather(mark(store, "one"), mark(other, "two"))) == [False, True]
        async with store.transaction() as q:
            await q.mark_failed(post_id, "late failure", NOW)             # a sent row stays sent
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
