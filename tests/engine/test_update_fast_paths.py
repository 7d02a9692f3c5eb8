"""The fast paths of an update's per-player and per-piece work give what the plain code gave.

An update of a 10,000-player game copies every player, credits regeneration to nearly all of
them, looks for debts and respawns among them and moves on every piece whose check state passes
by itself. Each of these has a faster form (a player copied from its fields, one credit of the
same Fraction to many players, kings asked of the board by owner, the players in debt or without
a king picked out before the name-ordered pass); here each is held equal to the plain rule it
replaced, written out as it was, on random neisg and sandbox positions: the same balances (value
and type), the same report entries in the same order, the same board.
"""

from __future__ import annotations

import random
from dataclasses import fields, replace
from fractions import Fraction

import pytest

from bot.engine import economy
from bot.engine.economy import Ledger
from bot.engine.model import Piece, Player
from bot.engine.policies import _REGENERATIONS, policies_for
from bot.engine.report import Report
from bot.engine.resolution import resolve
from bot.engine.ruleset import load_preset
from bot.engine.serialize import dumps
from bot.engine.state import GameState
from bot.engine.steps.checks import enable
from bot.engine.steps.respawns import respawn_square, respawns
from bot.engine.update import Update

NEISG = load_preset("neisg")
SANDBOX = load_preset("sandbox")
SEEDS = range(12)


# ============================================================================= random positions
def _balance(rng: random.Random):
    """Whole numbers, halves and thirds, below and above 0; now and then a plain int."""
    whole = rng.randint(-12, 30)
    shape = rng.randrange(5)
    if shape == 0:
        return whole
    if shape == 1:
        return Fraction(2 * whole + 1, 2)
    if shape == 2:
        return Fraction(3 * whole + 1, 3)
    return Fraction(whole)


def random_state(ruleset, rng: random.Random, update: int = 9) -> GameState:
    """8-14 players, added in no name order: with a king or none (lost some updates ago, waiting
    for a respawn), not joined, eliminated or resigned; a few pieces each, some disabled ones
    generated in this or the last update, some in passing check states."""
    names = [f"{rng.choice('ABCDEFGH')}{i:02d}" for i in range(rng.randint(8, 14))]
    rng.shuffle(names)
    kinds = sorted(k for k in ruleset.pieces if k not in ("K", "O", "V", "P"))
    (x0, y0), (x1, y1) = ruleset.bounds_for(len(names)) or ((-20, -20), (20, 20))
    x0, y0, x1, y1 = max(x0, -20), max(y0, 1), min(x1, 20), min(y1, 20)
    taken: set = set()

    def free() -> tuple[int, int]:
        while True:
            square = (rng.randint(x0, x1), rng.randint(y0, y1))
            if square not in taken:
                taken.add(square)
                return square

    players, specs = [], []
    for name in names:
        player = Player(name, "Teal", balance=_balance(rng), captured=Fraction(rng.randint(0, 9)),
                        status=rng.choice(["active"] * 6 + ["eliminated", "resigned"]))
        shape = rng.randrange(4)   # 0: a king, 1: lost it, 2: not joined, 3: a king and lost one before
        if shape in (0, 3):
            specs.append({"owner": name, "kind": "K", "square": free()})
        if shape in (1, 3):
            player.king_lost_at = update - rng.randint(1, 5)
            player.king_lost_square = rng.choice(sorted(taken)) if taken and rng.random() < 0.3 else free()
        if shape != 2:
            for _ in range(rng.randint(0, 5)):
                generated = rng.random() < 0.2
                specs.append({"owner": name, "kind": rng.choice(kinds), "square": free(),
                              "check": rng.choice(["none", "fresh", "capturable", "spent"]),
                              "disabled": generated,
                              "placed": rng.choice([update - 1, update]) if generated else None})
        players.append(player)
    return GameState.build(ruleset, specs, players, update=update)


def snapshot(update: Update) -> tuple:
    """What a step changes: every player (balance types too), the report's entries, the board's
    pieces and passing pieces in the board's order, the changed squares, the next piece id."""
    players = {name: (p, type(p.balance), type(p.captured)) for name, p in update.players.items()}
    return (players, update.report.to_json_text(), list(update.board),
            [p.id for p in update.board.transient()], sorted(update.changed), update.next_id)


def updates(ruleset, seed: int, regeneration: str | None = None) -> tuple[Update, Update]:
    """Two working contexts of one random position, to run the fast step on one and the plain one
    on the other; some players have had an order executed."""
    rng = random.Random(seed)
    state = random_state(ruleset, rng)
    policies = policies_for(ruleset)
    if regeneration is not None:
        policies = replace(policies, regeneration=_REGENERATIONS[regeneration])
    pair = Update(ruleset, state, seed, policies=policies), Update(ruleset, state, seed, policies=policies)
    executed = {name for name in state.players if rng.random() < 0.5}
    for update in pair:
        update.executed_players = set(executed)
    return pair


# ============================================================================= the plain rules
def plain_regenerate(update: Update) -> None:
    policy = update.policies.regeneration
    amount = update.effects.regeneration(update.ruleset.economy.regen)
    if amount == 0:
        return
    royal = update.ruleset.royal_letter
    kings = {p.owner for p in update.board if p.kind == royal}
    for name in sorted(update.players):
        player = update.players[name]
        if player.status != "active" or not update.joined(name):
            continue
        has_king, executed = name in kings, name in update.executed_players
        if {"king": has_king, "executed_order": executed, "in_game": True}.get(policy.name, False):
            update.ledger.credit(name, amount, policy.reason)


def plain_settle_debts(update: Update) -> None:
    """settle_debts as it read before it picked out the players in debt first."""
    economy_rules, policy, royal = update.ruleset.economy, update.policies.debts, update.ruleset.royal_letter
    rounding = economy._ROUNDINGS[economy_rules.refund_rounding]
    for name in sorted(update.players):
        player = update.players[name]
        if player.balance >= 0 or player.status != "active":
            continue
        while player.balance < 0:
            pieces = sorted((p for p in update.board.owned_by(name) if p.kind != royal), key=lambda p: p.canonical_key)
            if not pieces:
                break
            victim = policy.victim(pieces, lambda p: economy.piece_value(update, p), update.rng)
            refund = rounding(economy.piece_value(update, victim) * economy_rules.refund)
            update.remove(victim.id)
            update.report.add(policy.event, [name], kind=update.kind_name(victim), at=victim.square)
            update.ledger.credit(name, refund, f"{update.describe(victim)} {policy.verb}")
        if player.balance < 0:
            for king in update.board.owned_by(name):
                update.remove(king.id)
            player.status = "eliminated"
            player.king_lost_at = None
            player.king_lost_square = None
            if economy_rules.rejoin_after_removal is not None:
                player.rejoin_after = update.number + economy_rules.rejoin_after_removal - 1
                update.report.add("elimination", [name], rejoin=player.rejoin_after + 1)
            else:
                update.report.add("elimination", [name])


def plain_respawns(update: Update) -> None:
    after, royal = update.policies.spawns.king_respawn_after, update.ruleset.royal_letter
    kings = {p.owner for p in update.board if p.kind == royal}
    for name in sorted(update.players):
        player = update.players[name]
        if (player.status != "active" or player.king_lost_at is None or name in kings
                or update.number < player.king_lost_at + after or player.king_lost_square is None):
            continue
        square = respawn_square(update, player.king_lost_square)
        if square is None:
            continue
        king = Piece(update.new_id(), royal, name, square, placed=update.number)
        update.add(king)
        update.arrivals[king.id] = None
        player.king_lost_at = None
        player.king_lost_square = None
        update.report.add("respawn", [name], at=square)


def plain_enable(update: Update) -> None:
    for piece in [p for p in update.board.transient() if p.disabled and p.placed != update.number]:
        update.board.replace(replace(piece, disabled=False))
        update.changed.add(piece.square)


# ============================================================================= the tests
def test_player_copy_is_replace_and_apart():
    assert [f.name for f in fields(Player)] == list(Player.__slots__)
    player = Player("Ada", "Teal", Fraction(11, 2), Fraction(3), "eliminated", "red", 4, (1, 2), 7, ("x",))
    copy = player.copy()
    assert copy == replace(player) and copy is not player
    copy.balance += 1
    copy.status = "active"
    assert player.balance == Fraction(11, 2) and player.status == "eliminated"


def test_enabled_is_replace_of_the_disabled_flag():
    piece = Piece(7, "Hp", "Red", (3, -4), "fresh", True, True, True, True, "N", 5, 2, True, 9)
    assert piece.enabled() == replace(piece, disabled=False)
    assert piece.enabled().disabled is False and piece.disabled is True


@pytest.mark.parametrize("seed", SEEDS)
def test_an_update_copies_every_player_apart_from_p0(seed):
    state = random_state(NEISG, random.Random(seed))
    before = {name: replace(p) for name, p in state.players.items()}
    update = Update(NEISG, state, seed)
    assert update.players == state.players and list(update.players) == list(state.players)
    assert all(update.players[name] is not state.players[name] for name in state.players)
    for player in update.players.values():
        player.balance += 3
        player.king_lost_at = 99
    assert state.players == before


@pytest.mark.parametrize("seed", SEEDS)
def test_resolve_leaves_p0_alone(seed):
    state = random_state(SANDBOX if seed % 2 else NEISG, random.Random(seed))
    ruleset = SANDBOX if seed % 2 else NEISG
    text = dumps(state)
    after, _ = resolve(ruleset, state, {}, seed)
    assert dumps(state) == text
    assert not any(after.players[name] is state.players[name] for name in state.players)


@pytest.mark.parametrize("amount", [Fraction(1), Fraction(3), 2, Fraction(1, 2), Fraction(-2), -1, Fraction(0), 0])
@pytest.mark.parametrize("seed", range(4))
def test_credit_each_equals_credit_one_by_one(amount, seed):
    """The same balances (an int balance plus an int amount stays an int) and entries, whatever
    the balances: whole, halves, ints, below 0; a player credited twice too."""
    rng = random.Random(seed)
    balances = {f"P{i}": _balance(rng) for i in range(30)}
    names = [rng.choice(sorted(balances)) for _ in range(40)]
    ledgers = []
    for _ in range(2):
        players = {name: Player(name, "Teal", balance=value) for name, value in balances.items()}
        ledger = Ledger(players, Report(5), "health")
        ledger.credit("P0", Fraction(1, 3), "before")   # an entry before
        ledgers.append(ledger)
    fast, plain = ledgers
    fast.credit_each(iter(names), amount, "regeneration")
    for name in names:
        plain.credit(name, amount, "regeneration")
    assert {n: (p.balance, type(p.balance)) for n, p in fast.players.items()} == \
        {n: (p.balance, type(p.balance)) for n, p in plain.players.items()}
    assert fast.report.to_json_text() == plain.report.to_json_text()
    assert fast.report.to_json() == plain.report.to_json()


@pytest.mark.parametrize("regeneration", ["king", "executed_order", "in_game", "never"])
@pytest.mark.parametrize("ruleset", [NEISG, SANDBOX], ids=["neisg", "sandbox"])
@pytest.mark.parametrize("seed", SEEDS)
def test_regeneration_equals_the_plain_rule(seed, ruleset, regeneration):
    fast, plain = updates(ruleset, seed, regeneration)
    economy.regenerate(fast)
    plain_regenerate(plain)
    assert snapshot(fast) == snapshot(plain)


@pytest.mark.parametrize("ruleset", [NEISG, SANDBOX], ids=["neisg", "sandbox"])
@pytest.mark.parametrize("seed", SEEDS)
def test_debts_equal_the_plain_rule(seed, ruleset):
    fast, plain = updates(ruleset, seed)
    economy.settle_debts(fast, fast.rng)
    plain_settle_debts(plain)
    assert snapshot(fast) == snapshot(plain)
    assert fast.rng.random() == plain.rng.random()   # the same draws were made


@pytest.mark.parametrize("ruleset", [NEISG, SANDBOX], ids=["neisg", "sandbox"])
@pytest.mark.parametrize("seed", SEEDS)
def test_respawns_equal_the_plain_rule(seed, ruleset):
    fast, plain = updates(ruleset, seed)
    respawns(fast)
    plain_respawns(plain)
    assert snapshot(fast) == snapshot(plain) and fast.arrivals == plain.arrivals
    assert fast.rng.random() == plain.rng.random()


@pytest.mark.parametrize("seed", SEEDS)
def test_enable_equals_the_plain_rule(seed):
    fast, plain = updates(NEISG, seed)
    enable(fast)
    plain_enable(plain)
    assert snapshot(fast) == snapshot(plain)
    assert not any(p.disabled and p.placed != fast.number for p in fast.board)


def test_the_random_positions_reach_every_branch():
    """The positions above are not idle: among them players are credited, sell or lose pieces to
    their debts, are removed, get their kings back, and pieces are enabled."""
    seen: set[str] = set()
    enabled = 0
    for ruleset in (NEISG, SANDBOX):
        for seed in SEEDS:
            update, _ = updates(ruleset, seed)
            disabled = sum(p.disabled for p in update.board)
            economy.regenerate(update)
            economy.settle_debts(update, update.rng)
            respawns(update)
            enable(update)
            enabled += disabled - sum(p.disabled for p in update.board)
            seen |= {e.type for e in update.report.entries}
    assert {"balance", "disintegration", "sale", "elimination", "respawn"} <= seen
    assert enabled > 0
