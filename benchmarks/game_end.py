"""Does ending a big game stall the others? `python benchmarks/game_end.py [--players N] [--updates U]`.

Sets up, in a fresh SQLite file, a neisg game of N players (default 1,000: they join and place their
kings in update 1, as in benchmarks/submit.py) and plays U updates (default 10) in which every king
steps aside, so the game has U + 1 positions for its timelapse. Beside it runs a small game of two
players. Then the big game ends, twice over in two runs of the set-up:

- ``/game end``: a moderator ends it (``end_game``);
- ``last update``: its last update resolves (its ``length`` is reached), as the scheduler would.

While it ends, a player of the small game sends an order every 20 ms, all through one Service on
one event loop, as in the bot. Prints each order's time from submission to confirmation (median,
p99, max) and how long the ending took, then checks the timelapse is in the outbox.
Goal (issue 19 item 3): an order to another game is confirmed in under 100 ms while a
1,000-player game ends.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _timing import percentile  # noqa: E402
from submit import MODERATOR, set_up  # noqa: E402

from bot.service import Service  # noqa: E402
from bot.store import Store  # noqa: E402

PROBE_EVERY = 0.02      # seconds between two orders to the small game
SMALL_PLAYERS = ((900001, "Small A", "Red", (0, 0)), (900002, "Small B", "Blue", (10, 0)))


async def small_game(service: Service) -> int:
    game = await service.create_game(guild_id=1, channel_id=2, actor=MODERATOR, name="small game", seed=2)
    await service.start_game(game.id, actor=MODERATOR)
    for user_id, name, colour, (x, y) in SMALL_PLAYERS:
        await service.join(game.id, user_id=user_id, name=name, colour=colour)
        await service.submit_order(game.id, user_id=user_id, text=f"K({x},{y})")
    assert (await service.resolve_now(game.id, actor=MODERATOR)).resolved
    return game.id


async def play_updates(service: Service, game_id: int, kings: dict[int, tuple[int, int]], updates: int) -> None:
    """``updates`` updates in which every king steps right, then back (kings stay apart)."""
    for number in range(updates):
        step = 1 if number % 2 == 0 else -1
        for user_id, (x, y) in kings.items():
            await service.submit_order(game_id, user_id=user_id, text=f"K({x},{y})-({x + step},{y})")
            kings[user_id] = (x + step, y)
        assert (await service.resolve_now(game_id, actor=MODERATOR)).resolved


async def probe(service: Service, game_id: int, stop: asyncio.Event) -> list[float]:
    """Orders to the small game every PROBE_EVERY seconds until ``stop``: their latencies."""
    user_id, _, _, (x, y) = SMALL_PLAYERS[0]
    latencies = []
    index = 0
    while not stop.is_set():
        target = (x, y + 1) if index % 2 == 0 else (x + 1, y)
        sent = time.perf_counter()
        await service.submit_order(game_id, user_id=user_id, text=f"K({x},{y})-{target}".replace(" ", ""))
        latencies.append(time.perf_counter() - sent)
        index += 1
        await asyncio.sleep(PROBE_EVERY)
    return latencies


async def run(players: int, updates: int, how: str, folder: str) -> None:
    store = await Store.open(Path(folder) / f"game_end_{how.replace(' ', '_').replace('/', '')}.sqlite3")
    try:
        service = Service(store)
        began = time.perf_counter()
        big, kings = await set_up(service, players)
        small = await small_game(service)
        if how == "last update":
            await service.configure(big, actor=MODERATOR, settings={"length": updates + 1})
            await play_updates(service, big, kings, updates - 1)
        else:
            await play_updates(service, big, kings, updates)
        print(f"set-up ({how}): {players} players, {updates + 1} positions in "
              f"{time.perf_counter() - began:.1f} s")

        stop = asyncio.Event()
        prober = asyncio.create_task(probe(service, small, stop))
        await asyncio.sleep(0.5)                 # the small game's orders flow before the ending starts
        started = time.perf_counter()
        if how == "last update":
            user_orders = {u: f"K({x},{y})-({x + 1},{y})" for u, (x, y) in kings.items()}
            for user_id, text in user_orders.items():
                await service.submit_order(big, user_id=user_id, text=text)
            ending = time.perf_counter()
            result = await service.resolve_now(big, actor=MODERATOR)
            assert result.resolved and result.ended, result
        else:
            ending = time.perf_counter()
            await service.end_game(big, actor=MODERATOR)
        ended_in = time.perf_counter() - ending
        await asyncio.sleep(0.2)
        stop.set()
        latencies = sorted(await prober)
        during = time.perf_counter() - started
        async with store.snapshot_read() as q:
            timelapses = [p for p in await q.posts(big) if p.kind == "timelapse"]
        made = timelapses and timelapses[0].attachment and timelapses[0].attachment[:4] == b"GIF8"
        print(f"{how}: the game ended in {ended_in:.1f} s; {len(latencies)} orders to the other game in "
              f"{during:.1f} s: median {statistics.median(latencies) * 1000:.1f} ms, "
              f"p99 {percentile(latencies, 99) * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms "
              f"(goal: under 100 ms); timelapse {'in the outbox' if made else 'MISSING'}")
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--updates", type=int, default=10, help="updates played before the game ends")
    parser.add_argument("--quick", action="store_true", help="100 players, 4 updates")
    parser.add_argument("--only", choices=("end", "last"), help="one of the two endings")
    args = parser.parse_args()
    if args.quick:
        args.players, args.updates = 100, 4
    ways = {"end": "/game end", "last": "last update"}
    with tempfile.TemporaryDirectory() as folder:
        for key, how in ways.items():
            if args.only in (None, key):
                asyncio.run(run(args.players, args.updates, how, folder))


if __name__ == "__main__":
    main()
