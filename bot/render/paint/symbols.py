"""The health board's symbols drawn as pictures, since DejaVu Sans has none of them in colour: a
pink heart with sparkles for ``💖`` (a player with a king), a plain red heart for ``❤️``, the energy
bolt for ``⚡`` and a gold cup for ``🏆`` (a winner). Which symbol stands where is the scene's
(:data:`bot.render.scene.health.SYMBOLS`); this module only draws them.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

__all__ = ["draw_heart", "draw_trophy", "draw_bolt", "draw_symbol", "HEART_RGB", "SPARKLE_HEART_RGB"]

Box = tuple[int, int, int, int]

HEART_RGB = (220, 20, 50)
SPARKLE_HEART_RGB = (236, 64, 150)
SPARKLE_RGB = (255, 196, 40)
BOLT_RGB = (245, 180, 0)
TROPHY_RGB = (240, 180, 20)


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


def draw_symbol(image: Image.Image, symbol: str, box: Box) -> None:
    """Draw a balance symbol into ``box``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    small = _symbol_image(symbol, w, h)
    x, y = x0 - (w // 4 + 1), y0 - (h // 4 + 1)
    image.im.paste(small.im, (x, y, x + small.width, y + small.height), small.im)   # Image.paste's own call
