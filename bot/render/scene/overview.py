"""The overview's scene: a region too large for a board, as numbers. Each piece of the region is its
x, its y and its owner's number; with them the grid of viewports, the owners' colours, the legend's
lines, King of the Hill's squares and the titles' words. Of the additions an overview shows King of
the Hill's squares; kingdoms, fading counters and other marks are drawn when a viewport is asked for."""

from __future__ import annotations

from itertools import compress
from operator import and_

from ...engine.ruleset import Ruleset
from ...engine.state import GameState
from ...engine.variants.base import BoardAdditions
from .colours import PlayerColours
from .grid import InRegion, Region
from .limits import DETAILED_CELL_SCALE, LEGEND_PLAYERS, MAX_SCALE, MAX_SIDE
from .region import state_label

DetailedPiece = tuple[int, int, str, int, bool]     # x, y, kind, owner (its number), disabled


class Overview:
    """What an overview shows, read from the state once: each piece of the region as three numbers
    (its x, its y, and its owner's index in :attr:`owner_names`, the owners in the order first met),
    the grid, the owners' colours, the legend's lines, King of the Hill's squares and the titles'
    words; of the pieces themselves only those that may stand in a cell drawn in detail (a few
    pieces far apart). :func:`bot.render.paint.overview.paint_overview` draws it."""

    __slots__ = ("region", "caption", "heading", "count", "grid", "values", "column_of", "row_of", "xs", "ys",
                 "owners", "owner_names", "tones", "players", "legend", "hills", "detailed", "kinds")

    def __init__(self, **fields) -> None:
        for name in self.__slots__:
            setattr(self, name, fields[name])

    @classmethod
    def read(cls, ruleset: Ruleset, state: GameState, region: Region, colours: PlayerColours,
             additions: BoardAdditions, caption: str, within: InRegion) -> "Overview":
        owners = within.owners
        owner_names = list(dict.fromkeys(owners))
        number_of = {owner: number for number, owner in enumerate(owner_names)}
        numbers = list(map(number_of.__getitem__, owners))
        tones = [colours.of(owner) for owner in owner_names]
        players = sorted(owner for owner in owner_names if owner is not None)
        legend = [(name, colours.of(name), colours.names.get(name, "?")) for name in players[:LEGEND_PLAYERS]]
        # the pieces of the columns and rows that might be drawn in detail: a cell is never wider
        # than this, whatever its labels leave room for (the painter works out which are)
        columns, rows = within.grid
        widest = max(b - a + 1 for a, b in columns + rows)
        most = max(8, min(MAX_SIDE // len(columns), MAX_SIDE // len(rows), widest * MAX_SCALE, 400))
        near_x = {x for x, c in within.column_of.items()
                  if most / (columns[c][1] - columns[c][0] + 1) >= DETAILED_CELL_SCALE}
        near_y = {y for y, r in within.row_of.items() if most / (rows[r][1] - rows[r][0] + 1) >= DETAILED_CELL_SCALE}
        detailed: list[DetailedPiece] = []
        if near_x and near_y:
            xs_each, ys_each = within.each
            near = map(and_, map(near_x.__contains__, xs_each), map(near_y.__contains__, ys_each))
            detailed = [(piece.square[0], piece.square[1], piece.kind, number, piece.disabled)
                        for piece, number in compress(zip(within.pieces, numbers), near)]
        kinds = {kind: ruleset.pieces.get(kind) for kind in {piece[2] for piece in detailed}}
        return cls(region=region, caption=caption, heading=f"{ruleset.title or ruleset.name} · {state_label(state)}",
                   count=len(within.pieces), grid=(columns, rows), values=within.values, column_of=within.column_of,
                   row_of=within.row_of, xs=within.each[0], ys=within.each[1], owners=numbers,
                   owner_names=owner_names, tones=tones, players=len(players), legend=legend,
                   hills=tuple(mark.square for mark in additions.marks if mark.kind == "hill"), detailed=detailed,
                   kinds=kinds)
