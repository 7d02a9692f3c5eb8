"""The web viewer's tiles: square pictures of part of a board at one zoom level.

Every tile is :data:`TILE` pixels a side, whatever is asked, so no request can make a picture
larger than that. A board is laid out on a :class:`Frame`: a square world of ``2**k`` squares a side
(the board's bounds, or its pieces with a margin, centred in it). At zoom ``z`` the world is ``2**z``
tiles a side and a square is ``2**(8 + z - k)`` pixels wide: a whole number from zoom ``k - 8`` on.

* From :data:`PAINTED_FROM` pixels a square the tile is the board's own painting of its squares
  (:func:`bot.render.board.paint_squares`): the same pixels as the PNG board at that scale.
* Below, the overview's way: the board's squares as a flat field (checkered while a square is four
  pixels or more) and each piece a dot in its owner's colour (two tones: the left half in the first),
  at least :data:`MIN_DOT` pixels so one piece on a large board stays visible.

This module is the only place that draws tiles; its squares come from the board's scene and painter
(:func:`bot.render.board.paint_squares`, docs/rendering.md "What a second painter needs").
"""

from __future__ import annotations

import io
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from typing import Iterable

from PIL import Image, ImageDraw

from ...engine.model import Square
from ...engine.ruleset import Ruleset
from ...engine.state import GameState
from ...engine.variants.base import BoardAdditions
from ..board import paint_squares
from ..palette import NEUTRAL_RGB
from ..scene.colours import DARK, LIGHT, OUTSIDE_DARK, OUTSIDE_LIGHT, PlayerColours

__all__ = ["TILE", "PAINTED_FROM", "MIN_DOT", "MAX_SQUARE_PIXELS", "Frame", "TileIndex", "frame_of", "tile_png"]

TILE = 256                  # pixels a side of every tile
PAINTED_FROM = 16           # pixels a square from which a tile is the board painter's drawing
MIN_DOT = 2                 # pixels a side of a piece's dot, at least
MAX_SQUARE_PIXELS = 512     # a square is never drawn wider: the deepest zoom
MIN_K = 3                   # the smallest world: 8 squares a side
MIN_ZOOMS = 4               # every board has zoom levels 0 to at least 4 (INTERFACES.md)
DETAIL_PIXELS = 64          # pixels a square the deepest zoom reaches on any board
_MARGIN = 2                 # squares around the pieces of a board without bounds
_BUCKET = 6                 # the tile index's cells are 2**_BUCKET squares a side
_FIELD = tuple((a + b) // 2 for a, b in zip(LIGHT, DARK))
_FIELD_OUTSIDE = tuple((a + b) // 2 for a, b in zip(OUTSIDE_LIGHT, OUTSIDE_DARK))

Region = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Frame:
    """Where a board lies in the viewer's world: ``left`` is the x of the world's first column,
    ``top`` the y of its top row; the world is ``2**k`` squares a side."""

    left: int
    top: int
    k: int

    @property
    def side(self) -> int:
        return 1 << self.k

    @property
    def max_zoom(self) -> int:
        """The deepest zoom: a square :data:`DETAIL_PIXELS` wide (at least zoom :data:`MIN_ZOOMS`),
        never wider than :data:`MAX_SQUARE_PIXELS`."""
        detail = self.k - 8 + DETAIL_PIXELS.bit_length() - 1
        return max(MIN_ZOOMS, detail)

    def square_pixels(self, zoom: int) -> float:
        """Pixels a square is wide at ``zoom`` (below 1: several squares share a pixel)."""
        return 2.0 ** (8 + zoom - self.k)

    def tiles(self, zoom: int) -> int:
        """How many tiles a side the world is at ``zoom``."""
        return 1 << zoom

    def tile_region(self, zoom: int, tx: int, ty: int) -> Region:
        """The squares (x0, y0, x1, y1, inclusive) tile (tx, ty) of ``zoom`` shows, at least one."""
        per_tile = max(1, self.side >> zoom)        # squares a tile is wide (a square may span tiles)
        if self.side >> zoom:
            x0 = self.left + tx * per_tile
            y1 = self.top - ty * per_tile
            return x0, y1 - per_tile + 1, x0 + per_tile - 1, y1
        tiles_a_square = 1 << (zoom - self.k)
        x = self.left + tx // tiles_a_square
        y = self.top - ty // tiles_a_square
        return x, y, x, y

    def to_json(self) -> dict:
        return {"left": self.left, "top": self.top, "side": self.side, "k": self.k, "tile": TILE,
                "max_zoom": self.max_zoom}


def frame_of(ruleset: Ruleset, state: GameState) -> Frame:
    """The board's frame: its bounds, or its pieces with a margin (an empty board: around (0,0)),
    centred in the smallest power-of-two world that holds them."""
    bounds = state.board.bounds or ruleset.bounds_for(len(state.players))
    if bounds is None:
        box = state.board.bounding_box()
        (x0, y0), (x1, y1) = box if box is not None else ((0, 0), (0, 0))
        x0, y0, x1, y1 = x0 - _MARGIN, y0 - _MARGIN, x1 + _MARGIN, y1 + _MARGIN
    else:
        (x0, y0), (x1, y1) = bounds
    extent = max(x1 - x0 + 1, y1 - y0 + 1)
    k = max(MIN_K, (extent - 1).bit_length())
    side = 1 << k
    left = x0 - (side - (x1 - x0 + 1)) // 2
    top = y1 + (side - (y1 - y0 + 1)) // 2
    return Frame(left, top, k)


class TileIndex:
    """The pieces of one state by cell of 2**6 squares, with their owners' tones: made once per
    state, so a tile of the overview reads only the cells it covers."""

    def __init__(self, state: GameState, palette: str) -> None:
        self.state = state
        self.colours = PlayerColours(state, palette)

    @cached_property
    def cells(self) -> dict[tuple[int, int], list[tuple[int, int, tuple]]]:
        cells: dict[tuple[int, int], list[tuple[int, int, tuple]]] = defaultdict(list)
        tones_of = self.colours.of
        for square in self.state.board.squares():
            here = self.state.board.at(square)
            owners = {}
            for piece in here:
                owners[piece.owner] = owners.get(piece.owner, 0) + 1
            owner = max(sorted(owners, key=str), key=owners.__getitem__)
            x, y = square
            cells[(x >> _BUCKET, y >> _BUCKET)].append((x, y, tones_of(owner) or (NEUTRAL_RGB,)))
        return dict(cells)

    def pieces_in(self, region: Region) -> Iterable[tuple[int, int, tuple]]:
        x0, y0, x1, y1 = region
        cells = self.cells
        cx0, cy0, cx1, cy1 = x0 >> _BUCKET, y0 >> _BUCKET, x1 >> _BUCKET, y1 >> _BUCKET
        if (cx1 - cx0 + 1) * (cy1 - cy0 + 1) > len(cells):
            wanted = [cell for cell in cells if cx0 <= cell[0] <= cx1 and cy0 <= cell[1] <= cy1]
        else:
            wanted = [(cx, cy) for cx in range(cx0, cx1 + 1) for cy in range(cy0, cy1 + 1) if (cx, cy) in cells]
        for cell in wanted:
            inner = cx0 < cell[0] < cx1 and cy0 < cell[1] < cy1
            for x, y, tones in cells[cell]:
                if inner or (x0 <= x <= x1 and y0 <= y <= y1):
                    yield x, y, tones


def tile_png(ruleset: Ruleset, state: GameState, *, frame: Frame, zoom: int, tile: tuple[int, int],
             palette: str = "default", last_moves: Iterable[tuple[Square | None, Square, bool]] | None = None,
             additions: BoardAdditions | None = None, index: TileIndex | None = None) -> bytes:
    """Tile ``tile`` (column, row from the world's top left) of ``zoom`` as a PNG of
    :data:`TILE` pixels a side. ``last_moves`` and ``additions`` as :func:`~.board.paint_board`
    takes them; ``index``: the state's :class:`TileIndex`, kept by a caller drawing many tiles."""
    if not 0 <= zoom <= frame.max_zoom:
        raise ValueError(f"zoom is 0 to {frame.max_zoom} on this board, not {zoom}")
    tx, ty = tile
    if not (0 <= tx < frame.tiles(zoom) and 0 <= ty < frame.tiles(zoom)):
        raise ValueError(f"tile ({tx},{ty}) is outside the board's {frame.tiles(zoom)} tiles a side at zoom {zoom}")
    pixels = frame.square_pixels(zoom)
    region = frame.tile_region(zoom, tx, ty)
    if pixels >= PAINTED_FROM:
        image = _painted(ruleset, state, region, int(pixels), frame, zoom, (tx, ty), palette, last_moves, additions)
    else:
        image = _dots(ruleset, state, region, pixels, palette, index)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=1)
    return buffer.getvalue()


def _painted(ruleset, state, region, scale, frame, zoom, tile, palette, last_moves, additions) -> Image.Image:
    x0, y0, x1, y1 = region
    picture = paint_squares(ruleset, state, region, scale, palette=palette,
                            last_moves=last_moves, additions=additions)
    if picture.size == (TILE, TILE):
        return picture
    # a square wider than a tile: this tile is one part of it
    tiles_a_square = 1 << (zoom - frame.k)
    part_x, part_y = tile[0] % tiles_a_square, tile[1] % tiles_a_square
    return picture.crop((part_x * TILE, part_y * TILE, (part_x + 1) * TILE, (part_y + 1) * TILE))


def _dots(ruleset, state, region, pixels, palette, index) -> Image.Image:
    x0, y0, x1, y1 = region
    image = Image.new("RGB", (TILE, TILE), _FIELD)
    draw = ImageDraw.Draw(image)
    def px(x: int) -> int:
        return int((x - x0) * pixels)

    def py(y: int) -> int:
        return int((y1 - y) * pixels)

    bounds = state.board.bounds or ruleset.bounds_for(len(state.players))
    if bounds is not None:
        (bx0, by0), (bx1, by1) = bounds
        image.paste(_FIELD_OUTSIDE, (0, 0, TILE, TILE))
        inside = (max(bx0, x0), max(by0, y0), min(bx1, x1), min(by1, y1))
        if inside[0] <= inside[2] and inside[1] <= inside[3]:
            image.paste(_FIELD, (px(inside[0]), py(inside[3]), px(inside[2]) + max(1, int(pixels)),
                                 py(inside[1]) + max(1, int(pixels))))
    if pixels >= 4:                 # a checkered field while a square is four pixels or more
        s = int(pixels)
        for y in range(y0, y1 + 1):
            for x in range(x0 + ((x0 + y) % 2), x1 + 1, 2):
                outside = bounds is not None and not (bx0 <= x <= bx1 and by0 <= y <= by1)
                draw.rectangle((px(x), py(y), px(x) + s - 1, py(y) + s - 1),
                               fill=OUTSIDE_DARK if outside else DARK)
            if bounds is not None:
                for x in range(x0 + ((x0 + y + 1) % 2), x1 + 1, 2):
                    if not (bx0 <= x <= bx1 and by0 <= y <= by1):
                        draw.rectangle((px(x), py(y), px(x) + s - 1, py(y) + s - 1), fill=OUTSIDE_LIGHT)
    index = index or TileIndex(state, palette)
    dot = max(MIN_DOT, int(pixels))
    core = image.im
    for x, y, tones in index.pieces_in(region):
        left, top = px(x), py(y)
        right, bottom = min(left + dot, TILE), min(top + dot, TILE)
        if len(tones) == 1:
            core.paste(tones[0], (left, top, right, bottom))
        else:
            middle = max(left + 1, left + dot // 2)
            core.paste(tones[0], (left, top, min(middle, right), bottom))
            if right > middle:
                core.paste(tones[1], (middle, top, right, bottom))
    return image
