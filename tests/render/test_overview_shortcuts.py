"""The overview's shortcuts (issue 25) give what the plain way gives: the region's pieces without a
filter when it holds them all, the grid without trying every side, the search for insets answered
from the columns and rows, the dots worked out for all pieces at once (the owner of most, ties to
the first by name, later dots over earlier ones), the legend's texts from cached glyphs."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from PIL import Image, ImageDraw

from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.state import GameState
from bot.render.board import paint_board
from bot.render.paint.text import mask_of, middle_rise, text_size, upright_mask
from bot.render.scene.colours import PlayerColours, _player_rgb
from bot.render.scene.grid import InRegion, _spans, occupied_viewports, viewport_grid, viewport_name
from bot.render.scene.limits import MAX_GRID, VIEWPORT_SIDE
from bot.render.paint.glyphs import draw_text
from bot.render.palette import colour_names, player_rgb
from bot.render.paint.sprites import bold_font, font

RULES = load_preset("neisg")


def _state(pieces, players=None) -> GameState:
    names = sorted({owner for owner, _, _ in pieces if owner is not None} | set(players or ()))
    colours = colour_names()
    people = [Player(name, colours[i % len(colours)]) for i, name in enumerate(names)]
    return GameState.build(RULES, [dict(owner=o, kind=k, square=s) for o, k, s in pieces], people)


def _scattered(count: int, spread: int, seed: int, players: int = 7) -> GameState:
    rng = random.Random(seed)
    squares = set()
    while len(squares) < count:
        squares.add((rng.randint(-spread, spread), rng.randint(-spread, spread)))
    order = sorted(squares, key=lambda _: rng.random())        # not the board's order of squares
    return _state([(f"P{rng.randrange(players)}", rng.choice("KPNBRQ"), s) for s in order])


def _plain_pieces(state: GameState, region):
    x0, y0, x1, y1 = region
    return [p for p in state.board if x0 <= p.square[0] <= x1 and y0 <= p.square[1] <= y1]


@pytest.mark.parametrize("region", [(-10**6, -10**6, 10**6, 10**6), (-500, -500, 500, 500), (0, -2_000, 3_000, 0),
                                    (5_000_000, 0, 5_000_010, 10)])
def test_the_region_s_pieces_are_those_a_plain_filter_finds(region):
    state = _scattered(3_000, 4_000, seed=1)
    within = InRegion(state, region)
    plain = _plain_pieces(state, region)
    assert within.pieces == plain
    assert within.each == ([p.square[0] for p in plain], [p.square[1] for p in plain])
    assert within.owners == [p.owner for p in plain]
    assert within.values == (sorted({p.square[0] for p in plain}), sorted({p.square[1] for p in plain}))
    # the board changed (a piece moved out of the region, one in): a new picture reads it again
    board = state.board.copy()
    pieces = list(board)
    board.replace(replace(pieces[0], square=(region[2] + 1, region[3] + 1)))
    board.replace(replace(pieces[-1], square=(region[0], region[1])))
    changed = replace(state, board=board)
    assert InRegion(changed, region).pieces == _plain_pieces(changed, region)


def _plain_grid(xs, ys, region):
    """The grid as it was worked out before: the spans of every side tried in turn."""
    x0, y0, x1, y1 = region
    side = VIEWPORT_SIDE
    while True:
        gap = max(6, side // 6)
        columns = _spans(xs, x0, x1, side, gap) if xs else [(x0, min(x1, x0 + side - 1))]
        rows = _spans(ys, y0, y1, side, gap) if ys else [(y0, min(y1, y0 + side - 1))]
        if len(columns) <= MAX_GRID and len(rows) <= MAX_GRID:
            return columns, rows
        side *= 2


@pytest.mark.parametrize("seed", range(6))
def test_the_grid_passing_over_sides_is_the_grid_trying_each(seed):
    rng = random.Random(seed)
    count = rng.choice([0, 1, 150, 199, 200, 201, 400, 3_000])
    spread = rng.choice([300, 10_000, 1_000_000])
    xs = sorted({rng.randint(-spread, spread) for _ in range(count)})
    ys = sorted({rng.randint(0, spread) for _ in range(count // 2)})
    region = (-spread - 2, -2, spread + 2, spread + 2)
    assert viewport_grid((), region, xs, ys) == _plain_grid(xs, ys, region)


@pytest.mark.parametrize("count, spread", [(40, 300), (300, 5_000), (2_000, 100_000), (5, 50), (13, 3_000)])
def test_the_occupied_viewports_and_the_inset_search_agree_with_every_piece_looked_at(count, spread):
    state = _scattered(count, spread, seed=count)
    region = (-spread - 2, -spread - 2, spread + 2, spread + 2)
    within = InRegion(state, region)
    columns, rows = within.grid
    plain = Counter()
    for piece in state.board:
        c = next((i for i, (a, b) in enumerate(columns) if a <= piece.square[0] <= b), None)
        r = next((i for i, (a, b) in enumerate(rows) if a <= piece.square[1] <= b), None)
        if c is not None and r is not None:
            plain[(c, r)] += 1
    assert within.cells == dict(plain)
    named = {viewport_name(c, r): (columns[c][0], rows[r][0], columns[c][1], rows[r][1])
             for c, r in sorted(plain, key=lambda cr: (-cr[1], cr[0]))}
    assert occupied_viewports(state, region) == named
    for at_most in (0, 1, 2, 5, 12, 40):
        found = occupied_viewports(state, region, at_most=at_most, within=InRegion(state, region))
        assert found == (named if len(named) <= at_most else None)


def _row_of_groups(extra, groups=120):
    """Pieces of a filler player in 120 groups along y = 0, 300 squares apart: a cell of the
    overview is about 28 pixels for a column of 64 squares, so neighbouring squares share a dot."""
    filler = [("Zed", "P", (g * 300 + k, 0)) for g in range(groups) for k in (0, 59)]
    return _state(extra + filler)


def _dot(layout, square):
    """Where the overview draws a square's dot: the top left pixel (the layout's own sums)."""
    left, top = layout.board_box[:2]
    (c, (a, b)), = [(i, span) for i, span in enumerate(layout.columns) if span[0] <= square[0] <= span[1]]
    (r, (lo, hi)), = [(i, span) for i, span in enumerate(layout.rows) if span[0] <= square[1] <= span[1]]
    cell = layout.cell
    return (left + c * cell + int((square[0] - a) * cell / (b - a + 1)),
            top + (len(layout.rows) - 1 - r) * cell + int((hi - square[1]) * cell / (hi - lo + 1)))


def _overview(state):
    x0 = min(p.square[0] for p in state.board)
    x1 = max(p.square[0] for p in state.board)
    painted = paint_board(RULES, state, region=(x0 - 2, -4, x1 + 2, 4))
    assert painted.layout.overview
    return painted


def test_a_dot_shared_by_several_squares_shows_the_owner_of_most_and_a_tie_the_first_by_name():
    base = 1_500          # a group of the filler's: columns[5] begins at 1498
    most = [("Bob", "N", (base + 13, 0)), ("Amy", "N", (base + 14, 0)), ("Bob", "N", (base + 15, 0))]
    tie = [("Bob", "N", (base + 30, 0)), ("Amy", "N", (base + 31, 0))]
    state = _row_of_groups(most + tie)
    painted = _overview(state)
    layout, image = painted.layout, painted.image
    assert len({_dot(layout, s) for _, _, s in most}) == 1 and len({_dot(layout, s) for _, _, s in tie}) == 1
    colours = PlayerColours(state, "default")
    assert image.getpixel(_dot(layout, most[0][2])) == colours.of("Bob")[0]
    assert image.getpixel(_dot(layout, tie[0][2])) == colours.of("Amy")[0]       # Amy before Bob, met second


@pytest.mark.parametrize("first", ["Amy", "Bob"])
def test_a_dot_overlaps_the_one_before_it_in_the_order_the_pieces_are_met(first):
    base = 1_500
    squares = {"Bob": (base + 10, 0), "Amy": (base + 11, 0)}
    order = [first, "Bob" if first == "Amy" else "Amy"]
    state = _row_of_groups([(name, "N", squares[name]) for name in order])
    painted = _overview(state)
    layout, image = painted.layout, painted.image
    bob, amy = _dot(layout, squares["Bob"]), _dot(layout, squares["Amy"])
    assert amy[0] == bob[0] + 1 and amy[1] == bob[1]          # Bob's dot is two pixels wide: they share one
    colours = PlayerColours(state, "default")
    assert image.getpixel(amy) == colours.of(order[1])[0]      # the later one drawn over the earlier
    assert image.getpixel(bob) == colours.of("Bob")[0]


def test_an_overview_of_part_of_the_board_is_that_of_a_board_of_only_those_pieces():
    """The region's filter (skipped when the region holds every piece) picks exactly its pieces."""
    state = _scattered(2_000, 3_000, seed=4)
    region = (-1_000, -3_002, 3_002, 1_000)
    alone = GameState.build(RULES, [dict(owner=p.owner, kind=p.kind, square=p.square)
                                    for p in _plain_pieces(state, region)], list(state.players.values()))
    part, whole = paint_board(RULES, state, region=region), paint_board(RULES, alone, region=region)
    assert part.layout.overview and part.layout == whole.layout
    assert part.image.tobytes() == whole.image.tobytes()


def test_text_sizes_kept_are_the_font_s_own():
    for face in (font(11), font(13), bold_font(13), bold_font(15)):
        for text in ("-99863..-99857", "1..9", "AA100", "WW", "-0123456789", "Zed (Red)"):
            box = face.getbbox(text)
            assert text_size(face, text) == (box[2] - box[0], box[3] - box[1])
    # the overview measures its coordinates by their masks, which it then draws
    for text in ("-99863..-99857", "1..9", "1498..1561", "0..0"):
        assert mask_of(text, 11, False).size == text_size(font(11), text)


@pytest.mark.parametrize("size", [11, 13, 14, 18])
@pytest.mark.parametrize("bold", [False, True])
def test_legend_texts_from_glyphs_are_the_pixels_pillow_draws_at_the_middle_anchor(size, bold):
    face = bold_font(size) if bold else font(size)
    # names players chose: Latin ones composed from glyphs, the others (emoji, other scripts,
    # ligatures, combining marks) drawn by Pillow at the default anchor, the same rise
    for text in ("P0001 (Crimson/Yellow)", "Amy (Red)", "gjpqy ÀÉ (?)", "... and 920 more", "Zed (Puce)", ".",
                 "Zoë 🙂 (Red)", "名前 (Blue)", "عربي (Teal)", "office (Gold)", "e\u0301te\u0301", ""):
        plain = Image.new("RGB", (400, 40), (250, 250, 247))
        ImageDraw.Draw(plain).text((5, 20), text, font=face, fill=(25, 25, 25), anchor="lm")
        cached = Image.new("RGB", (400, 40), (250, 250, 247))
        draw_text(ImageDraw.Draw(cached), (5, 20 - middle_rise(face)), text, face, (25, 25, 25))
        assert cached.tobytes() == plain.tobytes(), text


def test_player_colours_kept_are_the_palette_s_own():
    names = colour_names()
    for palette in ("default", "colourblind"):
        for colour in names + [f"{names[0]}/{names[5]}", names[3].upper()]:
            assert _player_rgb(colour, palette) == player_rgb(colour, palette)
        for _ in range(2):          # an unknown colour is refused every time, not kept
            with pytest.raises(ValueError):
                _player_rgb("Puce", palette)


def test_upright_text_kept_is_the_text_turned():
    for text in ("-99863..-99857", "0..63", "1498..1561"):
        for bold in (False, True):
            turned = mask_of(text, 11, bold).rotate(90, expand=True)
            kept = upright_mask(text, 11, bold)
            assert kept.size == turned.size and kept.tobytes() == turned.tobytes()


def _pillow_mask(text: str, size: int, bold: bool) -> Image.Image:
    """The tight mask as Pillow draws it centred on its box's middle (how mask_of made it before)."""
    face = bold_font(size) if bold else font(size)
    left, top, right, bottom = face.getbbox(text, anchor="mm")
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor="mm")
    return mask


def test_text_masks_from_glyphs_are_the_pixels_pillow_draws_centred():
    rng = random.Random(5)
    names = [viewport_name(rng.randrange(800), rng.randrange(200)) for _ in range(60)]
    ranges = [f"{rng.randint(-99_999, 99_999)}..{rng.randint(-99_999, 99_999)}" for _ in range(60)]
    # badges and stars, blanks, a ligature and letters Pillow draws itself
    others = ["+", "-0", "WW", "Ag", " ", "A B", "\u2605", "ffi", "名", "0..0"]
    for size in (8, 11, 12, 13, 16, 22, 40):
        for bold in (False, True):
            for text in names + ranges + others:
                kept, plain = mask_of.__wrapped__(text, size, bold), _pillow_mask(text, size, bold)
                assert kept.size == plain.size and kept.tobytes() == plain.tobytes(), (text, size, bold)


@pytest.mark.parametrize("far", [3 << 31, 1 << 70])
def test_an_overview_far_beyond_machine_integers_names_its_coordinates_whole(far):
    """Coordinates beyond 32 and 64 bits (an unbounded board): the overview is drawn, and its
    viewports span the pieces' own coordinates, not numbers cut to a machine word."""
    state = _state([("Ann", "K", (far + 10 * i, -far - 7 * i)) for i in range(300)] + [("Bob", "Q", (0, 0))])
    layout = paint_board(RULES, state).layout
    assert layout.overview
    spans = list(layout.viewports.values())
    assert any(x0 <= far <= x1 and y0 <= -far <= y1 for x0, y0, x1, y1 in spans)
    assert any(x0 <= 0 <= x1 and y0 <= 0 <= y1 for x0, y0, x1, y1 in spans)
