"""What a painter hands back: the picture with its layout (which pixel box shows which square, where
each label sits), so that tests and callers check what an image means without reading pixels back."""

from __future__ import annotations

import io
import math
from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Sequence

from PIL import Image

from ...engine.model import Square
from ...engine.variants.base import Fading, Kingdom, Mark
from ..scene.grid import Region
from ..scene.limits import MAX_BYTES
from ..scene.region import circle_squares
from .png import fast_png

Box = tuple[int, int, int, int]

ROWS_UP_FROM = 2_000_000     # pixels: a larger picture's PNG is written by .png.fast_png


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
                for square in circle_squares(kingdom, self.region)}

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
        column = span_index(self.columns, x)
        row = span_index(self.rows, y)
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


def span_index(spans: Sequence[tuple[int, int]], value: int, starts: Sequence[int] | None = None) -> int | None:
    """The index of the span holding ``value`` (spans sorted and disjoint), or None."""
    if starts is None:
        starts = [a for a, _ in spans]
    index = bisect_right(starts, value) - 1
    if index >= 0 and value <= spans[index][1]:
        return index
    return None


def overlap(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


@dataclass(frozen=True)
class Painted:
    """A board drawn, before its PNG is written (:meth:`encode`): a caller with other work to do
    meanwhile writes it on another thread (zlib and Pillow's copies run without the interpreter lock)."""

    image: Image.Image
    layout: BoardLayout

    def encode(self) -> Rendered:
        return Rendered(encode_png(self.image), self.layout, self.image.width, self.image.height)



def encode_png(image: Image.Image) -> bytes:
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
