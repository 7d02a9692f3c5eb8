"""The board's line index (RULES.md section 1: an unbounded board) agrees with a brute-force scan.

``Board.occupied_along`` answers "which occupied squares lie on this ray" from a sorted index per
line direction, so a rook finds a piece 10,000 squares away in one bisection. Whatever sequence of
adds, removes, moves and copies happens, it must give exactly what scanning every piece would.
"""

from __future__ import annotations

from dataclasses import fields, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from bot.engine.board import Board
from bot.engine.model import Piece
from bot.engine.movement import Position, destinations, reach
from bot.engine.ruleset import load_preset

STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1),
         (2, 1), (-2, -1), (1, 2), (-1, 2), (2, -1), (2, 0), (0, -2), (-2, 0), (2, 2), (-3, 3),
         (3, 1), (1, -3), (3, 0), (5, 3), (-4, 6)]

coords = st.integers(-6, 6)
squares = st.tuples(coords, coords)
steps = st.sampled_from(STEPS)
limits = st.one_of(st.none(), st.integers(0, 8))


def brute_force(board: Board, origin, step, limit):
    """Occupied squares origin + k*step, k >= 1 (and k <= limit), by scanning every piece."""
    found = {}
    for p in board:
        dx, dy = p.square[0] - origin[0], p.square[1] - origin[1]
        sx, sy = step
        k = dx // sx if sx else dy // sy
        if k >= 1 and (dx, dy) == (k * sx, k * sy) and (limit is None or k <= limit):
            found[k] = p.square
    return sorted(found.items())


class BoardMachine(RuleBasedStateMachine):
    """Random adds, removes, moves and copies; the index is compared with brute force throughout,
    so that a lazily created line direction (a nightrider's (2,1)) is also kept up to date."""

    def __init__(self):
        super().__init__()
        self.board = Board()
        self.next_id = 1
        self.copies: list[Board] = []

    @initialize(squares=st.lists(squares, max_size=12), at_once=st.booleans())
    def fill(self, squares, at_once):
        """The first pieces one by one, or all at once as a loaded position is built."""
        if at_once:
            self.board = Board(Piece(id=i, kind="N", owner=("Red", "Blue")[i % 2], square=sq)
                               for i, sq in enumerate(squares, start=1))
            self.next_id = len(squares) + 1
            return
        for sq in squares:
            self.add(sq)

    @rule(square=squares)
    def add(self, square):
        self.board.add(Piece(id=self.next_id, kind="N", owner=("Red", "Blue")[self.next_id % 2], square=square))
        self.next_id += 1

    @precondition(lambda self: len(self.board) > 0)
    @rule(data=st.data())
    def remove(self, data):
        ids = sorted(p.id for p in self.board)
        self.board.remove(data.draw(st.sampled_from(ids)))

    @precondition(lambda self: len(self.board) > 0)
    @rule(data=st.data(), destination=squares)
    def move(self, data, destination):
        ids = sorted(p.id for p in self.board)
        piece = self.board.get(data.draw(st.sampled_from(ids)))
        self.board.replace(piece.at(destination))

    @precondition(lambda self: len(self.board) > 0)
    @rule(data=st.data())
    def change_in_place(self, data):
        ids = sorted(p.id for p in self.board)
        piece = self.board.get(data.draw(st.sampled_from(ids)))
        self.board.replace(replace(piece, moved=True))
        assert self.board.get(piece.id).moved

    @precondition(lambda self: len(self.board) > 0)
    @rule(data=st.data(), change=st.sampled_from([
        {"check": "fresh"}, {"check": "capturable"}, {"check": "spent"}, {"check": "none"},
        {"disabled": True}, {"disabled": False}, {"energy": True}, {"carrying": "N", "carrying_since": 3},
        {"carrying": None, "carrying_since": None}]), destination=st.one_of(st.none(), squares))
    def change_state(self, data, change, destination):
        """Check states, disabled, energy and cargo change in place or with a move (step 10, step 9,
        a promotion, a pick-up)."""
        ids = sorted(p.id for p in self.board)
        piece = replace(self.board.get(data.draw(st.sampled_from(ids))), **change)
        self.board.replace(piece if destination is None else piece.at(destination))

    @invariant()
    def transient_pieces_agree(self):
        """The steps that move states on (check states, step 9, bursts, cargo) read this index
        instead of the board: it must hold exactly the pieces whose state moves on."""
        for board in (self.board, *self.copies[-2:]):
            assert sorted(p.id for p in board.transient()) == sorted(
                p.id for p in board if p.disabled or p.energy or p.carrying is not None
                or p.check in ("fresh", "capturable"))

    @precondition(lambda self: len(self.board) > 0)
    @rule(data=st.data(), owner=st.sampled_from(["Red", "Blue", None]))
    def change_owner(self, data, owner):
        """A bonus piece collected, an army handed over (RULES 5.3): same id, new owner."""
        ids = sorted(p.id for p in self.board)
        piece = self.board.get(data.draw(st.sampled_from(ids)))
        self.board.replace(replace(piece, owner=owner))

    @rule(square=squares)
    def copy_is_independent(self, square):
        before = sorted((p.id, p.square) for p in self.board)
        other = self.board.copy()
        other.add(Piece(id=10_000 + self.next_id, kind="N", owner="Blue", square=square))
        for p in list(other):
            if p.id < 10_000:
                other.remove(p.id)
        assert sorted((p.id, p.square) for p in self.board) == before
        assert [(k, s) for k, s in other.occupied_along((square[0] - 1, square[1]), (1, 0))] == [(1, square)]

    @rule()
    def keep_a_copy(self):
        """Copies share their line lists with the board (copy on write): the board goes on
        changing, and the copies must not."""
        self.copies.append(self.board.copy())

    @invariant()
    def copies_keep_their_own_lines(self):
        for other in self.copies[-3:]:
            for origin in ((0, 0), (3, -2)):
                for step in ((1, 0), (-1, 1), (2, 1)):
                    assert list(other.occupied_along(origin, step)) == brute_force(other, origin, step, None)

    @rule(origin=squares, step=steps, limit=limits)
    def query(self, origin, step, limit):
        assert list(self.board.occupied_along(origin, step, limit)) == brute_force(self.board, origin, step, limit)

    @invariant()
    def squares_agree(self):
        by_square = {}
        for p in self.board:
            by_square.setdefault(p.square, set()).add(p.id)
        assert set(self.board.squares()) == set(by_square)
        for sq, ids in by_square.items():
            assert {p.id for p in self.board.at(sq)} == ids
            assert self.board.occupied(sq)

    @invariant()
    def owners_agree(self):
        for owner in ("Red", "Blue", None):
            assert sorted(p.id for p in self.board.owned_by(owner)) == sorted(
                p.id for p in self.board if p.owner == owner)
            assert self.board.owns(owner) == any(p.owner == owner for p in self.board)

    @invariant()
    def some_lines_agree(self):
        for origin in ((0, 0), (-6, -6), (3, -2)):
            for step in ((1, 0), (-1, 1), (2, 1), (2, 0)):
                assert list(self.board.occupied_along(origin, step)) == brute_force(self.board, origin, step, None)


TestBoardIndex = BoardMachine.TestCase
TestBoardIndex.settings = settings(max_examples=80, stateful_step_count=30)


@settings(max_examples=200)
@given(pieces=st.lists(squares, max_size=30), origin=squares, step=steps, limit=limits)
def test_occupied_along_matches_brute_force(pieces, origin, step, limit):
    board = Board(Piece(id=i, kind="N", owner="Red", square=sq) for i, sq in enumerate(pieces, start=1))
    assert list(board.occupied_along(origin, step, limit)) == brute_force(board, origin, step, limit)


def test_several_pieces_on_one_square():
    """RULES 3.4: a collision leaves several pieces on one square until they are annihilated."""
    a = Piece(id=1, kind="N", owner="Red", square=(2, 6))
    b = Piece(id=2, kind="B", owner="Blue", square=(2, 6))
    board = Board([a, b])
    assert set(board.at((2, 6))) == {a, b}
    assert list(board.occupied_along((0, 6), (1, 0))) == [(2, (2, 6))]
    board.remove(1)
    assert board.at((2, 6)) == (b,)
    assert list(board.occupied_along((0, 6), (1, 0))) == [(2, (2, 6))], "the square is still occupied"
    board.remove(2)
    assert board.at((2, 6)) == () and not board.occupied((2, 6))
    assert list(board.occupied_along((0, 6), (1, 0))) == []


def test_adding_a_piece_twice_is_refused():
    a = Piece(id=1, kind="N", owner="Red", square=(0, 0))
    board = Board([a])
    with pytest.raises(ValueError):
        board.add(a.at((1, 1)))


def test_bounding_box_and_bounds():
    board = Board([Piece(id=1, kind="N", owner="Red", square=(-3, 5)),
                   Piece(id=2, kind="N", owner="Red", square=(7, -2))], bounds=((0, 0), (7, 7)))
    assert board.bounding_box() == ((-3, -2), (7, 5))
    assert Board().bounding_box() is None
    assert board.in_bounds((7, 7)) and not board.in_bounds((8, 7)) and not board.in_bounds((0, -1))
    assert Board().in_bounds((10**6, -10**6))


# ----------------------------------------------------------------------------- far apart
FAR = {"thief": (-384, -12), "east": (10000, 3), "south_east": (10000, -12)}


def far_position():
    pieces = [Piece(id=1, kind="R", owner="Red", square=FAR["thief"]),
              Piece(id=2, kind="N", owner="Blue", square=FAR["east"]),
              Piece(id=3, kind="N", owner="Blue", square=FAR["south_east"])]
    return Position(load_preset("neisg"), Board(pieces)), pieces


def test_far_pieces_are_found_along_a_line():
    """An unbounded board (RULES 1): a rook on (-384,-12) sees the piece on (10000,-12)."""
    position, (rook, east, south_east) = far_position()
    board = position.board
    assert list(board.occupied_along(FAR["thief"], (1, 0))) == [(10384, FAR["south_east"])]
    assert list(board.occupied_along(FAR["thief"], (1, 0), limit=10383)) == []
    assert list(board.occupied_along(FAR["south_east"], (-1, 0))) == [(10384, FAR["thief"])]
    assert list(board.occupied_along(FAR["south_east"], (0, 1))) == [(15, FAR["east"])]
    assert list(board.occupied_along(FAR["east"], (0, -5))) == [(3, FAR["south_east"])]
    assert list(board.occupied_along(FAR["east"], (0, -2))) == []  # 15 is not a multiple of 2


def test_a_rook_reaches_the_far_piece_and_no_further():
    position, (rook, east, south_east) = far_position()
    answer = reach(position, rook, FAR["south_east"])
    assert answer.ok and answer.capture
    beyond = reach(position, rook, (10001, -12))
    assert not beyond.ok and beyond.blocked_by == FAR["south_east"]
    assert "(10000,-12)" in beyond.reason
    assert reach(position, rook, (9999, -12)).ok
    assert not reach(position, rook, FAR["east"]).ok
    # The moves listing stays within its window, however far the line goes.
    assert max(abs(x + 384) for x, _ in destinations(position, rook)) == 32


def test_far_moves_keep_the_index_right():
    position, (rook, east, south_east) = far_position()
    board = position.board
    board.replace(south_east.at((-500, -12)))
    assert list(board.occupied_along(FAR["thief"], (1, 0))) == []
    assert list(board.occupied_along(FAR["thief"], (-1, 0))) == [(116, (-500, -12))]
    assert list(board.occupied_along((9998, -1), (1, 2))) == [(2, FAR["east"])]


def test_with_check_is_replace_of_the_check_state():
    """Piece.with_check, the fast copy step 10 makes of tens of thousands of pieces, keeps every
    other field (it reads them in the order of the constructor)."""
    assert [f.name for f in fields(Piece)] == list(Piece.__slots__)
    piece = Piece(7, "Hp", "Red", (3, -4), "fresh", True, True, True, True, "N", 5, 2, True, 9)
    for state in ("none", "fresh", "capturable", "spent"):
        assert piece.with_check(state) == replace(piece, check=state)
