"""The territory picture painted: a scene of :mod:`bot.render.scene.territory` turned into a PNG.

One column narrow enough to read on a phone (:data:`WIDTH`), top to bottom: the heading and the
caption, wrapped; the board with its areas tinted (the neutral zone hatched, the goal ringed, each
area's edge drawn, a controlled territory framed thick in its controller's colour, one nobody
controls dashed), coordinates on all four sides (0 in blue: the goal's lines), the pieces (the
sprites of ``sprites.py``), the last action's marks half transparent over them (an arrow for every
relocation, two heads for a swap, dashed for a shot, dotted for a hand-over, a cross on every
capture, a ``+`` on every placed piece); the turn cycle in rows of equal slots; both reserves and
the draft area as chips; the legend in two columns. Every word and colour a player reads is the
scene's; a text too long for its room is cut with "…" here.

Like the other painters it returns its layout (:class:`TerritoryLayout`), so the tests check what
the image shows without reading pixels.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from ...engine.model import Piece, Square
from ...engine.report import Report
from ...engine.ruleset import Ruleset
from ...engine.state import GameState
from ...engine.territory.trace import LastAction
from ...engine.variants.base import BoardAdditions, CycleSlot, Holding
from .layout import Label, Rendered
from ..palette import contrast_edge
from ..scene.territory import (AREA_GOAL, AREA_HOME, AREA_NEUTRAL, AREA_TERRITORY, CAPTURED_RGB, DARK_SQUARE,
                               GRID_RGB, LIGHT_SQUARE, NEUTRAL_AREA_RGB, PLACED_RGB, Arrow, DrawnArea, HoldingLook,
                               TerritoryScene, area_strength, blend, darker, territory_scene)
from .sprites import bold_font, draw_piece, font
from .text import wrap_words
from .shapes import arrowhead

__all__ = ["render_territory", "paint_territory", "TerritoryLayout", "DrawnArea", "DrawnSlot",
           "DrawnHolding", "Chip", "Arrow", "WIDTH"]

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

#: The picture's width in pixels: a phone shows it whole, and one square is 64 pixels on 11 x 11.
WIDTH = 800
_MARGIN = 18
_MAX_SCALE = 64
_MIN_SCALE = 22
_MAX_HEIGHT = 4096
_SLOT_MIN = 112          # pixels: the narrowest slot of the turn cycle (a phone reads "Purple · Bob")

_BACKGROUND: RGB = (250, 250, 247)
_TEXT: RGB = (25, 25, 25)
_MUTED: RGB = (95, 95, 95)
_GOAL_EDGE: RGB = (160, 110, 0)
_PANEL: RGB = (255, 255, 255)
_PANEL_EDGE: RGB = (200, 195, 185)
_OUTLINE: RGB = (20, 20, 20)


# ----------------------------------------------------------------------------- the layout
@dataclass(frozen=True, slots=True)
class DrawnSlot:
    """A slot of the cycle: ``turn`` is the next turn that takes it (the current one for the current
    slot), ``words`` the text under its box (the turn, who plays or "skip")."""

    slot: CycleSlot
    index: int
    turn: int
    box: Box
    outlined: bool
    words: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Chip:
    """One kind of a holding: its letters, how many, its pixel box; ``new`` when just drawn."""

    kind: str
    count: int
    box: Box
    new: bool = False


@dataclass(frozen=True, slots=True)
class DrawnHolding:
    """A reserve (``holding.owner``) or the draft area, with its heading and its chips in order."""

    holding: Holding
    title: str
    detail: str
    box: Box
    chips: tuple[Chip, ...]


@dataclass(frozen=True)
class TerritoryLayout:
    """Where things are in a rendered territory picture.

    ``region`` is the board's box of squares (x0, y0, x1, y1), ``scale`` a square's side in pixels,
    :meth:`box` a square's pixel box. ``areas``, ``cycle``, ``holdings`` and ``arrows`` are what was
    drawn; ``captures`` and ``placed`` the squares marked; ``heading`` and ``caption`` the two lines
    at the top; ``bag`` the bag's count as written; ``legend`` the legend's words."""

    region: tuple[int, int, int, int]
    scale: int
    board_box: Box
    labels: tuple[Label, ...]
    areas: tuple[DrawnArea, ...]
    cycle: tuple[DrawnSlot, ...]
    holdings: tuple[DrawnHolding, ...]
    arrows: tuple[Arrow, ...]
    captures: tuple[Square, ...]
    placed: tuple[Square, ...]
    pieces: tuple[tuple[Piece, Box], ...]
    heading: str
    caption: str
    bag: str
    legend: tuple[str, ...]
    last_action: LastAction | None = None
    texts: tuple[str, ...] = field(default=())

    def box(self, square: Square) -> Box:
        """The pixel box (x0, y0, x1, y1; far edges exclusive) of ``square``."""
        x0, y0, x1, y1 = self.region
        if not (x0 <= square[0] <= x1 and y0 <= square[1] <= y1):
            raise ValueError(f"square {square} is outside the board {self.region}")
        left, top = self.board_box[0], self.board_box[1]
        px = left + (square[0] - x0) * self.scale
        py = top + (y1 - square[1]) * self.scale
        return px, py, px + self.scale, py + self.scale

    def area(self, name: str) -> DrawnArea:
        for drawn in self.areas:
            if drawn.area.name == name:
                return drawn
        raise KeyError(name)

    def area_at(self, square: Square) -> DrawnArea | None:
        return next((drawn for drawn in self.areas if square in drawn.area.squares), None)

    @property
    def current_slot(self) -> DrawnSlot | None:
        return next((slot for slot in self.cycle if slot.outlined), None)

    def holding(self, owner: str | None) -> DrawnHolding:
        for drawn in self.holdings:
            if drawn.holding.owner == owner:
                return drawn
        raise KeyError(owner)



# ----------------------------------------------------------------------------- entry points
def render_territory(ruleset: Ruleset, state: GameState, *, palette: str = "default",
                     last_action: LastAction | None = None, report: Report | None = None,
                     additions: BoardAdditions | None = None) -> Rendered:
    """The territory picture of ``state`` as a PNG with its :class:`TerritoryLayout`: the picture of
    :func:`~bot.render.scene.territory.territory_scene` (whose docstring says what the options mean)."""
    return paint_territory(territory_scene(ruleset, state, palette=palette, last_action=last_action, report=report,
                                           additions=additions))


def paint_territory(scene: TerritoryScene) -> Rendered:
    """The PNG of ``scene`` with its layout."""
    image, layout = _Painter(scene).paint()
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    return Rendered(buffer.getvalue(), layout, image.width, image.height)


# ----------------------------------------------------------------------------- helpers
def _width(text: str, size: int, bold: bool = False) -> int:
    face = bold_font(size) if bold else font(size)
    return round(face.getlength(text))


def _fit(text: str, width: int, size: int, bold: bool = False) -> str:
    """``text``, cut with an ellipsis where it would be wider than ``width``."""
    if _width(text, size, bold) <= width:
        return text
    while text and _width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"


def _wrap(text: str, width: int, size: int, bold: bool = False) -> list[str]:
    return wrap_words(text.split(" "), lambda line: _width(line, size, bold) <= width)


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: RGB = _TEXT,
          bold: bool = False, anchor: str = "la") -> Box:
    face = bold_font(size) if bold else font(size)
    draw.text(xy, text, font=face, fill=fill, anchor=anchor)
    box = draw.textbbox(xy, text, font=face, anchor=anchor)
    return tuple(round(v) for v in box)  # type: ignore[return-value]


def _dashed_line(draw: ImageDraw.ImageDraw, start, end, fill, width: int, dash: float, gap: float) -> None:
    length = math.dist(start, end)
    if length == 0:
        return
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    t = 0.0
    while t < length:
        t1 = min(length, t + dash)
        draw.line((start[0] + ux * t, start[1] + uy * t, start[0] + ux * t1, start[1] + uy * t1), fill=fill,
                  width=width)
        t = t1 + gap


def _dotted_line(draw: ImageDraw.ImageDraw, start, end, fill, radius: float, gap: float) -> None:
    length = math.dist(start, end)
    steps = max(1, int(length // gap))
    for i in range(steps + 1):
        x = start[0] + (end[0] - start[0]) * i / steps
        y = start[1] + (end[1] - start[1]) * i / steps
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill)


# ----------------------------------------------------------------------------- the painter
class _Painter:
    """Draws one picture, top to bottom (:meth:`paint`), collecting its layout."""

    def __init__(self, scene: TerritoryScene) -> None:
        self.scene = scene
        x0, y0, x1, y1 = self.region = scene.region
        self.nx, self.ny = x1 - x0 + 1, y1 - y0 + 1
        self.label_size = 18
        self.label_room = 30
        room = WIDTH - 2 * _MARGIN - 2 * self.label_room
        self.s = max(_MIN_SCALE, min(_MAX_SCALE, room // self.nx, (_MAX_HEIGHT // 2) // self.ny))
        self.width = max(WIDTH, 2 * _MARGIN + 2 * self.label_room + self.nx * self.s)
        self.board_box: Box = (0, 0, 0, 0)       # set when the board is painted
        self.texts: list[str] = []               # every line of text drawn, in order

    # ------------------------------------------------------------------ the whole picture
    def paint(self) -> tuple[Image.Image, TerritoryLayout]:
        scene = self.scene
        image = Image.new("RGB", (self.width, _MAX_HEIGHT), _BACKGROUND)
        draw = ImageDraw.Draw(image)
        y = self.paint_heading(draw, _MARGIN)
        labels, pieces, bottom = self.paint_board(image, y + 10)
        cycle, y = self.paint_cycle(draw, bottom + 16)
        holdings, y = self.paint_holdings(image, y + 14)
        y = self.paint_legend(draw, y + 14)
        image = image.crop((0, 0, self.width, min(_MAX_HEIGHT, y + _MARGIN)))
        layout = TerritoryLayout(
            region=self.region, scale=self.s, board_box=self.board_box, labels=tuple(labels), areas=scene.areas,
            cycle=tuple(cycle), holdings=tuple(holdings), arrows=scene.arrows, captures=scene.captures,
            placed=scene.placed, pieces=tuple(pieces), heading=scene.heading, caption=scene.caption, bag=scene.bag,
            legend=tuple(item.words for item in scene.legend), last_action=scene.last_action, texts=tuple(self.texts))
        return image, layout

    # ------------------------------------------------------------------ heading
    def paint_heading(self, draw: ImageDraw.ImageDraw, y: int) -> int:
        heading, colour, caption = self.scene.heading, self.scene.heading_colour, self.scene.caption
        x = _MARGIN
        width = self.width - 2 * _MARGIN
        if colour is not None:
            draw.rounded_rectangle((x, y + 4, x + 22, y + 26), radius=4, fill=colour, outline=_OUTLINE)
            x += 32
        lines = _wrap(heading, self.width - _MARGIN - x, 26, bold=True)
        for line in lines:
            _text(draw, (x, y), line, 26, bold=True)
            y += 34
        self.texts += lines
        for line in _wrap(caption, width, 20) if caption else []:
            _text(draw, (_MARGIN, y), line, 20, fill=_MUTED)
            self.texts.append(line)
            y += 26
        return y

    # ------------------------------------------------------------------ board
    def square_box(self, square: Square) -> Box:
        x0, _, _, y1 = self.region
        px = self.board_box[0] + (square[0] - x0) * self.s
        py = self.board_box[1] + (y1 - square[1]) * self.s
        return px, py, px + self.s, py + self.s

    def centre(self, square: Square) -> tuple[float, float]:
        box = self.square_box(square)
        return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2

    def inside(self, square: Square) -> bool:
        return self.scene.inside(square)

    def paint_board(self, image: Image.Image, y: int) -> tuple[list[Label], list[tuple[Piece, Box]], int]:
        """The squares and areas, the labels, the last action's squares, the pieces, then the
        arrows and marks over them; the labels and pieces drawn, and the y under the board's labels."""
        scene = self.scene
        left = (self.width - self.nx * self.s) // 2
        top = y + self.label_room
        self.board_box = (left, top, left + self.nx * self.s, top + self.ny * self.s)
        draw = ImageDraw.Draw(image)
        self.paint_areas(draw, scene.areas)
        draw.rectangle((left - 1, top - 1, self.board_box[2], self.board_box[3]), outline=_OUTLINE, width=2)
        labels = self.paint_labels(draw)
        self.paint_moved_squares(draw, scene.arrows)
        pieces = self.paint_pieces(draw)
        overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))       # half transparent: the letters under still read
        ink = ImageDraw.Draw(overlay)
        for arrow in scene.arrows:
            if self.inside(arrow.origin) and self.inside(arrow.target):
                self.arrow(ink, arrow)
        for square in scene.captures:
            cx, cy = self.centre(square)
            k, width = self.s * 0.42, max(3, self.s // 14)
            ink.line((cx - k, cy - k, cx + k, cy + k), fill=CAPTURED_RGB + (200,), width=width)
            ink.line((cx - k, cy + k, cx + k, cy - k), fill=CAPTURED_RGB + (200,), width=width)
        image.paste(Image.alpha_composite(image.convert("RGBA"), overlay).convert("RGB"))
        draw = ImageDraw.Draw(image)
        for square in scene.placed:
            box = self.square_box(square)
            draw.rectangle((box[0] + 1, box[1] + 1, box[2] - 2, box[3] - 2), outline=PLACED_RGB,
                           width=max(3, self.s // 16))
            self.badge(draw, (box[0] + self.s * 0.16, box[1] + self.s * 0.16), self.s * 0.15, "+", PLACED_RGB,
                       (255, 255, 255))
        return labels, pieces, self.board_box[3] + self.label_room

    def paint_areas(self, draw: ImageDraw.ImageDraw, areas: list[DrawnArea]) -> None:
        """A light and dark checker, each square tinted by its area; the neutral zone hatched
        (nothing is ever placed there), the goal ringed; each area's edge, a controlled territory
        (or goal) framed thick in its controller's colour, one nobody controls dashed."""
        s = self.s
        x0, y0, x1, y1 = self.region
        area_of = {square: drawn for drawn in areas for square in drawn.area.squares}
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                light = (x + y) % 2 != 0
                base = LIGHT_SQUARE if light else DARK_SQUARE
                drawn = area_of.get((x, y))
                if drawn is not None:
                    base = blend(base, drawn.tint, area_strength(drawn.area.kind, light))
                draw.rectangle(self.square_box((x, y)), fill=base)
        hatch = darker(blend(LIGHT_SQUARE, NEUTRAL_AREA_RGB, 0.5), 0.85)
        for drawn in areas:
            for square in drawn.area.squares:
                box = self.square_box(square)
                if drawn.area.kind == AREA_NEUTRAL:
                    for k in range(1, 4):
                        t = k * s / 4
                        draw.line((box[0], box[1] + t, box[0] + t, box[1]), fill=hatch, width=1)
                        draw.line((box[2] - t, box[3], box[2], box[3] - t), fill=hatch, width=1)
                elif drawn.area.kind == AREA_GOAL:
                    inset = max(2, s // 14)
                    draw.rectangle((box[0] + inset, box[1] + inset, box[2] - inset - 1, box[3] - inset - 1),
                                   outline=_GOAL_EDGE, width=max(2, s // 22))
        for drawn in areas:
            squares = set(drawn.area.squares)
            if drawn.frame is not None:
                self.outline(draw, squares, drawn.frame, max(4, s // 10), inset=max(2, s // 20))
            elif drawn.area.kind == AREA_TERRITORY:
                self.outline(draw, squares, darker(drawn.tint, 0.55), 2, dashed=True, inset=1)
            else:
                self.outline(draw, squares, darker(_GOAL_EDGE if drawn.area.kind == AREA_GOAL else drawn.tint, 0.7), 1)


    def paint_moved_squares(self, draw: ImageDraw.ImageDraw, arrows: list[Arrow]) -> None:
        """Under the pieces: a ring where a relocated piece was, a frame where it went (in its
        arrow's colour); a Fire's next leg starts where the last one ended, with no ring."""
        s = self.s
        arrived: set[Square] = set()
        for arrow in arrows:
            if arrow.form in ("shot", "lead") or not (self.inside(arrow.origin) and self.inside(arrow.target)):
                continue
            box = self.square_box(arrow.target)
            draw.rectangle((box[0] + 1, box[1] + 1, box[2] - 2, box[3] - 2), outline=arrow.colour,
                           width=max(3, s // 16))
            if arrow.origin not in arrived:
                cx, cy = self.centre(arrow.origin)
                r = s * 0.16
                draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=arrow.colour, width=max(2, s // 22))
            arrived.add(arrow.target)


    def paint_pieces(self, draw: ImageDraw.ImageDraw) -> list[tuple[Piece, Box]]:
        """Every piece in its owner's tones; two on one square (a stack on the goal) one up and
        left, the other down and right; a Mirror copy with a ``c``."""
        s = self.s
        pieces: list[tuple[Piece, Box]] = []
        for look in self.scene.pieces:
            box = self.square_box(look.piece.square)
            if look.stack == 1:
                pad = max(2, round(s * 0.07))
                piece_box = (box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad)
            elif look.place == 0:
                side = round(s * 0.62)
                piece_box = (box[0] + 1, box[1] + 1, box[0] + 1 + side, box[1] + 1 + side)
            else:
                side = round(s * 0.62)
                piece_box = (box[2] - 1 - side, box[3] - 1 - side, box[2] - 1, box[3] - 1)
            draw_piece(draw, piece_box, look.kind, look.tones, labels=self.scene.plate_labels)
            pieces.append((look.piece, piece_box))
            if look.copy:
                self.badge(draw, (piece_box[2] - s * 0.12, piece_box[3] - s * 0.14), s * 0.14, "c",
                           (255, 255, 255), _TEXT)
        return pieces

    def badge(self, draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, text: str, fill: RGB,
              ink: RGB) -> None:
        cx, cy = centre
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=fill, outline=_OUTLINE, width=1)
        draw.text((cx, cy), text, font=bold_font(max(8, round(radius * 1.6))), fill=ink, anchor="mm")

    def outline(self, draw: ImageDraw.ImageDraw, squares: set[Square], colour: RGB, width: int,
                dashed: bool = False, inset: int = 0) -> None:
        """The outer edge of a set of squares (each side of a square with no neighbour in the set),
        ``inset`` pixels inside it."""
        for square in squares:
            x, y = square
            bx = self.square_box(square)
            left, top, right, bottom = bx[0] + inset, bx[1] + inset, bx[2] - 1 - inset, bx[3] - 1 - inset
            sides = []
            if (x, y + 1) not in squares:
                sides.append(((bx[0], top), (bx[2] - 1, top)))
            if (x, y - 1) not in squares:
                sides.append(((bx[0], bottom), (bx[2] - 1, bottom)))
            if (x - 1, y) not in squares:
                sides.append(((left, bx[1]), (left, bx[3] - 1)))
            if (x + 1, y) not in squares:
                sides.append(((right, bx[1]), (right, bx[3] - 1)))
            for start, end in sides:
                # pull the ends in where the edge turns, so corners meet and do not overshoot
                (sx, sy), (ex, ey) = start, end
                if sy == ey:
                    sx = left if (x - 1, y) not in squares else sx
                    ex = right if (x + 1, y) not in squares else ex
                else:
                    sy = top if (x, y + 1) not in squares else sy
                    ey = bottom if (x, y - 1) not in squares else ey
                if dashed:
                    _dashed_line(draw, (sx, sy), (ex, ey), colour, width, self.s / 6, self.s / 8)
                else:
                    low, high = width // 2, width - width // 2 - 1
                    if sy == ey:
                        draw.rectangle((sx - low, sy - low, ex + high, sy + high), fill=colour)
                    else:
                        draw.rectangle((sx - low, sy - low, sx + high, ey + high), fill=colour)

    def arrow(self, ink: ImageDraw.ImageDraw, arrow: Arrow) -> None:
        """One arrow, its head stopping at the edge of the piece that arrived; a swap has two heads,
        a shot is dashed, a Leadership's hand-over dotted and ending in a ring round its delegate."""
        s = self.s
        start, end = self.centre(arrow.origin), self.centre(arrow.target)
        length = math.dist(start, end)
        if length == 0:
            return
        ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
        colour = arrow.colour + (190,)
        width = max(4, round(s * 0.11))
        head = max(12.0, s * 0.36)
        if arrow.form == "lead":
            _dotted_line(ink, start, end, colour, max(2.5, s * 0.06), max(8.0, s * 0.22))
            r = s * 0.3
            ink.ellipse((end[0] - r, end[1] - r, end[0] + r, end[1] + r), outline=colour, width=max(2, s // 20))
            return
        stop = s * 0.30                      # the head ends at the edge of the arrival's piece
        tip = (end[0] - ux * stop, end[1] - uy * stop)
        begin = start
        if arrow.form == "swap":
            begin = (start[0] + ux * stop, start[1] + uy * stop)
            arrowhead(ink, begin, (-ux, -uy), head, colour)
            begin = (begin[0] + ux * head * 0.8, begin[1] + uy * head * 0.8)
        shaft_end = (tip[0] - ux * head * 0.8, tip[1] - uy * head * 0.8)
        if arrow.form == "shot":
            _dashed_line(ink, begin, shaft_end, colour, width, s * 0.22, s * 0.14)
        else:
            ink.line((begin, shaft_end), fill=colour, width=width)
        arrowhead(ink, tip, (ux, uy), head, colour)

    def paint_labels(self, draw: ImageDraw.ImageDraw) -> list[Label]:
        """x above and below the board, y left and right, 0 in blue (the goal's lines)."""
        board_box, box = self.board_box, self.square_box
        room = self.label_room / 2
        labels = []
        x0, y0, x1, y1 = self.region
        size = self.label_size if self.s >= 40 else 14
        step = 1 if self.s >= 28 else 2
        for x in range(x0, x1 + 1):
            if x % step:
                continue
            bx = box((x, y0))
            cx = (bx[0] + bx[2]) / 2
            for side, cy in (("top", board_box[1] - room), ("bottom", board_box[3] + room)):
                fill = (0, 70, 160) if x == 0 else _TEXT
                labels.append(Label(str(x), "x", x, side, _text(draw, (cx, cy), str(x), size, fill, True, "mm")))
        for y in range(y0, y1 + 1):
            if y % step:
                continue
            bx = box((x0, y))
            cy = (bx[1] + bx[3]) / 2
            for side, cx in (("left", board_box[0] - room), ("right", board_box[2] + room)):
                fill = (0, 70, 160) if y == 0 else _TEXT
                labels.append(Label(str(y), "y", y, side, _text(draw, (cx, cy), str(y), size, fill, True, "mm")))
        return labels


    # ------------------------------------------------------------------ the cycle
    def paint_cycle(self, draw: ImageDraw.ImageDraw, y: int) -> tuple[list[DrawnSlot], int]:
        """One box a slot in the slot's colour, in rows of equal slots wide enough to read on a phone
        (12 slots: two rows of 6, each half of the cycle); under each, its words; the current slot
        outlined and pointed at."""
        slots = self.scene.cycle
        if not slots:
            return [], y
        title = self.scene.cycle_title
        _text(draw, (_MARGIN, y), title, 21, bold=True)
        self.texts.append(title)
        y += 30
        count, gap, inner = len(slots), 8, self.width - 2 * _MARGIN
        per_row = max(1, min(count, (inner + gap) // (_SLOT_MIN + gap)))
        rows = math.ceil(count / per_row)
        per_row = math.ceil(count / rows)
        slot_w = (inner - (per_row - 1) * gap) // per_row
        box_h, pitch = 40, 40 + 46
        drawn: list[DrawnSlot] = []
        for look in slots:
            row, col = divmod(look.index, per_row)
            left, top = _MARGIN + col * (slot_w + gap), y + 16 + row * pitch
            box = (left, top, left + slot_w, top + box_h)
            colour, name = look.colour, look.slot.name
            draw.rounded_rectangle(box, radius=6, fill=colour, outline=darker(colour, 0.6), width=1)
            size = next((n for n in range(20, 10, -1) if _width(name, n, True) <= slot_w - 6), 11)
            centre_x = (box[0] + box[2]) / 2
            _text(draw, (centre_x, (box[1] + box[3]) / 2), _fit(name, slot_w - 6, size, True), size,
                  contrast_edge(colour), True, "mm")
            if look.outlined:
                draw.rounded_rectangle((box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4), radius=8, outline=_OUTLINE,
                                       width=4)
                draw.polygon([(centre_x - 9, box[1] - 17), (centre_x + 9, box[1] - 17), (centre_x, box[1] - 7)],
                             fill=_OUTLINE)
            if not self.scene.over:
                line = _fit(f"{look.words[0]} · {look.words[1]}", slot_w + gap, 18, look.outlined)
                _text(draw, (centre_x, box[3] + 7), line, 18, _MUTED if look.muted else _TEXT, look.outlined, "ma")
            drawn.append(DrawnSlot(look.slot, look.index, look.turn, box, look.outlined, look.words))
        return drawn, y + 16 + rows * pitch - 8

    # ------------------------------------------------------------------ reserves, draft area, bag
    def paint_holdings(self, image: Image.Image, y: int) -> tuple[list[DrawnHolding], int]:
        """A panel a holding: its swatch, heading and detail (the draft area's with the bag's words),
        its chips in rows; the holdings drawn and the y under them."""
        draw = ImageDraw.Draw(image)
        drawn: list[DrawnHolding] = []
        for look in self.scene.holdings:
            holding = look.holding
            chip, gap, label_w = 60, 8, 230
            chips_x = _MARGIN + label_w
            per_row = max(1, (self.width - _MARGIN - chips_x + gap) // (chip + gap))
            rows = max(1, math.ceil(len(look.chips) / per_row))
            height = rows * (chip + 20) + 10
            if holding.owner is None:
                height = max(height, 86)
            panel = (_MARGIN, y, self.width - _MARGIN, y + height)
            draw.rounded_rectangle(panel, radius=8, fill=_PANEL, outline=_PANEL_EDGE)
            tx = _MARGIN + 12
            if look.swatch is not None:
                draw.rounded_rectangle((tx, y + 12, tx + 18, y + 30), radius=3, fill=look.swatch, outline=_OUTLINE)
                tx += 26
            _text(draw, (tx, y + 10), _fit(look.title, chips_x - tx - 8, 21, True), 21, bold=True)
            _text(draw, (_MARGIN + 12, y + 38), look.detail, 18, _MUTED)
            if holding.owner is None:
                _text(draw, (_MARGIN + 12, y + 62), self.scene.bag, 16, _MUTED)
            self.texts += [look.title, look.detail]
            if look.empty:
                _text(draw, (chips_x, y + 22), look.empty, 18, _MUTED)
            drawn.append(DrawnHolding(holding, look.title, look.detail, panel,
                                      tuple(self.paint_chips(draw, look, chips_x, y, per_row))))
            y += height + 8
        self.texts.append(self.scene.bag)
        return drawn, y

    def paint_chips(self, draw: ImageDraw.ImageDraw, look: HoldingLook, chips_x: int, y: int, per_row: int
                    ) -> list[Chip]:
        """A holding's chips: each kind's sprite in the holding's tones, the words under it."""
        chip, gap = 60, 8
        chips: list[Chip] = []
        for index, drawn in enumerate(look.chips):
            row, col = divmod(index, per_row)
            cx0 = chips_x + col * (chip + gap)
            cy0 = y + 8 + row * (chip + 20)
            box = (cx0, cy0, cx0 + chip, cy0 + chip)
            draw.rounded_rectangle(box, radius=6, fill=(236, 233, 226))
            if drawn.kind is not None:
                draw_piece(draw, (box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3), drawn.kind, look.tones,
                           labels=self.scene.plate_labels)
            if drawn.under:
                _text(draw, ((box[0] + box[2]) / 2, box[3] + 2), drawn.under, 15,
                      (0, 110, 80) if drawn.new else _TEXT, True, "ma")
            chips.append(Chip(drawn.kind_letter, drawn.count, box, drawn.new))
        return chips

    # ------------------------------------------------------------------ legend
    def paint_legend(self, draw: ImageDraw.ImageDraw, y: int) -> int:
        """The legend's items in two columns, each with its sample, then the key of the pieces'
        letters; the y under it."""
        items = [item for item in self.scene.legend if item.shape != "piece"]
        y = self.paint_columns(draw, items, y)
        return self.paint_key(draw, [item for item in self.scene.legend if item.shape == "piece"], y + 6)

    def paint_key(self, draw: ImageDraw.ImageDraw, items, y: int) -> int:
        """The pieces' letters and names in a run of lines ("Fre Freedom · Fire Fire"), the letters
        bold as on the plates: the picture stays phone-shaped; the y under it."""
        if not items:
            return y
        size, x, right = 16, _MARGIN, self.width - _MARGIN
        for index, item in enumerate(items):
            letters, name = item.words.split(": ", 1)
            entry = _width(letters, size, True) + 6 + _width(name, size) + (_width(" · ", size) if index else 0)
            if x + entry > right and x > _MARGIN:
                x, y = _MARGIN, y + 24
            elif index:
                _text(draw, (x, y), " · ", size, anchor="la")
                x += _width(" · ", size)
            _text(draw, (x, y), letters, size, _TEXT, True, "la")
            x += _width(letters, size, True) + 6
            _text(draw, (x, y), name, size, anchor="la")
            x += _width(name, size)
        self.texts += [item.words for item in items]
        return y + 24

    def paint_columns(self, draw: ImageDraw.ImageDraw, items, y: int) -> int:
        """Items in two columns, each with its sample; the y under them."""
        size = 18
        column_w = (self.width - 2 * _MARGIN) // 2
        for index, item in enumerate(items):
            col, row = index % 2, index // 2
            x = _MARGIN + col * column_w
            cy = y + row * 30 + 13
            self.legend_icon(draw, item.shape, item.colour, (x + 12, cy))
            _text(draw, (x + 32, cy), _fit(item.words, column_w - 40, size), size, _TEXT, anchor="lm")
        self.texts += [item.words for item in items]
        return y + math.ceil(len(items) / 2) * 30

    def legend_icon(self, draw: ImageDraw.ImageDraw, shape: str, colour, centre: tuple[int, int]) -> None:
        cx, cy = centre
        r = 10
        box = (cx - r, cy - r, cx + r, cy + r)
        if shape == "square":
            draw.rectangle(box, fill=colour, outline=GRID_RGB)
        elif shape == "frame":            # a territory: its tint, framed in its controller's colour (dashed: nobody)
            tint, frame = colour
            draw.rectangle(box, fill=blend(LIGHT_SQUARE, tint, 0.45))
            if frame is None:
                draw.rectangle(box, outline=darker(tint, 0.55), width=1)
            else:
                draw.rectangle(box, outline=frame, width=4)
        elif shape == "hatch":
            draw.rectangle(box, fill=colour, outline=GRID_RGB)
            draw.line((box[0], box[3], box[2], box[1]), fill=darker(colour, 0.8), width=1)
        elif shape == "arrow":
            draw.line((cx - r, cy, cx + r - 6, cy), fill=colour, width=4)
            arrowhead(draw, (cx + r + 2, cy), (1, 0), 10, colour)
        elif shape == "cross":
            draw.line((cx - 8, cy - 8, cx + 8, cy + 8), fill=colour, width=4)
            draw.line((cx - 8, cy + 8, cx + 8, cy - 8), fill=colour, width=4)
        elif shape == "plus":
            self.badge(draw, (cx, cy), 10, "+", colour, (255, 255, 255))
        elif shape == "copy":
            self.badge(draw, (cx, cy), 10, "c", (255, 255, 255), _TEXT)

