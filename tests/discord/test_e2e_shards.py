"""``python -m bot run --shards 0-0 --shard-count 1`` on the real network path: the bot as
discord.py's ``AutoShardedBot`` logs in to the fake Discord (``fake_discord.py``) identifying as
shard 0 of 1, syncs its commands (the process with shard 0 does), and answers a moderator's slash
command and a direct message. Then Ctrl-C (SIGINT) stops it: it exits by itself with status 0, its
service's row gone and its store closed (test_e2e.py stops its bot with SIGTERM the same way)."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fake_discord import FakeDiscord  # noqa: E402  (tests/discord is not a package)
from test_e2e import make_sure_stopped, start_bot, stop_cleanly, until  # noqa: E402

ALICE = 940_000_000_000_000_011


async def test_a_sharded_process_over_the_network(tmp_path):
    fake = FakeDiscord()
    fake.add_member(ALICE, "alice")
    await fake.start()
    bot, log, db_path = await start_bot(tmp_path, fake, "--shards", "0-0", "--shard-count", "1")
    try:
        await until(lambda: fake.synced.is_set() and fake.ready.is_set(), 30, "login, command sync and READY", log)
        assert {"join", "move", "game", "mod"} <= set(fake.commands)
        answer = await fake.answered(await fake.slash(FakeDiscord.OWNER_ID, "game", "create", ruleset="neisg",
                                                      name="Sharded"), timeout=15)
        assert "Created game" in answer, answer
        await fake.direct_message(ALICE, "help")
        dm = fake.dm_channel(ALICE)
        reply = (await until(lambda: fake.bot_messages(dm), 10, "the answer to a direct message", log))[0]
        assert "Send me your order" in reply.content
        # discord.py's AutoShardedClient names the shard it connected (a plain Client says "Shard ID None")
        assert "Shard ID 0 has connected to Gateway" in log.read_text(errors="replace")

        await stop_cleanly(bot, signal.SIGINT, log, db_path)
    finally:
        await make_sure_stopped(bot, 5)
        await fake.stop()
