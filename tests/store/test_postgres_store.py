"""What PostgreSQL must do as SQLite does, and its own faults: one schema after all migrations, one
writer at a time across processes, code-point order, a server restart, and clear errors that never
print the password."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import datetime, timezone

import asyncpg
import pytest

from bot.store import IntegrityError, Store, StoreError, StoreUnavailable
from bot.store.database import SCHEMA_VERSION, parse_url, redact
from bot.store.postgres import WRITE_LOCK, numbered

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
NAMES = ["Zoë", "ann", "Émile", "bob", "Ann2"]
#: code-point order (what SQLite's BINARY collation and Python's sorted() give)
CODE_POINT_ORDER = ["Ann2", "Zoë", "ann", "bob", "Émile"]


async def add_game(q, channel_id: int = 10) -> int:
    return await q.insert_game(name="test", ruleset="neisg", guild_id=1, channel_id=channel_id, seed="7",
                               settings={}, schedule={"kind": "manual"}, created_at=NOW, created_by=99)


async def pg_rows(url: str, sql: str, *params) -> list[tuple]:
    connection = await asyncpg.connect(url)
    try:
        return [tuple(row) for row in await connection.fetch(sql, *params)]
    finally:
        await connection.close()


# ---------------------------------------------------------------------------------------------- URLs
@pytest.mark.parametrize("target, expected", [
    ("sqlite:///skirmish.sqlite3", ("sqlite", "skirmish.sqlite3")),
    ("sqlite:///data/skirmish.sqlite3", ("sqlite", "data/skirmish.sqlite3")),
    ("sqlite:////var/lib/skirmish.sqlite3", ("sqlite", "/var/lib/skirmish.sqlite3")),
    ("./skirmish.sqlite3", ("sqlite", "./skirmish.sqlite3")),
    ("/tmp/x.sqlite3", ("sqlite", "/tmp/x.sqlite3")),
    ("postgresql://bot:pw@db.example:5432/skirmish", ("postgresql", "postgresql://bot:pw@db.example:5432/skirmish")),
    ("postgres://bot@db/skirmish", ("postgresql", "postgres://bot@db/skirmish")),
])
def test_store_urls(target, expected):
    assert parse_url(target) == expected


@pytest.mark.parametrize("target, message", [
    ("mysql://bot:hunter2@db/skirmish", "has the scheme 'mysql'"),
    ("sqlite://skirmish.sqlite3", "sqlite:///relative/path or sqlite:////absolute/path"),
    ("postgresql://bot:hunter2@db:5432/", "names no database"),
    ("", "not an empty text"),
])
def test_a_url_the_store_cannot_use_is_refused_without_its_password(target, message):
    with pytest.raises(StoreError, match=message) as caught:
        parse_url(target)
    assert "hunter2" not in str(caught.value)


def test_redact_hides_only_the_password():
    assert redact("postgresql://bot:hunter2@db:5432/skirmish") == "postgresql://bot:***@db:5432/skirmish"
    assert redact("postgresql://bot@db/skirmish") == "postgresql://bot@db/skirmish"


def test_placeholders_are_numbered_outside_quotes():
    assert numbered("SELECT '?', x FROM t WHERE a = ? AND b IN (?, ?)") == \
        "SELECT '?', x FROM t WHERE a = $1 AND b IN ($2, $3)"


# ---------------------------------------------------------------------------------------------- one schema
def sqlite_shape(path) -> dict:
    connection = sqlite3.connect(path)
    try:
        shape = {}
        tables = [name for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        for table in tables:
            columns = [(name, kind.lower(), bool(notnull) or bool(pk), pk > 0)
                       for _, name, kind, notnull, _, pk in connection.execute(f"PRAGMA table_info({table})")]
            indexes = set()
            for _, index, unique, origin, partial in connection.execute(f"PRAGMA index_list({table})"):
                if origin == "pk":
                    continue
                keys = []
                for row in connection.execute(f"PRAGMA index_xinfo({index})"):
                    if row[5]:                               # key columns only
                        keys.append(row[2] if row[4] == "BINARY" else f"{row[4].lower()}({row[2]})")
                indexes.add((index, bool(unique), tuple(keys), bool(partial)))
            shape[table] = (columns, indexes)
        return shape
    finally:
        connection.close()


async def postgres_shape(url: str) -> dict:
    types = {"bigint": "integer", "text": "text", "bytea": "blob"}
    shape = {}
    tables = [name for (name,) in await pg_rows(url, "SELECT table_name FROM information_schema.tables"
                                                     " WHERE table_schema = 'public' ORDER BY table_name")]
    for table in tables:
        if table == "skirmish_schema":
            continue
        keys = {name for (name,) in await pg_rows(
            url, "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
                 " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = $1::regclass AND i.indisprimary", table)}
        columns = [(name, types[kind], nullable == "NO", name in keys) for name, kind, nullable in await pg_rows(
            url, "SELECT column_name, data_type, is_nullable FROM information_schema.columns"
                 " WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position", table)]
        indexes = set()
        for index, unique, primary, partial, definition in await pg_rows(
                url, "SELECT c.relname, i.indisunique, i.indisprimary, i.indpred IS NOT NULL,"
                     " pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
                     " WHERE i.indrelid = $1::regclass", table):
            if primary:
                continue
            inside = definition.split(" USING btree (", 1)[1].rsplit(")", 1)[0]
            inside = inside.split(") WHERE", 1)[0] if partial else inside
            keys = tuple(key.strip().replace("lower(", "nocase(") for key in inside.split(","))
            indexes.add((index, unique, keys, partial))
        shape[table] = (columns, indexes)
    return shape


@pytest.mark.postgres
async def test_both_back_ends_have_the_same_schema_after_all_migrations(postgres_url, tmp_path):
    sqlite_path = tmp_path / "skirmish.sqlite3"
    for target in (sqlite_path, postgres_url):
        await (await Store.open(target)).close()
    expected = sqlite_shape(sqlite_path)
    found = await postgres_shape(postgres_url)
    assert sorted(found) == sorted(expected)
    for table in expected:
        assert found[table][0] == expected[table][0], table            # columns: name, type, not null, key
        assert found[table][1] == expected[table][1], table            # indexes: unique, keys, partial
    assert ("players_name", True, ("game_id", "nocase(name)"), True) in found["players"][1]


# ---------------------------------------------------------------------------------------------- names
async def test_names_sort_in_code_point_order_and_compare_as_sqlite_nocase(store_url):
    store = await Store.open(store_url)
    try:
        async with store.transaction() as q:
            game_id = await add_game(q)
            for user_id, name in enumerate(NAMES, start=1):
                await q.insert_player(game_id=game_id, user_id=user_id, name=name, colour=f"C{user_id}",
                                      joined_at=NOW, joined_update=1)
                await q.note_team(game_id, name)
        async with store.snapshot_read() as q:
            assert [p.name for p in await q.players(game_id)] == CODE_POINT_ORDER
            assert [name for name, _ in await q.joined_since(game_id, 1)] == CODE_POINT_ORDER
            assert list(await q.team_threads(game_id)) == CODE_POINT_ORDER
            assert (await q.player_named(game_id, "ANN2")).name == "Ann2"
            assert (await q.player_named(game_id, "ÉMILE")).name == "Émile"     # ASCII letters fold
            assert await q.player_named(game_id, "émile") is None              # as in SQLite's NOCASE
            assert (await q.player_with_colour(game_id, "c3")).name == "Émile"
        with pytest.raises(IntegrityError):
            async with store.transaction() as q:
                await q.insert_player(game_id=game_id, user_id=9, name="zOë", colour="C9", joined_at=NOW,
                                      joined_update=1)
        async with store.transaction() as q:             # Ë is not ë for SQLite's NOCASE, nor here
            await q.insert_player(game_id=game_id, user_id=9, name="ZOË", colour="C9", joined_at=NOW,
                                  joined_update=1)
    finally:
        await store.close()


# ---------------------------------------------------------------------------------------------- one writer
@pytest.mark.postgres
async def test_two_processes_never_both_decide_on_the_same_read(postgres_url):
    first, second = await Store.open(postgres_url), await Store.open(postgres_url)
    try:
        async with first.transaction() as q:
            game_id = await add_game(q)

        async def increment(store: Store) -> None:       # read, decide, write: the service's shape
            async with store.transaction() as q:
                game = await q.game(game_id)
                await asyncio.sleep(0)
                await q.update_game(game_id, update_no=game.update_no + 1)

        await asyncio.gather(*(increment(store) for _ in range(15) for store in (first, second)))
        async with first.snapshot_read() as q:
            assert (await q.game(game_id)).update_no == 30
    finally:
        await first.close()
        await second.close()


@pytest.mark.postgres
async def test_a_writer_waits_for_the_other_process_and_a_read_does_not(postgres_url):
    first, second = await Store.open(postgres_url), await Store.open(postgres_url)
    try:
        async with first.transaction() as q:
            game_id = await add_game(q)
        order = []
        waiting = asyncio.Event()

        async def second_writer():
            async with second.transaction() as q:
                order.append("second writes")
                await q.update_game(game_id, name=(await q.game(game_id)).name + " and second")

        async with first.transaction() as q:
            await q.update_game(game_id, name="first")
            task = asyncio.create_task(second_writer())
            while not await pg_rows(postgres_url, "SELECT 1 FROM pg_locks WHERE locktype = 'advisory'"
                                                  " AND NOT granted"):
                await asyncio.sleep(0.01)                  # until the second process waits for the lock
            waiting.set()
            async with second.snapshot_read() as reader:   # a read does not wait, and sees the last commit
                assert (await reader.game(game_id)).name == "test"
            order.append("first commits")
        await task
        assert order == ["first commits", "second writes"]
        async with second.snapshot_read() as q:
            assert (await q.game(game_id)).name == "first and second"
    finally:
        await first.close()
        await second.close()


@pytest.mark.postgres
async def test_a_task_cancelled_while_it_waits_for_the_write_lock_leaves_the_store_usable(postgres_url):
    first, second = await Store.open(postgres_url), await Store.open(postgres_url)
    try:
        async def write():
            async with second.transaction() as q:
                await add_game(q, channel_id=99)

        async with first.transaction() as q:
            await add_game(q)
            task = asyncio.create_task(write())
            while not await pg_rows(postgres_url, "SELECT 1 FROM pg_locks WHERE locktype = 'advisory'"
                                                  " AND NOT granted"):
                await asyncio.sleep(0.01)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        async with second.transaction() as q:          # the second store writes at once
            assert len(await q.games()) == 1
            await add_game(q, channel_id=11)
        idle = await pg_rows(postgres_url, "SELECT state FROM pg_stat_activity WHERE datname = current_database()"
                                           " AND state LIKE 'idle in transaction%'")
        assert idle == []
    finally:
        await first.close()
        await second.close()


@pytest.mark.postgres
async def test_processes_starting_at_once_migrate_once(postgres_url):
    stores = await asyncio.gather(*(Store.open(postgres_url) for _ in range(4)))
    for store in stores:
        await store.close()
    versions = await pg_rows(postgres_url, "SELECT version FROM skirmish_schema ORDER BY version")
    assert versions == [(v,) for v in range(1, SCHEMA_VERSION + 1)]


OPEN_STORE = """
import asyncio, sys
from bot.store import Store

async def main():
    sys.stdin.readline()                       # every process is started: open at once
    await (await Store.open(sys.argv[1])).close()

asyncio.run(main())
"""


@pytest.mark.postgres
async def test_two_real_processes_starting_at_once_migrate_once(postgres_url):
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    processes = [subprocess.Popen([sys.executable, "-c", OPEN_STORE, postgres_url], cwd=root, stdin=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for process in processes:
        process.stdin.write("go\n")
        process.stdin.flush()
    for process in processes:
        _, errors = await asyncio.to_thread(process.communicate, timeout=120)
        assert process.returncode == 0, errors
    versions = await pg_rows(postgres_url, "SELECT version FROM skirmish_schema ORDER BY version")
    assert versions == [(v,) for v in range(1, SCHEMA_VERSION + 1)]


@pytest.mark.postgres
async def test_the_write_lock_is_skirmishs_own_and_released_at_commit(postgres_url):
    store = await Store.open(postgres_url)
    try:
        async with store.transaction() as q:
            await add_game(q)
            held = await pg_rows(postgres_url, "SELECT (classid::bigint << 32) | objid::bigint FROM pg_locks"
                                               " WHERE locktype = 'advisory' AND granted")
            assert held == [(WRITE_LOCK,)]
        assert await pg_rows(postgres_url, "SELECT 1 FROM pg_locks WHERE locktype = 'advisory'") == []
    finally:
        await store.close()


# ---------------------------------------------------------------------------------------------- faults
@pytest.mark.postgres
async def test_after_a_server_restart_the_next_transaction_works(postgres_url, postgres_server):
    store = await Store.open(postgres_url)
    try:
        async with store.transaction() as q:
            game_id = await add_game(q)
        async with store.snapshot_read() as q:
            await q.game(game_id)
        await asyncio.to_thread(postgres_server.restart)
        async with store.transaction() as q:         # the pool's dead connections are replaced
            await q.update_game(game_id, name="after the restart")
        async with store.snapshot_read() as q:
            assert (await q.game(game_id)).name == "after the restart"
    finally:
        await store.close()


@pytest.mark.postgres
async def test_a_transaction_cut_by_a_restart_raises_and_writes_nothing(postgres_url, postgres_server):
    store = await Store.open(postgres_url)
    try:
        with pytest.raises(StoreUnavailable, match="wrote nothing"):
            async with store.transaction() as q:
                await add_game(q)
                await asyncio.to_thread(postgres_server.stop)
                try:
                    await add_game(q, channel_id=11)
                finally:
                    await asyncio.to_thread(postgres_server.start)
        async with store.snapshot_read() as q:
            assert await q.games() == []
        async with store.transaction() as q:
            await add_game(q)
    finally:
        await store.close()


@pytest.mark.postgres
async def test_a_server_that_is_down_is_a_clear_error_then_works_again(postgres_url, postgres_server):
    store = await Store.open(postgres_url)
    try:
        await asyncio.to_thread(postgres_server.stop)
        try:
            with pytest.raises(StoreUnavailable, match="cannot reach the PostgreSQL database"):
                async with store.transaction() as q:
                    await add_game(q)
        finally:
            await asyncio.to_thread(postgres_server.start)
        async with store.transaction() as q:
            await add_game(q)
    finally:
        await store.close()


@pytest.mark.postgres
async def test_errors_of_connection_are_clear_and_never_print_the_password(postgres_server, postgres_url):
    host_port = f"{postgres_server.host}:{postgres_server.port}"
    cases = [
        (f"postgresql://postgres:hunter2@{host_port}/no_such_database", "does not exist"),
        (f"postgresql://nobody:hunter2@{host_port}/postgres", "refused the user"),
        ("postgresql://postgres:hunter2@127.0.0.1:1/skirmish", "cannot connect to the PostgreSQL database"),
    ]
    for url, message in cases:
        with pytest.raises(StoreError, match=message) as caught:
            await Store.open(url)
        assert "hunter2" not in str(caught.value) and "***" in str(caught.value), str(caught.value)


@pytest.mark.postgres
async def test_a_writer_that_waits_too_long_is_told_the_database_is_busy(postgres_url, monkeypatch):
    import bot.store.postgres as backend
    monkeypatch.setattr(backend, "BUSY_TIMEOUT_MS", 200)         # SQLite's busy_timeout, shortened
    first, second = await Store.open(postgres_url), await Store.open(postgres_url)
    try:
        async with first.transaction() as q:
            await add_game(q)
            with pytest.raises(StoreError, match="is busy: another process has held its write lock"):
                async with second.transaction() as other:
                    await add_game(other, channel_id=11)
        async with second.transaction() as q:                  # usable again once the lock is free
            assert [g.channel_id for g in await q.games()] == [10]
    finally:
        await first.close()
        await second.close()
