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

from typing import Iterable, Mapping

from .model import Piece, Square
from .abilities import lifted
from .movement import Position, attacked as is_attacked, attackers, attacks

__all__ = ["next_check_state", "evaluate", "advance", "recompute_all", "affected_pieces", "exposed"]

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
    """D8: an enemy attacked the square in P0, with the arriving piece lifted from ``origin``
    (effects included: a lifted zombie freezes no one), and the same enemy still attacks it in the
    final position."""
    target = piece.square
    position = p0
    if origin is not None:
        mover = next((p for p in p0.board.at(origin) if p.id == piece.id), None)
        if mover is not None:
            position = lifted(p0, mover)
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
    attacked = is_attacked(final, piece.square,
                           by=lambda p: p.owner is not None and final.enemies(p.owner, piece.owner))
    arrived = piece.id in arrivals
    if not attacked:
        return "none"
    return next_check_state(before, True, arrived, arrived and exposed(p0, final, piece, arrivals[piece.id]))


def advance(piece: Piece) -> str:
    """The new state of a piece that stayed and whose attacked status did not change."""
    if piece.energy:
        return "capturable"
    return "none" if piece.check == "none" else _NEXT_IF_STAYED[piece.check]


def recompute_all(p0: Position, final: Position, arrivals: Mapping[int, Square | None],
                  before: Mapping[int, str]) -> dict[int, str]:
    """Every piece's new check state, from scratch."""
    return {p.id: evaluate(p0, final, p, arrivals, before.get(p.id, "none")) for p in final.board}


def _walk(final: Position, square: Square, step: tuple[int, int], limit) -> list[Piece]:
    """The pieces from ``square`` along ``step`` up to the first square no one can see through."""
    found: list[Piece] = []
    for _, sq in final.board.occupied_along(square, step, limit):
        found.extend(final.board.at(sq))
        if not final.passable(sq):
            break
    return found


def _slides_along(pieces, step: tuple[int, int], p0: Position, final: Position) -> bool:
    """Whether any of these pieces captures by sliding along ``step`` (in P0 or in the final position)."""
    for piece in pieces:
        for position in (final, p0):
            if piece.kind in position.ruleset.pieces and step in position._capture_reach(piece):
                return True
    return False


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def _capture_leaps(p0: Position, final: Position, pieces) -> set[tuple[int, int]]:
    steps: set[tuple[int, int]] = set()
    for piece in pieces:
        position = final if piece.id in final.board and final.board.get(piece.id) == piece else p0
        steps.update(r.step for r in position.rays(piece) if r.capture and r.range == 1)
    return steps


def affected_pieces(p0: Position, final: Position, changed: Iterable[Square],
                    arrivals: Mapping[int, Square | None]) -> set[int]:
    """Pieces whose *attacked* status may differ from a consistent P0: arrivals and the pieces a
    change could have uncovered or covered. Every other piece is attacked exactly as in P0, so its
    new state follows from the table alone (:func:`advance`).

    A changed square is any square whose occupants or whose occupants' powers changed (departures,
    arrivals, removals, promotions, pieces whose disabled, frozen or transparency status changed).
    """
    board = final.board
    ids: set[int] = set(i for i in arrivals if i in board)
    _, slides = final._capture_steps()
    _, p0_slides = p0._capture_steps()
    all_slides = dict(slides)
    for step, limit in p0_slides.items():
        old = all_slides.get(step, 0)
        all_slides[step] = None if (old is None or limit is None) else max(old, limit)
    lame = {(_sign(r.step[0]), _sign(r.step[1]), max(abs(r.step[0]), abs(r.step[1])))
            for kind in final.ruleset.pieces.values() for r in kind.movement.rays if r.capture and r.lame}
    for square in set(changed):
        x, y = square
        here = (*board.at(square), *p0.board.at(square))
        ids.update(p.id for p in board.at(square))
        # Leaps: a leaper that stood or stands here may attack other squares now; a lame leap
        # passing over this square may have been opened or closed.
        for step in _capture_leaps(p0, final, here):
            ids.update(p.id for p in board.at((x + step[0], y + step[1])))
        for ux, uy, length in lame:
            for m in range(1, length):
                ids.update(p.id for p in board.at((x + m * ux, y + m * uy)))
        # Lines: a piece on one side of this square can have gained or lost an attack through it
        # only if a piece on the other side (or here, before or after) captures along that line.
        for step, limit in all_slides.items():
            behind = _walk(final, square, (-step[0], -step[1]), limit)
            if _slides_along((*behind, *here), step, p0, final):
                ids.update(p.id for p in _walk(final, square, step, limit))
    return ids
