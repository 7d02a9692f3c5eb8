"""``python -m bot.engine moves FILE`` (SCENARIOS.md): the JSON of every piece's legal destinations,
sorted, within 32 squares (Chebyshev) on an unbounded board or within the scenario's bounds; exit
status 2 naming the file when the file is malformed.

The scenario files used here are the project's own copies under ``tests/scenarios/``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios" / "neisg"
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
DIAGONALS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot.engine", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


@lru_cache(maxsize=None)
def moves_of(path: Path) -> dict:
    result = run("moves", str(path))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def by_square(output: dict) -> dict[tuple, dict]:
    return {(tuple(p["at"]), p["kind"], p["owner"]): p for p in output["pieces"]}


def dests(output: dict, at, kind, owner) -> set[tuple[int, int]]:
    return {tuple(d) for d in by_square(output)[(tuple(at), kind, owner)]["dests"]}


def around(origin, offsets) -> set[tuple[int, int]]:
    return {(origin[0] + dx, origin[1] + dy) for dx, dy in offsets}


def ray(origin, step, first: int, last: int) -> set[tuple[int, int]]:
    return {(origin[0] + k * step[0], origin[1] + k * step[1]) for k in range(first, last + 1)}


def write(tmp_path: Path, text: str, name: str = "position.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


EXAMPLES = [SCENARIOS / f"{name}.toml" for name in (
    "blocked-path", "capturable-cannot-dodge", "dodge", "fallback-on-dodge", "generate", "implosion-annihilates",
    "implosion", "king-captured")]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_output_shape_for_every_example(path):
    """SCENARIOS.md: ``{"pieces": [{"at": [x, y], "kind": "N", "owner": "Red", "dests": [[x, y], ...]}]}``,
    every piece of the position, destinations sorted, within 32 squares, never onto a friend."""
    output = moves_of(path)
    assert set(output) == {"pieces"}
    pieces = output["pieces"]
    text = path.read_text(encoding="utf-8")
    assert len(pieces) == text.split("[expect]")[0].count("[[pieces]]")
    friends = {}
    for p in pieces:
        assert set(p) == {"at", "kind", "owner", "dests"}
        friends.setdefault(p["owner"], set()).add(tuple(p["at"]))
    for p in pieces:
        squares = [tuple(d) for d in p["dests"]]
        assert squares == sorted(set(squares)), "sorted and unique"
        x, y = p["at"]
        assert all(max(abs(dx - x), abs(dy - y)) <= 32 for dx, dy in squares)
        assert (x, y) not in squares
        assert not set(squares) & (friends[p["owner"]] - {(x, y)})


def test_blocked_path():
    """RULES 3.1: the knight on (4,13) blocks the rook; the rook may capture it."""
    output = moves_of(SCENARIOS / "blocked-path.toml")
    rook = (10, 13)
    expected = (ray(rook, (-1, 0), 1, 6) | ray(rook, (1, 0), 1, 32)
                | ray(rook, (0, 1), 1, 32) | ray(rook, (0, -1), 1, 32))
    assert dests(output, rook, "R", "Blue") == expected
    assert (4, 13) in expected and (3, 13) not in expected
    assert dests(output, (4, 13), "N", "Red") == around((4, 13), KNIGHT)
    assert dests(output, (-20, -20), "K", "Red") == around((-20, -20), KING)
    assert dests(output, (30, 30), "K", "Blue") == around((30, 30), KING)


def test_rook_captures_the_knight_and_stops():
    output = moves_of(SCENARIOS / "capturable-cannot-dodge.toml")
    rook = (12, 10)
    expected = (ray(rook, (0, 1), 1, 5) | ray(rook, (0, -1), 1, 32)
                | ray(rook, (1, 0), 1, 32) | ray(rook, (-1, 0), 1, 32))
    assert dests(output, rook, "R", "Blue") == expected
    assert dests(output, (12, 15), "N", "Red") == around((12, 15), KNIGHT)


def test_the_king_can_be_captured():
    output = moves_of(SCENARIOS / "king-captured.toml")
    rook = (5, 0)
    assert (5, 5) in dests(output, rook, "R", "Red") and (5, 6) not in dests(output, rook, "R", "Red")
    queen = dests(output, (40, 40), "Q", "Blue")
    assert len(queen) == 8 * 32


def test_pieces_sharing_an_implosion_square():
    """RULES 3.4 and D23: both pieces move normally, neither captures the other."""
    output = moves_of(SCENARIOS / "implosion-annihilates.toml")
    assert dests(output, (2, 6), "N", "Red") == around((2, 6), KNIGHT)
    bishop = dests(output, (2, 6), "B", "Blue")
    assert bishop == set().union(*(ray((2, 6), d, 1, 32) for d in DIAGONALS))


def test_output_lists_pieces_in_canonical_order():
    """Canonical order: owner name, then x, then y, then kind."""
    output = moves_of(SCENARIOS / "implosion.toml")
    assert [(p["owner"], p["at"], p["kind"]) for p in output["pieces"]] == [
        ("Blue", [4, 8], "B"), ("Blue", [30, 30], "K"), ("Red", [-20, -20], "K"), ("Red", [0, 5], "N")]


# ----------------------------------------------------------------------------- bounds
POSITION = """\
ruleset = "{ruleset}"
{extra}
[[players]]
name = "Red"
colour = "Red"
balance = 10

[[players]]
name = "Blue"
colour = "Blue"
balance = 10
{pieces}
"""


def piece(owner, kind, at) -> str:
    owner_line = f'owner = "{owner}"\n' if owner else ""
    return f"\n[[pieces]]\n{owner_line}kind = \"{kind}\"\nat = [{at[0]}, {at[1]}]\n"


def test_scenario_bounds_limit_the_destinations(tmp_path):
    path = write(tmp_path, POSITION.format(ruleset="neisg", extra="[board]\nbounds = [[0, 0], [11, 9]]\n",
                                           pieces=piece("Red", "R", (3, 4)) + piece("Blue", "N", (11, 9))))
    output = moves_of(path)
    assert dests(output, (3, 4), "R", "Red") == ({(x, 4) for x in range(12)} | {(3, y) for y in range(10)}) - {(3, 4)}
    assert dests(output, (11, 9), "N", "Blue") == {(9, 8), (10, 7)}


def test_scenario_bounds_larger_than_the_window_are_used_whole(tmp_path):
    """SCENARIOS.md: on an unbounded board, destinations are listed within the scenario's bounds when
    given, else within 32 squares."""
    path = write(tmp_path, POSITION.format(ruleset="neisg", extra="[board]\nbounds = [[-100, -5], [100, 5]]\n",
                                           pieces=piece("Red", "R", (0, 0))))
    rook = dests(moves_of(path), (0, 0), "R", "Red")
    assert len(rook) == 200 + 10
    assert (-100, 0) in rook and (100, 0) in rook and (0, 6) not in rook


def test_sandbox_bounds_come_from_the_ruleset(tmp_path):
    path = write(tmp_path, POSITION.format(ruleset="sandbox", extra="", pieces=piece("Red", "Q", (-99, 1))))
    queen = dests(moves_of(path), (-99, 1), "Q", "Red")
    assert len(queen) == 198 + 98 + 98   # along y = 1, along x = -99, and the diagonal up to (-1, 99)
    assert (99, 1) in queen and (-1, 99) in queen


def test_neutral_pieces_have_no_owner_and_no_moves(tmp_path):
    path = write(tmp_path, POSITION.format(ruleset="neisg", extra="",
                                           pieces=piece(None, "O", (1, 1)) + piece("Red", "B", (0, 0))))
    output = moves_of(path)
    assert dests(output, (1, 1), "O", None) == set()
    assert (1, 1) in dests(output, (0, 0), "B", "Red") and (2, 2) not in dests(output, (0, 0), "B", "Red")
    assert '"owner": null' in run("moves", str(path)).stdout


def test_arena_king_may_not_step_onto_an_attacked_square(tmp_path):
    """RULES 5.2 normal check rules, as ``moves`` reports them."""
    path = write(tmp_path, POSITION.format(ruleset="arena", extra="",
                                           pieces=piece("Red", "K", (0, 0)) + piece("Blue", "R", (4, 0))))
    king = dests(moves_of(path), (0, 0), "K", "Red")
    assert king == around((0, 0), KING) - {(-1, 0), (1, 0)}


def test_megachess_teammates_are_not_captured(tmp_path):
    """RULES 5.3: a move onto a square held by a teammate is illegal; ranges R6 apply."""
    text = """\
ruleset = "megachess"

[[players]]
name = "Ann"
colour = "White"
team = "alabaster"

[[players]]
name = "Bob"
colour = "Grey"
team = "alabaster"

[[players]]
name = "Cid"
colour = "Steel"
team = "brushed metal"
""" + piece("Ann", "R", (0, 0)) + piece("Bob", "N", (0, 3)) + piece("Cid", "N", (3, 0))
    rook = dests(moves_of(write(tmp_path, text)), (0, 0), "R", "Ann")
    assert rook == {(0, 1), (0, 2), (1, 0), (2, 0), (3, 0)} | ray((0, 0), (-1, 0), 1, 6) | ray((0, 0), (0, -1), 1, 6)


# ----------------------------------------------------------------------------- malformed files
@pytest.mark.parametrize("text, words", [
    ('ruleset = "neisg"\ncolour = "Red"\n', "unknown key 'colour'"),
    ('ruleset = "neisg"\n[[pieces]]\nkind = "Xq"\nat = [0, 0]\n', "unknown piece kind 'Xq'"),
    ('ruleset = "neisg"\nupdate = = 3\n', "not valid TOML"),
    ('ruleset = "neisg"\n[[pieces]]\nowner = "Nobody"\nkind = "N"\nat = [0, 0]\n', "not a player"),
], ids=["unknown-key", "unknown-kind", "bad-toml", "unknown-owner"])
def test_malformed_file_exits_2_naming_the_file(tmp_path, text, words):
    path = write(tmp_path, text, "broken-scenario.toml")
    result = run("moves", str(path))
    assert result.returncode == 2
    assert str(path) in result.stderr and words in result.stderr
    assert result.stdout == ""


def test_missing_file_exits_2(tmp_path):
    path = tmp_path / "nowhere.toml"
    result = run("moves", str(path))
    assert result.returncode == 2 and str(path) in result.stderr
