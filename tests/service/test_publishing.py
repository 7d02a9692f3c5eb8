"""The outbox: what the service writes is delivered once, in order, through failures and restarts."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from dataclasses import dataclass, field

import pytest

from bot.service import Moderator, FilePublisher, InvalidInput, MemoryPublisher, OutboxRelay, PublishError
from bot.service.publishing import BACKOFF

MOD = Moderator(user_id=99, guild_id=1)     # a moderator of the tests' server
ALICE, BOB, CLEO = 1, 2, 3


async def unsent(table) -> int:
    async with table.store.snapshot_read() as q:
        return await q.unsent_count()


async def next_retry(table):
    async with table.store.snapshot_read() as q:
        return await q.next_retry_at()


async def test_a_publisher_that_fails_three_times_delivers_each_post_once(table):
    game = await table.playing_game()
    posts = await table.posts(game.id)
    assert len(posts) >= 8                         # the start, and update 1's board, boards, report, 3 private
    publisher = MemoryPublisher(failures=3)
    relay = OutboxRelay(table.service, publisher)

    first = posts[0].id
    start = table.clock.now
    assert await relay.deliver_due() == 0
    assert publisher.attempts == {first: 1}        # the game's later posts wait behind the failed one
    assert await relay.deliver_due() == 0          # not due again before its backoff
    assert publisher.attempts == {first: 1}
    [row] = [p for p in await table.posts(game.id) if p.id == first]
    assert (row.attempts, row.sent_at, row.next_attempt_at) == (1, None, start + timedelta(seconds=BACKOFF[0]))

    delivered, rounds = 0, 0
    while await unsent(table):
        rounds += 1
        assert rounds < 100, "the relay makes no progress"
        table.clock.past(await next_retry(table))
        delivered += await relay.deliver_due()
    assert delivered == len(posts)
    assert [p.id for p in publisher.delivered] == [p.id for p in posts]      # once each, in order
    assert publisher.attempts == {p.id: 4 for p in posts}
    for row in await table.posts(game.id):
        assert row.sent_at is not None and row.attempts == 4
        assert row.message_id == f"memory-{row.id}"
        assert row.last_error == f"simulated failure 3 of post {row.id}"
    assert await relay.deliver_due() == 0
    assert len(publisher.delivered) == len(posts)


@dataclass
class Outage:
    """A publisher that fails while ``down``, then works."""

    down: bool = True
    delivered: list = field(default_factory=list)
    tried: list = field(default_factory=list)

    async def publish(self, post) -> str:
        self.tried.append(post.id)
        if self.down:
            raise PublishError("Discord is down")
        self.delivered.append(post.id)
        return f"message-{post.id}"


async def test_posts_of_a_game_keep_their_order_across_an_outage(table):
    game = await table.playing_game()
    ids = [p.id for p in await table.posts(game.id)]
    publisher = Outage()
    relay = OutboxRelay(table.service, publisher)
    assert await relay.deliver_due() == 0          # the first post fails and waits for its retry
    publisher.down = False
    table.clock.advance(seconds=BACKOFF[0] / 2)    # woken early (a new post), before the retry is due
    await table.service.announce(game.id, actor=MOD, text="Update 2 is open")
    await relay.deliver_due()
    assert publisher.delivered == [], "a later post went out before the one that failed"
    table.clock.advance(seconds=BACKOFF[0])
    assert await relay.deliver_due() == len(ids) + 1
    assert publisher.delivered == ids + [ids[-1] + 1]


async def test_another_games_posts_do_not_wait_for_a_failing_game(table):
    first = await table.new_game(channel_id=10)
    second = await table.new_game(channel_id=11)
    failing = (await table.posts(first.id))[0].id

    class OneBadPost(MemoryPublisher):
        async def publish(self, post):
            if post.id == failing:
                raise PublishError("this channel is slow")
            return await super().publish(post)

    publisher = OneBadPost()
    assert await OutboxRelay(table.service, publisher).deliver_due() == 1
    assert [p.game_id for p in publisher.delivered] == [second.id]


async def test_an_undeliverable_post_is_closed_and_the_rest_go_on(table):
    game = await table.playing_game()
    await table.service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)", source="dm")
    await table.service.announce(game.id, actor=MOD, text="after the notice")
    publisher = MemoryPublisher(undeliverable=("notice",))
    relay = OutboxRelay(table.service, publisher)
    posts = await table.posts(game.id)
    assert await relay.deliver_due() == len(posts) - 1
    [notice] = [p for p in await table.posts(game.id) if p.kind == "notice"]
    assert notice.sent_at is not None and notice.message_id is None
    assert notice.last_error == "cannot deliver a notice"
    assert publisher.delivered[-1].body == "after the notice"
    assert await unsent(table) == 0


async def test_two_relays_in_two_processes_mark_each_post_sent_once(table):
    game = await table.playing_game()
    count = len(await table.posts(game.id))
    other = await table.other_process("elsewhere:77:cafe")
    first, second = MemoryPublisher(), MemoryPublisher()
    results = await asyncio.gather(OutboxRelay(table.service, first).deliver_due(),
                                   OutboxRelay(other, second).deliver_due())
    assert sum(results) == count
    assert await unsent(table) == 0
    sent_by = {p.id: p.message_id for p in await table.posts(game.id)}
    assert len(sent_by) == count and all(sent_by.values())
    assert table.rows("SELECT COUNT(*) FROM outbox WHERE attempts != 1") == [(0,)]


async def test_the_service_wakes_the_relay_only_when_something_was_written(table):
    game = await table.playing_game()
    service = table.service
    service.posts_waiting.clear()
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")          # posts nothing
    assert not service.posts_waiting.is_set()
    with pytest.raises(InvalidInput):
        await service.announce(game.id, actor=MOD, text="")
    assert not service.posts_waiting.is_set()
    await service.announce(game.id, actor=MOD, text="hello")
    assert service.posts_waiting.is_set()


async def test_the_file_publisher_writes_the_documented_layout(table, tmp_path):
    game = await table.playing_game()
    await table.service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)", source="dm")
    await table.service.rollback(game.id, to_update=0, actor=MOD)       # a private notice to Bob
    root = tmp_path / "posts"
    relay = OutboxRelay(table.service, FilePublisher(root))
    assert await relay.deliver_due() == len(await table.posts(game.id))
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    for expected in ["0000/announcement-000001.md", "0001/board.png", "0001/health.png", "0001/health.txt",
                     "0001/report.md", "0001/private/Alice.md", "0001/private/Bob.md", "0001/private/Cleo.md"]:
        assert expected in files
    assert (root / "0001/board.png").read_bytes().startswith(b"\x89PNG")
    health = (root / "0001/health.txt").read_text().splitlines()
    assert health == ["1. Alice (Red): 0 --- Health: 11 💖", "2. Bob (Blue): 0 --- Health: 11 💖",
                      "3. Cleo (Green): 0 --- Health: 11 💖"]
    [to_bob] = [f for f in files if f.endswith(f"-to-{BOB}.md")]
    assert to_bob.startswith("0001/private/notice-")
    assert "rolled the game back to update 0" in (root / to_bob).read_text()
    assert "Bob placed a king on (10,0)" in (root / "0001/report.md").read_text()

    # publishing a row again (a crash between publishing and marking it sent) rewrites the same file
    before = {f: (root / f).read_bytes() for f in files}
    again = FilePublisher(root)
    for post in await table.posts(game.id):
        await again.publish(post)
    assert {f: (root / f).read_bytes() for f in files} == before


async def test_a_file_publisher_that_cannot_write_is_retried(table, tmp_path):
    game = await table.new_game()
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the posts folder should be")
    relay = OutboxRelay(table.service, FilePublisher(blocked))
    assert await relay.deliver_due() == 0
    [post] = await table.posts(game.id)
    assert post.sent_at is None and post.attempts == 1 and "cannot write" in post.last_error
    blocked.unlink()
    table.clock.past(post.next_attempt_at)
    assert await relay.deliver_due() == 1
    assert (blocked / "0000" / f"announcement-{post.id:06d}.md").read_text().startswith(f"**{game.name}** has started")


NASTY_NAMES = ["../../x", "../report", "..", ".", "/etc/passwd", "a/b", "C:\\x", "CON", "nul.md", "", "Ada.md\x00.png",
               ".hidden", "x" * 300, "Ünïcödé ☃", "report", "-", "Ada+1a2b3c4d"]


@pytest.mark.parametrize("name", NASTY_NAMES)
def test_a_private_reports_file_stays_in_its_folder_whatever_the_name(name, tmp_path):
    from pathlib import Path

    from bot.service.publishing import post_path
    from bot.store import Post

    post = Post(id=7, game_id=1, update_no=3, kind="private_report", recipient=5, body="", attachment=None,
                filename=f"{name}.md", created_at=None, attempts=0, last_error=None, next_attempt_at=None,
                sent_at=None, message_id=None)
    relative = Path(post_path(post))
    assert relative.parent == Path("0003/private"), relative
    assert relative.name not in ("", ".", "..") and len(relative.name) <= 80
    root = (tmp_path / "posts").resolve()
    assert (root / relative).resolve().parent == root / "0003" / "private"


def test_plain_names_keep_their_file_and_distinct_names_get_distinct_files():
    from bot.service.publishing import safe_file_name

    assert safe_file_name("Ada.md") == "Ada.md" and safe_file_name("Player 13.md") == "Player 13.md"
    names = [f"{name}.md" for name in NASTY_NAMES] + ["Ada.md", "Basil.md"]
    assert len({safe_file_name(name) for name in names}) == len(set(names))
    # a hashed name cannot be chosen as a plain one: '+' never stays in a kept name
    crafted = safe_file_name("../report.md")
    assert "+" in crafted and safe_file_name(crafted) != crafted


async def test_player_names_with_dots_and_slashes_write_only_inside_posts(table, tmp_path):
    players = [(1, "../../x", "Red", (0, 0)), (2, "../report", "Blue", (10, 0)), (3, "Cleo", "Green", (0, 10))]
    game = await table.playing_game(players=players)
    out = tmp_path / "demo"
    root = out / "posts"
    relay = OutboxRelay(table.service, FilePublisher(root))
    assert await relay.deliver_due() == len(await table.posts(game.id))
    everything = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")
                        if p.is_file() and not p.name.startswith("skirmish.sqlite3"))
    assert all(path.startswith("demo/posts/") for path in everything), everything
    assert "Cleo placed a king on (0,10)" in (root / "0001/report.md").read_text()   # not overwritten
    private = sorted(p.name for p in (root / "0001/private").iterdir())
    assert len(private) == 3 and "Cleo.md" in private
    texts = {(root / "0001/private" / name).read_text() for name in private}
    assert any("../report" in text for text in texts) and any("../../x" in text for text in texts)


async def test_the_file_publisher_refuses_a_path_outside_its_folder(tmp_path):
    from bot.service import UndeliverableError

    publisher = FilePublisher(tmp_path / "posts")
    with pytest.raises(UndeliverableError, match="outside"):
        publisher._inside("../escape.md")
    assert publisher._inside("0001/board.png") == (tmp_path / "posts" / "0001" / "board.png").resolve()
