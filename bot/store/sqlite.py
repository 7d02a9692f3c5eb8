"""The SQLite back end (aiosqlite): one file in WAL mode.

One :class:`SqliteStore` per process holds two connections: a writer, used only inside
:meth:`~SqliteStore.transaction` (``BEGIN IMMEDIATE``, one at a time in this process; other processes
wait up to ``busy_timeout``), and a reader for :meth:`~SqliteStore.snapshot_read`, which sees the
last committed state and never waits for a writer. The schema's version is ``PRAGMA user_version``.

A third connection checkpoints the WAL (copies its pages into the database file) after commits,
in the background, one checkpoint at a time and at most one every ``CHECKPOINT_PAUSE`` seconds.
SQLite's own checkpoint runs inside the COMMIT that takes the WAL past ``wal_autocheckpoint`` pages:
a 1,000-player update writes a 4 MB snapshot, so every such commit also copied the WAL and synced
both files, about 20 ms of its 35 (issue 25). The writer's automatic checkpoint is kept as a bound,
at ``WAL_BOUND_PAGES``, for when the background ones fall behind. A checkpoint changes nothing a
reader sees and nothing a crash keeps: a committed transaction is in the WAL either way.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator, Iterable

import aiosqlite

from .database import BUSY_TIMEOUT_MS, IntegrityError, Store, StoreError, migrations, to_completion
from .queries import Queries

__all__ = ["SqliteStore", "CHECKPOINT_PAUSE", "WAL_BOUND_PAGES"]

log = logging.getLogger(__name__)

#: seconds between two background checkpoints (a burst of orders commits many small transactions)
CHECKPOINT_PAUSE = 0.25
#: pages (4 KiB) the WAL may grow to before a commit checkpoints it itself (SQLite's default is
#: 1,000: one large update's snapshot); the background checkpoints keep it well under that
WAL_BOUND_PAGES = 10_000


class SqliteConnection:
    """What :class:`~bot.store.queries.Queries` asks of a connection, on aiosqlite."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    async def fetchone(self, sql: str, params: Iterable = ()):
        try:
            async with self._connection.execute(sql, tuple(params)) as cursor:
                return await cursor.fetchone()
        except sqlite3.IntegrityError as exc:         # an INSERT ... RETURNING
            raise IntegrityError(str(exc)) from exc

    async def fetchall(self, sql: str, params: Iterable = ()) -> list:
        async with self._connection.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())

    async def execute(self, sql: str, params: Iterable = ()) -> int:
        """Run one statement; how many rows it changed."""
        try:
            cursor = await self._connection.execute(sql, tuple(params))
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc
        count = cursor.rowcount
        await cursor.close()
        return count

    async def executemany(self, sql: str, rows: Iterable[Iterable]) -> None:
        try:
            await self._connection.executemany(sql, [tuple(row) for row in rows])
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc


async def _configure(connection: aiosqlite.Connection) -> None:
    await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    await connection.execute("PRAGMA foreign_keys = ON")
    await connection.execute("PRAGMA synchronous = NORMAL")   # safe in WAL: a crash loses no commit


async def _migrate(connection: aiosqlite.Connection, path: str) -> None:
    async with connection.execute("PRAGMA user_version") as cursor:
        (current,) = await cursor.fetchone()
    steps = migrations()
    if current > len(steps):
        raise StoreError(f"{path} has schema version {current}, newer than this code's {len(steps)}; "
                         "upgrade Skirmish before opening it")
    for version, name, sql in steps[current:]:
        # executescript commits first, so each migration runs in a transaction of its own
        await connection.executescript(f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {version};\nCOMMIT;")


class SqliteStore(Store):
    """The SQLite database of one process."""

    backend = "sqlite"

    def __init__(self, path: str, writer: aiosqlite.Connection, reader: aiosqlite.Connection,
                 checkpointer: aiosqlite.Connection | None = None) -> None:
        self.path = path
        self.location = path
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        #: the connection that checkpoints the WAL after commits (None: a database in memory)
        self._checkpointer = checkpointer
        self._checkpointing: asyncio.Task | None = None
        self._checkpoint_wanted = False

    @classmethod
    async def connect(cls, path: str) -> "SqliteStore":
        """Open (creating if needed) the database at ``path`` and bring its schema up to date."""
        if path != ":memory:":
            # tried first without aiosqlite, whose thread outlives a failed connect and complains
            # about the closed event loop: a folder this user may not write in (a service started
            # in / with a relative path) is one clear message
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                await asyncio.to_thread(lambda: sqlite3.connect(path).close())
            except (OSError, sqlite3.Error) as exc:
                where = path if Path(path).is_absolute() else f"{path} (in the working directory {Path.cwd()})"
                raise StoreError(f"cannot open or create the SQLite file {where}: {exc}") from None
        writer = await aiosqlite.connect(path, isolation_level=None)
        try:
            writer.row_factory = aiosqlite.Row
            await _configure(writer)
            async with writer.execute("PRAGMA journal_mode = WAL") as cursor:
                await cursor.fetchone()
            await _migrate(writer, path)
            if path != ":memory:":
                await writer.execute(f"PRAGMA wal_autocheckpoint = {WAL_BOUND_PAGES}")
            reader = await aiosqlite.connect(path, isolation_level=None)
        except aiosqlite.DatabaseError as exc:
            await writer.close()
            raise StoreError(f"{path} is not a Skirmish database: {exc}") from None
        except BaseException:
            await writer.close()
            raise
        reader.row_factory = aiosqlite.Row
        await _configure(reader)
        checkpointer = None
        if path != ":memory:":
            try:
                checkpointer = await aiosqlite.connect(path, isolation_level=None)
                await _configure(checkpointer)
            except BaseException:
                if checkpointer is not None:
                    await checkpointer.close()
                await reader.close()
                await writer.close()
                raise
        return cls(path, writer, reader, checkpointer)

    async def close(self) -> None:
        if self._checkpointing is not None:
            self._checkpointing.cancel()
            await asyncio.gather(self._checkpointing, return_exceptions=True)
        if self._checkpointer is not None:
            await self._checkpointer.close()
        async with self._write_lock:
            await self._writer.close()
        async with self._read_lock:
            await self._reader.close()

    def _checkpoint_soon(self) -> None:
        """Have the WAL checkpointed in the background (after a commit): at once when no checkpoint
        is running, else once more after it."""
        if self._checkpointer is None:
            return
        self._checkpoint_wanted = True
        if self._checkpointing is None or self._checkpointing.done():
            self._checkpointing = asyncio.get_running_loop().create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        """Checkpoint while commits ask for it. Passive: it waits for no reader or writer, and
        leaves what they still use for the next one; a failure is logged (the writer's automatic
        checkpoint remains)."""
        while self._checkpoint_wanted:
            self._checkpoint_wanted = False
            try:
                await to_completion(_checkpoint(self._checkpointer))
            except asyncio.CancelledError:
                raise
            except Exception as failure:
                log.warning("the WAL of %s could not be checkpointed: %s", self.path, failure)
                return
            await asyncio.sleep(CHECKPOINT_PAUSE)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Queries]:
        """One write transaction: committed when the block ends, rolled back if it raises.

        BEGIN, COMMIT and ROLLBACK run to completion even when the task is cancelled meanwhile
        (aiosqlite would run them later anyway), so a cancelled task never leaves the connection
        inside a transaction."""
        async with self._write_lock:
            await _begin(self._writer, "BEGIN IMMEDIATE")
            queries = Queries(SqliteConnection(self._writer))
            try:
                yield queries
            except BaseException:
                await to_completion(self._writer.execute("ROLLBACK"))
                raise
            await to_completion(self._writer.execute("COMMIT"))
        self._checkpoint_soon()
        for callback in queries.on_commit:
            callback()

    @asynccontextmanager
    async def snapshot_read(self) -> AsyncIterator[Queries]:
        """A consistent read of the last committed state (a deferred read transaction)."""
        async with self._read_lock:
            await _begin(self._reader, "BEGIN")
            try:
                yield Queries(SqliteConnection(self._reader), read_only=True)
            finally:
                await to_completion(self._reader.execute("ROLLBACK"))


async def _checkpoint(connection: aiosqlite.Connection) -> None:
    async with connection.execute("PRAGMA wal_checkpoint(PASSIVE)") as cursor:
        await cursor.fetchall()


async def _begin(connection: aiosqlite.Connection, statement: str) -> None:
    try:
        await to_completion(connection.execute(statement))
    except asyncio.CancelledError:
        if connection.in_transaction:
            await to_completion(connection.execute("ROLLBACK"))
        raise
