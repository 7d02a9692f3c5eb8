"""The territory family (RULES.md 5.4): two players, strictly turn based, one turn per update.

Not the simultaneous pipeline: one player acts at a time, and a turn is carried out the moment its
submission is accepted (``engine/territory/turn.py``). The variant answers the program's questions
from there: two seats before the start (the first seated plays Red), the active player alone may
order ("not your turn"; ``check`` accepts ``resign`` from either player, T25), a turn resolves at
its player's first accepted submission (5.4.8), the verdict (the goal, a resignation, 24 quiet
turns), the standings, and what the board image adds (areas, the cycle, reserves, draft area).
"""

from __future__ import annotations

from functools import cached_property
from typing import Collection, Iterable, Mapping

from ..model import Piece, Player, Square, format_square
from ..report import Report, render
from ..ruleset import Ruleset
from ..standings import Standing
from ..state import GameState
from ..territory.layout import GOAL, PLAYERS, TerritoryRules
from ..territory.turn import (QUIET_DRAW, active_player, check_turn, controls, legal_destinations, next_turn,
                              player_of, resolve_turn, set_up, territory_of)
from ..validation import OrderCheck
from .base import (Area, BoardAdditions, CycleSlot, Features, Holding, PanelRow, Seating, StandingsPanel, Variant,
                   Verdict)

__all__ = ["TerritoryVariant"]


class TerritoryVariant(Variant):
    """Territory: the draft-and-place game of seed 003."""

    family = "territory"
    rank_zero_matters = False              # areas, not ranks: its own picture draws no band

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.rules: TerritoryRules = ruleset.family_rules

    # ------------------------------------------------------------------ seating and set-up
    @cached_property
    def seating(self) -> Seating:
        return Seating(seats_before_start=True, joins_by_placement=False, min_players=len(PLAYERS),
                       max_players=len(PLAYERS))

    @cached_property
    def features(self) -> Features:
        return Features(currency="reserve", secret_orders=False, fallbacks=False, generation=False,
                        resign=True, implosions=False, events=False, several_lines=False, pawn=None, royal=None,
                        early_resolution=True, winners=True, direct_messages=True, turn_based=True)

    def new_player(self, name: str, colour: str) -> Player:
        return Player(name=name, colour=colour)

    def set_up(self, players: Iterable[Player], seed: int | str, length: int | None = None) -> GameState:
        """5.4.3's set-up at T = 0: the first seated plays Red, the second Blue; both reserves get
        the same three random kinds and the draft area is filled. ``length`` is kept for the service
        (a territory game ends by its verdict)."""
        state = set_up(self.ruleset, players, seed)
        state.length = length
        return state

    # ------------------------------------------------------------------ orders
    def may_order(self, state: GameState, player: str) -> str | None:
        """Both players may send a submission while the game goes on: the active player's turn, and
        the other's `resign` at any time (T25); ``check`` refuses anything else from the player who
        is not active with "not your turn" (5.4.8, P70)."""
        if territory_of(state).over:
            return "the game is over (T25)"
        if player not in state.players:
            return "you are not a player of this game"
        return None

    def who_may_order(self, state: GameState) -> list[str]:
        """The player whose turn it is (reminders, "who has ordered"); nobody on a skipped turn."""
        active = active_player(self.ruleset, state)
        return [] if active is None or territory_of(state).over else [active]

    def may_resolve_early(self, state: GameState, ordered: Collection[str]) -> bool:
        """A turn ends at the first accepted submission (5.4.8): the active player's, or the other's
        `resign`, the only one ``check`` accepts from them; a skipped turn ends at once (T2)."""
        if territory_of(state).over:
            return False
        return active_player(self.ruleset, state) is None or bool(ordered)

    def check(self, state: GameState, player: str, text: str) -> OrderCheck:
        return check_turn(self.ruleset, state, player, text)

    def resolve(self, state: GameState, orders: Mapping[str, str | Iterable[str]], seed: int | str
                ) -> tuple[GameState, Report]:
        return resolve_turn(self.ruleset, state, orders, seed)

    def destinations(self, state: GameState, piece: Piece, window: int | None = None,
                     position: object = None) -> list[Square]:
        """``moves`` (5.4.6's last line): the piece's plain moves, Shadow's jump and Fire's first leg
        included, with freezing, Lotus boxes, Shields and goal stacks, as on its owner's player turn."""
        return legal_destinations(self.ruleset, state, piece)

    def other_orders(self, state: GameState, player: str) -> list[tuple[str, str]]:
        """Placements of each kind in the player's reserve on every square the check accepts, then
        drafts of one kind from the draft area (issue 24: what /move offers as it is typed)."""
        if active_player(self.ruleset, state) != player or territory_of(state).over:
            return []
        territory = territory_of(state)
        bounds = state.board.bounds
        squares = [] if bounds is None else [(x, y) for y in range(bounds[0][1], bounds[1][1] + 1)
                                             for x in range(bounds[0][0], bounds[1][0] + 1)]
        found = []
        for kind in sorted(set(territory.reserve(player))):
            name = self.ruleset.pieces[kind].name
            for square in squares:
                order = f"+{kind}{format_square(square)}"
                if check_turn(self.ruleset, state, player, order).ok:
                    found.append((order, f"{order}: place your {name} on {format_square(square)}"))
        for kind in sorted(set(territory.draft_area)):
            order = f"draft {kind}"
            if check_turn(self.ruleset, state, player, order).ok:
                found.append((order, f"{order}: take a {self.ruleset.pieces[kind].name} into your reserve"))
        return found

    def next_turn(self, state: GameState) -> tuple[int, str] | None:
        """The next turn that is not skipped and its player, or None once the game is over."""
        return next_turn(self.ruleset, state)

    def brief_report(self, report: Report) -> str | None:
        """A skipped turn is posted as one line (issue 24): nothing moved, nobody played."""
        skipped = report.of_type("skipped")
        if skipped and len(report.entries) == len(skipped):
            return " ".join(line.removeprefix("- ") for line in render(skipped).splitlines())
        return None

    # ------------------------------------------------------------------ results
    def verdict(self, state: GameState) -> Verdict:
        territory = territory_of(state)
        return Verdict(winners=territory.winners, drawn=territory.drawn, reason=territory.ended)

    def standings(self, state: GameState) -> list[Standing]:
        """Ranked by the winner first, then territories controlled, then pieces on the board, then
        name; the balance is the reserve's size."""
        territory = territory_of(state)
        held = controls(self.ruleset, state)
        rows = []
        for name, player in state.players.items():
            on_board = len(state.board.owned_by(name))
            owned = sum(1 for area, who in held.items() if who == name and area != GOAL)
            rows.append((name not in territory.winners, -owned, -on_board, name, player, on_board))
        rows.sort(key=lambda row: row[:4])
        return [Standing(rank, name, player.colour, on_board, player.captured, len(territory.reserve(name)), True)
                for rank, (_, _, _, name, player, on_board) in enumerate(rows, start=1)]

    def standings_panel(self, state: GameState) -> StandingsPanel:
        territory = territory_of(state)
        held = controls(self.ruleset, state)
        active = active_player(self.ruleset, state)
        rows = []
        for standing in self.standings(state):
            name = standing.name
            areas = [area for area, who in held.items() if who == name and area != GOAL]
            reserve = territory.reserve(name)
            line = (f"{standing.rank}. {name} ({standing.colour}): {standing.score} on the board, controls "
                    f"{', '.join(areas) or 'no territory'} --- Reserve {len(reserve)}/{self.rules.reserve_max}"
                    + (f": {', '.join(reserve)}" if reserve else ""))
            note = ("wins" if name in territory.winners else "" if territory.over
                    else "to play" if name == active else "")
            rows.append(PanelRow(standing, line, note))
        draft = ", ".join(territory.draft_area) or "empty"
        verdict = self.verdict(state)
        if verdict.winners:                   # "Ada wins: controls the goal (T9)", "Ada wins: Basil resigned"
            winner, reason = verdict.winners[0], verdict.reason
            said = reason[len(winner) + 1:] if reason.startswith(f"{winner} ") else reason
            result = f"{winner} wins: {said}"
        elif verdict.drawn:
            result = f"Drawn: {verdict.reason}" if verdict.reason else "Drawn"
        else:
            result = ""
        # The picture's subtitle names the game ("Territory"): the title says what the box is, the
        # note column says whose turn it is (territory has no regeneration and no events).
        return StandingsPanel(
            title="Standings", currency="reserve", rows=tuple(rows), events=(), next_event_draw=None,
            legend=(("Draft area", f"{draft}; {len(territory.bag)} in the bag"),),
            ranking="Ranked by the winner, then territories controlled, then pieces on the board, then name.",
            ranking_short="Ranked by territories, then pieces on the board.",
            line_heading="Standing: pieces on the board, territories --- reserve", note_heading="Turn",
            draws_events=False, winners=verdict.winners, result=result)

    def board_additions(self, state: GameState) -> BoardAdditions:
        """The areas (goal, neutral zone, territories with their controllers, home place areas), the
        cycle with the current slot, both reserves and the draft area (5.4.2: the board image shows
        them)."""
        rules = self.rules
        held = controls(self.ruleset, state)
        areas = [Area("Goal", "goal", (rules.goal,), held[GOAL]),
                 Area("Neutral zone", "neutral", tuple(sorted(rules.neutral)))]
        areas += [Area(t.name, "territory", tuple(sorted(t.squares)), held[t.name]) for t in rules.territories]
        areas += [Area(f"{colour} home", "home", tuple(sorted(rules.homes[colour])), owner=player_of(state, colour))
                  for colour in PLAYERS]
        # In turn order from the turn being played: the slot of turn ``state.update`` first, then the
        # slots of the next turns round the cycle (a row reads T37 ... T48, never T45 ... T37 ... T44).
        turns = range(state.update, state.update + len(rules.cycle))
        cycle = tuple(CycleSlot(rules.cycle[rules.slot(turn)], turn == state.update,
                                active_player(self.ruleset, state, turn), turn) for turn in turns)
        territory = territory_of(state)
        holdings = tuple(Holding(player_of(state, colour), territory.reserve(player_of(state, colour) or ""),
                                 rules.reserve_max) for colour in PLAYERS)
        holdings += (Holding(None, territory.draft_area),)
        return BoardAdditions(areas=tuple(areas), cycle=cycle, holdings=holdings, rank_zero=self.rank_zero_matters)

    def rules_summary(self) -> str:
        rules = self.rules
        names = ", ".join(t.name for t in rules.territories)
        cycle = " ".join(rules.cycle)
        return "\n".join([
            f"**{self.title}** (`{self.name}`): two players, Red (bottom) and Blue (top), one turn at a time "
            f"({self.ruleset.section or 'RULES 5.4'}).",
            f"- **Turns** follow the cycle {cycle}: a territory's turn ({names}) goes to whoever controls it, "
            "and is skipped when nobody does. Your first accepted submission ends your turn.",
            "- **A turn**: an action (move one piece, or use its ability), then place one reserve piece or draft "
            f"1 to {rules.draft_max} pieces. Write `Bal(0,-4)-(0,-2); +Sun(3,-5)`, `draft Bal, Fire`, `pass` or "
            "`resign`.",
            "- **Placing**: on your own turns in your home rows (or next to your Portal; a Freedom anywhere); on a "
            "territory's turn only in it. Never on the goal or the neutral zone.",
            "- **Control**: your pieces in an area count 1 (a Sun 2); you control it with 2 more than your "
            "opponent. A Chaos blocks control of a territory.",
            f"- **Win** by controlling the goal {format_square(rules.goal)}: two of your pieces stacked there, or a lone "
            f"Sun. `resign` gives the win to your opponent; {QUIET_DRAW} quiet turns in a row draw the game.",
            f"- **Pool**: {rules.copies} of each of {len(rules.kinds)} kinds; reserves hold at most "
            f"{rules.reserve_max}; the draft area is filled back to {rules.area_size} after each turn. Captured "
            "pieces go to the draft area (a Rock back to its owner's reserve).",
        ])
