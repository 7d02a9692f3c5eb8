"""Posting the outbox to Discord: a :class:`~bot.service.Publisher` over a discord.py client.

A post without a recipient goes to its game's channel (or thread), one with a recipient to that
player by direct message. Each post is one Discord message: its picture (``board.png``,
``health.png``, ``timelapse.gif``) as an attachment with the body as the message text; a body longer
than a message may be (2,000 characters) becomes a ``.md`` (or the post's ``.txt``) attachment
behind its first line. Every message carries a nonce derived from the outbox row id, which
discord.py sends with ``enforce_nonce``: Discord then refuses to post the same nonce twice in a
channel within a few minutes, so a retry after a crash between posting and marking the row sent
does not post twice.

Mentions and times (issue 28): a message pings nobody, except the game's notification role on the
posts that ask for attention (the service's ``ping_role``: a new board, the reminder before the
deadline), and then only that role (``allowed_mentions`` names it alone). Every time the service
writes as ``2026-11-22 18:00 UTC`` becomes a Discord timestamp (:func:`discord_times`), which each
reader sees in their own time zone, with "in 2 hours" beside it. Both happen here, at delivery: the
stored post is the same text whoever reads it, so the offline demo's files do not change.

The web viewer (issue 40): with ``[web] public_url`` set, a board posted in a channel carries a link
button, "Open the board", to that update on the viewer (:func:`board_link`), and a "My board" button
(issue 41, custom id :func:`my_board_id`) that cogs/play.py answers privately with the player's link.

Failures map onto what the relay does next (bot/service/publishing.py):

- :class:`~bot.service.PublishError` (retried with backoff, the later posts to the same place wait):
  Discord's own errors (5xx), network errors and time-outs, and rate limits (429, and discord.py's
  ``RateLimited``), which carry Discord's ``Retry-After`` so the retry comes when Discord asked;
- :class:`~bot.service.WaitingForAccess` (waiting: retried with growing backoff, never given up,
  the game's moderators told once): missing permissions in a channel (50013: Send Messages, Attach
  Files, Create Private Threads), a channel the bot cannot see (50001, or any other 403: a permission
  taken away), and a refused token (401: reset by the operator). The posts arrive, in order, once
  access returns;
- :class:`~bot.service.UndeliverableError` (parked with the reason until a moderator asks for it
  again): an unknown channel, thread, user or game (404), a player who does not accept direct
  messages (50007) when no private thread can stand in for them (below), a file larger than the
  server accepts, and any other request Discord refuses as malformed (retrying alone would never
  succeed).

Closed direct messages: a private post to a player who does not accept direct messages from the
bot (50007) goes instead to a private thread in the game's channel (the parent channel when the game
lives in a thread) that only that player is invited to, named after the player and the game, and
reused for their later private posts (found again by name among the channel's threads after a
restart). Its first message says why it exists. Members with Manage Threads can read private threads
too, as Discord allows. Opening the thread fails like any post: a 5xx, a 429 or a network error is
retried, a missing permission (Create Private Threads) waits for it. When no thread can be opened
(the channel cannot hold private threads, the player left the server) the post is parked, with both
reasons in its error.

Team threads (issue 22): a ``team_threads`` post is no message. It asks for the game's team threads
to match the roster the service keeps (:mod:`bot.service.teams`): each team with players gets a
private thread in the game's channel (the parent channel when the game lives in a thread), named
``alabaster · team · game 7``, opened once, remembered by the service and opened again if a quiet
week archived it; the team's players are invited and the game's other players removed (a moderator
who looked in is left alone). It needs Create Private Threads and Manage Threads (to remove a
member); without them the post waits like any post, the game's creator is told, and the game's
other posts go on.

Error messages name the post, its destination and Discord's status and code, never the text.
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
import re
from datetime import datetime, timezone

import aiohttp
import discord

from bot.service import NotFound, PublishError, UndeliverableError, WaitingForAccess
from bot.service.teams import TEAM_THREADS
from bot.store import Post

__all__ = ["DiscordPublisher", "MESSAGE_LIMIT", "board_link", "nonce_for", "message_parts", "discord_times", "ping_mentions"]

log = logging.getLogger(__name__)

#: the most characters Discord accepts in a message's text
MESSAGE_LIMIT = 2000

_CLOSED_DMS = 50007
_MISSING_ACCESS = 50001
_MISSING_PERMISSIONS = 50013
_TOO_LARGE = 40005


#: a moment as the service writes it in posts and answers: "2026-11-22 18:00 UTC"
_UTC_TIME = re.compile(r"\b([0-9]{4})-([0-9]{2})-([0-9]{2}) ([0-9]{2}):([0-9]{2}) UTC\b")


def discord_times(text: str) -> str:
    """``text`` with every ``YYYY-MM-DD HH:MM UTC`` written as Discord timestamps: the date and
    time in the reader's own zone (``<t:UNIX:f>``) and how far away it is (``<t:UNIX:R>``)."""
    def timestamp(match: re.Match) -> str:
        try:
            moment = datetime(*(int(part) for part in match.groups()), tzinfo=timezone.utc)
        except ValueError:          # not a real date: leave the text as it is
            return match.group(0)
        unix = int(moment.timestamp())
        return f"<t:{unix}:f> (<t:{unix}:R>)"

    return _UTC_TIME.sub(timestamp, text)


def ping_mentions(role_id: int | None) -> discord.AllowedMentions:
    """What a message may ping: the game's role ``role_id`` alone, or nobody."""
    if role_id is None:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(everyone=False, users=False, roles=[discord.Object(id=role_id)],
                                   replied_user=False)


def board_link(viewer_url: str | None, post: Post) -> str | None:
    """The web viewer's address of the update a board post shows (None: no viewer, or not a board
    posted in a channel)."""
    if viewer_url is None or post.kind != "board" or post.recipient is not None:
        return None
    return f"{viewer_url}/games/{post.game_id}?update={post.update_no}"


#: the "My board" button's custom id under a board post: the cogs answer it (cogs/play.py, MyBoardButton)
MY_BOARD_ID = "skirmish:myboard:{game_id}"


def my_board_id(game_id: int) -> str:
    return MY_BOARD_ID.format(game_id=game_id)


def nonce_for(post: Post) -> str:
    """The message nonce of an outbox row: the same for every attempt at that row (at most 25
    characters, as Discord requires)."""
    return f"skirmish-{post.id}"


def message_parts(post: Post, prefix: str = "") -> tuple[str, list[tuple[str, bytes]]]:
    """The text and the files (``(filename, bytes)``) of the one message that carries ``post``;
    ``prefix`` (a role's ping) goes before the text. Times in the text become Discord timestamps;
    a text too long for a message is attached as it is stored, behind its first line."""
    files: list[tuple[str, bytes]] = []
    if post.attachment is not None:
        files.append((post.filename or "attachment.bin", post.attachment))
    body = post.body or ""
    shown = prefix + discord_times(body)
    if len(shown) <= MESSAGE_LIMIT:
        return shown, files
    name = post.filename if post.filename and post.filename.endswith((".md", ".txt")) else f"{post.kind}.md"
    if any(existing == name for existing, _ in files):
        name = f"{post.kind}-text.md"
    files.append((name, body.encode("utf-8")))
    first_line = prefix + discord_times(body.split("\n", 1)[0])
    note = f"\n*(the full text is attached: {name})*"
    if len(first_line) + len(note) > MESSAGE_LIMIT:
        first_line = first_line[:MESSAGE_LIMIT - len(note) - 1] + "…"
    return first_line + note, files


class DiscordPublisher:
    """Delivers outbox rows with ``client`` (a logged-in discord.py client); ``service`` finds each
    game's channel (``service.get_game(post.game_id).channel_id``)."""

    def __init__(self, client: discord.Client, service, *, viewer_url: str | None = None) -> None:
        self.client = client
        self.service = service
        #: the web viewer's public address (``[web] public_url``): board posts link to their update there
        self.viewer_url = viewer_url.rstrip("/") if viewer_url else None
        #: (game id, user id) -> the private thread standing in for closed direct messages
        self._threads: dict[tuple[int, int], int] = {}
        #: threads opened whose first message (why the thread exists) is not posted yet
        self._unexplained: set[int] = set()

    async def publish(self, post: Post) -> str:
        if post.kind == TEAM_THREADS:
            return await self._publish_team_threads(post)
        where = f"to user {post.recipient}" if post.recipient is not None else f"in the channel of game {post.game_id}"
        try:
            destination = await self._destination(post)
            try:
                message = await self._send(destination, post)
            except discord.Forbidden as exc:
                if post.recipient is None or exc.code != _CLOSED_DMS:
                    raise
                message = await self._send_in_private_thread(post, where, exc)
                where = f"to user {post.recipient} in a private thread (direct messages closed)"
        except discord.HTTPException as exc:
            raise self._failure(post, where, exc) from None
        except discord.RateLimited as exc:      # discord.py would wait longer than it is allowed to
            raise PublishError(f"post {post.id} {where}: rate limited by Discord for {exc.retry_after:.1f} s",
                               retry_after=exc.retry_after) from None
        except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as exc:
            raise PublishError(f"post {post.id} {where}: cannot reach Discord ({type(exc).__name__})") from None
        log.debug("post %s (%s) of game %s delivered %s as message %s", post.id, post.kind, post.game_id, where,
                  message.id)
        return str(message.id)

    async def _send(self, destination: discord.abc.Messageable, post: Post) -> discord.Message:
        role = await self.service.ping_role(post)
        content, files = message_parts(post, f"<@&{role}> " if role is not None else "")
        extra = {}
        link = board_link(self.viewer_url, post)
        if link is not None:
            view = discord.ui.View(timeout=None)
            view.add_item(discord.ui.Button(label="Open the board", style=discord.ButtonStyle.link, url=link))
            # a player's own board, with orders by clicking: answered privately with their link
            view.add_item(discord.ui.Button(label="My board", style=discord.ButtonStyle.secondary,
                                            custom_id=my_board_id(post.game_id)))
            extra["view"] = view
        return await destination.send(
            content or None,
            files=[discord.File(io.BytesIO(data), filename=name) for name, data in files],
            nonce=nonce_for(post),
            allowed_mentions=ping_mentions(role),
            **extra,
        )

    # ------------------------------------------------------------------ team threads
    async def _publish_team_threads(self, post: Post) -> str:
        """Make each team's private thread match the game's roster as it stands now (the service's
        ``team_threads``): opened the first time and remembered, opened again if archived, the
        team's players invited and the game's other players removed. Idempotent, so a retry or a
        later post of the same game simply brings the threads up to date."""
        where = f"the team threads of game {post.game_id}"
        try:
            wanted = await self.service.team_threads(post.game_id)
        except NotFound:
            raise UndeliverableError(f"post {post.id}: game {post.game_id} does not exist") from None
        channel = self.client.get_channel(wanted.game.channel_id)
        if isinstance(channel, discord.Thread):
            channel = channel.parent
        if channel is None:
            raise WaitingForAccess(f"post {post.id} for {where}: the bot cannot see the game's channel to keep its "
                                   f"team threads there (View Channel); waiting until it can")
        if not isinstance(channel, discord.TextChannel):
            raise UndeliverableError(f"post {post.id} for {where}: the game's channel cannot hold private threads")
        kept = []
        try:
            for roster in wanted.teams:
                if not roster.members and roster.thread_id is None:
                    continue                    # nobody to invite yet: no thread yet
                thread = await self._team_thread(channel, wanted.game, roster)
                present = {member.id for member in await thread.fetch_members()}
                for user_id, _ in roster.members:
                    if user_id not in present:
                        try:
                            await thread.add_user(discord.Object(id=user_id))
                        except discord.NotFound:        # a member who left the server: the others still go in
                            log.info("team thread %s of game %s: member %s is gone, not invited", thread.id,
                                     post.game_id, user_id)
                for user_id in sorted((present & wanted.players) - roster.member_ids):
                    await thread.remove_user(discord.Object(id=user_id))
                kept.append(f"{roster.team}: thread {thread.id}, {len(roster.members)} members")
        except discord.HTTPException as exc:
            raise self._failure(post, f"for {where}", exc, about_thread=True,
                                needed="Create Private Threads, Manage Threads, Send Messages in Threads") from None
        except discord.RateLimited as exc:
            raise PublishError(f"post {post.id} for {where}: rate limited by Discord for {exc.retry_after:.1f} s",
                               retry_after=exc.retry_after) from None
        except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as exc:
            raise PublishError(f"post {post.id} for {where}: cannot reach Discord ({type(exc).__name__})") from None
        log.debug("team threads of game %s kept: %s", post.game_id, "; ".join(kept))
        return "; ".join(kept) or "no team has players"

    async def _team_thread(self, channel: discord.TextChannel, game, roster) -> discord.Thread:
        """The team's private thread: the one remembered, else one of the channel's threads by its
        name (made before a restart that lost the id), else a new one, remembered and explained.
        An archived thread is opened again: the bot keeps it."""
        name = f"{roster.team} · team · game {game.id}"[:100]
        thread = None
        if roster.thread_id is not None:
            thread = channel.guild.get_thread(roster.thread_id)
            if thread is None:
                try:
                    fetched = await self.client.fetch_channel(roster.thread_id)
                except discord.NotFound:            # deleted by someone: the team gets a new one
                    fetched = None
                thread = fetched if isinstance(fetched, discord.Thread) else None
        if thread is None:
            thread = next((t for t in channel.threads if t.name == name and t.type is discord.ChannelType.private_thread
                           and t.owner_id == getattr(self.client.user, "id", None)), None)
            if thread is not None:
                await self.service.keep_team_thread(game.id, roster.team, thread.id)
        if thread is None:
            thread = await channel.create_thread(name=name, type=discord.ChannelType.private_thread, invitable=False,
                                                 auto_archive_duration=10080,
                                                 reason=f"team {roster.team}'s private thread for game {game.id}")
            await self.service.keep_team_thread(game.id, roster.team, thread.id)
            await thread.send(f"Team **{roster.team}**'s private thread for **{game.name}**: plan your moves together "
                              f"here. The bot invites each player who joins {roster.team} and removes those who "
                              f"leave the game or change team. Only the team's players are invited; server staff "
                              f"who manage threads can read it too.", allowed_mentions=discord.AllowedMentions.none())
            log.info("opened team thread %s for team %s of game %s", thread.id, roster.team, game.id)
        elif thread.archived:
            await thread.edit(archived=False)
        return thread

    # ------------------------------------------------------------------ closed direct messages
    async def _send_in_private_thread(self, post: Post, where: str, closed: discord.Forbidden) -> discord.Message:
        """Deliver a private post in the player's private thread of the game's channel. Opening the
        thread fails like any post (:meth:`_failure`: retried, waiting or parked), its error naming
        the closed direct messages too; :class:`UndeliverableError` when there cannot be a thread."""
        said = f"Discord answered {closed.status} (code {closed.code})"
        closed_dms = f"the player does not accept direct messages from the bot ({said})"
        try:
            thread = await self._private_thread(post)
        except discord.HTTPException as exc:
            raise self._failure(post, f"{where}: {closed_dms}, and opening a private thread for them failed", exc,
                                about_thread=True) from None
        except _NoSight as exc:
            raise WaitingForAccess(f"post {post.id} {where}: {closed_dms}, and {exc}; waiting until it can") from None
        if isinstance(thread, str):
            raise UndeliverableError(f"post {post.id} {where}: {closed_dms}, and {thread}")
        try:
            return await self._send(thread, post)
        except discord.HTTPException as exc:
            raise self._failure(post, f"to user {post.recipient} in private thread {thread.id}", exc) from None

    async def _private_thread(self, post: Post) -> discord.Thread | str:
        """The player's private thread in the game's channel (found or opened, the player invited),
        or why there cannot be one."""
        try:
            game = await self.service.get_game(post.game_id)
        except NotFound:
            return f"game {post.game_id} does not exist"
        channel = self.client.get_channel(game.channel_id)
        if isinstance(channel, discord.Thread):
            channel = channel.parent
        if channel is None:
            raise _NoSight("the bot cannot see the game's channel to open a private thread there (View Channel)")
        if not isinstance(channel, discord.TextChannel):
            return "the game's channel cannot hold a private thread"
        name = await self._thread_name(post)
        known = self._threads.get((post.game_id, post.recipient))
        for thread in channel.threads:
            if thread.id == known or (thread.name == name and thread.type is discord.ChannelType.private_thread
                                      and thread.owner_id == getattr(self.client.user, "id", None)):
                await thread.add_user(discord.Object(id=post.recipient))    # idempotent: they may have left it
                self._threads[(post.game_id, post.recipient)] = thread.id
                if thread.id in self._unexplained:      # opened by an attempt that failed after it
                    await self._explain(thread, post, game)
                return thread
        thread = await channel.create_thread(name=name, type=discord.ChannelType.private_thread, invitable=False,
                                             auto_archive_duration=10080,
                                             reason="a player's private posts: they do not accept direct messages")
        self._threads[(post.game_id, post.recipient)] = thread.id
        self._unexplained.add(thread.id)
        await thread.add_user(discord.Object(id=post.recipient))
        await self._explain(thread, post, game)
        log.info("opened private thread %s for user %s of game %s (direct messages closed)", thread.id,
                 post.recipient, post.game_id)
        return thread

    async def _explain(self, thread: discord.Thread, post: Post, game) -> None:
        """The thread's first message: why it exists."""
        await thread.send(f"<@{post.recipient}>: you do not accept direct messages from the bot, so your private "
                          f"messages for **{game.name}** (your reports, notices) come to this private thread "
                          f"instead. Only you are invited; server staff who manage threads can read it too. To "
                          f"have them by direct message, allow direct messages from this server's members.",
                          allowed_mentions=discord.AllowedMentions.none())
        self._unexplained.discard(thread.id)

    async def _thread_name(self, post: Post) -> str:
        try:
            players = await self.service.players(post.game_id, include_kicked=True)
        except NotFound:
            players = []
        player = next((p.name for p in players if p.user_id == post.recipient), "player")
        return f"{player} · private · game {post.game_id}"[:100]

    async def _destination(self, post: Post) -> discord.abc.Messageable:
        if post.recipient is not None:
            return await self.client.create_dm(discord.Object(id=post.recipient))
        try:
            game = await self.service.get_game(post.game_id)
        except NotFound:
            raise UndeliverableError(f"post {post.id}: game {post.game_id} does not exist") from None
        channel = self.client.get_channel(game.channel_id)
        if channel is None:
            channel = self.client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        return channel

    @staticmethod
    def _failure(post: Post, where: str, exc: discord.HTTPException, *, about_thread: bool = False,
                 needed: str | None = None) -> PublishError:
        """What Discord's refusal means for the post (the module's docstring lists the cases)."""
        status, code = exc.status, exc.code
        said = f"Discord answered {status}" + (f" (code {code})" if code else "")
        if status == 429:
            wait = _retry_after(exc)
            after = f"retrying in {wait:.1f} s as Discord asked" if wait is not None else "retrying"
            return PublishError(f"post {post.id} {where}: rate limited ({said}); {after}", retry_after=wait)
        if status >= 500:
            return PublishError(f"post {post.id} {where}: Discord failed ({said}); retrying")
        if status == 401:
            return WaitingForAccess(f"post {post.id} {where}: Discord refused the bot's token ({said}); the "
                                    f"operator must give the bot a valid token, and the post waits until then")
        if isinstance(exc, discord.Forbidden):
            if code == _CLOSED_DMS and not about_thread:
                return UndeliverableError(f"post {post.id} {where}: the player does not accept direct messages "
                                          f"from the bot ({said})")
            if code == _MISSING_PERMISSIONS or about_thread:
                needed = needed or ("Create Private Threads, Send Messages in Threads" if about_thread
                                    else "Send Messages, Send Messages in Threads, Attach Files")
                return WaitingForAccess(f"post {post.id} {where}: the bot lacks a permission there ({needed}) "
                                        f"({said}); waiting until it has it")
            return WaitingForAccess(f"post {post.id} {where}: the bot cannot see that channel ({said}); waiting "
                                    f"until it is let in again (View Channel)")
        if isinstance(exc, discord.NotFound):
            what = "no such channel, thread or member" if about_thread else "no such channel, thread or user"
            return UndeliverableError(f"post {post.id} {where}: {what} ({said})")
        if status == 413 or code == _TOO_LARGE:
            return UndeliverableError(f"post {post.id} {where}: the attachment is larger than the server "
                                      f"accepts ({said})")
        return UndeliverableError(f"post {post.id} {where}: Discord refused the message ({said})")


class _NoSight(Exception):
    """The game's channel is not among those the bot sees (a permission taken away, for now)."""


def _retry_after(exc: discord.HTTPException) -> float | None:
    """Seconds Discord asked to wait before trying again (``Retry-After``, or the bucket's reset), if
    it said; discord.py keeps the answer's headers on the exception."""
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    for name in ("Retry-After", "X-RateLimit-Reset-After"):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            continue
        if math.isfinite(seconds) and seconds >= 0:
            return seconds
    return None
