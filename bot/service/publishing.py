"""Delivering the outbox: publishers, and the relay that retries them.

A :class:`Publisher` turns one outbox row into a post somewhere (Discord, files, memory) and
returns what it made of it (a message id, a path). What it raises says what the relay does next:

- :class:`PublishError`: a failure that passes by itself (a network error, a rate limit, Discord
  down). Retried with growing backoff (:data:`BACKOFF`), or after ``retry_after`` seconds when the
  error carries one (Discord's ``Retry-After``), and never given up.
- :class:`WaitingForAccess` (a :class:`PublishError`): the bot lacks access (a permission taken
  away, a channel it can no longer see, a refused token). The post is *waiting*: retried with growing
  backoff and never given up while it is unsent; the game's moderators are told once, by a notice to
  the game's creator, when a post of the game starts waiting.
- :class:`UndeliverableError` (a :class:`PublishError`): a failure that will not pass by itself (a
  file Discord refuses, a channel that is gone). The post is *parked* with the reason: not retried
  until a moderator asks (``/mod posts`` shows it, ``/mod redeliver`` tries it again).
- anything else is a fault in the bot: logged with its traceback, and the post parked like an
  undeliverable one. It never stops the relay or other posts.

Publishing must be idempotent per row: the relay may publish a row again after a crash between
publishing and marking it sent (the file publisher rewrites the same file; the Discord publisher
sends a nonce derived from the row id).

The :class:`OutboxRelay` delivers due rows in id order, marks each sent exactly once, backs off on
failures, and keeps each place's posts in order: after a failure, the later posts to the same
place (the game's channel, or one player) wait; posts to other places and other games go on. Each
attempt counts once in the row's ``attempts``; a post is tried at most once per round.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Protocol

from bot.store import Post

from .faults import fault_point

__all__ = ["Publisher", "PublishError", "UndeliverableError", "FilePublisher", "MemoryPublisher", "OutboxRelay",
           "post_path", "safe_file_name"]

log = logging.getLogger(__name__)

#: a file name kept as it is (anything else is slugged and hashed by :func:`safe_file_name`)
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9 ._-]{0,63}")
_EXTENSION = re.compile(r"[A-Za-z0-9]{1,8}")
#: names Windows keeps for devices, whatever the extension
_RESERVED_NAMES = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(10)), *(f"LPT{i}" for i in range(10))}

#: kinds that are a message of their own (one file each, named by the post's number in its game)
_MESSAGES = ("announcement", "notice", "reminder", "team_threads")

#: seconds to wait before the 1st, 2nd, ... retry of a failed post (the last one repeats)
BACKOFF = (1, 2, 5, 15, 60, 300)
#: the shortest wait before a retry, whatever a ``Retry-After`` says: never a tight loop
MIN_RETRY_SECONDS = 0.5


class PublishError(Exception):
    """Delivery failed for now; the relay retries later: after ``retry_after`` seconds when given
    (Discord's ``Retry-After`` on a rate limit), else after the backoff of the post's attempts."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class WaitingForAccess(PublishError):
    """The bot lacks access for now (a permission, a channel it cannot see, its token): the post
    waits, retried with backoff and never given up; the game's moderators are told once."""


class UndeliverableError(PublishError):
    """Delivery will not succeed by retrying (a file Discord refuses, a channel that is gone): the
    post is parked with the reason until a moderator asks for it again."""


class Publisher(Protocol):
    async def publish(self, post: Post) -> str:
        """Deliver ``post``; return what was made (a message id or a path)."""


def safe_file_name(name: str | None, default: str = "attachment") -> str:
    """``name`` as one harmless file name: kept as it is when it is plain (letters, digits, spaces,
    dots, dashes and underscores, not starting with a dot, at most 64 characters), else a slug of it
    with a short stable hash, ``slug+1a2b3c4d.ext`` (``+`` is never in a plain name, so two names
    never share a file). Whatever a player's name holds (``../../x``, ``/etc``, ``NUL``), the result
    names a file in the folder it is joined to, never a folder or a path."""
    if not name:
        return default
    text = str(name)
    if _PLAIN_NAME.fullmatch(text) and text.split(".")[0].upper() not in _RESERVED_NAMES:
        return text
    stem, dot, extension = text.rpartition(".")
    if not dot or not _EXTENSION.fullmatch(extension):
        stem, extension = text, ""
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", unicodedata.normalize("NFKD", stem)).strip("-")[:40] or "file"
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{slug}+{digest}" + (f".{extension}" if extension else "")


def post_path(post: Post) -> str:
    """Where the file publisher puts a post, relative to ``posts/`` (INTERFACES.md layout). File
    names that come from outside (a player's name in a private report's) go through
    :func:`safe_file_name`, so the path never leaves its folder. A message of its own (an
    announcement, a notice, ...) is named by its number in the game (``post_no``), never by the
    row's id: the same session names its posts alike on every back end and after a crash."""
    if post.kind == "timelapse":
        return "timelapse.gif"
    folder = f"{post.update_no:04d}"
    if post.kind == "private_report":
        return f"{folder}/private/{safe_file_name(post.filename)}"
    if post.kind in _MESSAGES:
        where = f"{folder}/private" if post.recipient is not None else folder
        to = f"-to-{post.recipient}" if post.recipient is not None else ""
        return f"{where}/{post.kind}-{post.post_no:06d}{to}.md"
    return f"{folder}/{safe_file_name(post.filename, f'{post.kind}.md')}"


def partial_path(path: Path) -> Path:
    """Where :func:`write_atomically` writes ``path`` before it is renamed into place."""
    return path.with_name(f".{path.name}.partial")


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all: a reader, or a process killed at any point, never sees
    half of it. The bytes go to a file beside it first (:func:`partial_path`), renamed into place.
    That file's name is always the same, so a process killed before the rename leaves at most one,
    which the next write of the same path (a post not marked sent is published again) replaces:
    the tree ends up as if nothing had happened."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = partial_path(path)
    try:
        with open(temporary, "wb") as out:
            out.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


class FilePublisher:
    """Posts as files under ``root`` (``root/0001/board.png``, ...); rewriting a file is harmless."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def _inside(self, relative: str) -> Path:
        """``root / relative``, checked to resolve inside ``root`` (defence in depth behind
        :func:`post_path`'s safe names: a post that would land elsewhere is never written)."""
        root = self.root.resolve()
        target = (root / relative).resolve()
        if not target.is_relative_to(root) or target == root:
            raise UndeliverableError(f"refused to write a post outside {self.root}: {relative[:80]!r}")
        return target

    async def publish(self, post: Post) -> str:
        relative = post_path(post)
        target = self._inside(relative)
        try:
            if post.kind in _MESSAGES:
                await asyncio.to_thread(write_atomically, target, (post.body + "\n").encode())
                if post.attachment is not None:
                    picture = self._inside(str(Path(relative).with_name(
                        f"{target.stem}-{safe_file_name(post.filename)}")))
                    await asyncio.to_thread(write_atomically, picture, post.attachment)
            elif post.attachment is not None:
                await asyncio.to_thread(write_atomically, target, post.attachment)
            else:
                await asyncio.to_thread(write_atomically, target, (post.body + "\n").encode())
        except OSError as exc:
            raise PublishError(f"cannot write {target}: {exc}") from exc
        return relative


@dataclass
class MemoryPublisher:
    """Keeps posts in a list (tests). ``failures``: how many times each post fails before it goes
    through; ``undeliverable``: kinds that always fail for good (until the tuple is changed)."""

    failures: int = 0
    undeliverable: tuple[str, ...] = ()
    delivered: list[Post] = field(default_factory=list)
    attempts: dict[int, int] = field(default_factory=dict)

    async def publish(self, post: Post) -> str:
        self.attempts[post.id] = self.attempts.get(post.id, 0) + 1
        if post.kind in self.undeliverable:
            raise UndeliverableError(f"cannot deliver a {post.kind}")
        if self.attempts[post.id] <= self.failures:
            raise PublishError(f"simulated failure {self.attempts[post.id]} of post {post.id}")
        self.delivered.append(post)
        return f"memory-{post.id}"


class OutboxRelay:
    """Delivers the outbox through a publisher, with retries; ``run()`` until cancelled. Only the
    posts of the games this process owns (``service.shards``): another process delivers the rest.

    **One sender a game.** Of the services that own a game (two copies of one process, a deploy
    that starts the new one before stopping the old), one delivers its posts: the one whose
    identity is in the game's ``posting_by`` (see .claims: the same identities, heartbeats and
    lease as an update's claim). The transaction that picks due posts takes the sending of every
    game with posts to send whose sending is free (nobody's, or its holder's row gone: a clean stop
    frees it at once; or its heartbeat older than the lease: a dead holder's, freed after it), by
    one conditional statement, refreshes this service's heartbeat, and picks only the posts of the
    games it sends. It keeps them while it lives; a live holder's are never taken over: the other
    copy stays idle for those games, says so once in its log, and takes over at its next round
    after the holder stops (or after the lease, if it died).

    **Fencing.** A batch is published only while nobody can have taken its games over: for the
    lease less one beat after the heartbeat its pick wrote, then it is picked again. Marking a post
    sent (or failed, or parked) checks in its statement that this service still sends the game's
    posts; if not, the game is left alone for the round. So when a holder dies (or stalls past its
    lease) at most the one post it was publishing then goes out again, from the new sender (as
    after a crash: a publisher is idempotent per row)."""

    def __init__(self, service, publisher: Publisher, *, poll_seconds: float = 5.0) -> None:
        self.service = service
        self.publisher = publisher
        self.poll_seconds = poll_seconds
        #: the games with posts to send that another live service sends, and which (as of the last
        #: round: a caller that must see every post out, like the demo's end, waits for these)
        self.sent_elsewhere: dict[int, str] = {}
        self._said: dict[int, str] = {}     # what the log said of each: once per game and sender

    async def deliver_due(self) -> int:
        """Publish every post that is due now, each at most once; the number delivered."""
        delivered = 0
        held: set[tuple[int, int | None, bool]] = set()     # places with a failed post this round: their later posts wait
        tried: set[int] = set()
        lost: set[int] = set()          # games whose sending this service lost during the round
        while True:
            due, until = await self._pick(tried, held, lost)
            if not due:
                return delivered
            for post in due:
                if _place(post) in held or post.game_id in lost:
                    continue
                if self.service.now() >= until:     # the batch's games could be another's by now
                    break
                tried.add(post.id)
                if await self._deliver(post, held, lost):
                    delivered += 1

    async def _pick(self, tried: set[int], held: set, lost: set[int]) -> tuple[list[Post], datetime]:
        """The due posts of the games this service sends (taking those that are free), and until
        when they may be published (see the class's fencing)."""
        service = self.service
        store, holder, shards = service.store, service.holder, service.shards

        def fresh(posts: list[Post]) -> list[Post]:
            return [p for p in posts if p.id not in tried and _place(p) not in held and p.game_id not in lost]

        async with store.snapshot_read() as q:      # nothing due: no write
            if not fresh(await q.due_posts(service.now(), limit=100, owned=shards)):
                self.sent_elsewhere = {}
                return [], service.now()
        async with store.transaction() as q:
            now = service.now()
            await service._register(q)            # a claim names a live, registered service (see .claims)
            others = await q.posting_holders(holder, owned=shards)
            taken = await q.take_posting(holder, service._alive_since(), owned=shards)
            due = fresh(await q.due_posts(now, limit=100, owned=shards, sender=holder))
        self._note_senders(others, set(taken))
        return due, now + service.liveness.lease - service.liveness.beat

    def _note_senders(self, others: list[tuple], taken: set[int]) -> None:
        """Say in the log which games' posts another service sends (once per game and sender), and
        which a dead one's this service took over."""
        self.sent_elsewhere = {game_id: sender for game_id, sender, *_ in others if game_id not in taken}
        for game_id, sender, host, pid, heartbeat in others:
            if game_id in taken:
                self._said.pop(game_id, None)
                # a clean stop is no news; a sender silent for its lease is (it died, or stalled)
                level, silent = ((logging.INFO, "it stopped, or was forgotten as dead") if heartbeat is None else
                                 (logging.WARNING, f"on host {host}, pid {pid}, silent since "
                                                   f"{heartbeat:%Y-%m-%d %H:%M:%S} UTC"))
                log.log(level, "game %s: its posts were sent by service %s (%s); this service (%s) sends them now",
                        game_id, sender, silent, self.service.holder)
            elif self._said.get(game_id) != sender:
                self._said[game_id] = sender
                log.info("game %s's posts are sent by service %s on host %s (pid %s); this service (%s) leaves them "
                         "to it while it runs", game_id, sender, host, pid, self.service.holder)

    async def _deliver(self, post: Post, held: set, lost: set[int]) -> bool:
        """One attempt at ``post``; True when this attempt marked it sent."""
        store, sender = self.service.store, self.service.holder
        try:
            made = await self.publisher.publish(post)
        except UndeliverableError as exc:
            log.warning("post %s of game %s is parked until a moderator asks for it again: %s", post.id,
                        post.game_id, exc)
            async with store.transaction() as q:
                if not await q.park_post(post.id, str(exc), sender=sender):
                    self._lost(post, lost)
            return False
        except WaitingForAccess as exc:
            held.add(_place(post))
            wait = self._wait(post, exc)
            log.warning("post %s of game %s waits for access (attempt %s), retrying in %s s: %s", post.id,
                        post.game_id, post.attempts + 1, wait, exc)
            async with store.transaction() as q:
                first = post.state != "waiting" and await q.waiting_post_count(post.game_id) == 0
                if not await q.mark_failed(post.id, str(exc), self.service.now() + timedelta(seconds=wait),
                                           state="waiting", sender=sender):
                    self._lost(post, lost)
                elif first:
                    await self._tell_moderators(q, post, str(exc))
            return False
        except PublishError as exc:
            held.add(_place(post))
            wait = self._wait(post, exc)
            log.info("post %s of game %s failed (attempt %s), retrying in %s s: %s",
                     post.id, post.game_id, post.attempts + 1, wait, exc)
            async with store.transaction() as q:
                # a waiting post stays waiting until it is delivered: its moderators were told already
                if not await q.mark_failed(post.id, str(exc), self.service.now() + timedelta(seconds=wait),
                                           state="waiting" if post.state == "waiting" else "pending", sender=sender):
                    self._lost(post, lost)
            return False
        except Exception as exc:       # a fault in the bot: this post waits for a moderator, the rest go on
            log.error("post %s (%s) of game %s failed with an unexpected %s; it is parked", post.id, post.kind,
                      post.game_id, type(exc).__name__, exc_info=exc)
            async with store.transaction() as q:
                if not await q.park_post(post.id, f"post {post.id}: the bot failed while posting it "
                                                  f"({type(exc).__name__}, a fault in the bot: see its log); "
                                                  f"/mod redeliver tries it again", sender=sender):
                    self._lost(post, lost)
            return False
        fault_point("mid_publish", post.update_no)
        async with store.transaction() as q:
            if await q.mark_sent(post.id, self.service.now(), made, sender=sender):
                return True
        self._lost(post, lost, published=True)
        return False

    def _lost(self, post: Post, lost: set[int], *, published: bool = False) -> None:
        """The post's row did not take this attempt: it was sent already, or this service no longer
        sends the game's posts (another took them over while this one was silent for a lease). The
        game is left alone for the rest of the round."""
        lost.add(post.game_id)
        log.warning("post %s of game %s: this service (%s) no longer sends the game's posts, or the post was sent "
                    "already; %s", post.id, post.game_id, self.service.holder,
                    "it was published, and may have been delivered twice" if published else "nothing is changed")

    @staticmethod
    def _wait(post: Post, error: PublishError) -> float:
        """Seconds before the next attempt: what Discord asked for, else the backoff of the attempts."""
        if error.retry_after is not None:
            return max(MIN_RETRY_SECONDS, float(error.retry_after))
        return BACKOFF[min(post.attempts, len(BACKOFF) - 1)]

    async def _tell_moderators(self, q, post: Post, reason: str) -> None:
        """A notice to the game's creator (a moderator) that the game's posts wait, and why: once per
        spell of waiting (when the first of the game's posts starts waiting), never about itself."""
        game = await q.game(post.game_id)
        if game is None or (post.kind == "notice" and post.recipient == game.created_by):
            return
        await q.audit(game_id=game.id, actor=0, action="posts_waiting", detail={"post": post.id, "reason": reason},
                      at=self.service.now())
        await self.service._post(
            q, game, post.update_no, "notice",
            f"Posts of **{game.name}** (game {game.id}) are waiting: {reason}. Nothing is lost: they are kept and "
            f"retried, and go out in order once the bot has access again. `/mod posts` in the game's channel lists "
            f"them; `/mod redeliver` tries them at once.",
            recipient=game.created_by)

    async def run(self) -> None:
        """Deliver as posts arrive (woken by the service) and as retries fall due."""
        while True:
            self.service.posts_waiting.clear()
            try:
                await self.deliver_due()
            except Exception:          # a bug or a locked database must not stop delivery for good
                log.exception("the outbox relay failed; retrying")
            async with self.service.store.snapshot_read() as q:
                retry_at = await q.next_retry_at(owned=self.service.shards, sender=self.service.holder)
            timeout = self.poll_seconds
            if retry_at is not None:
                timeout = max(0.05, min(timeout, (retry_at - self.service.now()).total_seconds()))
            await self.wait_for_posts(timeout)

    async def wait_for_posts(self, timeout: float) -> None:
        """Return when the service has written posts (``posts_waiting``) or after ``timeout``
        seconds. A front end with its own event machinery may wait there instead (the Discord
        client waits with ``Client.wait_for``)."""
        try:
            await asyncio.wait_for(self.service.posts_waiting.wait(), timeout)
        except asyncio.TimeoutError:
            pass


def _place(post: Post) -> tuple[int, int | None, bool]:
    """Where a post goes: its game's channel (recipient None) or one player, or the game's team
    threads (kept apart: a thread the bot may not manage yet holds up no board)."""
    return post.game_id, post.recipient, post.kind == "team_threads"
