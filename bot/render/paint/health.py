"""The health board painted: a scene of :mod:`bot.render.scene.health` turned into a PNG.

Every word, mark and colour a player reads is the scene's; this module lays them out (the columns'
widths measured from the texts, the largest of :data:`SCALES` at which the board fits in
:data:`MAX_SIDE`, the rows in as many balanced columns as the height needs, the footer's items on
as many lines as they need) and draws them: around each line a swatch of the player's tones, a bar
of their balance against the leader's, the value they captured and the panel's note; the symbols
drawn as pictures (:mod:`bot.render.paint.symbols`). Under the rows, the events, the teams and the
footer.

:func:`render_health_board` returns the PNG and a :class:`HealthLayout` (each row's box and text),
so tests check the image's geometry without reading it back; :func:`health_board_png` the PNG alone
(the update's post). Machinery for speed, measured in issues 25 and 38 (docs/rendering.md, "Machinery
kept for speed"): widths and short texts from the kept glyphs, the swatches and symbols drawn once
and pasted, the inks made once, a large board's PNG written by ISA-L
(:func:`~bot.render.paint.png.fast_png`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from io import BytesIO

from PIL import Image, ImageDraw

from .layout import Rendered
from .glyphs import draw_text, text_length, text_mask
from ..palette import contrast_edge
from .png import fast_png
from ..scene.health import (OUT_MARK, SYMBOLS, GapRow, HealthScene, OutRow, PlayerRow, amount_text, health_scene,
                            split_symbol)
from .sprites import bold_font, font as regular_font
from .symbols import draw_symbol

__all__ = ["HealthRow", "EventRow", "TeamRow", "HealthLayout", "render_health_board", "health_board_png",
           "paint_health", "MAX_SIDE"]

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
EVENT_BG = (232, 240, 250)
EVENT_EDGE = (120, 150, 190)
WINNER_BG = (255, 236, 170)
WINNER_EDGE = (200, 150, 20)
CALLER_RGB = (20, 90, 200)
TEAM_RGB = (90, 90, 110)
OUT_RGB = (130, 124, 116)


@dataclass(frozen=True, slots=True)
class HealthRow:
    """One player's row: ``text`` is their health board line, exactly; ``words`` what the row
    writes of it (the line, or the panel row's shorter label), in ``text_box``; ``symbol`` is drawn
    in ``symbol_box``, in the words or after the balance."""

    rank: int
    name: str
    colour: str
    text: str
    words: str
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
def render_health_board(panel, state, *, game_title: str, palette: str = "default", caller: str | None = None,
                        over: bool | None = None) -> Rendered:
    """The health board of ``state`` as a PNG, with its :class:`HealthLayout`: the picture of
    :func:`~bot.render.scene.health.health_scene` (whose docstring says what the options mean)."""
    return paint_health(health_scene(panel, state, game_title=game_title, palette=palette, caller=caller, over=over))


def health_board_png(panel, state, *, game_title: str, palette: str = "default") -> bytes:
    """``render_health_board(panel, state, game_title=game_title, palette=palette).png``, without
    the layout (an update posts the picture only; 1,000 rows' boxes and amounts written out cost
    3-5 ms)."""
    return paint_health(health_scene(panel, state, game_title=game_title, palette=palette), laid_out=False).png


def paint_health(scene: HealthScene, laid_out: bool = True) -> Rendered:
    """The board of ``scene`` at the largest of :data:`SCALES` at which it fits; without its layout
    (None) unless ``laid_out``."""
    for scale in SCALES:
        if scale != SCALES[-1] and not _fits(_plan(scene, scale, measured=False)):
            continue
        plan = _plan(scene, scale)
        if _fits(plan):
            break
    return _draw(scene, plan, laid_out)


def _fits(plan: dict) -> bool:
    return plan["width"] <= MAX_SIDE and plan["height"] <= MAX_SIDE


def _line_width(row: PlayerRow, size: int) -> int:
    """The drawn width of a line: "rank. name" bold, the rest regular, the symbol drawn."""
    width = _width(row.prefix, size, True) + _width(row.rest, size) + _width(row.after, size)
    return width + (round(size * 0.95) if row.symbol else 0) + 2


def _note_width(note: str, size: int) -> int:
    before, symbol, after = split_symbol(note)
    if symbol is None:
        return _width(note, size)
    return _width(before, size) + round(size * 0.95) + _width(after, size)


def _event_width(event, s: float) -> int:
    width = _width(event.name, round(17 * s), True) + _width(f" · {event.status}", round(17 * s), True)
    return width + (_width(f" · {event.sentence}", round(15 * s)) if event.sentence else 0)


def _plan(scene: HealthScene, scale: float, measured: bool = True) -> dict:
    """The layout at ``scale``. Not ``measured``: of the rows' texts only the longest line (in
    characters) is measured, and the footer is left out, so the width and the height are at most
    those of the layout (a scale at which even these do not fit is passed over without measuring
    1,000 rows; with the longest line, the board of 1,000 rows is measured at the scale it is drawn
    at only, instead of at the one above too: 8-10 ms)."""
    shown = [entry for entry in scene.entries if type(entry) is PlayerRow]
    if not measured:
        shown = [max(shown, key=lambda row: len(row.words))] if shown else []
    outs = [entry for entry in scene.entries if type(entry) is OutRow] if measured else []
    events = scene.events
    line_heading, _, captured_heading, note_heading = scene.headings
    s = scale
    text_size = max(8, round(20 * s))
    row_h = max(14, round(42 * s))
    pad = max(6, round(16 * s))
    swatch = max(8, round(28 * s))
    text_w = max([_line_width(row, text_size) for row in shown] + [round(300 * s)]
                 + [_width(out.line, text_size) + round(text_size * 1.4) for out in outs]
                 + [_width(line_heading, round(15 * s), True)])
    bar_w = round(170 * s)
    value_w = _width("00000", text_size)
    if any(row.balance_symbol for row in shown):      # a heart after the balance
        value_w += round(text_size * 0.4) + round(text_size * 0.95)
    # each amount and note measured once (a thousand rows hold a few dozen of each)
    captured_w = max([_width(captured, text_size) for captured in {row.captured for row in shown}]
                     + [_width(captured_heading, round(15 * s), True)]) if scene.shows_captured else 0
    regen_w = max([_note_width(note, text_size) for note in {row.note for row in shown}]
                  + [_width(note_heading, round(15 * s), True)])
    gap = round(24 * s)
    column_w = (pad + swatch + gap // 2 + text_w + gap + bar_w + 6 + value_w + gap
                + (captured_w + gap if scene.shows_captured else 0) + regen_w + pad)
    banner_h = round(52 * s) if scene.result else 0
    header_h = round(92 * s) + banner_h
    column_head_h = round(26 * s)
    event_line = round(30 * s)
    events_h = (pad // 2 + round(30 * s) + max(1, len(events)) * event_line + (event_line if scene.next_draw else 0)
                + pad // 2) if scene.draws_events else 0
    teams_h = (pad // 2 + round(30 * s) + len(scene.teams) * event_line + pad // 2 + pad) if scene.teams else 0
    footer_line = round(24 * s)
    available = MAX_SIDE - header_h - column_head_h - events_h - teams_h - 3 * footer_line - 2 * pad
    per_column = max(1, available // row_h)
    count = len(scene.entries)
    columns = max(1, -(-count // per_column)) if count else 1
    if count:
        per_column = -(-count // columns)        # balanced columns, the last one no longer
    rows_shown = min(count, per_column) if count else 1
    widest_event = max([_event_width(event, s) for event in events] + [0])
    widest_team = max([_width(team.words, round(17 * s), True) + bar_w + 2 * gap for team in scene.teams] + [0])
    widest_result = _width(scene.result, round(19 * s), True) + round(60 * s) if scene.result else 0
    width = max(pad * 2 + columns * column_w + (columns - 1) * gap, round(720 * s), widest_event + 4 * pad,
                widest_team + 4 * pad, widest_result + 4 * pad)
    footer = _footer_lines(scene, s, width - 2 * pad) if measured else []
    footer_h = len(footer) * footer_line + round(12 * s)
    height = header_h + column_head_h + rows_shown * row_h + pad + events_h + teams_h + footer_h + pad
    return dict(footer=footer, footer_line=footer_line, scale=s, text_size=text_size, row_h=row_h, pad=pad,
                swatch=swatch, text_w=text_w, bar_w=bar_w, value_w=value_w, captured_w=captured_w, regen_w=regen_w,
                gap=gap, column_w=column_w, header_h=header_h, banner_h=banner_h, column_head_h=column_head_h,
                event_line=event_line, events_h=events_h, teams_h=teams_h, footer_h=footer_h,
                per_column=per_column, columns=columns, rows_shown=rows_shown, width=width, height=height)


def _footer_lines(scene: HealthScene, s: float, room: int) -> list[list[tuple[str | None, str]]]:
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
    for item in [*scene.legend, (None, scene.ranking)]:
        needed = width(item) + (spacing if lines[-1] else 0)
        if lines[-1] and used + needed > room:
            lines.append([])
            used, needed = 0, width(item)
        if item[0] is None and needed > room and scene.ranking_short:
            item = (None, scene.ranking_short)
            needed = width(item) + (spacing if lines[-1] else 0)
        lines[-1].append(item)
        used += needed
    return [line for line in lines if line]


def _draw_with_symbol(image: Image.Image, draw: ImageDraw.ImageDraw, text: str, xy: tuple[int, int], cy: float,
                      size: int, fill: RGB) -> int:
    """``text`` at ``xy`` with its symbol (🏆, a heart, ...) drawn in place; the x after it."""
    x, ty = xy
    before, symbol, after = split_symbol(text)
    draw_text(draw, (x, ty), before, _font(size), fill)
    x += _width(before, size)
    if symbol is not None:
        icon = round(size * 0.95)
        draw_symbol(image, symbol, (x, round(cy - icon / 2), x + icon, round(cy - icon / 2) + icon))
        x += icon
        draw_text(draw, (x, ty), after, _font(size), fill)
        x += _width(after, size)
    return x


class _Inks(dict):
    """RGB -> the picture's ink for it, worked out once (ImageDraw converts the colour on every call)."""

    def __init__(self, draw: ImageDraw.ImageDraw) -> None:
        super().__init__()
        self._ink = draw.draw.draw_ink

    def __missing__(self, rgb: RGB) -> int:
        found = self[rgb] = self._ink(rgb)
        return found


def _draw(scene: HealthScene, p: dict, laid_out: bool = True) -> Rendered:
    """The board; without its layout (None) unless ``laid_out``."""
    s = p["scale"]
    image = Image.new("RGB", (p["width"], p["height"]), BACKGROUND)
    draw = ImageDraw.Draw(image)
    pad = p["pad"]
    draw_text(draw, (pad, round(14 * s)), scene.title, _font(round(32 * s), True), TEXT_RGB)
    draw_text(draw, (pad, round(56 * s)), scene.subtitle, _font(round(17 * s)), MUTED_RGB)

    # a game that is over: who won and why, on a gold banner
    result_box = None
    if scene.result:
        by = round(88 * s)
        result_box = (pad, by, p["width"] - pad, by + p["banner_h"] - round(8 * s))
        draw.rounded_rectangle(result_box, radius=max(3, round(8 * s)), fill=WINNER_BG, outline=WINNER_EDGE,
                               width=max(1, round(2 * s)))
        icon = round(26 * s)
        mid = (result_box[1] + result_box[3]) / 2
        x = pad + round(12 * s)
        if scene.trophy:
            draw_symbol(image, "🏆", (x, round(mid - icon / 2), x + icon, round(mid - icon / 2) + icon))
            x += icon + round(10 * s)
        size = round(19 * s)
        draw_text(draw, (x, round(mid - size * 0.62)), scene.result, _font(size, True), TEXT_RGB)

    rows, out_rows, gap_box = _draw_entries(image, draw, scene, p, laid_out)
    events_box, event_layout, below = _draw_events(draw, scene, p)
    team_layout, below = _draw_teams(draw, scene, p, below)
    footer = _draw_footer(image, draw, p, below)

    png = _encode(image)
    del image
    if not laid_out:
        return Rendered(png, None, p["width"], p["height"])
    layout = HealthLayout(scene.title, scene.subtitle, tuple(rows), tuple(event_layout), events_box, tuple(footer), s,
                          teams=tuple(team_layout), result=scene.result, result_box=result_box, winners=scene.winners,
                          caller=scene.caller, hidden=scene.hidden, gap_box=gap_box, out=tuple(out_rows))
    return Rendered(png, layout, p["width"], p["height"])


def _draw_entries(image: Image.Image, draw: ImageDraw.ImageDraw, scene: HealthScene, p: dict, laid_out: bool
                  ) -> tuple[list[HealthRow], list[tuple[str, str, Box]], Box | None]:
    """The columns of rows, each under the columns' headings; the rows' layout (when ``laid_out``),
    the players who left and where the line for the rows left out stands."""
    s = p["scale"]
    pad, gap, ts = p["pad"], p["gap"], p["text_size"]
    head_size = max(8, round(15 * s))
    top = p["header_h"]
    ink = _Inks(draw)
    rows: list[HealthRow] = []
    out_rows: list[tuple[str, str, Box]] = []
    gap_box = None
    for column in range(p["columns"]):
        left = pad + column * (p["column_w"] + gap)
        x_text = left + pad + p["swatch"] + gap // 2
        x_bar = x_text + p["text_w"] + gap
        x_captured = x_bar + p["bar_w"] + 6 + p["value_w"] + gap
        x_regen = x_captured + (p["captured_w"] + gap if scene.shows_captured else 0)
        for x, words in zip((x_text, x_bar, x_captured, x_regen), scene.headings):
            if words:
                draw_text(draw, (x, top), words, _font(head_size, True), HEADER_RGB)
        first = column * p["per_column"]
        for offset, entry in enumerate(scene.entries[first:first + p["per_column"]]):
            y0 = top + p["column_head_h"] + offset * p["row_h"]
            box = (left, y0, left + p["column_w"], y0 + p["row_h"])
            cy = y0 + p["row_h"] / 2
            if type(entry) is OutRow:
                # a player who left the game: under the rows, greyed and marked, no bar
                sw = p["swatch"]
                swatch_box = (left + pad, round(cy - sw / 2), left + pad + sw, round(cy - sw / 2) + sw)
                _draw_swatch(image, swatch_box, entry.tones)
                ty = round(cy - ts * 0.62)
                draw_text(draw, (x_text, ty), OUT_MARK, _font(ts, True), NO_KING_RGB)
                mark_w = _width(OUT_MARK + " ", ts, True)
                draw_text(draw, (x_text + mark_w, ty), entry.line, _font(ts), OUT_RGB)
                out_rows.append((entry.name, entry.line, box))
            elif type(entry) is GapRow:
                # the rows left out of an endless game's board
                draw_text(draw, (x_text, round(cy - ts * 0.62)), entry.words, _font(ts), MUTED_RGB)
                gap_box = gap_box or box
            else:
                drawn = _draw_row(image, draw, ink, entry, box, (x_text, x_bar, x_captured, x_regen), p, laid_out)
                if drawn is not None:
                    rows.append(drawn)
    if scene.empty:
        draw.text((pad + p["swatch"] + gap // 2, top + p["column_head_h"] + round(8 * s)),
                  scene.empty, font=_font(ts), fill=MUTED_RGB)
    return rows, out_rows, gap_box


def _draw_row(image: Image.Image, draw: ImageDraw.ImageDraw, ink: "_Inks", row: PlayerRow, box: Box,
              xs: tuple[int, int, int, int], p: dict, laid_out: bool) -> HealthRow | None:
    """One player's row in ``box``: its shade, the swatch, the line, the bar, the amounts, the note."""
    x_text, x_bar, x_captured, x_regen = xs
    ts, s = p["text_size"], p["scale"]
    rectangle = draw.draw.draw_rectangle
    cy = box[1] + p["row_h"] / 2
    if row.winner:
        rectangle(box, ink[WINNER_BG], 1)
    elif row.shaded:
        rectangle(box, ink[ROW_SHADE], 1)
    if row.caller:
        rectangle(box, ink[CALLER_RGB], 0, max(2, round(3 * s)))
    sw, left, pad = p["swatch"], box[0], p["pad"]
    swatch_box = (left + pad, round(cy - sw / 2), left + pad + sw, round(cy - sw / 2) + sw)
    _draw_swatch(image, swatch_box, row.tones)

    # the line: "rank. name" bold, the rest regular, the symbol drawn, "No King" in red
    ty = round(cy - ts * 0.62)
    x = x_text
    draw_text(draw, (x, ty), row.prefix, _font(ts, True), TEXT_RGB)
    x += _width(row.prefix, ts, True)
    draw_text(draw, (x, ty), row.rest, _font(ts), TEXT_RGB)
    x += _width(row.rest, ts)
    symbol_box = None
    if row.symbol is not None:
        size = round(ts * 0.95)
        symbol_box = (x, round(cy - size / 2), x + size, round(cy - size / 2) + size)
        draw_symbol(image, row.symbol, symbol_box)
        x += size
        _stamp(draw, (x, ty), row.after, ts, False, NO_KING_RGB if row.alarm else TEXT_RGB, ink)
        x += _width(row.after, ts)
    elif row.alarm:
        # a line with no symbol (megachess): its end in red, over the same words
        tail_x = x_text + _width(row.prefix, ts, True) + _width(row.rest[:len(row.rest) - len(row.alarm)], ts)
        draw_text(draw, (tail_x, ty), row.alarm, _font(ts), NO_KING_RGB)
    text_box = (x_text, ty, x, ty + round(ts * 1.25))

    bar_h = max(6, round(p["row_h"] * 0.38))
    bar_box = (x_bar, round(cy - bar_h / 2), x_bar + p["bar_w"], round(cy - bar_h / 2) + bar_h)
    fraction = row.bar_fraction
    # ImageDraw.rectangle's own calls (a fill, then an edge of another colour), the inks made once
    rectangle(bar_box, ink[BAR_TRACK], 1)
    rectangle(bar_box, ink[BAR_EDGE], 0, 1)
    if fraction > 0:
        filled = bar_box[0] + max(2, round((bar_box[2] - bar_box[0]) * fraction))
        rectangle((bar_box[0], bar_box[1], filled, bar_box[3]), ink[row.bar_rgb], 1)
        rectangle((bar_box[0], bar_box[1], filled, bar_box[3]), ink[BAR_EDGE], 0, 1)
    _stamp(draw, (bar_box[2] + 6, ty), row.balance, ts, True, TEXT_RGB, ink)
    if row.balance_symbol is not None:      # the line's heart, which the words leave out
        size = round(ts * 0.95)
        sx = bar_box[2] + 6 + _width(row.balance, ts, True) + round(ts * 0.4)
        symbol_box = (sx, round(cy - size / 2), sx + size, round(cy - size / 2) + size)
        draw_symbol(image, row.balance_symbol, symbol_box)
    _stamp(draw, (x_captured, ty), row.captured, ts, False, TEXT_RGB, ink)
    regen = row.note
    if split_symbol(regen)[1] is None:
        _stamp(draw, (x_regen, ty), regen, ts, False, NO_KING_RGB if row.note_alarm else TEXT_RGB, ink)
    else:
        _draw_with_symbol(image, draw, regen, (x_regen, ty), cy, ts, NO_KING_RGB if row.note_alarm else TEXT_RGB)
    if not laid_out:
        return None
    standing = row.standing
    return HealthRow(standing.rank, standing.name, standing.colour, row.line, row.words, box, text_box, swatch_box,
                     row.symbol or row.balance_symbol, symbol_box, bar_box, fraction, row.balance, amount_text(standing.score), row.captured, regen,
                     standing.has_king)


def _draw_events(draw: ImageDraw.ImageDraw, scene: HealthScene, p: dict) -> tuple[Box | None, list[EventRow], int]:
    """The events box (a game that draws events): each event with its status and sentence, the next
    draw; its box, its rows and the y under it."""
    s, pad = p["scale"], p["pad"]
    ey = p["header_h"] + p["column_head_h"] + p["rows_shown"] * p["row_h"] + pad
    if not scene.draws_events:
        return None, [], ey - pad
    event_layout: list[EventRow] = []
    events_box = (pad, ey, p["width"] - pad, ey + p["events_h"])
    draw.rounded_rectangle(events_box, radius=max(3, round(8 * s)), fill=EVENT_BG, outline=EVENT_EDGE)
    draw_text(draw, (pad * 2, ey + pad // 2), scene.events_heading, _font(round(19 * s), True), TEXT_RGB)
    y = ey + pad // 2 + round(30 * s)
    for event in scene.events:
        name, status, sentence = event.name, event.status, event.sentence
        draw_text(draw, (pad * 2, y), name, _font(round(17 * s), True), TEXT_RGB)
        nx = pad * 2 + _width(name, round(17 * s), True)
        draw_text(draw, (nx, y), f" · {status}", _font(round(17 * s), True), (30, 70, 140))
        nx += _width(f" · {status}", round(17 * s), True)
        if sentence:
            draw_text(draw, (nx, y + round(1 * s)), f" · {sentence}", _font(round(15 * s)), MUTED_RGB)
        event_layout.append(EventRow(name, event.started, event.updates_left, event.ends_in, f"{name}: {status}",
                                     (pad, y, p["width"] - pad, y + p["event_line"])))
        y += p["event_line"]
    if scene.no_event:
        draw_text(draw, (pad * 2, y), scene.no_event, _font(round(17 * s)), MUTED_RGB)
        y += p["event_line"]
    if scene.next_draw:
        draw_text(draw, (pad * 2, y), scene.next_draw, _font(round(15 * s)), MUTED_RGB)
    return events_box, event_layout, events_box[3]


def _draw_teams(draw: ImageDraw.ImageDraw, scene: HealthScene, p: dict, below: int) -> tuple[list[TeamRow], int]:
    """Each team's total, with a bar against the leading team's; the rows and the y under them."""
    if not scene.teams:
        return [], below
    s, pad, gap = p["scale"], p["pad"], p["gap"]
    team_layout: list[TeamRow] = []
    ty0 = below + pad
    teams_box = (pad, ty0, p["width"] - pad, ty0 + p["teams_h"] - pad)
    draw.rounded_rectangle(teams_box, radius=max(3, round(8 * s)), fill=(238, 238, 244), outline=(150, 150, 170))
    draw_text(draw, (pad * 2, ty0 + pad // 2), scene.teams_heading, _font(round(19 * s), True), TEXT_RGB)
    y = ty0 + pad // 2 + round(30 * s)
    size = round(17 * s)
    label_w = max(_width(team.words, size, True) for team in scene.teams)
    for team in scene.teams:
        draw_text(draw, (pad * 2, y), team.words, _font(size, True), TEAM_RGB)
        bx = pad * 2 + label_w + gap
        bar = (bx, y + round(4 * s), bx + p["bar_w"], y + round(4 * s) + max(6, round(14 * s)))
        draw.rectangle(bar, fill=BAR_TRACK, outline=BAR_EDGE)
        if team.bar_fraction > 0:
            draw.rectangle((bar[0], bar[1], bar[0] + max(2, round((bar[2] - bar[0]) * team.bar_fraction)), bar[3]),
                           fill=team.bar_rgb, outline=BAR_EDGE)
        team_layout.append(TeamRow(team.name, team.players, team.points, team.words,
                                   (pad, y, p["width"] - pad, y + p["event_line"]), team.bar_fraction))
        y += p["event_line"]
    return team_layout, teams_box[3]


def _draw_footer(image: Image.Image, draw: ImageDraw.ImageDraw, p: dict, below: int) -> list[str]:
    """What the symbols mean (a symbol the board does not draw is written), then how the rows are
    ranked, on the plan's lines; the footer's items as words."""
    s, pad = p["scale"], p["pad"]
    fy = below + round(10 * s)
    footer: list[str] = []
    fs = round(15 * s)
    size = round(fs * 1.1)
    for line in p["footer"]:
        x = pad
        for symbol, words in line:
            if symbol is not None:
                if symbol in SYMBOLS:
                    draw_symbol(image, symbol, (x, fy, x + size, fy + size))
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
    return footer


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
