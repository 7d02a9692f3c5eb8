"""Our Betza movement against an independent engine: python-chess.

On random 8x8 positions (a Board bounded to ((0,0),(7,7)), file -> x, rank -> y) the destinations of
every knight, bishop, rook, queen and king equal python-chess's pseudo-legal moves of that piece
(neisg has no check rule, so pseudo-legal is the right comparison; castling never arises because the
positions have no castling rights), and the attackers of every square equal python-chess's
(RULES 3.2: a piece also covers the squares of its own friends). Pawns take part as blockers and
targets only: ours always move toward +y, whoever owns them.
"""

from __future__ import annotations

import random

import chess
import pytest

from bot.engine.board import Board
from bot.engine.model import Piece
from bot.engine.movement import Position, attackers, destinations
from bot.engine.ruleset import load_preset

RULESET = load_preset("neisg")
BOUNDS = ((0, 0), (7, 7))
OWNER = {chess.WHITE: "White", chess.BLACK: "Black"}
KINDS = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING]
WEIGHTS = [4, 2, 2, 2, 1, 1]
POSITIONS_PER_SEED = 550
SEEDS = [11, 23, 37, 41]


def random_position(rng: random.Random) -> chess.Board:
    """An empty-to-crowded position: 1 to 40 pieces of random kinds and colours."""
    board = chess.Board(None)
    count = rng.choice([rng.randint(1, 8), rng.randint(8, 24), rng.randint(24, 40)])
    for square in rng.sample(chess.SQUARES, count):
        kind = rng.choices(KINDS, WEIGHTS)[0]
        board.set_piece_at(square, chess.Piece(kind, rng.choice([chess.WHITE, chess.BLACK])))
    board.castling_rights = chess.BB_EMPTY
    board.ep_square = None
    return board


def to_engine(board: chess.Board) -> tuple[Position, dict[int, Piece]]:
    pieces: dict[int, Piece] = {}
    for i, (square, cp) in enumerate(sorted(board.piece_map().items()), start=1):
        pieces[square] = Piece(id=i, kind=cp.symbol().upper(), owner=OWNER[cp.color],
                               square=(chess.square_file(square), chess.square_rank(square)), moved=True)
    return Position(RULESET, Board(pieces.values(), bounds=BOUNDS)), pieces


def to_chess_square(square: tuple[int, int]) -> int:
    return chess.square(square[0], square[1])


def chess_destinations(board: chess.Board, square: int) -> set[int]:
    board.turn = board.piece_at(square).color
    moves = list(board.generate_pseudo_legal_moves(from_mask=chess.BB_SQUARES[square]))
    assert not any(board.is_castling(m) for m in moves)
    return {m.to_square for m in moves}


@pytest.mark.parametrize("seed", SEEDS)
def test_destinations_equal_python_chess_pseudo_legal_moves(seed):
    rng = random.Random(seed)
    compared = 0
    for _ in range(POSITIONS_PER_SEED):
        board = random_position(rng)
        position, pieces = to_engine(board)
        for square, piece in pieces.items():
            if piece.kind == "P":
                continue
            ours = {to_chess_square(s) for s in destinations(position, piece, window=None)}
            theirs = chess_destinations(board, square)
            assert ours == theirs, (
                f"{piece.kind} of {piece.owner} on {chess.square_name(square)} {piece.square}\n{board}\n"
                f"only ours: {sorted(chess.square_name(s) for s in ours - theirs)}\n"
                f"only python-chess: {sorted(chess.square_name(s) for s in theirs - ours)}")
            compared += 1
    assert compared > 5 * POSITIONS_PER_SEED  # the positions really exercised the comparison


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_attackers_equal_python_chess_attackers(seed):
    """RULES 3.2: the squares covered by knights, bishops, rooks, queens and kings, friends' squares
    included, are exactly python-chess's attack sets."""
    rng = random.Random(1000 + seed)
    for _ in range(150):
        board = random_position(rng)
        position, _ = to_engine(board)
        for color, owner in OWNER.items():
            for square in chess.SQUARES:
                xy = (chess.square_file(square), chess.square_rank(square))
                ours = {to_chess_square(p.square) for p in
                        attackers(position, xy, by=lambda p: p.owner == owner and p.kind != "P")}
                theirs = set(board.attackers(color, square) & ~board.pawns)
                assert ours == theirs, f"{owner} attackers of {chess.square_name(square)}\n{board}"


def test_start_position():
    """The opening position: knights jump over the pawns, everything else is shut in."""
    board = chess.Board()
    board.castling_rights = chess.BB_EMPTY
    position, pieces = to_engine(board)
    knight = pieces[chess.G1]
    assert destinations(position, knight, window=None) == [(5, 2), (7, 2)]
    for square in (chess.A1, chess.C1, chess.D1, chess.E1, chess.H8, chess.D8):
        assert destinations(position, pieces[square], window=None) == []
