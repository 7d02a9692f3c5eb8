"""How each thing a scene names is drawn: a token, a badge, the capturable triangles, an arrow, a
cross, an implosion's burst, an energy pawn's rainbow. Shapes only: which piece gets which, and in
which colours, is the scene's (:mod:`bot.render.scene.board`); the sizes follow the square's side."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from ..scene.board import Badge, FadingBadge, Token
from ..scene.colours import BLACK, CROSS, RAINBOW, RGB, STAR, WHITE, blend
from ..palette import contrast_edge
from .sprites import font
from .text import centred_text, fit_label

Box = tuple[int, int, int, int]


def token(draw: ImageDraw.ImageDraw, box: Box, shown: Token, s: int) -> Box:
    """``token`` filling ``box``: its shape, its label (its short label where the label does not
    fit). Returns the token's box."""
    shape = shown.shape
    x0, y0, x1, y1 = box
    inset = max(1, round((x1 - x0) * 0.05))
    l, t, r, b = x0 + inset, y0 + inset, x1 - 1 - inset, y1 - 1 - inset
    w, h = r - l, b - t
    cx = (l + r) / 2
    width = max(1, round(s / 22))
    _token_shape(draw, shape, (l, t, r, b), shown.fill, shown.edge, width)
    if shown.hatched:
        _hatch(draw, shape, (l, t, r, b), width)
    label_centre, room = {"arrow": ((cx, t + h * 0.4), 0.5), "crown": ((cx, t + h * 0.68), 0.78),
                          "circle": (((l + r) / 2, (t + b) / 2), 0.8)}.get(shape, (((l + r) / 2, (t + b) / 2), 0.78))
    text = shown.label
    size = fit_label(text, w * room, h * {"arrow": 0.3, "crown": 0.5}.get(shape, 0.62))
    if size is None:
        text = shown.short
        size = fit_label(text, w * room, h * 0.62) or 7
    centred_text(draw, text, size, label_centre, shown.ink)
    return l, t, r + 1, b + 1


def _token_shape(draw: ImageDraw.ImageDraw, shape: str, box: Box, fill, edge, width: int) -> None:
    """A circle, an arrow pointing up (a wide head over a shaft), a crown or a rounded square."""
    l, t, r, b = box
    w, h, cx = r - l, b - t, (l + r) / 2
    if shape == "circle":
        draw.ellipse((l, t, r, b), fill=fill, outline=edge, width=width)
    elif shape == "arrow":
        neck, half = t + h * 0.58, w * 0.2
        draw.polygon([(cx, t), (r, neck), (cx + half, neck), (cx + half, b), (cx - half, b), (cx - half, neck),
                      (l, neck)], fill=fill, outline=edge, width=width)
    elif shape == "crown":
        draw.polygon([(l, b), (l, t + h * 0.12), (l + w * 0.27, t + h * 0.42), (cx, t), (r - w * 0.27, t + h * 0.42),
                      (r, t + h * 0.12), (r, b)], fill=fill, outline=edge, width=width)
    else:
        draw.rounded_rectangle((l, t, r, b), radius=max(2, w // 5), fill=fill, outline=edge, width=width)


def _hatch(draw: ImageDraw.ImageDraw, shape: str, box: Box, width: int) -> None:
    """White dots on a diagonal grid inside the token's shape: a pattern no player's pieces have."""
    l, t, r, b = box
    mask = Image.new("1", (r - l + 1, b - t + 1), 0)
    _token_shape(ImageDraw.Draw(mask), shape, (0, 0, r - l, b - t), 1, 1, 1)
    step = max(4, (r - l) // 6)
    dot = max(1, step // 4)
    for y in range(step // 2, b - t, step):
        for x in range(step // 2 + (y // step % 2) * step // 2, r - l, step):
            if mask.getpixel((x, y)) and mask.getpixel((min(x + dot, r - l), min(y + dot, b - t))):
                draw.ellipse((l + x - dot, t + y - dot, l + x + dot, t + y + dot), fill=WHITE)


def fading_badge(draw: ImageDraw.ImageDraw, box: Box, shown: FadingBadge, s: int) -> Box:
    """A fading piece's badge at its square's top-left corner."""
    x0, y0 = box[0], box[1]
    text = shown.text
    d = max(12, round(s * (0.46 if len(text) == 1 else 0.54)))
    draw.ellipse((x0, y0, x0 + d - 1, y0 + d - 1), fill=shown.back, outline=BLACK, width=max(1, d // 12))
    size = max(8, round(d * (0.74 if len(text) == 1 else 0.56)))
    centred_text(draw, text, size, (x0 + d / 2, y0 + d / 2), shown.ink)
    return x0, y0, x0 + d, y0 + d


def tint(draw: ImageDraw.ImageDraw, box: Box, base: RGB, over) -> None:
    draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=blend(base, over))


def burst(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """An implosion square: a dark red eight-pointed burst behind whatever stands there."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    r_out = (box[2] - box[0]) * 0.48
    r_in = r_out * 0.55
    points = []
    for i in range(16):
        r = r_out if i % 2 == 0 else r_in
        a = math.pi * i / 8 + math.pi / 16
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    draw.polygon(points, outline=(140, 10, 10), width=max(1, (box[2] - box[0]) // 20))


def rainbow(draw: ImageDraw.ImageDraw, box: Box, centre: RGB) -> None:
    """An energy pawn's aura: a ring of the rainbow's colours, ``centre`` inside it."""
    x0, y0, x1, y1 = box
    inset = 1
    segments = len(RAINBOW) * 2
    for i in range(segments):
        draw.pieslice((x0 + inset, y0 + inset, x1 - 1 - inset, y1 - 1 - inset), start=i * 360 / segments - 90,
                      end=(i + 1) * 360 / segments - 90, fill=RAINBOW[i % len(RAINBOW)])
    ring = max(2, (x1 - x0) // 9)
    draw.ellipse((x0 + inset + ring, y0 + inset + ring, x1 - 1 - inset - ring, y1 - 1 - inset - ring),
                 fill=centre)


def triangles(draw: ImageDraw.ImageDraw, box: Box, s: int) -> None:
    """Capturable: four black triangles, one at the middle of each side, pointing at the piece."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    h = max(2.5, s * (0.17 if s >= 30 else 0.14))
    w = max(2.5, s * (0.15 if s >= 30 else 0.12))
    for tri in (
        [(cx - w, y0), (cx + w, y0), (cx, y0 + h)],
        [(cx - w, y1 - 1), (cx + w, y1 - 1), (cx, y1 - 1 - h)],
        [(x0, cy - w), (x0, cy + w), (x0 + h, cy)],
        [(x1 - 1, cy - w), (x1 - 1, cy + w), (x1 - 1 - h, cy)],
    ):
        draw.polygon(tri, fill=BLACK, outline=WHITE if s >= 24 else None)


def badge(draw: ImageDraw.ImageDraw, box: Box, shown: Badge, s: int) -> None:
    """``badge`` in its corner of ``box`` (or its centre)."""
    text, where, ink, back = shown.text, shown.corner, shown.ink, shown.back
    x0, y0, x1, y1 = box
    d = max(9, round(s * 0.36))
    if where == "top-right":
        bx, by = x1 - d, y0
    elif where == "top-left":
        bx, by = x0, y0
    elif where == "bottom-right":
        bx, by = x1 - d, y1 - d
    elif where == "bottom-left":
        bx, by = x0, y1 - d
    else:
        bx, by = (x0 + x1 - d) // 2, (y0 + y1 - d) // 2
    draw.ellipse((bx, by, bx + d - 1, by + d - 1), fill=back, outline=contrast_edge(back))
    size = max(7, round(d * (0.8 if len(text) == 1 else 0.55)))
    centred_text(draw, text, size, (bx + d / 2, by + d / 2), ink)


def arrow(draw: ImageDraw.ImageDraw, a: Box, b: Box, colour, s: int) -> None:
    """From the middle of the origin square to the edge of the target square: the piece that
    arrived stays uncovered."""
    ax, ay = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2
    bx, by = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
    length = math.hypot(bx - ax, by - ay)
    if length < 1:
        return
    ux, uy = (bx - ax) / length, (by - ay) / length
    # the tip stops where the line enters the target square
    reach = 0.5 * s / max(abs(ux), abs(uy))
    tip_x, tip_y = bx - ux * reach, by - uy * reach
    width = max(2, round(s * 0.13))
    head = max(6.0, s * 0.36)
    base_x, base_y = tip_x - ux * head, tip_y - uy * head
    if math.hypot(base_x - ax, base_y - ay) > 1 and (base_x - ax) * ux + (base_y - ay) * uy > 0:
        draw.line((ax, ay, base_x, base_y), fill=colour, width=width)
    px, py = -uy, ux
    draw.polygon([(tip_x, tip_y), (base_x + px * head * 0.5, base_y + py * head * 0.5),
                  (base_x - px * head * 0.5, base_y - py * head * 0.5)], fill=colour)


def cross(draw: ImageDraw.ImageDraw, box: Box, s: int) -> None:
    """A capture: a red cross in the target square's top-left corner."""
    d = max(6, round(s * 0.28))
    x0, y0 = box[0] + 1, box[1] + 1
    w = max(2, s // 14)
    draw.line((x0, y0, x0 + d, y0 + d), fill=CROSS, width=w)
    draw.line((x0, y0 + d, x0 + d, y0), fill=CROSS, width=w)


def star(draw: ImageDraw.ImageDraw, box: Box, size: int) -> None:
    """King of the Hill's square: a pale gold star."""
    draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "\u2605", font=font(size), fill=STAR, anchor="mm")
