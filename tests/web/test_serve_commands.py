"""``python -m bot demo ... --serve [PORT]`` and ``python -m bot web``: the viewer's command lines
(INTERFACES.md): the ``viewer:`` line printed once it answers, 0 on SIGINT or SIGTERM."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from viewer_game import build_viewer_db  # noqa: E402  (put on the path by conftest.py)

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "bot", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"})    # buffered output


def _stopped(process: subprocess.Popen, timeout: float = 20) -> int:
    """The exit status of a process sent a signal, its pipes drained meanwhile (a child whose
    unread stderr filled the pipe would wait on it forever); what it wrote, should it fail."""
    _, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, err
    return process.returncode


def _viewer_line(process: subprocess.Popen, timeout: float = 120) -> str:
    """The ``viewer:`` line, read as soon as it is written (it is flushed: no buffering waits)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if line.startswith("viewer: "):
            return line.strip()
        if not line and process.poll() is not None:
            raise AssertionError(f"exited {process.returncode}: {process.stderr.read()}")
    raise AssertionError("no viewer line")


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_web_serves_a_store_until_a_signal(tmp_path, stop):
    path = tmp_path / "skirmish.sqlite3"
    game_id = build_viewer_db(path)
    port = _free_port()
    process = _start("web", "--store-url", f"sqlite:///{path}", "--port", str(port))
    try:
        assert _viewer_line(process) == f"viewer: http://127.0.0.1:{port}/"
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read().decode()
        assert f'<a href="/games/{game_id}">' in page        # it answers when it says so
        process.send_signal(stop)
        assert _stopped(process) == 0
    finally:
        process.kill()
        process.communicate()


def test_web_says_which_port_it_cannot_have(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "bot", "web", "--store-url", f"sqlite:///{tmp_path}/s.sqlite3",
                                 "--port", str(port)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in result.stderr


def test_demo_serve_plays_then_serves_and_serves_a_played_session_again(tmp_path):
    out = tmp_path / "demo"
    port = _free_port()
    process = _start("demo", "--players", "2", "--updates", "1", "--out", str(out), "--serve", str(port))
    try:
        assert _viewer_line(process, timeout=180) == f"viewer: http://127.0.0.1:{port}/"
        assert '<a href="/games/1">' in urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read().decode()
        process.send_signal(signal.SIGTERM)
        assert _stopped(process) == 0
    finally:
        process.kill()
        process.communicate()
    posts = sorted(p.name for p in (out / "posts").rglob("*"))
    again = _start("demo", "--players", "2", "--updates", "1", "--out", str(out), "--serve", str(port))
    try:
        started = time.monotonic()
        _viewer_line(again, timeout=60)
        assert time.monotonic() - started < 30           # not played again: no deadline waited for
        again.send_signal(signal.SIGINT)
        assert _stopped(again) == 0
    finally:
        again.kill()
        again.communicate()
    assert sorted(p.name for p in (out / "posts").rglob("*")) == posts
