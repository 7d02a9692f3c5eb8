"""Moderators and the outbox: which of a game's posts are stuck and why, and delivering them again.

A post that failed waits in the outbox (:mod:`.publishing`): *retrying* after a failure that passes
by itself, *waiting* for access the bot lacks (retried with growing backoff, never given up), or
*parked* after a failure that will not pass by itself (a file Discord refuses, a fault in the bot),
until a moderator asks for it again. :meth:`DeliveryCases.post_troubles` lists them with their
reasons; :meth:`DeliveryCases.redeliver` sends parked and waiting posts to be tried at once
(audited).

Both are moderator use cases: ``actor`` must be a :class:`~.actors.Moderator` of the game's server
(:func:`~.actors.require_moderator`: a bare user id, or a moderator of another server, is refused).
The listing names each post's kind, update, destination and reason,
never its text (a private report stays private).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.store import Game, Post

from .actors import Moderator, require_moderator
from .base import ServiceBase, is_row_number
from .errors import NotFound
from .teams import TEAM_THREADS

__all__ = ["DeliveryCases", "PostTrouble"]

#: how many stuck posts a listing shows (the oldest first)
LISTED = 25


@dataclass(frozen=True, slots=True)
class PostTrouble:
    """One unsent post that has failed: ``state`` is ``retrying``, ``waiting`` or ``parked``."""

    post_id: int
    kind: str
    update_no: int
    destination: str                 # "the channel" or "Alice (by direct message)"
    state: str
    attempts: int
    reason: str
    next_attempt_at: datetime | None

    def text(self) -> str:
        what = {"parked": "parked until a moderator asks (/mod redeliver)",
                "waiting": "waiting for access",
                "retrying": "retrying"}[self.state]
        when = f", next try {self.next_attempt_at:%Y-%m-%d %H:%M:%S} UTC" if self.next_attempt_at else ""
        tries = f"{self.attempts} attempt{'s' if self.attempts != 1 else ''}"
        return (f"Post {self.post_id} ({self.kind.replace('_', ' ')} of update {self.update_no}, to "
                f"{self.destination}): {what} ({tries}{when}). {self.reason or 'no reason recorded'}")


class DeliveryCases(ServiceBase):
    async def _moderated_game(self, q, game_id: int, actor, action: str) -> Game:
        game = await self._game(q, game_id)
        require_moderator(actor, game.guild_id, action)
        return game

    async def post_troubles(self, game_id: int, *, actor: Moderator) -> list[PostTrouble]:
        """The game's unsent posts that have failed (the oldest :data:`LISTED`), with their reasons."""
        async with self.store.snapshot_read() as q:
            game = await self._moderated_game(q, game_id, actor, "see the posts that did not go out")
            posts = await q.troubled_posts(game.id, limit=LISTED)
            names = {p.user_id: p.name for p in await q.players(game.id, include_kicked=True)}
        return [_trouble(post, names, game) for post in posts]

    async def redeliver(self, game_id: int, *, actor: Moderator, post_id: int | None = None) -> list[int]:
        """Try the game's parked and waiting posts again now (only ``post_id`` when given): the ids
        released, oldest first. Audited; the relay is woken."""
        async with self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._moderated_game(q, game_id, actor, "deliver posts again")
                stuck = [p for p in await q.troubled_posts(game.id, limit=10_000) if p.state in ("parked", "waiting")]
                if post_id is not None:
                    if not is_row_number(post_id):
                        raise NotFound(f"there is no post {str(post_id)[:20]}")
                    stuck = [p for p in stuck if p.id == post_id]
                    if not stuck:
                        raise NotFound(f"post {post_id} of {game.name} is not parked or waiting",
                                       hint="/mod posts lists the posts that can be delivered again")
                if not stuck:
                    raise NotFound(f"no post of {game.name} is parked or waiting",
                                   hint="posts that are retrying go out by themselves")
                ids = [p.id for p in stuck]
                await q.release_posts(game.id, ids)
                await q.audit(game_id=game.id, actor=actor.user_id, action="redeliver", detail={"posts": ids},
                              at=self.now())
                q.on_commit.append(self._posts_written)
                return ids


def _trouble(post: Post, names: dict[int, str], game: Game) -> PostTrouble:
    if post.kind == TEAM_THREADS:
        destination = f"the team threads of {game.name}"
    elif post.recipient is None:
        destination = f"the channel of {game.name}"
    else:
        name = names.get(post.recipient)
        destination = f"{name} (by direct message)" if name else f"user {post.recipient} (by direct message)"
    state = post.state if post.state in ("parked", "waiting") else "retrying"
    return PostTrouble(post_id=post.id, kind=post.kind, update_no=post.update_no, destination=destination,
                       state=state, attempts=post.attempts, reason=post.last_error or "",
                       next_attempt_at=post.next_attempt_at if state != "parked" else None)
