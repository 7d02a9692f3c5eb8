"""The engine's command line reads well (issue 27 item 6): ``moves`` is laid out a piece a line and
stays one JSON document; ``scenario --print --report`` keeps the report, as comments that leave the
printed position a scenario file."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "tests" / "scenarios" / "neisg" / "king-captured.toml"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot.engine", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, check=False)


def test_moves_prints_a_piece_a_line_of_readable_width():
    result = run("moves", str(SCENARIO))
    assert result.returncode == 0, result.stderr
    listing = json.loads(result.stdout)                  # still the JSON of SCENARIOS.md
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 100
    starts = [line for line in lines if line.startswith('  {"at": ')]
    assert len(starts) == len(listing["pieces"]) == 4    # each piece begins its own line
    queen = next(p for p in listing["pieces"] if p["kind"] == "Q")
    assert len(queen["dests"]) > 100                     # a long list, wrapped rather than cut


def test_moves_of_an_empty_board_is_still_json(tmp_path):
    empty = tmp_path / "empty.toml"
    empty.write_text('ruleset = "neisg"\n', encoding="utf-8")
    result = run("moves", str(empty))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"pieces": []}


def test_print_with_report_keeps_the_report_as_comments(tmp_path):
    plain = run("scenario", "--print", str(SCENARIO))
    both = run("scenario", "--print", "--report", str(SCENARIO))
    assert plain.returncode == both.returncode == 0, both.stderr
    assert both.stdout.startswith(plain.stdout)
    added = both.stdout[len(plain.stdout):].splitlines()
    assert added[0] == "# Update 1" and all(line.startswith("# ") for line in added)
    assert any("king" in line for line in added)
    tomllib.loads(both.stdout)                           # the printed position is still TOML


REFUSED = """ruleset = "neisg"
update = 5
seed = 1
description = "a refused order and a played one"

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
at = [3, 3]

[[pieces]]
owner = "Blue"
kind = "K"
at = [9, 9]

[orders]
Red = "N(10,14"
Blue = "K(9,9)-(9,8)"
"""


def test_the_report_tells_every_refused_order_with_its_reason(tmp_path):
    """Issue 36: a refused order is part of what happened; the printout says it was sent and why it
    was refused, as the bot told the player (a private refusal too, which the public report leaves out)."""
    scenario = tmp_path / "refused.toml"
    scenario.write_text(REFUSED, encoding="utf-8")
    printed = run("scenario", "--print", "--report", str(scenario))
    assert printed.returncode == 0, printed.stderr
    comments = [line for line in printed.stdout.splitlines() if line.startswith("# ")]
    assert "# refused: Red: N(10,14 -- expected `)` to close the square" in comments
    assert any("K(9,9)-(9,8) was played" in line for line in comments)
    tomllib.loads(printed.stdout)                        # still a scenario file
    checked = run("scenario", "--report", str(scenario))
    assert "  refused: Red: N(10,14 -- expected `)` to close the square" in checked.stdout.splitlines()
    megachess = ROOT / "tests" / "scenarios" / "megachess" / "join-refused-at-the-update-when-the-team-changed.toml"
    printed = run("scenario", "--print", "--report", str(megachess))
    assert any(line.startswith("# refused: Eve: +K(0,6) -- your join was refused at the update")
               for line in printed.stdout.splitlines())


def test_a_refused_territory_submission_is_one_comment_line(tmp_path):
    """A territory submission of several lines is told on one line, so the printout stays TOML."""
    scenario = tmp_path / "lines.toml"
    territory = (ROOT / "tests" / "scenarios" / "territory" / "t41-a-space-inside-a-kind-is-refused.toml").read_text()
    scenario.write_text(territory.replace('Ann = "B al(0,-4)<>(3,2)"', 'Ann = ["B al(0,-4)<>(3,2)", "+Wood(0,-5)"]'),
                        encoding="utf-8")
    printed = run("scenario", "--print", "--report", str(scenario))
    assert printed.returncode == 0, printed.stdout
    assert ("# refused: Ann: B al(0,-4)<>(3,2) / +Wood(0,-5) -- a kind is one word: 'B al' has a space inside it "
            "(T41)") in printed.stdout.splitlines()
    assert "was refused" not in printed.stdout           # told once, as a refused: line
    tomllib.loads(printed.stdout)
