"""Two bot processes sharing one database, each with its own Discord shards (issue 26 item 3,
docs/sharding.md): each schedules, resolves and posts only the games of its shards' servers; a
direct-message order stored by the shard-0 process that completes a game's orders resolves it early
in the game's owner, through the owner's sweep.

Each "process" is a store, a service and a scheduler of its own over the same database (a SQLite
file, and a PostgreSQL database: the ``store_url`` fixture runs every test on both); APScheduler
is paused (jobs are placed, and the test fires them by calling ``run_due`` as APScheduler would)
and the sweep is run by hand: nothing here waits on the wall clock.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.scheduler import GameScheduler
from bot.service import MemoryPublisher, Moderator, OutboxRelay, Service
from bot.shards import Shards
from bot.store import Store

T0 = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
#: a server on shard 0 of 2 and one on shard 1 of 2 (Discord's rule: (id >> 22) % 2)
GUILD_ON_0 = (1_000_000_000 << 22) | 12345
GUILD_ON_1 = (1_000_000_001 << 22) | 678
KINGS = {1: "K(0,0)", 2: "K(5,0)", 3: "K(0,5)"}
PLAYERS = [(1, "Alice", "Red"), (2, "Bob", "Blue"), (3, "Cleo", "Green")]


class FakeClock:
    def __init__(self) -> None:
        self.moment = T0

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, **amount: float) -> datetime:
        self.moment += timedelta(**amount)
        return self.moment


class Process:
    """One bot process: its store, service (with its shards), scheduler and outbox relay."""

    def __init__(self, url: str, clock: FakeClock, shards: Shards) -> None:
        self.url, self.clock, self.shards = url, clock, shards

    async def boot(self) -> "Process":
        self.store = await Store.open(self.url)
        self.service = Service(self.store, clock=self.clock, shards=self.shards)
        self.apscheduler = AsyncIOScheduler(timezone=timezone.utc)
        self.apscheduler.start(paused=True)
        self.scheduler = GameScheduler(self.service, scheduler=self.apscheduler)
        self.start_runs = await self.scheduler.start()
        self.publisher = MemoryPublisher()
        self.relay = OutboxRelay(self.service, self.publisher)
        return self

    async def stop(self) -> None:
        await self.scheduler.shutdown()
        self.apscheduler.shutdown(wait=False)
        await asyncio.sleep(0)
        await self.store.close()

    async def new_game(self, guild_id: int, *, settings: dict | None = None, players=PLAYERS) -> int:
        moderator = Moderator(user_id=99, guild_id=guild_id)
        game = await self.service.create_game(guild_id=guild_id, channel_id=guild_id + 1, actor=moderator,
                                              schedule="every 1 hour", seed=7, settings=settings or {})
        await self.service.start_game(game.id, actor=moderator)
        for user_id, name, colour in players:
            await self.service.join(game.id, user_id=user_id, name=name, colour=colour)
        await self.scheduler.settle()
        return game.id

    async def resolved(self, game_id: int) -> list[int]:
        async with self.store.snapshot_read() as q:
            return [s.update_no for s in await q.snapshots(game_id) if s.reason == "update"]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def processes(store_url, clock):
    """The process with shard 0 of 2 (it also takes every direct message) and the one with shard 1."""
    first = await Process(store_url, clock, Shards((0,), 2)).boot()
    second = await Process(store_url, clock, Shards((1,), 2)).boot()
    yield first, second
    for process in (first, second):
        await process.stop()


async def test_each_process_schedules_and_resolves_only_the_games_of_its_shards(processes, clock):
    zero, one = processes
    game_a = await zero.new_game(GUILD_ON_0)
    game_b = await one.new_game(GUILD_ON_1)
    assert "deadline" in zero.scheduler.jobs(game_a) and zero.scheduler.jobs(game_b) == {}
    assert "deadline" in one.scheduler.jobs(game_b) and one.scheduler.jobs(game_a) == {}
    for game_id in (game_a, game_b):
        for user_id in (1, 2, 3):
            await zero.service.submit_order(game_id, user_id=user_id, text=KINGS[user_id])

    clock.advance(hours=1)                         # both deadlines have passed
    # a job of the other process's game, fired here (twice), does nothing: not ours
    for _ in range(2):
        assert (await zero.scheduler.run_due(game_b)).resolution is None
        assert (await one.scheduler.run_due(game_a)).resolution is None
    assert await zero.resolved(game_b) == [] and await zero.resolved(game_a) == []
    assert (await zero.scheduler.run_due(game_a)).resolved
    assert (await one.scheduler.run_due(game_b)).resolved
    assert await zero.resolved(game_a) == [1] and await zero.resolved(game_b) == [1]
    assert "deadline" in zero.scheduler.jobs(game_a) and zero.scheduler.jobs(game_b) == {}


async def test_a_restart_catches_up_only_its_own_overdue_games(store_url, clock):
    zero = await Process(store_url, clock, Shards((0,), 2)).boot()
    one = await Process(store_url, clock, Shards((1,), 2)).boot()
    game_a = await zero.new_game(GUILD_ON_0)
    game_b = await one.new_game(GUILD_ON_1)
    await zero.stop()
    await one.stop()

    clock.advance(hours=3)                         # both processes were down past both deadlines
    zero = await Process(store_url, clock, Shards((0,), 2)).boot()
    try:
        assert [(run.game_id, run.resolved) for run in zero.start_runs] == [(game_a, True)]
        assert await zero.resolved(game_b) == []           # left to its owner
        one = await Process(store_url, clock, Shards((1,), 2)).boot()
        try:
            assert [(run.game_id, run.resolved) for run in one.start_runs] == [(game_b, True)]
            assert await one.resolved(game_a) == [1] and await one.resolved(game_b) == [1]
        finally:
            await one.stop()
    finally:
        await zero.stop()


async def test_a_direct_message_order_on_shard_0_resolves_early_in_the_owner_through_its_sweep(processes, clock):
    zero, one = processes
    game_id = await one.new_game(GUILD_ON_1, settings={"early_resolution": True})
    deadline = T0 + timedelta(hours=1)
    assert one.scheduler.jobs(game_id)["deadline"] == deadline
    clock.advance(minutes=10)
    for user_id in (1, 2, 3):            # every order arrives by direct message, so at the shard-0 process
        receipt = await zero.service.submit_order(game_id, user_id=user_id, text=KINGS[user_id], source="dm")
    assert receipt.resolves_now
    await zero.scheduler.settle()
    assert zero.scheduler.jobs(game_id) == {}                        # the shard-0 process places no job
    assert (await zero.scheduler.run_due(game_id)).resolution is None  # and resolves nothing, though it is due
    assert one.scheduler.jobs(game_id)["deadline"] == deadline      # the owner has not heard of it yet

    assert await one.scheduler.sweep() == [game_id]
    assert one.scheduler.jobs(game_id)["deadline"] == clock.moment  # now: APScheduler fires it at once
    assert (await one.scheduler.run_due(game_id)).resolved
    assert await one.resolved(game_id) == [1]
    assert (await one.service.get_game(game_id)).deadline_at == clock.moment + timedelta(hours=1)
    assert await one.scheduler.sweep() == []                        # nothing changed since
    assert await zero.scheduler.sweep() == []


async def test_the_sweep_picks_up_games_started_and_paused_elsewhere(processes, clock):
    zero, one = processes
    # a game of shard 1's server, made and started through the other process (as an admin tool would)
    game_id = await zero.new_game(GUILD_ON_1)
    assert zero.scheduler.jobs(game_id) == {} and one.scheduler.jobs(game_id) == {}
    assert await one.scheduler.sweep() == [game_id]
    assert "deadline" in one.scheduler.jobs(game_id)
    await zero.service.pause_game(game_id, actor=Moderator(user_id=99, guild_id=GUILD_ON_1))
    assert await one.scheduler.sweep() == [game_id]
    assert one.scheduler.jobs(game_id) == {}
    assert await one.scheduler.sweep() == []


async def test_posts_of_a_game_go_out_from_its_owner_only(processes, clock):
    zero, one = processes
    game_a = await zero.new_game(GUILD_ON_0)
    game_b = await one.new_game(GUILD_ON_1)
    for game_id in (game_a, game_b):                 # orders by direct message: the shard-0 process writes
        for user_id in (1, 2, 3):                     # the channel's notices of every game
            await zero.service.submit_order(game_id, user_id=user_id, text=KINGS[user_id], source="dm")
    clock.advance(hours=1)
    assert (await zero.scheduler.run_due(game_a)).resolved
    assert (await one.scheduler.run_due(game_b)).resolved

    await asyncio.gather(zero.relay.deliver_due(), one.relay.deliver_due())
    assert {post.game_id for post in zero.publisher.delivered} == {game_a}
    assert {post.game_id for post in one.publisher.delivered} == {game_b}
    async with zero.store.snapshot_read() as q:
        every_post = [post.id for game_id in (game_a, game_b) for post in await q.posts(game_id)]
        assert await q.unsent_count() == 0
        assert await q.next_retry_at() is None
    delivered = [post.id for process in processes for post in process.publisher.delivered]
    assert sorted(delivered) == sorted(every_post)              # each exactly once, none lost


async def test_a_failed_post_is_retried_by_its_owner_only(processes, clock):
    zero, one = processes
    game_b = await one.new_game(GUILD_ON_1)
    one.publisher.failures = 1
    assert await one.relay.deliver_due() == 0
    async with one.store.snapshot_read() as q:
        retry_at = await q.next_retry_at(owned=one.shards)
        assert retry_at is not None and await q.next_retry_at(owned=zero.shards) is None
    clock.moment = retry_at
    assert await zero.relay.deliver_due() == 0 and zero.publisher.attempts == {}
    assert await one.relay.deliver_due() > 0
    async with one.store.snapshot_read() as q:
        assert await q.unsent_count() == 0
    assert {post.game_id for post in one.publisher.delivered} == {game_b}
