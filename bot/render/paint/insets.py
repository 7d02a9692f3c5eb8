"""The inset composition: each inset's board at the largest scale at which they all fit, side by
side in reading order (rows no wider than the picture), with the one legend."""

from __future__ import annotations

from PIL import Image, ImageDraw

from ..scene.colours import BACKGROUND, MUTED, TEXT
from ..scene.insets import InsetScene
from ..scene.limits import MAX_SCALE, MAX_SIDE, MIN_SCALE
from .board import BoardPainter
from .layout import BoardLayout, Inset, Label
from .legend import Legend, paint_legend
from .sprites import bold_font, font

INSET_GAP = 24              # pixels between insets
_MARGIN, _HEADER = 12, 62   # pixels around the insets, above them (the titles)


def paint_insets(scene: InsetScene) -> tuple[Image.Image | None, BoardLayout | None]:
    """The picture, or ``(None, None)`` when the insets do not fit even at :data:`MIN_SCALE`."""
    for scale in range(MAX_SCALE, MIN_SCALE - 1, -2):
        painted = []
        for name, cell, inset in scene.insets:
            image, layout = BoardPainter(inset, scale).paint()
            if image is None:
                break
            painted.append((name, cell, image, layout))
        if len(painted) < len(scene.insets):
            continue
        legend = Legend(scene.legend, max(MAX_SIDE - _HEADER - _MARGIN, 600), scale)
        room = MAX_SIDE - 2 * _MARGIN - legend.width - INSET_GAP
        corners, used_w, used_h = _shelves([(image.width, image.height) for *_, image, _ in painted], room)
        width = 2 * _MARGIN + used_w + (INSET_GAP + legend.width if legend.width else 0)
        height = _HEADER + max(used_h, legend.height) + _MARGIN
        if width <= MAX_SIDE and height <= MAX_SIDE:
            return _compose(scene, painted, corners, legend, scale, (width, height), used_w)
    return None, None


def _shelves(sizes: list[tuple[int, int]], room: int) -> tuple[list[tuple[int, int]], int, int]:
    """Top-left corners of boxes of ``sizes`` laid left to right in rows no wider than ``room``;
    the width and height they take."""
    corners, x, y, shelf, widest = [], 0, 0, 0, 0
    for w, h in sizes:
        if x and x + w > room:
            x, y, shelf = 0, y + shelf + INSET_GAP, 0
        corners.append((x, y))
        x += w + INSET_GAP
        shelf = max(shelf, h)
        widest = max(widest, x - INSET_GAP)
    return corners, widest, y + shelf


def _compose(scene: InsetScene, painted, corners, legend: Legend, scale: int, size: tuple[int, int],
             used_w: int) -> tuple[Image.Image, BoardLayout]:
    image = Image.new("RGB", size, BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((_MARGIN, 8), scene.title, font=bold_font(18), fill=TEXT)
    draw.text((_MARGIN, 34), scene.subtitle, font=font(14), fill=MUTED)
    labels, marks, kingdoms, fading, insets = [], [], [], [], []
    for (name, cell, inset_image, layout), (cx, cy) in zip(painted, corners):
        ox, oy = _MARGIN + cx, _HEADER + cy
        image.paste(inset_image, (ox, oy))
        shift = lambda box, ox=ox, oy=oy: (box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy)  # noqa: E731
        board = shift(layout.board_box)
        draw.rectangle((board[0] - 3, board[1] - 3, board[2] + 2, board[3] + 2), outline=(90, 90, 90), width=1)
        insets.append(Inset(name, cell, board, scale))
        labels += [Label(label.text, label.axis, label.value, label.side, shift(label.box)) for label in layout.labels]
        marks += [(mark, shift(box)) for mark, box in layout.marks]
        fading += [(item, shift(box)) for item, box in layout.fading]
        kingdoms += [k for k in layout.kingdoms if k not in kingdoms]
    if legend.width:
        paint_legend(draw, legend, (_MARGIN + used_w + INSET_GAP, _HEADER))
    box = (min(i.board_box[0] for i in insets), min(i.board_box[1] for i in insets),
           max(i.board_box[2] for i in insets), max(i.board_box[3] for i in insets))
    layout = BoardLayout(region=scene.region, scale=scale, overview=False, board_box=box, labels=tuple(labels),
                         viewports={i.name: i.region for i in insets}, marks=tuple(marks),
                         kingdoms=tuple(kingdoms), fading=tuple(fading), focus=scene.caption, insets=tuple(insets))
    return image, layout
