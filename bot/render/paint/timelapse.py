"""The timelapse painted: an animated GIF of a game, one frame per state, each under its banner.

Each frame is :func:`bot.render.board.render_board` of that state on the common region
(:mod:`bot.render.scene.timelapse`), under the banner the scene says. The GIF's palette holds every
player's colour exactly, and frames are mapped onto it without dithering, so a player's pieces keep
their colour (:func:`players_colours_in`, issue 27).

The GIF stays within 4096 pixels a side and 8 MB: frames are scaled down until it does (the banner
is added after scaling, so the update stays readable however small the board gets). Every state
gets its frame, so the frame count always equals the number of states.

:func:`render_frame` draws one state's frame (when its update resolves), and
:func:`assemble_timelapse` makes the GIF from the frames' PNGs; :func:`render_timelapse` is the
region, the frames and the GIF in a row.
"""

from __future__ import annotations

from io import BytesIO
from typing import Sequence

from PIL import Image, ImageDraw

from bot.engine.ruleset import Ruleset

from ..board import render_board
from ..palette import RGB, load_colours
from ..scene.timelapse import Banner, banners, frame_label, timelapse_region
from .sprites import bold_font, font

__all__ = ["render_timelapse", "render_frame", "assemble_timelapse", "players_colours_in", "MAX_SIDE", "MAX_BYTES",
           "FRAME_MS", "LAST_FRAME_MS", "BANNER_HEIGHT"]

MAX_SIDE = 4096
MAX_BYTES = 8 * 1024 * 1024
#: A frame's width above this is scaled down before encoding: a GIF is watched, not studied.
TARGET_WIDTH = 1600
FRAME_MS = 700
LAST_FRAME_MS = 2500
BANNER_HEIGHT = 48
MIN_FRAME_WIDTH = 360
#: the heading's size, and the smallest it shrinks to before the banner's short heading is written
HEADING_SIZE = 26
SMALLEST_HEADING = 16
#: the banner's margin left and right of its texts
BANNER_MARGIN = 14
BANNER_BG = (34, 34, 40)
BANNER_TEXT = (250, 250, 250)
BANNER_MUTED = (190, 190, 200)


def banner_heading(width: int, banner: Banner) -> tuple[str, int]:
    """The heading a banner ``width`` pixels wide writes, and its size: the full heading at the
    largest size from :data:`HEADING_SIZE` down to :data:`SMALLEST_HEADING` at which it fits (a
    thinned game's "After update 480 · 1 in 16" ran off a 360-pixel frame), else the short heading
    (the update alone) at the largest size that fits, down to 10."""
    room = width - 2 * BANNER_MARGIN
    for text, smallest in ((banner.heading, SMALLEST_HEADING), (banner.short_heading, 10)):
        for size in range(HEADING_SIZE, smallest - 1, -1):
            if bold_font(size).getlength(text) <= room:
                return text, size
    return banner.short_heading, 10


def _banner(width: int, banner: Banner) -> Image.Image:
    height = BANNER_HEIGHT
    image = Image.new("RGB", (width, height), BANNER_BG)
    draw = ImageDraw.Draw(image)
    text, heading_size = banner_heading(width, banner)
    heading_font = bold_font(heading_size)
    top, bottom = heading_font.getbbox("Ag")[1::2]
    # the letters' middle where the full-size heading's is (y 27 of 48), however small it is written
    draw.text((BANNER_MARGIN, 27 - (top + bottom) // 2), text, font=heading_font, fill=BANNER_TEXT)
    room = width - heading_font.getlength(text) - 3 * BANNER_MARGIN - 2
    for right in banner.counters:
        size = 15
        while size > 11 and font(size).getlength(right) > room:
            size -= 1
        if font(size).getlength(right) <= room:
            w = font(size).getlength(right)
            draw.text((width - w - BANNER_MARGIN, (height - size) // 2), right, font=font(size), fill=BANNER_MUTED)
            break
    return image


def players_colours_in(frames: list[Image.Image]) -> list[RGB]:
    """The players' colours (every colour of ``assets/colours.toml``, in either palette) that some
    frame shows exactly, in the file's order."""
    shown: set[RGB] = set()
    for frame in frames:
        shown.update(colour for _, colour in frame.getcolors(frame.width * frame.height))
    wanted = dict.fromkeys(rgb for colour in load_colours().values() for rgb in (colour.rgb, colour.safe_rgb))
    return [rgb for rgb in wanted if rgb in shown]


def _shared_palette(frames: list[Image.Image]) -> Image.Image:
    """One palette for every frame (no colour flicker between frames, smaller frame deltas). It
    holds the players' colours that the frames show, exactly (issue 27: a GIF has 256 colours, and a
    palette made by median cut alone moves every player's colour a little, neighbours' colours
    together), and the colours of a sample of the frames, quantized together, for the rest."""
    keep = players_colours_in(frames)
    step = max(1, len(frames) // 24)
    sample = frames[::step]
    thumbs = [f.resize((max(1, f.width // 2), max(1, f.height // 2)), Image.Resampling.NEAREST) for f in sample]
    sheet = Image.new("RGB", (max(t.width for t in thumbs), sum(t.height for t in thumbs)))
    y = 0
    for thumb in thumbs:
        sheet.paste(thumb, (0, y))
        y += thumb.height
    rest = sheet.quantize(colors=255 - len(keep), method=Image.Quantize.MEDIANCUT).getpalette() or []
    colours = [*keep, *(tuple(rest[i:i + 3]) for i in range(0, min(len(rest) // 3, 255 - len(keep)) * 3, 3))]
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in colours for channel in colour])
    return palette


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
    return assemble_timelapse(ruleset.title, [frame_label(state) for state in states],
                              [render_frame(ruleset, state, region, palette=palette) for state in states])


def render_frame(ruleset: Ruleset, state, region: tuple[int, int, int, int] | None, *,
                 palette: str = "default") -> bytes:
    """The PNG of one state's frame (without its banner) on the timelapse's ``region``."""
    return render_board(ruleset, state, region=region, palette=palette).png


def assemble_timelapse(title: str, labels: Sequence[str], pngs: Sequence[bytes]) -> bytes:
    """The GIF of frames already drawn (:func:`render_frame`), each under a banner with its label."""
    if not pngs or len(labels) != len(pngs):
        raise ValueError("a timelapse needs at least one frame, and a label for each")
    boards = [Image.open(BytesIO(png)).convert("RGB") for png in pngs]
    width = max(b.width for b in boards)
    height = max(b.height for b in boards)
    # the banner is added after scaling, so the update stays readable however small the board gets
    scale = min(1.0, TARGET_WIDTH / width, (MAX_SIDE - BANNER_HEIGHT) / height)
    while True:
        data = _encode(_frames(title, list(labels), boards, width, height, scale))
        if len(data) <= MAX_BYTES or scale < 0.05:
            return data
        scale *= 0.8 if len(data) < 2 * MAX_BYTES else 0.9 * (MAX_BYTES / len(data)) ** 0.5


def _frames(title: str, labels: list[str], boards: list[Image.Image], width: int, height: int,
            scale: float) -> list[Image.Image]:
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    frame_width = max(size[0], MIN_FRAME_WIDTH)
    frames = []
    for banner_words, board in zip(banners(title, labels), boards):
        if scale < 1.0:
            board = board.resize((max(1, round(board.width * scale)), max(1, round(board.height * scale))),
                                 Image.Resampling.LANCZOS)
        banner = _banner(frame_width, banner_words)
        frame = Image.new("RGB", (frame_width, BANNER_HEIGHT + size[1]), (255, 255, 255))
        frame.paste(banner, (0, 0))
        frame.paste(board, ((frame_width - board.width) // 2, BANNER_HEIGHT))
        frames.append(frame)
    return frames
