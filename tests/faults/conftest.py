"""Two bot processes against one database (issue 26 item 4): the harness.

Each :class:`Process` is ``tests/faults/worker.py`` run as a real OS process (its own event loop,
Store, Service and publisher), driven through its standard input and answering in JSON lines. The
tests start two of them on one shared database, make them act at the same moment, kill one with
SIGKILL, and then read what the database and the delivered posts say.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("worker.py")
KILLED = -signal.SIGKILL
#: the clock of the processes that resolve: far enough after the set-up's that its deadline is due
DUE_HOURS = 3.0
#: seconds between two heartbeats of a worker's service: a killed worker's claim is free after
#: three (bot/service/claims.py's lease; the bot's own beat is 5 s)
BEAT = 1.0


class Process:
    """One worker process; :meth:`ask` sends a command and returns its answer."""

    def __init__(self, url: str, name: str, out: Path, *, offset_hours: float = DUE_HOURS,
                 fault: tuple[str, int] | None = None, beat: float = BEAT, shards: str | None = None,
                 shard_count: int | None = None) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SKIRMISH_FAULT")}
        if fault is not None:
            env["SKIRMISH_FAULT"], env["SKIRMISH_FAULT_UPDATE"] = fault[0], str(fault[1])
        self.name = name
        self.stderr_path = out / f"{name}-{time.monotonic_ns()}.stderr"
        self._stderr = open(self.stderr_path, "w")
        sharding = [] if shards is None else ["--shards", shards, "--shard-count", str(shard_count)]
        self.popen = subprocess.Popen(
            [sys.executable, str(WORKER), "--url", url, "--name", name, "--out", str(out),
             "--offset-hours", str(offset_hours), "--beat", str(beat), *sharding],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, text=True)
        self._lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.ready = self.answer()
        assert self.ready.get("ready"), self.ready

    def _read(self) -> None:
        for line in self.popen.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def send(self, **command) -> None:
        self.popen.stdin.write(json.dumps(command) + "\n")
        self.popen.stdin.flush()

    def answer(self, timeout: float = 120.0, *, failed_ok: bool = False) -> dict:
        """The answer to the last command (lines it streamed before are skipped). An answer that
        says the command failed fails the test, unless ``failed_ok``."""
        while "confirmed" in (line := self.line(timeout, failed_ok=failed_ok)):
            pass
        return line

    def line(self, timeout: float = 120.0, *, failed_ok: bool = False) -> dict:
        """The next line the process printed."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"{self.name} did not answer within {timeout} s:\n{self.log()}") from None
        if line is None:
            raise AssertionError(f"{self.name} ended (status {self.popen.wait()}) without answering:\n{self.log()}")
        answer = json.loads(line)
        assert failed_ok or "error" not in answer, f"{self.name}: {answer['error']}\n{self.log()}"
        return answer

    def answered(self) -> bool:
        return not self._lines.empty()

    def ask(self, **command) -> dict:
        self.send(**command)
        return self.answer()

    def log(self) -> str:
        self._stderr.flush()
        return self.stderr_path.read_text()[-4000:]

    def kill(self) -> float:
        """SIGKILL, like a power cut; returns the moment it was dead (and reaped: a dead process is
        no longer seen as alive by anyone)."""
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(timeout=30)
        return time.time()

    def died(self, timeout: float = 120.0) -> float:
        """Wait for the process to kill itself at its fault point; returns the moment."""
        status = self.popen.wait(timeout=timeout)
        assert status == KILLED, f"{self.name} was to die by SIGKILL, it exited with {status}:\n{self.log()}"
        return time.time()

    def close(self) -> None:
        if self.popen.poll() is None:
            try:
                self.send(do="quit")
                self.popen.wait(timeout=30)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.popen.kill()
                self.popen.wait()
        self._stderr.close()


@pytest.fixture
def processes():
    """Starts :class:`Process` objects (``processes(url, name, out, ...)``) and ends them all after the test."""
    started: list[Process] = []

    def start(*args, **kwargs) -> Process:
        process = Process(*args, **kwargs)
        started.append(process)
        return process

    yield start
    for process in started:
        process.close()


def at(seconds: float) -> float:
    """A moment ``seconds`` from now, for commands two processes must start together."""
    return time.time() + seconds


def deliveries(out: Path) -> list[dict]:
    path = out / "deliveries.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def check_posts_delivered_once(out: Path, facts: dict, *, repeats_allowed: int = 0) -> list[dict]:
    """Every post of the outbox is marked sent once and was delivered exactly once: its file (one per
    post identity) holds it; no file is there for anything else. Returns the repeated deliveries:
    a post published again after a kill between its publication and its being marked sent, which an
    idempotent publisher must absorb (at most ``repeats_allowed`` of them, each of a post delivered)."""
    posts = facts["posts"]
    unsent = [p for p in posts if not p["sent"]]
    assert not unsent, f"posts never marked sent: {unsent}"
    paths = Counter(p["path"] for p in posts)
    assert max(paths.values()) == 1, f"two posts share one identity: {[p for p, n in paths.items() if n > 1]}"
    for post in posts:
        assert post["message_id"] == post["path"], post
    log = deliveries(out)
    firsts = Counter(d["path"] for d in log if d["first"])
    # a process killed after making a post's file and before writing its line in the log leaves the
    # post made once with no line: the post's next delivery finds the file and is logged as a repeat.
    # That is the repeat a kill may cause, so it counts against ``repeats_allowed``
    unlogged = {d["path"] for d in log if not d["first"]} - set(firsts)
    assert len(unlogged) <= repeats_allowed, f"posts whose first delivery is not in the log: {sorted(unlogged)}"
    firsts.update(unlogged)
    assert firsts == Counter(paths), "each post's file was made exactly once, and no other"
    by_path = {p["path"]: p for p in posts}
    for entry in log:
        assert entry["sha"] == by_path[entry["path"]]["sha"], f"a delivery of {entry['path']} differs from the post"
    # (a process killed while writing a post may leave its temporary file: never a post)
    files = {str(p.relative_to(out / "posts")) for p in (out / "posts").rglob("*")
             if p.is_file() and not p.name.startswith(".part-")}
    assert files == set(paths), f"files left that are no post: {files - set(paths)}"
    repeats = [d for d in log if not d["first"]]
    assert len(repeats) <= repeats_allowed, f"posts delivered more than once: {repeats}"
    return repeats
