"""The simultaneous family's simulated players (neisg, sandbox: RULES 3, 4, 5.1).

Pure functions of the position players saw, the update number and the seed: players join by
placing a king, generate, capture, dodge, collide, play fallbacks (``A else B``), sometimes slip (an
illegal order, refused at once) and sometimes order by direct message (secret). A few set pieces
are staged until the session has shown them (an ambush whose target dodges, a strike on a piece
that stays, a collision). Same seed, same orders, same posts.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from bot.engine.abilities import position_for
from bot.engine.model import Piece, Square, format_square
from bot.engine.ruleset import Ruleset
from bot.engine.state import GameState
from bot.engine.validation import generation_cost, legal_destinations, square_attacked_by_enemy
from bot.engine.variants import variant_for

from .common import Intent, Planner, SimulatedPlayer, cast, chebyshev, move_text, player_rng

__all__ = ["PLANNER", "plan_update", "joining_area", "WINDOW", "FIGHTS_FROM"]

#: how far from a piece the policy looks for moves (Chebyshev)
WINDOW = 4


def joining_area(players: int) -> tuple[Square, Square]:
    """The corners of the area where kings are placed on joining: small enough that everyone meets."""
    half = 2 + players // 3
    return (-half, 0), (half, 1 + half)


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
            (x0, y0), (x1, y1) = joining_area(self.players)
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
    staging = player_rng(seed, update, "demo")
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
        rng = player_rng(seed, update, player.name)
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
        order = move_text(piece, square)
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
    return [move_text(piece, s) for s in safe[:3]]


def _fallback(table: _Table, name: str, piece: Piece, avoid: Square | None, rng: random.Random) -> str | None:
    """A second choice behind a capture attempt or a capturable piece's move: another piece's move
    or the same piece to another empty square."""
    candidates = []
    for other in table.pieces(name):
        for square in table.empty_destinations(other):
            if square != avoid and (other.id != piece.id or avoid is not None):
                candidates.append(move_text(other, square))
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
            nearest = min((chebyshev(square, e) for e in enemies), default=chebyshev(square, (0, 3)))
            return nearest, rng.random()

        orders.append(move_text(piece, min(squares, key=closeness)))
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
        slips.append(move_text(first, second.square))
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
        attack = f"{move_text(piece, square)} else {fallback}"
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
        strike = move_text(piece, square)
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
    intents = {name: Intent(by_name[name], move_text(movers[name], square), plan="collide") for name in names}
    if all(table.valid(name, intent.order) for name, intent in intents.items()):
        return intents
    return {}


# ============================================================================ the summary's counts
#: the least players and updates with which a session surely shows captures, fallbacks and collisions
FIGHTS_FROM = (6, 8)

#: report entry type -> the count it adds to
_COUNTED = {"capture": "captures", "fallback": "fallbacks", "collision": "collisions", "implosion": "implosions",
            "annihilation": "annihilations", "event_start": "events", "placement": "joins"}


def count(counts: Counter, entry) -> None:
    """One report entry into the session's counts."""
    kind = entry.type
    if kind in _COUNTED:
        counts[_COUNTED[kind]] += 1
    if kind == "order" and entry.data.get("outcome") == "dodged":
        counts["dodges"] += 1
    elif kind == "fallback" and "dodged" in str(entry.data.get("why", "")):
        counts["dodges"] += 1


def rows(summary) -> list[tuple[str, str]]:
    counts = summary.counts
    return [
        ("captures", str(counts["captures"])),
        ("dodges", str(counts["dodges"])),
        ("fallbacks fired", str(counts["fallbacks"])),
        ("collisions", str(counts["collisions"])),
        ("implosions", f"{counts['implosions']} (annihilations: {counts['annihilations']})"),
        ("events", _events_text(summary)),
        ("kings placed", str(counts["joins"])),
    ]


def _events_text(summary) -> str:
    events = summary.counts["events"]
    if summary.first_event is None:
        return f"{events} (the ruleset has none)"
    if summary.first_event == summary.own_first_event:
        return f"{events} (the first drawn at update {summary.first_event})"
    return (f"{events} (the first drawn at update {summary.first_event}; the ruleset's own is "
            f"{summary.own_first_event}, moved so this session shows one: --events-from N)")


def expected(options, variant) -> tuple[str, ...]:
    """The counts a session of these options must make positive."""
    features = variant.features
    wanted = ["orders", "refusals", "joins", "posts", "ended"]
    if options.players >= FIGHTS_FROM[0] and options.updates >= FIGHTS_FROM[1]:
        wanted.append("captures")
        if features.fallbacks:
            wanted.append("fallbacks")
        if features.implosions:
            wanted.append("implosions")
    if variant.event_draws(options.updates):
        wanted.append("events")
    return tuple(wanted)


PLANNER = Planner(family="simultaneous", cast=cast, plan=plan_update, count=count, rows=rows, expected=expected)
