"""Texts on a board: measured and drawn from glyphs kept once per font (:mod:`.glyphs`), the
pixels Pillow draws; labels, badges and tags repeat from one picture to the next, so their masks
are kept too."""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterable

from PIL import Image, ImageDraw

from ..scene.colours import RGB
from .glyphs import text_box, text_mask
from .sprites import bold_font, font

Box = tuple[int, int, int, int]


def fit_label(text: str, width: float, height: float) -> int | None:
    """The largest type size (at most 40, at least 8) at which ``text`` fits the box, or None."""
    for size in range(min(40, max(8, int(height * 1.25))), 7, -1):
        mask_width, mask_height = mask_size(text, size, True)
        if mask_width <= width and mask_height <= height:
            return size
    return None


@lru_cache(maxsize=8192)
def text_size(face, text: str) -> tuple[int, int]:
    """The size of ``text``'s box in ``face`` (kept: an overview measures the coordinates of every
    column and row, mostly the same from one update to the next)."""
    box = text_box(face, text)
    return box[2] - box[0], box[3] - box[1]


@lru_cache(maxsize=64)
def middle_rise(face) -> int:
    """How many pixels higher ``draw.text(..., anchor="lm")`` draws a text than the default anchor
    ("la") does at the same point: the same pixels, drawn by :func:`~.glyphs.draw_text` (which knows
    the default anchor only) that much higher. The middle is the font's, the same for any text."""
    return face.getbbox("x", anchor="la")[1] - face.getbbox("x", anchor="lm")[1]


@lru_cache(maxsize=4096)
def mask_of(text: str, size: int, bold: bool) -> Image.Image:
    """``text`` rendered once as a tight mask (labels and badges repeat: "+" on 2,000 pieces): the
    pixels Pillow draws centred on the box's middle ("mm"), with the box's corner at the mask's,
    composed from cached glyphs (:func:`~.glyphs.text_mask`): an overview meets a few hundred to a
    thousand new viewport names and coordinates at each update, each 10 us instead of 40."""
    return text_mask(bold_font(size) if bold else font(size), text, box_of(text, size, bold))[0]


@lru_cache(maxsize=8192)
def box_of(text: str, size: int, bold: bool) -> tuple[int, int, int, int]:
    """The box of ``text`` (``getbbox``'s, from cached glyphs: :func:`~.glyphs.text_box`)."""
    return text_box(bold_font(size) if bold else font(size), text)


def mask_size(text: str, size: int, bold: bool) -> tuple[int, int]:
    """The size of ``mask_of(text, size, bold)``, without drawing it (an overview measures every
    column's and row's coordinates; of its tags, those left out are never drawn)."""
    left, top, right, bottom = box_of(text, size, bold)
    return max(1, right - left), max(1, bottom - top)


@lru_cache(maxsize=1024)
def upright_mask(text: str, size: int, bold: bool) -> Image.Image:
    """:func:`mask_of` turned a quarter to read upward (an overview's column coordinates, the
    same from one picture to the next)."""
    return mask_of(text, size, bold).rotate(90, expand=True)


def centred_text(draw: ImageDraw.ImageDraw, text: str, size: int, centre: tuple[float, float], fill: RGB,
                  bold: bool = True, align: str = "centre") -> Box:
    """Draw ``text`` centred on ``centre`` (or ending there, ``align="right"``); its pixel box."""
    mask = mask_of(text, size, bold)
    x = round(centre[0] - {"right": mask.width, "left": 0}.get(align, mask.width / 2))
    y = round(centre[1] - mask.height / 2)
    draw.bitmap((x, y), mask, fill=fill)
    return x, y, x + mask.width, y + mask.height


def wrap_words(words: Iterable[str], fits: Callable[[str], bool]) -> list[str]:
    """The words in lines, each line as many words as ``fits`` takes (a word too long for a line
    alone still gets its own line)."""
    lines: list[str] = []
    current = ""
    for word in words:
        attempt = f"{current} {word}".strip()
        if current and not fits(attempt):
            lines.append(current)
            current = word
        else:
            current = attempt
    if current:
        lines.append(current)
    return lines
