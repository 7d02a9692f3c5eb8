"""The overview painter: an :class:`~bot.render.scene.overview.Overview` as pixels, pieces as dots
on a grid of viewports, each occupied viewport named (in it, or on a tag beside it), the columns
lettered and the rows numbered with each one's coordinates, the players' legend.

What a dot shows where several squares share its pixels (the owner of most of them, the first by
name of those tied) is worked out here, from the dots' pixel positions, with the numbers of 50,000
pieces at once (issue 25): it depends on the cell's size in pixels, which is the painter's.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from operator import add
from types import SimpleNamespace

from PIL import Image, ImageDraw

from ...engine.model import Square
from ..palette import NEUTRAL_RGB
from ..scene.colours import BACKGROUND, DARK, LIGHT, MUTED, TEXT
from ..scene.grid import Region, viewport_name
from ..scene.limits import DETAILED_CELL_SCALE, LEGEND_PLAYERS, MAX_SCALE, MAX_SIDE
from ..scene.overview import DetailedPiece, Overview
from .glyphs import draw_text
from .layout import BoardLayout, Box, Label, Painted, overlap, span_index
from .sprites import bold_font, draw_piece, font
from .text import centred_text, mask_of, mask_size, middle_rise, text_size, upright_mask

# the bits of an overview's dot numbers: the dot's pixel y and x, its row and column (at most
# MAX_GRID: 8 bits), whether its column, its row is drawn in detail
_DOT_X, _DOT_ROW, _DOT_COLUMN = 16, 32, 40
_DOT_DETAILED_X, _DOT_DETAILED_Y = 1 << 48, 1 << 49
_DOT_DETAILED = _DOT_DETAILED_X | _DOT_DETAILED_Y


def paint_overview(overview: Overview) -> Painted:
    """The overview drawn (:meth:`~bot.render.paint.layout.Painted.encode` writes its PNG)."""
    return Painted(*OverviewPainter(overview).paint())


class OverviewPainter:
    """The overview: pieces as dots on a grid of viewports. Of the additions it shows King of the Hill's
    squares; kingdoms, fading counters and other marks are drawn when a viewport is asked for. It
    reads only the :class:`Overview`'s numbers, so that another process may draw it."""

    def __init__(self, overview: Overview) -> None:
        self.overview = overview
        self.region, self.caption = overview.region, overview.caption

    def paint(self) -> tuple[Image.Image, BoardLayout]:
        self._plan()
        g = self.g
        image = Image.new("RGB", (g.width, g.height), BACKGROUND)
        draw = ImageDraw.Draw(image)
        draw.rectangle((g.left, g.top, g.left + g.board_w - 1, g.top + g.board_h - 1), fill=(226, 220, 208))
        # pieces: a dot per square in its owner's colour, at each cell's own scale; where several
        # squares share a dot, the owner of most of them (the first by name of those tied)
        counts, winner, owner_bits = self._dot_numbers()
        occupied = self._cells(draw, counts, owner_bits)
        self._dots(image, counts, winner, owner_bits)
        self._grid(draw, occupied)
        self._hills(draw)
        labels = self._labels(draw)
        viewports = self._tags(draw, occupied)
        return image, self._finish(draw, labels, viewports)

    def _cell_origin(self, c: int, r: int) -> tuple[int, int]:
        return self.g.left + c * self.g.cell, self.g.top + (self.g.n_rows - 1 - r) * self.g.cell

    def _plan(self) -> None:
        overview = self.overview
        x0, y0, x1, y1 = self.region
        columns, rows = overview.grid
        column_starts = [a for a, _ in columns]
        row_starts = [a for a, _ in rows]
        n_cols, n_rows = len(columns), len(rows)

        # sizes: labels around a grid of square cells, the players' legend on the right
        title_height = 44
        label_size = 13
        col_names = [viewport_name(i, 0)[:-1] for i in range(n_cols)]
        row_names = [str(i + 1) for i in range(n_rows)]
        # each span's coordinates are drawn from these masks below: their width is the text's
        range_width = max(mask_size(f"{a}..{b}", 11, False)[0] for a, b in columns + rows)
        row_label_w = max(text_size(bold_font(label_size), t)[0] for t in row_names) + 12
        top_label_h = 22
        bottom_label_h = range_width + 14
        right_w = range_width + 16
        legend_w = 250
        avail_w = MAX_SIDE - row_label_w - right_w - legend_w - 20
        avail_h = MAX_SIDE - title_height - top_label_h - bottom_label_h - 10
        widest = max(b - a + 1 for a, b in columns + rows)
        cell = max(8, min(avail_w // n_cols, avail_h // n_rows, widest * MAX_SCALE, 400))
        board_w, board_h = cell * n_cols, cell * n_rows
        left = row_label_w
        top = title_height + top_label_h
        legend_rows = min(overview.players, LEGEND_PLAYERS) + 3
        title_width = text_size(font(13), "Too far apart for one board: ask for a viewport, named by its column "
                                           "letter and row number (such as AA100), to see its squares.")[0]
        width = min(MAX_SIDE, max(left + board_w + right_w + legend_w, left + title_width + 12))
        height = min(MAX_SIDE, max(top + board_h + bottom_label_h, title_height + legend_rows * 22 + 40))
        column_scale = [cell / (b - a + 1) for a, b in columns]
        row_scale = [cell / (b - a + 1) for a, b in rows]
        self.g = SimpleNamespace(x0=x0, y0=y0, x1=x1, y1=y1, columns=columns, rows=rows, column_starts=column_starts, row_starts=row_starts, n_cols=n_cols, n_rows=n_rows, title_height=title_height, label_size=label_size, col_names=col_names, row_names=row_names, top_label_h=top_label_h, right_w=right_w, widest=widest, cell=cell, board_w=board_w, board_h=board_h, left=left, top=top, width=width, height=height, column_scale=column_scale, row_scale=row_scale)

    def _dot_numbers(self) -> tuple[Counter, dict[int, int], int]:
        overview = self.overview
        g = self.g
        (columns, rows, n_rows, cell, left, top, column_scale, row_scale) = \
            (g.columns, g.rows, g.n_rows, g.cell, g.left, g.top, g.column_scale, g.row_scale)
        # each x (y) of a piece once, not per piece (50,000 of them): a number holding its column
        # (row), where its dot begins and whether it is drawn in detail (_DOT_*); a piece's number is
        # the sum of its x's, its y's and its owner's (below them, in owner_bits), worked out for all
        # the pieces at once in C (no tuple per piece either: see BoardRead)
        owner_list = overview.owner_names
        owner_bits = len(owner_list).bit_length()
        nowhere = -(_DOT_DETAILED << (owner_bits + 1))    # outside every column (row): the sum is negative
        at_x = dict.fromkeys(overview.values[0], nowhere)
        at_x.update((x, (c << _DOT_COLUMN | (left + c * cell + int((x - columns[c][0]) * column_scale[c])) << _DOT_X
                         | (_DOT_DETAILED_X if column_scale[c] >= DETAILED_CELL_SCALE else 0)) << owner_bits)
                    for x, c in overview.column_of.items())
        at_y = dict.fromkeys(overview.values[1], nowhere)
        at_y.update((y, (r << _DOT_ROW | top + (n_rows - 1 - r) * cell + int((rows[r][1] - y) * row_scale[r])
                         | (_DOT_DETAILED_Y if row_scale[r] >= DETAILED_CELL_SCALE else 0)) << owner_bits)
                    for y, r in overview.row_of.items())
        owner_no = {owner: number for number, owner in enumerate(owner_list)}
        counts = Counter(map(add, map(add, map(at_x.__getitem__, overview.xs), map(at_y.__getitem__, overview.ys)),
                             overview.owners))    # each number once, in the order its first piece is met
        mask = (1 << owner_bits) - 1
        # a dot several owners share goes to the owner of most pieces there (ties: the first by name)
        owners_per_dot = Counter(map(owner_bits.__rrshift__, counts))      # number >> owner_bits
        shared = {dot for dot, owners_here in owners_per_dot.items() if owners_here > 1 and dot >= 0}
        winner: dict[int, int] = {}
        if shared:
            owners_at: dict[int, dict[str | None, int]] = defaultdict(dict)
            for number, count in counts.items():
                if number >> owner_bits in shared:
                    owners_at[number >> owner_bits][owner_list[number & mask]] = count
            for dot, here in owners_at.items():
                winner[dot] = owner_no[max(sorted(here, key=str), key=here.__getitem__)]
        return counts, winner, owner_bits

    def _cells(self, draw: ImageDraw.ImageDraw, counts: Counter, owner_bits: int) -> dict[tuple[int, int], int]:
        overview = self.overview
        g = self.g
        columns, rows, cell, column_scale, row_scale = g.columns, g.rows, g.cell, g.column_scale, g.row_scale
        # how many pieces each cell holds (the column and row bits of the numbers)
        in_cell: dict[int, int] = defaultdict(int)
        cell_bits = owner_bits + _DOT_ROW
        for number, count in counts.items():
            if number >= 0:
                in_cell[number >> cell_bits] += count
        occupied = {(code >> 8 & 0xFF, code & 0xFF): count for code, count in in_cell.items()}
        for (c, r) in occupied:
            cx, cy = self._cell_origin(c, r)
            draw.rectangle((cx, cy, cx + cell - 1, cy + cell - 1), fill=(250, 247, 240))
        if overview.detailed:
            # cells big enough for sprites, their pieces in the board's order (those of the
            # overview's pieces that stand where a cell might be drawn in detail)
            detailed: dict[tuple[int, int], list[DetailedPiece]] = defaultdict(list)
            column_of, row_of = overview.column_of, overview.row_of
            for piece in overview.detailed:
                c, r = column_of.get(piece[0]), row_of.get(piece[1])
                if (c is not None and r is not None and column_scale[c] >= DETAILED_CELL_SCALE
                        and row_scale[r] >= DETAILED_CELL_SCALE):
                    detailed[(c, r)].append(piece)
            for (c, r), here in detailed.items():
                self._detailed_cell(draw, self._cell_origin(c, r), columns[c], rows[r], column_scale[c], row_scale[r], here)
        return occupied

    def _dots(self, image: Image.Image, counts: Counter, winner: dict[int, int], owner_bits: int) -> None:
        overview = self.overview
        g = self.g
        width, height, column_scale, row_scale = g.width, g.height, g.column_scale, g.row_scale
        mask = (1 << owner_bits) - 1
        detailed_from = _DOT_DETAILED << owner_bits
        # each dot a box of its owner's colour (two tones: the left half in the first), in the
        # order found (a shared dot where its first piece is): a dot may overlap the one before it
        core = image.im
        widths = [max(2, math.ceil(scale)) for scale in column_scale]
        heights = [max(2, math.ceil(scale)) for scale in row_scale]
        tones_of = [tones or (NEUTRAL_RGB,) for tones in overview.tones]
        drawn: set[int] = set()
        for number in counts:
            if number < 0 or number >= detailed_from:    # outside every column or row; drawn in detail
                continue
            dot = number >> owner_bits
            if dot in winner:
                if dot in drawn:
                    continue
                drawn.add(dot)
                tones = tones_of[winner[dot]]
            else:
                tones = tones_of[number & mask]
            px, py = dot >> _DOT_X & 0xFFFF, dot & 0xFFFF
            w = widths[dot >> _DOT_COLUMN & 0xFF]
            right, bottom = min(px + w, width), min(py + heights[dot >> _DOT_ROW & 0xFF], height)
            if right <= px or bottom <= py:
                continue
            if len(tones) == 1:
                core.paste(tones[0], (px, py, right, bottom))
            else:
                middle = min(px + w // 2, right)
                if middle > px:
                    core.paste(tones[0], (px, py, middle, bottom))
                if right > middle:
                    core.paste(tones[1], (middle, py, right, bottom))

    def _grid(self, draw: ImageDraw.ImageDraw, occupied: dict[tuple[int, int], int]) -> None:
        g = self.g
        (columns, rows, n_cols, n_rows, cell, board_w, board_h, left, top) = \
            (g.columns, g.rows, g.n_cols, g.n_rows, g.cell, g.board_w, g.board_h, g.left, g.top)
        # the grid: thin lines between adjacent viewports, a double "break" line across a gap
        for i in range(1, n_cols):
            px = left + i * cell
            squeezed = columns[i][0] > columns[i - 1][1] + 1
            self._grid_line(draw, (px, top, px, top + board_h - 1), squeezed, vertical=True)
        for i in range(1, n_rows):
            py = top + (n_rows - i) * cell
            squeezed = rows[i][0] > rows[i - 1][1] + 1
            self._grid_line(draw, (left, py, left + board_w - 1, py), squeezed, vertical=False)
        for (c, r) in occupied:
            cx, cy = self._cell_origin(c, r)
            draw.rectangle((cx, cy, cx + cell, cy + cell), outline=(60, 60, 60))
        draw.rectangle((left - 1, top - 1, left + board_w, top + board_h), outline=TEXT)

    def _hills(self, draw: ImageDraw.ImageDraw) -> None:
        overview = self.overview
        g = self.g
        (columns, rows, column_starts, row_starts, cell, column_scale, row_scale) = \
            (g.columns, g.rows, g.column_starts, g.row_starts, g.cell, g.column_scale, g.row_scale)
        # King of the Hill squares
        for square in overview.hills:
            c, r = span_index(columns, square[0], column_starts), span_index(rows, square[1], row_starts)
            if c is not None and r is not None:
                cx, cy = self._cell_origin(c, r)
                px = cx + int((square[0] - columns[c][0]) * column_scale[c])
                py = cy + int((rows[r][1] - square[1]) * row_scale[r])
                centred_text(draw, "\u2605", max(10, cell // 3), (px, py), (230, 160, 0), bold=False)

    def _labels(self, draw: ImageDraw.ImageDraw) -> list[Label]:
        g = self.g
        (columns, rows, n_rows, label_size, col_names, row_names, top_label_h, cell, board_w, board_h, left, top) = \
            (g.columns, g.rows, g.n_rows, g.label_size, g.col_names, g.row_names, g.top_label_h, g.cell, g.board_w, g.board_h, g.left, g.top)
        # column letters above, rows numbered upward on the left; each span's coordinates beside
        labels: list[Label] = []
        every_column = max(1, math.ceil((text_size(bold_font(label_size), "WW")[0] + 4) / cell))
        every_row = max(1, math.ceil(16 / cell))
        for i, name in enumerate(col_names):
            cx = left + i * cell + cell // 2
            if i % every_column == 0:
                box = centred_text(draw, name, label_size, (cx, top - top_label_h // 2), TEXT)
                labels.append(Label(name, "column", i, "top", box))
            if cell >= 12:
                a, b = columns[i]
                rotated = upright_mask(f"{a}..{b}", 11, False)
                draw.bitmap((cx - rotated.width // 2, top + board_h + 6), rotated, fill=MUTED)
        for j, name in enumerate(row_names):
            cy = top + (n_rows - 1 - j) * cell + cell // 2
            if j % every_row == 0:
                box = centred_text(draw, name, label_size, (left - 6, cy), TEXT, align="right")
                labels.append(Label(name, "row", j, "left", box))
            if cell >= 12:
                a, b = rows[j]
                box = centred_text(draw, f"{a}..{b}", 11, (left + board_w + 6, cy), MUTED, bold=False, align="left")
        return labels

    def _tags(self, draw: ImageDraw.ImageDraw, occupied: dict[tuple[int, int], int]) -> dict[str, Region]:
        g = self.g
        (columns, rows, n_rows, col_names, row_names, cell, board_w, board_h, left, top) = \
            (g.columns, g.rows, g.n_rows, g.col_names, g.row_names, g.cell, g.board_w, g.board_h, g.left, g.top)
        # the labelled viewports: every occupied cell, its name written in it, or on a tag beside
        # it when the cell is small (tags that would cover another are left out: the axes still
        # name every cell)
        viewports: dict[str, Region] = {}
        taken: dict[tuple[int, int], list[Box]] = defaultdict(list)   # tags by the cells they cover

        def cells_under(box: Box) -> list[tuple[int, int]]:
            c0, c1 = (box[0] - left) // cell, (box[2] - left) // cell
            r1, r0 = n_rows - 1 - (box[1] - top) // cell, n_rows - 1 - (box[3] - top) // cell
            return [(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)]

        tag_size = 12 if cell >= 36 else 11       # a tag's mask is drawn only for the tags drawn
        for (c, r) in sorted(occupied, key=lambda cr: (-occupied[cr], cr[1], cr[0])):
            name = f"{col_names[c]}{row_names[r]}"
            (a, b), (lo, hi) = columns[c], rows[r]
            viewports[name] = (a, lo, b, hi)
            cx, cy = self._cell_origin(c, r)
            tw, th = (side + 6 for side in mask_size(name, tag_size, True))
            if cell >= 36:
                candidates = [(cx + 1, cy + 1)]
            else:
                mid_y = cy + cell // 2 - th // 2
                mid_x = cx + cell // 2 - tw // 2
                candidates = [(cx + cell + 2, mid_y), (cx - tw - 2, mid_y), (mid_x, cy - th - 2), (mid_x, cy + cell + 2)]
            for tx, ty in candidates:
                tag = (tx, ty, tx + tw - 1, ty + th - 1)
                inside = left <= tag[0] and tag[2] < left + board_w and top <= tag[1] and tag[3] < top + board_h
                if not inside:
                    continue
                under = cells_under(tag)
                if any(overlap(tag, t) for cr in under for t in taken[cr]):
                    continue
                if cell < 36 and any(cr in occupied for cr in under):
                    continue
                for cr in under:
                    taken[cr].append(tag)
                draw.rectangle(tag, fill=(255, 255, 255), outline=(120, 120, 120))
                draw.bitmap((tag[0] + 3, tag[1] + 3), mask_of(name, tag_size, True), fill=(30, 30, 30))
                break
        viewports = dict(sorted(viewports.items(), key=lambda item: (item[1][1], item[1][0])))
        return viewports

    def _finish(self, draw: ImageDraw.ImageDraw, labels: list[Label], viewports: dict[str, Region]) -> BoardLayout:
        overview = self.overview
        g = self.g
        (x0, y0, x1, y1, columns, rows, title_height, right_w, widest, cell, board_w, board_h, left, top, height) = \
            (g.x0, g.y0, g.x1, g.y1, g.columns, g.rows, g.title_height, g.right_w, g.widest, g.cell, g.board_w, g.board_h, g.left, g.top, g.height)
        example = next(iter(viewports), "A1")
        focus = f" · {self.caption}" if self.caption else ""
        titles = (f"{overview.heading} · overview of x {x0}..{x1}, y {y0}..{y1} · {overview.count:,} pieces{focus}",
                  f"Too far apart for one board: ask for a viewport, named by its column letter and row "
                  f"number (such as {example}), to see its squares.")
        draw_text(draw, (left, 6), titles[0], bold_font(15), TEXT)
        draw_text(draw, (left, 24), titles[1], font(13), MUTED)
        self._legend(draw, (left + board_w + right_w + 8, title_height + 4), height)
        layout = BoardLayout(region=self.region, scale=cell / widest, overview=True,
                             board_box=(left, top, left + board_w, top + board_h), labels=tuple(labels),
                             viewports=viewports, columns=tuple(columns), rows=tuple(rows), cell=cell,
                             focus=self.caption)
        return layout

    def _detailed_cell(self, draw: ImageDraw.ImageDraw, origin: tuple[int, int], column: tuple[int, int],
                       row: tuple[int, int], sx: float, sy: float, pieces: list[DetailedPiece]) -> None:
        """A cell with room for its squares (a few pieces far apart): a small board of them."""
        (a, b), (lo, hi) = column, row
        cx, cy = origin

        def square_box(x: int, y: int) -> Box:
            return (cx + int((x - a) * sx), cy + int((hi - y) * sy),
                    cx + int((x - a + 1) * sx), cy + int((hi - y + 1) * sy))

        for x in range(a, b + 1):
            for y in range(lo, hi + 1):
                if (x + y) % 2 == 0:
                    box = square_box(x, y)
                    draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=DARK)
                else:
                    box = square_box(x, y)
                    draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=LIGHT)
        drawn: set[Square] = set()
        for x, y, kind, owner, disabled in pieces:
            if (x, y) in drawn:
                continue
            drawn.add((x, y))
            x0, y0, x1, y1 = square_box(x, y)
            side = min(x1 - x0, y1 - y0)
            pad = max(1, round(side * 0.06))
            box = ((x0 + x1 - side) // 2 + pad, (y0 + y1 - side) // 2 + pad,
                   (x0 + x1 + side) // 2 - pad, (y0 + y1 + side) // 2 - pad)
            kind = self.overview.kinds.get(kind)
            if kind is not None:
                draw_piece(draw, box, kind, self.overview.tones[owner], hollow=disabled)

    @staticmethod
    def _grid_line(draw: ImageDraw.ImageDraw, line: Box, squeezed: bool, vertical: bool) -> None:
        if not squeezed:
            draw.line(line, fill=(206, 198, 184), width=1)
            return
        x0, y0, x1, y1 = line
        for offset in (-1, 1):
            if vertical:
                draw.line((x0 + offset, y0, x1 + offset, y1), fill=(178, 168, 152), width=1)
            else:
                draw.line((x0, y0 + offset, x1, y1 + offset), fill=(178, 168, 152), width=1)

    def _legend(self, draw: ImageDraw.ImageDraw, origin: tuple[int, int], height: int) -> None:
        x, y = origin
        draw_text(draw, (x, y), "Players", bold_font(14), TEXT)
        y += 24
        face = font(13)
        rise = middle_rise(face)
        players = self.overview.players
        for name, tones, colour in self.overview.legend:
            if y + 22 > height:
                break
            for i, tone in enumerate(tones):
                draw.rectangle((x + i * 16 // len(tones), y, x + (i + 1) * 16 // len(tones) - 1, y + 15), fill=tone)
            draw.rectangle((x, y, x + 15, y + 15), outline=TEXT)
            draw_text(draw, (x + 22, y + 8 - rise), f"{name} ({colour})", face, TEXT)
            y += 22
        if players > LEGEND_PLAYERS and y + 22 <= height:
            draw_text(draw, (x, y + 8 - rise), f"... and {players - LEGEND_PLAYERS} more", face, MUTED)
