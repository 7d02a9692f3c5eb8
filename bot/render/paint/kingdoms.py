"""Kingdoms as pixels (:mod:`bot.render.scene.kingdoms`): each side of a kingdom's edge a band of
the owner's colour with a dark line on the edge itself, solid, dashed or dotted; the owner's name on
a tag. Everything stays inside its square, so a tile of the board draws the same pixels."""

from __future__ import annotations

from PIL import ImageDraw

from ..scene.kingdoms import TAG_REACH, KingdomEdge, KingdomTag
from .layout import Box
from .text import centred_text, mask_size

# the stretches of a square's side drawn, as fractions of it: a dash is half a square with half a
# square's gap, so a straight edge reads dashed; a dot is as long as the band and line are wide,
# three a side for dotted; dash-dot is a dash and a dot each square
_RUNS = {"solid": ((0.0, 1.0),), "dashed": ((0.25, 0.75),), "dash-dot": ((0.05, 0.5),)}
_DOTS = {"dotted": (1 / 6, 1 / 2, 5 / 6), "dash-dot": (0.75,)}
TAG_TYPE = 7             # the smallest type a name is written in


def band_width(s: int) -> tuple[int, int]:
    """The coloured band's and the dark line's widths at ``s`` pixels a square."""
    band = max(2, round(s * 0.09))
    return band, max(1, band // 2)


def edge(draw: ImageDraw.ImageDraw, box: Box, shown: KingdomEdge, s: int) -> None:
    """One side of a kingdom's edge square ``box``: the band inside, the dark line on the edge."""
    band, line = band_width(s)
    bx0, by0, bx1, by1 = box
    dot = (band + line) / (2 * s)
    runs = _RUNS.get(shown.style, ()) + tuple((f - dot, f + dot) for f in _DOTS.get(shown.style, ()))
    runs = runs or _RUNS["solid"]
    for start, end in runs:
        if shown.side in ("right", "left"):
            a, b = by0 + round(start * s), by0 + round(end * s) - 1
            outer = bx1 - 1 if shown.side == "right" else bx0
            step = -1 if shown.side == "right" else 1
            _strip(draw, (outer, a, outer + step * (band + line - 1), b), shown.tone)
            _strip(draw, (outer, a, outer + step * (line - 1), b), shown.dark)
        else:
            a, b = bx0 + round(start * s), bx0 + round(end * s) - 1
            outer = by0 if shown.side == "top" else by1 - 1
            step = 1 if shown.side == "top" else -1
            _strip(draw, (a, outer, b, outer + step * (band + line - 1)), shown.tone)
            _strip(draw, (a, outer, b, outer + step * (line - 1)), shown.dark)


def _strip(draw: ImageDraw.ImageDraw, corners: Box, fill) -> None:
    x0, y0, x1, y1 = corners
    draw.rectangle((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)), fill=fill)


def tag(draw: ImageDraw.ImageDraw, box: Box, shown: KingdomTag, s: int) -> Box | None:
    """The owner's whole name on a tag centred on ``box``, in type up to a third of a square, as
    large as fits the square, else as fits the free squares either side (:data:`TAG_REACH`); None
    (nothing drawn) where even the smallest type does not fit: a name cut short could read as
    another player's ("P5" of "P57")."""
    sizes = range(max(TAG_TYPE, round(s * 0.3)), TAG_TYPE - 1, -1)
    size = next((size for room in (s - 8, (1 + 2 * TAG_REACH) * s - 8) for size in sizes
                 if mask_size(shown.text, size, True)[0] <= room), None)
    if size is None:
        return None
    width, height = mask_size(shown.text, size, True)
    cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
    frame = (cx - width // 2 - 3, cy - height // 2 - 3, cx - width // 2 + width + 2, cy - height // 2 + height + 2)
    draw.rounded_rectangle(frame, radius=max(2, height // 3), fill=shown.back, outline=shown.dark)
    centred_text(draw, shown.text, size, (frame[0] + 3 + width / 2, frame[1] + 3 + height / 2), shown.ink)
    return frame
