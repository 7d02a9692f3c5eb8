"""The megachess family (RULES.md 5.3, D54 to D67, D71, D72): two teams move on alternate updates,
every piece at most once; kingdoms that fade; a captured king hands its army over; no end.

The pipeline is data, assembled in the order of D71 from the steps of ``steps/megachess.py`` and the
shared ones (the check of submissions, resignations). The answers to the rest of the program
(who may order, the standings with team totals, the kingdoms drawn on the board) are here.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property
from typing import Iterable

from ..betza import describe_betza
from ..board import Board
from ..megachess import MegachessValidator, Teams, megachess_destinations, outside_kingdom
from ..model import Piece, Player, Square, amount_in, format_amount
from ..movement import DEFAULT_WINDOW, Position
from ..abilities import position_for
from ..notation import OrderError
from ..policies import Policies
from ..standings import Standing
from ..state import GameState
from ..steps import Step
from ..steps.megachess import MegachessUpdate, bonus_spawn, hand_overs, joins, kingdoms, moves, scores
from ..steps.removals import resignations
from ..steps.validate import validate
from ..validation import OrderCheck
from .base import (BoardAdditions, Fading, Features, Kingdom, PanelRow, Seating, StandingsPanel, TeamTotal,
                   Verdict)
from .pipeline import PipelineVariant

__all__ = ["MegachessVariant", "assemble_megachess_pipeline"]


def assemble_megachess_pipeline(policies: Policies) -> tuple[Step, ...]:
    """The steps of one megachess update, in the order of D71."""
    return (
        Step("validate", "D62, D65, D72, RULES 3.1", validate),
        Step("moves", "D71 (1), D57, D58", moves),
        Step("hand-overs", "D71 (2), D61", hand_overs),
        Step("resignations", "D71 (3), D38", resignations),
        Step("joins", "D71 (4), D62, D63", joins),
        Step("kingdoms", "D71 (5), D60", kingdoms),
        Step("scores", "D71 (6), D54, D66", scores),
        Step("bonus spawn", "D71 (7), D59", bonus_spawn),
    )


class MegachessVariant(PipelineVariant):
    """Megachess MMO: teams in turn, each piece once, kingdoms, army hand-overs, bonus pieces."""

    family = "megachess"
    rank_zero_matters = False              # kingdoms, not ranks: no rule names rank 0
    team_play = True                       # two teams in turn (RULES 5.3)
    context = MegachessUpdate
    assemble = staticmethod(assemble_megachess_pipeline)

    # ------------------------------------------------------------------ seating and set-up
    @cached_property
    def seating(self) -> Seating:
        """Players come and go: a player joins a running game by placing a king (D62)."""
        board = self.ruleset.board
        return Seating(seats_before_start=False, joins_by_placement=True,
                       min_players=board.min_players, max_players=board.max_players)

    @cached_property
    def features(self) -> Features:
        ruleset = self.ruleset
        return Features(
            currency=ruleset.economy.currency,
            secret_orders=ruleset.orders.secret,
            fallbacks=False,                       # D38: multi-move rulesets have no `else`
            generation=False,
            resign=ruleset.orders.resign,
            implosions=False,
            events=False,
            several_lines=True,                    # D7: each piece once, in one submission
            pawn=None,                             # pawns never promote
            royal=ruleset.royal_letter,
            early_resolution=ruleset.orders.early_resolution,
        )

    def set_up(self, players: Iterable[Player], seed: int | str, length: int | None = None) -> GameState:
        """An empty board: players come in by placing their kings, on either team (D62)."""
        players = list(players)
        return GameState(board=Board(bounds=self.ruleset.bounds_for(len(players))),
                         players={p.name: p for p in players}, length=length)

    # ------------------------------------------------------------------ orders
    def may_order(self, state: GameState, player: str) -> str | None:
        """Any player of the game may send an order on any update: a join or ``resign`` is accepted
        whatever the team (D65); moves on the other team's update are refused by :meth:`check`."""
        return self.policies.turns.may_order(state, player)

    def who_may_order(self, state: GameState) -> list[str]:
        """The moving team's active players who own pieces, and the players who have not joined yet."""
        return self.policies.turns.who_may_order(state)

    def moving_team(self, state: GameState) -> str | None:
        """The team whose pieces move in the update ``state.update``."""
        return Teams(self.ruleset, state).moving()

    def next_update_for(self, state: GameState, player: str) -> int | None:
        """The first update from ``state.update`` on in which ``player``'s team moves (None: no team)."""
        teams = Teams(self.ruleset, state)
        team = teams.team_of(player)
        return None if team is None else teams.next_update_of(team, state.update - 1)

    @property
    def join_distance(self) -> int:
        """D62: a joining king lands at Chebyshev distance at least this from every enemy piece
        (0: anywhere empty)."""
        return self.ruleset.teams.join_distance or 0

    def check(self, state: GameState, player: str, text: str) -> OrderCheck:
        try:
            lines = MegachessValidator(self.ruleset, state).check_submission(player, text)
        except OrderError as error:
            return OrderCheck(text, error=error)
        return OrderCheck(text, lines=tuple(lines))

    def destinations(self, state: GameState, piece: Piece, window: int | None = DEFAULT_WINDOW,
                     position: Position | None = None) -> list[Square]:
        """D67: a piece's moves whatever the update's team, bonus pieces entered by plain movement (D58)."""
        if position is None:
            position = position_for(self.ruleset, state)
        return megachess_destinations(position, piece, state, window)

    # ------------------------------------------------------------------ results
    def verdict(self, state: GameState) -> Verdict:
        """The game has no end (RULES 5.3): players come and go."""
        return Verdict()

    def standings(self, state: GameState) -> list[Standing]:
        """Every player in the game (active, owning pieces), by points, then value captured, then name."""
        royal = self.ruleset.royal_letter
        rows = []
        for name, player in state.players.items():
            pieces = state.board.owned_by(name)
            if player.status != "active" or not pieces:
                continue
            rows.append((player.balance, player.captured, name, player, any(p.kind == royal for p in pieces)))
        rows.sort(key=lambda r: (-r[0], -r[1], r[2]))
        return [Standing(i + 1, name, player.colour, points, captured, points, has_king)
                for i, (points, captured, name, player, has_king) in enumerate(rows)]

    def standings_panel(self, state: GameState) -> StandingsPanel:
        """The standings with each team's total: an endless game shows ``panel.top(20)`` and the
        caller's own ``panel.row_of(name)`` (``panel.shown`` is 20). Each row's note counts the
        player's pieces fading outside their kingdoms (D60), in the warning colour when one of them
        goes at the end of its team's next update unless it moves."""
        currency = self.ruleset.economy.currency
        fading: dict[str, list[Fading]] = {}
        for piece in self.board_additions(state).fading:
            fading.setdefault(piece.owner, []).append(piece)
        rows = []
        totals = {team: [0, Fraction(0)] for team in self.ruleset.teams.names}
        for standing in self.standings(state):
            team = state.players[standing.name].team
            line = (f"{standing.rank}. {standing.name} ({standing.colour}, {team or 'no team'}): "
                    f"{amount_in(standing.balance, currency)}")
            if not standing.has_king:
                line += " No King"
            own = fading.get(standing.name, [])
            last = [piece for piece in own if piece.left <= 1]
            note = f"{len(own)} fading" if own else "none fading"
            if last:
                note += f", {len(last)} gone after update {min(p.removed_at for p in last)} unless moved"
            rows.append(PanelRow(standing, line, note, alarm=bool(last)))
            if team in totals:
                totals[team][0] += 1
                totals[team][1] += standing.balance
        teams = tuple(TeamTotal(team, count, points) for team, (count, points) in totals.items())
        # The game has no end (RULES 5.3), but a session does: once its length is played, no team
        # moves next and the panel says so (the picture's subtitle then says the game is over).
        played = state.length is not None and state.update > state.length
        moving = None if played else self.moving_team(state)
        legend = (("⇄", f"update {state.update}: {moving} moves"),) if moving else ()
        result = f"The session's {state.length} updates are played" if played else ""
        return StandingsPanel(
            title=f"{currency.capitalize()} board", currency=currency, rows=tuple(rows), events=(),
            next_event_draw=None, legend=legend, result=result,
            ranking="Ranked by points (+1 per update in the game, the value of each piece captured, 100 more per "
                    "king), then value captured, then name.",
            ranking_short="Ranked by points, then captured, then name.", teams=teams,
            line_heading="Standing: points", note_heading="Fading (D60)", draws_events=False, shown=20)

    def board_additions(self, state: GameState) -> BoardAdditions:
        """Each king's kingdom (a circle of the kingdom radius) and the pieces fading outside theirs,
        with the updates they have left (D60)."""
        ruleset = self.ruleset
        radius = ruleset.teams.kingdom_radius
        royal = ruleset.royal_letter
        if radius is None or royal is None:
            return BoardAdditions(rank_zero=self.rank_zero_matters, team_marks=self.team_play)
        kings: dict[str | None, list[Piece]] = {}
        for king in sorted(state.board.of_kind(royal), key=lambda p: p.canonical_key):
            kings.setdefault(king.owner, []).append(king)
        circles = tuple(Kingdom(owner, state.players[owner].team if owner in state.players else None, k.square, radius)
                        for owner, owned in sorted(kings.items(), key=lambda kv: kv[0] or "") for k in owned
                        if owner is not None)
        teams = Teams(ruleset, state)
        fading = []
        for piece in sorted(state.board, key=lambda p: p.canonical_key):
            ttl = ruleset.pieces[piece.kind].fade_ttl
            team = teams.team_of(piece.owner) if piece.owner is not None else None
            if piece.owner is None or piece.kind == royal or ttl is None or team is None:
                continue
            if not outside_kingdom(ruleset, kings.get(piece.owner, ()), piece.square):
                continue
            left = ttl - piece.fade + 1
            first = teams.next_update_of(team, state.update - 1)
            fading.append(Fading(piece.square, piece.owner, piece.fade, left,
                                 first + (left - 1) * max(1, len(teams.names))))
        return BoardAdditions(kingdoms=circles, fading=tuple(fading), rank_zero=self.rank_zero_matters,
                              team_marks=self.team_play)

    def rules_summary(self) -> str:
        ruleset = self.ruleset
        teams, economy, pieces = ruleset.teams, ruleset.economy, ruleset.pieces
        first, second = (list(teams.names) + ["", ""])[:2]
        ttl = ", ".join(f"{k.name.lower()} {k.fade_ttl}" for k in pieces.values() if k.fade_ttl is not None)
        values = ", ".join(f"{k.name.lower()} {format_amount(k.cost)}" for k in pieces.values() if not k.royal)
        king = ruleset.royal_letter or "K"
        # a kind that moves as its chess namesake is named once, at the end: /rules fits one message
        # with the rulebook's link the service adds (issue 27)
        as_in_chess = [k.name.lower() for k in pieces.values()
                       if not k.once and describe_betza(k.betza) == f"moves and captures as a {k.name.lower()}"]
        movement = ". ".join(f"The {k.name.lower()} {describe_betza(k.betza)}"
                             + (f", and once in its life {describe_betza(k.once.betza)} onto an empty square" if k.once else "")
                             for k in pieces.values() if k.name.lower() not in as_in_chess)
        if as_in_chess:
            movement += f". The {' and the '.join(as_in_chess)} move as in chess"
        secret = " Orders may come by direct message." if ruleset.orders.secret else ""
        king_value = next((format_amount(k.cost) for k in pieces.values() if k.royal), "0")
        lines = [
            f"**{ruleset.title}** (`{ruleset.name}`)",
            f"- **Teams**: {first} moves on odd updates, {second} on even ones. On your team's update move each of "
            f"your pieces at most once, all in one /move (`;` or a line each, D7); other updates refuse moves "
            f"(D65).{secret}",
            f"- **Joining**: with no pieces, send `{king}(x,y)` on an empty square at distance at least "
            f"{teams.join_distance} from every enemy piece; you join the smaller team (ties: {first}) and get a "
            f"starter army around your king (D62, D63). Joins and `resign` work on any update.",
            f"- **Movement**: {movement}. No promotion; kings may stay in check "
            f"(D55, D56).",
            "- **Captures** always succeed. Moving onto a teammate is illegal; your team's pieces moving onto one "
            "square all stay put: a bounce (D57).",
            "- **Kings**: capturing a king gives you its owner's remaining pieces; they leave and may join again "
            "(D61, D64).",
            f"- **Kingdoms**: a piece farther than {teams.kingdom_radius} (Euclidean) from its owner's nearest king "
            f"counts up each of its team's updates it stays still; above its time to live "
            f"({ttl}) it fades away (D60).",
            f"- **Bonus pieces** appear every {teams.bonus_every} updates; move onto one to collect it: it becomes "
            f"your piece on the square you came from (D58, D59).",
            f"- **Points**: +{format_amount(economy.points_per_update)} per update while you have pieces, + the value "
            f"of each piece captured ({values}), + {format_amount(economy.king_bonus)} + {king_value} per king "
            f"(D54, D66). The game has no end.",
            "/pieces: every piece and its moves; /help: the commands.",
        ]
        return "\n".join(lines)
