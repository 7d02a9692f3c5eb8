"""Issue 25: ``dumps`` writes a board from the record of a board it wrote before, and gives exactly
the text ``json.dumps`` gives.

The engine reuses the pieces an update leaves alone, and ``dumps`` keeps, for the last few boards it
wrote, each piece's key and text by the piece object. Whatever it was given before (updates of the
engine, states read back, hand-made edits, several games in turn, several threads at once), the
text must be the plain one, character for character.
"""

from __future__ import annotations

import gc
import json
import random
import threading
from dataclasses import replace
from fractions import Fraction

import pytest

from bot.engine import serialize
from bot.engine.abilities import position_for
from bot.engine.model import Piece, Player
from bot.engine.resolution import resolve
from bot.engine.ruleset import load_preset
from bot.engine.state import GameState
from bot.engine.validation import legal_destinations

NEISG = load_preset("neisg")
KINDS = ["P", "N", "B", "R", "Q", "G", "E", "W", "Z", "An"]


def plain(state: GameState) -> str:
    return json.dumps(serialize.state_to_json(state), separators=(",", ":"), sort_keys=True)


def position(players: int, per_player: int, seed: int) -> GameState:
    """Armies close enough to capture each other, on an unbounded board."""
    rng = random.Random(seed)
    specs, taken, roster = [], set(), []
    for index in range(players):
        name = f"P{index:02d}" if index % 3 else f"Z{index}"        # the order of names is not the order of play
        roster.append(Player(name, f"Colour{index}", balance=Fraction(rng.randint(10, 40))))
        home = (index % 4 * 9, index // 4 * 9)
        specs.append({"owner": name, "kind": "K", "square": home})
        taken.add(home)
        while sum(1 for spec in specs if spec["owner"] == name) < per_player:
            square = (home[0] + rng.randint(-5, 5), home[1] + rng.randint(-5, 5))
            if square not in taken:
                taken.add(square)
                specs.append({"owner": name, "kind": rng.choice(KINDS), "square": square})
    specs.append({"owner": None, "kind": "P", "square": (-20, -20)})
    return GameState.build(NEISG, specs, roster, bounds=None, update=1)


def random_orders(state: GameState, rng: random.Random) -> dict[str, str]:
    """An order for most players: a capture where one is legal, else a move; now and then a
    generation (a new piece)."""
    where = position_for(NEISG, state)
    orders = {}
    for name in sorted(state.players):
        if rng.random() < 0.2:
            continue
        if rng.random() < 0.15:
            orders[name] = f"+P({rng.randint(-60, 60)},{rng.randint(40, 90)})"
            continue
        pieces = [p for p in state.board.owned_by(name) if p.kind != "K"]
        rng.shuffle(pieces)
        for piece in pieces[:5]:
            targets = legal_destinations(where, piece, window=8)
            if targets:
                captures = [t for t in targets if where.board.occupied(t)]
                target = rng.choice(captures or targets)
                orders[name] = f"{piece.kind}({piece.square[0]},{piece.square[1]})-({target[0]},{target[1]})"
                break
    return orders


def edited(state: GameState, change) -> GameState:
    board = state.board.copy()
    change(board)
    return replace(state, board=board)


@pytest.fixture(autouse=True)
def no_records():
    """Each test starts and ends with no board recorded (the records are the module's)."""
    serialize._RECENT = ()
    yield
    serialize._RECENT = ()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_update_of_a_game_is_written_as_json_writes_it(seed):
    """Updates of the engine with random orders (moves, captures, generations; the check states
    of untouched pieces change too): each new state written after the one before it."""
    rng = random.Random(seed)
    state = position(12, 9, seed)
    assert serialize.dumps(state) == plain(state)
    for _ in range(8):
        state, _ = resolve(NEISG, state, random_orders(state, rng), seed=seed)
        assert serialize.dumps(state) == plain(state)


def test_the_pieces_an_update_leaves_alone_are_taken_from_the_record():
    """The shortcut is really taken (once the check states of the hand-made position settle, most
    of the new board's pieces are the old objects), and its text is the plain one; the same state
    written twice gives the same text."""
    rng = random.Random(8)
    state = position(12, 9, 8)
    for _ in range(3):
        state, _ = resolve(NEISG, state, random_orders(state, rng), seed=8)
    serialize.dumps(state)
    new_state, _ = resolve(NEISG, state, random_orders(state, rng), seed=8)
    record = serialize._RECENT[0]
    shared = [p for p in new_state.board if id(p) in record.pieces]
    assert len(shared) > len(new_state.board) // 2
    assert serialize.dumps(new_state) == plain(new_state) == serialize.dumps(new_state)


def test_states_read_back_and_written_again():
    """A state read by ``loads`` has new objects: nothing of the record is shared, the text is the same;
    so is the text of the next update of the read state."""
    rng = random.Random(5)
    state = position(10, 8, 5)
    text = serialize.dumps(state)
    again = serialize.loads(text)
    assert serialize.dumps(again) == text
    following, _ = resolve(NEISG, again, random_orders(again, rng), seed=5)
    assert serialize.dumps(following) == plain(following)
    assert serialize.dumps(state) == text


OPTIONAL = {"check": "capturable", "disabled": True, "moved": True, "energy": True, "spirit": True, "carrying": "N",
            "carrying_since": 4, "fade": 2, "step_used": True, "placed": 3}


def test_hand_made_edits_of_a_written_board():
    """A moderator's edits of a board written before: a piece changed in place (the same key, other
    fields, each optional field in turn), moved, taken off, put on with a new id, given to another
    owner, turned neutral; an owner and a kind that need escaping; odd values written by json's
    own path (a float coordinate, an id that is not a whole number)."""
    state = position(6, 10, 11)
    assert serialize.dumps(state) == plain(state)
    rng = random.Random(11)
    serial = [10_000]

    def pick(board) -> Piece:
        return rng.choice(sorted(board, key=lambda p: p.id))

    def change_fields(board):
        piece = pick(board)
        field = rng.choice(sorted(OPTIONAL))
        board.replace(replace(piece, **{field: OPTIONAL[field]}))

    def move(board):
        piece = pick(board)
        board.replace(piece.at((piece.square[0] + rng.randint(-30, 30), piece.square[1] + rng.randint(50, 90))))

    def take_off(board):
        board.remove(pick(board).id)

    def put_on(board):
        serial[0] += 1
        board.add(Piece(serial[0], rng.choice(KINDS), rng.choice(['Q"uote\\', "Ünïcödé ✨", "P01", None]),
                        (rng.randint(-99, 99), 200 + serial[0]), **rng.choice([{}, OPTIONAL])))

    def hand_over(board):
        board.replace(replace(pick(board), owner=rng.choice(["P02", "Z0", None, "Ünïcödé ✨"])))

    def odd(board):
        serial[0] += 1
        board.add(Piece(serial[0], "Q", "P01", (rng.randint(0, 9) + 0.5, 300 + serial[0])))

    edits = [change_fields, move, take_off, put_on, hand_over, odd]
    for round_ in range(40):
        state = edited(state, lambda board: [rng.choice(edits)(board) for _ in range(rng.randint(1, 6))])
        assert serialize.dumps(state) == plain(state), round_
    assert any(type(p.square[0]) is float for p in state.board)


def test_an_odd_id_and_keys_that_tie_up_to_the_id():
    """Pieces on one square of one owner and kind (a collision) are ordered by id; an id that is
    not a whole number is written by json's path."""
    specs = [{"owner": "Ada", "kind": "K", "square": (0, 0)}] + [{"owner": "Ada", "kind": "Q", "square": (3, 3)}] * 3
    state = GameState.build(NEISG, specs, [Player("Ada", "Red")], bounds=None, update=2)
    assert serialize.dumps(state) == plain(state)
    state = edited(state, lambda board: (board.remove(3), board.add(Piece(2.5, "Q", "Ada", (3, 3))),
                                         board.add(Piece(7, "Q", "Ada", (3, 3), check="fresh"))))
    assert serialize.dumps(state) == plain(state)
    state = edited(state, lambda board: board.replace(replace(board.get(2), check="spent")))
    assert serialize.dumps(state) == plain(state)


def test_empty_boards_and_boards_emptied_and_filled_again():
    empty = GameState.build(NEISG, [], [], update=1)
    assert serialize.dumps(empty) == plain(empty)
    state = position(4, 5, 3)
    assert serialize.dumps(state) == plain(state)
    cleared = edited(state, lambda board: [board.remove(p.id) for p in list(board)])
    assert serialize.dumps(cleared) == plain(cleared)
    assert serialize.dumps(state) == plain(state)
    one = edited(cleared, lambda board: board.add(Piece(1, "K", "P01", (0, 0))))
    assert serialize.dumps(one) == plain(one)


def test_games_in_turn_more_than_are_kept():
    """Games written in turn (two, then more than the records kept), each one update further each
    time: every text is the plain one."""
    rng = random.Random(2)
    games = [position(8, 6, seed) for seed in range(serialize._KEEP + 2)]
    for count in (2, len(games)):
        for _ in range(4):
            for index in range(count):
                games[index], _ = resolve(NEISG, games[index], random_orders(games[index], rng), seed=index)
                assert serialize.dumps(games[index]) == plain(games[index])
    assert len(serialize._RECENT) <= serialize._KEEP


def test_pieces_freed_and_their_addresses_given_to_new_ones():
    """The record holds the pieces it describes, so a piece freed elsewhere cannot hand its
    address (its ``id()``) to a different new piece while the record may match it: boards built
    again and again from the same descriptions, the old ones dropped, each written as json
    writes it."""
    for round_ in range(6):
        state = position(5, 6, round_)
        state = edited(state, lambda board: board.replace(replace(board.get(2), check="fresh", moved=True)))
        assert serialize.dumps(state) == plain(state)
        del state
        gc.collect()


def test_threads_writing_different_games_at_once():
    """Two threads, each writing its own game's updates again and again while the other does:
    each text is the one the plain path gives (computed before, on one thread)."""
    rng = random.Random(4)
    games = []
    for seed in (1, 2):
        states = [position(10, 8, seed)]
        for _ in range(4):
            states.append(resolve(NEISG, states[-1], random_orders(states[-1], rng), seed=seed)[0])
        games.append(states)
    expected = [[plain(s) for s in states] for states in games]
    wrong = []

    def write(index: int) -> None:
        for _ in range(15):
            for state, text in zip(games[index], expected[index]):
                if serialize.dumps(state) != text:
                    wrong.append((index, state.update))

    threads = [threading.Thread(target=write, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []


def test_the_same_board_written_again_and_again_keeps_its_record_as_it_was():
    """The whole text is one join of the keys' texts and the record's piece texts, the first and the
    last framed as new strings: the record itself is never changed, so a board of one piece, two or
    many, written again from it (the very same pieces) gives the plain text every time."""
    state = position(3, 4, 5)
    one = edited(state, lambda board: [board.remove(p.id) for p in list(board)[1:]])
    two = edited(state, lambda board: [board.remove(p.id) for p in list(board)[2:]])
    for board_state in (one, two, state):
        for _ in range(3):
            assert serialize.dumps(board_state) == plain(board_state)
        record = serialize._RECENT[0].texts
        assert [json.loads(record[0]), json.loads(record[-1])] == [json.loads(plain(board_state))["pieces"][i]
                                                                   for i in (0, -1)]
