"""Issue 39, the pictures: what a player reads on the arena, megachess and territory boards and on
every game's sprites and legend, checked by meaning (the scene and the layout), not by eye."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine.runner import run_scenario
from bot.engine.scenario import load_scenario
from bot.render.board import render_board, scene_of

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


# ============================================================================= arena: the last round's moves
def test_an_arena_board_after_a_round_shows_its_moves_as_neisg_does():
    """RULES 5.2: every valid move arrives; the board after the round draws each one's arrow and the
    from and to tints, from the state alone (its memory of the last update)."""
    scenario = load_scenario(SCENARIOS / "arena" / "capture-normal.toml")
    state = run_scenario(scenario).state
    scene = scene_of(scenario.ruleset, state, (-7, -6, 2, 6))
    assert {(a.origin, a.target) for a in scene.arrows} == {((0, 5), (0, 0)), ((-5, -5), (-5, -4))}
    tinted = {fill.square for fill in scene.fills}
    assert {(0, 5), (0, 0), (-5, -5), (-5, -4)} <= tinted
    legend = [entry.text for entry in scene.legend]
    assert "last update's move" in legend


def test_an_arena_capture_passed_as_last_moves_gets_its_red_arrow_and_cross():
    scenario = load_scenario(SCENARIOS / "arena" / "capture-normal.toml")
    state = run_scenario(scenario).state
    moves = [(m.origin, m.target, m.target == (0, 0)) for m in state.moved_last_update]
    scene = scene_of(scenario.ruleset, state, (-7, -6, 2, 6), last_moves=moves)
    assert scene.crosses == ((0, 0),)
    assert render_board(scenario.ruleset, state, last_moves=moves).layout.scale > 0


# ============================================================================= rank 0: drawn where it matters
def _scene_of_preset(name: str):
    from bot.engine.model import Player
    from bot.engine.ruleset import load_preset
    from bot.engine.state import GameState

    ruleset = load_preset(name)
    state = GameState.build(ruleset, [dict(owner="Ann", kind="K", square=(0, 0)), dict(owner="Bob", kind="K", square=(3, 2))],
                            [Player("Ann", "Red", team="alabaster"), Player("Bob", "Blue", team="brushed metal")])
    return scene_of(ruleset, state, (-3, -3, 3, 3))


@pytest.mark.parametrize("name", ["arena", "megachess"])
def test_boards_whose_rules_never_name_rank_0_draw_no_band(name):
    from bot.engine.ruleset import load_preset
    from bot.engine.variants import variant_for
    from bot.render.scene.colours import DARK, LIGHT

    assert variant_for(load_preset(name)).rank_zero_matters is False
    scene = _scene_of_preset(name)
    assert not scene.rank0 and not scene.rank_zero
    assert (scene.square_colour(0, 0), scene.square_colour(1, 0)) == (DARK, LIGHT)
    assert not any(label.underline for label in scene.columns + scene.rows)
    assert "rank 0" not in [entry.text for entry in scene.legend]


def test_a_neisg_board_still_bands_rank_0_and_keys_it():
    from bot.render.scene.colours import DARK

    scene = _scene_of_preset("neisg")
    assert scene.rank0 and scene.square_colour(0, 0) != DARK
    assert [label.text for label in scene.rows if label.underline] == ["0"]
    assert "rank 0" in [entry.text for entry in scene.legend]


# ============================================================================= power-up tokens: no player's colour
def _arena_with(colours):
    from bot.engine.model import Player
    from bot.engine.ruleset import load_preset
    from bot.engine.state import GameState, PowerUp

    ruleset = load_preset("arena")
    players = [Player(f"P{i:02d}", colour) for i, colour in enumerate(colours)]
    pieces = [dict(owner=p.name, kind="K", square=(i % 10 - 5, i // 10 - 6)) for i, p in enumerate(players)]
    powerups = (PowerUp("new", (3, 3), "N"), PowerUp("upgrade", (-4, 5)), PowerUp("king", (4, -3)),
                PowerUp("new", (-3, -4), "Q"))
    return ruleset, GameState.build(ruleset, pieces, players, powerups=powerups)


def _all_colours():
    from bot.render.palette import colour_names

    return colour_names()


@pytest.mark.parametrize("palette", ["default", "colourblind"])
@pytest.mark.parametrize("colours", [("Red", "Blue", "Green", "Orange"), ("Orange", "Amber", "Gold", "Emerald", "Azure"),
                                     ("Violet", "Yellow", "Sky", "Brown", "White", "Black", "Fuchsia"), "all"])
def test_a_power_up_token_looks_like_no_player_s_colour(colours, palette):
    """Issue 39: the "king me" crown was orange like an orange player's pieces. A token's fill is at
    least CIEDE2000 15 from every player's colour in the game, or it is hatched in white dots, a
    pattern no player's pieces have."""
    from bot.render.palette import delta_e2000
    from bot.render.scene.colours import PlayerColours

    ruleset, state = _arena_with(_all_colours() if colours == "all" else colours)
    scene = scene_of(ruleset, state, (-7, -7, 7, 7), palette=palette)
    tones = {tone for tones in PlayerColours(state, palette).tones.values() for tone in tones}
    drawn = list(scene.tokens) + [entry.sample for entry in scene.legend if entry.kind == "token"]
    assert len(drawn) == 8
    for token in drawn:
        assert token.hatched or min(delta_e2000(token.fill, tone) for tone in tones) >= 15, token


def test_the_king_me_crown_is_not_orange_beside_an_orange_player_and_a_crowded_palette_hatches():
    from PIL import Image
    import io

    ruleset, state = _arena_with(("Red", "Blue", "Green", "Orange"))
    crown = next(t for t in scene_of(ruleset, state, (-7, -7, 7, 7)).tokens if t.mark.kind == "king")
    assert crown.fill != (230, 159, 0) and not crown.hatched
    ruleset, state = _arena_with(_all_colours())
    tokens = scene_of(ruleset, state, (-7, -7, 7, 7)).tokens
    assert any(t.hatched for t in tokens)
    rendered = render_board(ruleset, state, region=(-7, -7, 7, 7))
    image = Image.open(io.BytesIO(rendered.png)).convert("RGB")
    for token in (t for t in tokens if t.hatched):
        x0, y0, x1, y1 = rendered.layout.box(token.mark.square)
        pixels = [image.getpixel((x, y)) for x in range(x0, x1) for y in range(y0, y1)]
        assert sum(p == (255, 255, 255) for p in pixels) >= 10       # the white dots


# ============================================================================= arena: the framing, for a chat's preview
#: Discord's preview of a picture: about 550 pixels wide (issue 39)
PREVIEW_WIDTH = 550


def _arena_set_up(players: int):
    from bot.engine.model import Player
    from bot.engine.ruleset import load_preset
    from bot.engine.variants import variant_for
    from bot.render.palette import colour_names

    ruleset = load_preset("arena")
    colours = colour_names()[:players]
    return ruleset, variant_for(ruleset).set_up([Player(f"P{i}", c) for i, c in enumerate(colours)], 1)


@pytest.mark.parametrize("players, least", [(2, 28), (4, 21), (8, 13)])
def test_an_arena_board_s_squares_read_in_a_chat_preview(players, least):
    """Issue 39: 8 players' board was 2200 pixels wide, a square 11 pixels in Discord's preview of
    about 550. Framed a square closer, the legend under the board, a square is at least ``least``
    pixels there (8 players: the armies span 37 columns, so no picture of them all can give more
    than 550 / 37 = 14.9), and every piece and power-up is in the picture."""
    from bot.engine.state import PowerUp

    ruleset, state = _arena_set_up(players)
    (bx0, by0), (bx1, by1) = ruleset.bounds_for(players)
    for powerups in ((), (PowerUp("king", (bx1, by0)), PowerUp("new", (bx0, by1), "N"))):
        state.powerups = powerups
        rendered = render_board(ruleset, state)
        assert not rendered.layout.overview and not rendered.layout.insets
        assert rendered.layout.scale * PREVIEW_WIDTH / rendered.width >= least, (rendered.width, rendered.layout.scale)
        squares = [p.square for p in state.board] + [p.at for p in powerups]
        assert all(rendered.layout.contains(square) for square in squares)
        assert {mark.square for mark, _ in rendered.layout.marks} == {p.at for p in powerups}


def test_only_a_variant_that_lays_its_board_out_for_a_preview_changes_its_frame():
    """The neisg board keeps two squares of margin and its legend beside the board."""
    from bot.engine.model import Player
    from bot.engine.ruleset import load_preset
    from bot.engine.state import GameState
    from bot.engine.variants.base import BoardAdditions

    ruleset, state = _arena_set_up(4)
    arena = scene_of(ruleset, state, (-11, -11, 11, 11))
    assert arena.fit_preview
    plain = render_board(ruleset, state, additions=BoardAdditions(rank_zero=False))
    fitted = render_board(ruleset, state)
    assert plain.layout.region == (-12, -12, 12, 12) and fitted.layout.region == (-11, -11, 11, 11)
    legend_left = plain.layout.board_box[2] + 40
    assert plain.width > legend_left and fitted.width < fitted.layout.board_box[2] + 60   # the legend moved under it
    neisg = load_preset("neisg")
    state = GameState.build(neisg, [dict(owner="Ann", kind="K", square=(0, 0)), dict(owner="Bob", kind="K", square=(6, 4))],
                            [Player("Ann", "Red"), Player("Bob", "Blue")])
    assert not scene_of(neisg, state, (-2, -2, 8, 6)).fit_preview
    assert render_board(neisg, state).layout.region == (-2, -2, 8, 6)


# ============================================================================= territory: a key of every label
def test_the_territory_legend_keys_every_label_drawn():
    """A player names every piece from the picture alone: every kind's letters drawn on the board,
    in a reserve or in the draft area has a line of the legend with its name ("Fre: Freedom",
    "Fire: Fire")."""
    from bot.render.paint.territory import render_territory
    from bot.render.scene.territory import territory_scene

    scenario = load_scenario(SCENARIOS / "territory" / "example-5-4-9.toml")
    outcome = run_scenario(scenario)
    ruleset, state, report = scenario.ruleset, outcome.state, outcome.report
    scene = territory_scene(ruleset, state, report=report)
    drawn = {look.kind.letter for look in scene.pieces} | {chip.kind_letter for h in scene.holdings for chip in h.chips}
    keyed = {item.colour.letter: item.words for item in scene.legend if item.shape == "piece"}
    assert drawn and set(keyed) == drawn
    for letter in drawn:
        assert keyed[letter] == f"{letter}: {ruleset.pieces[letter].name}"
    legend = render_territory(ruleset, state, report=report).layout.legend
    assert all(keyed[letter] in legend for letter in drawn)


# ============================================================================= every game: the bishop, the legend
def test_the_bishop_has_about_as_much_ink_as_the_other_pieces():
    """DejaVu's bishop had two thirds of the others' ink: a pale bishop nearly vanished."""
    from statistics import median

    from bot.render.paint.sprites import _standard_glyph_masks

    masks = _standard_glyph_masks(176)
    ink = {name: sum(1 for v in solid.tobytes() if v > 128) for name, (solid, _) in masks.items()}
    others = [count for name, count in ink.items() if name not in ("bishop", "king")]
    assert ink["bishop"] >= 0.85 * median(others), ink


@pytest.mark.parametrize("per_column", [3, 4, 5, 7, 10])
def test_every_column_of_a_legend_starts_with_a_heading(per_column):
    """The neisg legend's marks ran into a second column with no heading: a column that starts
    inside a section repeats its heading, and no heading ends a column."""
    from bot.render.paint.legend import continued
    from bot.render.scene.board import LegendEntry

    items = ([LegendEntry("heading", "Players")] + [LegendEntry("player", f"P{i}") for i in range(5)]
             + [LegendEntry("heading", "Marks")] + [LegendEntry("mark", f"m{i}") for i in range(9)])
    laid = continued(items, per_column)
    columns = [laid[i:i + per_column] for i in range(0, len(laid), per_column)]
    assert all(column[0].kind == "heading" for column in columns)
    assert all(column[-1].kind != "heading" for column in columns)
    assert [e for e in laid if e.kind not in ("heading", "text")] == [e for e in items if e.kind != "heading"]


# ============================================================================= megachess: a piece's team on the board
def test_each_megachess_piece_shows_its_team_and_the_legend_keys_the_marks():
    scene = _scene_of_preset("megachess")
    badges = {view.piece.owner: [b for b in view.badges if b.corner == "bottom-left"]
              for stack in scene.stacks for view in stack.pieces}
    assert [b.text for b in badges["Ann"]] == ["A"] and [b.text for b in badges["Bob"]] == ["B"]
    assert badges["Ann"][0].back != badges["Bob"][0].back           # one light, one dark
    assert "team on a piece's foot: A alabaster, B brushed metal" in [e.text for e in scene.legend]


def test_only_a_variant_played_by_teams_marks_them():
    from bot.engine.ruleset import load_preset
    from bot.engine.variants import variant_for

    assert variant_for(load_preset("megachess")).team_play and not variant_for(load_preset("neisg")).team_play
    scene = _scene_of_preset("neisg")       # its players have teams, but neisg is not played by teams
    assert not any(view.badges for stack in scene.stacks for view in stack.pieces)
