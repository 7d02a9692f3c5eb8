"""Opt-in notifications (issue 28): the game's role and the players' direct-message reminders.

Nobody is pinged unless they asked. A front end that can ping (Discord) keeps one role per game:
members who want to hear of the game take it (``/notify``), and the posts that ask for attention,
a new board (an update was posted) and the reminder before the deadline, ping that role and no one
else. The service only remembers which role it is (:meth:`NotificationCases.keep_notification_role`)
and says which posts ping it (:meth:`NotificationCases.ping_role`): creating the role and giving it
to members is the front end's business.

A player may also ask for a reminder by direct message (:meth:`NotificationCases.set_dm_reminder`):
when the reminder goes out (``remind_if_due``), each player who asked, may order now
(``variant.who_may_order``) and has not ordered gets one, in the same transaction.

The stored posts never change for this: the text of a post is the same whoever is pinged, so an
offline session (the demo) posts the same files for a seed. The ping is added when the post is
delivered.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store import Post

from .base import ServiceBase, is_row_number
from .errors import InvalidInput, WrongTime

__all__ = ["NotificationCases", "NotificationPreferences", "PING_KINDS"]

#: the posts that ping the game's role: the board of a new update, and the reminder before the deadline
PING_KINDS = ("board", "reminder")


@dataclass(frozen=True, slots=True)
class NotificationPreferences:
    """What a member asked to be told of a game: ``role`` is the game's role (None: none yet);
    ``dm_reminder`` whether they are reminded by direct message (None: they do not play it)."""

    game_id: int
    role: int | None
    dm_reminder: bool | None


class NotificationCases(ServiceBase):
    async def notification_role(self, game_id: int) -> int | None:
        """The id of the role kept for the game's notifications (None: none yet)."""
        async with self.store.snapshot_read() as q:
            return (await self._game(q, game_id)).notify_role

    async def keep_notification_role(self, game_id: int, role_id: int) -> None:
        """Remember ``role_id`` as the game's notification role (the front end made it: a new
        game's first ``/notify``, or the role was deleted and made again)."""
        if not is_row_number(role_id) or role_id <= 0:
            raise InvalidInput(f"{str(role_id)[:30]!r} is not a role id")
        async with self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                await q.update_game(game.id, notify_role=role_id)

    async def set_dm_reminder(self, game_id: int, *, user_id: int, wanted: bool) -> NotificationPreferences:
        """A player asks for (or stops) a direct message when a reminder goes out and they have not
        ordered. Only a player of the game may ask: the reminder is about their order."""
        if not isinstance(wanted, bool):
            raise InvalidInput("say on or off")
        async with self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                if game.status == "ended":
                    raise WrongTime(f"game {game.id} ({game.name}) has ended")
                await self._player(q, game, user_id)
                await q.set_dm_reminder(game.id, user_id, wanted)
                return NotificationPreferences(game.id, game.notify_role, wanted)

    async def notification_preferences(self, game_id: int, *, user_id: int) -> NotificationPreferences:
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            player = await q.player(game.id, user_id) if is_row_number(user_id) else None
        playing = player is not None and player.status == "joined"
        return NotificationPreferences(game.id, game.notify_role, player.dm_reminder if playing else None)

    async def ping_role(self, post: Post) -> int | None:
        """The role ``post`` pings when it is delivered: the game's role, for a post in the game's
        channel that asks for attention (:data:`PING_KINDS`); None for every other post."""
        if post.recipient is not None or post.kind not in PING_KINDS:
            return None
        async with self.store.snapshot_read() as q:
            game = await q.game(post.game_id)
        return None if game is None else game.notify_role
