"""The deadline scheduler, driven by a fake clock (docs/scheduling.md).

Every test but the last runs APScheduler *paused*: jobs are placed (so their ids and run times can
be checked) but never fire; the test advances the fake clock and calls ``run_due`` or ``start`` as
APScheduler would. The last test proves the wiring with the real clock and a running APScheduler.
"""

from __future__ import annotations

import asyncio
import os
import socket
from datetime import datetime, timedelta, timezone

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.scheduler import RETRY_AFTER, GameScheduler, job_id
from bot.service import Moderator, Service, WrongTime
from bot.store import Store

T0 = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
MOD = Moderator(user_id=99, guild_id=1)     # a moderator of the tests' server
PLAYERS = [(1, "Alice", "Red"), (2, "Bob", "Blue"), (3, "Cleo", "Green")]
KINGS = {1: "K(0,0)", 2: "K(5,0)", 3: "K(0,5)"}


class FakeClock:
    def __init__(self, moment: datetime = T0) -> None:
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, **amount: float) -> datetime:
        self.moment += timedelta(**amount)
        return self.moment


class Bot:
    """One process of the bot: a store, a service and a scheduler over one database file."""

    def __init__(self, path, clock: FakeClock, holder: str | None = None) -> None:
        self.path, self.clock, self.holder = path, clock, holder
        self.stopped = False

    async def boot(self) -> "Bot":
        self.store = await Store.open(self.path)
        self.service = Service(self.store, clock=self.clock, holder=self.holder)
        self.apscheduler = AsyncIOScheduler(timezone=timezone.utc)
        self.apscheduler.start(paused=True)        # jobs are placed, never fired: the test fires them
        self.scheduler = GameScheduler(self.service, scheduler=self.apscheduler)
        self.start_runs = await self.scheduler.start()
        return self

    async def stop(self) -> None:
        """Shut this process down (again: nothing more)."""
        if self.stopped:
            return
        self.stopped = True
        await self.scheduler.shutdown()
        if self.apscheduler.running:
            self.apscheduler.shutdown(wait=False)
            await asyncio.sleep(0)
        await self.store.close()

    async def game(self, game_id: int):
        return await self.service.get_game(game_id)

    async def posts(self, game_id: int, kind: str):
        async with self.store.snapshot_read() as q:
            return [post for post in await q.posts(game_id) if post.kind == kind]

    async def resolved_updates(self, game_id: int) -> list[int]:
        async with self.store.snapshot_read() as q:
            return [s.update_no for s in await q.snapshots(game_id) if s.reason == "update"]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def bot(tmp_path, clock):
    running = await Bot(tmp_path / "skirmish.sqlite3", clock).boot()
    yield running
    await running.stop()


async def restart(old: Bot, *, after: timedelta) -> Bot:
    """Stop ``old``, let ``after`` pass with the bot down, and boot a new process on the same file."""
    await old.stop()
    old.clock.moment += after
    return await Bot(old.path, old.clock).boot()


async def new_game(bot: Bot, *, schedule: str = "every 1 hour", settings: dict | None = None,
                   players=PLAYERS, moved=()) -> int:
    """A started game (T0 unless the clock moved) with ``players`` joined; ``moved`` placed their kings."""
    game = await bot.service.create_game(guild_id=1, channel_id=10, actor=MOD, schedule=schedule, seed=7,
                                         settings=settings or {})
    await bot.service.start_game(game.id, actor=MOD)
    for user_id, name, colour in players:
        await bot.service.join(game.id, user_id=user_id, name=name, colour=colour)
    for user_id in moved:
        await bot.service.submit_order(game.id, user_id=user_id, text=KINGS[user_id])
    await bot.scheduler.settle()
    return game.id


# ---------------------------------------------------------------------- jobs and deadlines
async def test_jobs_have_deterministic_ids_at_the_database_times(bot):
    game_id = await new_game(bot, schedule="every 2 hours", settings={"lock_before": 10, "remind_before": 30})
    game = await bot.game(game_id)
    assert game.deadline_at == T0 + timedelta(hours=2)
    assert game.lock_at == T0 + timedelta(hours=1, minutes=50)
    assert bot.scheduler.jobs(game_id) == {"remind": T0 + timedelta(hours=1, minutes=20),
                                           "lock": game.lock_at, "deadline": game.deadline_at}
    for kind in ("remind", "lock", "deadline"):
        job = bot.apscheduler.get_job(f"game-{game_id}-{kind}")
        assert job.id == job_id(game_id, kind)
        assert job.coalesce is True and job.misfire_grace_time is None   # late jobs run, once
        assert job.args == (game_id,)


async def test_the_deadline_resolves_once_and_the_next_one_is_scheduled(bot, clock):
    game_id = await new_game(bot, moved=(1, 2, 3))
    clock.advance(minutes=59, seconds=59)
    early = await bot.scheduler.run_due(game_id)
    assert early.resolution is None and (await bot.game(game_id)).update_no == 1

    clock.advance(seconds=1)
    run = await bot.scheduler.run_due(game_id)
    assert run.resolved and run.update_no == 1
    again = await bot.scheduler.run_due(game_id)
    assert again.update_no == 2 and again.resolution is None
    assert await bot.resolved_updates(game_id) == [1]

    game = await bot.game(game_id)
    assert game.deadline_at == T0 + timedelta(hours=2)
    assert bot.scheduler.jobs(game_id)["deadline"] == T0 + timedelta(hours=2)


async def test_a_deadline_waits_for_what_its_ready_hook_awaits(bot, clock):
    """``ready`` (the demo's players, who are never late): a due deadline waits for it, is left
    alone when it says no, and resolves the update as it stands once it says yes."""
    game_id = await new_game(bot, moved=(1, 2))
    go, answer = asyncio.Event(), {"ready": True}
    asked = []

    async def ready(game) -> bool:
        asked.append(game.update_no)
        await go.wait()
        return answer["ready"]

    bot.scheduler.ready = ready
    clock.advance(hours=1)
    answer["ready"] = False
    go.set()
    left = await bot.scheduler.run_due(game_id)
    assert left.resolution is None and await bot.resolved_updates(game_id) == []     # said no: nothing done
    go.clear()
    answer["ready"] = True
    waiting = asyncio.ensure_future(bot.scheduler.run_due(game_id))
    await asyncio.sleep(0.05)
    assert not waiting.done()                                  # the deadline waits for the last order
    await bot.service.submit_order(game_id, user_id=3, text=KINGS[3])
    go.set()
    run = await waiting
    assert run.resolved and run.update_no == 1 and asked == [1, 1]
    assert await bot.resolved_updates(game_id) == [1]


async def test_a_deadline_job_fired_twice_at_once_resolves_once(bot, clock):
    game_id = await new_game(bot, moved=(1, 2, 3))
    clock.advance(hours=1)
    runs = await asyncio.gather(*(bot.scheduler.run_due(game_id) for _ in range(3)))
    assert sum(run.resolved for run in runs) == 1
    assert await bot.resolved_updates(game_id) == [1]


async def test_the_lock_falls_before_the_deadline(bot, clock):
    game_id = await new_game(bot, settings={"lock_before": 15, "remind_before": 0}, moved=(1,))
    clock.advance(minutes=44)
    assert not (await bot.scheduler.run_due(game_id)).locked
    clock.advance(minutes=1)
    run = await bot.scheduler.run_due(game_id)
    assert run.locked and run.resolution is None
    assert (await bot.game(game_id)).locked
    assert any("locked" in post.body for post in await bot.posts(game_id, "announcement"))
    with pytest.raises(WrongTime):
        await bot.service.lock_orders(game_id, actor=MOD)
    assert set(bot.scheduler.jobs(game_id)) == {"deadline"}

    clock.advance(minutes=15)
    assert (await bot.scheduler.run_due(game_id)).resolved


async def test_a_lock_at_the_deadline_is_the_resolution_itself(bot, clock):
    game_id = await new_game(bot, settings={"lock_before": 0, "remind_before": 0}, moved=(1,))
    assert set(bot.scheduler.jobs(game_id)) == {"deadline"}
    clock.advance(hours=1)
    run = await bot.scheduler.run_due(game_id)
    assert run.resolved and not run.locked
    assert not any("locked" in post.body for post in await bot.posts(game_id, "announcement"))


async def test_the_reminder_is_sent_once_per_deadline(bot, clock):
    game_id = await new_game(bot, schedule="every 2 hours", settings={"remind_before": 30}, moved=(2,))
    clock.advance(hours=1, minutes=29)
    assert not (await bot.scheduler.run_due(game_id)).reminded
    clock.advance(minutes=1)
    assert (await bot.scheduler.run_due(game_id)).reminded
    clock.advance(minutes=1)
    assert not (await bot.scheduler.run_due(game_id)).reminded
    reminders = await bot.posts(game_id, "reminder")
    assert len(reminders) == 1
    assert reminders[0].body.startswith("2 of 3 players have not moved for update 1: Alice, Cleo.")
    assert "remind" not in bot.scheduler.jobs(game_id)

    bot = await restart(bot, after=timedelta(minutes=1))          # a restart does not send it again
    try:
        assert len(await bot.posts(game_id, "reminder")) == 1
        clock.advance(minutes=28)
        assert (await bot.scheduler.run_due(game_id)).resolved
        assert bot.scheduler.jobs(game_id)["remind"] == T0 + timedelta(hours=3, minutes=30)  # the next deadline's
        assert len(await bot.posts(game_id, "reminder")) == 1
    finally:
        await bot.stop()


async def test_no_reminder_when_everyone_has_moved(bot, clock):
    game_id = await new_game(bot, schedule="every 2 hours", settings={"remind_before": 30}, moved=(1, 2, 3))
    clock.advance(hours=1, minutes=30)
    assert not (await bot.scheduler.run_due(game_id)).reminded
    assert await bot.posts(game_id, "reminder") == []
    assert "remind" not in bot.scheduler.jobs(game_id)


async def test_no_reminder_that_would_fall_before_the_update_opens(bot):
    game_id = await new_game(bot, schedule="every 1 hour", settings={"remind_before": 60})
    assert set(bot.scheduler.jobs(game_id)) == {"deadline"}


async def test_a_reminder_missed_while_down_is_sent_at_start_up_while_orders_are_open(tmp_path, clock):
    bot = await Bot(tmp_path / "s.sqlite3", clock).boot()
    game_id = await new_game(bot, schedule="every 2 hours", settings={"lock_before": 30, "remind_before": 30})
    bot = await restart(bot, after=timedelta(hours=1, minutes=10))   # past the reminder (1:00), not the lock
    try:
        assert bot.start_runs[0].reminded and not bot.start_runs[0].locked
        assert len(await bot.posts(game_id, "reminder")) == 1
        assert set(bot.scheduler.jobs(game_id)) == {"lock", "deadline"}
    finally:
        await bot.stop()


async def test_a_reminder_missed_while_down_is_dropped_once_orders_have_closed(tmp_path, clock):
    bot = await Bot(tmp_path / "s.sqlite3", clock).boot()
    game_id = await new_game(bot, schedule="every 2 hours", settings={"lock_before": 30, "remind_before": 30})
    bot = await restart(bot, after=timedelta(hours=1, minutes=40))   # past the reminder and the lock
    try:
        assert bot.start_runs[0].locked and not bot.start_runs[0].reminded
        assert await bot.posts(game_id, "reminder") == []
        assert set(bot.scheduler.jobs(game_id)) == {"deadline"}
    finally:
        await bot.stop()


async def test_a_manual_game_has_no_jobs_until_it_gets_a_schedule(bot, clock):
    game_id = await new_game(bot, schedule="manual")
    assert bot.scheduler.jobs(game_id) == {}
    clock.advance(days=3)
    assert (await bot.scheduler.run_due(game_id)).resolution is None

    await bot.service.configure(game_id, actor=MOD, schedule="every 30 minutes")
    await bot.scheduler.settle()
    assert bot.scheduler.jobs(game_id)["deadline"] == clock() + timedelta(minutes=30)

    await bot.service.configure(game_id, actor=MOD, schedule="manual")
    await bot.scheduler.settle()
    assert bot.scheduler.jobs(game_id) == {}


async def test_an_ended_game_loses_its_jobs(bot, clock):
    game_id = await new_game(bot, settings={"length": 1}, moved=(1, 2, 3))
    clock.advance(hours=1)
    run = await bot.scheduler.run_due(game_id)
    assert run.resolved and run.resolution.ended
    assert (await bot.game(game_id)).status == "ended"
    assert bot.scheduler.jobs(game_id) == {}


# ---------------------------------------------------------------------- pause and extend
async def test_pause_stops_the_clock_and_resume_shifts_the_deadline(bot, clock):
    game_id = await new_game(bot, settings={"lock_before": 10, "remind_before": 0}, moved=(1,))
    clock.advance(minutes=20)
    await bot.service.pause_game(game_id, actor=MOD)
    await bot.scheduler.settle()
    assert bot.scheduler.jobs(game_id) == {}

    clock.advance(hours=3)                      # well past the old lock and deadline: nothing happens
    run = await bot.scheduler.run_due(game_id)
    assert run.resolution is None and not run.locked
    game = await bot.game(game_id)
    assert (game.status, game.update_no, game.locked) == ("paused", 1, False)

    await bot.service.resume_game(game_id, actor=MOD)
    await bot.scheduler.settle()
    shifted = T0 + timedelta(hours=4)           # the deadline moved by the 3 paused hours
    game = await bot.game(game_id)
    assert game.deadline_at == shifted and game.lock_at == shifted - timedelta(minutes=10)
    assert bot.scheduler.jobs(game_id) == {"lock": game.lock_at, "deadline": shifted}

    clock.moment = shifted - timedelta(seconds=1)
    assert (await bot.scheduler.run_due(game_id)).resolution is None
    clock.moment = shifted
    assert (await bot.scheduler.run_due(game_id)).resolved


async def test_extend_is_refused_while_paused_and_moves_the_jobs_when_running(bot, clock):
    game_id = await new_game(bot, settings={"lock_before": 10, "remind_before": 20})
    await bot.service.pause_game(game_id, actor=MOD)
    with pytest.raises(WrongTime, match="paused"):
        await bot.service.extend(game_id, minutes=30, actor=MOD)
    await bot.service.resume_game(game_id, actor=MOD)

    clock.advance(minutes=55)                   # after the lock (0:50), before the deadline
    assert (await bot.scheduler.run_due(game_id)).locked
    await bot.service.extend(game_id, minutes=30, actor=MOD)
    await bot.scheduler.settle()
    game = await bot.game(game_id)
    assert not game.locked                      # the lock moved into the future: orders reopen
    assert bot.scheduler.jobs(game_id) == {"remind": T0 + timedelta(hours=1),
                                           "lock": T0 + timedelta(hours=1, minutes=20),
                                           "deadline": T0 + timedelta(hours=1, minutes=30)}
    clock.advance(minutes=5)
    assert (await bot.scheduler.run_due(game_id)).reminded     # a new deadline, a new reminder
    clock.moment = T0 + timedelta(hours=1)
    assert (await bot.scheduler.run_due(game_id)).resolution is None
    clock.moment = T0 + timedelta(hours=1, minutes=30)
    assert (await bot.scheduler.run_due(game_id)).resolved


# ---------------------------------------------------------------------- restarts
async def test_restart_across_one_deadline_resolves_it_once_and_keeps_the_rhythm(bot, clock):
    game_id = await new_game(bot, moved=(1, 2))
    bot = await restart(bot, after=timedelta(hours=1, minutes=30))
    try:
        assert [run.resolved for run in bot.start_runs] == [True]
        assert await bot.resolved_updates(game_id) == [1]
        game = await bot.game(game_id)
        assert game.update_no == 2
        assert game.deadline_at == T0 + timedelta(hours=2)     # the schedule's next deadline, unchanged
        assert bot.scheduler.jobs(game_id)["deadline"] == T0 + timedelta(hours=2)
    finally:
        await bot.stop()


async def test_restart_across_two_deadlines_resolves_one_update_and_counts_from_now(bot, clock):
    """The documented outcome (docs/scheduling.md): the overdue update resolves once at start-up; the
    deadlines missed while down are not made up one by one; the next deadline is the first after now."""
    game_id = await new_game(bot, moved=(1, 2))
    bot = await restart(bot, after=timedelta(hours=2, minutes=30))
    try:
        assert [run.resolved for run in bot.start_runs] == [True]
        assert await bot.resolved_updates(game_id) == [1]
        game = await bot.game(game_id)
        assert game.update_no == 2
        assert game.deadline_at == clock() + timedelta(hours=1)  # T0+3:30, not T0+2:00 or T0+3:00
        assert bot.scheduler.jobs(game_id)["deadline"] == game.deadline_at
        assert (await bot.scheduler.run_due(game_id)).resolution is None
    finally:
        await bot.stop()


async def test_restart_across_two_daily_deadlines_waits_for_the_next_one(tmp_path, clock):
    bot = await Bot(tmp_path / "s.sqlite3", clock).boot()
    game_id = await new_game(bot, schedule="daily 18:00", moved=(1,))
    assert (await bot.game(game_id)).deadline_at == datetime(2026, 11, 22, 18, 0, tzinfo=timezone.utc)
    bot = await restart(bot, after=timedelta(days=1, hours=8))       # down until 20:00 the next day
    try:
        assert await bot.resolved_updates(game_id) == [1]
        assert (await bot.game(game_id)).deadline_at == datetime(2026, 11, 24, 18, 0, tzinfo=timezone.utc)
        assert bot.scheduler.jobs(game_id)["deadline"] == datetime(2026, 11, 24, 18, 0, tzinfo=timezone.utc)
    finally:
        await bot.stop()


async def test_a_daily_time_in_a_zone_follows_its_clocks_across_daylight_saving_time(tmp_path):
    # Paris moves its clocks forward on 2026-03-29: 18:00 there is 17:00 UTC before, 16:00 UTC after
    clock = FakeClock(datetime(2026, 3, 27, 12, 0, tzinfo=timezone.utc))
    bot = await Bot(tmp_path / "s.sqlite3", clock).boot()
    try:
        game_id = await new_game(bot, schedule="daily 18:00 Europe/Paris", moved=(1,))
        deadlines = []
        for _ in range(3):
            game = await bot.game(game_id)
            deadlines.append(game.deadline_at)
            assert bot.scheduler.jobs(game_id)["deadline"] == game.deadline_at
            clock.moment = game.deadline_at
            assert (await bot.scheduler.run_due(game_id)).resolved
        assert deadlines == [datetime(2026, 3, 27, 17, 0, tzinfo=timezone.utc),
                             datetime(2026, 3, 28, 17, 0, tzinfo=timezone.utc),
                             datetime(2026, 3, 29, 16, 0, tzinfo=timezone.utc)]
        assert (await bot.game(game_id)).deadline_at == datetime(2026, 3, 30, 16, 0, tzinfo=timezone.utc)
    finally:
        await bot.stop()


async def test_restart_takes_over_the_claim_of_a_run_that_died_mid_resolution(bot, clock):
    game_id = await new_game(bot, moved=(1, 2))
    clock.advance(hours=1)
    dead = f"{socket.gethostname()}:{os.getpid()}:earlier-run"      # this pid, an earlier boot
    async with bot.store.transaction() as q:
        assert await q.claim(game_id, 1, dead, clock())
    bot = await restart(bot, after=timedelta(minutes=5))
    try:
        assert [run.resolved for run in bot.start_runs] == [True]
        assert await bot.resolved_updates(game_id) == [1]
    finally:
        await bot.stop()


async def test_a_paused_game_stays_paused_across_a_restart(bot, clock):
    game_id = await new_game(bot)
    clock.advance(minutes=30)
    await bot.service.pause_game(game_id, actor=MOD)
    bot = await restart(bot, after=timedelta(hours=5))
    try:
        assert bot.start_runs == []
        assert bot.scheduler.jobs(game_id) == {}
        await bot.service.resume_game(game_id, actor=MOD)
        await bot.scheduler.settle()
        assert bot.scheduler.jobs(game_id)["deadline"] == T0 + timedelta(hours=6)
    finally:
        await bot.stop()


# ---------------------------------------------------------------------- two processes, retries
async def test_two_processes_resolve_an_update_once(tmp_path, clock):
    path = tmp_path / "s.sqlite3"
    one = await Bot(path, clock, holder="host-one:1:a").boot()
    two = await Bot(path, clock, holder="host-two:2:b").boot()
    try:
        game_id = await new_game(one, moved=(1, 2))
        await two.scheduler.refresh(game_id)
        clock.advance(hours=1)
        runs = await asyncio.gather(one.scheduler.run_due(game_id), two.scheduler.run_due(game_id))
        assert sum(run.resolved for run in runs) == 1
        assert await one.resolved_updates(game_id) == [1]
        await two.scheduler.refresh(game_id)
        assert two.scheduler.jobs(game_id)["deadline"] == T0 + timedelta(hours=2)
    finally:
        await two.stop()
        await one.stop()


async def test_a_deadline_claimed_elsewhere_is_retried_later_not_dropped(bot, clock):
    game_id = await new_game(bot, moved=(1,))
    clock.advance(hours=1)
    async with bot.store.transaction() as q:                      # another live host is resolving it
        await q.register_service(identity="elsewhere-1", host="elsewhere", pid=1, started_at=clock(), now=clock())
        assert await q.claim(game_id, 1, "elsewhere-1", clock())
    run = await bot.scheduler.run_due(game_id)
    assert run.resolution.outcome == "busy"
    assert bot.scheduler.jobs(game_id)["deadline"] == clock() + RETRY_AFTER

    async with bot.store.transaction() as q:                      # ... and gave up
        await q.update_game(game_id, claimed_by=None, claimed_at=None)
    clock.advance(seconds=30)
    assert (await bot.scheduler.run_due(game_id)).resolved


async def test_shutdown_unhooks_the_service_and_removes_the_jobs(tmp_path, clock):
    bot = await Bot(tmp_path / "s.sqlite3", clock).boot()
    game_id = await new_game(bot)
    try:
        assert bot.service.on_schedule_change == bot.scheduler.reschedule
        assert bot.scheduler.jobs(game_id)
        await bot.scheduler.shutdown()
        assert bot.service.on_schedule_change is None
        assert bot.apscheduler.get_jobs() == []
        await bot.service.extend(game_id, minutes=5, actor=MOD)     # no hook, no job
        assert bot.apscheduler.get_jobs() == []
    finally:
        await bot.stop()


# ---------------------------------------------------------------------- the real thing, once
async def test_the_real_apscheduler_fires_the_deadline_job(tmp_path):
    store = await Store.open(tmp_path / "s.sqlite3")
    service = Service(store)                               # the real clock
    game = await service.create_game(guild_id=1, channel_id=10, actor=MOD, schedule="every 1 hour", seed=7)
    await service.start_game(game.id, actor=MOD)
    await service.join(game.id, user_id=1, name="Alice", colour="Red")
    await service.submit_order(game.id, user_id=1, text="K(0,0)")
    soon = datetime.now(timezone.utc) + timedelta(milliseconds=300)
    async with store.transaction() as q:
        await q.update_game(game.id, deadline_at=soon, lock_at=soon)

    scheduler = GameScheduler(service)                     # its own AsyncIOScheduler, really running
    try:
        assert [run.resolution for run in await scheduler.start()] == [None]
        assert scheduler.jobs(game.id)["deadline"] == soon

        async def resolved() -> None:
            while (await service.get_game(game.id)).update_no == 1:
                await asyncio.sleep(0.02)

        await asyncio.wait_for(resolved(), timeout=10)
        await scheduler.settle()
        assert (await service.get_game(game.id)).deadline_at > soon + timedelta(minutes=59)
    finally:
        await scheduler.shutdown()
        await store.close()
    assert not scheduler.scheduler.running


async def test_an_early_resolution_moves_the_deadline_job_to_now_and_resolves_once(bot, clock):
    """Issue 20: once every player who may order has ordered (the game's setting on), the deadline
    becomes now in the database and the scheduler fires it at once; the next update gets a full
    interval from then."""
    game_id = await new_game(bot, settings={"early_resolution": True})
    clock.advance(minutes=10)
    for user_id in (1, 2):
        await bot.service.submit_order(game_id, user_id=user_id, text=KINGS[user_id])
    await bot.scheduler.settle()
    assert bot.scheduler.jobs(game_id)["deadline"] == T0 + timedelta(hours=1)      # Cleo has not ordered yet
    await bot.service.submit_order(game_id, user_id=3, text=KINGS[3])
    await bot.scheduler.settle()
    assert bot.scheduler.jobs(game_id)["deadline"] == clock.moment
    run = await bot.scheduler.run_due(game_id)
    assert run.resolved and run.update_no == 1
    assert (await bot.scheduler.run_due(game_id)).resolution is None
    assert await bot.resolved_updates(game_id) == [1]
    assert (await bot.game(game_id)).deadline_at == clock.moment + timedelta(hours=1)


async def test_a_resolution_that_leaves_the_next_update_due_fires_it_at_once(bot, clock):
    """A territory turn nobody can play is due at once: after the run that resolved the turn before,
    its deadline job is placed now, not held back as a stuck moment for RETRY_AFTER."""
    game = await bot.service.create_game(guild_id=1, channel_id=10, actor=MOD, ruleset="territory", seed=3)
    await bot.service.join(game.id, user_id=1, name="Ann", colour="Red")
    await bot.service.join(game.id, user_id=2, name="Bob", colour="Blue")
    await bot.service.start_game(game.id, actor=MOD)
    await bot.service.submit_order(game.id, user_id=1, text="pass")       # turn 1 ends at once
    assert (await bot.scheduler.run_due(game.id)).resolved
    await bot.service.submit_order(game.id, user_id=2, text="pass")       # turn 2; turn 3 (Green) has nobody
    run = await bot.scheduler.run_due(game.id)
    assert run.resolved and run.update_no == 2
    assert bot.scheduler.jobs(game.id)["deadline"] == clock.moment        # turn 3: now, not now + RETRY_AFTER
    skipped = await bot.scheduler.run_due(game.id)
    assert skipped.resolved and skipped.update_no == 3
    assert (await bot.game(game.id)).update_no == 4
