"""``python -m bot demo`` (INTERFACES.md, "Command line"): a reduced session, run as CI runs it.

Two runs with the same seed go side by side (each waits on real deadlines a few seconds apart, so
running them at once halves the wait); they must produce the posts layout, positive counts and the
same text posts, file for file.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLAYERS, UPDATES, SEED = 6, 8, 1     # 8 updates: the first event starts at update 2 (RULES 4)
TEXT_SUFFIXES = (".md", ".txt")


def run_demo(out: Path, *extra: str, timeout: float = 180) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKIRMISH_FAULT")}
    return subprocess.run([sys.executable, "-m", "bot", "demo", "--players", str(PLAYERS), "--updates", str(UPDATES),
                           "--seed", str(SEED), "--out", str(out), *extra],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def counts(stdout: str) -> dict[str, int]:
    """The summary's counts by label: ``  captures         5`` -> {"captures": 5}."""
    found = {}
    for line in stdout.splitlines():
        match = re.match(r"^  ([a-z][a-z ]*?)\s{2,}(\d+)", line)
        if match and match.group(1) != "time":
            found[match.group(1)] = int(match.group(2))
    return found


def text_posts(posts: Path) -> dict[str, str]:
    return {str(p.relative_to(posts)): p.read_text(encoding="utf-8") for p in sorted(posts.rglob("*"))
            if p.is_file() and p.suffix in TEXT_SUFFIXES}


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory) -> list[tuple[Path, subprocess.CompletedProcess]]:
    outs = [tmp_path_factory.mktemp("demo") / "out" for _ in range(2)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run_demo, outs))
    return list(zip(outs, results))


def test_demo_succeeds_and_prints_positive_counts(two_runs):
    _, result = two_runs[0]
    assert result.returncode == 0, result.stdout + result.stderr
    found = counts(result.stdout)
    for label in ("orders", "refusals", "captures", "fallbacks fired", "implosions", "events", "kings placed",
                  "posts"):
        assert found.get(label, 0) > 0, f"{label} is zero or missing:\n{result.stdout}"
    assert f"updates          {UPDATES} of {UPDATES}" in result.stdout
    assert "secret, by direct message" in result.stdout
    assert "\r" not in result.stdout, "a progress bar is drawn only on a terminal"
    assert "FAILED" not in result.stdout


def test_demo_writes_the_posts_layout(two_runs):
    out, _ = two_runs[0]
    posts = out / "posts"
    assert (out / "skirmish.sqlite3").is_file()
    for update in range(1, UPDATES + 1):
        folder = posts / f"{update:04d}"
        for name in ("board.png", "health.png", "health.txt", "report.md"):
            assert (folder / name).is_file(), f"{folder / name} is missing"
        assert (folder / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (folder / "report.md").read_text(encoding="utf-8").startswith(f"Update {update}")
    assert (posts / "0002" / "events.md").is_file(), "the first event starts at update 2"
    assert "Event " in (posts / "0002" / "events.md").read_text(encoding="utf-8")
    assert (posts / "timelapse.gif").read_bytes()[:6] in (b"GIF87a", b"GIF89a")
    assert list(posts.glob("*/private/*.md")), "players get their private reports"
    notices = [p.read_text(encoding="utf-8") for p in posts.glob("*/notice-*.md")]
    assert notices and all("has submitted a secret move" in n for n in notices)


def test_every_post_is_delivered_once(two_runs):
    out, _ = two_runs[0]
    with sqlite3.connect(out / "skirmish.sqlite3") as db:
        unsent = db.execute("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL").fetchone()[0]
        game = db.execute("SELECT status, update_no FROM games").fetchall()
    assert unsent == 0
    assert game == [("ended", UPDATES + 1)]


def test_same_seed_gives_the_same_text_posts(two_runs):
    (first, _), (second, _) = two_runs
    a, b = text_posts(first / "posts"), text_posts(second / "posts")
    assert a.keys() == b.keys()
    assert [name for name in a if a[name] != b[name]] == []
    pictures = {str(p.relative_to(first / "posts")) for p in (first / "posts").rglob("*.png")}
    assert pictures == {str(p.relative_to(second / "posts")) for p in (second / "posts").rglob("*.png")}
    assert counts(two_runs[0][1].stdout) == counts(two_runs[1][1].stdout)


def test_a_finished_demo_is_summarised_again(two_runs):
    out, first = two_runs[0]
    again = run_demo(out, timeout=60)
    assert again.returncode == 0, again.stdout + again.stderr
    assert counts(again.stdout) == counts(first.stdout)


def test_a_directory_holding_another_session_is_refused(two_runs):
    out, _ = two_runs[0]
    result = subprocess.run([sys.executable, "-m", "bot", "demo", "--players", "3", "--out", str(out)],
                            cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert "holds another session" in result.stderr


def test_a_ruleset_that_cannot_be_played_is_refused_before_anything_is_written(tmp_path):
    result = run_demo(tmp_path / "chess960", "--ruleset", "chess960", timeout=60)
    assert result.returncode == 2
    assert "invalid choice: 'chess960' (choose from 'arena', " in result.stderr
    assert not (tmp_path / "chess960").exists()


def test_a_sandbox_demo_plays_energy_and_moves_its_first_event_into_the_session(tmp_path):
    """``python -m bot demo --ruleset sandbox`` (issue 11): the same pipeline on the second ruleset.
    Sandbox's first event is at update 25 (RULES 5.1); an 8-update session moves it to update 2 and
    says so. No order is secret: sandbox takes orders only in the game channel."""
    out = tmp_path / "sandbox"
    result = run_demo(out, "--ruleset", "sandbox")
    assert result.returncode == 0, result.stdout + result.stderr
    found = counts(result.stdout)
    for label in ("orders", "refusals", "captures", "events", "kings placed", "posts"):
        assert found.get(label, 0) > 0, f"{label} is zero or missing:\n{result.stdout}"
    assert "0 secret, by direct message" in result.stdout
    assert "the first drawn at update 2; the ruleset's own is 25" in result.stdout
    assert "FAILED" not in result.stdout
    health = (out / "posts" / f"{UPDATES:04d}" / "health.txt").read_text(encoding="utf-8")
    assert "--- Energy: " in health and "Health" not in health
    assert "Event " in (out / "posts" / "0002" / "events.md").read_text(encoding="utf-8")
