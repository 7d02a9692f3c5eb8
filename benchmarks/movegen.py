#!/usr/bin/env python3
"""Movement-generation benchmark: prints speed and memory numbers, never asserts a timing.

    .venv/bin/python benchmarks/movegen.py            # full run (about a minute; also `make bench`)
    .venv/bin/python benchmarks/movegen.py --quick    # short run (about 15 s, mostly building boards)
    .venv/bin/python benchmarks/movegen.py --profile  # also cProfile the attack queries

What it measures (standard library and the project only):

1. destinations per second on dense 8x8 positions: the chess starting position and a middlegame,
   with the ``neisg`` piece table on bounds ((0,0),(7,7)); every piece's ``destinations`` summed
   over repeated runs, divided by the time taken;
2. a rider's (queen's, rook's) move list within a 32-square window, ``destinations(position,
   piece, window=32)``, on an unbounded board holding 100,000 pieces scattered uniformly (seeded)
   over a 2,000 x 2,000 area and over a 1,000,000 x 1,000,000 one; median of many runs; and the
   peak memory (tracemalloc) of building each board (the first only with --quick);
3. one "is this square attacked" query at random squares of those boards: ``attacked(position,
   square, by=<enemy of owner>)`` (yes or no, stopping at the first attacker), ``attackers(position,
   square)`` (the sorted list of every attacker) and validation's ``square_attacked_by_enemy``
   (built on ``attackers``); median, p90 and p99; then a rook alone on its line with the target 1
   to 100,000 squares away, to show the cost does not depend on distance.

Goal: the attack query under 50 microseconds median, independent of distance. The goal check at
the end shows each of the three functions against it; ``attacked`` is the yes/no query itself.

Timings use time.perf_counter_ns around each call; the garbage collector is paused during timed
loops (and run before them) so that a collection of the 100,000-piece board does not land inside
one sample. Numbers depend on the machine and its load: compare runs on one machine. The last line
gives the run's CPU share: well under 100% means other processes took the CPU and the timings are
inflated.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import platform
import pstats
import random
import sys
import time
import tracemalloc
from contextlib import nullcontext
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # runnable without installing the project

from bot.engine.board import Board  # noqa: E402
from bot.engine.model import Piece, Square  # noqa: E402
from bot.engine.movement import Position, attacked, attackers, destinations  # noqa: E402
from bot.engine.ruleset import Ruleset, load_preset  # noqa: E402
from bot.engine.validation import square_attacked_by_enemy  # noqa: E402

GOAL_US = 50.0
SEED = 20240611
PIECES = 100_000
WINDOW = 32
PLAYERS = tuple(f"player{i}" for i in range(8))

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
MIDDLEGAME_FEN = "r2q1rk1/pp2bppp/2n1bn2/3p4/3P4/2NBBN2/PP3PPP/R2Q1RK1"  # a Queen's Gambit middlegame


# ----------------------------------------------------------------------------- helpers
from _timing import gc_paused, percentile  # noqa: E402  (benchmarks/ is on sys.path as the script's folder)



def us(ns: float) -> str:
    return f"{ns / 1000:9.2f} µs"


def time_calls(fn: Callable[[object], object], args: list, repeat: int = 1, pause_gc: bool = True) -> list[int]:
    """Nanoseconds of each call ``fn(arg)``, every arg ``repeat`` times, sorted."""
    clock = time.perf_counter_ns
    samples: list[int] = []
    with gc_paused() if pause_gc else nullcontext():
        for _ in range(repeat):
            for arg in args:
                t0 = clock()
                fn(arg)
                samples.append(clock() - t0)
    samples.sort()
    return samples


def summary(samples: list[int]) -> str:
    mean = sum(samples) / len(samples)
    return (f"median {us(percentile(samples, 50))}  p90 {us(percentile(samples, 90))}  "
            f"p99 {us(percentile(samples, 99))}  mean {us(mean)}  (n={len(samples)})")


def timer_overhead() -> int:
    return percentile(time_calls(lambda _: None, [None] * 20_000), 50)


# ----------------------------------------------------------------------------- 1. dense 8x8
def fen_board(fen: str) -> Board:
    """Pieces of a FEN placement field on a bounded 8x8 board: x = file 0..7, y = rank 0..7."""
    board = Board(bounds=((0, 0), (7, 7)))
    next_id = 1
    for row, text in enumerate(fen.split("/")):
        y = 7 - row
        x = 0
        for ch in text:
            if ch.isdigit():
                x += int(ch)
                continue
            owner = "White" if ch.isupper() else "Black"
            board.add(Piece(next_id, ch.upper(), owner, (x, y), moved=(y not in (0, 1, 6, 7))))
            next_id += 1
            x += 1
    return board


def bench_dense(ruleset: Ruleset, runs: int) -> None:
    print("1. Destinations per second on a dense 8x8 board (neisg pieces, bounds ((0,0),(7,7)))")
    print("   note: neisg pawns go toward +y for both sides; every piece's destinations, window=None")
    for label, fen in (("start position", START_FEN), ("middlegame", MIDDLEGAME_FEN)):
        board = fen_board(fen)
        position = Position(ruleset, board)
        pieces = list(board)
        per_run = sum(len(destinations(position, p, window=None)) for p in pieces)  # also warms caches
        clock = time.perf_counter_ns
        run_times: list[int] = []
        with gc_paused():
            for _ in range(runs):
                t0 = clock()
                total = 0
                for piece in pieces:
                    total += len(destinations(position, piece, window=None))
                run_times.append(clock() - t0)
        elapsed_s = sum(run_times) / 1e9
        run_times.sort()
        median_s = percentile(run_times, 50) / 1e9
        print(f"   {label:15s} {len(pieces)} pieces, {per_run} destinations per run, {runs} runs in {elapsed_s:.2f} s:")
        print(f"   {'':15s} {per_run * runs / elapsed_s:10,.0f} destinations/s "
              f"({len(pieces) * runs / elapsed_s:,.0f} move lists/s); at the median run "
              f"{per_run / median_s:,.0f} destinations/s, one whole position in {us(median_s * 1e9).strip()}")
    print()


# ----------------------------------------------------------------------------- 2. the big board
def scatter(rng: random.Random, count: int, width: int, kinds: list[str]) -> list[tuple[int, str, str, Square]]:
    """``count`` pieces on distinct squares drawn uniformly from a width x width area centred on 0."""
    half = width // 2
    squares: set[Square] = set()
    while len(squares) < count:
        squares.add((rng.randrange(-half, width - half), rng.randrange(-half, width - half)))
    ordered = sorted(squares)
    rng.shuffle(ordered)
    return [(i + 1, rng.choice(kinds), rng.choice(PLAYERS), sq) for i, sq in enumerate(ordered)]


def build_board(specs: list[tuple[int, str, str, Square]]) -> Board:
    board = Board()
    for pid, kind, owner, square in specs:
        board.add(Piece(pid, kind, owner, square))
    return board


def empty_squares(rng: random.Random, board: Board, width: int, count: int) -> list[Square]:
    half = width // 2
    out: list[Square] = []
    while len(out) < count:
        sq = (rng.randrange(-half, width - half), rng.randrange(-half, width - half))
        if not board.occupied(sq):
            out.append(sq)
    return out


def bench_rider_window(position: Position, rng: random.Random, width: int, origins: int, repeat: int) -> None:
    board = position.board
    next_id = max(p.id for p in board) + 1
    for letter in ("Q", "R"):
        samples: list[int] = []
        counts: list[int] = []
        with gc_paused():
            for square in empty_squares(rng, board, width, origins):
                probe = Piece(next_id, letter, "prober", square, moved=True)
                board.add(probe)
                counts.append(len(destinations(position, probe, window=WINDOW)))  # warms the rays cache
                samples.extend(time_calls(lambda p: destinations(position, p, window=WINDOW), [probe], repeat,
                                          pause_gc=False))
                board.remove(probe.id)
        samples.sort()
        name = "queen" if letter == "Q" else "rook "
        print(f"   {name} destinations(window={WINDOW}): {summary(samples)}; "
              f"{sum(counts) / len(counts):.1f} squares listed on average")


def enemy_of(position: Position, owner: str) -> Callable[[Piece], bool]:
    return lambda p: position.enemies(p.owner, owner)


def bench_attack_queries(position: Position, rng: random.Random, width: int, queries: int,
                         profile: bool) -> dict[str, float]:
    half = width // 2
    squares = [(rng.randrange(-half, width - half), rng.randrange(-half, width - half)) for _ in range(queries)]
    owners = [rng.choice(PLAYERS) for _ in range(queries)]
    triples = [(s, o, enemy_of(position, o)) for s, o in zip(squares, owners)]
    yes = sum(1 for s, o, by in triples if attacked(position, s, by))  # also warms the caches
    yes_samples = time_calls(lambda t: attacked(position, t[0], t[2]), triples)
    some = sum(1 for s in squares if attackers(position, s))
    all_samples = time_calls(lambda s: attackers(position, s), squares)
    enemy_samples = time_calls(lambda t: square_attacked_by_enemy(position, t[0], t[1]), triples)
    print(f"   attacked(position, sq, by=enemy of owner)     {summary(yes_samples)}; "
          f"{yes / queries:.0%} attacked by an enemy")
    print(f"   attackers(position, square)                   {summary(all_samples)}; "
          f"{some / queries:.0%} attacked by anyone")
    print(f"   square_attacked_by_enemy(position, sq, owner) {summary(enemy_samples)}")
    if profile:
        for name, fn in (("attacked", lambda t: attacked(position, t[0], t[2])),
                         ("attackers", lambda t: attackers(position, t[0]))):
            profiler = cProfile.Profile()
            profiler.enable()
            for t in triples:
                fn(t)
            profiler.disable()
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(10)
            print(f"   cProfile of {name}() on these squares (tottime order):")
            for line in out.getvalue().splitlines():
                if line.strip() and not line.startswith(("   Ordered by", "   List reduced")):
                    print("     " + line)
    return {"attacked": percentile(yes_samples, 50) / 1000, "attackers": percentile(all_samples, 50) / 1000,
            "square_attacked_by_enemy": percentile(enemy_samples, 50) / 1000}


def bench_big_boards(ruleset: Ruleset, args: argparse.Namespace) -> list[tuple[str, dict[str, float]]]:
    kinds = [k.letter for k in ruleset.pieces.values() if not (k.has("obstacle") or k.has("void"))]
    results = []
    for width in (2_000, 1_000_000):
        rng = random.Random(f"{SEED}-{width}")
        specs = scatter(rng, PIECES, width, kinds)
        print(f"2./3. {PIECES:,} pieces scattered uniformly over a {width:,} x {width:,} area "
              f"(unbounded neisg board, {len(kinds)} kinds, {len(PLAYERS)} players, seed {SEED})")
        gc.collect()
        t0 = time.perf_counter_ns()
        board = build_board(specs)
        build_ns = time.perf_counter_ns() - t0
        print(f"   build: {build_ns / 1e9:.2f} s")
        if width == 2_000 or not args.quick:
            del board
            gc.collect()
            tracemalloc.start()
            board = build_board(specs)
            current, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            print(f"   memory (tracemalloc, building the board): peak {peak / 2**20:.1f} MiB, "
                  f"kept {current / 2**20:.1f} MiB ({current / PIECES:.0f} bytes per piece)")
        position = Position(ruleset, board)
        print(f"   2. rider move lists in a {WINDOW}-square window, each timed alone")
        bench_rider_window(position, rng, width, args.origins, args.repeat)
        print(f"   3. one attack query at {args.queries:,} random squares")
        medians = bench_attack_queries(position, rng, width, args.queries, args.profile)
        results.append((f"{width:,}-wide", medians))
        if width == 1_000_000:
            bench_distance_on(position, board, rng, args, label="on this board, a rook alone on an empty row")
        del position, board
        gc.collect()
        print()
    return results


# ----------------------------------------------------------------------------- 3. distance
def bench_distance_on(position: Position, board: Board, rng: random.Random, args: argparse.Namespace,
                      label: str) -> None:
    """A rook at (x0, y) with nothing else on row y; targets 1 .. 100,000 squares to its right."""
    distances = (1, 10, 100, 1_000, 10_000, 100_000)
    while True:
        y = rng.randrange(-400_000, 400_000)
        if not any(True for _ in board.occupied_along((-2_000_000, y), (1, 0))):
            break
    x0 = -200_000
    rook = Piece(max((p.id for p in board), default=0) + 1, "R", "rookie", (x0, y), moved=True)
    board.add(rook)
    print(f"   {label} ({x0},{y}); target d squares to its right:")
    print(f"   {'d':>9}  {'attacked() median':>17}  {'p90':>12}  {'attackers() median':>18}  {'p90':>12}  "
          f"attackers() == [the rook]")
    by = enemy_of(position, "victim")
    for d in distances:
        target = (x0 + d, y)
        found = attackers(position, target)
        yes = time_calls(lambda s: attacked(position, s, by), [target], args.distance_repeat)
        every = time_calls(lambda s: attackers(position, s), [target], args.distance_repeat)
        print(f"   {d:>9,}  {us(percentile(yes, 50)):>17}  {us(percentile(yes, 90)):>12}  "
              f"{us(percentile(every, 50)):>18}  {us(percentile(every, 90)):>12}  "
              f"{[p.id for p in found] == [rook.id]}")
    board.remove(rook.id)


def bench_distance_empty(ruleset: Ruleset, args: argparse.Namespace) -> None:
    print("3. Distance: a rook alone on an otherwise empty unbounded board")
    board = Board()
    position = Position(ruleset, board)
    rng = random.Random(SEED)
    bench_distance_on(position, board, rng, args, label="a lone rook at")
    print()


# ----------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run with fewer repetitions")
    parser.add_argument("--profile", action="store_true", help="cProfile the attack query on the big boards")
    args = parser.parse_args(argv)
    args.dense_runs = 30 if args.quick else 300
    args.origins = 100 if args.quick else 500
    args.repeat = 1 if args.quick else 3
    args.queries = 2_000 if args.quick else 20_000
    args.distance_repeat = 200 if args.quick else 2_000

    wall0, cpu0 = time.perf_counter(), time.process_time()
    ruleset = load_preset("neisg")
    print(f"Skirmish movegen benchmark ({'quick' if args.quick else 'full'} run): Python "
          f"{platform.python_version()} on {platform.machine()}, {platform.system()}")
    print(f"Goal: the attack query under {GOAL_US:.0f} µs median, independent of distance.")
    print(f"Timer overhead (an empty call): {us(timer_overhead()).strip()}, not subtracted; "
          "GC paused inside timed loops.")
    print()
    bench_dense(ruleset, args.dense_runs)
    bench_distance_empty(ruleset, args)
    results = bench_big_boards(ruleset, args)
    print("Goal check (median of one attack query on the 100,000-piece boards):")
    for label, medians in results:
        for name, value in medians.items():
            verdict = "met" if value < GOAL_US else "NOT met"
            print(f"   {label:>17} board, {name:24s} {value:8.2f} µs  goal < {GOAL_US:.0f} µs: {verdict}")
    print("   distance: compare the d = 1 and d = 100,000 rows of the tables above.")
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    print(f"Run: {wall:.1f} s wall clock, {cpu:.1f} s CPU ({cpu / wall:.0%})"
          + ("" if cpu / wall > 0.9 else ": the machine was busy, so these timings are inflated; run again on a quiet machine"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
