"""D16 steps 2 and 3: last update's implosion squares annihilate (D15, D31); resigners leave (D38)."""

from __future__ import annotations

from ..update import Update

__all__ = ["annihilation", "resignations"]


def annihilation(update: Update) -> None:
    """D15, D31: whatever stands on last update's implosion squares is annihilated, no reward."""
    for square in sorted(update.p0.implosions):
        pieces = sorted(update.board.at(square), key=lambda p: p.canonical_key)
        if not pieces:
            continue
        for piece in pieces:
            update.remove(piece.id)
            if update.ruleset.pieces[piece.kind].royal:
                update.lose_king(piece, ())
        update.report.add("annihilation", sorted({p.owner for p in pieces if p.owner}), at=square,
                          pieces=tuple(update.describe(p) for p in pieces))


def resignations(update: Update) -> None:
    """D16 step 3: a resigner's remaining pieces leave the board (captures on them this update count)."""
    for name in sorted(update.resigners):
        for piece in update.board.owned_by(name):
            update.remove(piece.id)
        player = update.players[name]
        player.status = "resigned"
        player.king_lost_at = None
        player.king_lost_square = None
        update.report.add("resignation", [name])
