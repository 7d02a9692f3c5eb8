"""One territory turn (RULES.md 5.4.2 to 5.4.6, 5.4.8, 5.4.10) as the bot asks it: the set-up's draws,
who acts, the check of a submission with its echo, and what a turn leaves behind. The rules of the
pieces themselves are the scenarios' (tests/scenarios/territory/)."""

from __future__ import annotations

import random

from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.state import GameState
from bot.engine.territory.state import TerritoryState
from bot.engine.territory.turn import (active_player, check_turn, controls, next_turn, resolve_turn, set_up)

TERRITORY = load_preset("territory")
KINDS = TERRITORY.family_rules.kinds


def _state(pieces, update=1, reserves=None, draft_area=(), bag=(), quiet=0) -> GameState:
    state = GameState.build(TERRITORY, [dict(owner=o, kind=k, square=s) for o, k, s in pieces],
                            [Player("Ann", "Red"), Player("Bob", "Blue")], update=update)
    state.territory = TerritoryState().with_changes(reserves=reserves or {}, draft_area=draft_area, bag=bag,
                                                    quiet=quiet)
    return state


def test_set_up_deals_three_kinds_to_both_reserves_and_fills_the_draft_area():
    """5.4.3 with INTERFACES' draws: T = 0; three rng.choice over the kinds not chosen yet (20, 19,
    18 of them, canonical order), then the fill's rng.choice over the bag, from the same generator."""
    state = set_up(TERRITORY, [Player("Ann", "Teal"), Player("Bob", "Teal")], seed=11)
    rng = random.Random("11:0")
    chosen: list[str] = []
    for _ in range(3):
        chosen.append(rng.choice([k for k in KINDS if k not in chosen]))
    bag = sorted(k for k in KINDS for _ in range(2))
    for kind in chosen * 2:
        bag.remove(kind)
    drawn = []
    for _ in range(6):
        drawn.append(kind := rng.choice(bag))
        bag.remove(kind)
    territory = state.territory
    assert territory.reserve("Ann") == territory.reserve("Bob") == tuple(sorted(chosen))
    assert len(set(chosen)) == 3
    assert territory.draft_area == tuple(sorted(drawn)) and territory.bag == tuple(bag)
    assert len(territory.bag) + len(territory.draft_area) + 6 == 40           # the pool stays 40
    assert (state.players["Ann"].colour, state.players["Bob"].colour) == ("Red", "Blue")   # the first seated is Red
    assert state.update == 1 and not list(state.board) and state.seats == ("Ann", "Bob")
    assert set_up(TERRITORY, [Player("Ann", "Teal"), Player("Bob", "Teal")], seed=11).territory == territory


def test_the_first_turns_follow_the_cycle():
    """5.4.3's last line: turn 1 Red, turn 2 Blue, turn 3 skipped (nobody controls Green), turn 4 Red."""
    state = set_up(TERRITORY, [Player("Ann", "Red"), Player("Bob", "Blue")], seed=1)
    assert active_player(TERRITORY, state) == "Ann"
    assert [active_player(TERRITORY, state, t) for t in (2, 3, 4)] == ["Bob", None, "Ann"]
    after, report = resolve_turn(TERRITORY, state, {"Ann": "pass"}, seed=1)
    after, report = resolve_turn(TERRITORY, after, {"Bob": "pass"}, seed=1)
    assert next_turn(TERRITORY, after) == (4, "Ann")
    after, report = resolve_turn(TERRITORY, after, {}, seed=1)
    assert "skipped" in report.text() and after.update == 4 and after.territory.quiet == 3


def test_check_echoes_the_canonical_form_and_refuses_in_t40s_words():
    state = _state([("Ann", "Bal", (0, -4)), ("Bob", "Ice", (1, -2)), ("Ann", "Sun", (0, -2))],
                   reserves={"Ann": ["Wood"]})
    accepted = check_turn(TERRITORY, state, "Ann", " bal (2,-4) ; +wood(3,-5)")
    assert accepted.ok and accepted.canonical == "Bal(0,-4)-(2,-4); +Wood(3,-5)"
    refused = check_turn(TERRITORY, state, "Ann", "Sun(0,-2)-(0,-1)")
    assert not refused.ok and "frozen" in refused.error.reason and refused.error.rule == "T13"
    assert refused.error.offending == "(0,-1)"
    other = check_turn(TERRITORY, state, "Bob", "Ice(1,-2)-(1,-1)")
    assert "not your turn" in other.error.reason
    assert check_turn(TERRITORY, state, "Bob", "resign").ok                # T25: resign from either player


def test_a_short_form_names_its_piece_or_lists_the_candidates():
    state = _state([("Ann", "Bal", (0, -4)), ("Ann", "Bal", (2, -2))])
    echoed = check_turn(TERRITORY, state, "Ann", "Bal(4,-2)")
    assert echoed.canonical == "Bal(2,-2)-(4,-2)"
    ambiguous = check_turn(TERRITORY, state, "Ann", "Bal(2,-4)")
    assert "(0,-4) or (2,-2)" in ambiguous.error.reason and ambiguous.error.candidates == ((0, -4), (2, -2))
    neither = check_turn(TERRITORY, state, "Ann", "Bal(5,5)")
    assert "none of your Balance pieces" in neither.error.reason and "from (0,-4)" in neither.error.reason


def test_a_refused_submission_leaves_the_turn_open():
    """T22: nothing changes, not even the turn number."""
    state = _state([("Ann", "Bal", (0, -4))], reserves={"Ann": ["Sun"]}, draft_area=["Fire"], bag=["Ice"], quiet=5)
    after, report = resolve_turn(TERRITORY, state, {"Ann": "Bal(0,-4)-(0,-1)"}, seed=3)
    assert after.update == 1 and after.territory == state.territory
    assert [p.square for p in after.board] == [(0, -4)] and report.of_type("refused")
    assert next_turn(TERRITORY, after) == (1, "Ann")


def test_the_state_after_a_turn_is_a_new_value():
    state = _state([("Ann", "Bal", (0, -4))], draft_area=["Fire"], bag=["Ice", "Sun"])
    after, _ = resolve_turn(TERRITORY, state, {"Ann": "Bal(0,-4)-(0,-2)"}, seed=3)
    assert [p.square for p in state.board] == [(0, -4)]                     # the old position is untouched
    assert [p.square for p in after.board] == [(0, -2)] and after.update == 2
    assert sorted(after.territory.draft_area + after.territory.bag) == ["Fire", "Ice", "Sun"]
    assert len(after.territory.draft_area) == 3


def test_both_players_resigning_in_one_turn_the_active_player_wins():
    """T42: the other player's resignation was sent first and counts; resignations never draw."""
    state = _state([("Ann", "Bal", (0, -4))])
    after, report = resolve_turn(TERRITORY, state, {"Ann": "resign", "Bob": "resign"}, seed=3)
    assert after.territory.winners == ("Ann",) and not after.territory.drawn
    assert (after.players["Ann"].status, after.players["Bob"].status) == ("active", "resigned")
    assert "Bob resigned: Ann wins" in report.text()
    [refused] = report.of_type("refused")
    assert refused.players == ("Ann",) and "the game is over" in refused.data["reason"] and "T42" in refused.data["reason"]


def test_a_resign_on_a_skipped_turn_comes_after_the_skip():
    """T42: turn 3 (Green, nobody controls it) is skipped first, quiet + 1, then Bob's resign: Ann wins."""
    state = _state([], update=3, quiet=5)
    after, report = resolve_turn(TERRITORY, state, {"Bob": "resign"}, seed=3)
    assert [e.type for e in report.entries] == ["skipped", "order", "conceded"]
    assert after.territory.quiet == 6 and after.territory.winners == ("Ann",) and after.update == 4


def test_a_resign_on_the_24th_quiet_turn_is_refused_the_game_is_drawn():
    """T42: the skip is the 24th quiet turn, so the game is drawn before the resign, which is refused."""
    state = _state([], update=3, quiet=23)
    assert "the game is over" in check_turn(TERRITORY, state, "Bob", "resign").error.reason
    after, report = resolve_turn(TERRITORY, state, {"Bob": "resign", "Ann": "resign"}, seed=3)
    assert after.territory.drawn and not after.territory.winners
    assert {p.status for p in after.players.values()} == {"active"}
    assert [(e.players, "the game is over" in e.data["reason"]) for e in report.of_type("refused")] == [
        (("Ann",), True), (("Bob",), True)]


def test_both_resigning_on_a_skipped_turn_the_next_turns_player_wins():
    """P64: after the skip, the player of the next turn that is not skipped is the active one (turn 4: Ann)."""
    state = _state([], update=3)
    after, report = resolve_turn(TERRITORY, state, {"Ann": "resign", "Bob": "resign"}, seed=3)
    assert after.territory.winners == ("Ann",) and after.players["Bob"].status == "resigned"
    state = _state([], update=6)             # turn 6 is Yellow's, skipped; turn 7 is Ann's
    after, _ = resolve_turn(TERRITORY, state, {"Ann": "resign", "Bob": "resign"}, seed=3)
    assert after.territory.winners == ("Ann",)
    state = _state([], update=12)            # turn 12 is Orange's, skipped; turn 13 is Ann's (Red)
    after, _ = resolve_turn(TERRITORY, state, {"Ann": "resign", "Bob": "resign"}, seed=3)
    assert after.territory.winners == ("Ann",)


def test_a_pass_before_a_skipped_24th_quiet_turn_draws_at_once():
    """T43: Bob's pass is the 23rd quiet turn; turn 3 is skipped and the 24th, so the game is drawn
    now: no next turn. One quiet turn fewer and the game goes on to turn 4."""
    state = _state([], update=2, quiet=22, bag=["Ice"])
    after, report = resolve_turn(TERRITORY, state, {"Bob": "pass"}, seed=3)
    assert after.territory.drawn and after.territory.quiet == 24 and next_turn(TERRITORY, after) is None
    assert [e.type for e in report.entries] == ["order", "passed", "refilled", "skipped", "drawn"]
    assert after.territory.draft_area == ("Ice",)                  # the pass's own turn still refills (T26)
    state = _state([], update=2, quiet=21)
    after, report = resolve_turn(TERRITORY, state, {"Bob": "pass"}, seed=3)
    assert not after.territory.over and after.territory.quiet == 22 and next_turn(TERRITORY, after) == (4, "Ann")


def test_a_missed_turn_before_a_skipped_24th_quiet_turn_draws_at_once():
    """T43 and P73: a missed turn ends the turn too, and the skip that follows is counted then."""
    state = _state([], update=2, quiet=22)
    after, report = resolve_turn(TERRITORY, state, {}, seed=3)
    assert after.territory.drawn and "missed" in [e.type for e in report.entries]
    assert report.text().count("skipped") == 1


def test_once_over_every_submission_is_refused():
    state = _state([("Ann", "Bal", (0, -4))])
    state.territory = state.territory.with_changes(winners=("Bob",))
    assert "the game is over" in check_turn(TERRITORY, state, "Ann", "pass").error.reason
    after, report = resolve_turn(TERRITORY, state, {"Ann": "pass", "Bob": "resign"}, seed=3)
    assert [e.data["reason"] for e in report.of_type("refused")] == ["the game is over (T25)"] * 2
    assert next_turn(TERRITORY, after) is None


def test_control_is_read_from_the_position():
    state = _state([("Ann", "Rck", (-3, -2)), ("Ann", "Sun", (-2, -3)), ("Bob", "Infy", (-4, -1))])
    assert controls(TERRITORY, state) == {"Green": "Ann", "Purple": None, "Yellow": None, "Orange": None,
                                         "Goal": None}
