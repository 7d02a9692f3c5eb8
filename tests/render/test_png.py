"""Issue 25: a large picture's PNG written unfiltered (bot/render/png.py) reads back as the same pixels."""

from __future__ import annotations

import random
from io import BytesIO

import pytest
from PIL import Image, ImageDraw

from bot.render.paint.png import BAND, fast_png


def picture(mode: str, size=(301, 117)) -> Image.Image:
    rng = random.Random(7)
    image = Image.new(mode, size, {"L": 240, "RGB": (250, 248, 244), "RGBA": (250, 248, 244, 200)}[mode])
    draw = ImageDraw.Draw(image)
    for _ in range(60):
        x, y = rng.randrange(size[0]), rng.randrange(size[1])
        colour = tuple(rng.randrange(256) for _ in mode) if mode != "L" else rng.randrange(256)
        draw.rectangle((x, y, x + rng.randrange(40), y + rng.randrange(20)), fill=colour)
    draw.text((5, 5), "Player 12 ❤ 49", fill=0 if mode == "L" else (20, 20, 24)[:len(mode)] + (255,) * (mode == "RGBA"))
    return image


@pytest.mark.parametrize("mode", ["L", "RGB", "RGBA"])
def test_the_png_reads_back_as_the_same_pixels(mode):
    image = picture(mode)
    data = fast_png(image)
    again = Image.open(BytesIO(data))
    again.load()                       # a broken chunk or checksum is refused here
    assert (again.format, again.mode, again.size) == ("PNG", mode, image.size)
    assert again.tobytes() == image.tobytes()
    assert fast_png(picture(mode)) == data          # the same picture, the same bytes


@pytest.mark.parametrize("rows", ["none", "up"])
def test_a_picture_one_pixel_wide_or_high(rows):
    for size in ((1, 50), (50, 1), (1, 1)):
        image = picture("RGB", size)
        assert Image.open(BytesIO(fast_png(image, rows=rows))).tobytes() == image.tobytes()


@pytest.mark.parametrize("mode", ["L", "RGB", "RGBA"])
def test_rows_less_the_row_above_read_back_as_the_same_pixels(mode):
    image = picture(mode)
    again = Image.open(BytesIO(fast_png(image, rows="up")))
    assert again.tobytes() == image.tobytes()
    assert fast_png(image, rows="up") != fast_png(image)


def test_an_unknown_filter_is_refused():
    with pytest.raises(ValueError):
        fast_png(picture("RGB"), rows="paeth")


@pytest.mark.parametrize("rows", ["none", "up"])
def test_a_picture_taller_than_a_band(rows):
    image = picture("RGB", (97, BAND * 2 + 5))
    assert Image.open(BytesIO(fast_png(image, rows=rows))).tobytes() == image.tobytes()


@pytest.mark.parametrize("rows", ["none", "up"])
def test_the_file_is_a_plain_png_that_zlib_itself_reads(rows):
    """ISA-L writes the stream: Python's own zlib checks every chunk's CRC and inflates the rows
    (each with its filter type first), and Pillow's verify finds nothing wrong."""
    import struct
    import zlib

    image = picture("RGB", (97, BAND + 9))
    data = fast_png(image, rows=rows)
    Image.open(BytesIO(data)).verify()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, kinds, idat = 8, [], b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        assert struct.unpack(">I", data[at + 8 + length:at + 12 + length])[0] == zlib.crc32(kind + body)
        kinds.append(kind)
        idat += body if kind == b"IDAT" else b""
        at += 12 + length
    assert kinds == [b"IHDR", b"IDAT", b"IEND"]
    raw = zlib.decompress(idat)
    stride = 1 + 97 * 3
    assert len(raw) == stride * image.height
    assert {raw[row * stride] for row in range(image.height)} == {0 if rows == "none" else 2}
    if rows == "none":
        assert b"".join(raw[row * stride + 1:(row + 1) * stride] for row in range(image.height)) == image.tobytes()
