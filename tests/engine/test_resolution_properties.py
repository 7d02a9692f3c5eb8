"""Properties of the simultaneous update (RULES.md 1-4, D2, D3, D16; INTERFACES.md: randomness and
the report), checked on random ``neisg`` positions with random valid orders.

The strategies build positions in a small region ([-6,6]^2, kings optionally far away) so that
pieces interact: two to six players (with a king, kingless and waiting for the respawn, not yet
joined, or gone), pieces of every kind with random check states, disabled pieces, energy pawns,
possessed hosts, harpies with cargo, stacks on implosion squares, moves of the last update (time
thief prey), active events, and now and then a cluster around a zombie, witch, angel or host.
Most boards use a few kinds only (swarm testing), so that rare combinations are common. Orders are
drawn by category (capture, dodge, fallback, collision on a shared square, move, move near an
ability, generation, king placement, possession/pickup/unpossession/promotion/drop, resignation)
from candidate texts built from each player's pieces (``legal_destinations``) and kept only when
``check_order`` accepts them.

Properties (each its own test):

1. D2  permutation invariance: players, board insertion order, piece ids and orders permuted give
   the same final state (pieces compared by everything but their id), balances and report (entry
   for entry, in order).
2. D3  replay determinism: the same state, orders and seed give the same result, also after a
   dumps/loads round trip of the input; resolve does not change its input.
3. every piece that leaves the board is named by a report entry (capture, annihilation, ...).
4. the report's balance entries add up to each player's change of balance.
5. the incremental check states (``checks_consistent``) equal the full recomputation, over a
   sequence of updates; and the engine's step 10 equals ``checks.recompute_all``.
6. serialization round trip.

Plus invariants every update keeps, deterministic tests of the randomness, of private refusals and
of the report's "your", and regression tests of the bugs the properties found.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from dataclasses import replace
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import checks
from bot.engine.abilities import position_for, rebased
from bot.engine.board import Board
from bot.engine.model import CHECK_STATES, Piece, Player, Square, format_square
from bot.engine.movement import attacks
from bot.engine.report import PRIVATE, PUBLIC
from bot.engine.resolution import resolve, rng_for
from bot.engine.variants import variant_for
from bot.engine.ruleset import load_preset
from bot.engine.serialize import dumps, loads, state_to_json
from bot.engine.state import ActiveEvent, GameState, LastMove
from bot.engine.validation import check_order, legal_destinations

NEISG = load_preset("neisg")
NAMES = ["Ash", "Bea", "Cid", "Dot", "Eve", "Fay"]
COLOURS = ["Purple", "Crimson", "Yellow", "Teal", "Orange", "Lime"]
KINDS = sorted(k for k in NEISG.pieces if k not in ("O", "V", "K"))
CARRIABLE = [k for k in KINDS if k != "Hp"]
# Pieces on generated boards: every kind, with the ones whose abilities reach beyond their own
# square (zombie, witch, angel, spirit, harpy, time thief, dwarf) and the long-range capturers twice
# as likely.
BOARD_KINDS = KINDS + ["Z", "W", "An", "S", "Hp", "Tt", "D", "R", "B", "Q"]
ABILITY_KINDS = {"Z", "W", "An", "S"}
_MOVE = re.compile(r"^[A-Za-z]+(\(-?\d+,-?\d+\))-(\(-?\d+,-?\d+\))")
SPAN = 6
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
LINES = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)]
EVENT_POOL = list(NEISG.events.pool)

PROPERTY = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SEQUENCE = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ============================================================================= strategies
squares = st.tuples(st.integers(-SPAN, SPAN), st.integers(-SPAN, SPAN))


@st.composite
def amounts(draw, low=0, high=40):
    """Exact balances: whole numbers and halves (a Spirit costs 5.5)."""
    whole = draw(st.integers(low, high))
    return Fraction(whole) + (Fraction(1, 2) if draw(st.integers(0, 3)) == 0 else 0)


@st.composite
def pieces_for(draw, owner: str, update: int, occupied: dict, palette: list[str]):
    """0-6 pieces of one owner in the small region; now and then one stacks onto a square held by
    another player (a collision of the last update: an implosion square). The boolean attributes
    come packed in one integer (fewer draws, and it shrinks towards a plain piece)."""
    result = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(palette))
        others = sorted(s for s, owners in occupied.items() if owner not in owners and None not in owners)
        if others and draw(st.integers(0, 29)) == 29:
            # only pieces of different players share a square: one order per player never brings
            # two of a player's pieces together
            square = draw(st.sampled_from(others))
        else:
            square = draw(squares)
            if square in occupied:
                continue
        flags = draw(st.integers(0, 2**12 - 1))
        check = draw(st.sampled_from(CHECK_STATES))
        disabled = flags & 7 >= 6
        energy = kind == "P" and square[1] >= 6 and bool(flags & 16)
        spirit = kind not in ("P", "S") and (flags >> 5) & 7 == 7
        carrying = carrying_since = None
        if kind == "Hp" and flags & 256:
            carrying = CARRIABLE[(flags >> 9) % len(CARRIABLE)]
            carrying_since = update - 1 - (flags >> 9) % 2
        result.append(dict(kind=kind, owner=owner, square=square, check="capturable" if energy else check,
                           disabled=disabled, moved=bool(flags & 8), energy=energy, spirit=spirit,
                           carrying=carrying, carrying_since=carrying_since,
                           placed=update - 1 if disabled else None))
        occupied.setdefault(square, []).append(owner)
    return result


@st.composite
def ability_cluster(draw, owners: list[str], occupied: dict):
    """A zombie, witch, angel or possessed host with pieces of other players on the lines through
    it at distance 1-2 (where freezing, transparency and protection act) or a knight's leap away
    (what a host attacks with its spirit's moves), and pieces further along lines from those."""
    owner = draw(st.sampled_from(owners))
    kind = draw(st.sampled_from(["Z", "Z", "W", "An", "host"]))
    centre = draw(squares.filter(lambda s: s not in occupied))
    if kind == "host":  # a host that does not move like a knight, so its spirit adds to its attacks
        specs = [dict(kind=draw(st.sampled_from(["G", "R", "B", "K"])), owner=owner, square=centre, spirit=True)]
    else:
        specs = [dict(kind=kind, owner=owner, square=centre)]
    occupied[centre] = [owner]
    for _ in range(draw(st.integers(1, 4))):
        dx, dy = draw(st.sampled_from(LINES + (KNIGHT if kind == "host" else [])))
        k = 1 if abs(dx) + abs(dy) == 3 else draw(st.integers(1, 2))
        square = (centre[0] + k * dx, centre[1] + k * dy)
        if square in occupied or max(map(abs, square)) > SPAN:
            continue
        specs.append(dict(kind=draw(st.sampled_from(["R", "B", "Q", "Dr", "C", "Ab", "N", "P", "G"])),
                          owner=draw(st.sampled_from(owners)), square=square, moved=True))
        occupied[square] = [specs[-1]["owner"]]
        # a piece further along a line from it, which it attacks when it is free to
        ex, ey = draw(st.sampled_from(LINES))
        far = draw(st.integers(3, 6))
        victim = (square[0] + far * ex, square[1] + far * ey)
        if victim not in occupied and max(map(abs, victim)) <= SPAN + 2:
            specs.append(dict(kind=draw(st.sampled_from(["G", "N", "R", "P"])), owner=draw(st.sampled_from(owners)),
                              square=victim))
            occupied[victim] = [specs[-1]["owner"]]
    return specs


@st.composite
def states(draw) -> GameState:
    """A random neisg position between two updates (``checks_consistent`` False: hand-made)."""
    update = draw(st.integers(1, 30))
    count = draw(st.integers(2, 6))
    names = draw(st.permutations(NAMES))[:count]
    kings_far = draw(st.booleans())
    # Swarm testing: most boards use a few kinds only, so that rare combinations (zombies and
    # rooks, witches and bishops) are common; some use the whole table.
    palette = draw(st.one_of(st.just(BOARD_KINDS),
                             st.lists(st.sampled_from(KINDS), min_size=1, max_size=5, unique=True)))
    specs: list[dict] = []
    occupied: dict = {}
    players = []
    for i, name in enumerate(sorted(names)):
        player = Player(name, COLOURS[NAMES.index(name)], balance=draw(amounts()),
                        captured=Fraction(draw(st.integers(0, 30))))
        situation = draw(st.sampled_from(["king", "king", "king", "kingless", "new", "gone"]))
        if situation == "gone":
            player.status = draw(st.sampled_from(["eliminated", "resigned"]))
        if situation == "king":
            square = (40 * (i + 1), 40 * (i % 2)) if kings_far else draw(squares.filter(lambda s: s not in occupied))
            specs.append(dict(kind="K", owner=name, square=square, check=draw(st.sampled_from(CHECK_STATES)),
                              moved=draw(st.booleans())))
            occupied[square] = [name]
        elif situation == "kingless":  # the king was lost 1-3 updates ago (an automatic respawn looms)
            player.king_lost_at = update - draw(st.integers(1, 3))
            player.king_lost_square = draw(squares)
        if situation not in ("new", "gone"):
            specs.extend(draw(pieces_for(name, update, occupied, palette)))
        players.append(player)
    active = [p.name for p in players if p.king_lost_at is not None or any(s["owner"] == p.name for s in specs)]
    if len(active) >= 2 and draw(st.booleans()):
        specs.extend(draw(ability_cluster(active, occupied)))
    for _ in range(draw(st.integers(0, 2))):  # neutral obstacles
        square = draw(squares)
        if square in occupied:
            continue
        specs.append(dict(kind="O", owner=None, square=square, placed=update - 1))
        occupied[square] = [None]
    # Ids are handles: give them in a random order.
    ids = list(range(1, len(specs) + 1))
    random.Random(draw(st.integers(0, 2**16))).shuffle(ids)
    board = Board()
    for piece_id, spec in zip(ids, specs):
        board.add(Piece(id=piece_id, **spec))
    implosions = frozenset(s for s, owners in occupied.items() if len(owners) >= 2)
    moved = [p for p in board if p.moved and p.owner is not None]
    last = []
    for piece in draw(st.lists(st.sampled_from(moved), max_size=3, unique_by=lambda p: p.id)) if moved else []:
        origin = draw(squares)
        if origin != piece.square and not board.occupied(origin):
            last.append(LastMove(origin, piece.square))
    events = ()
    if draw(st.integers(0, 2)) == 0:
        names_ = draw(st.lists(st.sampled_from(EVENT_POOL), min_size=1, max_size=2, unique=True))
        events = tuple(ActiveEvent(n, max(0, update - draw(st.integers(1, 14)))) for n in names_)
    return GameState(board=board, players={p.name: p for p in players}, update=update, implosions=implosions,
                     moved_last_update=tuple(last), events=events, past_events=tuple(e.name for e in events),
                     next_id=len(specs) + 1, checks_consistent=False)


class Candidates:
    """Order texts one player might send on one state, by category. Not all are valid: the caller
    keeps only those ``check_order`` accepts."""

    def __init__(self, state: GameState, player: str, position) -> None:
        self.captures: list[str] = []     # capture attempts (the target held an enemy in P0)
        self.moves: list[str] = []        # other moves
        self.firsts: list[str] = []       # lines that may carry a fallback (D11)
        self.specials: list[str] = []     # possessions, pickups, unpossessions, promotions
        self.carried: list[str] = []      # kinds the player's harpies carry
        self.targets: dict[Square, list[str]] = {}   # moves by the empty square they go to
        self.from_square: dict[Square, list[str]] = {}  # moves by the square they leave
        self.has_king = False
        for piece in state.pieces_of(player):
            self.has_king |= piece.kind == "K"
            origin = format_square(piece.square)
            for target in legal_destinations(position, piece, window=8, state=state):
                text = f"{piece.kind}{origin}-{format_square(target)}"
                texts = [text]
                if piece.kind == "P" and target[1] >= 6:
                    texts += [f"{text}={p}" for p in ("Q", "N", "energy", "An", "Dr")]
                    self.specials.extend(texts[1:])
                occupants = state.board.at(target)
                enemies = [p for p in occupants if p.owner != player]
                if occupants and not enemies:
                    self.specials.extend(texts)
                (self.captures if enemies else self.moves).extend(texts)
                if enemies or piece.check == "capturable":
                    self.firsts.extend(texts)
                if not occupants:
                    self.targets.setdefault(target, []).extend(texts)
                self.from_square.setdefault(piece.square, []).extend(texts)
            if piece.spirit:
                self.specials.extend(f"S{origin}-{format_square((piece.square[0] + dx, piece.square[1] + dy))}"
                                     for dx, dy in KNIGHT)
            if piece.carrying:
                self.carried.append(piece.carrying)
        self.threatened: set[Square] = set()   # filled by draw_orders: squares enemies may capture on
        # Moves onto or off squares next to a piece whose ability reaches beyond its square (a zombie
        # freezes, a witch makes her neighbours transparent, an angel protects): they change what
        # pieces far away attack.
        near = {(x + dx, y + dy) for p in state.board if p.kind in ABILITY_KINDS and not p.disabled
                for x, y in [p.square] for dx in range(-2, 3) for dy in range(-2, 3)}
        self.near_abilities = [t for square, texts in sorted(self.from_square.items()) if square in near
                               for t in texts]
        self.near_abilities += [t for square, texts in sorted(self.targets.items()) if square in near for t in texts]
        self.near_abilities += [f"+{kind}{format_square(square)}" for square in sorted(near)
                                if not state.board.occupied(square) and max(map(abs, square)) <= SPAN
                                for kind in ("P", "N", "Pl")]


CATEGORIES = ["capture", "capture", "dodge", "dodge", "fallback", "collide", "collide", "move", "move",
              "ability", "ability", "generate", "king", "special", "special", "resign"]


def _one_order(draw, state: GameState, player: str, candidates: Candidates, hot: Square | None) -> str | None:
    """Draw a category, then an order in it; retry a few times when validation refuses it."""
    for _ in range(6):
        category = draw(st.sampled_from(CATEGORIES))
        text = None
        dodges = [t for square in sorted(candidates.threatened) for t in candidates.from_square.get(square, ())]
        if category == "capture" and candidates.captures:
            text = draw(st.sampled_from(candidates.captures))
        elif category == "dodge" and dodges:
            text = draw(st.sampled_from(dodges))
        elif category == "fallback" and candidates.firsts:
            second = candidates.moves + candidates.captures + [f"+{draw(st.sampled_from(KINDS))}"
                                                              f"{format_square(draw(squares))}"]
            text = f"{draw(st.sampled_from(candidates.firsts))} else {draw(st.sampled_from(second))}"
        elif category == "collide" and hot is not None:
            options = candidates.targets.get(hot, []) + [f"+{k}{format_square(hot)}" for k in ("N", "P", "Pl", "K")]
            text = draw(st.sampled_from(options))
        elif category == "ability" and candidates.near_abilities:
            text = draw(st.sampled_from(candidates.near_abilities))
        elif category == "move" and candidates.moves:
            text = draw(st.sampled_from(candidates.moves))
        elif category == "generate":
            text = f"+{draw(st.sampled_from(KINDS + ['O']))}{format_square(draw(squares))}"
        elif category == "king":
            text = f"{draw(st.sampled_from(['K', '+K']))}{format_square(draw(squares))}"
        elif category == "special" and (candidates.specials or candidates.carried):
            options = candidates.specials + [f"+{k}{format_square(draw(squares))}" for k in candidates.carried]
            text = draw(st.sampled_from(options))
        elif category == "resign" and draw(st.integers(0, 3)) == 2:
            text = "resign"
        if text is not None and check_order(NEISG, state, player, text).ok:
            return text
    return None


def draw_orders(draw, state: GameState) -> dict[str, str]:
    """Each active player sends one valid order (one ``check_order`` accepts) or none. A "hot"
    empty square that several players can reach invites collisions; pieces that an enemy could
    capture are likely to dodge."""
    position = position_for(NEISG, state)
    names = sorted(state.players)
    candidates = {name: Candidates(state, name, position) for name in names}
    for name in names:
        for other in names:
            if other != name:
                candidates[name].threatened.update(
                    s for s in (_target_of(t) for t in candidates[other].captures) if s is not None)
    reachable = Counter(s for c in candidates.values() for s in c.targets)
    hot_squares = sorted(s for s, n in reachable.items() if n >= 2) or sorted(reachable)
    hot = draw(st.sampled_from(hot_squares)) if hot_squares else None
    orders = {}
    for name in names:
        if state.players[name].status != "active" or draw(st.integers(0, 5)) == 3:
            continue
        text = _one_order(draw, state, name, candidates[name], hot)
        if text is not None:
            orders[name] = text
    return orders


def _target_of(text: str) -> Square | None:
    match = _MOVE.match(text)
    return _square(match.group(2)) if match else None


def _square(text: str) -> Square:
    x, y = text.strip("()").split(",")
    return int(x), int(y)


@st.composite
def games(draw):
    """(state, orders, seed)."""
    state = draw(states())
    orders = draw_orders(draw, state)
    seed = draw(st.integers(0, 2**16))
    return state, orders, seed


# ============================================================================= helpers
def normalised(state: GameState) -> str:
    """The serialized state with piece ids dropped (ids are handles, RULES 1 / model.Piece)."""
    raw = state_to_json(state)
    raw["pieces"] = sorted((json.dumps({k: v for k, v in p.items() if k != "id"}, sort_keys=True)
                            for p in raw["pieces"]))
    return json.dumps(raw, sort_keys=True)


def copy_state(state: GameState, **changes) -> GameState:
    copy = loads(dumps(state))
    for key, value in changes.items():
        setattr(copy, key, value)
    return copy


def permuted(state: GameState, orders: dict, rnd: random.Random) -> tuple[GameState, dict]:
    """The same game with players, board insertion order, piece ids and orders permuted."""
    pieces = list(state.board)
    rnd.shuffle(pieces)
    ids = [p.id for p in pieces]
    rnd.shuffle(ids)
    board = Board(bounds=state.board.bounds)
    for piece, new_id in zip(pieces, ids):
        board.add(replace(piece, id=new_id))
    names = list(state.players)
    rnd.shuffle(names)
    players = {n: replace(state.players[n]) for n in names}
    other = copy_state(state)
    other.board = board
    other.players = players
    keys = list(orders)
    rnd.shuffle(keys)
    return other, {k: orders[k] for k in keys}


def game_summary(state, orders, seed) -> str:
    return f"seed={seed}\norders={orders}\nstate={dumps(state)}"


# ============================================================================= 1. D2
@PROPERTY
@given(games(), st.randoms(use_true_random=False))
def test_permutations_do_not_change_the_result(game, rnd):
    state, orders, seed = game
    after, report = resolve(NEISG, state, orders, seed)
    other_state, other_orders = permuted(state, orders, rnd)
    other_after, other_report = resolve(NEISG, other_state, other_orders, seed)
    note = game_summary(state, orders, seed)
    assert normalised(other_after) == normalised(after), note
    assert other_report.balance_changes() == report.balance_changes(), note
    # the report too, entry for entry and in the same order (its text is what players read)
    assert other_report.to_json() == report.to_json(), note


# ============================================================================= 2. D3
@PROPERTY
@given(games())
def test_replaying_an_update_gives_the_same_result(game):
    state, orders, seed = game
    before = dumps(state)
    after, report = resolve(NEISG, state, orders, seed)
    assert dumps(state) == before, "resolve must not change its input state"
    again, report_again = resolve(NEISG, state, orders, seed)
    assert dumps(again) == dumps(after)
    assert report_again.to_json() == report.to_json()
    stored, report_stored = resolve(NEISG, loads(before), orders, seed)
    assert dumps(stored) == dumps(after)
    assert report_stored.to_json() == report.to_json()


# ============================================================================= 3. departures are reported
_LEAVING = ("capture", "annihilation", "disintegration", "burst", "possession", "pickup", "sale")


def _squares_of(state: GameState, piece: Piece, order: str | None) -> set:
    """Where the piece may stand when it leaves: its P0 square or a target of its owner's order
    (read from the order's canonical form: ``K(3,4)`` is short for a move of the king)."""
    where = {piece.square}
    if order is None:
        return where
    checked = check_order(NEISG, state, piece.owner, order)
    for action in checked.canonical.split(" else ") if checked.ok else ():
        match = _MOVE.match(action.strip())
        if match and _square(match.group(1)) == piece.square:
            where.add(_square(match.group(2)))
    return where


@PROPERTY
@given(games())
def test_every_piece_that_leaves_the_board_is_reported(game):
    state, orders, seed = game
    after, report = resolve(NEISG, state, orders, seed)
    named = {tuple(e.data["at"]) for e in report.entries if e.type in _LEAVING}
    resigned = {e.players[0] for e in report.of_type("resignation")}
    eliminated = {e.players[0] for e in report.of_type("elimination")}
    neutral_cleared = bool(report.of_type("obstacles_removed") or report.of_type("event_end"))
    for piece in state.board:
        if piece.id in after.board:
            continue
        if piece.owner is None:
            assert neutral_cleared or piece.square in named, (piece, game_summary(state, orders, seed))
            continue
        if piece.owner in resigned or (piece.kind == "K" and piece.owner in eliminated):
            continue
        where = _squares_of(state, piece, orders.get(piece.owner))
        assert where & named, (f"{piece} left the board unreported", report.to_json(),
                               game_summary(state, orders, seed))


# ============================================================================= 4. balances add up
@PROPERTY
@given(games())
def test_balance_entries_add_up_to_each_change(game):
    state, orders, seed = game
    after, report = resolve(NEISG, state, orders, seed)
    changes = report.balance_changes()
    assert set(after.players) == set(state.players)
    for name, player in after.players.items():
        assert player.balance - state.players[name].balance == changes.get(name, Fraction(0)), (
            name, report.to_json(), game_summary(state, orders, seed))
    for entry in report.of_type("balance"):
        assert entry.audience == PUBLIC and len(entry.players) == 1 and entry.data["amount"] != 0


# ============================================================================= 5. incremental checks
@st.composite
def sequences(draw):
    """A game and 2-3 updates of orders, each drawn from the state the previous update produced."""
    state = draw(states())
    seed = draw(st.integers(0, 2**16))
    steps = []
    current = state
    for _ in range(draw(st.integers(2, 3))):
        orders = draw_orders(draw, current)
        steps.append(orders)
        current, _ = resolve(NEISG, current, orders, seed)
    return state, steps, seed


def _full_check_states(before: GameState, after: GameState, orders: dict, seed) -> dict[int, str]:
    """checks.recompute_all on P0 and the final position, with the arrivals of the update read
    back from the board: a piece is an arrival when it is new (id not in P0) or its square changed."""
    p0 = position_for(NEISG, before)
    final = position_for(NEISG, after)
    arrivals = {}
    for piece in after.board:
        if piece.id not in before.board:
            arrivals[piece.id] = None
        elif before.board.get(piece.id).square != piece.square:
            arrivals[piece.id] = before.board.get(piece.id).square
    states_before = {p.id: p.check for p in before.board}
    return checks.recompute_all(p0, final, arrivals, states_before)


@SEQUENCE
@given(sequences())
def test_incremental_check_states_equal_a_full_recomputation(sequence):
    state, steps, seed = sequence
    current = state
    for number, orders in enumerate(steps):
        after, report = resolve(NEISG, current, orders, seed)
        if current.checks_consistent:
            full, full_report = resolve(NEISG, copy_state(current, checks_consistent=False), orders, seed)
            note = (f"update {number + 1} of the sequence", game_summary(current, orders, seed))
            assert {p.id: p.check for p in after.board} == {p.id: p.check for p in full.board}, note
            assert dumps(after) == dumps(full), note
            assert full_report.to_json() == report.to_json(), note
        current = after


@SEQUENCE
@given(sequences())
def test_check_states_follow_the_table_of_rules_3_2(sequence):
    """The engine's step 10 equals checks.recompute_all on P0 and the final position (arrivals read
    back from the board) wherever that reading is unambiguous: no unpossession (the spirit that
    leaves its host is a new piece whose origin is the host's square)."""
    state, steps, seed = sequence
    current = state
    for orders in steps:
        after, report = resolve(NEISG, current, orders, seed)
        if not report.of_type("unpossession"):
            expected = _full_check_states(current, after, orders, seed)
            assert {p.id: p.check for p in after.board} == expected, game_summary(current, orders, seed)
        current = after


# ----------------------------------------------------------------------------- 5b. crowded lines
# The incremental step 10 (checks.changed_squares, checks.affected_pieces) reasons about the lines
# through the squares an update changed: which attacks may have started or stopped there, and
# which are seen for sure. Boards packed with sliders, witches (transparency), zombies (freezing)
# and angels (protection) put several changes on one line; the two properties below hold the
# incremental answer to brute force there.
LINE_PALETTE = ["R", "B", "Q", "Dr", "C", "Ab", "L", "Sp", "R", "B", "Q", "W", "W", "Z", "An", "S", "N", "G",
                "P", "D", "Pl", "Tt", "Hp"]
CROWD = 4


@st.composite
def crowded_sequences(draw):
    """A consistent position (one empty update resolved on a hand-made one) with two to four
    players' pieces packed in [-4,4]^2, mostly sliders, and 2-3 updates of random orders."""
    count = draw(st.integers(2, 4))
    names = sorted(draw(st.permutations(NAMES))[:count])
    update = draw(st.integers(2, 20))
    specs, taken = [], set()
    for i, name in enumerate(names):
        king = draw(st.one_of(st.just((30 * (i + 1), 0)), st.tuples(st.integers(-CROWD, CROWD),
                                                                   st.integers(-CROWD, CROWD))))
        if king in taken:
            king = (30 * (i + 1), 0)
        taken.add(king)
        specs.append(dict(kind="K", owner=name, square=king))
        for _ in range(draw(st.integers(3, 9))):
            square = draw(st.tuples(st.integers(-CROWD, CROWD), st.integers(-CROWD, CROWD)))
            if square in taken:
                continue
            taken.add(square)
            kind = draw(st.sampled_from(LINE_PALETTE))
            disabled = draw(st.integers(0, 7)) == 0
            specs.append(dict(kind=kind, owner=name, square=square, moved=draw(st.booleans()),
                              disabled=disabled, placed=update - 1 if disabled else None))
    players = [Player(name, COLOURS[NAMES.index(name)], balance=Fraction(draw(st.integers(0, 30))))
               for name in names]
    seed = draw(st.integers(0, 2**16))
    state, _ = resolve(NEISG, GameState.build(NEISG, specs, players, update=update), {}, seed)
    steps, current = [], state
    for _ in range(draw(st.integers(2, 3))):
        orders = draw_orders(draw, current)
        steps.append(orders)
        current, _ = resolve(NEISG, current, orders, seed)
    return state, steps, seed


@SEQUENCE
@given(crowded_sequences())
def test_incremental_check_states_equal_a_full_recomputation_on_crowded_lines(sequence):
    state, steps, seed = sequence
    current = state
    for number, orders in enumerate(steps):
        assert current.checks_consistent
        after, report = resolve(NEISG, current, orders, seed)
        full, full_report = resolve(NEISG, copy_state(current, checks_consistent=False), orders, seed)
        note = (f"update {number + 1} of the sequence", game_summary(current, orders, seed))
        assert {p.id: p.check for p in after.board} == {p.id: p.check for p in full.board}, note
        assert full_report.to_json() == report.to_json(), note
        current = after


def _attacked_by_brute_force(position, piece: Piece) -> bool:
    """Whether an enemy attacks the piece's square: every piece of the board asked, one by one."""
    return any(other.owner is not None and position.enemies(other.owner, piece.owner)
               and attacks(position, other, piece.square) for other in position.board)


@SEQUENCE
@given(crowded_sequences())
def test_affected_pieces_find_every_change_of_attack_and_see_only_real_attacks(sequence):
    """checks.affected_pieces against brute force, after each update of the sequence: every piece
    it says it saw attacked is attacked by an enemy in the final position, and every piece that
    stayed and whose being attacked changed between P0 and the final position is among the
    affected ones (the pieces an angel protects before or after are left out: their state is
    `none` whatever attacks them, and a change of protection is found by checks.changed_squares)."""
    for current, orders, seed, update in _before_check_states(sequence):
        p0 = update.p0_position
        final = position_for(NEISG, update.new_state())
        see_through: set = set()
        changed, protection = checks.changed_squares(p0, final, update.changed, see_through)
        affected, seen_attacked = checks.affected_pieces(p0, final, changed, update.arrivals, update.changed,
                                                         see_through=see_through)
        note = game_summary(current, orders, seed)
        for piece in final.board:
            if piece.id in seen_attacked:
                assert _attacked_by_brute_force(final, piece), (piece, note)
            before = current.board.get(piece.id) if piece.id in current.board else None
            if (before is None or before.square != piece.square or piece.id in update.arrivals
                    or piece.owner is None or piece.energy or p0.protected(before) or final.protected(piece)):
                continue
            if _attacked_by_brute_force(p0, before) != _attacked_by_brute_force(final, piece):
                assert piece.id in affected | protection, (piece, note)


@SEQUENCE
@given(crowded_sequences())
def test_the_suspects_of_a_piece_not_attacked_before_say_whether_it_is_attacked_now(sequence):
    """For a piece that stayed on a square the update left alone, was `none` in P0 and kept its
    protection, asking its suspects (checks.affected_pieces' enemies whose attack may have started)
    says what asking every piece of the board says; and a piece with no suspects among those is
    not attacked now."""
    for current, orders, seed, update in _before_check_states(sequence):
        p0 = update.p0_position
        final = position_for(NEISG, update.new_state())
        see_through: set = set()
        changed, protection = checks.changed_squares(p0, final, update.changed, see_through)
        suspects: dict = {}
        affected, _ = checks.affected_pieces(p0, final, changed, update.arrivals, update.changed, suspects,
                                             see_through)
        note = game_summary(current, orders, seed)
        for piece in final.board:
            before = current.board.get(piece.id) if piece.id in current.board else None
            if (before is None or before.check != "none" or piece.owner is None or piece.id in update.arrivals
                    or piece.square in update.changed or piece.id in protection or final.protected(piece)):
                continue
            brute = _attacked_by_brute_force(final, piece)
            if piece.id in suspects:
                assert checks.attacked_by_suspects(final, piece, suspects[piece.id]) == brute, (piece, note)
            elif brute:   # an attack that started by a lame leap: asked in full
                assert piece.id in affected, (piece, note)


def _before_check_states(sequence):
    """Each update of ``sequence`` (a position, its updates' orders, a seed) run through every
    step but the check states themselves, where no event changed the pieces' powers: (the position
    before, the orders, the seed, the update so far); the position after is resolved in full."""
    state, steps, seed = sequence
    current = state
    for orders in steps:
        variant = variant_for(NEISG)
        update = variant.begin(current, orders, seed)
        for step in variant.pipeline[:-1]:
            step(update)
        if not update.events_changed:
            yield current, orders, seed, update
        current, _ = resolve(NEISG, current, orders, seed)


def _changed_squares_by_brute_force(p0, final, changed):
    """checks.changed_squares the plain way: every piece of the board that stayed off the changed
    squares asked whether its freezing or protection changed (the neighbours of a witch there
    included)."""
    return _changed_squares_and_see_through_by_brute_force(p0, final, changed)[:2]


def _changed_squares_and_see_through_by_brute_force(p0, final, changed):
    board, board0 = final.board, p0.board
    witches = {k.letter for k in NEISG.pieces.values() if k.has("witch")}
    result, neighbours = set(changed), set()
    for x, y in set(changed):
        if any(p.kind in witches for p in (*board.at((x, y)), *board0.at((x, y)))):
            neighbours.update(s for dx in (-1, 0, 1) for dy in (-1, 0, 1) if board.occupied(s := (x + dx, y + dy)))
    result |= neighbours
    around, protection, frozen = set(board.squares()) - set(changed), set(), set()
    for square in around:
        for piece in board.at(square):
            if piece.id not in board0:
                continue
            before = board0.get(piece.id)
            if p0.frozen(before) != final.frozen(piece):
                frozen.add(square)
            if p0.protected(before) != final.protected(piece):
                protection.add(piece.id)
    return result | frozen, protection, neighbours - set(changed) - frozen


@SEQUENCE
@given(crowded_sequences())
def test_changed_squares_find_every_change_of_freezing_and_protection(sequence):
    """checks.changed_squares asks only the pieces a change can reach (a zombie's move, the path
    between a zombie and its prey, a witch's neighbours on that path, an angel's neighbours); the
    answer is the same as asking every piece of the board."""
    for current, orders, seed, update in _before_check_states(sequence):
        p0 = update.p0_position
        final = position_for(NEISG, update.new_state())
        see_through: set = set()
        result, protection = checks.changed_squares(p0, final, update.changed, see_through)
        assert (result, protection, see_through) == _changed_squares_and_see_through_by_brute_force(
            p0, final, update.changed), game_summary(current, orders, seed)


EFFECT_PALETTE = ["Z", "Z", "Z", "W", "W", "An", "An", "R", "B", "Q", "N", "P", "S", "K", "O"]


@st.composite
def changed_boards(draw):
    """P0 and a final position around zombies, witches and angels packed in [-3,3]^2, the final one
    made from P0 by random changes (pieces taken off, moved, added, enabled or disabled), with the
    squares those changes touched."""
    specs, taken = [], set()
    for _ in range(draw(st.integers(4, 30))):
        square = draw(st.tuples(st.integers(-3, 3), st.integers(-3, 3)))
        if square in taken:
            continue
        taken.add(square)
        kind = draw(st.sampled_from(EFFECT_PALETTE))
        specs.append(dict(kind=kind, owner=None if kind == "O" else draw(st.sampled_from(NAMES[:3])),
                          square=square, disabled=draw(st.integers(0, 5)) == 0))
    players = [Player(name, COLOURS[i]) for i, name in enumerate(NAMES[:3])]
    before = GameState.build(NEISG, specs, players)
    board = before.board.copy()
    changed, next_id = set(), before.next_id
    for _ in range(draw(st.integers(1, 4))):
        pieces = sorted(board, key=lambda p: p.id)
        square = draw(st.tuples(st.integers(-3, 3), st.integers(-3, 3)))
        what = draw(st.sampled_from(["remove", "move", "add", "toggle"]))
        if what == "add" or not pieces:
            if not board.occupied(square):
                board.add(Piece(next_id, draw(st.sampled_from(EFFECT_PALETTE[:-1])), draw(st.sampled_from(NAMES[:3])),
                                square))
                next_id += 1
                changed.add(square)
            continue
        piece = draw(st.sampled_from(pieces))
        changed.add(piece.square)
        if what == "remove":
            board.remove(piece.id)
        elif what == "toggle":
            board.replace(replace(piece, disabled=not piece.disabled))
        elif not board.occupied(square):
            board.replace(replace(piece, square=square))
            changed.add(square)
    after = GameState(board=board, players=before.players, next_id=next_id)
    return position_for(NEISG, before), position_for(NEISG, after), changed


@PROPERTY
@given(changed_boards())
def test_changed_squares_equal_asking_every_piece_after_any_change(boards):
    """The same as above on boards made by hand, crowded with zombies, witches and angels, after
    any change (not only the changes an update makes)."""
    p0, final, changed = boards
    see_through: set = set()
    result, protection = checks.changed_squares(p0, final, changed, see_through)
    assert (result, protection, see_through) == _changed_squares_and_see_through_by_brute_force(p0, final, changed), (
        sorted((p.kind, p.owner, p.square, p.disabled) for p in p0.board),
        sorted((p.kind, p.owner, p.square, p.disabled) for p in final.board), changed)


def _keep_every_index(board) -> None:
    """Have a board keep the indexes a large update makes: the witches and the angels next to each
    square, the zombies whose move reaches it (abilities.py asks them after many squares)."""
    from bot.engine.abilities import zombie_index

    board.keep_near(frozenset({"W"}))
    board.keep_near(frozenset({"An"}))
    board.keep_near(*zombie_index(NEISG)[1:])


@PROPERTY
@given(changed_boards())
def test_changed_squares_from_the_boards_indexes_equal_asking_every_piece(boards):
    """The same with both boards keeping the indexes of witches, zombies and angels: a path square's
    zombies, a piece's freezer and its angels come from them, and the answer does not change."""
    p0, final, changed = boards
    expected = _changed_squares_and_see_through_by_brute_force(p0, final, changed)
    candidates = checks._effect_candidates(p0, final, changed)           # looking at each square
    p0, final = rebased(p0, p0.board), rebased(final, final.board)   # memos of neither way kept
    _keep_every_index(p0.board)
    _keep_every_index(final.board)
    assert checks._effect_candidates(p0, final, changed) == candidates
    see_through: set = set()
    result, protection = checks.changed_squares(p0, final, changed, see_through)
    assert (result, protection, see_through) == expected


@SEQUENCE
@given(crowded_sequences())
def test_updates_on_boards_keeping_every_index_give_the_same_states_and_reports(sequence):
    """Updates whose boards keep the indexes of witches, zombies and angels (made before the first,
    then carried by the updates' copies through their changes) give byte for byte the states and
    reports of updates on boards that keep none."""
    state, steps, seed = sequence
    plain, indexed = copy_state(state), copy_state(state)
    _keep_every_index(indexed.board)
    for orders in steps:
        plain, plain_report = resolve(NEISG, plain, orders, seed)
        indexed, report = resolve(NEISG, indexed, orders, seed)
        assert dumps(indexed) == dumps(plain)
        assert report.to_json_text() == plain_report.to_json_text()
        assert indexed.board.keeps_near(frozenset({"W"})) and indexed.board.keeps_near(frozenset({"An"}))


def test_a_witch_arriving_next_to_a_zombies_path_freezes_the_piece_beyond():
    """Ash's rook on (1,0) blocks Ash's zombie on (0,0) from Bea's knight on (2,0) until Ash's witch
    arrives on (0,1): the rook, next to her, becomes transparent to Ash's pieces and the knight is
    frozen. The knight is two squares from the witch, so only the path's neighbourhood finds it."""
    players = [Player("Ash", "Purple"), Player("Bea", "Crimson")]
    specs = [dict(kind="Z", owner="Ash", square=(0, 0)), dict(kind="R", owner="Ash", square=(1, 0)),
             dict(kind="N", owner="Bea", square=(2, 0)), dict(kind="K", owner="Ash", square=(30, 0)),
             dict(kind="K", owner="Bea", square=(-30, 0))]
    before = GameState.build(NEISG, specs, players)
    board = before.board.copy()
    board.add(Piece(before.next_id, "W", "Ash", (0, 1)))
    p0 = position_for(NEISG, before)
    final = position_for(NEISG, GameState(board=board, players=before.players, next_id=before.next_id + 1))
    knight = board.at((2, 0))[0]
    assert not p0.frozen(knight) and final.frozen(knight)
    result, protection = checks.changed_squares(p0, final, {(0, 1)})
    assert (2, 0) in result
    assert (result, protection) == _changed_squares_by_brute_force(p0, final, {(0, 1)})


# ============================================================================= invariants of every update
def check_invariants(before: GameState, orders: dict, after: GameState, report) -> None:
    """What every resolved update must satisfy, whatever happened in it."""
    note = game_summary(before, orders, "?")
    assert after.update == before.update + 1 and after.checks_consistent
    royal = {p.owner for p in after.board if p.kind == "K"}
    for name, player in after.players.items():
        owned = [p for p in after.board if p.owner == name]
        if player.status == "active":
            # D17, D30: debts are settled at step 6; nothing later takes health away
            assert player.balance >= 0, (name, note)
            if owned and name not in royal:  # a kingless player waits for the automatic respawn
                assert player.king_lost_at is not None, (name, note)
        else:
            assert not owned, (f"{name} is {player.status} but still has pieces", note)
    for piece in after.board:
        assert piece.check in CHECK_STATES
        if piece.owner is None:
            assert piece.check == "none", (piece, note)
        if piece.energy:
            assert piece.check == "capturable", (piece, note)
        if piece.disabled:  # D16 step 9: only pieces generated in this update stay disabled
            assert piece.placed == before.update, (piece, note)
        if piece.id in before.board:  # a piece only moves by its owner's order
            origin = before.board.get(piece.id).square
            if origin != piece.square:
                assert piece.square in _squares_of(before, before.board.get(piece.id), orders.get(piece.owner)), (
                    f"{piece} moved from {origin} without an order", note)
    # RULES 3.4: two or more pieces on one square only on a new implosion square
    crowded = {s for s in after.board.squares() if len(after.board.at(s)) >= 2}
    assert crowded == set(after.implosions), (crowded, after.implosions, note)
    # check_order and the update agree (RULES 3.1): a valid order is never refused at the update,
    # and every order has its outcome in the report (played, captured, dodged, held, placed, ...)
    assert not report.of_type("refused"), ([e.to_json() for e in report.of_type("refused")], note)
    outcome_types = {"order", "placement", "drop", "obstacle"}
    for name in orders:
        assert any(e.type in outcome_types and e.players[:1] == (name,) for e in report.entries), (name, note)
    for entry in report.entries:
        assert set(entry.players) <= set(before.players), (entry, note)
        assert entry.audience in (PUBLIC, PRIVATE)
        if entry.audience == PRIVATE:
            assert len(entry.players) >= 1


@SEQUENCE
@given(sequences())
def test_every_update_keeps_the_invariants(sequence):
    state, steps, seed = sequence
    current = state
    for orders in steps:
        after, report = resolve(NEISG, current, orders, seed)
        check_invariants(current, orders, after, report)
        current = after


# ============================================================================= 6. serialization
@PROPERTY
@given(games())
def test_serialization_round_trip(game):
    state, orders, seed = game
    text = dumps(state)
    assert dumps(loads(text)) == text
    after, _ = resolve(NEISG, state, orders, seed)
    text = dumps(after)
    assert dumps(loads(text)) == text


# ============================================================================= deterministic tests
def _state(pieces, players, update=5, **kwargs):
    return GameState.build(NEISG, pieces, players, update=update, **kwargs)


def _debt_game():
    """Bea's king is captured while she has no health: the penalty 4 + ceil(20% x (18 + 0)) = 8
    leaves her at -8, and four of her six knights (refund 2 each) disintegrate at random."""
    knights = [dict(kind="N", owner="Bea", square=(10 + 3 * i, 10)) for i in range(6)]
    return _state(
        [dict(kind="K", owner="Ash", square=(-20, -20)), dict(kind="R", owner="Ash", square=(0, 5)),
         dict(kind="K", owner="Bea", square=(0, 0)), *knights],
        [Player("Ash", "Purple", Fraction(10)), Player("Bea", "Crimson", Fraction(0))])


def test_randomness_comes_from_the_seed_and_the_update():
    """INTERFACES.md: random.Random(f"{seed}:{update}"), choices from lists in canonical order."""
    state = _debt_game()
    orders = {"Ash": "R(0,5)-(0,0)"}
    outcomes = {}
    for seed in range(12):
        after, report = resolve(NEISG, state, orders, seed)
        gone = [tuple(e.data["at"]) for e in report.of_type("disintegration")]
        assert len(gone) == 4
        assert after.players["Bea"].balance == 0
        # The same draws, made by hand.
        rng = random.Random(f"{seed}:{state.update}")
        pieces = sorted((p for p in state.board if p.owner == "Bea" and p.kind == "N"), key=lambda p: p.canonical_key)
        expected = []
        for _ in range(4):
            victim = rng.choice(pieces)
            pieces.remove(victim)
            expected.append(victim.square)
        assert gone == expected
        assert rng_for(seed, state.update).random() == random.Random(f"{seed}:{state.update}").random()
        again, _ = resolve(NEISG, state, orders, seed)
        assert dumps(again) == dumps(after)
        outcomes[seed] = tuple(gone)
    assert len(set(outcomes.values())) > 1, "different seeds should give different disintegrations"


def test_refusals_are_private_to_their_owner():
    state = _state([dict(kind="K", owner="Ash", square=(0, 0)), dict(kind="N", owner="Ash", square=(2, 2)),
                    dict(kind="K", owner="Bea", square=(9, 9))],
                   [Player("Ash", "Purple", Fraction(10)), Player("Bea", "Crimson", Fraction(10))])
    assert not check_order(NEISG, state, "Ash", "N(2,2)-(2,3)").ok
    after, report = resolve(NEISG, state, {"Ash": "N(2,2)-(2,3)", "Bea": "K(9,9)-(9,8)"}, 1)
    refused = report.of_type("refused")
    assert len(refused) == 1
    assert refused[0].audience == PRIVATE and refused[0].players == ("Ash",)
    assert refused[0] in report.for_player("Ash")
    assert refused[0] not in report.for_player("Bea")
    assert refused[0] not in report.public()
    assert "N(2,2)-(2,3)" not in report.text() and "N(2,2)-(2,3)" not in report.text("Bea")
    assert "Your order 'N(2,2)-(2,3)' was refused" in report.text("Ash")
    assert after.board.get(2).square == (2, 2)  # the refused order did nothing


def test_the_report_says_your_to_its_reader():
    state = _state([dict(kind="K", owner="Ash", square=(0, 0)), dict(kind="N", owner="Ash", square=(2, 2)),
                    dict(kind="K", owner="Bea", square=(20, 20)), dict(kind="B", owner="Bea", square=(4, 3))],
                   [Player("Ash", "Purple", Fraction(10)), Player("Bea", "Crimson", Fraction(10))])
    after, report = resolve(NEISG, state, {"Ash": "N(2,2)-(4,3)", "Bea": "K(20,20)-(20,21)"}, 1)
    ash, bea, public = report.text("Ash"), report.text("Bea"), report.text()
    # the capture is told once, in the capturer's order line, with its reward (issue 27 item 4)
    assert "Your N(2,2)-(4,3) captured Bea's bishop on (4,3) (+4 health)." in ash
    assert ash.count("Bea's bishop") == 1
    assert "Ash: N(2,2)-(4,3) captured your bishop on (4,3)" in bea
    assert "Your K(20,20)-(20,21) was played." in bea
    assert "your" not in public.lower().replace("(your report", "")
    assert "Ash: N(2,2)-(4,3) captured Bea's bishop on (4,3) (+4 health)." in public


# ============================================================================= regressions found by the properties
def _incremental_and_full(state: GameState, orders: dict) -> tuple[dict, dict]:
    """Check states after one update from a consistent state, by the incremental path and the full one."""
    consistent, _ = resolve(NEISG, state, {}, 1)
    assert consistent.checks_consistent
    incremental, _ = resolve(NEISG, consistent, orders, 1)
    full, _ = resolve(NEISG, copy_state(consistent, checks_consistent=False), orders, 1)
    return ({p.square: p.check for p in incremental.board}, {p.square: p.check for p in full.board})


def _two_players(*pieces):
    return _state([dict(kind="K", owner="Ash", square=(-20, -20)), dict(kind="K", owner="Bea", square=(20, 20)),
                   *pieces], [Player("Ash", "Purple", Fraction(10)), Player("Bea", "Crimson", Fraction(10))], update=3)


def test_a_piece_arriving_between_a_zombie_and_its_prey_unfreezes_it():
    """Bea's zombie on (0,0) freezes Ash's rook on (0,2) through the empty (0,1). Ash's knight
    arrives on (0,1): the rook is free again and attacks Bea's guard on (6,2), whose state was
    `none`: it must become `fresh` on the incremental path too (RULES 3.2, 8)."""
    state = _two_players(dict(kind="R", owner="Ash", square=(0, 2)), dict(kind="N", owner="Ash", square=(1, -1)),
                         dict(kind="Z", owner="Bea", square=(0, 0)), dict(kind="G", owner="Bea", square=(6, 2)))
    incremental, full = _incremental_and_full(state, {"Ash": "N(1,-1)-(0,1)"})
    assert full[(6, 2)] == "fresh"
    assert incremental == full


def test_a_generation_between_a_zombie_and_its_prey_unfreezes_it():
    state = _two_players(dict(kind="R", owner="Ash", square=(0, 2)), dict(kind="Z", owner="Bea", square=(0, 0)),
                         dict(kind="G", owner="Bea", square=(6, 2)))
    incremental, full = _incremental_and_full(state, {"Ash": "+N(0,1)"})
    assert full[(6, 2)] == "fresh"
    assert incremental == full


def test_a_host_left_by_its_spirit_stops_attacking_with_knight_moves():
    """Ash's guard on (0,0) hosts a spirit and attacks Bea's knight on (1,2) by a knight move. The
    spirit leaves; the guard no longer attacks (1,2), so the knight is no longer in check."""
    state = _two_players(dict(kind="G", owner="Ash", square=(0, 0), spirit=True),
                         dict(kind="N", owner="Bea", square=(1, 2)))
    incremental, full = _incremental_and_full(state, {"Ash": "S(0,0)-(-1,-2)"})
    assert full[(1, 2)] == "none"
    assert incremental == full


def test_two_pieces_arriving_one_behind_the_other_cut_an_attack():
    """Ash's rook on (0,0) attacks Bea's guard on (6,0). Ash's knight arrives on (2,0) and Bea's
    on (4,0): the rook no longer attacks the guard, which leaves check. Walking the line from (2,0)
    stopped at (4,0) and never reached the guard: the walk now passes through changed squares."""
    state = _two_players(dict(kind="R", owner="Ash", square=(0, 0)), dict(kind="N", owner="Ash", square=(1, 2)),
                         dict(kind="G", owner="Bea", square=(6, 0)), dict(kind="N", owner="Bea", square=(3, 2)))
    incremental, full = _incremental_and_full(state, {"Ash": "N(1,2)-(2,0)", "Bea": "N(3,2)-(4,0)"})
    assert full[(6, 0)] == "none"
    assert incremental == full


def test_a_witch_leaving_closes_a_line_that_another_witch_keeps_passable():
    """Cid's knight on (2,0) stands next to Ash's witch on (2,1), so Ash's rook on (0,0) sees
    through it and attacks Bea's guard on (5,0) (D28). Ash's witch leaves; Bea's witch on (3,1)
    keeps (2,0) passable for Bea's side only. The rook no longer attacks the guard, though the
    square stayed "passable": the squares next to a witch that moved are changed squares."""
    players = [Player("Ash", "Purple", Fraction(10)), Player("Bea", "Crimson", Fraction(10)),
               Player("Cid", "Teal", Fraction(10))]
    state = _state([dict(kind="K", owner="Ash", square=(-20, -20)), dict(kind="K", owner="Bea", square=(20, 20)),
                    dict(kind="K", owner="Cid", square=(-20, 20)), dict(kind="R", owner="Ash", square=(0, 0)),
                    dict(kind="W", owner="Ash", square=(2, 1)), dict(kind="N", owner="Cid", square=(2, 0)),
                    dict(kind="W", owner="Bea", square=(3, 1)), dict(kind="G", owner="Bea", square=(5, 0))],
                   players, update=3)
    incremental, full = _incremental_and_full(state, {"Ash": "W(2,1)-(2,4)"})
    assert full[(5, 0)] == "none"
    assert incremental == full


def test_a_cargo_is_not_both_lost_and_dropped():
    """P30: a harpy captured in the update its cargo is dropped: the drop succeeds, nothing is lost."""
    state = _two_players(dict(kind="R", owner="Ash", square=(0, 5)),
                         dict(kind="Hp", owner="Bea", square=(0, 0), carrying="Q", carrying_since=2))
    after, report = resolve(NEISG, state, {"Ash": "R(0,5)-(0,0)", "Bea": "+Q(3,3)"}, 1)
    lost = report.of_type("cargo_lost")
    dropped = report.of_type("drop")
    queens = [p for p in after.board if p.kind == "Q"]
    assert not (lost and dropped), [e.to_json() for e in report.entries]
    assert bool(queens) == bool(dropped)


def test_the_report_lists_promotions_in_canonical_order_whatever_the_piece_ids():
    """D2: two promotions in one update are reported in the same order whichever pawn has the
    smaller id (ids are handles)."""
    reports = []
    for reverse in (False, True):
        pieces = [dict(kind="P", owner="Ash", square=(0, 5)), dict(kind="P", owner="Bea", square=(5, 5)),
                  dict(kind="K", owner="Ash", square=(-20, -20)), dict(kind="K", owner="Bea", square=(20, 20))]
        state = _state(pieces[::-1] if reverse else pieces,
                       [Player("Ash", "Purple", Fraction(10)), Player("Bea", "Crimson", Fraction(10))], update=3)
        _, report = resolve(NEISG, state, {"Ash": "P(0,5)-(0,6)=N", "Bea": "P(5,5)-(5,6)=N"}, 1)
        reports.append(report.to_json())
    assert reports[0] == reports[1]


def test_a_piece_next_to_a_witch_that_left_still_loses_the_protection_of_an_angel_that_left():
    """Ash's rook on (0,0), attacked by Bea's rook down the file, is `none` only because Ash's
    angel stands next to it. The angel steps away while Cid's witch leaves the rook's side: the
    rook's square is one of the witch's neighbours (the lines through it changed), and its own
    state must still follow its lost protection, as a full recomputation says: fresh."""
    players = [Player("Ash", "Purple"), Player("Bea", "Crimson"), Player("Cid", "Teal")]
    specs = [dict(kind="R", owner="Ash", square=(0, 0)), dict(kind="An", owner="Ash", square=(1, 1)),
             dict(kind="R", owner="Bea", square=(0, 5)), dict(kind="W", owner="Cid", square=(-1, -1)),
             dict(kind="K", owner="Ash", square=(30, 0)), dict(kind="K", owner="Bea", square=(-30, 0)),
             dict(kind="K", owner="Cid", square=(0, -30))]
    state, _ = resolve(NEISG, GameState.build(NEISG, specs, players, update=2), {}, 1)
    assert state.checks_consistent and state.board.at((0, 0))[0].check == "none"
    orders = {"Ash": "An(1,1)-(2,1)", "Cid": "W(-1,-1)-(-5,-1)"}
    after, report = resolve(NEISG, state, orders, 1)
    assert [e.data["outcome"] for e in report.of_type("order")] == ["played", "played"]
    full, _ = resolve(NEISG, copy_state(state, checks_consistent=False), orders, 1)
    assert after.board.at((0, 0))[0].check == full.board.at((0, 0))[0].check == "fresh"
    assert {p.id: p.check for p in after.board} == {p.id: p.check for p in full.board}
