"""The effects of RULES.md section 8 give the same answers however a position looks them up.

A position asked about many squares maps every square next to a witch at once (the witch zone)
instead of looking around each square; an update on a large board asks square by square. Both ways
must say the same thing about every square: whether a mover could pass it, and which witches stand
next to it.
"""

from __future__ import annotations

import random

import pytest

from bot.engine import abilities
from bot.engine.abilities import position_for
from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.state import GameState

NEISG = load_preset("neisg")
KINDS = ["W", "W", "W", "R", "B", "N", "P", "Z", "An", "S", "O"]


def _crowded_state(seed: int) -> GameState:
    """Three players' pieces, a third of them witches (some disabled), over [-20,20]^2."""
    rng = random.Random(seed)
    players = [Player(name, colour) for name, colour in (("Ash", "Purple"), ("Bea", "Crimson"), ("Cid", "Teal"))]
    specs, taken = [], set()
    while len(specs) < 900:
        square = (rng.randint(-20, 20), rng.randint(-20, 20))
        if square in taken:
            continue
        taken.add(square)
        kind = rng.choice(KINDS)
        specs.append(dict(kind=kind, owner=None if kind == "O" else rng.choice(players).name, square=square,
                          disabled=rng.random() < 0.15))
    return GameState.build(NEISG, specs, players)


def _answers(state: GameState, squares: list) -> list:
    position = position_for(NEISG, state)
    effects = position.passable.__self__
    return [(position.passable(s), tuple(w.id for w in effects._witches_next_to(s))) for s in squares]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_witch_zone_answers_as_looking_around_each_square(seed, monkeypatch):
    state = _crowded_state(seed)
    squares = [(x, y) for x in range(-22, 23) for y in range(-22, 23)]   # 2,025 squares, 300 witches
    random.Random(seed).shuffle(squares)
    monkeypatch.setattr(abilities, "_WITCH_ZONE_AFTER", 10**9)            # never a zone
    around_each = _answers(state, squares)
    monkeypatch.setattr(abilities, "_WITCH_ZONE_AFTER", 16)
    monkeypatch.setattr(abilities, "_WITCH_ZONE_PER_WITCH", 0)              # a zone after 16 squares
    with_zone = _answers(state, squares)
    assert with_zone == around_each
    assert any(passable for passable, _ in around_each) and any(not passable for passable, _ in around_each)
    assert any(witches for _, witches in around_each)


def test_a_zone_is_built_only_once_the_squares_asked_outnumber_the_witches_several_times():
    """With about 300 witches, a position asked about fewer than four times as many squares looks
    around each one; asked about 2,025 squares, it maps the witches' neighbours once."""
    state = _crowded_state(1)
    threshold = len(state.board.of_kind("W")) * abilities._WITCH_ZONE_PER_WITCH
    effects = position_for(NEISG, state).passable.__self__
    squares = [(x, y) for x in range(-22, 23) for y in range(-22, 23)]
    assert threshold < len(squares)
    for square in squares[:threshold]:
        effects._witches_next_to(square)
    assert effects._witch_zone is None
    for square in squares[threshold:]:
        effects._witches_next_to(square)
    assert effects._witch_zone is not None


def test_the_drop_of_a_kind_two_harpies_carry_is_the_lowest_squares():
    """+N names the drop of the harpy carrying a knight; of two, the one on the lowest square,
    whatever order the board holds them in."""
    from bot.engine.model import Piece
    from bot.engine.validation import Validator

    players = [Player("Ash", "Purple")]
    specs = [dict(kind="K", owner="Ash", square=(0, 0)),
             dict(kind="Hp", owner="Ash", square=(4, 1), carrying="N", carrying_since=1),
             dict(kind="Hp", owner="Ash", square=(3, 9), carrying="N", carrying_since=1),
             dict(kind="Hp", owner="Ash", square=(2, 2), carrying="B", carrying_since=1),
             dict(kind="Hp", owner="Ash", square=(3, 2), carrying="N", carrying_since=1)]
    state = GameState.build(NEISG, specs, players, update=2)
    validator = Validator(NEISG, state, position_for(NEISG, state))
    assert validator.carrier("Ash", "N").square == (3, 2)
    assert validator.carrier("Ash", "B").square == (2, 2)
    assert validator.carrier("Ash", "R") is None
    state.board.add(Piece(99, "Hp", "Ash", (3, 2), carrying="N", carrying_since=1))   # a tie: the first held
    assert validator.carrier("Ash", "N").id == state.board.at((3, 2))[0].id
