"""Small policy objects: the choices a ruleset file makes, as objects that carry their own rule.

A ruleset file names its choices in words (``[orders] policy = "single"``, ``turns``,
``[resolution] collisions``, ``[economy] king_respawn_after``); :func:`policies_for` turns them into
the objects below, once per ruleset. The simultaneous pipeline (``variants/simultaneous.py``) is
assembled from them, and validation asks the submission shape, so no code tests a choice's name.

A choice that a ruleset may name but that no policy carries out yet (players moving in turn) is
listed in :data:`PLANNED` with its words for players, and a choice that only one family's pipeline
carries out (megachess's bounces and alternating teams, arena's M.A.D. collisions) in
:data:`FAMILY_ONLY`: such a ruleset
loads and its orders are checked, but :func:`policies_for` refuses to build a game of it
(:class:`Unplayable`), so it is never resolved by the wrong rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

from .model import Square
from .notation import MAX_ORDER_LENGTH
from .ruleset import Ruleset

if TYPE_CHECKING:  # pragma: no cover
    from .update import Update

__all__ = ["SubmissionShape", "TurnOrder", "TeamsAlternate", "turn_order", "Arrivals", "Captures", "Regeneration", "Debts", "Spawns", "Policies", "Unplayable", "PLANNED",
           "policies_for", "submission_shape", "arrivals_policy", "missing_policies"]


class Unplayable(ValueError):
    """A ruleset whose choices name a rule the engine does not carry out yet; the message says which."""

    def __init__(self, ruleset: Ruleset, missing: Sequence[str]) -> None:
        self.ruleset = ruleset
        self.missing = tuple(missing)
        super().__init__(f"{ruleset.title} ({ruleset.name}) cannot be played yet: Skirmish does not carry out its "
                         f"{' and '.join(self.missing)} ({ruleset.section or 'RULES 5'}) so far")


# ============================================================================= submission shape
#: P72: the longest submission that moves each piece once (megachess): 2,000 lines of 32 characters,
#: more than any army's orders, still read in milliseconds.
MAX_ARMY_ORDER_LENGTH = 64_000


@dataclass(frozen=True, slots=True)
class SubmissionShape:
    """How many lines one submission holds and how they relate (D7, D37, D38).

    ``several_lines``: a submission may hold several lines, each moving a different piece.
    ``distinct_targets``: two of one player's actions may not go to one square (arena, D45)."""

    name: str
    several_lines: bool
    distinct_targets: bool
    summary: str
    max_length: int = MAX_ORDER_LENGTH      # P2; a submission that moves a whole army may be longer (P72)

    def line_count_problem(self, count: int, game: str) -> str | None:
        """Why ``count`` lines are too many for this shape in ``game`` (its name), or None."""
        if not self.several_lines and count > 1:
            return f"{game} takes one order per update; this submission has {count} lines (RULES 4, D7)"
        return None


SINGLE = SubmissionShape("single", False, False,
                         "one order per update (a move, a generation, a king placement or `resign`)")
KINGS_PLUS_ONE = SubmissionShape("kings_plus_one", True, True,
                                 "1 + (your kings) moves of different pieces per round, in one submission")
EACH_PIECE = SubmissionShape("each_piece", True, False,
                             "each of your pieces may move once per turn, all in one submission",
                             max_length=MAX_ARMY_ORDER_LENGTH)
_SHAPES = {shape.name: shape for shape in (SINGLE, KINGS_PLUS_ONE, EACH_PIECE)}


def submission_shape(ruleset: Ruleset) -> SubmissionShape:
    """The ruleset's submission shape (every shape is known: validation works for every preset)."""
    return _SHAPES[ruleset.orders.policy]


# ============================================================================= turn order
@dataclass(frozen=True, slots=True)
class TurnOrder:
    """Who may order in an update. ``Simultaneous``: every player who is in the game."""

    name: str
    summary: str

    def may_order(self, state, player: str) -> str | None:
        """Why ``player`` may not order for the update ``state.update``, or None when they may."""
        record = state.players.get(player)
        if record is None:
            return "you are not a player of this game: join it first"
        return None

    def who_may_order(self, state) -> list[str]:
        """The players who may order now, by name (code-point order)."""
        return sorted(name for name, player in state.players.items()
                      if player.status == "active" and self.may_order(state, name) is None)


SIMULTANEOUS = TurnOrder("simultaneous", "every player orders every update; all orders resolve at once")
_TURNS = {SIMULTANEOUS.name: SIMULTANEOUS}


@dataclass(frozen=True, slots=True)
class TeamsAlternate(TurnOrder):
    """Teams move in turn (RULES 5.3): the first team on odd updates, the second on even ones.

    Every player may send an order on any update (a join or ``resign``, D65); only the moving
    team's players may move, which the check of a submission says. ``who_may_order`` names the
    moving team's active players who own pieces, and the players who have not joined yet."""

    teams: tuple[str, ...] = ()

    def moving_team(self, update: int) -> str:
        """The team whose pieces move in ``update``."""
        return self.teams[(update - 1) % len(self.teams)]

    def next_update_of(self, team: str, update: int) -> int:
        """The first update from ``update`` on in which ``team`` moves."""
        return next(u for u in range(update, update + len(self.teams)) if self.moving_team(u) == team)

    def who_may_order(self, state) -> list[str]:
        moving = self.moving_team(state.update)
        return sorted(name for name, player in state.players.items() if player.status == "active"
                      and ((player.team == moving and state.board.owns(name)) or not state.board.owns(name)))


def turn_order(ruleset: Ruleset) -> TurnOrder | None:
    """The ruleset's turn order, or None while it is only planned."""
    if ruleset.orders.turns == "teams_alternate":
        return TeamsAlternate("teams_alternate", "alternate updates: "
                              + ", then ".join(ruleset.teams.names) + " (RULES 5.3)", ruleset.teams.names)
    return _TURNS.get(ruleset.orders.turns)


# ============================================================================= arrivals
@dataclass(frozen=True, slots=True)
class Arrivals:
    """What happens when several pieces arrive on one square (RULES 3.4 for ``implosion``)."""

    name: str
    summary: str
    implodes: bool
    destroys: bool = False      # M.A.D.: every piece arriving on the square is destroyed (RULES 5.2)

    def turned_back(self, arrivals: dict[int, tuple[Square, str]]) -> set[int]:
        """Before anything moves: the pieces (by id) that stay where they were. ``arrivals``: piece
        id -> (target square, side: the mover's team, else the player). Bounce (RULES 5.3, D57):
        every piece arriving on a square together with another of its side; implosion: none."""
        if self.implodes:
            return set()
        together: dict[tuple[Square, str], list[int]] = {}
        for piece_id, (square, side) in arrivals.items():
            together.setdefault((square, side), []).append(piece_id)
        return {piece_id for ids in together.values() if len(ids) > 1 for piece_id in ids}

    def collide(self, update: "Update", square: Square, arrivals: list[tuple[str, str]]) -> None:
        """``arrivals``: (player, piece name) of each piece that arrived on ``square``, two or more.

        Implosion (D14, D15): they all stay; the square may become an implosion square (step 10)."""
        update.collision_squares.add(square)
        update.report.add("collision", sorted({player for player, _ in arrivals}), at=square,
                          arrivals=tuple(f"{player}'s {name}" for player, name in arrivals))

    def meeting_points(self, own: Fraction, arriving: Sequence[Fraction], stayed: Sequence[Fraction]) -> Fraction:
        """M.A.D. (RULES 5.2, D49): what the player of an arriving piece worth ``own`` scores when
        pieces worth ``arriving`` (``own`` among them) meet on a square where pieces worth
        ``stayed`` stood: every other arriving piece, and every piece that stayed, in full."""
        return sum(arriving, Fraction(0)) - own + sum(stayed, Fraction(0))

    def implosion_squares(self, update: "Update") -> frozenset[Square]:
        """D16 step 10: collision squares where two or more pieces still stand."""
        return frozenset(s for s in update.collision_squares if len(update.board.at(s)) >= 2)


IMPLOSION = Arrivals("implosion", "arrivals on one square all stay; it implodes at the end of the next update "
                                  "(D14, D15)", True)
BOUNCE = Arrivals("bounce", "two or more pieces of one team moving onto one square all stay where they were "
                           "(RULES 5.3, D57)", False)
MAD = Arrivals("mad", "two or more pieces arriving on one square are all destroyed; each arriving player scores the "
                     "others and, in full, a piece that stood there (RULES 5.2, M.A.D.)", False, destroys=True)
_ARRIVALS = {IMPLOSION.name: IMPLOSION, BOUNCE.name: BOUNCE, MAD.name: MAD}


def arrivals_policy(ruleset: Ruleset) -> Arrivals | None:
    """The ruleset's arrivals policy, or None while its collisions are only planned."""
    return _ARRIVALS.get(ruleset.resolution.collisions)


# ============================================================================= captures
@dataclass(frozen=True, slots=True)
class Captures:
    """How captures are decided: capturable pieces held in place (D13) and check states (RULES 3.2)."""

    holds: bool
    check_states: bool


# ============================================================================= economy
@dataclass(frozen=True, slots=True)
class Regeneration:
    """Who regenerates at step 5 (``[economy] regen_when``), and how the standings say it.

    ``king``: a player with a king on the board at step 5 (RULES 4); ``executed_order``: a player
    whose order was executed (RULES 5.1); ``in_game``: every player in the game; ``never``: nobody."""

    name: str
    reason: str                         # the ledger's words for the credit

    @property
    def ever(self) -> bool:
        return self.name != "never"

    def earns(self, has_king: bool, executed: bool) -> bool:
        name = self.name     # asked for every player of the game at every update: no dict made each time
        if name == "king":
            return has_king
        if name == "executed_order":
            return executed
        return name == "in_game"

    def note(self, amount: str, has_king: bool, why: str) -> tuple[str, bool]:
        """What the standings say the player regenerates next update, and whether it is a warning."""
        if self.name == "king" and not has_king:
            return "+0 (no king)", True
        if self.name == "executed_order":
            return f"+{amount} per executed order{why}", False
        return f"+{amount}{why}", False


_REGENERATIONS = {r.name: r for r in (Regeneration("king", "regeneration"),
                                       Regeneration("executed_order", "regeneration for an executed order"),
                                       Regeneration("in_game", "one more update in the game"),
                                       Regeneration("never", ""))}


@dataclass(frozen=True, slots=True)
class Debts:
    """What a balance below 0 does at step 6 (``[economy] negative``): ``disintegrate`` random
    non-king pieces (D17) or ``sell`` the cheapest first (RULES 5.1); ``event`` names the report
    entry and ``verb`` the ledger's words."""

    name: str
    event: str
    verb: str

    def victim(self, pieces: list, value, rng):
        """The next piece to go, from the player's non-king pieces in canonical order."""
        if self.name == "disintegrate":
            return rng.choice(pieces)
        return min(pieces, key=lambda p: (value(p), p.placed if p.placed is not None else -1, p.canonical_key))


_DEBTS = {d.name: d for d in (Debts("disintegrate", "disintegration", "disintegrated"), Debts("sell", "sale", "sold"))}


# ============================================================================= spawns
@dataclass(frozen=True, slots=True)
class Spawns:
    """What appears on the board by itself at the end of an update: automatic king respawns (RULES 4)."""

    king_respawn_after: int | None

    @property
    def respawns_kings(self) -> bool:
        return bool(self.king_respawn_after)


# ============================================================================= all of them
#: Choices a ruleset may name that no policy carries out yet, in a player's words.
PLANNED = {
    ("orders.turns", "alternate"): "players moving in turn",
}

#: Choices that only one family's pipeline carries out (the simultaneous steps never bounce a move).
FAMILY_ONLY = {
    ("resolution.collisions", "bounce"): ("megachess", "bouncing collisions"),
    ("orders.turns", "teams_alternate"): ("megachess", "teams moving in turn"),
    ("resolution.collisions", "mad"): ("arena", "M.A.D. collisions"),
}


@dataclass(frozen=True, slots=True)
class Policies:
    """The policies of one ruleset, assembled once."""

    submission: SubmissionShape
    turns: TurnOrder
    arrivals: Arrivals
    captures: Captures
    regeneration: Regeneration
    debts: Debts | None                 # None: balances may stay below 0 (no debts step)
    spawns: Spawns


def missing_policies(ruleset: Ruleset) -> list[str]:
    """What of ``ruleset`` no policy carries out yet, in words; empty when it can be played."""
    wanted = (("resolution.collisions", ruleset.resolution.collisions), ("orders.turns", ruleset.orders.turns))
    missing = [PLANNED[choice] for choice in wanted if choice in PLANNED]
    missing += [f"{words} outside the {family} family" for choice in wanted if choice in FAMILY_ONLY
                for family, words in [FAMILY_ONLY[choice]] if ruleset.family != family]
    return missing


@lru_cache(maxsize=64)
def policies_for(ruleset: Ruleset) -> Policies:
    """The ruleset's policies; :class:`Unplayable` when one of its choices has none yet."""
    missing = missing_policies(ruleset)
    if missing:
        raise Unplayable(ruleset, missing)
    return Policies(submission=submission_shape(ruleset), turns=turn_order(ruleset),
                    arrivals=_ARRIVALS[ruleset.resolution.collisions],
                    captures=Captures(ruleset.resolution.holds, ruleset.resolution.check_states),
                    regeneration=_REGENERATIONS[ruleset.economy.regen_when],
                    debts=_DEBTS.get(ruleset.economy.negative),
                    spawns=Spawns(ruleset.economy.king_respawn_after))
