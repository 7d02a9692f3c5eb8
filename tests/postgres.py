"""A real PostgreSQL server for the tests (a pytest plugin, registered by ``tests/conftest.py``).

The server comes from the ``pgserver`` wheel (the test extra), which bundles PostgreSQL's binaries: no
system package is needed. One server runs for the whole test run, started by the first test that asks
for it, in a temporary folder, listening on 127.0.0.1 on a free port (so child processes reach it by
URL too), and stopped at the end. With pytest-xdist (``make test`` runs ``pytest -n auto``) each
worker is a test run of its own and starts its own server, in its own folder, on its own port: the
workers share nothing, and a database name holds its worker's process id besides. As root,
PostgreSQL refuses to run: the server then runs as the unprivileged system user ``pgserver``
(created if missing, as pgserver itself does).

Fixtures:

- ``postgres_server`` (session): the :class:`PostgresServer`, with ``url`` (the base URL
  ``postgresql://postgres@127.0.0.1:PORT/``), ``url_of(database)``, and ``restart()``, ``stop()``,
  ``start()``, ``kill()`` for fault tests.
- ``postgres_url`` (function): the URL of a fresh empty database, dropped after the test.
- ``store_url`` (function, parametrized ``sqlite`` and ``postgresql``): a store URL of each back end.

With ``SKIRMISH_TEST_STORE=postgresql`` every store a test opens by a SQLite path is a PostgreSQL
database instead (``_stores_on_postgres``): ``SKIRMISH_TEST_STORE=postgresql pytest tests/service``.

When no server can be started, the tests that need one are skipped, loudly: a warning, and a line
of the terminal summary saying how many did not run and why. With ``SKIRMISH_REQUIRE_POSTGRES=1``
(``.ci/run`` sets it) they fail instead, so CI always runs them.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import socket
import stat
import subprocess
import tempfile
import threading
import warnings
from pathlib import Path

import pytest

__all__ = ["PostgresServer", "PostgresUnavailable", "run_async"]

REQUIRE_VARIABLE = "SKIRMISH_REQUIRE_POSTGRES"
SKIP_PREFIX = "PostgreSQL tests need a server:"
SYSTEM_USER = "pgserver"                # the unprivileged user a root-run server runs as
_SETTINGS = {
    # a test server: no fsync (only an operating-system crash loses anything); commits stay
    # synchronous, so a killed server keeps every committed transaction as in production
    "fsync": "off",
    "full_page_writes": "off",
    "max_connections": "300",
    "shared_buffers": "32MB",
}


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server could be started here."""


def run_async(coroutine):
    """Run ``coroutine`` to its end on an event loop of its own, in a thread of its own (so a sync
    fixture never disturbs the event loop of the test)."""
    outcome: dict = {}

    def runner():
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as exc:      # noqa: BLE001 - re-raised in the caller's thread
            outcome["error"] = exc

    thread = threading.Thread(target=runner, name="postgres-admin")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _binaries() -> Path:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")     # platformdirs warns about XDG_RUNTIME_DIR on import
            from pgserver._commands import POSTGRES_BIN_PATH
    except ImportError as exc:
        raise PostgresUnavailable(f"the pgserver package is not installed ({exc}); "
                                  "install the test extra: pip install -e '.[test]'") from None
    if not (POSTGRES_BIN_PATH / "postgres").exists():
        raise PostgresUnavailable(f"pgserver has no PostgreSQL binaries in {POSTGRES_BIN_PATH}")
    return POSTGRES_BIN_PATH


#: the file in a server's folder naming the pytest process that started it
OWNER_FILE = "owner.pid"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class PostgresServer:
    """One PostgreSQL cluster in a temporary folder, on 127.0.0.1:``port``."""

    def __init__(self) -> None:
        self.bin = _binaries()
        self.host = "127.0.0.1"
        self.port = 0
        self.folder = Path(tempfile.mkdtemp(prefix="skirmish-postgres-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.user = None
        self._names = itertools.count(1)
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            self._prepare_system_user()
        self._stop_orphans()
        (self.folder / OWNER_FILE).write_text(str(os.getpid()))
        self._run("initdb", "-D", str(self.data), "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8",
                  "--no-sync", "-U", "postgres")
        for attempt in range(3):           # a free port can be taken between the probe and the start
            self.port = _free_port()
            try:
                self.start()
                break
            except PostgresUnavailable:
                if attempt == 2:
                    raise

    # --------------------------------------------------------------- the server
    @property
    def url(self) -> str:
        return f"postgresql://postgres@{self.host}:{self.port}/"

    def url_of(self, database: str) -> str:
        return f"{self.url}{database}"

    def start(self) -> None:
        options = " ".join([f"-h {self.host}", f"-p {self.port}", f"-k {self.folder}",
                            *(f"-c {key}={value}" for key, value in _SETTINGS.items())])
        self._pg_ctl("-w", "-t", "60", "-l", str(self.log), "-o", options, "start")

    def stop(self) -> None:
        """A clean shutdown (every connection is closed)."""
        self._pg_ctl("-w", "-t", "60", "-m", "fast", "stop")

    def kill(self) -> None:
        """An abrupt stop, as a crash: no checkpoint (the next start recovers from the log)."""
        self._pg_ctl("-w", "-t", "60", "-m", "immediate", "stop")

    def restart(self) -> None:
        self.stop()
        self.start()

    def running(self) -> bool:
        return subprocess.run([str(self.bin / "pg_ctl"), "-D", str(self.data), "status"], user=self.user,
                              cwd=self.folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0

    def close(self) -> None:
        if self.data.exists() and self.running():
            self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _stop_orphans(self) -> None:
        """Stop the servers of earlier test runs that were killed outright (their pytest is gone, so
        nobody else will), and remove their folders; a live run's server is left alone."""
        for folder in Path(tempfile.gettempdir()).glob("skirmish-postgres-*"):
            try:
                owner = int((folder / OWNER_FILE).read_text())
            except (OSError, ValueError):
                continue                   # not one of ours, or still being made
            if _alive(owner):
                continue
            if (folder / "data" / "postmaster.pid").exists():
                subprocess.run([str(self.bin / "pg_ctl"), "-D", str(folder / "data"), "-m", "immediate", "-w",
                                "stop"], user=self.user, cwd=folder, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            shutil.rmtree(folder, ignore_errors=True)

    # --------------------------------------------------------------- databases
    def create_database(self) -> str:
        name = f"t_{os.getpid()}_{next(self._names)}"
        run_async(self._admin(f'CREATE DATABASE "{name}" TEMPLATE template0'))
        return name

    def drop_database(self, name: str) -> None:
        run_async(self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    async def _admin(self, statement: str) -> None:
        import asyncpg
        connection = await asyncpg.connect(self.url_of("postgres"))
        try:
            await connection.execute(statement)
        finally:
            await connection.close()

    # --------------------------------------------------------------- helpers
    def _prepare_system_user(self) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pgserver.utils import ensure_folder_permissions, ensure_prefix_permissions, ensure_user_exists
        entry = ensure_user_exists(SYSTEM_USER)
        readable = stat.S_IRGRP | stat.S_IROTH
        ensure_prefix_permissions(self.bin)
        ensure_folder_permissions(self.bin, readable | stat.S_IXGRP | stat.S_IXOTH)
        ensure_folder_permissions(self.bin.parent / "lib", readable)
        ensure_folder_permissions(self.bin.parent / "share", readable)
        os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self.user = SYSTEM_USER

    def _pg_ctl(self, *args: str) -> None:
        self._run("pg_ctl", "-D", str(self.data), *args)

    def _run(self, program: str, *args: str) -> None:
        # output to files, not pipes: pg_ctl's server keeps inherited pipes open and would hang us
        with tempfile.TemporaryFile("w+") as output:
            try:
                completed = subprocess.run([str(self.bin / program), *args], user=self.user, cwd=self.folder,
                                           stdout=output, stderr=subprocess.STDOUT, text=True, timeout=120)
            except (OSError, subprocess.SubprocessError) as exc:
                raise PostgresUnavailable(f"{program} could not run: {exc}") from None
            if completed.returncode != 0:
                output.seek(0)
                log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
                raise PostgresUnavailable(f"{program} {' '.join(args[-1:])} failed ({completed.returncode}): "
                                          f"{output.read().strip()[-2000:]}\n{log}".strip())


# ------------------------------------------------------------------------------------------- fixtures
_UNAVAILABLE = pytest.StashKey[str]()


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "postgres: the test needs the PostgreSQL server of tests/postgres.py")


@pytest.fixture(scope="session")
def postgres_server(request):
    """The session's PostgreSQL server (started on first use, stopped at the end)."""
    try:
        server = PostgresServer()
    except PostgresUnavailable as exc:
        reason = str(exc).splitlines()[0]
        request.config.stash[_UNAVAILABLE] = reason
        if os.environ.get(REQUIRE_VARIABLE) == "1":
            pytest.fail(f"{REQUIRE_VARIABLE}=1 and no PostgreSQL server could be started: {exc}", pytrace=False)
        warnings.warn(pytest.PytestWarning(f"PostgreSQL tests are skipped: {reason}"))
        pytest.skip(f"{SKIP_PREFIX} {reason}")
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def postgres_url(postgres_server):
    """A fresh empty database on the session's server (dropped after the test)."""
    if not postgres_server.running():          # a fault test stopped it and failed before starting it again
        postgres_server.start()
    name = postgres_server.create_database()
    yield postgres_server.url_of(name)
    if not postgres_server.running():
        postgres_server.start()
    postgres_server.drop_database(name)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request, tmp_path):
    """A store URL of each back end: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'skirmish.sqlite3'}"      # tmp_path is absolute: sqlite:////...
    return request.getfixturevalue("postgres_url")


STORES_VARIABLE = "SKIRMISH_TEST_STORE"


@pytest.fixture(autouse=True)
def _stores_on_postgres(request, monkeypatch):
    """With ``SKIRMISH_TEST_STORE=postgresql``, every SQLite store a test opens by path is a fresh
    PostgreSQL database instead (the same path, the same database, within the test): the service's
    tests run on PostgreSQL unchanged. Tests that read the SQLite file behind the store's back, or
    hand its path to another process, cannot follow and fail."""
    if os.environ.get(STORES_VARIABLE, "sqlite") != "postgresql":
        yield
        return
    import bot.store.database as database

    server = request.getfixturevalue("postgres_server")
    open_store = database.Store.open.__func__
    databases: dict[str, str] = {}

    async def open_on_postgres(cls, target):
        backend, where = database.parse_url(target)
        if backend == "sqlite" and where != ":memory:":
            key = str(Path(where).resolve())
            if key not in databases:
                databases[key] = server.url_of(await asyncio.to_thread(server.create_database))
            target = databases[key]
        return await open_store(cls, target)

    monkeypatch.setattr(database.Store, "open", classmethod(open_on_postgres))
    yield
    for url in databases.values():
        server.drop_database(url.rsplit("/", 1)[1])


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter, config) -> None:
    skipped = [report for report in terminalreporter.stats.get("skipped", [])
               if SKIP_PREFIX in str(report.longrepr)]
    if skipped:
        # under pytest-xdist the server was tried in a worker: its reason is in the skip's report
        longrepr = skipped[0].longrepr
        told = longrepr[2].split(SKIP_PREFIX, 1)[-1].strip() if isinstance(longrepr, tuple) else "no server"
        reason = config.stash.get(_UNAVAILABLE, told)
        terminalreporter.write_sep("=", "PostgreSQL", yellow=True, bold=True)
        terminalreporter.write_line(f"{len(skipped)} PostgreSQL test(s) did not run: {reason} "
                                    f"(set {REQUIRE_VARIABLE}=1 to make this an error)", yellow=True, bold=True)
