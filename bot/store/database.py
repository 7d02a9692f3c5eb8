"""The SQLite database: opening it, migrating it, and transactions.

One :class:`Store` per process holds two aiosqlite connections to one file in WAL mode: a writer,
used only inside :meth:`Store.transaction` (``BEGIN IMMEDIATE``, one at a time in this process;
other processes wait up to ``busy_timeout``), and a reader for :meth:`Store.snapshot_read`, which
sees the last committed state and never waits for a writer. Queries live in :mod:`.queries`.
"""

from __future__ import annotations

import asyncio
import re
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import AsyncIterator

import aiosqlite

from .queries import Queries

__all__ = ["Store", "StoreError", "migrations", "SCHEMA_VERSION"]

BUSY_TIMEOUT_MS = 10_000
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class StoreError(RuntimeError):
    """The database cannot be used: a file that is not ours, or one newer than this code."""


def migrations() -> list[tuple[int, str, str]]:
    """``(version, name, sql)`` in order: ``schema.sql`` is version 1, then ``migrations/NNNN_*.sql``."""
    package = resources.files(__package__)
    found = [(1, "schema.sql", package.joinpath("schema.sql").read_text(encoding="utf-8"))]
    for entry in sorted(package.joinpath("migrations").iterdir(), key=lambda e: e.name):
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    versions = [v for v, _, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise StoreError(f"migrations must be numbered 1, 2, 3, ... without gaps; found {versions}")
    return found


SCHEMA_VERSION = len(migrations())


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


class Store:
    """The database of one process. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, path: str, writer: aiosqlite.Connection, reader: aiosqlite.Connection) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> "Store":
        """Open (creating if needed) the database at ``path`` and bring its schema up to date."""
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        writer = await aiosqlite.connect(path, isolation_level=None)
        try:
            writer.row_factory = aiosqlite.Row
            await _configure(writer)
            async with writer.execute("PRAGMA journal_mode = WAL") as cursor:
                await cursor.fetchone()
            await _migrate(writer, path)
            reader = await aiosqlite.connect(path, isolation_level=None)
        except aiosqlite.DatabaseError as exc:
            await writer.close()
            raise StoreError(f"{path} is not a Skirmish database: {exc}") from None
        except BaseException:
            await writer.close()
            raise
        reader.row_factory = aiosqlite.Row
        await _configure(reader)
        return cls(path, writer, reader)

    async def close(self) -> None:
        async with self._write_lock:
            await self._writer.close()
        async with self._read_lock:
            await self._reader.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Queries]:
        """One write transaction: committed when the block ends, rolled back if it raises.

        BEGIN, COMMIT and ROLLBACK run to completion even when the task is cancelled meanwhile
        (aiosqlite would run them later anyway), so a cancelled task never leaves the connection
        inside a transaction."""
        async with self._write_lock:
            await _begin(self._writer, "BEGIN IMMEDIATE")
            queries = Queries(self._writer)
            try:
                yield queries
            except BaseException:
                await _to_completion(self._writer.execute("ROLLBACK"))
                raise
            await _to_completion(self._writer.execute("COMMIT"))
        for callback in queries.on_commit:
            callback()

    @asynccontextmanager
    async def snapshot_read(self) -> AsyncIterator[Queries]:
        """A consistent read of the last committed state (a deferred read transaction)."""
        async with self._read_lock:
            await _begin(self._reader, "BEGIN")
            try:
                yield Queries(self._reader, read_only=True)
            finally:
                await _to_completion(self._reader.execute("ROLLBACK"))


async def _to_completion(awaitable):
    """Await ``awaitable`` to its end even if this task is cancelled meanwhile, then re-raise."""
    future = asyncio.ensure_future(awaitable)
    try:
        return await asyncio.shield(future)
    except asyncio.CancelledError:
        await future
        raise


async def _begin(connection: aiosqlite.Connection, statement: str) -> None:
    try:
        await _to_completion(connection.execute(statement))
    except asyncio.CancelledError:
        if connection.in_transaction:
            await _to_completion(connection.execute("ROLLBACK"))
        raise
