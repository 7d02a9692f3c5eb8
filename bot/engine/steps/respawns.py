"""D16 step 7: automatic king respawns (RULES 4; sandbox: RULES 5.1)."""

from __future__ import annotations

from ..model import Piece, Square
from ..update import Update

__all__ = ["respawns", "respawn_square"]


def respawns(update: Update) -> None:
    """At the end of the third update after the loss, a kingless player's king comes back on the
    square where it died, or on a random free square at distance 1, then 2, ... (RULES 4)."""
    after = update.policies.spawns.king_respawn_after
    royal = update.ruleset.royal_letter
    if not after or royal is None:
        return
    owns_kind = update.board.owns_kind
    # only players who lost their king may respawn: found in one pass, then in name order (the
    # random draws are made in that order)
    kingless = sorted(name for name, player in update.players.items() if player.king_lost_at is not None)
    for name in kingless:
        player = update.players[name]
        if (player.status != "active" or owns_kind(name, royal)
                or update.number < player.king_lost_at + after or player.king_lost_square is None):
            continue
        square = respawn_square(update, player.king_lost_square)
        if square is None:
            continue
        king = Piece(update.new_id(), royal, name, square, placed=update.number)
        update.add(king)
        update.arrivals[king.id] = None
        player.king_lost_at = None
        player.king_lost_square = None
        update.report.add("respawn", [name], at=square)


def respawn_square(update: Update, home: Square) -> Square | None:
    board = update.board

    def free(square: Square) -> bool:
        return board.in_bounds(square) and not board.occupied(square)

    if free(home):
        return home
    first = update.ruleset.economy.respawn_first_distance
    x, y = home
    for distance in range(1, 10_000):
        if distance < first:
            continue
        low = 1 if distance == first else distance
        ring = sorted((x + dx, y + dy) for dx in range(-distance, distance + 1) for dy in range(-distance, distance + 1)
                      if low <= max(abs(dx), abs(dy)) <= distance and free((x + dx, y + dy)))
        if ring:
            return update.rng.choice(ring)
        if board.bounds is not None and distance > 2 * max(abs(c) for corner in board.bounds for c in corner) + 2:
            return None
    return None
