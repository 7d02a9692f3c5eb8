"""The web viewer's tiles (bot.render.paint.tiles): the PNG board's own pixels, bounded pictures."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.engine.runner import run_scenario
from bot.engine.scenario import load_scenario
from bot.render.board import paint_board, paint_squares
from bot.render.paint.tiles import TILE, Frame, frame_of, tile_png

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def _after(name: str):
    scenario = load_scenario(SCENARIOS / name)
    outcome = run_scenario(scenario)
    captured = {tuple(e.data["at"]) for e in outcome.report.of_type("capture") if "at" in e.data}
    moves = [(m.origin, m.target, m.target in captured) for m in outcome.state.moved_last_update]
    return scenario.ruleset, outcome.state, moves


@pytest.mark.parametrize("name", ["neisg/dodge.toml", "arena/" + sorted(p.name for p in (SCENARIOS / "arena").glob("*.toml"))[0]])
def test_the_squares_alone_are_the_png_board_pixels(name):
    ruleset, state, moves = _after(name)
    picture = paint_board(ruleset, state, last_moves=moves, region=(-3, -3, 8, 8))
    layout = picture.layout
    scale = int(layout.scale)
    x0, y0, x1, y1 = layout.region
    board = picture.image.crop(layout.box((x0, y1))[:2] + layout.box((x1, y0))[2:])
    alone = paint_squares(ruleset, state, layout.region, scale, last_moves=moves)
    assert ImageChops.difference(board.convert("RGB"), alone.convert("RGB")).getbbox() is None


def test_a_painted_tile_is_its_squares_painted():
    ruleset, state, moves = _after("neisg/dodge.toml")
    frame = Frame(left=-8, top=7, k=4)          # 16 squares a side: zoom 1 is 32 pixels a square
    png = tile_png(ruleset, state, frame=frame, zoom=1, tile=(1, 1), last_moves=moves)
    tile = Image.open(io.BytesIO(png)).convert("RGB")
    assert tile.size == (TILE, TILE)
    region = frame.tile_region(1, 1, 1)
    assert region == (0, -8, 7, -1)
    expected = paint_squares(ruleset, state, region, 32, last_moves=moves)
    assert ImageChops.difference(tile, expected).getbbox() is None


def test_every_zoom_gives_a_tile_of_the_same_size_and_refuses_outside_tiles():
    ruleset, state, moves = _after("neisg/dodge.toml")
    frame = Frame(left=-500, top=500, k=10)     # a large world: dots at the first zooms
    assert frame.max_zoom == 8 and frame.square_pixels(0) == 0.25 and frame.square_pixels(8) == 64
    for zoom in range(frame.max_zoom + 1):
        middle = frame.tiles(zoom) // 2
        png = tile_png(ruleset, state, frame=frame, zoom=zoom, tile=(middle, max(0, middle - 1)))
        assert Image.open(io.BytesIO(png)).size == (TILE, TILE)
    for zoom, tile in ((9, (0, 0)), (-1, (0, 0)), (2, (4, 0)), (2, (0, -1))):
        with pytest.raises(ValueError):
            tile_png(ruleset, state, frame=frame, zoom=zoom, tile=tile)


def test_dots_show_each_piece_in_its_owner_colour():
    ruleset, state, _ = _after("neisg/dodge.toml")
    frame = Frame(left=-2048, top=2047, k=12)   # 1/16 of a pixel a square at zoom 0
    tile = Image.open(io.BytesIO(tile_png(ruleset, state, frame=frame, zoom=0, tile=(0, 0)))).convert("RGB")
    colours = {tile.getpixel((px, py)) for px in range(120, 136) for py in range(120, 136)}
    from bot.render.scene.colours import PlayerColours as _PlayerColours
    owners = {piece.owner for piece in state.board}
    tones = {tone for owner in owners for tone in (_PlayerColours(state, "default").of(owner) or ())}
    assert tones & colours


def test_a_frame_holds_the_board_centred():
    ruleset, state, _ = _after("neisg/dodge.toml")
    frame = frame_of(ruleset, state)
    box = state.board.bounding_box()
    (x0, y0), (x1, y1) = box
    assert frame.left <= x0 and x1 < frame.left + frame.side
    assert frame.top >= y1 and y0 > frame.top - frame.side


def test_neighbouring_squares_join_up_even_under_a_long_arrow():
    """Regions drawn apart and laid side by side are the region drawn whole: an arrow passing over a
    region with both ends outside it is drawn there too."""
    ruleset, state, _ = _after("neisg/dodge.toml")
    moves = [((-12, -9), (14, 11), False), ((-12, 9), (13, -10), True)]     # ends outside every part
    whole = paint_squares(ruleset, state, (-4, -4, 3, 3), 32, last_moves=moves)
    joined = Image.new("RGB", whole.size)
    for column, (x0, x1) in enumerate(((-4, -1), (0, 3))):
        for row, (y0, y1) in enumerate(((0, 3), (-4, -1))):
            part = paint_squares(ruleset, state, (x0, y0, x1, y1), 32, last_moves=moves)
            joined.paste(part, (column * 128, row * 128))
    assert ImageChops.difference(whole.convert("RGB"), joined).getbbox() is None
    plain = paint_squares(ruleset, state, (-4, -4, 3, 3), 32, last_moves=[])
    assert ImageChops.difference(whole.convert("RGB"), plain.convert("RGB")).getbbox() is not None   # arrows drawn
