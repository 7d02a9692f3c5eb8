"""Rows of the database as frozen values. Times are aware UTC datetimes; JSON columns are decoded."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

__all__ = ["Game", "PlayerRow", "OrderRow", "Snapshot", "Post", "AuditEntry", "ServiceRow", "GameResult", "to_text",
           "to_time", "to_millis", "from_millis", "GAME_STATUSES", "ORDER_STATUSES", "ORDER_SOURCES",
           "LIVE_ORDER_STATUSES", "POST_STATES"]

GAME_STATUSES = ("setup", "running", "paused", "ended")
ORDER_STATUSES = ("pending", "superseded", "cancelled", "locked", "resolved", "refused")
ORDER_SOURCES = ("channel", "dm", "moderator")
LIVE_ORDER_STATUSES = ("pending", "locked")
POST_STATES = ("pending", "waiting", "parked", "sent")


def to_text(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:
        raise ValueError("times are stored in UTC and must be timezone-aware")
    return moment.astimezone(timezone.utc).isoformat()


def to_time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def to_millis(moment: datetime) -> int:
    """Milliseconds since 1970 UTC: a time both back ends compare as a number (heartbeats)."""
    if moment.tzinfo is None:
        raise ValueError("times are stored in UTC and must be timezone-aware")
    return (moment - _EPOCH) // timedelta(milliseconds=1)


def from_millis(millis: int) -> datetime:
    return _EPOCH + timedelta(milliseconds=millis)


@dataclass(frozen=True, slots=True)
class Game:
    id: int
    name: str
    ruleset: str
    guild_id: int
    channel_id: int
    status: str
    update_no: int                  # the update whose orders are being collected
    snapshot_update: int | None     # the current snapshot
    snapshot_revision: int | None
    seed: str
    settings: dict[str, Any]
    schedule: dict[str, Any]
    locked: bool
    lock_at: datetime | None
    deadline_at: datetime | None
    paused_at: datetime | None
    claimed_by: str | None
    claimed_at: datetime | None
    created_at: datetime
    created_by: int
    reminded_for: datetime | None
    notify_role: int | None = None  # the Discord role pinged for the game's updates (issue 28)


@dataclass(frozen=True, slots=True)
class PlayerRow:
    game_id: int
    user_id: int
    name: str
    colour: str
    status: str                     # joined | kicked
    joined_at: datetime
    joined_update: int
    seat: int | None = None         # the seat taken before the start (arena, territory); None: joined later
    dm_reminder: bool = False       # a direct message reminds them when they have not ordered
    departure: str | None = None    # status 'kicked': why (kicked | left | replaced); None: kicked before it was kept


@dataclass(frozen=True, slots=True)
class OrderRow:
    id: int
    game_id: int
    update_no: int
    user_id: int
    text: str
    canonical: str | None
    source: str
    submitted_at: datetime
    status: str
    refusal: str | None

    @property
    def secret(self) -> bool:
        return self.source == "dm"


@dataclass(frozen=True, slots=True)
class Snapshot:
    game_id: int
    update_no: int
    revision: int
    base_revision: int | None
    state: str                      # serialized engine state (bot.engine.serialize)
    orders: dict[str, str]          # player name -> canonical order, as resolved
    joiners: list[tuple[str, str]]  # (name, colour) of players added to the base state
    seed: str
    report: dict | None             # bot.engine.report JSON
    reason: str
    rolled_back: bool
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Post:
    """One row of the outbox: something to post, in the game's channel or to one player."""

    id: int
    game_id: int
    update_no: int
    kind: str
    recipient: int | None
    body: str
    attachment: bytes | None
    filename: str | None
    created_at: datetime
    attempts: int
    last_error: str | None
    next_attempt_at: datetime | None
    sent_at: datetime | None
    message_id: str | None
    #: 'pending', 'waiting' (on access or on Discord), 'parked' (until a moderator asks) or 'sent'
    state: str = "pending"
    #: the post's number in its game (1, 2, ...; taken from the game's row in the transaction that
    #: wrote it): with the kind, update and recipient, its identity (the database's ``id`` is not:
    #: a sequence skips the values a killed transaction drew)
    post_no: int = 0


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: int
    game_id: int
    actor: int
    action: str
    detail: dict[str, Any]
    at: datetime


@dataclass(frozen=True, slots=True)
class ServiceRow:
    """A running service (issue 26 item 5): its identity (what its claims name), where it runs (for
    people), when it started and its last heartbeat."""

    identity: str
    host: str
    pid: int
    started_at: datetime
    heartbeat_at: datetime


@dataclass(frozen=True, slots=True)
class GameResult:
    """An ended game's result as its final snapshot ``(snapshot_update, snapshot_revision)`` says
    it (issue 42, a cache of what the stored game says): ``rated`` when it ended at its verdict;
    ``places`` ``(seat, user id, place, weight)``: the seat is the player's name in the game (a seat
    handed to a substitute has several members), the place 1 first, equal places tied, the weight the
    member's share of the seat's play; ``ended_at`` the final snapshot's time."""

    game_id: int
    snapshot_update: int
    snapshot_revision: int
    guild_id: int
    family: str
    rated: bool
    ended_at: datetime
    places: tuple[tuple[str, int, int, float], ...]
