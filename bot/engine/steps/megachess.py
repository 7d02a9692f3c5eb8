"""The steps of a megachess update, in the order of D71 (RULES.md 5.3).

    validate      every submission against P0 (D62, D65, D72)            steps/validate.py
    1 moves       the moving team's moves: bounces, captures, bonus collection (D57, D58)
    2 hand-overs  a captured king's remaining army goes to its capturer (D61)
    3 resignations                                                       steps/removals.py
    4 joins       the kings in name order, then the starter armies (D62, D63)
    5 kingdoms    the moving team's fade counters; faded pieces leave (D60)
    6 scores      captures, kings, +1 per update in the game (D54, D66)
    7 bonus spawn a neutral bonus piece every few updates (D59)

Each step is a function of :class:`MegachessUpdate`, the update's working context with what
megachess adds: the moving team, the pieces that moved, the kings captured, the joins.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from typing import Iterable, Mapping

from ..economy import Capture
from ..megachess import (STARTER_ARMY, EmptySquares, MegachessValidator, Teams, bonus_kinds, once_step_used,
                         outside_kingdom)
from ..model import Piece, format_square
from ..policies import Policies
from ..report import PRIVATE
from ..ruleset import Ruleset
from ..standings import piece_worth
from ..state import GameState, LastMove
from ..update import Order, Update
from ..validation import CheckedAction

__all__ = ["MegachessUpdate", "moves", "hand_overs", "joins", "kingdoms", "scores", "bonus_spawn"]


class MegachessUpdate(Update):
    """One megachess update's working context."""

    def __init__(self, ruleset: Ruleset, state: GameState, seed: int | str,
                 submissions: Mapping[str, str | Iterable[str]] | None = None,
                 policies: Policies | None = None) -> None:
        super().__init__(ruleset, state, seed, submissions, policies)
        self.teams = Teams(ruleset, state)
        self.moving_team = self.teams.moving()
        self.moved: set[int] = set()                                  # pieces whose move was executed
        self.king_captures: list[tuple[Piece, str]] = []              # (the king as it stood, its capturer)
        self.joins: list[tuple[Order, CheckedAction]] = []

    def validator(self) -> MegachessValidator:
        return MegachessValidator(self.ruleset, self.p0, self.p0_position)

    def side(self, player: str) -> str:
        """Who bounces with whom (D57): the team, or the player where there is none."""
        team = self.p0.players[player].team
        return team if team is not None else f"player {player}"


# ============================================================================= 1: moves
def moves(update: MegachessUpdate) -> None:
    """D71 (1): the moving team's moves. Pieces of one team moving onto one square all stay where
    they were (D57); the others leave, take what stands on their target (enemies do not move, so
    a capture always succeeds) and arrive; a piece arriving on a bonus piece collects it (D58)."""
    p0 = update.p0.board
    movers: list[tuple[Order, CheckedAction]] = []
    for order in update.orders:
        action = order.line.action
        if action.kind == "resign":
            update.resigners.add(order.player)
            update.report.add("order", [order.player], order="resign", outcome="played")
        elif action.kind == "place":
            update.joins.append((order, action))
        elif action.kind == "move":
            movers.append((order, action))
    bounced = update.policies.arrivals.turned_back(
        {action.piece_id: (action.target, update.side(order.player)) for order, action in movers})
    _report_bounces(update, [(o, a) for o, a in movers if a.piece_id in bounced])
    executed = sorted(((o, a) for o, a in movers if a.piece_id not in bounced), key=lambda oa: (oa[0].player, oa[0].index))
    for order, action in executed:
        update.remove(action.piece_id)
    for order, action in executed:
        taken = []
        for victim_id in sorted(action.victims, key=lambda v: p0.get(v).canonical_key):
            if victim_id not in update.board:
                continue
            victim = update.remove(victim_id)
            taken.append(victim)
            update.captures.append(Capture(victim, (order.player,), piece_worth(update.ruleset, victim)))
            update.report.add("capture", [order.player, victim.owner], by=(order.player,), owner=victim.owner,
                              kind=update.kind_name(victim), at=victim.square)
            if update.ruleset.pieces[victim.kind].royal:
                update.king_captures.append((victim, order.player))
        _arrive(update, order, action, taken)


def _arrive(update: MegachessUpdate, order: Order, action: CheckedAction, taken: list[Piece]) -> None:
    original = update.p0.board.get(action.piece_id)
    origin, target = original.square, action.target
    bonuses = [p for p in update.board.at(target) if p.owner is None] if action.special == "collect" else []
    for bonus in sorted(bonuses, key=lambda p: p.canonical_key):
        update.remove(bonus.id)
    piece = replace(original, square=target, moved=True,
                    step_used=original.step_used or once_step_used(update.ruleset, original, target))
    update.add(piece)
    update.moved.add(piece.id)
    update.arrivals[piece.id] = origin
    update.moves_made.append(LastMove(origin, target))
    for bonus in bonuses:     # D58: the bonus becomes the collector's piece where the collector stood
        prize = Piece(update.new_id(), bonus.kind, order.player, origin, placed=update.number)
        update.add(prize)
        update.arrivals[prize.id] = None
        update.report.add("collection", [order.player], kind=update.kind_name(piece), at=target,
                          bonus=update.kind_name(bonus), origin=origin)
    if taken:
        what = ", ".join(update.describe(victim) for victim in taken)
        update.report.add("order", [order.player], order=action.canonical, outcome="captured", what=what)
    else:
        update.report.add("order", [order.player], order=action.canonical, outcome="played")


def _report_bounces(update: MegachessUpdate, bounced: list[tuple[Order, CheckedAction]]) -> None:
    """D57, D72: a bounce is reported on its square, and to each owner as an order that did not happen."""
    by_square: dict = {}
    for order, action in bounced:
        by_square.setdefault(action.target, []).append((order, action))
    for square, group in sorted(by_square.items()):
        pieces = sorted((update.p0.board.get(a.piece_id) for _, a in group), key=lambda p: p.canonical_key)
        update.report.add("bounce", sorted({o.player for o, _ in group}), at=square,
                          pieces=" and ".join(update.describe(p) for p in pieces))
        for order, action in sorted(group, key=lambda oa: (oa[0].player, oa[0].index)):
            update.report.add("order", [order.player], order=action.canonical, outcome="cancelled",
                              what=f"bounce: {len(group)} pieces of your team moved onto {format_square(square)}, "
                                   f"so each stayed where it was (D57)")


# ============================================================================= 2: hand-overs
def hand_overs(update: MegachessUpdate) -> None:
    """D71 (2), D61: a player whose king was captured leaves the game (eliminated); what they still
    have after every capture of the update goes to the capturer, keeping ``moved``, ``fade`` and
    ``step_used``. When two players took kings of one victim, the first of them by name takes the
    army (P52)."""
    capturers: dict[str, list[str]] = {}
    for king, capturer in update.king_captures:
        capturers.setdefault(king.owner, []).append(capturer)
    for victim in sorted(capturers):
        heir = min(capturers[victim])
        army = sorted(update.board.owned_by(victim), key=lambda p: p.canonical_key)
        for piece in army:
            update.board.replace(replace(piece, owner=heir))
            update.changed.add(piece.square)
        record = update.players[victim]
        record.status = "eliminated"
        record.king_lost_at = record.king_lost_square = None
        update.resigners.discard(victim)       # nothing is left for a resignation to remove
        update.report.add("army", [heir, victim], victim=victim, count=len(army))


# ============================================================================= 4: joins
def joins(update: MegachessUpdate) -> None:
    """D71 (4), D62, D63: joiners in name order, each to the then-smaller team; a join that no longer
    qualifies is refused now (naming the team it would have joined); a king whose square was taken
    by the moves, or chosen by another joiner, does not land (reported). Then each king's starter
    army, on the squares empty now that are no joiner's king square and claimed by no other army
    (P55)."""
    if not update.joins:
        return
    validator = update.validator()
    sizes = update.teams.sizes()
    chosen = Counter(action.target for _, action in update.joins)
    landed: list[tuple[str, tuple[int, int]]] = []
    royal = update.ruleset.royal_letter
    for order, action in sorted(update.joins, key=lambda oa: oa[0].player):
        player, square = order.player, action.target
        team = update.teams.smaller(sizes)
        problem = validator.join_problem(square, team, settled=True)
        if problem is not None:
            update.report.add("refused", [player], PRIVATE, text=action.canonical, rule="D62, D71",
                              reason=f"your join was refused at the update: {problem}")
            continue
        why = None
        if chosen[square] > 1:
            why = f"another player chose {format_square(square)} to join on too, so neither king lands there"
        elif update.board.occupied(square):
            what = update.describe(update.board.at(square)[0])
            why = f"{format_square(square)} was taken by this update's moves ({what} stands there)"
        if why is not None:
            update.report.add("join_failed", [player], PRIVATE, at=square, why=why)
            continue
        king = Piece(update.new_id(), royal, player, square, placed=update.number)
        update.add(king)
        update.arrivals[king.id] = None
        record = update.players[player]
        record.status, record.team = "active", team
        record.king_lost_at = record.king_lost_square = record.rejoin_after = None
        record.captured = Fraction(0)
        start = update.ruleset.economy.start
        update.ledger.credit(player, start - record.balance,
                             f"joined: a new player's score starts at {start} (D64)")
        sizes[team] = sizes.get(team, 0) + 1
        landed.append((player, square))
    claims = Counter((x + dx, y + dy) for _, (x, y) in landed for (dx, dy), _ in STARTER_ARMY)
    for player, (x, y) in landed:
        count = 0
        for (dx, dy), letter in STARTER_ARMY:
            square = (x + dx, y + dy)
            if claims[square] > 1 or square in chosen or update.board.occupied(square) or not update.board.in_bounds(square):
                continue
            piece = Piece(update.new_id(), letter, player, square, placed=update.number)
            update.add(piece)
            update.arrivals[piece.id] = None
            count += 1
        update.report.add("join", [player], team=update.players[player].team, at=(x, y), count=count)


# ============================================================================= 5: kingdoms
def kingdoms(update: MegachessUpdate) -> None:
    """D71 (5), D60: only the moving team's non-king pieces, after any hand-over and join: inside
    their owner's kingdom (or moved this update) the counter is 0; else it rises by 1, and a piece
    whose counter exceeds its time to live is removed (nobody scores)."""
    ruleset = update.ruleset
    royal = ruleset.royal_letter
    kings: dict[str | None, list[Piece]] = {}
    for king in update.board.of_kind(royal) if royal is not None else ():
        kings.setdefault(king.owner, []).append(king)
    members = sorted(name for name, player in update.players.items()   # no turn order: everyone moves
                     if update.moving_team is None or player.team == update.moving_team)
    for name in members:
        for piece in sorted(update.board.owned_by(name), key=lambda p: p.canonical_key):
            if piece.kind == royal:
                continue
            if piece.id in update.moved or not outside_kingdom(ruleset, kings.get(name, ()), piece.square):
                fade = 0
            else:
                fade = piece.fade + 1
            ttl = ruleset.pieces[piece.kind].fade_ttl
            if ttl is not None and fade > ttl:
                update.remove(piece.id)
                update.report.add("faded", [name], kind=update.kind_name(piece), at=piece.square, ttl=ttl)
            elif fade != piece.fade:
                update.board.replace(replace(piece, fade=fade))


# ============================================================================= 6: scores
def scores(update: MegachessUpdate) -> None:
    """D71 (6), D54, D66: each capture scores its value (a king 10, and 100 more), ``captured``
    grows by the value; then +1 for every active player who owns a piece now."""
    economy = update.ruleset.economy
    for capture in update.captures:
        capturer = capture.capturers[0]
        victim = capture.piece
        update.players[capturer].captured += capture.value
        amount = capture.value * economy.capture_reward
        what = f"captured {update.describe(victim)}"
        if update.ruleset.pieces[victim.kind].royal:
            amount += economy.king_bonus
            what += f": {capture.value} + {economy.king_bonus} for a king"
        update.ledger.credit(capturer, amount, what)
    for name in sorted(update.players):
        if update.players[name].status == "active" and update.board.owns(name):
            update.ledger.credit(name, economy.points_per_update, "one more update in the game (D54)")


# ============================================================================= 7: bonus spawn
def bonus_spawn(update: MegachessUpdate) -> None:
    """D71 (7), D59: after updates 5, 10, 15, ... a bonus piece appears on an empty square of the
    smallest rectangle holding every piece: ``rng.choice(empty squares)``, then ``rng.choice(kinds)``
    (P58: nothing is drawn on an empty board or a full rectangle)."""
    every = update.ruleset.teams.bonus_every
    if not every or update.number % every:
        return
    box = update.board.bounding_box()
    if box is None:
        return
    empty = EmptySquares(box[0], box[1], update.board.squares())
    if not len(empty):
        return
    square = update.rng.choice(empty)
    kind = update.rng.choice(bonus_kinds(update.ruleset))
    bonus = Piece(update.new_id(), kind, None, square, placed=update.number)
    update.add(bonus)
    update.report.add("bonus", [], kind=update.ruleset.pieces[kind].name.lower(), at=square)
