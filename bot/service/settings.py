"""A game's settings and its schedule: plain values, validated, stored as JSON in the games table.

A schedule says when deadlines fall: ``manual`` (a moderator resolves each update), an interval
(``every 30 minutes``, ``every 2 hours``, ``every 45 seconds``) or a daily time, in UTC (``daily
18:00``) or in a time zone (``daily 18:00 Europe/Paris``: the IANA zone database, Python's
``zoneinfo``, daylight saving time included). The lock falls ``lock_before`` minutes before each
deadline; reminders ``remind_before`` minutes before the lock. Daily times are computed with
APScheduler's cron trigger in the schedule's zone, the same arithmetic the scheduler fires on, and
every deadline is stored in UTC.
"""

from __future__ import annotations

import functools
import re
import zoneinfo
from dataclasses import asdict, dataclass, fields, replace
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from apscheduler.triggers.cron import CronTrigger

from .errors import InvalidInput, shown

if TYPE_CHECKING:
    from bot.engine.ruleset import Ruleset

__all__ = ["GameSettings", "Schedule", "MAX_NAME_LENGTH", "DEFAULT_TURN_HOURS", "turn_schedule"]

MAX_NAME_LENGTH = 32
_SECRET_NOTICE = "{player} has submitted a secret move"


@dataclass(frozen=True, slots=True)
class GameSettings:
    """``length``: updates in the session (None: never-ending); ``secret_notice``: what the channel
    is told of a secret order (``{player}`` is replaced; empty: nothing); ``lock_before`` and
    ``remind_before``: minutes; ``palette``: the board's colours (default or colour-blind);
    ``events_from``: the update of the first event draw, in place of the ruleset's (None: the
    ruleset's own; sandbox's "update 25 patch" is the usual one to move); ``early_resolution``: an
    update resolves as soon as every player who may order has ordered, not only at its deadline
    (None: the ruleset's default, on for arena, off for the others); ``turn_hours``: in a turn-based
    game (territory), how long each turn lasts; it replaces the game's schedule (None: 24 hours)."""

    length: int | None = None
    secret_notice: str = _SECRET_NOTICE
    lock_before: float = 0
    remind_before: float = 60
    palette: str = "default"
    events_from: int | None = None
    early_resolution: bool | None = None
    turn_hours: float | None = None

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> "GameSettings":
        return cls().changed(raw)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def changed(self, values: dict[str, Any]) -> "GameSettings":
        """These settings with ``values`` applied, each checked; an unknown key is refused by name."""
        from bot.render.palette import PALETTES

        known = {f.name for f in fields(self)}
        for key in values:
            if key not in known:
                raise InvalidInput(f"unknown setting {shown(key)}", hint=f"settings are {', '.join(sorted(known))}")
        new = replace(self, **values)
        if new.length is not None and (not isinstance(new.length, int) or isinstance(new.length, bool)
                                       or not 1 <= new.length <= 100_000):
            raise InvalidInput(f"length must be a whole number of updates from 1 to 100,000, not {shown(new.length)}",
                               hint="leave it empty for a never-ending game")
        if not isinstance(new.secret_notice, str) or len(new.secret_notice) > 200:
            raise InvalidInput("secret_notice must be a text of at most 200 characters",
                               hint="write {player} where the player's name goes")
        for name in ("lock_before", "remind_before"):
            value = getattr(new, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 7 * 24 * 60:
                raise InvalidInput(f"{name} must be a number of minutes from 0 to 10,080 (a week), not {shown(value)}")
        if new.events_from is not None and (not isinstance(new.events_from, int) or isinstance(new.events_from, bool)
                                            or not 1 <= new.events_from <= 100_000):
            raise InvalidInput(f"events_from must be an update number from 1 to 100,000, not {shown(new.events_from)}",
                               hint="leave it empty to use the ruleset's own first event update")
        if new.turn_hours is not None and (isinstance(new.turn_hours, bool) or not isinstance(new.turn_hours, (int, float))
                                           or not 0.01 <= new.turn_hours <= 720):
            raise InvalidInput(f"turn_hours must be a number of hours from 0.01 to 720 (30 days), not "
                               f"{shown(new.turn_hours)}", hint="a turn-based game gives each turn this long")
        if new.early_resolution is not None and not isinstance(new.early_resolution, bool):
            raise InvalidInput(f"early_resolution must be true or false, not {shown(new.early_resolution)}",
                               hint="leave it empty to use the ruleset's default")
        if new.palette not in PALETTES:
            raise InvalidInput(f"palette must be one of {', '.join(PALETTES)}, not {shown(new.palette)}")
        return new

    def applied_to(self, ruleset: "Ruleset") -> "Ruleset":
        """``ruleset`` as this game plays it: the same rules, with the game's own first event update.
        The copy has its own ``source`` so that it never passes for the shipped preset."""
        return ruleset.with_events_from(self.events_from)

    def secret_notice_for(self, player: str) -> str:
        return self.secret_notice.replace("{player}", player)


#: A turn-based game's turn when its ``turn_hours`` is not set (RULES 5.4.8).
DEFAULT_TURN_HOURS = 24


def turn_schedule(settings: GameSettings) -> "Schedule":
    """A turn-based game's schedule: each turn ends ``turn_hours`` after it began, or at its player's
    first accepted submission (RULES 5.4.8)."""
    hours = DEFAULT_TURN_HOURS if settings.turn_hours is None else settings.turn_hours
    return Schedule("interval", seconds=max(10, round(hours * 3600)))


# Digits are 0-9, as in orders (P51).
_INTERVAL = re.compile(r"^every\s+([0-9]+)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?)$")
# The words are matched without regard to case, the zone's name as typed (zone names have capitals).
_DAILY = re.compile(r"^(?:daily|every\s+day)(?:\s+at)?\s+([0-9]{1,2}):([0-9]{2})(?:\s*([A-Za-z]\S*))?$",
                    re.IGNORECASE | re.ASCII)
_INTERVAL_LIMIT = 30 * 24 * 3600
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600}
_ZONE_HINT = "write an IANA time zone such as Europe/Paris, America/New_York or Asia/Tokyo, or none for UTC"


@functools.lru_cache(maxsize=1)
def _zone_names() -> dict[str, str]:
    """Every zone of the IANA database by its name without regard to case (``europe/paris`` ->
    ``Europe/Paris``): read once, from the system's zone files or the ``tzdata`` package."""
    return {name.casefold(): name for name in zoneinfo.available_timezones()}


def zone_named(text: str) -> str | None:
    """The IANA zone ``text`` names (case aside), or None for UTC; :class:`InvalidInput` for anything
    else, in words."""
    if text.casefold() == "utc":
        return None
    name = _zone_names().get(text.casefold()) if text.isascii() else None
    if name is None:
        raise InvalidInput(f"unknown time zone {shown(text)}", hint=_ZONE_HINT)
    return name


@dataclass(frozen=True, slots=True)
class Schedule:
    """When the deadlines of a game fall."""

    kind: str = "manual"            # manual | interval | daily
    seconds: int | None = None      # interval
    at: str | None = None           # daily: "HH:MM" in ``zone``
    zone: str | None = None         # daily: an IANA time zone; None: UTC

    @classmethod
    def parse(cls, text: str) -> "Schedule":
        """``manual``, ``every 30 minutes`` (s, m, h units), ``daily 18:00`` or ``every day at 18:00``
        (UTC), ``daily 18:00 Europe/Paris`` (a time zone of the IANA database)."""
        spaced = " ".join(str(text).strip().split())
        words = spaced.lower()
        if words == "manual":
            return cls()
        match = _INTERVAL.match(words)
        if match:
            digits = match.group(1).lstrip("0")
            # Python's int() refuses more than 4,300 digits; no interval needs more than 7.
            seconds = int(digits or "0") * _UNIT_SECONDS[match.group(2)[0]] if len(digits) <= 9 else None
            if seconds is None or not 10 <= seconds <= _INTERVAL_LIMIT:
                raise InvalidInput(f"an interval must be from 10 seconds to 30 days, not {shown(text)}",
                                   hint="write every 30 minutes, every 2 hours, or daily 18:00 (UTC)")
            return cls("interval", seconds=seconds)
        match = _DAILY.match(spaced)
        if match:
            hour, minute = int(match.group(1)), int(match.group(2))
            if hour > 23 or minute > 59:
                raise InvalidInput(f"{shown(text)} is not a time of day", hint="write daily HH:MM, e.g. daily 18:00")
            zone = zone_named(match.group(3)) if match.group(3) else None
            return cls("daily", at=f"{hour:02d}:{minute:02d}", zone=zone)
        raise InvalidInput(f"{shown(text)} is not a schedule",
                           hint="write manual, every 30 minutes, every 2 hours, daily 18:00 (UTC), "
                                "or daily 18:00 Europe/Paris")

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> "Schedule":
        return cls(raw.get("kind", "manual"), raw.get("seconds"), raw.get("at"), raw.get("zone"))

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}

    def describe(self) -> str:
        if self.kind == "interval":
            seconds = self.seconds or 0
            for unit, size in (("hour", 3600), ("minute", 60)):
                if seconds % size == 0:
                    count = seconds // size
                    return f"every {count} {unit}{'s' if count != 1 else ''}"
            return f"every {seconds} seconds"
        if self.kind == "daily":
            return f"every day at {self.at} {self.zone or 'UTC'}"
        return "manual (a moderator resolves each update)"

    def next_deadline(self, after: datetime) -> datetime | None:
        """The first deadline strictly after ``after`` (None for a manual schedule), in UTC. A daily
        time is that time in the schedule's zone: 18:00 Europe/Paris is 17:00 UTC in winter and
        16:00 UTC in summer; a time the clocks skip when they go forward falls an hour later, and
        a time they pass twice when they go back falls the first time."""
        if self.kind == "interval":
            return after + timedelta(seconds=self.seconds)
        if self.kind == "daily":
            hour, minute = (int(part) for part in self.at.split(":"))
            zone = zoneinfo.ZoneInfo(self.zone) if self.zone else timezone.utc
            trigger = CronTrigger(hour=hour, minute=minute, second=0, timezone=zone)
            moment = trigger.get_next_fire_time(None, after + timedelta(microseconds=1))
            return moment.astimezone(timezone.utc)
        return None
