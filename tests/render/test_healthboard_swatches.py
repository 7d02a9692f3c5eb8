"""Issue 25: the health board's swatches are drawn once per colour and size and pasted: the pixels of
the swatch drawn in place (bot/render/paint/health.py)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from bot.render.paint import health as healthboard
from bot.render.palette import player_rgb

GROUND = (238, 234, 226)


@pytest.mark.parametrize("colour", ["Red", "Green/Gold", "Crimson/Yellow", "Navy", "Lime/Amber", "White"])
@pytest.mark.parametrize("palette", ["default", "colourblind"])
def test_a_pasted_swatch_is_the_swatch_drawn_in_place(colour, palette):
    tones = player_rgb(colour, palette)
    for size in (8, 11, 28, 9):                       # other sizes made in between, then one again
        for box in ((5, 7, 5 + size, 7 + size), (-3, 40 - size // 2, size - 3, 40 + size - size // 2),
                    (60 - size // 2, 2, 60 + size - size // 2, 2 + size)):     # inside, and over the edges
            drawn = Image.new("RGB", (60, 48), GROUND)
            pasted = drawn.copy()
            healthboard._paint_swatch(ImageDraw.Draw(drawn), box, tones)
            healthboard._draw_swatch(pasted, box, tones)
            assert pasted.tobytes() == drawn.tobytes(), (colour, size, box)
