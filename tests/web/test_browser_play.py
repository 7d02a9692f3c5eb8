"""Playing from the private page in a real browser (issue 41): Debian's Chromium driven by Playwright
plays a player of a neisg game and of an arena game through their private links, by clicks.

One ``python -m bot web`` and one browser for the module (the fixtures of test_browser.py).
"""

from __future__ import annotations

import asyncio
import socket
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.service import Service
from bot.store import Store

from test_browser import ROOT, _Watched, browser  # noqa: F401  (the module's browser fixture)
from viewer_game import MODERATOR, SECRET, build_viewer_db  # noqa: E402  (put on the path by conftest.py)

ADA, ALICE, BOB, ANN = 1, 11, 12, 21


def _in_thread(work):
    """Run ``work(service)`` on the test's database (Playwright's own event loop runs in this thread)."""
    def run(path):
        async def main():
            store = await Store.open(path)
            try:
                return await work(Service(store))
            finally:
                await store.close()
        return asyncio.run(main())
    return run


def _call(path, work):
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(_in_thread(work), path).result()


async def _arena(service) -> int:
    game = await service.create_game(guild_id=1, channel_id=41, actor=MODERATOR, ruleset="arena", seed=3,
                                     name="arena by clicks")
    await service.join(game.id, user_id=ALICE, name="Alice", colour="Red")
    await service.join(game.id, user_id=BOB, name="Bob", colour="Blue")
    await service.start_game(game.id, actor=MODERATOR)
    return game.id


async def _territory(service) -> int:
    game = await service.create_game(guild_id=1, channel_id=42, actor=MODERATOR, ruleset="territory", seed=3,
                                     name="territory by clicks")
    await service.join(game.id, user_id=ANN, name="Ann", colour="Red")
    await service.join(game.id, user_id=BOB + 10, name="Bob", colour="Blue")
    await service.start_game(game.id, actor=MODERATOR)
    return game.id


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """(base URL, database path, neisg game id, arena game id, territory game id) of a ``python -m bot web``."""
    path = tmp_path_factory.mktemp("play") / "skirmish.sqlite3"
    neisg = build_viewer_db(path)
    arena = _call(path, _arena)
    territory = _call(path, _territory)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-m", "bot", "web", "--store-url", f"sqlite:///{path}", "--port", str(port)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline().strip()
        assert line.startswith("viewer: http://127.0.0.1:"), (line, process.stderr.read() if process.poll() else "")
        yield line.removeprefix("viewer: ").rstrip("/"), path, neisg, arena, territory
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.fixture
def watched(browser):  # noqa: F811
    opened = _Watched(browser)
    yield opened
    opened.close()


def _link(path, game_id, user_id) -> str:
    async def work(service):
        return (await service.player_link(game_id, user_id=user_id)).url
    return _call(path, work)


def _rows(path, sql, params=()):
    connection = sqlite3.connect(path)
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


def _click_square(watched, x, y) -> None:
    point = watched.page.evaluate("""([x, y]) => {
        const V = window.SkirmishViewer, p = V.map().latLngToContainerPoint(V.squareCentre(x, y));
        const r = document.getElementById("board").getBoundingClientRect();
        return [r.left + p.x, r.top + p.y];
    }""", [x, y])
    watched.page.mouse.click(*point)


def _move_by_clicks(watched, origin, target) -> None:
    _click_square(watched, *origin)
    watched.page.wait_for_selector("#message:has-text('click a lit square')")
    _click_square(watched, *target)


def _open(watched, base, path, game_id, user_id, at) -> None:
    url = _link(path, game_id, user_id).replace(f"/games/{game_id}/me#", f"/games/{game_id}/me?at={at}#")
    watched.open(base + url)
    watched.page.wait_for_selector("#seat-title:has-text('Your seat: ')")
    assert "#t=" not in watched.page.url                     # the token left the address bar at once


def _resolve(path, game_id, update) -> None:
    async def work(service):
        assert (await service.resolve_if_due(game_id, update, force=True)).resolved
    _call(path, work)


def test_a_neisg_player_orders_by_clicks_and_sees_the_next_position(played, watched):
    base, path, game_id, _, _ = played
    _open(watched, base, path, game_id, ADA, "0,2")
    page = watched.page
    assert page.inner_text("#pending") == SECRET                 # their own pending order, to them only
    assert "secret" in page.inner_text("#may-order")
    posts_before = {row[0] for row in _rows(path, "SELECT id FROM outbox WHERE recipient IS NULL")}
    _move_by_clicks(watched, (0, 2), (0, 3))
    page.wait_for_selector("#check.ok")
    assert page.input_value("#order") == "K(0,2)-(0,3)"
    assert page.inner_text("#check") == "Valid: K(0,2)-(0,3)"
    page.fill("#order", "K(0,2)-(0,9)")                          # edited by hand: checked live, refused
    page.wait_for_selector("#check.refused")
    assert "(0,9)" in page.inner_text("#check")
    page.fill("#order", "K(0,2)-(0,3)")
    page.wait_for_selector("#check.ok")
    page.click("#send")
    page.wait_for_selector("#receipt:has-text('accepted')")
    assert "K(0,2)-(0,3)" in page.inner_text("#receipt")
    page.wait_for_selector("#pending:text-is('K(0,2)-(0,3)')")
    assert _rows(path, "SELECT canonical, source FROM orders WHERE game_id = ? AND user_id = ? AND status = 'pending'",
                 (game_id, ADA)) == [("K(0,2)-(0,3)", "dm")]
    new_posts = [body for post_id, body in _rows(path, "SELECT id, body FROM outbox WHERE recipient IS NULL")
                 if post_id not in posts_before]
    assert all("(0,3)" not in body for body in new_posts)
    _resolve(path, game_id, 4)
    page.wait_for_selector("#position:has-text('Update 4 of 4')", timeout=10_000)   # polled, no reload
    assert "K(0,2)-(0,3)" in page.inner_text("#report")
    assert watched.problems == []


def test_an_arena_player_sends_two_moves_by_clicks(played, watched):
    base, path, _, game_id, _ = played
    _open(watched, base, path, game_id, ALICE, "1,-3")
    page = watched.page
    posts_before = {row[0] for row in _rows(path, "SELECT id FROM outbox WHERE recipient IS NULL")}
    _move_by_clicks(watched, (1, -4), (2, -2))
    page.wait_for_selector("#check.refused")                     # one move of the two this round asks
    assert "2 different pieces" in page.inner_text("#check")
    _move_by_clicks(watched, (0, -2), (0, -1))
    page.wait_for_selector("#check.ok")
    assert page.input_value("#order") == "N(1,-4)-(2,-2)\nP(0,-2)-(0,-1)"
    assert page.inner_text("#check") == "Valid: N(1,-4)-(2,-2); P(0,-2)-(0,-1)"
    page.click("#send")
    page.wait_for_selector("#receipt:has-text('accepted')")
    assert _rows(path, "SELECT canonical FROM orders WHERE game_id = ? AND user_id = ? AND status = 'pending'",
                 (game_id, ALICE)) == [("N(1,-4)-(2,-2); P(0,-2)-(0,-1)",)]
    new_posts = [body for post_id, body in _rows(path, "SELECT id, body FROM outbox WHERE recipient IS NULL")
                 if post_id not in posts_before]
    assert new_posts and all("Alice" in body and "(2,-2)" not in body for body in new_posts)
    _resolve(path, game_id, 1)
    page.wait_for_selector("#position:has-text('Update 1 of 1')", timeout=10_000)
    assert watched.problems == []


def _placeable(path, game_id, user_id, letter) -> tuple[int, int]:
    """The first square, row by row from the bottom, where the player may place ``letter`` now."""
    async def work(service):
        token = (await service.player_link(game_id, user_id=user_id)).token
        for y in range(-5, 6):
            for x in range(-5, 6):
                if (await service.web_check(game_id, token, f"+{letter}({x},{y})"))["ok"]:
                    return x, y
        raise AssertionError(f"{letter} may be placed nowhere")
    return _call(path, work)


def test_a_territory_turn_placed_from_the_reserve_by_clicks(played, watched):
    base, path, _, _, game_id = played
    x, y = _placeable(path, game_id, ANN, "Wood")
    _open(watched, base, path, game_id, ANN, f"{x},{y}")
    page = watched.page
    assert "Wood (Wood)" in page.inner_text("#reserve") and "Balance (Bal)" in page.inner_text("#draft")
    page.click("#reserve button[data-letter=Wood]")
    page.wait_for_selector("#message:has-text('Click a square to place your Wood')")
    _click_square(watched, x, y)
    page.wait_for_selector("#check.ok")
    assert page.input_value("#order") == f"+Wood({x},{y})"
    page.click("#send")
    page.wait_for_selector("#receipt:has-text('accepted')")
    assert _rows(path, "SELECT canonical FROM orders WHERE game_id = ? AND user_id = ? AND status IN "
                       "('pending', 'locked', 'resolved')", (game_id, ANN)) == [(f"+Wood({x},{y})",)]
    assert "resolves now" in page.inner_text("#receipt")          # a turn ends at its first accepted order
    _resolve(path, game_id, 1)                                     # what the bot's scheduler then does
    page.wait_for_selector("#position:has-text('Update 1 of 1')", timeout=10_000)
    page.wait_for_selector("#may-order:has-text('Who may order now: Bob.')")       # Bob's turn now
    assert watched.problems == []
