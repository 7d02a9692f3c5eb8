"""D16 step 4: promotions, energy-pawn bursts (D29), possession and the harpy's cargo (RULES 8)."""

from __future__ import annotations

from dataclasses import replace

from ..notation import ENERGY
from ..update import Update

__all__ = ["transformations"]


def transformations(update: Update) -> None:
    """D16 step 4: promotions, energy-pawn bursts (D29), possession and the harpy's cargo."""
    board = update.board
    for piece_id, promote in update.promotions:  # in arrival order: (player, line), never by id (D2)
        if piece_id not in board:
            continue
        pawn = board.get(piece_id)
        if promote == ENERGY:
            board.replace(replace(pawn, energy=True))
            update.report.add("promotion", [pawn.owner], at=pawn.square, to="energy")
        else:
            board.replace(replace(pawn, kind=promote))
            update.report.add("promotion", [pawn.owner], at=pawn.square,
                              to=update.ruleset.pieces[promote].name.lower())
        update.changed.add(pawn.square)
    for pawn in sorted((p for p in update.p0.board.transient() if p.energy and p.id in board),
                       key=lambda p: p.canonical_key):
        current = board.get(pawn.id)
        update.remove(pawn.id)
        amount = update.ruleset.promotion.energy_burst
        update.report.add("burst", [pawn.owner], at=current.square, amount=amount)
        if pawn.owner in update.players and update.players[pawn.owner].status == "active":
            update.ledger.credit(pawn.owner, amount, "energy pawn burst (D29)")
    outcome = update.outcome
    for order, action in outcome.executed if outcome else ():
        if action.special not in ("possess", "pickup") or action.piece_id not in board:
            continue
        mover = board.get(action.piece_id)
        hosts = [p for p in board.at(mover.square) if p.id != mover.id and p.owner == mover.owner]
        if len(hosts) != 1:
            continue  # the friend moved away or was taken: the mover simply arrived
        host = hosts[0]
        if action.special == "possess":
            update.remove(mover.id)
            board.replace(replace(host, spirit=True))
            update.arrivals.pop(mover.id, None)
            update.report.add("possession", [mover.owner], host=update.kind_name(host), at=host.square)
        else:
            update.remove(host.id)
            board.replace(replace(mover, carrying=host.kind, carrying_since=update.number))
            update.report.add("pickup", [mover.owner], cargo=update.kind_name(host), at=host.square)
    for harpy in sorted((p for p in board.transient() if p.carrying and p.carrying_since is not None
                         and p.carrying_since + 2 <= update.number), key=lambda p: p.canonical_key):
        if harpy.carrying_since == update.number:
            continue
        board.replace(replace(harpy, carrying=None, carrying_since=None))
        update.report.add("cargo_lost", [harpy.owner], cargo=update.ruleset.pieces[harpy.carrying].name.lower(),
                          why="it was not dropped within two updates")
