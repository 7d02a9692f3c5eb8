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
