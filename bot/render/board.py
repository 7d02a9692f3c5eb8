"""The board image: a region of an engine state as a PNG players can read coordinates from.

:func:`render_board` is a pure function of a ruleset and a state (like ``chess.svg.board``). It
returns the PNG with its :class:`BoardLayout`, which says which pixel box shows which square and
where every axis label sits, so that tests and callers check meaning without reading pixels back.

What the picture promises (issue 6, RULES.md 3.2, 3.4, 6, 8):

* Coordinates: x labels above and below, y labels left and right, at multiples of 1, 2 or 5
  (whichever fits), so no square is more than two squares from a labelled one; a heavier line
  every five squares; rank 0 tinted and its label bold; the ruleset's or state's bounds drawn as
  a thick line with the squares outside greyed.
* Pieces in their owner's colour (``palette``: ``default`` or ``colourblind``); a legend of the
  players, the kinds and the marks present.
* States: capturable (four black triangles pointing at the piece), disabled (hollow), ``fresh``
  and ``spent`` check badges, implosion squares, an energy pawn's rainbow aura, obstacles and
  voids, a possessed piece (spirit badge), a harpy's cargo (its letter), frozen pieces (ice
  badge), Variety's locked pieces (violet frame), King of the Hill's square (gold star), the last
  update's moves (from/to tints and arrows, captures in red with a cross).
* Size: never above :data:`MAX_SIDE` pixels a side or :data:`MAX_BYTES` bytes. When the region
  would need fewer than :data:`MIN_SCALE` pixels per square, an overview is drawn instead: a
  grid of viewports (columns A, B, ..., rows 1, 2, ... counted upward) over the occupied parts of
  the region, empty stretches between them squeezed into a break line, pieces as dots in their
  owner's colour. Each labelled viewport is in ``BoardLayout.viewports`` and, passed back as
  ``region``, renders as a normal board (when the pieces are clustered enough for the grid to fit;
  a board scattered too thinly gets wider viewports, which render as overviews one level down).
"""

from __future__ import annotations

import io
import math
import pickle
import re
from array import array
from bisect import bisect_right
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress
from operator import add, and_, attrgetter, itemgetter
from typing import Iterable, Sequence

from PIL import Image, ImageDraw

from ..engine.abilities import position_for
from ..engine.model import Piece, Square
from ..engine.ruleset import PieceKind, Ruleset
from ..engine.state import GameState
from ..engine.variants import VariantUnavailable, variant_for
from ..engine.variants.base import BoardAdditions, Fading, Kingdom, Mark
from .palette import NEUTRAL_RGB, PALETTES, colour_names, contrast_edge, player_rgb
from .paint.glyphs import draw_text, text_box, text_mask
from .paint.png import fast_png
from .paint.sprites import bold_font, draw_piece, font, legend_entries

__all__ = ["render_board", "paint_board", "plan_board", "Overview", "Painted", "Rendered", "BoardLayout", "Label", "Inset", "Focus", "focus_region", "additions_of",
           "default_viewports", "is_viewport_name", "MAX_SIDE", "MAX_BYTES", "MIN_SCALE", "MAX_SCALE", "VIEWPORT_SIDE",
           "INSET_FROM", "MAX_INSETS", "viewport_name"]

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
Region = tuple[int, int, int, int]          # x0, y0, x1, y1 in squares, inclusive

MAX_SIDE = 4096              # pixels, either side
MAX_BYTES = 8 * 1024 * 1024  # PNG bytes
ROWS_UP_FROM = 2_000_000     # pixels: a larger picture's PNG is written by .png.fast_png
MIN_SCALE = 16               # pixels per square below which the overview is drawn
MAX_SCALE = 44               # pixels per square of a small region
VIEWPORT_SIDE = 64           # squares: the widest viewport of an overview (renders at 44 px a square)
DEFAULT_MARGIN = 2           # squares around the occupied area
_DETAILED_CELL_SCALE = 12    # pixels per square from which an overview cell shows squares and pieces
_LEGEND_PLAYERS = 80         # players an overview's legend names at most
_READ_SLICE = 2_048          # pieces read at a time (see _BoardRead)
_MAX_GRID = 200              # most columns (rows) of an overview's viewport grid (20 px cells)
INSET_FROM = 40              # squares: a framed board wider or taller than this, of far-apart areas, is drawn as insets
MAX_INSETS = 12              # more far-apart areas than this: the overview
_INSET_GAP = 24              # pixels between insets

# colours (chess.svg's board, slightly muted so that player colours stand out)
_LIGHT: RGB = (240, 217, 181)
_DARK: RGB = (196, 160, 120)
_OUTSIDE_LIGHT: RGB = (150, 150, 150)
_OUTSIDE_DARK: RGB = (130, 130, 130)
_FIVE_LINE: RGB = (120, 90, 60)
_BOUND_LINE: RGB = (30, 30, 30)
_RANK0_TINT = ((90, 150, 220), 0.35)
_IMPLOSION_TINT = ((230, 60, 30), 0.55)
_FROM_TINT = ((250, 235, 60), 0.45)
_TO_TINT = ((250, 235, 60), 0.65)
_HILL_TINT = ((255, 200, 0), 0.6)
_HIGHLIGHT: RGB = (0, 170, 200)
_VARIETY: RGB = (150, 60, 210)
_MOVE_ARROW = (20, 100, 200, 150)
_CAPTURE_ARROW = (210, 20, 20, 170)
_BACKGROUND: RGB = (250, 250, 247)
_TEXT: RGB = (25, 25, 25)
_MUTED: RGB = (95, 95, 95)
_RAINBOW = ((228, 3, 3), (255, 140, 0), (255, 237, 0), (0, 128, 38), (0, 77, 255), (117, 7, 135))
# board additions: kingdoms' tint, fading counters, and the tokens of marks by kind (shape, fill; the
# fills from Okabe and Ito's colour-blind-safe set, the shapes and labels telling the kinds apart anyway)
_KINGDOM_ALPHA = 0.4
_FADING: RGB = (245, 190, 50)
_FADING_LAST: RGB = (200, 25, 25)
_TOKEN_STYLES: dict[str, tuple[str, RGB]] = {
    "new": ("circle", (0, 158, 115)),        # a new piece: its letter to place next round
    "upgrade": ("arrow", (0, 114, 178)),     # an upgrade: an arrow pointing up
    "king": ("crown", (230, 159, 0)),        # king me: a crown
}
_TOKEN_DEFAULT: tuple[str, RGB] = ("square", (150, 110, 190))


@dataclass(frozen=True, slots=True)
class Label:
    """One axis label: its text, the axis (``x``, ``y``; ``column``, ``row`` in an overview), the
    coordinate or grid index it names, the side it sits on and its pixel box."""

    text: str
    axis: str
    value: int
    side: str
    box: Box


@dataclass(frozen=True)
class Inset:
    """One area of a board of far-apart areas: its viewport name (``B2``), its squares, the pixel box
    of its squares in the picture and the side of a square."""

    name: str
    region: Region
    board_box: Box
    scale: int

    def contains(self, square: Square) -> bool:
        x0, y0, x1, y1 = self.region
        return x0 <= square[0] <= x1 and y0 <= square[1] <= y1


@dataclass(frozen=True)
class BoardLayout:
    """Where things are in a rendered board.

    ``region`` is the box of squares shown (x0, y0, x1, y1, inclusive). In a board, ``scale`` is
    the side of a square in pixels and :meth:`box` gives a square's pixel box. In an overview
    (``overview`` True) ``viewports`` maps each labelled viewport name (``C4``) to its region;
    :meth:`box` then gives the dot of a square, or None for a square in a squeezed gap.
    """

    region: Region
    scale: float
    overview: bool
    board_box: Box
    labels: tuple[Label, ...] = ()
    viewports: dict[str, Region] = field(default_factory=dict)
    columns: tuple[tuple[int, int], ...] = ()      # overview: x span of each grid column
    rows: tuple[tuple[int, int], ...] = ()         # overview: y span of each grid row, upward
    cell: int = 0                                  # overview: side of a grid cell in pixels
    marks: tuple[tuple[Mark, Box], ...] = ()       # board: each drawn mark (power-ups, ...) and its pixel box
    kingdoms: tuple[Kingdom, ...] = ()             # board: the kingdoms drawn (some of their squares in view)
    fading: tuple[tuple[Fading, Box], ...] = ()    # board: each fading piece's badge and its box
    focus: str = ""                                # the words naming the framed focus ("kingdom of Ann")
    insets: tuple[Inset, ...] = ()                 # far-apart areas drawn as insets (named as in ``viewports``)

    def kingdom_squares(self, owner: str) -> set[Square]:
        """The squares in view tinted as ``owner``'s kingdom (within the radius of one of their kings)."""
        return {square for kingdom in self.kingdoms if kingdom.owner == owner
                for square in _circle_squares(kingdom, self.region)}

    @property
    def label_boxes(self) -> dict[str, tuple[Box, ...]]:
        """Axis label text -> the boxes where it is written (it usually appears on two sides)."""
        result: dict[str, list[Box]] = defaultdict(list)
        for label in self.labels:
            result[label.text].append(label.box)
        return {text: tuple(boxes) for text, boxes in result.items()}

    def contains(self, square: Square) -> bool:
        if self.insets:
            return any(inset.contains(square) for inset in self.insets)
        x0, y0, x1, y1 = self.region
        return x0 <= square[0] <= x1 and y0 <= square[1] <= y1

    def inset_of(self, square: Square) -> Inset | None:
        """The inset showing ``square`` (a board of far-apart areas), or None."""
        return next((inset for inset in self.insets if inset.contains(square)), None)

    def box(self, square: Square) -> Box | None:
        """The pixel box (x0, y0, x1, y1; the far edges exclusive) showing ``square``."""
        if not self.contains(square):
            raise ValueError(f"square {square} is outside the rendered region {self.region}")
        left, top = self.board_box[0], self.board_box[1]
        x, y = square
        inset = self.inset_of(square)
        if inset is not None:
            px = inset.board_box[0] + (x - inset.region[0]) * inset.scale
            py = inset.board_box[1] + (inset.region[3] - y) * inset.scale
            return px, py, px + inset.scale, py + inset.scale
        if not self.overview:
            s = int(self.scale)
            px = left + (x - self.region[0]) * s
            py = top + (self.region[3] - y) * s
            return px, py, px + s, py + s
        column = _span_index(self.columns, x)
        row = _span_index(self.rows, y)
        if column is None or row is None:
            return None
        (cx0, cx1), (ry0, ry1) = self.columns[column], self.rows[row]
        sx, sy = self.cell / (cx1 - cx0 + 1), self.cell / (ry1 - ry0 + 1)
        px = left + column * self.cell + int((x - cx0) * sx)
        py = top + (len(self.rows) - 1 - row) * self.cell + int((ry1 - y) * sy)
        return px, py, px + max(1, math.ceil(sx)), py + max(1, math.ceil(sy))

    def square_at(self, px: int, py: int) -> Square | None:
        """The square drawn at a pixel of a board (not an overview), or None outside the board."""
        if self.overview:
            raise ValueError("an overview has no square at a pixel; use its viewports")
        for inset in self.insets:
            left, top, right, bottom = inset.board_box
            if left <= px < right and top <= py < bottom:
                return inset.region[0] + (px - left) // inset.scale, inset.region[3] - (py - top) // inset.scale
        if self.insets:
            return None
        left, top, right, bottom = self.board_box
        if not (left <= px < right and top <= py < bottom):
            return None
        s = int(self.scale)
        return self.region[0] + (px - left) // s, self.region[3] - (py - top) // s


@dataclass(frozen=True)
class Rendered:
    """A rendered image: PNG bytes, its layout and its size in pixels."""

    png: bytes
    layout: BoardLayout
    width: int
    height: int


def _span_index(spans: Sequence[tuple[int, int]], value: int, starts: Sequence[int] | None = None) -> int | None:
    """The index of the span holding ``value`` (spans sorted and disjoint), or None."""
    if starts is None:
        starts = [a for a, _ in spans]
    index = bisect_right(starts, value) - 1
    if index >= 0 and value <= spans[index][1]:
        return index
    return None


def _overlap(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def state_label(state) -> str:
    """Which position a picture shows, in one convention for boards and timelapse frames: the
    update whose result it is ("after update 4"), or "before update 1" for the empty start."""
    done = state.update - 1
    return f"after update {done}" if done >= 1 else f"before update {state.update}"


def viewport_name(column: int, row: int) -> str:
    """Grid name of a viewport: columns A..Z, AA, AB, ... (0-based in), rows 1, 2, ... (0-based in)."""
    letters = ""
    n = column + 1
    while n:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{row + 1}"


# ----------------------------------------------------------------------------- the entry point
@dataclass(frozen=True)
class Painted:
    """A board drawn, before its PNG is written (:meth:`encode`): a caller with other work to do
    meanwhile writes it on another thread (zlib and Pillow's copies run without the interpreter lock)."""

    image: Image.Image
    layout: BoardLayout

    def encode(self) -> Rendered:
        return Rendered(_encode(self.image), self.layout, self.image.width, self.image.height)


def render_board(ruleset: Ruleset, state: GameState, *, region: Region | None = None,
                 center: Square | None = None, radius: int | None = None, palette: str = "default",
                 last_moves: Iterable[tuple[Square | None, Square, bool]] | None = None,
                 highlight: Iterable[Square] | None = None, focus: "Focus | str | None" = None,
                 additions: BoardAdditions | None = None) -> Rendered:
    """``paint_board(...).encode()``: the board as a PNG (see :func:`paint_board`)."""
    return paint_board(ruleset, state, region=region, center=center, radius=radius, palette=palette,
                       last_moves=last_moves, highlight=highlight, focus=focus, additions=additions).encode()


def paint_board(ruleset: Ruleset, state: GameState, *, region: Region | None = None,
                center: Square | None = None, radius: int | None = None, palette: str = "default",
                last_moves: Iterable[tuple[Square | None, Square, bool]] | None = None,
                highlight: Iterable[Square] | None = None, focus: "Focus | str | None" = None,
                additions: BoardAdditions | None = None) -> Painted:
    """Draw ``state`` (:meth:`Painted.encode` makes the PNG).

    The region shown is ``region`` (x0, y0, x1, y1, inclusive, in either order), else the square
    of side ``2 * radius + 1`` around ``center`` (radius 8 if not given), else the region framing
    ``focus`` (:class:`Focus`: a team, a player's pieces or a player's kingdom; ``"team:alabaster"``,
    ``"player:Ann"``, ``"kingdom:Ann"``), else the occupied area with a margin of two squares
    (within the bounds, when the board has them). ``last_moves`` lists the last update's moves as
    ``(origin, target, captured)`` (origin None for a piece that arrived without moving); by default
    the state's ``moved_last_update``. ``highlight`` squares get a cyan frame. ``palette`` is one of
    :data:`~bot.render.palette.PALETTES`. ``additions``: what the board shows besides the pieces
    (marks, kingdoms, fading pieces); by default the variant's ``board_additions(state)``.
    """
    planned = plan_board(ruleset, state, region=region, center=center, radius=radius, palette=palette,
                         last_moves=last_moves, highlight=highlight, focus=focus, additions=additions)
    return planned if isinstance(planned, Painted) else planned.paint()


def plan_board(ruleset: Ruleset, state: GameState, *, region: Region | None = None,
               center: Square | None = None, radius: int | None = None, palette: str = "default",
               last_moves: Iterable[tuple[Square | None, Square, bool]] | None = None,
               highlight: Iterable[Square] | None = None, focus: "Focus | str | None" = None,
               additions: BoardAdditions | None = None) -> "Painted | Overview":
    """:func:`paint_board`'s picture, drawn, or, when it is an overview, what the overview shows
    (:class:`Overview`, which :meth:`Overview.paint` draws): a caller may have it drawn elsewhere,
    by another process (issue 25)."""
    if palette not in PALETTES:
        raise ValueError(f"unknown palette {palette!r}: choose one of {', '.join(PALETTES)}")
    bounds = state.board.bounds or ruleset.bounds_for(len(state.players))
    if additions is None:
        additions = additions_of(ruleset, state)
    caption = ""
    # a region worked out here (the occupied area, a zoom on a player or a team) may be drawn as
    # insets when its pieces stand in areas far apart (issue 27); a region asked for never is
    framed = region is None and center is None and radius is None and not highlight
    if focus is not None and region is None and center is None and radius is None:
        region, caption = focus_region(state, additions, focus, bounds)
        framed = framed and not caption.startswith(_VIEWPORT_WORD)      # a viewport is one area, drawn whole
    board = _BoardRead(state)
    chosen = _choose_region(state, bounds, region, center, radius, additions, board)
    colours = _PlayerColours(state, palette)
    if last_moves is None:
        moves = [(m.origin, m.target, False) for m in state.moved_last_update]
    else:
        moves = [(tuple(a) if a is not None else None, tuple(b), bool(c)) for a, b, c in last_moves]
    image = layout = None
    within = _InRegion(state, chosen, board)        # the region's pieces and grid, for the insets and the overview
    if framed:
        image, layout = _InsetPainter(ruleset, state, chosen, bounds, colours, moves, additions, caption,
                                      within).paint()
    if image is None:
        painter = _BoardPainter(ruleset, state, chosen, bounds, colours, moves,
                                frozenset(tuple(s) for s in highlight or ()), additions, caption)
        image, layout = painter.paint()
    if image is None:
        return Overview.read(ruleset, state, chosen, colours, additions, caption, within)
    return Painted(image, layout)


def _encode(image: Image.Image) -> bytes:
    """The PNG at zlib's fastest level; a picture above :data:`ROWS_UP_FROM` pixels (a large game's
    overview) with every row less the one above it, compressed by ISA-L (:func:`~.png.fast_png`:
    11-12 ms for the overview of 50,000 pieces where Pillow took 0.1 s, 0.52 MB instead of
    0.48 MB), unless that is too large."""
    data = fast_png(image, rows="up") if image.width * image.height > ROWS_UP_FROM else b""
    if not data or len(data) > MAX_BYTES:
        buffer = io.BytesIO()
        image.save(buffer, "PNG", compress_level=1)
        data = buffer.getvalue()
    if len(data) > MAX_BYTES:
        # a board this busy still fits in 256 colours: the palette image is a fraction of the size
        buffer = io.BytesIO()
        image.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(buffer, "PNG", optimize=False)
        data = buffer.getvalue()
    if len(data) > MAX_BYTES:
        raise ValueError(f"the board image would take {len(data)} bytes, above {MAX_BYTES}")
    return data


def additions_of(ruleset: Ruleset, state: GameState) -> BoardAdditions:
    """What the board shows besides the pieces: the variant's answer (a ruleset no variant plays
    yet still shows the state's implosion and marked squares)."""
    try:
        variant = variant_for(ruleset)
    except VariantUnavailable:
        return BoardAdditions(marks=tuple([Mark(square, "implosion") for square in sorted(state.implosions)]
                                          + [Mark(square, "hill") for square in sorted(state.marked)]))
    return variant.board_additions(state)


@dataclass(frozen=True, slots=True)
class Focus:
    """A part of the board to frame: ``kind`` is ``team`` (the pieces of a team's players),
    ``player`` (a player's pieces) or ``kingdom`` (the circles of a player's kingdom, or their
    pieces when they have none); ``name`` the team or the player."""

    kind: str
    name: str

    KINDS = ("team", "player", "kingdom", "viewport", "all")
    #: words that ask for the whole board (its default picture)
    WHOLE = ("all", "whole", "board", "whole board")

    @classmethod
    def parse(cls, text: "Focus | str") -> "Focus":
        """``team:NAME``, ``player:NAME``, ``kingdom:NAME`` (a bare name is a player's kingdom, or
        the viewport of that name, ``B2``, when no player has it), ``viewport:B2``, or ``all``: the
        whole board, as its default picture frames it."""
        if isinstance(text, Focus):
            return text
        if str(text).strip().lower() in cls.WHOLE:
            return cls("all", "board")
        kind, sep, name = str(text).partition(":")
        if not sep:
            kind, name = "kingdom", kind
        kind, name = kind.strip().lower(), name.strip()
        if kind == "viewport":
            name = name.upper()
        if kind not in cls.KINDS or not name:
            raise ValueError(f"a focus is team:NAME, player:NAME, kingdom:NAME, a viewport such as B2, or all; "
                             f"not {text!r}")
        return cls(kind, name)


_VIEWPORT_NAME = re.compile(r"^[A-Za-z]{1,3}[1-9][0-9]{0,3}$")
_VIEWPORT_WORD = "viewport "


def is_viewport_name(text: str) -> bool:
    """Whether ``text`` is written like a viewport's name (``B2``, ``aa10``): letters, then a row number."""
    return bool(_VIEWPORT_NAME.match(str(text).strip()))


def focus_region(state: GameState, additions: BoardAdditions, focus: "Focus | str", bounds) -> tuple[Region, str]:
    """The region framing ``focus`` and the words naming it for the title (``kingdom of Ann``).

    A team: every piece of its players, with a margin of two squares. A player: their pieces, the
    same. A kingdom: every circle of the player's kingdom whole, with a margin of one square (a
    player with no kingdom: their pieces). Raises ValueError naming what is missing."""
    focus = Focus.parse(focus)
    players = state.players
    if focus.kind == "all":
        return _choose_region(state, bounds, None, None, None, additions), ""
    if focus.kind == "kingdom" and _VIEWPORT_NAME.match(focus.name) and not _has_player(state, focus.name):
        focus = Focus("viewport", focus.name.upper())
    if focus.kind == "viewport":
        named = _occupied_viewports(state, _choose_region(state, bounds, None, None, None, additions))
        if focus.name not in named:
            known = f"it names {', '.join(sorted(named, key=_viewport_order))}" if named else "it has no pieces"
            raise ValueError(f"the board has no viewport {focus.name}: {known}")
        return named[focus.name], f"{_VIEWPORT_WORD}{focus.name}"
    if focus.kind == "team":
        wanted = focus.name.casefold()
        names = sorted(name for name, player in players.items()
                       if player.team is not None and player.team.casefold() == wanted)
        teams = sorted({player.team for player in players.values() if player.team})
        if not names:
            known = f" (teams: {', '.join(teams)})" if teams else " (this game has no teams)"
            raise ValueError(f"no player of this game is on a team named {focus.name!r}{known}")
        team = players[names[0]].team
        squares = [piece.square for name in names for piece in state.board.owned_by(name)]
        if not squares:
            raise ValueError(f"no player of team {team} has pieces on the board")
        return _frame(squares, DEFAULT_MARGIN, bounds), f"team {team}"
    name = _player_named(state, focus.name)
    squares = [piece.square for piece in state.board.owned_by(name)]
    if focus.kind == "kingdom":
        circles = [k for k in additions.kingdoms if k.owner == name]
        if circles:
            corners = [(k.centre[0] + dx * k.radius, k.centre[1] + dy * k.radius) for k in circles
                       for dx in (-1, 1) for dy in (-1, 1)]
            return _frame(corners, 1, bounds), f"kingdom of {name}"
    if not squares:
        raise ValueError(f"{name} has no pieces on the board")
    return _frame(squares, DEFAULT_MARGIN, bounds), f"{name}'s pieces"


def _has_player(state: GameState, name: str) -> bool:
    return name in state.players or any(n.casefold() == name.casefold() for n in state.players)


def _viewport_order(name: str) -> tuple[int, int, str]:
    """Viewport names in the grid's reading order: row, then column (``A1``, ``B1``, ``A2``)."""
    letters = name.rstrip("0123456789")
    return int(name[len(letters):]), len(letters), letters


def _player_named(state: GameState, name: str) -> str:
    if name in state.players:
        return name
    folded = [n for n in state.players if n.casefold() == name.casefold()]
    if len(folded) == 1:
        return folded[0]
    raise ValueError(f"no player named {name!r} in this game")


def _frame(squares: Sequence[Square], margin: int, bounds) -> Region:
    return framed_region([s[0] for s in squares], [s[1] for s in squares], margin, bounds)


def _circle_squares(kingdom: Kingdom, region: Region) -> Iterable[Square]:
    """The squares of ``kingdom`` (``dx^2 + dy^2 <= radius^2``) inside ``region``."""
    (cx, cy), r = kingdom.centre, kingdom.radius
    x0, y0, x1, y1 = region
    for x in range(max(x0, cx - r), min(x1, cx + r) + 1):
        reach = math.isqrt(r * r - (x - cx) ** 2)
        for y in range(max(y0, cy - reach), min(y1, cy + reach) + 1):
            yield x, y


def _choose_region(state: GameState, bounds, region, center, radius, additions: BoardAdditions,
                   board: "_BoardRead | None" = None) -> Region:
    if region is not None:
        x0, y0, x1, y1 = (int(v) for v in region)
        return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)
    if center is not None or radius is not None:
        cx, cy = center if center is not None else (0, 0)
        r = 8 if radius is None else max(0, int(radius))
        return cx - r, cy - r, cx + r, cy + r
    box = (board or state.board).bounding_box()
    extra = [mark.square for mark in additions.marks]
    if box is None and not extra:
        if bounds is not None:
            (bx0, by0), (bx1, by1) = bounds
            cx, cy = (bx0 + bx1) // 2, (by0 + by1) // 2
            return max(bx0, cx - 4), max(by0, cy - 4), min(bx1, cx + 4), min(by1, cy + 4)
        return -4, -4, 4, 4
    xs = [s[0] for s in extra]
    ys = [s[1] for s in extra]
    if box is not None:
        xs += [box[0][0], box[1][0]]
        ys += [box[0][1], box[1][1]]
    return framed_region(xs, ys, DEFAULT_MARGIN, bounds)


def framed_region(xs: list[int], ys: list[int], margin: int, bounds) -> Region:
    """The box around these coordinates with a margin, at least 9 x 9 squares, and on a bounded
    board no more than one square outside its edge."""
    x0, y0 = min(xs) - margin, min(ys) - margin
    x1, y1 = max(xs) + margin, max(ys) + margin
    # a small area is shown with some room around it: at least 9 x 9 squares
    if x1 - x0 < 8:
        grow = 8 - (x1 - x0)
        x0, x1 = x0 - grow // 2, x1 + grow - grow // 2
    if y1 - y0 < 8:
        grow = 8 - (y1 - y0)
        y0, y1 = y0 - grow // 2, y1 + grow - grow // 2
    if bounds is not None:
        # show the edge of a bounded board, not a sea of outside squares
        (bx0, by0), (bx1, by1) = bounds
        x0, y0 = max(x0, bx0 - 1), max(y0, by0 - 1)
        x1, y1 = min(x1, bx1 + 1), min(y1, by1 + 1)
    return x0, y0, x1, y1


@lru_cache(maxsize=1024)
def _player_rgb(colour: str, palette: str) -> tuple[RGB, ...]:
    """:func:`~.palette.player_rgb`, kept: a game of 1,000 players has a few dozen colours, each
    looked up again for every player every picture (an unknown colour raises each time)."""
    return player_rgb(colour, palette)


class _PlayerColours:
    """Owner -> tones in the chosen palette; a colour name the palette does not know gets a
    free palette colour (by the owner's name order), so a piece is never drawn colourless."""

    def __init__(self, state: GameState, palette: str) -> None:
        self.palette = palette
        self.tones: dict[str | None, tuple[RGB, ...]] = {None: ()}
        self.names: dict[str, str] = {}
        unknown = []
        for name in sorted(state.players):
            colour = state.players[name].colour
            try:
                self.tones[name] = _player_rgb(colour, palette)
                self.names[name] = colour
            except ValueError:
                unknown.append(name)
        used = {c.casefold() for c in self.names.values()}
        spare = [c for c in colour_names() if c.casefold() not in used]
        for index, name in enumerate(unknown):
            colour = spare[index % len(spare)] if spare else "Grey"
            self.tones[name] = player_rgb(colour, palette)
            self.names[name] = colour

    def of(self, owner: str | None) -> tuple[RGB, ...]:
        tones = self.tones.get(owner)
        if tones is None:  # a piece of someone not in the player list
            spare = colour_names()
            tones = player_rgb(spare[sum(map(ord, owner or "")) % len(spare)], self.palette)
            self.tones[owner] = tones
            self.names[owner] = "?"
        return tones


def _blend(base: RGB, tint: tuple[RGB, float]) -> RGB:
    colour, alpha = tint
    return tuple(round(b * (1 - alpha) + c * alpha) for b, c in zip(base, colour))  # type: ignore[return-value]


def _mean_tone(tones: Sequence[RGB]) -> RGB:
    if not tones:
        return NEUTRAL_RGB
    return tuple(sum(t[c] for t in tones) // len(tones) for c in range(3))  # type: ignore[return-value]


def _kingdom_tint(tones: Sequence[RGB]) -> RGB:
    """The colour a kingdom tints its squares toward: its owner's colour, paled halfway to white."""
    return _blend(_mean_tone(tones), ((255, 255, 255), 0.5))


def _reaches(kingdom: Kingdom, region: Region) -> bool:
    """Whether some square of ``kingdom`` lies inside ``region``."""
    x0, y0, x1, y1 = region
    (cx, cy), r = kingdom.centre, kingdom.radius
    dx = max(x0 - cx, 0, cx - x1)
    dy = max(y0 - cy, 0, cy - y1)
    return dx * dx + dy * dy <= r * r


def _fit_label(text: str, width: float, height: float) -> int | None:
    """The largest type size (at most 40, at least 8) at which ``text`` fits the box, or None."""
    for size in range(min(40, max(8, int(height * 1.25))), 7, -1):
        mask_width, mask_height = _mask_size(text, size, True)
        if mask_width <= width and mask_height <= height:
            return size
    return None


@lru_cache(maxsize=8192)
def _text_size(face, text: str) -> tuple[int, int]:
    """The size of ``text``'s box in ``face`` (kept: an overview measures the coordinates of every
    column and row, mostly the same from one update to the next)."""
    box = text_box(face, text)
    return box[2] - box[0], box[3] - box[1]


@lru_cache(maxsize=64)
def _middle_rise(face) -> int:
    """How many pixels higher ``draw.text(..., anchor="lm")`` draws a text than the default anchor
    ("la") does at the same point: the same pixels, drawn by :func:`~.glyphs.draw_text` (which knows
    the default anchor only) that much higher. The middle is the font's, the same for any text."""
    return face.getbbox("x", anchor="la")[1] - face.getbbox("x", anchor="lm")[1]


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, bold: bool) -> Image.Image:
    """``text`` rendered once as a tight mask (labels and badges repeat: "+" on 2,000 pieces): the
    pixels Pillow draws centred on the box's middle ("mm"), with the box's corner at the mask's,
    composed from cached glyphs (:func:`~.glyphs.text_mask`): an overview meets a few hundred to a
    thousand new viewport names and coordinates at each update, each 10 us instead of 40."""
    return text_mask(bold_font(size) if bold else font(size), text, _text_box(text, size, bold))[0]


@lru_cache(maxsize=8192)
def _text_box(text: str, size: int, bold: bool) -> tuple[int, int, int, int]:
    """The box of ``text`` (``getbbox``'s, from cached glyphs: :func:`~.glyphs.text_box`)."""
    return text_box(bold_font(size) if bold else font(size), text)


def _mask_size(text: str, size: int, bold: bool) -> tuple[int, int]:
    """The size of ``_text_mask(text, size, bold)``, without drawing it (an overview measures every
    column's and row's coordinates; of its tags, those left out are never drawn)."""
    left, top, right, bottom = _text_box(text, size, bold)
    return max(1, right - left), max(1, bottom - top)


@lru_cache(maxsize=1024)
def _upright_text_mask(text: str, size: int, bold: bool) -> Image.Image:
    """:func:`_text_mask` turned a quarter to read upward (an overview's column coordinates, the
    same from one picture to the next)."""
    return _text_mask(text, size, bold).rotate(90, expand=True)


def _centred_text(draw: ImageDraw.ImageDraw, text: str, size: int, centre: tuple[float, float], fill: RGB,
                  bold: bool = True, align: str = "centre") -> Box:
    """Draw ``text`` centred on ``centre`` (or ending there, ``align="right"``); its pixel box."""
    mask = _text_mask(text, size, bold)
    x = round(centre[0] - {"right": mask.width, "left": 0}.get(align, mask.width / 2))
    y = round(centre[1] - mask.height / 2)
    draw.bitmap((x, y), mask, fill=fill)
    return x, y, x + mask.width, y + mask.height


# ----------------------------------------------------------------------------- the legend
@dataclass
class _LegendItem:
    kind: str                  # "player", "piece", "mark", "token", "heading", "text"
    text: str
    payload: object = None
    fit: bool = False          # the column widens to fit this text (the additions' longer words)


class _Legend:
    """The panel right of the board: players, kinds and marks present, in columns; its type grows
    with the squares so that it reads at the same zoom as the board."""

    def __init__(self, items: list[_LegendItem], height: int, scale: int = 28) -> None:
        self.items = items
        self.ICON = max(22, min(30, round(scale * 0.62)))
        self.ROW = self.ICON + 7
        self.TEXT = max(14, min(18, round(scale * 0.4)))
        self.WIDTH = 150 + 8 * self.TEXT
        fitted = [item.text for item in items if item.fit]
        if fitted:
            face = font(self.TEXT)
            self.WIDTH = max(self.WIDTH, max(round(face.getlength(text)) for text in fitted) + self.ICON + 26)
        per_column = max(4, (height - 16) // self.ROW)
        self.columns = max(1, math.ceil(len(items) / per_column)) if items else 0
        self.per_column = per_column
        self.width = self.columns * self.WIDTH + (16 if items else 0)
        self.height = min(len(items), per_column) * self.ROW + 16 if items else 0


# ----------------------------------------------------------------------------- the board
class _BoardPainter:
    def __init__(self, ruleset: Ruleset, state: GameState, region: Region, bounds, colours: _PlayerColours,
                 moves: list[tuple[Square | None, Square, bool]], highlight: frozenset[Square],
                 additions: BoardAdditions = BoardAdditions(), caption: str = "", inset: str | None = None,
                 scale: int | None = None) -> None:
        self.ruleset, self.state, self.region, self.bounds = ruleset, state, region, bounds
        self.colours, self.moves, self.highlight = colours, moves, highlight
        self.additions, self.caption = additions, caption
        # an inset of a board of far-apart areas: titled ``inset``, at ``scale``, its legend shared
        self.inset, self.fixed_scale = inset, scale
        x0, y0, x1, y1 = region
        self.nx, self.ny = x1 - x0 + 1, y1 - y0 + 1
        self.drawn_marks: list[tuple[Mark, Box]] = []
        self.drawn_fading: list[tuple[Fading, Box]] = []
        self.drawn_kingdoms: tuple[Kingdom, ...] = ()
        self.base: dict[Square, RGB] = {}          # squares whose colour a kingdom tints

    # ------------------------------------------------------------------ sizes
    def _scale(self, legend_width: int) -> int:
        label_room = 2 * 70 + 2 * 12     # y labels both sides, padding; refined below
        title_room = 40 + 2 * 30
        across = (MAX_SIDE - label_room - legend_width) // self.nx
        down = (MAX_SIDE - title_room) // self.ny
        return min(MAX_SCALE, across, down)

    def paint(self) -> tuple[Image.Image | None, BoardLayout | None]:
        if min(MAX_SIDE // max(self.nx, 1), MAX_SIDE // max(self.ny, 1)) < MIN_SCALE:
            return None, None
        pieces = self._pieces_in_region()
        marks = self._marks(pieces)
        legend_items = self._legend_items(pieces, marks) if self.inset is None else []
        legend = _Legend(legend_items, MAX_SIDE - 120, MAX_SCALE)
        scale = self._scale(legend.width) if self.fixed_scale is None else self.fixed_scale
        if scale < MIN_SCALE:
            return None, None
        self.present = (pieces, marks)        # what an inset shows, for the shared legend
        s = scale
        label_face = bold_font(max(11, min(15, round(s * 0.36))))
        x_spacing = self._label_spacing(label_face, s)
        y_texts = [str(y) for y in range(self.region[1], self.region[3] + 1)]
        y_label_width = max(_text_size(label_face, t)[0] for t in y_texts + ["-00"]) + 10
        x_label_height = _text_size(label_face, "-0123456789")[1] + 10
        title_face = bold_font(max(16, min(20, round(s * 0.42))))
        title_height = 40
        board_w, board_h = self.nx * s, self.ny * s
        left = y_label_width + 6
        top = title_height + x_label_height
        # the legend may run below a short board rather than spread sideways into its room
        legend = _Legend(legend_items, max(board_h + 2 * x_label_height, 1000), s)
        width = left + board_w + y_label_width + 6 + legend.width
        height = max(top + board_h + x_label_height + 8, title_height + legend.height + 8)
        if width > MAX_SIDE or height > MAX_SIDE:
            # the legend grew into more columns than planned: shrink the squares to make room
            s = min(s - max(1, math.ceil((width - MAX_SIDE) / self.nx)) if width > MAX_SIDE else s,
                    s - max(1, math.ceil((height - MAX_SIDE) / self.ny)) if height > MAX_SIDE else s)
            if s < MIN_SCALE:
                return None, None
            board_w, board_h = self.nx * s, self.ny * s
            width = left + board_w + y_label_width + 6 + legend.width
            height = max(top + board_h + x_label_height + 8, title_height + legend.height + 8)
        if self.inset is not None:     # its title names it and its squares: room for it all
            x0, y0, x1, y1 = self.region
            width = max(width, left + _text_size(title_face, f"{self.inset} · x {x0}..{x1}, y {y0}..{y1}")[0] + 12)
        image = Image.new("RGB", (width, height), _BACKGROUND)
        draw = ImageDraw.Draw(image)
        board_box = (left, top, left + board_w, top + board_h)
        layout_labels: list[Label] = []

        board = self._paint_board(s, pieces, marks)
        image.paste(board, (left, top))
        draw.rectangle((left - 1, top - 1, left + board_w, top + board_h), outline=_TEXT)

        # axis labels on all four sides
        x0, y0, x1, y1 = self.region
        for x in range(x0, x1 + 1):
            if x % x_spacing:
                continue
            text = str(x)
            face = label_face
            w, h = _text_size(face, text)
            cx = left + (x - x0) * s + s // 2
            for side, cy in (("top", top - x_label_height // 2), ("bottom", top + board_h + x_label_height // 2)):
                box = self._draw_label(draw, face, text, cx, cy, bold_zero=(x == 0))
                layout_labels.append(Label(text, "x", x, side, box))
        for y in range(y0, y1 + 1):
            text = str(y)
            cy = top + (y1 - y) * s + s // 2
            for side, cx in (("left", left - 3 - y_label_width // 2), ("right", left + board_w + 3 + y_label_width // 2)):
                box = self._draw_label(draw, label_face, text, cx, cy, bold_zero=(y == 0))
                layout_labels.append(Label(text, "y", y, side, box))

        focus = f" · {self.caption}" if self.caption else ""
        title = (f"{self.ruleset.title or self.ruleset.name} · {state_label(self.state)} · "
                 f"x {x0}..{x1}, y {y0}..{y1}{focus}")
        if _text_size(title_face, title)[0] > width - left - 8:
            title = f"{self.ruleset.name} · {state_label(self.state)} · x {x0}..{x1}, y {y0}..{y1}{focus}"
        if self.inset is not None:
            title = f"{self.inset} · x {x0}..{x1}, y {y0}..{y1}"
        draw.text((left, 10), title, font=title_face, fill=_TEXT)
        self._paint_legend(draw, legend, (left + board_w + y_label_width + 12, title_height))
        shift = lambda box: (box[0] + left, box[1] + top, box[2] + left, box[3] + top)  # noqa: E731
        layout = BoardLayout(region=self.region, scale=s, overview=False, board_box=board_box,
                             labels=tuple(layout_labels),
                             marks=tuple((mark, shift(box)) for mark, box in self.drawn_marks),
                             kingdoms=self.drawn_kingdoms,
                             fading=tuple((fading, shift(box)) for fading, box in self.drawn_fading),
                             focus=self.caption)
        return image, layout

    def _label_spacing(self, face, s: int) -> int:
        x0, _, x1, _ = self.region
        widest = max(_text_size(face, str(x0))[0], _text_size(face, str(x1))[0], _text_size(face, "-0")[0])
        for spacing in (1, 2, 5, 10):
            if spacing * s >= widest + 6:
                return spacing
        return 10

    def _draw_label(self, draw: ImageDraw.ImageDraw, face, text: str, cx: int, cy: int, bold_zero: bool) -> Box:
        fill = (0, 70, 160) if bold_zero else _TEXT
        box = _centred_text(draw, text, face.size, (cx, cy), fill)
        if bold_zero:
            draw.line((box[0], box[3] + 1, box[2], box[3] + 1), fill=fill, width=1)
        return box

    # ------------------------------------------------------------------ what is where
    def _pieces_in_region(self) -> dict[Square, tuple[Piece, ...]]:
        x0, y0, x1, y1 = self.region
        board = self.state.board
        area = self.nx * self.ny
        result: dict[Square, tuple[Piece, ...]] = {}
        if area <= len(board):
            for x in range(x0, x1 + 1):
                for y in range(y0, y1 + 1):
                    here = board.at((x, y))
                    if here:
                        result[(x, y)] = here
        else:
            for square in board.squares():
                if x0 <= square[0] <= x1 and y0 <= square[1] <= y1:
                    result[square] = board.at(square)
        return result

    def _marks(self, pieces: dict[Square, tuple[Piece, ...]]) -> dict[str, set]:
        """Which pieces (by id) and squares carry which mark."""
        marks: dict[str, set] = defaultdict(set)
        state, ruleset = self.state, self.ruleset
        zombies = [k.letter for k in ruleset.pieces.values() if k.has("zombie")]
        variety = any(e.name == "Variety" for e in state.events)
        if pieces and (variety or any(state.board.count_of_kind(z) for z in zombies)):
            position = position_for(ruleset, state)
            for here in pieces.values():
                for piece in here:
                    if piece.owner is not None and position.frozen(piece):
                        marks["frozen"].add(piece.id)
                    if variety and position.locked(piece):
                        marks["variety"].add(piece.id)
        for here in pieces.values():
            for piece in here:
                if piece.owner is None:
                    continue
                if piece.energy:
                    marks["energy"].add(piece.id)
                    marks["capturable"].add(piece.id)
                elif piece.check == "capturable":
                    marks["capturable"].add(piece.id)
                elif piece.check == "fresh":
                    marks["fresh"].add(piece.id)
                elif piece.check == "spent":
                    marks["spent"].add(piece.id)
                if piece.disabled:
                    marks["disabled"].add(piece.id)
                if piece.spirit:
                    marks["spirit"].add(piece.id)
                if piece.carrying:
                    marks["cargo"].add(piece.id)
        region = self.region
        inside = lambda sq: region[0] <= sq[0] <= region[2] and region[1] <= sq[1] <= region[3]  # noqa: E731
        additions = self.additions
        marks["implosion"] = {m.square for m in additions.marks if m.kind == "implosion" and inside(m.square)}
        marks["hill"] = {m.square for m in additions.marks if m.kind == "hill" and inside(m.square)}
        marks["token"] = {m for m in additions.marks if m.kind not in ("implosion", "hill") and inside(m.square)}
        marks["kingdom"] = {k for k in additions.kingdoms if _reaches(k, region)}
        marks["fading"] = {f for f in additions.fading if inside(f.square)}
        marks["fading-last"] = {f for f in marks["fading"] if f.left <= 1}
        for origin, target, captured in self.moves:
            if (origin is not None and inside(origin)) or inside(target):
                marks["capture" if captured else "move"].add((origin, target))
        marks["highlight"] = {sq for sq in self.highlight if inside(sq)}
        if region[1] <= 0 <= region[3] and self._square_colour(region[0], 0) not in (_OUTSIDE_DARK, _OUTSIDE_LIGHT):
            marks["rank0"] = {True}
        if self.bounds is not None:
            (bx0, by0), (bx1, by1) = self.bounds
            if region[0] < bx0 or region[1] < by0 or region[2] > bx1 or region[3] > by1:
                marks["bounds"] = {True}
        return marks

    def _legend_items(self, pieces: dict[Square, tuple[Piece, ...]], marks: dict[str, set]) -> list[_LegendItem]:
        owners: Counter = Counter()
        kinds: set[str] = set()
        for here in pieces.values():
            for piece in here:
                owners[piece.owner] += 1
                kinds.add(piece.kind)
        items: list[_LegendItem] = []
        players = sorted({o for o in owners if o is not None} | {k.owner for k in marks.get("kingdom", ())})
        if players:
            items.append(_LegendItem("heading", "Players"))
            shown = players[:60]
            for name in shown:
                self.colours.of(name)
                record = self.state.players.get(name)
                team = f", {record.team}" if record is not None and record.team else ""
                items.append(_LegendItem("player", f"{name} ({self.colours.names.get(name, '?')}{team})", name,
                                         fit=bool(team)))
            if len(players) > len(shown):
                items.append(_LegendItem("text", f"... and {len(players) - len(shown)} more"))
        if kinds:
            items.append(_LegendItem("heading", "Pieces"))
            for letter, name in legend_entries(self.ruleset, kinds):
                items.append(_LegendItem("piece", f"{letter}  {name}", letter))
        mark_texts = [
            ("capturable", "capturable"), ("energy", "energy pawn"), ("fresh", "in check (fresh)"),
            ("spent", "in check (spent)"), ("disabled", "disabled (hollow)"), ("frozen", "frozen by a zombie"),
            ("variety", "moved last update (Variety)"), ("spirit", "possessed by a spirit"),
            ("cargo", "carried by a harpy"), ("implosion", "implosion square"), ("hill", "King of the Hill"),
            ("move", "last update's move"), ("capture", "last update's capture"), ("highlight", "highlighted"),
            ("rank0", "rank 0"), ("bounds", "outside the board"),
        ]
        radii = sorted({k.radius for k in marks.get("kingdom", ())})
        mark_texts[:0] = [("kingdom", "kingdom (radius " + " or ".join(map(str, radii)) + ")"),
                          ("fading", "fading: updates left"),
                          ("fading-last", "fading: its last update")]
        present = [(key, text) for key, text in mark_texts if marks.get(key)]
        tokens: dict[tuple[str, str, str], Mark] = {}
        for mark in sorted(marks.get("token", ()), key=lambda m: (m.kind, m.label, m.words, m.square)):
            tokens.setdefault((mark.kind, mark.label, mark.words), mark)
        if present or tokens:
            items.append(_LegendItem("heading", "Marks"))
            items += [_LegendItem("token", mark.words or mark.kind, mark, fit=True) for mark in tokens.values()]
            items += [_LegendItem("mark", text, key, fit=key in ("kingdom", "fading", "fading-last"))
                      for key, text in present]
        return items

    # ------------------------------------------------------------------ drawing the board
    def _square_colour(self, x: int, y: int) -> RGB:
        dark = (x + y) % 2 == 0       # (0,0) is dark, like a1
        if self.bounds is not None:
            (bx0, by0), (bx1, by1) = self.bounds
            if not (bx0 <= x <= bx1 and by0 <= y <= by1):
                return _OUTSIDE_DARK if dark else _OUTSIDE_LIGHT
        colour = _DARK if dark else _LIGHT
        if y == 0:
            colour = _blend(colour, _RANK0_TINT)
        return colour

    def _base_colour(self, square: Square) -> RGB:
        """A square's colour under the pieces: a kingdom's tint, or the board's own."""
        colour = self.base.get(square)
        return colour if colour is not None else self._square_colour(*square)

    def _paint_board(self, s: int, pieces: dict[Square, tuple[Piece, ...]], marks: dict[str, set]) -> Image.Image:
        x0, y0, x1, y1 = self.region
        nx, ny = self.nx, self.ny
        image = Image.new("RGB", (nx * s, ny * s), _LIGHT)
        draw = ImageDraw.Draw(image)

        def square_box(square: Square) -> Box:
            px = (square[0] - x0) * s
            py = (y1 - square[1]) * s
            return px, py, px + s, py + s

        # squares: the dark ones over a light background, rank 0 and outside squares by row
        for y in range(y0, y1 + 1):
            py = (y1 - y) * s
            special_row = y == 0 or self.bounds is not None
            if special_row:
                for x in range(x0, x1 + 1):
                    colour = self._square_colour(x, y)
                    if colour != _LIGHT:
                        px = (x - x0) * s
                        draw.rectangle((px, py, px + s - 1, py + s - 1), fill=colour)
            else:
                start = x0 + ((x0 + y) % 2)   # first dark square of the row
                for x in range(start, x1 + 1, 2):
                    px = (x - x0) * s
                    draw.rectangle((px, py, px + s - 1, py + s - 1), fill=_DARK)

        # kingdoms: each player's squares tinted with their colour, under everything else
        kingdoms = self._kingdom_squares(marks)
        if kingdoms:
            self._paint_kingdoms(draw, kingdoms, square_box)

        # tinted squares: last move, implosions, the hill
        for origin, target in sorted(marks.get("move", set()) | marks.get("capture", set()), key=repr):
            for square, tint in ((origin, _FROM_TINT), (target, _TO_TINT)):
                if square is not None and self._inside(square):
                    self._tint(draw, square_box(square), self._base_colour(square), tint)
        for square in marks.get("implosion", ()):
            box = square_box(square)
            self._tint(draw, box, self._base_colour(square), _IMPLOSION_TINT)
            self._burst(draw, box)
        for square in marks.get("hill", ()):
            box = square_box(square)
            self._tint(draw, box, self._base_colour(square), _HILL_TINT)
            star = font(max(8, int(s * 0.9)))
            draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "\u2605", font=star,
                      fill=(255, 240, 170), anchor="mm")

        # grid: a heavier line every five squares, rank 0's edges, the bounds
        for x in range(x0 + 1, x1 + 1):
            if x % 5 == 0:
                px = (x - x0) * s
                draw.line((px, 0, px, ny * s), fill=_FIVE_LINE, width=1)
        for y in range(y0, y1):
            if (y + 1) % 5 == 0:
                py = (y1 - y) * s
                draw.line((0, py, nx * s, py), fill=_FIVE_LINE, width=1)
        if y0 <= 0 <= y1:
            py = (y1 - 0) * s
            draw.line((0, py, nx * s, py), fill=(40, 90, 170), width=2)
            draw.line((0, py + s, nx * s, py + s), fill=(40, 90, 170), width=2)
        if self.bounds is not None:
            (bx0, by0), (bx1, by1) = self.bounds
            left = (bx0 - x0) * s
            right = (bx1 - x0 + 1) * s
            top = (y1 - by1) * s
            bottom = (y1 - by0 + 1) * s
            width = max(3, s // 8)
            draw.rectangle((left - width // 2, top - width // 2, right + width // 2 - 1, bottom + width // 2 - 1),
                           outline=_BOUND_LINE, width=width)

        if kingdoms:
            self._paint_kingdom_edges(draw, kingdoms, square_box, s)

        # marks on empty squares (power-ups): a token filling the square
        for mark in sorted(marks.get("token", ()), key=lambda m: (m.square, m.kind)):
            if mark.square not in pieces:
                box = square_box(mark.square)
                self.drawn_marks.append((mark, self._token(draw, box, mark, s)))

        for square in marks.get("highlight", ()):
            box = square_box(square)
            draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), outline=_HIGHLIGHT, width=max(2, s // 10))

        # pieces
        pad = max(1, round(s * 0.06))
        for square, here in pieces.items():
            box = square_box(square)
            if len(here) == 1:
                self._paint_piece(draw, box, here[0], marks, pad, s)
            else:
                half = s // 2
                for index, piece in enumerate(here[:4]):
                    dx, dy = (index % 2) * half, (index // 2) * half
                    sub = (box[0] + dx, box[1] + dy, box[0] + dx + half, box[1] + dy + half)
                    self._paint_piece(draw, sub, piece, marks, 0, half)
                if len(here) > 4:
                    self._badge_text(draw, box, f"{len(here)}", "centre", (255, 255, 255), (0, 0, 0), s)

        # last moves: arrows over everything, translucent
        arrows = [(o, t, False) for o, t in marks.get("move", ())] + [(o, t, True) for o, t in marks.get("capture", ())]
        arrows = [a for a in arrows if a[0] is not None]
        if arrows:
            overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
            odraw = ImageDraw.Draw(overlay)
            for origin, target, captured in sorted(arrows, key=repr):
                self._arrow(odraw, square_box(origin), square_box(target), _CAPTURE_ARROW if captured else _MOVE_ARROW, s)
            image = Image.alpha_composite(image.convert("RGBA"), overlay).convert("RGB")
            draw = ImageDraw.Draw(image)
        for origin, target in marks.get("capture", ()):
            if self._inside(target):
                self._cross(draw, square_box(target), s)

        # over the pieces: a mark under a piece as a small token in its corner; fading counters
        for mark in sorted(marks.get("token", ()), key=lambda m: (m.square, m.kind)):
            if mark.square in pieces:
                x0b, y0b, x1b, y1b = square_box(mark.square)
                d = max(10, round(s * 0.48))
                self.drawn_marks.append((mark, self._token(draw, (x1b - d, y1b - d, x1b, y1b), mark, d)))
        for fading in sorted(marks.get("fading", ()), key=lambda f: f.square):
            self.drawn_fading.append((fading, self._fading_badge(draw, square_box(fading.square), fading, s)))
        return image

    # ------------------------------------------------------------------ additions: kingdoms, tokens, fading
    def _kingdom_squares(self, marks: dict[str, set]) -> dict[str, set[Square]]:
        """Owner -> the squares of the region inside one of their kingdoms."""
        kingdoms = sorted(marks.get("kingdom", ()), key=lambda k: (k.owner, k.centre))
        self.drawn_kingdoms = tuple(kingdoms)
        squares: dict[str, set[Square]] = {}
        for kingdom in kingdoms:
            squares.setdefault(kingdom.owner, set()).update(_circle_squares(kingdom, self.region))
        return {owner: inside for owner, inside in squares.items() if inside}

    def _paint_kingdoms(self, draw: ImageDraw.ImageDraw, kingdoms: dict[str, set[Square]], square_box) -> None:
        """Each kingdom's squares tinted with its owner's colour, light enough for the pieces to stay
        clear (where kingdoms overlap, toward the mean of their colours: no darker than one)."""
        owners: dict[Square, list[str]] = defaultdict(list)
        for owner in sorted(kingdoms):
            for square in kingdoms[owner]:
                owners[square].append(owner)
        tints = {owner: _kingdom_tint(self.colours.of(owner)) for owner in kingdoms}
        for square, here in owners.items():
            tint = _mean_tone([tints[owner] for owner in here])
            colour = _blend(self._square_colour(*square), (tint, _KINGDOM_ALPHA))
            self.base[square] = colour
            box = square_box(square)
            draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=colour)

    def _paint_kingdom_edges(self, draw: ImageDraw.ImageDraw, kingdoms: dict[str, set[Square]], square_box,
                             s: int) -> None:
        """The edge of each kingdom: a band of the owner's colour inside it with a dark line on the
        edge itself (so a white or yellow kingdom shows on light squares), not at the region's edge."""
        x0, y0, x1, y1 = self.region
        band = max(2, round(s * 0.09))
        line = max(1, band // 2)
        for owner in sorted(kingdoms):
            inside = kingdoms[owner]
            tones = self.colours.of(owner) or (NEUTRAL_RGB,)
            tone = tones[0]
            dark = tuple(round(c * 0.5) for c in _mean_tone(tones))
            for square in inside:
                x, y = square
                bx0, by0, bx1, by1 = square_box(square)
                for (dx, dy) in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    nx_, ny_ = x + dx, y + dy
                    if (nx_, ny_) in inside or not (x0 <= nx_ <= x1 and y0 <= ny_ <= y1):
                        continue
                    if dx == 1:
                        draw.rectangle((bx1 - band - line, by0, bx1 - 1, by1 - 1), fill=tone)
                        draw.rectangle((bx1 - line, by0, bx1 - 1, by1 - 1), fill=dark)
                    elif dx == -1:
                        draw.rectangle((bx0, by0, bx0 + band + line - 1, by1 - 1), fill=tone)
                        draw.rectangle((bx0, by0, bx0 + line - 1, by1 - 1), fill=dark)
                    elif dy == 1:
                        draw.rectangle((bx0, by0, bx1 - 1, by0 + band + line - 1), fill=tone)
                        draw.rectangle((bx0, by0, bx1 - 1, by0 + line - 1), fill=dark)
                    else:
                        draw.rectangle((bx0, by1 - band - line, bx1 - 1, by1 - 1), fill=tone)
                        draw.rectangle((bx0, by1 - line, bx1 - 1, by1 - 1), fill=dark)

    @staticmethod
    def _token(draw: ImageDraw.ImageDraw, box: Box, mark: Mark, s: int) -> Box:
        """A mark as a token filling ``box``: its kind's shape and colour (a circle for a new piece,
        an arrow pointing up for an upgrade, a crown for king me, a rounded square for any other kind) and
        its label; shapes and labels tell the kinds apart without colour. Returns the token's box."""
        shape, fill = _TOKEN_STYLES.get(mark.kind, _TOKEN_DEFAULT)
        x0, y0, x1, y1 = box
        inset = max(1, round((x1 - x0) * 0.05))
        l, t, r, b = x0 + inset, y0 + inset, x1 - 1 - inset, y1 - 1 - inset
        w, h = r - l, b - t
        cx = (l + r) / 2
        edge = tuple(round(c * 0.45) for c in fill)
        width = max(1, round(s / 22))
        label_centre = ((l + r) / 2, (t + b) / 2)
        room = 0.78
        if shape == "circle":
            draw.ellipse((l, t, r, b), fill=fill, outline=edge, width=width)
            room = 0.8
        elif shape == "arrow":
            # an arrow pointing up: a wide head over a shaft, the label in the head
            neck, half = t + h * 0.58, w * 0.2
            draw.polygon([(cx, t), (r, neck), (cx + half, neck), (cx + half, b), (cx - half, b), (cx - half, neck),
                          (l, neck)], fill=fill, outline=edge, width=width)
            label_centre = (cx, t + h * 0.4)
            room = 0.5
        elif shape == "crown":
            draw.polygon([(l, b), (l, t + h * 0.12), (l + w * 0.27, t + h * 0.42), (cx, t), (r - w * 0.27, t + h * 0.42),
                          (r, t + h * 0.12), (r, b)], fill=fill, outline=edge, width=width)
            label_centre = (cx, t + h * 0.68)
        else:
            draw.rounded_rectangle((l, t, r, b), radius=max(2, w // 5), fill=fill, outline=edge, width=width)
        text = mark.label or mark.kind[:1].upper()
        size = _fit_label(text, w * room, h * {"arrow": 0.3, "crown": 0.5}.get(shape, 0.62))
        if size is None:
            text = text[-1:]
            size = _fit_label(text, w * room, h * 0.62) or 7
        _centred_text(draw, text, size, label_centre, contrast_edge(fill))
        return l, t, r + 1, b + 1

    def _fading_badge(self, draw: ImageDraw.ImageDraw, box: Box, fading: Fading, s: int) -> Box:
        """The updates a fading piece has left, on a badge at its square's top-left corner: amber, red
        for its last update."""
        x0, y0 = box[0], box[1]
        text = str(fading.left)
        d = max(12, round(s * (0.46 if len(text) == 1 else 0.54)))
        last = fading.left <= 1
        back = _FADING_LAST if last else _FADING
        badge = (x0, y0, x0 + d - 1, y0 + d - 1)
        draw.ellipse(badge, fill=back, outline=(0, 0, 0), width=max(1, d // 12))
        size = max(8, round(d * (0.74 if len(text) == 1 else 0.56)))
        _centred_text(draw, text, size, (x0 + d / 2, y0 + d / 2), contrast_edge(back))
        return x0, y0, x0 + d, y0 + d

    def _inside(self, square: Square) -> bool:
        x0, y0, x1, y1 = self.region
        return x0 <= square[0] <= x1 and y0 <= square[1] <= y1

    @staticmethod
    def _tint(draw: ImageDraw.ImageDraw, box: Box, base: RGB, tint) -> None:
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=_blend(base, tint))

    @staticmethod
    def _burst(draw: ImageDraw.ImageDraw, box: Box) -> None:
        """An implosion square: a dark red eight-pointed burst behind whatever stands there."""
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        r_out = (box[2] - box[0]) * 0.48
        r_in = r_out * 0.55
        points = []
        for i in range(16):
            r = r_out if i % 2 == 0 else r_in
            a = math.pi * i / 8 + math.pi / 16
            points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        draw.polygon(points, outline=(140, 10, 10), width=max(1, (box[2] - box[0]) // 20))

    def _paint_piece(self, draw: ImageDraw.ImageDraw, box: Box, piece: Piece, marks: dict[str, set],
                     pad: int, s: int) -> None:
        kind = self.ruleset.pieces.get(piece.kind)
        if kind is None:
            kind = PieceKind(piece.kind, piece.kind, 0, "", None)  # type: ignore[arg-type]
        fills = self.colours.of(piece.owner)
        if piece.id in marks.get("energy", ()):
            self._rainbow(draw, box, self._square_colour(*piece.square) if s == (box[2] - box[0]) else None)
        if piece.id in marks.get("variety", ()):
            draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), outline=_VARIETY, width=max(2, s // 9))
        inner = (box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad)
        draw_piece(draw, inner, kind, fills, hollow=piece.disabled)
        if piece.id in marks.get("capturable", ()):
            self._triangles(draw, box, s)
        if s < 12:
            return
        if piece.check in ("fresh", "spent") and piece.id in marks.get(piece.check, ()):
            colour = (220, 20, 20) if piece.check == "fresh" else (90, 90, 90)
            self._badge_text(draw, box, "+", "top-right", (255, 255, 255), colour, s)
        if piece.spirit:
            self._badge_text(draw, box, "S", "top-left", (255, 255, 255), (130, 70, 200), s)
        if piece.carrying:
            self._badge_text(draw, box, piece.carrying, "bottom-right", (0, 0, 0), (255, 255, 255), s)
        if piece.id in marks.get("frozen", ()):
            self._badge_text(draw, box, "\u2744", "bottom-left", (0, 60, 140), (190, 230, 255), s)

    @staticmethod
    def _rainbow(draw: ImageDraw.ImageDraw, box: Box, base: RGB | None) -> None:
        x0, y0, x1, y1 = box
        inset = 1
        segments = len(_RAINBOW) * 2
        for i in range(segments):
            draw.pieslice((x0 + inset, y0 + inset, x1 - 1 - inset, y1 - 1 - inset), start=i * 360 / segments - 90,
                          end=(i + 1) * 360 / segments - 90, fill=_RAINBOW[i % len(_RAINBOW)])
        ring = max(2, (x1 - x0) // 9)
        draw.ellipse((x0 + inset + ring, y0 + inset + ring, x1 - 1 - inset - ring, y1 - 1 - inset - ring),
                     fill=base or _LIGHT)

    @staticmethod
    def _triangles(draw: ImageDraw.ImageDraw, box: Box, s: int) -> None:
        """Capturable: four black triangles, one at the middle of each side, pointing at the piece."""
        x0, y0, x1, y1 = box
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        h = max(2.5, s * (0.17 if s >= 30 else 0.14))
        w = max(2.5, s * (0.15 if s >= 30 else 0.12))
        white = (255, 255, 255)
        for tri in (
            [(cx - w, y0), (cx + w, y0), (cx, y0 + h)],
            [(cx - w, y1 - 1), (cx + w, y1 - 1), (cx, y1 - 1 - h)],
            [(x0, cy - w), (x0, cy + w), (x0 + h, cy)],
            [(x1 - 1, cy - w), (x1 - 1, cy + w), (x1 - 1 - h, cy)],
        ):
            draw.polygon(tri, fill=(0, 0, 0), outline=white if s >= 24 else None)

    @staticmethod
    def _badge_text(draw: ImageDraw.ImageDraw, box: Box, text: str, where: str, ink: RGB, back: RGB, s: int) -> None:
        x0, y0, x1, y1 = box
        d = max(9, round(s * 0.36))
        if where == "top-right":
            bx, by = x1 - d, y0
        elif where == "top-left":
            bx, by = x0, y0
        elif where == "bottom-right":
            bx, by = x1 - d, y1 - d
        elif where == "bottom-left":
            bx, by = x0, y1 - d
        else:
            bx, by = (x0 + x1 - d) // 2, (y0 + y1 - d) // 2
        draw.ellipse((bx, by, bx + d - 1, by + d - 1), fill=back, outline=contrast_edge(back))
        size = max(7, round(d * (0.8 if len(text) == 1 else 0.55)))
        _centred_text(draw, text, size, (bx + d / 2, by + d / 2), ink)

    @staticmethod
    def _arrow(draw: ImageDraw.ImageDraw, a: Box, b: Box, colour, s: int) -> None:
        """From the middle of the origin square to the edge of the target square: the piece that
        arrived stays uncovered."""
        ax, ay = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2
        bx, by = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        length = math.hypot(bx - ax, by - ay)
        if length < 1:
            return
        ux, uy = (bx - ax) / length, (by - ay) / length
        # the tip stops where the line enters the target square
        reach = 0.5 * s / max(abs(ux), abs(uy))
        tip_x, tip_y = bx - ux * reach, by - uy * reach
        width = max(2, round(s * 0.13))
        head = max(6.0, s * 0.36)
        base_x, base_y = tip_x - ux * head, tip_y - uy * head
        if math.hypot(base_x - ax, base_y - ay) > 1 and (base_x - ax) * ux + (base_y - ay) * uy > 0:
            draw.line((ax, ay, base_x, base_y), fill=colour, width=width)
        px, py = -uy, ux
        draw.polygon([(tip_x, tip_y), (base_x + px * head * 0.5, base_y + py * head * 0.5),
                      (base_x - px * head * 0.5, base_y - py * head * 0.5)], fill=colour)

    @staticmethod
    def _cross(draw: ImageDraw.ImageDraw, box: Box, s: int) -> None:
        """A capture: a red cross in the target square's top-left corner."""
        d = max(6, round(s * 0.28))
        x0, y0 = box[0] + 1, box[1] + 1
        w = max(2, s // 14)
        draw.line((x0, y0, x0 + d, y0 + d), fill=(200, 0, 0), width=w)
        draw.line((x0, y0 + d, x0 + d, y0), fill=(200, 0, 0), width=w)

    # ------------------------------------------------------------------ the legend
    def _paint_legend(self, draw: ImageDraw.ImageDraw, legend: _Legend, origin: tuple[int, int]) -> None:
        face = font(legend.TEXT)
        heading = bold_font(legend.TEXT)
        for index, item in enumerate(legend.items):
            column, row = divmod(index, legend.per_column)
            x = origin[0] + column * legend.WIDTH
            y = origin[1] + 8 + row * legend.ROW
            icon = (x, y + 2, x + legend.ICON, y + 2 + legend.ICON)
            text_x = x + legend.ICON + 10
            mid = y + 2 + legend.ICON // 2
            if item.kind == "heading":
                draw.text((x, mid), item.text, font=heading, fill=_TEXT, anchor="lm")
                continue
            if item.kind == "player":
                tones = self.colours.of(item.payload)  # type: ignore[arg-type]
                for i, tone in enumerate(tones):
                    part = (icon[0] + i * legend.ICON // len(tones), icon[1],
                            icon[0] + (i + 1) * legend.ICON // len(tones) - 1, icon[3] - 1)
                    draw.rectangle(part, fill=tone)
                draw.rectangle((icon[0], icon[1], icon[2] - 1, icon[3] - 1), outline=_TEXT)
            elif item.kind == "piece":
                kind = self.ruleset.pieces[item.payload]  # type: ignore[index]
                fills = () if kind.has("obstacle") or kind.has("void") else ((235, 235, 235),)
                draw.rectangle((icon[0], icon[1], icon[2] - 1, icon[3] - 1), fill=_LIGHT)
                draw_piece(draw, icon, kind, fills)
            elif item.kind == "mark":
                self._legend_mark(draw, icon, item.payload)  # type: ignore[arg-type]
            elif item.kind == "token":
                draw.rectangle((icon[0], icon[1], icon[2] - 1, icon[3] - 1), fill=_LIGHT)
                self._token(draw, icon, item.payload, legend.ICON)  # type: ignore[arg-type]
            draw.text((text_x, mid), item.text, font=face, fill=_TEXT if item.kind != "text" else _MUTED, anchor="lm")

    def _legend_mark(self, draw: ImageDraw.ImageDraw, box: Box, key: str) -> None:
        s = box[2] - box[0]
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=_LIGHT)
        sample = ((150, 150, 150),)
        # a sample piece to show the mark on: the pawn's sprite where the ruleset has one
        pawn = self.ruleset.pieces.get("P") or next(iter(self.ruleset.pieces.values()))
        inner = (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2)
        if key == "capturable":
            draw_piece(draw, inner, pawn, sample)
            self._triangles(draw, box, s)
        elif key == "energy":
            self._rainbow(draw, box, _LIGHT)
            draw_piece(draw, inner, pawn, sample)
        elif key in ("fresh", "spent"):
            draw_piece(draw, inner, pawn, sample)
            colour = (220, 20, 20) if key == "fresh" else (90, 90, 90)
            self._badge_text(draw, box, "+", "top-right", (255, 255, 255), colour, max(s, 26))
        elif key == "disabled":
            draw_piece(draw, inner, pawn, sample, hollow=True)
        elif key == "frozen":
            self._badge_text(draw, box, "\u2744", "centre", (0, 60, 140), (190, 230, 255), s * 2)
        elif key == "variety":
            draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), outline=_VARIETY, width=3)
        elif key == "spirit":
            self._badge_text(draw, box, "S", "centre", (255, 255, 255), (130, 70, 200), s * 2)
        elif key == "cargo":
            self._badge_text(draw, box, "N", "centre", (0, 0, 0), (255, 255, 255), s * 2)
        elif key == "implosion":
            self._tint(draw, box, _LIGHT, _IMPLOSION_TINT)
            self._burst(draw, box)
        elif key == "hill":
            self._tint(draw, box, _LIGHT, _HILL_TINT)
            draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "\u2605", font=font(s), fill=(255, 240, 170),
                      anchor="mm")
        elif key in ("move", "capture"):
            self._tint(draw, box, _LIGHT, _TO_TINT)
            overlay_colour = _CAPTURE_ARROW if key == "capture" else _MOVE_ARROW
            draw.line((box[0] + 2, box[3] - 3, box[2] - 4, box[1] + 3), fill=overlay_colour[:3], width=3)
            if key == "capture":
                self._cross(draw, box, s)
        elif key == "highlight":
            draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), outline=_HIGHLIGHT, width=3)
        elif key == "rank0":
            self._tint(draw, box, _LIGHT, _RANK0_TINT)
            draw.line((box[0], box[1] + 3, box[2], box[1] + 3), fill=(40, 90, 170), width=2)
            draw.line((box[0], box[3] - 4, box[2], box[3] - 4), fill=(40, 90, 170), width=2)
        elif key == "bounds":
            draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=_OUTSIDE_LIGHT)
            draw.line((box[0] + s // 2, box[1], box[0] + s // 2, box[3]), fill=_BOUND_LINE, width=3)
        elif key == "kingdom":
            # a corner of a grey kingdom: tinted squares, its edge a band with a dark line
            tone = (120, 120, 120)
            draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1),
                           fill=_blend(_LIGHT, (_kingdom_tint((tone,)), _KINGDOM_ALPHA)))
            band = max(2, s // 10)
            draw.rectangle((box[2] - band - 1, box[1], box[2] - 1, box[3] - 1), fill=tone)
            draw.rectangle((box[0], box[1], box[2] - 1, box[1] + band), fill=tone)
            draw.line((box[2] - 1, box[1], box[2] - 1, box[3] - 1), fill=(60, 60, 60))
            draw.line((box[0], box[1], box[2] - 1, box[1]), fill=(60, 60, 60))
        elif key in ("fading", "fading-last"):
            draw_piece(draw, inner, pawn, sample)
            self._fading_badge(draw, box, Fading((0, 0), "", 0, 1 if key == "fading-last" else 3, 0), s)


# ----------------------------------------------------------------------------- the overview
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


def _viewport_grid(pieces: Iterable[Piece], region: Region, xs: list[int] | None = None,
                   ys: list[int] | None = None) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The overview's grid over ``region``: the x spans of its columns and the y spans of its rows
    (upward), around the occupied stretches, empty ones between them squeezed out (``xs``, ``ys``:
    the pieces' distinct x and y, sorted, if known already)."""
    x0, y0, x1, y1 = region
    if xs is None or ys is None:
        xs = sorted({p.square[0] for p in pieces})
        ys = sorted({p.square[1] for p in pieces})
    # a group of values begins after each step longer than the gap, and each group is at least one
    # span: a side whose gap leaves more than _MAX_GRID groups cannot do, and is passed over without
    # working out its spans (pieces scattered far apart double the side several times)
    x_steps = sorted(b - a for a, b in zip(xs, xs[1:]))
    y_steps = sorted(b - a for a, b in zip(ys, ys[1:]))
    side = VIEWPORT_SIDE
    while True:
        gap = max(6, side // 6)
        if (len(x_steps) - bisect_right(x_steps, gap) < _MAX_GRID
                and len(y_steps) - bisect_right(y_steps, gap) < _MAX_GRID):
            columns = _spans(xs, x0, x1, side, gap) if xs else [(x0, min(x1, x0 + side - 1))]
            rows = _spans(ys, y0, y1, side, gap) if ys else [(y0, min(y1, y0 + side - 1))]
            if len(columns) <= _MAX_GRID and len(rows) <= _MAX_GRID:
                return columns, rows
        side *= 2   # too scattered for legible viewports: wider ones (overviews themselves)


class _BoardRead:
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

    def read(self) -> "_BoardRead":
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


class _InRegion:
    """The pieces of ``region`` and the overview's grid over it, worked out once for a picture: the
    search for insets and the overview both need them. The pieces' x, y and owners are in flat lists
    (in the board's order), which the occupied viewports and the overview's dots are worked out from
    a whole list at a time."""

    def __init__(self, state: GameState, region: Region, board: _BoardRead | None = None) -> None:
        self.state, self.region = state, region
        self.board = board or _BoardRead(state)
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
        """The x spans of the overview's columns and the y spans of its rows (:func:`_viewport_grid`)."""
        if self._grid is None:
            self._grid = _viewport_grid(self.pieces, self.region, *self.values)
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
        """Each of ``values`` that a span holds -> the span's index (``_span_index`` of each)."""
        starts = [a for a, _ in spans]
        found = {}
        for value in values:
            index = bisect_right(starts, value) - 1
            if index >= 0 and value <= spans[index][1]:
                found[value] = index
        return found


_NOWHERE = -(1 << 60)   # a column's (row's) number for a value outside every span: any sum with it is negative
# the bits of an overview's dot numbers: the dot's pixel y and x, its row and column (at most
# _MAX_GRID: 8 bits), whether its column, its row is drawn in detail
_DOT_X, _DOT_ROW, _DOT_COLUMN = 16, 32, 40
_DOT_DETAILED_X, _DOT_DETAILED_Y = 1 << 48, 1 << 49
_DOT_DETAILED = _DOT_DETAILED_X | _DOT_DETAILED_Y


def _occupied_viewports(state: GameState, region: Region, at_most: int | None = None,
                        within: _InRegion | None = None) -> dict[str, Region] | None:
    """Each occupied viewport of the overview of ``region``, by name (``B2``), in reading order
    (top row first, then left to right): what an overview names and what a board of far-apart
    areas draws as insets. None when there are more than ``at_most`` (found without looking at
    every piece of 50,000 where it can be: from the columns and rows holding pieces, else from a
    spread sample of the pieces). ``within``: the region's pieces and grid, if worked out already."""
    within = within or _InRegion(state, region)
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


def default_viewports(ruleset: Ruleset, state: GameState, additions: BoardAdditions | None = None) -> dict[str, Region]:
    """The viewports the board's default picture names (its insets, or its overview's occupied
    cells), by name: what a player may ask for by name (``B2``)."""
    bounds = state.board.bounds or ruleset.bounds_for(len(state.players))
    if additions is None:
        additions = additions_of(ruleset, state)
    board = _BoardRead(state)
    region = _choose_region(state, bounds, None, None, None, additions, board)
    return _occupied_viewports(state, region, within=_InRegion(state, region, board))


class _InsetPainter:
    """A board whose pieces stand in areas far apart (one far piece used to make the board a strip
    of empty squares): each area drawn as an inset at a readable scale, with its axis labels and its
    viewport's name (``B2``: the overview's names, so that a player can ask for it), side by side
    in reading order, with one legend. :meth:`paint` gives ``(None, None)`` when the region is small
    enough, or its pieces are together, or too scattered (then a board or the overview is drawn)."""

    def __init__(self, ruleset: Ruleset, state: GameState, region: Region, bounds, colours: _PlayerColours,
                 moves: list[tuple[Square | None, Square, bool]], additions: BoardAdditions, caption: str,
                 within: _InRegion | None = None) -> None:
        self.ruleset, self.state, self.region, self.bounds, self.colours = ruleset, state, region, bounds, colours
        self.moves, self.additions, self.caption = moves, additions, caption
        self.within = within or _InRegion(state, region)

    def areas(self) -> dict[str, Region]:
        """The areas to draw as insets, by viewport name; empty when one board reads better."""
        if not hasattr(self, "_areas"):
            self._areas = self._find_areas()
        return self._areas

    def _find_areas(self) -> dict[str, Region]:
        x0, y0, x1, y1 = self.region
        nx, ny = x1 - x0 + 1, y1 - y0 + 1
        if max(nx, ny) <= INSET_FROM:
            return {}
        cells = _occupied_viewports(self.state, self.region, at_most=MAX_INSETS, within=self.within)
        if cells is None or not 2 <= len(cells) <= MAX_INSETS:
            return {}
        shown = sum((b - a + 1) * (hi - lo + 1) for a, lo, b, hi in cells.values())
        return cells if shown * 2 <= nx * ny else {}       # insets that save at least half the squares

    def _inset(self, name: str, cell: Region, scale: int) -> _BoardPainter:
        return _BoardPainter(self.ruleset, self.state, cell, self.bounds, self.colours, self.moves, frozenset(),
                             self.additions, inset=name, scale=scale)

    @staticmethod
    def _shelves(sizes: list[tuple[int, int]], room: int) -> tuple[list[tuple[int, int]], int, int]:
        """Top-left corners of boxes of ``sizes`` laid left to right in rows no wider than ``room``;
        the width and height they take."""
        corners, x, y, shelf, widest = [], 0, 0, 0, 0
        for w, h in sizes:
            if x and x + w > room:
                x, y, shelf = 0, y + shelf + _INSET_GAP, 0
            corners.append((x, y))
            x += w + _INSET_GAP
            shelf = max(shelf, h)
            widest = max(widest, x - _INSET_GAP)
        return corners, widest, y + shelf

    def paint(self) -> tuple[Image.Image | None, BoardLayout | None]:
        cells = self.areas()
        if not cells:
            return None, None
        margin, header = 12, 62
        for scale in range(MAX_SCALE, MIN_SCALE - 1, -2):
            painted = []
            for name, cell in cells.items():
                image, layout = self._inset(name, cell, scale).paint()
                if image is None:
                    break
                painted.append((name, cell, image, layout))
            if len(painted) < len(cells):
                continue
            legend = self._legend(scale, MAX_SIDE - header - margin)
            room = MAX_SIDE - 2 * margin - legend.width - _INSET_GAP
            corners, used_w, used_h = self._shelves([(image.width, image.height) for *_, image, _ in painted], room)
            width = 2 * margin + used_w + (_INSET_GAP + legend.width if legend.width else 0)
            height = header + max(used_h, legend.height) + margin
            if width <= MAX_SIDE and height <= MAX_SIDE:
                return self._compose(painted, corners, legend, scale, (width, height), margin, header, used_w)
        return None, None

    def _legend(self, scale: int, height: int) -> _Legend:
        """One legend for every inset: the players, kinds and marks present in any of them."""
        pieces: dict[Square, tuple[Piece, ...]] = {}
        marks: dict[str, set] = defaultdict(set)
        for name, cell in self.areas().items():
            painter = self._inset(name, cell, scale)
            here = painter._pieces_in_region()
            pieces.update(here)
            for key, values in painter._marks(here).items():
                marks[key] |= values
        self.first = self._inset(*next(iter(self.areas().items())), scale)
        return _Legend(self.first._legend_items(pieces, marks), max(height, 600), scale)

    def _compose(self, painted, corners, legend: _Legend, scale: int, size: tuple[int, int], margin: int,
                 header: int, used_w: int) -> tuple[Image.Image, BoardLayout]:
        image = Image.new("RGB", size, _BACKGROUND)
        draw = ImageDraw.Draw(image)
        x0, y0, x1, y1 = self.region
        focus = f" · {self.caption}" if self.caption else ""
        names = list(dict.fromkeys(name for name, *_ in painted))
        draw.text((margin, 8), f"{self.ruleset.title or self.ruleset.name} · {state_label(self.state)} · "
                               f"{len(painted)} areas far apart in x {x0}..{x1}, y {y0}..{y1}{focus}",
                  font=bold_font(18), fill=_TEXT)
        draw.text((margin, 34), f"Each area is named as in the overview (column letter, row number counted upward): "
                                f"ask for one by its name, such as {names[0]}, to see it alone.",
                  font=font(14), fill=_MUTED)
        labels, marks, kingdoms, fading, insets = [], [], [], [], []
        for (name, cell, inset_image, layout), (cx, cy) in zip(painted, corners):
            ox, oy = margin + cx, header + cy
            image.paste(inset_image, (ox, oy))
            shift = lambda box, ox=ox, oy=oy: (box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy)  # noqa: E731
            board = shift(layout.board_box)
            draw.rectangle((board[0] - 3, board[1] - 3, board[2] + 2, board[3] + 2), outline=(90, 90, 90), width=1)
            insets.append(Inset(name, cell, board, scale))
            labels += [Label(label.text, label.axis, label.value, label.side, shift(label.box)) for label in layout.labels]
            marks += [(mark, shift(box)) for mark, box in layout.marks]
            fading += [(item, shift(box)) for item, box in layout.fading]
            kingdoms += [k for k in layout.kingdoms if k not in kingdoms]
        if legend.width:
            self.first._paint_legend(draw, legend, (margin + used_w + _INSET_GAP, header))
        box = (min(i.board_box[0] for i in insets), min(i.board_box[1] for i in insets),
               max(i.board_box[2] for i in insets), max(i.board_box[3] for i in insets))
        layout = BoardLayout(region=self.region, scale=scale, overview=False, board_box=box, labels=tuple(labels),
                             viewports={i.name: i.region for i in insets}, marks=tuple(marks),
                             kingdoms=tuple(kingdoms), fading=tuple(fading), focus=self.caption, insets=tuple(insets))
        return image, layout


_DetailedPiece = tuple[int, int, str, int, bool]     # x, y, kind, owner (its number), disabled


class Overview:
    """What an overview shows, read from the state once: each piece of the region as three numbers
    (its x, its y, and its owner's index in :attr:`owner_names`, the owners in the order first met),
    the grid, the owners' colours, the legend's lines, King of the Hill's squares and the titles'
    words; of the pieces themselves only those that may stand in a cell drawn in detail (a few
    pieces far apart). :meth:`paint` draws it, here or in another process: :meth:`pack` makes it a
    few hundred kilobytes of bytes (the numbers as arrays), where 50,000 pieces and the state would
    take a quarter of a second to pickle (issue 25). The picture is the same either way."""

    __slots__ = ("region", "caption", "heading", "count", "grid", "values", "column_of", "row_of", "xs", "ys",
                 "owners", "owner_names", "tones", "players", "legend", "hills", "detailed", "kinds")

    def __init__(self, **fields) -> None:
        for name in self.__slots__:
            setattr(self, name, fields[name])

    @classmethod
    def read(cls, ruleset: Ruleset, state: GameState, region: Region, colours: _PlayerColours,
             additions: BoardAdditions, caption: str, within: _InRegion) -> "Overview":
        owners = within.owners
        owner_names = list(dict.fromkeys(owners))
        number_of = {owner: number for number, owner in enumerate(owner_names)}
        numbers = list(map(number_of.__getitem__, owners))
        tones = [colours.of(owner) for owner in owner_names]
        players = sorted(owner for owner in owner_names if owner is not None)
        legend = [(name, colours.of(name), colours.names.get(name, "?")) for name in players[:_LEGEND_PLAYERS]]
        # the pieces of the columns and rows that might be drawn in detail: a cell is never wider
        # than this, whatever its labels leave room for (the painter works out which are)
        columns, rows = within.grid
        widest = max(b - a + 1 for a, b in columns + rows)
        most = max(8, min(MAX_SIDE // len(columns), MAX_SIDE // len(rows), widest * MAX_SCALE, 400))
        near_x = {x for x, c in within.column_of.items()
                  if most / (columns[c][1] - columns[c][0] + 1) >= _DETAILED_CELL_SCALE}
        near_y = {y for y, r in within.row_of.items() if most / (rows[r][1] - rows[r][0] + 1) >= _DETAILED_CELL_SCALE}
        detailed: list[_DetailedPiece] = []
        if near_x and near_y:
            xs_each, ys_each = within.each
            near = map(and_, map(near_x.__contains__, xs_each), map(near_y.__contains__, ys_each))
            detailed = [(piece.square[0], piece.square[1], piece.kind, number, piece.disabled)
                        for piece, number in compress(zip(within.pieces, numbers), near)]
        kinds = {kind: ruleset.pieces.get(kind) for kind in {piece[2] for piece in detailed}}
        return cls(region=region, caption=caption, heading=f"{ruleset.title or ruleset.name} · {state_label(state)}",
                   count=len(within.pieces), grid=(columns, rows), values=within.values, column_of=within.column_of,
                   row_of=within.row_of, xs=within.each[0], ys=within.each[1], owners=numbers,
                   owner_names=owner_names, tones=tones, players=len(players), legend=legend,
                   hills=tuple(mark.square for mark in additions.marks if mark.kind == "hill"), detailed=detailed,
                   kinds=kinds)

    def paint(self) -> Painted:
        return Painted(*_OverviewPainter(self).paint())

    def pack(self) -> bytes:
        """This overview as bytes for :meth:`unpack`, the numbers of each piece as arrays."""
        fields = {name: getattr(self, name) for name in self.__slots__}
        xs, ys = self.values
        wide = "q" if xs and (min(xs[0], ys[0]) < -(1 << 31) or max(xs[-1], ys[-1]) >= 1 << 31) else "i"
        fields.update(xs=array(wide, self.xs), ys=array(wide, self.ys), owners=array("I", self.owners),
                      values=(array(wide, xs), array(wide, ys)))
        return pickle.dumps(fields, protocol=pickle.HIGHEST_PROTOCOL)

    @classmethod
    def unpack(cls, data: bytes) -> "Overview":
        return cls(**pickle.loads(data))


class _OverviewPainter:
    """The overview: pieces as dots on a grid of viewports. Of the additions it shows King of the Hill's
    squares; kingdoms, fading counters and other marks are drawn when a viewport is asked for. It
    reads only the :class:`Overview`'s numbers, so that another process may draw it."""

    def __init__(self, overview: Overview) -> None:
        self.overview = overview
        self.region, self.caption = overview.region, overview.caption

    def paint(self) -> tuple[Image.Image, BoardLayout]:
        overview = self.overview
        x0, y0, x1, y1 = self.region
        columns, rows = overview.grid
        column_starts = [a for a, _ in columns]
        row_starts = [a for a, _ in rows]
        n_cols, n_rows = len(columns), len(rows)

        # sizes: labels around a grid of square cells, the players' legend on the right
        title_height = 44
        label_size = 13
        col_names = [viewport_name(i, 0)[:-1] for i in range(n_cols)]
        row_names = [str(i + 1) for i in range(n_rows)]
        # each span's coordinates are drawn from these masks below: their width is the text's
        range_width = max(_mask_size(f"{a}..{b}", 11, False)[0] for a, b in columns + rows)
        row_label_w = max(_text_size(bold_font(label_size), t)[0] for t in row_names) + 12
        top_label_h = 22
        bottom_label_h = range_width + 14
        right_w = range_width + 16
        legend_w = 250
        avail_w = MAX_SIDE - row_label_w - right_w - legend_w - 20
        avail_h = MAX_SIDE - title_height - top_label_h - bottom_label_h - 10
        widest = max(b - a + 1 for a, b in columns + rows)
        cell = max(8, min(avail_w // n_cols, avail_h // n_rows, widest * MAX_SCALE, 400))
        board_w, board_h = cell * n_cols, cell * n_rows
        left = row_label_w
        top = title_height + top_label_h
        legend_rows = min(overview.players, _LEGEND_PLAYERS) + 3
        title_width = _text_size(font(13), "Too far apart for one board: ask for a viewport, named by its column "
                                           "letter and row number (such as AA100), to see its squares.")[0]
        width = min(MAX_SIDE, max(left + board_w + right_w + legend_w, left + title_width + 12))
        height = min(MAX_SIDE, max(top + board_h + bottom_label_h, title_height + legend_rows * 22 + 40))
        image = Image.new("RGB", (width, height), _BACKGROUND)
        draw = ImageDraw.Draw(image)
        draw.rectangle((left, top, left + board_w - 1, top + board_h - 1), fill=(226, 220, 208))

        def cell_origin(c: int, r: int) -> tuple[int, int]:
            return left + c * cell, top + (n_rows - 1 - r) * cell

        # pieces: a dot per square in its owner's colour, at each cell's own scale; where several
        # squares share a dot, the owner of most of them (the first by name of those tied)
        column_scale = [cell / (b - a + 1) for a, b in columns]
        row_scale = [cell / (b - a + 1) for a, b in rows]
        # each x (y) of a piece once, not per piece (50,000 of them): a number holding its column
        # (row), where its dot begins and whether it is drawn in detail (_DOT_*); a piece's number is
        # the sum of its x's, its y's and its owner's (below them, in owner_bits), worked out for all
        # the pieces at once in C (no tuple per piece either: see _BoardRead)
        owner_list = overview.owner_names
        owner_bits = len(owner_list).bit_length()
        nowhere = -(_DOT_DETAILED << (owner_bits + 1))    # outside every column (row): the sum is negative
        at_x = dict.fromkeys(overview.values[0], nowhere)
        at_x.update((x, (c << _DOT_COLUMN | (left + c * cell + int((x - columns[c][0]) * column_scale[c])) << _DOT_X
                         | (_DOT_DETAILED_X if column_scale[c] >= _DETAILED_CELL_SCALE else 0)) << owner_bits)
                    for x, c in overview.column_of.items())
        at_y = dict.fromkeys(overview.values[1], nowhere)
        at_y.update((y, (r << _DOT_ROW | top + (n_rows - 1 - r) * cell + int((rows[r][1] - y) * row_scale[r])
                         | (_DOT_DETAILED_Y if row_scale[r] >= _DETAILED_CELL_SCALE else 0)) << owner_bits)
                    for y, r in overview.row_of.items())
        owner_no = {owner: number for number, owner in enumerate(owner_list)}
        counts = Counter(map(add, map(add, map(at_x.__getitem__, overview.xs), map(at_y.__getitem__, overview.ys)),
                             overview.owners))    # each number once, in the order its first piece is met
        mask = (1 << owner_bits) - 1
        detailed_from = _DOT_DETAILED << owner_bits
        # a dot several owners share goes to the owner of most pieces there (ties: the first by name)
        owners_per_dot = Counter(map(owner_bits.__rrshift__, counts))      # number >> owner_bits
        shared = {dot for dot, owners_here in owners_per_dot.items() if owners_here > 1 and dot >= 0}
        winner: dict[int, int] = {}
        if shared:
            owners_at: dict[int, dict[str | None, int]] = defaultdict(dict)
            for number, count in counts.items():
                if number >> owner_bits in shared:
                    owners_at[number >> owner_bits][owner_list[number & mask]] = count
            for dot, here in owners_at.items():
                winner[dot] = owner_no[max(sorted(here, key=str), key=here.__getitem__)]
        # how many pieces each cell holds (the column and row bits of the numbers)
        in_cell: dict[int, int] = defaultdict(int)
        cell_bits = owner_bits + _DOT_ROW
        for number, count in counts.items():
            if number >= 0:
                in_cell[number >> cell_bits] += count
        occupied = {(code >> 8 & 0xFF, code & 0xFF): count for code, count in in_cell.items()}
        for (c, r) in occupied:
            cx, cy = cell_origin(c, r)
            draw.rectangle((cx, cy, cx + cell - 1, cy + cell - 1), fill=(250, 247, 240))
        if overview.detailed:
            # cells big enough for sprites, their pieces in the board's order (those of the
            # overview's pieces that stand where a cell might be drawn in detail)
            detailed: dict[tuple[int, int], list[_DetailedPiece]] = defaultdict(list)
            column_of, row_of = overview.column_of, overview.row_of
            for piece in overview.detailed:
                c, r = column_of.get(piece[0]), row_of.get(piece[1])
                if (c is not None and r is not None and column_scale[c] >= _DETAILED_CELL_SCALE
                        and row_scale[r] >= _DETAILED_CELL_SCALE):
                    detailed[(c, r)].append(piece)
            for (c, r), here in detailed.items():
                self._detailed_cell(draw, cell_origin(c, r), columns[c], rows[r], column_scale[c], row_scale[r], here)
        # each dot a box of its owner's colour (two tones: the left half in the first), in the
        # order found (a shared dot where its first piece is): a dot may overlap the one before it
        core = image.im
        widths = [max(2, math.ceil(scale)) for scale in column_scale]
        heights = [max(2, math.ceil(scale)) for scale in row_scale]
        tones_of = [tones or (NEUTRAL_RGB,) for tones in overview.tones]
        drawn: set[int] = set()
        for number in counts:
            if number < 0 or number >= detailed_from:    # outside every column or row; drawn in detail
                continue
            dot = number >> owner_bits
            if dot in winner:
                if dot in drawn:
                    continue
                drawn.add(dot)
                tones = tones_of[winner[dot]]
            else:
                tones = tones_of[number & mask]
            px, py = dot >> _DOT_X & 0xFFFF, dot & 0xFFFF
            w = widths[dot >> _DOT_COLUMN & 0xFF]
            right, bottom = min(px + w, width), min(py + heights[dot >> _DOT_ROW & 0xFF], height)
            if right <= px or bottom <= py:
                continue
            if len(tones) == 1:
                core.paste(tones[0], (px, py, right, bottom))
            else:
                middle = min(px + w // 2, right)
                if middle > px:
                    core.paste(tones[0], (px, py, middle, bottom))
                if right > middle:
                    core.paste(tones[1], (middle, py, right, bottom))

        # the grid: thin lines between adjacent viewports, a double "break" line across a gap
        for i in range(1, n_cols):
            px = left + i * cell
            squeezed = columns[i][0] > columns[i - 1][1] + 1
            self._grid_line(draw, (px, top, px, top + board_h - 1), squeezed, vertical=True)
        for i in range(1, n_rows):
            py = top + (n_rows - i) * cell
            squeezed = rows[i][0] > rows[i - 1][1] + 1
            self._grid_line(draw, (left, py, left + board_w - 1, py), squeezed, vertical=False)
        for (c, r) in occupied:
            cx, cy = cell_origin(c, r)
            draw.rectangle((cx, cy, cx + cell, cy + cell), outline=(60, 60, 60))
        draw.rectangle((left - 1, top - 1, left + board_w, top + board_h), outline=_TEXT)

        # King of the Hill squares
        for square in overview.hills:
            c, r = _span_index(columns, square[0], column_starts), _span_index(rows, square[1], row_starts)
            if c is not None and r is not None:
                cx, cy = cell_origin(c, r)
                px = cx + int((square[0] - columns[c][0]) * column_scale[c])
                py = cy + int((rows[r][1] - square[1]) * row_scale[r])
                _centred_text(draw, "\u2605", max(10, cell // 3), (px, py), (230, 160, 0), bold=False)

        # column letters above, rows numbered upward on the left; each span's coordinates beside
        labels: list[Label] = []
        every_column = max(1, math.ceil((_text_size(bold_font(label_size), "WW")[0] + 4) / cell))
        every_row = max(1, math.ceil(16 / cell))
        for i, name in enumerate(col_names):
            cx = left + i * cell + cell // 2
            if i % every_column == 0:
                box = _centred_text(draw, name, label_size, (cx, top - top_label_h // 2), _TEXT)
                labels.append(Label(name, "column", i, "top", box))
            if cell >= 12:
                a, b = columns[i]
                rotated = _upright_text_mask(f"{a}..{b}", 11, False)
                draw.bitmap((cx - rotated.width // 2, top + board_h + 6), rotated, fill=_MUTED)
        for j, name in enumerate(row_names):
            cy = top + (n_rows - 1 - j) * cell + cell // 2
            if j % every_row == 0:
                box = _centred_text(draw, name, label_size, (left - 6, cy), _TEXT, align="right")
                labels.append(Label(name, "row", j, "left", box))
            if cell >= 12:
                a, b = rows[j]
                box = _centred_text(draw, f"{a}..{b}", 11, (left + board_w + 6, cy), _MUTED, bold=False, align="left")

        # the labelled viewports: every occupied cell, its name written in it, or on a tag beside
        # it when the cell is small (tags that would cover another are left out: the axes still
        # name every cell)
        viewports: dict[str, Region] = {}
        taken: dict[tuple[int, int], list[Box]] = defaultdict(list)   # tags by the cells they cover

        def cells_under(box: Box) -> list[tuple[int, int]]:
            c0, c1 = (box[0] - left) // cell, (box[2] - left) // cell
            r1, r0 = n_rows - 1 - (box[1] - top) // cell, n_rows - 1 - (box[3] - top) // cell
            return [(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)]

        tag_size = 12 if cell >= 36 else 11       # a tag's mask is drawn only for the tags drawn
        for (c, r) in sorted(occupied, key=lambda cr: (-occupied[cr], cr[1], cr[0])):
            name = f"{col_names[c]}{row_names[r]}"
            (a, b), (lo, hi) = columns[c], rows[r]
            viewports[name] = (a, lo, b, hi)
            cx, cy = cell_origin(c, r)
            tw, th = (side + 6 for side in _mask_size(name, tag_size, True))
            if cell >= 36:
                candidates = [(cx + 1, cy + 1)]
            else:
                mid_y = cy + cell // 2 - th // 2
                mid_x = cx + cell // 2 - tw // 2
                candidates = [(cx + cell + 2, mid_y), (cx - tw - 2, mid_y), (mid_x, cy - th - 2), (mid_x, cy + cell + 2)]
            for tx, ty in candidates:
                tag = (tx, ty, tx + tw - 1, ty + th - 1)
                inside = left <= tag[0] and tag[2] < left + board_w and top <= tag[1] and tag[3] < top + board_h
                if not inside:
                    continue
                under = cells_under(tag)
                if any(_overlap(tag, t) for cr in under for t in taken[cr]):
                    continue
                if cell < 36 and any(cr in occupied for cr in under):
                    continue
                for cr in under:
                    taken[cr].append(tag)
                draw.rectangle(tag, fill=(255, 255, 255), outline=(120, 120, 120))
                draw.bitmap((tag[0] + 3, tag[1] + 3), _text_mask(name, tag_size, True), fill=(30, 30, 30))
                break
        viewports = dict(sorted(viewports.items(), key=lambda item: (item[1][1], item[1][0])))

        example = next(iter(viewports), "A1")
        focus = f" · {self.caption}" if self.caption else ""
        titles = (f"{overview.heading} · overview of x {x0}..{x1}, y {y0}..{y1} · {overview.count:,} pieces{focus}",
                  f"Too far apart for one board: ask for a viewport, named by its column letter and row "
                  f"number (such as {example}), to see its squares.")
        draw_text(draw, (left, 6), titles[0], bold_font(15), _TEXT)
        draw_text(draw, (left, 24), titles[1], font(13), _MUTED)
        self._legend(draw, (left + board_w + right_w + 8, title_height + 4), height)
        layout = BoardLayout(region=self.region, scale=cell / widest, overview=True,
                             board_box=(left, top, left + board_w, top + board_h), labels=tuple(labels),
                             viewports=viewports, columns=tuple(columns), rows=tuple(rows), cell=cell,
                             focus=self.caption)
        return image, layout

    def _detailed_cell(self, draw: ImageDraw.ImageDraw, origin: tuple[int, int], column: tuple[int, int],
                       row: tuple[int, int], sx: float, sy: float, pieces: list[_DetailedPiece]) -> None:
        """A cell with room for its squares (a few pieces far apart): a small board of them."""
        (a, b), (lo, hi) = column, row
        cx, cy = origin

        def square_box(x: int, y: int) -> Box:
            return (cx + int((x - a) * sx), cy + int((hi - y) * sy),
                    cx + int((x - a + 1) * sx), cy + int((hi - y + 1) * sy))

        for x in range(a, b + 1):
            for y in range(lo, hi + 1):
                if (x + y) % 2 == 0:
                    box = square_box(x, y)
                    draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=_DARK)
                else:
                    box = square_box(x, y)
                    draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=_LIGHT)
        drawn: set[Square] = set()
        for x, y, kind, owner, disabled in pieces:
            if (x, y) in drawn:
                continue
            drawn.add((x, y))
            x0, y0, x1, y1 = square_box(x, y)
            side = min(x1 - x0, y1 - y0)
            pad = max(1, round(side * 0.06))
            box = ((x0 + x1 - side) // 2 + pad, (y0 + y1 - side) // 2 + pad,
                   (x0 + x1 + side) // 2 - pad, (y0 + y1 + side) // 2 - pad)
            kind = self.overview.kinds.get(kind)
            if kind is not None:
                draw_piece(draw, box, kind, self.overview.tones[owner], hollow=disabled)

    @staticmethod
    def _grid_line(draw: ImageDraw.ImageDraw, line: Box, squeezed: bool, vertical: bool) -> None:
        if not squeezed:
            draw.line(line, fill=(206, 198, 184), width=1)
            return
        x0, y0, x1, y1 = line
        for offset in (-1, 1):
            if vertical:
                draw.line((x0 + offset, y0, x1 + offset, y1), fill=(178, 168, 152), width=1)
            else:
                draw.line((x0, y0 + offset, x1, y1 + offset), fill=(178, 168, 152), width=1)

    def _legend(self, draw: ImageDraw.ImageDraw, origin: tuple[int, int], height: int) -> None:
        x, y = origin
        draw_text(draw, (x, y), "Players", bold_font(14), _TEXT)
        y += 24
        face = font(13)
        rise = _middle_rise(face)
        players = self.overview.players
        for name, tones, colour in self.overview.legend:
            if y + 22 > height:
                break
            for i, tone in enumerate(tones):
                draw.rectangle((x + i * 16 // len(tones), y, x + (i + 1) * 16 // len(tones) - 1, y + 15), fill=tone)
            draw.rectangle((x, y, x + 15, y + 15), outline=_TEXT)
            draw_text(draw, (x + 22, y + 8 - rise), f"{name} ({colour})", face, _TEXT)
            y += 22
        if players > _LEGEND_PLAYERS and y + 22 <= height:
            draw_text(draw, (x, y + 8 - rise), f"... and {players - _LEGEND_PLAYERS} more", face, _MUTED)
