"""Issue 38: what a board shows is decided in its scene, read here without pixels; and a second
painter's squares (``paint_squares`` of a window) are the PNG board's, pixel for pixel."""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest
from PIL import Image

from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.state import ActiveEvent, GameState, LastMove
from bot.engine.variants.base import BoardAdditions, Fading, Kingdom, Mark
from bot.render.board import render_board, scene_of
from bot.render.paint.board import paint_squares
from bot.render.scene.colours import CAPTURE_ARROW, FROM_TINT, MOVE_ARROW, TO_TINT, VARIETY, blend, square_colour

SCENE = Path(__file__).resolve().parents[2] / "bot" / "render" / "scene"


def _game(pieces, ruleset="neisg", **kwargs):
    rules = load_preset(ruleset)
    people = [Player("Holo", "Purple", team="blue"), Player("Aidan", "Crimson/Yellow", team="red")]
    specs = [dict(owner=owner, kind=kind, square=square, **extra) for owner, kind, square, extra in pieces]
    return rules, GameState.build(rules, specs, people, **kwargs)


def _views(scene):
    return {view.piece.square: view for stack in scene.stacks for view in stack.pieces}


def test_the_scene_knows_no_pillow():
    for path in SCENE.glob("*.py"):
        tree = ast.parse(path.read_text())
        imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
        imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        assert not [name for name in imported if name.startswith("PIL") or "paint" in name], path.name


def test_a_capturable_piece_gets_four_triangles_and_a_piece_in_check_a_badge():
    ruleset, state = _game([("Holo", "K", (0, 0), {"check": "capturable"}), ("Aidan", "K", (3, 3), {"check": "fresh"}),
                            ("Aidan", "Q", (4, 3), {"check": "spent"}), ("Holo", "P", (1, 1), {"disabled": True}),
                            ("Holo", "N", (2, 2), {})])
    views = _views(scene_of(ruleset, state, (-2, -2, 6, 6)))
    assert views[(0, 0)].capturable and not views[(0, 0)].badges
    assert not views[(3, 3)].capturable
    assert [(b.text, b.corner, b.back) for b in views[(3, 3)].badges] == [("+", "top-right", (220, 20, 20))]
    assert [(b.text, b.back) for b in views[(4, 3)].badges] == [("+", (90, 90, 90))]
    assert views[(1, 1)].hollow and not views[(2, 2)].hollow
    assert not views[(2, 2)].capturable and views[(2, 2)].aura is None and views[(2, 2)].frame is None


def test_an_energy_pawn_is_capturable_in_a_rainbow_and_the_legend_names_both():
    ruleset, state = _game([("Holo", "P", (0, 0), {"energy": True}), ("Aidan", "K", (3, 3), {})])
    scene = scene_of(ruleset, state, (-2, -2, 6, 6))
    pawn = _views(scene)[(0, 0)]
    assert pawn.capturable and pawn.aura == square_colour(0, 0, None)
    marks = [entry.text for entry in scene.legend if entry.kind == "mark"]
    assert "capturable" in marks and "energy pawn" in marks


def test_variety_frames_the_pieces_that_moved_last_update():
    ruleset, state = _game([("Holo", "N", (0, 2), {}), ("Aidan", "K", (3, 3), {})],
                           events=(ActiveEvent("Variety", 5),), moved_last_update=(LastMove((0, 0), (0, 2)),), update=9)
    views = _views(scene_of(ruleset, state, (-2, -2, 6, 6)))
    assert views[(0, 2)].frame == VARIETY and views[(3, 3)].frame is None


def test_several_pieces_on_a_square_stand_in_its_quarters_and_more_than_four_are_counted():
    ruleset, state = _game([("Holo", "P", (0, 0), {})] * 3 + [("Aidan", "P", (2, 2), {})] * 6)
    stacks = {stack.square: stack for stack in scene_of(ruleset, state, (-2, -2, 6, 6)).stacks}
    assert len(stacks[(0, 0)].pieces) == 3 and stacks[(0, 0)].crowd is None
    assert len(stacks[(2, 2)].pieces) == 4 and stacks[(2, 2)].crowd.text == "6"
    # a piece in a quarter shows its aura (none here) on the light colour, not its square's
    assert all(view.aura is None for view in stacks[(2, 2)].pieces)


def test_the_last_moves_tint_their_squares_and_a_capture_is_red_with_a_cross():
    ruleset, state = _game([("Holo", "R", (0, 4), {}), ("Aidan", "K", (5, 5), {})])
    scene = scene_of(ruleset, state, (-2, -2, 8, 8), last_moves=[((0, 0), (0, 4), False), ((5, 1), (5, 5), True)])
    fills = {fill.square: fill.colour for fill in scene.fills}
    assert fills[(0, 0)] == blend(square_colour(0, 0, None), FROM_TINT)
    assert fills[(0, 4)] == blend(square_colour(0, 4, None), TO_TINT)
    assert {(a.origin, a.target, a.colour) for a in scene.arrows} == {((0, 0), (0, 4), MOVE_ARROW),
                                                                       ((5, 1), (5, 5), CAPTURE_ARROW)}
    assert scene.crosses == ((5, 5),)


def test_marks_are_tokens_of_their_kinds_shapes_in_a_corner_under_a_piece():
    ruleset, state = _game([("Holo", "K", (0, 0), {}), ("Aidan", "K", (4, 4), {})])
    additions = BoardAdditions(marks=(Mark((2, 2), "new", "N", "+N", "power-up: new knight"), Mark((4, 4), "king", label="K"),
                                      Mark((1, 3), "upgrade", label="="), Mark((3, 1), "odd"), Mark((1, 1), "hill")))
    scene = scene_of(ruleset, state, (-2, -2, 6, 6), additions=additions)
    tokens = {token.mark.square: token for token in scene.tokens}
    assert (tokens[(2, 2)].shape, tokens[(2, 2)].label, tokens[(2, 2)].short, tokens[(2, 2)].corner) == ("circle", "+N", "N", False)
    assert (tokens[(4, 4)].shape, tokens[(4, 4)].corner) == ("crown", True)
    assert tokens[(1, 3)].shape == "arrow" and (tokens[(3, 1)].shape, tokens[(3, 1)].label) == ("square", "O")
    assert [fill.symbol for fill in scene.fills if fill.square == (1, 1)] == ["star"]
    # the legend names each kind once, in the variant's words (its kind's name where it gives none)
    assert [entry.text for entry in scene.legend if entry.kind == "token"] == ["king", "power-up: new knight", "odd",
                                                                               "upgrade"]


def test_a_kingdom_is_its_edge_named_by_its_owner_never_a_tint_and_not_at_the_region_s_edge():
    ruleset, state = _game([("Holo", "K", (0, 0), {}), ("Holo", "P", (0, 2), {})])
    additions = BoardAdditions(kingdoms=(Kingdom("Holo", "blue", (0, 0), 2),),
                               fading=(Fading((1, 0), "Holo", 3, 1, 9),))
    scene = scene_of(ruleset, state, (-1, -1, 5, 5), additions=additions)
    assert scene.fills == ()                                     # issue 39: no tint under any piece
    # named on the edge square nearest its north, east, south and west with no piece beside it:
    # north (0, 2) holds a pawn, so the nearest after it, (-1, 1); east (2, 0); south (0, -2) and
    # west (-2, 0) are outside the region
    assert [(tag.square, tag.text) for tag in scene.kingdom_tags] == [((-1, 1), "Holo"), ((2, 0), "Holo")]
    edges = {(edge.square, edge.side) for edge in scene.kingdom_edges}
    assert ((2, 0), "right") in edges and ((0, 2), "top") in edges
    assert not any(side == "left" and square[0] == -1 for square, side in edges)     # the region's edge
    assert [(badge.text, badge.back) for badge in scene.fading] == [("1", (200, 25, 25))]


def _tiles(region, side):
    x0, y0, x1, y1 = region
    for tx in range(x0, x1 + 1, side):
        for ty in range(y0, y1 + 1, side):
            yield tx, ty, min(x1, tx + side - 1), min(y1, ty + side - 1)


@pytest.mark.parametrize("palette, side", [("default", 4), ("colourblind", 3), ("default", 5)])
def test_paint_squares_of_any_window_is_the_png_board_s_squares(palette, side):
    """The second painter's contract: every tile of the region, painted alone at the board's scale,
    is the same pixels as those squares of the PNG board (arrows crossing tiles, kingdoms' edges,
    rank 0's lines, the bounds' line, tokens, badges)."""
    ruleset, state = _game([("Holo", "K", (0, 0), {"check": "fresh"}), ("Holo", "P", (1, 1), {"energy": True}),
                            ("Aidan", "Q", (6, 5), {"check": "capturable"}), ("Aidan", "P", (3, -2), {}),
                            ("Aidan", "N", (3, -2), {"disabled": True})],
                           bounds=((-3, -3), (7, 6)))
    additions = BoardAdditions(marks=(Mark((2, 4), "new", "N", "+N", "new knight"), Mark((6, 5), "king", label="K"),
                                      Mark((-1, 2), "implosion"), Mark((4, 1), "hill")),
                               kingdoms=(Kingdom("Aidan", "red", (5, 4), 2),),
                               fading=(Fading((6, 5), "Aidan", 3, 2, 9),))
    # a long capture across tiles, a short move, a move from outside the region
    moves = [((-2, -2), (6, 5), True), ((0, 4), (1, 1), False), ((-9, 10), (3, -2), False)]
    region = (-4, -4, 8, 7)
    rendered = render_board(ruleset, state, region=region, palette=palette, last_moves=moves, additions=additions)
    image = Image.open(io.BytesIO(rendered.png)).convert("RGB")
    layout, s = rendered.layout, int(rendered.layout.scale)
    scene = scene_of(ruleset, state, region, palette=palette, last_moves=moves, additions=additions)
    whole = paint_squares(scene, s)
    assert whole.tobytes() == image.crop(layout.board_box).tobytes()
    for window in _tiles(region, side):
        left, top, _, _ = layout.box((window[0], window[3]))
        _, _, right, bottom = layout.box((window[2], window[1]))
        assert paint_squares(scene, s, window).tobytes() == image.crop((left, top, right, bottom)).tobytes(), window


def test_paint_squares_refuses_a_window_outside_the_scene():
    ruleset, state = _game([("Holo", "K", (0, 0), {})])
    with pytest.raises(ValueError, match="not inside the scene's region"):
        paint_squares(scene_of(ruleset, state, (0, 0, 4, 4)), 20, (3, 3, 6, 6))


@pytest.mark.parametrize("side", [3, 4])
def test_regions_painted_apart_and_laid_side_by_side_are_the_png_board(side):
    """``bot.render.board.paint_squares`` (the web viewer's tiles): each region painted alone, from
    the state, is those squares of the PNG board: its edges' lines, a kingdom's edge along it and
    the arrows passing over it with both ends outside. (Not at the PNG board's own edge, where the
    board draws no line and no kingdom's edge: the tiles cover its squares but the outer ring.)"""
    from bot.render.board import paint_squares as paint_region

    ruleset, state = _game([("Holo", "K", (0, 0), {"check": "fresh"}), ("Aidan", "Q", (6, 5), {"check": "capturable"}),
                            ("Aidan", "B", (-3, 6), {})])
    additions = BoardAdditions(kingdoms=(Kingdom("Aidan", "red", (5, 4), 3),), marks=(Mark((2, 4), "new", "N", "+N"),))
    moves = [((-3, -3), (6, 5), True), ((-3, 6), (7, -3), False), ((0, 4), (0, 0), False)]
    region = (-4, -4, 8, 7)
    rendered = render_board(ruleset, state, region=region, last_moves=moves, additions=additions)
    image = Image.open(io.BytesIO(rendered.png)).convert("RGB")
    layout, s = rendered.layout, int(rendered.layout.scale)
    for window in _tiles((-3, -3, 7, 6), side):
        left, top, _, _ = layout.box((window[0], window[3]))
        _, _, right, bottom = layout.box((window[2], window[1]))
        painted = paint_region(ruleset, state, window, s, last_moves=moves, additions=additions)
        assert painted.tobytes() == image.crop((left, top, right, bottom)).tobytes(), window
