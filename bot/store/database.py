"""The database: one interface, two back ends, one schema with numbered migrations.

``Store.open(url)`` opens (creating or upgrading) the database a URL names:

- ``sqlite:///relative/path.sqlite3``, ``sqlite:////absolute/path.sqlite3`` or a plain file path:
  the embedded SQLite back end (:mod:`.sqlite`), one process on one machine;
- ``postgresql://user[:password]@host:port/database``: PostgreSQL through an asyncpg pool
  (:mod:`.postgres`), for several bot processes on several machines.

Both keep the same meaning: :meth:`Store.transaction` is one write transaction, and only one runs
at a time across every process using the database (the service reads, decides and writes in it);
:meth:`Store.snapshot_read` is a consistent read of the last committed state that never waits for a
writer. Both run the same schema files (translated for PostgreSQL by :mod:`.portable`) and the same
queries (:mod:`.queries`, ``?`` placeholders). See docs/store.md.
"""

from __future__ import annotations

import asyncio
import logging
import re
from contextlib import AbstractAsyncContextManager
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from .queries import Queries

__all__ = ["Store", "StoreError", "StoreUnavailable", "IntegrityError", "migrations", "SCHEMA_VERSION",
           "parse_url", "redact"]

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 10_000
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class StoreError(RuntimeError):
    """The database cannot be used: one that cannot be reached, is not ours, or is newer than this code."""


class StoreUnavailable(StoreError):
    """The database server cannot be reached (down, restarting, or the connection was cut).
    A transaction that raises this wrote nothing, unless it was cut while committing."""


class IntegrityError(StoreError):
    """A write the schema refuses (a unique index, a foreign key, a check), on either back end."""


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


def parse_url(target: str | Path) -> tuple[str, str]:
    """``("sqlite", path)`` or ``("postgresql", url)`` for a store URL or a plain file path.
    Raises :class:`StoreError` for another scheme or a URL without its path."""
    if isinstance(target, Path):
        return "sqlite", str(target)
    text = str(target)
    scheme, separator, rest = text.partition("://")
    if not separator:
        if not text:
            raise StoreError("the store needs a URL or a file path, not an empty text")
        return "sqlite", text
    scheme = scheme.lower()
    if scheme == "sqlite":
        if not rest.startswith("/") or rest == "/":
            raise StoreError(f"a SQLite URL is sqlite:///relative/path or sqlite:////absolute/path, not {text!r}")
        return "sqlite", rest[1:]
    if scheme in ("postgresql", "postgres"):
        if not urlsplit(text).path.strip("/"):
            raise StoreError(f"the PostgreSQL URL {redact(text)} names no database "
                             "(postgresql://user[:password]@host:port/database)")
        return "postgresql", text
    raise StoreError(f"the store URL {redact(text)} has the scheme {scheme!r}; "
                     "use sqlite:///path or postgresql://user[:password]@host:port/database")


def redact(url: str) -> str:
    """``url`` with its password, if any, replaced by ``***`` (for messages and logs)."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        user = parts.username or ""
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
        return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))
    except ValueError:                         # not a URL we can take apart: show only its scheme
        return url.split("://", 1)[0] + "://***"


class Store:
    """The database of one process. Open with :meth:`open`, close with :meth:`close`.

    The back ends subclass it: :class:`bot.store.sqlite.SqliteStore` and
    :class:`bot.store.postgres.PostgresStore`."""

    #: "sqlite" or "postgresql"
    backend: str = ""
    #: where the database is, for messages (a PostgreSQL URL without its password)
    location: str = ""

    @classmethod
    async def open(cls, target: str | Path) -> "Store":
        """Open (creating if needed) the database ``target`` names (a URL or a plain SQLite file path)
        and bring its schema up to date. Raises :class:`StoreError` when it cannot be used."""
        backend, where = parse_url(target)
        if backend == "sqlite":
            from .sqlite import SqliteStore
            return await SqliteStore.connect(where)
        from .postgres import PostgresStore
        return await PostgresStore.connect(where)

    async def close(self) -> None:
        raise NotImplementedError

    def transaction(self) -> AbstractAsyncContextManager[Queries]:
        """One write transaction: committed when the block ends, rolled back if it raises. One at a
        time across every process of the database; its ``on_commit`` callbacks run after the commit."""
        raise NotImplementedError

    def snapshot_read(self) -> AbstractAsyncContextManager[Queries]:
        """A consistent read of the last committed state; never waits for a writer."""
        raise NotImplementedError


async def to_completion(awaitable):
    """Await ``awaitable`` to its end even if this task is cancelled meanwhile, then re-raise."""
    future = asyncio.ensure_future(awaitable)
    try:
        return await asyncio.shield(future)
    except asyncio.CancelledError as cancelled:
        try:
            await future
        except Exception as failure:
            # the operation failed as well: the caller was cancelled, and must see that (a loop
            # that catches errors, as the outbox relay does, would otherwise never stop)
            log.warning("a database operation failed while its task was being cancelled: %s", failure)
        raise cancelled
