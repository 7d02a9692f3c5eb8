"""End to end on the real network path (issue 10, item 3).

A fake Discord (REST and gateway, aiohttp on 127.0.0.1: ``fake_discord.py``) and the bot started as
a subprocess with ``python -m bot run --config`` pointed at it. One whole session: a game is created
and started, three players /join, orders come by /move in the channel and by direct message, the
deadline passes and the bot's own scheduler resolves the update, the board and the health board are
posted, a moderator rolls back. The fake answers some posts with 429, 500 (once after creating the
message: the retry must not post twice) and 403/50007 (a player who refuses direct messages: the fake
has no threads to stand in, so their posts are parked for a moderator).

Everything goes through Discord as a member would do it: the moderator's ``/game create`` (an
interval schedule of a few seconds), ``/game start`` and ``/mod rollback`` with its Confirm button
(``cogs/setup.py``, ``cogs/moderation.py``), the players' ``/join`` and ``/move`` and a plain direct
message; the bot's own scheduler resolves the update at its deadline. The test only reads the
SQLite file (the outbox, to match each row with the one message it made, by nonce).

At the end the bot is stopped as a deployed one is, by SIGTERM: it must exit by itself with status
0 within ``STOP_SECONDS``, having removed its service's row and closed the store.

Runs in about 35 s (one deadline of ``INTERVAL`` seconds); after a failure the bot is stopped
(SIGTERM, then killed) in a ``finally``; its log is shown when a wait times out.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fake_discord import FakeDiscord  # noqa: E402  (tests/discord is not a package)

ROOT = Path(__file__).resolve().parents[2]
ALICE, BOB, CLEO = 940_000_000_000_000_001, 940_000_000_000_000_002, 940_000_000_000_000_003
MODERATOR = FakeDiscord.OWNER_ID
INTERVAL = 15          # seconds between deadlines
SECRET = "K(2,-3)"     # Bob's order by direct message: must not reach the channel before the report
#: the outbox kinds an update's resolution writes (bot/service/posts.py)
RESULT_KINDS = ("board", "health_image", "health_text", "events", "report", "private_report")


#: how long the bot may take to exit after SIGTERM or SIGINT (it takes well under a second)
STOP_SECONDS = 10

#: the bot's process while the test runs (a wait gives up at once when it has died)
BOT: list = []


async def until(condition, timeout: float, what: str, log: Path | None = None, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        died = bool(BOT) and BOT[-1].returncode is not None
        if died or time.monotonic() > deadline:
            if died:
                timeout = f"{timeout} (the bot exited with status {BOT[-1].returncode})"
            tail = log.read_text(errors="replace")[-4000:] if log is not None and log.exists() else ""
            raise AssertionError(f"timed out after {timeout} s waiting for {what}\n--- bot log ---\n{tail}")
        await asyncio.sleep(interval)


async def start_bot(tmp_path: Path, fake: FakeDiscord, *arguments: str):
    """``python -m bot run`` against ``fake`` on a SQLite file in ``tmp_path``, its output in
    ``bot.log``: ``(process, log path, database path)``."""
    db_path = tmp_path / "skirmish.sqlite3"
    config = tmp_path / "config.toml"
    config.write_text(f'[discord]\napi_base = "{fake.api_base}"\ngateway_url = "{fake.gateway_url}"\n\n'
                      f'[store]\npath = "{db_path.as_posix()}"\n', encoding="utf-8")
    log = tmp_path / "bot.log"
    env = dict(os.environ, DISCORD_TOKEN="fake-token", PYTHONUNBUFFERED="1")
    with open(log, "wb") as log_file:
        bot = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "run", "--config", str(config),
                                                   *arguments, cwd=ROOT, env=env, stdout=log_file,
                                                   stderr=asyncio.subprocess.STDOUT)
    BOT[:] = [bot]
    return bot, log, db_path


async def stop_cleanly(bot, number: int, log: Path, db_path: Path) -> None:
    """Stop the bot with signal ``number`` as systemd or Ctrl-C would: it exits by itself with status
    0, its service's row gone (its claims are free at once) and its store closed."""
    bot.send_signal(number)
    name = signal.Signals(number).name
    try:
        await asyncio.wait_for(bot.wait(), STOP_SECONDS)
    except asyncio.TimeoutError:
        tail = log.read_text(errors="replace")[-4000:]
        raise AssertionError(f"the bot did not exit within {STOP_SECONDS} s of {name}\n--- bot log ---\n{tail}") from None
    text = log.read_text(errors="replace")
    assert bot.returncode == 0, f"the bot exited with status {bot.returncode} on {name}\n--- bot log ---\n{text[-4000:]}"
    assert "closed the store" in text
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT COUNT(*) FROM services").fetchone()[0] == 0


async def make_sure_stopped(bot, grace: float) -> None:
    """Whatever happened in a test, leave no bot running: SIGTERM, then SIGKILL after ``grace`` s."""
    if bot.returncode is None:
        bot.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(bot.wait(), grace)
        except asyncio.TimeoutError:
            bot.kill()
            await bot.wait()


def game_row(path: Path) -> sqlite3.Row:
    with sqlite3.connect(path) as db:
        db.row_factory = sqlite3.Row
        return db.execute("SELECT * FROM games").fetchone()


def outbox(path: Path) -> list[sqlite3.Row]:
    with sqlite3.connect(path) as db:
        db.row_factory = sqlite3.Row
        return db.execute("SELECT id, kind, recipient, body, filename, sent_at, message_id, last_error, attempts,"
                          " state FROM outbox ORDER BY id").fetchall()


def settled(row: sqlite3.Row) -> bool:
    """Sent, or parked for a moderator (the fake has no threads to stand in for closed DMs)."""
    return row["sent_at"] is not None or row["state"] == "parked"


async def test_a_whole_session_over_the_network(tmp_path):
    fake = FakeDiscord()
    for user_id, name in ((ALICE, "alice"), (BOB, "bob"), (CLEO, "cleo")):
        fake.add_member(user_id, name)
    await fake.start()
    channel = fake.CHANNEL_ID
    messages_path = f"^/channels/{channel}/messages$"
    # the first two channel posts are rate limited, the next one meets a server error, and the one
    # after that is created but its answer is lost (a 500 after the fact): every post still arrives once
    fake.fail("POST", messages_path, 429, count=2, retry_after=0.1)
    fake.fail("POST", messages_path, 500, count=1)
    fake.fail("POST", messages_path, 500, count=1, after=True)
    # Cleo does not accept direct messages from the bot
    cleo_dm = fake.dm_channel(CLEO)
    closed = fake.fail("POST", f"^/channels/{cleo_dm}/messages$", 403,
                       {"message": "Cannot send messages to this user", "code": 50007}, count=None)

    bot, log, db_path = await start_bot(tmp_path, fake)
    try:
        await until(lambda: fake.synced.is_set() and fake.ready.is_set(), 30, "login, command sync and READY", log)
        assert {"join", "move", "game", "mod"} <= set(fake.commands)

        # ---------------------------------------------------------------- a moderator creates and starts a game
        answer = await fake.answered(await fake.slash(MODERATOR, "game", "create", ruleset="neisg", name="E2E",
                                                      schedule=f"every {INTERVAL} seconds"), timeout=15)
        assert "Created game" in answer, answer
        answer = await fake.answered(await fake.slash(MODERATOR, "game", "start"), timeout=15)
        assert "has started" in answer, answer
        started = time.monotonic()

        # ---------------------------------------------------------------- players join and order
        for user_id, colour in ((ALICE, "Crimson"), (BOB, "Yellow"), (CLEO, "Purple")):
            answer = await fake.answered(await fake.slash(user_id, "join", colour=colour), timeout=15)
            assert "You joined" in answer, answer
        answer = await fake.answered(await fake.slash(ALICE, "move", order="K(0,0)"))
        assert "+K(0,0)" in answer or "K(0,0)" in answer, answer
        answer = await fake.answered(await fake.slash(CLEO, "move", order="K(5,5)"))
        assert "K(5,5)" in answer, answer
        await fake.direct_message(BOB, SECRET)
        bob_dm = fake.dm_channel(BOB)
        reply = (await until(lambda: fake.bot_messages(bob_dm), 10, "the answer to Bob's direct message", log))[0]
        assert "K(2,-3)" in reply.content, reply.content
        assert time.monotonic() - started < INTERVAL, "the orders came after the deadline: the bot started too slowly"

        # ---------------------------------------------------------------- the deadline passes
        def channel_files():
            return [name for m in fake.bot_messages(channel) for name in m.attachments]

        await until(lambda: {"board.png", "health.png"} <= set(channel_files()), INTERVAL + 20,
                    "the board and the health board in the channel", log)
        rows = outbox(db_path)
        report = await until(lambda: next((m for m in fake.bot_messages(channel)
                                           if any(r["kind"] == "report" and m.nonce == f"skirmish-{r['id']}"
                                                  for r in outbox(db_path))), None),
                             10, "the update's report in the channel", log)

        # no secret order text in the channel before the update's posts (the board comes first, the
        # report reveals the orders); the channel was only told that Bob sent a secret order
        rows = outbox(db_path)
        first_result = min(r["id"] for r in rows if r["kind"] in RESULT_KINDS)
        first = next(m for m in fake.messages if m.nonce == f"skirmish-{first_result}")
        assert fake.messages.index(first) <= fake.messages.index(report)
        before = [m for m in fake.messages[:fake.messages.index(first)] if m.channel_id == channel]
        for message in before:
            assert "(2,-3)" not in message.content, f"the secret order leaked: {message.content!r}"
        notice = next(r for r in rows if r["kind"] == "notice" and r["recipient"] is None and "bob" in r["body"])
        assert any(m.nonce == f"skirmish-{notice['id']}" for m in before)
        assert "(2,-3)" in next(r["body"] for r in outbox(db_path) if f"skirmish-{r['id']}" == report.nonce)

        # ---------------------------------------------------------------- orders for update 2, then a rollback
        answer = await fake.answered(await fake.slash(ALICE, "move", order="resign"))
        assert "resign" in answer.lower(), answer
        answer = await fake.answered(await fake.slash(CLEO, "move", order="resign"))
        assert "resign" in answer.lower(), answer
        token = await fake.slash(MODERATOR, "mod", "rollback", update=0, reason="e2e rollback")
        question = await fake.answered(token)
        assert "Roll **E2E** back" in question, question
        await fake.press(MODERATOR, token, "Confirm")
        await until(lambda: any(r["kind"] == "announcement" and "rolled" in r["body"] for r in outbox(db_path)),
                    15, "the rollback", log)
        assert game_row(db_path)["update_no"] == 1
        rows = outbox(db_path)
        rollback_rows = [r for r in rows if r["kind"] == "announcement" and "rolled" in r["body"]]
        notices = {r["recipient"]: r for r in rows if r["kind"] == "notice" and r["recipient"] is not None}
        assert len(rollback_rows) == 1 and {ALICE, CLEO} <= set(notices)
        await until(lambda: all(settled(r) for r in outbox(db_path)
                                if r["id"] >= rollback_rows[0]["id"] or r["id"] in {n["id"] for n in notices.values()}),
                    20, "the rollback's posts delivered", log)
        assert any(m.nonce == f"skirmish-{rollback_rows[0]['id']}" and "board.png" in m.attachments
                   for m in fake.bot_messages(channel))
        alice_dm = fake.dm_channel(ALICE)
        assert any(m.nonce == f"skirmish-{notices[ALICE]['id']}" for m in fake.bot_messages(alice_dm))

        await stop_cleanly(bot, signal.SIGTERM, log, db_path)
    finally:
        await make_sure_stopped(bot, 15)
        await fake.stop()

    # ---------------------------------------------------------------- exactly one message per outbox row
    rows = outbox(db_path)
    by_nonce: dict[str, list] = {}
    for message in fake.messages:
        if message.nonce is not None and message.nonce.startswith("skirmish-"):
            by_nonce.setdefault(message.nonce, []).append(message)
    # every message the bot posted in the game channel (not an answer to a command) is an outbox row's
    # (discord.py gives other messages, such as the answers to direct messages, a random nonce)
    posted = [m for m in fake.bot_messages(channel) if m.via == "channel"]
    assert posted and all((m.nonce or "").startswith("skirmish-") for m in posted)
    for row in rows:
        sent = by_nonce.get(f"skirmish-{row['id']}", [])
        if row["sent_at"] is not None and row["message_id"] is not None:
            assert len(sent) == 1, f"outbox row {row['id']} ({row['kind']}) made {len(sent)} messages"
            assert str(sent[0].id) == row["message_id"]
        else:
            assert sent == [], f"outbox row {row['id']} ({row['kind']}) was not marked sent but was posted"
    assert {nonce[len("skirmish-"):] for nonce in by_nonce} <= {str(row["id"]) for row in rows}

    # the injected failures happened and were survived
    statuses = [status for method, path, status in fake.requests if path == f"/channels/{channel}/messages"]
    assert statuses.count(429) == 2 and statuses.count(500) == 2
    assert closed.hits >= 1
    # the post whose answer was lost was sent again with its nonce and Discord kept the first message
    assert len(fake.deduplicated) >= 1
    cleo_notice = next(r for r in rows if r["kind"] == "notice" and r["recipient"] == CLEO)
    assert cleo_notice["state"] == "parked" and cleo_notice["sent_at"] is None     # kept for a moderator
    assert "50007" in (cleo_notice["last_error"] or "")
    assert fake.bot_messages(cleo_dm) == []
