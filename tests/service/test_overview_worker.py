"""Issue 25: the overview of a large board is drawn by a worker process from what it shows.

The main process reads the board into an :class:`~bot.render.board.Overview` (each piece's x, y
and owner as numbers, the grid, colours, texts) and packs it; the worker unpacks it, draws and
writes the PNG (render_pool._overview_drawn). The PNG and the layout must be those the board drawn
in one process gives, for every kind of overview: detailed cells, King of the Hill's squares, dots
several owners share, a focus caption, neutral pieces and strangers' pieces, two-tone colours.
"""

from __future__ import annotations

import pickle
import random

import pytest

from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.state import GameState
from bot.engine.variants.base import BoardAdditions, Mark
from bot.render.board import Overview, Painted, plan_board, render_board
from bot.render.paint.overview import paint_overview
from bot.render.palette import colour_names
from bot.service.render_pool import _overview_drawn

RULES = load_preset("neisg")


def _state(pieces, colours=None, update=1) -> GameState:
    names = sorted({owner for owner, *_ in pieces if owner is not None})
    colours = colours or colour_names()
    people = [Player(name, colours[i % len(colours)]) for i, name in enumerate(names)]
    specs = [dict(owner=o, kind=k, square=s, **(extra[0] if extra else {})) for o, k, s, *extra in pieces]
    return GameState.build(RULES, specs, people, update=update)


def _scattered(count, spread, seed, players=7, neutral=0.0, colours=None, disabled=0.0, update=1) -> GameState:
    """Pieces at random squares, met in no order of squares; some neutral, some disabled."""
    rng = random.Random(seed)
    squares = set()
    while len(squares) < count:
        squares.add((rng.randint(-spread, spread), rng.randint(-spread, spread)))
    pieces = []
    for square in sorted(squares, key=lambda _: rng.random()):
        owner = None if rng.random() < neutral else f"P{rng.randrange(players)}"
        kind = "X" if owner is None else rng.choice("KPNBRQ")
        pieces.append((owner, kind, square, dict(disabled=rng.random() < disabled)))
    return _state(pieces, colours=colours, update=update)


def _lattice(side, gap, seed, players=5) -> GameState:
    """Lone pieces far apart on a lattice, some with a pawn beside them: few columns and rows, wide
    cells drawn in detail (disabled pieces hollow)."""
    rng = random.Random(seed)
    pieces = []
    for i in range(side):
        for j in range(side):
            x, y = i * gap + rng.randrange(3), j * gap + rng.randrange(3)
            pieces.append((f"P{rng.randrange(players)}", rng.choice("KPNBRQ"), (x, y), dict(disabled=rng.random() < 0.3)))
            if rng.random() < 0.3:
                pieces.append((f"P{rng.randrange(players)}", "P", (x + 1, y), {}))
    return _state(pieces)


def _near_detail() -> GameState:
    """Lone pieces and small groups on a lattice: cells just too narrow to be drawn in detail, whose
    pieces are sent along in case they are (the main process does not work out the cells' size)."""
    rng = random.Random(9)
    pieces = []
    for i in range(20):
        for j in range(20):
            x, y = i * 500, j * 500
            if (i + j) % 3:
                pieces.append((f"P{rng.randrange(4)}", rng.choice("KNQ"), (x, y), dict(disabled=rng.random() < 0.3)))
            else:
                wide = rng.choice((11, 12, 13, 14))
                pieces += [(f"P{rng.randrange(4)}", "P", (x + k, y + k % 3), {}) for k in range(0, wide, 2)]
    return _state(pieces)


def _shared_dots() -> GameState:
    """Neighbouring squares sharing a dot: the owner of most, a tie, a neutral piece among them."""
    base = 1_500
    filler = [("Zed", "P", (g * 300 + k, 0)) for g in range(120) for k in (0, 59)]
    most = [("Bob", "N", (base + 13, 0)), ("Amy", "N", (base + 14, 0)), ("Bob", "N", (base + 15, 0))]
    tie = [("Bob", "N", (base + 30, 0)), ("Amy", "N", (base + 31, 0)), (None, "X", (base + 32, 0))]
    return _state(most + tie + filler)


def _with_a_stranger(state: GameState) -> GameState:
    """Every 97th piece owned by someone not among the players (drawn in a colour of their own)."""
    return GameState.build(RULES, [dict(owner=p.owner if i % 97 else "Stranger", kind=p.kind, square=p.square)
                                   for i, p in enumerate(state.board)], list(state.players.values()))


_HILLS = BoardAdditions(marks=tuple(Mark(s, "hill") for s in [(0, 0), (1_000, -1_000), (-2_999, 2_999), (50, 51)])
                        + (Mark((10, 10), "implosion"),))


def _boards():
    scattered = _scattered(3_000, 4_000, seed=1)
    crowd = _scattered(12_000, 2_500, seed=3, players=300, neutral=0.05,
                       colours=["Red", "Green/Gold", "Teal", "Crimson/Yellow", "Puce", "Blue"])
    return {
        "scattered": (RULES, scattered, {}),
        "colourblind": (RULES, scattered, dict(palette="colourblind")),
        "a region of the board": (RULES, scattered, dict(region=(-1_000, -3_002, 3_002, 1_000))),
        "a player's pieces (caption)": (RULES, scattered, dict(focus="player:P3")),
        "King of the Hill's squares": (RULES, _scattered(2_500, 3_000, seed=2, players=40, update=6),
                                       dict(additions=_HILLS)),
        "a crowd: neutral pieces, two tones, unknown colours": (RULES, crowd, {}),
        "dots several owners share": (RULES, _shared_dots(), dict(region=(-2, -4, 35_761, 4))),
        "cells in detail": (RULES, _lattice(12, 1_000, seed=6), dict(region=(-5, -5, 11_010, 11_010))),
        "smaller cells in detail": (RULES, _lattice(30, 700, seed=7), dict(region=(-5, -5, 21_010, 21_010))),
        "cells nearly in detail": (RULES, _near_detail(), dict(region=(-5, -5, 9_520, 9_520))),
        "a stranger's pieces": (RULES, _with_a_stranger(_scattered(2_000, 3_000, seed=5)), {}),
        "megachess, disabled pieces": (load_preset("megachess"), _scattered(1_500, 2_000, seed=8, disabled=0.2), {}),
    }


BOARDS = _boards()


@pytest.mark.parametrize("name", list(BOARDS))
def test_the_worker_draws_the_overview_this_process_draws(name):
    ruleset, state, options = BOARDS[name]
    here = render_board(ruleset, state, **options)
    planned = plan_board(ruleset, state, **options)
    assert isinstance(planned, Overview) and here.layout.overview
    there = _overview_drawn(planned.pack())             # the worker's entry, called here
    assert there.png == here.png
    assert there == here                                  # the layout (the frame reads its region) and size too
    assert pickle.loads(pickle.dumps(there)) == here      # as it comes back from the worker


def test_the_boards_reach_every_part_of_the_overview():
    """The boards above do reach what they are named for (so the comparisons above test it)."""
    planned = {name: plan_board(ruleset, state, **options) for name, (ruleset, state, options) in BOARDS.items()}
    assert planned["cells in detail"].detailed and planned["smaller cells in detail"].detailed
    assert not planned["scattered"].detailed
    near = planned["cells nearly in detail"]
    assert near.detailed and len(near.detailed) == near.count      # sent along, none drawn in detail:
    columns, rows = near.grid
    cell = paint_overview(near).layout.cell
    assert all(cell / (b - a + 1) < 12 for a, b in columns) or all(cell / (b - a + 1) < 12 for a, b in rows)
    assert planned["King of the Hill's squares"].hills
    assert None in planned["a crowd: neutral pieces, two tones, unknown colours"].owner_names
    assert planned["a crowd: neutral pieces, two tones, unknown colours"].players > 80     # "... and N more"
    assert "Stranger" in planned["a stranger's pieces"].owner_names
    assert planned["a player's pieces (caption)"].caption == "P3's pieces"


def test_a_board_that_is_no_overview_is_drawn_at_once():
    state = _scattered(40, 6, seed=11)
    planned = plan_board(RULES, state)
    assert isinstance(planned, Painted)
    assert planned.encode() == render_board(RULES, state)


def test_the_overview_sent_is_the_overview_read():
    ruleset, state, options = BOARDS["a crowd: neutral pieces, two tones, unknown colours"]
    planned = plan_board(ruleset, state, **options)
    back = Overview.unpack(planned.pack())
    numbers = ("xs", "ys", "owners")        # sent as arrays
    for field in Overview.__slots__:
        if field in numbers:
            assert list(getattr(back, field)) == list(getattr(planned, field))
        elif field == "values":
            assert [list(v) for v in back.values] == [list(v) for v in planned.values]
        else:
            assert getattr(back, field) == getattr(planned, field), field


def test_coordinates_beyond_64_bits_are_drawn_here(monkeypatch):
    from bot.service import render_pool

    far = 1 << 70
    state = _state([("Ann", "K", (far + 10 * i, 3 * i)) for i in range(300)] + [("Bob", "Q", (far, 0))])
    planned = plan_board(RULES, state)
    with pytest.raises(OverflowError):
        planned.pack()
    monkeypatch.setattr(render_pool, "OVERVIEW_IN_PARALLEL_FROM", 100)
    pool = render_pool.RenderPool()
    try:
        assert pool.board(RULES, state).result() == render_board(RULES, state)
        assert pool._overview_executor is None          # no worker started for it, none let go
    finally:
        pool.close()


def test_coordinates_beyond_32_bits_are_sent_whole():
    far = 3 << 31
    state = _state([("Ann", "K", (far + 10 * i, -far - 7 * i)) for i in range(300)] + [("Bob", "Q", (0, 0))])
    planned = plan_board(RULES, state)
    assert isinstance(planned, Overview)
    assert _overview_drawn(planned.pack()) == render_board(RULES, state)
