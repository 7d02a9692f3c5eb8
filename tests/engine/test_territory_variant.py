"""The territory variant answers the whole protocol (issue 23): seats, who acts, early resolution, the
check, the verdict, the standings, what the board image adds and the /rules summary."""

from __future__ import annotations

from bot.engine.model import Player
from bot.engine.resolution import resolve
from bot.engine.ruleset import load_preset
from bot.engine.state import GameState
from bot.engine.territory.state import TerritoryState
from bot.engine.variants import load_variant, playable_presets, variant_for
from bot.engine.variants.territory import TerritoryVariant

TERRITORY = load_preset("territory")
VARIANT = load_variant("territory")


def _state(pieces=(), update=1, **territory) -> GameState:
    state = GameState.build(TERRITORY, [dict(owner=o, kind=k, square=s) for o, k, s in pieces],
                            [Player("Ann", "Red"), Player("Bob", "Blue")], update=update)
    state.territory = TerritoryState().with_changes(**territory)
    return state


def test_territory_is_playable_by_its_own_variant():
    assert "territory" in playable_presets()
    assert isinstance(variant_for(TERRITORY), TerritoryVariant)


def test_two_seats_before_the_start_and_the_first_seated_plays_red():
    seating = VARIANT.seating
    assert seating.seats_before_start and not seating.joins_by_placement
    assert (seating.min_players, seating.max_players) == (2, 2)
    state = VARIANT.set_up([VARIANT.new_player("Zoe", "Teal"), VARIANT.new_player("Al", "Pink")], seed=4, length=90)
    assert state.players["Zoe"].colour == "Red" and state.players["Al"].colour == "Blue"
    assert VARIANT.who_may_order(state) == ["Zoe"] and state.length == 90


def test_features():
    features = VARIANT.features
    assert not features.fallbacks and not features.generation and not features.events and features.resign
    assert features.early_resolution and features.royal is None and features.pawn is None
    assert features.winners                                   # the goal makes a winner (T9)
    assert features.turn_based and features.takes_direct_messages and not features.secret_orders   # 5.4.8


def test_only_the_active_player_acts_and_either_player_may_resign():
    state = _state([("Ann", "Sun", (-3, -3)), ("Ann", "Rck", (-3, -2))], update=3)      # Green's turn: Ann's
    assert VARIANT.who_may_order(state) == ["Ann"]                  # reminders wait for Ann alone
    assert VARIANT.may_order(state, "Ann") is None and VARIANT.may_order(state, "Bob") is None
    refused = VARIANT.check(state, "Bob", "pass")
    assert not refused.ok and refused.error.reason.startswith(
        "not your turn: turn 3 is Green's, played by Ann")                        # P70: first of all
    assert "only `resign` is accepted from you (T25)" in refused.error.reason
    assert VARIANT.check(state, "Bob", "resign").ok                                     # T25: at any time
    assert not VARIANT.may_resolve_early(state, set())
    # the first accepted submission ends the turn: Ann's, or Bob's `resign`, the only one he may send
    assert VARIANT.may_resolve_early(state, {"Ann"}) and VARIANT.may_resolve_early(state, {"Bob"})


def test_a_skipped_turn_has_nobody_to_wait_for():
    state = _state(update=3)                                                          # Green: nobody
    assert VARIANT.who_may_order(state) == []
    refused = VARIANT.check(state, "Ann", "pass")
    assert not refused.ok and "skipped" in refused.error.reason
    assert VARIANT.may_resolve_early(state, set())
    after, report = resolve(TERRITORY, state, {}, seed=1)
    assert after.update == 4 and "skipped" in report.text()
    assert VARIANT.next_turn(after) == (4, "Ann")


def test_the_verdict_follows_the_territory_state():
    assert not VARIANT.verdict(_state()).over
    won = VARIANT.verdict(_state(winners=("Bob",), ended="Bob controls the goal (T9)"))
    assert won.winners == ("Bob",) and won.reason == "Bob controls the goal (T9)"
    assert VARIANT.verdict(_state(drawn=True)).drawn
    assert VARIANT.may_order(_state(drawn=True), "Ann") == "the game is over (T25)"


def test_standings_rank_by_territories_then_pieces():
    state = _state([("Bob", "Sun", (3, 2)), ("Ann", "Rck", (0, -4)), ("Ann", "Bal", (1, -4)), ("Ann", "Mir", (2, -4))],
                   reserves={"Ann": ["Wood"], "Bob": ["Ice", "Sun"]}, draft_area=["Bal"], bag=["Chs", "Fire"])
    panel = VARIANT.standings_panel(state)
    assert [s.name for s in VARIANT.standings(state)] == ["Bob", "Ann"]            # Bob controls Yellow
    assert panel.lines[0] == "1. Bob (Blue): 1 on the board, controls Yellow --- Reserve 2/7: Ice, Sun"
    assert panel.lines[1] == "2. Ann (Red): 3 on the board, controls no territory --- Reserve 1/7: Wood"
    assert panel.rows[1].note == "to play" and panel.legend == (("Draft area", "Bal; 2 in the bag"),)


def test_the_board_adds_areas_the_cycle_reserves_and_the_draft_area():
    state = _state([("Bob", "Sun", (3, 2))], update=6, reserves={"Ann": ["Wood"]}, draft_area=["Bal", "Chs"])
    additions = VARIANT.board_additions(state)
    areas = {area.name: area for area in additions.areas}
    assert areas["Goal"].squares == ((0, 0),) and len(areas["Neutral zone"].squares) == 8
    assert areas["Yellow"].controller == "Bob" and areas["Green"].controller is None
    assert areas["Red home"].owner == "Ann" and len(areas["Blue home"].squares) == 22
    current = [slot for slot in additions.cycle if slot.current]
    assert [(s.name, s.player) for s in current] == [("Yellow", "Bob")]            # turn 6 is Yellow's
    cycle = TERRITORY.family_rules.cycle
    # In turn order from the current turn (issue 39: a row read T43 T44 T33 ...): turn 6 first.
    assert [s.turn for s in additions.cycle] == list(range(6, 6 + len(cycle)))
    assert [s.name for s in additions.cycle] == list(cycle[5:] + cycle[:5])
    assert additions.cycle[0].current and not any(s.current for s in additions.cycle[1:])
    assert [(h.owner, h.kinds, h.limit) for h in additions.holdings] == [
        ("Ann", ("Wood",), 7), ("Bob", (), 7), (None, ("Bal", "Chs"), None)]


def test_the_rules_summary_fits_one_message_and_comes_from_the_file():
    text = VARIANT.rules_summary()
    assert text.startswith("**Territory** (`territory`)") and len(text) <= 2000
    assert "Red Blue Green Red Blue Yellow" in text and "at most 7" in text and "(0,0)" in text


def test_a_capture_counts_in_the_standings_captured_column():
    state = _state([("Ann", "Bal", (0, -4)), ("Bob", "Sun", (0, -2))],
                   draft_area=["Bal", "Chs", "Ice", "Lts", "Moon", "Wtr"], bag=["Fire"] * 6)
    after, report = resolve(TERRITORY, state, {"Ann": "Bal(0,-4)-(0,-2)"}, seed=1)
    assert "captured" in report.text()
    assert {s.name: s.captured for s in VARIANT.standings(after)} == {"Ann": 1, "Bob": 0}


def test_once_won_the_panel_says_who_won_and_no_turn_is_to_play():
    state = _state([("Bob", "Sun", (0, 0))], update=59, winners=("Bob",), ended="Bob controls the goal (T9)")
    state.players["Bob"].captured = 2
    panel = VARIANT.standings_panel(state)
    assert panel.result == "Bob wins: controls the goal (T9)" and panel.winners == ("Bob",)
    assert [(row.standing.name, row.note, row.standing.captured) for row in panel.rows] == [
        ("Bob", "wins", 2), ("Ann", "", 0)]
    # the picture's title is not the game's name again (its subtitle is), the note column is the turn's
    assert panel.title == "Standings" and panel.note_heading == "Turn" and not panel.draws_events
    resigned = VARIANT.standings_panel(_state(update=30, winners=("Ann",), ended="Bob resigned"))
    assert resigned.result == "Ann wins: Bob resigned"
    drawn = VARIANT.standings_panel(_state(update=40, drawn=True, ended="24 quiet turns in a row (T10)"))
    assert drawn.result == "Drawn: 24 quiet turns in a row (T10)" and drawn.winners == ()
    assert all(row.note == "" for row in drawn.rows)
