"""Territory's layout, cycle, pool and limits (RULES.md 5.4.1, 5.4.2, 5.4.3), read from a ruleset file.

The ``[layout]`` and ``[draft]`` tables of a ``family = "territory"`` ruleset file are read here into a
:class:`TerritoryRules` value, and checked as 5.4.1 says: areas are lists of rectangles
``[[xmin, ymin], [xmax, ymax]]`` inside the bounds; no two areas overlap (the goal inside ``neutral``
excepted: it is cut out); a territory is not named Red, Blue or Goal and appears in the cycle; the
cycle names both players and nothing unknown. A problem raises :class:`TablesError` naming the key
(``layout.territories[2].squares``) and what is wrong; the ruleset loader adds the file's name.

This module sits at the bottom of the engine's layers (it imports only the value types), so that
``engine/ruleset.py`` can check a territory file when it loads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..model import Square

__all__ = ["TablesError", "TerritoryRules", "Territory", "PLAYERS", "GOAL", "read_tables", "TABLES"]

#: The two players' colours, fixed by RULES 5.4: Red is player 0 (bottom), Blue player 1 (top).
PLAYERS = ("Red", "Blue")
#: The name a scenario's ``control`` uses for the goal (T39).
GOAL = "Goal"
#: The top-level tables a territory ruleset file adds.
TABLES = ("layout", "draft")
#: A larger board is refused: the layout is small by nature, and its squares are listed one by one.
MAX_SQUARES = 10_000

Bounds = tuple[Square, Square]


class TablesError(ValueError):
    """A family table that cannot be used: ``key`` is its full name, ``problem`` what is wrong."""

    def __init__(self, key: str, problem: str) -> None:
        self.key, self.problem = key, problem
        super().__init__(f"{key}: {problem}")


@dataclass(frozen=True, slots=True)
class Territory:
    """A controllable area that has its own turns in the cycle (Green, Purple, Yellow, Orange)."""

    name: str
    squares: frozenset[Square]


@dataclass(frozen=True, slots=True)
class TerritoryRules:
    """Everything of a territory ruleset but its piece table.

    ``kinds`` is the pool's kinds in canonical order (code-point order of the primary
    abbreviations, 5.4.3); ``homes`` maps Red and Blue to their home place areas."""

    bounds: Bounds
    goal: Square
    neutral: frozenset[Square]                 # the goal cut out
    homes: Mapping[str, frozenset[Square]]
    territories: tuple[Territory, ...]
    cycle: tuple[str, ...]
    kinds: tuple[str, ...]
    copies: int = 2
    start_kinds: int = 3
    area_size: int = 6
    draft_max: int = 3
    reserve_max: int = 7
    turn_hours: int = 24
    _areas: dict[Square, str] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        areas = self._areas
        areas[self.goal] = "goal"
        for square in self.neutral:
            areas[square] = "neutral"
        for colour, squares in self.homes.items():
            for square in squares:
                areas[square] = f"home:{colour}"
        for territory in self.territories:
            for square in territory.squares:
                areas[square] = territory.name

    # ------------------------------------------------------------------ squares
    def on_board(self, square: Square) -> bool:
        (x0, y0), (x1, y1) = self.bounds
        return x0 <= square[0] <= x1 and y0 <= square[1] <= y1

    def area(self, square: Square) -> str:
        """``goal``, ``neutral``, a territory's name, ``home:Red``/``home:Blue`` or ``plain``."""
        return self._areas.get(square, "plain")

    def placeable_ever(self, square: Square) -> bool:
        """Pieces are never placed on the goal nor in the neutral zone (5.4.1)."""
        return self.on_board(square) and self.area(square) not in ("goal", "neutral")

    def squares(self) -> list[Square]:
        """Every square of the board, by (x, y)."""
        (x0, y0), (x1, y1) = self.bounds
        return [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]

    # ------------------------------------------------------------------ territories and turns
    def territory(self, name: str) -> Territory | None:
        return next((t for t in self.territories if t.name == name), None)

    @property
    def territory_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.territories)

    def slot(self, turn: int) -> int:
        """T2: turn T takes slot (T-1) mod L of the cycle."""
        return (turn - 1) % len(self.cycle)

    def slot_name(self, turn: int) -> str:
        """Red, Blue or a territory's name: whose turn ``turn`` is in the cycle."""
        return self.cycle[self.slot(turn)]


# ----------------------------------------------------------------------------- reading
def read_tables(tables: Mapping[str, Any], kinds: tuple[str, ...]) -> TerritoryRules:
    """The ``[layout]`` and ``[draft]`` tables (``tables``) checked into :class:`TerritoryRules`;
    ``kinds`` are the letters of the ruleset's piece table, every one of them in the pool."""
    layout = tables.get("layout")
    if layout is None:
        raise TablesError("layout", "missing: a territory ruleset needs a [layout] table (RULES 5.4.1)")
    if not isinstance(layout, dict):
        raise TablesError("layout", "must be a table")
    draft = tables.get("draft", {})
    if not isinstance(draft, dict):
        raise TablesError("draft", "must be a table")
    _known(layout, {"bounds", "goal", "neutral", "home", "territories", "cycle"}, "layout")
    _known(draft, {"copies", "start_kinds", "area_size", "draft_max", "reserve_max", "turn_hours"}, "draft")

    for key in ("bounds", "goal", "neutral", "home", "territories", "cycle"):
        if key not in layout:
            raise TablesError(f"layout.{key}", "missing (RULES 5.4.1)")
    bounds = _rectangle(layout["bounds"], "layout.bounds")
    (x0, y0), (x1, y1) = bounds
    if (x1 - x0 + 1) * (y1 - y0 + 1) > MAX_SQUARES:
        raise TablesError("layout.bounds", f"a territory board has at most {MAX_SQUARES:,} squares")
    goal = _square(layout["goal"], "layout.goal")
    owner: dict[Square, str] = {}     # square -> the area that claimed it, to find overlaps

    def claim(squares: set[Square], name: str, key: str) -> frozenset[Square]:
        for square in sorted(squares):
            if square in owner:
                raise TablesError(key, f"{name} overlaps {owner[square]} on ({square[0]},{square[1]})")
            owner[square] = name
        return frozenset(squares)

    if not _inside(goal, bounds):
        raise TablesError("layout.goal", f"({goal[0]},{goal[1]}) is outside the bounds")
    claim({goal}, "the goal", "layout.goal")
    neutral = _rectangles(layout["neutral"], "layout.neutral", bounds) - {goal}
    neutral = claim(neutral, "the neutral zone", "layout.neutral")

    home_table = layout["home"]
    if not isinstance(home_table, dict):
        raise TablesError("layout.home", "must be a table { Red = [...], Blue = [...] }")
    if set(home_table) != set(PLAYERS):
        raise TablesError("layout.home", f"must name exactly Red and Blue, not {', '.join(sorted(home_table)) or 'nobody'}")
    homes = {colour: claim(_rectangles(home_table[colour], f"layout.home.{colour}", bounds), f"{colour}'s home place area",
                           f"layout.home.{colour}") for colour in PLAYERS}

    raw_territories = layout["territories"]
    if not isinstance(raw_territories, list) or not all(isinstance(t, dict) for t in raw_territories):
        raise TablesError("layout.territories", 'must be a list of tables { name = "Green", squares = [...] }')
    territories = []
    for i, raw in enumerate(raw_territories):
        where = f"layout.territories[{i}]"
        _known(raw, {"name", "squares"}, where)
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            raise TablesError(f"{where}.name", "must be a non-empty string")
        if name.casefold() in {n.casefold() for n in (*PLAYERS, GOAL)}:
            raise TablesError(f"{where}.name", f"a territory may not be named {name!r}: Red and Blue are the players' "
                                               f"turns and Goal is the goal (RULES 5.4.1)")
        if any(t.name.casefold() == name.casefold() for t in territories):
            raise TablesError(f"{where}.name", f"two territories are named {name!r}")
        if "squares" not in raw:
            raise TablesError(f"{where}.squares", "missing")
        squares = claim(_rectangles(raw["squares"], f"{where}.squares", bounds), name, f"{where}.squares")
        territories.append(Territory(name, squares))

    cycle = layout["cycle"]
    if not isinstance(cycle, list) or not cycle or not all(isinstance(c, str) for c in cycle):
        raise TablesError("layout.cycle", "must be a non-empty list of names (Red, Blue and the territories)")
    names = {t.name for t in territories}
    for entry in cycle:
        if entry not in names and entry not in PLAYERS:
            raise TablesError("layout.cycle", f"{entry!r} is neither Red, Blue nor a territory of the layout")
    for colour in PLAYERS:
        if colour not in cycle:
            raise TablesError("layout.cycle", f"the cycle has no {colour} turn: it needs both players (RULES 5.4.1)")
    for territory in territories:
        if territory.name not in cycle:
            raise TablesError("layout.cycle", f"territory {territory.name} is missing from the cycle (RULES 5.4.1)")

    limits = {key: _count(draft, key, default) for key, default in
              (("copies", 2), ("start_kinds", 3), ("area_size", 6), ("draft_max", 3), ("reserve_max", 7),
               ("turn_hours", 24))}
    if limits["copies"] < 1:
        raise TablesError("draft.copies", "must be at least 1")
    if limits["start_kinds"] > len(kinds):
        raise TablesError("draft.start_kinds", f"the pool has only {len(kinds)} kinds")
    if limits["start_kinds"] and limits["copies"] < 2:
        raise TablesError("draft.copies", "each player's reserve starts with a copy of each start kind: at least 2")
    if limits["draft_max"] < 1:
        raise TablesError("draft.draft_max", "must be at least 1")
    if limits["reserve_max"] < max(1, limits["start_kinds"]):
        raise TablesError("draft.reserve_max", "must hold at least the start kinds")
    if limits["turn_hours"] < 1:
        raise TablesError("draft.turn_hours", "must be at least 1")
    return TerritoryRules(bounds=bounds, goal=goal, neutral=neutral, homes=homes, territories=tuple(territories),
                          cycle=tuple(cycle), kinds=tuple(sorted(kinds)), **limits)


def _known(table: Mapping[str, Any], known: set[str], where: str) -> None:
    for key in table:
        if key not in known:
            raise TablesError(f"{where}.{key}", f"unknown key (known here: {', '.join(sorted(known))})")


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _square(value: Any, key: str) -> Square:
    if not (isinstance(value, list) and len(value) == 2 and all(_integer(v) for v in value)):
        raise TablesError(key, f"must be a square [x, y], not {value!r}")
    return value[0], value[1]


def _rectangle(value: Any, key: str) -> Bounds:
    if not (isinstance(value, list) and len(value) == 2):
        raise TablesError(key, f"must be a rectangle [[xmin, ymin], [xmax, ymax]], not {value!r}")
    low, high = _square(value[0], key), _square(value[1], key)
    if low[0] > high[0] or low[1] > high[1]:
        raise TablesError(key, f"must be [[xmin, ymin], [xmax, ymax]] with min <= max, not {value!r}")
    return low, high


def _rectangles(value: Any, key: str, bounds: Bounds) -> set[Square]:
    """The squares of a list of rectangles, each inside the bounds."""
    if not isinstance(value, list) or not value:
        raise TablesError(key, "must be a list of rectangles [[[xmin, ymin], [xmax, ymax]], ...]")
    squares: set[Square] = set()
    for i, rectangle in enumerate(value):
        (x0, y0), (x1, y1) = _rectangle(rectangle, f"{key}[{i}]")
        if not (_inside((x0, y0), bounds) and _inside((x1, y1), bounds)):
            raise TablesError(f"{key}[{i}]", f"{rectangle!r} is not inside the bounds {[list(c) for c in bounds]!r}")
        squares.update((x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1))
    return squares


def _inside(square: Square, bounds: Bounds) -> bool:
    (x0, y0), (x1, y1) = bounds
    return x0 <= square[0] <= x1 and y0 <= square[1] <= y1


def _count(table: Mapping[str, Any], key: str, default: int) -> int:
    value = table.get(key, default)
    if not _integer(value) or value < 0:
        raise TablesError(f"draft.{key}", f"must be a whole number, 0 or more, not {value!r}")
    return value
