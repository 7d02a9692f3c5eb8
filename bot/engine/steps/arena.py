"""The steps of a Chess Arena round (RULES.md 5.2), in the order of D69.

    validate      every submission against P0 (RULES 3.1, D41 to D48)     steps/validate.py
    1 arrivals    moves and placements arrive: normal captures, dodges (D10), M.A.D. and sniping
                  (D49, D50), points scored
    2 power-ups   power-ups taken by lone movers take effect (D46, D47)
    3 resignations                                                        steps/removals.py
    4 pending     new pieces noted for the next round, unplaced ones lost (D48)
    5 winner      D52, D68
    6 spawns      a power-up after rounds 3, 6, 9, ... (D51)

Arena has no check states, no exposure, no ``else`` and no holds (RULES 5.2): every valid move is
played. The working context is an :class:`ArenaUpdate`, the simultaneous update with what a round
of arena learns besides (power-ups, who arrived where, the pieces to place next round).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Iterable, Mapping

from ..arena import (DEFAULT_UPGRADE, POWERUP_EVERY, POWERUP_KINDS, ArenaValidator, Result, new_piece_letters,
                     powerup_words, result, value_of)
from ..model import Piece, Square, format_amount, format_square
from ..policies import Policies
from ..ruleset import Ruleset
from ..state import GameState, LastMove, PowerUp
from ..update import Order, Update
from ..validation import CheckedAction

__all__ = ["ArenaUpdate", "arrivals", "take_powerups", "pending", "winner", "spawn_powerups"]

#: A piece that arrives, with the order that brought it: (order, action, the piece as it stood in P0).
Arrival = tuple[Order, CheckedAction, Piece]


class ArenaUpdate(Update):
    """One arena round's working context: the simultaneous one, plus the power-ups, the pieces that
    arrived on each square and the pieces each player will place next round."""

    def __init__(self, ruleset: Ruleset, state: GameState, seed: int | str,
                 submissions: Mapping[str, str | Iterable[str]] | None = None,
                 policies: Policies | None = None) -> None:
        super().__init__(ruleset, state, seed, submissions, policies)
        self.powerups: list[PowerUp] = sorted(state.powerups, key=lambda p: p.at)
        self.movers_at: dict[Square, list[Arrival]] = {}
        self.new_pending: dict[str, list[str]] = {}
        self.result = Result()

    def validator(self) -> ArenaValidator:
        return ArenaValidator(self.ruleset, self.p0, self.p0_position)

    def value(self, piece: Piece) -> Fraction:
        """D50: a piece's value is its kind's in P0 (a kind changes only at step 2)."""
        return value_of(self.ruleset, piece.kind)

    def score(self, player: str, amount: Fraction, reason: str) -> None:
        """Points and the captured total grow together (D50)."""
        if amount:
            self.players[player].captured += amount
            self.ledger.credit(player, amount, reason)

    def new_state(self) -> GameState:
        state = super().new_state()
        state.powerups = tuple(sorted(self.powerups, key=lambda p: p.at))
        return state


# ============================================================================= 1. arrivals
def arrivals(update: ArenaUpdate) -> None:
    """D69 (1): every valid move and placement arrives at once, from P0.

    On each square: one mover captures whatever stayed there (a piece that did not move, or a piece
    placed this round: sniping, D49) and scores its value; a mover whose victim moved away still
    arrives (D10: "dodged"). Two or more movers meet by M.A.D.: all are destroyed, each of their
    players scores the value of every other arriving piece and, in full, every piece that stayed
    there, whose owner scores nothing (RULES 5.2, D49, D50). Placements meeting with no mover are
    all lost, nobody scores (D49)."""
    p0 = update.p0.board
    actions = [(order, order.line.action) for order in sorted(update.orders, key=lambda o: (o.player, o.index))]
    moves = [(o, a) for o, a in actions if a.kind == "move"]
    update.resigners |= {o.player for o, a in actions if a.kind == "resign"}
    departed = {a.piece_id for _, a in moves}
    movers_at: dict[Square, list[Arrival]] = {}
    placed_at: dict[Square, list[tuple[Order, CheckedAction]]] = {}
    for order, action in moves:
        update.remove(action.piece_id)
        movers_at.setdefault(action.target, []).append((order, action, p0.get(action.piece_id)))
        # every valid move arrives (RULES 5.2), so every one is the round's last move the board shows
        update.moves_made.append(LastMove(p0.get(action.piece_id).square, action.target))
    for order, action in actions:
        if action.kind == "place":
            placed_at.setdefault(action.target, []).append((order, action))
    update.movers_at = movers_at
    for square in sorted(movers_at.keys() | placed_at.keys()):
        movers = movers_at.get(square, [])
        stayed = sorted((p for p in p0.at(square) if p.id not in departed), key=lambda p: p.canonical_key)
        placed = [Piece(update.new_id(), a.action.letter, o.player, square, placed=update.number)
                  for o, a in placed_at.get(square, [])]
        if not movers:
            _placements(update, square, placed)
        elif len(movers) == 1:
            _lone_mover(update, movers[0], stayed, placed, departed)
        else:
            _mad(update, square, movers, stayed, placed)


def _placements(update: ArenaUpdate, square: Square, placed: list[Piece]) -> None:
    if len(placed) == 1:
        piece = placed[0]
        update.add(piece)
        update.arrivals[piece.id] = None
        update.report.add("placed", [piece.owner], kind=update.kind_name(piece), at=square)
        return
    owners = sorted(p.owner for p in placed)
    update.report.add("placements_lost", owners, at=square,
                      pieces=tuple(f"{p.owner}'s {update.kind_name(p)}" for p in sorted(placed, key=lambda p: p.owner)))


def _lone_mover(update: ArenaUpdate, mover: Arrival, stayed: list[Piece], placed: list[Piece],
                departed: set[int]) -> None:
    """One piece arrives: it captures what stayed or was placed there (a normal capture, sniping)."""
    order, action, piece = mover
    player = order.player
    victims = stayed + placed
    for victim in victims:
        if victim.id in update.board:
            update.remove(victim.id)
        update.report.add("capture", [player, victim.owner] if victim.owner else [player], by=(player,),
                          owner=victim.owner, kind=update.kind_name(victim), at=victim.square,
                          sniped=victim.id not in update.p0.board)
    arrived = replace(piece, square=action.target, moved=True)
    update.add(arrived)
    update.arrivals[arrived.id] = piece.square
    if victims:
        what = ", ".join(update.describe(v) for v in victims)
        update.report.add("order", [player], order=action.canonical, outcome="captured", what=what)
    elif action.capture:
        victim = min((update.p0.board.get(v) for v in action.victims), key=lambda p: p.canonical_key)
        where = next((a.target for o, a, p in _all_movers(update) if p.id == victim.id), None)
        gone = f"dodged to {format_square(where)}" if where is not None else "dodged"
        update.report.add("order", [player], order=action.canonical, outcome="dodged",
                          what=f"{update.describe(victim)} {gone} (D10)")
    else:
        update.report.add("order", [player], order=action.canonical, outcome="played")
    for victim in victims:
        update.score(player, update.value(victim), f"captured {update.describe(victim)}")


def _all_movers(update: ArenaUpdate) -> list[Arrival]:
    return [arrival for movers in update.movers_at.values() for arrival in movers]


def _mad(update: ArenaUpdate, square: Square, movers: list[Arrival], stayed: list[Piece],
         placed: list[Piece]) -> None:
    """M.A.D. (RULES 5.2, D49, D50): every arriving piece is destroyed; each arriving player scores
    every other arriving piece and every piece that stayed there, in full."""
    victims = stayed + placed
    for victim in victims:
        if victim.id in update.board:
            update.remove(victim.id)
    arriving = [(order.player, piece) for order, _, piece in movers]
    players = sorted({player for player, _ in arriving} | {v.owner for v in victims if v.owner})
    update.report.add("mad", players, at=square,
                      arrivals=tuple(update.describe(piece) for _, piece in arriving),
                      stayed=tuple(update.describe(v) for v in victims))
    for order, action, _ in movers:
        update.report.add("order", [order.player], order=action.canonical, outcome="destroyed", at=square)
    values = [update.value(piece) for _, piece in arriving]
    stayed_values = [update.value(victim) for victim in victims]
    for (player, piece), value in zip(arriving, values):
        taken = [other for owner, other in arriving if owner != player] + victims
        parts = " + ".join(f"{update.describe(p)} {format_amount(update.value(p))}" for p in taken)
        update.score(player, update.policies.arrivals.meeting_points(value, values, stayed_values),
                     f"M.A.D. on {format_square(square)}: {parts}")


# ============================================================================= 2. power-ups
def take_powerups(update: ArenaUpdate) -> None:
    """D69 (2), D46, D47: a power-up entered by one mover takes effect; by several, it is lost."""
    kept = []
    for powerup in update.powerups:
        movers = update.movers_at.get(powerup.at, [])
        if not movers:
            kept.append(powerup)
            continue
        words = powerup_words(update.ruleset, powerup)
        if len(movers) > 1:
            update.report.add("powerup_lost", sorted({o.player for o, _, _ in movers}), at=powerup.at, what=words)
            continue
        order, action, before = movers[0]
        piece = update.board.get(before.id)
        player = order.player
        royal = update.ruleset.pieces[piece.kind].royal
        if powerup.kind == "new":
            update.new_pending.setdefault(player, []).append(powerup.piece)
            effect = f"a {words} to place next round with +{powerup.piece}(x,y) (D48)"
        elif royal:
            effect = "a king stays a king (D47)"
        elif powerup.kind == "upgrade":
            kind = action.action.promote or DEFAULT_UPGRADE
            update.board.replace(replace(piece, kind=kind))
            effect = f"it becomes a {update.ruleset.pieces[kind].name.lower()}"
        else:
            update.board.replace(replace(piece, kind=update.ruleset.royal_letter))
            effect = "it becomes a king"
        update.report.add("powerup_taken", [player], kind=update.kind_name(piece), at=powerup.at, what=words,
                          effect=effect)
    update.powerups = kept


# ============================================================================= 4. pending pieces
def pending(update: ArenaUpdate) -> None:
    """D69 (4), D48: a piece to place was placed by the round's valid submission (D48 makes it hold
    one placement per pending piece), or is lost; the new pieces taken this round are noted."""
    for name in sorted(update.players):
        player = update.players[name]
        before = update.p0.players[name].pending if name in update.p0.players else ()
        if before and player.status == "active" and name not in update.executed_players:
            kinds = ", ".join(update.ruleset.pieces[letter].name.lower() for letter in before)
            update.report.add("unplaced", [name], kinds=kinds)
        player.pending = tuple(update.new_pending.get(name, ())) if player.status == "active" else ()


# ============================================================================= 5. the winner
def winner(update: ArenaUpdate) -> None:
    """D69 (5): the first to 100 points at the end of the round (D52), or the end of D68."""
    update.result = outcome = result(update.ruleset, update.new_state())
    if not outcome.over:
        return
    if outcome.winners:
        update.report.add("winner", list(outcome.winners), winners=outcome.winners,
                          points=outcome.points, reason=outcome.reason)
    else:
        update.report.add("game_over", [], reason=outcome.reason)


# ============================================================================= 6. spawns
def spawn_powerups(update: ArenaUpdate) -> None:
    """D69 (6), D51: after rounds 3, 6, 9, ..., a power-up on a random square of the board at
    Chebyshev distance at least 2 from every piece, holding no power-up; none when no square
    qualifies, nor after the round that ends the game (P61). Draws (INTERFACES.md): the square,
    then the kind, then a new piece's kind."""
    if update.number % POWERUP_EVERY or update.result.over or update.board.bounds is None:
        return
    near = {(x + dx, y + dy) for p in update.board for x, y in [p.square] for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    near |= {p.at for p in update.powerups}
    (x0, y0), (x1, y1) = update.board.bounds
    squares = [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1) if (x, y) not in near]
    if not squares:
        update.report.add("powerup_none", [])
        return
    square = update.rng.choice(squares)
    kind = update.rng.choice(list(POWERUP_KINDS))
    piece = update.rng.choice(new_piece_letters(update.ruleset)) if kind == "new" else None
    powerup = PowerUp(kind, square, piece)
    update.powerups.append(powerup)
    update.report.add("powerup_spawn", [], at=square, what=powerup_words(update.ruleset, powerup), kind=kind)
