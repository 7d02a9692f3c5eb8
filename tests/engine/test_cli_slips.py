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
