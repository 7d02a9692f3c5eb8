"""Shapes more than one painter draws the same way (the piece sheet's rides, the territory's arrows)."""

from __future__ import annotations

import math

from PIL import ImageDraw

__all__ = ["arrowhead"]


def arrowhead(draw: ImageDraw.ImageDraw, tip: tuple[float, float], direction: tuple[float, float], size: float,
              fill) -> None:
    """A filled triangle ``size`` long pointing along ``direction`` with its point at ``tip``."""
    ux, uy = direction
    norm = math.hypot(ux, uy) or 1.0
    ux, uy = ux / norm, uy / norm
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    px, py = -uy * size * 0.55, ux * size * 0.55
    draw.polygon([tip, (bx + px, by + py), (bx - px, by - py)], fill=fill)
