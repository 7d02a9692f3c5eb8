"""Copying a sizeable store (bot/store/copy.py): `python benchmarks/store_copy.py [--games N] [--players N]
[--updates N] [--big-snapshots N] [--postgres-url URL]`.

Seeds a SQLite file through the store's own queries: ``--games`` games (default 20) of ``--players``
players each (default 100) played for ``--updates`` updates (default 20): every player's order of every
update, one snapshot per update (a small position), each update's posts (a board of 60 KB, the report,
every player's private report), an audit row per update; and one game whose ``--big-snapshots``
snapshots (default 10) are positions of 50,000 pieces (benchmarks/resolve.py's). Then copies it to a
new PostgreSQL database and back to a new SQLite file, and prints for each copy the rows, the megabytes,
the time, rows/s, and the process's peak memory above its size before the copy (Linux: ``VmHWM`` after
``clear_refs``), which the batches keep bounded whatever the store's size.

``--postgres-url`` names an empty database; without it, a throwaway server is started with the
``pgserver`` wheel of the test extra (tests/postgres.py).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._timing import reset_peak, status_kib  # noqa: E402
from benchmarks.resolve import build  # noqa: E402
from bot.engine import serialize  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.store.copy import copy_store  # noqa: E402

START = datetime(2026, 11, 1, tzinfo=timezone.utc)


async def seed(path: Path, games: int, players: int, updates: int, big_snapshots: int) -> None:
    rng = random.Random(5)
    board = rng.randbytes(60_000)
    small = serialize.dumps(build(4, 40))
    store = await Store.open(path)
    try:
        for index in range(games):
            async with store.transaction() as q:
                game_id = await q.insert_game(name=f"game {index}", ruleset="neisg", guild_id=1, channel_id=100 + index,
                                              seed="7", settings={}, schedule={"kind": "manual"}, created_at=START,
                                              created_by=99)
                await q.update_game(game_id, status="running", update_no=updates + 1)
                for user_id in range(1, players + 1):
                    await q.insert_player(game_id=game_id, user_id=user_id, name=f"P{user_id:04d}",
                                          colour=f"Colour{user_id}", joined_at=START, joined_update=1)
                for update_no in range(1, updates + 1):
                    at = START + timedelta(hours=update_no)
                    await q.insert_orders(game_id=game_id, update_no=update_no, submitted_at=at, superseded=(),
                                          orders=[(user_id, f"K(0,{update_no})-(0,{update_no + 1})",
                                                   f"K(0,{update_no})-(0,{update_no + 1})", "channel", "resolved")
                                                  for user_id in range(1, players + 1)])
                    await q.insert_snapshot(game_id=game_id, update_no=update_no, revision=0, base_revision=0,
                                            state=small, orders={}, seed="7", report={"entries": []}, reason="update",
                                            created_at=at)
                    await q.insert_posts(game_id=game_id, created_at=at, posts=[
                        (update_no, "board", f"Update {update_no}", board, f"board-{update_no}.png", None),
                        (update_no, "report", "The report " * 50, None, None, None),
                        *((update_no, "private_report", f"Your report, player {user_id}", None, None, user_id)
                          for user_id in range(1, players + 1))])
                    await q.audit(game_id=game_id, actor=0, action="resolve", detail={"update": update_no}, at=at)
        big = serialize.dumps(build(1000, 50_000))
        async with store.transaction() as q:
            game_id = await q.insert_game(name="big", ruleset="neisg", guild_id=1, channel_id=99, seed="7", settings={},
                                          schedule={"kind": "manual"}, created_at=START, created_by=99)
        for update_no in range(big_snapshots):
            async with store.transaction() as q:
                await q.insert_snapshot(game_id=game_id, update_no=update_no, revision=0, base_revision=None,
                                        state=big, orders={}, seed="7", report=None, reason="update", created_at=START)
    finally:
        await store.close()


def measure(label: str, source: str, target: str, size: int) -> None:
    before = reset_peak()
    began = time.perf_counter()
    result = asyncio.run(copy_store(source, target))
    seconds = time.perf_counter() - began
    peak = status_kib("VmHWM")
    rise = "" if peak is None or before is None else f", peak memory +{(peak - before) / 1024:.0f} MB"
    print(f"{label}: {result.rows:,} rows ({size / 1e6:.0f} MB) in {seconds:.1f} s: {result.rows / seconds:,.0f} "
          f"rows/s, {size / 1e6 / seconds:.0f} MB/s{rise}")
    print("   " + ", ".join(f"{table.name} {table.rows:,}" for table in result.tables))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--updates", type=int, default=20)
    parser.add_argument("--big-snapshots", type=int, default=10)
    parser.add_argument("--postgres-url", default=None)
    args = parser.parse_args()
    server = None
    url = args.postgres_url
    if url is None:
        sys.path.insert(0, str(ROOT / "tests"))
        from postgres import PostgresServer

        server = PostgresServer()
        url = server.url_of(server.create_database())
    try:
        with tempfile.TemporaryDirectory() as folder:
            source = Path(folder) / "source.sqlite3"
            began = time.perf_counter()
            asyncio.run(seed(source, args.games, args.players, args.updates, args.big_snapshots))
            size = os.path.getsize(source)
            print(f"seeded {source.name}: {size / 1e6:.0f} MB in {time.perf_counter() - began:.0f} s")
            measure("SQLite -> PostgreSQL", str(source), url, size)
            measure("PostgreSQL -> SQLite", url, str(Path(folder) / "back.sqlite3"), size)
    finally:
        if server is not None:
            server.close()


if __name__ == "__main__":
    main()
