"""The Discord front end against SimCord's simulated Discord (no network, no token).

``simcord_bot`` is the real :class:`bot.client.SkirmishBot` over a real store and service with a fake
clock; its ``setup_hook`` loads the cogs, starts the real scheduler and the outbox relay with the
Discord publisher, and syncs the commands. Tests create and start games through the service (the
moderator commands are another cog), act as members through SimCord, and resolve updates with
``service.resolve_now``; the relay then posts through the publisher into SimCord's channels.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from bot.client import SkirmishBot
from bot.config import Config
from bot.service import Moderator, Service
from bot.store import Store

#: The service's clock starts far in the future: the bot runs the real APScheduler, which fires on the
#: wall clock, so a deadline of the fake clock must never have passed already in real time.
T0 = datetime(2099, 11, 22, 12, 0, tzinfo=timezone.utc)
MODERATOR = 4242


def stamp(text: str) -> str:
    """How a moment the service writes (``2099-11-22 13:00``, UTC) reads in a Discord message: a
    timestamp each reader sees in their own zone, and how far away it is."""
    from datetime import datetime, timezone

    unix = int(datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=timezone.utc).timestamp())
    return f"<t:{unix}:f> (<t:{unix}:R>)"


def let_use(world, targets, *names: str) -> None:
    """What a server's admin does in Server Settings > Integrations > the bot: let ``targets`` (roles
    or members) use the commands ``names`` ("game", "mod") whatever their default permission."""
    for name in names:
        command = world.env.backend.find_command(name, world.guild.id)
        world.guild.set_command_permissions(int(command["id"]), {target: True for target in targets})


class FakeClock:
    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def forge(monkeypatch):
    """A hostile client or a proxy: ``forge(action="pause")`` makes the slash commands run after it
    carry these option values, put in after SimCord has checked the options against the command
    (Discord's own clients never send a value outside an option's choices; discord.py does not check)."""
    import simcord.interactions

    forged: dict = {}
    build = simcord.interactions.build_options

    def built(*args, **kwargs):
        options, resolved = build(*args, **kwargs)
        for option in options:
            if option["name"] in forged:
                option["value"] = forged[option["name"]]
        return options, resolved

    monkeypatch.setattr(simcord.interactions, "build_options", built)
    return forged.update


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(tmp_path):
    opened = await Store.open(tmp_path / "skirmish.sqlite3")
    yield opened
    await opened.close()


@pytest.fixture
def service(store, clock) -> Service:
    return Service(store, clock=clock)


@pytest.fixture
def simcord_bot(service) -> SkirmishBot:
    return SkirmishBot(Config(), service=service)


@pytest.fixture
async def env(simcord_env):
    """SimCord's environment; the bot is closed cleanly (scheduler, relay) before SimCord stops."""
    yield simcord_env
    if not simcord_env.bot.is_closed():
        await simcord_env.bot.close()


class World:
    """A server with a game channel and three members, and shortcuts to the service."""

    def __init__(self, env, service: Service, clock: FakeClock) -> None:
        self.env, self.service, self.clock = env, service, clock
        self.guild = env.create_guild("Skirmish server")
        self.channel = self.guild.create_text_channel("skirmish")
        self.lobby = self.guild.create_text_channel("lobby")
        self.alice = self.guild.add_member(env.create_user("alice"))
        self.bob = self.guild.add_member(env.create_user("bob"))
        self.cleo = self.guild.add_member(env.create_user("cleo"))

    @property
    def moderator(self) -> Moderator:
        """The server's moderator, as the cogs vouch for one to the service."""
        return Moderator(user_id=MODERATOR, guild_id=self.guild.id)

    async def game(self, channel=None, *, ruleset: str = "neisg", start: bool = True, **options):
        channel = channel or self.channel
        game = await self.service.create_game(guild_id=self.guild.id, channel_id=channel.id, actor=self.moderator,
                                              ruleset=ruleset, seed=7, **options)
        if start:
            game = await self.service.start_game(game.id, actor=self.moderator)
        await self.env.settle()
        return game

    async def join(self, game, member, colour: str, name: str | None = None):
        return await self.service.join(game.id, user_id=member.id, name=name or member.name, colour=colour)

    async def resolve(self, game):
        resolution = await self.service.resolve_now(game.id, actor=self.moderator)
        await self.env.settle()
        return resolution

    def channels(self):
        """Every channel and thread of the server."""
        found = []
        for channel in self.guild.channels.values():
            found.append(channel)
            found.extend(channel.threads)
        return found

    def server_messages(self):
        """Every message in every channel and thread of the server, ephemeral ones included."""
        return [message for channel in self.channels() for message in channel.history()]

    def last_callback(self) -> dict:
        """The body of the bot's last interaction callback (type 5: deferred; flags 64: ephemeral)."""
        calls = [r for r in self.env.http_requests if r.method == "POST" and r.path.endswith("/callback")]
        return calls[-1].json

    def deferred_privately(self) -> bool:
        """Whether the last interaction was first deferred as an ephemeral ("thinking") answer."""
        body = self.last_callback()
        return body["type"] == 5 and body["data"]["flags"] & 64 == 64

    @staticmethod
    def public(channel):
        """The channel's messages everyone sees (not ephemeral)."""
        return [message for message in channel.history() if not message.flags.ephemeral]


@pytest.fixture
def world(env, service, clock) -> World:
    return World(env, service, clock)
