"""``python -m bot render`` exactly as INTERFACES.md says: each form, its files and its exit codes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.__main__ import main
from bot.engine.runner import run_scenario
from bot.engine.scenario import load_scenario
from bot.engine.standings import health_board_lines

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "tests" / "scenarios" / "neisg" / "king-captured.toml"


def _run(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "bot", "render", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=300)


def _png(path: Path) -> Image.Image:
    assert path.exists(), path
    image = Image.open(path)
    assert image.format == "PNG" and max(image.size) <= 4096
    return image


@pytest.mark.parametrize("extra", [
    (),
    ("--after",),
    ("--region=-5,-5,5,5",),
    ("--center=0,0", "--radius=3"),
])
def test_board_forms(tmp_path, extra):
    out = tmp_path / "board.png"
    result = _run(str(SCENARIO), *extra, "--out", str(out))
    assert result.returncode == 0, result.stderr
    _png(out)


def test_health_prints_the_lines(tmp_path):
    out = tmp_path / "health.png"
    result = _run(str(SCENARIO), "--health", "--out", str(out))
    assert result.returncode == 0, result.stderr
    scenario = load_scenario(SCENARIO)
    heading, *lines = result.stdout.splitlines()
    assert lines == health_board_lines(scenario.ruleset, scenario.state)
    assert heading.startswith("Rank. Player (colour): score --- Health")     # names the first number
    _png(out)


def test_health_after_the_update(tmp_path):
    out = tmp_path / "health.png"
    result = _run(str(SCENARIO), "--after", "--health", "--out", str(out))
    assert result.returncode == 0, result.stderr
    scenario = load_scenario(SCENARIO)
    after = run_scenario(scenario).state
    assert result.stdout.splitlines()[1:] == health_board_lines(scenario.ruleset, after)
    assert result.stdout.splitlines()[1:] != health_board_lines(scenario.ruleset, scenario.state)
    _png(out)


@pytest.mark.parametrize("ruleset", ["neisg", str(ROOT / "assets" / "rulesets" / "megachess.toml")])
def test_piece_sheet(tmp_path, ruleset):
    out = tmp_path / "pieces.png"
    result = _run("--pieces", ruleset, "--out", str(out))
    assert result.returncode == 0, result.stderr
    _png(out)


def test_missing_file_exits_2(tmp_path):
    out = tmp_path / "x.png"
    result = _run(str(tmp_path / "nope.toml"), "--out", str(out))
    assert result.returncode == 2
    assert "nope.toml" in result.stderr and "cannot be read" in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists()


@pytest.mark.parametrize("argv, words", [
    (["--region=1,2,3"], "X0,Y0,X1,Y1"),
    (["--region=a,b,c,d"], "integer"),
    (["--region=0,0,2000000,1"], "1,000,000"),
    (["--center=0,0"], "--radius"),
    (["--radius=3"], "--center"),
    (["--center=0", "--radius=3"], "X,Y"),
    (["--center=0,0", "--radius=-1"], "0 or more"),
    (["--region=0,0,1,1", "--center=0,0", "--radius=2"], "either"),
    (["--health", "--region=0,0,4,4"], "--health"),
])
def test_bad_board_options_exit_2(tmp_path, capsys, argv, words):
    out = tmp_path / "x.png"
    assert main(["render", str(SCENARIO), *argv, "--out", str(out)]) == 2
    assert words in capsys.readouterr().err
    assert not out.exists()


def test_malformed_scenario_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('ruleset = "neisg"\n[[pieces]]\nowner = "Nobody"\nkind = "N"\nat = [0, 0]\n', encoding="utf-8")
    assert main(["render", str(bad), "--out", str(tmp_path / "x.png")]) == 2
    assert "bad.toml" in capsys.readouterr().err
    broken = tmp_path / "broken.toml"
    broken.write_text("ruleset = \n", encoding="utf-8")
    assert main(["render", str(broken), "--out", str(tmp_path / "x.png")]) == 2
    assert "not valid TOML" in capsys.readouterr().err


def test_bad_piece_sheet_requests_exit_2(tmp_path, capsys):
    assert main(["render", "--pieces", "chess960", "--out", str(tmp_path / "x.png")]) == 2
    assert "presets" in capsys.readouterr().err
    assert main(["render", str(SCENARIO), "--pieces", "neisg", "--out", str(tmp_path / "x.png")]) == 2
    assert main(["render", "--out", str(tmp_path / "x.png")]) == 2
    with pytest.raises(SystemExit) as exit_info:      # argparse: --out is required
        main(["render", str(SCENARIO)])
    assert exit_info.value.code == 2


MEGACHESS = ROOT / "tests" / "scenarios" / "megachess" / "kingdom-times-to-live.toml"


def test_focus_frames_a_kingdom(tmp_path, capsys):
    """Ann's king on (0,0), kingdom radius 16: the frame is x and y -17..17."""
    out = tmp_path / "kingdom.png"
    assert main(["render", str(MEGACHESS), "--focus=kingdom:Ann", "--out", str(out)]) == 0
    whole = tmp_path / "whole.png"
    assert main(["render", str(MEGACHESS), "--out", str(whole)]) == 0
    assert _png(out).size != _png(whole).size
    assert main(["render", str(MEGACHESS), "--focus=kingdom:Zed", "--out", str(tmp_path / "x.png")]) == 2
    assert "no player named 'Zed'" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_health_with_a_caller_prints_what_the_caller_sees(tmp_path):
    from bot.engine.variants import variant_for
    from bot.render.scene.health import standings_lines

    out = tmp_path / "health.png"
    result = _run(str(MEGACHESS), "--health", "--caller=Cid", "--out", str(out))
    assert result.returncode == 0, result.stderr
    scenario = load_scenario(MEGACHESS)
    panel = variant_for(scenario.ruleset).standings_panel(scenario.state)
    assert result.stdout.splitlines() == standings_lines(panel, "Cid")
    assert result.stdout.splitlines()[-2:] == ["alabaster: 0 points · 1 player", "brushed metal: 0 points · 1 player"]
    _png(out)


@pytest.mark.parametrize("argv, words", [
    (["--focus=kingdom:Ann", "--region=0,0,4,4"], "either --focus"),
    (["--health", "--focus=team:alabaster"], "--focus apply to a board"),
    (["--caller=Ann"], "--caller applies to the health board"),
])
def test_focus_and_caller_go_with_their_images(tmp_path, capsys, argv, words):
    assert main(["render", str(MEGACHESS), *argv, "--out", str(tmp_path / "x.png")]) == 2
    assert words in capsys.readouterr().err


@pytest.mark.parametrize("name", ["board.jpg", "board.JPEG"])
def test_a_jpg_is_written_as_a_jpeg(tmp_path, name):
    """Issue 27 item 6: --out x.jpg used to hold PNG bytes."""
    out = tmp_path / name
    assert main(["render", str(SCENARIO), "--out", str(out)]) == 0
    image = Image.open(out)
    assert image.format == "JPEG" and max(image.size) <= 4096


@pytest.mark.parametrize("argv", [[str(SCENARIO)], [str(SCENARIO), "--health"], ["--pieces", "neisg"]])
def test_another_suffix_is_refused_before_drawing(tmp_path, capsys, argv):
    out = tmp_path / "board.gif"
    assert main(["render", *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "ends in '.gif'" in err and ".png" in err and ".jpg" in err
    assert not out.exists()


def test_a_missing_folder_is_refused_not_created(tmp_path, capsys):
    """Issue 27 item 6: --out /no/such/dir/x.png used to create the folders silently."""
    out = tmp_path / "no" / "such" / "x.png"
    assert main(["render", str(SCENARIO), "--out", str(out)]) == 2
    assert f"the folder {out.parent} does not exist" in capsys.readouterr().err
    assert not (tmp_path / "no").exists()
