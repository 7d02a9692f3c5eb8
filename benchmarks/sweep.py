"""The scheduler's sweep (docs/sharding.md): `python benchmarks/sweep.py [--games N] [--store-url URL]`.

Two processes share one database (two stores, services and schedulers, shard 0 and shard 1 of 2);
``N`` running games (default 2,000), half on each shard's servers. Prints, for the process with
shard 1:

- a sweep when nothing changed (what it costs every ``sweep_seconds`` in a quiet hour: one read of
  its running games), the median and the slowest of 20;
- a sweep after the other process moved the deadline of a tenth of its games (as orders by direct
  message that complete a game's set do), which places those games' jobs again;
- the event loop's longest block during the quiet sweeps (a ticker task sleeps 1 ms again and
  again and records how late it wakes).

APScheduler runs paused: jobs are placed, none fire.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from apscheduler.schedulers.asyncio import AsyncIOScheduler  # noqa: E402

from bot.scheduler import GameScheduler  # noqa: E402
from bot.service import Moderator, Service  # noqa: E402
from bot.shards import Shards  # noqa: E402
from bot.store import Store  # noqa: E402

TICK = 0.001


def guild_on(shard: int, index: int) -> int:
    """A server id on ``shard`` of 2 (Discord's rule: (id >> 22) % 2)."""
    return ((2 * (1_000_000 + index) + shard) << 22) | 4242


async def process(url: str, shards: Shards) -> tuple[Store, Service, GameScheduler]:
    store = await Store.open(url)
    service = Service(store, shards=shards)
    apscheduler = AsyncIOScheduler(timezone=timezone.utc)
    apscheduler.start(paused=True)
    scheduler = GameScheduler(service, scheduler=apscheduler)
    return store, service, scheduler


async def longest_block(work) -> tuple[object, float]:
    """Run ``work()`` while a ticker measures the event loop's longest stall (seconds)."""
    worst = 0.0
    running = True

    async def ticker() -> None:
        nonlocal worst
        loop = asyncio.get_running_loop()
        while running:
            before = loop.time()
            await asyncio.sleep(TICK)
            worst = max(worst, loop.time() - before - TICK)

    task = asyncio.create_task(ticker())
    try:
        result = await work()
    finally:
        running = False
        await task
    return result, worst


async def main(games: int, url: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = url or f"sqlite:///{Path(folder) / 'sweep.sqlite3'}"
        zero_store, zero, zero_scheduler = await process(url, Shards((0,), 2))
        one_store, one, one_scheduler = await process(url, Shards((1,), 2))
        try:
            began = time.perf_counter()
            mine = []
            for index in range(games):
                shard = index % 2
                moderator = Moderator(user_id=99, guild_id=guild_on(shard, index))
                game = await zero.create_game(guild_id=moderator.guild_id, channel_id=index + 1, actor=moderator,
                                              schedule="every 1 hour", seed=index)
                await zero.start_game(game.id, actor=moderator)
                if shard == 1:
                    mine.append((game.id, moderator))
            print(f"{games:,} running games made in {time.perf_counter() - began:.1f} s "
                  f"({len(mine):,} on shard 1); {url.split('://')[0]}")
            await zero_scheduler.start()
            await one_scheduler.start()

            quiet = []
            worst = 0.0
            for _ in range(20):
                began = time.perf_counter()
                changed, block = await longest_block(one_scheduler.sweep)
                quiet.append(time.perf_counter() - began)
                worst = max(worst, block)
                assert changed == [], changed
            print(f"sweep, nothing changed: median {statistics.median(quiet) * 1000:.1f} ms, "
                  f"slowest {max(quiet) * 1000:.1f} ms; loop blocked at most {worst * 1000:.1f} ms")

            moved = mine[::10]
            for game_id, moderator in moved:           # the other process moves their deadlines
                await zero.extend(game_id, minutes=5, actor=moderator)
            began = time.perf_counter()
            changed = await one_scheduler.sweep()
            took = time.perf_counter() - began
            assert sorted(changed) == sorted(game_id for game_id, _ in moved)
            print(f"sweep after {len(moved):,} deadlines moved elsewhere: {took * 1000:.1f} ms "
                  f"({len(changed):,} games' jobs placed again)")
        finally:
            for scheduler in (zero_scheduler, one_scheduler):
                await scheduler.shutdown()
                scheduler.scheduler.shutdown(wait=False)
            await asyncio.sleep(0)
            for store in (zero_store, one_store):
                await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="running games in all (default: 2,000)")
    parser.add_argument("--store-url", help="the database (default: a new SQLite file)")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.games, arguments.store_url))
