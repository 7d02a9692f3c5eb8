"""The service's heartbeat and sweep (bot/service/claims.py): `python benchmarks/heartbeat.py [--games N]
[--store-url URL]`.

One database with ``N`` running games (default 2,000); 100 of them are being resolved by 10 live
services (each beating), and 10 more are held by a service that died. Prints, for another service:

- a beat when nothing is dead (what every running service pays every 5 s: its row, one read of the
  claimed games that have no live holder, forgetting no one), the median and the slowest of 20;
- the beat that finds the dead holder: its 10 claims freed (one conditional statement each) and
  its row forgotten;
- for comparison, ``resolve_if_due`` on a game not yet due (one transaction that reads the game).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import Service, utc_now  # noqa: E402
from bot.service.claims import LIVENESS  # noqa: E402
from bot.store import Store  # noqa: E402

LIVE_HOLDERS, LIVE_CLAIMS, DEAD_CLAIMS = 10, 100, 10


async def seed(store: Store, games: int) -> list[int]:
    """``games`` running games (rows only: nothing here reads their position)."""
    now = utc_now()
    ids = []
    async with store.transaction() as q:
        for index in range(games):
            game_id = await q.insert_game(name=f"game {index}", ruleset="neisg", guild_id=1, channel_id=10_000 + index,
                                          seed="1", settings={}, schedule={"kind": "manual"}, created_at=now,
                                          created_by=1)
            await q.update_game(game_id, status="running", update_no=1)
            ids.append(game_id)
    return ids


async def timed(work) -> float:
    began = time.perf_counter()
    await work()
    return time.perf_counter() - began


async def main(games: int, url: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = url or f"sqlite:///{Path(folder) / 'heartbeat.sqlite3'}"
        store = await Store.open(url)
        try:
            ids = await seed(store, games)
            now = utc_now()
            live = [Service(store, holder=f"live-{n}") for n in range(LIVE_HOLDERS)]
            async with store.transaction() as q:
                for index, game_id in enumerate(ids[:LIVE_CLAIMS]):
                    holder = live[index % LIVE_HOLDERS]
                    await holder._register(q)
                    await q.claim(game_id, 1, holder.holder, now)
                dead_at = now - LIVENESS.lease - timedelta(seconds=1)
                await q.register_service(identity="dead-0", host="gone", pid=1, started_at=dead_at, now=dead_at)
                for game_id in ids[LIVE_CLAIMS:LIVE_CLAIMS + DEAD_CLAIMS]:
                    await q.claim(game_id, 1, "dead-0", dead_at)
            watcher = Service(store, holder="watcher")
            await watcher.start(heartbeat=False)
            freed_seconds = await timed(watcher.beat)
            quiet = [await timed(watcher.beat) for _ in range(20)]
            async with store.snapshot_read() as q:
                still = sum(1 for game in await q.games(statuses=("running",)) if game.claimed_by == "dead-0")
            claims = []
            for game_id in ids[-20:]:
                claims.append(await timed(lambda: watcher.resolve_if_due(game_id, 1)))      # not due: a manual game
            await watcher.stop()
        finally:
            await store.close()
    backend = url.split(":", 1)[0]
    print(f"{backend}, {games} running games, {LIVE_CLAIMS} claimed by {LIVE_HOLDERS} live services, "
          f"{DEAD_CLAIMS} by a dead one")
    print(f"  beat freeing the dead holder's {DEAD_CLAIMS} claims: {freed_seconds * 1000:.1f} ms "
          f"(claims left: {still})")
    print(f"  quiet beat: median {statistics.median(quiet) * 1000:.1f} ms, slowest {max(quiet) * 1000:.1f} ms")
    print(f"  resolve_if_due on a game not due, for comparison: median {statistics.median(claims) * 1000:.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--store-url", default=None)
    arguments = parser.parse_args()
    logging.getLogger("bot").setLevel(logging.ERROR)        # the freed claims' warnings are expected here
    asyncio.run(main(arguments.games, arguments.store_url))
