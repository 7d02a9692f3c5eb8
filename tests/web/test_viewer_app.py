"""The viewer's application through aiohttp's test client: pages, data, tiles, secrecy, bad input."""

from __future__ import annotations

import io
import json

import pytest
from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from bot.web import CSP, make_app

from viewer_game import GAME_NAME, PLAYERS, SECRET  # noqa: E402  (put on the path by conftest.py)


@pytest.fixture
async def client(viewer_service):
    async with TestClient(TestServer(make_app(viewer_service))) as client:
        yield client


async def test_the_games_page_links_each_game_with_its_name_escaped(client, viewer_db):
    _, game_id = viewer_db
    response = await client.get("/")
    assert response.status == 200
    page = await response.text()
    assert f'<a href="/games/{game_id}">' in page
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert response.headers["Content-Security-Policy"] == CSP
    assert "'unsafe-inline'" not in CSP and "script-src 'self'" in CSP


async def test_the_board_page_is_static_and_strict(client, viewer_db):
    _, game_id = viewer_db
    response = await client.get(f"/games/{game_id}?update=2&at=0,1&zoom=3")
    assert response.status == 200
    page = await response.text()
    assert "/static/leaflet/leaflet.js" in page and "<script>" not in page and " style=" not in page
    assert " on" not in page.replace(" one", "")        # no inline event handler attribute
    for path in ("/static/leaflet/leaflet.js", "/static/leaflet/leaflet.css", "/static/leaflet/LICENSE",
                 "/static/viewer.js", "/static/viewer.css", "/favicon.ico"):
        assert (await client.get(path)).status == 200, path


async def test_an_update_tells_its_report_standings_and_legend_with_names_as_data(client, viewer_db):
    _, game_id = viewer_db
    data = await (await client.get(f"/api/games/{game_id}/updates/latest")).json()
    assert data["update"] == 3 and data["latest"] == 3
    assert data["game"]["name"] == GAME_NAME                 # text, for the page to set as text
    assert [p["name"] for p in data["legend"]["players"]] == sorted(name for _, name, _, _ in PLAYERS)
    assert any("{{7*7}}<script>\u202e" in line for line in data["standings"]["lines"])
    moved = [line for line in data["report"] if "K(0,1)-(0,2)" in line["text"]]
    assert moved and [0, 1] in moved[0]["squares"] and [0, 2] in moved[0]["squares"]
    assert {"from": [0, 1], "to": [0, 2], "capture": False} in data["last_moves"]
    earlier = await (await client.get(f"/api/games/{game_id}/updates/2")).json()
    assert earlier["update"] == 2 and any("K(0,0)-(0,1)" in line["text"] for line in earlier["report"])


async def test_nothing_served_tells_the_pending_secret_order(client, viewer_db):
    _, game_id = viewer_db
    answers = [await client.get("/"), await client.get(f"/games/{game_id}")]
    for update in ("latest", "0", "1", "2", "3"):
        answers.append(await client.get(f"/api/games/{game_id}/updates/{update}"))
        answers.append(await client.get(f"/api/games/{game_id}/updates/{update}/squares/0/2"))
        answers.append(await client.get(f"/api/games/{game_id}/updates/{update}/search?q=Ada"))
    for response in answers:
        text = await response.text()
        assert SECRET not in text and "K(0,2)" not in text     # no order from the king's square yet
    assert (await client.get(f"/api/games/{game_id}/updates/4")).status == 404     # not resolved: not shown


async def test_a_square_lists_its_pieces_and_the_engine_legal_moves(client, viewer_db):
    _, game_id = viewer_db
    data = await (await client.get(f"/api/games/{game_id}/updates/3/squares/0/2")).json()
    [king] = data["pieces"]
    assert (king["kind"], king["owner"]) == ("King", "Ada")
    assert sorted(map(tuple, king["destinations"])) == sorted(
        (0 + dx, 2 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))
    empty = await (await client.get(f"/api/games/{game_id}/updates/3/squares/5/5")).json()
    assert empty["pieces"] == []


async def test_search_finds_a_player_and_a_square(client, viewer_db):
    _, game_id = viewer_db
    found = await (await client.get(f"/api/games/{game_id}/updates/3/search", params={"q": "{{7*7}}"})).json()
    x0, y0, x1, y1 = found["region"]
    assert x0 <= 1 <= x1 and y0 <= 9 <= y1
    assert (await (await client.get(f"/api/games/{game_id}/updates/3/search?q=4,-2")).json())["square"] == [4, -2]
    missing = await client.get(f"/api/games/{game_id}/updates/3/search?q=nobody-here")
    assert missing.status == 400 and "nobody-here" in (await missing.json())["error"]


async def test_tiles_are_pictures_kept_forever(client, viewer_db):
    _, game_id = viewer_db
    data = await (await client.get(f"/api/games/{game_id}/updates/3")).json()
    frame = data["frame"]
    for zoom in range(frame["max_zoom"] + 1):
        response = await client.get(f"/api/games/{game_id}/tiles/3/{data['revision']}/{zoom}/0/0.png")
        assert response.status == 200, zoom
        assert "immutable" in response.headers["Cache-Control"]
        assert Image.open(io.BytesIO(await response.read())).size == (256, 256)


@pytest.mark.parametrize("path, status", [
    ("/games/999", 404), ("/games/abc", 404), ("/games/0", 404), ("/games/-1", 404),
    ("/games/{g}?update=99", 404), ("/games/{g}?update=-1", 400), ("/games/{g}?update=x", 400),
    ("/games/{g}?update=99999999999999999999", 400), ("/games/{g}?zoom=99", 400), ("/games/{g}?zoom=-1", 400),
    ("/games/{g}?zoom=1.5", 400), ("/games/{g}?at=1", 400), ("/games/{g}?at=1,2,3", 400),
    ("/games/{g}?at=a,b", 400), ("/games/{g}?at=99999999999,0", 400),
    ("/api/games/{g}/updates/9", 404), ("/api/games/{g}/updates/nine", 400), ("/api/games/999/updates/latest", 404),
    ("/api/games/{g}/updates/3/squares/1/x", 400), ("/api/games/{g}/updates/3/squares/99999999999/0", 400),
    ("/api/games/{g}/tiles/3/0/99/0/0.png", 400), ("/api/games/{g}/tiles/3/0/0/1/0.png", 400),
    ("/api/games/{g}/tiles/3/0/2/-1/0.png", 400), ("/api/games/{g}/tiles/3/0/2/0/99999999999999999.png", 400),
    ("/api/games/{g}/tiles/3/0/2/0/4.png", 400), ("/api/games/{g}/tiles/3/9/0/0/0.png", 404),
    ("/api/games/{g}/tiles/7/0/0/0/0.png", 404), ("/static/../app.py", 404), ("/static/%2e%2e/app.py", 404),
    ("/static/..%2fapp.py", 404), ("/nothing", 404),
])
async def test_bad_requests_are_refused_in_words_never_500(client, viewer_db, path, status):
    _, game_id = viewer_db
    response = await client.get(path.replace("{g}", str(game_id)))
    assert response.status == status
    text = await response.text()
    assert "Traceback" not in text and len(text) < 500
    if path.startswith("/api/") and status == 400:
        assert json.loads(text)["error"]


def test_the_viewer_talks_to_the_service_only():
    """ARCHITECTURE.md: bot/web is a front end like the cogs: no store, no engine."""
    import ast
    from pathlib import Path

    import bot.web

    for path in Path(bot.web.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not name.startswith(("bot.store", "bot.engine", "bot.render")), (path.name, name)
