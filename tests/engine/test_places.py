"""``Variant.places`` (issue 42): where each player of a finished game placed, for ratings, from the
variant's verdict and standings, on the catalogue's own finished games."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine.resolution import resolve
from bot.engine.scenario import load_scenario
from bot.engine.variants import variant_for

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def finished(name: str):
    scenario = load_scenario(SCENARIOS / name)
    state, _ = resolve(scenario.ruleset, scenario.state, scenario.orders, scenario.seed)
    return variant_for(scenario.ruleset), scenario.state, state


def test_a_shared_win_ties_first_place():
    variant, _, state = finished("arena/win-shared.toml")
    assert variant.places(state) == {"Blue": 1, "Red": 1}


def test_a_player_out_of_the_standings_shares_the_last_place_and_a_game_going_on_has_none():
    variant, before, state = finished("arena/resign.toml")
    assert variant.places(state) == {"Red": 1, "Blue": 2}          # Blue resigned: out, though 50 points
    assert variant.places(before) == {}


@pytest.mark.parametrize("name", ["territory/quiet-24th-turn-missed-draws.toml",
                                  "territory/quiet-24th-turn-skipped-draws.toml"])
def test_a_draw_ties_every_player_still_ranked(name):
    variant, _, state = finished(name)
    assert variant.verdict(state).drawn
    assert variant.places(state) == {"Ann": 1, "Bob": 1}


def test_the_others_follow_the_standings_after_the_winners():
    variant, _, state = finished("arena/win-at-100.toml")
    winners = variant.verdict(state).winners
    places = variant.places(state)
    ranked = [s.name for s in variant.standings(state) if s.name not in winners]
    assert {name for name, place in places.items() if place == 1} == set(winners)
    assert [places[name] for name in ranked] == list(range(len(winners) + 1, len(winners) + 1 + len(ranked)))
