"""Copying a community's games from one store to another (``python -m bot store copy FROM TO``,
bot/store/copy.py): SQLite to PostgreSQL and back, losing nothing, all or nothing.

The source is a small community played through the service: three games (neisg and megachess) with
players (one kicked), orders of every status, snapshots (with edits), posts with attachments (boards,
reports, a timelapse GIF), some delivered, audit rows, timelapse frames, team threads, an ended game's
result and a member's profile (issue 42). Every test copies that file (or a copy of it); the rows are
compared table by table, every column, every row.
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import asyncpg
import pytest

from postgres import run_async

import bot.store.copy as copying
from bot.__main__ import main
from bot.service import Moderator, Service
from bot.service.publishing import MemoryPublisher, OutboxRelay
from bot.store import SCHEMA_VERSION, Store, StoreError
from bot.store.copy import copy_store
from bot.store.database import migrations

pytestmark = pytest.mark.postgres

MOD = Moderator(user_id=99, guild_id=1)
ALICE, BOB, CLEO = 1, 2, 3
PLAYERS = [(ALICE, "Alice", "Red", (0, 0)), (BOB, "Bob", "Blue", (10, 0)), (CLEO, "Cléo", "Green", (0, 10))]
START = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
ORDER_STATUSES = {"pending", "superseded", "cancelled", "locked", "resolved", "refused"}


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


async def _game(service: Service, channel_id: int, ruleset: str = "neisg"):
    game = await service.create_game(guild_id=1, channel_id=channel_id, actor=MOD, schedule="manual", seed=7,
                                     ruleset=ruleset)
    await service.start_game(game.id, actor=MOD)
    for user_id, name, colour, _ in PLAYERS:
        await service.join(game.id, user_id=user_id, name=name, colour=colour)
    for user_id, _, _, (x, y) in PLAYERS:
        await service.submit_order(game.id, user_id=user_id, text=f"K({x},{y})")
    assert (await service.resolve_if_due(game.id, 1, force=True)).resolved
    return game


async def play_a_community(path: Path) -> None:
    """The source: see the module's text."""
    store = await Store.open(path)
    service = Service(store, clock=Clock())
    try:
        first = await _game(service, 10)
        await service.submit_order(first.id, user_id=BOB, text="+N(10,3)")
        await service.submit_order(first.id, user_id=ALICE, text="K(0,0)-(1,0)")
        await service.submit_order(first.id, user_id=ALICE, text="K(0,0)-(0,1)")       # the first superseded
        await service.submit_order(first.id, user_id=CLEO, text="K(0,10)-(0,11)")
        await service.cancel_order(first.id, user_id=CLEO)                           # cancelled
        await service.set_balance(first.id, actor=MOD, player="Bob", amount=1)       # Bob's knight: refused
        assert (await service.resolve_if_due(first.id, 2, force=True)).resolved
        await service.submit_order(first.id, user_id=ALICE, text="K(0,1)-(0,2)")
        await service.lock_orders(first.id, actor=MOD)                                # locked
        await service.announce(first.id, actor=MOD, text="Ünïcode, 'quotes' and ; semicolons")

        teams = await _game(service, 20, "megachess")
        await service.keep_team_thread(teams.id, "alabaster", 555)
        await service.player_link(teams.id, user_id=BOB)                             # the store's link secret
        await service.revoke_links(teams.id, actor=MOD)                               # a link generation
        await service.submit_order(teams.id, user_id=BOB, text="R(8,1)-(7,1)")       # pending

        ended = await _game(service, 30)
        await service.submit_order(ended.id, user_id=ALICE, text="K(0,0)-(0,1)")
        assert (await service.resolve_if_due(ended.id, 2, force=True)).resolved
        await service.kick(ended.id, actor=MOD, user_id=CLEO, reason="away")
        await service.end_game(ended.id, actor=MOD, reason="over")                    # the timelapse GIF
        assert await service.ratings() == {}                     # its result kept (not rated: a moderator's end)
        await service.set_profile_hidden(1, BOB, True)                                # a profile (issue 42)
        relay = OutboxRelay(service, MemoryPublisher())
        delivered = await relay.deliver_due()                                        # some posts sent
        assert delivered > 0
        await service.announce(first.id, actor=MOD, text="not sent yet")
    finally:
        await store.close()


@pytest.fixture(scope="module")
def community(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("community") / "source.sqlite3"
    run_async(play_a_community(path))
    return path


@pytest.fixture
def source(community, tmp_path) -> Path:
    """A copy of the community's file for one test (a test may change it)."""
    path = tmp_path / "source.sqlite3"
    shutil.copy(community, path)
    return path


# ------------------------------------------------------------------------------------------- reading
def sqlite_tables(path: Path) -> dict[str, list[tuple]]:
    """Every table's rows (sorted), read with sqlite3 directly."""
    connection = sqlite3.connect(path)
    try:
        names = [row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name")]
        return {name: sorted(connection.execute(f"SELECT * FROM {name}").fetchall(), key=repr) for name in names}
    finally:
        connection.close()


def columns_of(path: Path) -> dict[str, list[str]]:
    connection = sqlite3.connect(path)
    try:
        return {name: [row[1] for row in connection.execute(f"PRAGMA table_info({name})")]
                for name in sqlite_tables(path)}
    finally:
        connection.close()


async def _postgres_tables(url: str, columns: dict[str, list[str]]) -> dict[str, list[tuple]]:
    connection = await asyncpg.connect(url)
    try:
        names = [row[0] for row in await connection.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name")]
        found = {}
        for name in names:
            if name == "skirmish_schema":
                continue
            order = ", ".join(columns[name])      # the SQLite file's column order, to compare tuples
            found[name] = sorted((tuple(row) for row in await connection.fetch(f"SELECT {order} FROM {name}")),
                                 key=repr)
        return found
    finally:
        await connection.close()


def postgres_tables(url: str, columns: dict[str, list[str]]) -> dict[str, list[tuple]]:
    return run_async(_postgres_tables(url, columns))


async def _postgres_table_count(url: str) -> int:
    connection = await asyncpg.connect(url)
    try:
        return await connection.fetchval("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")
    finally:
        await connection.close()


def copy(source, target, **options):
    return run_async(copy_store(str(source), str(target), **options))


def without_services(tables: dict) -> dict:
    return {name: rows for name, rows in tables.items() if name != "services"}


# ------------------------------------------------------------------------------------------- the copy
def test_the_source_has_rows_in_every_table_and_orders_of_every_status(community):
    tables = sqlite_tables(community)
    assert {name for name, rows in tables.items() if not rows} == set()     # a test that covers them all
    assert tables["services"]           # the service that played it was never stopped: as a bot that died
    connection = sqlite3.connect(community)
    statuses = {row[0] for row in connection.execute("SELECT status FROM orders")}
    attachments = connection.execute("SELECT count(*) FROM outbox WHERE attachment IS NOT NULL").fetchone()[0]
    connection.close()
    assert statuses == ORDER_STATUSES
    assert attachments > 5


def test_sqlite_to_postgresql_to_sqlite_is_row_for_row_the_same(community, postgres_url, tmp_path):
    columns = columns_of(community)
    original = without_services(sqlite_tables(community))

    there = copy(community, postgres_url)
    copied = postgres_tables(postgres_url, columns)
    assert copied["services"] == []                       # live processes are not copied
    assert without_services(copied) == original
    assert "1 bot process(es) registered as running" in there.summary()
    assert {table.name: table.rows for table in there.tables} == {name: len(rows) for name, rows in original.items()}

    back = tmp_path / "back" / "skirmish.sqlite3"
    back.parent.mkdir()
    copy(postgres_url, f"sqlite:///{back}")
    assert sqlite_tables(back) == {**original, "services": []}
    # the file is the one Store.open would have made: the same schema, statement for statement
    assert _schema(back) == _schema(community)
    assert sqlite3.connect(back).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def _schema(path: Path) -> list[tuple]:
    connection = sqlite3.connect(path)
    try:
        return sorted(connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall(), key=repr)
    finally:
        connection.close()


def test_tables_go_parents_first_and_the_blobs_stay_bytes(community, postgres_url):
    result = copy(community, postgres_url)
    names = [table.name for table in result.tables]
    assert names[0] == "games" and "services" not in names
    assert names.index("players") < names.index("orders")
    frames = postgres_tables(postgres_url, columns_of(community))["timelapse_frames"]
    assert frames and all(isinstance(row[-1], bytes) and row[-1].startswith(b"\x89PNG") for row in frames)


async def legal_order(service: Service, game_id: int) -> dict:
    """A player of the game and an order they may send now."""
    for user_id, _, _, _ in PLAYERS:
        suggestions = await service.order_suggestions(game_id, user_id=user_id, typed="")
        if suggestions:
            return {"user_id": user_id, "text": suggestions[-1].value}
    raise AssertionError(f"nobody may order in game {game_id}")


async def _continue_on(url: str) -> dict:
    """A bot started on the copy: the open updates go on; the new rows' ids follow the old ones."""
    store = await Store.open(url)
    clock = Clock()
    clock.now = START + timedelta(days=1)
    service = Service(store, clock=clock)
    try:
        async with store.snapshot_read() as q:
            games = await q.games(statuses=("running", "ended"))
            before_posts = {post.id for game in games for post in await q.posts(game.id)}
            before_orders = {order.id for game in games for order in await q.orders(game.id)}
        [first, teams, _] = sorted(games, key=lambda game: game.id)
        if first.locked:
            await service.unlock_orders(first.id, actor=MOD)
        await service.submit_order(first.id, **await legal_order(service, first.id))
        resolution = await service.resolve_if_due(first.id, first.update_no, force=True)
        await service.submit_order(teams.id, **await legal_order(service, teams.id))
        async with store.snapshot_read() as q:
            posts = [post for game in (first, teams) for post in await q.posts(game.id)]
            orders = [order for game in (first, teams) for order in await q.orders(game.id)]
        delivered = await OutboxRelay(service, MemoryPublisher()).deliver_due()
        return {"resolved": resolution.resolved, "new_posts": [p for p in posts if p.id not in before_posts],
                "new_orders": [o for o in orders if o.id not in before_orders], "old_posts": before_posts,
                "old_orders": before_orders, "delivered": delivered, "posts": posts}
    finally:
        await store.close()


def test_a_bot_opened_on_the_copy_continues_the_game(community, postgres_url, tmp_path):
    copy(community, postgres_url)
    went_on = run_async(_continue_on(postgres_url))
    assert went_on["resolved"]
    assert went_on["new_posts"] and went_on["new_orders"]
    assert min(p.id for p in went_on["new_posts"]) > max(went_on["old_posts"])       # the sequences moved on
    assert min(o.id for o in went_on["new_orders"]) > max(went_on["old_orders"])
    numbers = [(p.game_id, p.post_no) for p in went_on["posts"]]
    assert len(numbers) == len(set(numbers))                                       # post numbers go on per game
    assert went_on["delivered"] >= len(went_on["new_posts"])

    # and the same back on a SQLite copy of the copy
    back = tmp_path / "back.sqlite3"
    copy(postgres_url, back)
    assert run_async(_continue_on(str(back)))["resolved"]


def test_a_target_with_data_is_refused_and_left_unchanged(community, postgres_url, source, tmp_path):
    copy(community, postgres_url)
    columns = columns_of(community)
    before = postgres_tables(postgres_url, columns)
    run_async(_change_a_game(source))
    with pytest.raises(StoreError, match="already holds Skirmish data .*games.*nothing was changed"):
        copy(source, postgres_url)
    assert postgres_tables(postgres_url, columns) == before

    target = tmp_path / "target.sqlite3"
    shutil.copy(community, target)
    with pytest.raises(StoreError, match="already holds Skirmish data"):
        copy(source, target)
    assert sqlite_tables(target) == sqlite_tables(community)


async def _change_a_game(path: Path) -> None:
    store = await Store.open(path)
    try:
        async with store.transaction() as q:
            await q.update_game(1, name="changed")
    finally:
        await store.close()


def test_a_target_with_only_the_schema_is_taken(community, postgres_url):
    run_async(_open_and_close(postgres_url))
    copy(community, postgres_url)
    assert without_services(postgres_tables(postgres_url, columns_of(community))) == without_services(sqlite_tables(community))


async def _open_and_close(url: str) -> None:
    await (await Store.open(url)).close()


@pytest.fixture
def failing_after_the_first_table(monkeypatch):
    """The copy fails as it starts writing its second table."""
    written = []
    for target in (copying._PostgresTarget, copying._SqliteTarget):
        original = target.writer

        def writer(self, table, columns, key, original=original):
            write = original(self, table, columns, key)

            async def failing(rows):
                if written and written[-1] != table:
                    raise RuntimeError("the disk is full")
                written.append(table)
                await write(rows)
            return failing
        monkeypatch.setattr(target, "writer", writer)
    return written


def test_a_failure_mid_copy_leaves_a_postgresql_target_as_it_was(community, postgres_url, failing_after_the_first_table):
    with pytest.raises(RuntimeError, match="the disk is full"):
        copy(community, postgres_url)
    assert failing_after_the_first_table[0] == "games"
    assert run_async(_postgres_table_count(postgres_url)) == 0          # not even the schema
    # and one with the schema keeps it, without a row
    run_async(_open_and_close(postgres_url))
    with pytest.raises(RuntimeError, match="the disk is full"):
        copy(community, postgres_url)
    assert not any(postgres_tables(postgres_url, columns_of(community)).values())


def test_a_failure_mid_copy_leaves_no_sqlite_file_behind(community, postgres_url, tmp_path,
                                                         failing_after_the_first_table):
    target = tmp_path / "new.sqlite3"
    with pytest.raises(RuntimeError, match="the disk is full"):
        copy(community, target)
    assert list(tmp_path.iterdir()) == []
    run_async(_open_and_close(str(target)))                              # an existing empty store stays so
    empty = sqlite_tables(target)
    with pytest.raises(RuntimeError, match="the disk is full"):
        copy(community, target)
    assert sqlite_tables(target) == empty and not any(empty.values())


async def _cancelled_mid_copy(source, target) -> list:
    """The copy's task cancelled (as Ctrl-C cancels it) while it writes its third table."""
    seen = []
    task = None

    def progress(table, copied, total):
        seen.append(table)
        if len(set(seen)) == 3:
            task.cancel()
    task = asyncio.ensure_future(copy_store(str(source), str(target), progress=progress))
    with pytest.raises(asyncio.CancelledError):
        await task
    return seen


def test_a_copy_cancelled_midway_leaves_the_target_as_it_was(community, postgres_url, tmp_path):
    assert len(set(run_async(_cancelled_mid_copy(community, postgres_url)))) == 3
    assert run_async(_postgres_table_count(postgres_url)) == 0
    target = tmp_path / "copy" / "skirmish.sqlite3"
    target.parent.mkdir()
    run_async(_cancelled_mid_copy(community, target))
    assert list(target.parent.iterdir()) == []


def test_sqlite_to_sqlite_and_postgresql_to_postgresql(community, postgres_server, tmp_path):
    backup = tmp_path / "backup.sqlite3"
    copy(community, backup)
    assert sqlite_tables(backup) == {**sqlite_tables(community), "services": []}
    first, second = (postgres_server.url_of(postgres_server.create_database()) for _ in range(2))
    try:
        copy(backup, first)
        copy(first, second)
        columns = columns_of(community)
        assert postgres_tables(second, columns) == postgres_tables(first, columns) == sqlite_tables(backup)
    finally:
        for url in (first, second):
            postgres_server.drop_database(url.rsplit("/", 1)[1])


def test_small_batches_copy_the_same_rows(community, postgres_url):
    result = copy(community, postgres_url, batch_rows=3, batch_bytes=1000)
    assert without_services(postgres_tables(postgres_url, columns_of(community))) == without_services(sqlite_tables(community))
    assert result.rows == sum(len(rows) for rows in without_services(sqlite_tables(community)).values())


def test_batches_hold_about_their_budget_of_bytes_from_either_back_end(community, postgres_url, tmp_path,
                                                                        monkeypatch):
    """A run of large rows (boards, timelapse frames, snapshots) never arrives at once: each batch
    written holds at most the budget and one row more, whichever back end it was read from."""
    budget = 20_000
    written: list[tuple[str, list[int]]] = []
    for target in (copying._PostgresTarget, copying._SqliteTarget):
        def writer(self, table, columns, key, original=target.writer):
            write = original(self, table, columns, key)

            async def recorded(rows):
                written.append((table, [copying._size(row) for row in rows]))
                await write(rows)
            return recorded
        monkeypatch.setattr(target, "writer", writer)

    copy(community, postgres_url, batch_bytes=budget)
    first = len(written)
    back = tmp_path / "back.sqlite3"
    copy(postgres_url, back, batch_bytes=budget, batch_rows=7)
    assert without_services(sqlite_tables(back)) == without_services(sqlite_tables(community))
    for table, sizes in written:
        assert len(sizes) == 1 or sum(sizes[:-1]) < budget, (table, sizes)
    large = [sizes for table, sizes in written if table in ("outbox", "timelapse_frames", "snapshots")]
    assert sum(len(sizes) == 1 for sizes in large) > 4          # large rows went one or two at a time
    assert max(len(sizes) for _, sizes in written[first:]) == 7              # and at most batch_rows


def test_progress_reports_rows_per_table(community, postgres_url):
    seen = []
    copy(community, postgres_url, batch_rows=5, progress=lambda *step: seen.append(step))
    outbox = [step for step in seen if step[0] == "outbox"]
    total = outbox[-1][2]
    assert outbox[0] == ("outbox", 0, total) and outbox[-1] == ("outbox", total, total)
    assert len(outbox) > 3 and [step[1] for step in outbox] == sorted({step[1] for step in outbox})   # each once


# ------------------------------------------------------------------------------------------- refusals
def test_a_source_newer_than_the_code_is_refused(source, postgres_url):
    connection = sqlite3.connect(source)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.commit()
    connection.close()
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1}, newer than this code's"):
        copy(source, postgres_url)
    assert run_async(_postgres_table_count(postgres_url)) == 0


def _older_store(path: Path) -> None:
    """A SQLite store one migration behind, with a game in it."""
    connection = sqlite3.connect(path)
    steps = migrations()
    for version, _, sql in steps[:-1]:
        connection.executescript(sql)
    connection.execute(f"PRAGMA user_version = {len(steps) - 1}")
    connection.execute("INSERT INTO games (id, name, ruleset, guild_id, channel_id, seed, created_at, created_by)"
                       " VALUES (1, 'old', 'neisg', 1, 10, '7', '2026-01-01T00:00:00+00:00', 99)")
    connection.commit()
    connection.close()


def test_an_older_source_is_refused_unless_asked_to_upgrade_it(tmp_path, postgres_url):
    old = tmp_path / "old.sqlite3"
    _older_store(old)
    before = old.read_bytes()
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION - 1}, older .*--upgrade-source"):
        copy(old, postgres_url)
    assert old.read_bytes() == before                                   # read only
    result = copy(old, postgres_url, upgrade_source=True)
    assert result.upgraded_from == SCHEMA_VERSION - 1
    assert "upgraded from schema version" in result.summary()
    assert [(t.name, t.rows) for t in result.tables if t.rows] == [("games", 1)]


def test_a_value_postgresql_cannot_hold_is_named_and_nothing_written(source, postgres_url):
    connection = sqlite3.connect(source)
    post_id = connection.execute("SELECT min(id) FROM outbox WHERE attachment IS NOT NULL").fetchone()[0]
    connection.execute("UPDATE outbox SET attachment = 'text, not bytes' WHERE id = ?", (post_id,))
    connection.commit()
    connection.close()
    with pytest.raises(StoreError, match=rf"outbox \(id\) = \({post_id}\): its attachment holds a str, not bytes"):
        copy(source, postgres_url)
    assert run_async(_postgres_table_count(postgres_url)) == 0


def test_sources_that_are_not_skirmish_databases_are_refused(tmp_path, postgres_url):
    with pytest.raises(StoreError, match="no such SQLite file"):
        copy(tmp_path / "missing.sqlite3", postgres_url)
    assert not (tmp_path / "missing.sqlite3").exists()
    (tmp_path / "text.sqlite3").write_text("hello")
    with pytest.raises(StoreError, match="not a Skirmish database"):
        copy(tmp_path / "text.sqlite3", postgres_url)
    with pytest.raises(StoreError, match="not a Skirmish database .*skirmish_schema"):
        copy(postgres_url, tmp_path / "out.sqlite3")
    assert not (tmp_path / "out.sqlite3").exists()


def test_the_same_database_twice_is_refused(source):
    with pytest.raises(StoreError, match="the same database"):
        copy(source, f"sqlite:///{source}")


# ------------------------------------------------------------------------------------------- the command
def test_the_command_copies_and_prints_rows_per_table(community, postgres_url, capsys):
    assert main(["store", "copy", f"sqlite:///{community}", postgres_url]) == 0
    out = capsys.readouterr().out
    counts = {name: len(rows) for name, rows in without_services(sqlite_tables(community)).items()}
    for name, rows in counts.items():
        word = "row" if rows == 1 else "rows"
        assert out.count(f"{name}: {rows:,} of {rows:,} {word}\n") == 1        # progress
        assert any(line.split() == [name, f"{rows:,}", word] for line in out.splitlines())   # summary
    assert f"{sum(counts.values()):,} rows in" in out and "rows/s" in out


def test_the_command_refuses_with_status_2_and_a_clear_message(community, postgres_url, postgres_server, capsys,
                                                                  tmp_path):
    assert main(["store", "copy", "mysql://localhost/x", postgres_url]) == 2
    assert "the scheme 'mysql'" in capsys.readouterr().err

    unreachable = "postgresql://bot:s3cret-word@127.0.0.1:1/skirmish"
    assert main(["store", "copy", str(community), unreachable]) == 2
    err = capsys.readouterr().err
    assert "cannot connect to the target PostgreSQL database postgresql://bot:***@127.0.0.1:1/skirmish" in err
    assert "s3cret" not in err

    assert main(["store", "copy", str(community), postgres_url]) == 0
    capsys.readouterr()
    assert main(["store", "copy", str(community), postgres_url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("python -m bot store copy: error: the target") and "already holds Skirmish data" in err

    newer = tmp_path / "newer.sqlite3"
    shutil.copy(community, newer)
    connection = sqlite3.connect(newer)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.commit()
    connection.close()
    assert main(["store", "copy", str(newer), str(tmp_path / "out.sqlite3")]) == 2
    assert "newer than this code's" in capsys.readouterr().err


def test_the_command_is_in_the_help(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "store" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["store", "copy", "--help"])
    out = capsys.readouterr().out
    assert "FROM" in out and "TO" in out and "--upgrade-source" in out
