"""The health board of RULES.md 4: one line per player, exactly as the forum posts it,

    12. Holo (Purple): 36 --- Health: 19 💖
    11. Aidan (Crimson/Yellow): 39 --- Health: 12 ❤️ +0 Regen, No King

ranked by score (the sum of the costs of the player's pieces on the board, king 0), then by total
value captured, then by name. Every expected line is written out by hand from RULES.md.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.runner import run_scenario
from bot.engine.scenario import load_scenario
from bot.engine.standings import health_board_lines, piece_worth, standings
from bot.engine.state import GameState

NEISG = load_preset("neisg")
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "neisg"

# The two lines of RULES.md 4, character for character (❤️ is U+2764 U+FE0F).
HOLO = "12. Holo (Purple): 36 --- Health: 19 \U0001F496"
AIDAN = "11. Aidan (Crimson/Yellow): 39 --- Health: 12 \u2764\ufe0f +0 Regen, No King"


def piece(owner: str, kind: str, x: int, y: int, **extra) -> dict:
    return dict(kind=kind, owner=owner, square=(x, y), **extra)


def player(name: str, balance, colour: str | None = None, captured=0, **extra) -> Player:
    return Player(name=name, colour=colour or name, balance=Fraction(balance), captured=Fraction(captured), **extra)


def board_lines(pieces: list[dict], players: list[Player]) -> list[str]:
    return health_board_lines(NEISG, GameState.build(NEISG, pieces, players))


def test_the_two_lines_of_rules_4_exactly():
    """Ten players with scores 50, 49, ..., 41 take ranks 1-10; Aidan (three queens, 39, no king) is
    11th and Holo (queen 13 + queen 13 + bishop 5 + guard 4 + pawn 1 + king 0 = 36) is 12th."""
    costs = {"R": 7, "G": 4, "N": 3, "Pl": 2, "P": 1}
    players, pieces = [], []
    for i in range(10):
        name = f"P{i:02d}"
        players.append(player(name, 10))
        pieces.append(piece(name, "K", 100 + 10 * i, 100))
        kinds, rest = ["Q", "Q", "Q"], 50 - i - 39          # three queens and 11, 10, ..., 2 more
        for kind, cost in costs.items():
            while rest >= cost:
                kinds.append(kind)
                rest -= cost
        pieces += [piece(name, k, 100 + 10 * i, 101 + j) for j, k in enumerate(kinds)]
    players += [player("Holo", 19, "Purple"),
                player("Aidan", 12, "Crimson/Yellow", king_lost_at=3, king_lost_square=(0, 0))]
    pieces += [piece("Holo", k, 0, 10 + j) for j, k in enumerate(["K", "Q", "Q", "B", "G"])]
    pieces.append(piece("Holo", "P", 0, -5))
    pieces += [piece("Aidan", "Q", 20, 10 + j) for j in range(3)]
    lines = board_lines(pieces, players)
    assert lines[:10] == [f"{i + 1}. P{i:02d} (P{i:02d}): {50 - i} --- Health: 10 \U0001F496" for i in range(10)]
    assert lines[10:] == [AIDAN, HOLO]


def test_ties_break_by_captured_value_then_by_name():
    """Blue, Green and Red all score 7 (a rook); Red captured 9, Blue and Green 4 each: Red first, then
    Blue before Green by name. Yellow scores 7.5 (a spirit 5.5 and a pillar 2) and leads; halves print
    as 7.5 and 3.5."""
    players = [player("Red", 10, captured=9), player("Green", 3.5, captured=4), player("Blue", 11, captured=4),
               player("Yellow", 0)]
    pieces = [piece(n, "K", 10 * i, 0) for i, n in enumerate(["Red", "Green", "Blue", "Yellow"])]
    pieces += [piece("Red", "R", 0, 5), piece("Green", "R", 10, 5), piece("Blue", "R", 20, 5),
               piece("Yellow", "S", 30, 5), piece("Yellow", "Pl", 31, 5)]
    assert board_lines(pieces, players) == [
        "1. Yellow (Yellow): 7.5 --- Health: 0 \U0001F496",
        "2. Red (Red): 7 --- Health: 10 \U0001F496",
        "3. Blue (Blue): 7 --- Health: 11 \U0001F496",
        "4. Green (Green): 7 --- Health: 3.5 \U0001F496",
    ]


def test_score_counts_energy_pawns_hosts_and_not_cargo():
    """RULES 4 score with D29 and P17: an energy pawn is worth 8, a rook hosting a spirit 7 + 5.5, a
    harpy 16 without the queen it carries: 8 + 12.5 + 16 = 36.5. A kingless player with nothing on the
    board who waits for the respawn is listed with 0 and '+0 Regen, No King'; a player who has not
    joined is not listed."""
    players = [player("Holo", 19, "Purple"), player("Aidan", 0, "Crimson/Yellow", king_lost_at=2,
                                                       king_lost_square=(5, 5)),
               player("Newbie", 10)]
    pieces = [piece("Holo", "K", 0, 0), piece("Holo", "P", 1, 8, energy=True), piece("Holo", "R", 2, 2, spirit=True),
              piece("Holo", "Hp", 3, 3, carrying="Q", carrying_since=4)]
    assert board_lines(pieces, players) == [
        "1. Holo (Purple): 36.5 --- Health: 19 \U0001F496",
        "2. Aidan (Crimson/Yellow): 0 --- Health: 0 \u2764\ufe0f +0 Regen, No King",
    ]


def test_board_after_a_king_capture():
    """s4-king-captured-penalty: after the update Red has a king and a bishop (score 5, health 21,
    captured 0) and Blue, kingless, a rook, a knight and a spirit (7 + 3 + 5.5 = 15.5, health 2)."""
    scenario = load_scenario(SCENARIOS / "s4-king-captured-penalty.toml")
    outcome = run_scenario(scenario)
    assert outcome.passed, outcome.differences
    assert health_board_lines(scenario.ruleset, outcome.state) == [
        "1. Blue (Blue): 15.5 --- Health: 2 \u2764\ufe0f +0 Regen, No King",
        "2. Red (Red): 5 --- Health: 21 \U0001F496",
    ]


def test_a_score_summed_by_kinds_is_the_sum_of_every_piece_worth():
    """Issue 25: standings sum each player's pieces by kind; the score is exactly the sum of every
    piece's worth, halves (Spirit 5.5), energy pawns and spirit hosts included, and stays a Fraction."""
    ruleset = NEISG
    rng = random.Random(4)
    kinds = [k for k in ruleset.pieces if k not in ("K", "O", "V")]
    specs = []
    for index, name in enumerate(("Ann", "Bob", "Cid")):
        specs.append({"owner": name, "kind": "K", "square": (index * 20, 0)})
        for n in range(30):
            extra = rng.choice([{}, {}, {"energy": True, "kind": "P"}, {"spirit": True}])
            specs.append({"owner": name, "kind": rng.choice(kinds), "square": (index * 20 + n % 10, 1 + n // 10),
                          **extra})
    state = GameState.build(ruleset, specs, [Player(n, "Red") for n in ("Ann", "Bob", "Cid")], update=2)
    rows = standings(ruleset, state)
    assert len(rows) == 3
    for row in rows:
        expected = sum((piece_worth(ruleset, p) for p in state.board.owned_by(row.name)), Fraction(0))
        assert row.score == expected and type(row.score) is Fraction
    assert any(row.score.denominator == 2 for row in rows)     # a half made it through
