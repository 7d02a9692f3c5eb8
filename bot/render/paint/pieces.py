"""The piece sheet painted: a scene of :mod:`bot.render.scene.pieces` turned into a PNG.

Every word and mark comes from the scene; this module decides where they go and in which colours
each style is drawn (the shapes say the same thing for readers who cannot tell the colours apart):
a filled disc for ``both``, a ring for ``move``, a cross for ``capture``, an orange square behind
an ``initial`` mark, a dotted line for a ``lame`` leap, an arrowhead where a ride goes on without
limit. It wraps each card's notes to the card's width and ends the last line that fits with "…".
:func:`paint_piece_sheet` returns the PNG with a :class:`SheetLayout` (each card's boxes), so tests
check the picture's geometry without reading pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from io import BytesIO

from PIL import Image, ImageDraw

from bot.engine.ruleset import PieceKind, Ruleset
from bot.engine.model import format_amount

from .layout import Rendered
from ..scene.pieces import NOBODYS_TONES, Diagram, PieceCard, PieceSheet, piece_sheet
from .sprites import bold_font, draw_piece
from .sprites import font as regular_font
from .text import wrap_words
from .shapes import arrowhead

__all__ = ["Card", "SheetLayout", "paint_piece_sheet", "render_piece_sheet", "BOTH_RGB", "MOVE_RGB", "CAPTURE_RGB"]

#: Colours of the marks; the shapes say the same thing for readers who cannot tell them apart.
BOTH_RGB = (24, 24, 28)
MOVE_RGB = (18, 128, 60)
CAPTURE_RGB = (200, 30, 30)
INITIAL_RGB = (230, 120, 0)
INITIAL_FILL = (255, 204, 140)
LAME_RGB = (120, 120, 130)
LIGHT_SQUARE = (240, 236, 226)
DARK_SQUARE = (214, 206, 190)
CENTRE_SQUARE = (255, 226, 120)
GRID_LINE = (170, 160, 145)
CARD_BG = (252, 251, 248)
CARD_EDGE = (150, 140, 125)
SHEET_BG = (226, 222, 214)
TEXT_RGB = (20, 20, 24)
MUTED_RGB = (85, 85, 95)


@dataclass(frozen=True, slots=True)
class Card:
    """One kind's card on the sheet, in sheet pixels."""

    letter: str
    name: str
    cost: str
    betza: str
    box: tuple[int, int, int, int]
    sprite_box: tuple[int, int, int, int]
    grid_box: tuple[int, int, int, int]
    diagram: Diagram
    cells: dict[tuple[int, int], tuple[int, int, int, int]]   # offset -> pixel box
    texts: tuple[str, ...]                                     # every line of text on the card
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SheetLayout:
    title: str
    cards: tuple[Card, ...]
    legend_box: tuple[int, int, int, int]
    legend: tuple[str, ...] = field(default=())

    def card(self, letter: str) -> Card:
        for card in self.cards:
            if card.letter == letter:
                return card
        raise KeyError(letter)


def font(size: int, bold: bool = False):
    return bold_font(size) if bold else regular_font(size)


def text_size(text: str, size: int, bold: bool = False) -> tuple[int, int]:
    left, top, right, bottom = font(size, bold).getbbox(text)
    return right - left, bottom - top


# ----------------------------------------------------------------------------- drawing
def _draw_mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, style: str,
               initial: bool) -> None:
    """One mark: a filled disc (both), a ring (move only) or a cross (capture only); an orange
    square behind it when the move is allowed on the first move (or once) only."""
    cx, cy = centre
    r = size / 2
    if initial:
        pad = r + max(3.0, size * 0.3)
        draw.rectangle((cx - pad, cy - pad, cx + pad, cy + pad), fill=INITIAL_FILL, outline=INITIAL_RGB,
                       width=max(2, round(size * 0.12)))
    width = max(2, round(size * 0.2))
    if style == "both":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BOTH_RGB)
    elif style == "move":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=MOVE_RGB, width=width)
    else:
        k = r * 0.95
        draw.line((cx - k, cy - k, cx + k, cy + k), fill=CAPTURE_RGB, width=width + 1)
        draw.line((cx - k, cy + k, cx + k, cy - k), fill=CAPTURE_RGB, width=width + 1)


def _line_rgb(move: bool, capture: bool) -> tuple[int, int, int]:
    if move and capture:
        return BOTH_RGB
    return MOVE_RGB if move else CAPTURE_RGB


def _draw_dotted(draw: ImageDraw.ImageDraw, start, end, rgb, dot: float, gap: float) -> None:
    length = math.dist(start, end)
    if length == 0:
        return
    n = max(1, int(length // gap))
    for i in range(n + 1):
        t = i / n
        x = start[0] + (end[0] - start[0]) * t
        y = start[1] + (end[1] - start[1]) * t
        draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=rgb)


def _draw_diagram(draw: ImageDraw.ImageDraw, kind: PieceKind, diagram: Diagram,
                  box: tuple[int, int, int, int]) -> dict[tuple[int, int], tuple[int, int, int, int]]:
    left, top, right, bottom = box
    radius = diagram.radius
    count = 2 * radius + 1
    cell = (right - left) // count

    def cell_box(dx: int, dy: int) -> tuple[int, int, int, int]:
        col, row = dx + radius, radius - dy           # +y (forward) is up
        x0, y0 = left + col * cell, top + row * cell
        return (x0, y0, x0 + cell, y0 + cell)

    def centre(square: tuple[int, int]) -> tuple[float, float]:
        x0, y0, x1, y1 = cell_box(*square)
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    cells = {}
    for dx in range(-radius, radius + 1):
        for dy in range(-radius, radius + 1):
            cb = cell_box(dx, dy)
            cells[(dx, dy)] = cb
            colour = CENTRE_SQUARE if (dx, dy) == (0, 0) else (LIGHT_SQUARE if (dx + dy) % 2 else DARK_SQUARE)
            draw.rectangle(cb, fill=colour)
    grid_right, grid_bottom = left + count * cell, top + count * cell
    draw.rectangle((left, top, grid_right, grid_bottom), outline=GRID_LINE, width=1)

    def leave_centre(target: tuple[float, float]) -> tuple[float, float]:
        """Where a line from the piece towards ``target`` crosses the centre square's border."""
        start = centre((0, 0))
        dx, dy = target[0] - start[0], target[1] - start[1]
        t = 0.5 * cell / max(abs(dx), abs(dy), 1e-9)
        return (start[0] + dx * t, start[1] + dy * t)

    # Non-leaping leaps first (under everything): a dotted line over the squares that block them.
    for square, mark in diagram.marks.items():
        if mark.lame:
            target = centre(square)
            begin = leave_centre(target)
            stop = 0.5 * cell * 0.56 + 3
            length = math.dist(begin, target) or 1.0
            end = (target[0] - (target[0] - begin[0]) / length * stop,
                   target[1] - (target[1] - begin[1]) / length * stop)
            _draw_dotted(draw, begin, end, LAME_RGB, max(1.5, cell * 0.06), max(4, cell * 0.2))

    # Rider lines, from the piece's square to the last square (or past the grid's edge, with an arrow).
    width = max(2, round(cell * 0.1))
    for line in diagram.lines:
        rgb = _line_rgb(line.move, line.capture)
        end = centre(line.squares[-1])
        begin = leave_centre(end)
        dx, dy = end[0] - begin[0], end[1] - begin[1]
        if line.unlimited:
            # run on to the grid's border and point on: the ride continues off the diagram
            t = 0.5 * cell / max(abs(dx), abs(dy), 1e-9)
            tip = (end[0] + dx * t, end[1] + dy * t)
            draw.line((begin, tip), fill=rgb, width=width)
            arrowhead(draw, tip, (dx, dy), max(6.0, cell * 0.36), rgb)
        else:
            draw.line((begin, end), fill=rgb, width=width)

    # Marks: large for leaps, small on rider lines.
    for square, mark in sorted(diagram.marks.items()):
        size = cell * (0.56 if mark.leap else 0.36)
        _draw_mark(draw, centre(square), size, mark.style, mark.initial)

    # The piece itself in the centre square.
    cb = cells[(0, 0)]
    pad = max(1, cell // 12)
    draw_piece(draw, (cb[0] + pad, cb[1] + pad, cb[2] - pad, cb[3] - pad), kind, NOBODYS_TONES)
    return cells



def _wrap(text: str, width: int, size: int) -> list[str]:
    return wrap_words(text.split(), lambda line: text_size(line, size)[0] <= width)


CARD_WIDTH = 300
CARD_PAD = 12
HEADER_HEIGHT = 70
GRID_SIZE = CARD_WIDTH - 2 * CARD_PAD
NOTE_SIZE = 13
NOTE_LINES = 3           # lines of notes under a diagram, more (up to MAX_NOTE_LINES) when a sheet needs them
MAX_NOTE_LINES = 6
GAP = 14
TITLE_HEIGHT = 56
LEGEND_ROW = 30



def render_piece_sheet(ruleset: Ruleset) -> Rendered:
    """Every kind of ``ruleset`` on one sheet (PNG), with the layout of each card."""
    return paint_piece_sheet(piece_sheet(ruleset))


def paint_piece_sheet(sheet: PieceSheet) -> Rendered:
    """The sheet as a PNG: the title, the cards in rows (up to six a row, more when the sheet would be
    taller than 4096 pixels), then the legend; with the layout of each card."""
    wrapped = {card.letter: [line for note in card.notes for line in _wrap(note, CARD_WIDTH - 2 * CARD_PAD, NOTE_SIZE)]
               for card in sheet.cards}
    note_rows = min(MAX_NOTE_LINES, max([NOTE_LINES, *(len(lines) for lines in wrapped.values())]))
    columns, rows, card_height, width, height = _sheet_size(len(sheet.cards), len(sheet.legend), note_rows)
    image = Image.new("RGB", (width, height), SHEET_BG)
    draw = ImageDraw.Draw(image)
    draw.text((GAP, 14), sheet.title, font=font(26, bold=True), fill=TEXT_RGB)
    cards: list[Card] = []
    for index, card in enumerate(sheet.cards):
        col, row = index % columns, index // columns
        x0 = GAP + col * (CARD_WIDTH + GAP)
        y0 = TITLE_HEIGHT + row * (card_height + GAP)
        note_lines = wrapped[card.letter]
        if len(note_lines) > note_rows:
            note_lines = note_lines[:note_rows - 1] + [note_lines[note_rows - 1].rstrip(".") + " …"]
        cards.append(_paint_card(draw, card, (x0, y0, x0 + CARD_WIDTH, y0 + card_height), note_lines))
    legend_box = (GAP, TITLE_HEIGHT + rows * (card_height + GAP), width - GAP, height - GAP)
    legend_texts = _paint_legend(draw, sheet.legend, legend_box)
    buffer = BytesIO()
    image.save(buffer, format="PNG")
    layout = SheetLayout(sheet.title, tuple(cards), legend_box, tuple(legend_texts))
    return Rendered(buffer.getvalue(), layout, width, height)


def _sheet_size(count: int, legend: int, note_rows: int) -> tuple[int, int, int, int, int]:
    """Columns, rows, a card's height and the sheet's width and height for ``count`` cards."""
    count = max(1, count)
    columns = min(6, count)
    while True:
        rows = math.ceil(count / columns)
        card_height = HEADER_HEIGHT + GRID_SIZE + CARD_PAD + note_rows * (NOTE_SIZE + 4) + CARD_PAD
        legend_height = LEGEND_ROW * math.ceil(legend / 2) + 20
        width = GAP + columns * (CARD_WIDTH + GAP)
        height = TITLE_HEIGHT + rows * (card_height + GAP) + legend_height + GAP
        if height <= 4096 or width + CARD_WIDTH + GAP > 4096:
            return columns, rows, card_height, width, height
        columns += 1


def _paint_card(draw: ImageDraw.ImageDraw, card: PieceCard, box: tuple[int, int, int, int],
                note_lines: list[str]) -> Card:
    """One card in ``box``: the sprite, its three lines, the diagram, the notes' lines."""
    kind = card.kind
    x0, y0 = box[0], box[1]
    draw.rounded_rectangle(box, radius=8, fill=CARD_BG, outline=CARD_EDGE, width=1)
    sprite_box = (x0 + CARD_PAD, y0 + CARD_PAD, x0 + CARD_PAD + 46, y0 + CARD_PAD + 46)
    draw.rectangle(sprite_box, fill=CENTRE_SQUARE)
    draw_piece(draw, (sprite_box[0] + 2, sprite_box[1] + 2, sprite_box[2] - 2, sprite_box[3] - 2), kind,
               NOBODYS_TONES)
    tx = sprite_box[2] + 10
    draw.text((tx, y0 + 8), card.name_line, font=font(19, bold=True), fill=TEXT_RGB)
    draw.text((tx, y0 + 32), card.letters_line, font=font(14), fill=TEXT_RGB)
    draw.text((tx, y0 + 50), card.betza_line, font=font(13), fill=MUTED_RGB)

    diagram = card.diagram
    count_cells = 2 * diagram.radius + 1
    cell = GRID_SIZE // count_cells
    grid_px = cell * count_cells
    gx = x0 + (CARD_WIDTH - grid_px) // 2
    gy = y0 + HEADER_HEIGHT
    grid_box = (gx, gy, gx + grid_px, gy + grid_px)
    cells = _draw_diagram(draw, kind, diagram, grid_box)
    if card.never_moves is not None:
        words = card.never_moves
        w, h = text_size(words, 18, bold=True)
        cx, cy = (grid_box[0] + grid_box[2]) / 2, grid_box[1] + grid_px * 0.25
        draw.rectangle((cx - w / 2 - 6, cy - h / 2 - 4, cx + w / 2 + 6, cy + h / 2 + 4), fill=CARD_BG)
        draw.text((cx - w / 2, cy - h / 2), words, font=font(18, bold=True), fill=MUTED_RGB)

    ny = gy + GRID_SIZE + CARD_PAD - 4
    for line in note_lines:
        draw.text((x0 + CARD_PAD, ny), line, font=font(NOTE_SIZE), fill=MUTED_RGB)
        ny += NOTE_SIZE + 4
    return Card(kind.letter, kind.name, format_amount(kind.cost), kind.betza, box, sprite_box, grid_box,
                diagram, cells, (card.name_line, card.letters_line, card.betza_line, *note_lines), card.notes)


def _paint_legend(draw: ImageDraw.ImageDraw, legend: tuple[tuple[str, str], ...],
                  legend_box: tuple[int, int, int, int]) -> list[str]:
    """One sample of every mark, two to a row, with its words."""
    ly = legend_box[1]
    draw.rounded_rectangle(legend_box, radius=8, fill=CARD_BG, outline=CARD_EDGE)
    half = (legend_box[2] - legend_box[0]) // 2
    legend_texts = []
    for i, (style, words) in enumerate(legend):
        cx = legend_box[0] + 28 + (i % 2) * half
        cy = ly + 10 + (i // 2) * LEGEND_ROW + LEGEND_ROW / 2
        size = 16.0
        if style in ("both", "move", "capture"):
            _draw_mark(draw, (cx, cy), size, style, False)
        elif style == "ride":
            draw.line((cx - 16, cy, cx + 8, cy), fill=BOTH_RGB, width=3)
            arrowhead(draw, (cx + 16, cy), (1, 0), 10, BOTH_RGB)
        elif style == "initial":
            _draw_mark(draw, (cx, cy), 13, "move", True)
        elif style == "lame":
            _draw_dotted(draw, (cx - 16, cy), (cx + 16, cy), LAME_RGB, 1.8, 6)
        draw.text((cx + 26, cy - 9), words, font=font(15), fill=TEXT_RGB)
        legend_texts.append(words)
    return legend_texts
