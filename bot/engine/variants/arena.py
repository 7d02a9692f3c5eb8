"""The arena family (RULES.md 5.2, seed 004): Chess Arena, a battle royale of simultaneous rounds.

Players take seats before the start (2 to 8); the start places every army (D39, D40). Each round a
player moves ``1 + kings`` different pieces (D41) and places the new pieces won the round before
(D48); every round resolves at once from the position players saw, in the order of D69: captures,
dodges, M.A.D. and sniping, power-ups, resignations, pending pieces, the winner, power-up spawns.
The first to 100 points wins (D52); the game also ends when at most one player has pieces left or
at the session's length (D68).

The pipeline is data, as in the simultaneous family: named steps (``steps/arena.py``), validation
shared with every family (``steps/validate.py``, which asks the update for its validator).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property
from typing import Iterable

from ..arena import ArenaValidator, POWERUP_EVERY, armies, powerup_words, result, value_of
from ..model import Player, amount_in, format_amount
from ..notation import OrderError
from ..policies import Policies, Unplayable
from ..ruleset import Ruleset
from ..standings import Standing, piece_worth
from ..state import GameState
from ..steps import Step
from ..steps.arena import ArenaUpdate, arrivals, pending, spawn_powerups, take_powerups, winner
from ..steps.removals import resignations
from ..steps.validate import validate
from ..validation import OrderCheck
from .base import BoardAdditions, Features, Mark, PanelRow, Seating, StandingsPanel, Verdict
from .pipeline import PipelineVariant

__all__ = ["ArenaVariant", "assemble_pipeline"]

_WINNER = "🏆"


def assemble_pipeline(policies: Policies) -> tuple[Step, ...]:
    """The steps of one arena round, in the order of D69."""
    return (
        Step("validate", "RULES 3.1, D41 to D48", validate),
        Step("arrivals", "D69 (1), D10, D49, D50", arrivals),
        Step("power-ups", "D69 (2), D46, D47", take_powerups),
        Step("resignations", "D69 (3), D38", resignations),
        Step("pending", "D69 (4), D48", pending),
        Step("winner", "D69 (5), D52, D68", winner),
        Step("spawns", "D69 (6), D51", spawn_powerups),
    )


class ArenaVariant(PipelineVariant):
    """Chess Arena: seats before the start, armies placed by the start, rounds of several moves."""

    family = "arena"
    rank_zero_matters = False              # the arena is a disc: no rule names rank 0
    board_for_preview = True               # its armies span the board: the board takes the picture's width
    context = ArenaUpdate
    assemble = staticmethod(assemble_pipeline)

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        if not self.policies.arrivals.destroys:
            raise Unplayable(ruleset, [f"{self.policies.arrivals.name} collisions in the arena family"])

    # ------------------------------------------------------------------ seating and set-up
    @cached_property
    def seating(self) -> Seating:
        board = self.ruleset.board
        return Seating(seats_before_start=True, joins_by_placement=False,
                       min_players=board.min_players, max_players=board.max_players)

    @cached_property
    def features(self) -> Features:
        ruleset = self.ruleset
        return Features(
            currency=ruleset.economy.currency,
            secret_orders=ruleset.orders.secret,
            fallbacks=False,
            generation=False,
            resign=ruleset.orders.resign,
            implosions=False,
            events=False,
            several_lines=True,
            pawn=None,
            royal=ruleset.royal_letter,
            early_resolution=ruleset.orders.early_resolution,
            winners=True,
        )

    def set_up(self, players: Iterable[Player], seed: int | str, length: int | None = None) -> GameState:
        """Every seated player's army on a board of radius 3 + 2n (RULES 5.2, D39, D40)."""
        players = list(players)
        return GameState.build(self.ruleset, armies(self.ruleset, [p.name for p in players]), players,
                               length=length)

    # ------------------------------------------------------------------ orders
    def may_order(self, state: GameState, player: str) -> str | None:
        """P62: an active player with a piece that has a legal move (D41) or a piece to place (D48),
        while the game goes on."""
        record = state.players.get(player)
        if record is None:
            return "you are not a player of this game: seats are taken before it starts (RULES 5.2)"
        if result(self.ruleset, state).over:
            return "the game is over (D52, D68)"
        if record.status == "resigned":
            return "you resigned and may not order any more this game (D38)"
        if record.status != "active":
            return "you are out of this game (RULES 5.2)"
        if record.pending:
            return None
        if not state.board.owns(player):
            return "you have no pieces left on the board and none to place (RULES 5.2)"
        validator = ArenaValidator(self.ruleset, state)
        if not any(validator.destinations_of(piece) for piece in state.pieces_of(player)):
            return "none of your pieces has a legal move this round (D41)"
        return None

    def who_may_order(self, state: GameState) -> list[str]:
        if result(self.ruleset, state).over:
            return []
        return sorted(name for name in state.players if self.may_order(state, name) is None)

    def check(self, state: GameState, player: str, text: str) -> OrderCheck:
        try:
            lines = ArenaValidator(self.ruleset, state).check_submission(player, text)
        except OrderError as error:
            return OrderCheck(text, error=error)
        return OrderCheck(text, lines=tuple(lines))

    # ------------------------------------------------------------------ results
    def verdict(self, state: GameState) -> Verdict:
        """D52: the first to 100 points at the end of a round (the highest score when several
        reach it; equal scores share); D68: at most one player with pieces left, or the session's
        length reached: the highest score wins."""
        outcome = result(self.ruleset, state)
        if not outcome.over:
            return Verdict()
        if not outcome.winners:
            return Verdict(drawn=True, reason=outcome.reason)
        return Verdict(winners=outcome.winners, reason=outcome.reason)

    def standings(self, state: GameState) -> list[Standing]:
        """Every player still in the game (resigned players are out), ranked by points, then by
        the worth of their pieces on the board, then by name."""
        royal = self.ruleset.royal_letter
        rows = []
        for name, player in state.players.items():
            if player.status != "active":
                continue
            pieces = state.board.owned_by(name)
            worth = sum((piece_worth(self.ruleset, p) for p in pieces), Fraction(0))
            rows.append((player, worth, any(p.kind == royal for p in pieces)))
        rows.sort(key=lambda row: (-row[0].balance, -row[1], row[0].name))
        return [Standing(i + 1, player.name, player.colour, worth, player.captured, player.balance, has_king)
                for i, (player, worth, has_king) in enumerate(rows)]

    def standings_panel(self, state: GameState) -> StandingsPanel:
        """The points board: points, pieces and kings; no regeneration; the winners marked; each
        player's moves this round and the pieces they place (D41, D48)."""
        verdict = self.verdict(state)
        winners = set(verdict.winners)
        royal = self.ruleset.royal_letter
        rows = []
        for standing in self.standings(state):
            pieces = state.board.owned_by(standing.name)
            kings = sum(1 for p in pieces if p.kind == royal)
            line = (f"{standing.rank}. {standing.name} ({standing.colour}): {amount_in(standing.balance, 'points')}"
                    f" --- {len(pieces)} piece{'s' if len(pieces) != 1 else ''}, {kings} king"
                    f"{'s' if kings != 1 else ''}")
            moves = min(1 + kings, len(pieces))
            note = f"{_WINNER} winner" if standing.name in winners else f"{moves} move{'s' if moves != 1 else ''} a round"
            pending = state.players[standing.name].pending
            if pending and standing.name not in winners:
                note += f", places {', '.join(f'+{k} ({self.ruleset.pieces[k].name.lower()})' for k in pending)}"
            rows.append(PanelRow(standing, line, note))
        target = self.ruleset.economy.win_at
        goal = f"first to {format_amount(target)} points" if target is not None else "the highest score"
        result = ""
        if verdict.over:
            names = " and ".join(verdict.winners)
            result = (f"{names} {'win' if len(verdict.winners) > 1 else 'wins'}: {verdict.reason}" if verdict.winners
                      else f"The game is over with no winner: {verdict.reason}")
        return StandingsPanel(
            title="Points board", currency=self.ruleset.economy.currency, rows=tuple(rows), events=(),
            next_event_draw=None, legend=((_WINNER, f"winner ({goal}, D52, D68)"),),
            ranking="Ranked by points, then the value of the pieces on the board, then name.",
            ranking_short="Ranked by points, then pieces, then name.",
            line_heading="Standing: points --- pieces, kings", note_heading="This round", draws_events=False,
            # D50: an arena player's points are the value they captured, grown together: a
            # "Captured" column would repeat "Points" on every row (issue 39), so there is none
            captured_heading="",
            winners=verdict.winners, result=result)

    def board_additions(self, state: GameState) -> BoardAdditions:
        """The power-ups, each with its kind (a new piece's kind too), the label drawn on it (``+N``
        for a new knight: what its taker types next round, D48; ``=`` an upgrade, D47; ``K`` king me)
        and the legend's words."""
        labels = {"upgrade": "=", "king": "K"}
        return BoardAdditions(marks=tuple(
            Mark(p.at, p.kind, p.piece, label=f"+{p.piece}" if p.kind == "new" else labels.get(p.kind, "?"),
                 words=f"power-up: {powerup_words(self.ruleset, p)}")
            for p in sorted(state.powerups, key=lambda p: p.at)), rank_zero=self.rank_zero_matters,
            fit_preview=self.board_for_preview)

    def rules_summary(self) -> str:
        """Chess Arena for players, told from the ruleset's numbers; one Discord message."""
        ruleset, board, economy = self.ruleset, self.ruleset.board, self.ruleset.economy
        values = ", ".join(f"{kind.name.lower()} {format_amount(value_of(ruleset, letter))}"
                           for letter, kind in sorted(ruleset.pieces.items(), key=lambda kv: (kv[1].cost, kv[0])))
        secret = (" or by direct message" if ruleset.orders.secret else "")
        lines = [
            f"**{ruleset.title}** (`{ruleset.name}`)",
            f"- **Seats**: {board.min_players} to {board.max_players} players take seats before the start; the board "
            f"is [-R, R]² with R = {board.radius_base} + {board.radius_per_player} × players. Each army is a diamond: "
            f"the king, a queen toward the centre, bishop, rook, knight, and eight pawns around (D40).",
            f"- **Rounds**: move 1 + (your kings) different pieces, or every piece that can move if fewer (D41), "
            f"all in one /move separated by `;` (D7){secret}. Two of your actions may not go to one square (D45). "
            f"No `else`; `resign` alone (D38).",
            "- **Notation**: `N(35,2)-(37,3)`, or `N(37,3)` when only one of your knights can go there (D5).",
            "- **Pawns** step one square orthogonally and capture one square diagonally, in any direction; "
            "no castling, no en passant, no promotion.",
            "- **Check**: a king may not move onto a square attacked on the board you saw (D42); a check must be "
            "answered when a move can (D43). Kings can be captured; checkmate ends nothing.",
            f"- **Captures** score the piece's value: {values}. A piece whose target moved away still goes "
            f"there (D10).",
            "- **M.A.D.**: pieces arriving on one square together are all destroyed; each arriving player scores "
            "the others' pieces, and a piece that stood there in full (D49, D50).",
            f"- **Power-ups** appear after rounds {POWERUP_EVERY}, {2 * POWERUP_EVERY}, {3 * POWERUP_EVERY}, ... "
            f"on an empty square at distance 2 or more from every piece (D51): *new piece* (place it next round "
            f"with `+X(x,y)` on an empty square, or lose it: D48), *upgrade* (`=X` on the move that takes it, "
            f"queen by default, never a king: D47), *king me*. Two pieces taking one meet by M.A.D.",
            (f"- **The end**: the first to {format_amount(economy.win_at)} points at the end of a round wins, the "
             f"highest score when several get there, equal scores share (D52); the game" if economy.win_at is not None
             else "- **The end**: the game") +
            " ends when at most one player has pieces left or at the session's length: the highest score wins "
            "(D68).",
            "/pieces: every piece and its moves; /help: the commands.",
        ]
        return "\n".join(lines)
