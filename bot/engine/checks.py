"""Check states (RULES.md 3.2, D8, D9, D23-D25): who is attacked at the end of an update.

Every piece carries a check state, recomputed at step 10 from the final position::

    state before | piece at end of update                          | new state
    any          | not attacked by an enemy                        | none
    any          | arrived onto an exposed square                  | capturable
    any          | arrived onto a square that is not exposed       | fresh
    none         | stayed, attacked                                | fresh
    fresh        | stayed, attacked                                | capturable
    capturable   | stayed, attacked                                | spent
    spent        | stayed, attacked                                | spent

A square is *exposed* for an arriving piece when some enemy piece attacked it in P0 (with the
arriving piece lifted from its starting square) and the same enemy piece, wherever it now stands,
still attacks it in the final position (D8). An energy pawn is always capturable; a piece next to
a friendly angel is never in check (D25).

:func:`recompute_all` evaluates every piece. :func:`affected_pieces` finds the only pieces whose
answer can differ from P0's when the previous states were themselves computed by the engine: the
pieces near a changed square, the pieces already in check, and the arrivals. A property test
proves the two agree.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Mapping

from .model import Piece, Square
from .movement import Position, attackers, attacks

__all__ = ["next_check_state", "evaluate", "recompute_all", "affected_pieces", "exposed"]

_NEXT_IF_STAYED = {"none": "fresh", "fresh": "capturable", "capturable": "spent", "spent": "spent"}


def next_check_state(before: str, attacked: bool, arrived: bool, exposed_square: bool) -> str:
    """The table of RULES 3.2."""
    if not attacked:
        return "none"
    if arrived:
        return "capturable" if exposed_square else "fresh"
    return _NEXT_IF_STAYED[before]


def _enemy_attackers(position: Position, piece: Piece, square: Square | None = None) -> list[Piece]:
    return attackers(position, square or piece.square,
                     by=lambda p: p.owner is not None and position.enemies(p.owner, piece.owner))


def exposed(p0: Position, final: Position, piece: Piece, origin: Square | None) -> bool:
    """D8: an enemy attacked the square in P0, the arriving piece lifted from ``origin``, and the
    same enemy still attacks it in the final position."""
    target = piece.square
    position = p0
    if origin is not None:
        lifted = next((p for p in p0.board.at(origin) if p.id == piece.id), None)
        if lifted is not None:
            base_transparent, base_passable = p0.transparent, p0.passable
            position = replace(
                p0,
                transparent=lambda blocker, mover: blocker.id == lifted.id or base_transparent(blocker, mover),
                passable=lambda square: (square == origin and len(p0.board.at(square)) == 1) or base_passable(square),
                _rays_cache={}, _steps_cache=None)
    for enemy in _enemy_attackers(position, piece, target):
        if enemy.id == piece.id or enemy.id not in final.board:
            continue
        if attacks(final, final.board.get(enemy.id), target):
            return True
    return False


def evaluate(p0: Position, final: Position, piece: Piece, arrivals: Mapping[int, Square | None],
             before: str) -> str:
    """The new check state of one piece of the final position."""
    if piece.owner is None:
        return "none"
    if piece.energy:
        return "capturable"
    if final.protected(piece):
        return "none"
    attacked = bool(_enemy_attackers(final, piece))
    arrived = piece.id in arrivals
    if not attacked:
        return "none"
    return next_check_state(before, True, arrived, arrived and exposed(p0, final, piece, arrivals[piece.id]))


def recompute_all(p0: Position, final: Position, arrivals: Mapping[int, Square | None],
                  before: Mapping[int, str]) -> dict[int, str]:
    """Every piece's new check state, from scratch."""
    return {p.id: evaluate(p0, final, p, arrivals, before.get(p.id, "none")) for p in final.board}


def affected_pieces(p0: Position, final: Position, changed: Iterable[Square],
                    arrivals: Mapping[int, Square | None]) -> set[int]:
    """Pieces whose check state may differ from a consistent P0: arrivals, pieces in check in P0
    that are still on the board, and pieces a change could have uncovered or covered.

    A changed square is any square whose occupants or whose occupants' powers changed (departures,
    arrivals, removals, promotions, pieces whose disabled, frozen or transparency status changed).
    """
    board = final.board
    ids: set[int] = set(i for i in arrivals if i in board)
    ids.update(p.id for p in p0.board if p.check != "none" and p.id in board)
    leaps, slides = final._capture_steps()
    _, p0_slides = p0._capture_steps()
    all_slides = dict(slides)
    for step, limit in p0_slides.items():
        old = all_slides.get(step, 0)
        all_slides[step] = None if (old is None or limit is None) else max(old, limit)
    for square in set(changed):
        x, y = square
        ids.update(p.id for p in board.at(square))
        for sx, sy in leaps:
            ids.update(p.id for p in board.at((x + sx, y + sy)))
            ids.update(p.id for p in board.at((x - sx, y - sy)))
        for step, limit in all_slides.items():
            for k, sq in board.occupied_along(square, step, limit):
                ids.update(p.id for p in board.at(sq))
                if not final.passable(sq):
                    break
    return ids
