"""The bot's wiring: setup_hook opens the store, builds the service, loads the cogs, starts the
scheduler and the relay, syncs the commands; close() undoes it all; the configured endpoints."""

from __future__ import annotations

import discord
import simcord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.client import COGS, SkirmishBot, bot_intents
from bot.config import Config
from bot.scheduler import GameScheduler
from bot.service import Moderator

PLAYER_COMMANDS = {"join", "move", "orders", "cancel", "board", "health", "pieces", "rules", "history", "event",
                   "help", "notify", "games", "leave", "profile", "leaderboard"}
#: offered in servers only, refused at run time to anyone but a moderator (cogs/moderation.py)
MODERATOR_COMMANDS = {f"game {name}" for name in ("create", "start", "pause", "resume", "schedule", "settings", "end", "export")} | {
    f"mod {name}" for name in ("lock", "unlock", "resolve", "rollback", "extend", "place", "remove", "move", "balance",
                               "kick", "event", "announce", "status", "posts", "redeliver", "help", "audit", "undo",
                               "substitute", "revoke-links")}


async def test_setup_hook_wires_everything_and_close_undoes_it(tmp_path):
    path = tmp_path / "data" / "bot.sqlite3"
    bot = SkirmishBot(Config(store_url=f"sqlite:///{path}"))
    async with simcord.run(bot) as env:
        assert path.exists()
        assert bot.service is not None and bot.service.store is bot.store
        assert set(bot.cogs) == {"Play", "Direct messages", "Game setup", "Moderation", "Notifications",
                                 "Careers"} and set(bot.extensions) == set(COGS)
        assert isinstance(bot.scheduler, GameScheduler)
        assert bot.service.on_schedule_change == bot.scheduler.reschedule
        assert bot.service.on_posts_waiting is not None
        assert bot.relay is not None and bot.relay.publisher is bot.publisher
        guild = env.create_guild()
        channel = guild.create_text_channel("skirmish")
        member = guild.add_member(env.create_user("alice"))
        admin = guild.add_member(env.create_user("adam"), roles=[
            guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))])
        assert set(member.available_commands(channel)) == PLAYER_COMMANDS       # /game and /mod: Manage Server
        assert set(admin.available_commands(channel)) == PLAYER_COMMANDS | MODERATOR_COMMANDS
        assert set(member.user.available_commands()) == PLAYER_COMMANDS - {"join", "notify", "games", "profile",
                                                                            "leaderboard"}
        game = await bot.service.create_game(guild_id=guild.id, channel_id=channel.id, actor=Moderator(user_id=1, guild_id=guild.id), seed=1)
        await bot.service.start_game(game.id, actor=Moderator(user_id=1, guild_id=guild.id))
        await env.settle()
        assert channel.last_message.content.startswith("**neisg game** has started")
        store = bot.store
        await bot.close()
        assert bot.store is None
        assert bot.service.on_schedule_change is None and bot.service.on_posts_waiting is None
        store._writer._thread.join(timeout=5)             # the database threads end with the store
        store._reader._thread.join(timeout=5)
        assert not store._writer._thread.is_alive() and not store._reader._thread.is_alive()


async def test_commands_sync_to_the_test_server_only(tmp_path):
    bot = SkirmishBot(Config(store_url=f"sqlite:///{tmp_path / 's.sqlite3'}", test_guild=777_000_000_000_000_001))
    async with simcord.run(bot) as env:
        test_server = env.create_guild("test", id=777_000_000_000_000_001)
        other = env.create_guild("other")
        member = test_server.add_member(env.create_user("alice"))
        stranger = other.add_member(env.create_user("bob"))
        assert set(member.available_commands(test_server.create_text_channel("a"))) == PLAYER_COMMANDS
        assert stranger.available_commands(other.create_text_channel("b")) == ()
        await bot.close()


async def test_an_injected_store_is_left_open(env, store):
    await env.bot.close()
    async with store.snapshot_read() as q:                 # still usable: its owner closes it
        assert await q.games() == []


async def test_the_configured_endpoints_replace_discord_pys_and_are_put_back():
    base, gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    bot = SkirmishBot(Config(api_base="http://127.0.0.1:8080/api/v9", gateway_url="ws://127.0.0.1:8081/gateway"))
    try:
        assert Route.BASE == "http://127.0.0.1:8080/api/v9"
        assert Route("GET", "/gateway/bot").url == "http://127.0.0.1:8080/api/v9/gateway/bot"
        assert DiscordWebSocket.DEFAULT_GATEWAY == yarl.URL("ws://127.0.0.1:8081/gateway")
        assert isinstance(DiscordWebSocket.DEFAULT_GATEWAY, yarl.URL)
    finally:
        await bot.close()
    assert (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY) == (base, gateway)


async def test_without_a_gateway_url_discord_pys_default_stays():
    gateway = DiscordWebSocket.DEFAULT_GATEWAY
    bot = SkirmishBot(Config())
    try:
        assert Route.BASE == "https://discord.com/api/v10"
        assert DiscordWebSocket.DEFAULT_GATEWAY is gateway
    finally:
        await bot.close()


def test_the_intents_are_minimal():
    intents = bot_intents()
    assert intents.guilds and intents.dm_messages
    assert not (intents.message_content or intents.members or intents.presences or intents.guild_messages)
    assert intents == discord.Intents(guilds=True, dm_messages=True)
