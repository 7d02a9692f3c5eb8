"""A territory game's own state (RULES.md 5.4.3, 5.4.4) survives storage; other families' states are unchanged."""

from __future__ import annotations

from fractions import Fraction

from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.serialize import dumps, loads, state_to_json
from bot.engine.state import GameState
from bot.engine.territory.state import TerritoryState


def _territory_state() -> GameState:
    ruleset = load_preset("territory")
    players = [Player("Ann", "Red"), Player("Bob", "Blue")]
    state = GameState.build(ruleset, [dict(owner="Ann", kind="Mir", square=(0, -5)),
                                      dict(owner="Ann", kind="Mir", square=(1, -4))], players, update=7)
    state.territory = TerritoryState().with_changes(
        reserves={"Bob": ["Sun", "Ice"], "Ann": ["Wood"]}, draft_area=["Wtr", "Bal", "Bal"],
        bag=["Sun", "Chs", "Bal"], copies={2}, quiet=5)
    return state


def test_multisets_are_kept_in_canonical_order():
    territory = _territory_state().territory
    assert territory.reserve("Bob") == ("Ice", "Sun") and territory.reserve("Cleo") == ()
    assert territory.draft_area == ("Bal", "Bal", "Wtr") and territory.bag == ("Bal", "Chs", "Sun")


def test_a_territory_state_round_trips_through_json():
    state = _territory_state()
    again = loads(dumps(state))
    assert again.territory == state.territory
    assert again.update == 7 and sorted(p.square for p in again.board) == [(0, -5), (1, -4)]
    over = TerritoryState(winners=("Ann",), ended="Ann controls the goal")
    state.territory = over
    assert loads(dumps(state)).territory == over and loads(dumps(state)).territory.over


def test_other_families_states_have_no_territory_key():
    neisg = GameState.build(load_preset("neisg"), [dict(owner="Red", kind="K", square=(0, 0))],
                            [Player("Red", "Red", Fraction(10))])
    raw = state_to_json(neisg)
    assert "territory" not in raw and loads(dumps(neisg)).territory is None
