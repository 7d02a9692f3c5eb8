"""The bot's close is one shutdown, whoever asks for it and when (issue 26: ``python -m bot run``
stopped by SIGTERM must exit by itself).

A second close (a second SIGTERM, or discord.py's ``async with`` exit) during a slow one waits for
the same shutdown: it does not close the store under a resolution that is still committing. A close
that comes while ``setup_hook`` is still starting things waits for it, then stops all of it, so
nothing is left running on a closed store. The process-level check (exit status 0 soon after
SIGTERM / SIGINT) is in test_e2e.py and test_e2e_shards.py.
"""

from __future__ import annotations

import asyncio
import sqlite3

from bot.client import SkirmishBot
from bot.config import Config


class GatedScheduler:
    """A scheduler (the bot takes anything with ``start()`` and ``shutdown()``) whose start or
    shutdown waits until the test opens its gate, as a slow start-up or a resolution under way would;
    at the end of its shutdown it reads the store, as a resolution committing would."""

    def __init__(self, bot: SkirmishBot, *, slow_start: bool = False, slow_shutdown: bool = False) -> None:
        self.bot = bot
        self.entered = asyncio.Event()
        self.gate = asyncio.Event()
        self.slow_start, self.slow_shutdown = slow_start, slow_shutdown
        self.started = self.stopped = False
        self.games_read_at_shutdown: list | None = None

    async def start(self) -> None:
        if self.slow_start:
            self.entered.set()
            await self.gate.wait()
        self.started = True

    async def shutdown(self) -> None:
        if self.slow_shutdown:
            self.entered.set()
            await self.gate.wait()
        async with self.bot.service.store.snapshot_read() as q:
            self.games_read_at_shutdown = await q.games()
        self.stopped = True


def make(tmp_path, **gates) -> tuple[SkirmishBot, GatedScheduler]:
    bot = SkirmishBot(Config(store_url=f"sqlite:///{tmp_path / 'bot.sqlite3'}"), sync_commands=False)
    bot.scheduler = GatedScheduler(bot, **gates)
    return bot, bot.scheduler


def services(tmp_path) -> int:
    with sqlite3.connect(tmp_path / "bot.sqlite3") as db:
        return db.execute("SELECT COUNT(*) FROM services").fetchone()[0]


def assert_all_stopped(bot: SkirmishBot, store) -> None:
    assert bot.store is None
    for connection in (store._writer, store._reader):       # the database threads end with the store
        connection._thread.join(timeout=10)
        assert not connection._thread.is_alive()
    others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task() and not task.done()]
    assert others == [], f"still running after close: {others}"


async def test_a_second_close_during_a_slow_one_waits_for_it(tmp_path):
    bot, scheduler = make(tmp_path, slow_shutdown=True)
    await bot.setup_hook()
    store = bot.store
    assert services(tmp_path) == 1
    first = asyncio.create_task(bot.close())
    await scheduler.entered.wait()                  # the scheduler is letting a resolution finish
    second = asyncio.create_task(bot.close())       # a second SIGTERM
    done, _ = await asyncio.wait([second], timeout=1)
    assert not done, "the second close returned while the first was still stopping the scheduler"
    assert bot.store is store and services(tmp_path) == 1
    scheduler.gate.set()
    await asyncio.gather(first, second)             # both end, neither raises
    assert scheduler.stopped and scheduler.games_read_at_shutdown == []     # the store was still open
    assert services(tmp_path) == 0                  # the service's row is gone: its claims are free
    assert_all_stopped(bot, store)
    await bot.close()                               # and once more (async with's exit): nothing to do


async def test_a_close_during_setup_stops_what_setup_started(tmp_path):
    bot, scheduler = make(tmp_path, slow_start=True)
    setup = asyncio.create_task(bot.setup_hook())
    await scheduler.entered.wait()                  # the store is open, the service registered
    store = bot.store
    closing = asyncio.create_task(bot.close())      # SIGTERM while the bot is starting
    done, _ = await asyncio.wait([closing], timeout=1)
    assert not done and bot.store is store          # it waits for the start-up, not closing under it
    scheduler.gate.set()
    await setup
    await closing
    assert scheduler.started and scheduler.stopped and scheduler.games_read_at_shutdown == []
    assert services(tmp_path) == 0
    assert_all_stopped(bot, store)                  # the relay and the heartbeat loop too


async def test_a_close_before_setup_starts_nothing(tmp_path):
    bot, scheduler = make(tmp_path)
    await bot.close()                               # SIGTERM while logging in to Discord
    await bot.setup_hook()                          # then the login's setup_hook runs
    assert bot.store is None and not scheduler.started
    assert not (tmp_path / "bot.sqlite3").exists()
