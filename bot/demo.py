"""The offline demo session: ``python -m bot demo`` (INTERFACES.md, "Command line").

A whole play-by-post game with simulated players, no Discord and no token. It goes through the
same path as the bot: :class:`~bot.service.Service` over a SQLite file, the real
:class:`~bot.scheduler.GameScheduler` firing at deadlines a few seconds apart, and the outbox
delivered by :class:`~bot.service.OutboxRelay` to files (``DIR/posts/0001/board.png``, ...).

Three parts, one concern each:

* the players' policy (:func:`cast`, :func:`plan_update`): pure functions of the position players
  saw, the update number and the seed. They join, place kings, generate, capture, dodge, collide,
  play fallbacks (``A else B``), sometimes slip (an illegal order, refused at once) and sometimes
  order by direct message (secret). Same seed, same orders, same posts;
* the session driver (:func:`run_demo`): creates the game or continues the unfinished one found in
  ``DIR/skirmish.sqlite3`` (a demo killed at any point resumes where it stopped), submits each
  update's orders as soon as the board is posted, and waits for the scheduler to resolve it;
* the summary (:class:`Summary`): counts read back from the stored updates, and which of them the
  session should have produced (a zero there is a failure: exit status 1).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import sys
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bot.engine.abilities import position_for
from bot.engine.model import Piece, Square, format_square
from bot.engine.ruleset import Ruleset, load_preset
from bot.engine.state import GameState
from bot.engine.validation import generation_cost, legal_destinations, square_attacked_by_enemy
from bot.engine.variants import variant_for

__all__ = ["DATABASE", "INTERVAL_SECONDS", "POSTS", "DemoError", "DemoOptions", "Intent", "SimulatedPlayer", "Summary",
           "cast", "plan_update", "run_demo"]

log = logging.getLogger(__name__)

DATABASE = "skirmish.sqlite3"
POSTS = "posts"
LEDGER = "demo-ledger.json"

#: seconds between two deadlines: long enough for a slow machine to resolve, post and order in time
INTERVAL_SECONDS = 3
#: the longest interval the demo slows down to on a machine too slow for the first one
MAX_INTERVAL_SECONDS = 24
#: the demo's Discord-shaped ids (nothing is sent anywhere)
GUILD_ID = 1
CHANNEL_ID = 1
MODERATOR_ID = 1
FIRST_USER_ID = 1001

NAMES = ("Ada", "Basil", "Cleo", "Dario", "Edda", "Fenn", "Greta", "Hugo", "Ines", "Jory", "Kasia", "Lev",
         "Mira", "Nils", "Odile", "Pavel", "Quinn", "Rosa", "Sami", "Tove", "Ugo", "Vera", "Wim", "Xenia",
         "Yusuf", "Zora")
#: how far from a piece the policy looks for moves (Chebyshev)
WINDOW = 4


class DemoError(Exception):
    """The demo cannot run or continue (printed as one message)."""


@dataclass(frozen=True, slots=True)
class DemoOptions:
    ruleset: str = "neisg"
    players: int = 12
    updates: int = 20
    seed: int = 1
    out: Path = Path("demo")
    interval: int = INTERVAL_SECONDS
    events_from: int | None = None      # the first event's update; None: see first_event()

    @property
    def game_name(self) -> str:
        """Names the session: a database holding another session is not continued by mistake."""
        chosen = f", events from {self.events_from}" if self.events_from is not None else ""
        return (f"Skirmish demo ({self.ruleset}, {self.players} players, {self.updates} updates, "
                f"seed {self.seed}{chosen})")

    def first_event(self, ruleset: Ruleset) -> int | None:
        """The update of the session's first event draw: ``events_from`` when given; else the
        ruleset's own when an event falls within the session; else, so that a short session still
        shows one (sandbox's first is at update 25), a quarter of the way in (at least update 2).
        None for a ruleset without events."""
        if self.events_from is not None:
            return self.events_from
        variant = variant_for(ruleset)
        own = variant.first_event
        if own is None:
            return None
        if variant.event_draws(self.updates):
            return own
        return max(2, self.updates // 4)


# ============================================================================ the players' policy
@dataclass(frozen=True, slots=True)
class SimulatedPlayer:
    user_id: int
    name: str
    colour: str
    joins_at: int       # the update for which they join (most at 1; a few arrive later)


@dataclass(frozen=True, slots=True)
class Intent:
    """What one player sends for one update: perhaps a ``slip`` first (an order the bot refuses),
    then ``order`` (None: they send nothing), in the channel or by direct message."""

    player: SimulatedPlayer
    order: str | None
    source: str = "channel"
    slip: str | None = None
    plan: str = ""      # why: join, capture, ambush, dodge, collide, generate, advance, ...


def cast(count: int) -> list[SimulatedPlayer]:
    """``count`` players with distinct names and colours; two in three join at update 1, the others
    at updates 2 and 3 (joining mid-game is part of the show)."""
    from bot.render.palette import colour_names

    colours = colour_names()
    if not 2 <= count <= len(colours):
        raise DemoError(f"the demo has 2 to {len(colours)} players, not {count}")
    players = []
    early = max(2, -(-2 * count // 3))
    for index in range(count):
        name = NAMES[index] if index < len(NAMES) else f"Player {index + 1}"
        joins_at = 1 if index < early else 2 + (index - early) % 2
        players.append(SimulatedPlayer(FIRST_USER_ID + index, name, colours[index], joins_at))
    return players


def arena(players: int) -> tuple[Square, Square]:
    """The corners of the area where kings are placed on joining: small enough that everyone meets."""
    half = 2 + players // 3
    return (-half, 0), (half, 1 + half)


def _rng(seed: int | str, update: int, who: str) -> random.Random:
    return random.Random(f"{seed}:{update}:{who}")


def _move(piece: Piece, target: Square) -> str:
    return f"{piece.kind}{format_square(piece.square)}-{format_square(target)}"


def _distance(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


class _Table:
    """What the policy reads off the position players saw, computed once per update."""

    def __init__(self, ruleset: Ruleset, state: GameState, players: int) -> None:
        self.ruleset = ruleset
        self.variant = variant_for(ruleset)
        self.features = self.variant.features
        self.state = state
        self.players = players
        self.position = position_for(ruleset, state)
        self.royal = self.features.royal or "K"
        self._destinations: dict[int, list[Square]] = {}

    def pieces(self, name: str) -> list[Piece]:
        return self.state.pieces_of(name)

    def king(self, name: str) -> Piece | None:
        return next((p for p in self.pieces(name) if p.kind == self.royal), None)

    def enemies_on(self, square: Square, name: str) -> list[Piece]:
        return [p for p in self.state.board.at(square) if p.owner is not None and p.owner != name
                and self.position.enemies(p.owner, name)]

    def destinations(self, piece: Piece) -> list[Square]:
        if piece.id not in self._destinations:
            self._destinations[piece.id] = legal_destinations(self.position, piece, WINDOW, self.state)
        return self._destinations[piece.id]

    def empty_destinations(self, piece: Piece) -> list[Square]:
        return [s for s in self.destinations(piece) if not self.state.board.occupied(s)]

    def captures(self, piece: Piece) -> list[tuple[Square, Piece]]:
        found = []
        for square in self.destinations(piece):
            victims = self.enemies_on(square, piece.owner)
            if victims:
                found.append((square, max(victims, key=self.worth)))
        return found

    def attacked(self, square: Square, name: str, lifted: Piece | None = None) -> bool:
        return bool(square_attacked_by_enemy(self.position, square, name, lifted))

    def worth(self, piece: Piece) -> float:
        return 10.0 if piece.kind == self.royal else float(self.ruleset.pieces[piece.kind].cost)

    def valid(self, name: str, text: str | None) -> bool:
        return text is not None and self.variant.check(self.state, name, text).ok

    def free_squares(self, centre: Square | None, radius: int) -> list[Square]:
        if centre is None:
            (x0, y0), (x1, y1) = arena(self.players)
        else:
            x0, y0, x1, y1 = centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius
        return [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)
                if not self.state.board.occupied((x, y)) and self.state.board.in_bounds((x, y))]

    def generable(self) -> list:
        pawn = self.features.pawn
        return [kind for letter, kind in sorted(self.ruleset.pieces.items())
                if kind.cost > 0 and not kind.abilities and letter not in (pawn, self.royal)]


#: the set pieces the staging makes sure a session shows: the report entry that proves each, and
#: its turn (update % 3) once it has been shown
SET_PIECES = (("ambush", "fallback", 0), ("strike", "capture", 2), ("collision", "collision", 1))


def plan_update(ruleset: Ruleset, state: GameState, update: int, seed: int | str,
                players: Iterable[SimulatedPlayer], shown: frozenset[str] = frozenset()) -> list[Intent]:
    """The intents of every joined player for ``update``, by name, from the position they saw
    (``state``: the snapshot with this update's joiners). ``shown``: the report entry types the
    session's earlier updates have (a set piece not shown yet is staged at every chance, then in
    its turn). Deterministic: each player draws from ``random.Random(f"{seed}:{update}:{name}")``,
    the staging of set pieces from ``...:demo``."""
    everyone = list(players)
    table = _Table(ruleset, state, len(everyone))
    players = sorted((p for p in everyone if p.joins_at <= update), key=lambda p: p.name)
    active = [p for p in players if p.name in state.players and state.players[p.name].status == "active"]
    chosen: dict[str, Intent] = {}
    staging = _rng(seed, update, "demo")
    # set pieces first: an ambush whose target dodges (the attacker's fallback fires), a strike on
    # a piece that stays (a capture), two players arriving on one square (a collision, then an
    # implosion square). Each involves players not yet cast in another this update.
    stages = {"ambush": _stage_ambush, "strike": _stage_strike, "collision": _stage_collision}
    features = table.features
    for piece, proof, turn in SET_PIECES:
        if piece == "ambush" and not features.fallbacks:
            continue
        if piece == "collision" and (not features.implosions or state.implosions):
            continue
        if proof in shown and update % 3 != turn:
            continue
        free = [p for p in active if p.name not in chosen]
        chosen.update(stages[piece](table, free, staging))
    intents = []
    for player in players:
        rng = _rng(seed, update, player.name)
        intent = chosen.get(player.name) or _choose(table, player, rng)
        if intent is None:
            continue
        # now and then a slip; and every other update one player in turn surely slips
        careless = rng.random() < 0.1 or (update % 2 == 1 and player == players[update // 2 % len(players)])
        slip = _slip(table, player, rng) if careless else None
        source = "dm" if features.secret_orders and rng.random() < 0.3 else "channel"
        intents.append(Intent(player, intent.order, source, slip, intent.plan))
    return intents


def _choose(table: _Table, player: SimulatedPlayer, rng: random.Random) -> Intent | None:
    """One player's own choice: join, rescue what is in danger, capture, build, or advance."""
    name = player.name
    info = table.state.players.get(name)
    if info is None or info.status != "active":
        return None
    pieces = table.pieces(name)
    king = table.king(name)
    if king is None and (not pieces or rng.random() < 0.5):
        placement = _place_king(table, name, pieces, rng)
        if placement is not None:
            return Intent(player, placement, plan="join" if not pieces else "king")
    if not pieces:
        return None
    options: list[tuple[str, str]] = []
    doomed = [p for p in pieces if p.square in table.state.implosions]
    if doomed and rng.random() < 0.7:
        options += [("flee", o) for o in _escapes(table, rng.choice(doomed), rng)]
    captures = [(piece, square, victim) for piece in pieces for square, victim in table.captures(piece)]
    if captures and rng.random() < 0.85:
        best = max(table.worth(v) for _, _, v in captures)
        piece, square, victim = rng.choice([c for c in captures if table.worth(c[2]) == best])
        order = _move(piece, square)
        if victim.check != "capturable" and rng.random() < 0.6:
            fallback = _fallback(table, name, piece, square, rng)
            if fallback is not None:
                options.append(("capture", f"{order} else {fallback}"))
        options.append(("capture", order))
    threatened = [p for p in pieces if table.attacked(p.square, name)]
    if threatened and rng.random() < 0.75:
        piece = max(threatened, key=lambda p: (table.worth(p), p.canonical_key))
        for escape in _escapes(table, piece, rng):
            if piece.check == "capturable" and rng.random() < 0.5:
                fallback = _fallback(table, name, piece, None, rng)
                if fallback is not None:
                    options.append(("dodge", f"{escape} else {fallback}"))
            options.append(("dodge", escape))
    # then build or advance, half and half; building is also the last resort
    build = _generate(table, name, king, rng)
    if build is not None and rng.random() < 0.5:
        options.append(("generate", build))
    options += [("advance", o) for o in _advances(table, name, pieces, rng)]
    if build is not None:
        options.append(("generate", build))
    for plan, order in options:
        if table.valid(name, order):
            return Intent(player, order, plan=plan)
    return None


def _place_king(table: _Table, name: str, pieces: list[Piece], rng: random.Random) -> str | None:
    """A king placement on a free square no enemy attacks: in the arena when joining, else near
    the player's own pieces."""
    centre = min((p.square for p in pieces), default=None)
    squares = table.free_squares(centre, 2)
    rng.shuffle(squares)
    for square in squares[:20]:
        if not table.attacked(square, name):
            order = f"{table.royal}{format_square(square)}"
            if table.valid(name, order):
                return order
    return None


def _escapes(table: _Table, piece: Piece, rng: random.Random) -> list[str]:
    """Up to three moves of ``piece`` to empty squares no enemy attacks, in random order."""
    squares = [s for s in table.empty_destinations(piece) if s not in table.state.implosions]
    safe = [s for s in squares if not table.attacked(s, piece.owner, piece)]
    rng.shuffle(safe)
    return [_move(piece, s) for s in safe[:3]]


def _fallback(table: _Table, name: str, piece: Piece, avoid: Square | None, rng: random.Random) -> str | None:
    """A second choice behind a capture attempt or a capturable piece's move: another piece's move
    or the same piece to another empty square."""
    candidates = []
    for other in table.pieces(name):
        for square in table.empty_destinations(other):
            if square != avoid and (other.id != piece.id or avoid is not None):
                candidates.append(_move(other, square))
    rng.shuffle(candidates)
    return next((c for c in candidates[:8] if table.valid(name, c)), None)


def _generate(table: _Table, name: str, king: Piece | None, rng: random.Random) -> str | None:
    """A plain piece the player can afford (keeping 2 in reserve) generated next to their king,
    on a square no enemy attacks if there is one."""
    if not table.features.generation or king is None:
        return None
    balance = table.state.players[name].balance
    kinds = [k for k in table.generable() if generation_cost(table.ruleset, table.state, k) <= balance - 2]
    if not kinds:
        return None
    kind = rng.choice(kinds)
    squares = [s for s in table.free_squares(king.square, 2) if s not in table.state.implosions]
    rng.shuffle(squares)
    safe = [s for s in squares if not table.attacked(s, name)]
    for square in (safe or squares)[:5]:
        order = f"+{kind.letter}{format_square(square)}"
        if table.valid(name, order):
            return order
    return None


def _advances(table: _Table, name: str, pieces: list[Piece], rng: random.Random) -> list[str]:
    """Moves toward the nearest enemy, the piece drawn at random; mostly to squares no enemy attacks."""
    enemies = [p.square for p in table.state.board if p.owner is not None and p.owner != name]
    movers = list(pieces)
    rng.shuffle(movers)
    careful = rng.random() < 0.7
    orders = []
    for piece in movers[:3]:
        squares = [s for s in table.empty_destinations(piece) if s not in table.state.implosions]
        if careful:
            squares = [s for s in squares if not table.attacked(s, name, piece)]
        if not squares:
            continue

        def closeness(square: Square) -> tuple[int, float]:
            nearest = min((_distance(square, e) for e in enemies), default=_distance(square, (0, 3)))
            return nearest, rng.random()

        orders.append(_move(piece, min(squares, key=closeness)))
    return orders


def _slip(table: _Table, player: SimulatedPlayer, rng: random.Random) -> str | None:
    """An order the bot must refuse: chess notation, a king's leap, a move onto a friend, a pawn
    generated too high, an unknown letter."""
    pieces = table.pieces(player.name)
    king = table.king(player.name)
    slips = ["Nf3", "e4", "X(1,1)", f"+{table.features.pawn}(0,3)"]
    if king is not None:
        slips.append(f"{table.royal}{format_square(king.square)}-({king.square[0] + 3},{king.square[1]})")
    if len(pieces) >= 2:
        first, second = pieces[0], pieces[1]
        slips.append(_move(first, second.square))
    rng.shuffle(slips)
    return next((s for s in slips if not table.valid(player.name, s)), None)


def _stage_ambush(table: _Table, active: list[SimulatedPlayer], rng: random.Random) -> dict[str, Intent]:
    """A capture attempt whose target dodges: the attacker's fallback fires (D12)."""
    by_name = {p.name: p for p in active}
    plots = []
    for attacker in active:
        for piece in table.pieces(attacker.name):
            for square, victim in table.captures(piece):
                if victim.check == "capturable" or victim.owner not in by_name:
                    continue
                plots.append((attacker.name, piece, square, victim))
    rng.shuffle(plots)
    for name, piece, square, victim in plots[:6]:
        escapes = _escapes(table, victim, rng)
        fallback = _fallback(table, name, piece, square, rng)
        if not escapes or fallback is None:
            continue
        attack = f"{_move(piece, square)} else {fallback}"
        if table.valid(name, attack) and table.valid(victim.owner, escapes[0]):
            return {name: Intent(by_name[name], attack, plan="ambush"),
                    victim.owner: Intent(by_name[victim.owner], escapes[0], plan="dodge")}
    return {}


def _stage_strike(table: _Table, active: list[SimulatedPlayer], rng: random.Random) -> dict[str, Intent]:
    """A capture attempt on a piece whose owner moves something else: the piece is captured. The
    attacker is one no enemy attacks, so that nothing holds it in place (D13) or takes it first."""
    by_name = {p.name: p for p in active}
    plots = [(attacker.name, piece, square, victim) for attacker in active for piece in table.pieces(attacker.name)
             if not table.attacked(piece.square, attacker.name)
             for square, victim in table.captures(piece) if victim.owner in by_name]
    rng.shuffle(plots)
    for name, piece, square, victim in plots[:6]:
        strike = _move(piece, square)
        if not table.valid(name, strike):
            continue
        chosen = {name: Intent(by_name[name], strike, plan="strike")}
        others = [p for p in table.pieces(victim.owner) if p.id != victim.id]
        elsewhere = _advances(table, victim.owner, others, rng) if others else []
        elsewhere.append(_generate(table, victim.owner, table.king(victim.owner), rng))
        order = next((o for o in elsewhere if o is not None and table.valid(victim.owner, o)), None)
        chosen[victim.owner] = Intent(by_name[victim.owner], order, plan="unaware")
        return chosen
    return {}


def _stage_collision(table: _Table, active: list[SimulatedPlayer], rng: random.Random) -> dict[str, Intent]:
    """Two players' pieces sent to one empty square: a collision, an implosion square. Pieces no
    enemy attacks (so that both arrive), kings only when no other piece can meet."""
    for kings in (False, True):
        reach: dict[Square, list[tuple[str, Piece]]] = {}
        for player in active:
            for piece in table.pieces(player.name):
                if (piece.kind == table.royal) != kings or table.attacked(piece.square, player.name):
                    continue
                for square in table.empty_destinations(piece):
                    reach.setdefault(square, []).append((player.name, piece))
        meetings = sorted(s for s, movers in reach.items() if len({name for name, _ in movers}) >= 2
                          and s not in table.state.implosions)
        if meetings:
            break
    else:
        return {}
    square = rng.choice(meetings)
    movers: dict[str, Piece] = {}
    for name, piece in sorted(reach[square], key=lambda m: (m[0], m[1].canonical_key)):
        movers.setdefault(name, piece)
    names = rng.sample(sorted(movers), 2)
    by_name = {p.name: p for p in active}
    intents = {name: Intent(by_name[name], _move(movers[name], square), plan="collide") for name in names}
    if all(table.valid(name, intent.order) for name, intent in intents.items()):
        return intents
    return {}


# ============================================================================ the summary
@dataclass
class Summary:
    """Counts of a session, read back from its stored updates (and, for what is refused at once and
    never stored, from the demo's ledger)."""

    updates: int = 0
    length: int = 0
    orders: int = 0
    secret: int = 0
    refused_at_once: int = 0
    refused_at_update: int = 0
    captures: int = 0
    dodges: int = 0
    fallbacks: int = 0
    collisions: int = 0
    implosions: int = 0
    annihilations: int = 0
    events: int = 0
    joins: int = 0
    posts: int = 0
    expected: tuple[str, ...] = ()
    seconds: float = 0.0
    late: int = 0
    interval: int = INTERVAL_SECONDS
    first_event: int | None = None
    own_first_event: int | None = None

    @property
    def refusals(self) -> int:
        return self.refused_at_once + self.refused_at_update

    def missing(self) -> list[str]:
        """The counts the session should have produced and did not."""
        return [name for name in self.expected if getattr(self, name) == 0]

    def _events_text(self) -> str:
        if self.first_event is None:
            return f"{self.events} (the ruleset has none)"
        if self.first_event == self.own_first_event:
            return f"{self.events} (the first drawn at update {self.first_event})"
        return (f"{self.events} (the first drawn at update {self.first_event}; the ruleset's own is "
                f"{self.own_first_event}, moved so this session shows one: --events-from N)")

    def text(self, options: DemoOptions) -> str:
        rows = [
            ("updates", f"{self.updates} of {self.length}"),
            ("orders", f"{self.orders} ({self.secret} secret, by direct message)"),
            ("refusals", f"{self.refusals} ({self.refused_at_once} at once, {self.refused_at_update} at the update)"),
            ("captures", str(self.captures)),
            ("dodges", str(self.dodges)),
            ("fallbacks fired", str(self.fallbacks)),
            ("collisions", str(self.collisions)),
            ("implosions", f"{self.implosions} (annihilations: {self.annihilations})"),
            ("events", self._events_text()),
            ("kings placed", str(self.joins)),
            ("posts", f"{self.posts} files in {Path(options.out) / POSTS}"),
        ]
        width = max(len(label) for label, _ in rows)
        title = (f"Skirmish demo: {options.ruleset}, {options.players} players, {options.updates} updates, "
                 f"seed {options.seed}; database {Path(options.out) / DATABASE}")
        lines = [title]
        lines += [f"  {label.ljust(width)}  {value}" for label, value in rows]
        if self.seconds:
            lines.append(f"  {'time'.ljust(width)}  {self.seconds:.0f} s")
        if self.interval > options.interval:
            lines.append(f"  note: this machine was slow; updates were slowed to one every {self.interval} s")
        if self.late:
            lines.append(f"  warning: {self.late} orders missed their update (a very slow machine?)")
        missing = self.missing()
        if missing:
            lines.append(f"FAILED: the session should have produced {', '.join(missing)}, and did not")
        return "\n".join(lines)


#: the least players and updates with which a session surely shows captures, fallbacks and collisions
FIGHTS_FROM = (6, 8)


def expected_counts(ruleset: Ruleset, options: DemoOptions) -> tuple[str, ...]:
    """The counts a session of these options must make positive."""
    features = variant_for(ruleset).features
    expected = ["orders", "refusals", "joins", "posts"]
    if options.players >= FIGHTS_FROM[0] and options.updates >= FIGHTS_FROM[1]:
        expected.append("captures")
        if features.fallbacks:
            expected.append("fallbacks")
        if features.implosions:
            expected.append("implosions")
    if variant_for(ruleset).event_draws(options.updates):
        expected.append("events")
    return tuple(expected)


def count_entries(summary: Summary, entries: Iterable) -> None:
    """Add one update's report entries to ``summary``."""
    for item in entries:
        kind = item.type
        if kind == "refused":
            summary.refused_at_update += 1
        elif kind == "capture":
            summary.captures += 1
        elif kind == "order" and item.data.get("outcome") == "dodged":
            summary.dodges += 1
        elif kind == "fallback":
            summary.fallbacks += 1
            summary.dodges += "dodged" in str(item.data.get("why", ""))
        elif kind == "collision":
            summary.collisions += 1
        elif kind == "implosion":
            summary.implosions += 1
        elif kind == "annihilation":
            summary.annihilations += 1
        elif kind == "event_start":
            summary.events += 1
        elif kind == "placement":
            summary.joins += 1


# ============================================================================ the ledger
class _Ledger:
    """What the database does not keep: per update, the orders refused at once and the secret ones.
    Rewritten per update, so an update whose orders are sent again after a crash counts once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.entries: dict[str, dict] = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            self.entries = {}
        except (OSError, ValueError) as exc:
            raise DemoError(f"cannot read {path}: {exc}") from None

    def record(self, update: int, **counts: int) -> None:
        self.entries[str(update)] = counts
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(self.entries, out, indent=1, sort_keys=True)
        os.replace(temporary, self.path)

    def total(self, key: str) -> int:
        return sum(entry.get(key, 0) for entry in self.entries.values())


# ============================================================================ the session driver
class _Progress:
    """A progress bar on a terminal; nothing otherwise (CI logs stay clean)."""

    def __init__(self, total: int, stream=None) -> None:
        self.total = total
        self.stream = stream or sys.stdout
        self.enabled = self.stream.isatty()

    def show(self, done: int, note: str = "") -> None:
        if not self.enabled:
            return
        width = 30
        filled = width * min(done, self.total) // max(self.total, 1)
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] update {done}/{self.total} {note:<24}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


async def run_demo(options: DemoOptions) -> Summary:
    """Play (or continue) the demo session in ``options.out``; the summary of the whole session."""
    from bot.service import Service
    from bot.store import Store, StoreError

    started = time.monotonic()
    ruleset = _ruleset(options.ruleset)
    players = cast(options.players)
    out = Path(options.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        store = await Store.open(out / DATABASE)
    except (OSError, StoreError) as exc:
        raise DemoError(f"cannot open {out / DATABASE}: {exc}") from None
    try:
        session = _Session(Service(store), ruleset, players, options)
        summary = await session.play()
        summary.seconds = time.monotonic() - started
        return summary
    finally:
        await store.close()


def _moderator():
    """The demo server's moderator, as the service's moderator use cases take one."""
    from bot.service import Moderator

    return Moderator(user_id=MODERATOR_ID, guild_id=GUILD_ID)


async def _deliver_until(stop: asyncio.Event, service, relay) -> None:
    """Deliver the outbox as posts arrive (what ``OutboxRelay.run`` does), until ``stop`` is set."""
    while not stop.is_set():
        service.posts_waiting.clear()
        try:
            await relay.deliver_due()
        except Exception:          # as OutboxRelay.run: a failed round is retried, delivery goes on
            log.exception("the demo's outbox delivery failed; retrying")
        try:
            await asyncio.wait_for(service.posts_waiting.wait(), relay.poll_seconds)
        except TimeoutError:
            pass


def _ruleset(name: str) -> Ruleset:
    from bot.engine.ruleset import RulesetError, preset_names

    if name not in preset_names():
        raise DemoError(f"unknown ruleset {name!r}: choose one of {', '.join(preset_names())}")
    from bot.engine.variants import VariantUnavailable

    try:
        ruleset = load_preset(name)
        variant_for(ruleset)
    except (RulesetError, VariantUnavailable) as exc:
        raise DemoError(str(exc)) from None
    return ruleset


class _Session:
    """One demo game driven through the service: the moderator's part and the players' part."""

    def __init__(self, service, ruleset: Ruleset, players: list[SimulatedPlayer], options: DemoOptions) -> None:
        self.service = service
        self.ruleset = ruleset
        self.players = players
        self.options = options
        self.out = Path(options.out)
        self.ledger = _Ledger(self.out / LEDGER)
        self.late = 0
        self.interval = options.interval
        self._reports: dict[int, object] = {}

    async def play(self) -> Summary:
        from bot.scheduler import GameScheduler
        from bot.service import FilePublisher, OutboxRelay

        service = self.service
        game = await self.find_or_create()
        self.interval = max(self.interval, service.schedule(game).seconds or 0)   # slowed down before?
        relay = OutboxRelay(service, FilePublisher(self.out / POSTS), poll_seconds=0.5)
        progress = _Progress(self.options.updates)
        if game.status == "running" and not game.locked and game.claimed_by is None:
            # before the scheduler starts: a deadline that passed while the demo was down then
            # resolves with this update's orders in, as in a session that never stopped
            await self.play_update(game)
            game = await self.start_clock(game)
        scheduler = GameScheduler(service)
        await scheduler.start()
        stop = asyncio.Event()
        delivery = asyncio.create_task(_deliver_until(stop, service, relay), name="demo outbox relay")
        try:
            # the orders of this update are in: sent just now, or locked in when the demo stopped
            # (the scheduler may have resolved it since, at its start)
            played = game.update_no
            game = await self.start_clock(await service.get_game(game.id))
            while True:
                progress.show(game.snapshot_update or 0)
                game = await self.next_open_update(game.id, played)
                if game.status == "ended":
                    break
                await self.play_update(game)
                played = game.update_no
                await self.keep_pace(game)
        finally:
            # stopped, not cancelled: a task cancelled inside a database read can leave the
            # store's reader connection in an open transaction
            stop.set()
            service.posts_waiting.set()
            await delivery
            await scheduler.settle()
            await scheduler.shutdown()
        progress.show(game.snapshot_update or 0, "delivering posts")
        while await relay.deliver_due():
            pass
        progress.close()
        return await self.summarise(game)

    # ------------------------------------------------------------------ the moderator
    async def find_or_create(self):
        """The demo game found in the database (started if it was not), or a new one."""
        from bot.service import Schedule

        service, options = self.service, self.options
        first_event = options.first_event(self.ruleset)
        moved = {} if first_event == variant_for(self.ruleset).first_event else {"events_from": first_event}
        games = await service.games_in(channel_id=CHANNEL_ID, include_ended=True)
        if games:
            game = max(games, key=lambda g: g.id)
            if game.name != options.game_name:
                raise DemoError(f"{self.out / DATABASE} holds another session, {game.name!r}; "
                                "choose another --out, or delete that directory")
        else:
            # the schedule is set once the first orders are in (start_clock): the announcement of
            # the start then has no clock time in it, and the session's posts are alike on every run
            game = await service.create_game(guild_id=GUILD_ID, channel_id=CHANNEL_ID, actor=_moderator(),
                                             ruleset=options.ruleset, name=options.game_name, seed=options.seed,
                                             settings={"length": options.updates, "remind_before": 0,
                                                       "lock_before": 0, **moved},
                                             schedule=Schedule("manual"))
        if game.status == "setup":
            game = await service.start_game(game.id, actor=_moderator())
        self.ruleset = service.ruleset(game)        # as the game plays it (its own first event)
        return game

    async def start_clock(self, game):
        """Deadlines every ``interval`` seconds from now, as a moderator's /game schedule would set."""
        from bot.service import Schedule

        if game.deadline_at is not None or game.status != "running":
            return game
        return await self.service.configure(game.id, actor=_moderator(),
                                            schedule=Schedule("interval", seconds=self.interval))

    async def keep_pace(self, game) -> None:
        """On a machine so slow that the orders got in with little time to spare, lengthen the
        interval from the next deadline on (no post mentions a time: the session stays the same)."""
        from bot.service import Schedule

        spare = (game.deadline_at - self.service.now()).total_seconds() if game.deadline_at else self.interval
        if spare >= self.interval / 2 or self.interval >= MAX_INTERVAL_SECONDS:
            return
        self.interval = min(2 * self.interval, MAX_INTERVAL_SECONDS)
        await self.service.configure(game.id, actor=_moderator(), schedule=Schedule("interval", seconds=self.interval))

    async def next_open_update(self, game_id: int, played: int):
        """Wait until the scheduler has resolved update ``played`` (its board is posted) and the next
        update is open for orders, or the game has ended."""
        patience = max(60.0, 10.0 * self.interval)
        deadline = time.monotonic() + patience
        while True:
            game = await self.service.get_game(game_id)
            if game.status == "ended" or (game.update_no > played and not game.locked and game.claimed_by is None):
                return game
            if time.monotonic() > deadline:
                raise DemoError(f"update {game.update_no} was not resolved within {patience:.0f} s; "
                                "is the scheduler running?")
            await asyncio.sleep(0.05)

    # ------------------------------------------------------------------ the players
    async def play_update(self, game) -> None:
        """Join this update's newcomers, then send every player's orders (slips first)."""
        from bot.service import Conflict, OrderRefused, WrongTime
        from bot.service.base import with_joiners

        service, update = self.service, game.update_no
        joined = {row.user_id for row in await service.players(game.id)}
        for player in self.players:
            if player.joins_at <= update and player.user_id not in joined:
                try:
                    await service.join(game.id, user_id=player.user_id, name=player.name, colour=player.colour)
                except Conflict:
                    pass
        seen = await service.history(game.id, game.snapshot_update)
        rows = await service.players(game.id)
        state = with_joiners(self.ruleset, seen.state,
                             [(row.name, row.colour) for row in rows if row.name not in seen.state.players])
        shown: set[str] = set()
        for number in range(1, game.snapshot_update + 1):
            shown.update(entry.type for entry in await self.entries(game.id, number))
        intents = await asyncio.to_thread(plan_update, self.ruleset, state, update, self.options.seed,
                                          self.players, frozenset(shown))
        refused = secret = sent = 0
        for intent in intents:
            user = intent.player.user_id
            try:
                if intent.slip is not None:
                    try:
                        await service.submit_order(game.id, user_id=user, text=intent.slip, source=intent.source)
                    except OrderRefused:
                        refused += 1
                if intent.order is None:
                    continue
                receipt = await service.submit_order(game.id, user_id=user, text=intent.order, source=intent.source)
            except (WrongTime, OrderRefused):
                self.late += 1          # the update closed meanwhile (a very slow machine)
                continue
            if receipt.update_no != update:
                self.late += 1
            sent += 1
            secret += receipt.secret
        self.ledger.record(update, sent=sent, secret=secret, refused=refused)

    async def entries(self, game_id: int, update: int) -> list:
        """The report entries of a resolved update (read once: a resolved update does not change)."""
        if update not in self._reports:
            entry = await self.service.history(game_id, update)
            self._reports[update] = (len(entry.orders), entry.report.entries if entry.report else [])
        return self._reports[update][1]

    # ------------------------------------------------------------------ the summary
    async def summarise(self, game) -> Summary:
        summary = Summary(length=self.options.updates, expected=expected_counts(self.ruleset, self.options),
                          late=self.late, interval=self.interval, first_event=variant_for(self.ruleset).first_event,
                          own_first_event=variant_for(_ruleset(self.options.ruleset)).first_event)
        summary.updates = game.snapshot_update or 0
        for update in range(1, summary.updates + 1):
            count_entries(summary, await self.entries(game.id, update))
            summary.orders += self._reports[update][0]
        summary.secret = self.ledger.total("secret")
        summary.refused_at_once = self.ledger.total("refused")
        posts = self.out / POSTS
        summary.posts = sum(1 for path in posts.rglob("*") if path.is_file()) if posts.exists() else 0
        return summary


def main(options: DemoOptions) -> int:
    """Run the demo and print its summary: 0 when every expected count is positive, else 1."""
    try:
        summary = asyncio.run(run_demo(options))
    except KeyboardInterrupt:
        print(f"\nstopped; the same command continues the session in {options.out}", file=sys.stderr)
        return 130
    print(summary.text(options))
    return 1 if summary.missing() else 0
