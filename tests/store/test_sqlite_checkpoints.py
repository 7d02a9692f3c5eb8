"""SQLite's WAL is checkpointed after commits, in the background (issue 25): a commit that writes a
large snapshot no longer copies the WAL into the database file and syncs both before it returns.
What a reader sees, what a crash keeps and how large the WAL grows stay as they were."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from datetime import datetime, timezone

import pytest

from bot.store import Store
from bot.store import sqlite as sqlite_store

T0 = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
#: a snapshot of about a 1,000-player game's size: more pages than SQLite's own automatic checkpoint waits for
BIG_STATE = "x" * (5 * 1024 * 1024)


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(tmp_path / "skirmish.sqlite3")
    yield store
    await store.close()


async def new_game(store) -> int:
    async with store.transaction() as q:
        return await q.insert_game(name="checkpoints", ruleset="neisg", guild_id=1, channel_id=1, seed="7",
                                   settings={}, schedule={"kind": "manual"}, created_at=T0, created_by=1)


async def store_snapshot(store, game_id: int, update_no: int, state: str) -> None:
    async with store.transaction() as q:
        await q.insert_snapshot(game_id=game_id, update_no=update_no, revision=0, base_revision=None, state=state,
                                orders={}, seed="7", report=None, reason="update", created_at=T0)


async def checkpoints_done(store) -> None:
    while store._checkpointing is not None and not store._checkpointing.done():
        await asyncio.sleep(0.01)


async def test_a_large_commit_returns_before_the_checkpoint_and_is_read_back_before_and_after(store, tmp_path):
    game_id = await new_game(store)
    await checkpoints_done(store)
    size_before = (tmp_path / "skirmish.sqlite3").stat().st_size
    await store_snapshot(store, game_id, 1, BIG_STATE)
    # the commit has returned and the checkpoint has not run: the snapshot is in the WAL only
    assert (tmp_path / "skirmish.sqlite3").stat().st_size == size_before
    assert (tmp_path / "skirmish.sqlite3-wal").stat().st_size > len(BIG_STATE)
    async with store.snapshot_read() as q:
        assert await q.snapshot_state(game_id, 1, 0) == BIG_STATE
    # a crash now (the files copied as they are) keeps the commit: it is read back from the WAL
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    for suffix in ("", "-wal"):
        shutil.copy(tmp_path / f"skirmish.sqlite3{suffix}", crashed / f"skirmish.sqlite3{suffix}")
    with sqlite3.connect(crashed / "skirmish.sqlite3") as copy:
        assert copy.execute("SELECT state FROM snapshots WHERE game_id = ?", (game_id,)).fetchone()[0] == BIG_STATE
    await checkpoints_done(store)
    # checkpointed: the database file holds it
    assert (tmp_path / "skirmish.sqlite3").stat().st_size > len(BIG_STATE)
    async with store.snapshot_read() as q:
        assert await q.snapshot_state(game_id, 1, 0) == BIG_STATE


async def test_the_wal_stays_the_size_of_one_large_commit_and_closing_ends_the_checkpoints(store, tmp_path):
    game_id = await new_game(store)
    for update_no in range(1, 6):
        await store_snapshot(store, game_id, update_no, BIG_STATE[:-1] + str(update_no))
        await checkpoints_done(store)
    # each checkpoint let the next commit write the WAL again from its start
    assert (tmp_path / "skirmish.sqlite3-wal").stat().st_size < 2 * len(BIG_STATE)
    async with store.snapshot_read() as q:
        for update_no in range(1, 6):
            assert await q.snapshot_state(game_id, update_no, 0) == BIG_STATE[:-1] + str(update_no)
    await store_snapshot(store, game_id, 6, "small")      # a checkpoint is wanted as the store closes
    await store.close()
    assert store._checkpointing.done()
    others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task() and not task.done()]
    assert others == []
    store._checkpointer._thread.join(timeout=10)
    assert not store._checkpointer._thread.is_alive()
    with sqlite3.connect(tmp_path / "skirmish.sqlite3") as database:
        assert database.execute("SELECT state FROM snapshots WHERE update_no = 6").fetchone()[0] == "small"


async def test_a_failed_checkpoint_is_logged_and_the_writer_keeps_its_own_as_a_bound(store, monkeypatch, caplog):
    async def failing(connection):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(sqlite_store, "_checkpoint", failing)
    game_id = await new_game(store)
    await checkpoints_done(store)
    assert "could not be checkpointed: disk I/O error" in caplog.text
    async with store.snapshot_read() as q:
        assert (await q.game(game_id)).name == "checkpoints"
    async with store._writer.execute("PRAGMA wal_autocheckpoint") as cursor:
        assert (await cursor.fetchone())[0] == sqlite_store.WAL_BOUND_PAGES
