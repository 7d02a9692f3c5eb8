"""The megachess variant (issue 22; RULES.md 5.3, D54 to D67, D71, D72): what the rest of the program
asks it. The rules of an update are in the scenarios (tests/scenarios/megachess/)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from bot.engine.megachess import EmptySquares
from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.state import GameState
from bot.engine.variants import load_variant, playable_presets
from bot.engine.variants.megachess import MegachessVariant

MEGACHESS = load_preset("megachess")
ALABASTER, METAL = "alabaster", "brushed metal"


def _player(name: str, team: str | None = None, points: int = 0, **kwargs) -> Player:
    return Player(name=name, colour=name, balance=Fraction(points), team=team, **kwargs)


def _state(pieces: list[tuple[str | None, str, tuple[int, int]]], players: list[Player], update: int = 1,
           fields: dict | None = None) -> GameState:
    """A position; ``fields``: square -> more fields of the piece there (fade, step_used, ...)."""
    fields = fields or {}
    specs = [dict(owner=owner, kind=kind, square=square, **fields.get(square, {})) for owner, kind, square in pieces]
    return GameState.build(MEGACHESS, specs, players, update=update)


@pytest.fixture
def variant() -> MegachessVariant:
    return load_variant("megachess")


# Two alabaster players (Ann, Bob), one of brushed metal (Cid), one who has not joined (Dee).
PLAYERS = [_player("Ann", ALABASTER, 12), _player("Bob", ALABASTER, 3), _player("Cid", METAL, 40), _player("Dee")]
PIECES = [("Ann", "K", (0, 0)), ("Ann", "R", (0, 2)), ("Ann", "B", (3, 3)), ("Bob", "K", (4, 0)),
          ("Bob", "N", (2, 1)), ("Cid", "K", (0, 12)), ("Cid", "Q", (6, 6))]


def _players():
    return [_player(p.name, p.team, int(p.balance)) for p in PLAYERS]


# ----------------------------------------------------------------------------- the registry and set-up
def test_megachess_is_playable_with_its_own_pipeline_in_the_order_of_d71(variant):
    assert "megachess" in playable_presets() and isinstance(variant, MegachessVariant)
    assert [step.name for step in variant.pipeline] == ["validate", "moves", "hand-overs", "resignations", "joins",
                                                        "kingdoms", "scores", "bonus spawn"]


def test_players_come_and_go_on_an_empty_board_that_never_ends(variant):
    assert variant.seating.joins_by_placement and not variant.seating.seats_before_start
    ann = variant.new_player("Ann", "White")
    assert ann.balance == 0 and ann.team is None
    state = variant.set_up([ann], seed=1)
    assert not list(state.board) and state.board.bounds is None and state.update == 1
    assert not variant.verdict(state).over


def test_features_say_what_a_megachess_game_offers(variant):
    features = variant.features
    assert (features.currency, features.several_lines, features.fallbacks, features.generation) == \
        ("points", True, False, False)
    assert features.secret_orders and features.resign and not features.implosions and not features.events
    assert features.pawn is None and features.royal == "K"


# ----------------------------------------------------------------------------- who may order (D65)
def test_on_an_odd_update_alabaster_moves_and_a_player_with_no_pieces_may_join(variant):
    state = _state(PIECES, _players(), update=7)
    assert variant.who_may_order(state) == ["Ann", "Bob", "Dee"]
    assert variant.moving_team(state) == ALABASTER
    even = _state(PIECES, _players(), update=8)
    assert variant.who_may_order(even) == ["Cid", "Dee"]
    assert variant.next_update_for(even, "Ann") == 9 and variant.next_update_for(even, "Cid") == 8


def test_everyone_in_the_game_may_send_an_order_on_any_update_but_a_stranger(variant):
    """D65: joins and `resign` are accepted on any update, so no player is turned away before the
    check of what they sent."""
    state = _state(PIECES, _players(), update=7)
    assert variant.may_order(state, "Cid") is None and variant.may_order(state, "Dee") is None
    assert "join it first" in variant.may_order(state, "Zed")


def test_a_move_on_the_other_team_s_update_is_refused_naming_whose_update_it_is(variant):
    state = _state(PIECES, _players(), update=7)
    check = variant.check(state, "Cid", "Q(6,6)-(6,7)")
    assert not check.ok and check.error.rule == "D65"
    assert "update 7 is alabaster's update" in check.error.reason
    assert "your moves are for update 8" in check.error.reason
    assert variant.check(state, "Cid", "resign").ok                               # D65: any update
    assert variant.check(_state(PIECES, _players(), update=8), "Cid", "Q(6,6)-(6,7)").ok


def test_a_player_on_a_team_the_ruleset_does_not_have_is_refused_not_an_error(variant):
    """A stored or hand-made player whose team is not one of the ruleset's is on no team: the check
    answers with the rule, it never raises (issue 19's promise for every grammar)."""
    players = _players()
    players[2] = _player("Cid", "chrome", 40)
    check = variant.check(_state(PIECES, players, update=7), "Cid", "Q(6,6)-(6,7)")
    assert not check.ok and "you are on no team" in check.error.reason


def test_a_submission_moves_each_piece_at_most_once(variant):
    state = _state(PIECES, _players(), update=1)
    check = variant.check(state, "Ann", "R(0,2)-(0,4); B(3,3)-(5,5)")
    assert check.ok and check.canonical == "R(0,2)-(0,4); B(3,3)-(5,5)"
    twice = variant.check(state, "Ann", "R(0,2)-(0,4); R(0,2)-(0,5)")
    assert not twice.ok and "at most once" in twice.error.reason and twice.error.rule == "D7"
    alone = variant.check(state, "Ann", "R(0,2)-(0,4); resign")
    assert not alone.ok and "whole submission (D38)" in alone.error.reason


@pytest.mark.parametrize("order, words", [
    ("N(2,1)-(0,2)", "teammate"),                        # Ann's rook stands there (D72)
    ("N(2,1)-(4,0)", "your own piece"),
    ("N(2,1)-(5,5)", "cannot move"),
], ids=["teammate", "own", "knight-cannot-move"])
def test_the_words_of_a_refused_move(variant, order, words):
    state = _state(PIECES, _players(), update=1)
    check = variant.check(state, "Bob", order)
    assert not check.ok and words in check.error.reason


def test_a_rook_cannot_move_beyond_six_squares_and_a_spent_bishop_step_cannot_move(variant):
    state = _state(PIECES + [("Ann", "B", (9, 9))], _players(), update=1, fields={(9, 9): {"step_used": True}})
    far = variant.check(state, "Ann", "R(0,2)-(0,9)")
    assert not far.ok and "cannot move" in far.error.reason
    spent = variant.check(state, "Ann", "B(9,9)-(9,10)")
    assert not spent.ok and "cannot move" in spent.error.reason and "already used" in spent.error.reason
    assert variant.check(state, "Ann", "B(3,3)-(3,4)").ok                         # its step is still there


def test_pawns_never_promote(variant):
    state = _state(PIECES + [("Ann", "P", (1, 1))], _players(), update=1)
    check = variant.check(state, "Ann", "P(1,1)-(1,2)=Q")
    assert not check.ok and "never promote" in check.error.reason


def test_a_join_too_close_to_an_enemy_names_the_distance_and_the_team(variant):
    """D62, D72: Dee would join brushed metal (one player against two), so alabaster's pieces are
    the enemies; (0,-7) is at distance 7 from Ann's king."""
    state = _state(PIECES, _players(), update=7)
    check = variant.check(state, "Dee", "K(0,-7)")
    assert not check.ok and check.error.rule == "D62"
    assert "distance 7" in check.error.reason and "would join brushed metal" in check.error.reason
    assert variant.check(state, "Dee", "K(0,-8)").canonical == "+K(0,-8)"
    assert variant.check(state, "Dee", "+K(5,12)").ok         # 5 from Cid's king: a teammate-to-be


def test_the_variant_says_how_far_from_enemies_a_king_joins(variant):
    """D62 as the variant answers it (the demo's joiners keep that far from every piece): the
    check refuses one square nearer and accepts that distance."""
    state = _state(PIECES, _players(), update=7)
    assert variant.join_distance == 8
    assert not variant.check(state, "Dee", f"K(0,{1 - variant.join_distance})").ok
    assert variant.check(state, "Dee", f"K(0,{-variant.join_distance})").ok


def test_only_a_player_with_no_pieces_joins_and_a_join_is_alone(variant):
    state = _state(PIECES + [("Cid", "R", (40, 40))], _players(), update=8)
    assert not variant.check(state, "Dee", "K(30,30); K(31,31)").ok
    not_joined = variant.check(state, "Dee", "resign")
    assert not not_joined.ok and "you have not joined yet" in not_joined.error.reason   # D35
    kingless = _state([("Cid", "R", (40, 40))], _players(), update=8)
    check = variant.check(kingless, "Cid", "K(30,30)")
    assert not check.ok and "only a player with no pieces joins" in check.error.reason


def test_an_eliminated_or_resigned_player_may_join_again(variant):
    """D64: a player may join again under the same name after elimination or resignation."""
    players = _players()
    players[3].status = "eliminated"
    state = _state(PIECES, players, update=3)
    assert variant.check(state, "Dee", "K(30,30)").ok
    players[3].status = "resigned"
    assert variant.check(_state(PIECES, players, update=3), "Dee", "K(30,30)").ok


# ----------------------------------------------------------------------------- moves (D67)
def test_moves_lists_every_piece_whatever_the_team_and_enters_bonus_pieces_by_plain_movement(variant):
    """D58: a pawn steps onto a bonus piece straight ahead, as onto an empty square; D67: brushed
    metal's pieces are listed on alabaster's update."""
    state = _state([("Ann", "P", (0, 0)), (None, "Q", (0, 1)), ("Cid", "K", (5, 5))], _players(), update=1)
    pawn = state.board.at((0, 0))[0]
    assert (0, 1) in variant.destinations(state, pawn) and (0, 2) not in variant.destinations(state, pawn)
    king = state.board.at((5, 5))[0]
    assert variant.destinations(state, king) == [(4, 4), (4, 5), (4, 6), (5, 4), (5, 6), (6, 4), (6, 5), (6, 6)]
    assert variant.destinations(state, state.board.at((0, 1))[0]) == []          # a bonus piece never moves


# ----------------------------------------------------------------------------- standings and the board
def test_the_panel_ranks_by_points_and_totals_each_team(variant):
    state = _state(PIECES, _players(), update=7)
    panel = variant.standings_panel(state)
    assert [row.standing.name for row in panel.rows] == ["Cid", "Ann", "Bob"]       # Dee has not joined
    assert panel.rows[0].line == "1. Cid (Cid, brushed metal): 40 points"
    assert [(t.name, t.players, t.points) for t in panel.teams] == [(ALABASTER, 2, 15), (METAL, 1, 40)]
    assert [row.standing.name for row in panel.top(2)] == ["Cid", "Ann"]
    assert panel.row_of("Bob").standing.rank == 3 and panel.row_of("Dee") is None


def test_once_the_session_s_length_is_played_no_team_moves_next(variant):
    """Issue 39: the picture said "the game is over" (the session's 20 updates were played) while
    the panel's legend said "update 21: alabaster moves"; the panel now says what ended."""
    going = _state(PIECES, _players(), update=20)
    going.length = 20
    assert variant.standings_panel(going).legend == (("⇄", f"update 20: {METAL} moves"),)
    assert variant.standings_panel(going).result == ""
    played = _state(PIECES, _players(), update=21)
    played.length = 20
    panel = variant.standings_panel(played)
    assert panel.legend == () and panel.result == "The session's 20 updates are played"
    endless = _state(PIECES, _players(), update=21)                       # no length: no end (RULES 5.3)
    assert variant.standings_panel(endless).legend == (("⇄", f"update 21: {ALABASTER} moves"),)


def test_the_board_draws_each_king_s_kingdom_and_the_fading_pieces_with_the_updates_they_have_left(variant):
    """D60: Ann's rook on (20,0) is 20 from her king: outside. With fade 5 and time to live 7 it
    survives 7 - 5 + 1 = 3 more alabaster updates standing still: 9, 11 and 13 from update 8."""
    state = _state([("Ann", "K", (0, 0)), ("Ann", "R", (20, 0)), ("Ann", "N", (16, 0)), ("Cid", "K", (50, 50))],
                   _players(), update=8, fields={(20, 0): {"fade": 5}})
    additions = variant.board_additions(state)
    assert [(k.owner, k.team, k.centre, k.radius) for k in additions.kingdoms] == \
        [("Ann", ALABASTER, (0, 0), 16), ("Cid", METAL, (50, 50), 16)]
    assert [(f.square, f.fade, f.left, f.removed_at) for f in additions.fading] == [((20, 0), 5, 3, 13)]


def test_the_rules_summary_is_one_message_and_tells_the_numbers(variant):
    text = variant.rules_summary()
    assert text.startswith("**Megachess MMO** (`megachess`)") and len(text) <= 2000
    for words in ("alabaster moves on odd updates", "distance at least 8", "farther than 16", "every 5 updates",
                  "pawn 3, knight 5, bishop 5, rook 7, queen 10", "+ 100 + 10 per king", "up to 6 squares"):
        assert words in text


# ----------------------------------------------------------------------------- the bonus draw (D59)
@pytest.mark.parametrize("seed", range(12))
def test_the_empty_squares_of_a_rectangle_draw_as_the_plain_list_would(seed):
    """INTERFACES.md: a choice is one rng.choice(list) from the list in canonical order; the lazy
    sequence gives the same square as the list itself, for the same generator."""
    rng = random.Random(seed)
    low, high = (rng.randint(-5, 0), rng.randint(-5, 0)), (rng.randint(1, 6), rng.randint(1, 6))
    occupied = {(rng.randint(low[0], high[0]), rng.randint(low[1], high[1])) for _ in range(rng.randint(0, 20))}
    plain = [(x, y) for x in range(low[0], high[0] + 1) for y in range(low[1], high[1] + 1) if (x, y) not in occupied]
    lazy = EmptySquares(low, high, occupied)
    assert len(lazy) == len(plain) and list(lazy) == plain
    assert random.Random(f"{seed}:5").choice(lazy) == random.Random(f"{seed}:5").choice(plain)


# ----------------------------------------------------------------------------- D2 and the scenario printer
SCENARIOS = __import__("pathlib").Path(__file__).resolve().parents[1] / "scenarios" / "megachess"


def _outcome(state: GameState, orders: dict, seed: int) -> tuple:
    after, _ = load_variant("megachess").resolve(state, orders, seed)
    pieces = sorted((p.canonical_key, p.moved, p.fade, p.step_used) for p in after.board)
    players = sorted((n, p.balance, p.captured, p.status, p.team) for n, p in after.players.items())
    return pieces, players


@pytest.mark.parametrize("name", ["king-capture-hands-over-what-is-left-after-all-captures", "bounce-three-pieces",
                                  "join-refused-at-the-update-when-the-team-changed",
                                  "starter-army-squares-claimed-twice-go-to-nobody", "bonus-spawns-after-update-five"])
def test_the_order_of_players_pieces_and_lines_never_matters(name):
    """D2: the same position and orders give the same result whatever order they are stored in."""
    from bot.engine.scenario import load_scenario

    scenario = load_scenario(SCENARIOS / f"{name}.toml")
    expected = _outcome(scenario.state, scenario.orders, scenario.seed)
    for shuffle in range(4):
        rng = random.Random(shuffle)
        pieces = [dict(owner=p.owner, kind=p.kind, square=p.square, moved=p.moved, fade=p.fade,
                       step_used=p.step_used) for p in scenario.state.board]
        players = list(scenario.state.players.values())
        rng.shuffle(pieces)
        rng.shuffle(players)
        orders = {name: list(reversed(lines)) for name, lines in reversed(list(scenario.orders.items()))}
        state = GameState.build(MEGACHESS, pieces, [Player(**{f: getattr(p, f) for f in p.__slots__}) for p in players],
                                update=scenario.state.update)
        assert _outcome(state, orders, scenario.seed) == expected


def test_the_printed_position_reads_back_with_every_megachess_field(tmp_path):
    """SCENARIOS.md: `scenario --print` writes team, fade, the bishop's step, bonus pieces and points."""
    from bot.engine.runner import run_scenario, state_to_toml
    from bot.engine.scenario import load_scenario

    outcome = run_scenario(load_scenario(SCENARIOS / "king-capture-hands-over-the-army.toml"))
    text = state_to_toml(outcome.scenario, outcome.state)
    for words in ('team = "alabaster"', 'status = "eliminated"', "balance = 111", "step_used = true", "fade = 3"):
        assert words in text
    printed = tmp_path / "printed.toml"
    printed.write_text(text + '\n[[pieces]]\nkind = "Q"\nat = [9, 9]\n')      # and a bonus piece
    again = load_scenario(printed)
    assert sorted((p.canonical_key, p.moved, p.fade, p.step_used) for p in again.state.board) == \
        sorted([(p.canonical_key, p.moved, p.fade, p.step_used) for p in outcome.state.board]
               + [(("", 9, 9, "Q"), False, 0, False)])
    assert again.state.players["Ann"].team == ALABASTER and again.state.players["Ann"].balance == 111
    assert 'kind = "Q"\nat = [9, 9]' in state_to_toml(again, again.state)      # printed with no owner
