"""What a territory turn did, read back from its report (bot/engine/territory/trace.py, issue 24): the
board picture draws it as arrows, so each relocation must come out where RULES 5.4 put the piece."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine.report import Report
from bot.engine.runner import run_scenario
from bot.engine.scenario import load_scenario
from bot.engine.territory.trace import LastAction, last_action

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "territory"


def _traced(name: str) -> LastAction:
    scenario = load_scenario(SCENARIOS / f"{name}.toml")
    outcome = run_scenario(scenario)
    return last_action(scenario.ruleset, outcome.report)


def _steps(action: LastAction) -> list[tuple]:
    return [(s.form, s.kind, s.origin, s.target, s.captured) for s in action.steps]


def test_a_moon_pulls_one_square_toward_itself_then_moves():
    # example 4: the Wood on (-2,-1) is pulled along the diagonal to (-1,-2), then the Moon moves
    action = _traced("example-4-moon-pull-then-its-move")
    assert (action.turn, action.slot, action.player, action.outcome) == (1, "Red", "Ann", "played")
    assert _steps(action) == [("pull", "Moon", (-2, -1), (-1, -2), False), ("move", "Moon", (1, -4), (3, -2), False)]


def test_a_power_moves_then_pushes_away_from_its_new_square():
    # example 5: Pwr(0,-4)-(0,-2) then the Rock on (0,1) goes one square on, to (0,2)
    assert _steps(_traced("example-5-power-move-then-push")) == [
        ("move", "Pwr", (0, -4), (0, -2), False), ("push", "Pwr", (0, 1), (0, 2), False)]


def test_a_wind_moves_then_carries_an_ally():
    assert _steps(_traced("wind-moves-then-carries-an-ally")) == [
        ("move", "Wind", (1, -4), (1, -3), False), ("carry", "Wind", (-4, -5), (0, -2), False)]


def test_fire_legs_one_arrow_each_and_the_captures():
    # example 7: (0,-4) to (1,-2) takes the Rock, to (2,-1) the Infinity, then steps to the empty (2,0)
    action = _traced("example-7-fire-chain-and-a-rock-returning")
    assert _steps(action) == [("move", "Fire", (0, -4), (1, -2), True), ("move", "Fire", (1, -2), (2, -1), True),
                              ("move", "Fire", (2, -1), (2, 0), False)]
    assert action.captures == ((1, -2), (2, -1))


def test_a_leadership_hands_over_then_its_delegate_swaps():
    assert _steps(_traced("t17-a-leadership-gives-an-ability")) == [
        ("lead", "Ldr", (0, -4), (3, -4), False), ("swap", "Bal", (3, -4), (3, 2), False)]


def test_a_leaf_swaps_then_moves_from_its_new_square():
    assert _steps(_traced("leaf-swap-then-its-knight-move")) == [
        ("swap", "Lf", (2, -4), (0, -2), False), ("move", "Lf", (0, -2), (1, 0), False)]


def test_a_wood_shoots_without_moving():
    action = _traced("wood-captures-without-moving")
    assert _steps(action) == [("shot", "Wood", (1, -2), (3, 0), True)]
    assert action.captures == ((3, 0),)


def test_the_placement_and_the_mirrors_copy():
    assert _traced("example-9-mirror-and-its-copy").placed == (("Mir", (0, -5)), ("Mir", (1, -4)))
    action = _traced("example-5-4-9")
    assert action.slot == "Green" and action.placed == (("Wood", (-4, -3)),)
    assert action.text == "Fire(-4,-2)-(-2,-1)-(-1,0); +Wood(-4,-3)"


def test_a_win_ends_the_turn_the_placement_is_not_drawn():
    # example 8: the Balance stacks on the goal and wins; `+Sun(3,-5)` is not carried out (T9, T34)
    action = _traced("example-8-a-stack-on-the-goal-wins")
    assert action.winner == "Ann"
    assert _steps(action) == [("move", "Bal", (0, -2), (0, 0), False)]
    assert action.placed == ()


def test_a_pull_onto_the_goal_wins_and_the_moon_does_not_move_on():
    action = _traced("t30-a-pull-onto-the-goal-wins")
    assert action.winner == "Ann" and _steps(action) == [("pull", "Moon", (0, 1), (0, 0), False)]


def test_a_draft_and_the_refill():
    action = _traced("example-10-a-draft-and-the-refill")
    assert action.drafted == ("Bal", "Ice") and action.steps == ()
    assert len(action.refilled) == 2


@pytest.mark.parametrize("name, outcome, player", [
    ("cycle-turn-3-skipped-nobody-controls-green", "skipped", None),
    ("not-your-turn-and-a-missed-turn", "missed", "Ann"),
    ("example-1-control", "passed", "Ann"),
    ("resign-by-the-other-player-ends-the-turn", "resigned", "Bob"),
    ("t22-a-refused-submission-leaves-the-turn-open", "refused", None),
])
def test_turns_without_an_action(name, outcome, player):
    action = _traced(name)
    assert (action.outcome, action.player, action.steps) == (outcome, player, ())


def test_a_stored_report_reads_the_same():
    scenario = load_scenario(SCENARIOS / "example-7-fire-chain-and-a-rock-returning.toml")
    report = run_scenario(scenario).report
    stored = Report.from_json(report.to_json())
    assert last_action(scenario.ruleset, stored) == last_action(scenario.ruleset, report)

