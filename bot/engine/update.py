"""The working context of one update: P0, the position being changed, and what the steps learn.

The steps of a pipeline (``bot/engine/steps``) read and change one :class:`Update` in their order;
:meth:`Update.new_state` is the position after them. Every random draw comes from
:func:`rng_for` (INTERFACES.md), drawn in the order of the steps from lists in canonical order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Mapping

from . import events
from .abilities import position_for
from .board import Board
from .economy import Capture, Ledger
from .model import Piece, Player, Square, format_square
from .policies import Policies, policies_for
from .report import Report
from .ruleset import Ruleset
from .state import GameState, LastMove
from .validation import CheckedAction, CheckedLine, Validator

__all__ = ["Update", "Order", "RoundOutcome", "rng_for"]


def rng_for(seed: int | str, update: int) -> random.Random:
    """INTERFACES.md: every random draw of an update comes from this generator."""
    return random.Random(f"{seed}:{update}")


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

    def __init__(self, ruleset: Ruleset, state: GameState, seed: int | str,
                 submissions: Mapping[str, str | Iterable[str]] | None = None,
                 policies: Policies | None = None) -> None:
        self.ruleset = ruleset
        self.policies = policies if policies is not None else policies_for(ruleset)
        self.submissions: Mapping[str, str | Iterable[str]] = submissions or {}
        self.p0 = state
        self.number = state.update
        self.seed = seed
        self.rng = rng_for(seed, state.update)
        self.report = Report(state.update)
        self.players: dict[str, Player] = {n: p.copy() for n, p in state.players.items()}
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
    def validator(self) -> Validator:
        """The check of the submissions against P0 (a family's update may check by its own rules)."""
        return Validator(self.ruleset, self.p0, self.p0_position)

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
