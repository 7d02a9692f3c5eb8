"""One piece, drawn into a box: the owner's colour, a thin contrasting edge, a recognisable shape.

* The six standard kinds (king, queen, rook, bishop, knight, pawn) are the chess silhouettes of
  DejaVu Sans (U+265A-U+265F, shipped in ``assets/fonts`` with their licence): the solid glyph is
  filled with the owner's colour, its detail lines (those of the outline glyph U+2654-U+2659, from
  26 px up) in black or white, whichever contrasts more, as in python-chess's ``chess.svg``; a
  thin edge goes round it (black, or white on very dark colours).
* Every other kind is a "plate" piece: a pedestal carrying a plate with the kind's letter (what a
  player types in an order), so two fairy kinds never look alike. The plate is arched for a piece
  that slides and flat for one that leaps or steps, with round corners for a piece that never
  captures: kinds whose letters look alike when small (G and C) still differ in outline.
* Neutral kinds: an obstacle is a grey stone block, a void a black hole with a violet rim.
* ``hollow=True`` (a disabled piece) draws the outline only, in the owner's colour.
* A two-tone colour (``Crimson/Yellow``) fills the left half with the first tone and the right
  half with the second.

Every sprite keeps its box's centre pixel inside the fill, so the colour at a square's centre is
its owner's colour (tests/render/test_sprites.py). Masks are computed once per kind and size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from ...engine.ruleset import PieceKind, Ruleset
from ..palette import NEUTRAL_RGB, contrast_edge, relative_luminance

__all__ = ["draw_piece", "legend_entries", "font", "bold_font", "FONT_DIR", "STANDARD_GLYPHS",
           "sprite_style", "plate_letters", "plate_font_size"]

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

FONT_DIR = Path(__file__).resolve().parents[3] / "assets" / "fonts"

#: Kind name -> (solid glyph, outline glyph) of DejaVu Sans.
STANDARD_GLYPHS = {
    "king": ("\u265a", "\u2654"),
    "queen": ("\u265b", "\u2655"),
    "rook": ("\u265c", "\u2656"),
    "bishop": ("\u265d", "\u2657"),
    "knight": ("\u265e", "\u2658"),
    "pawn": ("\u265f", "\u2659"),
}

_SUPERSAMPLE = 4          # masks are drawn this many times larger, then reduced (anti-aliasing)
_OBSTACLE_RGB: RGB = (118, 118, 122)
_SNAP = [0 if v < 4 else 255 if v > 243 else v for v in range(256)]
_DETAIL_MIN_SIZE = 26       # smallest box (px) that shows a chess glyph's inner lines


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at a pixel size (cached)."""
    return ImageFont.truetype(str(FONT_DIR / "DejaVuSans.ttf"), max(1, size))


@lru_cache(maxsize=64)
def bold_font(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans Bold at a pixel size (cached)."""
    return ImageFont.truetype(str(FONT_DIR / "DejaVuSans-Bold.ttf"), max(1, size))


def sprite_style(kind: PieceKind) -> str:
    """How a kind is drawn: a standard glyph name (``king``...), ``obstacle``, ``void``, or a
    plate: ``plate`` (leaps or steps), ``plate-rider`` (slides), with ``-round`` when it never
    captures."""
    if kind.has("obstacle"):
        return "obstacle"
    if kind.has("void"):
        return "void"
    name = kind.name.casefold()
    if name in STANDARD_GLYPHS:
        return name
    rays = kind.movement.rays if kind.movement is not None else ()
    style = "plate-rider" if any(ray.slides for ray in rays) else "plate"
    return style + ("" if kind.captures else "-round")


# ----------------------------------------------------------------------------- masks
@dataclass(frozen=True, slots=True)
class _Sprite:
    """Masks of one kind at one size, all ``size`` x ``size``: edge (drawn first, in the edge
    colour), fill (the owner's colour), detail (edge colour on top) and text (letters)."""

    size: int
    edge: Image.Image
    fill: Image.Image
    detail: Image.Image | None
    text: Image.Image | None
    text_edge: Image.Image | None = None
    bands: dict = field(default_factory=dict)    # two-tone halves of the masks, made on first use


def _threshold(mask: Image.Image, level: int = 128) -> Image.Image:
    return mask.point(lambda v: 255 if v >= level else 0)


def _fill_holes(mask: Image.Image) -> Image.Image:
    """The mask with every enclosed hole filled: what cannot be reached from the border.

    The flood runs on a copy reduced four times (a reduced pixel is a wall if any ink falls in
    it), growing from the border one pixel per step with Pillow's filters, so it costs a few
    dozen milliseconds instead of a flood fill in Python."""
    ink = _threshold(mask)
    factor = 4
    low_size = (max(1, ink.width // factor), max(1, ink.height // factor))
    wall = ink.resize(low_size, Image.Resampling.BOX).point(lambda v: 255 if v else 0)
    open_area = ImageChops.invert(wall)
    outside = Image.new("L", low_size, 0)
    ImageDraw.Draw(outside).rectangle((0, 0, low_size[0] - 1, low_size[1] - 1), outline=255)
    outside = ImageChops.darker(outside, open_area)
    while True:
        grown = ImageChops.darker(outside.filter(ImageFilter.MaxFilter(3)), open_area)
        if ImageChops.difference(grown, outside).getbbox() is None:
            break
        outside = grown
    holes = ImageChops.darker(ImageChops.invert(outside), open_area)
    # grown by one reduced pixel, the holes cover the seam up to the ink (the glyphs' lines are
    # several reduced pixels thick, so this never reaches the outside)
    holes = holes.filter(ImageFilter.MaxFilter(3))
    return ImageChops.lighter(ink, holes.resize(ink.size, Image.Resampling.NEAREST))


def _reduce(mask: Image.Image, size: int) -> Image.Image:
    """``mask`` at ``size`` px, anti-aliased; the resampling's ripples inside a solid area (254,
    252, ...) are snapped back to solid so that a fill is the exact colour asked for."""
    if size == mask.width:
        return mask
    reduced = mask.resize((size, size), Image.Resampling.LANCZOS if size < mask.width else Image.Resampling.BICUBIC)
    return reduced.point(_SNAP)


def _dilate(mask: Image.Image, radius: int) -> Image.Image:
    return mask.filter(ImageFilter.MaxFilter(2 * radius + 1)) if radius > 0 else mask


def _erode(mask: Image.Image, radius: int) -> Image.Image:
    return mask.filter(ImageFilter.MinFilter(2 * radius + 1)) if radius > 0 else mask


def _edge_width(size: int) -> int:
    return max(1, round(size / 30))


#: Glyphs drawn wider than the font draws them: DejaVu's bishop has two thirds of the other pieces'
#: ink, and a pale bishop nearly vanished (issue 39); widened, it has about as much as a queen.
_WIDEN = {"bishop": 1.3}


@lru_cache(maxsize=4)
def _standard_glyph_masks(big: int) -> dict[str, tuple[Image.Image, Image.Image]]:
    """Solid silhouette and detail lines of each standard glyph, at ``big`` px, sharing one scale
    (a pawn stays smaller than a king) and one baseline."""
    face = font(big)
    raw: dict[str, tuple[Image.Image, Image.Image]] = {}
    union_box = None
    for name, (solid_char, outline_char) in STANDARD_GLYPHS.items():
        canvas = (big + big // 2, big + big // 2)
        solid = Image.new("L", canvas, 0)
        ImageDraw.Draw(solid).text((big // 4, big // 4), solid_char, font=face, fill=255)
        outline = Image.new("L", canvas, 0)
        ImageDraw.Draw(outline).text((big // 4, big // 4), outline_char, font=face, fill=255)
        silhouette = _fill_holes(ImageChops.lighter(solid, outline))
        raw[name] = (silhouette, outline)
        box = silhouette.getbbox()
        union_box = box if union_box is None else (min(union_box[0], box[0]), min(union_box[1], box[1]),
                                                   max(union_box[2], box[2]), max(union_box[3], box[3]))
    # one scale for all: the tallest glyph fills 90% of the box height; each glyph is centred
    # horizontally on its own ink and stands on a common baseline at 95%.
    height = union_box[3] - union_box[1]
    scale = 0.90 * big / height
    result = {}
    for name, (silhouette, outline) in raw.items():
        box = silhouette.getbbox()
        widen = _WIDEN.get(name, 1.0)
        width = box[2] - box[0]
        # at least as wide as tall would need: keep within 90% of the box width
        s = min(scale, 0.94 * big / (width * widen))
        new_size = (max(1, round(silhouette.width * s * widen)), max(1, round(silhouette.height * s)))
        sil = silhouette.resize(new_size, Image.Resampling.LANCZOS)
        det = outline.resize(new_size, Image.Resampling.LANCZOS)
        left = big / 2 - (box[0] + width / 2) * s * widen
        top = 0.95 * big - box[3] * s
        placed_sil = Image.new("L", (big, big), 0)
        placed_det = Image.new("L", (big, big), 0)
        placed_sil.paste(sil, (round(left), round(top)))
        placed_det.paste(det, (round(left), round(top)))
        result[name] = (placed_sil, placed_det)
    return result


def _plate_shapes(big: int, rider: bool, captures: bool) -> Image.Image:
    """The plate piece's silhouette: a plate on a flared body and a base. The plate's top is an
    arch for a piece that slides (a rider) and flat for one that only leaps or steps; its
    corners are round for a piece that never captures. Two kinds whose letters look alike at a
    small size (G and C, L and E) thus differ in outline too."""
    mask = Image.new("L", (big, big), 0)
    draw = ImageDraw.Draw(mask)
    b = big
    # base and body (the body holds the box's centre: the owner's colour is always there)
    draw.rounded_rectangle((0.14 * b, 0.84 * b, 0.86 * b, 0.95 * b), radius=0.03 * b, fill=255)
    draw.polygon([(0.22 * b, 0.85 * b), (0.78 * b, 0.85 * b), (0.66 * b, 0.50 * b), (0.34 * b, 0.50 * b)], fill=255)
    corner = 0.06 * b if captures else 0.17 * b
    if rider:
        draw.ellipse((0.05 * b, 0.00 * b, 0.95 * b, 0.44 * b), fill=255)
        draw.rounded_rectangle((0.05 * b, 0.22 * b, 0.95 * b, 0.56 * b), radius=corner, fill=255)
    else:
        draw.rounded_rectangle((0.05 * b, 0.03 * b, 0.95 * b, 0.56 * b), radius=corner, fill=255)
    return mask


def _fit_text(text: str, width: float, height: float) -> tuple[ImageFont.FreeTypeFont, tuple[int, int, int, int]]:
    """The largest bold font whose ink for ``text`` fits ``width`` x ``height``, and that ink box."""
    size = max(4, int(height * 1.45))
    while True:
        face = bold_font(size)
        box = face.getbbox(text, anchor="ls")
        if (box[2] - box[0] <= width and box[3] - box[1] <= height) or size <= 4:
            return face, box
        size -= max(1, size // 20)


#: Below this size (px) a plate shows at most the first two letters of a longer abbreviation.
_SMALL_PLATE = 24
#: The width of a plate's text, as a share of the box: a kind's own letters keep a margin; letters
#: sized together (``labels``) use the plate's whole width, since the widest of them sets the size
#: of all (territory's Moon and Shdw).
_TEXT_WIDTH, _SHARED_TEXT_WIDTH = 0.80, 0.88


def plate_letters(letter: str, size: int) -> str:
    """What a plate of ``size`` pixels writes of a kind's letters: all of them, or the first two of
    a longer abbreviation below :data:`_SMALL_PLATE` (four letters in a 16-pixel plate are a grey
    smudge: two, larger, are read)."""
    return letter[:2] if size < _SMALL_PLATE and len(letter) > 3 else letter


@lru_cache(maxsize=256)
def plate_font_size(letter: str, size: int, rider: bool, labels: tuple[str, ...] = ()) -> int:
    """The pixel size (at :data:`_SUPERSAMPLE` times ``size``) of the bold font a plate of ``size``
    pixels writes ``letter`` in: the largest at which its letters fit the plate, or, given
    ``labels`` (the letters of every kind drawn alongside), the largest at which the widest of
    those fits, so that every label is written at one size (issue 39: territory's Moon, Wind,
    Wood and Shdw were smaller than the rest)."""
    big = size * _SUPERSAMPLE
    width = (0.70 if rider else _SHARED_TEXT_WIDTH if labels else _TEXT_WIDTH) * big
    height = (0.35 if rider else 0.38) * big
    return min(_fit_text(plate_letters(text, size), width, height)[0].size for text in labels or (letter,))


def _plate_text(big: int, letter: str, rider: bool, labels: tuple[str, ...] = ()) -> Image.Image:
    """The kind's letter(s), centred in the plate (0.05-0.95 x 0.06-0.56, or under an arch),
    clear of the box's centre."""
    mask = Image.new("L", (big, big), 0)
    size = big // _SUPERSAMPLE
    letter = plate_letters(letter, size)
    face = bold_font(plate_font_size(letter, size, rider, labels))
    box = face.getbbox(letter, anchor="ls")
    cx, cy = 0.5 * big, (0.285 if rider else 0.265) * big
    x = cx - (box[0] + box[2]) / 2
    y = cy - (box[1] + box[3]) / 2
    ImageDraw.Draw(mask).text((x, y), letter, font=face, fill=255, anchor="ls")
    return mask


def _obstacle_masks(big: int) -> tuple[Image.Image, Image.Image]:
    """A stone block: a rounded square with mortar lines."""
    fill = Image.new("L", (big, big), 0)
    ImageDraw.Draw(fill).rounded_rectangle((0.10 * big, 0.10 * big, 0.90 * big, 0.90 * big),
                                           radius=0.08 * big, fill=255)
    detail = Image.new("L", (big, big), 0)
    draw = ImageDraw.Draw(detail)
    line = max(1, round(big * 0.035))
    for y in (0.33, 0.67):
        draw.line((0.10 * big, y * big, 0.90 * big, y * big), fill=255, width=line)
    # staggered joints, away from the centre so that the centre pixel stays stone
    for x0, y0, y1 in ((0.30, 0.10, 0.33), (0.70, 0.10, 0.33), (0.36, 0.33, 0.67) , (0.64, 0.33, 0.67),
                       (0.30, 0.67, 0.90), (0.70, 0.67, 0.90)):
        draw.line((x0 * big, y0 * big, x0 * big, y1 * big), fill=255, width=line)
    return fill, detail


@lru_cache(maxsize=512)
def _sprite(style: str, letter: str, size: int, hollow: bool, labels: tuple[str, ...] = ()) -> _Sprite:
    big = size * _SUPERSAMPLE
    text = None
    detail = None
    if style in STANDARD_GLYPHS:
        fill_big, detail_big = _standard_glyph_masks(256 if big <= 256 else 512)[style]
    elif style == "obstacle":
        fill_big, detail_big = _obstacle_masks(big)
    elif style == "void":
        fill_big = Image.new("L", (big, big), 0)
        ImageDraw.Draw(fill_big).ellipse((0.12 * big, 0.12 * big, 0.88 * big, 0.88 * big), fill=255)
        detail_big = None
    else:
        rider, captures = style in ("plate-rider", "plate-rider-round"), not style.endswith("round")
        fill_big = _plate_shapes(big, rider, captures)
        detail_big = None
        text = _reduce(_plate_text(big, letter, rider, labels), size)
    fill = _reduce(fill_big, size)
    if detail_big is not None and (size >= _DETAIL_MIN_SIZE or style == "obstacle"):
        # below that size the glyphs' inner lines only muddy the colour: the silhouette is enough
        detail = _reduce(detail_big, size)
    ring = max(1, round(size / 14))
    width = _edge_width(size)
    if style not in ("obstacle", "void"):
        shift, clear_detail = _centre_shift(fill, detail, text, ring + width)
        if shift != (0, 0):
            fill, detail, text = (_shifted(mask, shift) for mask in (fill, detail, text))
        if clear_detail and detail is not None:
            # an inner line through the very centre gets a gap of three pixels
            c = size // 2
            detail = detail.copy()
            ImageDraw.Draw(detail).rectangle((c - 1, c - 1, c + 1, c + 1), fill=0)
    edge = _dilate(fill, width)
    if hollow:
        detail = None
        inner = _erode(fill, ring)
        # the outline ring in the owner's colour, edged inside and out
        fill = ImageChops.subtract(fill, inner)
        edge = ImageChops.subtract(edge, _erode(inner, width))
    text_edge = _dilate(text, 1) if text is not None and hollow else None
    return _Sprite(size, edge, fill, detail, text, text_edge)


def _centre_shift(fill: Image.Image, detail: Image.Image | None, text: Image.Image | None,
                  depth: int) -> tuple[tuple[int, int], bool]:
    """The smallest shift that puts the box's centre pixel in the fill, clear of letters, so
    that the colour at a square's centre is its owner's; and whether an inner line there must be
    cut. Preferred in order: deep inside (``depth`` px: a hollow piece is hollow there) and clear
    of inner lines; deep inside; anywhere in the fill. A pixel or two in practice: invisible."""
    size = fill.width
    centre = size // 2
    deep = _erode(fill, depth)
    limit = max(2, size // 8)
    offsets = sorted(((dx, dy) for dx in range(-limit, limit + 1) for dy in range(-limit, limit + 1)),
                     key=lambda d: (abs(d[0]) + abs(d[1]), abs(d[0]), d))

    def clear(mask: Image.Image | None, x: int, y: int) -> bool:
        return mask is None or all(mask.getpixel((x + i, y + j)) == 0 for i in (-1, 0, 1) for j in (-1, 0, 1))

    for need_deep, need_no_detail in ((True, True), (True, False), (False, False)):
        for dx, dy in offsets:
            x, y = centre - dx, centre - dy
            if not (1 <= x < size - 1 and 1 <= y < size - 1) or fill.getpixel((x, y)) != 255:
                continue
            if (need_deep and deep.getpixel((x, y)) != 255) or not clear(text, x, y):
                continue
            if need_no_detail and not clear(detail, x, y):
                continue
            return (dx, dy), not clear(detail, x, y)
    return (0, 0), True


def _shifted(mask: Image.Image | None, shift: tuple[int, int]) -> Image.Image | None:
    if mask is None:
        return None
    moved = Image.new("L", mask.size, 0)
    moved.paste(mask, shift)
    return moved


# ----------------------------------------------------------------------------- drawing
@lru_cache(maxsize=1024)
def _mixed_edge(fills: tuple[RGB, ...]) -> RGB:
    """The colour of the outer edge: black, unless the tones are so dark that a black edge would
    vanish into them (then white, which also sets them off on a dark square)."""
    luminance = sum(relative_luminance(rgb) for rgb in fills) / len(fills)
    return (0, 0, 0) if luminance >= 0.035 else (255, 255, 255)


@lru_cache(maxsize=1024)
def _detail_colour(fills: tuple[RGB, ...]) -> RGB:
    """Inner lines and letters: black or white, whichever contrasts more with the tones."""
    if len(fills) == 1:
        return contrast_edge(fills[0])
    luminance = sum(relative_luminance(rgb) for rgb in fills) / len(fills)
    return (0, 0, 0) if (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) else (255, 255, 255)


def _bands(mask: Image.Image, count: int, cache: dict) -> tuple[Image.Image, ...]:
    """``mask`` cut into ``count`` vertical bands, each a full-size mask (cached per sprite)."""
    key = (id(mask), count)
    if key in cache:
        return cache[key]
    size = mask.width
    bands = []
    for index in range(count):
        x0 = size * index // count
        x1 = size * (index + 1) // count
        band = Image.new("L", mask.size, 0)
        band.paste(mask.crop((x0, 0, x1, mask.height)), (x0, 0))
        bands.append(band)
    cache[key] = tuple(bands)
    return cache[key]


def _bitmap_tones(draw: ImageDraw.ImageDraw, origin: tuple[int, int], mask: Image.Image,
                  tones: tuple[RGB, ...], cache: dict) -> None:
    """Draw ``mask`` in one tone, or split into vertical bands, one per tone (left to right)."""
    if len(tones) == 1:
        draw.bitmap(origin, mask, fill=tones[0])
        return
    for band, tone in zip(_bands(mask, len(tones), cache), tones):
        draw.bitmap(origin, band, fill=tone)


def draw_piece(draw: ImageDraw.ImageDraw, box: Box, kind: PieceKind, fills: tuple[RGB, ...], *,
               hollow: bool = False, labels: tuple[str, ...] = ()) -> None:
    """Draw a piece of ``kind`` centred in ``box`` (x0, y0, x1, y1; x1, y1 exclusive).

    ``fills`` are the owner's tones (:func:`bot.render.palette.player_rgb`); empty for a neutral
    piece (drawn grey). Obstacles and voids ignore ``fills``. ``hollow`` draws the outline only
    (a disabled piece). ``labels``: the letters of every kind drawn alongside, for a plate to
    write its letters at the one size at which the widest of them fits (:func:`plate_font_size`);
    by default each plate's letters are as large as they fit. The centre pixel of ``box`` is always
    inside the fill of a solid piece.
    """
    x0, y0, x1, y1 = box
    size = min(x1 - x0, y1 - y0)
    if size < 3:
        return
    origin = (x0 + (x1 - x0 - size) // 2, y0 + (y1 - y0 - size) // 2)
    style = sprite_style(kind)
    sprite = _sprite(style, kind.letter, size, hollow, tuple(labels) if style.startswith("plate") else ())
    if style == "obstacle":
        tones: tuple[RGB, ...] = (_OBSTACLE_RGB,)
        edge_rgb: RGB = (40, 40, 44)
    elif style == "void":
        tones = ((0, 0, 0),)
        edge_rgb = (150, 70, 220)   # a violet event horizon: a void is never mistaken for a black piece
    else:
        tones = tuple(fills) or (NEUTRAL_RGB,)
        edge_rgb = _mixed_edge(tones)
    ink_rgb = _detail_colour(tones) if style not in ("obstacle", "void") else edge_rgb
    draw.bitmap(origin, sprite.edge, fill=edge_rgb)
    _bitmap_tones(draw, origin, sprite.fill, tones, sprite.bands)
    if sprite.detail is not None:
        draw.bitmap(origin, sprite.detail, fill=(20, 20, 22) if style == "obstacle" else ink_rgb)
    if sprite.text is not None:
        if hollow:
            # no plate behind the letter: the owner's colour, edged, reads on any square
            draw.bitmap(origin, sprite.text_edge, fill=edge_rgb)
            _bitmap_tones(draw, origin, sprite.text, tones, sprite.bands)
        else:
            draw.bitmap(origin, sprite.text, fill=ink_rgb)
    if style == "void" and size >= 12:
        # accretion ring: a thin bright circle inside the edge
        inset = size * 0.2
        draw.ellipse((origin[0] + inset, origin[1] + inset, origin[0] + size - inset, origin[1] + size - inset),
                     outline=(90, 40, 140), width=max(1, size // 24))


def legend_entries(ruleset: Ruleset, present: set[str] | None = None) -> list[tuple[str, str]]:
    """(letter, name) of the ruleset's kinds in its table order; only those in ``present`` if given."""
    return [(kind.letter, kind.name) for kind in ruleset.pieces.values()
            if present is None or kind.letter in present]
