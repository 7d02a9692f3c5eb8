"""The whole update as the bot runs it: `python benchmarks/update.py [--quick] [--rounds N] [--store-url URL]`.

From the deadline to every post in the outbox, through one :class:`Service` on one event loop, as
the scheduler calls it (``resolve_if_due``): claim and load, the engine, the pictures and texts
(board, health board, report, each player's private report, the timelapse frame), the snapshot and
the orders' outcomes, the outbox. For 100 players / 5,000 pieces and 1,000 / 50,000 (the position
of benchmarks/resolve.py, settled by four updates of the engine, then stored as the game's
snapshot; every player joined through the service and sends an order through ``submit_order``).

Each round, with every player ordering, prints:

- the engine's own time for the same position and orders, measured in the same run just before
  (``resolve_frozen``, as the service calls it, on this thread);
- the service's update end to end and each stage (``Resolution.stages``: load, resolve, render,
  store, outbox);
- the event loop's longest block meanwhile: a ticker task sleeps 1 ms again and again and records
  how late it wakes (a stage that runs on the loop, or a thread holding the interpreter lock in one
  long C call, shows here);
- the peak memory of the process during the update (Linux: the high-water mark of its resident
  size, reset just before; ``VmHWM`` after ``clear_refs``), and how much it rose above the size
  before the update.

Then the medians of the rounds, and a restarted bot's first order (the position read again from the
database), with the loop's longest block meanwhile. Budget (issue 38): the 1,000-player update end
to end in under 2 s; the loop never blocked more than 50 ms. (Issue 25 aimed at twice the engine's
own time; issue 38 made the budget an absolute one and removed the render pool, which the budget
does not need: the ratio is printed as a figure.)
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

from _timing import reset_peak, status_kib  # noqa: E402
from resolve import build, orders_for  # noqa: E402
from submit import MODERATOR, colours  # noqa: E402

from bot.engine import serialize  # noqa: E402
from bot.engine.resolution import resolve  # noqa: E402
from bot.engine.ruleset import load_preset  # noqa: E402
from bot.engine.state import GameState  # noqa: E402
from bot.service import Service  # noqa: E402
from bot.service.updates import resolve_frozen  # noqa: E402
from bot.store import Store  # noqa: E402

STAGES = ("load", "resolve", "render", "store", "outbox")
TICK = 0.001


def settled_position(players: int, pieces: int) -> GameState:
    """benchmarks/resolve.py's position with real colours, after four updates of the engine (check
    states of the hand-made position settle, as in a game grown by play)."""
    ruleset = load_preset("neisg")
    state = build(players, pieces, colours=colours(players))
    rng = random.Random(1)
    for _ in range(4):
        state, _ = resolve(ruleset, state, orders_for(state, rng), seed=1)
    return state


async def set_up(service: Service, state: GameState) -> tuple[int, dict[str, int]]:
    """A running neisg game whose players joined through the service and whose current snapshot is
    ``state`` (stored as the snapshot of the update before ``state.update``); returns the game id
    and each player's user id."""
    game = await service.create_game(guild_id=1, channel_id=1, actor=MODERATOR, name="update benchmark", seed=1)
    await service.start_game(game.id, actor=MODERATOR)
    user_ids = {}
    for index, name in enumerate(sorted(state.players)):
        user_ids[name] = 1000 + index
        await service.join(game.id, user_id=user_ids[name], name=name, colour=state.players[name].colour)
    async with service.store.transaction() as q:
        current = await q.game(game.id)
        await q.insert_snapshot(game_id=game.id, update_no=state.update - 1, revision=0, base_revision=None,
                                state=serialize.dumps(state), orders={}, seed=current.seed, report=None,
                                reason="edit: benchmark position", created_at=service.now())
        await q.update_game(game.id, update_no=state.update, snapshot_update=state.update - 1, snapshot_revision=0)
    service._forget_state(game.id)
    return game.id, user_ids


class LoopWatch:
    """A task that sleeps ``TICK`` again and again and keeps the longest lateness of its wake-ups."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._task: asyncio.Task | None = None

    async def _tick(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(TICK)
            self.longest = max(self.longest, time.perf_counter() - asked - TICK)

    def __enter__(self) -> "LoopWatch":
        self._task = asyncio.get_running_loop().create_task(self._tick())
        return self

    def __exit__(self, *exc) -> None:
        self._task.cancel()


async def one_round(service: Service, game_id: int, user_ids: dict[str, int], rng: random.Random) -> dict:
    game = await service.get_game(game_id)
    ruleset = service.ruleset(game)
    async with service.store.snapshot_read() as q:
        state = await service._working_state(q, game)
    orders = orders_for(state, rng)
    for name, text in orders.items():
        await service.submit_order(game_id, user_id=user_ids[name], text=text)
    began = time.perf_counter()
    new_state, _ = resolve_frozen(ruleset, state, orders, game.seed)
    engine = time.perf_counter() - began
    del new_state
    await asyncio.sleep(0.05)
    before = reset_peak()
    with LoopWatch() as watch:
        await asyncio.sleep(0.01)
        result = await service.resolve_if_due(game_id, game.update_no, force=True)
        await asyncio.sleep(0.01)
    peak = status_kib("VmHWM")
    assert result.resolved, result
    async with service.store.snapshot_read() as q:
        posts = [p for p in await q.posts(game_id) if p.update_no == game.update_no]
    kinds = {}
    for post in posts:
        kinds[post.kind] = kinds.get(post.kind, 0) + 1
    return {"engine": engine, **result.stages, "block": watch.longest, "orders": len(orders),
            "peak": None if peak is None else peak / 1024, "rise": None if peak is None or before is None
            else (peak - before) / 1024, "posts": kinds}


async def after_restart(store: Store, game_id: int, user_ids: dict[str, int]) -> None:
    """A restarted bot (a new Service, nothing cached): its first order reads the position from
    the database, off the event loop."""
    service = Service(store)
    game = await service.get_game(game_id)
    async with service.store.snapshot_read() as q:
        state = serialize.loads((await q.snapshot(game.id, game.snapshot_update, game.snapshot_revision)).state)
    name, text = next(iter(orders_for(state, random.Random(9)).items()))
    service = Service(store)
    with LoopWatch() as watch:
        await asyncio.sleep(0.01)
        began = time.perf_counter()
        await service.submit_order(game_id, user_id=user_ids[name], text=text)
        took = time.perf_counter() - began
        await asyncio.sleep(0.01)
    print(f"  after a restart, the first order (the position read from the database) is confirmed in "
          f"{took * 1000:.0f} ms; event loop blocked at most {watch.longest * 1000:.0f} ms")


def show(label: str, figures: dict) -> None:
    ms = lambda seconds: f"{seconds * 1000:.0f} ms"  # noqa: E731
    stages = ", ".join(f"{name} {ms(figures.get(name, 0.0))}" for name in STAGES)
    memory = ("" if figures["peak"] is None else
              f"; peak memory {figures['peak']:.0f} MiB (+{figures['rise']:.0f} MiB during the update)")
    print(f"  {label}: engine alone {ms(figures['engine'])}; service end to end {ms(figures['total'])} "
          f"= {figures['total'] / figures['engine']:.1f} x the engine ({stages}); event loop blocked at most "
          f"{ms(figures['block'])}{memory}")


async def run(players: int, pieces: int, rounds: int, folder: str, store_url: str | None = None) -> None:
    began = time.perf_counter()
    state = settled_position(players, pieces)
    store = await Store.open(store_url or Path(folder) / f"update_{players}.sqlite3")
    try:
        service = Service(store)
        game_id, user_ids = await set_up(service, state)
        print(f"{players} players / {len(state.board)} pieces (set up in {time.perf_counter() - began:.0f} s)")
        rng = random.Random(3)
        results = []
        for number in range(1, rounds + 1):
            figures = await one_round(service, game_id, user_ids, rng)
            results.append(figures)
            show(f"round {number}, {figures['orders']} orders", figures)
        posts = results[-1]["posts"]
        print("  posts of the last update in the outbox: "
              + ", ".join(f"{count} {kind}" for kind, count in sorted(posts.items())))
        median = {key: statistics.median(r[key] for r in results)
                  for key in ("engine", "total", "block", *STAGES) if all(key in r for r in results)}
        median["peak"] = None if results[0]["peak"] is None else statistics.median(r["peak"] for r in results)
        median["rise"] = None if results[0]["rise"] is None else statistics.median(r["rise"] for r in results)
        show(f"median of {rounds}", median)
        await after_restart(store, game_id, user_ids)
        ratio = median["total"] / median["engine"]
        if players >= 1_000:    # the budget is the large game's; a small one's update is mostly fixed costs
            print(f"  budget (issue 38): end to end under 2 s: {'met' if median['total'] < 2 else 'NOT met'} "
                  f"({median['total']:.2f} s); loop blocked at most 50 ms: "
                  f"{'met' if median['block'] <= 0.05 else 'NOT met'}")
            print(f"  end to end / the engine: {ratio:.1f} x (issue 25's aim of at most 2 x, met at 1.9 x with the "
                  "render pool, gave way to issue 38's budget: the pool went, docs/service.md)")
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only 100 players / 5,000 pieces")
    parser.add_argument("--rounds", type=int, default=3, help="updates timed per size (default 3)")
    parser.add_argument("--only", type=int, choices=(100, 1000), help="one size")
    parser.add_argument("--store-url", metavar="URL", help="an empty database to run on instead of a SQLite file "
                        "(e.g. postgresql://postgres@127.0.0.1:5432/bench; with --quick or --only)")
    args = parser.parse_args()
    if args.store_url and not (args.quick or args.only):
        parser.error("--store-url needs --quick or --only: one size per database")
    print("The update from the deadline to every post in the outbox, as the service runs it")
    sizes = [(100, 5_000)] if args.quick else [(100, 5_000), (1_000, 50_000)]
    with tempfile.TemporaryDirectory() as folder:
        for players, pieces in sizes:
            if args.only in (None, players):
                asyncio.run(run(players, pieces, args.rounds, folder, args.store_url))


if __name__ == "__main__":
    main()
