"""D16 step 1: moves, captures and collisions, in two rounds (D12).

Round 1 resolves every primary action and decides which fallbacks fire; round 2 resolves the final
action set once more from P0 and is final. Within a round: holds (D13), departures, captures of the
pieces that stayed, dodges (D10), then arrivals; several arrivals on one square are handed to the
ruleset's arrivals policy (implosions, RULES 3.4).
"""

from __future__ import annotations

from dataclasses import replace

from .. import economy
from ..economy import Capture
from ..model import Piece, Square, format_square
from ..state import LastMove
from ..update import Order, RoundOutcome, Update
from ..validation import CheckedAction

__all__ = ["movement", "play_round"]


def play_round(update: Update, actions: list[tuple[Order, CheckedAction]]) -> RoundOutcome:
    """Resolve one action set from P0: holds, departures, arrivals and captures."""
    board = update.p0.board
    out = RoundOutcome(actions)
    if update.policies.captures.holds:
        for order, action in actions:  # D13: a capturable piece targeted by an enemy is held
            for victim_id in action.victims:
                victim = board.get(victim_id)
                if (victim.check == "capturable" or victim.energy) and victim.owner != order.player:
                    out.held.add(victim_id)
    for order, action in actions:
        if action.kind == "move" and action.piece_id in out.held:
            continue
        out.executed.append((order, action))
        if action.kind == "move" and action.special != "unpossess":
            out.departed.add(action.piece_id)
    for order, action in out.executed:
        if not action.capture:
            continue
        stayed = [v for v in action.victims if v not in out.departed]
        for victim_id in stayed:
            out.captured.setdefault(victim_id, [])
            if order.player not in out.captured[victim_id]:
                out.captured[victim_id].append(order.player)
        if not stayed:
            key = (order.player, order.index)
            out.failed.add(key)
            victim = min((board.get(v) for v in action.victims), key=lambda p: p.canonical_key)  # D2: not storage order
            moved_to = next((a.target for o, a in out.executed if a.piece_id == victim.id), None)
            out.fail_reason[key] = (f"the square was empty, the {update.kind_name(victim)} dodged to "
                                    f"{format_square(moved_to)}" if moved_to else
                                    f"the square was empty, the {update.kind_name(victim)} had left")
    for order, action in actions:  # a capturable piece's move fails when the piece is captured
        if action.kind == "move" and action.piece_id in out.captured:
            key = (order.player, order.index)
            out.failed.add(key)
            out.fail_reason.setdefault(key, "the capturable piece was captured")
    return out


def movement(update: Update) -> None:
    """D12: round 1 decides which fallbacks fire; round 2 is final."""
    first = play_round(update, [(o, o.line.action) for o in update.orders])
    final_actions = []
    for order in update.orders:
        key = (order.player, order.index)
        if order.line.fallback is not None and key in first.failed:
            final_actions.append((order, order.line.fallback))
            update.report.add("fallback", [order.player], why=first.fail_reason[key],
                              first=order.line.action.canonical, order=order.line.fallback.canonical)
        else:
            final_actions.append((order, order.line.action))
    outcome = play_round(update, final_actions)
    update.outcome = outcome
    apply_movement(update, outcome)


def apply_movement(update: Update, outcome: RoundOutcome) -> None:
    board = update.board
    p0 = update.p0.board
    held_orders = [(o, a) for o, a in outcome.actions if a.kind == "move" and a.piece_id in outcome.held]
    for order, action in held_orders:
        update.report.add("order", [order.player], order=action.canonical, outcome="held")
    # Departures
    moving: list[tuple[Order, CheckedAction]] = [(o, a) for o, a in outcome.executed if a.kind == "move"]
    for order, action in moving:
        piece = p0.get(action.piece_id)
        if action.special == "unpossess":
            host = board.get(piece.id)
            board.replace(replace(host, spirit=False))
            update.changed.add(host.square)  # the host loses its spirit's moves (step 10)
        else:
            update.remove(piece.id)
    dropping = {a.piece_id for o, a in outcome.executed if a.kind == "drop"}
    resigning = {o.player for o, a in outcome.executed if a.kind == "resign"}
    update.resigners |= resigning
    # Captures of pieces that stayed
    for victim_id, capturers in sorted(outcome.captured.items(), key=lambda kv: p0.get(kv[0]).canonical_key):
        victim = board.get(victim_id)
        update.remove(victim_id)
        extra = ()
        if victim.spirit:
            extra = (victim,)
        update.captures.append(Capture(victim, tuple(sorted(capturers)), economy.piece_value(update, victim), extra))
        update.report.add("capture", sorted(capturers), by=tuple(sorted(capturers)), owner=victim.owner,
                          kind="energy pawn" if victim.energy else update.kind_name(victim), at=victim.square)
        if update.ruleset.pieces[victim.kind].royal:
            update.lose_king(victim, tuple(sorted(capturers)))
        if victim.carrying and victim.id not in dropping:  # P30: a drop at the same moment succeeds
            update.report.add("cargo_lost", [victim.owner], cargo=update.ruleset.pieces[victim.carrying].name.lower(),
                              why="its harpy was captured")
    # Arrivals
    arrivals_at: dict[Square, list[tuple[str, str]]] = {}
    for order, action in sorted(outcome.executed, key=lambda oa: (oa[0].player, oa[0].index)):
        piece = arrive(update, order, action)
        if piece is not None:
            arrivals_at.setdefault(piece.square, []).append((order.player, update.kind_name(piece)))
    for square, arrivals in sorted(arrivals_at.items()):
        if len(arrivals) > 1:
            update.policies.arrivals.collide(update, square, arrivals)


def arrive(update: Update, order: Order, action: CheckedAction) -> Piece | None:
    """Put an executed action's piece on its target square; report the order's outcome."""
    p0 = update.p0.board
    player = order.player
    outcome = update.outcome
    if action.kind == "resign":
        update.resigners.add(player)
        update.report.add("order", [player], order="resign", outcome="played")
        return None
    if action.kind == "move":
        original = p0.get(action.piece_id)
        target = action.target
        if action.special == "unpossess":
            spirit_kind = action.action.letter
            piece = Piece(update.new_id(), spirit_kind, player, target, moved=True, placed=original.placed)
            update.report.add("unpossession", [player], at=target)
            origin = original.square
        else:
            piece = replace(original, square=target, moved=True,
                            step_used=original.step_used or _used_once(update, original, target))
            origin = original.square
        update.add(piece)
        update.arrivals[piece.id] = origin
        update.moves_made.append(LastMove(origin, target))
        if action.action.promote:
            update.promotions.append((piece.id, action.action.promote))
        if action.cost:
            update.costs.append((player, action.cost, f"promotion of the pawn on {format_square(target)}"))
        _report_move(update, order, action, outcome)
        return piece
    square = action.target
    if action.kind == "place":
        piece = Piece(update.new_id(), action.action.letter, player, square, placed=update.number)
        if not (update.p0.board.owns(player) or update.p0.players[player].king_lost_at is not None):
            economy.join(update, player)  # not a respawn: the player enters (RULES 4, 5.1; P31, P33)
        update.players[player].king_lost_at = None
        update.players[player].king_lost_square = None
        update.report.add("placement", [player], at=square)
    elif action.kind == "drop":
        carrier = update.board.get(action.piece_id) if action.piece_id in update.board else None
        cargo = action.action.letter
        if carrier is not None:
            update.board.replace(replace(carrier, carrying=None, carrying_since=None))
        piece = Piece(update.new_id(), cargo, player, square, placed=update.number)
        update.report.add("drop", [player], cargo=update.ruleset.pieces[cargo].name.lower(), at=square)
    elif action.kind == "obstacle":
        piece = Piece(update.new_id(), action.action.letter, None, square, placed=update.number)
        update.report.add("obstacle", [player], at=square)
    else:
        piece = Piece(update.new_id(), action.action.letter, player, square, disabled=True, placed=update.number)
        update.costs.append((player, action.cost, f"generated {update.ruleset.pieces[piece.kind].name.lower()} "
                                                  f"on {format_square(square)}"))
        update.report.add("order", [player], order=action.canonical, outcome="played")
    update.add(piece)
    update.arrivals[piece.id] = None
    return piece


def _used_once(update: Update, piece: Piece, target: Square) -> bool:
    """Megachess bishop: did this move use the once-in-a-life step rather than its usual moves?"""
    kind = update.ruleset.pieces[piece.kind]
    if kind.once is None:
        return False
    dx, dy = target[0] - piece.square[0], target[1] - piece.square[1]
    return any(r.step == (dx, dy) for r in kind.once.rays) and not any(
        r.step == (dx, dy) or (r.range != 1 and _along(dx, dy, r.step)) for r in kind.movement.rays)


def _along(dx: int, dy: int, step: tuple[int, int]) -> bool:
    sx, sy = step
    return sx * dy == sy * dx and (sx * dx + sy * dy) > 0


def _report_move(update: Update, order: Order, action: CheckedAction, outcome: RoundOutcome) -> None:
    key = (order.player, order.index)
    if action.capture:
        taken = sorted((v for v in action.victims if v in outcome.captured),
                       key=lambda v: update.p0.board.get(v).canonical_key)  # not storage order (D2)
        if taken:
            what = ", ".join(update.describe(update.p0.board.get(v)) for v in taken)
            update.report.add("order", [order.player], order=action.canonical, outcome="captured", what=what)
        else:
            update.report.add("order", [order.player], order=action.canonical, outcome="dodged",
                              what=outcome.fail_reason.get(key, "the target had left"))
        return
    update.report.add("order", [order.player], order=action.canonical, outcome="played")
