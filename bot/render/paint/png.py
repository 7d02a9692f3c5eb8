"""A large picture's PNG, written in a fraction of the time Pillow takes.

Pillow's PNG encoder tries four filters on every row and keeps the one whose bytes look smallest;
on a picture of twelve million pixels (the health board of 1,000 rows) that choice is half its
time or more: 0.2 s, of which zlib's fastest level is the rest. :func:`fast_png` gives every row
the same filter and compresses them with ISA-L's deflate (``isal``, level 2, its default), which
makes the same kind of stream as zlib (any PNG decoder reads it) four to six times faster than
zlib's fastest level: zlib spends about 1 ns on every byte even of a plain ground, 36 ms for the
36 MB of the health board's rows before any text, while ISA-L compares many bytes at once
(issue 25). Measured on the shared 2-core machine, whole ``fast_png`` calls:

- ``"none"`` (filter type 0), for rows of text on a plain ground: the health board of 1,000 rows in
  20-22 ms instead of 75-80 ms at zlib's fastest level (0.2 s in Pillow), 2.20 MB instead of
  2.06 MB (2.21 MB in Pillow);
- ``"up"`` (type 2: each byte less the one above it, worked out by Pillow on the whole picture at
  once), for a board, whose rows repeat the ones above: the overview of 50,000 pieces in 11-12 ms
  instead of 35-40 ms, 0.52 MB instead of 0.50 MB (0.48 MB in Pillow).

zlib's own strategies do not help here (measured on the health board: ``Z_RLE`` on unfiltered rows
0.2 s for 17 MB, after the Sub or Up filter 80-90 ms for 5-6 MB; ``Z_FILTERED``, other window and
memory sizes: the same time or slower; rows filtered Sub or Up compress no faster and larger).

The file is a plain PNG (8 bits per channel, no interlace; the chunks PNG requires, nothing else),
read by any decoder to the same pixels; the same picture always gives the same bytes. ISA-L works
without the interpreter lock, so other threads go on meanwhile.

Kept for the budget of the 1,000-player update, under 2 s end to end (issue 38, measured with
``benchmarks/update.py --only 1000``; docs/rendering.md, "Machinery kept for speed"): written by
Pillow at its fastest level instead, that update's health board takes 582 ms of CPU instead of 138
and its overview 240 instead of 52; the update's render stage took 1.38 s instead of 0.56 and the
whole update 1.91 s instead of 1.27 (medians; its slowest 2.64 s against 1.60), at the 2 s budget
with no room left for the rest of a busy machine's minutes.
"""

from __future__ import annotations

import struct

from isal import isal_zlib
from PIL import Image, ImageChops

__all__ = ["fast_png"]

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: PNG colour types by Pillow mode, and the bytes of a pixel
_COLOUR_TYPES = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4)}
#: the filter types by name
_FILTERS = {"none": b"\x00", "up": b"\x02"}


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", isal_zlib.crc32(data, isal_zlib.crc32(kind)))


#: ISA-L's level (0 to 3): 1 and 2 take the same time here and 2 is a little smaller; 3 takes four
#: times as long for 1-2 % less (0 and Huffman codes alone: larger, no faster)
LEVEL = 2
#: rows filtered and compressed at a time (a picture of 4096 x 4096 would otherwise be copied whole
#: twice more: 200 MB)
BAND = 128


def _band(image: Image.Image, top: int, bottom: int, rows: str) -> bytes:
    """Rows ``top`` to ``bottom`` (excluded) of ``image``, filtered by ``rows``, as raw bytes."""
    width = image.width
    band = image.crop((0, top, width, bottom))
    if rows == "none":
        return band.tobytes()
    if top:           # "up": each byte less the one above it, modulo 256 (the first row: less zero)
        above = image.crop((0, top - 1, width, bottom - 1))
    else:
        above = Image.new(image.mode, band.size, 0)
        above.paste(image.crop((0, 0, width, bottom - 1)), (0, 1))
    return ImageChops.subtract_modulo(band, above).tobytes()


def fast_png(image: Image.Image, rows: str = "none") -> bytes:
    """``image`` (mode L, RGB or RGBA) as a PNG compressed by ISA-L, every row filtered by ``rows``:
    ``"none"`` or ``"up"``."""
    if rows not in _FILTERS:
        raise ValueError(f"rows are filtered 'none' or 'up', not {rows!r}")
    colour_type, depth = _COLOUR_TYPES[image.mode]
    width, height = image.size
    kind = _FILTERS[rows]
    stride = width * depth
    compressor = isal_zlib.compressobj(LEVEL)
    parts = []
    for top in range(0, height, BAND):
        raw = memoryview(_band(image, top, min(height, top + BAND), rows))
        # each row begins with its filter type; the band compressed in one call (few hand-overs
        # of the interpreter lock, which ISA-L lets go of while it works)
        parts.append(compressor.compress(kind.join([b"", *(raw[start:start + stride]
                                                           for start in range(0, len(raw), stride))])))
    parts.append(compressor.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"IDAT", b"".join(parts)), _chunk(b"IEND", b"")))
