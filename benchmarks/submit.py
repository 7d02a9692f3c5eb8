"""How fast orders are confirmed under load: `python benchmarks/submit.py [--players N] [--spread S]`.

Sets up a neisg game in a fresh SQLite file with N players (default 1,000) who joined and placed
their kings in update 1, so every order of update 2 is a real king move validated against a board of
N kings. All through one Service on one event loop, as the bot's, each player an asyncio task that
sleeps until its arrival time. Four rounds:

1. spread out: each player orders once, the arrival times uniform over S seconds (default 10);
2. all at once, replacing (D6): every player sends a new order at the same instant;
3. all at once, the first orders of the next update (update 2 is resolved first);
4. all at once, twice each: every player sends two orders at the same instant (the later must win).

Each round prints the median, p99 and longest time from submission to confirmation and the
throughput, and proves that nothing was lost, duplicated or reordered: the live orders in the
database are exactly each player's last confirmed one, every earlier one superseded, each stored once.
Goals: issue "Service 1/2": median under 20 ms spread out; issue 25: a burst of 1,000 at 5,000
orders/s or more with a median under 100 ms (before: 575 orders/s, median 944 ms, p99 1.7 s),
spread out at 100 orders/s a median of 1.4 ms and a p99 of 4.1 ms or better.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _timing import percentile  # noqa: E402

from bot.render.palette import colour_names  # noqa: E402
from bot.service import Moderator, Service  # noqa: E402
from bot.store import Store  # noqa: E402

SPACING = 4          # kings this far apart never attack each other's squares, before or after a step
MODERATOR = Moderator(user_id=1, guild_id=1)


def king_square(index: int, per_row: int) -> tuple[int, int]:
    return (index % per_row) * SPACING, (index // per_row) * SPACING


async def set_up(service: Service, players: int) -> tuple[int, dict[int, tuple[int, int]]]:
    """A running game whose update 1 placed every player's king; returns the game id and the kings."""
    game = await service.create_game(guild_id=1, channel_id=1, actor=MODERATOR, name="submit benchmark", seed=1)
    await service.start_game(game.id, actor=MODERATOR)
    per_row = int(players ** 0.5) + 1
    kings = {}
    for index, colour in enumerate(colours(players)):
        user_id = 1000 + index
        await service.join(game.id, user_id=user_id, name=f"P{index:04d}", colour=colour)
        kings[user_id] = king_square(index, per_row)
        x, y = kings[user_id]
        await service.submit_order(game.id, user_id=user_id, text=f"K({x},{y})")
    result = await service.resolve_now(game.id, actor=MODERATOR)
    assert result.resolved, result
    return game.id, kings


def colours(count: int) -> list[str]:
    """``count`` distinct colours: the listed names, then two-tone pairs (INTERFACES.md)."""
    names = list(colour_names())
    found = names + [f"{a}/{b}" for a in names for b in names if a != b]
    if count > len(found):
        raise SystemExit(f"at most {len(found)} players: there are not enough colours for {count}")
    return found[:count]


async def submit_all(service: Service, game_id: int, orders: dict[int, str], arrivals: dict[int, float]):
    """Each order as a task that sleeps until its arrival; returns latencies (s), receipts and the span."""
    loop = asyncio.get_running_loop()
    start = loop.time() + 0.05
    latencies: dict[int, float] = {}
    receipts: dict[int, str] = {}
    finished: list[float] = []

    async def player(user_id: int) -> None:
        await asyncio.sleep(max(0.0, start + arrivals[user_id] - loop.time()))
        sent = time.perf_counter()
        receipt = await service.submit_order(game_id, user_id=user_id, text=orders[user_id])
        latencies[user_id] = time.perf_counter() - sent
        receipts[user_id] = receipt.canonical
        finished.append(loop.time())

    began = loop.time()
    await asyncio.gather(*(player(user_id) for user_id in orders))
    span = max(finished) - max(began, start + min(arrivals.values()))
    return latencies, receipts, span


async def live_orders(service: Service, game_id: int, update_no: int) -> dict[int, str]:
    async with service.store.snapshot_read() as q:
        return {o.user_id: o.canonical for o in await q.live_orders(game_id, update_no)}


def report(title: str, latencies: dict[int, float], span: float, count: int | None = None) -> None:
    values = sorted(latencies.values())
    count = count or len(values)
    print(f"{title}: {count} orders confirmed in {span:.2f} s ({count / span:.0f} orders/s)")
    print(f"      submit to confirmation: median {statistics.median(values) * 1000:.1f} ms, "
          f"p99 {percentile(values, 99) * 1000:.1f} ms, max {values[-1] * 1000:.1f} ms")


async def audit(service: Service, game_id: int, update_no: int, sent: list[tuple[int, str]]) -> None:
    """Nothing lost, duplicated or reordered: the update's stored orders are exactly the confirmed
    ones, in the order sent, and the live one of each player is the last they sent."""
    async with service.store.snapshot_read() as q:
        stored = [(o.user_id, o.canonical, o.status) for o in await q.orders(game_id, update_no)]
    last = {user_id: text for user_id, text in sent}
    live = {user_id: text for user_id, text, status in stored if status == "pending"}
    in_order = [(u, t) for u, t, _ in stored][-len(sent):] == sent
    superseded = sum(1 for _, _, status in stored if status == "superseded")
    fine = live == last and in_order and superseded == len(stored) - len(last)
    print(f"      stored: {len(stored)} orders, {len(live)} live (each the player's last), {superseded} superseded, "
          f"in the order sent: {'yes' if in_order else 'NO'} ({'none lost' if fine else 'LOST OR REORDERED'})")


async def burst(service: Service, game_id: int, orders: list[tuple[int, str]]):
    """Every order of ``orders`` sent at the same instant, in this order: latencies by order and the span."""
    loop = asyncio.get_running_loop()
    latencies: dict[int, float] = {}
    finished: list[float] = []

    async def send(index: int, user_id: int, text: str) -> None:
        sent = time.perf_counter()
        receipt = await service.submit_order(game_id, user_id=user_id, text=text)
        assert receipt.canonical == text, receipt
        latencies[index] = time.perf_counter() - sent
        finished.append(loop.time())

    began = loop.time()
    await asyncio.gather(*(send(index, user_id, text) for index, (user_id, text) in enumerate(orders)))
    return latencies, max(finished) - began


async def run(players: int, spread: float, seed: int, folder: str) -> None:
    store = await Store.open(Path(folder) / "submit.sqlite3")
    try:
        service = Service(store)
        began = time.perf_counter()
        game_id, kings = await set_up(service, players)
        print(f"set-up: {players} players joined, placed their kings and update 1 resolved in "
              f"{time.perf_counter() - began:.1f} s")
        update_no = (await service.get_game(game_id)).update_no

        rng = random.Random(seed)
        moves = {user_id: f"K({x},{y})-({x + 1},{y})" for user_id, (x, y) in kings.items()}
        arrivals = {user_id: rng.uniform(0, spread) for user_id in kings}
        latencies, receipts, span = await submit_all(service, game_id, moves, arrivals)
        report(f"1. spread over {spread:g} s", latencies, span)
        sent = sorted(moves.items(), key=lambda item: arrivals[item[0]])
        await audit(service, game_id, update_no, sent)

        replacements = [(user_id, f"K({x},{y})-({x},{y + 1})") for user_id, (x, y) in kings.items()]
        latencies, span = await burst(service, game_id, replacements)
        report("2. all at once, replacing (D6)", latencies, span)
        await audit(service, game_id, update_no, replacements)

        assert (await service.resolve_now(game_id, actor=MODERATOR)).resolved
        kings = {user_id: (x, y + 1) for user_id, (x, y) in kings.items()}
        update_no += 1
        firsts = [(user_id, f"K({x},{y})-({x + 1},{y})") for user_id, (x, y) in kings.items()]
        latencies, span = await burst(service, game_id, firsts)
        report(f"3. all at once, the first orders of update {update_no}", latencies, span)
        await audit(service, game_id, update_no, firsts)

        twice = [(user_id, f"K({x},{y})-({x + dx},{y})") for dx in (-1, 1) for user_id, (x, y) in kings.items()]
        rng.shuffle(twice)
        latencies, span = await burst(service, game_id, twice)
        report("4. all at once, twice each (the later wins)", latencies, span)
        await audit(service, game_id, update_no, [*firsts, *twice])
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--spread", type=float, default=10.0, help="seconds over which the orders arrive")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="100 players over 2 seconds")
    args = parser.parse_args()
    if args.quick:
        args.players, args.spread = 100, 2.0
    print(f"submit_order(): {args.players} players, arrivals spread over {args.spread:g} s, then all at once")
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args.players, args.spread, args.seed, folder))


if __name__ == "__main__":
    main()
