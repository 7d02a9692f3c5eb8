"""The outbox relay posting through the Discord publisher: what a resolved update looks like in the
channel and in direct messages, nonces, retries and undeliverable posts."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import aiohttp
import discord
import pytest
import simcord

from bot.discord_publisher import MESSAGE_LIMIT, DiscordPublisher, message_parts, nonce_for
from bot.service import PublishError, UndeliverableError, WaitingForAccess
from bot.store import Post

from .conftest import let_use

T = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)

#: the text standings' first line: it names the score (issue 27 item 5)
HEADING = "Rank. Player (colour): score --- Health (score: the cost of the player's pieces on the board, king 0)"


def post(**fields) -> Post:
    values = dict(id=42, game_id=1, update_no=3, kind="report", recipient=None, body="Update 3", attachment=None,
                  filename="report.md", created_at=T, attempts=0, last_error=None, next_attempt_at=None, sent_at=None,
                  message_id=None)
    values.update(fields)
    return Post(**values)


def message_requests(world, channel_id: int) -> list[dict]:
    return [r.json for r in world.env.http_requests
            if r.method == "POST" and r.path == f"/channels/{channel_id}/messages"]


async def outbox(world, game) -> list[Post]:
    async with world.service.store.snapshot_read() as q:
        return await q.posts(game.id)


async def two_players(world, *, resolve: bool = True):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    await world.join(game, world.bob, "Blue", "Bob")
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)")
    await world.service.submit_order(game.id, user_id=world.bob.id, text="K(5,0)", source="dm")
    await world.env.settle()
    if resolve:
        await world.resolve(game)
    return game


# ----------------------------------------------------------------------------- the parts of a message
def test_a_short_post_is_its_text_with_its_picture():
    assert message_parts(post(body="Update 3")) == ("Update 3", [])
    text, files = message_parts(post(kind="board", body="The board.", attachment=b"png", filename="board.png"))
    assert (text, files) == ("The board.", [("board.png", b"png")])


def test_a_long_text_becomes_an_attachment_behind_its_first_line():
    body = "Update 3\n" + "\n".join(f"- Player{i} placed a king on ({i},0)." for i in range(100))
    assert len(body) > MESSAGE_LIMIT
    text, files = message_parts(post(body=body))
    assert files == [("report.md", body.encode())]
    assert text == "Update 3\n*(the full text is attached: report.md)*"
    text, files = message_parts(post(kind="health_text", body=body, filename="health.txt"))
    assert files[0][0] == "health.txt"
    text, files = message_parts(post(kind="announcement", body="x" * 5000, filename=None))
    assert files[0][0] == "announcement.md" and len(text) <= MESSAGE_LIMIT


def test_the_nonce_is_the_rows_for_every_attempt():
    assert nonce_for(post(id=7)) == nonce_for(post(id=7, attempts=3)) == "skirmish-7"
    assert nonce_for(post(id=8)) != nonce_for(post(id=7))
    assert len(nonce_for(post(id=10**15))) <= 25


# ----------------------------------------------------------------------------- failures, by Discord's answer
class _Response:
    def __init__(self, status: int, headers: dict | None = None) -> None:
        self.status = status
        self.reason = "test"
        self.headers = headers or {}


class _Channel:
    def __init__(self, error: BaseException) -> None:
        self.error = error

    async def send(self, *args, **kwargs):
        raise self.error


class _Client:
    def __init__(self, error: BaseException) -> None:
        self.channel = _Channel(error)

    def get_channel(self, channel_id):
        return self.channel

    async def create_dm(self, user):
        return self.channel


class _Service:
    async def get_game(self, game_id):
        class Game:
            channel_id, guild_id = 10, 1
        return Game()

    async def ping_role(self, post):
        return None


def _http(kind, status: int, code: int, headers: dict | None = None):
    return kind(_Response(status, headers), {"code": code, "message": "refused"})


@pytest.mark.parametrize("error, outcome", [
    (_http(discord.HTTPException, 429, 0), PublishError),
    (discord.RateLimited(45.0), PublishError),                    # discord.py would not wait that long
    (_http(discord.DiscordServerError, 502, 0), PublishError),
    (aiohttp.ClientConnectionError("reset"), PublishError),
    (asyncio.TimeoutError(), PublishError),
    (_http(discord.Forbidden, 403, 50013), WaitingForAccess),     # a moderator can grant the permission
    (_http(discord.Forbidden, 403, 50001), WaitingForAccess),     # the bot was shut out of the channel, for now
    (_http(discord.HTTPException, 401, 0), WaitingForAccess),     # the token was reset
    (_http(discord.Forbidden, 403, 50007), UndeliverableError),   # closed direct messages, no thread possible
    (_http(discord.NotFound, 404, 10003), UndeliverableError),    # no such channel
    (_http(discord.HTTPException, 413, 40005), UndeliverableError),
    (_http(discord.HTTPException, 400, 50035), UndeliverableError),
])
async def test_failures_map_to_retry_or_give_up(error, outcome):
    publisher = DiscordPublisher(_Client(error), _Service())
    secret = post(recipient=77, kind="private_report", body="Update 3 (your report)\n- You moved N(1,2)-(3,3).")
    with pytest.raises(PublishError) as raised:
        await publisher.publish(secret)
    assert type(raised.value) is outcome
    assert "post 42" in str(raised.value) and "N(1,2)" not in str(raised.value)


@pytest.mark.parametrize("error, wait", [
    (_http(discord.HTTPException, 429, 0, {"Retry-After": "7.5"}), 7.5),
    (_http(discord.HTTPException, 429, 0, {"X-RateLimit-Reset-After": "2.25"}), 2.25),
    (discord.RateLimited(45.0), 45.0),
    (_http(discord.HTTPException, 429, 0), None),                 # Discord did not say: the relay's backoff
    (_http(discord.HTTPException, 429, 0, {"Retry-After": "soon"}), None),
])
async def test_a_rate_limit_says_when_to_try_again(error, wait):
    publisher = DiscordPublisher(_Client(error), _Service())
    with pytest.raises(PublishError) as raised:
        await publisher.publish(post())
    assert raised.value.retry_after == wait


# ----------------------------------------------------------------------------- through SimCord
async def test_a_resolved_update_is_posted_in_the_channel_and_by_direct_message(world):
    game = await two_players(world)
    posted = world.public(world.channel)
    assert [m.content.split("\n")[0] for m in posted] == [
        ("**neisg game** has started: Never-Ending Infinite Sandbox Game. Join with /join, then place your king "
         "with /move K(x,y)."),
        "Bob has submitted a secret move",
        "**neisg game**: the board after update 1.",
        "Health board after update 1.",
        HEADING,
        "Update 1",
    ]
    assert [[a.filename for a in m.attachments] for m in posted][2:4] == [["board.png"], ["health.png"]]
    assert (await posted[2].attachments[0].read()).startswith(b"\x89PNG")
    assert all(m.author.id == world.env.bot.user.id for m in posted)
    alice_dm = world.alice.user.dm_channel.history()
    assert alice_dm[-1].content.startswith("Update 1 (your report, Alice)")
    rows = await outbox(world, game)
    assert all(row.sent_at is not None and row.last_error is None for row in rows)
    assert {row.message_id for row in rows} == {str(m.id) for m in posted} | {str(alice_dm[-1].id),
                                                                            str(world.bob.user.dm_channel.history()[-1].id)}
    requests = message_requests(world, world.channel.id)
    assert [r["nonce"] for r in requests] == [nonce_for(row) for row in rows if row.recipient is None]
    assert all(r["enforce_nonce"] is True and r["allowed_mentions"] == {"parse": []} for r in requests)


async def test_a_long_report_is_attached(world):
    game = await world.game()
    for number in range(60):        # a report too long for one message, though its routine lines are summed up
        user = world.env.create_user(f"player{number}")
        await world.service.join(game.id, user_id=user.id, name=f"Player{number:02d}", colour=_colour(number))
        await world.service.submit_order(game.id, user_id=user.id, text=f"K({number * 3},0)")
    await world.resolve(game)
    report = next(m for m in world.public(world.channel) if m.content.startswith("Update 1"))
    assert report.content == "Update 1\n*(the full text is attached: report.md)*"
    [attached] = report.attachments
    text = (await attached.read()).decode()
    assert len(text) > MESSAGE_LIMIT and "Player59 placed a king on (177,0)" in text


def _colour(number: int) -> str:
    from bot.render.palette import colour_names

    names = colour_names()
    if number < len(names):
        return names[number]
    return f"{names[number % len(names)]}/{names[(number + 1) % len(names)]}"


async def test_a_discord_outage_delays_posts_and_loses_none(world):
    game = await two_players(world, resolve=False)
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=503, times=1)
    await world.resolve(game)
    assert not any(m.content.startswith("**neisg game**: the board") for m in world.public(world.channel))
    rows = await outbox(world, game)
    board = next(row for row in rows if row.kind == "board")
    assert board.attempts == 1 and "503" in board.last_error and board.sent_at is None
    assert all(row.sent_at is None for row in rows if row.id > board.id and row.recipient is None)  # the channel's
    assert all(row.sent_at is not None for row in rows if row.recipient is not None)   # the players' reports go
    world.clock.advance(seconds=2)
    await world.env.advance_time(2)
    posted = [m.content.split("\n")[0] for m in world.public(world.channel)]
    assert posted[-4:] == ["**neisg game**: the board after update 1.", "Health board after update 1.",
                           HEADING, "Update 1"]
    assert posted.count("**neisg game**: the board after update 1.") == 1
    board_attempts = [r for r in message_requests(world, world.channel.id) if r["nonce"] == nonce_for(board)]
    assert len(board_attempts) == 2                                          # the same nonce both times
    assert all(row.sent_at is not None for row in await outbox(world, game))


async def test_missing_permissions_are_retried(world):
    game = await two_players(world, resolve=False)
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=403, code=50013, times=1)
    await world.resolve(game)
    board = next(row for row in await outbox(world, game) if row.kind == "board")
    assert board.sent_at is None and "50013" in board.last_error
    world.clock.advance(seconds=2)
    await world.env.advance_time(2)
    assert any(m.content.startswith("**neisg game**: the board") for m in world.public(world.channel))


async def test_closed_direct_messages_fall_back_to_a_private_thread_for_that_player(world):
    game = await two_players(world, resolve=False)
    alice_dm = world.alice.user.dm_channel
    world.env.inject_error("POST", f"/channels/{alice_dm.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    await world.resolve(game)
    rows = await outbox(world, game)
    to_alice = next(row for row in rows if row.recipient == world.alice.id)
    assert to_alice.sent_at is not None and to_alice.message_id is not None
    [thread] = world.channel.threads
    assert thread.name == f"Alice · private · game {game.id}"
    stored = world.env.backend.get_channel(thread.id)
    assert stored.type == discord.ChannelType.private_thread.value
    assert world.alice.id in stored.thread_members and world.bob.id not in stored.thread_members
    in_thread = thread.history(viewer=world.alice)
    assert "you do not accept direct messages from the bot" in in_thread[0].content
    assert in_thread[-1].content.startswith("Update 1 (your report, Alice)")
    assert str(in_thread[-1].id) == to_alice.message_id
    # nobody else sees it; Bob's report still goes by DM and the channel gets its posts
    with pytest.raises(simcord.SetupError):
        thread.history(viewer=world.bob)
    assert world.bob.user.dm_channel.history()[-1].content.startswith("Update 1 (your report, Bob)")
    posts = [m for m in world.public(world.channel) if m.type is discord.MessageType.default]
    assert posts[-1].content.startswith("Update 1")
    assert all("your report" not in m.content for m in world.public(world.channel))
    # the next private post reuses the thread
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)-(0,1)")
    await world.service.submit_order(game.id, user_id=world.bob.id, text="K(5,0)-(5,1)")
    await world.resolve(game)
    assert len(world.channel.threads) == 1
    assert thread.history(viewer=world.alice)[-1].content.startswith("Update 2 (your report, Alice)")


async def test_closed_direct_messages_without_a_thread_permission_wait_for_it(world):
    game = await two_players(world, resolve=False)
    alice_dm = world.alice.user.dm_channel
    world.env.inject_error("POST", f"/channels/{alice_dm.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    world.env.inject_error("POST", f"/channels/{world.channel.id}/threads", status=403, code=50013, times=None)
    await world.resolve(game)
    to_alice = next(row for row in await outbox(world, game) if row.recipient == world.alice.id)
    assert to_alice.sent_at is None and to_alice.state == "waiting"
    assert "does not accept direct messages" in to_alice.last_error
    assert "opening a private thread for them failed" in to_alice.last_error and "50013" in to_alice.last_error
    assert "Create Private Threads" in to_alice.last_error
    assert "your report" not in to_alice.last_error
    assert world.bob.user.dm_channel.history()[-1].content.startswith("Update 1 (your report, Bob)")
    assert world.public(world.channel)[-1].content.startswith("Update 1")
    # the permission is granted: the report arrives in Alice's private thread
    _lift_faults(world, f"/channels/{world.channel.id}/threads")
    await _pass(world, seconds=3)
    to_alice = next(row for row in await outbox(world, game) if row.recipient == world.alice.id)
    assert to_alice.state == "sent" and to_alice.attempts == 2
    [thread] = world.channel.threads
    assert thread.history(viewer=world.alice)[-1].content.startswith("Update 1 (your report, Alice)")


@pytest.mark.parametrize("status", [503, 429])
async def test_a_transient_error_opening_the_private_thread_is_retried(world, status):
    game = await two_players(world, resolve=False)
    alice_dm = world.alice.user.dm_channel
    world.env.inject_error("POST", f"/channels/{alice_dm.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    world.env.inject_error("POST", f"/channels/{world.channel.id}/threads", status=status, times=1)
    await world.resolve(game)
    to_alice = next(row for row in await outbox(world, game) if row.recipient == world.alice.id)
    assert to_alice.sent_at is None and to_alice.state == "pending" and to_alice.attempts == 1
    assert str(status) in to_alice.last_error and "retrying" in to_alice.last_error
    await _pass(world, seconds=2)
    to_alice = next(row for row in await outbox(world, game) if row.recipient == world.alice.id)
    assert to_alice.state == "sent" and to_alice.attempts == 2
    [thread] = world.channel.threads
    in_thread = thread.history(viewer=world.alice)
    assert "you do not accept direct messages from the bot" in in_thread[0].content
    assert [m.content.split("\n")[0] for m in in_thread[1:]] == ["Update 1 (your report, Alice)"]


@pytest.mark.parametrize("status, code", [(403, 50001), (401, 0)])
# minutes of the bot's time pass: its relay and its heartbeat (every 5 s) each touch the database
# dozens of times, which may take SimCord more than its default 5 real seconds to settle
@pytest.mark.simcord(settle_timeout=30)
async def test_posts_wait_while_the_bot_is_shut_out_and_go_out_when_access_returns(world, status, code):
    # the game's creator is a member the bot can reach by direct message
    game = await world.service.create_game(guild_id=world.guild.id, channel_id=world.channel.id,
                                           actor=_moderator(world, world.cleo), seed=7)
    game = await world.service.start_game(game.id, actor=_moderator(world, world.cleo))
    await world.env.settle()
    await world.join(game, world.alice, "Red", "Alice")
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)")
    before = len(world.public(world.channel))
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=status, code=code, times=None)
    await world.service.resolve_now(game.id, actor=_moderator(world, world.cleo))
    await world.env.settle()
    for _ in range(5):                                       # minutes of waiting: nothing is given up
        await _pass(world, seconds=(await _next_retry(world) - world.clock.now).total_seconds() + 1)
    rows = await outbox(world, game)
    channel_rows = [row for row in rows if row.recipient is None and row.sent_at is None]
    assert channel_rows and channel_rows[0].state == "waiting" and channel_rows[0].attempts >= 5
    assert all(row.state == "pending" and row.attempts == 0 for row in channel_rows[1:])   # they wait behind it
    assert len(world.public(world.channel)) == before
    told = [m.content for m in world.cleo.user.dm_channel.history() if "are waiting" in m.content]
    assert len(told) == 1 and str(status) in told[0] and "/mod posts" in told[0]           # told once
    assert world.alice.user.dm_channel.history()[-1].content.startswith("Update 1 (your report, Alice)")

    _lift_faults(world, f"/channels/{world.channel.id}/messages")
    await _pass(world, seconds=(await _next_retry(world) - world.clock.now).total_seconds() + 1)
    posted = [m.content.split("\n")[0] for m in world.public(world.channel)[before:]]
    assert posted == ["**neisg game**: the board after update 1.", "Health board after update 1.",
                      HEADING, "Update 1"]
    assert all(row.sent_at is not None for row in await outbox(world, game))


def _moderator(world, member):
    from bot.service import Moderator

    return Moderator(user_id=member.id, guild_id=world.guild.id)


def _lift_faults(world, path: str) -> None:
    """Access returns: the injected failures of ``path`` stop."""
    world.env.backend.faults[:] = [f for f in world.env.backend.faults if f["path"] != path]


async def _pass(world, *, seconds: float) -> None:
    """Let ``seconds`` pass for the service's clock and the bot's loop (the relay's retries fall due)."""
    world.clock.advance(seconds=seconds)
    await world.env.advance_time(seconds)
    await world.env.settle()


async def _next_retry(world):
    async with world.service.store.snapshot_read() as q:
        return await q.next_retry_at()


async def test_a_missing_channel_parks_the_post_for_a_moderator(world, service):
    game = await service.create_game(guild_id=world.guild.id, channel_id=1234567, actor=_moderator(world, world.cleo),
                                     seed=7)
    await service.start_game(game.id, actor=_moderator(world, world.cleo))
    await world.env.settle()
    [row] = await outbox(world, game)
    assert row.state == "parked" and row.sent_at is None and row.message_id is None and row.attempts == 1
    assert "no such channel" in row.last_error or "cannot see" in row.last_error


# ----------------------------------------------------------------------------- /mod posts and /mod redeliver
async def test_moderators_see_stuck_posts_with_their_reasons_and_deliver_them_again(world):
    admin_role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = world.guild.add_member(world.env.create_user("adam"), roles=[admin_role])
    await world.env.settle()
    game = await world.service.create_game(guild_id=world.guild.id, channel_id=world.channel.id,
                                           actor=_moderator(world, admin), seed=7)
    game = await world.service.start_game(game.id, actor=_moderator(world, admin))
    await world.env.settle()
    await world.join(game, world.alice, "Red", "Alice")
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)")
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=403, code=50013, times=None)
    await world.service.resolve_now(game.id, actor=_moderator(world, admin))
    await world.env.settle()

    assert "mod posts" not in world.alice.available_commands(world.channel)          # Manage Server only
    let_use(world, [world.guild.default_role], "mod")        # a server that shows /mod to everyone
    refused = await world.alice.slash(world.channel, "mod posts")
    assert refused.ephemeral and refused.response.content.startswith("Only moderators")
    listed = await admin.slash(world.channel, "mod posts")
    text = listed.response.content
    board = next(row for row in await outbox(world, game) if row.kind == "board")
    assert listed.ephemeral
    assert f"Post {board.id} (board of update 1, to the channel of neisg game): waiting for access" in text
    assert "50013" in text and "Send Messages" in text
    assert "your report" not in text and "K(0,0)" not in text                      # reasons, never texts

    _lift_faults(world, f"/channels/{world.channel.id}/messages")                   # the permission is back
    again = await admin.slash(world.channel, "mod redeliver")
    assert again.ephemeral and "will be tried again now" in again.response.content
    await world.env.settle()
    assert any(m.content.startswith("**neisg game**: the board after update 1.") for m in world.public(world.channel))
    assert all(row.sent_at is not None for row in await outbox(world, game))
    assert ("redeliver", admin.id) in [(e.action, e.actor) for e in await world.service.audit_log(game.id)]
    done = await admin.slash(world.channel, "mod posts")
    assert done.response.content == "Every post of neisg game has gone out or is on its way."
    nothing = await admin.slash(world.channel, "mod redeliver")
    assert "no post of neisg game is parked or waiting" in nothing.response.content
