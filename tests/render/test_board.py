"""The board image, checked by meaning: colours at squares' centres, labels beside the squares they
name, marks where the states are, limits, and the overview's viewports round trip."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from PIL import Image

from bot.engine.model import Player
from bot.engine.ruleset import load_preset, preset_names
from bot.engine.scenario import load_scenario
from bot.engine.state import ActiveEvent, GameState, LastMove
from bot.render.board import MAX_BYTES, MAX_SIDE, MIN_SCALE, BoardLayout, render_board, viewport_name
from bot.render.scene.colours import PlayerColours
from bot.render.palette import colour_names, player_rgb

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios").glob("*/*.toml"))


def _image(rendered) -> Image.Image:
    image = Image.open(io.BytesIO(rendered.png))
    image.load()
    assert image.size == (rendered.width, rendered.height)
    return image.convert("RGB")


def _centre(layout: BoardLayout, square) -> tuple[int, int]:
    x0, y0, x1, y1 = layout.box(square)
    return (x0 + x1) // 2, (y0 + y1) // 2


def _check_limits(rendered) -> None:
    assert max(rendered.width, rendered.height) <= MAX_SIDE
    assert len(rendered.png) <= MAX_BYTES
    assert rendered.png.startswith(b"\x89PNG")


def _check_centres(ruleset, state, rendered, palette="default", skip=()) -> int:
    """Every square holding one piece shows its owner's colour at its centre; the count checked."""
    image, layout = _image(rendered), rendered.layout
    # a colour name the palette does not know (megachess's "Steel") gets a spare colour, as drawn
    colours = PlayerColours(state, palette)
    checked = 0
    for square in state.board.squares():
        if not layout.contains(square) or square in skip:
            continue
        here = state.board.at(square)
        kind = ruleset.pieces[here[0].kind]
        if len(here) != 1 or here[0].owner is None or here[0].disabled:
            continue
        tones = colours.of(here[0].owner)
        # two tones split left | right: the centre pixel is in the right half
        assert image.getpixel(_centre(layout, square)) == tones[-1], f"{kind.name} on {square}"
        checked += 1
    return checked


def _game(pieces, players=("Holo", "Aidan"), colours=("Purple", "Crimson/Yellow"), ruleset="neisg", **kwargs):
    rules = load_preset(ruleset)
    people = [Player(name, colour) for name, colour in zip(players, colours)]
    specs = [dict(owner=o, kind=k, square=s, **extra) for o, k, s, *rest in pieces for extra in [rest[0] if rest else {}]]
    return rules, GameState.build(rules, specs, people, **kwargs)


# ----------------------------------------------------------------------------- pieces and colours
@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenarios_render_with_owner_colours(path):
    scenario = load_scenario(path)
    rendered = render_board(scenario.ruleset, scenario.state, last_moves=[])
    _check_limits(rendered)
    if len(scenario.state.board) == 0:
        return
    if not rendered.layout.overview:
        assert _check_centres(scenario.ruleset, scenario.state, rendered) > 0
        return
    # pieces too far apart for one legible board: each viewport shows its part
    for region in rendered.layout.viewports.values():
        part = render_board(scenario.ruleset, scenario.state, region=region, last_moves=[])
        assert not part.layout.overview
        assert _check_centres(scenario.ruleset, scenario.state, part) > 0


@pytest.mark.parametrize("ruleset_name", preset_names())
def test_every_kind_of_every_ruleset_renders_on_a_board(ruleset_name):
    ruleset = load_preset(ruleset_name)
    kinds = list(ruleset.pieces.values())
    bounds = ruleset.bounds_for(2)
    x0, y0 = bounds[0] if bounds else (0, 0)
    y0 = max(y0, 1)
    if bounds and y0 + 2 * ((len(kinds) - 1) // 6) > bounds[1][1]:
        y0 = bounds[0][1]        # a small board (territory's 11 x 11): start from its bottom row
    pieces = []
    for index, kind in enumerate(kinds):
        owner = None if kind.has("obstacle") or kind.has("void") else ("Holo" if index % 2 else "Aidan")
        pieces.append((owner, kind.letter, (x0 + 2 * (index % 6), y0 + 2 * (index // 6))))
    rules, state = _game(pieces, ruleset=ruleset_name)
    rendered = render_board(rules, state)
    _check_limits(rendered)
    assert _check_centres(rules, state, rendered) == sum(1 for p in pieces if p[0] is not None)
    image = _image(rendered)
    for owner, letter, square in pieces:
        if owner is None:
            r, g, b = image.getpixel(_centre(rendered.layout, square))
            assert max(r, g, b) < 140 and max(r, g, b) - min(r, g, b) < 16, f"{letter} is grey or black"


def test_colourblind_palette_is_selectable_per_call():
    rules, state = _game([("Holo", "K", (0, 0)), ("Aidan", "Q", (3, 2)), ("Holo", "N", (5, 5))],
                         colours=("Red", "Green"))
    default = render_board(rules, state, palette="default")
    safe = render_board(rules, state, palette="colourblind")
    assert _check_centres(rules, state, default) == 3
    assert _check_centres(rules, state, safe, palette="colourblind") == 3
    assert _image(default).getpixel(_centre(default.layout, (0, 0))) != \
        _image(safe).getpixel(_centre(safe.layout, (0, 0)))
    with pytest.raises(ValueError):
        render_board(rules, state, palette="neon")


def test_thirty_players_on_one_board():
    names = colour_names()[:30]
    pieces = [(f"p{i}", "K", (3 * (i % 6), 3 * (i // 6))) for i in range(30)]
    rules, state = _game(pieces, players=[f"p{i}" for i in range(30)], colours=names)
    rendered = render_board(rules, state)
    assert _check_centres(rules, state, rendered) == 30
    image = _image(rendered)
    assert len({image.getpixel(_centre(rendered.layout, p[2])) for p in pieces}) == 30


# ----------------------------------------------------------------------------- regions and labels
def test_default_region_is_the_occupied_area_with_a_margin():
    rules, state = _game([("Holo", "K", (-20, -20)), ("Aidan", "K", (30, 30)), ("Holo", "N", (0, 5))])
    layout = render_board(rules, state).layout
    assert layout.region == (-22, -22, 32, 32)
    small = _game([("Holo", "K", (4, 4))])
    assert render_board(*small).layout.region == (0, 0, 8, 8)


def test_region_and_centre_radius():
    rules, state = _game([("Holo", "K", (0, 0)), ("Aidan", "K", (100, 100))])
    assert render_board(rules, state, region=(10, 5, -3, -2)).layout.region == (-3, -2, 10, 5)
    assert render_board(rules, state, center=(100, 100), radius=4).layout.region == (96, 96, 104, 104)


def _check_labels(layout: BoardLayout) -> None:
    x0, y0, x1, y1 = layout.region
    left, top, right, bottom = layout.board_box
    xs = sorted({label.value for label in layout.labels if label.axis == "x"})
    ys = sorted({label.value for label in layout.labels if label.axis == "y"})
    for label in layout.labels:
        assert label.text == str(label.value)
        bx0, by0, bx1, by1 = label.box
        mid_x, mid_y = (bx0 + bx1) / 2, (by0 + by1) / 2
        if label.axis == "x":
            sx0, _, sx1, _ = layout.box((label.value, y0))
            assert sx0 <= mid_x <= sx1, f"x label {label.text} is not over its column"
            assert by1 <= top if label.side == "top" else by0 >= bottom
        else:
            _, sy0, _, sy1 = layout.box((x0, label.value))
            assert sy0 <= mid_y <= sy1, f"y label {label.text} is not beside its row"
            assert bx1 <= left if label.side == "left" else bx0 >= right
    for axis, values, lo, hi in (("x", xs, x0, x1), ("y", ys, y0, y1)):
        sides = {label.side for label in layout.labels if label.axis == axis}
        assert sides == ({"top", "bottom"} if axis == "x" else {"left", "right"})
        # no square is more than five squares from a labelled one (in fact at most two)
        for value in range(lo, hi + 1):
            assert min(abs(value - v) for v in values) <= 2, f"{axis} = {value} is far from every label"


@pytest.mark.parametrize("region", [(0, 0, 8, 8), (-30, -12, 30, 40), (999_900, -1_000_000, 1_000_000, -999_950),
                                    (-100, -50, 99, 49), (0, 0, 220, 5)])
def test_labels_sit_at_the_coordinates_they_name(region):
    rules, state = _game([("Holo", "K", (region[0], region[1])), ("Aidan", "K", (region[2], region[3]))])
    rendered = render_board(rules, state, region=region)
    assert not rendered.layout.overview
    assert rendered.layout.scale >= MIN_SCALE
    _check_labels(rendered.layout)
    _check_limits(rendered)


def test_square_at_inverts_box():
    rules, state = _game([("Holo", "K", (0, 0)), ("Aidan", "K", (9, 4))])
    layout = render_board(rules, state, region=(-3, -3, 12, 7)).layout
    for square in [(-3, -3), (0, 0), (12, 7), (5, 2)]:
        x0, y0, x1, y1 = layout.box(square)
        assert layout.square_at(x0, y0) == square and layout.square_at(x1 - 1, y1 - 1) == square
    with pytest.raises(ValueError):
        layout.box((13, 0))


def test_rank_zero_is_marked():
    rules, state = _game([("Holo", "K", (0, 3)), ("Aidan", "K", (4, -3))])
    rendered = render_board(rules, state, region=(0, -4, 5, 4))
    image = _image(rendered)
    corner = lambda sq: (rendered.layout.box(sq)[0] + 3, rendered.layout.box(sq)[1] + 5)  # noqa: E731
    assert image.getpixel(corner((2, 0))) != image.getpixel(corner((2, 2)))   # same parity, rank 0 tinted
    assert image.getpixel(corner((2, 2))) == image.getpixel(corner((2, -2)))
    zero = [label for label in rendered.layout.labels if label.axis == "y" and label.value == 0]
    assert len(zero) == 2


def test_bounds_are_drawn():
    rules = load_preset("sandbox")
    state = GameState.build(rules, [dict(owner="A", kind="K", square=(-98, 2))], [Player("A", "Teal")])
    rendered = render_board(rules, state)
    layout = rendered.layout
    assert layout.region[0] == -100 and layout.region[1] == 0   # one square beyond the edge shows it
    image = _image(rendered)
    r, g, b = image.getpixel(_centre(layout, (-100, 3)))
    assert r == g == b, "a square outside the board is grey"
    r, g, b = image.getpixel(_centre(layout, (-97, 3)))
    assert not r == g == b
    x0, _, _, _ = layout.box((-99, 3))
    assert image.getpixel((x0, _centre(layout, (-99, 3))[1])) == (30, 30, 30), "the edge is a dark line"


# ----------------------------------------------------------------------------- states
def _states_game():
    pieces = [
        ("Holo", "K", (0, 0)),
        ("Holo", "Q", (2, 2), dict(check="capturable")),
        ("Holo", "R", (4, 2), dict(check="fresh")),
        ("Holo", "B", (6, 2), dict(check="spent")),
        ("Holo", "N", (8, 2), dict(disabled=True)),
        ("Holo", "P", (2, 6), dict(energy=True)),
        ("Holo", "Ab", (4, 6), dict(spirit=True)),
        ("Holo", "Hp", (6, 6), dict(carrying="R")),
        ("Aidan", "Z", (8, 8)),
        ("Holo", "G", (8, 6)),                      # frozen: the zombie's mR2 reaches it
        ("Aidan", "K", (10, 0)),
        ("Aidan", "N", (12, 4)),                    # moved last update (Variety)
        (None, "O", (0, 8)), (None, "V", (2, 8)),
        ("Holo", "N", (12, 8)), ("Aidan", "B", (12, 8)),
    ]
    return _game(pieces, implosions=frozenset({(12, 8), (0, 4)}), marked=((10, 6),),
                 events=(ActiveEvent("Variety", 5), ActiveEvent("King of the Hill", 3)),
                 moved_last_update=(LastMove((12, 2), (12, 4)),), update=9)


def _colours_in(image, box):
    region = image.crop(box)
    return {c for _, c in region.getcolors(1 << 16)}


def test_states_are_visible():
    rules, state = _states_game()
    rendered = render_board(rules, state, last_moves=[((10, 3), (12, 4), False), ((1, 1), (2, 2), True)])
    image, layout = _image(rendered), rendered.layout
    _check_limits(rendered)
    _check_centres(rules, state, rendered, skip={(12, 8)})

    # capturable: four black triangles, one at the middle of each side of the square
    x0, y0, x1, y1 = layout.box((2, 2))
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    for point in ((cx, y0 + 2), (cx, y1 - 3), (x0 + 2, cy), (x1 - 3, cy)):
        assert image.getpixel(point) == (0, 0, 0)
    # an energy pawn: capturable and a rainbow aura
    x0, y0, x1, y1 = layout.box((2, 6))
    colours = _colours_in(image, (x0, y0, x1, y1))
    assert {(228, 3, 3), (255, 237, 0), (0, 77, 255)} <= colours
    # disabled: hollow, the square shows through at the centre
    assert image.getpixel(_centre(layout, (8, 2))) not in player_rgb("Purple")
    # fresh and spent check badges in the top-right corner
    for square, badge in (((4, 2), (220, 20, 20)), ((6, 2), (90, 90, 90))):
        x0, y0, x1, y1 = layout.box(square)
        assert badge in _colours_in(image, (x1 - layout.scale // 2, y0, x1, y0 + layout.scale // 2))
    # possessed (top-left, violet), cargo (bottom-right, the carried letter on white), frozen (ice)
    x0, y0, x1, y1 = layout.box((4, 6))
    assert (130, 70, 200) in _colours_in(image, (x0, y0, x0 + layout.scale // 2, y0 + layout.scale // 2))
    x0, y0, x1, y1 = layout.box((6, 6))
    assert (255, 255, 255) in _colours_in(image, (x1 - layout.scale // 3, y1 - layout.scale // 3, x1, y1))
    x0, y0, x1, y1 = layout.box((8, 6))
    assert (190, 230, 255) in _colours_in(image, (x0, y1 - layout.scale // 2, x0 + layout.scale // 2, y1))
    # Variety: a violet frame around the piece that moved last update
    x0, y0, x1, y1 = layout.box((12, 4))
    assert image.getpixel((x0 + 1, (y0 + y1) // 2 - layout.scale // 4)) == (150, 60, 210)
    # King of the Hill: a gold square with a star
    assert (255, 240, 170) in _colours_in(image, layout.box((10, 6)))
    # implosion squares: red tint and a burst, also under the two pieces of a collision
    for square in ((0, 4), (12, 8)):
        x0, y0, _, _ = layout.box(square)
        r, g, b = image.getpixel((x0 + 1, y0 + 1))
        assert r > g + 40 and r > b + 40
    # obstacle grey, void black
    r, g, b = image.getpixel(_centre(layout, (0, 8)))
    assert abs(r - g) < 12 and abs(g - b) < 12
    assert image.getpixel(_centre(layout, (2, 8))) == (0, 0, 0)
    # the collision square shows both pieces, each in its owner's colour
    x0, y0, x1, y1 = layout.box((12, 8))
    assert set(player_rgb("Purple")) & _colours_in(image, (x0, y0, x1, y1))
    assert set(player_rgb("Crimson/Yellow")) & _colours_in(image, (x0, y0, x1, y1))
    # a capture: red cross in the target's corner; moves tint their squares
    x0, y0, x1, y1 = layout.box((2, 2))
    assert (200, 0, 0) in _colours_in(image, (x0, y0, x0 + layout.scale // 3, y0 + layout.scale // 3))
    from_corner = image.getpixel((layout.box((10, 3))[0] + 2, layout.box((10, 3))[1] + 2))
    plain = image.getpixel((layout.box((10, 1))[0] + 2, layout.box((10, 1))[1] + 2))
    assert from_corner != plain
    # the legend lists the kinds and marks present
    assert rendered.width > layout.board_box[2] + 150


def test_last_moves_default_to_the_state_and_leave_the_piece_visible():
    rules, state = _game([("Holo", "R", (0, 5)), ("Aidan", "K", (6, 6))],
                         moved_last_update=(LastMove((0, 0), (0, 5)),))
    rendered = render_board(rules, state, region=(-2, -2, 8, 8))
    image, layout = _image(rendered), rendered.layout
    assert _check_centres(rules, state, rendered) == 2      # the arrow stops at the target's edge
    on_path = image.getpixel(_centre(layout, (0, 2)))
    without = render_board(rules, state, region=(-2, -2, 8, 8), last_moves=[])
    assert on_path != _image(without).getpixel(_centre(without.layout, (0, 2)))


def test_highlight():
    rules, state = _game([("Holo", "K", (0, 0))])
    rendered = render_board(rules, state, highlight=[(2, 2)])
    x0, y0, _, _ = rendered.layout.box((2, 2))
    assert _image(rendered).getpixel((x0, y0 + 10)) == (0, 170, 200)


# ----------------------------------------------------------------------------- limits and overview
def test_big_dense_region_stays_within_the_limits():
    rng = random.Random(3)
    squares = rng.sample([(x, y) for x in range(200) for y in range(180)], 12_000)
    names = colour_names()
    pieces = [(f"p{i % 36}", rng.choice("PNBRQK"), square) for i, square in enumerate(squares)]
    rules, state = _game(pieces, players=[f"p{i}" for i in range(36)], colours=names[:36])
    rendered = render_board(rules, state, region=(0, 0, 199, 179))
    _check_limits(rendered)
    assert not rendered.layout.overview and rendered.layout.scale >= MIN_SCALE
    assert _check_centres(rules, state, rendered) == 12_000


def test_too_big_a_region_becomes_an_overview():
    rules, state = _game([("Holo", "K", (0, 0)), ("Aidan", "K", (2_000, 1_000)), ("Holo", "N", (1_000, 10))])
    rendered = render_board(rules, state, region=(-2, -2, 2_002, 1_002))   # asked for whole: not as insets
    _check_limits(rendered)
    layout = rendered.layout
    assert layout.overview
    # x: three groups far apart; y: 0 and 10 are close enough to share a row
    assert len(layout.columns) == 3 and len(layout.rows) == 2
    assert set(layout.viewports) == {"A1", "B1", "C2"}
    for name, region in layout.viewports.items():
        inside = [p for p in state.board if region[0] <= p.square[0] <= region[2] and region[1] <= p.square[1] <= region[3]]
        assert len(inside) == 1
    labels = {(label.axis, label.text) for label in layout.labels}
    assert {("column", "A"), ("column", "B"), ("column", "C"), ("row", "1"), ("row", "2")} <= labels
    # column labels above their cells, row labels left of theirs (rows counted upward)
    left, top, right, bottom = layout.board_box
    for label in layout.labels:
        mid_x, mid_y = (label.box[0] + label.box[2]) / 2, (label.box[1] + label.box[3]) / 2
        if label.axis == "column":
            assert left + label.value * layout.cell <= mid_x <= left + (label.value + 1) * layout.cell
            assert label.box[3] <= top
        else:
            row_top = top + (len(layout.rows) - 1 - label.value) * layout.cell
            assert row_top <= mid_y <= row_top + layout.cell and label.box[2] <= left


def test_viewport_names():
    assert [viewport_name(c, 0) for c in (0, 1, 25, 26, 27, 51, 52, 701, 702)] == \
        ["A1", "B1", "Z1", "AA1", "AB1", "AZ1", "BA1", "ZZ1", "AAA1"]
    assert viewport_name(2, 3) == "C4"


def _armies(count: int, armies: int, spread: int, half: int, seed: int):
    rng = random.Random(seed)
    names = colour_names()
    players = [f"P{i:03d}" for i in range(armies)]
    pieces, seen = [], set()
    for index, player in enumerate(players):
        cx, cy = rng.randint(half, spread - half), rng.randint(half, spread - half)
        placed = 0
        while placed < count // armies:
            square = (cx + rng.randint(-half, half), cy + rng.randint(-half, half))
            if square not in seen:
                seen.add(square)
                pieces.append((player, "K" if placed == 0 else rng.choice("PPPNBRQG"), square))
                placed += 1
    return _game(pieces, players=players, colours=[names[i % len(names)] for i in range(armies)])


def test_overview_round_trip_on_100000_pieces():
    """100,000 pieces in 40 armies spread over a million squares each way: the overview's every
    labelled viewport, passed back as a region, renders a board (not an overview) showing exactly
    the pieces inside it, each in its owner's colour; together the viewports hold every piece."""
    rules, state = _armies(count=100_000, armies=40, spread=1_000_000, half=27, seed=11)
    assert len(state.board) == 100_000
    overview = render_board(rules, state)
    _check_limits(overview)
    layout = overview.layout
    assert layout.overview and layout.viewports
    (x0, y0), (x1, y1) = state.board.bounding_box()
    assert x1 - x0 > 900_000 and y1 - y0 > 900_000
    seen = 0
    for name, region in layout.viewports.items():
        rendered = render_board(rules, state, region=region)
        _check_limits(rendered)
        assert not rendered.layout.overview, f"viewport {name} rendered as an overview"
        assert rendered.layout.region == region
        inside = [p for p in state.board if region[0] <= p.square[0] <= region[2] and region[1] <= p.square[1] <= region[3]]
        assert inside, f"viewport {name} is labelled but empty"
        assert _check_centres(rules, state, rendered) == len(inside)
        seen += len(inside)
    assert seen == 100_000


def test_an_empty_board_and_odd_inputs_still_render():
    rules = load_preset("neisg")
    empty = render_board(rules, GameState.build(rules, [], []))
    assert empty.layout.region == (-4, -4, 4, 4) and not empty.layout.overview
    # a colour the palette does not know gets a spare colour rather than none
    state = GameState.build(rules, [dict(owner="Odd", kind="K", square=(0, 0))], [Player("Odd", "Puce")])
    rendered = render_board(rules, state)
    centre = _image(rendered).getpixel(_centre(rendered.layout, (0, 0)))
    assert centre in {tone for name in colour_names() for tone in player_rgb(name)}
    assert rendered.layout.label_boxes["0"]


# ----------------------------------------------------------------------------- far-apart areas (issue 27 item 3)
FAR = [("Red", "K", (-20, -20)), ("Blue", "K", (5, 5)), ("Blue", "Q", (40, 40)), ("Red", "R", (5, 0))]


def _far():
    return _game(FAR, players=("Red", "Blue"), colours=("Red", "Blue"))


def test_pieces_far_apart_are_drawn_as_named_insets_at_a_readable_scale():
    """The README's example drew a 3256 x 2950 board of 65 x 65 squares, four pieces on it."""
    from bot.render.board import default_viewports

    rules, state = _far()
    rendered = render_board(rules, state)
    _check_limits(rendered)
    layout = rendered.layout
    assert len(layout.insets) == 3 and not layout.overview
    assert max(rendered.width, rendered.height) < 2000 and layout.scale == 44
    assert layout.viewports == {inset.name: inset.region for inset in layout.insets} == default_viewports(rules, state)
    assert [inset.name for inset in layout.insets] == ["C3", "B2", "A1"]       # reading order: top row first
    # every piece is drawn, in its owner's colour, in the inset that names its area
    assert _check_centres(rules, state, rendered) == 4
    for piece in state.board:
        inset = layout.inset_of(piece.square)
        box = layout.box(piece.square)
        assert inset.board_box[0] <= box[0] < box[2] <= inset.board_box[2]
        assert layout.square_at((box[0] + box[2]) // 2, (box[1] + box[3]) // 2) == piece.square
    # each inset has its own axis labels, under its title
    assert {("x", "40"), ("y", "-20"), ("x", "5")} <= {(label.axis, label.text) for label in layout.labels}


def test_one_area_stays_one_board_and_a_region_asked_for_is_never_split():
    rules, state = _game([("Red", "K", (0, 0)), ("Blue", "K", (6, 3))], players=("Red", "Blue"), colours=("Red", "Blue"))
    assert not render_board(rules, state).layout.insets
    rules, state = _far()
    assert not render_board(rules, state, region=(-22, -22, 42, 42)).layout.insets
    assert not render_board(rules, state, center=(5, 5), radius=30).layout.insets


@pytest.mark.parametrize("asked", ["B2", "b2", "viewport:B2", "viewport:b2"])
def test_a_viewport_the_picture_names_can_be_asked_for(asked):
    """The overview said "ask for a viewport such as A1", and /board refused A1."""
    rules, state = _far()
    named = render_board(rules, state).layout.viewports
    rendered = render_board(rules, state, focus=asked)
    assert rendered.layout.region == named["B2"] and not rendered.layout.insets
    assert rendered.layout.focus == "viewport B2"
    assert rendered.layout.box((5, 5))


def test_an_unknown_viewport_is_refused_with_the_names_there_are():
    rules, state = _far()
    with pytest.raises(ValueError, match=r"the board has no viewport D4: it names A1, B2, C3"):
        render_board(rules, state, focus="D4")


def test_a_player_named_like_a_viewport_keeps_their_name():
    pieces = [(("B2" if owner == "Blue" else owner), kind, square) for owner, kind, square in FAR]
    rules, state = _game(pieces, players=("Red", "B2"), colours=("Red", "Blue"))
    assert render_board(rules, state, focus="B2").layout.focus == "B2's pieces"


def test_all_is_the_whole_board_as_its_default_picture():
    rules, state = _far()
    assert render_board(rules, state, focus="all").png == render_board(rules, state).png


def test_a_players_pieces_far_apart_are_insets_too():
    rules, state = _game([("Red", "K", (30, 0)), ("Blue", "K", (0, 0)), ("Blue", "Q", (70, 60))],
                         players=("Red", "Blue"), colours=("Red", "Blue"))
    layout = render_board(rules, state, focus="player:Blue").layout
    assert len(layout.insets) == 3                     # Blue's king and queen, and Red's king between them
    assert layout.inset_of((70, 60)) and layout.inset_of((0, 0))
    assert layout.focus == "Blue's pieces"
