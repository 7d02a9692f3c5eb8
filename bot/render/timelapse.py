"""Timelapse: an animated GIF of a game, one frame per state, each labelled with its update.

Every frame shows the same region of the board (the union of the squares occupied in any of the
states, with a margin, unless the caller gives one), so pieces move across a still board instead of
the board jumping around. Each frame is :func:`bot.render.board.render_board` of that state under a
banner naming the update. A state is the position between two updates (``state.update`` is the
next update to resolve), so its frame reads "after update N" with ``N = state.update - 1``.

The GIF stays within 4096 pixels a side and 8 MB: frames are scaled down until it does. Every
state gets its frame, so the frame count always equals the number of states.
"""

from __future__ import annotations

from io import BytesIO
from typing import Sequence

from PIL import Image, ImageDraw

from bot.engine.ruleset import Ruleset

from .board import framed_region, render_board, state_label
from .sprites import bold_font, font

__all__ = ["render_timelapse", "timelapse_region", "frame_label", "MAX_SIDE", "MAX_BYTES", "FRAME_MS",
           "LAST_FRAME_MS"]

MAX_SIDE = 4096
MAX_BYTES = 8 * 1024 * 1024
#: A frame's width above this is scaled down before encoding: a GIF is watched, not studied.
TARGET_WIDTH = 1600
FRAME_MS = 700
LAST_FRAME_MS = 2500
MARGIN = 2
BANNER_HEIGHT = 48
MIN_FRAME_WIDTH = 360
BANNER_BG = (34, 34, 40)
BANNER_TEXT = (250, 250, 250)
BANNER_MUTED = (190, 190, 200)


def frame_label(state) -> str:
    """The words on a state's frame: the update whose result it shows (as on a board's title)."""
    return state_label(state)


def timelapse_region(states: Sequence, margin: int = MARGIN) -> tuple[int, int, int, int] | None:
    """The union of the occupied areas of ``states`` (pieces, implosion squares, marked squares),
    ``margin`` squares wider on each side and at least 9 x 9, kept within one square of the
    board's bounds; None when no state has anything to show."""
    xs: list[int] = []
    ys: list[int] = []
    bounds = None
    for state in states:
        box = state.board.bounding_box()
        if box is not None:
            xs += [box[0][0], box[1][0]]
            ys += [box[0][1], box[1][1]]
        for x, y in (*state.implosions, *state.marked):
            xs.append(x)
            ys.append(y)
        bounds = bounds or state.board.bounds
    if not xs:
        return None
    return framed_region(xs, ys, margin, bounds)


def _banner(width: int, label: str, title: str, index: int, count: int) -> Image.Image:
    height = BANNER_HEIGHT
    banner = Image.new("RGB", (width, height), BANNER_BG)
    draw = ImageDraw.Draw(banner)
    text = label[0].upper() + label[1:]
    draw.text((14, 9), text, font=bold_font(26), fill=BANNER_TEXT)
    room = width - bold_font(26).getlength(text) - 44
    for right in (f"{title} · frame {index + 1}/{count}", f"frame {index + 1}/{count}", f"{index + 1}/{count}"):
        size = 15
        while size > 11 and font(size).getlength(right) > room:
            size -= 1
        if font(size).getlength(right) <= room:
            w = font(size).getlength(right)
            draw.text((width - w - 14, (height - size) // 2), right, font=font(size), fill=BANNER_MUTED)
            break
    return banner


def _shared_palette(frames: list[Image.Image]) -> Image.Image:
    """One palette for every frame (no colour flicker between frames, smaller frame deltas): the
    colours of a sample of the frames, quantized together."""
    step = max(1, len(frames) // 24)
    sample = frames[::step]
    thumbs = [f.resize((max(1, f.width // 2), max(1, f.height // 2)), Image.Resampling.NEAREST) for f in sample]
    sheet = Image.new("RGB", (max(t.width for t in thumbs), sum(t.height for t in thumbs)))
    y = 0
    for thumb in thumbs:
        sheet.paste(thumb, (0, y))
        y += thumb.height
    return sheet.quantize(colors=255, method=Image.Quantize.MEDIANCUT)


def _encode(frames: list[Image.Image]) -> bytes:
    palette = _shared_palette(frames)
    paletted = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    durations = [FRAME_MS] * len(paletted)
    durations[-1] = LAST_FRAME_MS
    buffer = BytesIO()
    paletted[0].save(buffer, format="GIF", save_all=True, append_images=paletted[1:], duration=durations,
                     loop=0, optimize=False, disposal=1)
    return buffer.getvalue()


def render_timelapse(ruleset: Ruleset, states: Sequence, *, palette: str = "default",
                     region: tuple[int, int, int, int] | None = None) -> bytes:
    """An animated GIF of ``states`` (in order), one frame each, on one common region."""
    states = list(states)
    if not states:
        raise ValueError("a timelapse needs at least one state")
    if region is None:
        region = timelapse_region(states)
    boards = []
    for state in states:
        rendered = render_board(ruleset, state, region=region, palette=palette)
        boards.append(Image.open(BytesIO(rendered.png)).convert("RGB"))
    width = max(b.width for b in boards)
    height = max(b.height for b in boards)
    # the banner is added after scaling, so the update stays readable however small the board gets
    scale = min(1.0, TARGET_WIDTH / width, (MAX_SIDE - BANNER_HEIGHT) / height)
    while True:
        data = _encode(_frames(ruleset, states, boards, width, height, scale))
        if len(data) <= MAX_BYTES or scale < 0.05:
            return data
        scale *= 0.8 if len(data) < 2 * MAX_BYTES else 0.9 * (MAX_BYTES / len(data)) ** 0.5


def _frames(ruleset: Ruleset, states: list, boards: list[Image.Image], width: int, height: int,
            scale: float) -> list[Image.Image]:
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    frame_width = max(size[0], MIN_FRAME_WIDTH)
    frames = []
    for index, (state, board) in enumerate(zip(states, boards)):
        if scale < 1.0:
            board = board.resize((max(1, round(board.width * scale)), max(1, round(board.height * scale))),
                                 Image.Resampling.LANCZOS)
        banner = _banner(frame_width, frame_label(state), ruleset.title, index, len(states))
        frame = Image.new("RGB", (frame_width, BANNER_HEIGHT + size[1]), (255, 255, 255))
        frame.paste(banner, (0, 0))
        frame.paste(board, ((frame_width - board.width) // 2, BANNER_HEIGHT))
        frames.append(frame)
    return frames
