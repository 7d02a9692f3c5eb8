"""Arena's normal check rules for kings (RULES.md 5.2, ``king_check_rules``): a king may not move onto a
square an enemy attacks in P0, judged with the king lifted from its square, so it cannot step back
along the line of the rook that attacks it. Other rulesets have no such rule (neisg kings may stay or
step into check; megachess: "kings may stay in check")."""

from __future__ import annotations

import pytest

from bot.engine.abilities import position_for
from bot.engine.model import Player
from bot.engine.movement import destinations
from bot.engine.ruleset import load_preset
from bot.engine.state import GameState
from bot.engine.validation import legal_destinations

KING_STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
PLAYERS = [Player("Red", "Red"), Player("Blue", "Blue")]


def setup(preset: str, *pieces):
    ruleset = load_preset(preset)
    state = GameState.build(ruleset, [dict(owner=o, kind=k, square=s) for o, k, s in pieces], PLAYERS)
    position = position_for(ruleset, state)
    by_square = {(p.owner, p.square): p for p in state.board}
    return position, by_square


def around(origin):
    return {(origin[0] + dx, origin[1] + dy) for dx, dy in KING_STEPS}


def test_arena_king_avoids_attacked_squares():
    position, pieces = setup("arena",
                             ("Red", "K", (0, 0)),
                             ("Blue", "R", (4, 0)),   # attacks the whole rank 0, behind the king too
                             ("Blue", "P", (1, 1)),   # captures diagonally only; defended by the bishop
                             ("Blue", "B", (3, 3)))
    king = pieces["Red", (0, 0)]
    assert set(destinations(position, king)) == around((0, 0)), "plain movement allows all eight"
    assert set(legal_destinations(position, king)) == {(-1, -1), (-1, 1), (0, -1), (0, 1), (1, -1)}
    # (-1, 0): behind the king on the rook's line; (1, 0): on the line; (1, 1): a defended pawn.
    # (0, 1) is next to the pawn orthogonally, which the pawn cannot capture: it stays allowed.


def test_the_lifted_king_does_not_shield_the_square_behind_it():
    position, pieces = setup("arena", ("Red", "K", (0, 0)), ("Blue", "Q", (0, 5)))
    king = pieces["Red", (0, 0)]
    legal = set(legal_destinations(position, king))
    assert (0, -1) not in legal, "stepping back along the queen's file"
    assert legal == around((0, 0)) - {(0, 1), (0, -1)}


def test_arena_king_may_capture_an_undefended_piece_but_not_a_defended_one():
    position, pieces = setup("arena", ("Red", "K", (0, 0)), ("Blue", "N", (1, 0)), ("Blue", "P", (-1, 1)),
                             ("Blue", "R", (-1, 5)))
    king = pieces["Red", (0, 0)]
    legal = set(legal_destinations(position, king))
    assert (1, 0) in legal, "nothing defends the knight on (1,0)"
    assert (-1, 1) not in legal, "the rook on (-1,5) defends the pawn on (-1,1) (RULES 3.2)"
    assert (-1, -1) not in legal, "the knight on (1,0) attacks (-1,-1)"


def test_kings_keep_apart():
    position, pieces = setup("arena", ("Red", "K", (0, 0)), ("Blue", "K", (2, 0)))
    legal = set(legal_destinations(position, pieces["Red", (0, 0)]))
    assert not legal & {(1, -1), (1, 0), (1, 1)}
    assert {(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1)} == legal


def test_own_pieces_do_not_restrict_the_king():
    position, pieces = setup("arena", ("Red", "K", (0, 0)), ("Red", "R", (4, 0)))
    assert set(legal_destinations(position, pieces["Red", (0, 0)])) == around((0, 0)) - {(4, 0)}


def test_only_the_king_is_restricted():
    position, pieces = setup("arena", ("Red", "K", (5, 5)), ("Red", "N", (0, 0)), ("Blue", "R", (4, 1)))
    knight = pieces["Red", (0, 0)]
    assert (2, 1) in legal_destinations(position, knight), "a knight may move onto an attacked square"


@pytest.mark.parametrize("preset", ["neisg", "megachess"])
def test_other_rulesets_let_the_king_step_into_check(preset):
    position, pieces = setup(preset, ("Red", "K", (0, 0)), ("Blue", "R", (4, 0)))
    king = pieces["Red", (0, 0)]
    assert set(legal_destinations(position, king)) == around((0, 0))


def test_arena_board_bounds_the_king():
    """RULES 5.2: two players, R = 3 + 2*2 = 7."""
    position, pieces = setup("arena", ("Red", "K", (7, 7)), ("Blue", "K", (-7, -7)))
    assert set(legal_destinations(position, pieces["Red", (7, 7)])) == {(6, 6), (6, 7), (7, 6)}
