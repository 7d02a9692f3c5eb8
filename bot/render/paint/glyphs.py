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

Blending a coverage leaves every pixel where it is zero as it was, so the text's coverage can be
blended in parts whose boxes do not overlap: the same pixels as through the whole text's coverage.
The parts are its words (split at spaces): each word's glyphs are combined once, as Pillow combines
them, and that coverage is kept per font by the word and where the pen stands within the pixel it
begins at (in 1/64 pixel: a glyph's place is the pen rounded), since the same words come back from
one picture to the next at the same fractions. The health board's names and colours stand after a
rank of the same number of digits (whose advances are equal), its numbers and headings recur: of
about 7,000 words in a board of 1,000 rows, a later update meets 300-800 it has not drawn before,
and blends one coverage a word instead of one a glyph (37,000 before). A word reaching back over the one
before (never seen in DejaVu Sans) has the whole text combined first, as Pillow does.

A text's box (``getbbox``: :func:`text_box`) and its coverage in that box (``getmask2``:
:func:`text_mask`, the short labels an overview draws by the thousand) are worked out from the same
kept glyphs and pairs, the box from each character's own box (see :func:`text_box`).

Only texts whose shaping is that simple are drawn so: characters of :data:`SIMPLE` (printable
ASCII, Latin-1 but the soft hyphen, a few punctuation marks: no combining marks, nothing right to
left, nothing the shaper hides), without the ligatures DejaVu forms (``ff``, ``fi``, ``fl``), on
whole-pixel positions with the default anchor, in a colour given as a tuple, a number or a name,
on a picture without a palette. Anything else goes to ``ImageDraw.text`` itself. Either way the
pixels are the ones ``ImageDraw.text`` draws (tests/render/test_glyphs.py compares every pair of
those characters, both faces).

Kept for the budget of the 1,000-player update, under 2 s end to end (issue 38, measured with
``benchmarks/update.py --only 1000``; docs/rendering.md, "Machinery kept for speed"): drawn by
``ImageDraw.text`` instead, that update's health board takes 574 ms of CPU instead of 138 and its
overview 128 instead of 52; the update's render stage took 1.30 s instead of 0.37 and the whole
update 1.90 s instead of 0.92 (medians; its slowest 2.18 s against 1.26), at the 2 s budget with
no room left for a busier minute. Removing it changes no pixel.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate, islice
from operator import add

from PIL import Image, ImageColor, ImageDraw, ImageFont

__all__ = ["draw_text", "text_length", "text_box", "text_mask", "SIMPLE"]

#: the characters composed from cached glyphs (any other character: the text is drawn by Pillow)
SIMPLE = frozenset([chr(c) for c in range(0x20, 0x7F)] + [chr(c) for c in range(0xA0, 0x100) if c != 0xAD]
                   + list("–—…✗‘’“”"))
#: pairs DejaVu Sans replaces by one glyph (a text holding one is drawn by Pillow)
LIGATURES = ("ff", "fi", "fl")
#: words' coverages kept per font (a board of 1,000 rows meets about 2,500 in the face of its rows:
#: names, colours, numbers; past this many the oldest quarter is let go, and made again if met)
MAX_WORDS = 8192


class _Face:
    """One font's glyphs, the pen's steps between them and the coverages of words, filled as
    characters, pairs and words are first met."""

    __slots__ = ("font", "glyphs", "steps", "words", "reaches")

    def __init__(self, font: ImageFont.FreeTypeFont) -> None:
        self.font = font
        #: character -> (coverage, or None for a blank; x, y of its box from the pen; width, height;
        #: advance in 1/64 px; the character)
        self.glyphs: dict[str, tuple] = {}
        #: two characters -> how far the pen moves from the first to the second, in 1/64 px: the
        #: first's advance plus the pair's kerning (the pair's length less the second's advance)
        self.steps: dict[str, int] = {}
        #: (word, where the pen stands within its first pixel, 0 to 63) -> (the word's glyphs'
        #: combined coverage, or None for blanks only; where its box begins from that pixel, x and
        #: y; where it ends, x)
        self.words: dict[tuple[str, int], tuple] = {}
        #: character -> how far right of the pixel its pen stands in the glyph's box reaches (see
        #: :func:`text_box`): (True, that many pixels), or (False, at most that many; and whether
        #: no more can be learnt)
        self.reaches: dict[str, tuple] = {}

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
    # Image.new's own call, without the Image around it (a board's first update makes 5,000)
    core = Image.core.fill("L", (max([x + g[3] for g, x in placed]) - left, max([g[2] + g[4] for g, _ in placed]) - top), 0)
    for (mask, _, y, width, height, _, _), x in placed:
        x -= left
        y -= top
        core.paste(255, (x, y, x + width, y + height), mask)
    return core, left, top


def _word(face: _Face, word: str, fraction: int) -> tuple:
    """``word``'s coverage with the pen ``fraction``/64 into its first pixel (kept: the same
    characters from the same fraction give the same pixels wherever they stand), and where its box
    begins and ends."""
    glyphs = face.glyphs
    pens = accumulate(map(face.steps.__getitem__, map(add, word, word[1:])), initial=fraction)
    placed = [(glyph, ((pen + 32) >> 6) + glyph[1]) for glyph, pen in zip(map(glyphs.__getitem__, word), pens)
              if glyph[0] is not None]
    if not placed:
        found = (None, 0, 0, 0)
    elif len(placed) == 1:
        (glyph, x), = placed
        found = (glyph[0], x, glyph[2], x + glyph[3])
    else:
        core, left, top = _combined(placed)
        found = (core, left, top, max([x + glyph[3] for glyph, x in placed]))
    words = face.words
    if len(words) >= MAX_WORDS:
        # the oldest, to three quarters; pop, not del: a board drawn on another thread (/health
        # while an update renders) may be letting the same words go at the same moment
        for key in list(islice(words, len(words) - MAX_WORDS * 3 // 4)):
            words.pop(key, None)
    words[(word, fraction)] = found
    return found


def _pieces(face: _Face, text: str) -> list[tuple]:
    """What to blend for ``text``: (coverage, x, y from the drawing position) of each word, no two
    of them overlapping; the whole text combined when a word reaches back over the one before."""
    try:
        pens = list(accumulate(map(face.steps.__getitem__, map(add, text, text[1:])), initial=0))
        words = face.words
        pieces = []
        right = -(1 << 30)       # where the words so far end
        at = 0
        for word in text.split(" "):
            if word:
                pen = pens[at]
                found = words.get((word, pen & 63)) or _word(face, word, pen & 63)
                if found[0] is not None:
                    base = pen >> 6
                    x = base + found[1]
                    if x < right:
                        glyphs = face.glyphs
                        return [_combined([(g, ((pen + 32) >> 6) + g[1]) for g, pen in
                                           zip(map(glyphs.__getitem__, text), pens) if g[0] is not None])]
                    pieces.append((found[0], x, found[2]))
                    right = base + found[3]
            at += len(word) + 1
        return pieces
    except KeyError:
        face.learn(text)
        return _pieces(face, text)


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


def text_box(font: ImageFont.FreeTypeFont, text: str) -> tuple[int, int, int, int]:
    """``font.getbbox(text)``, the same four numbers: for a simple text (see the module) worked out
    from the kept glyphs instead of shaping the text and loading each glyph again (about 25 us a
    text: an overview meets hundreds of new viewport names and coordinates at each update).

    Pillow's box is the union of each glyph's box (FreeType's control box in whole pixels, placed at
    the pen rounded to the pixel) and of the pen's line, from 0 to the pen after each glyph, and the
    baseline. A character's own box (kept with its glyph) is that union for the character alone, so
    it gives the glyph's box exactly where the glyph reaches beyond the pen's line (left of 0, above
    or below the baseline, right of its advance); the text's top, bottom and left are the extremes
    of its characters', and its right the furthest of the pen's line and of the glyphs that reach
    beyond their advance. A glyph that may reach beyond the text's right without showing it in its
    own box (its advance's line hides its edge) is measured once (:func:`_learn_reach`); a text
    whose right still depends on it is measured by Pillow."""
    if not text or not isinstance(font, ImageFont.FreeTypeFont) or not _simple(text):
        return font.getbbox(text)
    face = _face(font)
    try:
        return _box(face, text)
    except KeyError:
        face.learn(text)
        return _box(face, text)


def _box(face: _Face, text: str) -> tuple[int, int, int, int]:
    glyphs, reaches = face.glyphs, face.reaches
    pens = list(accumulate(map(face.steps.__getitem__, map(add, text, text[1:])), initial=0))
    placed = list(map(glyphs.__getitem__, text))
    if min(pens) < 0:            # a pen behind the start (no such kerning in our faces): Pillow's own
        return face.font.getbbox(text)
    # the pen's line: from 0 to the furthest the pen gets after a glyph, rounded to the pixel
    right = (max(max(pens), pens[-1] + placed[-1][5]) + 32) >> 6
    left = 0
    unsure = []
    for char, pen, glyph in zip(text, pens, placed):
        pixel = (pen + 32) >> 6
        if pixel + glyph[1] < left:
            left = pixel + glyph[1]
        reach = reaches.get(char) or _reach(face, char)
        if reach[0]:
            if pixel + reach[1] > right:
                right = pixel + reach[1]
        else:
            unsure.append((pixel + reach[1], char, reach[2]))
    for furthest, char, learnt in unsure:
        if furthest > right:             # it might reach past the text's right: learn how far, once
            if learnt:
                return face.font.getbbox(text)
            _learn_reach(face, char)
            return _box(face, text)
    return left, min([glyph[2] for glyph in placed]), right, max([glyph[2] + glyph[4] for glyph in placed])


def _reach(face: _Face, char: str) -> tuple:
    """What ``char``'s own box tells of how far right of its pen's pixel its glyph reaches: exactly,
    where the glyph reaches past its advance's line, else at most that line's end."""
    _, x, _, width, _, advance, _ = face.glyphs[char]
    found = (True, x + width) if x + width > (advance + 32) >> 6 else (False, x + width, False)
    face.reaches[char] = found
    return found


def _learn_reach(face: _Face, char: str) -> None:
    """How far ``char``'s glyph reaches, measured once by Pillow after spaces (whose glyphs are
    blank) that leave the pen where its advance's line ends least far: at most ``advance >> 6``
    pixels from the pen's pixel (the pen ``p`` 1/64 into its pixel, ``(p + 32) % 64 + advance % 64
    < 64``). Past that line, Pillow's box shows exactly where the glyph ends; if it does not, the
    glyph never reaches further than that from its pen's pixel, wherever the pen stands, and so
    never past the pen's own line after it."""
    advance = face.glyphs[char][5]
    face.learn("  " + char)
    space, before = face.steps.get("  "), face.steps.get(" " + char)
    found = (False, face.reaches[char][1], True)        # nothing learnt: such texts measured by Pillow
    if face.glyphs[" "][0] is None and space and space > 0 and before is not None:
        for count in range(64):
            pen = 0 if count == 0 else (count - 1) * space + before
            if pen >= 0 and (pen + 32) % 64 + advance % 64 < 64:
                right = face.font.getbbox(" " * count + char)[2]
                pixel = (pen + 32) >> 6
                found = (True, right - pixel) if right > (pen + advance + 32) >> 6 else (False, advance >> 6, True)
                break
    face.reaches[char] = found


def text_mask(font: ImageFont.FreeTypeFont, text: str,
              box: tuple[int, int, int, int] | None = None) -> tuple[Image.Image, int, int]:
    """``text``'s coverage as Pillow draws it (``font.getmask2(text, "L")``: its box's pixels, the
    glyphs combined as Pillow combines them), as a picture at least 1 x 1, and where its box begins
    from the drawing position (``box``: ``text_box(font, text)``, if known). A simple text (see the
    module) is composed from the kept glyphs in its box, each pasted once: a short label new to the
    picture costs a few microseconds instead of Pillow shaping, measuring and rasterizing it."""
    left, top, right, bottom = box or text_box(font, text)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    if not text or not isinstance(font, ImageFont.FreeTypeFont) or not _simple(text):
        ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255)
        return mask, left, top
    face = _face(font)
    try:
        pens = list(accumulate(map(face.steps.__getitem__, map(add, text, text[1:])), initial=-(left << 6)))
        placed = list(map(face.glyphs.__getitem__, text))
    except KeyError:
        face.learn(text)
        return text_mask(font, text, (left, top, right, bottom))
    core = mask.im
    for (coverage, x, y, width, height, _, _), pen in zip(placed, pens):
        if coverage is not None:
            x += (pen + 32) >> 6
            y -= top
            core.paste(255, (x, y, x + width, y + height), coverage)
    return mask, left, top


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
