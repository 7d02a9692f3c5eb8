"""Text drawn from glyphs rasterized once: the pixels ``ImageDraw.text`` draws, at a fraction of its cost.

``ImageDraw.text`` shapes its string and has FreeType rasterize every glyph of it twice (once to
measure, once to draw), every call: a health board of 1,000 rows spent about 0.3 s there on 2,000
distinct texts (issue 25). :func:`draw_text` keeps each character's bitmap per font, as FreeType
draws it (hinted, so the same at any pen position), and composes a string from them the way
Pillow's own renderer does:

- the pen advances in 1/64 pixel by each character's advance plus the kerning of each pair
  (``getlength`` of the pair less those of its two characters), and a glyph's bitmap is placed at
  the pen position rounded to the pixel, plus its bearing;
- overlapping glyphs are combined as Pillow combines them (``b + a * (255 - b) / 255``, rounded:
  pasting full ink through the glyph's coverage computes exactly that);
- the whole text's coverage is then blended onto the picture in one call, as ``ImageDraw.text`` does.

Only texts whose shaping is that simple are drawn so: characters of :data:`SIMPLE` (printable
ASCII, Latin-1 but the soft hyphen, a few punctuation marks: no combining marks, nothing right to
left, nothing the shaper hides), without the ligatures DejaVu forms (``ff``, ``fi``, ``fl``), on
whole-pixel positions with the default anchor. Anything else goes to ``ImageDraw.text`` itself. Either way the pixels are the ones ``ImageDraw.text``
draws (tests/render/test_glyphs.py compares every pair of those characters, both faces).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

__all__ = ["draw_text", "SIMPLE"]

#: the characters composed from cached glyphs (any other character: the text is drawn by Pillow)
SIMPLE = frozenset([chr(c) for c in range(0x20, 0x7F)] + [chr(c) for c in range(0xA0, 0x100) if c != 0xAD]
                   + list("–—…✗‘’“”"))
#: pairs DejaVu Sans replaces by one glyph (a text holding one is drawn by Pillow)
LIGATURES = ("ff", "fi", "fl")


class _Face:
    """One font's glyphs and kerning, filled as characters and pairs are first met."""

    __slots__ = ("font", "glyphs", "kerning")

    def __init__(self, font: ImageFont.FreeTypeFont) -> None:
        self.font = font
        #: character -> (coverage, x, y of its box from the pen, width, height, advance in 1/64 px)
        self.glyphs: dict[str, tuple] = {}
        #: two characters -> the kerning between them, in 1/64 px
        self.kerning: dict[str, int] = {}

    def glyph(self, char: str) -> tuple:
        found = self.glyphs.get(char)
        if found is None:
            mask, (x, y) = self.font.getmask2(char, "L")
            width, height = mask.size
            found = self.glyphs[char] = (mask, x, y, width, height, round(self.font.getlength(char) * 64))
        return found

    def kern(self, pair: str) -> int:
        found = self.kerning.get(pair)
        if found is None:
            found = self.kerning[pair] = (round(self.font.getlength(pair) * 64) - self.glyph(pair[0])[5]
                                          - self.glyph(pair[1])[5])
        return found


@lru_cache(maxsize=128)
def _face(font: ImageFont.FreeTypeFont) -> _Face:
    return _Face(font)


def _simple(text: str) -> bool:
    return SIMPLE.issuperset(text) and not ("f" in text and any(pair in text for pair in LIGATURES))


def _coverage(face: _Face, text: str) -> tuple[Image.Image, int, int] | None:
    """``text``'s coverage and where its box begins from the drawing position, or None (nothing
    to draw: blanks)."""
    glyph, kern = face.glyph, face.kern
    pen = 0
    placed = []
    previous = None
    for char in text:
        if previous is not None:
            pen += kern(previous + char)
        mask, x, y, width, height, advance = glyph(char)
        if width and height:
            placed.append((mask, ((pen + 32) >> 6) + x, y, width, height))
        pen += advance
        previous = char
    if not placed:
        return None
    left = min(p[1] for p in placed)
    top = min(p[2] for p in placed)
    out = Image.new("L", (max(p[1] + p[3] for p in placed) - left, max(p[2] + p[4] for p in placed) - top), 0)
    core = out.im
    for mask, x, y, width, height in placed:
        x -= left
        y -= top
        core.paste(255, (x, y, x + width, y + height), mask)
    return out, left, top


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, font: ImageFont.FreeTypeFont,
              fill) -> None:
    """``draw.text(xy, text, font=font, fill=fill)``: the same pixels; a simple text (see the
    module) composed from cached glyphs."""
    x, y = xy
    if (type(x) is not int or type(y) is not int or draw.fontmode != "L"
            or not isinstance(font, ImageFont.FreeTypeFont) or not _simple(text)):
        draw.text(xy, text, font=font, fill=fill)
        return
    found = _coverage(_face(font), text)
    if found is not None:
        mask, left, top = found
        draw.bitmap((x + left, y + top), mask, fill=fill)
