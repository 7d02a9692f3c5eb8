"""The embedded SQLite store (aiosqlite): schema, numbered migrations and every query.

``Store.open(path)`` creates or upgrades the database; ``store.transaction()`` is one write
transaction; ``store.snapshot_read()`` a consistent read. Only :mod:`bot.service` uses it.
"""

from .database import SCHEMA_VERSION, Store, StoreError
from .queries import Queries
from .records import AuditEntry, Game, OrderRow, PlayerRow, Post, Snapshot

__all__ = ["Store", "StoreError", "SCHEMA_VERSION", "Queries", "Game", "PlayerRow", "OrderRow", "Snapshot",
           "Post", "AuditEntry"]
