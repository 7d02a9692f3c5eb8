"""Issue 39, the pictures: what a player reads on the arena, megachess and territory boards and on
every game's sprites and legend, checked by meaning (the scene and the layout), not by eye."""

from __future__ import annotations

from pathlib import Path

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
