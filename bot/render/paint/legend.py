"""The board's legend, laid out in columns beside the board and drawn from the scene's entries (each
mark's sample is drawn by the same code as the mark on the board)."""

from __future__ import annotations

import math
from typing import Sequence

from PIL import ImageDraw

from ...engine.variants.base import Fading
from ..scene.board import Badge, LegendEntry, fading_badge
from ..scene.colours import (BOUND_LINE, CAPTURE_ARROW, CHECK_FRESH, CHECK_SPENT, HIGHLIGHT, HILL_TINT, ICE, ICE_INK,
                             IMPLOSION_TINT, LEGEND_SAMPLE, LIGHT, MOVE_ARROW, MUTED, OUTSIDE_LIGHT,
                             RANK0_LINE, RANK0_TINT, SPIRIT, TEXT, TO_TINT, VARIETY, BLACK, WHITE)
from . import marks
from .sprites import bold_font, draw_piece, font

Box = tuple[int, int, int, int]


class Legend:
    """The panel right of the board: the entries in columns; its type grows with the squares so that
    it reads at the same zoom as the board. Given ``across`` (pixels), the panel under the board:
    as many columns as fit that width, each as short as they allow (``height`` is then unused)."""

    def __init__(self, items: Sequence[LegendEntry], height: int, scale: int = 28, across: int | None = None) -> None:
        self.items = items
        self.ICON = max(22, min(30, round(scale * 0.62)))
        self.ROW = self.ICON + 7
        self.TEXT = max(14, min(18, round(scale * 0.4)))
        self.WIDTH = 150 + 8 * self.TEXT
        fitted = [item.text for item in items if item.fit]
        if fitted:
            face = font(self.TEXT)
            self.WIDTH = max(self.WIDTH, max(round(face.getlength(text)) for text in fitted) + self.ICON + 26)
        if across is None:
            per_column = max(4, (height - 16) // self.ROW)
        else:
            per_column = _shortest_columns(items, max(1, (across - 16) // self.WIDTH))
        self.items = items = continued(items, per_column)
        self.columns = max(1, math.ceil(len(items) / per_column)) if items else 0
        self.per_column = per_column
        self.width = self.columns * self.WIDTH + (16 if items else 0)
        self.height = min(len(items), per_column) * self.ROW + 16 if items else 0


def _shortest_columns(items: Sequence[LegendEntry], columns: int) -> int:
    """The fewest entries a column holds for ``items`` (the headings repeated where a column starts
    inside a section) to fill at most ``columns`` columns."""
    per_column = max(4, math.ceil(len(items) / columns))
    while len(continued(items, per_column)) > per_column * columns:
        per_column += 1
    return per_column


def continued(items: Sequence[LegendEntry], per_column: int) -> list[LegendEntry]:
    """The entries as laid out in columns of ``per_column``: a column that starts inside a section
    starts with its heading again ("Marks (continued)"), and a heading never ends a column, so that
    no column is without a heading (issue 39: the neisg legend's marks ran on headless)."""
    laid: list[LegendEntry] = []
    section = None
    for item in items:
        if item.kind == "heading":
            section = item.text
            if len(laid) % per_column == per_column - 1:         # a heading alone at a column's foot
                laid.append(LegendEntry("text", ""))
        elif len(laid) % per_column == 0 and laid and section is not None:
            laid.append(LegendEntry("heading", f"{section} (continued)"))
        laid.append(item)
    return laid


def paint_legend(draw: ImageDraw.ImageDraw, legend: Legend, origin: tuple[int, int]) -> None:
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
            draw.text((x, mid), item.text, font=heading, fill=TEXT, anchor="lm")
            continue
        if item.kind == "player":
            tones = item.sample
            for i, tone in enumerate(tones):
                part = (icon[0] + i * legend.ICON // len(tones), icon[1],
                        icon[0] + (i + 1) * legend.ICON // len(tones) - 1, icon[3] - 1)
                draw.rectangle(part, fill=tone)
            draw.rectangle((icon[0], icon[1], icon[2] - 1, icon[3] - 1), outline=TEXT)
        elif item.kind == "piece":
            kind, fills = item.sample
            draw.rectangle((icon[0], icon[1], icon[2] - 1, icon[3] - 1), fill=LIGHT)
            draw_piece(draw, icon, kind, fills)
        elif item.kind == "mark":
            _mark_sample(draw, icon, *item.sample)
        elif item.kind == "token":
            draw.rectangle((icon[0], icon[1], icon[2] - 1, icon[3] - 1), fill=LIGHT)
            marks.token(draw, icon, item.sample, legend.ICON)
        draw.text((text_x, mid), item.text, font=face, fill=TEXT if item.kind != "text" else MUTED, anchor="lm")


def _mark_sample(draw: ImageDraw.ImageDraw, box: Box, key: str, pawn) -> None:
    """A mark's sample: the mark as the board draws it, on a grey ``pawn`` where it marks a piece."""
    s = box[2] - box[0]
    draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=LIGHT)
    sample = (LEGEND_SAMPLE,)
    inner = (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2)
    if key == "capturable":
        draw_piece(draw, inner, pawn, sample)
        marks.triangles(draw, box, s)
    elif key == "energy":
        marks.rainbow(draw, box, LIGHT)
        draw_piece(draw, inner, pawn, sample)
    elif key in ("fresh", "spent"):
        draw_piece(draw, inner, pawn, sample)
        marks.badge(draw, box, Badge("+", "top-right", WHITE, CHECK_FRESH if key == "fresh" else CHECK_SPENT), max(s, 26))
    elif key == "disabled":
        draw_piece(draw, inner, pawn, sample, hollow=True)
    elif key in ("frozen", "spirit", "cargo"):
        shown = {"frozen": Badge("\u2744", "centre", ICE_INK, ICE), "spirit": Badge("S", "centre", WHITE, SPIRIT),
                 "cargo": Badge("N", "centre", BLACK, WHITE)}[key]
        marks.badge(draw, box, shown, s * 2)
    elif key == "variety":
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), outline=VARIETY, width=3)
    elif key == "implosion":
        marks.tint(draw, box, LIGHT, IMPLOSION_TINT)
        marks.burst(draw, box)
    elif key == "hill":
        marks.tint(draw, box, LIGHT, HILL_TINT)
        marks.star(draw, box, s)
    else:
        _square_sample(draw, box, key, pawn, sample, inner)


def _square_sample(draw: ImageDraw.ImageDraw, box: Box, key: str, pawn, sample, inner: Box) -> None:
    s = box[2] - box[0]
    if key in ("move", "capture"):
        marks.tint(draw, box, LIGHT, TO_TINT)
        overlay_colour = CAPTURE_ARROW if key == "capture" else MOVE_ARROW
        draw.line((box[0] + 2, box[3] - 3, box[2] - 4, box[1] + 3), fill=overlay_colour[:3], width=3)
        if key == "capture":
            marks.cross(draw, box, s)
    elif key == "highlight":
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), outline=HIGHLIGHT, width=3)
    elif key == "rank0":
        marks.tint(draw, box, LIGHT, RANK0_TINT)
        draw.line((box[0], box[1] + 3, box[2], box[1] + 3), fill=RANK0_LINE, width=2)
        draw.line((box[0], box[3] - 4, box[2], box[3] - 4), fill=RANK0_LINE, width=2)
    elif key == "bounds":
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=OUTSIDE_LIGHT)
        draw.line((box[0] + s // 2, box[1], box[0] + s // 2, box[3]), fill=BOUND_LINE, width=3)
    elif key == "kingdom":
        # a corner of a grey kingdom: its edge a band with a dark line (kingdoms are never tinted)
        tone = (120, 120, 120)
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=LIGHT)
        band = max(2, s // 10)
        draw.rectangle((box[2] - band - 1, box[1], box[2] - 1, box[3] - 1), fill=tone)
        draw.rectangle((box[0], box[1], box[2] - 1, box[1] + band), fill=tone)
        draw.line((box[2] - 1, box[1], box[2] - 1, box[3] - 1), fill=(60, 60, 60))
        draw.line((box[0], box[1], box[2] - 1, box[1]), fill=(60, 60, 60))
    elif key in ("fading", "fading-last"):
        draw_piece(draw, inner, pawn, sample)
        marks.fading_badge(draw, box, fading_badge(Fading((0, 0), "", 0, 1 if key == "fading-last" else 3, 0)), s)
