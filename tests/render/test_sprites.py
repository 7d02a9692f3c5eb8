"""Piece sprites: every kind of every ruleset draws, recognisably, in its owner's colour."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.engine.ruleset import load_preset, preset_names
from bot.render.palette import player_rgb
from bot.render.paint.sprites import STANDARD_GLYPHS, draw_piece, legend_entries, sprite_style

BACKGROUND = (240, 217, 181)
SIZES = (16, 24, 32, 48, 64)
ALL_KINDS = [(name, kind) for name in preset_names() for kind in load_preset(name).pieces.values()]


def _render(kind, fills, size, hollow=False, background=BACKGROUND):
    image = Image.new("RGB", (size + 8, size + 8), background)
    draw_piece(ImageDraw.Draw(image), (4, 4, 4 + size, 4 + size), kind, fills, hollow=hollow)
    return image


def _centre(size):
    return 4 + size // 2, 4 + size // 2


def _count(image, colour):
    return dict((c, n) for n, c in image.getcolors(1 << 20)).get(colour, 0)


def _colours(image):
    return {c for _, c in image.getcolors(1 << 20)}


def _is_neutral(kind):
    return kind.has("obstacle") or kind.has("void")


@pytest.mark.parametrize("ruleset_name, kind", ALL_KINDS, ids=[f"{r}-{k.letter}" for r, k in ALL_KINDS])
@pytest.mark.parametrize("colour", ["Red", "Yellow", "Navy", "White", "Black"])
def test_every_kind_renders_with_its_owner_colour_at_the_centre(ruleset_name, kind, colour):
    fills = player_rgb(colour)
    for size in SIZES:
        image = _render(kind, fills, size)
        assert image.getbbox() is not None
        changed = ImageChops.difference(image, Image.new("RGB", image.size, BACKGROUND)).getbbox()
        assert changed is not None, f"{kind.letter} at {size}px drew nothing"
        if not _is_neutral(kind):
            assert image.getpixel(_centre(size)) == fills[0], f"{kind.letter} at {size}px"


@pytest.mark.parametrize("ruleset_name, kind", ALL_KINDS, ids=[f"{r}-{k.letter}" for r, k in ALL_KINDS])
def test_hollow_pieces_have_no_fill(ruleset_name, kind):
    """Disabled pieces: an outline in the owner's colour, nothing inside. Where a glyph is thin
    (a queen's spikes) the outline is all there is, so the empty middle is checked on the kinds
    with a broad body."""
    if _is_neutral(kind):
        return
    fills = player_rgb("Green")
    broad = sprite_style(kind) in ("king", "rook", "knight") or sprite_style(kind).startswith("plate")
    for size in SIZES:
        solid = _render(kind, fills, size)
        hollow = _render(kind, fills, size, hollow=True)
        owner_pixels = _count(hollow, fills[0])
        area = size * size + 16 * size + 64 - _count(solid, BACKGROUND)
        assert owner_pixels < 0.6 * area, "an outline keeps the owner's colour, not the whole piece"
        assert owner_pixels > 0 or size < 24
        if broad and size >= 32:
            assert hollow.getpixel(_centre(size)) == BACKGROUND, f"{kind.letter} at {size}px is not hollow"


def test_standard_kinds_use_the_chess_glyphs():
    ruleset = load_preset("neisg")
    for letter in "KQRBNP":
        assert sprite_style(ruleset.pieces[letter]) in STANDARD_GLYPHS
    for letter in ("G", "Ab", "Dr", "Hp"):
        assert sprite_style(ruleset.pieces[letter]).startswith("plate")
    assert sprite_style(ruleset.pieces["O"]) == "obstacle"
    assert sprite_style(ruleset.pieces["V"]) == "void"


@pytest.mark.parametrize("ruleset_name", preset_names())
@pytest.mark.parametrize("size", [16, 32, 64])
def test_kinds_of_a_ruleset_look_different(ruleset_name, size):
    """Any two kinds differ in at least 2.5% of the box (a silhouette, or a letter: L and C, both
    sliders, differ only by their letters, about 3%), even at 16 px."""
    ruleset = load_preset(ruleset_name)
    fills = player_rgb("Orange")
    images = {kind.letter: _render(kind, fills, size).convert("L") for kind in ruleset.pieces.values()}
    for (a, first), (b, second) in itertools.combinations(images.items(), 2):
        differing = ImageChops.difference(first, second).point(lambda v: 255 if v > 40 else 0).histogram()[255]
        assert differing >= 0.025 * size * size, f"{a} and {b} look alike at {size}px ({differing} px differ)"


def test_two_tone_pieces_are_split_left_and_right():
    ruleset = load_preset("neisg")
    crimson, yellow = player_rgb("Crimson/Yellow")
    for letter in ("K", "Q", "Ab", "G"):
        for size in (24, 48):
            image = _render(ruleset.pieces[letter], (crimson, yellow), size)
            middle = 4 + size // 2
            left = [image.getpixel((x, y)) for x in range(4, middle - 1) for y in range(4, 4 + size)]
            right = [image.getpixel((x, y)) for x in range(middle + 1, 4 + size) for y in range(4, 4 + size)]
            assert crimson in left and yellow not in left
            assert yellow in right and crimson not in right


def test_a_thin_contrasting_edge():
    ruleset = load_preset("neisg")
    queen = ruleset.pieces["Q"]
    light = _render(queen, player_rgb("Yellow"), 48)
    assert (0, 0, 0) in _colours(light)
    dark = _render(queen, player_rgb("Navy"), 48, background=(196, 160, 120))
    assert (255, 255, 255) in _colours(dark)


def test_neutral_pieces():
    ruleset = load_preset("neisg")
    obstacle = _render(ruleset.pieces["O"], (), 32)
    r, g, b = obstacle.getpixel(_centre(32))
    assert abs(r - g) < 12 and abs(g - b) < 12 and 60 < r < 180, "an obstacle is a grey block"
    void = _render(ruleset.pieces["V"], (), 32)
    assert void.getpixel(_centre(32)) == (0, 0, 0), "a void is a black hole"


def test_legend_entries():
    ruleset = load_preset("neisg")
    entries = legend_entries(ruleset)
    assert entries[0] == ("P", "Pawn")
    assert ("Ab", "Archbishop") in entries and ("K", "King") in entries
    assert [letter for letter, _ in entries] == list(ruleset.pieces)
    assert legend_entries(ruleset, {"K", "N"}) == [("N", "Knight"), ("K", "King")]


def test_tiny_boxes_are_skipped_and_odd_boxes_centred():
    ruleset = load_preset("neisg")
    image = Image.new("RGB", (10, 10), BACKGROUND)
    draw_piece(ImageDraw.Draw(image), (0, 0, 2, 2), ruleset.pieces["K"], player_rgb("Red"))
    assert _colours(image) == {BACKGROUND}
    wide = Image.new("RGB", (60, 30), BACKGROUND)
    draw_piece(ImageDraw.Draw(wide), (0, 0, 60, 30), ruleset.pieces["R"], player_rgb("Red"))
    assert wide.getpixel((30, 15)) == player_rgb("Red")[0]


# ----------------------------------------------------------------------------- territory's labels, one size
def _territory_picture():
    from pathlib import Path

    from bot.engine.runner import run_scenario
    from bot.engine.scenario import load_scenario
    from bot.render.paint.territory import render_territory
    from bot.render.scene.territory import territory_scene

    scenario = load_scenario(Path(__file__).resolve().parents[1] / "scenarios" / "territory" / "example-5-4-9.toml")
    outcome = run_scenario(scenario)
    scene = territory_scene(scenario.ruleset, outcome.state, report=outcome.report)
    rendered = render_territory(scenario.ruleset, outcome.state, report=outcome.report)
    return scenario.ruleset, scene, rendered.layout


def _label_ink(kind, size, labels):
    """The box of a red plate's white letters, drawn as the territory picture draws them."""
    image = Image.new("RGB", (size + 8, size + 8), (0, 0, 0))
    draw_piece(ImageDraw.Draw(image), (4, 4, 4 + size, 4 + size), kind, player_rgb("Red"), labels=labels)
    white = image.convert("L").point(lambda v: 255 if v > 160 else 0)
    return white.getbbox()


def test_every_territory_plate_label_is_written_at_one_size():
    """Issue 39: Moon, Wind, Wood and Shdw were in a smaller font than the rest. Every kind's letters
    are written in the font size at which the widest of them fits, on the board and in the holdings,
    and the letters drawn are as wide and as tall as that font makes them."""
    from bot.render.paint.sprites import _SUPERSAMPLE, bold_font, plate_font_size, plate_letters

    ruleset, scene, layout = _territory_picture()
    assert set(scene.plate_labels) == set(ruleset.pieces)
    sizes = {box[2] - box[0] for _, box in layout.pieces}
    sizes |= {chip.box[2] - chip.box[0] - 6 for holding in layout.holdings for chip in holding.chips}
    assert 54 in sizes and 56 in sizes
    for size in sizes | {16, 32}:
        fonts = {plate_font_size(kind.letter, size, False, scene.plate_labels) for kind in ruleset.pieces.values()}
        assert len(fonts) == 1, f"at {size} px the labels are written in {sorted(fonts)}"
        if size < 40:
            continue
        face = bold_font(fonts.pop())
        for kind in ruleset.pieces.values():
            letters = plate_letters(kind.letter, size)
            written = Image.new("L", (8 * face.size, 3 * face.size), 0)
            ImageDraw.Draw(written).text((face.size, 2 * face.size), letters, font=face, fill=255, anchor="ls")
            x0, y0, x1, y1 = written.getbbox()
            ink = _label_ink(kind, size, scene.plate_labels)
            assert abs((ink[2] - ink[0]) - (x1 - x0) / _SUPERSAMPLE) <= 2, (kind.letter, size, ink)
            assert abs((ink[3] - ink[1]) - (y1 - y0) / _SUPERSAMPLE) <= 2, (kind.letter, size, ink)


@pytest.mark.parametrize("size", [16, 32, 40, 56, 64])
def test_territory_kinds_written_at_one_size_still_look_different(size):
    """Written at one size, fitted to the widest label (Moon, Shdw), any two territory kinds still
    differ in at least 2.5% of the box (Ldr and Mir, the closest, about 3%)."""
    ruleset = load_preset("territory")
    labels = tuple(ruleset.pieces)
    fills = player_rgb("Orange")
    images = {}
    for kind in ruleset.pieces.values():
        image = Image.new("RGB", (size + 8, size + 8), BACKGROUND)
        draw_piece(ImageDraw.Draw(image), (4, 4, 4 + size, 4 + size), kind, fills, labels=labels)
        images[kind.letter] = image.convert("L")
    for (a, first), (b, second) in itertools.combinations(images.items(), 2):
        differing = ImageChops.difference(first, second).point(lambda v: 255 if v > 40 else 0).histogram()[255]
        assert differing >= 0.025 * size * size, f"{a} and {b} look alike at {size}px ({differing} px differ)"
