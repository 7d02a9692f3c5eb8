"""Issue 25: a text's box and coverage worked out from the kept glyphs (bot/render/paint/glyphs.py
``text_box``, ``text_mask``) are the ones Pillow gives by shaping and rasterizing the text again
(``getbbox``, ``getmask2``), whatever the face met before, and the overview's sizes of its labels
(``paint.text.mask_size``) are those of the masks it draws."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from bot.render.paint import glyphs
from bot.render.paint import text as board_text
from bot.render.board import viewport_name
from bot.render.paint.glyphs import LIGATURES, SIMPLE, text_box, text_mask
from bot.render.paint.sprites import bold_font, font

CHARS = sorted(SIMPLE)


def overview_labels(count: int, seed: int) -> list[str]:
    """Viewport names and coordinate ranges, as an overview writes them."""
    rng = random.Random(seed)
    return ([viewport_name(rng.randrange(900), rng.randrange(300)) for _ in range(count)]
            + [f"{rng.randint(-99_999, 99_999)}..{rng.randint(-99_999, 99_999)}" for _ in range(count)])


def random_texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(CHARS) for _ in range(rng.randint(1, 30))) for _ in range(count)]


def pillow_mask(face, text: str) -> tuple[bytes, tuple[int, int], tuple[int, int]]:
    core, offset = face.getmask2(text, "L")
    return bytes(core), core.size, offset


@pytest.fixture(autouse=True)
def fresh_faces():
    """Each test starts from faces that know nothing (and leaves none half-learnt to the next)."""
    glyphs._face.cache_clear()
    yield
    glyphs._face.cache_clear()


@pytest.mark.parametrize("make, size", [(font, 8), (font, 11), (bold_font, 11), (bold_font, 12), (bold_font, 13),
                                        (font, 20), (bold_font, 26)])
def test_every_pair_of_characters_has_the_box_pillow_gives(make, size):
    face = make(size)
    for first in CHARS:
        for other in CHARS:
            text = first + other
            if not any(pair in text for pair in LIGATURES):
                assert text_box(face, text) == face.getbbox(text), text


@pytest.mark.parametrize("make, size", [(font, 11), (bold_font, 11), (bold_font, 12), (bold_font, 13), (font, 17)])
def test_labels_and_random_texts_have_the_box_pillow_gives_in_any_order(make, size):
    face = make(size)
    texts = overview_labels(300, size) + random_texts(300, size)
    expected = {text: face.getbbox(text) for text in texts}
    for text in texts:
        assert text_box(face, text) == expected[text], text
    # what the face learnt from those, asked again and in another order, and by a face that
    # learns them in that other order
    for text in reversed(texts):
        assert text_box(face, text) == expected[text], text
    glyphs._face.cache_clear()
    for text in reversed(texts):
        assert text_box(face, text) == expected[text], text


def test_a_text_whose_right_edge_cannot_be_told_from_its_glyphs_is_measured_by_pillow(monkeypatch):
    """Where a glyph's own box hides how far it reaches (its advance's line reaches as far) and
    nothing could be learnt of it, Pillow measures the text; the result is the same."""
    face = font(13)
    texts = overview_labels(200, 4) + random_texts(200, 4)
    monkeypatch.setattr(glyphs, "_learn_reach",
                        lambda face, char: face.reaches.__setitem__(char, (*face.reaches[char][:2], True)))
    measured = []
    real = type(face).getbbox
    monkeypatch.setattr(type(face), "getbbox", lambda self, text, *a, **k: (measured.append(text),
                                                                           real(self, text, *a, **k))[1])
    for text in texts:
        assert text_box(face, text) == real(face, text), text
    assert 0 < len(measured) < len(texts)


@pytest.mark.parametrize("text", ["", " ", "   ", "fi", "office", "Zoë 🙂", "名前", "e\u0301", "two\nlines", "💖 12"])
def test_texts_left_to_pillow_have_its_box_and_mask(text):
    for face in (font(11), bold_font(20)):
        assert text_box(face, text) == face.getbbox(text)
        if text.strip() and "\n" not in text:       # (Pillow draws lines of text one by one)
            mask, left, top = text_mask(face, text)
            data, size, offset = pillow_mask(face, text)
            assert (mask.tobytes(), mask.size, (left, top)) == (data, size, offset)


@pytest.mark.parametrize("make, size", [(font, 8), (font, 11), (bold_font, 11), (bold_font, 12), (bold_font, 17)])
def test_a_text_s_mask_is_the_coverage_pillow_rasterizes(make, size):
    face = make(size)
    texts = overview_labels(150, size) + random_texts(150, size) + ["+", "-0", "WW", "Ag", "A B", ".", "j", "0..0"]
    for attempt in range(2):            # glyphs first met, then known
        for text in texts:
            mask, left, top = text_mask(face, text)
            data, size_, offset = pillow_mask(face, text)
            assert (mask.tobytes(), mask.size, (left, top)) == (data, size_, offset), (text, attempt)


def test_a_text_s_mask_with_its_box_given_is_the_same():
    face = bold_font(12)
    for text in overview_labels(50, 9):
        given, _, _ = text_mask(face, text, face.getbbox(text))
        assert given.tobytes() == Image.Image.tobytes(text_mask(face, text)[0])


def test_the_overview_s_label_sizes_are_those_of_the_masks_it_draws():
    for text in overview_labels(100, 2) + ["A1", "ZZ999", "0..0", "-1..-1"]:
        for size, bold in ((11, False), (11, True), (12, True), (13, True)):
            assert board_text.mask_size(text, size, bold) == board_text.mask_of.__wrapped__(text, size, bold).size, text
