"""Players' private links (issue 41): tokens, their refusals, and orders sent from the private page,
through the service and through the web application (aiohttp's test client)."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import timedelta

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import NotAllowed, NotSignedIn, OrderRefused, Service
from bot.store import Store
from bot.web import TOKEN_HEADER, make_app

from viewer_game import MODERATOR, PLAYERS, SECRET, _Clock  # noqa: E402  (put on the path by conftest.py)

ADA, BLUE = 1, 2
ADA_MOVE = "K(0,2)-(0,3)"


@pytest.fixture
def db(viewer_db, tmp_path):
    """A copy of the played game's database for one test (orders change it)."""
    path = tmp_path / "skirmish.sqlite3"
    shutil.copy(viewer_db[0], path)
    return path, viewer_db[1]


@pytest.fixture
async def world(db):
    clock = _Clock()
    store = await Store.open(db[0])
    try:
        yield Service(store, clock=clock), db[1], clock, db[0]
    finally:
        await store.close()


@pytest.fixture
async def client(world):
    service = world[0]
    async with TestClient(TestServer(make_app(service))) as client:
        yield client


def _rows(path, sql, params=()):
    connection = sqlite3.connect(path)
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


def _live_orders(path):
    return _rows(path, "SELECT user_id, canonical, source FROM orders WHERE status = 'pending' ORDER BY user_id")


async def _post(client, game_id, what, text, token):
    headers = {} if token is None else {TOKEN_HEADER: token}
    return await client.post(f"/api/games/{game_id}/me/{what}", json={"text": text}, headers=headers)


async def test_a_link_names_its_player_and_lives_at_the_private_address(world):
    service, game_id, _, _ = world
    link = await service.player_link(game_id, user_id=ADA, base_url="https://skirmish.example/")
    assert link.url == f"https://skirmish.example/games/{game_id}/me#t={link.token}"
    assert (await service.web_player(game_id, link.token)).name == "Ada"
    with pytest.raises(NotAllowed):                     # only a player of the game gets one
        await service.player_link(game_id, user_id=555)


async def test_forged_expired_missing_and_malformed_tokens_answer_401_and_change_nothing(world, client):
    service, game_id, clock, path = world
    token = (await service.player_link(game_id, user_id=ADA)).token
    before = _live_orders(path)
    game, user, expiry, generation, signature = token.split(".")
    forged_for_blue = ".".join((game, str(BLUE), expiry, generation, signature))
    longer = ".".join((game, user, str(int(expiry) + 10**6), generation, signature))
    flipped = token[:-1] + ("A" if token[-1] != "A" else "B")
    for bad in (forged_for_blue, longer, flipped, "nonsense", None):
        for what in ("orders", "check"):
            response = await _post(client, game_id, what, ADA_MOVE, bad)
            assert response.status == 401, (bad, what)
        seen = await client.get(f"/api/games/{game_id}/me", headers={TOKEN_HEADER: bad} if bad else {})
        assert seen.status == 401 and SECRET not in await seen.text()
    clock.now += timedelta(hours=24)
    response = await _post(client, game_id, "orders", ADA_MOVE, token)
    assert response.status == 401 and "expired" in (await response.json())["error"]
    assert _live_orders(path) == before


async def test_a_form_posted_from_another_site_is_refused(world, client):
    service, game_id, _, path = world
    before = _live_orders(path)
    response = await client.post(f"/api/games/{game_id}/me/orders", data={"text": ADA_MOVE},
                                 headers={"Origin": "https://evil.example"})
    assert response.status == 401
    assert _live_orders(path) == before


async def test_revoked_links_and_another_games_link_answer_403(world, client):
    service, game_id, _, path = world
    old = (await service.player_link(game_id, user_id=ADA)).token
    other = await service.create_game(guild_id=1, channel_id=11, actor=MODERATOR, schedule="manual", seed=3,
                                      name="other game")
    await service.start_game(other.id, actor=MODERATOR)
    await service.join(other.id, user_id=ADA, name="Ada", colour="Red")
    elsewhere = (await service.player_link(other.id, user_id=ADA)).token
    before = _live_orders(path)
    response = await _post(client, game_id, "orders", ADA_MOVE, elsewhere)
    assert response.status == 403 and f"for game {other.id}" in (await response.json())["error"]
    with pytest.raises(NotAllowed):
        await service.revoke_links(game_id, actor=type(MODERATOR)(user_id=5, guild_id=2))   # not this server's
    await service.revoke_links(game_id, actor=MODERATOR)
    response = await _post(client, game_id, "orders", ADA_MOVE, old)
    assert response.status == 403 and "revoked" in (await response.json())["error"]
    assert _live_orders(path) == before
    assert any(entry[0] == "revoke_links" for entry in _rows(path, "SELECT action FROM audit WHERE game_id = ?",
                                                             (game_id,)))
    fresh = (await service.player_link(game_id, user_id=ADA)).token      # a new /board gives a working one
    assert (await service.web_player(game_id, fresh)).user_id == ADA
    assert (await service.web_player(other.id, elsewhere)).user_id == ADA   # the other game's are untouched


async def test_a_substitute_kills_the_old_players_links(world):
    service, game_id, _, _ = world
    token = (await service.player_link(game_id, user_id=BLUE)).token
    await service.substitute(game_id, actor=MODERATOR, player=PLAYERS[1][1], user_id=77)
    with pytest.raises(NotAllowed):
        await service.web_player(game_id, token)
    assert (await service.web_player(game_id, (await service.player_link(game_id, user_id=77)).token)).user_id == 77


async def test_one_players_page_never_shows_anothers_pending_order(world, client):
    service, game_id, _, _ = world
    blue = (await service.player_link(game_id, user_id=BLUE)).token
    ada = (await service.player_link(game_id, user_id=ADA)).token
    seen = await client.get(f"/api/games/{game_id}/me", headers={TOKEN_HEADER: blue})
    assert seen.status == 200
    text = await seen.text()
    assert SECRET not in text and (await seen.json())["order"] is None
    own = await (await client.get(f"/api/games/{game_id}/me", headers={TOKEN_HEADER: ada})).json()
    assert own["order"] == SECRET and own["player"] == "Ada" and own["may_order"] and own["secret"]
    assert [0, 2] in own["army"] and own["balance"]


async def test_an_order_from_the_web_is_the_move_commands_order_kept_secret_and_audited(world, client):
    service, game_id, _, path = world
    token = (await service.player_link(game_id, user_id=ADA)).token
    channel_before = {row[0] for row in _rows(path, "SELECT id FROM outbox WHERE recipient IS NULL")}
    checked = await (await _post(client, game_id, "check", "k(0,2)-(0,3)", token)).json()
    assert checked == {"ok": True, "canonical": ADA_MOVE, "lines": [ADA_MOVE]}
    response = await _post(client, game_id, "orders", "k(0,2)-(0,3)", token)
    assert response.status == 200
    sent = await response.json()
    assert sent["canonical"] == ADA_MOVE and sent["secret"] and sent["replaced"] == SECRET
    assert ADA_MOVE in sent["text"]
    assert (1, ADA_MOVE, "dm") in _live_orders(path)
    new_posts = [body for post_id, body in _rows(path, "SELECT id, body FROM outbox WHERE recipient IS NULL")
                 if post_id not in channel_before]
    assert all("(0,3)" not in body for body in new_posts)
    audit = _rows(path, "SELECT actor, detail FROM audit WHERE game_id = ? AND action = 'web_order'", (game_id,))
    assert len(audit) == 1 and audit[0][0] == ADA and '"player": "Ada"' in audit[0][1]
    assert ADA_MOVE not in audit[0][1]                  # the audit says who ordered from the web, not what
    page = await service.audit_page(game_id, actor=MODERATOR)
    assert page.lines[0].text == "Ada sent their order for update 4 from the web page"


async def test_the_live_check_gives_the_same_words_and_rule_as_the_move_command(world, client):
    service, game_id, _, path = world
    token = (await service.player_link(game_id, user_id=ADA)).token
    wrong = "K(0,2)-(0,9)"
    with pytest.raises(OrderRefused) as refused:
        await service.submit_order(game_id, user_id=ADA, text=wrong)
    checked = await (await _post(client, game_id, "check", wrong, token)).json()
    assert checked["ok"] is False and checked["error"] == refused.value.describe()
    assert checked["rule"] == (refused.value.rule or None)
    response = await _post(client, game_id, "orders", wrong, token)
    assert response.status == 422 and (await response.json())["error"] == refused.value.describe()
    assert (1, SECRET, "dm") in _live_orders(path)


async def test_sending_from_the_web_is_rate_limited_per_player(world, client):
    service, game_id, _, path = world
    ada = (await service.player_link(game_id, user_id=ADA)).token
    blue = (await service.player_link(game_id, user_id=BLUE)).token
    for _ in range(10):
        assert (await _post(client, game_id, "orders", ADA_MOVE, ada)).status == 200
    response = await _post(client, game_id, "orders", "K(0,2)-(1,2)", ada)
    assert response.status == 403 and "at most 10 a minute" in (await response.json())["error"]
    assert (1, ADA_MOVE, "dm") in _live_orders(path)           # the refused one changed nothing
    assert (await _post(client, game_id, "orders", "K(9,1)-(9,2)", blue)).status == 200   # others are not held


async def test_the_stores_secret_is_shared_and_the_configured_one_wins(world, db):
    service, game_id, _, _ = world
    token = (await service.player_link(game_id, user_id=ADA)).token
    async with _other_service(db[0]) as other:
        assert (await other.web_player(game_id, token)).user_id == ADA      # one secret for every process
        other.use_link_secret("a configured secret of the server")
        with pytest.raises(NotSignedIn):
            await other.web_player(game_id, token)
        assert (await other.web_player(game_id, (await other.player_link(game_id, user_id=ADA)).token)).name == "Ada"


class _other_service:
    def __init__(self, path):
        self.path = path

    async def __aenter__(self):
        self.store = await Store.open(self.path)
        return Service(self.store, clock=_Clock())

    async def __aexit__(self, *exc):
        await self.store.close()


async def test_the_private_page_is_static_strict_and_carries_no_token(world, client):
    _, game_id, _, _ = world
    response = await client.get(f"/games/{game_id}/me")
    assert response.status == 200
    page = await response.text()
    assert "/static/play.js" in page and "/static/viewer.js" in page and "<script>" not in page
    assert " style=" not in page and " on" not in page.replace(" one", "").replace(" order", "")
    assert response.headers["Referrer-Policy"] == "no-referrer" and "script-src 'self'" in response.headers[
        "Content-Security-Policy"]
    assert (await client.get("/static/play.js")).status == 200
    assert (await client.get(f"/games/{game_id + 100}/me")).status == 404
