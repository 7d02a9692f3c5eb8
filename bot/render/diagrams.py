"""Piece sheets: one card per kind of a ruleset, with a movement diagram generated from its Betza.

A card shows the kind's sprite, name, letters, cost and Betza string, and a small grid centred on
the piece (forward, +y, is up). The diagram is computed from the compiled movement
(:class:`bot.engine.betza.Movement`), never drawn by hand, so a moderator who adds a piece to a
ruleset file gets its card for free:

* a leap's destination is a large mark; a rider's squares are small marks joined by a line, with
  an arrowhead at the grid's edge when it rides on without limit;
* a filled disc moves or captures there, a ring only moves there, a cross only captures there
  (a kind that never captures, such as the witch, only has rings);
* a mark inside an orange square is allowed on the piece's first move only (the pawn's double
  step), or once in its life (megachess's bishop step); a dotted line through a square says the
  leap is blocked by a piece standing there (non-leaping ``n``).

:func:`movement_diagram` returns the marks alone, which the tests check against the Betza
semantics; :func:`render_piece_sheet` draws every card and returns the layout of each.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from io import BytesIO

from PIL import Image, ImageDraw

from bot.engine.betza import Ray
from bot.engine.model import format_amount
from bot.engine.ruleset import PieceKind, Ruleset
from bot.engine.vocabulary import ABILITIES

from .board import Rendered
from .paint.sprites import bold_font, draw_piece
from .paint.sprites import font as regular_font

__all__ = ["SquareMark", "RideLine", "Diagram", "Card", "SheetLayout", "movement_diagram",
           "render_piece_sheet", "MIN_RADIUS", "MARK_STYLES"]

#: The smallest diagram is 9 x 9 squares; larger when a leap or a limited ride needs the room.
MIN_RADIUS = 4

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
#: Pieces on the sheet are drawn in a neutral white, as a chess diagram would.
SHEET_PIECE_FILL = ((246, 246, 246),)

#: The legend under the sheet: (style key, words).
MARK_STYLES: tuple[tuple[str, str], ...] = (
    ("both", "moves or captures there"),
    ("move", "moves there only (never captures there)"),
    ("capture", "captures there only"),
    ("ride", "rides along the line until blocked; an arrowhead: without limit"),
    ("initial", "first move only (or once in the piece's life, as its card says)"),
    ("lame", "dotted: blocked by a piece on a square it crosses (no jump)"),
)


@dataclass(frozen=True, slots=True)
class SquareMark:
    """How a piece may use one square of its diagram (offset from the piece, +y forward)."""

    move: bool
    capture: bool
    leap: bool          # reached by a single leap (a large mark)
    slide: bool         # reached by riding (a small mark on a line)
    initial: bool       # only on the first move, or once in the piece's life (see ``once``)
    once: bool = False  # the megachess bishop's one-time step
    lame: bool = False  # a straight leap blocked by a piece on a square it passes over

    @property
    def style(self) -> str:
        """``both``, ``move`` or ``capture``: the shape drawn on the square."""
        if self.move and self.capture:
            return "both"
        return "move" if self.move else "capture"


@dataclass(frozen=True, slots=True)
class RideLine:
    """A rider's line in the diagram: the squares it reaches, and whether it rides on beyond them."""

    step: tuple[int, int]
    squares: tuple[tuple[int, int], ...]
    unlimited: bool     # the ray has no range limit: it continues past the grid's edge
    move: bool
    capture: bool
    initial: bool


@dataclass(frozen=True, slots=True)
class Diagram:
    """The marks of one kind on a (2 radius + 1)-square grid centred on the piece."""

    radius: int
    marks: dict[tuple[int, int], SquareMark]
    lines: tuple[RideLine, ...]
    lame_paths: tuple[tuple[int, int], ...]     # squares a non-leaping leap passes over
    captures: bool                              # False: the kind never captures (its marks say so)
    directional: bool                           # the moves depend on which way is forward


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


# ----------------------------------------------------------------------------- the diagram
def _extent(ray: Ray) -> int:
    return max(abs(ray.step[0]), abs(ray.step[1]))


def _diagram_radius(rays: list[Ray]) -> int:
    """Room for every leap and every limited ride with a free square beyond, at least 9 x 9."""
    needed = MIN_RADIUS
    for ray in rays:
        if ray.range is None:
            needed = max(needed, 2 * _extent(ray) + 1)       # at least two squares of every rider line
        else:
            needed = max(needed, _extent(ray) * ray.range + (1 if ray.range > 1 else 0))
    return needed


def movement_diagram(kind: PieceKind, radius: int | None = None) -> Diagram:
    """The squares ``kind`` reaches from the centre of an empty grid, and how it uses each."""
    captures = kind.captures
    rays: list[tuple[Ray, bool]] = [(ray, False) for ray in kind.movement.rays]
    if kind.once is not None:
        rays += [(ray, True) for ray in kind.once.rays]
    if radius is None:
        radius = _diagram_radius([ray for ray, _ in rays])

    # (offset) -> list of (move, capture, leap, initial, once, lame)
    reached: dict[tuple[int, int], list[tuple[bool, bool, bool, bool, bool, bool]]] = {}
    lines: list[RideLine] = []
    lame_paths: set[tuple[int, int]] = set()
    for ray, once in rays:
        move, capture = ray.move, ray.capture and captures
        if not move and not capture:
            continue
        initial = ray.initial or once
        dx, dy = ray.step
        limit = ray.range if ray.range is not None else radius * 2 + 1
        squares = []
        for n in range(1, limit + 1):
            square = (dx * n, dy * n)
            if max(abs(square[0]), abs(square[1])) > radius:
                break
            squares.append(square)
            reached.setdefault(square, []).append((move, capture, not ray.slides, initial, once, ray.lame))
        if ray.slides and squares:
            lines.append(RideLine(ray.step, tuple(squares), ray.range is None, move, capture, initial))
        if ray.lame:
            lame_paths.update(ray.path)

    marks: dict[tuple[int, int], SquareMark] = {}
    for square, ways in reached.items():
        always = [w for w in ways if not w[3]]
        chosen = always or ways            # an initial-only mark only where nothing else reaches
        marks[square] = SquareMark(
            move=any(w[0] for w in chosen),
            capture=any(w[1] for w in chosen),
            leap=any(w[2] for w in chosen),
            slide=any(not w[2] for w in chosen),
            initial=not always,
            once=not always and all(w[4] for w in chosen),
            lame=any(w[5] for w in chosen),
        )
    directional = any(marks.get((x, -y)) != mark for (x, y), mark in marks.items())
    return Diagram(radius, marks, tuple(lines), tuple(sorted(lame_paths)), captures, directional)


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


def _arrowhead(draw: ImageDraw.ImageDraw, tip: tuple[float, float], direction: tuple[float, float],
               size: float, rgb) -> None:
    ux, uy = direction
    norm = math.hypot(ux, uy) or 1.0
    ux, uy = ux / norm, uy / norm
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    px, py = -uy * size * 0.55, ux * size * 0.55
    draw.polygon([tip, (bx + px, by + py), (bx - px, by - py)], fill=rgb)


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
            _arrowhead(draw, tip, (dx, dy), max(6.0, cell * 0.36), rgb)
        else:
            draw.line((begin, end), fill=rgb, width=width)

    # Marks: large for leaps, small on rider lines.
    for square, mark in sorted(diagram.marks.items()):
        size = cell * (0.56 if mark.leap else 0.36)
        _draw_mark(draw, centre(square), size, mark.style, mark.initial)

    # The piece itself in the centre square.
    cb = cells[(0, 0)]
    pad = max(1, cell // 12)
    draw_piece(draw, (cb[0] + pad, cb[1] + pad, cb[2] - pad, cb[3] - pad), kind, SHEET_PIECE_FILL)
    return cells


def _notes(kind: PieceKind, diagram: Diagram, ruleset: Ruleset) -> list[str]:
    notes: list[str] = []
    if kind.royal:
        notes.append("royal: the player's king")
    abilities = kind.abilities
    if "obstacle" in abilities:
        notes.append("neutral; blocks movement; can be captured for no reward")
    if "void" in abilities:
        notes.append("neutral; cannot be entered, crossed or captured")
    if "pillar" in abilities:
        notes.append("blocks movement; placed above rank 0")
    if "spirit" in abilities:
        notes.append("possesses a friendly non-pawn piece by moving onto it")
    if "witch" in abilities:
        notes.append("transparent to her side; makes her neighbours transparent")
    if "dwarf" in abilities:
        notes.append("capturable only when two enemy pieces attack it")
    if "angel" in abilities:
        notes.append("friendly neighbours cannot be captured")
    if "zombie" in abilities:
        notes.append("freezes enemy pieces its move could reach")
    if "time_thief" in abilities:
        notes.append("captures a piece that moved last update by moving to the square it came from")
    if "harpy" in abilities:
        notes.append("picks up a friend; drops it within two updates")
    if "one_time_step" in abilities and kind.once is not None:
        notes.append(f"once in its life: {kind.once.betza} (orange squares)")
    for ability in sorted(abilities - _WORDED, key=_ABILITY_ORDER.get):
        notes.append(_ability_words(ability, kind))
    if not diagram.captures and kind.movement.rays and not any(
            a in abilities for a in ("time_thief",)):
        notes.append("never captures")
    elif not diagram.captures and "time_thief" in abilities:
        notes.append("never captures normally")
    if any(mark.initial and not mark.once for mark in diagram.marks.values()):
        notes.append("orange square: on its first move only")
    if diagram.directional:
        notes.append("forward (+y) is up")
    return notes


#: Abilities whose note is written above (or that the diagram shows): the others get the engine's
#: own sentence (bot/engine/vocabulary.py), so a ruleset's new abilities are explained with no code.
_WORDED = frozenset({"royal", "no_capture", "transparent", "obstacle", "void", "pillar", "spirit", "witch", "dwarf",
                     "angel", "zombie", "time_thief", "harpy", "one_time_step"})
_ABILITY_ORDER = {name: index for index, name in enumerate(ABILITIES)}


def _ability_words(ability: str, kind: PieceKind) -> str:
    """The vocabulary's sentence for an ability, without the kind's own name in its citation:
    "... (Balance, T16)" on the Balance's card reads "... (T16)"."""
    words = ABILITIES.get(ability, ability.replace("_", " "))
    return words.replace(f"({kind.name}, ", "(").replace(f" ({kind.name})", "")


def _never_moves_words(kind: PieceKind) -> str:
    """What the diagram of a kind with no Betza move says: Shadow's jump is its only way to move."""
    return "jumps next to an ally" if kind.has("jump_to_ally") else "never moves"


def _wrap(text: str, width: int, size: int) -> list[str]:
    words = text.split()
    lines: list[str] = []
    current = ""
    for word in words:
        attempt = f"{current} {word}".strip()
        if current and text_size(attempt, size)[0] > width:
            lines.append(current)
            current = word
        else:
            current = attempt
    if current:
        lines.append(current)
    return lines


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


def _letters(kind: PieceKind) -> str:
    """The letters a player may type: the primary letter and short aliases (not the full name)."""
    spelled = kind.name.replace(" ", "").casefold()
    short_aliases = [a for a in kind.aliases if a.replace(" ", "").casefold() != spelled]
    return ", ".join([kind.letter, *short_aliases])


def _cost_words(ruleset: Ruleset, kind: PieceKind) -> str:
    """"cost 3 health", "value 1 point", "neutral"; empty when no kind of the ruleset has a cost
    (territory's pieces are drafted, not bought)."""
    if kind.has("obstacle") or kind.has("void"):
        return "neutral"
    if all(other.cost == 0 for other in ruleset.pieces.values()):
        return ""
    amount = format_amount(kind.cost)
    currency = ruleset.economy.currency
    if currency == "points":
        return f"value {amount} point" + ("" if kind.cost == 1 else "s")
    return f"cost {amount} {currency}"


def render_piece_sheet(ruleset: Ruleset) -> Rendered:
    """Every kind of ``ruleset`` on one sheet (PNG), with the layout of each card."""
    kinds = list(ruleset.pieces.values())
    count = max(1, len(kinds))
    columns = min(6, count)
    diagrams = {kind.letter: movement_diagram(kind) for kind in kinds}
    notes_of = {kind.letter: _notes(kind, diagrams[kind.letter], ruleset) for kind in kinds}
    wrapped = {letter: [line for note in notes for line in _wrap(note, CARD_WIDTH - 2 * CARD_PAD, NOTE_SIZE)]
               for letter, notes in notes_of.items()}
    note_rows = min(MAX_NOTE_LINES, max([NOTE_LINES, *(len(lines) for lines in wrapped.values())]))
    while True:
        rows = math.ceil(count / columns)
        card_height = HEADER_HEIGHT + GRID_SIZE + CARD_PAD + note_rows * (NOTE_SIZE + 4) + CARD_PAD
        legend_height = LEGEND_ROW * math.ceil(len(MARK_STYLES) / 2) + 20
        width = GAP + columns * (CARD_WIDTH + GAP)
        height = TITLE_HEIGHT + rows * (card_height + GAP) + legend_height + GAP
        if height <= 4096 or width + CARD_WIDTH + GAP > 4096:
            break
        columns += 1
    image = Image.new("RGB", (width, height), SHEET_BG)
    draw = ImageDraw.Draw(image)
    title = f"{ruleset.title}: pieces ({ruleset.name})"
    draw.text((GAP, 14), title, font=font(26, bold=True), fill=TEXT_RGB)

    cards: list[Card] = []
    for index, kind in enumerate(kinds):
        col, row = index % columns, index // columns
        x0 = GAP + col * (CARD_WIDTH + GAP)
        y0 = TITLE_HEIGHT + row * (card_height + GAP)
        box = (x0, y0, x0 + CARD_WIDTH, y0 + card_height)
        draw.rounded_rectangle(box, radius=8, fill=CARD_BG, outline=CARD_EDGE, width=1)
        sprite_box = (x0 + CARD_PAD, y0 + CARD_PAD, x0 + CARD_PAD + 46, y0 + CARD_PAD + 46)
        draw.rectangle(sprite_box, fill=CENTRE_SQUARE)
        draw_piece(draw, (sprite_box[0] + 2, sprite_box[1] + 2, sprite_box[2] - 2, sprite_box[3] - 2), kind,
                   SHEET_PIECE_FILL)
        tx = sprite_box[2] + 10
        name_line = kind.name
        cost = _cost_words(ruleset, kind)
        letters_line = f"{_letters(kind)}  ·  {cost}" if cost else _letters(kind)
        betza_line = f"Betza: {kind.betza}" if kind.betza else "Betza: (none)"
        draw.text((tx, y0 + 8), name_line, font=font(19, bold=True), fill=TEXT_RGB)
        draw.text((tx, y0 + 32), letters_line, font=font(14), fill=TEXT_RGB)
        draw.text((tx, y0 + 50), betza_line, font=font(13), fill=MUTED_RGB)

        diagram = diagrams[kind.letter]
        count_cells = 2 * diagram.radius + 1
        cell = GRID_SIZE // count_cells
        grid_px = cell * count_cells
        gx = x0 + (CARD_WIDTH - grid_px) // 2
        gy = y0 + HEADER_HEIGHT
        grid_box = (gx, gy, gx + grid_px, gy + grid_px)
        cells = _draw_diagram(draw, kind, diagram, grid_box)
        if kind.movement.never_moves and kind.once is None:
            words = _never_moves_words(kind)
            w, h = text_size(words, 18, bold=True)
            cx, cy = (grid_box[0] + grid_box[2]) / 2, grid_box[1] + grid_px * 0.25
            draw.rectangle((cx - w / 2 - 6, cy - h / 2 - 4, cx + w / 2 + 6, cy + h / 2 + 4), fill=CARD_BG)
            draw.text((cx - w / 2, cy - h / 2), words, font=font(18, bold=True), fill=MUTED_RGB)

        notes = notes_of[kind.letter]
        note_lines = wrapped[kind.letter]
        if len(note_lines) > note_rows:
            note_lines = note_lines[:note_rows - 1] + [note_lines[note_rows - 1].rstrip(".") + " …"]
        ny = gy + GRID_SIZE + CARD_PAD - 4
        for line in note_lines:
            draw.text((x0 + CARD_PAD, ny), line, font=font(NOTE_SIZE), fill=MUTED_RGB)
            ny += NOTE_SIZE + 4
        cards.append(Card(kind.letter, kind.name, format_amount(kind.cost), kind.betza, box, sprite_box, grid_box,
                          diagram, cells, (name_line, letters_line, betza_line, *note_lines), tuple(notes)))

    # The legend: one sample of every mark, two to a row.
    ly = TITLE_HEIGHT + rows * (card_height + GAP)
    legend_box = (GAP, ly, width - GAP, height - GAP)
    draw.rounded_rectangle(legend_box, radius=8, fill=CARD_BG, outline=CARD_EDGE)
    half = (legend_box[2] - legend_box[0]) // 2
    legend_texts = []
    for i, (style, words) in enumerate(MARK_STYLES):
        cx = legend_box[0] + 28 + (i % 2) * half
        cy = ly + 10 + (i // 2) * LEGEND_ROW + LEGEND_ROW / 2
        size = 16.0
        if style in ("both", "move", "capture"):
            _draw_mark(draw, (cx, cy), size, style, False)
        elif style == "ride":
            draw.line((cx - 16, cy, cx + 8, cy), fill=BOTH_RGB, width=3)
            _arrowhead(draw, (cx + 16, cy), (1, 0), 10, BOTH_RGB)
        elif style == "initial":
            _draw_mark(draw, (cx, cy), 13, "move", True)
        elif style == "lame":
            _draw_dotted(draw, (cx - 16, cy), (cx + 16, cy), LAME_RGB, 1.8, 6)
        draw.text((cx + 26, cy - 9), words, font=font(15), fill=TEXT_RGB)
        legend_texts.append(words)

    buffer = BytesIO()
    image.save(buffer, format="PNG")
    layout = SheetLayout(title, tuple(cards), legend_box, tuple(legend_texts))
    return Rendered(buffer.getvalue(), layout, width, height)
