"""Post numbers (issue 26): a post's identity, and its file's name, never come from an id the
database generates. Each game numbers its posts in its own row, in the transaction that writes them:
1, 2, 3, ... on both back ends, whatever a killed or rolled-back transaction drew from a sequence.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from types import SimpleNamespace

import pytest

from bot.service.publishing import FilePublisher, partial_path, post_path, write_atomically
from bot.store import Store
from bot.store.database import migrations

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


async def add_game(q, channel_id: int) -> int:
    return await q.insert_game(name=f"game in {channel_id}", ruleset="neisg", guild_id=1, channel_id=channel_id,
                               seed="7", settings={}, schedule={"kind": "manual"}, created_at=NOW, created_by=99)


async def numbers(store, game_id: int) -> list[tuple[int, str]]:
    async with store.snapshot_read() as q:
        return [(post.post_no, post.body) for post in await q.posts(game_id)]


async def test_each_game_numbers_its_posts_from_one_in_the_order_written(store_url):
    store = await Store.open(store_url)
    try:
        async with store.transaction() as q:
            first, second = await add_game(q, 10), await add_game(q, 11)
            await q.insert_post(game_id=first, update_no=0, kind="announcement", body="a1", created_at=NOW)
            await q.insert_post(game_id=second, update_no=0, kind="announcement", body="b1", created_at=NOW)
        async with store.transaction() as q:
            await q.insert_posts(game_id=first, created_at=NOW, posts=[
                (1, "board", "a2", b"png", "board.png", None),
                (1, "report", "a3", None, None, None),
                (1, "private_report", "a4", None, "Ada.md", 1001)])
            await q.insert_post(game_id=second, update_no=1, kind="notice", body="b2", recipient=1001, created_at=NOW)
            await q.insert_posts(game_id=second, created_at=NOW, posts=[])       # nothing taken
        assert await numbers(store, first) == [(1, "a1"), (2, "a2"), (3, "a3"), (4, "a4")]
        assert await numbers(store, second) == [(1, "b1"), (2, "b2")]
    finally:
        await store.close()


async def test_a_transaction_that_does_not_commit_takes_no_number(store_url):
    """What a killed transaction does to a PostgreSQL sequence (it skips the ids it drew), a
    rolled-back one does too: the ids have a gap, the post numbers none."""
    store = await Store.open(store_url)
    try:
        async with store.transaction() as q:
            game = await add_game(q, 10)
            await q.insert_post(game_id=game, update_no=0, kind="announcement", body="first", created_at=NOW)
        with pytest.raises(RuntimeError, match="the update failed"):
            async with store.transaction() as q:
                await q.insert_posts(game_id=game, created_at=NOW, posts=[(1, "report", "lost", None, None, None)] * 3)
                await q.insert_post(game_id=game, update_no=1, kind="notice", body="lost too", created_at=NOW)
                raise RuntimeError("the update failed")
        async with store.transaction() as q:
            kept = await q.insert_post(game_id=game, update_no=1, kind="notice", body="second", created_at=NOW)
        async with store.snapshot_read() as q:
            posts = await q.posts(game)
        assert [(post.post_no, post.body) for post in posts] == [(1, "first"), (2, "second")]
        assert posts[-1].id == kept
        assert post_path(posts[-1]) == "0001/notice-000002.md"
    finally:
        await store.close()


def test_a_message_of_its_own_is_named_by_its_number_not_its_row_id():
    def post(**fields):
        values = {"id": 7, "post_no": 3, "kind": "notice", "update_no": 2, "recipient": None, "filename": None}
        return SimpleNamespace(**{**values, **fields})

    assert post_path(post()) == "0002/notice-000003.md"
    assert post_path(post(id=9000)) == post_path(post())             # the row id plays no part
    assert post_path(post(recipient=1001)) == "0002/private/notice-000003-to-1001.md"
    assert post_path(post(kind="announcement", update_no=0, post_no=1)) == "0000/announcement-000001.md"
    assert post_path(post(kind="board", filename="board.png")) == "0002/board.png"


async def test_posts_written_before_the_numbers_are_numbered_per_game_in_id_order(tmp_path):
    """A database of the version before the numbers: its posts (two games' interleaved) get theirs in
    id order, each game's count follows on, and its next post takes the next number."""
    path = tmp_path / "old.sqlite3"
    steps = migrations()
    version = next(v for v, name, _ in steps if name == "0011_post_numbers.sql") - 1
    connection = sqlite3.connect(path)
    try:
        for number, _, sql in steps[:version]:
            connection.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
        for channel in (10, 11, 12):
            connection.execute("INSERT INTO games (name, ruleset, guild_id, channel_id, seed, created_at, created_by)"
                               " VALUES (?, 'neisg', 1, ?, '7', ?, 99)", (f"game {channel}", channel, NOW.isoformat()))
        for game_id, body in [(1, "a1"), (2, "b1"), (1, "a2"), (1, "a3"), (2, "b2"), (1, "a4")]:
            connection.execute("INSERT INTO outbox (game_id, update_no, kind, body, created_at) VALUES (?, 0, 'notice', ?, ?)",
                               (game_id, body, NOW.isoformat()))
        connection.commit()
    finally:
        connection.close()

    store = await Store.open(path)
    try:
        assert await numbers(store, 1) == [(1, "a1"), (2, "a2"), (3, "a3"), (4, "a4")]
        assert await numbers(store, 2) == [(1, "b1"), (2, "b2")]
        async with store.transaction() as q:
            await q.insert_post(game_id=1, update_no=1, kind="notice", body="a5", created_at=NOW)
            await q.insert_post(game_id=3, update_no=1, kind="notice", body="c1", created_at=NOW)
        assert (await numbers(store, 1))[-1] == (5, "a5")
        assert await numbers(store, 3) == [(1, "c1")]
    finally:
        await store.close()


def test_a_write_cut_short_before_its_rename_is_replaced_by_the_next_write(tmp_path):
    """A process killed between writing a post's bytes and renaming them into place leaves its
    partial file; the post is not marked sent, so it is written again: the same path, the same
    bytes, and nothing left beside them."""
    target = tmp_path / "posts" / "0001" / "report.md"
    target.parent.mkdir(parents=True)
    partial_path(target).write_bytes(b"Update 1 (half of it")
    write_atomically(target, b"Update 1\n")
    assert target.read_bytes() == b"Update 1\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["report.md"]
    write_atomically(target, b"Update 1\n")             # and a second delivery rewrites the same bytes
    assert sorted(p.name for p in target.parent.iterdir()) == ["report.md"]


async def test_the_file_publisher_writes_a_killed_post_again_whole(tmp_path):
    from bot.store import Post

    post = Post(id=41, game_id=1, update_no=2, kind="notice", recipient=None, body="Ada has submitted a secret move",
                attachment=None, filename=None, created_at=NOW, attempts=0, last_error=None, next_attempt_at=None,
                sent_at=None, message_id=None, post_no=9)
    root = tmp_path / "posts"
    target = root / "0002" / "notice-000009.md"
    target.parent.mkdir(parents=True)
    partial_path(target).write_bytes(b"Ada has sub")
    assert await FilePublisher(root).publish(post) == "0002/notice-000009.md"
    assert [str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()] == ["0002/notice-000009.md"]
    assert target.read_text(encoding="utf-8") == "Ada has submitted a secret move\n"
