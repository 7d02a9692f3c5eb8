"""Two bot processes against one database (issue 26 item 4): the harness.

Each :class:`Process` is ``tests/faults/worker.py`` run as a real OS process (its own event loop,
Store, Service and publisher), driven through its standard input and answering in JSON lines. The
tests start two of them on one shared database, make them act at the same moment, kill one with
SIGKILL, and then read what the database and the delivered posts say.

The processes are forked by multiprocessing's fork server, which imported the worker (and with it
the bot) once: a process starts in a few milliseconds of CPU instead of the 0.7 s that starting
Python and importing the bot take, about 200 times a run. Each is still a process of its own,
started afresh from that server (not a copy of the test process), with its own pipes, environment
and standard error file; it exits, or dies by SIGKILL, as one started from the command line.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections import Counter
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

# tests/ is on sys.path (tests/conftest.py): the worker is the module faults.worker, here and in
# the processes (which get this process's sys.path)
from faults import worker as worker_module

FORKS = multiprocessing.get_context("forkserver")
# what the worker imports, imported once by the fork server (which starts in the repository, as
# pytest does, but without tests/ on its path: the worker module itself is imported by each process)
FORKS.set_forkserver_preload(["bot.scheduler", "bot.service", "bot.store", "bot.shards", "bot.render.palette",
                              "aiosqlite", "asyncpg"])

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
        self.stderr_path.touch()
        sharding = [] if shards is None else ["--shards", shards, "--shard-count", str(shard_count)]
        argv = ["--url", url, "--name", name, "--out", str(out), "--offset-hours", str(offset_hours),
                "--beat", str(beat), *sharding]
        commands, to_process = os.pipe()
        from_process, answers = os.pipe()
        # the process's ends cross into it as connections (file descriptors sent to the fork server)
        ends = Connection(commands, writable=False), Connection(answers, readable=False)
        self.process = FORKS.Process(target=worker_module.run_forked, name=f"faults worker {name}",
                                     args=(argv, env, *ends, str(self.stderr_path)),
                                     daemon=True)        # one left running by a failed test ends with pytest
        try:
            self.process.start()
        finally:
            for end in ends:
                end.close()
        self.stdin = open(to_process, "w")
        self.stdout = open(from_process, "r")
        self._lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.ready = self.answer()
        assert self.ready.get("ready"), self.ready

    def _read(self) -> None:
        with self.stdout:
            for line in self.stdout:
                self._lines.put(line)
        self._lines.put(None)

    def send(self, **command) -> None:
        self.stdin.write(json.dumps(command) + "\n")
        self.stdin.flush()

    def wait(self, timeout: float) -> int:
        """The process's exit status once it has ended (-9: killed by SIGKILL), as Popen.wait gives it."""
        self.process.join(timeout)
        if self.process.exitcode is None:
            raise TimeoutError(f"{self.name} did not end within {timeout} s")
        return self.process.exitcode

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
            raise AssertionError(f"{self.name} ended (status {self.wait(30)}) without answering:\n{self.log()}")
        answer = json.loads(line)
        assert failed_ok or "error" not in answer, f"{self.name}: {answer['error']}\n{self.log()}"
        return answer

    def answered(self) -> bool:
        return not self._lines.empty()

    def ask(self, **command) -> dict:
        self.send(**command)
        return self.answer()

    def log(self) -> str:
        return self.stderr_path.read_text()[-4000:]

    def kill(self) -> float:
        """SIGKILL, like a power cut; returns the moment it was dead (and reaped: a dead process is
        no longer seen as alive by anyone)."""
        self.process.kill()
        self.wait(timeout=30)
        return time.time()

    def died(self, timeout: float = 120.0) -> float:
        """Wait for the process to kill itself at its fault point; returns the moment."""
        status = self.wait(timeout=timeout)
        assert status == KILLED, f"{self.name} was to die by SIGKILL, it exited with {status}:\n{self.log()}"
        return time.time()

    def close(self) -> None:
        if self.stdin.closed:
            return
        if self.process.exitcode is None:
            try:
                self.send(do="quit")
                self.wait(timeout=30)
            except (BrokenPipeError, TimeoutError):
                self.process.kill()
                self.process.join()
        try:
            self.stdin.close()
        except OSError:         # the process is gone: what was left unsent goes with it
            pass
        self.process.close()


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
