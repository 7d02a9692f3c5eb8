"""Crash safety: a demo killed at any fault point (bot/service/faults.py) and run again ends exactly
as a demo that was never interrupted.

Each scenario runs ``python -m bot demo`` with ``SKIRMISH_FAULT`` set, so the process SIGKILLs
itself at that point of one update (like a power cut: no clean-up), then runs it again without the
fault on the same directory to the end. Against an uninterrupted run with the same seed it must
have the same snapshots (count and the state hash of the last one), the same outbox (kind, update,
recipient, body, file name), every outbox row sent, and every text post's file once, with its body.
The runs play with no wait between deadlines (``--interval 0``: the players' orders are always in
before their update resolves, so the session is the same at any interval), side by side: a run
started again after a kill holding a claim or the game's posts waits for its dead predecessor's
lease (3 s, bot/demo/common.py).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.service.faults import FAULT_POINTS
from bot.service.publishing import post_path

ROOT = Path(__file__).resolve().parents[1]
PLAYERS, UPDATES, SEED, FAULT_UPDATE = 4, 3, 7, 2
KILLED = -9
#: demos run at once: more than the cores, as a run started again after a kill waits on a lease
WORKERS = 4

#: (fault point, update): each point in the middle of the session, and the two that can strike
#: after the last update (the game has ended; its timelapse is still to be delivered)
SCENARIOS = [(point, FAULT_UPDATE) for point in FAULT_POINTS] + [("after_commit", UPDATES), ("mid_publish", UPDATES)]


def demo(out: Path, fault: tuple[str, int] | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKIRMISH_FAULT")}
    if fault is not None:
        env["SKIRMISH_FAULT"], env["SKIRMISH_FAULT_UPDATE"] = fault[0], str(fault[1])
    return subprocess.run([sys.executable, "-m", "bot", "demo", "--players", str(PLAYERS), "--updates", str(UPDATES),
                           "--seed", str(SEED), "--interval", "0", "--out", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=180, check=False)


@dataclass
class Outcome:
    out: Path
    crashed: subprocess.CompletedProcess | None
    at_crash: dict | None
    final: subprocess.CompletedProcess


def database_facts(out: Path) -> dict:
    with sqlite3.connect(out / "skirmish.sqlite3") as db:
        update_no, claimed_by, status = db.execute("SELECT update_no, claimed_by, status FROM games").fetchone()
        return {
            "update_no": update_no,
            "claimed": claimed_by is not None,
            "status": status,
            "resolved": [u for (u,) in db.execute("SELECT update_no FROM snapshots WHERE reason = 'update' ORDER BY 1")],
            "unsent": db.execute("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL").fetchone()[0],
        }


def play(out: Path, fault: tuple[str, int] | None) -> Outcome:
    crashed = at_crash = None
    if fault is not None:
        crashed = demo(out, fault)
        at_crash = database_facts(out) if crashed.returncode == KILLED else None
    return Outcome(out, crashed, at_crash, demo(out))


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> dict:
    runs = {None: None, **{scenario: scenario for scenario in SCENARIOS}}
    base = tmp_path_factory.mktemp("crash")
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        futures = {key: pool.submit(play, base / (f"{key[0]}-{key[1]}" if key else "uninterrupted"), fault)
                   for key, fault in runs.items()}
        return {key: future.result() for key, future in futures.items()}


def snapshots(out: Path) -> tuple[int, str]:
    """The snapshot count and the hash of the last snapshot's state."""
    with sqlite3.connect(out / "skirmish.sqlite3") as db:
        count = db.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0]
        (state,) = db.execute("SELECT state FROM snapshots ORDER BY update_no DESC, revision DESC LIMIT 1").fetchone()
    return count, hashlib.sha256(state.encode()).hexdigest()


def outbox(out: Path) -> list[tuple]:
    with sqlite3.connect(out / "skirmish.sqlite3") as db:
        return db.execute("SELECT post_no, kind, update_no, recipient, body, filename FROM outbox ORDER BY id").fetchall()


def test_the_uninterrupted_run_completes(outcomes):
    reference = outcomes[None]
    assert reference.final.returncode == 0, reference.final.stdout + reference.final.stderr
    facts = database_facts(reference.out)
    assert facts["status"] == "ended" and facts["resolved"] == list(range(1, UPDATES + 1))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[f"{p}@{u}" for p, u in SCENARIOS])
def test_a_killed_demo_resumes_to_the_same_end(outcomes, scenario):
    point, update = scenario
    run, reference = outcomes[scenario], outcomes[None]
    assert run.crashed.returncode == KILLED, f"the fault did not strike:\n{run.crashed.stdout}{run.crashed.stderr}"
    assert run.final.returncode == 0, run.final.stdout + run.final.stderr

    # the process died where the fault point is
    facts = run.at_crash
    if point in ("after_claim", "after_engine"):
        assert facts["claimed"] and facts["update_no"] == update and facts["resolved"] == list(range(1, update))
    elif point == "after_commit":
        assert not facts["claimed"] and facts["resolved"] == list(range(1, update + 1))
    else:
        assert facts["unsent"] > 0

    # and the session ended as if it never had
    assert snapshots(run.out) == snapshots(reference.out)
    assert outbox(run.out) == outbox(reference.out)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[f"{p}@{u}" for p, u in SCENARIOS])
def test_every_post_is_delivered_exactly_once(outcomes, scenario):
    out = outcomes[scenario].out
    posts = out / "posts"
    with sqlite3.connect(out / "skirmish.sqlite3") as db:
        rows = db.execute("SELECT post_no, kind, update_no, recipient, body, filename, attachment, sent_at, message_id"
                          " FROM outbox ORDER BY id").fetchall()
    expected = {}
    for post_no, kind, update_no, recipient, body, filename, attachment, sent_at, message_id in rows:
        assert sent_at is not None, f"post {post_no} ({kind}) was never marked sent"
        path = post_path(SimpleNamespace(post_no=post_no, kind=kind, update_no=update_no, recipient=recipient,
                                         filename=filename))
        assert message_id == path
        assert path not in expected, f"two posts share the file {path}"
        expected[path] = body if attachment is None else None
    files = {str(p.relative_to(posts)) for p in posts.rglob("*") if p.is_file()}
    # the answers to refused orders are written beside the posts, as the bot answers at once and
    # not through the outbox (issue 37): the same as in the uninterrupted run
    answers = {name for name in files if name.endswith("-refused.md")}
    assert files - answers == set(expected), "files written are exactly the posts (no duplicate, no leftover)"
    reference = outcomes[None].out / "posts"
    assert {name: (posts / name).read_text(encoding="utf-8") for name in sorted(answers)} == {
        str(p.relative_to(reference)): p.read_text(encoding="utf-8") for p in sorted(reference.rglob("*-refused.md"))}
    for path, body in expected.items():
        if body is not None:
            assert (posts / path).read_text(encoding="utf-8") == body + "\n"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[f"{p}@{u}" for p, u in SCENARIOS])
def test_the_summary_is_the_uninterrupted_one(outcomes, scenario):
    def counts(stdout: str) -> list[str]:
        """The summary's count lines (not its paths, its time, or the lines that say this run
        continued an interrupted session or found it ended)."""
        return [line.split(" files in ")[0] for line in stdout.splitlines()
                if line.startswith("  ") and not line.strip().startswith(("time", "continued:",
                                                                             "nothing was played", "(choose another",
                                                                             "record "))]

    summary = counts(outcomes[scenario].final.stdout)
    assert summary and summary == counts(outcomes[None].final.stdout)
