"""The web viewer's speed and memory: `python benchmarks/web.py [--quick] [--viewers N]`.

For each board (1,000 players / 50,000 pieces; 10,000 players / 500,000 pieces, left out by
``--quick``; both from benchmarks/resolve.py's ``build``), a store holding it as a game's resolved
update is served by ``python -m bot web`` in its own process, and this script measures, over HTTP on
loopback:

* the first answer about the update (the state read from the store and indexed, once per update);
* a tile cold (drawn) and warm (from the cache), p50 and p99, over tiles at every zoom around the
  armies (goal: p99 < 100 ms cold, < 5 ms warm);
* the time from opening a deep link in Chromium to the board painted: every tile in view loaded
  (goal < 1.5 s; skipped without /usr/bin/chromium and Playwright);
* 100 viewers panning at once (each a bounded walk of pans, each pan asking for the tiles a 1,100 x
  700 window shows): the p99 of a tile and how many requests failed (goal p99 < 300 ms, none dropped);
* the web process's memory: resident now and its peak (goal < 500 MB at 500,000 pieces).

These are goals to report against on this 2-core machine, not tests.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import aiohttp  # noqa: E402

from _timing import percentile  # noqa: E402
from resolve import build  # noqa: E402

from bot.engine import serialize  # noqa: E402
from bot.render.palette import colour_names  # noqa: E402
from bot.service import Moderator, Service  # noqa: E402
from bot.store import Store  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
WINDOW = (1100, 700)


async def make_store(path: Path, players: int, pieces: int) -> tuple[int, tuple[int, int]]:
    """A store with one game whose update 1 is the built board; (game id, a king's square)."""
    colours = colour_names()
    state = build(players, pieces, colours=[colours[i % len(colours)] for i in range(players)])
    store = await Store.open(path)
    try:
        service = Service(store)
        moderator = Moderator(user_id=99, guild_id=1)
        game = await service.create_game(guild_id=1, channel_id=10, actor=moderator, schedule="manual", seed=7,
                                         name=f"{players:,} players, {pieces:,} pieces")
        game = await service.start_game(game.id, actor=moderator)
        text = await asyncio.to_thread(serialize.dumps, state)
        async with store.transaction() as q:
            await q.insert_snapshot(game_id=game.id, update_no=1, revision=0, base_revision=0, state=text, orders={},
                                    seed="7", report=None, reason="update", created_at=datetime.now(timezone.utc))
            await q.update_game(game.id, snapshot_update=1, snapshot_revision=0, update_no=2)
        king = next(piece.square for piece in state.board if piece.kind == "K")
        return game.id, king
    finally:
        await store.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def memory_mib(pid: int) -> tuple[float, float]:
    """(resident, peak resident) of a process, MiB."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            values[line.split(":")[0]] = int(line.split()[1]) / 1024
    return values.get("VmRSS", float("nan")), values.get("VmHWM", float("nan"))


class Viewer:
    def __init__(self, base: str, game_id: int, frame: dict, revision: int) -> None:
        self.base, self.game_id, self.frame, self.revision = base, game_id, frame, revision

    def tile_url(self, zoom: int, tx: int, ty: int) -> str:
        return f"{self.base}/api/games/{self.game_id}/tiles/1/{self.revision}/{zoom}/{tx}/{ty}.png"

    def tile_of(self, zoom: int, square: tuple[int, int]) -> tuple[int, int]:
        pixels = 2.0 ** (8 + zoom - self.frame["k"])
        return (int((square[0] - self.frame["left"]) * pixels) // 256,
                int((self.frame["top"] - square[1]) * pixels) // 256)

    def window(self, zoom: int, square: tuple[int, int]) -> list[tuple[int, int]]:
        """The tiles a WINDOW-sized view centred on ``square`` shows."""
        tx, ty = self.tile_of(zoom, square)
        across, down = WINDOW[0] // 512 + 1, WINDOW[1] // 512 + 1
        last = (1 << zoom) - 1
        return [(x, y) for x in range(max(0, tx - across), min(last, tx + across) + 1)
                for y in range(max(0, ty - down), min(last, ty + down) + 1)]


async def timed_get(session: aiohttp.ClientSession, url: str) -> tuple[float, int]:
    started = time.perf_counter()
    async with session.get(url) as response:
        await response.read()
        return (time.perf_counter() - started) * 1000, response.status


async def tiles_cold_warm(viewer: Viewer, squares: list[tuple[int, int]]) -> None:
    asked = []
    for zoom in range(viewer.frame["max_zoom"] + 1):
        for square in squares:
            tile = viewer.tile_of(zoom, square)
            if (zoom, tile) not in asked:
                asked.append((zoom, tile))
    async with aiohttp.ClientSession() as session:
        for label in ("cold", "warm"):
            times = []
            for zoom, (tx, ty) in asked:
                elapsed, status = await timed_get(session, viewer.tile_url(zoom, tx, ty))
                assert status == 200, (status, zoom, tx, ty)
                times.append(elapsed)
            times.sort()
            print(f"  tile {label}: p50 {percentile(times, 50):.1f} ms, p99 {percentile(times, 99):.1f} ms, "
                  f"max {times[-1]:.1f} ms over {len(times)} tiles (zoom 0 to {viewer.frame['max_zoom']})", flush=True)


async def viewers_panning(viewer: Viewer, kings: list[tuple[int, int]], count: int, pans: int) -> None:
    rng = random.Random(5)
    times: list[float] = []
    failed = 0
    zoom_choices = list(range(max(0, viewer.frame["max_zoom"] - 3), viewer.frame["max_zoom"] + 1))

    async def one(session: aiohttp.ClientSession, number: int) -> None:
        nonlocal failed
        local = random.Random(number)
        x, y = local.choice(kings)
        zoom = local.choice(zoom_choices)
        step = max(1, int(600 / 2.0 ** (8 + zoom - viewer.frame["k"])))     # about 600 pixels a pan
        for _ in range(pans):
            for tx, ty in viewer.window(zoom, (x, y)):
                try:
                    elapsed, status = await timed_get(session, viewer.tile_url(zoom, tx, ty))
                except (aiohttp.ClientError, asyncio.TimeoutError):
                    failed += 1
                    continue
                if status != 200:
                    failed += 1
                times.append(elapsed)
            x += local.randint(-step, step)
            y += local.randint(-step, step)

    del rng
    connector = aiohttp.TCPConnector(limit=0)
    started = time.perf_counter()
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=120)) as session:
        await asyncio.gather(*(one(session, number) for number in range(count)))
    seconds = time.perf_counter() - started
    times.sort()
    print(f"  {count} viewers panning ({pans} pans each, {len(times):,} tiles in {seconds:.1f} s): "
          f"p50 {percentile(times, 50):.0f} ms, p99 {percentile(times, 99):.0f} ms, failed {failed}", flush=True)


def deep_link_painted(url: str) -> float | None:
    """Seconds from opening ``url`` in Chromium to every tile in view loaded; None without a browser."""
    if not Path(CHROMIUM).exists():
        return None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": WINDOW[0], "height": WINDOW[1]}, device_scale_factor=1)
            page.goto("about:blank")
            started = time.perf_counter()
            page.goto(url)
            page.wait_for_selector("body[data-ready=true]")
            page.wait_for_selector(".leaflet-tile-container img")
            while page.locator(".leaflet-tile-container img:not(.leaflet-tile-loaded)").count():
                page.wait_for_timeout(10)
            return time.perf_counter() - started
        finally:
            browser.close()


async def measure(players: int, pieces: int, viewers: int, pans: int) -> None:
    print(f"\n{players:,} players, {pieces:,} pieces", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "skirmish.sqlite3"
        started = time.perf_counter()
        game_id, king = await make_store(path, players, pieces)
        print(f"  board built and stored in {time.perf_counter() - started:.1f} s", flush=True)
        port = free_port()
        process = subprocess.Popen([sys.executable, "-m", "bot", "web", "--store-url", f"sqlite:///{path}",
                                    "--port", str(port)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        try:
            line = process.stdout.readline().strip()
            base = line.removeprefix("viewer: ").rstrip("/")
            async with aiohttp.ClientSession() as session:
                started = time.perf_counter()
                async with session.get(f"{base}/api/games/{game_id}/updates/latest") as response:
                    described = await response.json()
                print(f"  first answer about the update (state read and indexed): "
                      f"{time.perf_counter() - started:.2f} s", flush=True)
            viewer = Viewer(base, game_id, described["frame"], described["revision"])
            rng = random.Random(3)
            state_kings = [king] + [(king[0] + 40 * rng.randint(0, 20), king[1] + 40 * rng.randint(0, 20))
                                    for _ in range(6)]
            await tiles_cold_warm(viewer, state_kings)
            far = (king[0] + 40 * 7, king[1] + 40 * 5)
            zoom = described["frame"]["max_zoom"] - 1
            painted = await asyncio.to_thread(deep_link_painted,
                                              f"{base}/games/{game_id}?update=1&at={far[0]},{far[1]}&zoom={zoom}")
            print("  deep link to painted in Chromium: " + ("skipped (no Chromium or Playwright)" if painted is None
                                                           else f"{painted:.2f} s (cold tiles)"), flush=True)
            kings = [(king[0] + 40 * rng.randint(0, 30), king[1] + 40 * rng.randint(0, 30)) for _ in range(200)]
            await viewers_panning(viewer, kings, viewers, pans)
            resident, peak = memory_mib(process.pid)
            print(f"  web process memory: resident {resident:.0f} MiB, peak {peak:.0f} MiB", flush=True)
        finally:
            process.terminate()
            process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the 50,000-piece board")
    parser.add_argument("--viewers", type=int, default=100, help="viewers panning at once (default 100)")
    parser.add_argument("--pans", type=int, default=5, help="pans each viewer makes (default 5)")
    args = parser.parse_args()
    sizes = [(1_000, 50_000)] + ([] if args.quick else [(10_000, 500_000)])
    for players, pieces in sizes:
        asyncio.run(measure(players, pieces, args.viewers, args.pans))


if __name__ == "__main__":
    main()
