"""The effects of RULES.md section 8 give the same answers however a position looks them up.

A position asked about many squares has its board keep an index of the witches next to each square
(carried from board to board by the updates) instead of looking around each square. Both ways must
say the same thing about every square: whether a mover could pass it, and which witches stand next
to it.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.engine import abilities
from bot.engine.abilities import position_for
from bot.engine.board import Board
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
    return [(position.passable(s), sorted(w.id for w in effects._witches_next_to(s))) for s in squares]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_board_s_index_of_witches_answers_as_looking_around_each_square(seed, monkeypatch):
    state = _crowded_state(seed)
    squares = [(x, y) for x in range(-22, 23) for y in range(-22, 23)]   # 2,025 squares, 300 witches
    random.Random(seed).shuffle(squares)
    monkeypatch.setattr(abilities, "_WITCH_INDEX_AFTER", 10**9)           # never an index
    around_each = _answers(state, squares)
    assert state.board.near(frozenset({"W"}), (0, 0)) is None
    monkeypatch.setattr(abilities, "_WITCH_INDEX_AFTER", 16)              # an index after 16 squares
    with_index = _answers(state, squares)
    assert state.board.near(frozenset({"W"}), (0, 0)) is not None
    assert with_index == around_each
    assert _answers(state, squares) == around_each                       # a new position on the kept index
    assert any(passable for passable, _ in around_each) and any(not passable for passable, _ in around_each)
    assert any(witches for _, witches in around_each)


def test_the_index_is_made_only_once_a_position_has_asked_about_many_squares():
    """One order's check asks about a few squares and leaves the board as it was; a position
    asked about more than _WITCH_INDEX_AFTER squares has its board keep the index."""
    state = _crowded_state(1)
    effects = position_for(NEISG, state).passable.__self__
    squares = [(x, y) for x in range(-22, 23) for y in range(-22, 23)]
    for square in squares[:abilities._WITCH_INDEX_AFTER]:
        effects._witches_next_to(square)
    assert state.board.near(frozenset({"W"}), (0, 0)) is None
    for square in squares[abilities._WITCH_INDEX_AFTER:]:
        effects._witches_next_to(square)
    assert state.board.near(frozenset({"W"}), (0, 0)) is not None


def test_an_update_carries_the_index_over_to_the_next_board_and_it_answers_as_looking_around():
    """Updates on a crowded board: the index made at the first is the next boards' too (not made
    again), and after each update it says what looking around each square says."""
    from bot.engine.resolution import resolve
    from bot.engine.validation import legal_destinations

    state = _crowded_state(4)
    state.board.keep_near(frozenset({"W"}))
    rng = random.Random(4)
    squares = [(x, y) for x in range(-22, 23) for y in range(-22, 23)]
    for _ in range(3):
        position = position_for(NEISG, state)
        orders = {}
        for name in sorted(state.players):
            for piece in sorted(state.board.owned_by(name), key=lambda p: p.id):
                if piece.disabled:
                    continue
                dests = legal_destinations(position, piece, window=4)
                if dests and rng.random() < 0.3:
                    target = rng.choice(sorted(dests))
                    orders[name] = f"{piece.kind}({piece.square[0]},{piece.square[1]})-({target[0]},{target[1]})"
                    break
        state, _ = resolve(NEISG, state, orders, 1)
        assert state.board.near(frozenset({"W"}), (0, 0)) is not None
        letters = frozenset({"W"})
        assert {s: sorted(p.id for p in state.board.near(letters, s)) for s in squares} == {
            s: sorted(p.id for p in state.board.around(s, abilities._NEIGHBOURS) if p.kind == "W") for s in squares}


def _zombie_key():
    return abilities.zombie_index(NEISG)[1:]


def _freezing_and_protection(state: GameState) -> dict:
    """Whether each piece is frozen and whether it is protected, asked of a new position."""
    position = position_for(NEISG, state)
    return {p.id: (position.frozen(p), position.protected(p)) for p in sorted(state.board, key=lambda p: p.id)}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_board_s_indexes_of_zombies_and_angels_answer_as_looking_around_each_piece(seed, monkeypatch):
    """Freezing (an enemy zombie's move reaching the piece with its path clear) and protection (a
    friendly angel next to it) from the board's indexes, made after a few pieces asked, answer as
    looking at each square a zombie or an angel could stand on; disabled zombies and angels, neutral
    pieces and witches that open a zombie's path included."""
    state = _crowded_state(seed)
    monkeypatch.setattr(abilities, "_ZOMBIE_INDEX_AFTER", 10**9)
    monkeypatch.setattr(abilities, "_ANGEL_INDEX_AFTER", 10**9)
    looking = _freezing_and_protection(state)
    assert not state.board.keeps_near(*_zombie_key()) and not state.board.keeps_near(frozenset({"An"}))
    monkeypatch.setattr(abilities, "_ZOMBIE_INDEX_AFTER", 16)
    monkeypatch.setattr(abilities, "_ANGEL_INDEX_AFTER", 16)
    assert _freezing_and_protection(state) == looking
    assert state.board.keeps_near(*_zombie_key()) and state.board.keeps_near(frozenset({"An"}))
    assert _freezing_and_protection(state) == looking                     # a new position on the kept indexes
    assert any(frozen for frozen, _ in looking.values()) and any(not frozen for frozen, _ in looking.values())
    assert any(protected for _, protected in looking.values())


def test_the_indexes_of_zombies_and_angels_follow_the_updates_and_answer_as_looking_around(monkeypatch):
    """Updates on a crowded board whose first board keeps the indexes: every later board has them
    (carried, not made again) and they answer as looking around each piece."""
    from bot.engine.resolution import resolve
    from bot.engine.validation import legal_destinations

    state = _crowded_state(5)
    state.board.keep_near(*_zombie_key())
    state.board.keep_near(frozenset({"An"}))
    rng = random.Random(5)
    for _ in range(3):
        position = position_for(NEISG, state)
        orders = {}
        for name in sorted(state.players):
            for piece in sorted(state.board.owned_by(name), key=lambda p: p.id):
                dests = [] if piece.disabled else legal_destinations(position, piece, window=4)
                if dests and rng.random() < 0.3:
                    target = rng.choice(sorted(dests))
                    orders[name] = f"{piece.kind}({piece.square[0]},{piece.square[1]})-({target[0]},{target[1]})"
                    break
        state, _ = resolve(NEISG, state, orders, 1)
        assert state.board.keeps_near(*_zombie_key()) and state.board.keeps_near(frozenset({"An"}))
        with_indexes = _freezing_and_protection(state)
        plain = replace(state, board=Board(state.board))                   # the same pieces, no index kept
        with monkeypatch.context() as patched:
            patched.setattr(abilities, "_ZOMBIE_INDEX_AFTER", 10**9)
            patched.setattr(abilities, "_ANGEL_INDEX_AFTER", 10**9)
            assert _freezing_and_protection(plain) == with_indexes
        assert not plain.board.keeps_near(*_zombie_key())


def test_a_square_s_passability_is_the_same_with_its_pieces_given_or_looked_up():
    """A walk along a line hands ``passable`` the pieces it has just found on the square."""
    state = _crowded_state(6)
    squares = [(x, y) for x in range(-22, 23) for y in range(-22, 23)]
    looked_up = [position_for(NEISG, state).passable(s) for s in squares]
    position = position_for(NEISG, state)
    assert [position.passable(s, state.board.at(s)) for s in squares] == looked_up
    assert any(looked_up) and not all(looked_up)


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
