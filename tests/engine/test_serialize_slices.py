"""Issue 25: a stored state is written and read a slice of pieces at a time, and nothing else changes.

``dumps`` gives, character for character, the compact sorted JSON it always gave (stored snapshots
compare as text in ``replay``), and ``loads`` reads any JSON text of a state as ``json.loads``
would, blanks included, and refuses malformed text as it would.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from bot.engine import serialize
from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.state import GameState

KINDS = ["P", "N", "B", "R", "Q", "E", "W", "Z", "An"]


def crowd(players: int, per_player: int) -> GameState:
    """More pieces and players than a slice holds, names that need escaping among them."""
    rng = random.Random(5)
    names = [f"P{i}" for i in range(players - 2)] + ['Robert"); DROP', "Ünïcödé ✨"]
    specs, taken = [], set()
    for index, name in enumerate(names):
        specs.append({"owner": name, "kind": "K", "square": (index * 40, 0)})
        for _ in range(per_player - 1):
            square = (index * 40 + rng.randint(-9, 9), rng.randint(1, 30))
            if square not in taken:
                taken.add(square)
                specs.append({"owner": name, "kind": rng.choice(KINDS), "square": square, "check": "fresh"})
    roster = [Player(name, "Red", balance=Fraction(rng.randint(1, 40), rng.choice([1, 2]))) for name in names]
    return GameState.build(load_preset("neisg"), specs, roster, update=3)


@pytest.mark.parametrize("players, per_player", [(0, 0), (1, 1), (3, 4), (40, 30), (1200, 2)])
def test_the_text_is_the_one_json_gives_and_reads_back_the_same(players, per_player):
    state = crowd(players, per_player) if players else GameState.build(load_preset("neisg"), [], [])
    text = serialize.dumps(state)
    assert text == json.dumps(serialize.state_to_json(state), separators=(",", ":"), sort_keys=True)
    again = serialize.loads(text)
    assert serialize.dumps(again) == text
    assert serialize.state_to_json(again) == serialize.state_to_json(state)


def test_a_state_written_with_blanks_reads_the_same():
    state = crowd(30, 5)
    spaced = json.dumps(serialize.state_to_json(state), indent=2)
    assert serialize.dumps(serialize.loads(spaced)) == serialize.dumps(state)
    assert serialize.dumps(serialize.loads(" \n" + spaced + "\t\n")) == serialize.dumps(state)


@pytest.mark.parametrize("text", ['{"pieces": [1, 2', '{"pieces": [1 2]}', '{"version": 2,}', '{"version" 2}',
                                  '{"version": 2} extra', '', '{"pieces": [,]}'])
def test_malformed_text_is_refused_as_json_refuses_it(text):
    with pytest.raises(json.JSONDecodeError) as ours:
        serialize.loads(text)
    with pytest.raises(json.JSONDecodeError) as theirs:
        json.loads(text)
    assert ours.value.pos == theirs.value.pos


OPTIONAL = {"check": "capturable", "disabled": True, "moved": True, "energy": True, "spirit": True, "carrying": "N",
            "carrying_since": 4, "fade": 2, "step_used": True, "placed": 3}


@pytest.mark.parametrize("field", sorted(OPTIONAL))
def test_a_piece_writes_exactly_the_fields_that_differ_from_their_defaults(field):
    """A piece is written with its id, kind, owner and square, and only those other fields that
    differ from their defaults: each of them alone, then all of them, read back the same."""
    ruleset = load_preset("neisg")
    specs = [{"owner": "Ada", "kind": "K", "square": (0, 0)},
             {"owner": "Ada", "kind": "Q", "square": (1, 0), field: OPTIONAL[field]},
             {"owner": "Ada", "kind": "R", "square": (2, 0), **OPTIONAL}]
    state = GameState.build(ruleset, specs, [Player("Ada", "Red")], update=2)
    pieces = json.loads(serialize.dumps(state))["pieces"]
    core = {"id", "kind", "owner", "at"}
    assert [set(p) - core for p in pieces] == [set(), {field}, set(OPTIONAL)]
    assert pieces[1][field] == OPTIONAL[field]
    assert sorted(serialize.loads(serialize.dumps(state)).board, key=lambda p: p.id) == sorted(state.board,
                                                                                            key=lambda p: p.id)


def test_pieces_written_directly_read_as_json_writes_them():
    """``dumps`` writes each piece's text itself (issue 25): the same characters as ``json`` for every
    optional field alone and together, a neutral piece, names and kinds that need escaping."""
    ruleset = load_preset("neisg")
    specs = [{"owner": None, "kind": "P", "square": (-3, 7)},
             {"owner": 'Q"uote\\', "kind": "K", "square": (0, 0)},
             {"owner": "Ünïcödé ✨", "kind": "K", "square": (5, -2)}]
    for index, (field, value) in enumerate(sorted(OPTIONAL.items())):
        specs.append({"owner": "Ünïcödé ✨", "kind": "Q", "square": (index, 9), field: value})
        specs.append({"owner": 'Q"uote\\', "kind": "R", "square": (index, 12), **dict(list(OPTIONAL.items())[index:])})
    state = GameState.build(ruleset, specs, [Player('Q"uote\\', "Red"), Player("Ünïcödé ✨", "Blue")], update=2)
    assert serialize.dumps(state) == json.dumps(serialize.state_to_json(state), separators=(",", ":"), sort_keys=True)
