"""An unbounded board that stays fast: pieces found by square and by line.

Squares hold any number of pieces (a collision leaves several on one square until they are
annihilated). Besides the square map the board keeps, for every line direction it has been asked
about, a sorted index of the occupied squares on each line. Walking a ray therefore costs in the
number of pieces on its line, never in the distance: a rook on (-384,-12) finds the piece on
(10000,-12) in one bisection.

Line directions are indexed lazily: the four chess lines from the start, any other (a nightrider's
(2,1), say) the first time a ray needs it.

A board may also keep, for a set of kinds (the witches of a ruleset), which of their pieces stand
next to each square (:meth:`Board.keep_near`, :meth:`Board.near`), or at other offsets from it (the
squares a zombie's move reaches). It is made once, when a position asks about many squares, and
then follows every change and passes to copies, held in blocks of 8 x 8 squares that a copy shares
until it changes them: an update carries it over from the board before at the cost of the squares
its changes reach, not of the board.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from functools import lru_cache
from math import gcd
from typing import Iterable, Iterator

from .model import Piece, Square

__all__ = ["Board", "BoardView", "Bounds"]

Bounds = tuple[tuple[int, int], tuple[int, int]]  # ((xmin, ymin), (xmax, ymax)), inclusive

_CHESS_LINES = ((1, 0), (0, 1), (1, 1), (1, -1))
_NEIGHBOURS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
_BLOCK = 8   # the side of a block of the index of pieces next to squares (see _Near)
_PASSING_CHECKS = frozenset({"fresh", "capturable"})   # check states that move on when the piece stays


def _is_transient(piece: Piece) -> bool:
    """Whether the piece's state moves on by itself at the next update: a fresh or capturable check
    state, a disabled piece, an energy pawn (it bursts), a harpy with cargo (it must drop it)."""
    return piece.disabled or piece.energy or piece.carrying is not None or piece.check in _PASSING_CHECKS


@lru_cache(maxsize=1024)  # a ruleset has a few dozen steps; every ray walk asks again
def _line_direction(step: tuple[int, int]) -> tuple[tuple[int, int], int]:
    """The canonical primitive direction of a step and the step's signed length along it."""
    dx, dy = step
    g = gcd(dx, dy)
    ux, uy = dx // g, dy // g
    if ux < 0 or (ux == 0 and uy < 0):
        return (-ux, -uy), -g
    return (ux, uy), g


@lru_cache(maxsize=1024)
def _line_of(step: tuple[int, int]) -> tuple[tuple[int, int], int, int, int]:
    """The line of a step and the signed change of position along it per step."""
    (ux, uy), length = _line_direction(step)
    return (ux, uy), ux, uy, length * (ux * ux + uy * uy)


class _Near:
    """For the pieces of some kinds, those at one of ``offsets`` from each square (by default next
    to it: Chebyshev distance 1), by block of _BLOCK x _BLOCK squares: block -> square -> pieces.
    The pieces themselves, not their ids: a question costs no lookup in the map of every piece by id
    (on a 500,000-piece board each is a trip to memory), and a piece changed in place is changed
    here too (:meth:`replace`). A board and its copies share the blocks; ``mine`` are those this
    board may change in place, the others are copied the first time it changes them (as the
    owners' dicts, see Board._take)."""

    __slots__ = ("letters", "offsets", "blocks", "mine")

    def __init__(self, letters: frozenset[str], blocks: dict, mine: set,
                 offsets: Iterable[tuple[int, int]] = _NEIGHBOURS) -> None:
        self.letters = letters
        self.offsets = tuple(offsets)
        self.blocks: dict[tuple[int, int], dict[Square, tuple[Piece, ...]]] = blocks
        self.mine: set[tuple[int, int]] = mine

    def _own(self, key: tuple[int, int]) -> dict[Square, tuple[Piece, ...]]:
        """The block ``key``, which this board may change in place: made if missing, copied if shared."""
        block = self.blocks.get(key)
        if block is None or key not in self.mine:
            block = self.blocks[key] = {} if block is None else dict(block)
            self.mine.add(key)
        return block

    def add(self, piece: Piece) -> None:
        x, y = piece.square
        for dx, dy in self.offsets:
            square = (x + dx, y + dy)
            block = self._own((square[0] // _BLOCK, square[1] // _BLOCK))
            block[square] = block.get(square, ()) + (piece,)

    def discard(self, piece: Piece) -> None:
        x, y = piece.square
        for dx, dy in self.offsets:
            square = (x + dx, y + dy)
            key = (square[0] // _BLOCK, square[1] // _BLOCK)
            block = self._own(key)
            rest = tuple(p for p in block[square] if p.id != piece.id)
            if rest:
                block[square] = rest
            else:
                del block[square]
                if not block:
                    del self.blocks[key]

    def replace(self, piece: Piece) -> None:
        """Put a changed version of a piece (same id, square and kind) in place of the one held."""
        x, y = piece.square
        for dx, dy in self.offsets:
            square = (x + dx, y + dy)
            block = self._own((square[0] // _BLOCK, square[1] // _BLOCK))
            block[square] = tuple(piece if p.id == piece.id else p for p in block[square])

    def copy(self) -> "_Near":
        """The same index for a copy of the board: the blocks are shared, and from now on neither
        board may change one in place."""
        self.mine = set()
        return _Near(self.letters, dict(self.blocks), set(), self.offsets)


class Board:
    """Pieces by id, by square and by line. Mutable; :meth:`copy` before changing a shared one."""

    __slots__ = ("bounds", "_pieces", "_at", "_lines", "_owned", "_kinds", "_counts", "_owned_kinds", "_mine",
                 "_transient", "_near")

    def __init__(self, pieces: Iterable[Piece] = (), bounds: Bounds | None = None) -> None:
        self.bounds = bounds
        self._pieces: dict[int, Piece] = {}
        self._at: dict[Square, tuple[Piece, ...]] = {}         # immutable tuples: `at` hands them out
        # kind letter -> ids, for the kinds asked about (of_kind: a ruleset's royal kind), in the
        # order of _pieces; not every kind, so that a copy of a 500,000-piece board does not copy
        # half a million ids for kinds nobody lists (see of_kind)
        self._kinds: dict[str, dict[int, None]] = {}
        self._counts: dict[str, int] = {}                         # kind letter -> pieces
        self._owned: dict[str | None, dict[int, None]] = {}   # owner -> ids, in insertion order
        self._owned_kinds: dict[str | None, dict[str, int]] = {}   # owner -> kind letter -> pieces
        # The owners whose two dicts above this board may change in place: the others' are shared
        # with a copy (see copy()) and are copied the first time this board changes them.
        self._mine: set[str | None] = set()
        self._transient: dict[int, None] = {}                   # ids of the pieces _is_transient() holds for
        # direction -> line key -> sorted positions along the line of occupied squares (an array of
        # machine integers, see _positions)
        self._lines: dict[tuple[int, int], dict[int, "array[int] | list[int]"]] = {}
        self._near: dict[object, _Near] = {}                # see keep_near
        for piece in pieces:   # all at once: the line lists are sorted once, not grown square by square
            self._store(piece)
        for direction in _CHESS_LINES:
            self._line_index(direction)

    # ----------------------------------------------------------------- queries
    def __len__(self) -> int:
        return len(self._pieces)

    def __iter__(self) -> Iterator[Piece]:
        return iter(self._pieces.values())

    def __contains__(self, piece_id: int) -> bool:
        return piece_id in self._pieces

    def get(self, piece_id: int) -> Piece:
        return self._pieces[piece_id]

    def at(self, square: Square) -> tuple[Piece, ...]:
        """Every piece on a square (usually none or one; several after a collision)."""
        return self._at.get(square, ())

    def around(self, square: Square, offsets: Iterable[tuple[int, int]]) -> list[Piece]:
        """Every piece on the squares at these offsets from a square, offset by offset: the
        neighbourhood questions of the abilities ask eight squares in one call."""
        x, y = square
        get = self._at.get
        found: list[Piece] = []
        for dx, dy in offsets:
            here = get((x + dx, y + dy))
            if here:
                found.extend(here)
        return found

    def near(self, letters: frozenset[str], square: Square, offsets: frozenset[tuple[int, int]] | None = None
             ) -> tuple[Piece, ...] | None:
        """The pieces of these kinds next to a square (Chebyshev distance 1, in no set order), or
        with ``offsets`` those from whose square one of the offsets lands on this one, in one lookup;
        or None when this board keeps no such index (see :meth:`keep_near`): ask ``around``."""
        index = self._near.get(letters if offsets is None else (letters, offsets))
        if index is None:
            return None
        x, y = square
        block = index.blocks.get((x // _BLOCK, y // _BLOCK))
        return block.get(square, ()) if block is not None else ()

    def keeps_near(self, letters: frozenset[str], offsets: frozenset[tuple[int, int]] | None = None) -> bool:
        """Whether this board keeps the index :meth:`near` answers from for these kinds and offsets."""
        return (letters if offsets is None else (letters, offsets)) in self._near

    def keep_near(self, letters: frozenset[str], offsets: frozenset[tuple[int, int]] | None = None) -> None:
        """Keep from now on which pieces of these kinds stand next to each square, or at one of
        ``offsets`` from it (:meth:`near`: ask with the same ``offsets``). Made once, in the number
        of these pieces; then it follows every change of this board and passes to its copies, so a
        game's later boards have it without making it again."""
        key = letters if offsets is None else (letters, offsets)
        if key in self._near:
            return
        index = _Near(letters, {}, set(), _NEIGHBOURS if offsets is None else sorted(offsets))
        for piece in self._pieces.values():   # once (of_kind would keep these kinds' ids in every copy)
            if piece.kind in letters:
                index.add(piece)
        self._near[key] = index   # complete before any reader sees it

    def owned_by(self, owner: str | None) -> list[Piece]:
        """The pieces of one owner (None: neutral pieces), without scanning the board."""
        ids = self._owned.get(owner)
        return [self._pieces[i] for i in ids] if ids else []

    def owns(self, owner: str | None) -> bool:
        """Whether the owner has any piece on the board."""
        return bool(self._owned.get(owner))

    def owns_kind(self, owner: str | None, letter: str) -> bool:
        """Whether the owner has a piece of this kind on the board (a king, say), in one lookup
        however large the owner's army."""
        kinds = self._owned_kinds.get(owner)
        return kinds is not None and letter in kinds

    def kinds_owned(self, owner: str | None) -> dict[str, int]:
        """How many pieces of each kind the owner has on the board (kind letter -> count, no zero
        counts), without listing them: a player's material is a few kinds, not their whole army. A
        new dict each call, since the board's own is shared with its copies."""
        kinds = self._owned_kinds.get(owner)
        return dict(kinds) if kinds else {}

    def of_kind(self, letter: str) -> list[Piece]:
        """The pieces of one kind, in the order the board holds them. The first question about a
        kind scans the board once; from then on this board and its copies keep that kind's pieces
        (megachess asks about its royal kind at every update; other kinds are hardly ever asked
        about)."""
        ids = self._kinds.get(letter)
        if ids is None:
            if not self._counts.get(letter):
                return []
            ids = {p.id: None for p in self._pieces.values() if p.kind == letter}
            self._kinds[letter] = ids   # complete before any reader sees it
        return [self._pieces[i] for i in ids]

    def count_of_kind(self, letter: str) -> int:
        """How many pieces of one kind are on the board, without listing them."""
        return self._counts.get(letter, 0)

    def transient(self) -> list[Piece]:
        """The pieces whose state moves on by itself between updates (fresh or capturable, disabled,
        energy pawns, harpies with cargo), without scanning the board: the steps that move them on
        cost in these pieces, not in the board."""
        return [self._pieces[i] for i in self._transient]

    def occupied(self, square: Square) -> bool:
        return square in self._at

    def squares(self) -> Iterable[Square]:
        return self._at.keys()

    def in_bounds(self, square: Square) -> bool:
        if self.bounds is None:
            return True
        (x0, y0), (x1, y1) = self.bounds
        return x0 <= square[0] <= x1 and y0 <= square[1] <= y1

    def occupied_along(self, origin: Square, step: tuple[int, int], limit: int | None = None
                       ) -> Iterator[tuple[int, Square]]:
        """Occupied squares ``origin + k*step`` for k = 1, 2, ... in order, as ``(k, square)``.

        Uses the line index, so the cost grows with the pieces on the line, not the distance.
        Squares between multiples of ``step`` (a nightrider's or a dabbaba-rider's leaps) are
        skipped. ``limit`` caps k.
        """
        if limit is not None and limit < 1:
            return  # nothing to look at: never index a new direction for it
        direction, ux, uy, stride = _line_of(step)
        index = self._lines.get(direction)
        if index is None:
            index = self._line_index(direction)
        x, y = origin
        positions = index.get(uy * x - ux * y)
        if not positions:
            return
        start = ux * x + uy * y
        sx, sy = step
        # stride: the signed change of position per step
        if stride > 0:
            i, end, delta = bisect_right(positions, start), len(positions), 1
        else:
            i, end, delta = bisect_left(positions, start) - 1, -1, -1
        while i != end:
            k, rest = divmod(positions[i] - start, stride)
            if limit is not None and k > limit:
                return
            if not rest:
                yield k, (x + k * sx, y + k * sy)
            i += delta

    def bounding_box(self) -> Bounds | None:
        """The smallest box holding every piece, or None for an empty board."""
        if not self._at:
            return None
        xs = [s[0] for s in self._at]
        ys = [s[1] for s in self._at]
        return (min(xs), min(ys)), (max(xs), max(ys))

    # ----------------------------------------------------------------- changes
    def add(self, piece: Piece) -> None:
        if self._store(piece):
            self._index_square(piece.square)

    def _store(self, piece: Piece) -> bool:
        """Add a piece to every index but the line lists; whether its square was empty."""
        if piece.id in self._pieces:
            raise ValueError(f"piece id {piece.id} is already on the board")
        self._pieces[piece.id] = piece
        owner = piece.owner
        if owner not in self._mine:
            self._take(owner)
        self._owned[owner][piece.id] = None
        kind = piece.kind
        self._counts[kind] = self._counts.get(kind, 0) + 1
        ids = self._kinds.get(kind)
        if ids is not None:
            ids[piece.id] = None
        kinds = self._owned_kinds[owner]
        kinds[piece.kind] = kinds.get(piece.kind, 0) + 1
        if _is_transient(piece):
            self._transient[piece.id] = None
        if self._near:
            for index in self._near.values():
                if piece.kind in index.letters:
                    index.add(piece)
        here = self._at.get(piece.square)
        if here is None:
            self._at[piece.square] = (piece,)
            return True
        self._at[piece.square] = here + (piece,)
        return False

    def remove(self, piece_id: int) -> Piece:
        piece = self._pieces.pop(piece_id)
        owner = piece.owner
        if owner not in self._mine:
            self._take(owner)
        del self._owned[owner][piece_id]
        left = self._counts[piece.kind] - 1
        if left:
            self._counts[piece.kind] = left
        else:
            del self._counts[piece.kind]
        ids = self._kinds.get(piece.kind)
        if ids is not None:
            del ids[piece_id]
        kinds = self._owned_kinds[owner]
        left = kinds[piece.kind] - 1
        if left:
            kinds[piece.kind] = left
        else:
            del kinds[piece.kind]
        self._transient.pop(piece_id, None)
        if self._near:
            for index in self._near.values():
                if piece.kind in index.letters:
                    index.discard(piece)
        rest = tuple(p for p in self._at[piece.square] if p.id != piece_id)
        if rest:
            self._at[piece.square] = rest
        else:
            del self._at[piece.square]
            self._unindex_square(piece.square)
        return piece

    def replace(self, piece: Piece) -> None:
        """Store a changed version of a piece (same id), moving it if its square changed."""
        old = self._pieces[piece.id]
        if old.square == piece.square and old.owner == piece.owner and old.kind == piece.kind:
            self._pieces[piece.id] = piece
            if _is_transient(piece):
                self._transient[piece.id] = None
            else:
                self._transient.pop(piece.id, None)
            if self._near:
                for index in self._near.values():
                    if piece.kind in index.letters:
                        index.replace(piece)
            here = self._at[piece.square]
            self._at[piece.square] = (piece,) if len(here) == 1 else tuple(
                piece if p.id == piece.id else p for p in here)
        else:
            self.remove(piece.id)
            self.add(piece)

    def copy(self) -> "Board":
        """An independent board. The line lists are shared, not copied: they are never changed in
        place (see :meth:`_index_square`), so a copy costs in the number of lines, not pieces; and
        each owner's pieces are shared until either board changes them (:meth:`_take`)."""
        other = Board.__new__(Board)
        other.bounds = self.bounds
        other._pieces = dict(self._pieces)
        other._at = dict(self._at)
        # Each owner's dicts are shared until one of the two boards changes them (_take): an update
        # changes the armies of the players who ordered, not the thousands of others.
        other._owned = dict(self._owned)
        other._owned_kinds = dict(self._owned_kinds)
        other._mine = set()
        self._mine = set()
        other._kinds = {k: dict(ids) for k, ids in self._kinds.items()}
        other._counts = dict(self._counts)
        other._transient = dict(self._transient)
        other._lines = {d: dict(lines) for d, lines in self._lines.items()}
        other._near = {letters: index.copy() for letters, index in self._near.items()}
        return other

    def _take(self, owner: str | None) -> None:
        """Give this board its own copy of an owner's dicts, before changing them in place."""
        ids = self._owned.get(owner)
        self._owned[owner] = dict(ids) if ids is not None else {}
        kinds = self._owned_kinds.get(owner)
        self._owned_kinds[owner] = dict(kinds) if kinds is not None else {}
        self._mine.add(owner)

    # ----------------------------------------------------------------- line index
    def _line_index(self, direction: tuple[int, int]) -> dict[int, "array[int] | list[int]"]:
        index = self._lines.get(direction)
        if index is None:
            lists: dict[int, list[int]] = {}
            ux, uy = direction
            for (x, y) in self._at:
                lists.setdefault(uy * x - ux * y, []).append(ux * x + uy * y)
            index = {key: _positions(sorted(positions)) for key, positions in lists.items()}
            self._lines[direction] = index
        return index

    # A line's positions are replaced, never changed in place, so that copies of the board share
    # them. They are held in an array of machine integers: copying one to add or remove a square
    # copies its bytes, where a list of Python integers touches every integer of the line (a row
    # of a crowded 500,000-piece board holds hundreds of squares).
    def _index_square(self, square: Square) -> None:
        x, y = square
        for (ux, uy), index in self._lines.items():
            key = uy * x - ux * y
            position = ux * x + uy * y
            positions = index.get(key)
            if positions is None:
                index[key] = _positions([position])
            else:
                changed = positions[:]
                try:
                    changed.insert(bisect_left(positions, position), position)
                except (OverflowError, TypeError):  # not a machine integer: the line becomes a list
                    changed = list(positions)
                    changed.insert(bisect_left(positions, position), position)
                index[key] = changed

    def _unindex_square(self, square: Square) -> None:
        x, y = square
        for (ux, uy), index in self._lines.items():
            key = uy * x - ux * y
            positions = index[key]
            if len(positions) == 1:
                del index[key]
            else:
                changed = positions[:]
                del changed[bisect_left(positions, ux * x + uy * y)]
                index[key] = changed


def _positions(values: list[int]) -> "array[int] | list[int]":
    """Sorted positions along a line as an array of 64-bit integers, or as the list itself in the
    rare line whose positions do not fit (a board built by hand beyond the coordinates an order may
    name, or with a square that is not whole numbers); both answer the same indexing, slicing and
    bisection."""
    try:
        return array("q", values)
    except (OverflowError, TypeError):
        return values


class BoardView:
    """A read-only view of a board with some pieces lifted off: by id, or every piece of one square.

    Movement and ability queries accept it in place of a :class:`Board`, so asking "what if this
    piece were not here" (a king's escape, D8's lifted mover, a spirit's target seen as empty)
    never copies a 50,000-piece board.
    """

    __slots__ = ("_board", "_ids", "_square", "_squares")

    def __init__(self, board: Board, lifted_ids: Iterable[int] = (), lifted_square: Square | None = None) -> None:
        self._board = board
        self._ids = frozenset(lifted_ids)
        self._square = lifted_square
        self._squares = {board.get(i).square for i in self._ids if i in board}

    @property
    def bounds(self) -> Bounds | None:
        return self._board.bounds

    def in_bounds(self, square: Square) -> bool:
        return self._board.in_bounds(square)

    def __contains__(self, piece_id: int) -> bool:
        return piece_id not in self._ids and piece_id in self._board and (
            self._square is None or self._board.get(piece_id).square != self._square)

    def get(self, piece_id: int) -> Piece:
        if piece_id not in self:
            raise KeyError(piece_id)
        return self._board.get(piece_id)

    def at(self, square: Square) -> tuple[Piece, ...]:
        if square == self._square:
            return ()
        pieces = self._board.at(square)
        if square in self._squares:
            return tuple(p for p in pieces if p.id not in self._ids)
        return pieces

    def around(self, square: Square, offsets: Iterable[tuple[int, int]]) -> list[Piece]:
        x, y = square
        return [p for dx, dy in offsets for p in self.at((x + dx, y + dy))]

    def near(self, letters: frozenset[str], square: Square, offsets: frozenset[tuple[int, int]] | None = None
             ) -> tuple[Piece, ...] | None:
        found = self._board.near(letters, square, offsets)
        if not found:
            return found
        return tuple(p for p in found if p.id not in self._ids and p.square != self._square)

    def keeps_near(self, letters: frozenset[str], offsets: frozenset[tuple[int, int]] | None = None) -> bool:
        return self._board.keeps_near(letters, offsets)

    def keep_near(self, letters: frozenset[str], offsets: frozenset[tuple[int, int]] | None = None) -> None:
        self._board.keep_near(letters, offsets)

    def occupied(self, square: Square) -> bool:
        return bool(self.at(square))

    def of_kind(self, letter: str) -> list[Piece]:
        return [p for p in self._board.of_kind(letter) if p.id in self]

    def count_of_kind(self, letter: str) -> int:
        return len(self.of_kind(letter))

    def occupied_along(self, origin: Square, step: tuple[int, int], limit: int | None = None
                       ) -> Iterator[tuple[int, Square]]:
        for k, square in self._board.occupied_along(origin, step, limit):
            if square == self._square or (square in self._squares and not self.at(square)):
                continue
            yield k, square
