"""``python -m bot demo --store-url URL`` (issue 26 item 1): the demo on either store posts exactly
what the SQLite demo posts, also when it is killed with SIGKILL and started again.

One small session (neisg, 4 players, 3 updates, seed 7) is played side by side: with the default
command (``DIR/skirmish.sqlite3``, deadlines 3 s apart), and with no wait between deadlines
(``--interval 0``; 1 s for the run killed from outside, so that it is still running when it is
killed) on another SQLite file named by URL, on PostgreSQL (a URL with a password, which the
summary must not print), and three times more on PostgreSQL killed mid-run (from outside after some
posts; at a fault point holding the update's claim; between writing a post's file and marking it
sent) and run again. Every post tree must be the default one: the same file names and the same
bytes (PNGs, the timelapse). The players' orders are always in before their update resolves
(bot/demo/session.py), so neither the interval nor a busy machine changes a post.
The killed runs also have the ids a killed transaction draws skipped (PostgreSQL's sequences keep
no gaps back): a post named by a database id would then get another name.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLAYERS, UPDATES, SEED = 4, 3, 7
KILLED = -signal.SIGKILL
#: the run killed from outside dies once this many post files exist (update 2 is being posted)
KILL_AFTER_FILES = 14
#: seconds between deadlines (``--interval``) of every run but the reference (None: the default, 3 s)
INTERVAL = 0
#: of the run killed from outside: a second between updates, so it is killed before its end
KILLED_INTERVAL = 1


def command(out: Path, *extra: str, players: int = PLAYERS, interval: int | None = INTERVAL) -> list[str]:
    pace = [] if interval is None else ["--interval", str(interval)]
    return [sys.executable, "-m", "bot", "demo", "--players", str(players), "--updates", str(UPDATES),
            "--seed", str(SEED), *pace, "--out", str(out), *extra]


def environment(fault: tuple[str, int] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKIRMISH_FAULT")}
    if fault is not None:
        env["SKIRMISH_FAULT"], env["SKIRMISH_FAULT_UPDATE"] = fault[0], str(fault[1])
    return env


def demo(out: Path, *extra: str, fault: tuple[str, int] | None = None, players: int = PLAYERS,
         interval: int | None = INTERVAL, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run(command(out, *extra, players=players, interval=interval), cwd=ROOT,
                          env=environment(fault), capture_output=True, text=True, timeout=timeout, check=False)


def killed_after_files(out: Path, *extra: str, files: int = KILL_AFTER_FILES, timeout: float = 120) -> int:
    """Run the demo and SIGKILL it once ``files`` post files exist; its exit status."""
    process = subprocess.Popen(command(out, *extra, interval=KILLED_INTERVAL), cwd=ROOT, env=environment(),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + timeout
    posts = out / "posts"
    try:
        while process.poll() is None and time.monotonic() < deadline:
            if posts.exists() and sum(1 for p in posts.rglob("*") if p.is_file()) >= files:
                process.send_signal(signal.SIGKILL)
                break
            time.sleep(0.02)
        return process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def tree(out: Path) -> dict[str, bytes]:
    """Every file under ``DIR/posts/``: its path and its bytes."""
    posts = out / "posts"
    return {str(p.relative_to(posts)): p.read_bytes() for p in sorted(posts.rglob("*")) if p.is_file()}


def counts(stdout: str) -> list[str]:
    """The summary's count lines (not its paths, its time, or the lines about a continued or ended run)."""
    return [line.split(" files in ")[0] for line in stdout.splitlines()
            if line.startswith("  ") and not line.strip().startswith(("time", "note", "continued:",
                                                                         "nothing was played", "(choose another",
                                                                         "record "))]


async def _skip_sequence_values(url: str, count: int = 5) -> None:
    """What a killed transaction leaves in PostgreSQL: each sequence (each table's ids) moved on by
    ``count`` values that no row will ever have."""
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        for (sequence,) in await connection.fetch("SELECT oid::regclass::text FROM pg_class WHERE relkind = 'S'"):
            await connection.execute("SELECT nextval($1::regclass) FROM generate_series(1, $2)", sequence, count)
    finally:
        await connection.close()


async def _outbox(url: str) -> list:
    from bot.service import Service
    from bot.store import Store

    store = await Store.open(url)
    try:
        [game] = await Service(store).games_in(include_ended=True)
        async with store.snapshot_read() as q:
            return await q.posts(game.id)
    finally:
        await store.close()


def outbox(url: str) -> list:
    return asyncio.run(_outbox(url))


@pytest.fixture(scope="module")
def sessions(request, tmp_path_factory) -> dict:
    """Every run of the session, side by side. Without a PostgreSQL server, only the SQLite runs
    (the PostgreSQL tests then skip, loudly)."""
    base = tmp_path_factory.mktemp("stores")
    found: dict = {"skip": None}
    try:
        server = request.getfixturevalue("postgres_server")
    except pytest.skip.Exception as exc:
        server, found["skip"] = None, str(exc.msg)
    found["sqlite url"] = f"sqlite:///{base / 'elsewhere' / 'other.sqlite3'}"
    jobs = {"default": lambda: demo(base / "default", interval=None),
            "sqlite": lambda: demo(base / "sqlite", "--store-url", found["sqlite url"])}
    if server is not None:
        urls = {name: server.url_of(server.create_database())
                for name in ("postgresql", "killed", "fault", "publish")}
        # a password in the URL (the test server trusts local connections, so it is not checked)
        secret = urls["postgresql"].replace("postgresql://postgres@", "postgresql://postgres:s3cret@")
        found.update(urls=urls, secret=secret)

        def killed(name: str, first, interval: int = INTERVAL) -> tuple:
            crashed = first()
            asyncio.run(_skip_sequence_values(urls[name]))
            return crashed, demo(base / name, "--store-url", urls[name], interval=interval)

        jobs.update({
            "postgresql": lambda: demo(base / "postgresql", "--store-url", secret),
            "killed": lambda: killed("killed", lambda: killed_after_files(base / "killed", "--store-url",
                                                                          urls["killed"]), KILLED_INTERVAL),
            "fault": lambda: killed("fault", lambda: demo(base / "fault", "--store-url", urls["fault"],
                                                         fault=("after_engine", 2)).returncode),
            "publish": lambda: killed("publish", lambda: demo(base / "publish", "--store-url", urls["publish"],
                                                             fault=("mid_publish", 2)).returncode),
        })
    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        futures = {name: pool.submit(job) for name, job in jobs.items()}
        found.update({name: future.result() for name, future in futures.items()})
    found["base"] = base
    return found


def postgres(sessions) -> dict:
    if sessions["skip"] is not None:
        pytest.skip(sessions["skip"])
    return sessions


def test_the_default_session_plays_to_its_end(sessions):
    result = sessions["default"]
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"updates          {UPDATES} of {UPDATES}" in result.stdout
    assert (sessions["base"] / "default" / "posts" / "timelapse.gif").is_file()


def test_another_sqlite_file_by_url_gets_the_same_posts_byte_for_byte(sessions):
    result = sessions["sqlite"]
    assert result.returncode == 0, result.stdout + result.stderr
    base = sessions["base"]
    assert not (base / "sqlite" / "skirmish.sqlite3").exists(), "the game lives in the database the URL names"
    assert (base / "elsewhere" / "other.sqlite3").is_file()
    assert f"database {sessions['sqlite url']}" in result.stdout
    assert tree(base / "sqlite") == tree(base / "default")
    assert counts(result.stdout) == counts(sessions["default"].stdout)


def test_postgresql_posts_what_sqlite_posts_byte_for_byte(sessions):
    sessions = postgres(sessions)
    result, base = sessions["postgresql"], sessions["base"]
    assert result.returncode == 0, result.stdout + result.stderr
    reference = tree(base / "default")
    assert any(name.endswith(".png") for name in reference) and "timelapse.gif" in reference
    assert any(re.fullmatch(r"\d{4}/notice-\d{6}\.md", name) for name in reference), "messages named by number"
    assert tree(base / "postgresql") == reference
    assert counts(result.stdout) == counts(sessions["default"].stdout)
    assert not (base / "postgresql" / "skirmish.sqlite3").exists()
    assert all(post.sent_at is not None for post in outbox(sessions["urls"]["postgresql"]))


def test_the_summary_never_prints_the_databases_password(sessions):
    sessions = postgres(sessions)
    result = sessions["postgresql"]
    assert "s3cret" not in result.stdout + result.stderr
    assert "database postgresql://postgres:***@127.0.0.1:" in result.stdout


@pytest.mark.parametrize("run", ["killed", "fault", "publish"],
                         ids=["sigkill-after-posts", "sigkill-holding-the-claim", "sigkill-before-marking-sent"])
def test_a_killed_postgresql_demo_run_again_posts_what_sqlite_posts(sessions, run):
    sessions = postgres(sessions)
    crashed, final = sessions[run]
    assert crashed == KILLED, f"the demo was not killed (exit status {crashed})"
    assert final.returncode == 0, final.stdout + final.stderr
    assert "continued: " in final.stdout
    assert tree(sessions["base"] / run) == tree(sessions["base"] / "default")
    assert counts(final.stdout) == counts(sessions["default"].stdout)
    posts = outbox(sessions["urls"][run])
    assert all(post.sent_at is not None for post in posts)
    assert [post.post_no for post in posts] == list(range(1, len(posts) + 1))
    # the ids did skip (the run after the kill drew new ones): an id-named file would have moved
    assert max(post.id for post in posts) > len(posts)


def test_a_database_holding_another_session_is_refused(sessions):
    other = demo(sessions["base"] / "another", "--store-url", sessions["sqlite url"], players=PLAYERS + 1, timeout=60)
    assert other.returncode == 2, other.stdout + other.stderr
    assert f"{sessions['sqlite url']} holds another session" in other.stderr
    assert not (sessions["base"] / "another" / "posts").exists()


def test_the_session_of_a_database_is_not_continued_into_another_directory(sessions):
    again = demo(sessions["base"] / "elsewhere-out", "--store-url", sessions["sqlite url"], timeout=60)
    assert again.returncode == 2, again.stdout + again.stderr
    assert "holds this session already, played into another directory" in again.stderr
    assert not (sessions["base"] / "elsewhere-out" / "posts").exists()


def test_a_directory_played_on_one_database_is_not_continued_on_another(sessions):
    base = sessions["base"]
    on_default = demo(base / "sqlite", timeout=60)
    assert on_default.returncode == 2, on_default.stdout + on_default.stderr
    assert f"holds a session played on {sessions['sqlite url']}" in on_default.stderr
    assert not (base / "sqlite" / "skirmish.sqlite3").exists()


def test_a_finished_session_run_again_with_its_url_and_directory_is_summarised(sessions):
    again = demo(sessions["base"] / "sqlite", "--store-url", sessions["sqlite url"], timeout=60)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "nothing was played: this session had ended already" in again.stdout
    assert counts(again.stdout) == counts(sessions["sqlite"].stdout)


def test_a_store_url_that_is_not_one_is_refused_before_anything_is_written(tmp_path):
    result = demo(tmp_path / "out", "--store-url", "mysql://root@localhost/skirmish", timeout=60)
    assert result.returncode == 2
    assert "is not a store URL: write sqlite:///relative/path.sqlite3" in result.stderr
    assert not (tmp_path / "out").exists()


def test_an_unreachable_postgresql_server_is_one_clear_error(tmp_path):
    import socket

    with socket.socket() as probe:          # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = demo(tmp_path / "out", "--store-url", f"postgresql://postgres:pw@127.0.0.1:{port}/nowhere", timeout=60)
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"cannot open postgresql://postgres:***@127.0.0.1:{port}/nowhere" in result.stderr
    assert "Traceback" not in result.stderr and ":pw@" not in result.stderr
