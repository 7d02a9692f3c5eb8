"""Issue 25: a text's length summed from the kept glyphs (bot/render/glyphs.py ``text_length``) is
the number ``getlength`` gives by shaping the text again, whatever was measured or drawn before; the
health board's widths (``healthboard._width``) are its rounding."""

from __future__ import annotations

import random

import pytest

from bot.render.paint import glyphs
from bot.render.paint import health as healthboard
from bot.render.paint.glyphs import SIMPLE, text_length
from bot.render.paint.sprites import bold_font, font

CHARS = sorted(SIMPLE)


def health_lines(count: int, seed: int) -> list[str]:
    """Texts of a health board's rows: ranks, names, colours, scores, balances, notes."""
    rng = random.Random(seed)
    colours = ["Blue", "Coral", "Mint", "Fuchsia", "Orange", "Maroon", "Lime", "Plum", "Teal", "Amber"]
    out = []
    for rank in rng.sample(range(1, 1200), count):
        name = f"P{rng.randrange(10000):04d}"
        colour = f"{rng.choice(colours)}/{rng.choice(colours)}"
        score, health = rng.randrange(2000), rng.randrange(-5, 120)
        out += [f"{rank}. {name}", f" ({colour}): {score} --- Health: {health} ", f"+{rng.randrange(1, 4)}",
                f"{rank}. {name} ({colour}): {score} --- No King", str(score), f"{health}.5"]
    return out


def random_texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(CHARS) for _ in range(rng.randint(1, 30))) for _ in range(count)]


@pytest.mark.parametrize("make, size", [(font, 8), (font, 13), (font, 20), (bold_font, 10), (bold_font, 13),
                                        (bold_font, 20)])
def test_a_texts_length_is_the_one_pillow_shapes(make, size):
    face = make(size)
    for text in health_lines(150, size) + random_texts(150, size):
        assert text_length(face, text) == face.getlength(text), text
        assert text_length(face, text) == face.getlength(text), text      # its glyphs and pairs known


def test_texts_pillow_shapes_itself_are_measured_by_pillow():
    """Ligatures, symbols, other scripts, combining marks and the empty text: ``getlength``'s number."""
    face = font(17)
    for text in ("", "office", "fly", "Health: 49 💖", "❤️ 3", "⚡ 10", "Zoë", "e\u0301", "שלום", "日本",
                 "soft\u00adhyphen", "🏆 Bob wins"):
        assert text_length(face, text) == face.getlength(text), text


def test_lengths_stay_right_after_other_faces_and_texts_were_met():
    """Glyphs and pairs learnt in one face are not read for another; a face met again is measured
    as Pillow measures it."""
    texts = health_lines(40, 3)
    faces = [font(13), bold_font(13), font(14), font(13)]
    for face in faces:
        for text in texts:
            assert text_length(face, text) == face.getlength(text), (face.size, text)
    glyphs._face.cache_clear()
    for text in reversed(texts):
        assert text_length(bold_font(13), text) == bold_font(13).getlength(text), text


def test_the_health_boards_widths_round_pillows_length():
    healthboard._width.cache_clear()
    for text in health_lines(60, 11):
        for size, bold in ((20, False), (20, True), (9, True), (12, False)):
            face = bold_font(size) if bold else font(size)
            assert healthboard._width(text, size, bold) == round(face.getlength(text)), (text, size, bold)
