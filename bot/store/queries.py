"""Every SQL statement of the project, as methods of :class:`Queries` (one connection, one transaction).

The service never writes SQL; it calls these inside :meth:`Store.transaction`. Values go in as
parameters, never into the text, so a player's name is only ever data.

The same text runs on both back ends (docs/store.md): ``?`` placeholders (numbered for PostgreSQL by
the back end); ``INSERT ... RETURNING id`` for a new row's id; :meth:`Queries._write`'s count of
changed rows; ``ON CONFLICT`` instead of ``INSERT OR ...``; ``lower(column) = ?`` with
:func:`~bot.store.portable.fold_case` instead of ``COLLATE NOCASE``; text orders by code point on both
(PostgreSQL's text columns are ``COLLATE "C"``). Parameters have the column's type (an ``int`` for an
INTEGER column, never a ``bool``; a ``str`` for TEXT): PostgreSQL does not convert them.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any, Iterable

from bot.shards import SNOWFLAKE_LOW_BITS

from .portable import fold_case
from .records import (AuditEntry, Game, GameResult, OrderRow, PlayerRow, Post, ServiceRow, Snapshot, from_millis,
                      to_millis, to_text, to_time)

if TYPE_CHECKING:
    from bot.shards import Shards

__all__ = ["Queries"]

_GAME_COLUMNS = {"name", "status", "update_no", "snapshot_update", "snapshot_revision", "settings", "schedule",
                 "locked", "lock_at", "deadline_at", "paused_at", "claimed_by", "claimed_at", "reminded_for",
                 "notify_role"}


def _column_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return to_text(value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    if isinstance(value, bool):
        return int(value)
    return value


#: at most this many values in one ``IN (...)`` (SQLite's limit on parameters may be as low as 999)
_CHUNK = 500


def _chunks(values: list) -> Iterable[list]:
    return (values[start:start + _CHUNK] for start in range(0, len(values), _CHUNK))


def _owned(owned: Shards | None) -> tuple[str, list[int]]:
    """The SQL condition on ``guild_id`` for the servers ``owned`` holds, Discord's rule of
    bot/shards.py in SQL (the same text on SQLite and PostgreSQL), and its parameters; ``""`` for
    every server."""
    if owned is None or owned.everything:
        return "", []
    marks = ", ".join("?" * len(owned.ids))
    return f"(guild_id >> {SNOWFLAKE_LOW_BITS}) % ? IN ({marks})", [owned.count, *owned.ids]


def _holder_dead(column: str) -> str:
    """The test that the service named in ``games.<column>`` is dead (bot/service/claims.py): it has
    no row in ``services`` (it stopped cleanly, or was forgotten as dead) or no heartbeat since the
    one parameter, ``alive_since`` in milliseconds. One text for both claims: an update's
    (``claimed_by``) and a game's posts' (``posting_by``)."""
    return (f"NOT EXISTS (SELECT 1 FROM services WHERE services.identity = games.{column}"
            " AND services.heartbeat_at >= ?)")


def _sender_fence(sender: str | None) -> tuple[str, list[str]]:
    """The condition on an outbox row that ``sender`` still sends its game's posts ("" for anyone)."""
    if sender is None:
        return "", []
    return " AND EXISTS (SELECT 1 FROM games WHERE games.id = outbox.game_id AND games.posting_by = ?)", [sender]


def _game(row) -> Game:
    return Game(id=row["id"], name=row["name"], ruleset=row["ruleset"], guild_id=row["guild_id"],
                channel_id=row["channel_id"], status=row["status"], update_no=row["update_no"],
                snapshot_update=row["snapshot_update"], snapshot_revision=row["snapshot_revision"],
                seed=row["seed"], settings=json.loads(row["settings"]), schedule=json.loads(row["schedule"]),
                locked=bool(row["locked"]), lock_at=to_time(row["lock_at"]), deadline_at=to_time(row["deadline_at"]),
                paused_at=to_time(row["paused_at"]), claimed_by=row["claimed_by"],
                claimed_at=to_time(row["claimed_at"]), created_at=to_time(row["created_at"]),
                created_by=row["created_by"], reminded_for=to_time(row["reminded_for"]),
                notify_role=row["notify_role"])


def _player(row) -> PlayerRow:
    return PlayerRow(game_id=row["game_id"], user_id=row["user_id"], name=row["name"], colour=row["colour"],
                     status=row["status"], joined_at=to_time(row["joined_at"]), joined_update=row["joined_update"],
                     seat=row["seat"], dm_reminder=bool(row["dm_reminder"]), departure=row["departure"])


def _order(row) -> OrderRow:
    return OrderRow(id=row["id"], game_id=row["game_id"], update_no=row["update_no"], user_id=row["user_id"],
                    text=row["text"], canonical=row["canonical"], source=row["source"],
                    submitted_at=to_time(row["submitted_at"]), status=row["status"], refusal=row["refusal"])


def _snapshot(row) -> Snapshot:
    return Snapshot(game_id=row["game_id"], update_no=row["update_no"], revision=row["revision"],
                    base_revision=row["base_revision"], state=row["state"], orders=json.loads(row["orders"]),
                    joiners=[tuple(j) for j in json.loads(row["joiners"])],
                    seed=row["seed"], report=None if row["report"] is None else json.loads(row["report"]),
                    reason=row["reason"], rolled_back=bool(row["rolled_back"]), created_at=to_time(row["created_at"]))


def _post(row) -> Post:
    return Post(id=row["id"], game_id=row["game_id"], update_no=row["update_no"], kind=row["kind"],
                recipient=row["recipient"], body=row["body"], attachment=row["attachment"], filename=row["filename"],
                created_at=to_time(row["created_at"]), attempts=row["attempts"], last_error=row["last_error"],
                next_attempt_at=to_time(row["next_attempt_at"]), sent_at=to_time(row["sent_at"]),
                message_id=row["message_id"], state=row["state"], post_no=row["post_no"])


# Rows read in more than one shape (whole, or only the columns an update needs): each filter written once
_ALL_PLAYERS = "FROM players WHERE game_id = ?"
_JOINED_PLAYERS = _ALL_PLAYERS + " AND status = 'joined'"
#: the orders still standing for an update (pending, or locked at its deadline), in the order sent
_LIVE_ORDERS = "FROM orders WHERE game_id = ? AND update_no = ? AND status IN ('pending', 'locked') ORDER BY id"


class Queries:
    """The statements, bound to one connection inside one transaction."""

    def __init__(self, connection, read_only: bool = False) -> None:
        #: the back end's connection: ``fetchone``, ``fetchall``, ``execute`` (rows changed) and
        #: ``executemany`` (bot.store.sqlite.SqliteConnection, bot.store.postgres.PostgresConnection)
        self._db = connection
        self.read_only = read_only
        #: called after the transaction commits (not after a rollback): e.g. wake the publisher
        self.on_commit: list = []

    async def _one(self, sql: str, params: Iterable = ()):
        """The first row (``row["column"]`` or ``row[0]``), or None."""
        return await self._db.fetchone(sql, tuple(params))

    async def _all(self, sql: str, params: Iterable = ()) -> list:
        return list(await self._db.fetchall(sql, tuple(params)))

    async def _write(self, sql: str, params: Iterable = ()) -> int:
        """Run a write; how many rows it changed (inserted, updated or deleted)."""
        if self.read_only:
            raise RuntimeError("a write inside a read-only snapshot")
        return await self._db.execute(sql, tuple(params))

    async def _rows_written(self, sql: str, params: Iterable = ()) -> list:
        """Run a write with ``RETURNING``; the rows it returned."""
        if self.read_only:
            raise RuntimeError("a write inside a read-only snapshot")
        return list(await self._db.fetchall(sql, tuple(params)))

    async def _insert(self, sql: str, params: Iterable = ()) -> int:
        """Run an ``INSERT ... RETURNING id``; the new row's id."""
        if self.read_only:
            raise RuntimeError("a write inside a read-only snapshot")
        return (await self._db.fetchone(sql, tuple(params)))[0]

    # ------------------------------------------------------------------ games
    async def insert_game(self, *, name: str, ruleset: str, guild_id: int, channel_id: int, seed: str,
                          settings: dict, schedule: dict, created_at: datetime, created_by: int) -> int:
        return await self._insert(
            "INSERT INTO games (name, ruleset, guild_id, channel_id, seed, settings, schedule, created_at, created_by)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (name, ruleset, guild_id, channel_id, seed, json.dumps(settings, sort_keys=True),
             json.dumps(schedule, sort_keys=True), to_text(created_at), created_by))

    async def game(self, game_id: int) -> Game | None:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def games(self, *, guild_id: int | None = None, channel_id: int | None = None,
                    statuses: Iterable[str] = ("setup", "running", "paused"), owned: Shards | None = None) -> list[Game]:
        """Games by status, by id; ``owned``: only those of the servers these shards hold."""
        statuses = tuple(statuses)
        sql = f"SELECT * FROM games WHERE status IN ({', '.join('?' * len(statuses))})"
        params: list[Any] = list(statuses)
        condition, values = _owned(owned)
        if condition:
            sql += f" AND {condition}"
            params.extend(values)
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        if channel_id is not None:
            sql += " AND channel_id = ?"
            params.append(channel_id)
        return [_game(row) for row in await self._all(sql + " ORDER BY id", params)]

    async def update_game(self, game_id: int, **values: Any) -> None:
        unknown = set(values) - _GAME_COLUMNS
        if unknown:
            raise KeyError(f"not a writable game column: {', '.join(sorted(unknown))}")
        assignments = ", ".join(f"{column} = ?" for column in values)
        await self._write(f"UPDATE games SET {assignments} WHERE id = ?",
                          [*(_column_value(v) for v in values.values()), game_id])

    async def claim(self, game_id: int, update_no: int, holder: str, now: datetime) -> bool:
        """Take the right to resolve ``update_no``: true for exactly one caller, however many try."""
        changed = await self._write(
            "UPDATE games SET claimed_by = ?, claimed_at = ?, locked = 1"
            " WHERE id = ? AND update_no = ? AND status = 'running' AND claimed_by IS NULL",
            (holder, to_text(now), game_id, update_no))
        return changed == 1

    async def hold_claim(self, game_id: int, update_no: int, holder: str) -> bool:
        """Whether ``holder`` still holds the claim on ``update_no`` (the fence of an update's storing
        transaction). The statement writes the row, so from here to the commit nobody else can take
        the claim over (PostgreSQL: the row lock; SQLite: the write lock)."""
        changed = await self._write("UPDATE games SET claimed_by = claimed_by WHERE id = ? AND update_no = ?"
                                    " AND claimed_by = ?", (game_id, update_no, holder))
        return changed == 1

    async def release_claim(self, game_id: int, update_no: int, holder: str) -> bool:
        """Give ``holder``'s claim on ``update_no`` back (nothing if it is not theirs any more)."""
        changed = await self._write("UPDATE games SET claimed_by = NULL, claimed_at = NULL WHERE id = ?"
                                    " AND update_no = ? AND claimed_by = ?", (game_id, update_no, holder))
        return changed == 1

    async def dead_claims(self, alive_since: datetime, game_id: int | None = None) -> list[tuple]:
        """The claims whose holder has no row in ``services`` or beat last before ``alive_since``:
        ``(game id, update, holder, host, pid, last heartbeat)`` by game id (host, pid and heartbeat
        None for a holder without a row)."""
        sql = ("SELECT games.id, games.update_no, games.claimed_by, services.host, services.pid,"
               " services.heartbeat_at FROM games LEFT JOIN services ON services.identity = games.claimed_by"
               " WHERE games.claimed_by IS NOT NULL AND (services.identity IS NULL OR services.heartbeat_at < ?)")
        params: list[Any] = [to_millis(alive_since)]
        if game_id is not None:
            sql += " AND games.id = ?"
            params.append(game_id)
        rows = await self._all(sql + " ORDER BY games.id", params)
        return [(row[0], row[1], row[2], row[3], row[4], None if row[5] is None else from_millis(row[5]))
                for row in rows]

    async def free_dead_claim(self, game_id: int, holder: str, alive_since: datetime) -> bool:
        """Free ``holder``'s claim on the game if the holder is still dead (no row in ``services``, or
        no beat since ``alive_since``) and the claim still theirs: one statement, so a holder that
        beats meanwhile keeps it."""
        changed = await self._write(
            "UPDATE games SET claimed_by = NULL, claimed_at = NULL WHERE id = ? AND claimed_by = ? AND "
            + _holder_dead("claimed_by"), (game_id, holder, to_millis(alive_since)))
        return changed == 1

    # ------------------------------------------------------------------ running services
    async def register_service(self, *, identity: str, host: str, pid: int, started_at: datetime,
                               now: datetime) -> None:
        """The service's row, made, or beating again (a service taken for dead comes back)."""
        await self._write("INSERT INTO services (identity, host, pid, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)"
                          " ON CONFLICT (identity) DO UPDATE SET heartbeat_at = excluded.heartbeat_at",
                          (identity, host, pid, to_text(started_at), to_millis(now)))

    async def beat(self, identity: str, now: datetime) -> bool:
        """The service's heartbeat; False if it has no row (it was taken for dead and removed)."""
        changed = await self._write("UPDATE services SET heartbeat_at = ? WHERE identity = ?",
                                    (to_millis(now), identity))
        return changed == 1

    async def remove_service(self, identity: str) -> None:
        await self._write("DELETE FROM services WHERE identity = ?", (identity,))

    async def remove_dead_services(self, alive_since: datetime) -> int:
        """Forget the services that have not beaten since ``alive_since`` (their claims are free anyway)."""
        changed = await self._write("DELETE FROM services WHERE heartbeat_at < ?", (to_millis(alive_since),))
        return changed

    async def services(self) -> list[ServiceRow]:
        """The services with a row, oldest first."""
        rows = await self._all("SELECT * FROM services ORDER BY started_at, identity")
        return [ServiceRow(identity=row["identity"], host=row["host"], pid=row["pid"],
                           started_at=to_time(row["started_at"]), heartbeat_at=from_millis(row["heartbeat_at"]))
                for row in rows]

    # ------------------------------------------------------------------ players
    async def insert_player(self, *, game_id: int, user_id: int, name: str, colour: str, joined_at: datetime,
                            joined_update: int, seat: int | None = None) -> None:
        await self._write("INSERT INTO players (game_id, user_id, name, colour, joined_at, joined_update, seat)"
                          " VALUES (?, ?, ?, ?, ?, ?, ?)",
                          (game_id, user_id, name, colour, to_text(joined_at), joined_update, seat))

    async def seated_players(self, game_id: int) -> list[PlayerRow]:
        """The players who took a seat before the start, in seat order."""
        return [_player(row) for row in await self._all(
            "SELECT * FROM players WHERE game_id = ? AND status = 'joined' AND seat IS NOT NULL ORDER BY seat",
            (game_id,))]

    async def player(self, game_id: int, user_id: int) -> PlayerRow | None:
        row = await self._one("SELECT * FROM players WHERE game_id = ? AND user_id = ?", (game_id, user_id))
        return None if row is None else _player(row)

    async def player_named(self, game_id: int, name: str) -> PlayerRow | None:
        """The player of that name (without regard to case): the one who plays it now, else one who did."""
        row = await self._one("SELECT * FROM players WHERE game_id = ? AND lower(name) = ?"
                              " ORDER BY status = 'joined' DESC, joined_at DESC LIMIT 1", (game_id, fold_case(name)))
        return None if row is None else _player(row)

    async def player_with_colour(self, game_id: int, colour: str) -> PlayerRow | None:
        row = await self._one("SELECT * FROM players WHERE game_id = ? AND lower(colour) = ?",
                              (game_id, fold_case(colour)))
        return None if row is None else _player(row)

    async def players(self, game_id: int, *, include_kicked: bool = False) -> list[PlayerRow]:
        """The game's players by name, in code-point order (sorted here, not by the database's collation:
        posts list them, and they must list them alike on every back end)."""
        sql = "SELECT * " + (_ALL_PLAYERS if include_kicked else _JOINED_PLAYERS)
        return sorted((_player(row) for row in await self._all(sql, (game_id,))), key=lambda p: (p.name, p.user_id))

    async def player_names(self, game_id: int) -> dict[int, str]:
        """``user id -> name`` of the game's joined players, in the order of :meth:`players`: what an
        update reads of each of them (a 1,000-player game's rows made whole took 4-5 ms of its load)."""
        rows = await self._all("SELECT user_id, name " + _JOINED_PLAYERS, (game_id,))
        return dict(sorted(((row[0], row[1]) for row in rows), key=lambda pair: (pair[1], pair[0])))

    async def joined_since(self, game_id: int, update_no: int) -> list[tuple[str, str]]:
        """``(name, colour)`` by name (code-point order) of the joined players whose ``joined_update`` is
        ``update_no`` or later (read by every order: the players a snapshot of update ``update_no - 1`` may lack)."""
        rows = await self._all("SELECT name, colour FROM players WHERE game_id = ? AND status = 'joined'"
                               " AND joined_update >= ?", (game_id, update_no))
        return sorted((row[0], row[1]) for row in rows)

    async def games_of_user(self, user_id: int) -> list[Game]:
        rows = await self._all("SELECT games.* FROM games JOIN players ON players.game_id = games.id"
                               " WHERE players.user_id = ? AND players.status = 'joined'"
                               " AND games.status IN ('setup', 'running', 'paused') ORDER BY games.id", (user_id,))
        return [_game(row) for row in rows]

    async def set_dm_reminder(self, game_id: int, user_id: int, wanted: bool) -> None:
        await self._write("UPDATE players SET dm_reminder = ? WHERE game_id = ? AND user_id = ?",
                          (int(wanted), game_id, user_id))

    async def set_player_status(self, game_id: int, user_id: int, status: str, departure: str | None = None) -> None:
        """``status`` 'joined' (``departure`` cleared) or 'kicked' with why (kicked, left, replaced)."""
        await self._write("UPDATE players SET status = ?, departure = ? WHERE game_id = ? AND user_id = ?",
                          (status, departure, game_id, user_id))

    async def delete_player(self, game_id: int, user_id: int) -> None:
        """Forget a player who never played (a seat left before the start: no order refers to it)."""
        await self._write("DELETE FROM players WHERE game_id = ? AND user_id = ?", (game_id, user_id))

    # ------------------------------------------------------------------ orders
    async def insert_order(self, *, game_id: int, update_no: int, user_id: int, text: str, canonical: str | None,
                           source: str, submitted_at: datetime, status: str = "pending") -> int:
        return await self._insert(
            "INSERT INTO orders (game_id, update_no, user_id, text, canonical, source, submitted_at, status)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (game_id, update_no, user_id, text, canonical, source, to_text(submitted_at), status))

    async def live_order(self, game_id: int, update_no: int, user_id: int) -> OrderRow | None:
        row = await self._one("SELECT * FROM orders WHERE game_id = ? AND update_no = ? AND user_id = ?"
                              " AND status IN ('pending', 'locked')", (game_id, update_no, user_id))
        return None if row is None else _order(row)

    async def live_orders(self, game_id: int, update_no: int) -> list[OrderRow]:
        rows = await self._all("SELECT * " + _LIVE_ORDERS, (game_id, update_no))
        return [_order(row) for row in rows]

    async def live_canonical(self, game_id: int, update_no: int) -> list[tuple[int, str | None]]:
        """``(user id, canonical form)`` of the live orders of :meth:`live_orders`, in their order: what
        the engine is given of them (the 1,000 orders' rows made whole took 3-4 ms of an update's load)."""
        rows = await self._all("SELECT user_id, canonical " + _LIVE_ORDERS, (game_id, update_no))
        return [(row[0], row[1]) for row in rows]

    async def orders(self, game_id: int, update_no: int | None = None) -> list[OrderRow]:
        if update_no is None:
            rows = await self._all("SELECT * FROM orders WHERE game_id = ? ORDER BY id", (game_id,))
        else:
            rows = await self._all("SELECT * FROM orders WHERE game_id = ? AND update_no = ? ORDER BY id",
                                   (game_id, update_no))
        return [_order(row) for row in rows]

    async def orders_of(self, game_id: int, user_id: int, limit: int = 20) -> list[OrderRow]:
        """A player's latest orders in the game (every status), newest first."""
        rows = await self._all("SELECT * FROM orders WHERE game_id = ? AND user_id = ? ORDER BY id DESC LIMIT ?",
                               (game_id, user_id, limit))
        return [_order(row) for row in rows]

    async def players_among(self, game_id: int, user_ids: Iterable[int]) -> dict[int, PlayerRow]:
        """The rows of those of ``user_ids`` who have one in the game (any status), by user id."""
        found = {}
        for chunk in _chunks(list(user_ids)):
            rows = await self._all(f"SELECT * FROM players WHERE game_id = ? AND user_id IN ({', '.join('?' * len(chunk))})",
                                   (game_id, *chunk))
            found.update((row["user_id"], _player(row)) for row in rows)
        return found

    async def live_orders_among(self, game_id: int, update_no: int, user_ids: Iterable[int]) -> dict[int, OrderRow]:
        """The live (pending or locked) order of each of ``user_ids`` who has one, by user id."""
        found = {}
        for chunk in _chunks(list(user_ids)):
            rows = await self._all("SELECT * FROM orders WHERE game_id = ? AND update_no = ? AND status IN"
                                   f" ('pending', 'locked') AND user_id IN ({', '.join('?' * len(chunk))})",
                                   (game_id, update_no, *chunk))
            found.update((row["user_id"], _order(row)) for row in rows)
        return found

    async def insert_orders(self, *, game_id: int, update_no: int, submitted_at: datetime, superseded: Iterable[int],
                            orders: Iterable[tuple[int, str, str | None, str, str]]) -> None:
        """A group of accepted submissions in one go: the orders ``superseded`` (ids) first, then
        ``(user_id, text, canonical, source, status)`` each, in the order given (so their ids
        keep the order of submission)."""
        if self.read_only:
            raise RuntimeError("a write inside a read-only snapshot")
        await self._db.executemany("UPDATE orders SET status = 'superseded' WHERE id = ?",
                                   [(order_id,) for order_id in superseded])
        submitted = to_text(submitted_at)
        await self._db.executemany(
            "INSERT INTO orders (game_id, update_no, user_id, text, canonical, source, submitted_at, status)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, update_no, user_id, text, canonical, source, submitted, status)
             for user_id, text, canonical, source, status in orders])

    async def settle_orders(self, game_id: int, update_no: int, refused: dict[int, str]) -> None:
        """The live orders of a resolved update: those of ``refused`` (user id -> the engine's
        reason) refused, every other one resolved; two statements, however many players."""
        if self.read_only:
            raise RuntimeError("a write inside a read-only snapshot")
        await self._db.executemany("UPDATE orders SET status = 'refused', refusal = ? WHERE game_id = ?"
                                   " AND update_no = ? AND user_id = ? AND status IN ('pending', 'locked')",
                                   [(reason, game_id, update_no, user_id) for user_id, reason in refused.items()])
        await self._write("UPDATE orders SET status = 'resolved', refusal = NULL WHERE game_id = ? AND update_no = ?"
                          " AND status IN ('pending', 'locked')", (game_id, update_no))

    async def set_order_status(self, order_id: int, status: str, refusal: str | None = None) -> None:
        await self._write("UPDATE orders SET status = ?, refusal = ? WHERE id = ?", (status, refusal, order_id))

    async def move_orders(self, game_id: int, update_no: int, from_status: str, to_status: str) -> int:
        return await self._write("UPDATE orders SET status = ? WHERE game_id = ? AND update_no = ? AND status = ?",
                                 (to_status, game_id, update_no, from_status))

    # ------------------------------------------------------------------ snapshots
    async def insert_snapshot(self, *, game_id: int, update_no: int, revision: int, base_revision: int | None,
                              state: str, orders: dict[str, str], seed: str, report: dict | str | None, reason: str,
                              created_at: datetime, joiners: list[tuple[str, str]] = ()) -> None:
        """``report``: the engine's report as JSON, already encoded (a large one is encoded off the
        event loop) or as the dict to encode."""
        if isinstance(report, dict):
            report = json.dumps(report, sort_keys=True)
        await self._write(
            "INSERT INTO snapshots (game_id, update_no, revision, base_revision, state, orders, joiners, seed, report,"
            " reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, update_no, revision, base_revision, state, json.dumps(orders, sort_keys=True),
             json.dumps([list(j) for j in joiners]), seed, report, reason, to_text(created_at)))

    async def snapshot(self, game_id: int, update_no: int, revision: int) -> Snapshot | None:
        row = await self._one("SELECT * FROM snapshots WHERE game_id = ? AND update_no = ? AND revision = ?",
                              (game_id, update_no, revision))
        return None if row is None else _snapshot(row)

    async def snapshot_state(self, game_id: int, update_no: int, revision: int) -> str | None:
        """Only the stored state of a snapshot (JSON text), without its report and orders."""
        row = await self._one("SELECT state FROM snapshots WHERE game_id = ? AND update_no = ? AND revision = ?",
                              (game_id, update_no, revision))
        return None if row is None else row[0]

    async def current_revision(self, game_id: int, update_no: int) -> Snapshot | None:
        """The last revision of ``update_no`` that no rollback undid."""
        row = await self._one("SELECT * FROM snapshots WHERE game_id = ? AND update_no = ? AND rolled_back = 0"
                              " ORDER BY revision DESC LIMIT 1", (game_id, update_no))
        return None if row is None else _snapshot(row)

    async def resolved_revision(self, game_id: int, update_no: int) -> Snapshot | None:
        """The revision the engine produced when it last resolved ``update_no`` (not rolled back)."""
        row = await self._one("SELECT * FROM snapshots WHERE game_id = ? AND update_no = ? AND rolled_back = 0"
                              " AND reason = 'update' ORDER BY revision DESC LIMIT 1", (game_id, update_no))
        return None if row is None else _snapshot(row)

    async def revision_before(self, game_id: int, update_no: int, revision: int) -> Snapshot | None:
        """The last revision of ``update_no`` before ``revision`` that no rollback undid: the
        position a moderator edit stored as ``revision`` was made from."""
        row = await self._one("SELECT * FROM snapshots WHERE game_id = ? AND update_no = ? AND revision < ?"
                              " AND rolled_back = 0 ORDER BY revision DESC LIMIT 1", (game_id, update_no, revision))
        return None if row is None else _snapshot(row)

    async def next_revision(self, game_id: int, update_no: int) -> int:
        row = await self._one("SELECT COALESCE(MAX(revision) + 1, 0) FROM snapshots WHERE game_id = ? AND update_no = ?",
                              (game_id, update_no))
        return row[0]

    async def snapshots(self, game_id: int, *, include_rolled_back: bool = False) -> list[Snapshot]:
        sql = "SELECT * FROM snapshots WHERE game_id = ?" + ("" if include_rolled_back else " AND rolled_back = 0")
        return [_snapshot(row) for row in await self._all(sql + " ORDER BY update_no, revision", (game_id,))]

    async def snapshot_count(self, game_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM snapshots WHERE game_id = ?", (game_id,))
        return row[0]

    async def roll_back_after(self, game_id: int, update_no: int) -> int:
        return await self._write("UPDATE snapshots SET rolled_back = 1 WHERE game_id = ? AND update_no > ?"
                                 " AND rolled_back = 0", (game_id, update_no))

    # ------------------------------------------------------------------ outbox
    async def insert_post(self, *, game_id: int, update_no: int, kind: str, created_at: datetime, body: str = "",
                          recipient: int | None = None, attachment: bytes | None = None,
                          filename: str | None = None) -> int:
        """One post; its id. Its number (``post_no``) is the game's next (:meth:`_post_numbers`)."""
        number = await self._post_numbers(game_id, 1)
        return await self._insert(
            "INSERT INTO outbox (game_id, update_no, kind, recipient, body, attachment, filename, created_at, post_no)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (game_id, update_no, kind, recipient, body, attachment, filename, to_text(created_at), number))

    async def _post_numbers(self, game_id: int, count: int) -> int:
        """Take ``count`` post numbers of the game (its row's ``post_count``); the first of them.
        In the transaction that writes the posts: a rolled-back or killed one takes none, so the
        numbers, unlike the database's ids, have no gaps and come out alike on every back end."""
        if self.read_only:
            raise RuntimeError("a write inside a read-only snapshot")
        row = await self._one("UPDATE games SET post_count = post_count + ? WHERE id = ? RETURNING post_count",
                              (count, game_id))
        if row is None:
            raise LookupError(f"no game {game_id} to number its posts")
        return row[0] - count + 1

    async def insert_posts(self, *, game_id: int, created_at: datetime,
                           posts: Iterable[tuple[int, str, str, bytes | None, str | None, int | None]]) -> None:
        """Many posts of one game at once, in order: ``(update_no, kind, body, attachment, filename,
        recipient)`` each (an update's posts: one statement for a thousand private reports)."""
        if self.read_only:
            raise RuntimeError("a write inside a read-only snapshot")
        posts = list(posts)
        if not posts:
            return
        created = to_text(created_at)
        first = await self._post_numbers(game_id, len(posts))
        await self._db.executemany(
            "INSERT INTO outbox (game_id, update_no, kind, recipient, body, attachment, filename, created_at, post_no)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, update_no, kind, recipient, body, attachment, filename, created, first + index)
             for index, (update_no, kind, body, attachment, filename, recipient) in enumerate(posts)])

    async def due_posts(self, now: datetime, limit: int = 50, owned: Shards | None = None,
                        sender: str | None = None) -> list[Post]:
        """Unsent posts due now, in id order. A parked post is never due (a moderator asks for it
        again). A post waits behind an earlier unsent one to the same place (the game's channel, or
        the same player, or the game's team threads) that failed and waits for its retry, so each
        place reads its posts in order; posts to other places go on (a team thread the bot may not
        manage yet holds up no board). ``owned``: only posts of games of the servers these shards hold;
        ``sender``: only posts of games whose posts that service sends (``games.posting_by``)."""
        condition, values = _owned(owned)
        mine = f" AND post.game_id IN (SELECT id FROM games WHERE {condition})" if condition else ""
        if sender is not None:
            mine += " AND EXISTS (SELECT 1 FROM games WHERE games.id = post.game_id AND games.posting_by = ?)"
            values = [*values, sender]
        rows = await self._all("SELECT * FROM outbox AS post WHERE sent_at IS NULL AND state <> 'parked'" + mine +
                               " AND (next_attempt_at IS NULL OR next_attempt_at <= ?)"
                               " AND NOT EXISTS (SELECT 1 FROM outbox AS earlier WHERE earlier.sent_at IS NULL"
                               " AND earlier.state <> 'parked' AND earlier.game_id = post.game_id"
                               " AND earlier.id < post.id AND earlier.next_attempt_at > ?"
                               " AND (earlier.recipient = post.recipient"
                               " OR (earlier.recipient IS NULL AND post.recipient IS NULL))"
                               " AND (earlier.kind = 'team_threads') = (post.kind = 'team_threads'))"
                               " ORDER BY id LIMIT ?",
                               (*values, to_text(now), to_text(now), limit))
        return [_post(row) for row in rows]

    async def unsent_count(self) -> int:
        row = await self._one("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL")
        return row[0]

    async def next_retry_at(self, owned: Shards | None = None, sender: str | None = None) -> datetime | None:
        """The earliest retry of an unsent post (``owned``: of those games; ``sender``: of the games
        whose posts that service sends, or nobody does yet)."""
        condition, values = _owned(owned)
        mine = f" AND game_id IN (SELECT id FROM games WHERE {condition})" if condition else ""
        if sender is not None:
            mine += " AND game_id IN (SELECT id FROM games WHERE posting_by = ? OR posting_by IS NULL)"
            values = [*values, sender]
        row = await self._one("SELECT MIN(next_attempt_at) FROM outbox WHERE sent_at IS NULL AND state <> 'parked'"
                              + mine, values)
        return to_time(row[0])

    async def mark_sent(self, post_id: int, at: datetime, message_id: str | None, *,
                        sender: str | None = None) -> bool:
        """True the first time only: a post is marked sent exactly once (its successful attempt counted).
        ``sender``: only while that service sends the game's posts (the relay's fence)."""
        fence, values = _sender_fence(sender)
        changed = await self._write("UPDATE outbox SET sent_at = ?, message_id = ?, attempts = attempts + 1,"
                                    " state = 'sent' WHERE id = ? AND sent_at IS NULL" + fence,
                                    (to_text(at), message_id, post_id, *values))
        return changed == 1

    async def mark_failed(self, post_id: int, error: str, retry_at: datetime, *, state: str = "pending",
                          sender: str | None = None) -> bool:
        """One failed attempt: retried at ``retry_at``; ``state`` 'pending' or 'waiting'. False if
        the post was sent, or (``sender``) that service no longer sends the game's posts."""
        fence, values = _sender_fence(sender)
        changed = await self._write("UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?,"
                                    " state = ? WHERE id = ? AND sent_at IS NULL" + fence,
                                    (error[:500], to_text(retry_at), state, post_id, *values))
        return changed == 1

    async def park_post(self, post_id: int, reason: str, *, sender: str | None = None) -> bool:
        """One failed attempt that will not pass by itself: the post waits for a moderator. False as
        :meth:`mark_failed`."""
        fence, values = _sender_fence(sender)
        changed = await self._write("UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = NULL,"
                                    " state = 'parked' WHERE id = ? AND sent_at IS NULL" + fence,
                                    (reason[:500], post_id, *values))
        return changed == 1

    # ------------------------------------------------------------------ who sends a game's posts
    async def take_posting(self, sender: str, alive_since: datetime, owned: Shards | None = None) -> list[int]:
        """``sender`` takes the sending of the posts of every game (``owned``: of those servers) that
        has posts to send (unsent, not parked) and whose sending is free: nobody's yet, or its
        holder dead (:func:`_holder_dead`, the update claims' test). One statement, so of two
        services trying at once one takes it; a live holder's is never taken over. Returns the
        games taken, by id."""
        condition, values = _owned(owned)
        rows = await self._rows_written(
            "UPDATE games SET posting_by = ? WHERE id IN (SELECT game_id FROM outbox WHERE sent_at IS NULL"
            " AND state <> 'parked')" + (f" AND {condition}" if condition else "") +
            " AND (posting_by IS NULL OR (posting_by <> ? AND " + _holder_dead("posting_by") + "))"
            " RETURNING id", (sender, *values, sender, to_millis(alive_since)))
        return sorted(row[0] for row in rows)

    async def posting_holders(self, sender: str, owned: Shards | None = None) -> list[tuple]:
        """The games (``owned``: of those servers) with posts to send whose sending another service
        than ``sender`` holds: ``(game id, holder, host, pid, last heartbeat)`` by game id (host, pid
        and heartbeat None for a holder without a row in ``services``)."""
        condition, values = _owned(owned)
        rows = await self._all(
            "SELECT games.id, games.posting_by, services.host, services.pid, services.heartbeat_at FROM games"
            " LEFT JOIN services ON services.identity = games.posting_by"
            " WHERE games.id IN (SELECT game_id FROM outbox WHERE sent_at IS NULL AND state <> 'parked')"
            " AND games.posting_by IS NOT NULL AND games.posting_by <> ?" + (f" AND {condition}" if condition else "")
            + " ORDER BY games.id", (sender, *values))
        return [(row[0], row[1], row[2], row[3], None if row[4] is None else from_millis(row[4])) for row in rows]

    async def waiting_post_count(self, game_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM outbox WHERE game_id = ? AND sent_at IS NULL AND state = 'waiting'",
                              (game_id,))
        return row[0]

    async def troubled_posts(self, game_id: int, limit: int = 50) -> list[Post]:
        """The game's unsent posts that have failed at least once (parked, waiting or retrying), by id."""
        rows = await self._all("SELECT * FROM outbox WHERE game_id = ? AND sent_at IS NULL"
                               " AND (state <> 'pending' OR attempts > 0) ORDER BY id LIMIT ?", (game_id, limit))
        return [_post(row) for row in rows]

    async def release_posts(self, game_id: int, post_ids: list[int]) -> None:
        """Parked or waiting posts of the game to be tried again now."""
        for post_id in post_ids:
            await self._write("UPDATE outbox SET state = 'pending', next_attempt_at = NULL WHERE id = ? AND game_id = ?"
                              " AND sent_at IS NULL AND state IN ('parked', 'waiting')", (post_id, game_id))

    async def posts(self, game_id: int) -> list[Post]:
        return [_post(row) for row in await self._all("SELECT * FROM outbox WHERE game_id = ? ORDER BY id", (game_id,))]

    # ------------------------------------------------------------------ timelapse
    async def snapshot_keys(self, game_id: int) -> list[tuple[int, int]]:
        """``(update_no, revision)`` of the current revision of every update (the last one not
        rolled back), in update order: the positions a timelapse shows."""
        rows = await self._all("SELECT update_no, MAX(revision) FROM snapshots WHERE game_id = ? AND rolled_back = 0"
                               " GROUP BY update_no ORDER BY update_no", (game_id,))
        return [(row[0], row[1]) for row in rows]

    async def frame_facts(self, game_id: int) -> dict[tuple[int, int], tuple]:
        """``(update_no, revision) -> (label, extent, bounds, region)`` of the game's stored frames
        (JSON decoded; not the picture)."""
        rows = await self._all("SELECT update_no, revision, label, extent, bounds, region FROM timelapse_frames"
                               " WHERE game_id = ?", (game_id,))
        return {(r[0], r[1]): (r[2], *(None if v is None else json.loads(v) for v in (r[3], r[4], r[5])))
                for r in rows}

    async def frame_png(self, game_id: int, update_no: int, revision: int) -> bytes | None:
        row = await self._one("SELECT png FROM timelapse_frames WHERE game_id = ? AND update_no = ? AND revision = ?",
                              (game_id, update_no, revision))
        return None if row is None else row[0]

    async def insert_frame(self, *, game_id: int, update_no: int, revision: int, label: str, extent, bounds,
                           region, png: bytes) -> None:
        await self._write("INSERT INTO timelapse_frames (game_id, update_no, revision, label, extent, bounds, region,"
                          " png) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, update_no, revision) DO UPDATE"
                          " SET label = excluded.label, extent = excluded.extent, bounds = excluded.bounds,"
                          " region = excluded.region, png = excluded.png",
                          (game_id, update_no, revision, label, *(None if v is None else json.dumps(v)
                                                                  for v in (extent, bounds, region)), png))

    async def owe_timelapse(self, game_id: int, update_no: int, at: datetime) -> None:
        await self._write("INSERT INTO timelapses (game_id, update_no, owed_since) VALUES (?, ?, ?)"
                          " ON CONFLICT (game_id) DO NOTHING",
                          (game_id, update_no, to_text(at)))

    async def owed_timelapse(self, game_id: int) -> int | None:
        """The update the game's owed timelapse belongs to; None if it owes none (or it is made)."""
        row = await self._one("SELECT update_no FROM timelapses WHERE game_id = ? AND post_id IS NULL", (game_id,))
        return None if row is None else row[0]

    async def games_owing_timelapses(self, owned: Shards | None = None) -> list[int]:
        condition, values = _owned(owned)
        mine = f" AND game_id IN (SELECT id FROM games WHERE {condition})" if condition else ""
        return [row[0] for row in await self._all("SELECT game_id FROM timelapses WHERE post_id IS NULL" + mine
                                                  + " ORDER BY game_id", values)]

    async def timelapse_made(self, game_id: int, post_id: int | None) -> bool:
        """Mark the owed timelapse made (``post_id``: its outbox row; 0 when there was nothing to
        show). True the first time only."""
        changed = await self._write("UPDATE timelapses SET post_id = ? WHERE game_id = ? AND post_id IS NULL",
                                    (post_id, game_id))
        return changed == 1

    # ------------------------------------------------------------------ team threads
    async def team_members(self, game_id: int) -> dict[int, str]:
        """The roster the team threads were last asked to have: user id -> team."""
        rows = await self._all("SELECT user_id, team FROM team_members WHERE game_id = ? ORDER BY user_id", (game_id,))
        return {row[0]: row[1] for row in rows}

    async def set_team_members(self, game_id: int, roster: dict[int, str]) -> None:
        """Replace the game's roster with ``roster`` (user id -> team)."""
        await self._write("DELETE FROM team_members WHERE game_id = ?", (game_id,))
        for user_id, team in sorted(roster.items()):
            await self._write("INSERT INTO team_members (game_id, user_id, team) VALUES (?, ?, ?)",
                              (game_id, user_id, team))

    async def team_threads(self, game_id: int) -> dict[str, int | None]:
        """Each team of the game that has had players, by name (code-point order): its thread's id (None:
        not made yet)."""
        rows = await self._all("SELECT team, thread_id FROM team_threads WHERE game_id = ?", (game_id,))
        return {row[0]: row[1] for row in sorted(rows, key=lambda row: row[0])}

    async def note_team(self, game_id: int, team: str) -> None:
        """Remember that ``team`` has had players (its thread, if any, is kept)."""
        await self._write("INSERT INTO team_threads (game_id, team) VALUES (?, ?) ON CONFLICT (game_id, team) DO NOTHING",
                          (game_id, team))

    async def keep_team_thread(self, game_id: int, team: str, thread_id: int) -> None:
        await self._write("INSERT INTO team_threads (game_id, team, thread_id) VALUES (?, ?, ?)"
                          " ON CONFLICT (game_id, team) DO UPDATE SET thread_id = excluded.thread_id",
                          (game_id, team, thread_id))

    # ------------------------------------------------------------------ players' private web links
    async def web_secret(self, made: str) -> str:
        """The store's secret for players' links: ``made`` kept if there is none yet, else the one
        kept (whichever process came first: every process on the store signs alike)."""
        await self._write("INSERT INTO web_secret (name, secret) VALUES ('links', ?) ON CONFLICT (name) DO NOTHING",
                          (made,))
        return (await self._one("SELECT secret FROM web_secret WHERE name = 'links'"))[0]

    async def link_generation(self, game_id: int) -> int:
        """The game's link generation (0 until a moderator first revokes its links)."""
        row = await self._one("SELECT generation FROM web_links WHERE game_id = ?", (game_id,))
        return 0 if row is None else row[0]

    async def next_link_generation(self, game_id: int) -> int:
        """Count the game's link generation up (every link made before is dead); the new one."""
        await self._write("INSERT INTO web_links (game_id, generation) VALUES (?, 1) ON CONFLICT (game_id)"
                          " DO UPDATE SET generation = web_links.generation + 1", (game_id,))
        return await self.link_generation(game_id)

    # ------------------------------------------------------------------ audit
    async def audit(self, *, game_id: int, actor: int, action: str, detail: dict, at: datetime) -> None:
        await self._write("INSERT INTO audit (game_id, actor, action, detail, at) VALUES (?, ?, ?, ?, ?)",
                          (game_id, actor, action, json.dumps(detail, sort_keys=True, default=str), to_text(at)))

    async def audit_entries(self, game_id: int, *, action: str | None = None) -> list[AuditEntry]:
        if action is None:
            rows = await self._all("SELECT * FROM audit WHERE game_id = ? ORDER BY id", (game_id,))
        else:
            rows = await self._all("SELECT * FROM audit WHERE game_id = ? AND action = ? ORDER BY id", (game_id, action))
        return [_audit(r) for r in rows]

    async def audit_page(self, game_id: int, *, limit: int, offset: int) -> tuple[list[AuditEntry], int]:
        """``limit`` entries of the game's audit log, newest first, after skipping ``offset``; and
        how many entries there are in all."""
        total = (await self._one("SELECT COUNT(*) FROM audit WHERE game_id = ?", (game_id,)))[0]
        rows = await self._all("SELECT * FROM audit WHERE game_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
                               (game_id, limit, offset))
        return [_audit(r) for r in rows], total


    # ------------------------------------------------------------------ careers (issue 42)
    async def game_results(self, guild_id: int | None = None) -> list[GameResult]:
        """The results kept for ended games (a cache: see bot/service/careers.py), of one server or
        of every one, in the order ratings take them: by the time the game ended, then its id."""
        sql = "SELECT * FROM game_results"
        params: tuple = ()
        if guild_id is not None:
            sql += " WHERE guild_id = ?"
            params = (guild_id,)
        return [_result(row) for row in await self._all(sql + " ORDER BY ended_at, game_id", params)]

    async def keep_game_result(self, result: GameResult) -> None:
        places = json.dumps([list(place) for place in result.places])
        await self._write(
            "INSERT INTO game_results (game_id, snapshot_update, snapshot_revision, guild_id, family, rated, ended_at,"
            " places) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
            " snapshot_update = excluded.snapshot_update, snapshot_revision = excluded.snapshot_revision,"
            " guild_id = excluded.guild_id, family = excluded.family, rated = excluded.rated,"
            " ended_at = excluded.ended_at, places = excluded.places",
            (result.game_id, result.snapshot_update, result.snapshot_revision, result.guild_id, result.family,
             int(result.rated), to_text(result.ended_at), places))

    async def forget_game_result(self, game_id: int) -> None:
        await self._write("DELETE FROM game_results WHERE game_id = ?", (game_id,))

    async def rated_families(self, guild_id: int) -> list[str]:
        """The game families of the server's kept results that rated someone, by name."""
        rows = await self._all("SELECT DISTINCT family FROM game_results WHERE guild_id = ? AND rated = 1"
                               " ORDER BY family", (guild_id,))
        return [row[0] for row in rows]

    async def resolved_order_counts(self, game_id: int) -> dict[int, int]:
        """How many orders each member of the game sent that an update resolved, by user id."""
        rows = await self._all("SELECT user_id, COUNT(*) FROM orders WHERE game_id = ? AND status = 'resolved'"
                               " GROUP BY user_id", (game_id,))
        return {row[0]: row[1] for row in rows}

    async def games_played_by(self, user_id: int, guild_id: int, limit: int = 10) -> list[Game]:
        """The games of one server the member played or plays (any seat they held), newest first."""
        rows = await self._all("SELECT DISTINCT games.* FROM games JOIN players ON players.game_id = games.id"
                               " WHERE players.user_id = ? AND games.guild_id = ? ORDER BY games.id DESC LIMIT ?",
                               (user_id, guild_id, limit))
        return [_game(row) for row in rows]

    async def resolved_keys(self, game_id: int) -> list[tuple[int, int]]:
        """``(update_no, revision)`` of the revision the engine last resolved of every update (not
        rolled back), in update order: the stored updates a career is counted from."""
        rows = await self._all("SELECT update_no, MAX(revision) FROM snapshots WHERE game_id = ? AND rolled_back = 0"
                               " AND reason = 'update' GROUP BY update_no ORDER BY update_no", (game_id,))
        return [(row[0], row[1]) for row in rows]

    async def member_names(self, guild_id: int) -> dict[int, str]:
        """Each member's name in the last game of the server they took a seat in (the newest row)."""
        rows = await self._all("SELECT players.user_id, players.name FROM players"
                               " JOIN games ON games.id = players.game_id"
                               " WHERE games.guild_id = ? ORDER BY games.id, players.joined_at", (guild_id,))
        return {row[0]: row[1] for row in rows}

    async def hidden_members(self, guild_id: int) -> set[int]:
        """The members of a server who keep off its leaderboards."""
        rows = await self._all("SELECT user_id FROM profiles WHERE guild_id = ? AND hidden = 1", (guild_id,))
        return {row[0] for row in rows}

    async def set_hidden(self, guild_id: int, user_id: int, hidden: bool) -> None:
        await self._write("INSERT INTO profiles (guild_id, user_id, hidden) VALUES (?, ?, ?)"
                          " ON CONFLICT (guild_id, user_id) DO UPDATE SET hidden = excluded.hidden",
                          (guild_id, user_id, int(hidden)))


def _result(row) -> GameResult:
    return GameResult(game_id=row["game_id"], snapshot_update=row["snapshot_update"],
                      snapshot_revision=row["snapshot_revision"], guild_id=row["guild_id"], family=row["family"],
                      rated=bool(row["rated"]), ended_at=to_time(row["ended_at"]),
                      places=tuple((str(seat), int(user), int(place), float(weight))
                                   for seat, user, place, weight in json.loads(row["places"])))


def _audit(row) -> AuditEntry:
    return AuditEntry(id=row["id"], game_id=row["game_id"], actor=row["actor"], action=row["action"],
                      detail=json.loads(row["detail"]), at=to_time(row["at"]))
