"""The overview's grid of viewports over a region: where the pieces stand, read once for a picture.

The grid's columns (rows) are spans of x (y) around the occupied stretches, the empty ones between
them squeezed out; each occupied cell is a viewport with a name (``B2``: column letter, row number
counted upward) that a player may ask for. An overview names them, a board of far-apart areas draws
them as insets. No Pillow.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter
from itertools import compress
from operator import add, and_, attrgetter, itemgetter
from typing import Iterable

from ...engine.model import Piece
from ...engine.state import GameState
from .limits import DEFAULT_MARGIN, MAX_GRID, VIEWPORT_SIDE

Region = tuple[int, int, int, int]          # x0, y0, x1, y1 in squares, inclusive

_READ_SLICE = 2_048          # pieces read at a time (see BoardRead)


def viewport_name(column: int, row: int) -> str:
    """Grid name of a viewport: columns A..Z, AA, AB, ... (0-based in), rows 1, 2, ... (0-based in)."""
    letters = ""
    n = column + 1
    while n:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{row + 1}"


def _spans(values: list[int], lo: int, hi: int, side: int, gap: int) -> list[tuple[int, int]]:
    """Cover the sorted distinct ``values`` with intervals of at most ``side`` squares: groups
    separated by more than ``gap`` empty squares, a group too wide for one interval cut into equal
    parts, each padded by up to two squares where there is room; clipped to [lo, hi]."""
    margin = min(DEFAULT_MARGIN, max(0, (side - 1) // 4))
    usable = side - 2 * margin
    groups: list[list[int]] = []
    for v in values:
        if groups and v - groups[-1][1] <= gap:
            groups[-1][1] = v
        else:
            groups.append([v, v])
    raw: list[tuple[int, int]] = []
    for a, b in groups:
        parts = math.ceil((b - a + 1) / usable)
        for k in range(parts):
            start = a + (b - a + 1) * k // parts
            end = a + (b - a + 1) * (k + 1) // parts - 1
            raw.append((start, end))
    spans: list[tuple[int, int]] = []
    for i, (a, b) in enumerate(raw):
        start = max(lo, a - margin)
        if spans:
            start = max(start, spans[-1][1] + 1)
        end = min(hi, b + margin)
        if i + 1 < len(raw):
            following = raw[i + 1][0]
            # leave the next interval its own margin when the two are apart
            end = min(end, following - 1 - (margin if following - b > 2 * margin else 0))
        spans.append((start, max(end, b)))
    # a lone piece gets a view of at least 9 squares (like a board's default), where there is room
    least = min(side, 9)
    for i, (start, end) in enumerate(spans):
        grow = least - (end - start + 1)
        if grow <= 0:
            continue
        floor = spans[i - 1][1] + 1 if i else lo
        ceiling = spans[i + 1][0] - 1 if i + 1 < len(spans) else hi
        start = max(floor, start - grow // 2)
        end = min(ceiling, start + least - 1)
        start = max(floor, min(start, end - least + 1))
        spans[i] = (start, end)
    return spans


def viewport_grid(pieces: Iterable[Piece], region: Region, xs: list[int] | None = None,
                   ys: list[int] | None = None) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The overview's grid over ``region``: the x spans of its columns and the y spans of its rows
    (upward), around the occupied stretches, empty ones between them squeezed out (``xs``, ``ys``:
    the pieces' distinct x and y, sorted, if known already)."""
    x0, y0, x1, y1 = region
    if xs is None or ys is None:
        xs = sorted({p.square[0] for p in pieces})
        ys = sorted({p.square[1] for p in pieces})
    # a group of values begins after each step longer than the gap, and each group is at least one
    # span: a side whose gap leaves more than MAX_GRID groups cannot do, and is passed over without
    # working out its spans (pieces scattered far apart double the side several times)
    x_steps = sorted(b - a for a, b in zip(xs, xs[1:]))
    y_steps = sorted(b - a for a, b in zip(ys, ys[1:]))
    side = VIEWPORT_SIDE
    while True:
        gap = max(6, side // 6)
        if (len(x_steps) - bisect_right(x_steps, gap) < MAX_GRID
                and len(y_steps) - bisect_right(y_steps, gap) < MAX_GRID):
            columns = _spans(xs, x0, x1, side, gap) if xs else [(x0, min(x1, x0 + side - 1))]
            rows = _spans(ys, y0, y1, side, gap) if ys else [(y0, min(y1, y0 + side - 1))]
            if len(columns) <= MAX_GRID and len(rows) <= MAX_GRID:
                return columns, rows
        side *= 2   # too scattered for legible viewports: wider ones (overviews themselves)


class BoardRead:
    """Every piece of the board, and each one's x, y and owner in lists, read once for a picture:
    the occupied area's frame and the region's pieces are worked out from them. (Lists of numbers,
    not a tuple or an iterator per piece: 50,000 new objects the garbage collector tracks set off a
    collection of the whole heap now and then, 0.05 to 0.1 s.) The pieces are read a slice at a
    time, each piece's square and owner one after the other while it is still in the processor's
    cache: a position read from the database has its pieces all over the heap, and reading all the
    squares, then all the owners, fetched each piece twice from memory (in an update, on a machine
    busy with the workers, the owners took 14 ms instead of 2)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._read = False

    def read(self) -> "BoardRead":
        if not self._read:
            self.pieces = pieces = list(self.state.board)
            self.xs_each, self.ys_each, self.owners_each = xs_each, ys_each, owners_each = [], [], []
            for start in range(0, len(pieces), _READ_SLICE):
                part = pieces[start:start + _READ_SLICE]
                squares = list(map(attrgetter("square"), part))
                owners_each += map(attrgetter("owner"), part)
                xs_each += map(itemgetter(0), squares)
                ys_each += map(itemgetter(1), squares)
            self.xs, self.ys = set(xs_each), set(ys_each)
            self._read = True
        return self

    def bounding_box(self):
        """The smallest box holding every piece, or None (``Board.bounding_box``)."""
        xs, ys = self.read().xs, self.ys
        return ((min(xs), min(ys)), (max(xs), max(ys))) if xs else None


class InRegion:
    """The pieces of ``region`` and the overview's grid over it, worked out once for a picture: the
    search for insets and the overview both need them. The pieces' x, y and owners are in flat lists
    (in the board's order), which the occupied viewports and the overview's dots are worked out from
    a whole list at a time."""

    def __init__(self, state: GameState, region: Region, board: BoardRead | None = None) -> None:
        self.state, self.region = state, region
        self.board = board or BoardRead(state)
        self._read = False
        self._grid: tuple[list[tuple[int, int]], list[tuple[int, int]]] | None = None
        self._columns: dict[int, int] | None = None
        self._rows: dict[int, int] | None = None
        self._cells: dict[tuple[int, int], int] | None = None

    def _read_pieces(self) -> None:
        """The pieces inside the region, each one's x and y, and the distinct x and y. The region
        framing the occupied area holds every piece: then nothing is filtered."""
        board = self.board.read()
        pieces, xs_each, ys_each, xs, ys = board.pieces, board.xs_each, board.ys_each, board.xs, board.ys
        owners = board.owners_each
        x0, y0, x1, y1 = self.region
        if xs and not (x0 <= min(xs) and max(xs) <= x1 and y0 <= min(ys) and max(ys) <= y1):
            # each distinct x (y) tested once; each piece by two look-ups in C
            xs, ys = {x for x in xs if x0 <= x <= x1}, {y for y in ys if y0 <= y <= y1}
            inside = list(map(and_, map(xs.__contains__, xs_each), map(ys.__contains__, ys_each)))
            pieces = list(compress(pieces, inside))
            xs_each, ys_each = list(compress(xs_each, inside)), list(compress(ys_each, inside))
            owners = list(compress(owners, inside))
            xs, ys = set(xs_each), set(ys_each)
        self._pieces = pieces
        self._xs_each, self._ys_each, self._owners = xs_each, ys_each, owners
        self._values = sorted(xs), sorted(ys)
        self._read = True

    @property
    def pieces(self) -> list[Piece]:
        if not self._read:
            self._read_pieces()
        return self._pieces

    @property
    def each(self) -> tuple[list[int], list[int]]:
        """Each piece's x and y, in the order of :attr:`pieces`."""
        if not self._read:
            self._read_pieces()
        return self._xs_each, self._ys_each

    @property
    def owners(self) -> list[str | None]:
        """Each piece's owner, in the order of :attr:`pieces`."""
        if not self._read:
            self._read_pieces()
        return self._owners

    @property
    def values(self) -> tuple[list[int], list[int]]:
        """The pieces' distinct x and distinct y, sorted."""
        if not self._read:
            self._read_pieces()
        return self._values

    @property
    def column_of(self) -> dict[int, int]:
        """The x of each piece in a column of the grid -> that column's index."""
        if self._columns is None:
            self._columns = self.cells_of(self.grid[0], self.values[0])
        return self._columns

    @property
    def row_of(self) -> dict[int, int]:
        """The y of each piece in a row of the grid -> that row's index."""
        if self._rows is None:
            self._rows = self.cells_of(self.grid[1], self.values[1])
        return self._rows

    @property
    def grid(self) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """The x spans of the overview's columns and the y spans of its rows (:func:`viewport_grid`)."""
        if self._grid is None:
            self._grid = viewport_grid(self.pieces, self.region, *self.values)
        return self._grid

    @property
    def cells(self) -> dict[tuple[int, int], int]:
        """Each occupied cell of the grid (column, row) -> how many pieces it holds, in the order
        first met. Each x (y) is given its column (row) once, as a number the row's is added to."""
        if self._cells is None:
            rows = len(self.grid[1])
            xs, ys = self.values
            # a value no span holds (there is none: spans cover their groups) sinks the sum below zero
            at_x = dict.fromkeys(xs, _NOWHERE)
            at_x.update((x, c * rows) for x, c in self.column_of.items())
            at_y = dict.fromkeys(ys, _NOWHERE)
            at_y.update(self.row_of)
            xs_each, ys_each = self.each
            counts = Counter(map(add, map(at_x.__getitem__, xs_each), map(at_y.__getitem__, ys_each)))
            self._cells = {divmod(code, rows): n for code, n in counts.items() if code >= 0}
        return self._cells

    def holds_all(self) -> bool:
        """Whether every piece's x is in a column and its y in a row (then each column and each
        row holds at least one occupied cell)."""
        return len(self.column_of) == len(self.values[0]) and len(self.row_of) == len(self.values[1])

    @staticmethod
    def cells_of(spans: list[tuple[int, int]], values: Iterable[int]) -> dict[int, int]:
        """Each of ``values`` that a span holds -> the span's index (``span_index`` of each)."""
        starts = [a for a, _ in spans]
        found = {}
        for value in values:
            index = bisect_right(starts, value) - 1
            if index >= 0 and value <= spans[index][1]:
                found[value] = index
        return found


_NOWHERE = -(1 << 60)   # a column's (row's) number for a value outside every span: any sum with it is negative


def occupied_viewports(state: GameState, region: Region, at_most: int | None = None,
                        within: InRegion | None = None) -> dict[str, Region] | None:
    """Each occupied viewport of the overview of ``region``, by name (``B2``), in reading order
    (top row first, then left to right): what an overview names and what a board of far-apart
    areas draws as insets. None when there are more than ``at_most`` (found without looking at
    every piece of 50,000 where it can be: from the columns and rows holding pieces, else from a
    spread sample of the pieces). ``within``: the region's pieces and grid, if worked out already."""
    within = within or InRegion(state, region)
    pieces = within.pieces
    columns, rows = within.grid
    column_of, row_of = within.column_of, within.row_of
    if at_most is not None:
        # every column (row) holding a piece holds an occupied viewport: as many columns as that are
        # as many viewports at least
        if within.holds_all() and max(len(set(column_of.values())), len(set(row_of.values()))) > at_most:
            return None
        sample = {(column_of.get(p.square[0]), row_of.get(p.square[1])) for p in pieces[::max(1, len(pieces) // 64)]}
        if len({(c, r) for c, r in sample if c is not None and r is not None}) > at_most:
            return None
    cells = within.cells
    if at_most is not None and len(cells) > at_most:
        return None
    return {viewport_name(c, r): (columns[c][0], rows[r][0], columns[c][1], rows[r][1])
            for c, r in sorted(cells, key=lambda cr: (-cr[1], cr[0]))}
