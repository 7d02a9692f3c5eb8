"""The board image: a region of an engine state as a PNG players can read coordinates from.

:func:`render_board` is a pure function of a ruleset and a state (like ``chess.svg.board``). It
returns the PNG with its :class:`~bot.render.paint.layout.BoardLayout`, which says which pixel box
shows which square and where every axis label sits, so that tests and callers check meaning without
reading pixels back.

This module only chooses the picture and hands it on (docs/rendering.md has the flow): the region
and its options make a scene (:mod:`bot.render.scene`: what is shown, every choice a player reads)
that a painter (:mod:`bot.render.paint`) draws. A region with squares of at least
:data:`~bot.render.scene.limits.MIN_SCALE` pixels is a board (:func:`~bot.render.scene.board.board_scene`,
:class:`~bot.render.paint.board.BoardPainter`); a region worked out here whose pieces stand in areas far
apart is insets (:mod:`~bot.render.scene.insets`, :mod:`~bot.render.paint.insets`); a larger one an
overview (:class:`~bot.render.scene.overview.Overview`, :func:`~bot.render.paint.overview.paint_overview`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ..engine.model import Square
from ..engine.ruleset import Ruleset
from ..engine.state import GameState
from ..engine.variants.base import BoardAdditions
from .palette import PALETTES
from .paint import board as board_painter
from .paint.board import BoardPainter
from .paint.insets import paint_insets
from .paint.layout import BoardLayout, Inset, Label, Painted, Rendered
from .paint.overview import paint_overview
from .scene.board import BoardScene, board_scene, fits_board
from .scene.colours import PlayerColours
from .scene.grid import BoardRead, InRegion, Region, viewport_name
from .scene.insets import inset_scene
from .scene.limits import INSET_FROM, MAX_BYTES, MAX_INSETS, MAX_SCALE, MAX_SIDE, MIN_SCALE, VIEWPORT_SIDE
from .scene.overview import Overview
from .scene.region import (VIEWPORT_WORD, Focus, additions_of, choose_region, default_viewports, focus_region,
                           framed_region, is_viewport_name, state_label)

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["render_board", "paint_board", "plan_board", "scene_of", "Overview", "Painted", "Rendered",
           "BoardLayout", "BoardScene", "Label", "Inset", "Focus", "focus_region", "framed_region", "additions_of",
           "default_viewports", "is_viewport_name", "paint_squares", "state_label", "MAX_SIDE", "MAX_BYTES",
           "MIN_SCALE", "MAX_SCALE", "VIEWPORT_SIDE", "INSET_FROM", "MAX_INSETS", "viewport_name"]


def render_board(ruleset: Ruleset, state: GameState, *, region: Region | None = None,
                 center: Square | None = None, radius: int | None = None, palette: str = "default",
                 last_moves: Iterable[tuple[Square | None, Square, bool]] | None = None,
                 highlight: Iterable[Square] | None = None, focus: "Focus | str | None" = None,
                 additions: BoardAdditions | None = None) -> Rendered:
    """``paint_board(...).encode()``: the board as a PNG (see :func:`paint_board`)."""
    return paint_board(ruleset, state, region=region, center=center, radius=radius, palette=palette,
                       last_moves=last_moves, highlight=highlight, focus=focus, additions=additions).encode()


def paint_board(ruleset: Ruleset, state: GameState, *, region: Region | None = None,
                center: Square | None = None, radius: int | None = None, palette: str = "default",
                last_moves: Iterable[tuple[Square | None, Square, bool]] | None = None,
                highlight: Iterable[Square] | None = None, focus: "Focus | str | None" = None,
                additions: BoardAdditions | None = None) -> Painted:
    """Draw ``state`` (:meth:`Painted.encode` makes the PNG).

    The region shown is ``region`` (x0, y0, x1, y1, inclusive, in either order), else the square
    of side ``2 * radius + 1`` around ``center`` (radius 8 if not given), else the region framing
    ``focus`` (:class:`Focus`: a team, a player's pieces or a player's kingdom; ``"team:alabaster"``,
    ``"player:Ann"``, ``"kingdom:Ann"``), else the occupied area with a margin of two squares
    (within the bounds, when the board has them). ``last_moves`` lists the last update's moves as
    ``(origin, target, captured)`` (origin None for a piece that arrived without moving); by default
    the state's ``moved_last_update``. ``highlight`` squares get a cyan frame. ``palette`` is one of
    :data:`~bot.render.palette.PALETTES`. ``additions``: what the board shows besides the pieces
    (marks, kingdoms, fading pieces); by default the variant's ``board_additions(state)``.
    """
    planned = plan_board(ruleset, state, region=region, center=center, radius=radius, palette=palette,
                         last_moves=last_moves, highlight=highlight, focus=focus, additions=additions)
    return planned if isinstance(planned, Painted) else paint_overview(planned)


def plan_board(ruleset: Ruleset, state: GameState, *, region: Region | None = None,
               center: Square | None = None, radius: int | None = None, palette: str = "default",
               last_moves: Iterable[tuple[Square | None, Square, bool]] | None = None,
               highlight: Iterable[Square] | None = None, focus: "Focus | str | None" = None,
               additions: BoardAdditions | None = None) -> "Painted | Overview":
    """:func:`paint_board`'s picture, drawn, or, when it is an overview, what the overview shows
    (:class:`Overview`, which :func:`paint_overview` draws)."""
    if palette not in PALETTES:
        raise ValueError(f"unknown palette {palette!r}: choose one of {', '.join(PALETTES)}")
    bounds = state.board.bounds or ruleset.bounds_for(len(state.players))
    if additions is None:
        additions = additions_of(ruleset, state)
    caption = ""
    # a region worked out here (the occupied area, a zoom on a player or a team) may be drawn as
    # insets when its pieces stand in areas far apart (issue 27); a region asked for never is
    framed = region is None and center is None and radius is None and not highlight
    if focus is not None and region is None and center is None and radius is None:
        region, caption = focus_region(state, additions, focus, bounds)
        framed = framed and not caption.startswith(VIEWPORT_WORD)      # a viewport is one area, drawn whole
    board = BoardRead(state)
    chosen = choose_region(state, bounds, region, center, radius, additions, board)
    colours = PlayerColours(state, palette)
    moves = _moves(state, last_moves)
    image = layout = None
    within = InRegion(state, chosen, board)        # the region's pieces and grid, for the insets and the overview
    if framed:
        insets = inset_scene(ruleset, state, chosen, bounds, colours, moves, additions, caption, within)
        if insets is not None:
            image, layout = paint_insets(insets)
    if image is None and fits_board(chosen):
        scene = board_scene(ruleset, state, chosen, bounds, colours, moves,
                            frozenset(tuple(s) for s in highlight or ()), additions, caption)
        image, layout = BoardPainter(scene).paint()
    if image is None:
        return Overview.read(ruleset, state, chosen, colours, additions, caption, within)
    return Painted(image, layout)


def scene_of(ruleset: Ruleset, state: GameState, region: Region, *, palette: str = "default",
             last_moves: Iterable[tuple[Square | None, Square, bool]] | None = None,
             additions: BoardAdditions | None = None) -> BoardScene:
    """The scene of the board of ``region`` (x0, y0, x1, y1, inclusive), with the same options as
    :func:`render_board`: what a second painter draws (:func:`~bot.render.paint.board.paint_squares`
    of a window of it is pixel for pixel the squares of ``render_board(..., region=region)``)."""
    if palette not in PALETTES:
        raise ValueError(f"unknown palette {palette!r}: choose one of {', '.join(PALETTES)}")
    bounds = state.board.bounds or ruleset.bounds_for(len(state.players))
    if additions is None:
        additions = additions_of(ruleset, state)
    moves = _moves(state, last_moves)
    return board_scene(ruleset, state, choose_region(state, bounds, region, None, None, additions), bounds,
                       PlayerColours(state, palette), moves, frozenset(), additions)


def paint_squares(ruleset: Ruleset, state: GameState, region: Region, scale: int, *, palette: str = "default",
                  last_moves: Iterable[tuple[Square | None, Square, bool]] | None = None,
                  highlight: Iterable[Square] = (), additions: BoardAdditions | None = None) -> "Image.Image":
    """Exactly the squares of ``region`` at ``scale`` pixels a square, with no title, labels, legend
    or margin, for a caller that lays pictures side by side (the web viewer's tiles): the squares of
    a scene holding ``region``, a square more on every side and both ends of every last move whose
    arrow crosses it, painted as a window of that scene
    (:func:`bot.render.paint.board.paint_squares`). So the lines on the region's edges, the edges of
    kingdoms and the arrows passing over it are those of the larger board, and neighbouring regions
    join up: the same pixels as those squares of the PNG board at that scale."""
    if palette not in PALETTES:
        raise ValueError(f"unknown palette {palette!r}: choose one of {', '.join(PALETTES)}")
    if scale < 1:
        raise ValueError(f"the scale is a whole number of pixels a square from 1, not {scale!r}")
    bounds = state.board.bounds or ruleset.bounds_for(len(state.players))
    if additions is None:
        additions = additions_of(ruleset, state)
    window = choose_region(state, bounds, region, None, None, additions)
    x0, y0, x1, y1 = window
    moves = _moves(state, last_moves)
    xs, ys = [x0 - 1, x1 + 1], [y0 - 1, y1 + 1]
    for origin, target, _ in moves:
        if origin is not None and not (max(origin[0], target[0]) < x0 - 1 or min(origin[0], target[0]) > x1 + 1
                                       or max(origin[1], target[1]) < y0 - 1 or min(origin[1], target[1]) > y1 + 1):
            xs += [origin[0], target[0]]
            ys += [origin[1], target[1]]
    scene = board_scene(ruleset, state, (min(xs), min(ys), max(xs), max(ys)), bounds, PlayerColours(state, palette),
                        moves, frozenset(tuple(s) for s in highlight), additions)
    return board_painter.paint_squares(scene, scale, window)


def _moves(state: GameState, last_moves) -> list[tuple[Square | None, Square, bool]]:
    """The last update's moves as (origin, target, captured): ``last_moves``, or the state's memory."""
    if last_moves is None:
        return [(m.origin, m.target, False) for m in state.moved_last_update]
    return [(tuple(a) if a is not None else None, tuple(b), bool(c)) for a, b, c in last_moves]
