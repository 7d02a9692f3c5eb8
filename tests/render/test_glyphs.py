"""Issue 25: text composed from cached glyphs (bot/render/glyphs.py) is the text Pillow draws, pixel for pixel.

Every pair of the characters it composes (the kerning of each pair), in both faces and at the
sizes the pictures use, long random texts, and the texts it leaves to Pillow (ligatures, other
scripts, a fractional position) all give the picture ``ImageDraw.text`` gives.
"""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from bot.render.paint import glyphs
from bot.render.paint.glyphs import LIGATURES, SIMPLE, draw_text
from bot.render.paint.sprites import bold_font, font

BACKGROUND = (250, 248, 244)
INK = (20, 20, 24)
CHARS = sorted(SIMPLE)


def both(text: str, face, xy=(7, 9)) -> tuple[bytes, bytes]:
    """The picture of ``text`` drawn by Pillow and by draw_text."""
    width = int(face.getlength(text)) + 40
    theirs = Image.new("RGB", (width, face.size * 3), BACKGROUND)
    ours = theirs.copy()
    ImageDraw.Draw(theirs).text(xy, text, font=face, fill=INK)
    draw_text(ImageDraw.Draw(ours), xy, text, face, INK)
    return theirs.tobytes(), ours.tobytes()


def every_pair(first: str) -> str:
    """``first`` before and after every character (no ligature): each pair of the two, once."""
    return "".join(first + other for other in CHARS
                   if not any(pair in first + other + first for pair in LIGATURES))


@pytest.mark.parametrize("face", [font(10), bold_font(10), font(20)], ids=["regular 10", "bold 10", "regular 20"])
def test_every_pair_of_characters_is_drawn_as_pillow_draws_it(face, monkeypatch):
    texts = [every_pair(first) for first in CHARS]
    drawn_by_pillow = []
    real = ImageDraw.ImageDraw.text
    monkeypatch.setattr(ImageDraw.ImageDraw, "text",
                        lambda self, xy, text, **kw: (drawn_by_pillow.append(text), real(self, xy, text, **kw)))
    for text in texts:
        theirs, ours = both(text, face)
        assert ours == theirs, text[:40]
    # the reference pictures above called Pillow once each; draw_text never did
    assert len(drawn_by_pillow) == len(texts)


@pytest.mark.parametrize("size", [8, 13, 17, 26])
def test_random_texts_are_drawn_as_pillow_draws_them(size):
    rng = random.Random(size)
    for face in (font(size), bold_font(size)):
        for _ in range(60):
            text = "".join(rng.choice(CHARS) for _ in range(rng.randint(1, 50)))
            theirs, ours = both(text, face)
            assert ours == theirs, text


@pytest.mark.parametrize("text", ["fi", "office", "waffle", "flag", "Ünïcödé ✨", "دائرة", "e\u0301", "💖 12",
                                  "two\nlines", "", "   "])
def test_texts_left_to_pillow_are_drawn_by_it(text):
    for face in (font(10), bold_font(20)):
        theirs, ours = both(text, face)
        assert ours == theirs


def test_a_fractional_position_is_left_to_pillow():
    face = font(12)
    theirs = Image.new("RGB", (200, 40), BACKGROUND)
    ours = theirs.copy()
    ImageDraw.Draw(theirs).text((7.6, 9.3), "Player 12", font=face, fill=INK)
    draw_text(ImageDraw.Draw(ours), (7.6, 9.3), "Player 12", face, INK)
    assert ours.tobytes() == theirs.tobytes()


def test_glyphs_are_rasterized_once_per_face():
    face = font(31)
    image = Image.new("RGB", (400, 60), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for text in ("abc", "cab", "bca abc"):
        draw_text(draw, (3, 3), text, face, INK)
    assert set(glyphs._face(face).glyphs) == {"a", "b", "c", " "}
