"""The Discord bot: a ``commands.Bot`` whose ``setup_hook`` wires the application together.

``SkirmishBot(config)`` opens the store (``config.store_url``), builds the
:class:`~bot.service.Service`, loads the cogs (:data:`COGS`), starts the deadline scheduler
(:class:`~bot.scheduler.GameScheduler`) and the outbox relay (posts go out through a
:class:`~bot.discord_publisher.DiscordPublisher`), then syncs the slash commands, globally or to
``config.test_guild``. :meth:`SkirmishBot.close` stops all of it again, the store last.

Every dependency can be injected (``service``, ``store``, ``scheduler``, ``publisher``, ``clock``),
so tests run the real bot against a fake Discord with a fake clock. An injected store or service is
left open by :meth:`~SkirmishBot.close`: whoever made it closes it.

With ``shards`` (``python -m bot run --shards A-B --shard-count N``) the bot is a
:class:`ShardedSkirmishBot`, discord.py's ``AutoShardedBot`` running those shards only, and it
schedules, resolves and posts only the games of their servers (:mod:`bot.shards`,
docs/sharding.md); :func:`make_bot` picks the class. Every few seconds (``config.sweep_seconds``) its
``discord.ext.tasks`` loop runs the scheduler's sweep, which picks up what another process (one
with other shards) changed in the shared database.

``config.api_base`` replaces discord.py's REST base (``discord.http.Route.BASE``) exactly, version
included, and ``config.gateway_url`` the first gateway URL (``DiscordWebSocket.DEFAULT_GATEWAY``)
(INTERFACES.md, "Configuration"); both are put back when the bot closes.
"""

from __future__ import annotations

import asyncio
import logging

import discord
import yarl
from discord.ext import commands, tasks

from bot.config import Config
from cogs import CommandTree
from bot.service import Clock, OutboxRelay, Publisher, Service, utc_now
from bot.service.rulebook import Rulebook
from bot.shards import Shards
from bot.store import Store

__all__ = ["SkirmishBot", "ShardedSkirmishBot", "make_bot", "COGS", "POSTS_EVENT", "bot_intents", "ClientRelay"]

log = logging.getLogger(__name__)

#: the cog modules loaded at start-up, one per command group (ARCHITECTURE.md)
COGS = ("cogs.play", "cogs.dm", "cogs.setup", "cogs.moderation", "cogs.notify", "cogs.careers")

#: the client event dispatched when the service has written posts to the outbox
POSTS_EVENT = "skirmish_posts_waiting"


def bot_intents() -> discord.Intents:
    """The gateway intents Skirmish needs, and no more (README, "Running the bot on Discord").

    ``guilds``: the servers, channels and threads the bot is in (discord.py's cache needs it to
    resolve a thread's parent and a channel's guild). ``dm_messages``: a plain direct message to the
    bot is a secret order. Discord delivers the text of direct messages to a bot without the
    privileged ``message_content`` intent, and slash commands need no intent at all, so no
    privileged intent is asked for.
    """
    intents = discord.Intents.none()
    intents.guilds = True
    intents.dm_messages = True
    return intents


class ClientRelay(OutboxRelay):
    """The outbox relay inside the bot. It waits for new posts with ``Client.wait_for`` on
    :data:`POSTS_EVENT` (which the bot dispatches when the service commits posts), so that the
    client's own event machinery, not a bare ``asyncio.Event``, wakes it."""

    def __init__(self, client: discord.Client, service: Service, publisher: Publisher, *,
                 poll_seconds: float = 5.0) -> None:
        super().__init__(service, publisher, poll_seconds=poll_seconds)
        self.client = client

    async def wait_for_posts(self, timeout: float) -> None:
        if self.service.posts_waiting.is_set():
            return
        try:
            await self.client.wait_for(POSTS_EVENT, timeout=timeout)
        except asyncio.TimeoutError:
            pass


def silence_voice_warnings() -> None:
    """Keep discord.py from warning at start-up that PyNaCl (and davey) are missing, "voice will NOT
    be supported": Skirmish never joins a voice channel, and the warning worries moderators for
    nothing. discord.py warns once per process, when a client is made, as long as these flags are
    set (a version without one of them simply gets an attribute it never reads)."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


class SkirmishBot(commands.Bot):
    """Skirmish on Discord. ``config``: the validated :class:`~bot.config.Config`.

    Injectable for tests: ``service`` (then ``store`` is its store), ``store`` (a service is built
    on it), ``scheduler`` (anything with ``async start()`` and ``async shutdown()``; ``False``: no
    scheduler), ``publisher`` (a :class:`~bot.service.Publisher`; default: the Discord publisher),
    ``clock`` (the service's clock), ``sync_commands`` (False: do not sync the command tree),
    ``relay_poll_seconds`` (how often the relay looks for due retries without being woken).
    ``shards``: the shards this process runs (only :class:`ShardedSkirmishBot` connects to just
    those; an injected service must have been made with the same).
    """

    def __init__(self, config: Config, *, service: Service | None = None, store: Store | None = None,
                 scheduler=None, publisher: Publisher | None = None, clock: Clock | None = None,
                 sync_commands: bool = True, relay_poll_seconds: float = 5.0,
                 intents: discord.Intents | None = None, shards: Shards | None = None, **client_options) -> None:
        if shards is not None and service is not None and service.shards != shards:
            raise ValueError(f"the service runs {service.shards.text()}, not {shards.text()}")
        silence_voice_warnings()
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, tree_cls=CommandTree,
                         intents=intents or bot_intents(),
                         allowed_mentions=discord.AllowedMentions.none(), **client_options)
        self.config = config
        self.owned_shards = shards or (service.shards if service is not None else Shards.whole())
        self.sweeper: tasks.Loop | None = None
        self.heartbeat: tasks.Loop | None = None
        self.service: Service | None = service
        self.store: Store | None = service.store if service is not None else store
        self._owns_store = self.store is None
        self._clock = clock or utc_now
        self.scheduler = None if scheduler is False else scheduler
        self._start_scheduler = scheduler is not False
        self._scheduler_started = False
        self._service_started = False
        self.publisher = publisher
        self.relay: ClientRelay | None = None
        self.viewer = None          # the web viewer's runner, with [web] enabled
        self._relay_task: asyncio.Task | None = None
        self._shutdown: asyncio.Future | None = None     # the one shutdown every close() waits for
        self._setting_up: asyncio.Event | None = None    # set when setup_hook has ended
        self._sync_commands = sync_commands
        self._relay_poll_seconds = relay_poll_seconds
        self._previous_endpoints: tuple[str, yarl.URL] | None = None
        self._apply_endpoints()

    # ------------------------------------------------------------------ endpoints
    def _apply_endpoints(self) -> None:
        from discord.gateway import DiscordWebSocket
        from discord.http import Route

        self._previous_endpoints = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
        Route.BASE = self.config.api_base
        if self.config.gateway_url is not None:
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.config.gateway_url)

    def _restore_endpoints(self) -> None:
        from discord.gateway import DiscordWebSocket
        from discord.http import Route

        if self._previous_endpoints is not None:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._previous_endpoints
            self._previous_endpoints = None

    # ------------------------------------------------------------------ start-up
    async def setup_hook(self) -> None:
        if self._shutdown is not None:     # closed (by a signal) while logging in: start nothing
            return
        self._setting_up = asyncio.Event()
        try:
            await self._set_up()
        finally:
            self._setting_up.set()

    async def _set_up(self) -> None:
        if self.service is None:
            if self.store is None:
                self.store = await Store.open(self.config.store_url)
                log.info("opened the store %s", self.store.location)
            self.service = Service(self.store, clock=self._clock, shards=self.owned_shards)
        self.service.on_posts_waiting = self._posts_waiting
        self.service.rulebook = Rulebook(self.config.rulebook_url)     # where messages point for the rules
        self.service.use_link_secret(self.config.web.secret)           # players' web links (docs/web.md)
        # its row in services and its heartbeat (a discord.ext.tasks loop): what its claims rest on
        await self.service.start(heartbeat=False)
        self._service_started = True
        self.heartbeat = tasks.loop(seconds=self.service.liveness.beat.total_seconds())(self._beat)
        self.heartbeat.start()
        for name in COGS:
            await self.load_extension(name)
        if self._start_scheduler:
            if self.scheduler is None:
                from bot.scheduler import GameScheduler

                self.scheduler = GameScheduler(self.service)
            await self.scheduler.start()
            self._scheduler_started = True
            # another process (one with other shards) may change our games in the database: sweep
            if hasattr(self.scheduler, "sweep") and not self.owned_shards.everything:
                self.sweeper = tasks.loop(seconds=self.config.sweep_seconds)(self._sweep)
                self.sweeper.start()
        if self.publisher is None:
            from bot.discord_publisher import DiscordPublisher

            self.publisher = DiscordPublisher(self, self.service, viewer_url=self.config.web.public_url)
        self.relay = ClientRelay(self, self.service, self.publisher, poll_seconds=self._relay_poll_seconds)
        self._relay_task = asyncio.create_task(self._run_relay(), name="skirmish outbox relay")
        if self.config.web.enabled:
            await self._start_viewer()
        if self._sync_commands and self.owned_shards.direct_messages:
            await self._sync()
        elif self._sync_commands:       # commands are the application's, not a shard's: synced once
            log.info("running %s: the process with shard 0 syncs the slash commands", self.owned_shards.text())

    async def _start_viewer(self) -> None:
        """``[web] enabled``: the web viewer in this process, on the same service (docs/web.md). A
        port that cannot be had is logged, and the bot runs on without it."""
        from bot.web import start

        web = self.config.web
        try:
            self.viewer = await start(self.service, web.host, web.port, public_url=web.public_url)
        except OSError as exc:
            log.error("the web viewer cannot listen on %s:%s (%s); the bot runs without it", web.host, web.port, exc)
            return
        log.info("the web viewer answers on http://%s:%s/", web.host, web.port)

    async def _sync(self) -> None:
        if self.config.test_guild is not None:
            guild = discord.Object(id=self.config.test_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d slash commands to the test server %s", len(synced), self.config.test_guild)
        else:
            synced = await self.tree.sync()
            log.info("synced %d slash commands globally (Discord may take a while to show new ones)", len(synced))

    async def _run_relay(self) -> None:
        """Keep the relay delivering: if it ever stops on an error (a database it cannot read), log
        it and start it again after a pause. Undelivered posts wait in the outbox meanwhile."""
        while True:
            try:
                await self.relay.run()
            except Exception:
                log.exception("the outbox relay stopped; restarting it in %s s", self._relay_poll_seconds)
                await asyncio.sleep(self._relay_poll_seconds)

    async def _beat(self) -> None:
        """One heartbeat of the service (the ``heartbeat`` loop; see bot/service/claims.py)."""
        try:
            await self.service.beat()
        except Exception:      # a database restarting: beat again at the next beat
            log.warning("the service's heartbeat could not be written; trying again at the next beat", exc_info=True)

    async def _sweep(self) -> None:
        """One sweep of the scheduler (the ``sweeper`` loop): a failure is logged and the next
        sweep tries again."""
        try:
            await self.scheduler.sweep()
        except Exception:
            log.exception("the scheduler's sweep failed; the next one tries again in %s s", self.config.sweep_seconds)

    def _posts_waiting(self) -> None:
        self.dispatch(POSTS_EVENT)

    async def on_ready(self) -> None:
        log.info("connected to Discord as %s (id %s), in %d servers (%s)", self.user, getattr(self.user, "id", "?"),
                 len(self.guilds), self.owned_shards.text())

    # ------------------------------------------------------------------ shutdown
    async def close(self) -> None:
        """Stop the scheduler (a resolution under way commits), the relay, the service's heartbeat
        (its row in services goes), the Discord connection, then close the store: its database
        threads would otherwise keep the process alive.

        There is one shutdown: every caller (a signal's handler, ``async with``'s exit, discord.py's
        ``connect`` on a fatal gateway close, a second signal) waits for it to its end. discord.py's
        own ``__aexit__`` waits only for its part (the connection), so ``python -m bot run`` left the
        loop while the store was closing: that was cancelled, and its thread kept the process alive.
        A close during ``setup_hook`` waits for it to end, then stops what it started."""
        if self._shutdown is None:
            self._shutdown = asyncio.ensure_future(self._shut_down())
        await asyncio.shield(self._shutdown)

    async def __aexit__(self, *exc_info) -> None:
        await self.close()

    async def _shut_down(self) -> None:
        if self._setting_up is not None:
            await self._setting_up.wait()
        try:
            if self.sweeper is not None:
                sweeper, self.sweeper = self.sweeper, None
                sweeper.cancel()
            if self._scheduler_started and self.scheduler is not None:
                self._scheduler_started = False
                try:
                    await self.scheduler.shutdown()
                except Exception:
                    log.exception("the scheduler did not shut down cleanly")
            if self.viewer is not None:
                viewer, self.viewer = self.viewer, None
                await viewer.cleanup()
            if self._relay_task is not None:
                task, self._relay_task = self._relay_task, None
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
            if self.service is not None and self.service.on_posts_waiting == self._posts_waiting:
                self.service.on_posts_waiting = None
            if self.heartbeat is not None:
                heartbeat, self.heartbeat = self.heartbeat, None
                heartbeat.cancel()
            if self._service_started:
                self._service_started = False
                try:
                    await self.service.stop()     # its row goes: a claim it still holds is free at once
                except Exception:
                    log.exception("the service could not remove its row; its claims are free once its lease has passed")
            await super().close()
        finally:
            if self._owns_store and self.store is not None:
                store, self.store = self.store, None
                await store.close()
                log.info("closed the store")
            self._restore_endpoints()


class ShardedSkirmishBot(SkirmishBot, commands.AutoShardedBot):
    """Skirmish on some of Discord's shards: discord.py's ``AutoShardedBot`` connecting only
    ``shards.ids`` of ``shards.count``, scheduling, resolving and posting only the games of their
    servers. Direct messages arrive at the process with shard 0 (docs/sharding.md)."""

    def __init__(self, config: Config, *, shards: Shards, **options) -> None:
        super().__init__(config, shards=shards, shard_ids=list(shards.ids), shard_count=shards.count, **options)


def make_bot(config: Config, *, shards: Shards | None = None, **options) -> SkirmishBot:
    """The bot for ``python -m bot run``: with ``shards`` (``--shards``), a :class:`ShardedSkirmishBot`
    running just those; without, a :class:`SkirmishBot` (one gateway connection, every game)."""
    if shards is None:
        return SkirmishBot(config, **options)
    return ShardedSkirmishBot(config, shards=shards, **options)
