"""A board of far-apart areas drawn as insets (issue 27: one far piece made the default board a strip
of empty squares): which areas, each one's board scene, and the one legend they share."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable

from ...engine.model import Square
from ...engine.ruleset import Ruleset
from ...engine.state import GameState
from ...engine.variants.base import BoardAdditions
from .board import BoardScene, LegendEntry, Move, Present, board_scene, legend_entries
from .colours import PlayerColours
from .grid import InRegion, Region, occupied_viewports
from .limits import INSET_FROM, MAX_INSETS
from .region import state_label


@dataclass(frozen=True)
class InsetScene:
    """The insets of a region, by viewport name (``B2``: the overview's names, so that a player can
    ask for one), in reading order, each a board scene titled with its name; their shared legend."""

    region: Region
    title: str
    subtitle: str
    caption: str
    insets: tuple[tuple[str, Region, BoardScene], ...]
    legend: tuple[LegendEntry, ...]


def inset_areas(state: GameState, region: Region, within: InRegion) -> dict[str, Region]:
    """The areas of ``region`` to draw as insets, by viewport name; empty when one board reads better:
    the region is at most :data:`INSET_FROM` squares a side, its pieces are together (one area) or
    too scattered (more than :data:`MAX_INSETS`), or the areas would not save half the squares."""
    x0, y0, x1, y1 = region
    nx, ny = x1 - x0 + 1, y1 - y0 + 1
    if max(nx, ny) <= INSET_FROM:
        return {}
    cells = occupied_viewports(state, region, at_most=MAX_INSETS, within=within)
    if cells is None or not 2 <= len(cells) <= MAX_INSETS:
        return {}
    shown = sum((b - a + 1) * (hi - lo + 1) for a, lo, b, hi in cells.values())
    return cells if shown * 2 <= nx * ny else {}


def inset_scene(ruleset: Ruleset, state: GameState, region: Region, bounds, colours: PlayerColours,
                moves: Iterable[Move], additions: BoardAdditions, caption: str,
                within: InRegion) -> InsetScene | None:
    """The insets of ``region``, or None when it is better drawn as one board (:func:`inset_areas`)."""
    areas = inset_areas(state, region, within)
    if not areas:
        return None
    moves = list(moves)
    pieces: dict[Square, tuple] = {}
    marks: dict[str, set] = defaultdict(set)
    for cell in areas.values():
        present = Present.read(ruleset, state, cell, bounds, moves, frozenset(), additions)
        pieces.update(present.pieces)
        for key, values in present.marks.items():
            marks[key] |= values
    legend = tuple(legend_entries(ruleset, state, colours, Present(pieces, marks)))
    insets = tuple((name, cell, board_scene(ruleset, state, cell, bounds, colours, moves, frozenset(), additions,
                                            inset=name)) for name, cell in areas.items())
    x0, y0, x1, y1 = region
    focus = f" · {caption}" if caption else ""
    title = (f"{ruleset.title or ruleset.name} · {state_label(state)} · "
             f"{len(areas)} areas far apart in x {x0}..{x1}, y {y0}..{y1}{focus}")
    subtitle = (f"Each area is named as in the overview (column letter, row number counted upward): "
                f"ask for one by its name, such as {next(iter(areas))}, to see it alone.")
    return InsetScene(region, title, subtitle, caption, insets, legend)
