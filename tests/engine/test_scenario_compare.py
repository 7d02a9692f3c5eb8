"""`python -m bot.engine scenario` compares the board after the update with `[expect] pieces` as a
whole, in any order (SCENARIOS.md): every expected piece must be there, no other piece may be, and
of a piece's optional fields only those written are compared. The differences are sentences naming
the pieces."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from bot.engine.__main__ import main
from bot.engine.runner import run_scenario
from bot.engine.scenario import load_scenario

POSITION = """\
ruleset = "neisg"
description = "a knight moves; nothing else happens"

[[players]]
name = "Red"
balance = 10

[[players]]
name = "Blue"
balance = 10

[[pieces]]
owner = "Red"
kind = "K"
at = [0, 0]

[[pieces]]
owner = "Red"
kind = "N"
at = [3, 0]

[[pieces]]
owner = "Blue"
kind = "K"
at = [40, 40]

[[pieces]]
owner = "Blue"
kind = "R"
at = [40, 45]

[orders]
Red = "N(3,0)-(5,1)"

[expect]
pieces = [
"""

AFTER = [
    '{ owner = "Red", kind = "K", at = [0, 0] }',
    '{ owner = "Red", kind = "N", at = [5, 1], check = "none" }',
    '{ owner = "Blue", kind = "K", at = [40, 40] }',
    '{ owner = "Blue", kind = "R", at = [40, 45], check = "none" }',
]


def differences(tmp_path: Path, expected: list[str]) -> list[str]:
    path = tmp_path / "scenario.toml"
    path.write_text(POSITION + "".join(f"  {piece},\n" for piece in expected) + "]\n", encoding="utf-8")
    return run_scenario(load_scenario(path)).differences


def test_the_board_as_expected_passes_in_any_order(tmp_path):
    assert differences(tmp_path, AFTER) == []
    assert differences(tmp_path, AFTER[::-1]) == []
    assert differences(tmp_path, [AFTER[2], AFTER[0], AFTER[3], AFTER[1]]) == []


def test_a_piece_not_on_the_board_is_missing(tmp_path):
    expected = [AFTER[0], '{ owner = "Red", kind = "N", at = [3, 0] }', *AFTER[2:]]
    assert differences(tmp_path, expected) == ["missing piece: Red N on (3,0)",
                                               "extra piece: Red N on (5,1) (check=none)"]


def test_a_piece_not_expected_is_extra(tmp_path):
    assert differences(tmp_path, AFTER[1:]) == ["extra piece: Red K on (0,0) (check=none)"]


def test_a_piece_expected_twice_is_missing_once(tmp_path):
    assert differences(tmp_path, [*AFTER, AFTER[2]]) == ["missing piece: Blue K on (40,40)"]


def test_only_written_fields_are_compared_and_a_wrong_one_is_a_difference(tmp_path):
    expected = [AFTER[0], '{ owner = "Red", kind = "N", at = [5, 1], check = "fresh", moved = true }', *AFTER[2:]]
    assert differences(tmp_path, expected) == [
        "piece differs: expected Red N on (5,1) (check=fresh, moved=True), got Red N on (5,1) (check=none, moved=True)"]


def test_the_command_prints_pass_or_fail_with_the_differences(tmp_path):
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text(POSITION + "".join(f"  {p},\n" for p in AFTER[::-1]) + "]\n", encoding="utf-8")
    bad.write_text(POSITION + "".join(f"  {p},\n" for p in AFTER[1:]) + "]\n", encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["scenario", str(good), str(bad)])
    assert status == 1
    assert out.getvalue().splitlines() == [f"PASS {good}", f"FAIL {bad}", "  - extra piece: Red K on (0,0) (check=none)"]
