"""How long a board image takes, and how big it is: `python benchmarks/render.py`.

Three cases (issue "Rendering"): a 40 x 40 region with 300 pieces, a 200 x 100 region with 5,000
pieces (goal: under 1.5 s) and the overview of 100,000 pieces in 200 armies spread over two
million squares each way. Every image must stay under 8 MB and 4,096 pixels a side. Each case is
rendered once cold (the piece masks of that size are drawn on first use in a process) and then
timed as the best of three.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "docs" / "images"))

from bot.engine.model import Player  # noqa: E402
from bot.engine.ruleset import load_preset  # noqa: E402
from bot.engine.state import GameState, LastMove  # noqa: E402
from bot.render.board import MAX_BYTES, MAX_SIDE, render_board  # noqa: E402
from bot.render.palette import colour_names  # noqa: E402
from make_images import armies  # noqa: E402

KINDS = ["P", "P", "P", "P", "N", "B", "R", "Q", "G", "L", "E", "U", "Sp", "Ab", "C", "H", "Ht", "D", "Dr"]


def filled(width: int, height: int, count: int, players: int, seed: int = 5):
    """``count`` pieces on distinct random squares of a ``width`` x ``height`` region, some with
    states (check, disabled), and one last move per player."""
    ruleset = load_preset("neisg")
    rng = random.Random(seed)
    names = colour_names()
    people = [Player(f"p{i:02d}", names[i % len(names)]) for i in range(players)]
    squares = rng.sample([(x, y) for x in range(width) for y in range(height)], count)
    pieces = []
    for index, square in enumerate(squares):
        check = rng.choice(["none", "none", "none", "fresh", "capturable"])
        pieces.append(dict(owner=people[index % players].name, kind="K" if index < players else rng.choice(KINDS),
                           square=square, check=check, disabled=rng.random() < 0.05))
    moves = tuple(LastMove((x, max(0, y - 2)), (x, y)) for x, y in squares[:players])
    return ruleset, GameState.build(ruleset, pieces, people, moved_last_update=moves)


def measure(label: str, ruleset, state, **kwargs) -> None:
    start = time.perf_counter()
    rendered = render_board(ruleset, state, **kwargs)
    cold = time.perf_counter() - start
    times = []
    for _ in range(3):
        start = time.perf_counter()
        rendered = render_board(ruleset, state, **kwargs)
        times.append(time.perf_counter() - start)
    ok = len(rendered.png) <= MAX_BYTES and max(rendered.width, rendered.height) <= MAX_SIDE
    kind = "overview" if rendered.layout.overview else f"{rendered.layout.scale} px/square"
    print(f"{label:<34} {min(times):6.2f} s (cold {cold:5.2f} s)  {len(rendered.png) / 1e6:5.2f} MB  "
          f"{rendered.width} x {rendered.height} px, {kind}  {'ok' if ok else 'OVER THE LIMITS'}")


def main() -> None:
    ruleset, state = filled(40, 40, 300, 12)
    measure("40 x 40 region, 300 pieces", ruleset, state, region=(0, 0, 39, 39))
    ruleset, state = filled(200, 100, 5000, 60)
    measure("200 x 100 region, 5,000 pieces", ruleset, state, region=(0, 0, 199, 99))
    ruleset, state = armies()
    measure("overview, 100,000 pieces", ruleset, state)


if __name__ == "__main__":
    main()
