"""Issue 25: a text blended word by word, each word's coverage kept, gives the pixels of one coverage
for the whole text (bot/render/glyphs.py).

The plain path, written out here as glyphs.py drew before: every glyph of the text combined into
one coverage, then the ink blended through it once. Each word's glyphs are combined once and kept
by the word and the pen's fraction of a pixel where it begins; whatever was drawn before (the same
words at other offsets, other faces, a full store of words let go) the picture is the one the
plain path and ``ImageDraw.text`` give.
"""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from bot.render.paint import glyphs
from bot.render.paint.glyphs import LIGATURES, SIMPLE, draw_text
from bot.render.paint.sprites import bold_font, font

BACKGROUND = (238, 234, 226)
INK = (180, 20, 30)
CHARS = sorted(SIMPLE)


def plain(face, text: str, xy=(6, 8)) -> bytes:
    """``text`` drawn the plain way: one coverage of every glyph, blended once."""
    state = glyphs._face(face)
    state.learn(text)
    placed, pen, previous = [], 0, None
    for char in text:
        if previous is not None:
            pen += state.steps[previous + char]
        mask, x, y, width, height, _, _ = state.glyphs[char]
        if mask is not None:
            placed.append((mask, ((pen + 32) >> 6) + x, y, width, height))
        previous = char
    image = Image.new("RGB", (int(face.getlength(text)) + 40, face.size * 3), BACKGROUND)
    if placed:
        left, top = min(p[1] for p in placed), min(p[2] for p in placed)
        out = Image.new("L", (max(p[1] + p[3] for p in placed) - left, max(p[2] + p[4] for p in placed) - top), 0)
        for mask, x, y, width, height in placed:
            out.im.paste(255, (x - left, y - top, x - left + width, y - top + height), mask)
        ImageDraw.Draw(image).bitmap((xy[0] + left, xy[1] + top), out, fill=INK)
    return image.tobytes()


def drawn(face, text: str, xy=(6, 8), by=draw_text) -> bytes:
    image = Image.new("RGB", (int(face.getlength(text)) + 40, face.size * 3), BACKGROUND)
    if by is draw_text:
        draw_text(ImageDraw.Draw(image), xy, text, face, INK)
    else:
        ImageDraw.Draw(image).text(xy, text, font=face, fill=INK)
    return image.tobytes()


def texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        text = "".join(rng.choice(CHARS) for _ in range(rng.randint(1, 40)))
        if not any(pair in text for pair in LIGATURES):
            out.append(text)
    return out


@pytest.mark.parametrize("make, size", [(font, 9), (font, 20), (bold_font, 13), (bold_font, 20)])
def test_random_texts_match_the_plain_path_and_pillow(make, size):
    face = make(size)
    for text in texts(size, 80):
        assert drawn(face, text) == plain(face, text), text
    for text in texts(size + 1, 10):
        assert drawn(face, text) == drawn(face, text, by=None), text


def test_kept_words_give_the_same_pixels_at_other_offsets_faces_and_after_being_let_go(monkeypatch):
    """The same words (with overlapping pairs: ``er``, ``--``, ``Te``) met again after prefixes that
    leave the pen at other fractions of a pixel, in another face, and after the store of words was
    partly let go: the plain path's pixels each time."""
    monkeypatch.setattr(glyphs, "MAX_WORDS", 8)
    words = ["Player", "---", "Ter", "er--Te", " Teller", "x--xTe", "Player0001 --- Health", "(Blue/Coral):"]
    for face in (font(20), bold_font(20), font(13)):
        for prefix in ("", "i", "ii", "W", "1.5 ", "12. ", "123. "):         # other fractions of the same words
            for word in words:
                text = prefix + word
                assert drawn(face, text) == plain(face, text), (face.size, text)
                assert drawn(face, text) == plain(face, text), (face.size, text)     # the words kept
    kept = glyphs._face(font(13)).words
    assert 0 < len(kept) <= 8


def test_a_word_at_a_fraction_is_kept_once_and_drawn_the_same_wherever_it_stands():
    """A name after ranks of the same number of digits begins at the same fraction of a pixel: its
    coverage is made once, and blended at each place gives the plain path's pixels."""
    face = bold_font(20)
    state = glyphs._face(face)
    texts = [f"{rank}. Player0042" for rank in (101, 245, 999, 100, 512)]
    for text in texts:
        for xy in ((6, 8), (11, 3)):
            assert drawn(face, text, xy) == plain(face, text, xy), (text, xy)
    assert len([key for key in state.words if key[0] == "Player0042"]) == 1


def test_a_glyph_reaching_back_over_an_earlier_one_is_drawn_as_the_plain_path_draws_it(monkeypatch):
    """No glyph of DejaVu Sans reaches back over the word before it; one made to (a bearing far to
    the left) has its word, or the whole text, combined as the plain path does."""
    face = font(20)
    state = glyphs._face(face)
    state.learn("abc|")
    real = dict(state.glyphs)
    mask, x, y, width, height, advance, char = real["|"]
    monkeypatch.setitem(state.glyphs, "|", (mask, x - 25, y, width, height, advance, char))
    state.words.clear()
    for text in ("abc|", "ab|c", "a|", "|abc", "abc abc|", "abc |", "abc | abc", "ab  |c"):
        assert drawn(face, text) == plain(face, text), text


@pytest.mark.parametrize("fill", [(180, 20, 30), "#b4141e", "red"])
def test_a_colour_named_or_as_a_tuple_is_the_ink_pillow_uses(fill):
    face = font(17)
    theirs = Image.new("RGBA", (200, 50), BACKGROUND + (255,))
    ours = theirs.copy()
    ImageDraw.Draw(theirs).text((4, 5), "Health: 49 --- Teller", font=face, fill=fill)
    draw_text(ImageDraw.Draw(ours), (4, 5), "Health: 49 --- Teller", face, fill)
    assert ours.tobytes() == theirs.tobytes()
