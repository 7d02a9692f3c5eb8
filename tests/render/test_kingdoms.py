"""Megachess kingdoms read at 12 and at 100 players (issue 39): ten tints over each other made a
muddy patchwork in which a pink piece on a pink tint lost its contrast, and navy, blue and sky edges
(maroon and rose) were known by colour alone. Checked without eyes on the crowded games the
reference pictures show (docs/images/board-megachess-12.png, board-megachess-100.png): a kingdom
never draws over a piece nor tints a square, alike colours that overlap are dashed apart, every
kingdom is named on the board, and regions painted apart (the web viewer's tiles) still join up."""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import math
from fractions import Fraction
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.state import GameState
from bot.engine.variants import variant_for
from bot.render.board import paint_squares as paint_region
from bot.render.board import render_board, scene_of
from bot.render.paint import kingdoms as paint_kingdoms
from bot.render.paint.board import paint_squares
from bot.render.palette import delta_e2000
from bot.render.scene.colours import PlayerColours
from bot.render.scene.kingdoms import ALIKE, STYLES, TAG_REACH

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
MEGA = load_preset("megachess")


def _make_images():
    spec = importlib.util.spec_from_file_location("make_images", IMAGES / "make_images.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CROWD = _make_images().megachess_crowd
# the pictures a player reads: 12 players' whole board, 100 players' whole board (19 pixels a square)
# and 100 players framed on one kingdom, as docs/images shows two of them
PICTURES = [(12, None), (100, None), (100, "kingdom:Ada")]


def _picture(players, focus):
    ruleset, state = CROWD(players)
    rendered = render_board(ruleset, state, focus=focus)
    assert not rendered.layout.overview and not rendered.layout.insets
    scene = scene_of(ruleset, state, rendered.layout.region)
    return ruleset, state, scene, int(rendered.layout.scale)


@pytest.mark.parametrize("players, focus", PICTURES)
def test_no_kingdom_draws_over_a_piece_or_tints_a_square(players, focus):
    """The squares drawn with and without the kingdoms: a piece's body (its owner's colour) is the
    same pixels, a square off every kingdom's edge and tags is untouched (no tint), and the edges
    cover at most the bands along a piece's square's sides (under half of it even with four)."""
    _, state, scene, s = _picture(players, focus)
    drawn = paint_squares(scene, s)
    bare = paint_squares(dataclasses.replace(scene, kingdom_edges=(), kingdom_tags=()), s)
    changed = ImageChops.difference(drawn, bare).convert("L").point(lambda v: 255 if v else 0)
    x0, y0, x1, y1 = scene.region
    box = lambda sq: ((sq[0] - x0) * s, (y1 - sq[1]) * s, (sq[0] - x0 + 1) * s, (y1 - sq[1] + 1) * s)  # noqa: E731
    marked = {edge.square for edge in scene.kingdom_edges}
    marked |= {(t.square[0] + dx, t.square[1]) for t in scene.kingdom_tags for dx in range(-TAG_REACH, TAG_REACH + 1)}
    assert len(marked) > 100                                      # the crowd's kingdoms are drawn
    untouched = [sq for sq in itertools.product(range(x0, x1 + 1), range(y0, y1 + 1)) if sq not in marked]
    assert all(changed.crop(box(sq)).getbbox() is None for sq in untouched)
    colours = PlayerColours(state, "default")
    worst = 0.0
    for stack in scene.stacks:
        if len(stack.pieces) != 1:
            continue
        tone = colours.of(stack.pieces[0].piece.owner)[0]
        before, after = bare.crop(box(stack.square)), drawn.crop(box(stack.square))
        body = [(x, y) for y in range(s) for x in range(s) if before.getpixel((x, y)) == tone]
        assert body and all(after.getpixel(xy) == tone for xy in body), stack.square
        worst = max(worst, changed.crop(box(stack.square)).histogram()[255] / (s * s))
    assert worst < 0.5


@pytest.mark.parametrize("players", [12, 100])
@pytest.mark.parametrize("palette", ["default", "colourblind"])
def test_kingdoms_that_overlap_in_alike_colours_are_dashed_apart(players, palette):
    """Every two kingdoms of the game that overlap, with colours closer than ALIKE (CIEDE2000),
    have different dashes; at 100 players colours repeat (37 of them), and still no such pair
    shares one."""
    ruleset, state = CROWD(players)
    kingdoms = variant_for(ruleset).board_additions(state).kingdoms
    colours = PlayerColours(state, palette)
    region = (min(k.centre[0] for k in kingdoms) - 17, min(k.centre[1] for k in kingdoms) - 17,
              max(k.centre[0] for k in kingdoms) + 17, max(k.centre[1] for k in kingdoms) + 17)
    styles = {edge_owner: style for edge_owner, style in _styles(ruleset, state, region, palette)}
    pairs = [(a.owner, b.owner) for a, b in itertools.combinations(kingdoms, 2)
             if math.dist(a.centre, b.centre) <= a.radius + b.radius + 1
             and delta_e2000(colours.of(a.owner)[0], colours.of(b.owner)[0]) < ALIKE]
    assert pairs                                                  # the crowd has such pairs
    assert [(a, b) for a, b in pairs if styles[a] == styles[b]] == []
    assert set(styles.values()) <= set(STYLES)


def _styles(ruleset, state, region, palette):
    from bot.render.scene.kingdoms import kingdoms_view
    additions = variant_for(ruleset).board_additions(state)
    view = kingdoms_view(additions.kingdoms, additions.kingdoms, PlayerColours(state, palette), region,
                         lambda square: bool(state.board.at(square)))
    return view.styles


@pytest.mark.parametrize("players, focus", PICTURES)
def test_every_kingdom_is_named_on_the_board_in_full(players, focus):
    """Each kingdom whose king is in view carries its owner's name there, on a square where no piece
    stands within reach of the tag; every tag is drawn whole at the picture's scale (a name cut short
    could read as another's: "P5" of "P57"), in the owner's colour; and in the 12 players' and the
    framed picture the legend names each kingdom's owner and colour."""
    ruleset, state, scene, s = _picture(players, focus)
    x0, y0, x1, y1 = scene.region
    named = {tag.owner for tag in scene.kingdom_tags}
    kings = {k.owner for k in scene.kingdoms if x0 <= k.centre[0] <= x1 and y0 <= k.centre[1] <= y1}
    assert kings and kings <= named
    scratch = ImageDraw.Draw(Image.new("RGB", (3 * s, s)))
    for tag in scene.kingdom_tags:
        assert not any(state.board.at((tag.square[0] + dx, tag.square[1])) for dx in range(-TAG_REACH, TAG_REACH + 1))
        assert tag.text == tag.owner and tag.back == PlayerColours(state, "default").of(tag.owner)[0]
        assert paint_kingdoms.tag(scratch, (s, 0, 2 * s, s), tag, s) is not None, tag.owner
    if players <= 60:
        legend = " ".join(entry.text for entry in scene.legend if entry.kind == "player")
        assert all(f"{owner} ({PlayerColours(state, 'default').names[owner]}" in legend
                   for owner in {k.owner for k in scene.kingdoms})


def _overlapping(names_colours):
    players = [Player(name, colour, Fraction(0), team=("alabaster", "brushed metal")[i % 2])
               for i, (name, colour) in enumerate(names_colours)]
    kings = [(0, 0), (5, 1), (2, 6)]
    pieces = [dict(owner=p.name, kind="K", square=square) for p, square in zip(players, kings)]
    pieces += [dict(owner=players[0].name, kind="P", square=(0, 16))]    # on the north of the first kingdom
    return GameState.build(MEGA, pieces, players, update=3)


def test_the_blue_kingdom_is_dashed_apart_from_navy_and_from_sky():
    """The issue's example: navy, blue and sky edges overlapping. Blue is alike to both (CIEDE2000
    27 and 31), navy and sky are not (a dark and a light blue)."""
    state = _overlapping([("Ann", "Navy"), ("Bob", "Blue"), ("Cid", "Sky")])
    styles = dict(_styles(MEGA, state, (-20, -20, 30, 30), "default"))
    assert sorted(styles) == ["Ann", "Bob", "Cid"]
    assert styles["Bob"] not in (styles["Ann"], styles["Cid"])


@pytest.mark.parametrize("side", [2, 3])
def test_regions_painted_apart_draw_the_same_kingdoms_as_the_board(side):
    """The web viewer's tiles (each region painted from its own scene) join up into the board:
    the dashes are the game's, the tags on the same squares, a long name at 16 pixels a square
    reaching into the squares beside its own and cut at the tile's edge exactly as the board is."""
    state = _overlapping([("Annabelle", "Navy"), ("Bob", "Blue"), ("Cid", "Sky")])
    region = (-18, -18, 24, 24)
    scale = 16
    scene = scene_of(MEGA, state, region)
    assert {tag.owner for tag in scene.kingdom_tags} == {"Annabelle", "Bob", "Cid"}
    whole = paint_squares(scene, scale)
    for tag in scene.kingdom_tags[:6]:
        x, y = tag.square
        for wx in range(max(region[0], x - TAG_REACH - side + 1), min(region[2] - side + 1, x + TAG_REACH) + 1):
            window = (wx, max(region[1], y - side + 1), wx + side - 1, max(region[1], y - side + 1) + side - 1)
            left, top = (window[0] - region[0]) * scale, (region[3] - window[3]) * scale
            painted = paint_region(MEGA, state, window, scale)
            crop = whole.crop((left, top, left + side * scale, top + side * scale))
            assert painted.tobytes() == crop.tobytes(), (tag.owner, window)
