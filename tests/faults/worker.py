"""One bot process for the fault tests (issue 26 item 4): ``python tests/faults/worker.py --url URL --name A``
(the tests start it with :func:`run_forked`, forked from a process that has imported it already).

It opens its own Store on the shared database (a SQLite file, or PostgreSQL), runs its own Service
on its own event loop, and does what it is told on standard input, one JSON object a line, answering
each with one JSON line on standard output (``{"did": ..., ...}``; ``{"error": ...}`` if it failed).
It first prints ``{"ready": true, "pid": ..., "holder": ...}``. Commands (``"do"``):

- ``setup``: a running neisg game in server ``guild`` with ``players`` joined (user ids 1000, 1001,
  ...); with ``placed``, their kings placed 4 squares apart and update 1 resolved (a moderator's
  resolve).
- ``submit``: ``orders``, ``[[user_id, text], ...]``, all at once (one task each, in this order),
  or in ``waves``; the receipts (or errors) in the same order, and the seconds from the first
  submission to the last confirmation; with ``stream``, each confirmation as it is given too.
- ``resolve``: ``times`` calls of ``resolve_if_due(game, update)`` and ``jobs`` firings of the
  scheduler's deadline job (``GameScheduler.run_due``, what every job of the game calls), all at once.
- ``start_scheduler``: the scheduler's start, as the bot's at start-up (what fell due is resolved).
- ``resolve_until``: ``resolve_if_due`` again and again until the update is resolved (by this process
  or another), at most ``limit`` seconds: what a process that picks up a dead one's game does (and
  its scheduler, which tries again when the database fails).
- ``deliver``: the outbox relay delivers every due post through :class:`ExclusivePublisher`.
- ``deliver_until``: ``deliver`` again and again until none of the game's posts is left unsent, at
  most ``limit`` seconds: what the relay of a process does while another holds the game's posts
  (it delivers once their sender has stopped, or died and its lease has passed).
- ``resolve_and_deliver``: ``resolve`` once, then ``deliver`` (the process a test kills).
- ``facts``: the game's row, orders, snapshots and posts, read through the store.

Every command may carry ``at`` (a Unix time): it starts then, so two processes act at the same moment.
The service's clock is the wall clock moved by ``--offset-hours`` (a deadline an hour away is due).
The service registers and beats every ``--beat`` seconds (bot/service/claims.py), so a killed
worker's claim is free once three beats have passed without one.
The fault points of ``bot/service/faults.py`` work here as in the bot (``SKIRMISH_FAULT``). With
``--shards A-B --shard-count N`` it runs those shards: its scheduler and its relay act only on the
games of their servers (docs/sharding.md).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import logging
import os
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.render.palette import colour_names  # noqa: E402
from bot.scheduler import GameScheduler  # noqa: E402
from bot.service import Moderator, OutboxRelay, Service, ServiceError  # noqa: E402
from bot.service.claims import Liveness  # noqa: E402
from bot.shards import parse_shards  # noqa: E402
from bot.service.publishing import post_path  # noqa: E402
from bot.store import Post, Store, StoreError  # noqa: E402

MODERATOR_ID = 99
FIRST_USER = 1000
SPACING = 4            # kings this far apart never attack each other's squares, before or after a step


def king_square(index: int, players: int) -> tuple[int, int]:
    per_row = int(players ** 0.5) + 1
    return (index % per_row) * SPACING, (index // per_row) * SPACING


def colours(count: int) -> list[str]:
    """``count`` distinct colours: the listed names, then two-tone pairs (INTERFACES.md)."""
    names = list(colour_names())
    return (names + [f"{a}/{b}" for a in names for b in names if a != b])[:count]


class ExclusivePublisher:
    """Posts as files, one per post identity (:func:`post_path`), each created exclusively: a second
    delivery of a post finds its file there. It then answers as an idempotent publisher must (the
    Discord publisher's nonce, the file publisher's rewrite: the reader sees one post) and writes
    the repeat in ``deliveries.jsonl``, so a test sees every delivery, first or again."""

    def __init__(self, root: Path, process: str) -> None:
        self.root = root
        self.process = process
        self.log = root / "deliveries.jsonl"

    @staticmethod
    def content(post: Post) -> bytes:
        return post.body.encode("utf-8") + b"\n" + (post.attachment or b"")

    async def publish(self, post: Post) -> str:
        relative = post_path(post)
        data = self.content(post)
        target = self.root / "posts" / relative
        first = await asyncio.to_thread(self._create, target, data)
        line = json.dumps({"process": self.process, "post": post.id, "path": relative, "first": first,
                           "sha": hashlib.sha256(data).hexdigest()})
        # one write with O_APPEND: lines of two processes never interleave
        handle = os.open(self.log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(handle, (line + "\n").encode())
        finally:
            os.close(handle)
        return relative

    @staticmethod
    def _create(target: Path, data: bytes) -> bool:
        """Write ``target`` whole (a temporary file linked into place: a kill never leaves half a
        post); False if it existed already."""
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".part-")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            try:
                os.link(temporary, target)
            except FileExistsError:
                return False
            return True
        finally:
            os.unlink(temporary)


class Worker:
    def __init__(self, service: Service, name: str, root: Path) -> None:
        self.service = service
        self.name = name
        self.relay = OutboxRelay(service, ExclusivePublisher(root, name))
        self.scheduler = GameScheduler(service)
        self.scheduling = False

    # ------------------------------------------------------------------ commands
    async def setup(self, players: int, placed: bool = False, schedule: str = "every 1 hour", guild: int = 1) -> dict:
        service = self.service
        moderator = Moderator(user_id=MODERATOR_ID, guild_id=guild)
        game = await service.create_game(guild_id=guild, channel_id=10, actor=moderator, schedule=schedule, seed=7,
                                         name="faults")
        await service.start_game(game.id, actor=moderator)
        kings = {}
        for index, colour in enumerate(colours(players)):
            user_id = FIRST_USER + index
            await service.join(game.id, user_id=user_id, name=f"P{index:04d}", colour=colour)
            kings[user_id] = king_square(index, players)
        if placed:
            for user_id, (x, y) in kings.items():
                await service.submit_order(game.id, user_id=user_id, text=f"K({x},{y})")
            result = await service.resolve_now(game.id, actor=moderator)
            assert result.resolved, result
        game = await service.get_game(game.id)
        return {"game": game.id, "update": game.update_no, "kings": {str(u): list(k) for u, k in kings.items()}}

    async def submit(self, game: int, orders: list, source: str = "channel", waves: int = 1, pause: float = 0.0,
                     stream: bool = False) -> dict:
        """``waves`` > 1: the orders in that many waves, ``pause`` seconds apart (each wave at once).
        ``stream``: each confirmation is also printed the moment it is given (``{"confirmed": ...}``)."""
        began = time.perf_counter()

        async def one(user_id: int, text: str) -> dict:
            try:
                receipt = await self.service.submit_order(game, user_id=user_id, text=text, source=source)
            except ServiceError as exc:
                return {"user": user_id, "error": type(exc).__name__, "why": exc.describe()}
            answer = {"user": user_id, "canonical": receipt.canonical, "replaced": receipt.replaced,
                      "update": receipt.update_no, "confirmed": time.perf_counter() - began}
            if stream:
                print(json.dumps({"confirmed": answer}), flush=True)
            return answer

        size = max(1, -(-len(orders) // waves))
        calls = []
        for start in range(0, len(orders), size):
            if start:
                await asyncio.sleep(pause)
            calls.extend(asyncio.ensure_future(one(user_id, text)) for user_id, text in orders[start:start + size])
        receipts = await asyncio.gather(*calls)
        return {"receipts": receipts, "seconds": time.perf_counter() - began}

    async def resolve(self, game: int, update: int, times: int = 1, jobs: int = 0) -> dict:
        began = time.perf_counter()
        calls = [self.service.resolve_if_due(game, update) for _ in range(times)]
        calls += [self.scheduler.run_due(game) for _ in range(jobs)]
        done = await asyncio.gather(*calls)
        outcomes = [r.outcome for r in done[:times]]
        outcomes += ["job: " + (run.resolution.outcome if run.resolution else f"nothing due ({run.error})")
                     for run in done[times:]]
        return {"outcomes": outcomes, "seconds": time.perf_counter() - began}

    async def start_scheduler(self) -> dict:
        """Start the scheduler as the bot does at start-up: it frees dead holders' claims, resolves
        what fell due while the bot was down, and places the games' jobs."""
        runs = await self.scheduler.start()
        self.scheduling = True
        return {"outcomes": [run.resolution.outcome if run.resolution else "nothing due" for run in runs]}

    async def resolve_until(self, game: int, update: int, limit: float = 60.0) -> dict:
        began, attempts, outcomes = time.perf_counter(), 0, []
        while True:
            attempts += 1
            tried_at = time.time()
            try:
                outcome = (await self.service.resolve_if_due(game, update)).outcome
            except StoreError as exc:      # the database restarting: tried again, as the scheduler does
                outcome = f"failed: {type(exc).__name__}"
            if not outcomes or outcomes[-1] != outcome:
                outcomes.append(outcome)
            if outcome in ("resolved", "already_resolved") or time.perf_counter() - began > limit:
                break
            await asyncio.sleep(0.05)
        # at: when the last attempt began (the one that claimed the update, or found it resolved)
        return {"outcomes": outcomes, "attempts": attempts, "seconds": time.perf_counter() - began, "at": tried_at}

    async def deliver(self) -> dict:
        began, delivered = time.perf_counter(), 0
        while (count := await self.relay.deliver_due()):
            delivered += count
        return {"delivered": delivered, "seconds": time.perf_counter() - began}

    async def deliver_until(self, game: int, limit: float = 60.0) -> dict:
        began, delivered, rounds, first_at = time.perf_counter(), 0, 0, None
        while True:
            rounds += 1
            tried_at = time.time()
            count = await self.relay.deliver_due()
            if count and first_at is None:
                first_at = tried_at             # when the round that delivered first began
            delivered += count
            async with self.service.store.snapshot_read() as q:
                unsent = [p for p in await q.posts(game) if p.sent_at is None]
            if not unsent or time.perf_counter() - began > limit:
                break
            await asyncio.sleep(0.1)
        return {"delivered": delivered, "rounds": rounds, "unsent": len(unsent), "first_at": first_at,
                "seconds": time.perf_counter() - began}

    async def resolve_and_deliver(self, game: int, update: int) -> dict:
        resolved = await self.resolve(game, update)
        delivered = await self.deliver()
        return {**resolved, **delivered, "seconds": resolved["seconds"] + delivered["seconds"]}

    async def facts(self, game: int) -> dict:
        async with self.service.store.snapshot_read() as q:
            row = await q.game(game)
            orders = await q.orders(game)
            snapshots = await q.snapshots(game, include_rolled_back=True)
            posts = await q.posts(game)
        return {
            "game": {"update": row.update_no, "status": row.status, "claimed_by": row.claimed_by},
            "orders": [{"id": o.id, "user": o.user_id, "update": o.update_no, "canonical": o.canonical,
                        "status": o.status} for o in orders],
            "snapshots": [{"update": s.update_no, "revision": s.revision, "reason": s.reason, "orders": s.orders}
                          for s in snapshots],
            "posts": [{"id": p.id, "kind": p.kind, "update": p.update_no, "recipient": p.recipient,
                       "filename": p.filename, "sent": p.sent_at is not None, "message_id": p.message_id,
                       "path": post_path(p), "state": p.state,
                       "sha": hashlib.sha256(ExclusivePublisher.content(p)).hexdigest()} for p in posts],
        }


async def serve(args) -> None:
    offset = timedelta(hours=args.offset_hours)
    store = await Store.open(args.url)
    service = Service(store, clock=lambda: datetime.now(timezone.utc) + offset,
                      liveness=Liveness(beat=timedelta(seconds=args.beat)),
                      shards=parse_shards(args.shards, args.shard_count))
    await service.start()                   # registered, and beating until it stops (or is killed)
    worker = Worker(service, args.name, Path(args.out))
    print(json.dumps({"ready": True, "pid": os.getpid(), "holder": service.holder,
                      "lease": service.liveness.lease.total_seconds()}), flush=True)
    loop = asyncio.get_running_loop()
    try:
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line or not line.strip():
                break
            command = json.loads(line)
            action = command.pop("do")
            if action == "quit":
                break
            at = command.pop("at", None)
            if at is not None:
                await asyncio.sleep(max(0.0, at - time.time()))
            try:
                answer = await getattr(worker, action)(**command)
            except Exception as exc:   # the test reads it; the process goes on
                logging.exception("%s failed", action)
                answer = {"error": f"{type(exc).__name__}: {exc}"}
            print(json.dumps({"did": action, **answer}), flush=True)
    finally:
        if worker.scheduling:
            await worker.scheduler.shutdown(timeout=10)
        await service.stop()
        await store.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the shared database: sqlite:///path or postgresql://...")
    parser.add_argument("--name", required=True, help="this process's name in the deliveries log")
    parser.add_argument("--out", required=True, help="where posts and deliveries.jsonl are written")
    parser.add_argument("--beat", type=float, default=5.0,
                        help="seconds between heartbeats (a silent service's claims are free after 3)")
    parser.add_argument("--shards", help="the Discord shards this process runs, A-B (with --shard-count)")
    parser.add_argument("--shard-count", type=int, help="how many shards the bot has in all")
    parser.add_argument("--offset-hours", type=float, default=0.0, help="the service's clock: the wall clock plus this")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format=f"{args.name} %(levelname)s %(message)s")
    asyncio.run(serve(args))


def run_forked(argv: list[str], env: dict[str, str], commands, answers, stderr_path: str) -> None:
    """:func:`main` in a process forked by multiprocessing's fork server (tests/faults/conftest.py),
    as the command line would run it: ``commands`` and ``answers`` (the ends of two pipes, passed as
    multiprocessing connections only to cross into this process) become its standard input and
    output, ``stderr_path`` its standard error, ``env`` its environment."""
    os.dup2(commands.fileno(), 0)
    os.dup2(answers.fileno(), 1)
    commands.close()
    answers.close()
    error = os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(error, 2)
    os.close(error)
    sys.stdin = open(0, "r", closefd=False)
    sys.stdout = open(1, "w", buffering=1, closefd=False)
    sys.stderr = open(2, "w", buffering=1, closefd=False)
    os.environ.clear()
    os.environ.update(env)
    main(argv)


if __name__ == "__main__":
    main()
