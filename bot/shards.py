"""Which games a bot process owns when several processes share Discord's shards (issue 26).

Discord splits a bot's servers (guilds) into ``shard_count`` shards by its own rule,
``(guild_id >> 22) % shard_count``, and each gateway connection (a *shard*) receives the events of
its servers only; direct messages arrive on shard 0 alone. A process started with
``python -m bot run --shards A-B --shard-count N`` runs shards ``A..B`` of ``N``
(:class:`Shards`), and a game belongs to the process whose shards hold the game's server: only
that process schedules, locks, resolves and posts it (docs/sharding.md).

:class:`Shards` is a plain value (no Discord import): the store filters its queries with it
(the same rule in SQL, bot/store/queries.py), the service and the scheduler ask :meth:`Shards.owns`. ``Shards.whole()``,
one shard of one, owns every game: a process started without ``--shards``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Shards", "ShardError", "shard_of", "parse_shards"]

#: the snowflake bits below the timestamp: Discord's shard rule shifts them away
SNOWFLAKE_LOW_BITS = 22


class ShardError(ValueError):
    """A shard range that cannot be: the message says what is wrong and what is expected."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives the events of the server ``guild_id`` (Discord's rule)."""
    return (guild_id >> SNOWFLAKE_LOW_BITS) % shard_count


@dataclass(frozen=True, slots=True)
class Shards:
    """Shards ``ids`` of ``count``: the part of Discord one process runs. ``ids`` are sorted,
    distinct, each in ``0..count-1``."""

    ids: tuple[int, ...]
    count: int

    def __post_init__(self) -> None:
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise ShardError(f"the shard count must be 1 or more, not {self.count!r}")
        if not self.ids:
            raise ShardError("a process runs at least one shard")
        for shard in self.ids:
            if isinstance(shard, bool) or not isinstance(shard, int) or not 0 <= shard < self.count:
                raise ShardError(f"shard {shard!r} does not exist: with {self.count} shard"
                                 f"{'s' if self.count != 1 else ''} they are numbered 0 to {self.count - 1}")
        if list(self.ids) != sorted(set(self.ids)):
            raise ShardError(f"shard ids must be distinct and in order, not {list(self.ids)}")

    @classmethod
    def whole(cls) -> "Shards":
        """One shard of one: every server, every game (a process started without ``--shards``)."""
        return cls((0,), 1)

    @classmethod
    def span(cls, first: int, last: int, count: int) -> "Shards":
        """Shards ``first..last`` (both included) of ``count``."""
        if last < first:
            raise ShardError(f"the shard range {first}-{last} ends before it starts: write the lower shard first")
        return cls(tuple(range(first, last + 1)), count)

    @property
    def everything(self) -> bool:
        """True when these shards are all there are: every game is owned, nothing to filter."""
        return len(self.ids) == self.count

    @property
    def direct_messages(self) -> bool:
        """True when this process receives direct messages (Discord sends them to shard 0 only)."""
        return 0 in self.ids

    def shard_of(self, guild_id: int) -> int:
        return shard_of(guild_id, self.count)

    def owns(self, guild_id: int) -> bool:
        """Whether the server ``guild_id``, and so every game in it, belongs to these shards."""
        return self.everything or self.shard_of(guild_id) in self.ids

    def text(self) -> str:
        """``shards 0-3 of 8``, ``shard 3 of 8``, ``shards 1, 5 of 8``, or ``all servers``."""
        if self.everything and self.count == 1:
            return "all servers"
        if len(self.ids) == 1:
            return f"shard {self.ids[0]} of {self.count}"
        if list(self.ids) == list(range(self.ids[0], self.ids[-1] + 1)):
            return f"shards {self.ids[0]}-{self.ids[-1]} of {self.count}"
        return f"shards {', '.join(map(str, self.ids))} of {self.count}"


def _shard_number(text: str, what: str) -> int:
    cleaned = text.strip()
    if not cleaned.isdigit() or not cleaned.isascii():
        raise ShardError(f"{what} must be a whole number 0 or more, not {text!r}")
    return int(cleaned)


def parse_shards(shards: str | None, count: int | None) -> Shards:
    """The shards of ``--shards A-B`` (or ``--shards A``) and ``--shard-count N``. Neither given:
    :meth:`Shards.whole`. ``--shards`` without ``--shard-count``, a count below 1, a range that ends
    before it starts or runs past the count, and anything that is not a number are refused with a
    :class:`ShardError` saying what to write instead."""
    if shards is None and count is None:
        return Shards.whole()
    if count is None:
        raise ShardError("--shards needs --shard-count: how many shards the bot has in all, over every "
                         "process (e.g. --shards 0-3 --shard-count 8)")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ShardError(f"--shard-count must be 1 or more, not {count!r}")
    if shards is None:
        raise ShardError(f"--shard-count needs --shards: which of the {count} shards this process runs "
                         f"(e.g. --shards 0-{count - 1} for all of them)")
    if "," in shards:
        raise ShardError(f"--shards takes one shard or a range A-B, not a list: {shards!r}")
    first_text, dash, last_text = shards.partition("-")
    first = _shard_number(first_text, "--shards")
    last = _shard_number(last_text, "--shards") if dash else first
    if last < first:
        raise ShardError(f"--shards {shards}: the range ends before it starts; write the lower shard first "
                         f"({last}-{first})")
    if last >= count:
        raise ShardError(f"--shards {shards}: with --shard-count {count} the shards are numbered 0 to {count - 1}")
    return Shards.span(first, last, count)
