"""The board painter: a :class:`~bot.render.scene.board.BoardScene` as pixels.

:func:`paint_squares` draws the squares of a scene (or of a window of it) at a whole number of
pixels a square, with nothing around them: what a second painter (web tiles) needs, pixel for pixel
the squares of the PNG board. :class:`BoardPainter` lays out the whole picture around them at the
largest scale that fits: the axis labels, the title and the legend.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from ..scene.board import BoardScene, Stack
from ..scene.colours import BACKGROUND, BOUND_LINE, DARK, FIVE_LINE, HIGHLIGHT, LIGHT, RANK0_LINE, TEXT
from ..scene.grid import Region
from ..scene.kingdoms import TAG_REACH
from ..scene.limits import MAX_SCALE, MAX_SIDE, MIN_SCALE
from . import kingdoms, marks
from .layout import BoardLayout, Box, Label
from .legend import Legend, paint_legend
from .sprites import bold_font, draw_piece
from .text import centred_text, text_size


# ----------------------------------------------------------------------------- the squares
def paint_squares(scene: BoardScene, scale: int, window: Region | None = None) -> Image.Image:
    """The squares of ``window`` (x0, y0, x1, y1 inclusive, within ``scene.region``; by default all of
    them) at ``scale`` pixels a square, x growing rightward and y upward, with no labels, title,
    legend or margin: pixel for pixel the same squares as the PNG board of ``scene`` drawn at that
    scale (what stands on a square, a mark, a move's arrow reaching in from outside the window)."""
    return _Squares(scene, scale, window).paint()[0]


class _Squares:
    """The drawing of a scene's squares, each step in the order the board is drawn."""

    def __init__(self, scene: BoardScene, scale: int, window: Region | None) -> None:
        self.scene, self.s = scene, scale
        self.window = window = window or scene.region
        x0, y0, x1, y1 = scene.region
        wx0, wy0, wx1, wy1 = window
        if not (x0 <= wx0 <= wx1 <= x1 and y0 <= wy0 <= wy1 <= y1):
            raise ValueError(f"the window {window} is not inside the scene's region {scene.region}")
        # what stands on a square stays inside it: the window's squares are drawn, no others (Pillow
        # rounds a negative coordinate toward zero, so a neighbour drawn left of the window could
        # leave a pixel in it that the board has not)
        self.near = window
        self.marks: list = []       # (Mark, its pixel box) of each token drawn
        self.fading: list = []      # (Fading, its pixel box) of each fading badge drawn

    def box(self, square) -> Box:
        s = self.s
        px = (square[0] - self.window[0]) * s
        py = (self.window[3] - square[1]) * s
        return px, py, px + s, py + s

    def shows(self, square) -> bool:
        x0, y0, x1, y1 = self.near
        return x0 <= square[0] <= x1 and y0 <= square[1] <= y1

    def paint(self) -> tuple[Image.Image, list, list]:
        wx0, wy0, wx1, wy1 = self.window
        s = self.s
        image = Image.new("RGB", ((wx1 - wx0 + 1) * s, (wy1 - wy0 + 1) * s), LIGHT)
        draw = ImageDraw.Draw(image)
        self._checker(draw)
        self._fills(draw)
        self._lines(draw)
        self._kingdoms(draw)
        self._tokens(draw, corner=False)
        for square in self.scene.highlights:
            if self.shows(square):
                box = self.box(square)
                draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), outline=HIGHLIGHT, width=max(2, s // 10))
        for stack in self.scene.stacks:
            if self.shows(stack.square):
                self._stack(draw, stack)
        if self.scene.arrows:
            image = self._arrows(image)
            draw = ImageDraw.Draw(image)
        for target in self.scene.crosses:
            if self.shows(target):
                marks.cross(draw, self.box(target), s)
        self._tokens(draw, corner=True)
        for badge in self.scene.fading:
            if self.shows(badge.fading.square):
                self.fading.append((badge.fading, marks.fading_badge(draw, self.box(badge.fading.square), badge, s)))
        return image, self.marks, self.fading

    def _checker(self, draw: ImageDraw.ImageDraw) -> None:
        """The dark squares over a light background; rank 0 and the squares outside by row."""
        wx0, wy0, wx1, wy1 = self.window
        s, scene = self.s, self.scene
        for y in range(wy0, wy1 + 1):
            py = (wy1 - y) * s
            if y == 0 or scene.bounds is not None:
                for x in range(wx0, wx1 + 1):
                    colour = scene.square_colour(x, y)
                    if colour != LIGHT:
                        px = (x - wx0) * s
                        draw.rectangle((px, py, px + s - 1, py + s - 1), fill=colour)
            else:
                for x in range(wx0 + ((wx0 + y) % 2), wx1 + 1, 2):   # from the first dark square of the row
                    px = (x - wx0) * s
                    draw.rectangle((px, py, px + s - 1, py + s - 1), fill=DARK)

    def _fills(self, draw: ImageDraw.ImageDraw) -> None:
        for fill in self.scene.fills:
            if not self.shows(fill.square):
                continue
            box = self.box(fill.square)
            draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=fill.colour)
            if fill.symbol == "burst":
                marks.burst(draw, box)
            elif fill.symbol == "star":
                marks.star(draw, box, max(8, int(self.s * 0.9)))

    def _lines(self, draw: ImageDraw.ImageDraw) -> None:
        """A heavier line every five squares, rank 0's edges, the bounds."""
        wx0, wy0, wx1, wy1 = self.window
        s, scene = self.s, self.scene
        width, height = (wx1 - wx0 + 1) * s, (wy1 - wy0 + 1) * s
        for x in scene.heavy_columns:
            if wx0 <= x <= wx1:
                draw.line(((x - wx0) * s, 0, (x - wx0) * s, height), fill=FIVE_LINE, width=1)
        for y in scene.heavy_rows:
            if wy0 <= y <= wy1:
                draw.line((0, (wy1 - y) * s, width, (wy1 - y) * s), fill=FIVE_LINE, width=1)
        if scene.rank0:
            py = wy1 * s
            draw.line((0, py, width, py), fill=RANK0_LINE, width=2)
            draw.line((0, py + s, width, py + s), fill=RANK0_LINE, width=2)
        if scene.bounds is not None:
            (bx0, by0), (bx1, by1) = scene.bounds
            left, right = (bx0 - wx0) * s, (bx1 - wx0 + 1) * s
            top, bottom = (wy1 - by1) * s, (wy1 - by0 + 1) * s
            line = max(3, s // 8)
            draw.rectangle((left - line // 2, top - line // 2, right + line // 2 - 1, bottom + line // 2 - 1),
                           outline=BOUND_LINE, width=line)

    def _kingdoms(self, draw: ImageDraw.ImageDraw) -> None:
        """Each kingdom's edge, then its owner's name on it (:mod:`.kingdoms`)."""
        for edge in self.scene.kingdom_edges:
            if self.shows(edge.square):
                kingdoms.edge(draw, self.box(edge.square), edge, self.s)
        for tag in self.scene.kingdom_tags:     # a long name reaches into the squares either side
            x, y = tag.square
            if any(self.shows((x + dx, y)) for dx in range(-TAG_REACH, TAG_REACH + 1)):
                kingdoms.tag(draw, self.box(tag.square), tag, self.s)

    def _tokens(self, draw: ImageDraw.ImageDraw, corner: bool) -> None:
        """Marks on empty squares fill them (under the pieces' layer); under a piece, a small token in
        the square's corner (over it)."""
        s = self.s
        for token in self.scene.tokens:
            if token.corner != corner or not self.shows(token.mark.square):
                continue
            box = self.box(token.mark.square)
            if corner:
                d = max(10, round(s * 0.48))
                self.marks.append((token.mark, marks.token(draw, (box[2] - d, box[3] - d, box[2], box[3]), token, d)))
            else:
                self.marks.append((token.mark, marks.token(draw, box, token, s)))

    def _stack(self, draw: ImageDraw.ImageDraw, stack: Stack) -> None:
        s = self.s
        box = self.box(stack.square)
        if len(stack.pieces) == 1:
            self._piece(draw, box, stack.pieces[0], max(1, round(s * 0.06)), s)
        else:
            half = s // 2
            for index, piece in enumerate(stack.pieces):
                dx, dy = (index % 2) * half, (index // 2) * half
                self._piece(draw, (box[0] + dx, box[1] + dy, box[0] + dx + half, box[1] + dy + half), piece, 0, half)
        if stack.crowd is not None:
            marks.badge(draw, box, stack.crowd, s)

    @staticmethod
    def _piece(draw: ImageDraw.ImageDraw, box: Box, view, pad: int, s: int) -> None:
        if view.aura is not None:
            marks.rainbow(draw, box, view.aura)
        if view.frame is not None:
            draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), outline=view.frame, width=max(2, s // 9))
        draw_piece(draw, (box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad), view.kind, view.tones,
                   hollow=view.hollow)
        if view.capturable:
            marks.triangles(draw, box, s)
        if s >= 12:     # a badge needs room to be read
            for badge in view.badges:
                marks.badge(draw, box, badge, s)

    def _arrows(self, image: Image.Image) -> Image.Image:
        """The last moves' arrows over everything, translucent."""
        overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(overlay)
        whole = self.window == self.scene.region
        x0, y0, x1, y1 = self.near
        for arrow in self.scene.arrows:
            (ax, ay), (bx, by) = arrow.origin, arrow.target
            if whole:
                marks.arrow(draw, self.box(arrow.origin), self.box(arrow.target), arrow.colour, self.s)
            elif min(ax, bx) <= x1 and max(ax, bx) >= x0 and min(ay, by) <= y1 and max(ay, by) >= y0:
                self._arrow_in_window(overlay, arrow)
        return Image.alpha_composite(image.convert("RGBA"), overlay).convert("RGB")

    def _arrow_in_window(self, overlay: Image.Image, arrow) -> None:
        """An arrow as the whole board draws it, cut to the window. Pillow's lines and polygons are
        the same pixels moved by a whole number of pixels only where their corners stay on the same
        side of zero: the arrow is drawn in the board's own pixels, from its left (top) edge, or the
        board's, to the window's far corner, and its pixels copied over the window's."""
        s, (x0, _, _, y1) = self.s, self.scene.region
        left, top = (self.window[0] - x0) * s, (y1 - self.window[3]) * s     # the window's corner on the board

        def board_box(square) -> Box:
            px, py = (square[0] - x0) * s, (y1 - square[1]) * s
            return px, py, px + s, py + s

        a, b = board_box(arrow.origin), board_box(arrow.target)
        kx = max(0, min(left, min(a[0], b[0]) - s))         # the canvas's corner on the board: no corner
        ky = max(0, min(top, min(a[1], b[1]) - s))          # of the arrow left or above it
        canvas = Image.new("RGBA", (left - kx + overlay.width, top - ky + overlay.height), (0, 0, 0, 0))
        moved = lambda box: (box[0] - kx, box[1] - ky, box[2] - kx, box[3] - ky)  # noqa: E731
        marks.arrow(ImageDraw.Draw(canvas), moved(a), moved(b), arrow.colour, s)
        part = canvas.crop((left - kx, top - ky, left - kx + overlay.width, top - ky + overlay.height))
        overlay.paste(part, (0, 0), part.getchannel("A").point(lambda alpha: 255 if alpha else 0))


# ----------------------------------------------------------------------------- the picture
@dataclass(frozen=True)
class _Frame:
    """A board picture's geometry: the side of a square, the label step, the board's top-left corner,
    the picture's size, the legend, the labels' and the title's faces and room."""

    s: int
    step: int
    left: int
    top: int
    width: int
    height: int
    legend: Legend
    label_face: object
    title_face: object
    y_label_width: int
    x_label_height: int
    title_height: int
    legend_below: bool = False


class BoardPainter:
    """The board picture of a scene: its squares at the largest scale up to :data:`MAX_SCALE` that
    fits :data:`MAX_SIDE` with the legend (or at ``scale``, an inset's), axis labels on four sides
    at the smallest of the scene's label steps that leaves them room, the title, the legend."""

    def __init__(self, scene: BoardScene, scale: int | None = None) -> None:
        self.scene, self.fixed_scale = scene, scale
        self.nx, self.ny = scene.size
        self.drawn_marks: list = []
        self.drawn_fading: list = []

    def _scale(self, legend_width: int) -> int:
        label_room = 2 * 70 + 2 * 12     # y labels both sides, padding; refined below
        title_room = 40 + 2 * 30
        across = (MAX_SIDE - label_room - legend_width) // self.nx
        down = (MAX_SIDE - title_room) // self.ny
        return min(MAX_SCALE, across, down)

    def _frame(self) -> _Frame | None:
        """The picture's geometry: the scale, the board's corner, the labels' room, the legend. A
        board laid out for a chat's preview (``scene.fit_preview``) has its legend beside it or under
        it, whichever shows the larger squares in a square preview box: a chat shrinks a picture to
        its preview's width (Discord's, about 550 pixels) and caps its height too, so a legend beside
        a wide board costs its squares width, and one under a narrow board height (issue 39: an arena
        of 8 players, 2200 pixels wide, showed squares of 11 pixels in a 550-pixel preview)."""
        if not self.scene.fit_preview:
            return self._frame_of(below=False)
        frames = [frame for frame in (self._frame_of(below=True), self._frame_of(below=False)) if frame is not None]
        return max(frames, key=lambda frame: frame.s / max(frame.width, frame.height), default=None)

    def _frame_of(self, below: bool) -> _Frame | None:
        """The picture's geometry with the legend beside the board, or ``below`` it."""
        scene = self.scene
        legend = Legend(scene.legend, MAX_SIDE - 120, MAX_SCALE)
        s = self._scale(0 if below else legend.width) if self.fixed_scale is None else self.fixed_scale
        if s < MIN_SCALE:
            return None
        label_face = bold_font(max(11, min(15, round(s * 0.36))))
        title_face = bold_font(max(16, min(20, round(s * 0.42))))
        step = self._label_step(label_face, s)      # of the scale planned, before the legend shrinks it
        y_label_width = max(text_size(label_face, text)[0] for text in [label.text for label in scene.rows] + ["-00"]) + 10
        x_label_height = text_size(label_face, "-0123456789")[1] + 10
        title_height = 40
        left, top = y_label_width + 6, title_height + x_label_height
        if below:
            # the legend in columns under the board, which takes the picture's width
            legend = Legend(scene.legend, 0, s, across=self.nx * s + y_label_width + 6)

            def size(s: int) -> tuple[int, int]:
                return (max(left + self.nx * s + y_label_width + 6, left + legend.width),
                        top + self.ny * s + x_label_height + 8 + legend.height)
        else:
            # the legend may run below a short board rather than spread sideways into its room
            legend = Legend(scene.legend, max(self.ny * s + 2 * x_label_height, 1000), s)

            def size(s: int) -> tuple[int, int]:
                return (left + self.nx * s + y_label_width + 6 + legend.width,
                        max(top + self.ny * s + x_label_height + 8, title_height + legend.height + 8))

        width, height = size(s)
        if width > MAX_SIDE or height > MAX_SIDE:
            # the legend grew into more columns than planned: shrink the squares to make room
            s = min(s - max(1, math.ceil((width - MAX_SIDE) / self.nx)) if width > MAX_SIDE else s,
                    s - max(1, math.ceil((height - MAX_SIDE) / self.ny)) if height > MAX_SIDE else s)
            if s < MIN_SCALE:
                return None
            width, height = size(s)
        if scene.inset is not None:     # its title names it and its squares: room for it all
            width = max(width, left + text_size(title_face, scene.title)[0] + 12)
        return _Frame(s=s, step=step, left=left, top=top, width=width, height=height, legend=legend, label_face=label_face,
                      title_face=title_face, y_label_width=y_label_width, x_label_height=x_label_height,
                      title_height=title_height, legend_below=below)

    def paint(self) -> tuple[Image.Image | None, BoardLayout | None]:
        frame = self._frame()
        if frame is None:
            return None, None
        scene, s, left, top = self.scene, frame.s, frame.left, frame.top
        board_w, board_h = self.nx * s, self.ny * s
        image = Image.new("RGB", (frame.width, frame.height), BACKGROUND)
        draw = ImageDraw.Draw(image)
        squares, drawn_marks, drawn_fading = _Squares(scene, s, None).paint()
        image.paste(squares, (left, top))
        draw.rectangle((left - 1, top - 1, left + board_w, top + board_h), outline=TEXT)
        labels = self._labels(draw, frame)
        title = scene.title
        if text_size(frame.title_face, title)[0] > frame.width - left - 8:
            title = scene.short_title
        draw.text((left, 10), title, font=frame.title_face, fill=TEXT)
        if frame.legend_below:
            paint_legend(draw, frame.legend, (left, top + board_h + frame.x_label_height + 4))
        else:
            paint_legend(draw, frame.legend, (left + board_w + frame.y_label_width + 12, frame.title_height))
        shift = lambda box: (box[0] + left, box[1] + top, box[2] + left, box[3] + top)  # noqa: E731
        layout = BoardLayout(region=scene.region, scale=s, overview=False, board_box=(left, top, left + board_w, top + board_h),
                             labels=tuple(labels), marks=tuple((mark, shift(box)) for mark, box in drawn_marks),
                             kingdoms=scene.kingdoms, fading=tuple((fading, shift(box)) for fading, box in drawn_fading),
                             focus=scene.caption)
        return image, layout

    def _label_step(self, face, s: int) -> int:
        """The first of the scene's label steps at which the widest x label has room."""
        x0, _, x1, _ = self.scene.region
        widest = max(text_size(face, str(x0))[0], text_size(face, str(x1))[0], text_size(face, "-0")[0])
        return next((step for step in self.scene.label_steps if step * s >= widest + 6), self.scene.label_steps[-1])

    def _labels(self, draw: ImageDraw.ImageDraw, frame: _Frame) -> list[Label]:
        """The axis labels on all four sides: x above and below, y left and right."""
        s, left, top, face = frame.s, frame.left, frame.top, frame.label_face
        x0, y0, x1, y1 = self.scene.region
        step = frame.step
        half_height, half_width = frame.x_label_height // 2, frame.y_label_width // 2
        labels: list[Label] = []
        for label in self.scene.columns:
            if label.value % step:
                continue
            cx = left + (label.value - x0) * s + s // 2
            for side, cy in (("top", top - half_height), ("bottom", top + self.ny * s + half_height)):
                labels.append(Label(label.text, "x", label.value, side, _axis_text(draw, face, label, cx, cy)))
        for label in self.scene.rows:
            cy = top + (y1 - label.value) * s + s // 2
            for side, cx in (("left", left - 3 - half_width), ("right", left + self.nx * s + 3 + half_width)):
                labels.append(Label(label.text, "y", label.value, side, _axis_text(draw, face, label, cx, cy)))
        return labels


def _axis_text(draw: ImageDraw.ImageDraw, face, label, cx: int, cy: int) -> Box:
    box = centred_text(draw, label.text, face.size, (cx, cy), label.ink)
    if label.underline:
        draw.line((box[0], box[3] + 1, box[2], box[3] + 1), fill=label.ink, width=1)
    return box
