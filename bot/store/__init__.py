"""The store: one interface, two back ends (SQLite embedded, PostgreSQL beyond one machine).

``Store.open(url)`` creates or upgrades the database (``sqlite:///path``, a plain path, or
``postgresql://user[:password]@host:port/database``); ``store.transaction()`` is one write
transaction (one at a time across every process); ``store.snapshot_read()`` a consistent read.
Only :mod:`bot.service` uses it. See docs/store.md.
"""

from .database import SCHEMA_VERSION, IntegrityError, Store, StoreError, StoreUnavailable
from .queries import Queries
from .records import AuditEntry, Game, GameResult, OrderRow, PlayerRow, Post, Snapshot

__all__ = ["Store", "StoreError", "StoreUnavailable", "IntegrityError", "SCHEMA_VERSION", "Queries", "Game",
           "PlayerRow", "OrderRow", "Snapshot", "Post", "AuditEntry", "GameResult"]
