"""The health board as an image: the variant's standings panel drawn, its lines exactly.

:func:`render_health_board` is a pure function of a :class:`~bot.engine.variants.StandingsPanel`
(what the variant says the standings show: each row's line, character for character, and its
regeneration note; the events in force; the next draw; the legend), the players' colours in
``state``, the ruleset's title and the palette. Nothing here knows a rule: no regeneration, event or
currency is worked out here.

The hearts are drawn, since DejaVu Sans has no sparkling heart: a pink heart with sparkles for
``💖``, a plain red heart for ``❤️``; the energy bolt is drawn too. Around each line: a swatch of the
player's colour (both tones of a two-tone colour), a bar of their balance against the leader's, the
value they captured and the panel's note. Under the rows, the events with the updates each has left,
and the next draw.

:func:`render_health_board` returns the PNG and a :class:`HealthLayout` (each row's box and text),
so tests check the image's meaning without reading it back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from io import BytesIO

from PIL import Image, ImageDraw

from bot.engine.model import format_amount, format_square
from bot.engine.standings import Standing
from bot.engine.variants import PanelEvent, PanelRow, StandingsPanel
from bot.engine.variants.base import TeamTotal

# the board's owner -> tones rule, so that a swatch always matches the player's pieces on the board
# (a colour name the palette does not know gets the same spare colour in both images)
from .paint.layout import Rendered
from .scene.colours import PlayerColours as _PlayerColours
from .paint.glyphs import draw_text, text_length, text_mask
from .paint.png import fast_png
from .palette import PALETTES, contrast_edge
from .paint.sprites import bold_font, font as regular_font

__all__ = ["HealthRow", "EventRow", "TeamRow", "HealthLayout", "render_health_board", "health_board_png", "shown_rows",
           "standings_lines", "MAX_SIDE"]

MAX_SIDE = 4096
#: the PNG is made as small as zlib can up to this many pixels (a quarter of a second at most)
SMALLEST_UP_TO = 2_000_000
#: the scales tried, largest first: the board is drawn at the first at which it fits in MAX_SIDE
SCALES = (1.0, 0.85, 0.7, 0.6, 0.5, 0.42, 0.35, 0.3, 0.25)

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]

BACKGROUND = (250, 248, 244)
ROW_SHADE = (238, 234, 226)
HEADER_RGB = (60, 56, 50)
TEXT_RGB = (20, 20, 24)
MUTED_RGB = (100, 96, 90)
NO_KING_RGB = (180, 20, 30)
BAR_TRACK = (220, 214, 204)
BAR_EDGE = (150, 142, 130)
HEART_RGB = (220, 20, 50)
SPARKLE_HEART_RGB = (236, 64, 150)
SPARKLE_RGB = (255, 196, 40)
BOLT_RGB = (245, 180, 0)
EVENT_BG = (232, 240, 250)
EVENT_EDGE = (120, 150, 190)
WINNER_BG = (255, 236, 170)
WINNER_EDGE = (200, 150, 20)
TROPHY_RGB = (240, 180, 20)
CALLER_RGB = (20, 90, 200)
TEAM_RGB = (90, 90, 110)

#: The text standings' line over the players who left the game, and the mark before each.
OUT_HEADING = "Out of the game:"
OUT_MARK = "✗"
OUT_RGB = (130, 124, 116)

#: The symbols the engine writes in a line or a note (bot.engine.standings, the variants), in the
#: order to look for them; they are drawn, since DejaVu Sans has none of them in colour.
SYMBOLS = ("💖", "❤️", "❤", "⚡", "🏆")
#: The bar's colour by the panel's currency (another currency draws as points)
BAR_RGB = {"health": (214, 40, 70), "energy": (235, 170, 0), "points": (60, 110, 200)}


@dataclass(frozen=True, slots=True)
class HealthRow:
    """One player's row: ``text`` is their health board line, exactly."""

    rank: int
    name: str
    colour: str
    text: str
    box: Box
    text_box: Box
    swatch_box: Box
    symbol: str | None
    symbol_box: Box | None
    bar_box: Box
    bar_fraction: float             # filled part of the bar: balance / the highest balance
    balance: str
    score: str
    captured: str
    regen: str
    has_king: bool


@dataclass(frozen=True, slots=True)
class EventRow:
    name: str
    started: int
    updates_left: int               # counting the next update
    ends_in: int                    # the update at whose step 8 it ends
    text: str
    box: Box


@dataclass(frozen=True, slots=True)
class TeamRow:
    """A team's total under the rows (megachess): ``text`` as written, the bar of its points against
    the leading team's."""

    name: str
    players: int
    points: str
    text: str
    box: Box
    bar_fraction: float


@dataclass(frozen=True, slots=True)
class HealthLayout:
    title: str
    subtitle: str
    rows: tuple[HealthRow, ...]
    events: tuple[EventRow, ...]
    events_box: Box | None                  # None: the game draws no events
    footer: tuple[str, ...]
    scale: float
    teams: tuple[TeamRow, ...] = ()
    result: str = ""                        # the banner of a game that is over ("Bob wins: ...")
    result_box: Box | None = None
    winners: tuple[str, ...] = ()           # the rows marked as winners
    caller: str | None = None               # the row outlined as the caller's
    hidden: int = 0                         # rows not shown (an endless game shows its top rows)
    gap_box: Box | None = None              # where "... N more ..." stands between the top and the caller
    out: tuple[tuple[str, str, Box], ...] = ()   # players who left: (name, line, box), under the rows

    @property
    def lines(self) -> list[str]:
        """The rows' texts, top to bottom: the health board lines."""
        return [row.text for row in self.rows]

    def row(self, name: str) -> HealthRow:
        for row in self.rows:
            if row.name == name:
                return row
        raise KeyError(name)


# ----------------------------------------------------------------------------- drawing helpers
def _font(size: int, bold: bool = False):
    return bold_font(size) if bold else regular_font(size)


@lru_cache(maxsize=16384)
def _width(text: str, size: int, bold: bool = False) -> int:
    """The drawn width of ``text``: ``getlength``'s, summed from the glyphs kept (a row's line
    changes at every update: shaping 2,000 of them again at each scale tried cost 80 ms of a board).
    Cached: the plan measures each row, the drawing again, and balances and notes repeat from row
    to row and from one update to the next."""
    return round(text_length(_font(size, bold), text))


@lru_cache(maxsize=2048)
def _text_mask(text: str, size: int, bold: bool) -> tuple[Image.core.ImagingCore, int, int]:
    """``text``'s coverage as drawn at (0, 0) (Pillow's own picture of it, as ``ImageDraw`` blends
    it), with where its box begins (cached: the short texts of a row, a balance, a count, a note,
    repeat from row to row; never changed once made)."""
    mask, left, top = text_mask(_font(size, bold), text)
    return mask.im, left, top


def _stamp(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, size: int, bold: bool, fill: RGB,
           inks: "_Inks | None" = None) -> None:
    """``draw.text(xy, text, ...)`` for a short text that repeats: the same pixels, the glyphs
    laid out once (``inks``: the picture's inks, kept)."""
    if text:
        mask, left, top = _text_mask(text, size, bold)
        draw.draw.draw_bitmap((xy[0] + left, xy[1] + top), mask, inks[fill] if inks is not None else draw.draw.draw_ink(fill))


def _heart_polygon(box: Box, steps: int = 48) -> list[tuple[float, float]]:
    """The classic heart curve x = 16 sin^3 t, y = 13 cos t - 5 cos 2t - 2 cos 3t - cos 4t, fitted to box."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    points = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((x0 + w / 2 + x / 34 * w, y0 + h * 0.42 - y / 30 * h))
    return points


def draw_heart(draw: ImageDraw.ImageDraw, box: Box, sparkling: bool) -> None:
    """A heart in ``box``: pink with two sparkles for 💖 (a player with a king), red for ❤️."""
    fill = SPARKLE_HEART_RGB if sparkling else HEART_RGB
    x0, y0, x1, y1 = box
    size = x1 - x0
    draw.polygon(_heart_polygon(box), fill=fill, outline=(90, 0, 20), width=max(1, round(size / 12)))
    if sparkling:
        for cx, cy, r in ((x1 - size * 0.02, y0 + size * 0.05, size * 0.22),
                          (x0 + size * 0.12, y1 - size * 0.12, size * 0.14)):
            k = r * 0.3
            star = [(cx, cy - r), (cx + k, cy - k), (cx + r, cy), (cx + k, cy + k),
                    (cx, cy + r), (cx - k, cy + k), (cx - r, cy), (cx - k, cy - k)]
            draw.polygon(star, fill=SPARKLE_RGB, outline=(150, 100, 0), width=max(1, round(size / 16)))


def draw_trophy(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A gold cup with two handles on a stem and a base, for 🏆 (a winner)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    edge = (120, 80, 0)
    line = max(1, round(w / 12))
    handle = max(1, round(w / 10))
    draw.ellipse((x0 + 0.02 * w, y0 + 0.08 * h, x0 + 0.36 * w, y0 + 0.48 * h), outline=edge, width=handle + line)
    draw.ellipse((x0 + 0.64 * w, y0 + 0.08 * h, x0 + 0.98 * w, y0 + 0.48 * h), outline=edge, width=handle + line)
    draw.pieslice((x0 + 0.18 * w, y0 - 0.42 * h, x0 + 0.82 * w, y0 + 0.66 * h), 0, 180, fill=TROPHY_RGB, outline=edge,
                  width=line)
    draw.rectangle((x0 + 0.18 * w, y0 + 0.08 * h, x0 + 0.82 * w, y0 + 0.14 * h), fill=TROPHY_RGB)
    draw.line((x0 + 0.18 * w, y0 + 0.08 * h, x0 + 0.82 * w, y0 + 0.08 * h), fill=edge, width=line)
    draw.rectangle((x0 + 0.44 * w, y0 + 0.64 * h, x0 + 0.56 * w, y0 + 0.82 * h), fill=TROPHY_RGB, outline=edge,
                   width=line)
    draw.rectangle((x0 + 0.26 * w, y0 + 0.82 * h, x0 + 0.74 * w, y0 + 0.98 * h), fill=TROPHY_RGB, outline=edge,
                   width=line)


def draw_bolt(draw: ImageDraw.ImageDraw, box: Box) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    shape = [(0.62, 0.0), (0.18, 0.56), (0.46, 0.56), (0.34, 1.0), (0.84, 0.40), (0.54, 0.40), (0.70, 0.0)]
    draw.polygon([(x0 + a * w, y0 + b * h) for a, b in shape], fill=BOLT_RGB, outline=(120, 80, 0),
                 width=max(1, round(w / 12)))


_ICON_SUPERSAMPLE = 4


@lru_cache(maxsize=64)
def _symbol_image(symbol: str, w: int, h: int) -> Image.Image:
    """A balance symbol ``w`` x ``h`` with a margin of a quarter box on each side (room for the
    sparkles that stick out), anti-aliased: drawn four times larger, then reduced. Cached: a board
    of 1,000 rows draws the same heart 1,000 times (never changed once made: only pasted)."""
    k = _ICON_SUPERSAMPLE
    mx, my = w // 4 + 1, h // 4 + 1
    big = Image.new("RGBA", ((w + 2 * mx) * k, (h + 2 * my) * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    inner = (mx * k, my * k, (mx + w) * k, (my + h) * k)
    if symbol == "⚡":
        draw_bolt(draw, inner)
    elif symbol == "🏆":
        draw_trophy(draw, inner)
    else:
        draw_heart(draw, inner, sparkling=symbol == "💖")
    return big.resize((w + 2 * mx, h + 2 * my), Image.Resampling.LANCZOS)


def _draw_symbol(image: Image.Image, symbol: str, box: Box) -> None:
    """Draw a balance symbol into ``box``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    small = _symbol_image(symbol, w, h)
    x, y = x0 - (w // 4 + 1), y0 - (h // 4 + 1)
    image.im.paste(small.im, (x, y, x + small.width, y + small.height), small.im)   # Image.paste's own call


def _split_symbol(text: str) -> tuple[str, str | None, str]:
    for symbol in SYMBOLS:
        at = text.find(symbol)
        if at >= 0:
            return text[:at], symbol, text[at + len(symbol):]
    return text, None, ""


def _draw_swatch(image: Image.Image, box: Box, tones: tuple[RGB, ...]) -> None:
    """The swatch of ``tones`` over ``box`` (its edges included): pasted, drawn once per colour and size."""
    x0, y0, x1, y1 = box
    swatch = _swatch(tones, x1 - x0, y1 - y0)
    image.im.paste(swatch.im, (x0, y0, x1 + 1, y1 + 1))


@lru_cache(maxsize=1024)
def _swatch(tones: tuple[RGB, ...], width: int, height: int) -> Image.Image:
    """A swatch drawn over (0, 0, ``width``, ``height``): its tones cover the whole box and its edge
    is drawn over them, so the picture is the same wherever it is pasted (a board of 1,000 rows has
    about a hundred colours; never changed once made)."""
    image = Image.new("RGB", (width + 1, height + 1))
    _paint_swatch(ImageDraw.Draw(image), (0, 0, width, height), tones)
    return image


def _paint_swatch(draw: ImageDraw.ImageDraw, box: Box, tones: tuple[RGB, ...]) -> None:
    x0, y0, x1, y1 = box
    n = len(tones)
    for i, tone in enumerate(tones):
        draw.rectangle((x0 + (x1 - x0) * i // n, y0, x0 + (x1 - x0) * (i + 1) // n, y1), fill=tone)
    mean = tuple(sum(t[c] for t in tones) // n for c in range(3))
    draw.rectangle(box, outline=(30, 30, 30) if contrast_edge(mean) == (0, 0, 0) else (90, 90, 90), width=2)


# ----------------------------------------------------------------------------- the board
def shown_rows(panel: StandingsPanel, caller: str | None = None) -> tuple[tuple[PanelRow, ...], PanelRow | None, int]:
    """What the standings show of ``panel``: its rows, or for an endless game (``panel.shown``) the
    first ``panel.shown`` rows; then the caller's own row when it is not among them (None
    otherwise); and how many rows are left out."""
    rows = panel.rows
    if panel.shown is None or len(rows) <= panel.shown:
        return rows, None, 0
    top = rows[:panel.shown]
    own = panel.row_of(caller) if caller is not None else None
    if own is not None and own in top:
        own = None
    return top, own, len(rows) - len(top) - (1 if own is not None else 0)


def _team_words(team: TeamTotal, currency: str) -> str:
    return (f"{team.name}: {format_amount(team.points)} {currency} · {team.players} "
            f"player{'s' if team.players != 1 else ''}")


def standings_lines(panel: StandingsPanel, caller: str | None = None) -> list[str]:
    """The standings as text, what the image shows: the panel's heading where its lines leave a
    number unnamed (``panel.text_heading``), the rows shown (for an endless game the top
    ``panel.shown`` and ``caller``'s own row, with how many are left out), each team's total, the
    players who left the game, marked (``panel.out``), and how a finished game ended. Between the
    heading and what follows the rows, exactly ``panel.lines``."""
    top, own, hidden = shown_rows(panel, caller)
    lines = [panel.text_heading] if panel.text_heading and panel.rows else []
    lines += [row.line for row in top]
    if own is not None:
        between = panel.rows.index(own) - len(top)
        if between:
            lines.append(f"... {between} more ...")
        lines.append(own.line)
        after = hidden - between
    else:
        after = hidden
    if after:
        lines.append(f"... and {after} more")
    lines += [_team_words(team, panel.currency) for team in panel.teams]
    if panel.out:        # players who left, under the standings rather than missing from them
        lines.append(OUT_HEADING)
        lines += [f"{OUT_MARK} {out.line}" for out in panel.out]
    if panel.result:
        lines.append(f"🏆 {panel.result}" if panel.winners else panel.result)
    return lines


# ----------------------------------------------------------------------------- the board
def render_health_board(panel: StandingsPanel, state, *, game_title: str, palette: str = "default",
                        caller: str | None = None, over: bool | None = None) -> Rendered:
    """The health board of ``state`` as a PNG, with its :class:`HealthLayout`.

    ``panel``: the variant's ``standings_panel(state)``; ``state``: for the players' colours and the
    update; ``game_title``: the ruleset's title, shown under the panel's title. ``caller``: the
    player asking (``/health``): their row is outlined, and an endless game's board (``panel.shown``)
    shows their row after the top ones when they are not among them. ``over``: the game has ended
    (no "orders now"); by default when the panel has a result or the session's length is played."""
    return _board(panel, state, game_title, palette, caller, over, True)


def health_board_png(panel: StandingsPanel, state, *, game_title: str, palette: str = "default") -> bytes:
    """``render_health_board(panel, state, game_title=game_title, palette=palette).png``, without
    the layout (the render pool's worker: an update posts the picture only; 1,000 rows' boxes and
    amounts written out cost 3-5 ms)."""
    return _board(panel, state, game_title, palette, None, None, False).png


def _board(panel: StandingsPanel, state, game_title: str, palette: str, caller: str | None, over: bool | None,
           laid_out: bool) -> Rendered:
    if palette not in PALETTES:
        raise ValueError(f"unknown palette {palette!r}: choose one of {', '.join(PALETTES)}")
    after = state.update - 1
    if over is None:      # the variant's result, or the session's length played out
        over = bool(panel.result) or (state.length is not None and after >= state.length)
    if after < 1:
        subtitle = f"{game_title} · before update {state.update}"
    elif over:
        subtitle = f"{game_title} · after update {after} · the game is over"
    else:
        subtitle = f"{game_title} · after update {after} · orders now for update {state.update}"
    entries = _entries(panel, caller)
    for scale in SCALES:
        if scale != SCALES[-1] and not _fits(_plan(panel, entries, scale, measured=False)):
            continue
        plan = _plan(panel, entries, scale)
        if _fits(plan):
            break
    return _draw(panel, entries, state, plan, subtitle, palette, caller, laid_out)


def _fits(plan: dict) -> bool:
    return plan["width"] <= MAX_SIDE and plan["height"] <= MAX_SIDE


def _entries(panel: StandingsPanel, caller: str | None) -> list[tuple[int, str]]:
    """The image's rows in order: ``(index in panel.rows, "")`` for a row, ``(-1, words)`` for the
    line standing for the rows left out, ``(-2 - k, "")`` for ``panel.out[k]``, a player who left."""
    top, own, hidden = shown_rows(panel, caller)
    entries = [(index, "") for index in range(len(top))]
    after = hidden
    if own is not None:
        at = panel.rows.index(own)
        between = at - len(top)
        if between:
            entries.append((-1, f"⋯ {between} more ⋯"))
        entries.append((at, ""))
        after = hidden - between
    if after:
        entries.append((-1, f"⋯ and {after} more"))
    entries += [(-2 - k, "") for k in range(len(panel.out))]
    return entries


def _line_width(row: Standing, line: str, size: int) -> int:
    """The drawn width of a line: "rank. name" bold, the rest regular, the symbol drawn."""
    before, symbol, after = _split_symbol(line)
    prefix = f"{row.rank}. {row.name}" if before.startswith(f"{row.rank}. {row.name}") else ""
    width = _width(prefix, size, True) + _width(before[len(prefix):], size) + _width(after, size)
    return width + (round(size * 0.95) if symbol else 0) + 2


def _note_width(note: str, size: int) -> int:
    before, symbol, after = _split_symbol(note)
    if symbol is None:
        return _width(note, size)
    return _width(before, size) + round(size * 0.95) + _width(after, size)


def _event_words(event: PanelEvent) -> tuple[str, str]:
    """An event's status ("4 updates left (ends in update 23)") and its sentence, with the squares
    it marks."""
    left = event.left
    status = f"{left} {'update' if left == 1 else 'updates'} left (ends in update {event.ends})"
    sentence = event.sentence
    marked = ", ".join(format_square(square) for square in event.squares)
    if marked:
        sentence = f"{sentence.rstrip('.')}: {marked}."
    return status, sentence[:1].upper() + sentence[1:]


def _event_width(event: PanelEvent, s: float) -> int:
    status, sentence = _event_words(event)
    width = _width(event.name, round(17 * s), True) + _width(f" · {status}", round(17 * s), True)
    return width + (_width(f" · {sentence}", round(15 * s)) if sentence else 0)


def _plan(panel: StandingsPanel, entries: list[tuple[int, str]], scale: float, measured: bool = True) -> dict:
    """The layout at ``scale``. Not ``measured``: of the rows' texts only the longest line (in
    characters) is measured, and the footer is left out, so the width and the height are at most
    those of the layout (a scale at which even these do not fit is passed over without measuring
    1,000 rows; with the longest line, the board of 1,000 rows is measured at the scale it is drawn
    at only, instead of at the one above too: 8-10 ms)."""
    shown = [panel.rows[index] for index, _ in entries if index >= 0]
    if not measured:
        shown = [max(shown, key=lambda row: len(row.line))] if shown else []
    table = [row.standing for row in shown]
    outs = panel.out if measured else ()
    events, next_draw = panel.events, panel.next_event_draw
    s = scale
    text_size = max(8, round(20 * s))
    row_h = max(14, round(42 * s))
    pad = max(6, round(16 * s))
    swatch = max(8, round(28 * s))
    symbol_w = round(text_size * 1.1)
    text_w = max([_line_width(row.standing, row.line, text_size) for row in shown] + [round(300 * s)]
                 + [_width(out.line, text_size) + round(text_size * 1.4) for out in outs]
                 + [_width(panel.line_heading, round(15 * s), True)])
    bar_w = round(170 * s)
    value_w = _width("00000", text_size)
    # each amount and note measured once (a thousand rows hold a few dozen of each)
    captured_w = max([_width(format_amount(value), text_size) for value in {r.captured for r in table}]
                     + [_width("Captured", round(15 * s), True)])
    regen_w = max([_note_width(note, text_size) for note in {row.note for row in shown}]
                  + [_width(panel.note_heading, round(15 * s), True)])
    gap = round(24 * s)
    column_w = pad + swatch + gap // 2 + text_w + gap + bar_w + 6 + value_w + gap + captured_w + gap + regen_w + pad
    banner_h = round(52 * s) if panel.result else 0
    header_h = round(92 * s) + banner_h
    column_head_h = round(26 * s)
    event_line = round(30 * s)
    events_h = (pad // 2 + round(30 * s) + max(1, len(events)) * event_line + (event_line if next_draw else 0)
                + pad // 2) if panel.draws_events else 0
    teams_h = (pad // 2 + round(30 * s) + len(panel.teams) * event_line + pad // 2 + pad) if panel.teams else 0
    footer_line = round(24 * s)
    available = MAX_SIDE - header_h - column_head_h - events_h - teams_h - 3 * footer_line - 2 * pad
    per_column = max(1, available // row_h)
    count = len(entries)
    columns = max(1, -(-count // per_column)) if count else 1
    if count:
        per_column = -(-count // columns)        # balanced columns, the last one no longer
    rows_shown = min(count, per_column) if count else 1
    widest_event = max([_event_width(event, s) for event in events] + [0])
    widest_team = max([_width(_team_words(team, panel.currency), round(17 * s), True) + bar_w + 2 * gap
                       for team in panel.teams] + [0])
    widest_result = _width(panel.result, round(19 * s), True) + round(60 * s) if panel.result else 0
    width = max(pad * 2 + columns * column_w + (columns - 1) * gap, round(720 * s), widest_event + 4 * pad,
                widest_team + 4 * pad, widest_result + 4 * pad)
    footer = _footer_lines(panel, s, width - 2 * pad) if measured else []
    footer_h = len(footer) * footer_line + round(12 * s)
    height = header_h + column_head_h + rows_shown * row_h + pad + events_h + teams_h + footer_h + pad
    return dict(footer=footer, footer_line=footer_line, scale=s, text_size=text_size, row_h=row_h, pad=pad, swatch=swatch, symbol_w=symbol_w,
                text_w=text_w, bar_w=bar_w, value_w=value_w, captured_w=captured_w, regen_w=regen_w, gap=gap,
                column_w=column_w, header_h=header_h, banner_h=banner_h, column_head_h=column_head_h,
                event_line=event_line, events_h=events_h, teams_h=teams_h, footer_h=footer_h,
                per_column=per_column, columns=columns, rows_shown=rows_shown, width=width, height=height)


def _footer_lines(panel: StandingsPanel, s: float, room: int) -> list[list[tuple[str | None, str]]]:
    """The footer's items, ``(symbol, words)`` for the legend and ``(None, ranking)``, in lines that
    fit ``room`` pixels: the ranking in full on a line of its own when it does not fit after the
    legend (it was cut off, ending in "nam"), the legend over several lines when it is wide."""
    fs = round(15 * s)
    icon = round(fs * 1.1) + round(6 * s)
    spacing = round(24 * s)

    def width(item: tuple[str | None, str]) -> int:
        symbol, words = item
        if symbol is None:
            return _width(words, fs)
        mark = icon if symbol in SYMBOLS else _width(symbol, fs, True) + round(6 * s)
        return mark + _width(words, fs)

    lines: list[list[tuple[str | None, str]]] = [[]]
    used = 0
    for item in [*panel.legend, (None, panel.ranking)]:
        needed = width(item) + (spacing if lines[-1] else 0)
        if lines[-1] and used + needed > room:
            lines.append([])
            used, needed = 0, width(item)
        if item[0] is None and needed > room and panel.ranking_short:
            item = (None, panel.ranking_short)
            needed = width(item) + (spacing if lines[-1] else 0)
        lines[-1].append(item)
        used += needed
    return [line for line in lines if line]


def _draw_with_symbol(image: Image.Image, draw: ImageDraw.ImageDraw, text: str, xy: tuple[int, int], cy: float,
                      size: int, fill: RGB) -> int:
    """``text`` at ``xy`` with its symbol (🏆, a heart, ...) drawn in place; the x after it."""
    x, ty = xy
    before, symbol, after = _split_symbol(text)
    draw_text(draw, (x, ty), before, _font(size), fill)
    x += _width(before, size)
    if symbol is not None:
        icon = round(size * 0.95)
        _draw_symbol(image, symbol, (x, round(cy - icon / 2), x + icon, round(cy - icon / 2) + icon))
        x += icon
        draw_text(draw, (x, ty), after, _font(size), fill)
        x += _width(after, size)
    return x


def _bar_fraction(balance: Fraction, best_numerator: int, best_denominator: int) -> float:
    """How much of the bar a balance fills: ``min(1.0, float(balance / best)) if balance > 0 else
    0.0`` for ``best`` (1 or more) = ``best_numerator / best_denominator``, the same float from whole
    numbers (a true division of whole numbers is rounded once, from the exact quotient, as
    ``float()`` of the Fraction is; a Fraction's division and comparison are Python code, 1,000 rows
    a board)."""
    numerator = balance.numerator
    if numerator <= 0:
        return 0.0
    return min(1.0, numerator * best_denominator / (balance.denominator * best_numerator))


class _Inks(dict):
    """RGB -> the picture's ink for it, worked out once (ImageDraw converts the colour on every call)."""

    def __init__(self, draw: ImageDraw.ImageDraw) -> None:
        super().__init__()
        self._ink = draw.draw.draw_ink

    def __missing__(self, rgb: RGB) -> int:
        found = self[rgb] = self._ink(rgb)
        return found


def _draw(panel: StandingsPanel, entries: list[tuple[int, str]], state, p: dict, subtitle: str, palette: str,
          caller: str | None, laid_out: bool = True) -> Rendered:
    """The board; without its layout (None) unless ``laid_out``."""
    s = p["scale"]
    title, currency = panel.title, panel.currency
    table = [row.standing for row in panel.rows]
    events, next_draw = panel.events, panel.next_event_draw
    colours = _PlayerColours(state, palette)
    image = _canvas((p["width"], p["height"]))
    draw = ImageDraw.Draw(image)
    pad, gap, ts = p["pad"], p["gap"], p["text_size"]
    draw_text(draw, (pad, round(14 * s)), title, _font(round(32 * s), True), TEXT_RGB)
    draw_text(draw, (pad, round(56 * s)), subtitle, _font(round(17 * s)), MUTED_RGB)

    # a game that is over: who won and why, on a gold banner
    result_box = None
    if panel.result:
        by = round(88 * s)
        result_box = (pad, by, p["width"] - pad, by + p["banner_h"] - round(8 * s))
        draw.rounded_rectangle(result_box, radius=max(3, round(8 * s)), fill=WINNER_BG, outline=WINNER_EDGE,
                               width=max(1, round(2 * s)))
        icon = round(26 * s)
        mid = (result_box[1] + result_box[3]) / 2
        x = pad + round(12 * s)
        if panel.winners:
            _draw_symbol(image, "🏆", (x, round(mid - icon / 2), x + icon, round(mid - icon / 2) + icon))
            x += icon + round(10 * s)
        size = round(19 * s)
        draw_text(draw, (x, round(mid - size * 0.62)), panel.result, _font(size, True), TEXT_RGB)

    head_size = max(8, round(15 * s))
    top = p["header_h"]
    rectangle = draw.draw.draw_rectangle
    ink = _Inks(draw)

    def amount(value: Fraction) -> str:
        """format_amount: a whole Fraction written from its numerator (a Fraction's hash, a copy of it
        and its comparisons are Python code: 3,000 amounts a board)."""
        if type(value) is Fraction and value.denominator == 1:
            return str(value.numerator)
        return format_amount(value)

    bar_rgb = BAR_RGB.get(currency, BAR_RGB["points"])
    best = max([row.balance for row in table] + [Fraction(1)])
    best_numerator, best_denominator = best.numerator, best.denominator
    winners = set(panel.winners)
    rows: list[HealthRow] = []
    out_rows: list[tuple[str, str, Box]] = []
    gap_box = None
    for column in range(p["columns"]):
        left = pad + column * (p["column_w"] + gap)
        x_text = left + pad + p["swatch"] + gap // 2
        x_bar = x_text + p["text_w"] + gap
        x_captured = x_bar + p["bar_w"] + 6 + p["value_w"] + gap
        x_regen = x_captured + p["captured_w"] + gap
        for x, words in ((x_text, panel.line_heading), (x_bar, currency.capitalize()),
                         (x_captured, "Captured"), (x_regen, panel.note_heading)):
            draw_text(draw, (x, top), words, _font(head_size, True), HEADER_RGB)
        first = column * p["per_column"]
        for offset, (index, words) in enumerate(entries[first:first + p["per_column"]]):
            y0 = top + p["column_head_h"] + offset * p["row_h"]
            box = (left, y0, left + p["column_w"], y0 + p["row_h"])
            cy = y0 + p["row_h"] / 2
            if index <= -2:
                # a player who left the game: under the rows, greyed and marked, no bar
                gone = panel.out[-2 - index]
                sw = p["swatch"]
                swatch_box = (left + pad, round(cy - sw / 2), left + pad + sw, round(cy - sw / 2) + sw)
                _draw_swatch(image, swatch_box, colours.of(gone.name))
                ty = round(cy - ts * 0.62)
                draw_text(draw, (x_text, ty), OUT_MARK, _font(ts, True), NO_KING_RGB)
                mark_w = _width(OUT_MARK + " ", ts, True)
                draw_text(draw, (x_text + mark_w, ty), gone.line, _font(ts), OUT_RGB)
                out_rows.append((gone.name, gone.line, box))
                continue
            if index < 0:
                # the rows left out of an endless game's board
                draw_text(draw, (x_text, round(cy - ts * 0.62)), words, _font(ts), MUTED_RGB)
                gap_box = gap_box or box
                continue
            row = table[index]
            line, regen, alarm = panel.rows[index].line, panel.rows[index].note, panel.rows[index].alarm
            if row.name in winners:
                rectangle(box, ink[WINNER_BG], 1)
            elif index % 2 == 0:
                rectangle(box, ink[ROW_SHADE], 1)
            if caller is not None and row.name == caller:
                rectangle(box, ink[CALLER_RGB], 0, max(2, round(3 * s)))
            sw = p["swatch"]
            swatch_box = (left + pad, round(cy - sw / 2), left + pad + sw, round(cy - sw / 2) + sw)
            _draw_swatch(image, swatch_box, colours.of(row.name))

            # the line: "rank. name" bold, the rest regular, the symbol drawn, "No King" in red
            before, symbol, after = _split_symbol(line)
            prefix = f"{row.rank}. {row.name}"
            if not before.startswith(prefix):
                prefix = ""
            ty = round(cy - ts * 0.62)
            x = x_text
            draw_text(draw, (x, ty), prefix, _font(ts, True), TEXT_RGB)
            x += _width(prefix, ts, True)
            draw_text(draw, (x, ty), before[len(prefix):], _font(ts), TEXT_RGB)
            x += _width(before[len(prefix):], ts)
            symbol_box = None
            if symbol is not None:
                size = round(ts * 0.95)
                symbol_box = (x, round(cy - size / 2), x + size, round(cy - size / 2) + size)
                _draw_symbol(image, symbol, symbol_box)
                x += size
                _stamp(draw, (x, ty), after, ts, False, NO_KING_RGB if "No King" in after else TEXT_RGB, ink)
                x += _width(after, ts)
            elif "No King" in before:
                # a line with no symbol (megachess): "No King" in red all the same
                at = line.index("No King")
                tail_x = x_text + _width(prefix, ts, True) + _width(before[len(prefix):at], ts)
                draw_text(draw, (tail_x, ty), line[at:], _font(ts), NO_KING_RGB)
            text_box = (x_text, ty, x, ty + round(ts * 1.25))

            bar_h = max(6, round(p["row_h"] * 0.38))
            bar_box = (x_bar, round(cy - bar_h / 2), x_bar + p["bar_w"], round(cy - bar_h / 2) + bar_h)
            fraction = _bar_fraction(row.balance, best_numerator, best_denominator)
            # ImageDraw.rectangle's own calls (a fill, then an edge of another colour), the inks made once
            rectangle(bar_box, ink[BAR_TRACK], 1)
            rectangle(bar_box, ink[BAR_EDGE], 0, 1)
            if fraction > 0:
                filled = bar_box[0] + max(2, round((bar_box[2] - bar_box[0]) * fraction))
                colour = bar_rgb if row.has_king else (150, 120, 125)
                rectangle((bar_box[0], bar_box[1], filled, bar_box[3]), ink[colour], 1)
                rectangle((bar_box[0], bar_box[1], filled, bar_box[3]), ink[BAR_EDGE], 0, 1)
            balance, captured = amount(row.balance), amount(row.captured)
            _stamp(draw, (bar_box[2] + 6, ty), balance, ts, True, TEXT_RGB, ink)
            _stamp(draw, (x_captured, ty), captured, ts, False, TEXT_RGB, ink)
            if _split_symbol(regen)[1] is None:
                _stamp(draw, (x_regen, ty), regen, ts, False, NO_KING_RGB if alarm else TEXT_RGB, ink)
            else:
                _draw_with_symbol(image, draw, regen, (x_regen, ty), cy, ts, NO_KING_RGB if alarm else TEXT_RGB)
            if laid_out:
                rows.append(HealthRow(row.rank, row.name, row.colour, line, box, text_box, swatch_box, symbol,
                                      symbol_box, bar_box, fraction, balance, amount(row.score), captured, regen,
                                      row.has_king))
    if not table:
        draw.text((pad + p["swatch"] + gap // 2, top + p["column_head_h"] + round(8 * s)),
                  "No player has joined yet.", font=_font(ts), fill=MUTED_RGB)

    # events
    ey = top + p["column_head_h"] + p["rows_shown"] * p["row_h"] + pad
    events_box = None
    event_layout: list[EventRow] = []
    if panel.draws_events:
        events_box = (pad, ey, p["width"] - pad, ey + p["events_h"])
        draw.rounded_rectangle(events_box, radius=max(3, round(8 * s)), fill=EVENT_BG, outline=EVENT_EDGE)
        draw_text(draw, (pad * 2, ey + pad // 2), "Active events", _font(round(19 * s), True), TEXT_RGB)
        y = ey + pad // 2 + round(30 * s)
        for event in events:
            name, started, left, ends = event.name, event.started, event.left, event.ends
            status, sentence = _event_words(event)
            text = f"{name}: {status}"
            draw_text(draw, (pad * 2, y), name, _font(round(17 * s), True), TEXT_RGB)
            nx = pad * 2 + _width(name, round(17 * s), True)
            draw_text(draw, (nx, y), f" · {status}", _font(round(17 * s), True), (30, 70, 140))
            nx += _width(f" · {status}", round(17 * s), True)
            if sentence:
                draw_text(draw, (nx, y + round(1 * s)), f" · {sentence}", _font(round(15 * s)), MUTED_RGB)
            event_layout.append(EventRow(name, started, left, ends, text,
                                         (pad, y, p["width"] - pad, y + p["event_line"])))
            y += p["event_line"]
        if not events:
            draw_text(draw, (pad * 2, y), "No event is active.", _font(round(17 * s)), MUTED_RGB)
            y += p["event_line"]
        if next_draw is not None:
            if next_draw == state.update:
                words = f"A new event is drawn at the end of update {next_draw} (in force from update {next_draw + 1})."
            else:
                words = f"Next event drawn in update {next_draw} (in force from update {next_draw + 1})."
            draw_text(draw, (pad * 2, y), words, _font(round(15 * s)), MUTED_RGB)
        below = events_box[3]
    else:
        below = ey - pad

    # teams: each team's total, with a bar against the leading team's
    team_layout: list[TeamRow] = []
    if panel.teams:
        ty0 = below + pad
        teams_box = (pad, ty0, p["width"] - pad, ty0 + p["teams_h"] - pad)
        draw.rounded_rectangle(teams_box, radius=max(3, round(8 * s)), fill=(238, 238, 244), outline=(150, 150, 170))
        draw_text(draw, (pad * 2, ty0 + pad // 2), "Teams", _font(round(19 * s), True), TEXT_RGB)
        y = ty0 + pad // 2 + round(30 * s)
        lead = max([team.points for team in panel.teams] + [Fraction(1)])
        size = round(17 * s)
        label_w = max(_width(_team_words(team, currency), size, True) for team in panel.teams)
        for team in panel.teams:
            words = _team_words(team, currency)
            draw_text(draw, (pad * 2, y), words, _font(size, True), TEAM_RGB)
            bx = pad * 2 + label_w + gap
            bar = (bx, y + round(4 * s), bx + p["bar_w"], y + round(4 * s) + max(6, round(14 * s)))
            fraction = min(1.0, float(max(Fraction(0), team.points) / lead)) if lead > 0 else 0.0
            draw.rectangle(bar, fill=BAR_TRACK, outline=BAR_EDGE)
            if fraction > 0:
                draw.rectangle((bar[0], bar[1], bar[0] + max(2, round((bar[2] - bar[0]) * fraction)), bar[3]),
                               fill=BAR_RGB.get(currency, BAR_RGB["points"]), outline=BAR_EDGE)
            team_layout.append(TeamRow(team.name, team.players, format_amount(team.points), words,
                                       (pad, y, p["width"] - pad, y + p["event_line"]), fraction))
            y += p["event_line"]
        below = teams_box[3]

    # footer: what the symbols mean (a symbol the board does not draw is written), then how the
    # rows are ranked, on as many lines as they need
    fy = below + round(10 * s)
    footer: list[str] = []
    fs = round(15 * s)
    size = round(fs * 1.1)
    for line in p["footer"]:
        x = pad
        for symbol, words in line:
            if symbol is not None:
                if symbol in SYMBOLS:
                    _draw_symbol(image, symbol, (x, fy, x + size, fy + size))
                    x += size + round(6 * s)
                else:
                    draw_text(draw, (x, fy), symbol, _font(fs, True), TEXT_RGB)
                    x += _width(symbol, fs, True) + round(6 * s)
                footer.append(f"{symbol} {words}")
            else:
                footer.append(words)
            draw_text(draw, (x, fy), words, _font(fs), MUTED_RGB)
            x += _width(words, fs) + round(24 * s)
        fy += p["footer_line"]

    png = _encode(image)
    if _keeping:
        _kept.append(image)
    del image
    if not laid_out:
        return Rendered(png, None, p["width"], p["height"])
    hidden = shown_rows(panel, caller)[2]
    layout = HealthLayout(title, subtitle, tuple(rows), tuple(event_layout), events_box, tuple(footer), s,
                          teams=tuple(team_layout), result=panel.result, result_box=result_box,
                          winners=tuple(r.name for r in rows if r.name in winners),
                          caller=caller if any(r.name == caller for r in rows) else None, hidden=hidden,
                          gap_box=gap_box, out=tuple(out_rows))
    return Rendered(png, layout, p["width"], p["height"])


#: the last board's picture, kept for the next one by a process that keeps them (:func:`keep_pictures`)
_kept: list[Image.Image] = []
_keeping = False


def keep_pictures() -> None:
    """Have this process keep each board's picture for the next, filled again instead of made: the
    render pool's worker, which draws the same game's board at every update. A board of 1,000 rows
    is 49 MB of pixels, and memory asked of the system again costs a page fault every 4 KB (15 ms
    of each board: Pillow's own kept blocks are taken, and shrunk, by the small pictures drawn
    meanwhile); the kept picture is filled in 1-2 ms. The process keeps one board's picture between
    updates (a board of another size replaces it)."""
    global _keeping
    _keeping = True


def _canvas(size: tuple[int, int]) -> Image.Image:
    """A picture of ``size`` filled with the background: the kept one if it has that size."""
    try:
        kept = _kept.pop()
    except IndexError:           # none kept (not kept here, or a board being drawn on another thread)
        kept = None
    if kept is not None and kept.size == size:
        kept.paste(BACKGROUND, (0, 0, *size))
        return kept
    del kept                     # its memory back to Pillow before the new picture's is asked for
    return Image.new("RGB", size, BACKGROUND)


def _encode(image: Image.Image) -> bytes:
    """The PNG: the smallest zlib can make (``optimize``) up to :data:`SMALLEST_UP_TO` pixels; a
    larger board (hundreds of rows) unfiltered, compressed by ISA-L (:func:`~.png.fast_png`): at
    12 million pixels (1,000 rows) the smallest took 1.5 s for 1.96 MB, Pillow's fastest 0.2 s for
    2.2 MB, unfiltered at zlib's fastest level 75-80 ms for 2.06 MB, by ISA-L 20-22 ms for 2.20 MB
    (the same pixels every way)."""
    if image.width * image.height > SMALLEST_UP_TO:
        return fast_png(image)
    buffer = BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
