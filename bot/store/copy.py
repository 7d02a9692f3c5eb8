"""Copy every game from one store to another: ``python -m bot store copy FROM TO`` (docs/store.md).

A community that outgrows one machine moves its games from the embedded SQLite file to PostgreSQL;
a restore, or a test, goes back the other way. :func:`copy_store` copies every row of every table of
the schema, losing nothing:

- **The tables come from the source's catalogue**, not from a list written here, so a table a future
  migration adds is copied without a change to this module (and a source whose tables differ from the
  target's, at the same schema version, is refused). Only :data:`SKIPPED` tables are left out:
  ``services``, the rows of running bot processes, which each process writes when it starts.
  Tables are copied parents first (their foreign keys, also read from the catalogue), each table's rows
  in primary-key order, ids as they are, BLOBs as bytes.
- **The source is only read**, in one consistent read transaction (SQLite: a read-only connection;
  PostgreSQL: ``REPEATABLE READ READ ONLY``). A source at an older schema version than this code is
  refused unless ``upgrade_source`` is given: then it is upgraded in place first, as the bot does when
  it starts (and the result says so). A source newer than the code is refused.
- **The target is written in one transaction**, all or nothing: its schema is made (or brought up to
  date) in that transaction, the rows are written, PostgreSQL's identity sequences are moved past the
  largest id (so the next row a bot inserts never collides), then it commits. Any failure, or an
  interruption, rolls it back: the target is as it was (a SQLite file the copy created is removed). On
  PostgreSQL the transaction holds the store's write lock, so no bot writes to the target meanwhile.
  The target must hold no Skirmish data: a new database, or one with only the schema ``Store.open``
  makes; anything else is refused before a row is written.
- **Batches.** Rows are read and written a batch at a time: at most :data:`BATCH_ROWS` rows and about
  :data:`BATCH_BYTES` bytes of values (a SQLite source reads row by row up to that size; a PostgreSQL
  one asks the next rows' sizes first, by primary key), so a game whose snapshots hold 50,000 pieces
  each never has its whole history in memory, nor a run of large rows after small ones.

Errors are :class:`~bot.store.database.StoreError` with a message for a person (never a password): a
bad URL, a server that cannot be reached, a source that is not a Skirmish database or is newer than the
code, a target that is not empty, a value the target cannot hold (text in a BLOB column of a SQLite
file, a NUL character in text for PostgreSQL), named by table, column and key.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence, TextIO
from urllib.parse import urlsplit

import aiosqlite
import asyncpg

from .database import BUSY_TIMEOUT_MS, SCHEMA_VERSION, Store, StoreError, migrations, parse_url, redact
from .portable import PortabilityError, to_postgres
from .postgres import _CONNECTION_ERRORS, _SCHEMA_TABLE, WRITE_LOCK, _clean

__all__ = ["copy_store", "CopyResult", "TableCopied", "TerminalProgress", "SKIPPED", "BATCH_ROWS", "BATCH_BYTES"]

#: tables never copied, and why
SKIPPED = {"services": "the running bot processes: each registers itself when it starts"}
#: at most this many rows written at once
BATCH_ROWS = 2_000
#: about this many bytes of values held at once (a batch is written when it reaches either)
BATCH_BYTES = 16 * 1024 * 1024

#: ``progress(table, rows copied so far, rows the table has)``, called as the copy goes
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True, slots=True)
class TableCopied:
    name: str
    rows: int


@dataclass(slots=True)
class CopyResult:
    """What :func:`copy_store` did."""
    source: str                       # where from and where to, without passwords
    target: str
    schema_version: int
    tables: list[TableCopied] = field(default_factory=list)
    seconds: float = 0.0
    upgraded_from: int | None = None  # the source's version before ``upgrade_source`` upgraded it
    notes: list[str] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return sum(table.rows for table in self.tables)

    def summary(self) -> str:
        """The copy in a few lines: rows per table, the total and the rate."""
        width = max((len(table.name) for table in self.tables), default=0)
        lines = [f"copied {self.source} to {self.target} (schema version {self.schema_version}):"]
        lines += [f"  {table.name:<{width}}  {_rows(table.rows, 10)}" for table in self.tables]
        rate = f", {self.rows / self.seconds:,.0f} rows/s" if self.seconds > 0 and self.rows else ""
        lines.append(f"  {'in all':<{width}}  {_rows(self.rows, 10)} in {self.seconds:.1f} s{rate}")
        lines += [f"  ({note})" for note in self.notes]
        return "\n".join(lines)


class TerminalProgress:
    """Rows per table as the copy goes: one line per table, rewritten in place on a terminal."""

    def __init__(self, stream: TextIO = sys.stdout) -> None:
        self.stream = stream
        self.live = stream.isatty()
        self._last = 0.0

    def __call__(self, table: str, copied: int, total: int) -> None:
        done = copied >= total
        now = time.monotonic()
        if not done and (not self.live or now - self._last < 0.2):
            return
        self._last = now
        line = f"  {table}: {copied:,} of {_rows(total)}"
        if self.live:
            self.stream.write("\r\x1b[K" + line + ("\n" if done else ""))
        elif done:
            self.stream.write(line + "\n")
        self.stream.flush()


def _rows(count: int, width: int = 0) -> str:
    return f"{count:>{width},} row" + ("" if count == 1 else "s")


# ------------------------------------------------------------------------------------------- the copy
async def copy_store(source_url: str | Path, target_url: str | Path, *, upgrade_source: bool = False,
                     progress: Progress | None = None, batch_rows: int = BATCH_ROWS,
                     batch_bytes: int = BATCH_BYTES) -> CopyResult:
    """Copy every Skirmish row of ``source_url`` into ``target_url`` (store URLs or plain SQLite paths),
    which must hold none; see the module's text. Raises :class:`StoreError`, leaving the target as it
    was, when it cannot."""
    source_kind, source_where = parse_url(source_url)
    target_kind, target_where = parse_url(target_url)
    if _same_database(source_kind, source_where, target_kind, target_where):
        raise StoreError(f"FROM and TO are the same database ({_shown(source_kind, source_where)}): "
                         "copy to another one")
    started = time.monotonic()
    upgraded_from = None
    source = await _open_source(source_kind, source_where)
    try:
        version = await source.version()
        if version == 0:
            raise StoreError(f"the source {source.location} is not a Skirmish database (schema version 0)")
        if version < SCHEMA_VERSION:
            if not upgrade_source:
                raise StoreError(f"the source {source.location} has schema version {version}, older than this "
                                 f"code's {SCHEMA_VERSION}: run the copy again with --upgrade-source to upgrade it "
                                 "in place first (as the bot does when it starts), or copy an upgraded backup")
            await source.close()
            await (await Store.open(source_url)).close()         # the store's own migrations
            source = await _open_source(source_kind, source_where)
            upgraded_from, version = version, await source.version()
        if version > SCHEMA_VERSION:
            raise StoreError(f"the source {source.location} has schema version {version}, newer than this "
                             f"code's {SCHEMA_VERSION}: copy it with the Skirmish version that wrote it, or upgrade")
        result = CopyResult(source=source.location, target=_shown(target_kind, target_where),
                            schema_version=SCHEMA_VERSION, upgraded_from=upgraded_from)
        if upgraded_from is not None:
            result.notes.append(f"the source was upgraded from schema version {upgraded_from} first")
        await source.begin()
        running = await source.count("services") if "services" in await source.tables() else 0
        if running:
            result.notes.append(f"the source has {running} bot process(es) registered as running: what they "
                                "wrote after the copy began is not in the copy; stop every bot before copying")
        target = await _open_target(target_kind, target_where)
        try:
            await target.begin()
            await _copy(source, target, result, progress or (lambda *_: None), batch_rows, batch_bytes)
            await target.commit()
        except BaseException:
            await target.abandon()
            raise
        else:
            await target.close()
    finally:
        await source.close()
    result.seconds = time.monotonic() - started
    return result


async def _copy(source: "_Source", target: "_Target", result: CopyResult, progress: Progress,
                batch_rows: int, batch_bytes: int) -> None:
    await target.bring_up_to_date()
    tables = [name for name in await source.tables() if name not in SKIPPED]
    theirs = [name for name in await target.tables() if name not in SKIPPED]
    if sorted(tables) != sorted(theirs):
        raise StoreError(f"the source's tables ({', '.join(sorted(tables))}) are not the target's at the same "
                         f"schema version ({', '.join(sorted(theirs))}): was one of them changed by hand?")
    full = [name for name in theirs if await target.has_rows(name)]
    if full:
        raise StoreError(f"the target {target.location} already holds Skirmish data (rows in "
                         f"{', '.join(sorted(full))}): copy into a new, empty database; nothing was changed")
    order = _parents_first({name: await source.references(name) for name in tables})
    for name in order:
        columns, key = await source.columns(name)
        theirs = await target.columns(name)
        if sorted(columns) != sorted(theirs):
            raise StoreError(f"the table {name} has the columns {', '.join(columns)} in the source and "
                             f"{', '.join(theirs)} in the target: was one of them changed by hand?")
        total = await source.count(name)
        copied = 0
        if total:
            progress(name, 0, total)
        write = target.writer(name, columns, key)
        read = await source.read(name, columns, key)
        while rows := await read(batch_rows, batch_bytes):
            await write(rows)
            copied += len(rows)
            if copied < total:
                progress(name, copied, total)
        if copied != total or await target.count(name) != copied:
            raise StoreError(f"the copy of the table {name} does not add up ({total} rows in the source, {copied} "
                             "read, a different count written): nothing was written")
        progress(name, copied, total)
        result.tables.append(TableCopied(name, copied))
    await target.finish(order)


def _parents_first(references: dict[str, set[str]]) -> list[str]:
    """The tables in an order where every table comes after those it references (by name otherwise)."""
    order, waiting = [], {name: set(parents) & set(references) - {name} for name, parents in references.items()}
    while waiting:
        ready = sorted(name for name, parents in waiting.items() if not parents)
        if not ready:
            raise StoreError(f"the tables {', '.join(sorted(waiting))} reference each other in a cycle; "
                             "they cannot be copied in one order")
        order.extend(ready)
        for name in ready:
            del waiting[name]
        for parents in waiting.values():
            parents.difference_update(ready)
    return order


def _size(row: Sequence) -> int:
    return sum(len(value) if isinstance(value, (str, bytes)) else 8 for value in row)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _shown(kind: str, where: str) -> str:
    return redact(where) if kind == "postgresql" else where


def _same_database(kind: str, where: str, other_kind: str, other_where: str) -> bool:
    if kind != other_kind:
        return False
    if kind == "sqlite":
        return where != ":memory:" and Path(where).resolve() == Path(other_where).resolve()
    try:
        mine, theirs = urlsplit(where), urlsplit(other_where)
        return ((mine.hostname, mine.port or 5432, mine.path.strip("/"))
                == (theirs.hostname, theirs.port or 5432, theirs.path.strip("/")))
    except ValueError:
        return False


# ------------------------------------------------------------------------------------------- sources
class _Source:
    location: str

    async def version(self) -> int: ...
    async def begin(self) -> None: ...
    async def tables(self) -> list[str]: ...
    async def references(self, table: str) -> set[str]: ...
    async def columns(self, table: str) -> tuple[list[str], list[str]]: ...
    async def count(self, table: str) -> int: ...
    async def read(self, table: str, columns: list[str], key: list[str]):
        """``fetch(most, budget)``: the next rows in key order, at most ``most`` and about ``budget``
        bytes of values (at least one row); none at the end."""
    async def close(self) -> None: ...


async def _open_source(kind: str, where: str) -> _Source:
    if kind == "sqlite":
        return await _SqliteSource.connect(where)
    return await _PostgresSource.connect(where)


def _select(table: str, columns: list[str], key: list[str]) -> str:
    return (f"SELECT {', '.join(map(_quote, columns))} FROM {_quote(table)}"
            f" ORDER BY {', '.join(map(_quote, key))}")


class _SqliteSource(_Source):
    """A SQLite file, opened read-only (sqlite3 in a worker thread: a batch is read row by row up to
    its size there, so a run of large rows never arrives at once)."""

    def __init__(self, path: str, connection: sqlite3.Connection) -> None:
        self.location = path
        self._connection = connection
        self._busy = threading.Lock()        # a cancelled read's thread finishes before the connection closes

    async def _run(self, work: Callable):
        def locked():
            with self._busy:
                return work()
        return await asyncio.to_thread(locked)

    @classmethod
    async def connect(cls, path: str) -> "_SqliteSource":
        if path == ":memory:" or not Path(path).is_file():
            raise StoreError(f"the source {path}: no such SQLite file")
        uri = Path(path).resolve().as_uri() + "?mode=ro"

        def connect() -> sqlite3.Connection:
            connection = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
            connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            return connection
        try:
            connection = await asyncio.to_thread(connect)
        except sqlite3.Error as exc:
            raise StoreError(f"the source {path} cannot be opened: {exc}") from None
        source = cls(path, connection)
        try:
            if not await source.tables():
                raise StoreError(f"the source {path} is not a Skirmish database: it has no tables")
        except sqlite3.DatabaseError as exc:
            await source.close()
            raise StoreError(f"the source {path} is not a Skirmish database: {exc}") from None
        except BaseException:
            await source.close()
            raise
        return source

    async def _all(self, sql: str, params=()) -> list[tuple]:
        return await self._run(lambda: self._connection.execute(sql, params).fetchall())

    async def version(self) -> int:
        return (await self._all("PRAGMA user_version"))[0][0]

    async def begin(self) -> None:
        await self._all("BEGIN")
        await self._all("SELECT count(*) FROM sqlite_master")     # the snapshot starts at the first read

    async def tables(self) -> list[str]:
        return [row[0] for row in await self._all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
            " ORDER BY name")]

    async def references(self, table: str) -> set[str]:
        return {row[2] for row in await self._all(f"PRAGMA foreign_key_list({_quote(table)})")}

    async def columns(self, table: str) -> tuple[list[str], list[str]]:
        rows = await self._all(f"PRAGMA table_info({_quote(table)})")
        key = [row[1] for row in sorted((row for row in rows if row[5]), key=lambda row: row[5])]
        return [row[1] for row in rows], key

    async def count(self, table: str) -> int:
        return (await self._all(f"SELECT count(*) FROM {_quote(table)}"))[0][0]

    async def read(self, table: str, columns: list[str], key: list[str]):
        cursor = await self._run(lambda: self._connection.execute(_select(table, columns, key or columns)))

        def batch(most: int, budget: int) -> list[tuple]:
            rows, held = [], 0
            while len(rows) < most and held < budget:
                row = cursor.fetchone()
                if row is None:
                    break
                rows.append(row)
                held += _size(row)
            return rows

        async def fetch(most: int, budget: int) -> list[tuple]:
            return await self._run(lambda: batch(most, budget))
        return fetch

    async def close(self) -> None:
        await self._run(self._connection.close)


class _PostgresSource(_Source):
    """A PostgreSQL database, read in one ``REPEATABLE READ READ ONLY`` transaction."""

    def __init__(self, url: str, connection) -> None:
        self.location = redact(url)
        self._connection = connection

    @classmethod
    async def connect(cls, url: str) -> "_PostgresSource":
        connection = await _connect_postgres(url, "source")
        source = cls(url, connection)
        if await connection.fetchval("SELECT to_regclass('skirmish_schema')") is None:
            await connection.close()
            raise StoreError(f"the source {source.location} is not a Skirmish database (it has no table "
                             "skirmish_schema, which the bot makes when it first opens a database)")
        return source

    async def version(self) -> int:
        return await self._connection.fetchval("SELECT COALESCE(MAX(version), 0) FROM skirmish_schema")

    async def begin(self) -> None:
        await self._connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    async def tables(self) -> list[str]:
        return await _postgres_tables(self._connection)

    async def references(self, table: str) -> set[str]:
        rows = await self._connection.fetch(
            "SELECT referenced.relname FROM pg_constraint JOIN pg_class AS referenced ON referenced.oid = confrelid"
            " WHERE contype = 'f' AND conrelid = to_regclass($1)", _quote(table))
        return {row[0] for row in rows}

    async def columns(self, table: str) -> tuple[list[str], list[str]]:
        columns = list((await _postgres_columns(self._connection, table)).keys())
        key = await self._connection.fetch(
            "SELECT attribute.attname FROM pg_index JOIN LATERAL unnest(pg_index.indkey) WITH ORDINALITY"
            " AS keys(number, position) ON true JOIN pg_attribute AS attribute ON attribute.attrelid = indrelid"
            " AND attribute.attnum = keys.number WHERE indrelid = to_regclass($1) AND indisprimary"
            " ORDER BY keys.position", _quote(table))
        return columns, [row[0] for row in key]

    async def count(self, table: str) -> int:
        return await self._connection.fetchval(f"SELECT count(*) FROM {_quote(table)}")

    async def read(self, table: str, columns: list[str], key: list[str]):
        """Batches by the primary key: each first asks the sizes of the next rows (``octet_length``,
        which reads no stored value), then reads as many as fit."""
        if not key:                              # no table of the schema: one row at a time, in column order
            cursor = await self._connection.cursor(_select(table, columns, columns))

            async def one_by_one(most: int, budget: int) -> list[tuple]:
                return [tuple(row) for row in await cursor.fetch(1)]
            return one_by_one
        types = await _postgres_columns(self._connection, table)
        sizes = " + ".join(f"coalesce(octet_length({_quote(c)}), 0)" if types[c] in ("text", "bytea") else "8"
                           for c in columns)
        keys = ", ".join(map(_quote, key))
        after: list = []

        def past(first: int) -> str:
            marks = ", ".join(f"${first + i}" for i in range(len(key)))
            return f"({keys}) > ({marks})"

        async def fetch(most: int, budget: int) -> list[tuple]:
            where = f"WHERE {past(1)}" if after else ""
            ahead = await self._connection.fetch(f"SELECT {keys}, {sizes} FROM {_quote(table)} {where}"
                                                 f" ORDER BY {keys} LIMIT {int(most)}", *after)
            if not ahead:
                return []
            taken, held = 0, 0
            for row in ahead:
                if taken and held + row[-1] > budget:
                    break
                taken += 1
                held += row[-1]
            last = list(ahead[taken - 1])[:-1]
            marks = ", ".join(f"${len(after) + 1 + i}" for i in range(len(key)))
            where = (f"WHERE {past(1)} AND " if after else "WHERE ") + f"({keys}) <= ({marks})"
            rows = await self._connection.fetch(f"SELECT {', '.join(map(_quote, columns))} FROM {_quote(table)}"
                                                f" {where} ORDER BY {keys}", *after, *last)
            after[:] = last
            return [tuple(row) for row in rows]
        return fetch

    async def close(self) -> None:
        await _close_postgres(self._connection)


# ------------------------------------------------------------------------------------------- targets
class _Target:
    location: str

    async def begin(self) -> None: ...
    async def bring_up_to_date(self) -> None: ...
    async def tables(self) -> list[str]: ...
    async def has_rows(self, table: str) -> bool: ...
    async def columns(self, table: str) -> list[str]: ...
    async def count(self, table: str) -> int: ...
    def writer(self, table: str, columns: list[str], key: list[str]): ...
    async def finish(self, tables: list[str]) -> None: ...
    async def commit(self) -> None: ...
    async def abandon(self) -> None: ...
    async def close(self) -> None: ...


async def _open_target(kind: str, where: str) -> _Target:
    if kind == "sqlite":
        return await _SqliteTarget.connect(where)
    return await _PostgresTarget.connect(where)


def _sqlite_statements(sql: str) -> list[str]:
    """The statements of a schema file, for SQLite (``executescript`` would commit first)."""
    statements, current = [], ""
    for line in sql.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            if current.strip():
                statements.append(current)
            current = ""
    if current.strip() and not all(part.strip().startswith("--") or not part.strip()
                                   for part in current.splitlines()):
        statements.append(current)
    return statements


class _SqliteTarget(_Target):
    """A SQLite file (created if missing, and removed again if the copy fails)."""

    def __init__(self, path: str, connection: aiosqlite.Connection, created: bool) -> None:
        self.location = path
        self._connection = connection
        self._created = created

    @classmethod
    async def connect(cls, path: str) -> "_SqliteTarget":
        if path == ":memory:":
            raise StoreError("the target must be a SQLite file, not :memory:")
        created = not Path(path).exists()
        if not Path(path).parent.is_dir():
            raise StoreError(f"the target {path}: the folder {Path(path).parent} does not exist")
        try:
            connection = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"the target {path} cannot be opened: {exc}") from None
        target = cls(path, connection, created)
        try:
            await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await connection.execute("PRAGMA foreign_keys = ON")
            if created:                      # a new file is made as Store.open makes it; another is left as it is
                async with connection.execute("PRAGMA journal_mode = WAL") as cursor:
                    await cursor.fetchone()
        except sqlite3.DatabaseError as exc:
            await target.abandon()
            raise StoreError(f"the target {path} is not a Skirmish database: {exc}") from None
        return target

    async def _all(self, sql: str, params=()) -> list[tuple]:
        async with self._connection.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def begin(self) -> None:
        try:
            await self._connection.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreError(f"the target {self.location} is busy (is a bot using it?): {exc}") from None

    async def bring_up_to_date(self) -> None:
        version = (await self._all("PRAGMA user_version"))[0][0]
        if version == 0 and await self.tables():
            raise StoreError(f"the target {self.location} is not a Skirmish database (it has tables but no "
                             "Skirmish schema version): copy into a new file")
        if version > SCHEMA_VERSION:
            raise StoreError(f"the target {self.location} has schema version {version}, newer than this code's "
                             f"{SCHEMA_VERSION}")
        for number, name, sql in migrations()[version:]:
            for statement in _sqlite_statements(sql):
                await self._connection.execute(statement)
            await self._connection.execute(f"PRAGMA user_version = {number}")

    async def tables(self) -> list[str]:
        return [row[0] for row in await self._all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
            " ORDER BY name")]

    async def has_rows(self, table: str) -> bool:
        return bool(await self._all(f"SELECT 1 FROM {_quote(table)} LIMIT 1"))

    async def columns(self, table: str) -> list[str]:
        return [row[1] for row in await self._all(f"PRAGMA table_info({_quote(table)})")]

    async def count(self, table: str) -> int:
        return (await self._all(f"SELECT count(*) FROM {_quote(table)}"))[0][0]

    def writer(self, table: str, columns: list[str], key: list[str]):
        sql = (f"INSERT INTO {_quote(table)} ({', '.join(map(_quote, columns))})"
               f" VALUES ({', '.join('?' for _ in columns)})")

        async def write(rows: list[tuple]) -> None:
            try:
                await self._connection.executemany(sql, rows)
            except sqlite3.Error as exc:
                raise StoreError(f"the target refused a row of {table}: {exc}") from None
        return write

    async def finish(self, tables: list[str]) -> None:
        """Nothing: SQLite numbers a new row past the largest id of its table."""

    async def commit(self) -> None:
        await self._connection.execute("COMMIT")

    async def abandon(self) -> None:
        """Roll back and close; a file this copy created is removed (with its -wal and -shm)."""
        try:
            if self._connection.in_transaction:
                await asyncio.shield(self._connection.execute("ROLLBACK"))
        finally:
            await self._connection.close()
            if self._created:
                for suffix in ("", "-wal", "-shm", "-journal"):
                    try:
                        os.remove(self.location + suffix)
                    except FileNotFoundError:
                        pass

    async def close(self) -> None:
        await self._connection.close()


class _PostgresTarget(_Target):
    """A PostgreSQL database: one transaction holding the store's write lock."""

    def __init__(self, url: str, connection) -> None:
        self.location = redact(url)
        self._url = url
        self._connection = connection
        self._types: dict[str, dict[str, str]] = {}

    @classmethod
    async def connect(cls, url: str) -> "_PostgresTarget":
        return cls(url, await _connect_postgres(url, "target"))

    async def begin(self) -> None:
        try:
            await self._connection.execute(f"BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL lock_timeout ="
                                           f" {BUSY_TIMEOUT_MS}; SELECT pg_advisory_xact_lock({WRITE_LOCK})")
        except asyncpg.LockNotAvailableError:
            raise StoreError(f"the target {self.location} is busy: a bot holds its write lock "
                             "(stop every bot using it)") from None

    async def bring_up_to_date(self) -> None:
        connection = self._connection
        fresh = await connection.fetchval("SELECT to_regclass('skirmish_schema')") is None
        if fresh and await self.tables():
            raise StoreError(f"the target {self.location} is not a Skirmish database (it has tables but no "
                             "skirmish_schema): copy into a new database (CREATE DATABASE ...)")
        try:
            await connection.execute(_SCHEMA_TABLE)
            version = await connection.fetchval("SELECT COALESCE(MAX(version), 0) FROM skirmish_schema")
            if version > SCHEMA_VERSION:
                raise StoreError(f"the target {self.location} has schema version {version}, newer than this "
                                 f"code's {SCHEMA_VERSION}")
            for number, name, sql in migrations()[version:]:
                for statement in to_postgres(sql, name):
                    await connection.execute(statement)
                await connection.execute("INSERT INTO skirmish_schema (version, name) VALUES ($1, $2)", number, name)
        except PortabilityError as exc:
            raise StoreError(f"a migration cannot run on PostgreSQL: {exc}") from None
        except asyncpg.PostgresError as exc:
            raise StoreError(f"the schema could not be made on the target {self.location}: "
                             f"{type(exc).__name__}: {exc}") from None

    async def tables(self) -> list[str]:
        return [name for name in await _postgres_tables(self._connection) if name != "skirmish_schema"]

    async def has_rows(self, table: str) -> bool:
        return await self._connection.fetchval(f"SELECT EXISTS (SELECT 1 FROM {_quote(table)})")

    async def columns(self, table: str) -> list[str]:
        self._types[table] = await _postgres_columns(self._connection, table)
        return list(self._types[table])

    async def count(self, table: str) -> int:
        return await self._connection.fetchval(f"SELECT count(*) FROM {_quote(table)}")

    def writer(self, table: str, columns: list[str], key: list[str]):
        wanted = [_PYTHON_TYPES.get(self._types[table][column]) for column in columns]
        positions = [columns.index(column) for column in key]

        async def write(rows: list[tuple]) -> None:
            for row in rows:
                for column, value, kind in zip(columns, row, wanted):
                    if value is None or kind is None:
                        continue
                    if type(value) is not kind or (kind is str and "\x00" in value):
                        what = ("a NUL character" if isinstance(value, str) and kind is str
                                else f"a {type(value).__name__}, not {_TYPE_WORDS[kind]}")
                        raise StoreError(f"{table} ({', '.join(key)}) = ({', '.join(repr(row[p]) for p in positions)})"
                                         f": its {column} holds {what}, which PostgreSQL cannot take as it is; "
                                         "correct that row in the source and copy again (nothing was written)")
            try:
                await self._connection.copy_records_to_table(table, records=rows, columns=columns)
            except asyncpg.PostgresError as exc:
                raise StoreError(f"the target refused a row of {table}: {type(exc).__name__}: {exc}") from None
        return write

    async def finish(self, tables: list[str]) -> None:
        """Move each identity sequence past its table's largest id: the next row never collides."""
        rows = await self._connection.fetch(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND is_identity = 'YES' ORDER BY table_name")
        for table, column in rows:
            if table not in tables:
                continue
            largest = await self._connection.fetchval(f"SELECT max({_quote(column)}) FROM {_quote(table)}")
            if largest is not None:
                await self._connection.execute("SELECT setval(pg_get_serial_sequence($1, $2), $3)",
                                               _quote(table), column, largest)

    async def commit(self) -> None:
        await self._connection.execute("COMMIT")

    async def abandon(self) -> None:
        """Roll back (closing the connection, which ends the transaction, if that cannot)."""
        try:
            if not self._connection.is_closed() and self._connection.is_in_transaction():
                await asyncio.shield(asyncio.wait_for(self._connection.execute("ROLLBACK"), timeout=30))
        except Exception:                    # noqa: BLE001 - a closed connection's transaction ends too
            pass
        finally:
            await _close_postgres(self._connection)

    async def close(self) -> None:
        await _close_postgres(self._connection)


_PYTHON_TYPES = {"bigint": int, "integer": int, "text": str, "bytea": bytes}
_TYPE_WORDS = {int: "an integer", str: "text", bytes: "bytes"}


async def _connect_postgres(url: str, role: str):
    """A connection to ``url``; a clear :class:`StoreError` (without the password) when there is none."""
    location = redact(url)
    try:
        return await asyncpg.connect(url, timeout=30, server_settings={"application_name": "skirmish-copy"})
    except asyncpg.InvalidCatalogNameError as exc:
        raise StoreError(f"the {role} database of {location} does not exist: {_clean(exc, url)}"
                         + (" (create it first: CREATE DATABASE ...)" if role == "target" else "")) from None
    except (asyncpg.InvalidAuthorizationSpecificationError, asyncpg.InvalidPasswordError) as exc:
        raise StoreError(f"PostgreSQL refused the user of the {role} {location}: {_clean(exc, url)}") from None
    except (*_CONNECTION_ERRORS, asyncpg.PostgresError, ValueError) as exc:
        raise StoreError(f"cannot connect to the {role} PostgreSQL database {location}: "
                         f"{_clean(exc, url)}") from None


async def _close_postgres(connection) -> None:
    try:
        await asyncio.wait_for(connection.close(), timeout=10)
    except Exception:                        # noqa: BLE001 - a connection that cannot close cleanly is cut
        connection.terminate()


async def _postgres_tables(connection) -> list[str]:
    rows = await connection.fetch("SELECT table_name FROM information_schema.tables WHERE table_schema = "
                                  "current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name")
    return [row[0] for row in rows if row[0] != "skirmish_schema"]


async def _postgres_columns(connection, table: str) -> dict[str, str]:
    rows = await connection.fetch("SELECT column_name, data_type FROM information_schema.columns WHERE table_schema ="
                                  " current_schema() AND table_name = $1 ORDER BY ordinal_position", table)
    return {row[0]: row[1] for row in rows}
