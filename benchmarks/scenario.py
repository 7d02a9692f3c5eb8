"""How long the ``scenario`` command takes next to reading its input: `python benchmarks/scenario.py`.

What is timed (issue 18, item 5). The *scenario command* is what ``python -m bot.engine scenario
FILE`` does with one file, run in this process: ``bot.engine.__main__.main(["scenario", FILE])``,
that is reading and checking the file (``load_scenario``), resolving its update, comparing the
result with its ``[expect]`` and printing ``PASS FILE`` (printed into a buffer here). Interpreter
start-up and imports are left out: they do not grow with the file. The *reading of its input* is
``tomllib.load`` of the same file, the least any TOML scenario reader must do. Both are timed in
the same run, alternately, with the garbage collector as it normally runs; the medians of a few
repetitions are compared.

The file: a neisg position of 1,000 players and 50,000 pieces made as in ``benchmarks/resolve.py``
(armies on an unbounded board, every kind of the piece table), every player ordering (a capture
where one is legal, else a move; one in ten a generation far away), and an ``[expect]`` with the
whole board after the update and every player's balance, so that the comparison does its full work
and the file passes. It is written in the catalogue's style (one ``[[pieces]]`` table a piece) to a
temporary folder that is removed afterwards.

Prints both times and their ratio, then where one more run of the command spends its time (reading
and checking the file, the update, the comparison); exits with status 1 when the ratio is above the
goal (3), so it can be run by hand in CI. ``--quick`` uses 100 players / 5,000 pieces and one
repetition. The machine is shared and noisy: the ratio of medians moves by a few tenths between
runs.

Measured on the project's shared 2-core machine (1,000 players / 50,000 pieces, tomllib.load about
1.3 s): 2.9x to 3.5x before issue 18's work (the loader rebuilt the set of player names for every
piece, a board was built square by square, the comparison searched a list), 2.4x after. What is
left beyond parsing is mostly the update itself: a hand-made position has no check states of the
engine's own, so step 10 evaluates every one of the 50,000 pieces (``checks.evaluate``,
``movement.iter_attackers``).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import random
import statistics
import sys
import tempfile
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from resolve import build, orders_for  # noqa: E402  (benchmarks/resolve.py: the same armies)

from bot.engine.__main__ import main as engine_main  # noqa: E402
from bot.engine.model import format_amount  # noqa: E402
from bot.engine.runner import compare, run_scenario  # noqa: E402
from bot.engine.scenario import load_scenario  # noqa: E402
from bot.engine.state import GameState  # noqa: E402

GOAL = 3.0


def _piece_fields(piece) -> list[str]:
    fields = [f'kind = "{piece.kind}"', f"at = [{piece.square[0]}, {piece.square[1]}]"]
    if piece.owner is not None:
        fields.insert(0, f'owner = "{piece.owner}"')
    if piece.check != "none":
        fields.append(f'check = "{piece.check}"')
    return fields


def position_text(state: GameState, orders: dict[str, str]) -> str:
    """The position and orders as a scenario file, without ``[expect]``."""
    lines = ['ruleset = "neisg"', f"update = {state.update}", "seed = 1",
             f'description = "benchmark: {len(state.players)} players, {len(state.board)} pieces"']
    for name in sorted(state.players):
        player = state.players[name]
        lines += ["", "[[players]]", f'name = "{name}"', f'colour = "{player.colour}"',
                  f"balance = {format_amount(player.balance)}"]
    for piece in sorted(state.board, key=lambda p: p.canonical_key):
        lines += ["", "[[pieces]]", *_piece_fields(piece)]
    lines += ["", "[orders]", *(f'{name} = "{order}"' for name, order in sorted(orders.items()))]
    return "\n".join(lines) + "\n"


def expect_text(state: GameState) -> str:
    """``[expect]``: the whole board after the update (with check states) and every balance."""
    pieces = sorted(state.board, key=lambda p: p.canonical_key)
    lines = ["", "[expect]", "pieces = ["]
    lines += ["  { " + ", ".join(_piece_fields(p) + ([] if p.check != "none" else ['check = "none"'])) + " },"
              for p in pieces]
    lines.append("]")
    balances = ", ".join(f"{name} = {format_amount(p.balance)}" for name, p in sorted(state.players.items()))
    lines.append(f"balances = {{ {balances} }}")
    return "\n".join(lines) + "\n"


def write_scenario(folder: Path, players: int, pieces: int) -> Path:
    state = build(players, pieces)
    orders = orders_for(state, random.Random(1))
    path = folder / f"neisg-{players}-players.toml"
    position = position_text(state, orders)
    path.write_text(position, encoding="utf-8")
    # The expectation is what the engine makes of the file itself: run it once without [expect].
    outcome = run_scenario(load_scenario(path))
    path.write_text(position + expect_text(outcome.state), encoding="utf-8")
    return path


def run_command(path: Path) -> float:
    out = io.StringIO()
    gc.collect()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(out):
        status = engine_main(["scenario", str(path)])
    elapsed = time.perf_counter() - t0
    if status != 0:
        sys.exit(f"the scenario command did not pass the generated file (status {status}):\n"
                 + out.getvalue()[:2000])
    return elapsed


def read_toml(path: Path) -> float:
    gc.collect()
    t0 = time.perf_counter()
    with path.open("rb") as handle:
        tomllib.load(handle)
    return time.perf_counter() - t0


def breakdown(path: Path) -> str:
    """One more run of the command's parts, timed apart."""
    gc.collect()
    t0 = time.perf_counter()
    scenario = load_scenario(path)
    t1 = time.perf_counter()
    outcome = run_scenario(scenario)
    t2 = time.perf_counter()
    compare(scenario, outcome.state, outcome.report)
    t3 = time.perf_counter()
    return (f"one run in parts: load_scenario {t1 - t0:.2f} s (tomllib included), update and comparison "
            f"{t2 - t1:.2f} s (the comparison alone {t3 - t2:.2f} s)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 players / 5,000 pieces, one repetition")
    parser.add_argument("--repeats", type=int, default=5, help="repetitions of each timing (default 5)")
    args = parser.parse_args()
    players, pieces, repeats = (100, 5_000, 1) if args.quick else (1_000, 50_000, args.repeats)
    with tempfile.TemporaryDirectory(prefix="skirmish-bench-") as folder:
        t0 = time.perf_counter()
        path = write_scenario(Path(folder), players, pieces)
        size = path.stat().st_size
        print(f"scenario file: {players:,} players / {pieces:,} pieces, {size / 2**20:.1f} MiB, "
              f"{path.read_text(encoding='utf-8').count(chr(10)):,} lines (made in {time.perf_counter() - t0:.1f} s)")
        command, reading = [], []
        for _ in range(repeats):
            reading.append(read_toml(path))
            command.append(run_command(path))
        parts = breakdown(path)
    read_median, command_median = statistics.median(reading), statistics.median(command)
    ratio = command_median / read_median
    print(f"tomllib.load of the file:   median {read_median:.2f} s (min {min(reading):.2f}, max {max(reading):.2f})")
    print(f"scenario command (in-process): median {command_median:.2f} s (min {min(command):.2f}, "
          f"max {max(command):.2f})")
    print(parts)
    print(f"ratio: {ratio:.2f}x (goal: at most {GOAL:g}x) - {'ok' if ratio <= GOAL else 'ABOVE THE GOAL'}")
    return 0 if ratio <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
