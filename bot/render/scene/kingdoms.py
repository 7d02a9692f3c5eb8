"""What a board shows of megachess's kingdoms (D60: the circle of radius 16 around a player's king,
outside which their pieces fade).

Issue 39: ten or more kingdoms tinted over each other made a muddy patchwork in which a pink piece
on a pink tint lost its contrast, and a kingdom's edge was known by its colour alone, while navy,
blue and sky (maroon and rose) lines look alike and a game of more than 37 players repeats colours.
So a kingdom is drawn as its edge only, never a tint: every square keeps the board's colours and a
piece its contrast with them, however many kingdoms cover it. Each edge is told apart by more than
its colour: the owner's name on a tag on the edge, at its north, east, south and west, and a dash
(solid, dashed, dotted, dash-dot) unlike that of every overlapping kingdom whose colour is alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable

from ...engine.model import Square
from ...engine.variants.base import Kingdom
from ..palette import NEUTRAL_RGB, contrast_edge, delta_e2000
from .colours import RGB, PlayerColours, mean_tone
from .grid import Region
from .region import circle_squares

# two kingdoms' lines whose colours are closer than this (CIEDE2000) are also told apart by their
# dash: navy and blue are 27, blue and sky 31, magenta and rose 25 (a thin line's colour is harder
# to judge than a square's, so the bar is higher than a token's 15)
ALIKE = 32.0
STYLES = ("solid", "dashed", "dotted", "dash-dot")
TAG_REACH = 1           # squares on each side of its own that a tag may cover (a name at 16 px a square)
TAG_POINTS = ((0, 1), (1, 0), (0, -1), (-1, 0))     # where on its circle a kingdom is named: N, E, S, W
_SIDES = (((1, 0), "right"), ((-1, 0), "left"), ((0, 1), "top"), ((0, -1), "bottom"))


@dataclass(frozen=True, slots=True)
class KingdomEdge:
    """One side (``right``, ``left``, ``top``, ``bottom``) of a kingdom's square on its edge: a band
    of the owner's ``tone`` inside the kingdom with a ``dark`` line on the edge itself, drawn in the
    kingdom's ``style`` (one of :data:`STYLES`)."""

    square: Square
    side: str
    tone: RGB
    dark: RGB
    style: str = "solid"


@dataclass(frozen=True, slots=True)
class KingdomTag:
    """The owner's name on a square on their kingdom's edge: ``text`` on a ``back`` of the owner's
    colour, in ``ink``, framed in ``dark``. No piece stands on the square or on either side of it,
    where a long name at a small scale may reach (:data:`TAG_REACH`)."""

    square: Square
    owner: str
    text: str
    back: RGB
    ink: RGB
    dark: RGB


@dataclass(frozen=True)
class KingdomsView:
    """Every kingdom in view as drawn: the sides of its edge, its tags and its dash by owner."""

    edges: tuple[KingdomEdge, ...] = ()
    tags: tuple[KingdomTag, ...] = ()
    styles: tuple[tuple[str, str], ...] = ()          # (owner, style), by owner


def kingdoms_view(kingdoms: Iterable[Kingdom], every: Iterable[Kingdom], colours: PlayerColours, region: Region,
                  occupied: Callable[[Square], bool]) -> KingdomsView:
    """The edges and tags of ``kingdoms`` in ``region`` (no edge along the region's own edge). What
    is drawn of a kingdom depends on the game alone, never on the region, so that regions painted
    apart join up (the web viewer's tiles): the dashes are chosen among ``every`` kingdom of the
    game, the tags' squares on the whole circle, clear of the pieces ``occupied`` says stand there."""
    every = tuple(sorted(every, key=lambda k: (k.owner, k.centre)))
    circles: dict[str, list[Kingdom]] = {}
    for kingdom in kingdoms:
        circles.setdefault(kingdom.owner, []).append(kingdom)
    squares = {owner: {sq for k in owned for sq in circle_squares(k, region)} for owner, owned in circles.items()}
    squares = {owner: inside for owner, inside in squares.items() if inside}
    styles = kingdom_styles(every, colours)
    x0, y0, x1, y1 = region
    claimed = claimed_squares(every)
    edges, tags = [], []
    for owner in sorted(squares):
        tones = colours.of(owner) or (NEUTRAL_RGB,)
        dark = tuple(round(c * 0.5) for c in mean_tone(tones))
        edges += [KingdomEdge(square, side, tones[0], dark, styles.get(owner, STYLES[0]))
                  for square, side in _edge_sides(squares[owner], region)]
        tags += [KingdomTag(square, owner, owner, tones[0], contrast_edge(tones[0]), dark)
                 for square in tag_squares(owner, circles[owner], occupied, claimed)
                 if x0 <= square[0] <= x1 and y0 <= square[1] <= y1]
    return KingdomsView(tuple(edges), tuple(tags), tuple(sorted((o, styles.get(o, STYLES[0])) for o in squares)))


def kingdom_styles(kingdoms: tuple[Kingdom, ...], colours: PlayerColours) -> dict[str, str]:
    """Each owner's dash, so that no two kingdoms that overlap with colours within :data:`ALIKE`
    share one where :data:`STYLES` allow: the owners with the most such neighbours choose first (then
    by name), each the first style none of its neighbours has (where all are taken, the one fewest
    of them have). Decided over the whole game: a region shows the same dashes as the board."""
    return dict(_styles(kingdoms, tuple((colours.of(k.owner) or (NEUTRAL_RGB,))[0] for k in kingdoms)))


@lru_cache(maxsize=16)
def _styles(kingdoms: tuple[Kingdom, ...], tones: tuple[RGB, ...]) -> tuple[tuple[str, str], ...]:
    """:func:`kingdom_styles` of kingdoms drawn in ``tones`` (one each), kept: the web viewer's
    tiles of one update each make a scene (1,000 kingdoms: 25 ms a time, 1 ms kept)."""
    alike = alike_neighbours(kingdoms, dict(zip((k.owner for k in kingdoms), tones)))
    styles: dict[str, str] = {}
    for owner in sorted(alike, key=lambda owner: (-len(alike[owner]), owner)):
        near = [styles[other] for other in alike[owner] if other in styles]
        styles[owner] = min(STYLES, key=lambda style: (near.count(style), STYLES.index(style)))
    return tuple(styles.items())


def alike_neighbours(kingdoms: tuple[Kingdom, ...], tone: dict[str, RGB]) -> dict[str, set[str]]:
    """Owner -> the other owners whose kingdom overlaps theirs and whose ``tone`` is within
    :data:`ALIKE` (CIEDE2000) of theirs."""
    alike: dict[str, set[str]] = {owner: set() for owner in tone}
    # kingdoms by the cell of their centre, cells as wide as the widest pair's reach: only
    # neighbouring cells can overlap (a game of 1,000 kingdoms compares each with a few)
    cell = max((k.radius for k in kingdoms), default=1) * 2 + 1
    cells: dict[tuple[int, int], list[Kingdom]] = {}
    for kingdom in kingdoms:
        cells.setdefault((kingdom.centre[0] // cell, kingdom.centre[1] // cell), []).append(kingdom)
    for k in kingdoms:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for other in cells.get((k.centre[0] // cell + dx, k.centre[1] // cell + dy), ()):
                    if (other.owner != k.owner and other.owner not in alike[k.owner]
                            and math.dist(k.centre, other.centre) <= k.radius + other.radius + 1
                            and _alike(tone[k.owner], tone[other.owner])):
                        alike[k.owner].add(other.owner)
                        alike[other.owner].add(k.owner)
    return alike


@lru_cache(maxsize=4096)
def _alike(first: RGB, second: RGB) -> bool:
    """Whether two tones are within :data:`ALIKE` (kept: a game has a few dozen colours, and a
    picture of 1,000 kingdoms compares some 13,000 overlapping pairs, 0.3 s uncached)."""
    return delta_e2000(first, second) < ALIKE


def _edge_sides(inside: set[Square], region: Region) -> list[tuple[Square, str]]:
    """The sides of the squares of ``inside`` facing a square outside it, not at the region's edge."""
    x0, y0, x1, y1 = region
    return sorted(((x, y), side) for x, y in inside for (dx, dy), side in _SIDES
                  if (x + dx, y + dy) not in inside and x0 <= x + dx <= x1 and y0 <= y + dy <= y1)


def tag_squares(owner: str, circles: list[Kingdom], occupied: Callable[[Square], bool],
                claimed: dict[Square, str]) -> list[Square]:
    """Where ``owner``'s name goes: at each of their circles' :data:`TAG_POINTS` (north, east,
    south, west), of the three edge squares nearest it (not covered by another of their circles),
    the first whose row holds no piece within :data:`TAG_REACH` of it, nor another kingdom's name:
    a square ``claimed`` (the first choice of every kingdom's points) by an owner before them by name
    within twice that. None at a point where all three are taken."""
    chosen: list[Square] = []
    for kingdom in circles:
        (cx, cy), others = kingdom.centre, [other for other in circles if other is not kingdom]
        for nearest in _point_squares(kingdom.radius):
            squares = [(cx + dx, cy + dy) for dx, dy in nearest]
            square = next((sq for sq in squares if not any(other.holds(sq) for other in others)
                           and not any(occupied((sq[0] + dx, sq[1])) for dx in range(-TAG_REACH, TAG_REACH + 1))
                           and not any(claimed.get((sq[0] + dx, sq[1]), owner) < owner
                                       for dx in range(-2 * TAG_REACH, 2 * TAG_REACH + 1))), None)
            if square is not None and square not in chosen:
                chosen.append(square)
    return chosen


def claimed_squares(kingdoms: Iterable[Kingdom]) -> dict[Square, str]:
    """The first choice of every kingdom's :data:`TAG_POINTS` -> its owner (the first by name)."""
    claimed: dict[Square, str] = {}
    for kingdom in kingdoms:
        (cx, cy) = kingdom.centre
        for nearest in _point_squares(kingdom.radius):
            square = (cx + nearest[0][0], cy + nearest[0][1])
            claimed[square] = min(claimed.get(square, kingdom.owner), kingdom.owner)
    return claimed


@lru_cache(maxsize=64)
def _point_squares(radius: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each of :data:`TAG_POINTS`, the offsets of the three edge squares of a circle of
    ``radius`` nearest it, nearest first."""
    return tuple(tuple(sorted(_circle_edge(radius), key=lambda o: (math.dist(o, (px * radius, py * radius)), o))[:3])
                 for px, py in TAG_POINTS)


@lru_cache(maxsize=64)
def _circle_edge(radius: int) -> tuple[tuple[int, int], ...]:
    """The offsets of the squares of a circle of ``radius`` with a neighbour outside it."""
    circle = Kingdom("", None, (0, 0), radius)
    inside = {(dx, dy) for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)
              if circle.holds((dx, dy))}
    return tuple(sorted((dx, dy) for dx, dy in inside
                        if any((dx + ex, dy + ey) not in inside for (ex, ey), _ in _SIDES)))
