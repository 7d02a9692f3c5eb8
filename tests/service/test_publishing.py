"""The outbox: what the service writes is delivered once, in order, through failures and restarts."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from dataclasses import dataclass, field

import pytest

from bot.service import (FilePublisher, InvalidInput, MemoryPublisher, Moderator, NotAllowed, NotFound, OutboxRelay,
                         PublishError, UndeliverableError, WaitingForAccess)
from bot.service.publishing import BACKOFF, MIN_RETRY_SECONDS

MOD = 99
GUILD = 1
ALICE, BOB, CLEO = 1, 2, 3


def moderator(guild_id: int = GUILD) -> Moderator:
    return Moderator(user_id=MOD, guild_id=guild_id)


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

    first_of_each_place = {}
    for post in posts:
        first_of_each_place.setdefault(post.recipient, post.id)
    start = table.clock.now
    assert await relay.deliver_due() == 0
    # the channel's later posts wait behind its failed first one; each player's report is a place of its own
    assert publisher.attempts == {post_id: 1 for post_id in first_of_each_place.values()}
    assert await relay.deliver_due() == 0          # not due again before its backoff
    assert publisher.attempts == {post_id: 1 for post_id in first_of_each_place.values()}
    [row] = [p for p in await table.posts(game.id) if p.id == first_of_each_place[None]]
    assert (row.attempts, row.sent_at, row.next_attempt_at) == (1, None, start + timedelta(seconds=BACKOFF[0]))

    delivered, rounds = 0, 0
    while await unsent(table):
        rounds += 1
        assert rounds < 100, "the relay makes no progress"
        table.clock.past(await next_retry(table))
        delivered += await relay.deliver_due()
    assert delivered == len(posts)
    assert sorted(p.id for p in publisher.delivered) == [p.id for p in posts]        # once each
    channel = [p.id for p in posts if p.recipient is None]
    assert [p.id for p in publisher.delivered if p.recipient is None] == channel      # the channel's in order
    assert publisher.attempts == {p.id: 4 for p in posts}
    for row in await table.posts(game.id):
        assert row.sent_at is not None and row.attempts == 4 and row.state == "sent"
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
    await table.service.announce(game.id, actor=moderator(), text="Update 2 is open")
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


async def test_an_undeliverable_post_is_parked_with_its_reason_and_the_rest_go_on(table):
    game = await table.playing_game()
    await table.service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)", source="dm")
    await table.service.announce(game.id, actor=moderator(), text="after the notice")
    publisher = MemoryPublisher(undeliverable=("notice",))
    relay = OutboxRelay(table.service, publisher)
    posts = await table.posts(game.id)
    assert await relay.deliver_due() == len(posts) - 1
    [notice] = [p for p in await table.posts(game.id) if p.kind == "notice"]
    assert (notice.state, notice.sent_at, notice.attempts) == ("parked", None, 1)
    assert notice.last_error == "cannot deliver a notice"
    assert publisher.delivered[-1].body == "after the notice"
    assert await next_retry(table) is None                     # nothing retries it by itself
    table.clock.advance(days=30)
    assert await relay.deliver_due() == 0 and publisher.attempts[notice.id] == 1

    # a moderator asks for it again: it goes out once Discord takes it
    publisher.undeliverable = ()
    assert await table.service.redeliver(game.id, actor=moderator(), post_id=notice.id) == [notice.id]
    assert await relay.deliver_due() == 1
    [notice] = [p for p in await table.posts(game.id) if p.kind == "notice"]
    assert (notice.state, notice.attempts) == ("sent", 2) and notice.message_id == f"memory-{notice.id}"
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
        await service.announce(game.id, actor=moderator(), text="")
    assert not service.posts_waiting.is_set()
    await service.announce(game.id, actor=moderator(), text="hello")
    assert service.posts_waiting.is_set()


async def test_the_file_publisher_writes_the_documented_layout(table, tmp_path):
    game = await table.playing_game()
    await table.service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)", source="dm")
    await table.service.rollback(game.id, to_update=0, actor=moderator())       # a private notice to Bob
    root = tmp_path / "posts"
    relay = OutboxRelay(table.service, FilePublisher(root))
    assert await relay.deliver_due() == len(await table.posts(game.id))
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    for expected in ["0000/announcement-000001.md", "0001/board.png", "0001/health.png", "0001/health.txt",
                     "0001/report.md", "0001/private/Alice.md", "0001/private/Bob.md", "0001/private/Cleo.md"]:
        assert expected in files
    assert (root / "0001/board.png").read_bytes().startswith(b"\x89PNG")
    health = (root / "0001/health.txt").read_text().splitlines()
    assert health[0].startswith("Rank. Player (colour): score --- Health (score: ")    # names the first number
    assert health[1:] == ["1. Alice (Red): 0 --- Health: 11 💖", "2. Bob (Blue): 0 --- Health: 11 💖",
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
    assert (blocked / "0000" / f"announcement-{post.post_no:06d}.md").read_text().startswith(f"**{game.name}** has started")


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


# ----------------------------------------------------------------------------- faults that must lose nothing
async def test_attempts_count_each_try_once(table):
    game = await table.new_game()
    await table.service.announce(game.id, actor=moderator(), text="second")
    await table.service.announce(game.id, actor=moderator(), text="third")
    start, second, third = [p.id for p in await table.posts(game.id)]

    class Mixed(MemoryPublisher):
        async def publish(self, post):
            if post.id == second and self.attempts.get(second, 0) == 0:
                self.attempts[second] = 1
                raise UndeliverableError("refused once")
            return await super().publish(post)

    relay = OutboxRelay(table.service, Mixed())
    await relay.deliver_due()
    counts = {p.id: (p.state, p.attempts) for p in await table.posts(game.id)}
    assert counts == {start: ("sent", 1), second: ("parked", 1), third: ("sent", 1)}   # one try, one attempt
    await table.service.redeliver(game.id, actor=moderator())
    await relay.deliver_due()
    assert {p.id: (p.state, p.attempts) for p in await table.posts(game.id)}[second] == ("sent", 2)


async def test_a_publisher_raising_an_unexpected_error_parks_that_post_and_every_other_goes_out(table):
    first = await table.playing_game(channel_id=10)
    second = await table.new_game(channel_id=11)
    broken = [p for p in await table.posts(first.id) if p.kind == "board"][0].id

    class Buggy(MemoryPublisher):
        async def publish(self, post):
            if post.id == broken:
                raise RuntimeError("a bug in the publisher")
            return await super().publish(post)

    publisher = Buggy()
    relay = OutboxRelay(table.service, publisher)
    expected = len(await table.posts(first.id)) + len(await table.posts(second.id)) - 1
    assert await relay.deliver_due() == expected                  # no exception escapes; the rest go out
    assert {p.game_id for p in publisher.delivered} == {first.id, second.id}
    [row] = [p for p in await table.posts(first.id) if p.id == broken]
    assert row.state == "parked" and row.sent_at is None and row.attempts == 1
    assert "RuntimeError" in row.last_error and "/mod redeliver" in row.last_error
    # shown to moderators with its reason, never with its text
    [trouble] = await table.service.post_troubles(first.id, actor=moderator())
    assert (trouble.post_id, trouble.state) == (broken, "parked")
    assert "RuntimeError" in trouble.text() and "board of update 1" in trouble.text()
    assert row.body not in trouble.text()
    # the bug is fixed; a moderator asks for it again
    publisher.__class__ = MemoryPublisher
    assert await table.service.redeliver(first.id, actor=moderator()) == [broken]
    assert await relay.deliver_due() == 1
    assert await unsent(table) == 0
    assert ("redeliver", {"posts": [broken]}) in [(e.action, e.detail) for e in await table.service.audit_log(first.id)]


async def test_the_relay_keeps_running_when_a_publisher_raises(table):
    game = await table.new_game()

    class AlwaysBroken:
        tried: int = 0

        async def publish(self, post):
            AlwaysBroken.tried += 1
            raise KeyError("oops")

    relay = OutboxRelay(table.service, AlwaysBroken(), poll_seconds=0.01)
    runner = asyncio.create_task(relay.run())
    try:
        await asyncio.sleep(0.2)
        assert not runner.done()
    finally:
        runner.cancel()
    [post] = await table.posts(game.id)
    assert post.state == "parked" and AlwaysBroken.tried == 1          # parked, not retried in a loop


async def test_retry_after_is_honoured_instead_of_the_backoff(table):
    game = await table.new_game()
    [post] = await table.posts(game.id)

    class RateLimited(MemoryPublisher):
        retry_after: float = 30.0
        limited: bool = True

        async def publish(self, post):
            if self.limited:
                self.attempts[post.id] = self.attempts.get(post.id, 0) + 1
                raise PublishError("rate limited", retry_after=self.retry_after)
            return await super().publish(post)

    publisher = RateLimited()
    relay = OutboxRelay(table.service, publisher)
    start = table.clock.now
    await relay.deliver_due()
    assert await next_retry(table) == start + timedelta(seconds=30)        # not BACKOFF[0]
    table.clock.advance(seconds=BACKOFF[1])
    assert await relay.deliver_due() == 0 and publisher.attempts[post.id] == 1
    table.clock.now = start + timedelta(seconds=30)
    publisher.retry_after = 0                                               # "now" is never a tight loop
    await relay.deliver_due()
    assert publisher.attempts[post.id] == 2
    assert await next_retry(table) == table.clock.now + timedelta(seconds=MIN_RETRY_SECONDS)
    publisher.limited = False
    table.clock.past(await next_retry(table))
    assert await relay.deliver_due() == 1


async def test_a_post_is_tried_once_per_round_however_short_its_wait(table):
    game = await table.new_game()
    await table.service.announce(game.id, actor=moderator(), text="second")
    clock = table.clock

    class SlowAndFailing:
        tried: list = []

        async def publish(self, post):
            self.tried.append(post.id)
            clock.advance(seconds=10)               # each try takes longer than the wait Discord asks for
            raise PublishError("busy", retry_after=0)

    publisher = SlowAndFailing()
    assert await OutboxRelay(table.service, publisher).deliver_due() == 0
    assert publisher.tried == [(await table.posts(game.id))[0].id]


async def test_posts_waiting_for_access_retry_with_growing_backoff_and_are_never_given_up(table):
    game = await table.playing_game()
    await table.service.announce(game.id, actor=moderator(), text="while the channel is closed")

    class ChannelClosed(MemoryPublisher):
        closed: bool = True

        async def publish(self, post):
            if self.closed and post.recipient is None:
                self.attempts[post.id] = self.attempts.get(post.id, 0) + 1
                raise WaitingForAccess(f"post {post.id} in the channel of game {post.game_id}: the bot cannot see "
                                       f"that channel (Discord answered 403 (code 50001))")
            return await super().publish(post)

    publisher = ChannelClosed()
    relay = OutboxRelay(table.service, publisher)
    await relay.deliver_due()
    posts = await table.posts(game.id)
    channel = [p for p in posts if p.recipient is None and p.kind != "notice"]
    assert [p.state for p in channel] == ["waiting"] + ["pending"] * (len(channel) - 1)
    assert {p.recipient for p in publisher.delivered} == {ALICE, BOB, CLEO, MOD}      # the players' reports go on
    [told] = [p for p in posts if p.kind == "notice" and p.recipient == MOD]           # the game's creator is told
    assert "cannot see that channel" in told.body and "/mod posts" in told.body and table.MODERATOR.user_id == MOD

    waits = []
    for _ in range(12):                                     # hours of waiting: never parked, never given up
        retry = await next_retry(table)
        waits.append(round((retry - table.clock.now).total_seconds()))
        table.clock.now = retry
        await relay.deliver_due()
    assert waits == [1, 2, 5, 15, 60, 300, 300, 300, 300, 300, 300, 300]
    first = (await table.posts(game.id))[0]
    assert (first.state, first.attempts, first.sent_at) == ("waiting", 13, None)
    assert len([p for p in await table.posts(game.id) if p.kind == "notice" and p.recipient == MOD]) == 1  # once
    troubles = await table.service.post_troubles(game.id, actor=moderator())
    assert [t.state for t in troubles] == ["waiting"] and "cannot see that channel" in troubles[0].text()

    # access returns: everything goes out, in order, once
    publisher.closed = False
    table.clock.past(await next_retry(table))
    await relay.deliver_due()
    assert [p.id for p in publisher.delivered if p.recipient is None] == [p.id for p in channel]
    assert await unsent(table) == 0
    assert [a.action for a in await table.service.audit_log(game.id)].count("posts_waiting") == 1

    # a later spell of waiting is told again, once
    publisher.closed = True
    await table.service.announce(game.id, actor=moderator(), text="closed again")
    await relay.deliver_due()
    assert len([p for p in await table.posts(game.id) if p.kind == "notice" and p.recipient == MOD]) == 2


async def test_a_moderator_can_try_waiting_posts_at_once(table):
    game = await table.new_game()
    [post] = await table.posts(game.id)

    class Closed(MemoryPublisher):
        open: bool = False

        async def publish(self, post):
            if post.recipient is None and not self.open:
                raise WaitingForAccess("the bot lacks a permission there")
            return await super().publish(post)

    publisher = Closed()
    relay = OutboxRelay(table.service, publisher)
    for _ in range(6):
        table.clock.past(await next_retry(table) or table.clock.now)
        await relay.deliver_due()
    assert (await table.posts(game.id))[0].state == "waiting"
    publisher.open = True                                    # the permission is granted back
    assert await table.service.redeliver(game.id, actor=moderator()) == [post.id]
    assert await relay.deliver_due() >= 1                     # at once, not after the 300 s backoff
    assert (await table.posts(game.id))[0].state == "sent"


async def test_only_a_moderator_of_the_games_server_sees_and_redelivers_posts(table):
    game = await table.new_game()
    await OutboxRelay(table.service, MemoryPublisher(undeliverable=("announcement",))).deliver_due()
    for actor in (MOD, ALICE, Moderator(user_id=MOD, guild_id=GUILD + 1)):
        await table.refused(table.service.redeliver(game.id, actor=actor), NotAllowed, "only a moderator")
        with pytest.raises(NotAllowed):
            await table.service.post_troubles(game.id, actor=actor)
    await table.refused(table.service.redeliver(game.id, actor=moderator(), post_id=10**6), NotFound,
                        "is not parked or waiting", "/mod posts")
    await table.service.redeliver(game.id, actor=moderator())
    await table.refused(table.service.redeliver(game.id, actor=moderator()), NotFound, "no post of")
    assert await table.service.post_troubles(game.id, actor=moderator()) != []     # tried again, not yet sent
