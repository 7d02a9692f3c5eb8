"""Megachess's simulated players (RULES 5.3; D54 to D67, D71, D72).

Players join over time: four at the first update, then two every other update. A player with no
pieces (a newcomer, or one whose king was taken: D64) joins by placing a king near the others but
at the join distance from every piece (D62: whichever team they land on) and from the kings placed
in the same update. On their team's update (the variant says who may order now) a player moves
many pieces in one submission, each at most once (D7), in order of urgency:

1. captures of enemy kings: the king's army is handed over (D61);
2. bonus pieces within one move, collected (D58);
3. captures worth making: the victim's value, less the mover's when the square is defended;
4. a king under attack steps to a safe square (now and then: kings may stay in check);
5. a scout (one player in two sends a bishop far out of its kingdom) and the pieces already outside
   their kingdom stay where they are, and fade (D60);
6. a piece heads for the nearest bonus piece; a few others advance toward the enemy, inside the
   kingdom, mostly to squares no enemy attacks.

Teammates keep out of each other's squares, except that now and then one player sends two pieces
to one empty square (a bounce, D57). Players of the other team now and then send moves anyway
(refused, naming the team whose update it is: D65), and a joiner now and then tries a square too
near an enemy (refused: "distance"). Everything is checked with the variant's ``check`` before it
is sent. Same seed, same orders: each player draws from ``random.Random(f"{seed}:{update}:{name}")``,
the staging from ``...:demo``.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from bot.engine.abilities import position_for
from bot.engine.model import Piece, Square, format_square
from bot.engine.ruleset import Ruleset
from bot.engine.state import GameState
from bot.engine.validation import square_attacked_by_enemy
from bot.engine.variants import variant_for

from .common import Intent, Planner, SimulatedPlayer, cast, chebyshev, join_lines, move_text, player_rng

__all__ = ["PLANNER", "plan_update"]

log = logging.getLogger(__name__)

#: how far from the position's pieces the planner looks for a joining square (Chebyshev rings)
JOIN_SEARCH = 120
#: the kinds that now and then head for the nearest enemy king rather than the nearest enemy piece
HUNTERS = ("Q", "R", "B")
#: the kinds a scout is sent as: the bishop, which leaves its kingdom in two moves and fades soonest
SCOUTS = ("B",)


@dataclass(frozen=True, slots=True)
class Step:
    piece: Piece
    target: Square
    why: str = ""

    @property
    def text(self) -> str:
        return move_text(self.piece, self.target)


class _Position:
    """What the players read off the position of one update, computed once."""

    def __init__(self, ruleset: Ruleset, state: GameState) -> None:
        self.ruleset = ruleset
        self.variant = variant_for(ruleset)
        self.state = state
        self.board = state.board
        self.position = position_for(ruleset, state)
        self.royal = self.variant.features.royal or "K"
        additions = self.variant.board_additions(state)
        self.radius = additions.kingdoms[0].radius if additions.kingdoms else None
        self.outside = {(piece.square, piece.owner) for piece in additions.fading}
        self.may_order = set(self.variant.who_may_order(state))
        self.bonuses = sorted((p for p in state.board if p.owner is None), key=lambda p: p.canonical_key)
        self._destinations: dict[int, list[Square]] = {}
        self._attacked: dict[tuple[Square, str, int | None], bool] = {}

    def pieces(self, name: str) -> list[Piece]:
        return self.state.pieces_of(name)

    def kings(self, name: str) -> list[Piece]:
        return [p for p in self.pieces(name) if p.kind == self.royal]

    def team(self, name: str) -> str | None:
        record = self.state.players.get(name)
        return record.team if record is not None else None

    def destinations(self, piece: Piece) -> list[Square]:
        if piece.id not in self._destinations:
            self._destinations[piece.id] = self.variant.destinations(self.state, piece, position=self.position)
        return self._destinations[piece.id]

    def value(self, piece: Piece) -> Fraction:
        return Fraction(self.ruleset.pieces[piece.kind].cost)

    def enemies_on(self, square: Square, name: str) -> list[Piece]:
        return [p for p in self.board.at(square) if p.owner is not None and p.owner != name
                and self.position.enemies(p.owner, name)]

    def enemy_squares(self, name: str) -> list[Square]:
        return [p.square for p in self.board if p.owner is not None and p.owner != name
                and self.position.enemies(p.owner, name)]

    def attacked(self, square: Square, name: str, lifted: Piece | None = None) -> bool:
        key = (square, name, None if lifted is None else lifted.id)
        if key not in self._attacked:
            self._attacked[key] = bool(square_attacked_by_enemy(self.position, square, name, lifted))
        return self._attacked[key]

    def far(self, piece: Piece) -> bool:
        """Outside its owner's kingdom (D60): it fades unless it moves."""
        return (piece.square, piece.owner) in self.outside

    def inside(self, square: Square, kings: list[Piece]) -> bool:
        if self.radius is None:
            return True
        return any((square[0] - k.square[0]) ** 2 + (square[1] - k.square[1]) ** 2 <= self.radius ** 2 for k in kings)

    def accepts(self, name: str, text: str) -> bool:
        return self.variant.check(self.state, name, text).ok


# ============================================================================ the update's intents
def plan_update(ruleset: Ruleset, state: GameState, update: int, seed: int | str,
                players: Iterable[SimulatedPlayer], shown: frozenset[str] = frozenset()) -> list[Intent]:
    """The intents of every player who has come in by ``update``, by name, from the position they
    saw (``state``: the snapshot with this update's newcomers). ``shown``: the report entry types
    of the session's earlier updates (a bounce is staged until one has happened, then now and
    then)."""
    table = _Position(ruleset, state)
    cast_order = {p.name: index for index, p in enumerate(players)}
    present = sorted((p for p in players if p.joins_at <= update and p.name in state.players), key=lambda p: p.name)
    movers = [p for p in present if p.name in table.may_order and table.board.owns(p.name)]
    staging = player_rng(seed, update, "demo")
    bouncer = staging.choice(movers).name if movers and ("bounce" not in shown or update % 4 == 0) else None
    claimed: dict[str | None, set[Square]] = {}       # the squares each team's moves go to
    joining: list[Square] = []                          # the kings placed this update
    secret = table.variant.features.secret_orders
    intents = []
    for player in present:
        name = player.name
        rng = player_rng(seed, update, name)
        record = state.players[name]
        if not table.board.owns(name):
            if record.status != "active" and rng.random() < 0.5:
                continue                                # back in a while (D64)
            slip = _near_join(table, name, rng) if rng.random() < 0.25 else None
            order = _join(table, name, joining, rng)
            intent = Intent(player, order, slip=slip, plan="join" if record.status == "active" else "rejoin")
        elif name in table.may_order:
            scout = cast_order.get(name, 0) % 2 == 0
            steps = _moves(table, name, rng, claimed.setdefault(table.team(name), set()), scout, name == bouncer)
            if not steps:
                continue
            order = _checked(table, name, steps, rng)
            careless = rng.random() < 0.1 or (update % 3 == 0 and name == movers[update // 3 % len(movers)].name)
            slip = _teammate_slip(table, name, rng) if careless else None
            whys = ", ".join(dict.fromkeys(step.why for step in steps))
            intent = Intent(player, order, slip=slip, plan=whys)
        else:
            # the other team's update: now and then moves are sent anyway, and refused (D65)
            if rng.random() >= 0.15:
                continue
            intent = Intent(player, None, slip=_out_of_turn(table, name, rng), plan="out of turn")
        if intent.order is None and intent.slip is None:
            continue
        source = "dm" if secret and rng.random() < 0.3 else "channel"
        intents.append(Intent(intent.player, intent.order, source, intent.slip, intent.plan))
    return intents


# ============================================================================ joining
def _join(table: _Position, name: str, joining: list[Square], rng: random.Random) -> str | None:
    """A king placement near the position's centre, at the join distance from every piece (enemies
    whichever team the joiner lands on, D62) and from the kings placed this update; checked."""
    gap = max(1, table.variant.join_distance)
    owned = [p.square for p in table.board if p.owner is not None] + joining
    if owned:
        centre = (round(sum(x for x, _ in owned) / len(owned)), round(sum(y for _, y in owned) / len(owned)))
    else:
        centre = (0, 0)
    blocked = {(x + dx, y + dy) for x, y in owned for dx in range(1 - gap, gap) for dy in range(1 - gap, gap)}
    for radius in range(JOIN_SEARCH):
        ring = [(centre[0] + dx, centre[1] + dy) for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)
                if max(abs(dx), abs(dy)) == radius]
        free = [s for s in ring if s not in blocked and not table.board.occupied(s) and table.board.in_bounds(s)]
        rng.shuffle(free)
        for square in free[:8]:
            order = f"{table.royal}{format_square(square)}"
            if table.accepts(name, order):
                joining.append(square)
                return order
    return None


def _near_join(table: _Position, name: str, rng: random.Random) -> str | None:
    """A king placement too near an enemy piece: refused at once ("distance", D62, D72)."""
    gap = table.variant.join_distance
    pieces = [p for p in table.board if p.owner is not None]
    if gap < 2 or not pieces:
        return None
    near = rng.choice(sorted(pieces, key=lambda p: p.canonical_key))
    for dx, dy in ((gap // 2, 0), (0, gap // 2), (-(gap // 2), 0), (0, -(gap // 2))):
        square = (near.square[0] + dx, near.square[1] + dy)
        order = f"{table.royal}{format_square(square)}"
        if not table.board.occupied(square) and not table.accepts(name, order):
            return order
    return None


# ============================================================================ moves
def _moves(table: _Position, name: str, rng: random.Random, claimed: set[Square], scout: bool,
           bounce: bool) -> list[Step]:
    """The moves of one player on their team's update (see the module's docstring for the order)."""
    pieces = table.pieces(name)
    kings = table.kings(name)
    steps: list[Step] = []
    moving: set[int] = set()

    def add(piece: Piece, square: Square, why: str) -> bool:
        if piece.id in moving or square in claimed:
            return False
        steps.append(Step(piece, square, why))
        moving.add(piece.id)
        claimed.add(square)
        return True

    # 1. enemy kings, by any piece (a far one too: a king is worth it)
    for piece in pieces:
        for square in table.destinations(piece):
            if any(v.kind == table.royal for v in table.enemies_on(square, name)):
                add(piece, square, "king capture")
    # 2. bonus pieces within one move (D58)
    for bonus in table.bonuses:
        takers = [p for p in pieces if p.id not in moving and bonus.square in table.destinations(p)]
        if takers:
            add(min(takers, key=lambda p: (table.value(p), p.canonical_key)), bonus.square, "bonus")
    # 3. captures worth making
    found = []
    for piece in pieces:
        if piece.id in moving or table.far(piece):
            continue
        for square in table.destinations(piece):
            victims = table.enemies_on(square, name)
            if not victims:
                continue
            gain = sum(table.value(v) for v in victims)
            if table.attacked(square, name, piece):
                gain -= table.value(piece)
            if gain > 0 or (gain == 0 and rng.random() < 0.5):
                found.append((-gain, rng.random(), piece, square))
    for _, _, piece, square in sorted(found, key=lambda f: f[:2]):
        if rng.random() < 0.9:
            add(piece, square, "capture")
    # 4. a king under attack steps away, now and then (kings may stay in check)
    for king in kings:
        if king.id not in moving and table.attacked(king.square, name) and rng.random() < 0.5:
            safe = [s for s in table.destinations(king) if not table.board.occupied(s)
                    and not table.attacked(s, name, king)]
            if safe:
                add(king, rng.choice(safe), "flight")
    # 5. a scout leaves the kingdom and is left there to fade (D60)
    if scout and kings and not any(table.far(p) for p in pieces):
        _send_scout(table, name, pieces, kings, moving, add)
    # 6. toward the nearest bonus piece; a few pieces advance toward the enemy, inside the kingdom
    if table.bonuses and rng.random() < 0.8:
        _chase_bonus(table, name, pieces, moving, claimed, add, rng)
    _advance(table, name, pieces, kings, moving, claimed, add, rng)
    if bounce:
        _bounce(table, pieces, kings, moving, claimed, steps, rng)
    return steps


def _send_scout(table: _Position, name: str, pieces: list[Piece], kings: list[Piece], moving: set[int], add) -> None:
    scouts = [p for p in pieces if p.kind in SCOUTS and p.id not in moving]
    if not scouts:
        return
    enemies = table.enemy_squares(name)

    def away(square: Square) -> tuple[int, int]:
        from_king = min((square[0] - k.square[0]) ** 2 + (square[1] - k.square[1]) ** 2 for k in kings)
        from_enemy = min((chebyshev(square, e) for e in enemies), default=0)
        return from_king, from_enemy

    piece = max(scouts, key=lambda p: (away(p.square), p.canonical_key))
    squares = [s for s in table.destinations(piece) if not table.board.occupied(s)
               and not table.attacked(s, name, piece)]
    if squares:
        best = max(squares, key=away)
        if away(best) > away(piece.square):
            add(piece, best, "scout")


def _chase_bonus(table: _Position, name: str, pieces: list[Piece], moving: set[int], claimed: set[Square], add,
                 rng: random.Random) -> None:
    options = []
    for piece in pieces:
        if piece.id in moving or piece.kind == table.royal or table.far(piece):
            continue
        for bonus in table.bonuses:
            here = chebyshev(piece.square, bonus.square)
            for square in table.destinations(piece):
                if square in claimed or table.board.occupied(square):
                    continue
                nearer = chebyshev(square, bonus.square)
                if nearer < here:
                    options.append((nearer, rng.random(), piece, square))
    if options:
        _, _, piece, square = min(options, key=lambda o: o[:2])
        add(piece, square, "to a bonus")


def _advance(table: _Position, name: str, pieces: list[Piece], kings: list[Piece], moving: set[int],
             claimed: set[Square], add, rng: random.Random) -> None:
    """Two to five pieces toward the nearest enemy piece (a long-range piece toward the nearest
    enemy king, half the time), staying inside the kingdom; mostly to squares no enemy attacks."""
    pieces_seen = table.enemy_squares(name)
    enemy = set(pieces_seen)
    kings_seen = [p.square for p in table.board.of_kind(table.royal) if p.square in enemy]
    if not pieces_seen:
        return
    movers = [p for p in pieces if p.id not in moving and p.kind != table.royal and not table.far(p)]
    rng.shuffle(movers)
    wanted = rng.randint(2, 5)
    careful = rng.random() < 0.75
    for piece in movers:
        if wanted <= 0:
            return
        hunter = piece.kind in HUNTERS and kings_seen and rng.random() < 0.5
        enemies = kings_seen if hunter else pieces_seen
        here = min(chebyshev(piece.square, e) for e in enemies)
        squares = [s for s in table.destinations(piece) if s not in claimed and not table.board.occupied(s)
                   and table.inside(s, kings)]
        if careful:
            squares = [s for s in squares if not table.attacked(s, name, piece)]
        if not squares:
            continue
        best = min(squares, key=lambda s: (min(chebyshev(s, e) for e in enemies), rng.random()))
        if min(chebyshev(best, e) for e in enemies) < here and add(piece, best, "advance"):
            wanted -= 1


def _bounce(table: _Position, pieces: list[Piece], kings: list[Piece], moving: set[int], claimed: set[Square],
            steps: list[Step], rng: random.Random) -> None:
    """Two of the player's pieces sent to one empty square: both stay where they were (D57)."""
    reach: dict[Square, list[Piece]] = {}
    for piece in pieces:
        if piece.id in moving or piece.kind == table.royal or table.far(piece):
            continue
        for square in table.destinations(piece):
            if not table.board.occupied(square) and square not in claimed and table.inside(square, kings):
                reach.setdefault(square, []).append(piece)
    meetings = sorted(s for s, movers in reach.items() if len(movers) >= 2)
    if not meetings:
        return
    square = rng.choice(meetings)
    for piece in rng.sample(sorted(reach[square], key=lambda p: p.canonical_key), 2):
        steps.append(Step(piece, square, "bounce"))
        moving.add(piece.id)
    claimed.add(square)


def _checked(table: _Position, name: str, steps: list[Step], rng: random.Random) -> str | None:
    """The submission's text; when the whole is refused, the lines the bot accepts, one by one."""
    text = join_lines([step.text for step in steps], rng)
    if table.accepts(name, text):
        return text
    log.debug("megachess demo: %s's submission was refused; keeping the lines the bot accepts", name)
    kept: list[str] = []
    for step in steps:
        if table.accepts(name, "; ".join(kept + [step.text])):
            kept.append(step.text)
    return join_lines(kept, rng) if kept else None


# ============================================================================ slips
def _teammate_slip(table: _Position, name: str, rng: random.Random) -> str | None:
    """A move onto a teammate's piece (refused: "teammate", D72), or onto one's own."""
    mine = table.pieces(name)
    team = table.team(name)
    friends = [p for p in table.board if p.owner is not None and p.owner != name and table.team(p.owner) == team]
    targets = friends or mine
    if not mine or len(targets) < 1:
        return None
    piece = rng.choice(mine)
    target = min((p for p in targets if p.id != piece.id), key=lambda p: (chebyshev(p.square, piece.square),
                                                                           p.canonical_key), default=None)
    if target is None:
        return None
    text = move_text(piece, target.square)
    return None if table.accepts(name, text) else text


def _out_of_turn(table: _Position, name: str, rng: random.Random) -> str | None:
    """A move sent on the other team's update: refused whole, naming the team whose update it is (D65)."""
    options = [(p, s) for p in table.pieces(name) if p.kind != table.royal
               for s in table.destinations(p)[:4] if not table.board.occupied(s)]
    if not options:
        return None
    piece, square = rng.choice(options)
    text = move_text(piece, square)
    return None if table.accepts(name, text) else text


# ============================================================================ the summary's counts
#: report entry type -> the count it adds to
_COUNTED = {"join": "joins", "join_failed": "joins_failed", "capture": "captures", "bounce": "bounces",
            "army": "handovers", "faded": "faded", "collection": "collections", "bonus": "bonuses"}
#: the least updates after which a session surely shows captures and bounces, collected bonus pieces
#: (the first appears after update 5), army hand-overs (and the least players: two kings alone
#: keep away from each other too long) and faded pieces (a scout is out after its second move, and
#: a bishop fades after six more of its team's updates)
FIGHTS_FROM = 4
BONUS_FROM = 10
ARMIES_FROM = (4, 10)
FADING_FROM = 18


def count(counts: Counter, entry) -> None:
    kind = entry.type
    if kind in _COUNTED:
        counts[_COUNTED[kind]] += 1
    if kind == "capture" and entry.data.get("kind") == "king":
        counts["kings"] += 1


def rows(summary) -> list[tuple[str, str]]:
    counts = summary.counts
    return [
        ("joins", f"{counts['joins']} (kings placed, rejoining players among them; {counts['joins_failed']} failed "
                  f"at the update)"),
        ("captures", f"{counts['captures']} ({counts['kings']} kings)"),
        ("hand-overs", f"{counts['handovers']} (armies taken with their king, D61)"),
        ("bounces", f"{counts['bounces']} (pieces of one team onto one square, D57)"),
        ("faded", f"{counts['faded']} (pieces left outside their kingdom, D60)"),
        ("bonus collected", f"{counts['collections']} (of {counts['bonuses']} bonus pieces that appeared)"),
    ]


def expected(options, variant) -> tuple[str, ...]:
    wanted = ["orders", "refusals", "joins", "posts", "ended"]
    if options.updates >= FIGHTS_FROM:
        wanted += ["captures", "bounces"]
    if options.updates >= BONUS_FROM:
        wanted.append("collections")
    if options.players >= ARMIES_FROM[0] and options.updates >= ARMIES_FROM[1]:
        wanted.append("handovers")
    if options.updates >= FADING_FROM:
        wanted.append("faded")
    return tuple(wanted)


def _over_time(index: int, count: int) -> int:
    """Four players at the first update, then two every other update (2, 4, 6, ...)."""
    return 1 if index < 4 else 2 * ((index - 4) // 2) + 2


PLANNER = Planner(family="megachess", cast=lambda count: cast(count, _over_time), plan=plan_update, count=count,
                  rows=rows, expected=expected)
