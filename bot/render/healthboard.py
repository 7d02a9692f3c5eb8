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
from io import BytesIO

from PIL import Image, ImageDraw

from bot.engine.model import format_amount, format_square
from bot.engine.standings import Standing
from bot.engine.variants import PanelEvent, StandingsPanel

# the board's owner -> tones rule, so that a swatch always matches the player's pieces on the board
# (a colour name the palette does not know gets the same spare colour in both images)
from .board import Rendered, _PlayerColours
from .palette import PALETTES, contrast_edge
from .sprites import bold_font, font as regular_font

__all__ = ["HealthRow", "EventRow", "HealthLayout", "render_health_board", "MAX_SIDE"]

MAX_SIDE = 4096

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

#: The symbols the engine writes after a balance (bot.engine.standings), in the order to look for them.
SYMBOLS = ("💖", "❤️", "❤", "⚡")
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
class HealthLayout:
    title: str
    subtitle: str
    rows: tuple[HealthRow, ...]
    events: tuple[EventRow, ...]
    events_box: Box
    footer: tuple[str, ...]
    scale: float

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


def _width(text: str, size: int, bold: bool = False) -> int:
    return round(_font(size, bold).getlength(text))


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


def draw_bolt(draw: ImageDraw.ImageDraw, box: Box) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    shape = [(0.62, 0.0), (0.18, 0.56), (0.46, 0.56), (0.34, 1.0), (0.84, 0.40), (0.54, 0.40), (0.70, 0.0)]
    draw.polygon([(x0 + a * w, y0 + b * h) for a, b in shape], fill=BOLT_RGB, outline=(120, 80, 0),
                 width=max(1, round(w / 12)))


_ICON_SUPERSAMPLE = 4


def _draw_symbol(image: Image.Image, symbol: str, box: Box) -> None:
    """Draw a balance symbol into ``box``, anti-aliased (drawn four times larger, then reduced)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    k = _ICON_SUPERSAMPLE
    # a margin of a quarter box on each side leaves room for the sparkles that stick out
    mx, my = w // 4 + 1, h // 4 + 1
    big = Image.new("RGBA", ((w + 2 * mx) * k, (h + 2 * my) * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    inner = (mx * k, my * k, (mx + w) * k, (my + h) * k)
    if symbol == "⚡":
        draw_bolt(draw, inner)
    else:
        draw_heart(draw, inner, sparkling=symbol == "💖")
    small = big.resize((w + 2 * mx, h + 2 * my), Image.Resampling.LANCZOS)
    image.paste(small, (x0 - mx, y0 - my), small)


def _split_symbol(text: str) -> tuple[str, str | None, str]:
    for symbol in SYMBOLS:
        at = text.find(symbol)
        if at >= 0:
            return text[:at], symbol, text[at + len(symbol):]
    return text, None, ""


def _draw_swatch(draw: ImageDraw.ImageDraw, box: Box, tones: tuple[RGB, ...]) -> None:
    x0, y0, x1, y1 = box
    n = len(tones)
    for i, tone in enumerate(tones):
        draw.rectangle((x0 + (x1 - x0) * i // n, y0, x0 + (x1 - x0) * (i + 1) // n, y1), fill=tone)
    mean = tuple(sum(t[c] for t in tones) // n for c in range(3))
    draw.rectangle(box, outline=(30, 30, 30) if contrast_edge(mean) == (0, 0, 0) else (90, 90, 90), width=2)


# ----------------------------------------------------------------------------- the board
def render_health_board(panel: StandingsPanel, state, *, game_title: str, palette: str = "default") -> Rendered:
    """The health board of ``state`` as a PNG, with its :class:`HealthLayout`.

    ``panel``: the variant's ``standings_panel(state)``; ``state``: for the players' colours and the
    update; ``game_title``: the ruleset's title, shown under the panel's title."""
    if palette not in PALETTES:
        raise ValueError(f"unknown palette {palette!r}: choose one of {', '.join(PALETTES)}")
    after = state.update - 1
    subtitle = (f"{game_title} · after update {after} · orders now for update {state.update}"
                if after >= 1 else f"{game_title} · before update {state.update}")

    for scale in (1.0, 0.85, 0.7, 0.6, 0.5, 0.42, 0.35, 0.3, 0.25):
        plan = _plan(panel, scale)
        if plan["width"] <= MAX_SIDE and plan["height"] <= MAX_SIDE:
            break
    return _draw(panel, state, plan, subtitle, palette)


def _line_width(row: Standing, line: str, size: int) -> int:
    """The drawn width of a line: "rank. name" bold, the rest regular, the symbol drawn."""
    before, symbol, after = _split_symbol(line)
    prefix = f"{row.rank}. {row.name}" if before.startswith(f"{row.rank}. {row.name}") else ""
    width = _width(prefix, size, True) + _width(before[len(prefix):], size) + _width(after, size)
    return width + (round(size * 0.95) if symbol else 0) + 2


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


def _plan(panel: StandingsPanel, scale: float) -> dict:
    table = [row.standing for row in panel.rows]
    events, next_draw = panel.events, panel.next_event_draw
    s = scale
    text_size = max(8, round(20 * s))
    row_h = max(14, round(42 * s))
    pad = max(6, round(16 * s))
    swatch = max(8, round(28 * s))
    symbol_w = round(text_size * 1.1)
    text_w = max([_line_width(row.standing, row.line, text_size) for row in panel.rows] + [round(300 * s)])
    bar_w = round(170 * s)
    value_w = _width("00000", text_size)
    captured_w = max([_width(format_amount(r.captured), text_size) for r in table] + [_width("Captured", round(15 * s), True)])
    regen_w = max([_width(row.note, text_size) for row in panel.rows] + [_width("Regen", round(15 * s), True)])
    gap = round(24 * s)
    column_w = pad + swatch + gap // 2 + text_w + gap + bar_w + 6 + value_w + gap + captured_w + gap + regen_w + pad
    header_h = round(92 * s)
    column_head_h = round(26 * s)
    event_line = round(30 * s)
    events_h = pad // 2 + round(30 * s) + max(1, len(events)) * event_line + (event_line if next_draw else 0) + pad // 2
    footer_h = round(36 * s)
    available = MAX_SIDE - header_h - column_head_h - events_h - footer_h - 2 * pad
    per_column = max(1, available // row_h)
    columns = max(1, -(-len(table) // per_column)) if table else 1
    if table:
        per_column = -(-len(table) // columns)        # balanced columns, the last one no longer
    rows_shown = min(len(table), per_column) if table else 1
    widest_event = max([_event_width(event, s) for event in events] + [0])
    width = max(pad * 2 + columns * column_w + (columns - 1) * gap, round(720 * s), widest_event + 4 * pad)
    height = header_h + column_head_h + rows_shown * row_h + pad + events_h + footer_h + pad
    return dict(scale=s, text_size=text_size, row_h=row_h, pad=pad, swatch=swatch, symbol_w=symbol_w,
                text_w=text_w, bar_w=bar_w, value_w=value_w, captured_w=captured_w, regen_w=regen_w, gap=gap,
                column_w=column_w, header_h=header_h, column_head_h=column_head_h, event_line=event_line,
                events_h=events_h, footer_h=footer_h, per_column=per_column, columns=columns,
                rows_shown=rows_shown, width=width, height=height)


def _draw(panel: StandingsPanel, state, p: dict, subtitle: str, palette: str) -> Rendered:
    s = p["scale"]
    title, currency = panel.title, panel.currency
    table = [row.standing for row in panel.rows]
    events, next_draw = panel.events, panel.next_event_draw
    colours = _PlayerColours(state, palette)
    image = Image.new("RGB", (p["width"], p["height"]), BACKGROUND)
    draw = ImageDraw.Draw(image)
    pad, gap, ts = p["pad"], p["gap"], p["text_size"]
    draw.text((pad, round(14 * s)), title, font=_font(round(32 * s), True), fill=TEXT_RGB)
    draw.text((pad, round(56 * s)), subtitle, font=_font(round(17 * s)), fill=MUTED_RGB)

    head_size = max(8, round(15 * s))
    top = p["header_h"]
    best = max([row.balance for row in table] + [Fraction(1)])
    rows: list[HealthRow] = []
    for column in range(p["columns"]):
        left = pad + column * (p["column_w"] + gap)
        x_text = left + pad + p["swatch"] + gap // 2
        x_bar = x_text + p["text_w"] + gap
        x_captured = x_bar + p["bar_w"] + 6 + p["value_w"] + gap
        x_regen = x_captured + p["captured_w"] + gap
        for x, words in ((x_text, "Standing: score --- balance"), (x_bar, currency.capitalize()),
                         (x_captured, "Captured"), (x_regen, "Regen")):
            draw.text((x, top), words, font=_font(head_size, True), fill=HEADER_RGB)
        first = column * p["per_column"]
        for offset, row in enumerate(table[first:first + p["per_column"]]):
            index = first + offset
            line, regen, alarm = panel.rows[index].line, panel.rows[index].note, panel.rows[index].alarm
            y0 = top + p["column_head_h"] + offset * p["row_h"]
            box = (left, y0, left + p["column_w"], y0 + p["row_h"])
            if index % 2 == 0:
                draw.rectangle(box, fill=ROW_SHADE)
            cy = y0 + p["row_h"] / 2
            sw = p["swatch"]
            swatch_box = (left + pad, round(cy - sw / 2), left + pad + sw, round(cy - sw / 2) + sw)
            _draw_swatch(draw, swatch_box, colours.of(row.name))

            # the line: "rank. name" bold, the rest regular, the symbol drawn, "No King" in red
            before, symbol, after = _split_symbol(line)
            prefix = f"{row.rank}. {row.name}"
            if not before.startswith(prefix):
                prefix = ""
            ty = round(cy - ts * 0.62)
            x = x_text
            draw.text((x, ty), prefix, font=_font(ts, True), fill=TEXT_RGB)
            x += _width(prefix, ts, True)
            draw.text((x, ty), before[len(prefix):], font=_font(ts), fill=TEXT_RGB)
            x += _width(before[len(prefix):], ts)
            symbol_box = None
            if symbol is not None:
                size = round(ts * 0.95)
                symbol_box = (x, round(cy - size / 2), x + size, round(cy - size / 2) + size)
                _draw_symbol(image, symbol, symbol_box)
                x += size
                draw.text((x, ty), after, font=_font(ts), fill=NO_KING_RGB if "No King" in after else TEXT_RGB)
                x += _width(after, ts)
            text_box = (x_text, ty, x, ty + round(ts * 1.25))

            bar_h = max(6, round(p["row_h"] * 0.38))
            bar_box = (x_bar, round(cy - bar_h / 2), x_bar + p["bar_w"], round(cy - bar_h / 2) + bar_h)
            fraction = float(max(Fraction(0), row.balance) / best) if best > 0 else 0.0
            fraction = min(1.0, fraction)
            draw.rectangle(bar_box, fill=BAR_TRACK, outline=BAR_EDGE)
            if fraction > 0:
                filled = bar_box[0] + max(2, round((bar_box[2] - bar_box[0]) * fraction))
                colour = BAR_RGB.get(currency, BAR_RGB["points"]) if row.has_king else (150, 120, 125)
                draw.rectangle((bar_box[0], bar_box[1], filled, bar_box[3]), fill=colour, outline=BAR_EDGE)
            draw.text((bar_box[2] + 6, ty), format_amount(row.balance), font=_font(ts, True), fill=TEXT_RGB)
            draw.text((x_captured, ty), format_amount(row.captured), font=_font(ts), fill=TEXT_RGB)
            draw.text((x_regen, ty), regen, font=_font(ts),
                      fill=NO_KING_RGB if alarm else TEXT_RGB)
            rows.append(HealthRow(row.rank, row.name, row.colour, line, box, text_box, swatch_box, symbol,
                                  symbol_box, bar_box, fraction, format_amount(row.balance),
                                  format_amount(row.score), format_amount(row.captured), regen, row.has_king))
    if not table:
        draw.text((pad + p["swatch"] + gap // 2, top + p["column_head_h"] + round(8 * s)),
                  "No player has joined yet.", font=_font(ts), fill=MUTED_RGB)

    # events
    ey = top + p["column_head_h"] + p["rows_shown"] * p["row_h"] + pad
    events_box = (pad, ey, p["width"] - pad, ey + p["events_h"])
    draw.rounded_rectangle(events_box, radius=max(3, round(8 * s)), fill=EVENT_BG, outline=EVENT_EDGE)
    draw.text((pad * 2, ey + pad // 2), "Active events", font=_font(round(19 * s), True), fill=TEXT_RGB)
    y = ey + pad // 2 + round(30 * s)
    event_layout: list[EventRow] = []
    for event in events:
        name, started, left, ends = event.name, event.started, event.left, event.ends
        status, sentence = _event_words(event)
        text = f"{name}: {status}"
        draw.text((pad * 2, y), name, font=_font(round(17 * s), True), fill=TEXT_RGB)
        nx = pad * 2 + _width(name, round(17 * s), True)
        draw.text((nx, y), f" · {status}", font=_font(round(17 * s), True), fill=(30, 70, 140))
        nx += _width(f" · {status}", round(17 * s), True)
        if sentence:
            draw.text((nx, y + round(1 * s)), f" · {sentence}", font=_font(round(15 * s)), fill=MUTED_RGB)
        event_layout.append(EventRow(name, started, left, ends, text,
                                     (pad, y, p["width"] - pad, y + p["event_line"])))
        y += p["event_line"]
    if not events:
        draw.text((pad * 2, y), "No event is active.", font=_font(round(17 * s)), fill=MUTED_RGB)
        y += p["event_line"]
    if next_draw is not None:
        if next_draw == state.update:
            words = f"A new event is drawn at the end of update {next_draw} (in force from update {next_draw + 1})."
        else:
            words = f"Next event drawn in update {next_draw} (in force from update {next_draw + 1})."
        draw.text((pad * 2, y), words, font=_font(round(15 * s)), fill=MUTED_RGB)

    # footer: what the symbols mean
    fy = events_box[3] + round(10 * s)
    footer: list[str] = []
    x = pad
    fs = round(15 * s)
    size = round(fs * 1.1)
    for symbol, words in panel.legend:
        _draw_symbol(image, symbol, (x, fy, x + size, fy + size))
        x += size + round(6 * s)
        draw.text((x, fy), words, font=_font(fs), fill=MUTED_RGB)
        x += _width(words, fs) + round(24 * s)
        footer.append(f"{symbol} {words}")
    words = panel.ranking
    if x + _width(words, fs) > p["width"] - pad and panel.ranking_short:
        words = panel.ranking_short
    draw.text((x, fy), words, font=_font(fs), fill=MUTED_RGB)
    footer.append(words)

    buffer = BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    layout = HealthLayout(title, subtitle, tuple(rows), tuple(event_layout), events_box, tuple(footer), s)
    return Rendered(buffer.getvalue(), layout, p["width"], p["height"])
