"""The bot as one of several processes (issue 26 item 3, docs/sharding.md): discord.py's
``AutoShardedBot`` running shard 0 of 2 against SimCord's sharded gateway. It sees the servers of
its shard only, takes every direct message (Discord sends them to shard 0), and answers those about
a game of the other shard's server from the shared database, without scheduling or posting it."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

from bot.client import ShardedSkirmishBot
from bot.config import Config
from bot.service import Moderator, Service
from bot.shards import Shards

from .conftest import T0

@pytest.fixture
def shards() -> Shards:
    """The bot's shards: shard 0 of 2 (a test may ask for others by parametrizing ``shards``)."""
    return Shards((0,), 2)


@pytest.fixture
def service(store, clock, shards) -> Service:
    return Service(store, clock=clock, shards=shards)


@pytest.fixture
def simcord_bot(service, shards) -> ShardedSkirmishBot:
    return ShardedSkirmishBot(Config(sweep_seconds=2), service=service, shards=shards)


class TwoServers:
    """A server on this process's shard (0) with Alice, and one on the other process's (1) with Bob."""

    def __init__(self, env, service: Service) -> None:
        self.env, self.service = env, service
        ours = service.shards.ids[0]
        self.ours = env.create_guild("Our shard", shard_id=ours)
        self.theirs = env.create_guild("The other shard", shard_id=1 - ours)
        self.our_channel = self.ours.create_text_channel("skirmish")
        self.their_channel = self.theirs.create_text_channel("skirmish")
        self.alice = self.ours.add_member(env.create_user("alice"))
        self.bob = self.theirs.add_member(env.create_user("bob"))

    async def game(self, guild, channel, member, name: str, **settings):
        moderator = Moderator(user_id=4242, guild_id=guild.id)
        game = await self.service.create_game(guild_id=guild.id, channel_id=channel.id, actor=moderator,
                                              seed=7, schedule="every 1 hour", settings=settings)
        await self.service.start_game(game.id, actor=moderator)
        await self.service.join(game.id, user_id=member.id, name=name, colour="Red")
        await self.env.settle()
        return game


@pytest.fixture
def servers(env, service) -> TwoServers:
    return TwoServers(env, service)


async def test_the_bot_runs_its_shards_only_and_owns_the_games_of_their_servers(env, servers):
    bot = env.bot
    assert isinstance(bot, discord.AutoShardedClient)
    assert (bot.shard_ids, bot.shard_count) == ([0], 2)
    assert [guild.id for guild in bot.guilds] == [servers.ours.id]        # the other shard's server is not ours
    ours = await servers.game(servers.ours, servers.our_channel, servers.alice, "Alice")
    theirs = await servers.game(servers.theirs, servers.their_channel, servers.bob, "Bob")
    assert "deadline" in bot.scheduler.jobs(ours.id)
    assert bot.scheduler.jobs(theirs.id) == {}                     # scheduled by the other process
    # each game's posts (its start) go out from its owner only: ours here, theirs waits for its owner
    assert [message.content.startswith("**neisg game** has started") for message in servers.our_channel.history()] \
        == [True]
    assert servers.their_channel.history() == []
    async with bot.service.store.snapshot_read() as q:
        assert [post.sent_at is not None for post in await q.posts(ours.id)] == [True]
        assert [post.sent_at is None for post in await q.posts(theirs.id)] == [True]


async def test_a_direct_message_for_the_other_shards_game_is_answered_and_stored_for_its_owner(env, servers):
    theirs = await servers.game(servers.theirs, servers.their_channel, servers.bob, "Bob")
    await servers.bob.user.send_dm("K(3,3)")
    await env.settle()
    answer = servers.bob.user.dm_channel.history()[-1].content
    assert answer.startswith("Order for update 1 accepted: `+K(3,3)` (secret)")
    order = await env.bot.service.my_order(theirs.id, user_id=servers.bob.id)
    assert (order.canonical, order.source) == ("+K(3,3)", "dm")
    # /orders in the direct message reads the shared database
    mine = await servers.bob.user.slash("orders")
    assert "Your order for update 1: `+K(3,3)` (secret)" in mine.response.content
    # its deadline is the owner's: even once due, nothing is scheduled or resolved here
    assert env.bot.scheduler.jobs(theirs.id) == {}
    env.bot.service.clock.advance(hours=1)
    assert (await env.bot.scheduler.run_due(theirs.id)).resolution is None
    assert (await env.bot.service.get_game(theirs.id)).update_no == 1
    assert servers.their_channel.history() == []


@pytest.mark.parametrize("shards", [Shards((1,), 2)])
async def test_the_bot_sweeps_up_an_early_resolution_made_by_the_shard_0_process(env, servers, store, clock):
    """The bot runs shard 1 of 2; the process with shard 0 (its own service on the same database)
    takes Alice's order by direct message, which completes the orders of our game: the deadline
    becomes now in the database, and the bot's sweep loop moves its deadline job there."""
    bot = env.bot
    assert bot.sweeper is not None and bot.sweeper.is_running()
    game = await servers.game(servers.ours, servers.our_channel, servers.alice, "Alice", early_resolution=True)
    assert bot.scheduler.jobs(game.id)["deadline"] == clock.now + timedelta(hours=1)
    clock.advance(minutes=5)
    shard_zero = Service(store, clock=clock, shards=Shards((0,), 2))
    receipt = await shard_zero.submit_order(game.id, user_id=servers.alice.id, text="K(2,2)", source="dm")
    assert receipt.resolves_now
    assert bot.scheduler.jobs(game.id)["deadline"] == T0 + timedelta(hours=1)    # not heard of yet
    await env.advance_time(3)                                  # a sweep (every 2 s here) has run
    assert bot.scheduler.jobs(game.id)["deadline"] == clock.now
    assert (await bot.scheduler.run_due(game.id)).resolved     # what the job does when it fires
    await env.settle()
    assert any(message.content.startswith("**neisg game**: the board after update 1")
               for message in servers.our_channel.history())
