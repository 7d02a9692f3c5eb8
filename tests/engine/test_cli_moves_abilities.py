"""``python -m bot.engine moves FILE`` shows what the abilities of RULES.md section 8 and the events of
section 6 do to movement (SCENARIOS.md: the destinations that order validation would accept, with
the abilities and events in force).

Every expected set below is worked out by hand from RULES.md; the positions are bounded so that the
sets stay small enough to write out.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
CAMEL = [(1, 3), (3, 1), (3, -1), (1, -3), (-1, -3), (-3, -1), (-3, 1), (-1, 3)]
ORTHOGONALS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAGONALS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]

HEADER = """\
ruleset = "neisg"
update = {update}

[board]
bounds = [[{lo}, {lo}], [{hi}, {hi}]]
{board}
[[players]]
name = "Red"
balance = 10

[[players]]
name = "Blue"
balance = 10
"""


def piece(owner: str, kind: str, at: tuple[int, int], **extra) -> str:
    lines = [f'\n[[pieces]]\nowner = "{owner}"\nkind = "{kind}"\nat = [{at[0]}, {at[1]}]']
    for key, value in extra.items():
        lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"


def position(tmp_path: Path, *pieces: str, board: str = "", update: int = 3, lo: int = -8, hi: int = 8) -> Path:
    path = tmp_path / "position.toml"
    path.write_text(HEADER.format(update=update, lo=lo, hi=hi, board=board) + "".join(pieces), encoding="utf-8")
    return path


def moves(path: Path) -> dict[tuple, set[tuple[int, int]]]:
    result = subprocess.run([sys.executable, "-m", "bot.engine", "moves", str(path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    return {(p["owner"], p["kind"], tuple(p["at"])): {tuple(d) for d in p["dests"]} for p in output["pieces"]}


def slide(origin, step, first: int, last: int) -> set[tuple[int, int]]:
    return {(origin[0] + k * step[0], origin[1] + k * step[1]) for k in range(first, last + 1)}


def leaps(origin, offsets) -> set[tuple[int, int]]:
    return {(origin[0] + dx, origin[1] + dy) for dx, dy in offsets}


def test_frozen_pieces_list_no_destinations(tmp_path):
    """RULES 8 zombie: Blue's zombie on (0,0) reaches Red's rook on (0,2) through the empty (0,1) and
    Red's knight on (1,0): both frozen, no destinations. Red's bishop on (0,3) is three squares away:
    free. The zombie itself moves (mR2, never captures): up to (0,1) only, left, and down."""
    out = moves(position(tmp_path, piece("Blue", "Z", (0, 0)), piece("Red", "R", (0, 2)),
                         piece("Red", "N", (1, 0)), piece("Red", "B", (0, 3))))
    assert out[("Red", "R", (0, 2))] == set()
    assert out[("Red", "N", (1, 0))] == set()
    assert out[("Red", "B", (0, 3))] == (slide((0, 3), (1, 1), 1, 5) | slide((0, 3), (-1, 1), 1, 5)
                                         | slide((0, 3), (1, -1), 1, 8) | slide((0, 3), (-1, -1), 1, 8))
    assert out[("Blue", "Z", (0, 0))] == {(0, 1), (-1, 0), (-2, 0), (0, -1), (0, -2)}


def test_a_rook_passes_its_own_witch_and_her_neighbours(tmp_path):
    """RULES 8 witch, D28: Red's rook on (0,0) goes up through Red's witch on (0,2) and through Blue's
    knight on (0,3), next to her (so it may also capture the knight), and captures or stops at Blue's
    bishop on (0,4), which is not next to her. The witch herself is stopped by her neighbour. Blue's
    rook may capture the witch but not pass her."""
    out = moves(position(tmp_path, piece("Red", "R", (0, 0)), piece("Red", "W", (0, 2)),
                         piece("Blue", "N", (0, 3)), piece("Blue", "B", (0, 4)), piece("Blue", "R", (-3, 2))))
    rook = out[("Red", "R", (0, 0))]
    assert rook == ({(0, 1), (0, 3), (0, 4)} | slide((0, 0), (1, 0), 1, 8) | slide((0, 0), (-1, 0), 1, 8)
                    | slide((0, 0), (0, -1), 1, 8))
    witch = out[("Red", "W", (0, 2))]
    assert not witch & {(0, 3), (0, 4), (0, 5)}
    blue_rook = out[("Blue", "R", (-3, 2))]
    assert {(-2, 2), (-1, 2), (0, 2)} <= blue_rook and (1, 2) not in blue_rook


def test_a_spirit_lists_the_friends_it_may_possess(tmp_path):
    """RULES 8 spirit and P9: from (0,0) the spirit's knight leaps reach Red's rook (1,2) and Red's
    king (1,-2) (friendly non-pawns: possession), and the empty (2,-1), (-2,-1), (-1,2); not Red's pawn
    (2,1), not Red's bishop (-2,1), which already hosts a spirit, not Blue's knight (-1,-2) (a spirit
    never captures)."""
    out = moves(position(tmp_path, piece("Red", "S", (0, 0)), piece("Red", "R", (1, 2)), piece("Red", "K", (1, -2)),
                         piece("Red", "P", (2, 1)), piece("Red", "B", (-2, 1), spirit=True),
                         piece("Blue", "N", (-1, -2))))
    assert out[("Red", "S", (0, 0))] == {(1, 2), (1, -2), (2, -1), (-2, -1), (-1, 2)}


def test_a_harpy_lists_friendly_non_king_pieces(tmp_path):
    """RULES 8 harpy (mQN): within the bounds [-3, 3], it may land on Red's knight (1,2) and Red's pawn
    (2,2) to pick them up, but not on Red's king (0,2), which also stops its upward slide, nor on Blue's
    bishop (-2,-2) (it never captures)."""
    out = moves(position(tmp_path, piece("Red", "Hp", (0, 0)), piece("Red", "N", (1, 2)), piece("Red", "P", (2, 2)),
                         piece("Red", "K", (0, 2)), piece("Blue", "B", (-2, -2)), lo=-3, hi=3))
    expected = ({(0, 1)} | slide((0, 0), (0, -1), 1, 3) | slide((0, 0), (1, 0), 1, 3) | slide((0, 0), (-1, 0), 1, 3)
                | {(1, 1), (2, 2)} | slide((0, 0), (-1, 1), 1, 3) | slide((0, 0), (1, -1), 1, 3) | {(-1, -1)}
                | leaps((0, 0), KNIGHT))
    assert out[("Red", "Hp", (0, 0))] == expected


def test_a_time_thief_lists_the_origin_of_an_enemy_last_move(tmp_path):
    """RULES 8 time thief, D27: Blue's knight moved (3,0)-(5,1) last update. Red's thief on (3,5) lists
    (3,0) (the theft) and never an enemy-occupied square; Red's thief on (-3,5), generated last update,
    may not steal (a theft is a capture attempt, RULES 3.1), so its theft square (-3,0), the origin of
    Blue's bishop's move, is missing though (-3,1) next to it is listed."""
    board = ('moved_last_update = [{ from = [3, 0], to = [5, 1] }, { from = [-3, 0], to = [-6, 3] }]\n')
    out = moves(position(tmp_path, piece("Red", "Tt", (3, 5)), piece("Blue", "N", (5, 1), moved=True),
                         piece("Red", "Tt", (-3, 5), disabled=True), piece("Blue", "B", (-6, 3), moved=True),
                         piece("Blue", "P", (3, 7)), board=board))
    thief = out[("Red", "Tt", (3, 5))]
    assert (3, 0) in thief
    assert not thief & {(5, 1), (-6, 3), (3, 7)}
    assert (3, 6) in thief and (3, 8) not in thief          # Blue's pawn blocks and cannot be captured
    disabled = out[("Red", "Tt", (-3, 5))]
    assert (-3, 0) not in disabled and (-3, 1) in disabled


def test_knights_in_shining_armor_adds_camel_leaps(tmp_path):
    """RULES 6 Knights in Shining Armor: every piece that moves like a knight also leaps (1,3). Red's
    knight gains the eight camel leaps; Red's bishop does not (its long diagonal stops at the knight)."""
    board = 'events = [{ name = "Knights in Shining Armor", started = 2 }]\n'
    out = moves(position(tmp_path, piece("Red", "N", (0, 0)), piece("Red", "B", (5, 5)), board=board))
    assert out[("Red", "N", (0, 0))] == leaps((0, 0), KNIGHT) | leaps((0, 0), CAMEL)
    assert out[("Red", "B", (5, 5))] == (slide((5, 5), (1, 1), 1, 3) | slide((5, 5), (-1, -1), 1, 4)
                                         | slide((5, 5), (1, -1), 1, 3) | slide((5, 5), (-1, 1), 1, 3))


def test_without_the_event_a_knight_has_no_camel_leaps(tmp_path):
    out = moves(position(tmp_path, piece("Red", "N", (0, 0))))
    assert out[("Red", "N", (0, 0))] == leaps((0, 0), KNIGHT)


def test_variety_freezes_a_piece_that_moved_last_update(tmp_path):
    """RULES 6 Variety: Red's rook moved (0,-2)-(0,0) last update and may not move; Red's other rook
    on (5,5) moves freely."""
    board = ('events = [{ name = "Variety", started = 2 }]\n'
             'moved_last_update = [{ from = [0, -2], to = [0, 0] }]\n')
    out = moves(position(tmp_path, piece("Red", "R", (0, 0), moved=True), piece("Red", "R", (5, 5)), board=board))
    assert out[("Red", "R", (0, 0))] == set()
    assert out[("Red", "R", (5, 5))] == set().union(*(slide((5, 5), d, 1, 3) for d in [(1, 0), (0, 1)]),
                                                    *(slide((5, 5), d, 1, 13) for d in [(-1, 0), (0, -1)]))
