"""The simultaneous update (RULES.md section 3), as a pipeline of named steps in the order of D16.

    resolve(ruleset, state, orders, seed) -> (new_state, report)

is pure and deterministic: the same position, orders and seed give the same result whatever the
order of players, pieces or orders (D2, D3). Every random draw comes from
``random.Random(f"{seed}:{update}")`` in the order of the steps, from lists in canonical order.

The steps::

    validate        every submission against P0 (RULES 3.1); refusals go to their owners
    1 movement      two rounds (D12): holds (D13), dodges (D10), captures, collisions (D14)
    2 annihilation  last update's implosion squares (D15)
    3 resignations
    4 transformations  promotions, energy bursts, possession, the harpy's cargo
    5 economy       rewards, king penalties, costs, regeneration
    6 debts         negative balances (D17, D30)
    7 respawns      automatic king respawns
    8 events        events end and start, their effects apply
    9 enable        `disabled` cleared on pieces generated in the previous update
    10 checks       check states and new implosion squares

The pipeline takes its policies from the ruleset (collisions, orders per update, economy), so a
ruleset with other collision rules plugs in a policy here rather than forking the steps.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Callable, Iterable, Mapping

from . import checks, economy, events
from .abilities import position_for
from .board import Board
from .economy import Capture, Ledger
from .model import Piece, Player, Square, format_square
from .notation import ENERGY, OrderError
from .report import PRIVATE, Report
from .ruleset import Ruleset, load_preset, preset_names
from .state import GameState, LastMove
from .validation import CheckedAction, CheckedLine, Validator

__all__ = ["resolve", "Update", "rng_for", "missing_rules", "playable_presets"]

#: Ruleset policies whose steps this pipeline does not have yet, in a player's words. A preset that
#: needs one (arena's M.A.D. collisions, megachess's alternating teams) loads, and its orders are
#: read and checked, but no game of it can be created until its step is written.
_NOT_YET = {
    ("collisions", "mad"): "M.A.D. collisions",
    ("collisions", "bounce"): "bouncing collisions",
    ("turns", "teams_alternate"): "teams moving in turn",
    ("turns", "alternate"): "players moving in turn",
}


def missing_rules(ruleset: Ruleset) -> list[str]:
    """What of ``ruleset`` the pipeline cannot carry out yet, in words; empty when it can be played."""
    wanted = (("collisions", ruleset.resolution.collisions), ("turns", ruleset.orders.turns))
    return [_NOT_YET[policy] for policy in wanted if policy in _NOT_YET]


def playable_presets() -> list[str]:
    """The shipped presets a game can be created with: those :func:`missing_rules` finds whole."""
    return [name for name in preset_names() if not missing_rules(load_preset(name))]


def rng_for(seed: int | str, update: int) -> random.Random:
    """INTERFACES.md: every random draw of an update comes from this generator."""
    return random.Random(f"{seed}:{update}")


def resolve(ruleset: Ruleset, state: GameState, orders: Mapping[str, str | Iterable[str]], seed: int | str
            ) -> tuple[GameState, Report]:
    """Resolve the update ``state.update`` with every player's submission (text as typed)."""
    update = Update(ruleset, state, seed)
    for step in PIPELINE:
        step(update, orders)
    return update.new_state(), update.report


# ============================================================================= the update in progress
@dataclass(frozen=True, slots=True)
class Order:
    """One line of a valid submission as it enters a round: its action and its fallback."""

    player: str
    index: int
    line: CheckedLine


@dataclass(slots=True)
class RoundOutcome:
    """What one round (D12) decided."""

    actions: list[tuple[Order, CheckedAction]]
    held: set[int] = field(default_factory=set)
    executed: list[tuple[Order, CheckedAction]] = field(default_factory=list)
    departed: set[int] = field(default_factory=set)
    captured: dict[int, list[str]] = field(default_factory=dict)      # victim id -> capturers
    failed: set[tuple[str, int]] = field(default_factory=set)         # lines whose action failed
    fail_reason: dict[tuple[str, int], str] = field(default_factory=dict)


class Update:
    """The mutable working state of one update; the steps below read and change it."""

    def __init__(self, ruleset: Ruleset, state: GameState, seed: int | str) -> None:
        self.ruleset = ruleset
        self.p0 = state
        self.number = state.update
        self.seed = seed
        self.rng = rng_for(seed, state.update)
        self.report = Report(state.update)
        self.players: dict[str, Player] = {n: replace(p) for n, p in state.players.items()}
        self.board: Board = state.board.copy()
        self.next_id = state.next_id
        self.p0_position = position_for(ruleset, state)
        self.effects = events.EventEffects(ruleset, state.events)
        self.ledger = Ledger(self.players, self.report, ruleset.economy.currency)
        self.orders: list[Order] = []
        self.executed_players: set[str] = set()
        self.outcome: RoundOutcome | None = None
        self.arrivals: dict[int, Square | None] = {}       # piece id -> origin (None: new on the board)
        self.collision_squares: set[Square] = set()
        self.captures: list[Capture] = []
        self.kings_lost: list[tuple[Piece, tuple[str, ...]]] = []
        self.changed: set[Square] = set()
        self.costs: list[tuple[str, Fraction, str]] = []
        self.resigners: set[str] = set()
        self.promotions: list[tuple[int, str]] = []
        self.moves_made: list[LastMove] = []
        self.implosions: frozenset[Square] = frozenset()
        self.events_state = (state.events, state.past_events, state.marked)
        self.events_changed = False

    # ------------------------------------------------------------------ helpers used by the steps
    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def kind_name(self, piece: Piece) -> str:
        return self.ruleset.pieces[piece.kind].name.lower()

    def describe(self, piece: Piece) -> str:
        owner = f"{piece.owner}'s " if piece.owner else ""
        name = "energy pawn" if piece.energy else self.kind_name(piece)
        return f"{owner}{name} on {format_square(piece.square)}"

    def remove(self, piece_id: int) -> Piece:
        piece = self.board.remove(piece_id)
        self.changed.add(piece.square)
        return piece

    def add(self, piece: Piece) -> None:
        self.board.add(piece)
        self.changed.add(piece.square)

    def joined(self, name: str) -> bool:
        player = self.players[name]
        return self.board.owns(name) or player.king_lost_at is not None or self.p0.board.owns(name)

    def lose_king(self, king: Piece, capturers: tuple[str, ...]) -> None:
        self.kings_lost.append((king, capturers))
        owner = self.players.get(king.owner)
        if owner is not None and owner.status == "active":
            owner.king_lost_at = self.number
            owner.king_lost_square = king.square
            respawn = self.ruleset.economy.king_respawn_after
            if respawn and king.owner not in self.resigners:  # a resigner's king never comes back
                self.report.add("king_lost", [king.owner], at=king.square, respawn=self.number + respawn)

    def new_state(self) -> GameState:
        active, past, marked = self.events_state
        return GameState(board=self.board, players=self.players, update=self.number + 1,
                         implosions=self.implosions, moved_last_update=tuple(self.moves_made),
                         length=self.p0.length, events=active, past_events=past, powerups=self.p0.powerups,
                         marked=marked, next_id=self.next_id, checks_consistent=True)


# ============================================================================= validation
def step_validate(update: Update, orders: Mapping[str, str | Iterable[str]]) -> None:
    """Check every submission against P0; refusals are reported privately to their owners."""
    validator = Validator(update.ruleset, update.p0, update.p0_position)
    for player in sorted(orders):
        submitted = orders[player]
        text = submitted if isinstance(submitted, str) else "\n".join(submitted)
        try:
            lines = validator.check_submission(player, text)
        except OrderError as error:
            update.report.add("refused", [player], PRIVATE, text=text, reason=error.reason, rule=error.rule)
            continue
        update.executed_players.add(player)
        update.orders.extend(Order(player, i, line) for i, line in enumerate(lines))


# ============================================================================= step 1: movement
def play_round(update: Update, actions: list[tuple[Order, CheckedAction]]) -> RoundOutcome:
    """Resolve one action set from P0: holds, departures, arrivals and captures."""
    board = update.p0.board
    out = RoundOutcome(actions)
    if update.ruleset.resolution.holds:
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


def step_movement(update: Update, orders) -> None:
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
    arrivals_at: dict[Square, list[str]] = {}
    for order, action in sorted(outcome.executed, key=lambda oa: (oa[0].player, oa[0].index)):
        piece = arrive(update, order, action)
        if piece is not None:
            arrivals_at.setdefault(piece.square, []).append(f"{order.player}'s {update.kind_name(piece)}")
    for square, arrivals in sorted(arrivals_at.items()):
        if len(arrivals) > 1:
            update.collision_squares.add(square)
            update.report.add("collision", sorted({a.split("'s ")[0] for a in arrivals}), at=square,
                              arrivals=tuple(arrivals))


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


# ============================================================================= steps 2-4
def step_annihilation(update: Update, orders) -> None:
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


def step_resignations(update: Update, orders) -> None:
    for name in sorted(update.resigners):
        for piece in update.board.owned_by(name):
            update.remove(piece.id)
        player = update.players[name]
        player.status = "resigned"
        player.king_lost_at = None
        update.report.add("resignation", [name])


def step_transformations(update: Update, orders) -> None:
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


# ============================================================================= steps 5-7
def step_economy(update: Update, orders) -> None:
    economy.capture_rewards(update, update.captures)
    economy.king_penalties(update, update.kings_lost)
    economy.pay_costs(update)
    economy.regenerate(update)


def step_debts(update: Update, orders) -> None:
    economy.settle_debts(update, update.rng)


def step_respawns(update: Update, orders) -> None:
    """At the end of the third update after the loss, a kingless player's king comes back on the
    square where it died, or on a random free square at distance 1, then 2, ... (RULES 4)."""
    after = update.ruleset.economy.king_respawn_after
    royal = update.ruleset.royal_letter
    if not after or royal is None:
        return
    kings = {p.owner for p in update.board.of_kind(royal)}
    for name in sorted(update.players):
        player = update.players[name]
        if (player.status != "active" or player.king_lost_at is None or name in kings
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


# ============================================================================= steps 8-10
def step_events(update: Update, orders) -> None:
    events.step_events(update)


def step_enable(update: Update, orders) -> None:
    """D16 step 9: pieces generated in the previous update may now capture."""
    for piece in [p for p in update.board.transient() if p.disabled and p.placed != update.number]:
        update.board.replace(replace(piece, disabled=False))
        update.changed.add(piece.square)


def step_checks(update: Update, orders) -> None:
    """D16 step 10: check states (RULES 3.2) and the implosion squares of this update.

    When P0's check states are the engine's own, only the pieces a change may have covered or
    uncovered are evaluated (:func:`checks.affected_pieces`); every other piece in check follows
    the table (:func:`checks.advance`). A property test holds this equal to the full recomputation.
    """
    final = position_for(update.ruleset, update.new_state())
    p0 = update.p0_position
    board, board0 = update.board, update.p0.board
    if update.ruleset.resolution.check_states:
        if update.p0.checks_consistent and not update.events_changed:
            changed, protection = checks.changed_squares(p0, final, update.changed)
            ids, attacked = checks.affected_pieces(p0, final, changed, update.arrivals)
            ids |= protection
            # a spent piece that stays spent needs nothing: only the transient ones move on
            for piece in [p for p in board.transient() if p.check != "none" and p.id not in ids]:
                state = checks.advance(piece)
                if state != piece.check:
                    board.replace(piece.with_check(state))
        else:
            ids, attacked = {p.id for p in board}, set()
        for piece_id in sorted(ids):
            piece = board.get(piece_id)
            before = board0.get(piece_id).check if piece_id in board0 else "none"
            state = checks.evaluate(p0, final, piece, update.arrivals, before, piece_id in attacked or None)
            if state != piece.check:
                board.replace(piece.with_check(state))
    update.implosions = frozenset(s for s in update.collision_squares if len(update.board.at(s)) >= 2)
    for square in sorted(update.implosions):
        update.report.add("implosion", [], at=square)


PIPELINE: tuple[Callable[[Update, Mapping], None], ...] = (
    step_validate,
    step_movement,
    step_annihilation,
    step_resignations,
    step_transformations,
    step_economy,
    step_debts,
    step_respawns,
    step_events,
    step_enable,
    step_checks,
)
