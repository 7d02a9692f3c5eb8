"""Who may use a moderator use case: :class:`Moderator`, and the check each of those use cases makes.

Who moderates is Discord's to say (Manage Server, or the configured moderator role: see
:func:`cogs.moderation.is_moderator`), so the front end that knows the member makes the value:
``Moderator(user_id, guild_id)`` only for a member it has checked moderates that server. The cogs
check first; the service checks again (defence in depth): a moderator use case given anything else
(a bare user id, a moderator of another server) is refused with :class:`~.errors.NotAllowed`, and
nothing changes. The offline demo, the benchmarks and the tests make the value themselves: they
stand for the server's moderator.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import NotAllowed

__all__ = ["Moderator", "require_moderator"]


@dataclass(frozen=True, slots=True)
class Moderator:
    """A user the front end has checked moderates the server ``guild_id`` (Discord: Manage Server
    or the configured moderator role). ``user_id`` is what the audit log records."""

    user_id: int
    guild_id: int


def require_moderator(actor, guild_id: int, action: str) -> int:
    """The audit id of ``actor`` if it moderates the server ``guild_id`` and so may ``action``
    (words after "only a moderator may"); else :class:`~.errors.NotAllowed`."""
    if isinstance(actor, Moderator) and actor.guild_id == guild_id:
        return actor.user_id
    raise NotAllowed(f"only a moderator of this server may {action} (members with Manage Server or the "
                     "server's moderator role); nothing was changed")
