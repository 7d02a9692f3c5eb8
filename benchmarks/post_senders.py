"""What one sender a game costs the outbox relay (bot/service/publishing.py, ``games.posting_by``):
`python benchmarks/post_senders.py [--games N] [--store-url URL]`.

One database with ``N`` running games (default 2,000), each with one announcement waiting. Prints:

- the sender's first round: it takes the sending of every game (one statement) and delivers the
  ``N`` posts through a publisher that keeps them in memory; the time per post;
- a round of the sender with nothing due (one read: no write);
- a round of a second live copy while the sender holds every game and ``N`` posts are due (what
  the idle copy pays at each of its polls, every 5 s: a read, then one write transaction that
  refreshes its heartbeat, reads who holds the games, takes nothing and picks nothing), the median
  and the slowest of 20.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import MemoryPublisher, OutboxRelay, Service, utc_now  # noqa: E402
from bot.store import Store  # noqa: E402
from heartbeat import seed  # noqa: E402  (running games, rows only)


async def add_posts(store: Store, ids: list[int]) -> None:
    now = utc_now()
    async with store.transaction() as q:
        for game_id in ids:
            await q.insert_post(game_id=game_id, update_no=1, kind="announcement", body="news", created_at=now)


async def timed(work) -> tuple[float, object]:
    began = time.perf_counter()
    result = await work()
    return time.perf_counter() - began, result


async def main(games: int, url: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = url or f"sqlite:///{Path(folder) / 'post_senders.sqlite3'}"
        store = await Store.open(url)
        try:
            ids = await seed(store, games)
            await add_posts(store, ids)
            sender, copy = Service(store, holder="sender"), Service(store, holder="second-copy")
            await sender.start(heartbeat=False)
            await copy.start(heartbeat=False)
            relay, idle = OutboxRelay(sender, MemoryPublisher()), OutboxRelay(copy, MemoryPublisher())
            first, delivered = await timed(relay.deliver_due)
            assert delivered == games, delivered
            quiet = [(await timed(relay.deliver_due))[0] for _ in range(20)]
            await add_posts(store, ids)
            logging.getLogger("bot.service.publishing").setLevel(logging.WARNING)   # its once-a-game lines
            rounds = []
            for _ in range(20):
                seconds, count = await timed(idle.deliver_due)
                assert count == 0, count
                rounds.append(seconds)
            assert len(idle.sent_elsewhere) == games
            await sender.stop()
            await copy.stop()
        finally:
            await store.close()
    kind = url.split(":")[0]
    print(f"{kind}, {games:,} games with a post each:")
    print(f"  the sender's first round (takes every game, delivers {games:,} posts): {first:.2f} s, "
          f"{first / games * 1000:.2f} ms a post")
    print(f"  the sender's round with nothing due: median {statistics.median(quiet) * 1000:.1f} ms")
    print(f"  the idle copy's round ({games:,} posts due, all the sender's): median "
          f"{statistics.median(rounds) * 1000:.1f} ms, slowest {max(rounds) * 1000:.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--store-url", help="a database to use (default: a temporary SQLite file)")
    args = parser.parse_args()
    asyncio.run(main(args.games, args.store_url))
