"""D16 steps 9 and 10: generated pieces are enabled; check states (RULES 3.2) and implosion squares."""

from __future__ import annotations

from .. import checks
from ..abilities import position_for
from ..update import Update

__all__ = ["enable", "check_states"]


def enable(update: Update) -> None:
    """D16 step 9: pieces generated in the previous update may now capture."""
    number = update.number
    for piece in [p for p in update.board.transient() if p.disabled and p.placed != number]:
        update.board.replace(piece.enabled())
        update.changed.add(piece.square)


def check_states(update: Update) -> None:
    """D16 step 10: check states (RULES 3.2) and the implosion squares of this update.

    When P0's check states are the engine's own, only the pieces a change may have covered or
    uncovered are evaluated (:func:`checks.affected_pieces`); every other piece in check follows
    the table (:func:`checks.advance`). A property test holds this equal to the full recomputation.
    """
    final = position_for(update.ruleset, update.new_state())
    p0 = update.p0_position
    board, board0 = update.board, update.p0.board
    if update.policies.captures.check_states:
        if update.p0.checks_consistent and not update.events_changed:
            see_through: set = set()
            changed, protection = checks.changed_squares(p0, final, update.changed, see_through)
            suspects: dict = {}
            ids, attacked = checks.affected_pieces(p0, final, changed, update.arrivals, update.changed, suspects,
                                                   see_through)
            ids |= protection
            # a spent piece that stays spent needs nothing: only the transient ones move on
            advance, replace = checks.advance, board.replace
            for piece in [p for p in board.transient() if p.check != "none" and p.id not in ids]:
                state = advance(piece)
                if state != piece.check:
                    replace(piece.with_check(state))
        else:
            ids, attacked, suspects, protection = {p.id for p in board}, set(), {}, set()
        for piece_id in sorted(ids):
            piece = board.get(piece_id)
            before = board0.get(piece_id).check if piece_id in board0 else "none"
            seen = piece_id in attacked or None
            if (seen is None and before == "none" and piece_id in suspects and piece_id not in protection
                    and piece_id not in update.arrivals and piece.square not in update.changed):
                # not attacked in P0 (a consistent `none`, the same protection): attacked now only
                # by an attack that started, whose attacker is among its suspects
                seen = checks.attacked_by_suspects(final, piece, suspects[piece_id])
            state = checks.evaluate(p0, final, piece, update.arrivals, before, seen)
            if state != piece.check:
                board.replace(piece.with_check(state))
    update.implosions = update.policies.arrivals.implosion_squares(update)
    for square in sorted(update.implosions):
        update.report.add("implosion", [], at=square)
