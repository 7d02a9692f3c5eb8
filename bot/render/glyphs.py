"""Text drawn from glyphs rasterized once: the pixels ``ImageDraw.text`` draws, at a fraction of its cost.

``ImageDraw.text`` shapes its string and has FreeType rasterize every glyph of it twice (once to
measure, once to draw), every call: a health board of 1,000 rows spent about 0.3 s there on 2,000
distinct texts (issue 25). :func:`draw_text` keeps each character's bitmap per font, as FreeType
draws it (hinted, so the same at any pen position), and lays a string out the way Pillow's own
renderer does:

- the pen advances in 1/64 pixel by each character's advance plus the kerning of each pair
  (``getlength`` of the pair less those of its two characters), and a glyph's bitmap is placed at
  the pen position rounded to the pixel, plus its bearing;
- Pillow combines overlapping glyphs into one coverage (``b + a * (255 - b) / 255``, rounded:
  pasting full ink through the glyph's coverage computes exactly that), then blends the ink through
  it onto the picture in one call.

Blending a glyph's coverage leaves every pixel where it is zero as it was, so a glyph whose box
overlaps no other glyph's is blended onto the picture straight from its bitmap: the same pixels as
through the whole text's coverage, without making that coverage. Glyphs whose boxes overlap (``er``,
``--``, a kerned ``Te``) are combined first, as Pillow combines them, and that small coverage is
kept per font by the characters and their offsets, since the same pairs meet again and again. A
glyph reaching back over an earlier group of glyphs (never seen in DejaVu Sans) has the whole text
combined first, as Pillow does. The health board's 2,000 texts of 1,000 rows: 28-30 ms instead of
37-41 ms when the whole coverage of each text was made.

Only texts whose shaping is that simple are drawn so: characters of :data:`SIMPLE` (printable
ASCII, Latin-1 but the soft hyphen, a few punctuation marks: no combining marks, nothing right to
left, nothing the shaper hides), without the ligatures DejaVu forms (``ff``, ``fi``, ``fl``), on
whole-pixel positions with the default anchor, in a colour given as a tuple, a number or a name,
on a picture without a palette. Anything else goes to ``ImageDraw.text`` itself. Either way the
pixels are the ones ``ImageDraw.text`` draws (tests/render/test_glyphs.py compares every pair of
those characters, both faces).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate
from operator import add

from PIL import Image, ImageColor, ImageDraw, ImageFont

__all__ = ["draw_text", "text_length", "SIMPLE"]

#: the characters composed from cached glyphs (any other character: the text is drawn by Pillow)
SIMPLE = frozenset([chr(c) for c in range(0x20, 0x7F)] + [chr(c) for c in range(0xA0, 0x100) if c != 0xAD]
                   + list("–—…✗‘’“”"))
#: pairs DejaVu Sans replaces by one glyph (a text holding one is drawn by Pillow)
LIGATURES = ("ff", "fi", "fl")
#: groups of overlapping glyphs kept per font (a few hundred in a board of 1,000 rows; past this
#: many the kept ones are let go and made again as they are met)
MAX_GROUPS = 4096


class _Face:
    """One font's glyphs, the pen's steps between them and the groups of overlapping glyphs,
    filled as characters, pairs and groups are first met."""

    __slots__ = ("font", "glyphs", "steps", "groups")

    def __init__(self, font: ImageFont.FreeTypeFont) -> None:
        self.font = font
        #: character -> (coverage, or None for a blank; x, y of its box from the pen; width, height;
        #: advance in 1/64 px; the character)
        self.glyphs: dict[str, tuple] = {}
        #: two characters -> how far the pen moves from the first to the second, in 1/64 px: the
        #: first's advance plus the pair's kerning (the pair's length less the second's advance)
        self.steps: dict[str, int] = {}
        #: ((character, x from the first's), ...) -> (the group's combined coverage, where its box
        #: begins from the first glyph's x, its top)
        self.groups: dict[tuple, tuple] = {}

    def learn(self, text: str) -> None:
        """Rasterize and measure what ``text`` needs that is not known yet."""
        for char in text:
            if char not in self.glyphs:
                mask, (x, y) = self.font.getmask2(char, "L")
                width, height = mask.size
                self.glyphs[char] = (mask if width and height else None, x, y, width, height,
                                     round(self.font.getlength(char) * 64), char)
        for pair in map(add, text, text[1:]):
            if pair not in self.steps:
                self.steps[pair] = round(self.font.getlength(pair) * 64) - self.glyphs[pair[1]][5]


@lru_cache(maxsize=128)
def _face(font: ImageFont.FreeTypeFont) -> _Face:
    return _Face(font)


def _simple(text: str) -> bool:
    return SIMPLE.issuperset(text) and not ("f" in text and any(pair in text for pair in LIGATURES))


def _combined(placed: list[tuple]) -> tuple:
    """The coverage of glyphs ``placed`` (each ``(glyph, x)``) combined as Pillow combines them, and
    where its box begins."""
    left = min([x for _, x in placed])
    top = min([g[2] for g, _ in placed])
    out = Image.new("L", (max([x + g[3] for g, x in placed]) - left, max([g[2] + g[4] for g, _ in placed]) - top), 0)
    core = out.im
    for (mask, _, y, width, height, _, _), x in placed:
        x -= left
        y -= top
        core.paste(255, (x, y, x + width, y + height), mask)
    return core, left, top


def _group(face: _Face, placed: list[tuple]) -> tuple:
    """Overlapping glyphs' combined coverage (kept: the same characters at the same offsets give the
    same coverage) and where its box begins."""
    left = placed[0][1]
    key = tuple([(g[6], x - left) for g, x in placed])
    found = face.groups.get(key)
    if found is None:
        if len(face.groups) >= MAX_GROUPS:
            face.groups.clear()
        core, left_of_box, top = _combined([(g, x - left) for g, x in placed])
        found = face.groups[key] = (core, left_of_box, top)
    return found[0], left + found[1], found[2]


def _pieces(face: _Face, text: str) -> list[tuple]:
    """What to blend for ``text``: (coverage, x, y from the drawing position) of each glyph, or
    group of glyphs whose boxes overlap, no two of them overlapping; the whole text combined when a
    glyph reaches back over an earlier group."""
    glyphs, steps = face.glyphs, face.steps
    try:
        pens = list(accumulate(map(steps.__getitem__, map(add, text, text[1:])), initial=0))
        found = list(map(glyphs.__getitem__, text))
    except KeyError:
        face.learn(text)
        return _pieces(face, text)
    pieces = []
    group = None                 # the glyphs of the current piece, when more than one
    first = None
    left = right = -(1 << 30)    # the current piece's left, and the furthest right of every glyph so far
    for glyph, pen in zip(found, pens):
        mask = glyph[0]
        if mask is None:
            continue
        x = ((pen + 32) >> 6) + glyph[1]
        if x >= right:
            if group is not None:
                pieces[-1] = _group(face, group)
                group = None
            first = (glyph, x)
            pieces.append((mask, x, glyph[2]))
            left = x
            right = x + glyph[3]
        elif x >= left:
            if group is None:
                group = [first]
            group.append((glyph, x))
            if x + glyph[3] > right:
                right = x + glyph[3]
        else:
            return [_combined([(g, ((pen + 32) >> 6) + g[1]) for g, pen in zip(found, pens) if g[0] is not None])]
    if group is not None:
        pieces[-1] = _group(face, group)
    return pieces


def text_length(font: ImageFont.FreeTypeFont, text: str) -> float:
    """``font.getlength(text)``, the same number: for a simple text (see the module) the pen's steps
    between its characters and the last one's advance, in 1/64 pixel, summed from the kept glyphs
    instead of shaping the text again (about 2 us instead of 20 us for a row of the health board,
    whose 1,000 lines change at every update)."""
    if not text or not isinstance(font, ImageFont.FreeTypeFont) or not _simple(text):
        return font.getlength(text)
    face = _face(font)
    try:
        last = face.glyphs[text[-1]][5]
        return (sum(map(face.steps.__getitem__, map(add, text, text[1:]))) + last) / 64
    except KeyError:
        face.learn(text)
        return text_length(font, text)


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, font: ImageFont.FreeTypeFont,
              fill) -> None:
    """``draw.text(xy, text, font=font, fill=fill)``: the same pixels; a simple text (see the
    module) composed from cached glyphs."""
    x, y = xy
    if (type(x) is not int or type(y) is not int or draw.fontmode != "L" or draw.palette is not None
            or fill is None or not isinstance(font, ImageFont.FreeTypeFont) or not _simple(text)):
        draw.text(xy, text, font=font, fill=fill)
        return
    core = draw.draw
    ink = core.draw_ink(ImageColor.getcolor(fill, draw.mode) if isinstance(fill, str) else fill)
    bitmap = core.draw_bitmap
    for mask, dx, dy in _pieces(_face(font), text):
        bitmap((x + dx, y + dy), mask, ink)
