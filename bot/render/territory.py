"""The territory picture (RULES.md 5.4.1 to 5.4.3, issue 24): the whole game in one image for a phone.

:func:`render_territory` draws, top to bottom, in one column that stays narrow enough to read on a
phone:

* a **heading**: whose turn it is (the slot and the player; "skipped" when nobody controls the
  territory), or the winner or the draw once the game is over; under it the **last action** in
  words (the canonical submission, or "skipped", "passed", "missed", "resigned");
* the **board** with its areas in colour: the goal gold, the neutral zone grey and hatched (no
  placement there), each territory tinted in its own colour and framed in its controller's colour
  (a thin dashed frame when nobody controls it), each home place area tinted in its owner's colour;
  the pieces in their owner's colour (the sprites of ``sprites.py``: a plate with the kind's
  letters), two pieces stacked on the goal side by side, a Mirror copy with a small ``c``;
  coordinates on all four sides;
* the **last action** over the board: an arrow for every move (each leg of a Fire), swap (two
  heads), pull, push and carry, a Wood's shot (dashed, a cross on its target), a Leadership's
  hand-over (dotted), a red cross on every capture and a green ``+`` on every placed piece;
* the **turn cycle**: one box a slot in the slot's colour, the current slot outlined and pointed
  at, with the turn number each slot comes up next and who plays it ("skip": nobody controls it);
* **both reserves** (the owner, ``n/7``, the kinds in canonical order with their counts), the
  **draft area** (kinds and counts, the pieces just drawn from the bag marked ``new``) and the
  **bag**'s count;
* a **legend** of the areas (and who controls each territory) and of the marks drawn.

Everything comes from the variant's answers (``board_additions``: areas, cycle, holdings; the
verdict) and from the turn's report (:func:`bot.engine.territory.trace.last_action`); the renderer
knows no rule. Like the other renderers it returns its layout (:class:`TerritoryLayout`), so the
tests check what the image shows without reading pixels. ``palette="colourblind"`` draws every
player and territory colour's colour-blind-safe alternative; the marks use the Okabe-Ito colours
and differ in shape too.
"""

from __future__ import annotations

import io
import math
from collections import Counter
from dataclasses import dataclass, field
from PIL import Image, ImageDraw

from ..engine.model import Piece, Square
from ..engine.report import Report
from ..engine.ruleset import Ruleset
from ..engine.state import GameState
from ..engine.territory.trace import LastAction, last_action as trace_last_action
from ..engine.variants import VariantUnavailable, variant_for
from ..engine.variants.base import Area, BoardAdditions, CycleSlot, Holding, Verdict
from .board import Label, Rendered
from .palette import NEUTRAL_RGB, PALETTES, colour_names, contrast_edge, player_rgb
from .paint.sprites import bold_font, draw_piece, font

__all__ = ["render_territory", "has_areas", "TerritoryLayout", "DrawnArea", "DrawnSlot", "DrawnHolding", "Chip",
           "Arrow", "ARROW_STYLES", "WIDTH"]

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
_LIGHT: RGB = (246, 243, 236)
_DARK: RGB = (226, 220, 207)
_GRID: RGB = (120, 112, 100)
_GOAL: RGB = (255, 196, 0)
_GOAL_EDGE: RGB = (160, 110, 0)
_NEUTRAL: RGB = (140, 140, 140)
_CHIP_FILL = ((246, 246, 246),)      # pieces that are nobody's (the draft area), as on the piece sheet
_PANEL: RGB = (255, 255, 255)
_PANEL_EDGE: RGB = (200, 195, 185)

#: The kinds of areas (``Area.kind``, bot/engine/variants/base.py).
AREA_GOAL, AREA_NEUTRAL, AREA_TERRITORY, AREA_HOME = "goal", "neutral", "territory", "home"
#: Area tints: how much of the area's colour covers a light (dark) square.
_TINT = {AREA_GOAL: (0.75, 0.8), AREA_NEUTRAL: (0.40, 0.45), AREA_TERRITORY: (0.38, 0.48), AREA_HOME: (0.20, 0.28)}

#: The marks of the last action: form -> (colour, the words the legend says). The colours are
#: Okabe and Ito's (colour-blind safe); the shapes differ too (two heads, dashes, dots).
ARROW_STYLES: dict[str, tuple[RGB, str]] = {
    "move": ((0, 114, 178), "move"),
    "capture": ((213, 94, 0), "capture"),
    "swap": ((204, 121, 167), "swap (two heads)"),
    "pull": ((230, 159, 0), "pull"),
    "push": ((230, 159, 0), "push"),
    "carry": ((0, 158, 115), "carry"),
    "shot": ((213, 94, 0), "shot without moving (dashed)"),
    "lead": ((60, 60, 60), "gives the action (dotted)"),
}
_PLACED: RGB = (0, 158, 115)
_CAPTURED: RGB = (213, 94, 0)
_OUTLINE: RGB = (20, 20, 20)


# ----------------------------------------------------------------------------- the layout
@dataclass(frozen=True, slots=True)
class DrawnArea:
    """An area as drawn: its tint and, for a controlled territory or goal, the frame's colour."""

    area: Area
    tint: RGB
    frame: RGB | None


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


@dataclass(frozen=True, slots=True)
class Arrow:
    """A mark of the last action on the board: ``form`` as in ``ARROW_STYLES`` (``capture`` for a
    move that captured), from ``origin`` to ``target`` (squares), in ``colour``."""

    form: str
    origin: Square
    target: Square
    colour: RGB


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
def has_areas(ruleset: Ruleset, state: GameState) -> bool:
    """Whether a game's board is drawn with :func:`render_territory`: its variant's board
    additions name areas (territory); a ruleset no variant plays has none."""
    try:
        return bool(variant_for(ruleset).board_additions(state).areas)
    except VariantUnavailable:
        return False


def render_territory(ruleset: Ruleset, state: GameState, *, palette: str = "default",
                     last_action: LastAction | None = None, report: Report | None = None,
                     additions: BoardAdditions | None = None) -> Rendered:
    """The territory picture of ``state`` as a PNG with its :class:`TerritoryLayout`.

    ``last_action`` is the turn to draw over the board (:func:`bot.engine.territory.trace.last_action`);
    given ``report`` instead (the report of the turn that led to ``state``), it is read from there.
    ``additions``: the variant's ``board_additions(state)`` (asked when not given). ``palette`` is
    one of :data:`~bot.render.palette.PALETTES`."""
    if palette not in PALETTES:
        raise ValueError(f"unknown palette {palette!r}: choose one of {', '.join(PALETTES)}")
    variant = variant_for(ruleset)
    if additions is None:
        additions = variant.board_additions(state)
    if not additions.areas:
        raise ValueError(f"{variant.title} has no areas to draw: use render_board")
    if last_action is None and report is not None:
        last_action = trace_last_action(ruleset, report)
    painter = _Painter(ruleset, state, additions, palette, last_action, variant.verdict(state))
    image, layout = painter.paint()
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    return Rendered(buffer.getvalue(), layout, image.width, image.height)


# ----------------------------------------------------------------------------- helpers
def _blend(base: RGB, colour: RGB, alpha: float) -> RGB:
    return tuple(round(b * (1 - alpha) + c * alpha) for b, c in zip(base, colour))  # type: ignore[return-value]


def _darker(colour: RGB, factor: float = 0.6) -> RGB:
    return tuple(round(c * factor) for c in colour)  # type: ignore[return-value]


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
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        attempt = f"{current} {word}".strip()
        if current and _width(attempt, size, bold) > width:
            lines.append(current)
            current = word
        else:
            current = attempt
    if current:
        lines.append(current)
    return lines


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


def _head(draw: ImageDraw.ImageDraw, tip, direction, size: float, fill) -> None:
    ux, uy = direction
    norm = math.hypot(ux, uy) or 1.0
    ux, uy = ux / norm, uy / norm
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    px, py = -uy * size * 0.55, ux * size * 0.55
    draw.polygon([tip, (bx + px, by + py), (bx - px, by - py)], fill=fill)


# ----------------------------------------------------------------------------- the painter
class _Painter:
    """Draws one picture, top to bottom (:meth:`paint`), collecting its layout."""

    def __init__(self, ruleset: Ruleset, state: GameState, additions: BoardAdditions, palette: str,
                 last: LastAction | None, verdict: Verdict) -> None:
        self.ruleset, self.state, self.additions, self.palette = ruleset, state, additions, palette
        self.last, self.verdict = last, verdict
        bounds = state.board.bounds
        if bounds is None:
            squares = [s for area in additions.areas for s in area.squares] + list(state.board.squares())
            bounds = ((min(s[0] for s in squares), min(s[1] for s in squares)),
                      (max(s[0] for s in squares), max(s[1] for s in squares)))
        (x0, y0), (x1, y1) = bounds
        self.region = (x0, y0, x1, y1)
        self.nx, self.ny = x1 - x0 + 1, y1 - y0 + 1
        self.label_size = 18
        self.label_room = 30
        room = WIDTH - 2 * _MARGIN - 2 * self.label_room
        self.s = max(_MIN_SCALE, min(_MAX_SCALE, room // self.nx, (_MAX_HEIGHT // 2) // self.ny))
        self.width = max(WIDTH, 2 * _MARGIN + 2 * self.label_room + self.nx * self.s)
        taken = {p.colour.casefold() for p in state.players.values()} | {a.name.casefold() for a in additions.areas}
        self.spare = [c for c in colour_names() if c.casefold() not in taken]
        self.board_box: Box = (0, 0, 0, 0)       # set when the board is painted
        self.texts: list[str] = []               # every line of text drawn, in order

    # ------------------------------------------------------------------ colours
    def player_tones(self, name: str | None) -> tuple[RGB, ...]:
        if name is None or name not in self.state.players:
            return (NEUTRAL_RGB,)
        try:
            return player_rgb(self.state.players[name].colour, self.palette)
        except ValueError:
            return (NEUTRAL_RGB,)

    def player_rgb(self, name: str | None) -> RGB:
        return self.player_tones(name)[0]

    def named_rgb(self, name: str, index: int) -> RGB:
        """A territory's or a slot's colour: the colour of its name when it is one (Green), else a
        colour no player has, by its place in the layout."""
        try:
            return player_rgb(name, self.palette)[0]
        except ValueError:
            spare = self.spare or colour_names()
            return player_rgb(spare[index % len(spare)], self.palette)[0]

    def who(self, name: str | None) -> str:
        """"Ann (Red)"."""
        if name is None:
            return "nobody"
        player = self.state.players.get(name)
        return f"{name} ({player.colour})" if player is not None else name

    def slot_rgb(self, slot: str) -> RGB:
        for index, area in enumerate(self.additions.areas):
            if area.kind == AREA_TERRITORY and area.name == slot:
                return self.named_rgb(area.name, index)
        for name, player in self.state.players.items():
            if player.colour == slot:
                return self.player_rgb(name)
        return self.named_rgb(slot, len(self.additions.areas))

    # ------------------------------------------------------------------ areas
    def drawn_areas(self) -> list[DrawnArea]:
        drawn = []
        for index, area in enumerate(self.additions.areas):
            frame = None
            if area.kind == AREA_GOAL:
                tint = _GOAL
                frame = self.player_rgb(area.controller) if area.controller else None
            elif area.kind == AREA_NEUTRAL:
                tint = _NEUTRAL
            elif area.kind == AREA_TERRITORY:
                tint = self.named_rgb(area.name, index)
                frame = self.player_rgb(area.controller) if area.controller else None
            elif area.kind == AREA_HOME:
                tint = self.player_rgb(area.owner) if area.owner else NEUTRAL_RGB
            else:
                tint = NEUTRAL_RGB
            drawn.append(DrawnArea(area, tint, frame))
        return drawn

    # ------------------------------------------------------------------ the whole picture
    def paint(self) -> tuple[Image.Image, TerritoryLayout]:
        image = Image.new("RGB", (self.width, _MAX_HEIGHT), _BACKGROUND)
        draw = ImageDraw.Draw(image)
        y = _MARGIN
        heading, caption, y = self.paint_heading(draw, y)
        areas = self.drawn_areas()
        board = self.paint_board(image, areas, y + 10)
        cycle, y = self.paint_cycle(draw, board["bottom"] + 16)
        holdings, bag, y = self.paint_holdings(image, y + 14)
        legend, y = self.paint_legend(draw, areas, board["arrows"], y + 14)
        image = image.crop((0, 0, self.width, min(_MAX_HEIGHT, y + _MARGIN)))
        layout = TerritoryLayout(
            region=self.region, scale=self.s, board_box=self.board_box, labels=tuple(board["labels"]),
            areas=tuple(areas), cycle=tuple(cycle), holdings=tuple(holdings), arrows=tuple(board["arrows"]),
            captures=tuple(board["captures"]), placed=tuple(board["placed"]), pieces=tuple(board["pieces"]),
            heading=heading, caption=caption, bag=bag, legend=tuple(legend), last_action=self.last,
            texts=tuple(self.texts))
        return image, layout

    # ------------------------------------------------------------------ heading
    def heading(self) -> tuple[str, RGB | None]:
        verdict = self.verdict
        if verdict.winners:
            names = " and ".join(self.who(name) for name in verdict.winners)
            reason = f": {verdict.reason}" if verdict.reason else ""
            return f"{names} wins{reason}", self.player_rgb(verdict.winners[0])
        if verdict.drawn:
            return "Drawn" + (f": {verdict.reason}" if verdict.reason else ""), None
        turn = self.state.update
        current = next((slot for slot in self.additions.cycle if slot.current), None)
        if current is None:
            return f"Turn {turn}", None
        if current.player is None:
            return f"Turn {turn}: {current.name}'s turn, skipped (nobody controls {current.name})", None
        if self.is_player_slot(current.name):
            return f"Turn {turn}: {self.who(current.player)} to play", self.player_rgb(current.player)
        return (f"Turn {turn}: {current.name}'s turn, {self.who(current.player)} plays",
                self.player_rgb(current.player))

    def is_player_slot(self, name: str) -> bool:
        return any(player.colour == name for player in self.state.players.values())

    def caption(self) -> str:
        last = self.last
        if last is None:
            return "" if self.state.update > 1 else "The game begins: nothing played yet."
        turn = f"Turn {last.turn}"
        if last.outcome == "skipped":
            return f"{turn} ({last.slot}) was skipped: nobody controlled {last.slot}."
        if last.outcome == "missed":
            return f"{turn}: {self.who(last.player)} missed the turn (a pass)."
        if last.outcome == "passed":
            return f"{turn}: {self.who(last.player)} passed."
        if last.outcome == "resigned":
            return f"{turn}: {self.who(last.player)} resigned."
        if last.outcome == "refused":
            return f"{turn}: a submission was refused; the turn is still open."
        if last.outcome == "none":
            return ""
        slot = "" if self.is_player_slot(last.slot) else f" ({last.slot})"
        return f"Last: turn {last.turn}{slot}, {self.who(last.player)}: {last.text}"

    def paint_heading(self, draw: ImageDraw.ImageDraw, y: int) -> tuple[str, str, int]:
        heading, colour = self.heading()
        caption = self.caption()
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
        return heading, caption, y

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
        x0, y0, x1, y1 = self.region
        return x0 <= square[0] <= x1 and y0 <= square[1] <= y1

    def paint_board(self, image: Image.Image, areas: list[DrawnArea], y: int) -> dict:
        """The squares and areas, the labels, the last action's squares, the pieces, then the
        arrows and marks over them; what was drawn, and the y under the board's labels."""
        left = (self.width - self.nx * self.s) // 2
        top = y + self.label_room
        self.board_box = (left, top, left + self.nx * self.s, top + self.ny * self.s)
        draw = ImageDraw.Draw(image)
        self.paint_areas(draw, areas)
        draw.rectangle((left - 1, top - 1, self.board_box[2], self.board_box[3]), outline=_OUTLINE, width=2)
        labels = self.paint_labels(draw)
        arrows = self.arrows()
        self.paint_moved_squares(draw, arrows)
        pieces = self.paint_pieces(draw)
        captures = [square for square in (self.last.captures if self.last is not None else ()) if self.inside(square)]
        overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))       # half transparent: the letters under still read
        ink = ImageDraw.Draw(overlay)
        for arrow in arrows:
            if self.inside(arrow.origin) and self.inside(arrow.target):
                self.arrow(ink, arrow)
        for square in captures:
            cx, cy = self.centre(square)
            k, width = self.s * 0.42, max(3, self.s // 14)
            ink.line((cx - k, cy - k, cx + k, cy + k), fill=_CAPTURED + (200,), width=width)
            ink.line((cx - k, cy + k, cx + k, cy - k), fill=_CAPTURED + (200,), width=width)
        image.paste(Image.alpha_composite(image.convert("RGBA"), overlay).convert("RGB"))
        draw = ImageDraw.Draw(image)
        placed = [square for _, square in (self.last.placed if self.last is not None else ()) if self.inside(square)]
        for square in placed:
            box = self.square_box(square)
            draw.rectangle((box[0] + 1, box[1] + 1, box[2] - 2, box[3] - 2), outline=_PLACED,
                           width=max(3, self.s // 16))
            self.badge(draw, (box[0] + self.s * 0.16, box[1] + self.s * 0.16), self.s * 0.15, "+", _PLACED,
                       (255, 255, 255))
        return dict(labels=labels, pieces=pieces, arrows=arrows, captures=captures, placed=placed,
                    bottom=self.board_box[3] + self.label_room)

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
                base = _LIGHT if light else _DARK
                drawn = area_of.get((x, y))
                if drawn is not None:
                    base = _blend(base, drawn.tint, _TINT.get(drawn.area.kind, (0.3, 0.4))[0 if light else 1])
                draw.rectangle(self.square_box((x, y)), fill=base)
        hatch = _darker(_blend(_LIGHT, _NEUTRAL, 0.5), 0.85)
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
                self.outline(draw, squares, _darker(drawn.tint, 0.55), 2, dashed=True, inset=1)
            else:
                self.outline(draw, squares, _darker(_GOAL_EDGE if drawn.area.kind == AREA_GOAL else drawn.tint, 0.7), 1)

    def arrows(self) -> list[Arrow]:
        """The last action's relocations as arrows (a move that captured is a ``capture``)."""
        if self.last is None or self.last.outcome != "played":
            return []
        arrows = []
        for step in self.last.steps:
            form = "capture" if step.form == "move" and step.captured else step.form
            arrows.append(Arrow(form, step.origin, step.target, ARROW_STYLES.get(form, ARROW_STYLES["move"])[0]))
        return arrows

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
        """Every piece in its owner's colour; two on one square (a stack on the goal) one up and
        left, the other down and right; a Mirror copy with a ``c``."""
        s = self.s
        copies = self.state.territory.copies if self.state.territory is not None else frozenset()
        pieces: list[tuple[Piece, Box]] = []
        for square in sorted(self.state.board.squares()):
            if not self.inside(square):
                continue
            here = sorted(self.state.board.at(square), key=lambda p: p.id)
            box = self.square_box(square)
            if len(here) == 1:
                pad = max(2, round(s * 0.07))
                boxes = [(box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad)]
            else:
                side = round(s * 0.62)
                boxes = [(box[0] + 1, box[1] + 1, box[0] + 1 + side, box[1] + 1 + side),
                         (box[2] - 1 - side, box[3] - 1 - side, box[2] - 1, box[3] - 1)]
                boxes += [boxes[-1]] * (len(here) - len(boxes))
            for piece, piece_box in zip(here, boxes):
                kind = self.ruleset.pieces.get(piece.kind)
                if kind is None:
                    continue
                draw_piece(draw, piece_box, kind, self.player_tones(piece.owner))
                pieces.append((piece, piece_box))
                if piece.id in copies:
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
            _head(ink, begin, (-ux, -uy), head, colour)
            begin = (begin[0] + ux * head * 0.8, begin[1] + uy * head * 0.8)
        shaft_end = (tip[0] - ux * head * 0.8, tip[1] - uy * head * 0.8)
        if arrow.form == "shot":
            _dashed_line(ink, begin, shaft_end, colour, width, s * 0.22, s * 0.14)
        else:
            ink.line((begin, shaft_end), fill=colour, width=width)
        _head(ink, tip, (ux, uy), head, colour)

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
        (12 slots: two rows of 6, each half of the cycle); under each, the turn that takes it next
        and who plays it ("skip": nobody controls the territory); the current slot outlined and
        pointed at. Once the game is over, no turns and no outline."""
        slots = self.additions.cycle
        if not slots:
            return [], y
        over = self.verdict.over
        title = "Turn cycle: the game is over" if over else "Turn cycle"
        _text(draw, (_MARGIN, y), title, 21, bold=True)
        self.texts.append(title)
        y += 30
        count, gap, inner = len(slots), 8, self.width - 2 * _MARGIN
        per_row = max(1, min(count, (inner + gap) // (_SLOT_MIN + gap)))
        rows = math.ceil(count / per_row)
        per_row = math.ceil(count / rows)
        slot_w = (inner - (per_row - 1) * gap) // per_row
        box_h, pitch = 40, 40 + 46
        current = next((i for i, slot in enumerate(slots) if slot.current), None)
        drawn: list[DrawnSlot] = []
        for index, slot in enumerate(slots):
            row, col = divmod(index, per_row)
            left, top = _MARGIN + col * (slot_w + gap), y + 16 + row * pitch
            box = (left, top, left + slot_w, top + box_h)
            colour = self.slot_rgb(slot.name)
            draw.rounded_rectangle(box, radius=6, fill=colour, outline=_darker(colour, 0.6), width=1)
            size = next((n for n in range(20, 10, -1) if _width(slot.name, n, True) <= slot_w - 6), 11)
            centre_x = (box[0] + box[2]) / 2
            _text(draw, (centre_x, (box[1] + box[3]) / 2), _fit(slot.name, slot_w - 6, size, True), size,
                  contrast_edge(colour), True, "mm")
            turn = self.state.update + (index - current) % count if current is not None else self.state.update + index
            outlined = slot.current and not over
            words = ("", "") if over else (f"T{turn}", "skip" if slot.player is None else slot.player)
            if outlined:
                draw.rounded_rectangle((box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4), radius=8, outline=_OUTLINE,
                                       width=4)
                draw.polygon([(centre_x - 9, box[1] - 17), (centre_x + 9, box[1] - 17), (centre_x, box[1] - 7)],
                             fill=_OUTLINE)
            if not over:
                line = _fit(f"{words[0]} · {words[1]}", slot_w + gap, 18, outlined)
                _text(draw, (centre_x, box[3] + 7), line, 18, _TEXT if outlined or slot.player else _MUTED, outlined,
                      "ma")
            drawn.append(DrawnSlot(slot, index, turn, box, outlined, words))
        return drawn, y + 16 + rows * pitch - 8

    # ------------------------------------------------------------------ reserves, draft area, bag
    def paint_holdings(self, image: Image.Image, y: int) -> tuple[list[DrawnHolding], str, int]:
        draw = ImageDraw.Draw(image)
        chip = 60
        gap = 8
        label_w = 230
        drawn: list[DrawnHolding] = []
        fresh = Counter(self.last.refilled) if self.last is not None else Counter()
        bag = self.state.territory.bag if self.state.territory is not None else ()
        bag_words = f"Bag: {len(bag)} piece{'' if len(bag) == 1 else 's'}, hidden"
        for holding in self.additions.holdings:
            counts = Counter(holding.kinds)
            order = sorted(counts)               # canonical order (5.4.3): the kinds' letters in code-point order
            if holding.owner is None:
                title = "Draft area"
                detail = f"{len(holding.kinds)} piece{'' if len(holding.kinds) == 1 else 's'}"
                tones = _CHIP_FILL
                swatch = None
            else:
                title = self.who(holding.owner)
                limit = f"/{holding.limit}" if holding.limit is not None else ""
                detail = f"reserve {len(holding.kinds)}{limit}"
                tones = self.player_tones(holding.owner)
                swatch = tones[0]
            chips_x = _MARGIN + label_w
            per_row = max(1, (self.width - _MARGIN - chips_x + gap) // (chip + gap))
            rows = max(1, math.ceil(len(order) / per_row))
            height = rows * (chip + 20) + 10
            if holding.owner is None:
                height = max(height, 86)
            panel = (_MARGIN, y, self.width - _MARGIN, y + height)
            draw.rounded_rectangle(panel, radius=8, fill=_PANEL, outline=_PANEL_EDGE)
            tx = _MARGIN + 12
            if swatch is not None:
                draw.rounded_rectangle((tx, y + 12, tx + 18, y + 30), radius=3, fill=swatch, outline=_OUTLINE)
                tx += 26
            _text(draw, (tx, y + 10), _fit(title, chips_x - tx - 8, 21, True), 21, bold=True)
            _text(draw, (_MARGIN + 12, y + 38), detail, 18, _MUTED)
            if holding.owner is None:
                _text(draw, (_MARGIN + 12, y + 62), bag_words, 16, _MUTED)
            self.texts += [title, detail]
            chips: list[Chip] = []
            if not order:
                _text(draw, (chips_x, y + 22), "empty", 18, _MUTED)
            for index, kind_letter in enumerate(order):
                row, col = divmod(index, per_row)
                cx0 = chips_x + col * (chip + gap)
                cy0 = y + 8 + row * (chip + 20)
                box = (cx0, cy0, cx0 + chip, cy0 + chip)
                kind = self.ruleset.pieces.get(kind_letter)
                draw.rounded_rectangle(box, radius=6, fill=(236, 233, 226))
                if kind is not None:
                    draw_piece(draw, (box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3), kind, tones)
                count = counts[kind_letter]
                new = holding.owner is None and fresh[kind_letter] > 0
                under = " ".join(([f"×{count}"] if count > 1 else []) + (["new"] if new else []))
                if under:
                    _text(draw, ((box[0] + box[2]) / 2, box[3] + 2), under, 15,
                          (0, 110, 80) if new else _TEXT, True, "ma")
                chips.append(Chip(kind_letter, count, box, new))
            drawn.append(DrawnHolding(holding, title, detail, panel, tuple(chips)))
            y += height + 8
        self.texts.append(bag_words)
        return drawn, bag_words, y

    # ------------------------------------------------------------------ legend
    def paint_legend(self, draw: ImageDraw.ImageDraw, areas: list[DrawnArea], arrows: list[Arrow], y: int
                     ) -> tuple[list[str], int]:
        items: list[tuple[str, object, str]] = []     # (shape, colour, words)
        seen_kinds = set()
        for drawn in areas:
            area = drawn.area
            if area.kind == AREA_GOAL:
                holder = f"controlled by {self.who(area.controller)}" if area.controller else "nobody controls it"
                items.append(("square", _GOAL, f"{area.name}: {holder}"))
            elif area.kind == AREA_NEUTRAL:
                items.append(("hatch", _blend(_LIGHT, _NEUTRAL, 0.45), f"{area.name}: no placement"))
            elif area.kind == AREA_TERRITORY:
                controller = f"controlled by {self.who(area.controller)}" if area.controller else "nobody controls it"
                items.append(("frame", (drawn.tint, drawn.frame), f"{area.name}: {controller}"))
            elif area.kind == AREA_HOME and area.kind + str(area.owner) not in seen_kinds:
                seen_kinds.add(area.kind + str(area.owner))
                owner = f": {area.owner}" if area.owner else ""
                items.append(("square", _blend(_LIGHT, drawn.tint, 0.35), f"{area.name}{owner}"))
        forms = []
        for arrow in arrows:
            if arrow.form not in forms:
                forms.append(arrow.form)
        for form in forms:
            colour, words = ARROW_STYLES[form]
            items.append(("arrow", colour, words))
        if self.last is not None and self.last.captures:
            items.append(("cross", _CAPTURED, "captured there"))
        if self.last is not None and self.last.placed:
            items.append(("plus", _PLACED, "placed from the reserve"))
        copies = self.state.territory.copies if self.state.territory is not None else frozenset()
        if any(piece.id in copies for piece in self.state.board):
            items.append(("copy", None, "Mirror copy"))

        size = 18
        column_w = (self.width - 2 * _MARGIN) // 2
        words_list = []
        for index, (shape, colour, words) in enumerate(items):
            col, row = index % 2, index // 2
            x = _MARGIN + col * column_w
            cy = y + row * 30 + 13
            self.legend_icon(draw, shape, colour, (x + 12, cy))
            _text(draw, (x + 32, cy), _fit(words, column_w - 40, size), size, _TEXT, anchor="lm")
            words_list.append(words)
        rows = math.ceil(len(items) / 2)
        self.texts += words_list
        return words_list, y + rows * 30

    def legend_icon(self, draw: ImageDraw.ImageDraw, shape: str, colour, centre: tuple[int, int]) -> None:
        cx, cy = centre
        r = 10
        box = (cx - r, cy - r, cx + r, cy + r)
        if shape == "square":
            draw.rectangle(box, fill=colour, outline=_GRID)
        elif shape == "frame":            # a territory: its tint, framed in its controller's colour (dashed: nobody)
            tint, frame = colour
            draw.rectangle(box, fill=_blend(_LIGHT, tint, 0.45))
            if frame is None:
                draw.rectangle(box, outline=_darker(tint, 0.55), width=1)
            else:
                draw.rectangle(box, outline=frame, width=4)
        elif shape == "hatch":
            draw.rectangle(box, fill=colour, outline=_GRID)
            draw.line((box[0], box[3], box[2], box[1]), fill=_darker(colour, 0.8), width=1)
        elif shape == "arrow":
            draw.line((cx - r, cy, cx + r - 6, cy), fill=colour, width=4)
            _head(draw, (cx + r + 2, cy), (1, 0), 10, colour)
        elif shape == "cross":
            draw.line((cx - 8, cy - 8, cx + 8, cy + 8), fill=colour, width=4)
            draw.line((cx - 8, cy + 8, cx + 8, cy - 8), fill=colour, width=4)
        elif shape == "plus":
            self.badge(draw, (cx, cy), 10, "+", colour, (255, 255, 255))
        elif shape == "copy":
            self.badge(draw, (cx, cy), 10, "c", (255, 255, 255), _TEXT)
