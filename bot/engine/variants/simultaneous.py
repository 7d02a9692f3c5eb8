"""The simultaneous family (RULES.md 3, 4, 5.1): everyone orders, every order resolves at once.

The pipeline is data: a tuple of named steps in the order of D16, assembled from the ruleset's
policies (``engine/policies.py``). A step a ruleset does not use is left out of its pipeline rather
than skipped inside the step (no automatic respawns, no check states); a policy (the arrivals on
one square, the submission shape) is handed to the steps through the update's context.
"""

from __future__ import annotations

from functools import cached_property
from typing import Iterable

from .. import events
from ..board import Board
from ..model import Player, format_amount
from ..policies import Policies
from ..standings import Standing, standings
from ..state import GameState
from ..steps import Step
from ..steps.checks import check_states, enable
from ..steps.economy import balances, debts
from ..steps.moves import movement
from ..steps.removals import annihilation, resignations
from ..steps.respawns import respawns
from ..steps.transformations import transformations
from ..steps.validate import validate
from ..validation import OrderCheck, check_order
from .base import (BoardAdditions, Features, Mark, PanelEvent, PanelRow, Seating, StandingsPanel, Verdict,
                   players_out)
from .pipeline import PipelineVariant
from .summary import rules_summary

__all__ = ["SimultaneousVariant", "assemble_pipeline"]

#: The symbols the standings panel explains, by currency: (with a king, without one).
_LEGENDS = {"health": (("💖", "has a king: regenerates"), ("❤️", "no king: no regeneration until one is placed"))}


def assemble_pipeline(policies: Policies) -> tuple[Step, ...]:
    """The steps of one update for these policies, in the order of D16."""
    pipeline = [
        Step("validate", "RULES 3.1", validate),
        Step("movement", "D16 (1), D12", movement),
        Step("annihilation", "D16 (2), D15", annihilation),
        Step("resignations", "D16 (3), D38", resignations),
        Step("transformations", "D16 (4)", transformations),
        Step("balances", "D16 (5)", balances),
    ]
    if policies.debts is not None:
        pipeline.append(Step("debts", "D16 (6), D17", debts))
    if policies.spawns.respawns_kings:
        pipeline.append(Step("respawns", "D16 (7), RULES 4", respawns))
    pipeline += [
        Step("events", "D16 (8), RULES 6", events.step_events),
        Step("enable", "D16 (9)", enable),
        Step("check states", "D16 (10), RULES 3.2", check_states),
    ]
    return tuple(pipeline)


class SimultaneousVariant(PipelineVariant):
    """neisg and sandbox: one order a player, all resolved at once from the position they saw."""

    family = "simultaneous"
    assemble = staticmethod(assemble_pipeline)

    # ------------------------------------------------------------------ seating and set-up
    @cached_property
    def seating(self) -> Seating:
        board = self.ruleset.board
        return Seating(seats_before_start=False, joins_by_placement=True,
                       min_players=board.min_players, max_players=board.max_players)

    @cached_property
    def features(self) -> Features:
        ruleset = self.ruleset
        return Features(
            currency=ruleset.economy.currency,
            secret_orders=ruleset.orders.secret,
            fallbacks=ruleset.orders.fallbacks,
            generation=ruleset.orders.generation and ruleset.generation.allowed,
            resign=ruleset.orders.resign,
            implosions=self.policies.arrivals.implodes,
            events=ruleset.events.events_from is not None and bool(ruleset.events.pool),
            several_lines=self.policies.submission.several_lines,
            pawn=ruleset.promotion.pawn,
            royal=ruleset.royal_letter,
            early_resolution=ruleset.orders.early_resolution,
        )

    def set_up(self, players: Iterable[Player], seed: int | str, length: int | None = None) -> GameState:
        """An empty board: players come in by placing their kings (RULES 4)."""
        players = list(players)
        board = Board(bounds=self.ruleset.bounds_for(len(players)))
        return GameState(board=board, players={p.name: p for p in players}, length=length,
                         seats=tuple(p.name for p in players))

    # ------------------------------------------------------------------ orders
    def may_order(self, state: GameState, player: str) -> str | None:
        return self.policies.turns.may_order(state, player)

    def who_may_order(self, state: GameState) -> list[str]:
        return self.policies.turns.who_may_order(state)

    def check(self, state: GameState, player: str, text: str) -> OrderCheck:
        return check_order(self.ruleset, state, player, text)

    # ------------------------------------------------------------------ results
    def verdict(self, state: GameState) -> Verdict:
        """A simultaneous sandbox game is never won: it runs until its length or a moderator ends it."""
        return Verdict()

    def standings(self, state: GameState) -> list[Standing]:
        return standings(self.ruleset, state)

    def standings_panel(self, state: GameState) -> StandingsPanel:
        currency = self.ruleset.economy.currency
        rows = []
        notes: dict[bool, tuple[str, bool]] = {}     # the note depends on the king only: worked out once each
        for standing in self.standings(state):
            note = notes.get(standing.has_king)
            if note is None:
                note = notes[standing.has_king] = self._regeneration(state, standing)
            label = f"{standing.rank}. {standing.name} ({standing.colour}): {format_amount(standing.score)}"
            rows.append(PanelRow(standing, standing.line(currency), *note, label=label))
        return StandingsPanel(
            title=f"{currency.capitalize()} board", currency=currency, rows=tuple(rows),
            events=self.events_in_force(state), next_event_draw=self.next_event_draw(state),
            legend=_LEGENDS.get(currency, ()),
            ranking="Ranked by score (the cost of the pieces on the board), then value captured, then name.",
            ranking_short="Ranked by score, then captured, then name.",
            line_heading=f"Rank. Player (colour): score --- {currency.capitalize()}",
            label_heading="Rank. Player (colour): score",
            text_heading=f"Rank. Player (colour): score --- {currency.capitalize()} (score: the cost of the "
                         f"player's pieces on the board, king 0)",
            out=players_out(state, lambda player: self._gone(player, state.update)))

    @staticmethod
    def _gone(player: Player, update: int) -> str | None:
        """How a player was put out of the game, for the list under the standings of the position
        before ``update`` (issue 27); a player who resigned or was removed by a moderator (the
        engine's "resigned") is not listed."""
        if player.status != "eliminated":
            return None
        if player.rejoin_after is not None:       # sandbox: removed, back from a later update (P33)
            back = player.rejoin_after + 1
            if update >= back:                    # already allowed: "from update 11" read at 20 was stale
                return "removed (RULES 5.1); may re-join now (P33)"
            return f"removed (RULES 5.1); may re-join from update {back} (P33)"
        return "eliminated (D30)"

    def board_additions(self, state: GameState) -> BoardAdditions:
        marks = [Mark(square, "implosion") for square in sorted(state.implosions)]
        marks += [Mark(square, "hill") for square in sorted(state.marked)]
        return BoardAdditions(marks=tuple(marks))

    def rules_summary(self) -> str:
        return rules_summary(self.ruleset)

    # ------------------------------------------------------------------ events and regeneration
    @property
    def first_event(self) -> int | None:
        return self.ruleset.events.events_from if self.features.events else None

    def event_draws(self, length: int) -> list[int]:
        return [update for update in range(1, length + 1) if events.scheduled(self.ruleset, update, length)]

    def events_left(self, state: GameState) -> int:
        drawn = set(state.past_events)
        return len([name for name in self.ruleset.events.pool if name not in drawn])

    def next_event_draw(self, state: GameState) -> int | None:
        """The update at whose end the next event is drawn, or None when no more will be."""
        rules = self.ruleset.events
        if rules.events_from is None or not rules.pool:
            return None
        first = max(state.update, rules.events_from)
        return next((update for update in range(first, first + rules.every + 1)
                     if events.scheduled(self.ruleset, update, state.length)), None)

    def events_in_force(self, state: GameState) -> tuple[PanelEvent, ...]:
        duration = self.ruleset.events.duration
        rows = []
        for event in sorted(state.events, key=lambda e: (e.started, e.name)):
            ends = event.started + duration
            left = ends - state.update + 1
            if left >= 1:
                squares = tuple(state.marked) if event.name == "King of the Hill" else ()
                rows.append(PanelEvent(event.name, event.started, left, ends,
                                       events.describe_event(self.ruleset, event.name), squares))
        return tuple(rows)

    def _regeneration(self, state: GameState, standing: Standing) -> tuple[str, bool]:
        """What the player's balance regenerates by in the next update, in words, and whether it
        is the warning of a lost king (of the standing, only whether it has a king counts)."""
        economy = self.ruleset.economy
        policy = self.policies.regeneration
        if not policy.ever or economy.regen == 0:
            if economy.points_per_update:
                return f"+{format_amount(economy.points_per_update)} per update", False
            return "none", False
        duration = self.ruleset.events.duration
        active = [e for e in state.events if e.started < state.update <= e.started + duration]
        amount = events.EventEffects(self.ruleset, active).regeneration(economy.regen)
        names = {e.name for e in active}
        why = (" (Harvest)" if "Harvest" in names and amount else
               " (Famine)" if "Famine" in names and not amount else "")
        return policy.note(format_amount(amount), standing.has_king, why)
