"""The viewer's aiohttp application: addresses, parameters and headers; every answer from the service.

Addresses (INTERFACES.md, "The viewer's addresses"):

* ``/``: the games, each a link ``<a href="/games/{id}">``;
* ``/games/{id}?update=N&at=X,Y&zoom=Z``: the board page (a static page; its script reads the rest);
* ``/api/games/{id}/updates/{n}`` (``n``: a number or ``latest``): the update's description (report,
  standings, legend, panels, frame) as JSON;
* ``/api/games/{id}/updates/{n}/squares/{x}/{y}``: the pieces of a square and their legal destinations;
* ``/api/games/{id}/updates/{n}/search?q=TEXT``: a player's or team's pieces, or a square;
* ``/api/games/{id}/tiles/{n}/{revision}/{z}/{x}/{y}.png``: a tile; a revision never changes, so
  tiles are served ``immutable``;
* ``/games/{id}/me#t=TOKEN``: a player's private page (the token in the fragment, never sent in the
  address); its script asks ``/api/games/{id}/me`` (GET: the seat), ``/api/games/{id}/me/check`` and
  ``/api/games/{id}/me/orders`` (POST, JSON ``{"text": ...}``) with the token in the header
  ``X-Skirmish-Token``: without it, or with a forged, expired, revoked or other game's token, 401 or
  403 and nothing changes. A form posted from another site cannot set that header.

Unknown games, updates and revisions answer 404; malformed or out-of-range numbers 400; nothing a
request carries reaches a 500. Every answer carries a strict Content-Security-Policy: scripts,
styles and pictures from this server only, no inline script or style attribute.
"""

from __future__ import annotations

import html
import json
import logging
import re
from importlib import resources
from pathlib import Path

from aiohttp import web

from bot.service import (Conflict, InvalidInput, NotAllowed, NotFound, NotSignedIn, OrderRefused, ServiceError,
                         WrongTime)

__all__ = ["make_app", "STATIC", "CSP", "TOKEN_HEADER"]

log = logging.getLogger(__name__)

STATIC = Path(str(resources.files("bot.web") / "static"))
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
_INTEGER = re.compile(r"-?[0-9]{1,10}")
_COORDINATE_LIMIT = 10**9
SERVICE_KEY = web.AppKey("service", object)
PUBLIC_URL_KEY = web.AppKey("public_url", object)


class BadParameter(ValueError):
    """A malformed or out-of-range parameter: 400 with the message."""


def _integer(text: str | None, what: str, low: int | None = None, high: int | None = None) -> int:
    if text is None or not _INTEGER.fullmatch(text):
        shown = "nothing" if not text else repr(text[:30])
        raise BadParameter(f"{what} must be a whole number, not {shown}")
    value = int(text)
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise BadParameter(f"{what} must be {span}, not {value}")
    return value


def _square(text: str, what: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2:
        raise BadParameter(f"{what} must be X,Y (two whole numbers and a comma), not {text[:30]!r}")
    return (_integer(parts[0].strip(), f"{what}'s x", -_COORDINATE_LIMIT, _COORDINATE_LIMIT),
            _integer(parts[1].strip(), f"{what}'s y", -_COORDINATE_LIMIT, _COORDINATE_LIMIT))


def _game_id(request: web.Request) -> int:
    text = request.match_info["game"]
    if not _INTEGER.fullmatch(text) or int(text) < 1:
        raise web.HTTPNotFound(text=f"there is no game {text[:30]!r}")
    return int(text)


def _update(text: str) -> int | None:
    return None if text == "latest" else _integer(text, "the update", 0)


def _json(value, *, status: int = 200) -> web.Response:
    return web.json_response(value, status=status, dumps=lambda v: json.dumps(v, ensure_ascii=False),
                             headers={"Cache-Control": "no-cache"})


@web.middleware
async def _answers(request: web.Request, handler):
    """Service errors as 4xx answers in words; the security headers on every answer."""
    api = request.path.startswith("/api/")
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        response = exc
    except (BadParameter, InvalidInput) as exc:
        text = exc.message if isinstance(exc, ServiceError) else str(exc)
        response = _json({"error": text}, status=400) if api else web.Response(status=400, text=text)
    except NotSignedIn as exc:
        response = _json({"error": exc.describe()}, status=401)
    except NotAllowed as exc:
        response = _json({"error": exc.describe()}, status=403)
    except OrderRefused as exc:
        response = _json({"error": exc.describe(), "rule": exc.rule or None}, status=422)
    except Conflict as exc:
        response = _json({"error": exc.describe()}, status=409)
    except WrongTime as exc:
        status = 409 if request.path.startswith("/api/games/") and "/me" in request.path else 404
        response = _json({"error": exc.describe()}, status=status) if api else web.Response(status=404, text=exc.message)
    except NotFound as exc:
        response = _json({"error": exc.message}, status=404) if api else web.Response(status=404, text=exc.message)
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    if isinstance(response, web.HTTPException) and response.status >= 400:
        return web.Response(status=response.status, text=response.text, headers=response.headers)
    return response


# ----------------------------------------------------------------------------- pages
async def games_page(request: web.Request) -> web.Response:
    games = await request.app[SERVICE_KEY].viewer_games()
    rows = "\n".join(
        f'<tr><td><a href="/games/{game.id}">{html.escape(game.name)}</a></td><td>{html.escape(game.ruleset)}</td>'
        f"<td>{game.update}</td><td>{game.players}</td><td>{html.escape(game.status)}</td></tr>"
        for game in games) or '<tr><td colspan="5">No game has started yet.</td></tr>'
    page = (STATIC / "games.html").read_text(encoding="utf-8").replace("<!--games-->", rows)
    return web.Response(text=page, content_type="text/html", charset="utf-8")


async def board_page(request: web.Request) -> web.Response:
    """The board page, once the game, the update and the framing asked for are known to be right
    (a wrong one answers 404 or 400 here rather than a page that cannot show it)."""
    service = request.app[SERVICE_KEY]
    game_id = _game_id(request)
    query = request.query
    update = _integer(query["update"], "update", 0) if "update" in query else None
    viewed = await service.viewed_update(game_id, update)
    if "at" in query:
        _square(query["at"], "at")
    if "zoom" in query:
        _integer(query["zoom"], "zoom", 0, viewed.frame.max_zoom)
    return web.FileResponse(STATIC / "board.html", headers={"Cache-Control": "no-cache",
                                                            "Content-Type": "text/html; charset=utf-8"})


async def player_page(request: web.Request) -> web.FileResponse:
    """The private page: static; its script reads the token from the address's fragment and asks
    the API with it (a page without one says so)."""
    await request.app[SERVICE_KEY].viewed_update(_game_id(request))
    return web.FileResponse(STATIC / "me.html", headers={"Cache-Control": "no-cache",
                                                         "Content-Type": "text/html; charset=utf-8"})


async def favicon(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "favicon.ico", headers={"Cache-Control": "public, max-age=86400"})


# ----------------------------------------------------------------------------- data
async def update_data(request: web.Request) -> web.Response:
    service = request.app[SERVICE_KEY]
    described = await service.viewer_description(_game_id(request), _update(request.match_info["update"]))
    described = dict(described, public_url=request.app[PUBLIC_URL_KEY])
    return _json(described)


async def square_data(request: web.Request) -> web.Response:
    info = request.match_info
    x = _integer(info["x"], "x", -_COORDINATE_LIMIT, _COORDINATE_LIMIT)
    y = _integer(info["y"], "y", -_COORDINATE_LIMIT, _COORDINATE_LIMIT)
    return _json(await request.app[SERVICE_KEY].viewer_square(_game_id(request), _update(info["update"]), x, y))


async def search_data(request: web.Request) -> web.Response:
    text = request.query.get("q", "")
    if len(text) > 100:
        raise BadParameter(f"a search is at most 100 characters, not {len(text)}")
    return _json(await request.app[SERVICE_KEY].viewer_search(_game_id(request),
                                                              _update(request.match_info["update"]), text))


async def tile(request: web.Request) -> web.Response:
    info = request.match_info
    game_id = _game_id(request)
    update = _integer(info["update"], "the update", 0)
    revision = _integer(info["revision"], "the revision", 0)
    zoom = _integer(info["z"], "zoom", 0, 64)
    tx = _integer(info["x"], "the tile's column", 0)
    ty = _integer(info["y"], "the tile's row", 0)
    png = await request.app[SERVICE_KEY].viewer_tile(game_id, update, revision, zoom, tx, ty)
    return web.Response(body=png, content_type="image/png",
                        headers={"Cache-Control": "public, max-age=31536000, immutable"})


# ----------------------------------------------------------------------------- the player's own
TOKEN_HEADER = "X-Skirmish-Token"


def _token(request: web.Request) -> str | None:
    return request.headers.get(TOKEN_HEADER) or None


async def _order_text(request: web.Request) -> str:
    """The ``text`` of a JSON body (a form's body is refused: only the page's script sends JSON)."""
    if request.content_type != "application/json":
        raise BadParameter("send JSON: {\"text\": \"your order\"}")
    if request.content_length is not None and request.content_length > 300_000:
        raise BadParameter("an order is at most 64,000 characters")
    try:
        body = await request.json()
    except ValueError:
        raise BadParameter("the body is not JSON") from None
    text = body.get("text") if isinstance(body, dict) else None
    if not isinstance(text, str):
        raise BadParameter("send JSON with the order as text: {\"text\": \"K(0,0)-(0,1)\"}")
    return text


async def player_data(request: web.Request) -> web.Response:
    return _json(await request.app[SERVICE_KEY].web_view(_game_id(request), _token(request)))


async def player_check(request: web.Request) -> web.Response:
    game_id, token = _game_id(request), _token(request)
    await request.app[SERVICE_KEY].web_player(game_id, token)      # who asks before what they send
    return _json(await request.app[SERVICE_KEY].web_check(game_id, token, await _order_text(request)))


async def player_order(request: web.Request) -> web.Response:
    game_id, token = _game_id(request), _token(request)
    await request.app[SERVICE_KEY].web_player(game_id, token)
    receipt = await request.app[SERVICE_KEY].web_submit(game_id, token, await _order_text(request))
    return _json({"text": receipt.text(), "canonical": receipt.canonical, "lines": list(receipt.lines),
                  "update": receipt.update_no, "secret": receipt.secret, "replaced": receipt.replaced})


def make_app(service, *, public_url: str | None = None) -> web.Application:
    """The viewer over ``service`` (a :class:`bot.service.Service`); ``public_url``: the address
    players reach it at (shown on the pages as the address to share)."""
    app = web.Application(middlewares=[_answers])
    app[SERVICE_KEY] = service
    app[PUBLIC_URL_KEY] = public_url
    app.router.add_get("/", games_page)
    app.router.add_get("/favicon.ico", favicon)
    app.router.add_get("/games/{game}", board_page)
    app.router.add_get("/games/{game}/me", player_page)
    app.router.add_get("/api/games/{game}/me", player_data)
    app.router.add_post("/api/games/{game}/me/check", player_check)
    app.router.add_post("/api/games/{game}/me/orders", player_order)
    app.router.add_get("/api/games/{game}/updates/{update}", update_data)
    app.router.add_get("/api/games/{game}/updates/{update}/squares/{x}/{y}", square_data)
    app.router.add_get("/api/games/{game}/updates/{update}/search", search_data)
    app.router.add_get("/api/games/{game}/tiles/{update}/{revision}/{z}/{x}/{y}.png", tile)
    app.router.add_static("/static/", STATIC, follow_symlinks=False, append_version=False)
    return app
