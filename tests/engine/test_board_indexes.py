"""The board's indexes answer as scanning the board would, after any sequence of changes, and a
copy changed afterwards leaves the board it was copied from as it was."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.board import Board, BoardView
from bot.engine.model import Piece

OWNERS = ["Ash", "Bea", None]
KINDS = ["K", "W", "P", "R"]

changes = st.lists(st.tuples(st.sampled_from(["add", "remove", "move", "kind", "owner", "flip"]), st.integers(0, 40),
                             st.sampled_from(OWNERS), st.sampled_from(KINDS),
                             st.tuples(st.integers(-3, 3), st.integers(-3, 3))), max_size=40)


def _apply(board: Board, change, next_id: list[int]) -> None:
    what, pick, owner, kind, square = change
    pieces = sorted(board, key=lambda p: p.id)
    if what == "add" or not pieces:
        board.add(Piece(next_id[0], kind, owner, square))
        next_id[0] += 1
        return
    piece = pieces[pick % len(pieces)]
    if what == "remove":
        board.remove(piece.id)
    elif what == "move":
        board.replace(replace(piece, square=square))
    elif what == "kind":
        board.replace(replace(piece, kind=kind))
    elif what == "flip":   # changed in place: same square, kind and owner
        board.replace(replace(piece, disabled=not piece.disabled))
    else:
        board.replace(replace(piece, owner=owner))


def _scanned(board) -> tuple:
    """What owns_kind and count_of_kind should say, by scanning every piece."""
    return ({(o, k): any(p.owner == o and p.kind == k for p in board) for o in OWNERS for k in KINDS},
            {k: sum(1 for p in board if p.kind == k) for k in KINDS})


def _indexed(board) -> tuple:
    return ({(o, k): board.owns_kind(o, k) for o in OWNERS for k in KINDS},
            {k: board.count_of_kind(k) for k in KINDS})


@settings(max_examples=200)
@given(before=changes, after=changes)
def test_owns_kind_and_count_of_kind_follow_every_change_and_copies_stay_apart(before, after):
    board, next_id = Board(), [1]
    for change in before:
        _apply(board, change, next_id)
    assert _indexed(board) == _scanned(board)
    kept = _scanned(board)
    copy = board.copy()
    for change in after:
        _apply(copy, change, next_id)
    assert _indexed(copy) == _scanned(copy)
    assert _indexed(board) == _scanned(board) == kept


@settings(max_examples=200)
@given(before=changes, on_copy=changes, on_original=changes, again=changes)
def test_each_owners_pieces_stay_apart_when_a_board_and_its_copies_change(before, on_copy, on_original, again):
    """The owners' pieces are shared between a board and its copy until one of them changes them:
    changes on either side, and on a copy of the copy, never show on the other; every board lists
    each owner's pieces in the order it holds them."""
    board, next_id = Board(), [1]
    for change in before:
        _apply(board, change, next_id)
    copy = board.copy()
    for change in on_copy:
        _apply(copy, change, next_id)
    kept = {o: board.owned_by(o) for o in OWNERS}
    second = copy.copy()
    for change in on_original:
        _apply(board, change, next_id)
    kept_copy = {o: copy.owned_by(o) for o in OWNERS}
    for change in again:
        _apply(second, change, next_id)
    assert {o: copy.owned_by(o) for o in OWNERS} == kept_copy
    for one in (board, copy, second):
        assert {o: one.owned_by(o) for o in OWNERS} == {o: [p for p in one if p.owner == o] for o in OWNERS}
        assert {o: one.owns(o) for o in OWNERS} == {o: any(p.owner == o for p in one) for o in OWNERS}
        assert _indexed(one) == _scanned(one)
    if not on_original:
        assert {o: board.owned_by(o) for o in OWNERS} == kept


def test_a_view_counts_without_its_lifted_pieces():
    board = Board([Piece(1, "W", "Ash", (0, 0)), Piece(2, "W", "Bea", (1, 0)), Piece(3, "K", "Ash", (5, 5))])
    assert board.count_of_kind("W") == 2 and board.count_of_kind("Q") == 0
    assert BoardView(board, lifted_ids=[2]).count_of_kind("W") == 1
    assert board.owns_kind("Ash", "K") and not board.owns_kind("Bea", "K")


def test_lines_far_beyond_the_coordinates_of_orders_are_walked_as_near_ones():
    """A line's positions are machine integers; a board built by hand with a piece beyond them
    (2**70) still finds every piece along the line, before and after changes on that line."""
    far = 2 ** 70
    board = Board([Piece(1, "R", "Ash", (0, 0)), Piece(2, "R", "Bea", (5, 0)), Piece(3, "R", "Bea", (0, 7))])
    assert [s for _, s in board.occupied_along((0, 0), (1, 0))] == [(5, 0)]
    board.add(Piece(4, "R", "Bea", (far, 0)))          # onto a line held as an array
    board.add(Piece(5, "R", "Bea", (far, far)))
    assert [s for _, s in board.occupied_along((0, 0), (1, 0))] == [(5, 0), (far, 0)]
    assert [s for _, s in board.occupied_along((0, 0), (1, 1))] == [(far, far)]
    copy = board.copy()
    copy.remove(2)
    copy.add(Piece(6, "R", "Bea", (3, 0)))
    assert [s for _, s in copy.occupied_along((0, 0), (1, 0))] == [(3, 0), (far, 0)]
    assert [s for _, s in board.occupied_along((0, 0), (1, 0))] == [(5, 0), (far, 0)]
    rebuilt = Board(list(copy))
    assert [s for _, s in rebuilt.occupied_along((far, 0), (-1, 0))] == [(3, 0), (0, 0)]


def test_a_square_of_other_numbers_than_whole_ones_keeps_its_line_walkable():
    """A board edited by hand may hold a square such as (2.5, 0): its line is kept as a list."""
    board = Board([Piece(1, "R", "Ash", (0, 0)), Piece(2, "R", "Bea", (5, 0))])
    board.add(Piece(3, "R", "Bea", (2.5, 0)))
    board.add(Piece(4, "R", "Bea", (0.5, 7)))
    assert [s for _, s in board.occupied_along((5, 0), (-1, 0))] == [(0, 0)]   # 2.5 is not a whole step away
    assert board.at((2.5, 0))[0].id == 3
    board.remove(3)
    assert [s for _, s in board.occupied_along((0, 0), (1, 0))] == [(5, 0)]


# The index of the pieces next to each square (Board.keep_near, Board.near) against looking around.
NEAR = frozenset({"W", "R"})
SQUARES = [(x, y) for x in range(-12, 13) for y in range(-12, 13)]   # blocks of 8 squares: several, negative too
wide_changes = st.lists(st.tuples(st.sampled_from(["add", "remove", "move", "kind", "owner", "flip"]), st.integers(0, 60),
                                  st.sampled_from(OWNERS), st.sampled_from(KINDS),
                                  st.tuples(st.integers(-11, 11), st.integers(-11, 11))), max_size=40)


def _near_by_looking(board) -> dict:
    """For every square, the ids of the W and R pieces next to it, by asking its eight neighbours."""
    return {s: sorted(p.id for p in board.around(s, [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy])
                      if p.kind in NEAR) for s in SQUARES}


def _near_by_index(board) -> dict:
    return {s: sorted(p.id for p in board.near(NEAR, s)) for s in SQUARES}


@settings(max_examples=150)
@given(before=wide_changes, kept_after=wide_changes, on_copy=wide_changes, on_original=wide_changes,
       again=wide_changes)
def test_the_pieces_next_to_each_square_follow_every_change_and_copies_stay_apart(
        before, kept_after, on_copy, on_original, again):
    """The index made on a board follows its changes (adds, removals, moves, pieces that change
    kind or owner), passes to its copies, and changes on a copy, a copy of the copy or the
    original never show on another; the pieces it gives are the board's current ones."""
    board, next_id = Board(), [1]
    for change in before:
        _apply(board, change, next_id)
    assert board.near(NEAR, (0, 0)) is None            # no index until asked to keep one
    board.keep_near(NEAR)
    for change in kept_after:
        _apply(board, change, next_id)
    assert _near_by_index(board) == _near_by_looking(board)
    copy = board.copy()
    for change in on_copy:
        _apply(copy, change, next_id)
    second = copy.copy()
    kept = _near_by_looking(board)
    for change in on_original:
        _apply(board, change, next_id)
    kept_copy = _near_by_looking(copy)
    for change in again:
        _apply(second, change, next_id)
    assert _near_by_index(copy) == kept_copy
    for one in (board, copy, second):
        assert _near_by_index(one) == _near_by_looking(one)
        for square in SQUARES[::7]:
            assert all(p is one.get(p.id) for p in one.near(NEAR, square))
    if not on_original:
        assert _near_by_index(board) == kept


# The same index at other offsets than a square's neighbours (the squares a zombie's move reaches),
# one-sided and reaching past a block of 8 squares.
OFFSETS = frozenset({(1, 0), (2, 0), (0, -1), (0, -2), (3, 1), (-9, 0)})


def _reaching_by_looking(board) -> dict:
    """For every square, the ids of the W and R pieces from whose square an offset lands on it."""
    return {s: sorted(p.id for dx, dy in OFFSETS for p in board.at((s[0] - dx, s[1] - dy)) if p.kind in NEAR)
            for s in SQUARES}


def _reaching_by_index(board) -> dict:
    return {s: sorted(p.id for p in board.near(NEAR, s, OFFSETS)) for s in SQUARES}


@settings(max_examples=100)
@given(before=wide_changes, kept_after=wide_changes, on_copy=wide_changes, on_original=wide_changes)
def test_the_pieces_reaching_each_square_at_given_offsets_follow_every_change_and_copies_stay_apart(
        before, kept_after, on_copy, on_original):
    """An index at other offsets than the neighbours answers as looking at each square minus each
    offset, after any changes, on copies changed apart; it is kept beside the neighbours' index of
    the same kinds, and neither answers for the other."""
    board, next_id = Board(), [1]
    for change in before:
        _apply(board, change, next_id)
    board.keep_near(NEAR)
    assert board.near(NEAR, (0, 0), OFFSETS) is None and not board.keeps_near(NEAR, OFFSETS)
    board.keep_near(NEAR, OFFSETS)
    assert board.keeps_near(NEAR, OFFSETS) and board.keeps_near(NEAR) and not board.keeps_near(frozenset({"W"}))
    for change in kept_after:
        _apply(board, change, next_id)
    copy = board.copy()
    for change in on_copy:
        _apply(copy, change, next_id)
    for change in on_original:
        _apply(board, change, next_id)
    for one in (board, copy):
        assert _reaching_by_index(one) == _reaching_by_looking(one)
        assert _near_by_index(one) == _near_by_looking(one)


def test_a_view_gives_the_pieces_next_to_a_square_without_its_lifted_ones():
    board = Board([Piece(1, "W", "Ash", (0, 0)), Piece(2, "W", "Bea", (1, 0)), Piece(3, "W", "Ash", (1, 1)),
                   Piece(4, "K", "Ash", (0, 1)), Piece(5, "R", "Bea", (1, 1))])
    view = BoardView(board, lifted_ids=[2], lifted_square=(1, 1))
    assert view.near(NEAR, (0, 1)) is None
    view.keep_near(NEAR)                                  # kept by the board under the view
    assert sorted(p.id for p in board.near(NEAR, (0, 1))) == [1, 2, 3, 5]
    assert [p.id for p in view.near(NEAR, (0, 1))] == [1]
    assert view.near(NEAR, (5, 5)) == ()
    assert view.near(NEAR, (2, 1), OFFSETS) is None and not view.keeps_near(NEAR, OFFSETS)
    view.keep_near(NEAR, OFFSETS)
    assert board.keeps_near(NEAR, OFFSETS) and view.keeps_near(NEAR, OFFSETS)
    assert sorted(p.id for p in board.near(NEAR, (2, 0), OFFSETS)) == [1, 2]   # (0,0) + (2,0), (1,0) + (1,0)
    assert [p.id for p in view.near(NEAR, (2, 0), OFFSETS)] == [1]
    assert sorted(p.id for p in board.near(NEAR, (2, 1), OFFSETS)) == [3, 5]   # (1,1) + (1,0)
    assert view.near(NEAR, (2, 1), OFFSETS) == ()


@settings(max_examples=200)
@given(before=changes, on_copy=changes, on_original=changes, asked=st.lists(st.sampled_from(KINDS), max_size=3),
       asked_later=st.lists(st.sampled_from(KINDS), max_size=3))
def test_the_pieces_of_a_kind_are_listed_as_scanning_the_board_would_whenever_the_kind_is_first_asked(
        before, on_copy, on_original, asked, asked_later):
    """A board keeps the pieces of a kind from the first time it is asked about it (before or
    after changes, before or after a copy): every board lists each kind's pieces as scanning it
    would, in the order it holds them, and a copy changed afterwards leaves the other as it was."""
    board, next_id = Board(), [1]
    for letter in asked:
        board.of_kind(letter)
    for change in before:
        _apply(board, change, next_id)
    copy = board.copy()
    for letter in asked_later:
        copy.of_kind(letter)
    for change in on_copy:
        _apply(copy, change, next_id)
    kept = {k: board.of_kind(k) for k in KINDS}
    for change in on_original:
        _apply(board, change, next_id)
    for one in (board, copy, copy.copy()):
        assert {k: one.of_kind(k) for k in KINDS} == {k: [p for p in one if p.kind == k] for k in KINDS}
        assert {k: one.count_of_kind(k) for k in KINDS} == {k: len(one.of_kind(k)) for k in KINDS}
    if not on_original:
        assert {k: board.of_kind(k) for k in KINDS} == kept
