"""The PostgreSQL back end (asyncpg): several bot processes on several machines, one database.

It keeps SQLite's meaning (docs/store.md):

- :meth:`PostgresStore.transaction` is ``BEGIN`` then ``pg_advisory_xact_lock(WRITE_LOCK)``: one write
  transaction at a time across every process of the database, as SQLite's ``BEGIN IMMEDIATE`` (the
  service reads, decides, then writes; under READ COMMITTED alone two processes would both decide).
  The lock is waited for at most ``BUSY_TIMEOUT_MS``, as SQLite's ``busy_timeout``.
- :meth:`PostgresStore.snapshot_read` is ``REPEATABLE READ READ ONLY``: the last committed state,
  never waiting for a writer.
- The schema is SQLite's files translated by :mod:`.portable`; the version is kept in the table
  ``skirmish_schema``; migrations run under the same advisory lock, so two processes starting at once
  do not both migrate.
- Queries are :mod:`.queries`'s, their ``?`` numbered ``$1, $2, ...`` here.
- A cancelled task never leaves a connection inside a transaction: COMMIT runs to its end; any
  other interruption rolls back, and a connection that cannot roll back is closed, never returned
  to the pool. After the server restarts, dead connections are replaced: the next transaction works.
"""

from __future__ import annotations

import asyncio
import re
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import AsyncIterator, Iterable

import asyncpg

from .database import (BUSY_TIMEOUT_MS, IntegrityError, Store, StoreError, StoreUnavailable, migrations, redact,
                       to_completion)
from .portable import PortabilityError, to_postgres
from .queries import Queries

__all__ = ["PostgresStore", "WRITE_LOCK", "numbered"]

#: the advisory lock of Skirmish's writes ("Skirmish" in ASCII); advisory locks are per database
WRITE_LOCK = 0x536B69726D697368
#: connections kept by one process (a transaction at a time, and the reads beside it)
POOL_SIZE = 10
#: times a transaction starts again on a fresh connection when the one it took was dead (the
#: server restarted since it was last used): nothing was written on a connection that never began
_BEGIN_ATTEMPTS = 3
_CONNECTION_ERRORS = (OSError, asyncio.TimeoutError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError,
                      asyncpg.exceptions.OperatorInterventionError, asyncpg.exceptions.CannotConnectNowError)
_COUNT = re.compile(r"(\d+)$")
_SCHEMA_TABLE = ("CREATE TABLE IF NOT EXISTS skirmish_schema (version BIGINT PRIMARY KEY, name TEXT NOT NULL,"
                 " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered ``$1, $2, ...`` (not those inside quotes)."""
    out, number, quote = [], 0, None
    for char in sql:
        if quote:
            if char == quote:
                quote = None
        elif char in ("'", '"'):
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


def _changed(status: str) -> int:
    """The row count of a command status ("UPDATE 3", "INSERT 0 1", "DELETE 0")."""
    match = _COUNT.search(status or "")
    return int(match.group(1)) if match else 0


class PostgresConnection:
    """What :class:`~bot.store.queries.Queries` asks of a connection, on asyncpg."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self._connection = connection

    async def fetchone(self, sql: str, params: Iterable = ()):
        try:
            return await self._connection.fetchrow(numbered(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as exc:     # an INSERT ... RETURNING
            raise IntegrityError(str(exc)) from exc

    async def fetchall(self, sql: str, params: Iterable = ()) -> list:
        return await self._connection.fetch(numbered(sql), *params)

    async def execute(self, sql: str, params: Iterable = ()) -> int:
        """Run one statement; how many rows it changed."""
        try:
            return _changed(await self._connection.execute(numbered(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc)) from exc

    async def executemany(self, sql: str, rows: Iterable[Iterable]) -> None:
        rows = [tuple(row) for row in rows]
        if not rows:
            return
        try:
            await self._connection.executemany(numbered(sql), rows)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc)) from exc


class PostgresStore(Store):
    """The PostgreSQL database of one process: a pool of asyncpg connections."""

    backend = "postgresql"

    def __init__(self, url: str, pool: asyncpg.Pool) -> None:
        self.location = redact(url)
        self._url = url
        self._pool = pool
        self._write_lock = asyncio.Lock()       # one transaction at a time in this process, as SQLite

    @classmethod
    async def connect(cls, url: str) -> "PostgresStore":
        """Connect to the database ``url`` names and bring its schema up to date."""
        location = redact(url)
        try:
            # asyncpg prepares every statement; after five runs PostgreSQL may switch a statement to
            # a generic plan, blind to its values, and the outbox's due posts then took 180 ms
            # instead of 15 ms (2,000 unsent posts, benchmarks/post_senders.py): plan each run
            pool = await asyncpg.create_pool(url, min_size=1, max_size=POOL_SIZE,
                                             server_settings={"application_name": "skirmish",
                                                              "plan_cache_mode": "force_custom_plan"})
        except asyncpg.InvalidCatalogNameError as exc:
            raise StoreError(f"the PostgreSQL database of {location} does not exist: {_clean(exc, url)} "
                             "(create it first: CREATE DATABASE ...)") from None
        except (asyncpg.InvalidAuthorizationSpecificationError, asyncpg.InvalidPasswordError) as exc:
            raise StoreError(f"PostgreSQL refused the user of {location}: {_clean(exc, url)}") from None
        except (*_CONNECTION_ERRORS, asyncpg.PostgresError, ValueError) as exc:
            raise StoreError(f"cannot connect to the PostgreSQL database {location}: {_clean(exc, url)}") from None
        try:
            await _migrate(pool, location)
        except BaseException:
            pool.terminate()
            raise
        return cls(url, pool)

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self._pool.close(), timeout=10)
        except (asyncio.TimeoutError, *_CONNECTION_ERRORS):
            self._pool.terminate()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Queries]:
        async with self._write_lock:
            connection = await self._begin(f"BEGIN ISOLATION LEVEL READ COMMITTED;"
                                           f" SET LOCAL lock_timeout = {BUSY_TIMEOUT_MS};"
                                           f" SELECT pg_advisory_xact_lock({WRITE_LOCK})")
            queries = Queries(PostgresConnection(connection))
            try:
                try:
                    yield queries
                except BaseException as exc:
                    await _roll_back(connection)
                    if isinstance(exc, _CONNECTION_ERRORS) and _is_dead(connection):
                        raise StoreUnavailable(f"the connection to {self.location} was cut; the transaction"
                                               f" wrote nothing: {_clean(exc, self._url)}") from exc
                    raise
                try:
                    await to_completion(connection.execute("COMMIT"))
                except _CONNECTION_ERRORS as exc:
                    _terminate(connection)
                    raise StoreUnavailable(f"the connection to {self.location} was cut while committing: "
                                           f"{_clean(exc, self._url)} (the transaction may or may not have been"
                                           " written)") from exc
            finally:
                await self._pool.release(connection)
        for callback in queries.on_commit:
            callback()

    @asynccontextmanager
    async def snapshot_read(self) -> AsyncIterator[Queries]:
        connection = await self._begin("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        try:
            try:
                yield Queries(PostgresConnection(connection), read_only=True)
            finally:
                await _roll_back(connection)
        finally:
            await self._pool.release(connection)

    async def _begin(self, statements: str) -> asyncpg.Connection:
        """A connection of the pool inside a new transaction. A connection found dead (the server
        restarted since it was used) is closed and another taken: nothing was written on it."""
        for attempt in range(1, _BEGIN_ATTEMPTS + 1):
            try:
                connection = await self._pool.acquire()
            except _CONNECTION_ERRORS as exc:
                raise StoreUnavailable(f"cannot reach the PostgreSQL database {self.location}: "
                                       f"{_clean(exc, self._url)}") from exc
            try:
                await connection.execute(statements)
                return connection
            except BaseException as exc:
                dead = isinstance(exc, _CONNECTION_ERRORS)
                if dead:
                    _terminate(connection)
                else:
                    await _roll_back(connection)
                await self._pool.release(connection)
                if isinstance(exc, asyncpg.LockNotAvailableError):
                    raise StoreError(f"the database {self.location} is busy: another process has held its"
                                     f" write lock for over {BUSY_TIMEOUT_MS / 1000:g} s") from exc
                if not dead:
                    raise
                if attempt == _BEGIN_ATTEMPTS:
                    raise StoreUnavailable(f"cannot reach the PostgreSQL database {self.location}: "
                                           f"{_clean(exc, self._url)}") from exc
        raise AssertionError("unreachable")


async def _roll_back(connection: asyncpg.Connection) -> None:
    """End the connection's transaction, whatever happens to this task meanwhile; a connection that
    cannot (its last statement was cut, the server went away) is closed, and the pool replaces it."""
    if _is_dead(connection):
        return
    try:
        await to_completion(asyncio.wait_for(connection.execute("ROLLBACK"), timeout=30))
    except asyncio.CancelledError:
        if not _is_dead(connection) and connection.is_in_transaction():
            _terminate(connection)
        raise
    except Exception:                        # noqa: BLE001 - any failure: the connection is not reused
        _terminate(connection)


def _terminate(connection: asyncpg.Connection) -> None:
    """Close the connection at once; the pool makes a new one in its place."""
    try:
        connection.terminate()
    except asyncpg.InterfaceError:             # already detached by the pool: it saw it die
        pass


def _is_dead(connection: asyncpg.Connection) -> bool:
    """Whether the connection is closed (the pool detaches a connection it saw die)."""
    try:
        return connection.is_closed()
    except asyncpg.InterfaceError:
        return True


async def _migrate(pool: asyncpg.Pool, location: str) -> None:
    """Bring the schema up to date, under the write lock (two processes starting at once: the
    second finds the work done). Every pending migration in one transaction: all or nothing."""
    steps = migrations()
    async with pool.acquire() as connection:
        try:
            async with connection.transaction():
                await connection.execute("SELECT pg_advisory_xact_lock($1)", WRITE_LOCK)
                await connection.execute(_SCHEMA_TABLE)
                current = await connection.fetchval("SELECT COALESCE(MAX(version), 0) FROM skirmish_schema")
                if current > len(steps):
                    raise StoreError(f"{location} has schema version {current}, newer than this code's "
                                     f"{len(steps)}; upgrade Skirmish before opening it")
                for version, name, sql in steps[current:]:
                    for statement in to_postgres(sql, name):
                        await connection.execute(statement)
                    await connection.execute("INSERT INTO skirmish_schema (version, name) VALUES ($1, $2)",
                                             version, name)
        except PortabilityError as exc:
            raise StoreError(f"a migration cannot run on PostgreSQL: {exc}") from None
        except asyncpg.PostgresError as exc:
            raise StoreError(f"{location} is not a Skirmish database, or a migration failed on it: "
                             f"{type(exc).__name__}: {exc}") from None


def _clean(exc: BaseException, url: str) -> str:
    """The message of ``exc`` without the URL's password, should it contain it."""
    text = str(exc) or type(exc).__name__
    try:
        from urllib.parse import urlsplit
        password = urlsplit(url).password
    except ValueError:
        password = None
    return text.replace(password, "***") if password else text
