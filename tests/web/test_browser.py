"""The viewer in a real browser: Debian's Chromium driven by Playwright (issue 40).

One viewer (``python -m bot web`` on the tests' played game) and one browser for the module. Without
Chromium (``/usr/bin/chromium``) or Playwright these tests skip with a warning; with
``SKIRMISH_REQUIRE_BROWSER=1`` (set in ``.ci/run``) they fail instead.
"""

from __future__ import annotations

import asyncio
import io
import os
import socket
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from viewer_game import build_viewer_db  # noqa: E402  (put on the path by conftest.py)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ROOT = Path(__file__).resolve().parents[2]


def _browser_missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install playwright)"
    return None


@pytest.fixture(scope="module")
def browser():
    missing = _browser_missing()
    if missing:
        if os.environ.get("SKIRMISH_REQUIRE_BROWSER") == "1":
            pytest.fail(f"the browser tests must run here (SKIRMISH_REQUIRE_BROWSER=1): {missing}")
        warnings.warn(f"browser tests skipped: {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def viewer(tmp_path_factory):
    """(base URL, game id, database path) of a ``python -m bot web`` serving the played game."""
    path = tmp_path_factory.mktemp("browser") / "skirmish.sqlite3"
    game_id = build_viewer_db(path)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-m", "bot", "web", "--store-url", f"sqlite:///{path}", "--port", str(port)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline().strip()
        assert line.startswith("viewer: http://127.0.0.1:"), (line, process.stderr.read() if process.poll() else "")
        yield line.removeprefix("viewer: ").rstrip("/"), game_id, path
    finally:
        process.terminate()
        process.wait(timeout=20)


class _Watched:
    """A page with what went wrong on it: console errors, page errors, failed or refused requests."""

    def __init__(self, browser, **options) -> None:
        self.context = browser.new_context(viewport={"width": 1100, "height": 700}, device_scale_factor=1, **options)
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.tiles: list[str] = []
        page = self.page
        page.on("console", lambda m: m.type in ("error", "warning") and self.problems.append(f"console {m.type}: {m.text}"))
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on("requestfailed", lambda r: self.problems.append(f"failed: {r.url} {r.failure}"))
        page.on("response", self._response)

    def _response(self, response) -> None:
        if response.status >= 400:
            self.problems.append(f"{response.status}: {response.url}")
        if "/tiles/" in response.url:
            self.tiles.append(response.url)

    def open(self, url: str) -> None:
        self.page.goto(url, wait_until="networkidle")
        self.page.wait_for_selector("body[data-ready=true]")
        self.settle()

    def settle(self) -> None:
        self.page.wait_for_load_state("networkidle")
        self.page.wait_for_timeout(400)     # Leaflet fades new tiles in (0.2 s)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def watched(browser):
    opened = _Watched(browser)
    yield opened
    opened.close()


def test_the_board_loads_clean_and_goes_idle(viewer, watched):
    base, game_id, _ = viewer
    watched.open(f"{base}/games/{game_id}")
    assert watched.problems == []
    assert watched.tiles, "no tile was asked for"
    assert watched.page.inner_text("#position").startswith("Update 3 of 3")
    assert "{{7*7}}<script>" in watched.page.inner_text("#players")          # names shown as text
    assert watched.page.evaluate("document.querySelectorAll('#side script, #side [onmouseover]').length") == 0


def test_panning_and_zooming_fetch_tiles(viewer, watched):
    base, game_id, _ = viewer
    watched.open(f"{base}/games/{game_id}?update=3&at=0,2&zoom=2")
    before = set(watched.tiles)
    box = watched.page.locator("#board").bounding_box()
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    watched.page.mouse.move(*middle)
    watched.page.mouse.down()
    watched.page.mouse.move(middle[0] + 200, middle[1] + 130, steps=8)
    watched.page.wait_for_timeout(300)      # still before letting go: no inertia carries the board on
    watched.page.mouse.up()
    watched.settle()
    panned = set(watched.tiles) - before
    assert panned and all("/tiles/3/0/2/" in url for url in panned)
    watched.page.click(".leaflet-control-zoom-in")
    watched.settle()
    assert any("/tiles/3/0/3/" in url for url in watched.tiles), (watched.page.url, watched.tiles[-5:])
    assert "zoom=3" in watched.page.url
    assert watched.problems == []


def test_a_click_on_a_piece_lists_its_legal_moves(viewer, watched):
    base, game_id, _ = viewer
    watched.open(f"{base}/games/{game_id}?update=3&at=0,2&zoom=2")
    box = watched.page.locator("#board").bounding_box()
    watched.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    watched.page.wait_for_selector("#square .legal-moves")
    text = watched.page.inner_text("#square")
    assert "(0,2)" in text and "Ada's King" in text and "May move to 8 squares" in text
    assert watched.page.locator("#board path.leaflet-interactive, #board svg path").count() >= 9   # the square and its 8 moves
    assert watched.problems == []


def test_the_slider_shows_update_3s_position(viewer, watched):
    base, game_id, _ = viewer
    watched.open(f"{base}/games/{game_id}?update=1&at=0,2&zoom=2")
    assert watched.page.inner_text("#position").startswith("Update 1 of 3")
    watched.page.locator("#slider").fill("3")
    watched.page.wait_for_selector("#position:has-text('Update 3 of 3')")
    watched.settle()
    assert any("/tiles/3/" in url for url in watched.tiles)
    assert "update=3" in watched.page.url and "K(0,1)-(0,2)" in watched.page.inner_text("#report")
    watched.page.keyboard.press("[")
    watched.page.wait_for_selector("#position:has-text('Update 2 of 3')")
    assert watched.problems == []


def _viewed(path, game_id, update):
    from bot.service import Service
    from bot.store import Store

    async def read():
        store = await Store.open(path)
        try:
            return await Service(store).viewed_update(game_id, update)
        finally:
            await store.close()
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as thread:       # Playwright's own event loop runs in this one
        return thread.submit(asyncio.run, read()).result()


def test_a_deep_link_opens_centred_on_the_painters_own_pixels(viewer, watched):
    from bot.render.board import paint_squares

    base, game_id, path = viewer
    viewed = _viewed(path, game_id, 3)
    zoom = 1
    scale = int(viewed.frame.square_pixels(zoom))
    assert scale >= 16 and scale == viewed.frame.square_pixels(zoom)
    watched.open(f"{base}/games/{game_id}?update=3&at=0,2&zoom={zoom}")
    assert "at=0%2C2" in watched.page.url and f"zoom={zoom}" in watched.page.url
    box = watched.page.locator("#board").bounding_box()
    shot = Image.open(io.BytesIO(watched.page.screenshot(clip=box))).convert("RGB")
    # the centre square (0,2) is drawn around the board's middle; five squares a side around it
    expected = paint_squares(viewed.ruleset, viewed.state, (-2, 0, 2, 4), scale, last_moves=viewed.last_moves,
                             additions=viewed.additions, palette=viewed.palette).convert("RGB")
    left = round(box["width"] / 2 - scale / 2 - 2 * scale)
    top = round(box["height"] / 2 - scale / 2 - 2 * scale)
    matches = []
    for dx in (-1, 0, 1):           # Leaflet rounds the map's pixel origin: at most a pixel off the middle
        for dy in (-1, 0, 1):
            region = shot.crop((left + dx, top + dy, left + dx + 5 * scale, top + dy + 5 * scale))
            if ImageChops.difference(region, expected).getbbox() is None:
                matches.append((dx, dy))
    if not matches and os.environ.get("SKIRMISH_KEEP_SHOTS"):
        shot.save(os.environ["SKIRMISH_KEEP_SHOTS"] + "/shot.png")
        expected.save(os.environ["SKIRMISH_KEEP_SHOTS"] + "/expected.png")
    assert matches, "no screenshot region equals the painter's squares"
    assert watched.problems == []
