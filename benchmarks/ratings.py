"""What working out a server's ratings costs (bot/service/careers.py, issue 42):
`python benchmarks/ratings.py [--games N ...] [--members M]`.

Ratings are computed on demand from the stored results, never kept: ``/leaderboard`` and
``/profile`` rate every rated game of the server again, in the order they ended. This prints, for
servers of ``N`` rated games (default 100, 1,000 and 10,000) of 2 to 8 seats drawn among ``M``
members (default 200), with a shared win now and then and a substituted seat now and then:

- ``rate``: the pure computation (openskill's Plackett-Luce over every game), best of 3;
- ``leaderboard``: the service's ``leaderboard`` on a SQLite store holding those results (the read
  of the results and the hidden members, the rating, the sort), best of 3, once the cache is full.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import Service  # noqa: E402
from bot.service.careers import rate  # noqa: E402
from bot.store import GameResult, Store  # noqa: E402

START = datetime(2026, 1, 1, tzinfo=timezone.utc)


def results(games: int, members: int, guild_id: int = 1) -> list[GameResult]:
    """``games`` rated results of one server, reproducible (seeded)."""
    draw = random.Random(42)
    made = []
    for number in range(1, games + 1):
        seats = draw.randint(2, 8)
        players = draw.sample(range(1, members + 1), seats)
        places = list(range(1, seats + 1))
        if draw.random() < 0.1:                 # a shared win
            places[1] = 1
        rows = [(f"P{i}", user, place, 1.0) for i, (user, place) in enumerate(zip(players, places))]
        if draw.random() < 0.05:                # a seat handed to a substitute halfway
            substitute = draw.choice([m for m in range(1, members + 1) if m not in players])
            rows.append(("P0", substitute, places[0], 0.5))
        made.append(GameResult(number, 1, 0, guild_id, "arena", True, START + timedelta(hours=number), tuple(rows)))
    return made


def best_of(work, times: int = 3) -> float:
    best = float("inf")
    for _ in range(times):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


async def leaderboard_seconds(found: list[GameResult]) -> float:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "ratings.sqlite3")
        try:
            async with store.transaction() as q:
                for result in found:
                    game_id = await q.insert_game(name=f"game {result.game_id}", ruleset="arena", guild_id=1,
                                                  channel_id=result.game_id, seed="1", settings={},
                                                  schedule={"kind": "manual"}, created_at=START, created_by=1)
                    await q.update_game(game_id, status="ended", snapshot_update=1, snapshot_revision=0)
                    await q.keep_game_result(result)
            service = Service(store)
            best = float("inf")
            for _ in range(3):
                started = time.perf_counter()
                await service.leaderboard(1)
                best = min(best, time.perf_counter() - started)
            return best
        finally:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[100, 1000, 10000], metavar="N")
    parser.add_argument("--members", type=int, default=200, metavar="M")
    args = parser.parse_args()
    for games in args.games:
        found = results(games, args.members)
        pure = best_of(lambda: rate(found))
        served = asyncio.run(leaderboard_seconds(found))
        print(f"{games:>6} rated games, {args.members} members: rate {pure * 1000:8.1f} ms "
              f"({pure / games * 1e6:5.0f} us a game); leaderboard {served * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
