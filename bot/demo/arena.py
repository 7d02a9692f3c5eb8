"""Chess Arena's simulated players (RULES 5.2; D41 to D48, D68 to D70).

Every player has a seat before the start; each round they send ``1 + kings`` moves of different
pieces (every piece that can move, if fewer) in one submission, lines separated by ``;`` or
newlines (D7), plus one placement per new piece won the round before (D48). What they move, in
order of urgency:

1. an answer to every king in check (D43): the king steps away (its legal destinations are never
   attacked, D42), or a piece takes the attacker or stands in its line;
2. power-ups within one move (``=Q``, now and then ``=R`` or ``=N``, on an upgrade: D47);
3. captures worth making: the victim's value, less the mover's when the square is defended;
4. a valuable piece under attack to a safe square;
5. a piece heading for a power-up: to a square from which it takes it next round;
6. advances toward the nearest enemy (or power-up), mostly to squares no enemy attacks.

Now and then two players send pieces to one empty square (M.A.D.), and a player sends a wrong
count of moves first (refused at once with the count expected). Everything is checked with the
variant's ``check`` before it is sent; the legal destinations are the variant's. Same seed, same
orders: each player draws from ``random.Random(f"{seed}:{update}:{name}")``, the staging from
``...:demo``.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

from bot.engine.abilities import position_for
from bot.engine.model import Piece, Square, format_square
from bot.engine.ruleset import Ruleset
from bot.engine.state import GameState
from bot.engine.validation import square_attacked_by_enemy
from bot.engine.variants import variant_for

from .common import Intent, Planner, SimulatedPlayer, cast, chebyshev, join_lines, move_text, player_rng

__all__ = ["PLANNER", "plan_round"]

log = logging.getLogger(__name__)

#: the kinds an upgrade is made into now and then instead of a queen (D47)
ODD_UPGRADES = ("R", "N", "B")
#: a power-up is chased by the player's pieces nearest to it, each looking at its squares nearest to it
CHASERS = 3
LOOKS = 6
#: how often a player advances only to squares no enemy attacks (the others offer trades)
CAREFUL = 0.75
#: how many other submissions a player tries when their first is refused (a check not answered)
REPAIRS = 60


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a submission, and why it is made."""

    piece: Piece
    target: Square
    suffix: str = ""
    why: str = ""

    @property
    def text(self) -> str:
        return move_text(self.piece, self.target, self.suffix)


class _Round:
    """What the players read off the position of one round, computed once."""

    def __init__(self, ruleset: Ruleset, state: GameState) -> None:
        self.ruleset = ruleset
        self.variant = variant_for(ruleset)
        self.state = state
        self.position = position_for(ruleset, state)
        self.royal = self.variant.features.royal or "K"
        self.powerups = {p.at: p for p in state.powerups}
        self._destinations: dict[int, list[Square]] = {}
        self._attacked: dict[tuple[Square, str, int | None], bool] = {}

    def pieces(self, name: str) -> list[Piece]:
        return self.state.pieces_of(name)

    def kings(self, name: str) -> list[Piece]:
        return [p for p in self.pieces(name) if p.kind == self.royal]

    def destinations(self, piece: Piece) -> list[Square]:
        if piece.id not in self._destinations:
            self._destinations[piece.id] = self.variant.destinations(self.state, piece, position=self.position)
        return self._destinations[piece.id]

    def destinations_from(self, piece: Piece, square: Square) -> list[Square]:
        """Where ``piece`` could go next round from ``square`` if the others stood still."""
        return self.variant.destinations(self.state, replace(piece, square=square), position=self.position)

    def value(self, piece: Piece) -> Fraction:
        return Fraction(self.ruleset.pieces[piece.kind].cost)

    def enemies_on(self, square: Square, name: str) -> list[Piece]:
        return [p for p in self.state.board.at(square) if p.owner is not None and p.owner != name]

    def attacked(self, square: Square, name: str, lifted: Piece | None = None) -> bool:
        key = (square, name, None if lifted is None else lifted.id)
        if key not in self._attacked:
            self._attacked[key] = bool(square_attacked_by_enemy(self.position, square, name, lifted))
        return self._attacked[key]

    def moves_due(self, name: str) -> int:
        """D41: 1 + kings, or every piece that can move if fewer."""
        movable = sum(1 for p in self.pieces(name) if self.destinations(p))
        return min(1 + len(self.kings(name)), movable)

    def in_check(self, name: str) -> list[Piece]:
        return [king for king in self.kings(name) if self.attacked(king.square, name)]

    def empty(self, square: Square) -> bool:
        """A square a new piece may be placed on: on the board, no piece, no power-up (D46, D48)."""
        return (self.state.board.in_bounds(square) and not self.state.board.occupied(square)
                and square not in self.powerups)

    def accepts(self, name: str, text: str) -> bool:
        return self.variant.check(self.state, name, text).ok


class _Submission:
    """The moves and placements one player is putting together: each piece once, each square once
    (D45), no more moves than are due."""

    def __init__(self, due: int) -> None:
        self.due = due
        self.steps: list[Step] = []
        self.placements: list[str] = []
        self.squares: set[Square] = set()

    @property
    def full(self) -> bool:
        return len(self.steps) >= self.due

    def moves(self, piece: Piece) -> bool:
        return any(step.piece.id == piece.id for step in self.steps)

    def add(self, step: Step) -> bool:
        if self.full or self.moves(step.piece) or step.target in self.squares:
            return False
        self.steps.append(step)
        self.squares.add(step.target)
        return True

    def place(self, letter: str, square: Square) -> None:
        self.placements.append(f"+{letter}{format_square(square)}")
        self.squares.add(square)

    def lines(self) -> list[str]:
        return [step.text for step in self.steps] + self.placements


# ============================================================================ the round's intents
def plan_round(ruleset: Ruleset, state: GameState, update: int, seed: int | str,
               players: Iterable[SimulatedPlayer], shown: frozenset[str] = frozenset()) -> list[Intent]:
    """The intents of every seated player who may order in this round, by name, from the position
    they saw. ``shown``: the report entry types of the session's earlier rounds (a M.A.D. meeting is
    staged until one has happened, then now and then)."""
    table = _Round(ruleset, state)
    seated = sorted((p for p in players if p.name in state.players), key=lambda p: p.name)
    active = [p for p in seated if table.variant.may_order(state, p.name) is None]
    if not active:
        return []
    staging = player_rng(seed, update, "demo")
    forced: dict[str, Step] = {}
    if "mad" not in shown or update % 4 == 2:
        forced = _stage_mad(table, active, staging)
    secret = table.variant.features.secret_orders
    intents = []
    for player in active:
        rng = player_rng(seed, update, player.name)
        chosen = _choose(table, player.name, rng, forced.get(player.name))
        if chosen is None:
            continue
        order, plan, submission = chosen
        careless = rng.random() < 0.1 or (update % 2 == 1 and player == active[update // 2 % len(active)])
        slip = _wrong_count(table, player.name, submission, rng) if careless else None
        source = "dm" if secret and rng.random() < 0.3 else "channel"
        intents.append(Intent(player, order, source, slip, plan))
    return intents


def _choose(table: _Round, name: str, rng: random.Random, forced: Step | None
            ) -> tuple[str, str, _Submission] | None:
    """One player's submission for the round: (its text, why, the moves and placements)."""
    due = table.moves_due(name)
    pending = table.state.players[name].pending
    if due == 0 and not pending:
        return None
    submission = _Submission(due)
    if forced is not None:
        submission.add(forced)
    for king in table.in_check(name):
        _answer(table, name, king, submission, rng)
    _powerups(table, name, submission, rng)
    _chase(table, name, submission, rng)
    _captures(table, name, submission, rng)
    _rescues(table, name, submission, rng)
    _advances(table, name, submission, rng)
    _anything(table, name, submission, rng)
    _placements(table, name, pending, submission, rng)
    text = join_lines(submission.lines(), rng)
    if not table.accepts(name, text):
        repaired = _repair(table, name, submission, rng)
        if repaired is None:
            log.debug("arena demo: %s found no submission the bot accepts (round %s)", name, table.state.update)
            return None
        submission = repaired
        text = join_lines(submission.lines(), rng)
    whys = [step.why for step in submission.steps] + ["place"] * len(submission.placements)
    return text, ", ".join(dict.fromkeys(whys)), submission


def _answer(table: _Round, name: str, king: Piece, submission: _Submission, rng: random.Random) -> None:
    """D43: a move that ends the attack on ``king``: mostly the king stepping away (a capture or a
    power-up first), else a piece taking the lone attacker or standing in its line."""
    steps = []
    for square in table.destinations(king):
        victims = table.enemies_on(square, name)
        rank = 0 if victims else 1 if square in table.powerups else 2
        steps.append((rank, rng.random(), Step(king, square, why="check")))
    attackers = square_attacked_by_enemy(table.position, king.square, name)
    blocks: list[tuple[int, float, Step]] = []
    if len(attackers) == 1:
        attacker = attackers[0]
        between = set(_line_between(attacker.square, king.square))
        for piece in table.pieces(name):
            if piece.id == king.id:
                continue
            for square in table.destinations(piece):
                if square == attacker.square or square in between:
                    blocks.append((0 if square == attacker.square else 1, rng.random(), Step(piece, square, why="check")))
    ordered = sorted(steps, key=lambda s: s[:2]) if rng.random() < 0.7 or not blocks else []
    ordered += sorted(blocks, key=lambda s: s[:2]) + sorted(steps, key=lambda s: s[:2])
    for _, _, step in ordered:
        if submission.add(step):
            return


def _line_between(a: Square, b: Square) -> list[Square]:
    """The squares strictly between two squares on one line (none when they are not on one)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        return []
    steps = max(abs(dx), abs(dy))
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    return [(a[0] + sx * i, a[1] + sy * i) for i in range(1, steps)]


def _captures(table: _Round, name: str, submission: _Submission, rng: random.Random) -> None:
    """Captures worth making: the victim's value, less the mover's when the square is defended (an
    even trade now and then)."""
    found = []
    for piece in table.pieces(name):
        for square in table.destinations(piece):
            victims = table.enemies_on(square, name)
            if not victims:
                continue
            gain = sum(table.value(v) for v in victims)
            if piece.kind != table.royal and table.attacked(square, name, piece):
                gain -= table.value(piece)
            if gain > 0 or (gain == 0 and rng.random() < 0.6):
                found.append((-gain, rng.random(), Step(piece, square, why="capture")))
    for _, _, step in sorted(found, key=lambda f: f[:2]):
        if rng.random() < 0.9:
            submission.add(step)


def _powerups(table: _Round, name: str, submission: _Submission, rng: random.Random) -> None:
    """A power-up within one move, taken by a piece that is safe there (D46, D47)."""
    for square in sorted(table.powerups):
        powerup = table.powerups[square]
        takers = [p for p in table.pieces(name) if square in table.destinations(p)
                  and (p.kind == table.royal or not table.attacked(square, name, p))]
        if not takers or rng.random() < 0.15:
            continue
        piece = min(takers, key=lambda p: (table.value(p), rng.random()))
        suffix = ""
        if powerup.kind == "upgrade" and piece.kind != table.royal:
            draw = rng.random()
            suffix = "=Q" if draw < 0.7 else "" if draw < 0.85 else f"={rng.choice(ODD_UPGRADES)}"
        submission.add(Step(piece, square, suffix, "power-up"))


def _chase(table: _Round, name: str, submission: _Submission, rng: random.Random) -> None:
    """Now and then a piece (never the king) heads for the nearest power-up not yet in reach: to a
    square from which it reaches the power-up next round, else one nearer to it; a square no enemy
    attacks."""
    if not table.powerups or rng.random() < 0.2:
        return
    movers = [p for p in table.pieces(name) if p.kind != table.royal and not submission.moves(p)]
    options = []
    for target in table.powerups:
        nearest = sorted(movers, key=lambda p: (chebyshev(p.square, target), p.canonical_key))[:CHASERS]
        for piece in nearest:
            here = chebyshev(piece.square, target)
            squares = [s for s in table.destinations(piece) if s not in submission.squares
                       and not table.enemies_on(s, name) and not table.attacked(s, name, piece)]
            squares.sort(key=lambda s: (chebyshev(s, target), s))
            for rank, square in enumerate(squares):
                nearer = chebyshev(square, target)
                if rank < LOOKS and target in table.destinations_from(piece, square):
                    options.append((0, nearer, rng.random(), Step(piece, square, why="power-up")))
                elif nearer < here:
                    options.append((1, nearer, rng.random(), Step(piece, square, why="power-up")))
    if options:
        submission.add(min(options, key=lambda o: o[:3])[3])


def _rescues(table: _Round, name: str, submission: _Submission, rng: random.Random) -> None:
    """A valuable piece under attack steps to a square no enemy attacks."""
    threatened = [p for p in table.pieces(name) if p.kind != table.royal and table.value(p) >= 3
                  and not submission.moves(p) and table.attacked(p.square, name)]
    for piece in sorted(threatened, key=lambda p: (-table.value(p), p.canonical_key)):
        if rng.random() < 0.25:
            continue
        safe = [s for s in table.destinations(piece) if not table.enemies_on(s, name)
                and not table.attacked(s, name, piece)]
        if safe:
            submission.add(Step(piece, rng.choice(safe), why="rescue"))


def _advances(table: _Round, name: str, submission: _Submission, rng: random.Random) -> None:
    """Pieces (never the king) toward the nearest enemy piece, or a power-up now and then; mostly to
    squares no enemy attacks."""
    enemies = [p.square for p in table.state.board if p.owner is not None and p.owner != name]
    goals = list(table.powerups) if table.powerups and rng.random() < 0.5 else enemies
    movers = [p for p in table.pieces(name) if p.kind != table.royal and not submission.moves(p)]
    rng.shuffle(movers)
    careful = rng.random() < CAREFUL
    for piece in movers:
        if submission.full:
            return
        squares = [s for s in table.destinations(piece) if s not in submission.squares]
        if careful:
            squares = [s for s in squares if not table.attacked(s, name, piece)]
        if not squares or not goals:
            continue
        here = min(chebyshev(piece.square, g) for g in goals)
        best = min(squares, key=lambda s: (min(chebyshev(s, g) for g in goals), rng.random()))
        if min(chebyshev(best, g) for g in goals) < here:
            submission.add(Step(piece, best, why="advance"))


def _anything(table: _Round, name: str, submission: _Submission, rng: random.Random) -> None:
    """Whatever can still move, to reach the count (D41): safe squares first, the king last."""
    movers = [p for p in table.pieces(name) if not submission.moves(p)]
    rng.shuffle(movers)
    movers.sort(key=lambda p: p.kind == table.royal)
    for piece in movers:
        if submission.full:
            return
        squares = [s for s in table.destinations(piece) if s not in submission.squares]
        safe = [s for s in squares if piece.kind == table.royal or not table.attacked(s, name, piece)]
        if safe or squares:
            submission.add(Step(piece, rng.choice(safe or squares), why="move"))


def _placements(table: _Round, name: str, pending: tuple[str, ...], submission: _Submission,
                rng: random.Random) -> None:
    """D48: each new piece won last round placed on an empty square near the king (no piece, no
    power-up, none of this submission's squares), one no enemy attacks if there is one."""
    if not pending:
        return
    own = table.kings(name) or table.pieces(name)
    centre = own[0].square if own else (0, 0)
    for letter in pending:
        for radius in (2, 4, 8, 64):
            squares = [(x, y) for x in range(centre[0] - radius, centre[0] + radius + 1)
                       for y in range(centre[1] - radius, centre[1] + radius + 1)
                       if table.empty((x, y)) and (x, y) not in submission.squares]
            if squares:
                safe = [s for s in squares if not table.attacked(s, name)]
                submission.place(letter, rng.choice(safe or squares))
                break


def _repair(table: _Round, name: str, submission: _Submission, rng: random.Random) -> _Submission | None:
    """Another submission when the first is refused (a check left unanswered: D43): each of the
    player's legal moves in turn first, the king's first, then the others as planned."""
    pieces = sorted(table.pieces(name), key=lambda p: (p.kind != table.royal, p.canonical_key))
    candidates = [Step(piece, square, why="check") for piece in pieces for square in table.destinations(piece)]
    rng.shuffle(candidates)
    candidates.sort(key=lambda step: step.piece.kind != table.royal)
    for first in candidates[:REPAIRS]:
        trial = _Submission(submission.due)
        trial.add(first)
        for step in submission.steps:
            trial.add(step)
        _anything(table, name, trial, rng)
        for text in submission.placements:
            trial.placements.append(text)
        if table.accepts(name, "; ".join(trial.lines())):
            return trial
    return None


def _wrong_count(table: _Round, name: str, submission: _Submission, rng: random.Random) -> str | None:
    """A submission with one move too few (or one too many): refused at once with the count
    expected (D41, D70)."""
    moves = [step.text for step in submission.steps]
    if len(moves) >= 2:
        wrong = moves[:-1]
    else:
        extra = [Step(p, s) for p in table.pieces(name) if not submission.moves(p)
                 for s in table.destinations(p) if s not in submission.squares]
        if not extra:
            return None
        wrong = moves + [rng.choice(extra).text]
    text = join_lines(wrong + submission.placements, rng)
    return None if table.accepts(name, text) else text


def _stage_mad(table: _Round, active: list[SimulatedPlayer], rng: random.Random) -> dict[str, Step]:
    """Two players' pieces (no king, none that can take a power-up, no player in check) sent to one
    empty square: M.A.D. destroys both, and each player scores the other's piece."""
    reach: dict[Square, list[tuple[str, Piece]]] = {}
    for player in active:
        name = player.name
        if not table.moves_due(name) or table.in_check(name):
            continue
        for piece in table.pieces(name):
            if piece.kind == table.royal or any(s in table.powerups for s in table.destinations(piece)):
                continue        # a king stays out of it; a piece that can take a power-up takes it
            for square in table.destinations(piece):
                if not table.state.board.occupied(square):
                    reach.setdefault(square, []).append((name, piece))
    meetings = sorted(s for s, movers in reach.items() if len({name for name, _ in movers}) >= 2)
    if not meetings:
        return {}
    square = rng.choice(meetings)
    movers: dict[str, Piece] = {}
    for name, piece in sorted(reach[square], key=lambda m: (m[0], table.value(m[1]), m[1].canonical_key)):
        movers.setdefault(name, piece)
    return {name: Step(movers[name], square, why="collide") for name in rng.sample(sorted(movers), 2)}


# ============================================================================ the summary's counts
#: report entry type -> the count it adds to
_COUNTED = {"capture": "captures", "mad": "mad", "powerup_taken": "powerups", "powerup_spawn": "powerups_seen",
            "powerup_lost": "powerups_lost", "placed": "placed", "placements_lost": "unplaced",
            "unplaced": "unplaced", "resignation": "resignations"}
#: the least rounds after which a session surely shows M.A.D. (staged until one happens) and a
#: power-up taken (the first appears after round 3); captures: the least players and rounds, or
#: the rounds of a game of two or three cautious players
MAD_FROM = 4
POWERUPS_FROM = 12
CAPTURES_FROM = (4, 8)
FEW_CAPTURES_FROM = 20


def count(counts: Counter, entry) -> None:
    kind = entry.type
    if kind in _COUNTED:
        counts[_COUNTED[kind]] += 1
    if kind == "mad":
        counts["destroyed"] += len(entry.data.get("arrivals", ())) + len(entry.data.get("stayed", ()))
    elif kind == "order" and entry.data.get("outcome") == "dodged":
        counts["dodges"] += 1


def rows(summary) -> list[tuple[str, str]]:
    counts = summary.counts
    return [
        ("captures", str(counts["captures"])),
        ("dodges", f"{counts['dodges']} (a capture whose victim moved away: the attacker still goes, D10)"),
        ("M.A.D. collisions", f"{counts['mad']} ({counts['destroyed']} pieces destroyed)"),
        ("power-ups taken", f"{counts['powerups']} (of {counts['powerups_seen']} that appeared; "
                            f"{counts['powerups_lost']} lost to M.A.D.)"),
        ("pieces placed", f"{counts['placed']} (new pieces; {counts['unplaced']} lost unplaced)"),
    ]


def expected(options, variant) -> tuple[str, ...]:
    wanted = ["orders", "refusals", "posts", "ended"]
    if options.updates >= MAD_FROM:
        wanted.append("mad")
    if (options.players >= CAPTURES_FROM[0] and options.updates >= CAPTURES_FROM[1]) \
            or options.updates >= FEW_CAPTURES_FROM:
        wanted.append("captures")
    if options.updates >= POWERUPS_FROM:
        wanted.append("powerups")
    return tuple(wanted)


def _seated(index: int, count: int) -> int:
    return 0            # every seat is taken before the start


PLANNER = Planner(family="arena", cast=lambda count: cast(count, _seated), plan=plan_round, count=count,
                  rows=rows, expected=expected)
