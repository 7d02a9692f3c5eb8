"""Order legality against the position players saw (RULES.md 3.1 and each ruleset's own rules).

This module is the one place that decides whether a piece may make a move. ``moves`` and order
validation both ask it, so the list a player sees and the orders the bot accepts never disagree.
"""

from __future__ import annotations

from dataclasses import replace

from .board import Board
from .model import Piece, Square
from .movement import DEFAULT_WINDOW, Position, attackers, destinations, reach, Reach

__all__ = ["legal_destinations", "move_reach", "square_attacked_by_enemy"]


def square_attacked_by_enemy(position: Position, square: Square, owner: str, lifted: Piece | None = None) -> bool:
    """Whether an enemy of ``owner`` attacks ``square``, with ``lifted`` taken off the board first
    (a king cannot hide from a rook behind itself)."""
    if lifted is not None:
        board: Board = position.board.copy()
        board.remove(lifted.id)
        position = replace(position, board=board, _rays_cache={}, _steps_cache=None)
    return bool(attackers(position, square, by=lambda p: position.enemies(p.owner, owner)))


def _king_rule(position: Position, piece: Piece) -> bool:
    """Arena (RULES 5.2): a king may not move onto a square an enemy attacks in P0."""
    return position.ruleset.resolution.king_check_rules and position.kind(piece).royal


def move_reach(position: Position, piece: Piece, target: Square) -> Reach:
    """Whether ``piece`` may move to ``target`` under the ruleset's rules, and why not."""
    answer = reach(position, piece, target)
    if answer.ok and _king_rule(position, piece) and square_attacked_by_enemy(position, target, piece.owner, piece):
        return Reach(False, answer.capture, reason=f"a king may not move onto ({target[0]},{target[1]}): "
                                                   "an enemy piece attacks it (RULES 5.2, normal check rules)")
    return answer


def legal_destinations(position: Position, piece: Piece, window: int | None = DEFAULT_WINDOW) -> list[Square]:
    """Sorted squares validation would accept for a plain move or capture by ``piece``."""
    if position.board.bounds is not None:
        window = None
    squares = destinations(position, piece, window)
    if _king_rule(position, piece):
        squares = [s for s in squares if not square_attacked_by_enemy(position, s, piece.owner, piece)]
    return squares
