"""Issue 25: the standings counted in whole numbers rank and score exactly as adding up every piece's
worth in fractions does, and the panel says the same for every row.

The reference below is the plain rule of RULES 4: a player's score is the sum of
``piece_worth`` of each of their pieces; players ranked by score, then captured value, then name.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from bot.engine.model import Piece, Player
from bot.engine.ruleset import load_preset
from bot.engine.standings import piece_worth, standings
from bot.engine.state import ActiveEvent, GameState
from bot.engine.variants import variant_for

NEISG = load_preset("neisg")


def reference(ruleset, state) -> list[tuple]:
    rows = []
    for name, player in state.players.items():
        pieces = state.board.owned_by(name)
        if player.status != "active" or (not pieces and player.king_lost_at is None):
            continue
        score = sum((piece_worth(ruleset, p) for p in pieces), Fraction(0))
        has_king = any(p.kind == ruleset.royal_letter for p in pieces)
        rows.append((score, player.captured, name, player, has_king))
    rows.sort(key=lambda r: (-r[0], -r[1], r[2]))
    return [(i + 1, name, player.colour, score, captured, player.balance, has_king)
            for i, (score, captured, name, player, has_king) in enumerate(rows)]


def crowd(seed: int, players: int = 40) -> GameState:
    """Players with few pieces, so that scores and captured values tie; halves (the spirit 5.5,
    captured 7/2), energy pawns, spirit hosts, a piece both, kingless players with and without
    pieces, players out of the game, neutral pieces (one an energy pawn)."""
    rng = random.Random(seed)
    kinds = [k for k in NEISG.pieces if k not in ("K", "O", "V")]
    specs, roster = [], []
    for index in range(players):
        name = f"{rng.choice('ABC')}{index:02d}"
        status = rng.choice(["active"] * 8 + ["eliminated", "resigned"])
        kingless = rng.random() < 0.2
        roster.append(Player(name, f"Colour{index}", balance=Fraction(rng.randint(0, 30), rng.choice([1, 2])),
                             captured=Fraction(rng.choice([0, 0, 3, 4, 7]), rng.choice([1, 1, 2])), status=status,
                             king_lost_at=3 if kingless else None))
        if not kingless:
            specs.append({"owner": name, "kind": "K", "square": (index * 10, 0)})
        for n in range(rng.choice([0, 1, 2, 3])):
            extra = rng.choice([{}, {}, {"energy": True, "kind": "P"}, {"spirit": True},
                                {"energy": True, "spirit": True, "kind": "P"}, {"check": "fresh"}])
            specs.append({"owner": name, "kind": rng.choice(["R", "P", "S", "Q"] if n == 0 else kinds),
                          "square": (index * 10 + n + 1, 1), **extra})
    specs += [{"owner": None, "kind": "P", "square": (-5, -5), "energy": True},
              {"owner": None, "kind": "R", "square": (-6, -5)}]
    return GameState.build(NEISG, specs, roster, bounds=None, update=5)


def fields(row) -> tuple:
    return (row.rank, row.name, row.colour, row.score, row.captured, row.balance, row.has_king)


@pytest.mark.parametrize("seed", range(12))
def test_standings_are_the_plain_sum_of_every_piece_worth(seed):
    state = crowd(seed)
    rows = standings(NEISG, state)
    assert [fields(row) for row in rows] == reference(NEISG, state)
    assert all(type(row.score) is Fraction for row in rows)


def test_ties_and_halves_happen_in_these_boards():
    """The boards above do test what they claim: tied scores broken by captured value and by name,
    and a half in a score."""
    rows = [row for seed in range(12) for row in standings(NEISG, crowd(seed))]
    assert any(row.score.denominator == 2 for row in rows)
    by_score: dict = {}
    for row in rows:
        by_score.setdefault(row.score, []).append(row)
    assert any(len({r.captured for r in tied}) > 1 for tied in by_score.values())


@pytest.mark.parametrize("events", [(), (("Harvest", 4),), (("Famine", 4),)])
def test_the_panel_rows_say_for_each_player_what_regeneration_says(events):
    """Each row's line and its note (what the balance regenerates by, or the warning of a lost
    king), worked out once for players with a king and once for those without, as for each row."""
    variant = variant_for(NEISG)
    state = crowd(3)
    state.events = tuple(ActiveEvent(name, started) for name, started in events)
    panel = variant.standings_panel(state)
    rows = standings(NEISG, state)
    assert [row.standing for row in panel.rows] == rows
    currency = NEISG.economy.currency
    assert [(row.line, row.note, row.alarm) for row in panel.rows] == [
        (standing.line(currency), *variant._regeneration(state, standing)) for standing in rows]
    assert {row.alarm for row in panel.rows} == {True, False}


# ----------------------------------------------------------------- the board's counts by kind

SANDBOX = load_preset("sandbox")


def varied(ruleset, seed: int, players: int = 12) -> GameState:
    """Every kind of the ruleset (kings, obstacles and voids too), owned by players, by nobody and
    by names not in the game, with every field a piece may carry beside its kind: energy pawns,
    spirit hosts, disabled and fresh pieces, harpies with cargo, moved pieces."""
    rng = random.Random(seed)
    kinds = sorted(ruleset.pieces)
    roster = [Player(f"{rng.choice('ABC')}{index:02d}", f"Colour{index}",
                     balance=Fraction(rng.randint(0, 30)), captured=Fraction(rng.choice([0, 3, 7]), rng.choice([1, 2])),
                     status=rng.choice(["active"] * 5 + ["eliminated"]), king_lost_at=rng.choice([None, None, 2]))
              for index in range(players)]
    owners = [p.name for p in roster] + [None, "Z99"]
    specs = []
    for n in range(players * 8):
        extra = rng.choice([{}, {}, {}, {"energy": True}, {"spirit": True}, {"disabled": True},
                            {"check": "fresh"}, {"moved": True}, {"carrying": "P", "carrying_since": 3}])
        kind = kinds[n] if n < len(kinds) else rng.choice(kinds)   # each kind at least once
        specs.append({"owner": rng.choice(owners), "kind": kind, "square": (rng.randint(0, 30), rng.randint(0, 30)),
                      **extra})
    return GameState.build(ruleset, specs, roster, bounds=None, update=4)


def change(board, rng: random.Random, ruleset, owners: list, times: int) -> None:
    """Pieces taken off, added, and changed in place: promoted (a new kind), converted (a new
    owner), moved, turned into energy pawns or spirit hosts."""
    kinds = sorted(ruleset.pieces)
    for _ in range(times):
        pieces = list(board)
        roll = rng.random()
        if roll < 0.3 and pieces:
            board.remove(rng.choice(pieces).id)
        elif roll < 0.5:
            board.add(Piece(id=max((p.id for p in pieces), default=0) + 1, kind=rng.choice(kinds),
                            owner=rng.choice(owners), square=(rng.randint(0, 30), rng.randint(0, 30)),
                            spirit=rng.random() < 0.2))
        elif pieces:
            piece = rng.choice(pieces)
            board.replace(rng.choice([
                replace(piece, kind=rng.choice(kinds)), replace(piece, owner=rng.choice(owners)),
                replace(piece, square=(rng.randint(0, 30), rng.randint(0, 30))),
                replace(piece, kind="P", energy=True), replace(piece, spirit=not piece.spirit)]))


def counted(board, owner) -> dict:
    return dict(Counter(p.kind for p in board.owned_by(owner)))


@pytest.mark.parametrize("ruleset", [NEISG, SANDBOX], ids=["neisg", "sandbox"])
@pytest.mark.parametrize("seed", range(6))
def test_standings_from_the_counts_by_kind_follow_removals_changes_and_copies(ruleset, seed):
    """The score is each kind's worth times the board's count of it: after pieces are removed,
    added, promoted, converted, and on a copy changed apart from its original (which shares each
    owner's counts until one changes), it is still the plain sum of every piece's worth, for both
    boards; and the counts are what listing the pieces says."""
    rng = random.Random(seed)
    state = varied(ruleset, seed)
    owners = [*state.players, None, "Z99"]
    assert [fields(row) for row in standings(ruleset, state)] == reference(ruleset, state)
    change(state.board, rng, ruleset, owners, 40)
    assert [fields(row) for row in standings(ruleset, state)] == reference(ruleset, state)
    before = reference(ruleset, state)
    other = replace(state, board=state.board.copy())
    change(other.board, rng, ruleset, owners, 60)
    assert [fields(row) for row in standings(ruleset, state)] == before
    assert [fields(row) for row in standings(ruleset, other)] == reference(ruleset, other)
    change(state.board, rng, ruleset, owners, 30)
    assert [fields(row) for row in standings(ruleset, state)] == reference(ruleset, state)
    assert [fields(row) for row in standings(ruleset, other)] == reference(ruleset, other)
    for board in (state.board, other.board):
        assert all(board.kinds_owned(owner) == counted(board, owner) for owner in owners)


def test_the_counts_by_kind_are_the_callers_own():
    """A caller changing the counts it was given changes neither the board nor its copies."""
    state = varied(NEISG, 1)
    name = next(name for name in state.players if state.board.owns(name))
    copy = state.board.copy()
    given = state.board.kinds_owned(name)
    given.clear()
    assert state.board.kinds_owned(name) == counted(state.board, name) == copy.kinds_owned(name) != {}
    assert state.board.kinds_owned("nobody") == {}
