"""Order validation against the position players saw, P0 (RULES.md 3.1, 3.3, 4, 5.1, 8, 9).

Every refusal test asserts the words of the reason that name the rule (and the square where one is
concerned), and that the error's span points at the offending part of the submitted text: the
action, the fallback, or the second line. Every acceptance asserts the canonical order the bot
echoes and what the resolution will consume (kind, special, capture, cost).

Choices where RULES.md is silent, as a careful reader would take them:

* A disabled time thief may move but not steal: a theft is a capture attempt (D27) and a disabled
  piece may not capture (3.1). Its order onto the thief square is refused rather than silently
  turned into a plain move (D4: a move is taken as written, never as intended).
* A harpy's drop ``+X(x,y)`` is not a generation, so generation rank limits do not apply to it
  ("on any empty square", RULES 8).
* A frozen piece attacks nothing (RULES 8), so it neither stops a joining king nor counts towards
  a dwarf's two attackers.
* The short form counts only pieces that can really make the move (D22): for a plain move onto an
  empty square a disabled piece counts (it may move), for a capture it does not.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.engine.model import Player
from bot.engine.notation import AmbiguousOrderError, IllegalOrderError, OrderSyntaxError
from bot.engine.ruleset import load_preset
from bot.engine.scenario import load_scenario
from bot.engine.state import GameState, LastMove
from bot.engine.validation import CheckedAction, OrderCheck, check_order

NEISG = load_preset("neisg")
SANDBOX = load_preset("sandbox")

# Kings far away, so that the players have joined and kings do not interfere.
KINGS = [("Red", "K", -500, -500), ("Blue", "K", 500, 500)]


def build(ruleset, pieces, players=("Red", "Blue"), balance=10, kings=True, **kwargs) -> GameState:
    """A state from (owner, kind, x, y[, flags]) tuples; players by name (or Player values)."""
    specs = []
    for row in ([*KINGS, *pieces] if kings else pieces):
        owner, kind, x, y, *rest = row
        specs.append(dict(owner=owner, kind=kind, square=(x, y), **(rest[0] if rest else {})))
    records = [p if isinstance(p, Player) else Player(p, p, Fraction(balance)) for p in players]
    return GameState.build(ruleset, specs, records, **kwargs)


def accepted(ruleset, state, player, text, canonical) -> OrderCheck:
    check = check_order(ruleset, state, player, text)
    assert check.ok, check.error and check.error.reason
    assert check.canonical == canonical
    return check


def first(check: OrderCheck) -> CheckedAction:
    return check.lines[0].action


def refused(ruleset, state, player, text, *words, at=None, cls=IllegalOrderError):
    """The order is refused with ``cls``; the reason holds every one of ``words``; the span covers
    ``at`` (default: the whole text)."""
    check = check_order(ruleset, state, player, text)
    assert not check.ok, f"{text!r} was accepted as {check.canonical!r}"
    error = check.error
    assert type(error) is cls, f"{type(error).__name__}: {error.reason}"
    for word in words:
        assert word in error.reason, f"{word!r} not in {error.reason!r}"
    expected = at if at is not None else text
    assert error.offending == expected, (error.span, error.offending)
    assert error.rule
    return error


# ============================================================================ ownership
@pytest.fixture
def duel() -> GameState:
    return build(NEISG, [("Red", "N", 4, 13), ("Blue", "R", 10, 13), ("Blue", "R", 10, 0), ("Blue", "N", 0, 0)])


def test_an_enemy_piece_cannot_be_moved(duel) -> None:
    refused(NEISG, duel, "Blue", "N(4,13)-(6,14)", "the knight on (4,13) belongs to Red",
            "you can only move your own pieces")


def test_no_piece_on_the_origin(duel) -> None:
    refused(NEISG, duel, "Blue", "N(7,7)-(8,9)", "there is no piece of yours on (7,7)")


def test_wrong_kind_on_the_origin_square(duel) -> None:
    error = refused(NEISG, duel, "Blue", "B(0,0)-(1,1)", "your piece on (0,0) is a knight, not a bishop")
    assert error.hint.startswith("write N(0,0)-")


def test_short_form_without_a_piece_of_that_kind(duel) -> None:
    error = refused(NEISG, duel, "Blue", "Q(1,1)", "you have no queen on the board")
    assert "+Q(x,y)" in error.hint


def test_own_piece_on_the_target(duel) -> None:
    refused(NEISG, duel, "Blue", "R(10,13)-(10,0)", "your own piece stands on that square")


def test_the_order_is_echoed_in_canonical_form(duel) -> None:
    check = accepted(NEISG, duel, "Blue", "  n ( 1 , 2 ) ", "N(0,0)-(1,2)")
    action = first(check)
    assert (action.kind, action.special, action.capture, action.cost) == ("move", "", False, 0)
    assert action.piece_id == next(p.id for p in duel.board.at((0, 0)))


# ============================================================================ reach and blocking
BLOCKED_PATH = """
ruleset = "neisg"
description = "RULES 3.1: the knight on (4,13) blocks the rook"

[[players]]
name = "Red"
colour = "Red"
balance = 10

[[players]]
name = "Blue"
colour = "Blue"
balance = 10

[[pieces]]
owner = "Red"
kind = "K"
at = [-20, -20]

[[pieces]]
owner = "Blue"
kind = "K"
at = [30, 30]

[[pieces]]
owner = "Red"
kind = "N"
at = [4, 13]

[[pieces]]
owner = "Blue"
kind = "R"
at = [10, 13]
"""


@pytest.fixture
def blocked(tmp_path):
    path = tmp_path / "blocked.toml"
    path.write_text(BLOCKED_PATH, encoding="utf-8")
    return load_scenario(path)


def test_rules_example_the_knight_blocks_the_rook(blocked) -> None:
    """RULES 2: "the knight on (4,13) blocks the rook's path" (long and short form)."""
    for text in ("R(10,13)-(3,13)", "R(3,13)"):
        error = refused(blocked.ruleset, blocked.state, "Blue", text, "the knight on (4,13) blocks the rook's path")
        assert "(4,13)" in error.reason


def test_the_blocker_itself_can_be_captured(blocked) -> None:
    check = accepted(blocked.ruleset, blocked.state, "Blue", "R(4,13)", "R(10,13)-(4,13)")
    action = first(check)
    assert action.capture and action.kind == "move"
    assert action.victims == tuple(p.id for p in blocked.state.board.at((4, 13)))
    accepted(blocked.ruleset, blocked.state, "Blue", "R(5,13)", "R(10,13)-(5,13)")


def test_geometry_refusal_names_the_squares_and_the_movement(duel) -> None:
    refused(NEISG, duel, "Blue", "N(0,0)-(2,2)", "a knight cannot move from (0,0) to (2,2) (N)")
    state = build(NEISG, [("Red", "An", 0, 0), ("Red", "U", 9, 9)])
    refused(NEISG, state, "Red", "An(5,5)", "an angel cannot move from (0,0) to (5,5) (K)")
    refused(NEISG, state, "Red", "U(9,9)-(9,10)", "a unicorn cannot move from (9,9) to (9,10) (NC)")


def test_pawn_moves_and_captures_differ() -> None:
    state = build(NEISG, [("Red", "P", 0, 0), ("Blue", "N", 0, 1), ("Red", "P", 5, 0, {"moved": True}),
                          ("Red", "P", 8, 0), ("Blue", "G", 8, 1), ("Red", "P", 12, 0)])
    refused(NEISG, state, "Red", "P(0,0)-(0,1)", "the pawn cannot capture that way")
    refused(NEISG, state, "Red", "P(0,0)-(1,1)", "can only capture that way, and the square is empty")
    refused(NEISG, state, "Red", "P(5,0)-(5,2)", "a pawn cannot move from (5,0) to (5,2)")  # moved: no double step
    refused(NEISG, state, "Red", "P(8,0)-(8,2)", "the guard on (8,1) blocks the pawn's path")
    refused(NEISG, state, "Red", "P(12,0)-(12,-1)", "a pawn cannot move from (12,0) to (12,-1)")
    accepted(NEISG, state, "Red", "P(12,2)", "P(12,0)-(12,2)")


def test_hunter_moves_as_a_king_and_captures_as_a_knight() -> None:
    state = build(NEISG, [("Red", "Ht", 0, 0), ("Blue", "N", 2, 1), ("Blue", "N", 1, 1)])
    refused(NEISG, state, "Red", "Ht(0,0)-(1,2)", "the hunter can only capture that way")
    refused(NEISG, state, "Red", "Ht(0,0)-(1,1)", "the hunter cannot capture that way")
    assert first(accepted(NEISG, state, "Red", "Ht(2,1)", "Ht(0,0)-(2,1)")).capture


def test_a_disabled_piece_may_move_but_not_capture() -> None:
    state = build(NEISG, [("Red", "B", 0, 0, {"disabled": True}), ("Blue", "N", 3, 3)])
    assert not first(accepted(NEISG, state, "Red", "B(2,2)", "B(0,0)-(2,2)")).capture
    refused(NEISG, state, "Red", "B(3,3)", "disabled: it may move but not capture", "RULES 3.1")


def test_obstacles_block_and_can_be_captured_voids_cannot_be_entered() -> None:
    state = build(NEISG, [("Red", "R", 0, 0), (None, "O", 0, 3), (None, "V", 3, 0)])
    assert first(accepted(NEISG, state, "Red", "R(0,3)", "R(0,0)-(0,3)")).capture
    refused(NEISG, state, "Red", "R(0,5)", "the obstacle on (0,3) blocks the rook's path")
    refused(NEISG, state, "Red", "R(3,0)", "a void cannot be entered")
    refused(NEISG, state, "Red", "R(5,0)", "the void on (3,0) blocks the rook's path")


def test_an_energy_pawn_cannot_move() -> None:
    state = build(NEISG, [("Red", "P", 0, 7, {"energy": True})])
    refused(NEISG, state, "Red", "P(0,8)", "an energy pawn cannot move")


# ============================================================================ sandbox bounds
@pytest.fixture
def sandbox() -> GameState:
    return build(SANDBOX, [("Red", "K", 0, 5), ("Blue", "K", 50, 50), ("Red", "R", 99, 10), ("Red", "P", 3, 6),
                           ("Red", "P", 5, 8), ("Red", "P", 7, 9), ("Red", "P", 9, 5)], kings=False, balance=5)


BOUNDS = "(x from -99 to 99, y from 1 to 99)"


@pytest.mark.parametrize("text, square", [("R(100,10)", "(100,10)"), ("R(99,10)-(99,0)", "(99,0)"),
                                          ("+N(-100,5)", "(-100,5)"), ("+N(5,100)", "(5,100)"),
                                          ("K(0,5)-(0,0)", "(0,0)")])
def test_sandbox_refuses_squares_outside_its_bounds(sandbox, text: str, square: str) -> None:
    refused(SANDBOX, sandbox, "Red", text, f"{square} is outside the board {BOUNDS}")


def test_sandbox_king_placement_outside_the_bounds() -> None:
    state = build(SANDBOX, [("Blue", "K", 50, 50)], kings=False)
    refused(SANDBOX, state, "Red", "K(0,0)", f"(0,0) is outside the board {BOUNDS}")
    accepted(SANDBOX, state, "Red", "K(0,1)", "+K(0,1)")


def test_the_unbounded_board_takes_any_square_within_d1() -> None:
    state = build(NEISG, [("Red", "R", 0, 0)])
    accepted(NEISG, state, "Red", "R(0,1000000)", "R(0,0)-(0,1000000)")
    refused(NEISG, state, "Red", "R(0,1000001)", "beyond ±1,000,000", at="1000001")


# ============================================================================ generation
@pytest.mark.parametrize("ruleset, currency", [(NEISG, "health"), (SANDBOX, "energy")])
def test_generation_costs_are_exact_halves(ruleset, currency: str) -> None:
    kings = [("Red", "K", 0, 5), ("Blue", "K", 50, 50)]
    state = build(ruleset, kings, kings=False, balance=Fraction(11, 2))
    check = accepted(ruleset, state, "Red", "+S(10,10)", "+S(10,10)")
    assert (first(check).kind, first(check).cost) == ("generate", Fraction(11, 2))
    poorer = build(ruleset, kings, kings=False, balance=5)
    refused(ruleset, poorer, "Red", "+S(10,10)", f"a spirit costs 5.5 {currency}; you have 5 {currency}")


def test_generation_must_be_affordable() -> None:
    refused(NEISG, build(NEISG, [], balance=10), "Red", "+Q(5,5)", "a queen costs 13 health; you have 10 health")
    assert first(accepted(NEISG, build(NEISG, [], balance=13), "Red", "+Q(5,5)", "+Q(5,5)")).cost == 13
    refused(NEISG, build(NEISG, [], balance=19), "Red", "+An(5,5)", "an angel costs 20 health")


def test_neisg_rank_limits() -> None:
    state = build(NEISG, [])
    accepted(NEISG, state, "Red", "+P(5,-1)", "+P(5,-1)")
    refused(NEISG, state, "Red", "+P(5,0)", "pawns may only be generated below rank 0, not on rank 0")
    refused(NEISG, state, "Red", "+P(5,7)", "pawns may only be generated below rank 0, not on rank 7")
    accepted(NEISG, state, "Red", "+Pl(5,1)", "+Pl(5,1)")
    refused(NEISG, state, "Red", "+Pl(5,0)", "pillars may only be generated above rank 0, not on rank 0")
    refused(NEISG, state, "Red", "+Pl(5,-3)", "pillars may only be generated above rank 0")


def test_sandbox_pawns_only_on_rank_1(sandbox) -> None:
    accepted(SANDBOX, sandbox, "Red", "+P(10,1)", "+P(10,1)")
    refused(SANDBOX, sandbox, "Red", "+P(10,2)", "pawns may only be generated on rank 1, not on rank 2")


@pytest.mark.parametrize("square, what", [("(0,0)", "a knight"), ("(3,3)", "a guard")])
def test_generation_on_an_occupied_square(square: str, what: str) -> None:
    state = build(NEISG, [("Red", "N", 0, 0), ("Blue", "G", 3, 3)])
    refused(NEISG, state, "Red", f"+B{square}", f"{square} holds {what} in the position you saw",
            "pieces are generated only on empty squares")


def test_generation_cost_under_clearance() -> None:
    """RULES 6: Clearance halves generation costs, rounded up (5.5 -> 3)."""
    from bot.engine.state import ActiveEvent

    state = build(NEISG, [], balance=3, events=(ActiveEvent("Clearance", 1),))
    assert first(accepted(NEISG, state, "Red", "+S(1,1)", "+S(1,1)")).cost == 3


# ============================================================================ promotion
@pytest.fixture
def pawns() -> GameState:
    return build(NEISG, [("Red", "P", 3, 5), ("Red", "P", 5, 9), ("Red", "P", 8, 4), ("Red", "P", 11, 3),
                         ("Red", "N", 20, 20)])


def test_neisg_promotion_on_rank_6_or_above(pawns) -> None:
    assert first(accepted(NEISG, pawns, "Red", "P(3,6)=Q", "P(3,5)-(3,6)=Q")).cost == 0
    accepted(NEISG, pawns, "Red", "P(5,10)=Queen", "P(5,9)-(5,10)=Q")
    accepted(NEISG, pawns, "Red", "P(8,6)=R", "P(8,4)-(8,6)=R")   # a double step ending on rank 6
    refused(NEISG, pawns, "Red", "P(11,3)-(11,4)=Q", "pawns promote only on a move ending on rank 6 or above")
    accepted(NEISG, pawns, "Red", "P(3,6)", "P(3,5)-(3,6)")      # promotion is optional


@pytest.mark.parametrize("letter, price", [("An", 10), ("Hp", 8), ("Dr", Fraction(17, 2)), ("Q", 0), ("Tt", 0)])
def test_neisg_promotion_prices(pawns, letter: str, price) -> None:
    action = first(accepted(NEISG, pawns, "Red", f"P(3,5)-(3,6)={letter}", f"P(3,5)-(3,6)={letter}"))
    assert action.cost == price


def test_neisg_promotion_must_be_affordable() -> None:
    state = build(NEISG, [("Red", "P", 3, 5)], balance=Fraction(19, 2))
    refused(NEISG, state, "Red", "P(3,6)=An", "promoting to an angel costs 10 health; you have 9.5 health")
    state = build(NEISG, [("Red", "P", 3, 5)], balance=Fraction(17, 2))
    assert first(accepted(NEISG, state, "Red", "P(3,6)=Dr", "P(3,5)-(3,6)=Dr")).cost == Fraction(17, 2)


@pytest.mark.parametrize("letter, name", [("K", "a king"), ("P", "a pawn"), ("O", "an obstacle"), ("V", "a void")])
def test_promotion_kinds_not_allowed(letter: str, name: str) -> None:
    state = build(NEISG, [("Red", "P", 3, 5)])
    refused(NEISG, state, "Red", f"P(3,6)={letter}", f"a pawn reaching rank 6 cannot promote to {name}")


def test_only_pawns_promote(pawns) -> None:
    refused(NEISG, pawns, "Red", "N(21,22)=Q", "only a pawn can promote; this is a knight")


def test_energy_promotion_neisg_only(pawns, sandbox) -> None:
    accepted(NEISG, pawns, "Red", "P(3,6)=to energy", "P(3,5)-(3,6)=energy")
    refused(NEISG, pawns, "Red", "P(11,4)=energy", "pawns promote only on a move ending on rank 6 or above")
    refused(SANDBOX, sandbox, "Red", "P(3,6)-(3,7)=energy", "sandbox has no energy promotion")


def test_sandbox_promotion_ranks(sandbox) -> None:
    accepted(SANDBOX, sandbox, "Red", "P(3,7)=Queen", "P(3,6)-(3,7)=Q")
    refused(SANDBOX, sandbox, "Red", "P(3,6)-(3,7)=Dr", "a pawn reaching rank 7 cannot promote to a dragon",
            "at rank 9 it can")
    action = first(accepted(SANDBOX, sandbox, "Red", "P(5,8)-(5,9)=Dr", "P(5,8)-(5,9)=Dr"))
    assert action.cost == 3
    assert first(accepted(SANDBOX, sandbox, "Red", "P(5,9)=Q", "P(5,8)-(5,9)=Q")).cost == 0
    refused(SANDBOX, sandbox, "Red", "P(7,9)-(7,10)=Q", "pawns promote only on the move that reaches rank 7 or 9")
    refused(SANDBOX, sandbox, "Red", "P(9,5)-(9,6)=Q", "pawns promote only on the move that reaches rank 7 or 9")


def test_sandbox_dragon_price_must_be_affordable() -> None:
    state = build(SANDBOX, [("Red", "K", 0, 5), ("Blue", "K", 50, 50), ("Red", "P", 5, 8)], kings=False, balance=2)
    refused(SANDBOX, state, "Red", "P(5,8)-(5,9)=Dr", "promoting to a dragon costs 3 energy; you have 2 energy")


# ============================================================================ king placement
@pytest.fixture
def lobby() -> GameState:
    """Blue has a king and a rook; Red has a knight but no king; Green has joined nothing yet."""
    return build(NEISG, [("Blue", "K", 30, 30), ("Blue", "R", 10, 0), ("Red", "N", 0, 0)], kings=False,
                 players=("Red", "Blue", "Green"))


def test_king_placement_when_kingless(lobby) -> None:
    """D20: K(x,y) is a placement for a player without a king; it is free."""
    for text in ("K(5,5)", "+K(5,5)", "king(5,5)"):
        action = first(accepted(NEISG, lobby, "Red", text, "+K(5,5)"))
        assert (action.kind, action.cost, action.capture) == ("place", 0, False)


def test_k_is_a_move_when_the_king_is_on_the_board(lobby) -> None:
    action = first(accepted(NEISG, lobby, "Blue", "K(31,31)", "K(30,30)-(31,31)"))
    assert action.kind == "move"
    error = refused(NEISG, lobby, "Blue", "+K(1,1)", "you already have a king on the board", "(D20)")
    assert error.hint == "to move it, write K(30,30)-(1,1)"


def test_king_placement_on_an_attacked_square_names_the_attacker(lobby) -> None:
    refused(NEISG, lobby, "Red", "K(10,5)", "(10,5) is attacked by the rook on (10,0)",
            "a king is placed only on a square no enemy attacks")
    refused(NEISG, lobby, "Green", "+K(31,31)", "(31,31) is attacked by the king on (30,30)")


def test_king_placement_on_an_occupied_square(lobby) -> None:
    refused(NEISG, lobby, "Green", "K(10,0)", "(10,0) holds a rook in the position you saw",
            "a king is placed on an empty square")
    refused(NEISG, lobby, "Red", "K(0,0)", "(0,0) holds a knight in the position you saw")


def test_own_pieces_do_not_stop_a_placement(lobby) -> None:
    accepted(NEISG, lobby, "Red", "K(1,2)", "+K(1,2)")  # the own knight on (0,0) attacks (1,2)


def test_a_player_not_yet_joined_may_only_place_a_king(lobby) -> None:
    accepted(NEISG, lobby, "Green", "K(40,40)", "+K(40,40)")
    for text in ("N(1,2)", "+N(1,2)", "K(40,40)=Q", "K(1,1)-(1,2)"):
        error = refused(NEISG, lobby, "Green", text, "you have not joined yet: your first order places your king")
        assert "K(x,y)" in error.hint
    refused(NEISG, lobby, "Green", "resign", "you have not joined yet, so there is nothing to resign from")


def test_someone_not_in_the_game_is_told_to_join(lobby) -> None:
    refused(NEISG, lobby, "Mallory", "K(40,40)", "you are not a player of this game")


def test_a_kingless_player_waiting_for_the_respawn_has_joined() -> None:
    state = build(NEISG, [("Blue", "K", 30, 30)], kings=False,
                  players=("Blue", Player("Red", "Red", Fraction(10), king_lost_at=3)))
    accepted(NEISG, state, "Red", "K(1,1)", "+K(1,1)")
    accepted(NEISG, state, "Red", "+N(1,1)", "+N(1,1)")
    accepted(NEISG, state, "Red", "resign", "resign")


# ============================================================================ eliminated and resigned
@pytest.mark.parametrize("status, words", [("eliminated", "you were eliminated and may not re-join this session"),
                                           ("resigned", "you resigned and may not re-join this session")])
def test_eliminated_and_resigned_players_are_refused(status: str, words: str) -> None:
    state = build(NEISG, [("Blue", "K", 30, 30)], kings=False,
                  players=("Blue", Player("Red", "Red", Fraction(10), status=status)))
    for text in ("K(1,1)", "+N(1,-1)", "resign"):
        refused(NEISG, state, "Red", text, words)


# ============================================================================ the short form (D5, D22)
def test_several_pieces_can_make_the_move(duel) -> None:
    error = refused(NEISG, duel, "Blue", "R(10,5)", "2 of your rooks can go to (10,5): from (10,0), (10,13)",
                    "(D5)", cls=AmbiguousOrderError)
    assert error.candidates == ((10, 0), (10, 13))
    assert error.kind == "ambiguous"
    assert error.hint == "say which one: R(10,0)-(10,5)"
    accepted(NEISG, duel, "Blue", "R(10,0)-(10,5)", "R(10,0)-(10,5)")


def test_no_piece_can_make_the_move_says_why_for_each(duel) -> None:
    refused(NEISG, duel, "Blue", "R(3,13)", "none of your rooks can go to (3,13) (D5)",
            "from (10,0): a rook cannot move from (10,0) to (3,13)",
            "from (10,13): the knight on (4,13) blocks the rook's path")


def test_a_piece_disabled_for_captures_does_not_make_a_capture_ambiguous() -> None:
    """D22: only a piece that can really make the move counts."""
    state = build(NEISG, [("Red", "R", 0, 0), ("Red", "R", 0, 10, {"disabled": True}), ("Blue", "N", 0, 5)])
    action = first(accepted(NEISG, state, "Red", "R(0,5)", "R(0,0)-(0,5)"))
    assert action.capture
    quiet = build(NEISG, [("Red", "R", 0, 0), ("Red", "R", 0, 10, {"disabled": True})])
    refused(NEISG, quiet, "Red", "R(0,5)", "2 of your rooks can go to (0,5)", cls=AmbiguousOrderError)


def test_a_frozen_piece_does_not_make_a_move_ambiguous() -> None:
    state = build(NEISG, [("Red", "R", 0, 0), ("Red", "R", 0, 10), ("Blue", "Z", 0, 12)])
    accepted(NEISG, state, "Red", "R(0,5)", "R(0,0)-(0,5)")


# ============================================================================ fallbacks (D11, D21)
@pytest.fixture
def skirmish() -> GameState:
    return build(NEISG, [("Red", "R", 0, 0, {"check": "capturable"}), ("Red", "N", 3, 3), ("Red", "B", 10, 10),
                         ("Blue", "N", 10, 15), ("Blue", "G", 13, 13)])


def test_fallback_behind_a_capture_attempt(skirmish) -> None:
    check = accepted(NEISG, skirmish, "Red", "B(13,13) else B(10,10)-(12,8)", "B(10,10)-(13,13) else B(10,10)-(12,8)")
    line = check.lines[0]
    assert line.action.capture and not line.fallback.capture


def test_fallback_behind_a_move_of_a_capturable_piece(skirmish) -> None:
    check = accepted(NEISG, skirmish, "Red", "R(0,0)-(0,5) else R(0,0)-(5,0)", "R(0,0)-(0,5) else R(0,0)-(5,0)")
    assert not check.lines[0].action.capture


@pytest.mark.parametrize("text, action", [("N(3,3)-(4,5) else N(3,3)-(5,4)", "N(3,3)-(4,5)"),
                                          ("+G(-1,-1) else B(13,13)", "+G(-1,-1)"),
                                          ("resign else B(13,13)", "resign")])
def test_fallback_refused_elsewhere(skirmish, text: str, action: str) -> None:
    refused(NEISG, skirmish, "Red", text, "a fallback is allowed only behind a capture attempt or a move of a "
            "capturable piece (D11)", at=action)


def test_a_drop_by_a_capturable_harpy_takes_no_fallback() -> None:
    """D11: the drop moves the carried piece onto the board, not the capturable harpy, so it is
    not "a move of a capturable piece"; the harpy's own move is."""
    state = build(NEISG, [("Red", "Hp", 0, 0, {"carrying": "Q", "carrying_since": 1, "check": "capturable"}),
                          ("Red", "R", 5, 5)])
    refused(NEISG, state, "Red", "+Q(10,10) else R(5,5)-(5,6)", "a fallback is allowed only behind a capture "
            "attempt or a move of a capturable piece (D11)", at="+Q(10,10)")
    accepted(NEISG, state, "Red", "Hp(0,0)-(0,5) else R(5,5)-(5,6)", "Hp(0,0)-(0,5) else R(5,5)-(5,6)")


def test_an_invalid_fallback_makes_the_line_invalid(skirmish) -> None:
    """D21: the whole line is refused, pointing at the fallback."""
    error = refused(NEISG, skirmish, "Red", "B(13,13) else B(10,10)-(10,11)", "the fallback:",
                    "a bishop cannot move from (10,10) to (10,11)", at="B(10,10)-(10,11)")
    assert error.reason.startswith("the fallback: ")
    refused(NEISG, skirmish, "Red", "B(13,13) else Q(1,1)", "the fallback: you have no queen on the board",
            at="Q(1,1)")


def test_an_ambiguous_fallback_points_at_the_fallback() -> None:
    state = build(NEISG, [("Red", "R", 0, 0), ("Red", "R", 20, 0), ("Blue", "N", 0, 5)])
    error = refused(NEISG, state, "Red", "R(0,0)-(0,5) else R(10,0)",
                    "the fallback: 2 of your rooks can go to (10,0): from (0,0), (20,0)", at="R(10,0)",
                    cls=AmbiguousOrderError)
    assert error.candidates == ((0, 0), (20, 0))


def test_a_refused_first_action_points_at_it(skirmish) -> None:
    refused(NEISG, skirmish, "Red", "B(10,10)-(10,15) else B(10,10)-(12,8)", "a bishop cannot move from (10,10)",
            at="B(10,10)-(10,15)")


def test_sandbox_has_fallbacks_too() -> None:
    state = build(SANDBOX, [("Red", "K", 0, 5), ("Blue", "K", 50, 50), ("Red", "R", 10, 10), ("Blue", "N", 10, 15)],
                  kings=False)
    accepted(SANDBOX, state, "Red", "R(10,15) else R(10,11)", "R(10,10)-(10,15) else R(10,10)-(10,11)")


# ============================================================================ one line per update (D7)
@pytest.mark.parametrize("ruleset", [NEISG, SANDBOX], ids=["neisg", "sandbox"])
@pytest.mark.parametrize("text, second", [("K(0,6); K(0,4)", "K(0,4)"), ("K(0,6)\n  K(1,6)  ", "K(1,6)")])
def test_one_line_only(ruleset, text: str, second: str) -> None:
    state = build(ruleset, [("Red", "K", 0, 5), ("Blue", "K", 50, 50)], kings=False)
    refused(ruleset, state, "Red", text, f"{ruleset.name} takes one order per update; this submission has 2 lines",
            at=second)


def test_syntax_errors_come_back_as_refusals(duel) -> None:
    check = check_order(NEISG, duel, "Blue", "Nf3")
    assert not check.ok and isinstance(check.error, OrderSyntaxError)
    assert check.error.offending == "Nf3"


# ============================================================================ zombies
@pytest.fixture
def graveyard() -> GameState:
    return build(NEISG, [("Blue", "Z", 0, 0), ("Red", "R", 0, 1), ("Red", "R", 2, 0), ("Red", "N", 0, 2),
                         ("Red", "G", 1, 1), ("Red", "B", 0, -3), ("Red", "P", 0, -2),
                         ("Blue", "Z", 10, 10, {"disabled": True}), ("Red", "R", 10, 11),
                         ("Blue", "Z", 20, 20), ("Blue", "G", 20, 21), ("Red", "R", 20, 22),
                         ("Red", "Z", 30, 30), ("Red", "R", 30, 31)])


@pytest.mark.parametrize("text", ["R(0,1)-(0,5)", "R(2,0)-(2,5)", "P(0,-2)-(0,-1)"])
def test_a_piece_next_to_or_two_away_from_an_enemy_zombie_is_frozen(graveyard, text: str) -> None:
    refused(NEISG, graveyard, "Red", text, "is frozen by a zombie this update (RULES 8)")


@pytest.mark.parametrize("text", ["N(0,2)-(1,4)",      # two away, but (0,1) blocks the zombie's path
                                  "G(1,1)-(1,2)",      # diagonal: the zombie's mR2 is orthogonal
                                  "B(0,-3)-(1,-4)",    # three away
                                  "R(10,11)-(10,15)",  # next to a disabled zombie
                                  "R(20,22)-(20,25)",  # two away behind a blocker
                                  "R(30,31)-(30,35)"])  # next to its own side's zombie
def test_pieces_that_are_not_frozen(graveyard, text: str) -> None:
    accepted(NEISG, graveyard, "Red", text, text)


def test_a_frozen_piece_attacks_nothing() -> None:
    state = build(NEISG, [("Blue", "K", 50, 50), ("Blue", "Z", 0, 0), ("Red", "R", 0, 1)], kings=False,
                  players=("Red", "Blue", "Green"))
    accepted(NEISG, state, "Green", "K(0,5)", "+K(0,5)")
    unfrozen = build(NEISG, [("Blue", "K", 50, 50), ("Red", "R", 0, 1)], kings=False, players=("Red", "Blue", "Green"))
    refused(NEISG, unfrozen, "Green", "K(0,5)", "(0,5) is attacked by the rook on (0,1)")


# ============================================================================ angels (D25)
@pytest.fixture
def heaven() -> GameState:
    return build(NEISG, [("Blue", "An", 0, 0), ("Blue", "N", 1, 1), ("Blue", "N", 3, 3), ("Red", "R", 1, 10),
                         ("Red", "R", 0, 10), ("Red", "R", 3, 10), ("Blue", "An", 20, 20, {"disabled": True}),
                         ("Blue", "N", 21, 21), ("Red", "R", 21, 10), ("Red", "An", 41, 41), ("Blue", "N", 40, 40),
                         ("Red", "R", 40, 30)])


def test_a_piece_next_to_its_angel_cannot_be_captured(heaven) -> None:
    refused(NEISG, heaven, "Red", "R(1,10)-(1,1)", "the knight on (1,1) is protected by an angel next to it",
            "(RULES 8, D25)")
    refused(NEISG, heaven, "Red", "R(1,10)-(1,1) else R(1,10)-(1,5)", "protected by an angel", at="R(1,10)-(1,1)")


def test_one_protected_piece_on_a_shared_square_refuses_the_capture() -> None:
    """D25: a capture is refused if any enemy piece on the target square is protected (after a
    collision, pieces of several players share a square)."""
    state = build(NEISG, [("Blue", "An", 0, 0), ("Blue", "N", 1, 1), ("Green", "N", 1, 1), ("Red", "R", 1, 10)],
                  players=("Red", "Blue", "Green"))
    refused(NEISG, state, "Red", "R(1,1)", "the knight on (1,1) is protected by an angel next to it")


def test_the_angel_does_not_protect_itself(heaven) -> None:
    assert first(accepted(NEISG, heaven, "Red", "R(0,10)-(0,0)", "R(0,10)-(0,0)")).capture


@pytest.mark.parametrize("text", ["R(3,10)-(3,3)",     # not adjacent (Chebyshev distance 3)
                                  "R(21,10)-(21,21)",  # the angel is disabled: it protects nothing
                                  "R(40,30)-(40,40)"])  # an enemy's angel protects only its own side
def test_unprotected_pieces(heaven, text: str) -> None:
    assert first(accepted(NEISG, heaven, "Red", text, text)).capture


# ============================================================================ dwarfs (D26)
def dwarf_state(*attackers, players=("Red", "Blue", "Green")) -> GameState:
    return build(NEISG, [("Blue", "D", 0, 0), *attackers], players=players)


def test_a_dwarf_attacked_once_cannot_be_captured() -> None:
    refused(NEISG, dwarf_state(("Red", "R", 0, 10)), "Red", "R(0,10)-(0,0)",
            "a dwarf can be captured only when at least two enemy pieces attack it",
            "the dwarf on (0,0) is attacked by 1 (RULES 8, D26)")


def test_two_attackers_of_one_player() -> None:
    assert first(accepted(NEISG, dwarf_state(("Red", "R", 0, 10), ("Red", "B", -5, 5)), "Red", "R(0,0)",
                          "R(0,10)-(0,0)")).capture


def test_attackers_of_different_players_count_together() -> None:
    accepted(NEISG, dwarf_state(("Red", "R", 0, 10), ("Green", "R", 10, 0)), "Red", "R(0,0)", "R(0,10)-(0,0)")


def test_the_dwarfs_own_pieces_do_not_count() -> None:
    refused(NEISG, dwarf_state(("Red", "R", 0, 10), ("Blue", "R", 10, 0)), "Red", "R(0,0)", "is attacked by 1")


def test_an_attacker_whose_line_runs_through_another_does_not_count() -> None:
    """The Red witch on (1,10) makes the rook on (0,10) transparent to Red, so the rook on (0,20)
    attacks the dwarf through it; D26 still counts only one attacker on that line."""
    state = dwarf_state(("Red", "R", 0, 10), ("Red", "R", 0, 20), ("Red", "W", 1, 10))
    refused(NEISG, state, "Red", "R(0,20)-(0,0)", "the dwarf on (0,0) is attacked by 1")
    refused(NEISG, state, "Red", "R(0,10)-(0,0)", "the dwarf on (0,0) is attacked by 1")


def test_a_frozen_attacker_does_not_count() -> None:
    state = dwarf_state(("Red", "R", 0, 10), ("Red", "B", -5, 5), ("Blue", "Z", -6, 5))
    refused(NEISG, state, "Red", "R(0,10)-(0,0)", "is attacked by 1")


# ============================================================================ spirits
@pytest.fixture
def spirits() -> GameState:
    return build(NEISG, [("Red", "S", 0, 0), ("Red", "R", 1, 2), ("Red", "P", 2, 1), ("Blue", "N", -1, 2),
                         ("Red", "R", 10, 10, {"spirit": True}), ("Red", "S", 20, 20),
                         ("Red", "Q", 21, 22, {"spirit": True})])


def test_a_spirit_possesses_a_friend(spirits) -> None:
    for text in ("S(0,0)-(1,2)", "S(1,2)"):
        action = first(accepted(NEISG, spirits, "Red", text, "S(0,0)-(1,2)"))
        assert (action.kind, action.special, action.capture) == ("move", "possess", False)


def test_a_spirit_cannot_possess_a_pawn_or_a_possessed_piece(spirits) -> None:
    refused(NEISG, spirits, "Red", "S(0,0)-(2,1)", "a spirit cannot possess a pawn (RULES 8)")
    refused(NEISG, spirits, "Red", "S(20,20)-(21,22)", "a spirit cannot possess a piece that already holds a spirit")


def test_a_spirit_never_captures(spirits) -> None:
    refused(NEISG, spirits, "Red", "S(0,0)-(-1,2)", "the spirit never captures")


def test_a_spirit_leaves_its_host_by_a_knight_move(spirits) -> None:
    for text in ("S(10,10)-(11,12)", "S(11,12)"):
        action = first(accepted(NEISG, spirits, "Red", text, "S(10,10)-(11,12)"))
        assert action.special == "unpossess"
    refused(NEISG, spirits, "Red", "S(10,10)-(12,12)", "a spirit cannot move from (10,10) to (12,12) (N)")


def test_a_host_gains_knight_moves(spirits) -> None:
    action = first(accepted(NEISG, spirits, "Red", "R(10,10)-(11,12)", "R(10,10)-(11,12)"))
    assert action.special == ""
    accepted(NEISG, spirits, "Red", "R(10,10)-(10,15)", "R(10,10)-(10,15)")


# ============================================================================ harpies
@pytest.fixture
def harpies() -> GameState:
    return build(NEISG, [("Red", "Hp", 0, 0), ("Red", "R", 0, 3), ("Red", "K", 1, 1), ("Blue", "N", 3, 0),
                         ("Red", "Hp", 10, 10, {"carrying": "Q", "carrying_since": 1}), ("Red", "R", 12, 11),
                         ("Red", "Hp", 30, 30, {"carrying": "P", "carrying_since": 1})], kings=False, balance=0)


def test_a_harpy_picks_up_a_friend(harpies) -> None:
    action = first(accepted(NEISG, harpies, "Red", "Hp(0,0)-(0,3)", "Hp(0,0)-(0,3)"))
    assert (action.special, action.capture) == ("pickup", False)


def test_a_harpy_cannot_carry_a_king_capture_or_carry_two(harpies) -> None:
    refused(NEISG, harpies, "Red", "Hp(0,0)-(1,1)", "a harpy cannot carry a king (RULES 8)")
    refused(NEISG, harpies, "Red", "Hp(0,0)-(3,0)", "the harpy never captures")
    refused(NEISG, harpies, "Red", "Hp(10,10)-(12,11)", "the harpy already carries a queen: drop it first")
    refused(NEISG, harpies, "Red", "Hp(0,0)-(0,5)", "the rook on (0,3) blocks the harpy's path")


def test_a_harpys_pickup_path_must_be_clear() -> None:
    state = build(NEISG, [("Red", "Hp", 0, 0), ("Red", "R", 0, 3), ("Red", "N", 0, 1)])
    refused(NEISG, state, "Red", "Hp(0,0)-(0,3)", "the knight on (0,1) blocks the harpy's path")


def test_a_drop_costs_nothing(harpies) -> None:
    action = first(accepted(NEISG, harpies, "Red", "+Q(100,100)", "+Q(100,100)"))
    assert (action.kind, action.cost) == ("drop", 0)
    assert action.piece_id == next(p.id for p in harpies.board.at((10, 10)))
    refused(NEISG, harpies, "Red", "+Q(12,11)", "(12,11) holds a rook in the position you saw",
            "a carried piece is dropped on an empty square")


def test_a_dropped_pawn_ignores_generation_ranks(harpies) -> None:
    assert first(accepted(NEISG, harpies, "Red", "+P(3,5)", "+P(3,5)")).kind == "drop"


def test_without_a_carried_piece_plus_x_is_a_generation(harpies) -> None:
    refused(NEISG, harpies, "Red", "+R(5,5)", "a rook costs 7 health; you have 0 health")


# ============================================================================ time thieves (D27)
def thief_state(*extra, thief_flags=None) -> GameState:
    return build(NEISG, [("Red", "Tt", 0, 0, thief_flags or {}), ("Blue", "N", 6, 7), ("Red", "N", 0, 12),
                         ("Blue", "G", 0, 9), *extra],
                 moved_last_update=(LastMove((5, 5), (6, 7)), LastMove((0, 12), (0, 9)),
                                    LastMove((-7, -7), (-500, -500))))


def test_a_theft_on_the_origin_square_of_a_piece_that_moved() -> None:
    state = thief_state()
    for text in ("Tt(5,5)", "Tt(0,0)-(5,5)"):
        action = first(accepted(NEISG, state, "Red", text, "Tt(0,0)-(5,5)"))
        assert (action.special, action.capture) == ("theft", True)
        assert action.victims == tuple(p.id for p in state.board.at((6, 7)))


def test_a_theft_allows_a_fallback() -> None:
    accepted(NEISG, thief_state(), "Red", "Tt(5,5) else Tt(4,4)", "Tt(0,0)-(5,5) else Tt(0,0)-(4,4)")


def test_the_origin_of_an_own_piece_is_a_plain_move() -> None:
    action = first(accepted(NEISG, thief_state(), "Red", "Tt(-7,-7)", "Tt(0,0)-(-7,-7)"))
    assert (action.special, action.capture) == ("", False)


def test_a_theft_needs_an_empty_origin_and_a_clear_path() -> None:
    refused(NEISG, thief_state(), "Red", "Tt(0,12)", "the time thief lands on (0,12), which must be empty (D27)")
    refused(NEISG, thief_state(("Blue", "G", 3, 3)), "Red", "Tt(5,5)", "the guard on (3,3) blocks the time thief's path")


def test_a_disabled_thief_cannot_steal() -> None:
    refused(NEISG, thief_state(thief_flags={"disabled": True}), "Red", "Tt(5,5)",
            "disabled", "not steal", "(RULES 3.1, D27)")


def test_a_thief_never_captures_normally() -> None:
    refused(NEISG, thief_state(("Blue", "N", 4, 4)), "Red", "Tt(4,4)", "the time thief never captures")


def test_a_theft_of_a_protected_piece_is_refused() -> None:
    refused(NEISG, thief_state(("Blue", "An", 7, 7)), "Red", "Tt(5,5)",
            "the knight on (6,7) is protected by an angel next to it")


# ============================================================================ witches (D28)
@pytest.fixture
def coven() -> GameState:
    return build(NEISG, [("Red", "R", 0, 0), ("Red", "W", 0, 3), ("Red", "N", 5, 0), ("Red", "W", 5, 1),
                         ("Blue", "N", 8, 0), ("Blue", "N", 0, 8), ("Red", "W", 20, 20), ("Red", "G", 20, 21),
                         ("Blue", "G", 21, 20), ("Red", "P", 30, -5), ("Red", "W", 31, -3), ("Red", "N", 30, -4),
                         ("Red", "W", 40, 0, {"disabled": True}), ("Red", "N", 40, 1), ("Red", "R", 40, -5),
                         ("Blue", "R", 5, 10)])


def test_a_rook_passes_through_its_own_witch(coven) -> None:
    accepted(NEISG, coven, "Red", "R(0,5)", "R(0,0)-(0,5)")
    assert first(accepted(NEISG, coven, "Red", "R(0,8)", "R(0,0)-(0,8)")).capture


def test_a_rook_passes_through_pieces_next_to_its_witch(coven) -> None:
    assert first(accepted(NEISG, coven, "Red", "R(8,0)", "R(0,0)-(8,0)")).capture
    refused(NEISG, coven, "Red", "R(0,0)-(9,0)", "the knight on (8,0) blocks the rook's path")


def test_the_witch_does_not_pass_through_her_own_neighbours(coven) -> None:
    refused(NEISG, coven, "Red", "W(20,20)-(20,23)", "the guard on (20,21) blocks the witch's path")
    refused(NEISG, coven, "Red", "W(20,20)-(23,20)", "the guard on (21,20) blocks the witch's path")
    accepted(NEISG, coven, "Red", "W(20,20)-(22,20)", "W(20,20)-(22,20)")  # a 2-leap jumps


def test_a_pawns_double_step_passes_a_piece_next_to_its_witch(coven) -> None:
    accepted(NEISG, coven, "Red", "P(30,-3)", "P(30,-5)-(30,-3)")


def test_a_disabled_witch_gives_no_transparency(coven) -> None:
    refused(NEISG, coven, "Red", "R(40,-5)-(40,3)", "the witch on (40,0) blocks the rook's path")


def test_enemies_do_not_pass_a_witchs_neighbours(coven) -> None:
    refused(NEISG, coven, "Blue", "R(5,10)-(5,-3)", "the witch on (5,1) blocks the rook's path")
    state = build(NEISG, [("Red", "W", 0, 1), ("Red", "N", 1, 0), ("Blue", "R", 5, 0)])
    refused(NEISG, state, "Blue", "R(5,0)-(0,0)", "the knight on (1,0) blocks the rook's path")


def test_a_witch_cannot_capture(coven) -> None:
    refused(NEISG, coven, "Red", "W(0,3)-(0,8)", "the witch never captures")


# ============================================================================ re-joining (sandbox)
def test_a_removed_sandbox_player_is_told_when_they_may_rejoin() -> None:
    """RULES 5.1, P33: removed at update 10, a player sits out 11 to 14 and may place a king from
    update 15 on; the check at once (the service's) says the same as the update would."""
    removed = Player("Gold", "Gold", Fraction(-2), status="eliminated", rejoin_after=14)
    too_early = build(SANDBOX, [], players=("Red", "Blue", removed), kings=False, update=14)
    refused(SANDBOX, too_early, "Gold", "K(0,5)", "removed", "from update 15 on (P33)")
    in_time = build(SANDBOX, [], players=("Red", "Blue", removed), kings=False, update=15)
    accepted(SANDBOX, in_time, "Gold", "K(0,5)", "+K(0,5)")                # a placement (D20)
    refused(SANDBOX, in_time, "Gold", "N(0,5)-(1,7)", "no")          # a newcomer's only order is a king


def test_an_eliminated_neisg_player_never_rejoins() -> None:
    gone = Player("Gold", "Gold", Fraction(-2), status="eliminated")
    state = build(NEISG, [], players=("Red", "Blue", gone), kings=False, update=40)
    refused(NEISG, state, "Gold", "K(0,5)", "eliminated and may not re-join this session (D30)")
