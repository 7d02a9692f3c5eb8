"""Players' private links to the web viewer, and orders sent from it (issue 41, docs/web.md "The
private view").

A link is ``/games/{id}/me#t=TOKEN``. The token names the game, the player (their user id), an
expiry and the game's link generation, and is signed (HMAC-SHA256, the standard library's ``hmac``)
with ``[web] secret`` or, when the configuration has none, a secret generated once and kept in the
store. It is refused when it is missing, malformed, not signed here or expired (:class:`NotSignedIn`,
HTTP 401), and when it is genuine but no longer good here (:class:`NotAllowed`, 403): another game's,
a generation a moderator revoked (``/mod revoke-links``), or its player no longer plays the seat
(``/mod substitute``, a kick, leaving).

Orders from the web go through :meth:`OrderCases.submit_order` exactly as ``/move`` does: secret
where a direct message's order is (``source="dm"`` in a ruleset that takes them), else in the
channel; the audit records each one as ``web_order`` (who, which update: never the order itself).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from .actors import Moderator, require_moderator
from .base import ServiceBase
from .errors import InvalidInput, NotAllowed, NotSignedIn, OrderRefused
from .orders import Receipt

__all__ = ["WebPlayCases", "PlayerLink", "WebPlayer", "LINK_LIFETIME", "SUBMISSIONS_PER_MINUTE", "CHECKS_PER_MINUTE"]

#: how long a link is good for (a new /board gives a new one)
LINK_LIFETIME = timedelta(hours=24)
#: orders one player may send from the web in a minute (each replaces the last: more is a script)
SUBMISSIONS_PER_MINUTE = 10
#: live checks one player's page may ask for in a minute (one per edit of the order box)
CHECKS_PER_MINUTE = 120
_TOKEN = re.compile(r"([0-9]{1,19})\.([0-9]{1,19})\.([0-9]{1,12})\.([0-9]{1,19})\.([A-Za-z0-9_-]{43})")
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


@dataclass(frozen=True, slots=True)
class PlayerLink:
    """A player's private link: ``url`` (``/games/{id}/me#t=TOKEN``, after the public address when
    one is known) and when it stops working."""

    url: str
    token: str
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class WebPlayer:
    """Whom a good token names."""

    game_id: int
    user_id: int
    name: str


def _seconds(moment: datetime) -> int:
    return int((moment - _EPOCH).total_seconds())


class WebPlayCases(ServiceBase):
    """Links, their check, and the player's page's reads and orders."""

    #: ``[web] secret`` (None: the store's own, made on first use)
    link_secret: str | None = None

    def use_link_secret(self, secret: str | None) -> None:
        """Sign links with ``secret`` (``[web] secret``); None: with the one kept in the store."""
        self.link_secret = secret
        self._link_key = None

    async def _key(self) -> bytes:
        key = getattr(self, "_link_key", None)
        if key is None:
            secret = self.link_secret
            if secret is None:
                async with self.store.transaction() as q:
                    secret = await q.web_secret(secrets.token_urlsafe(32))
            key = self._link_key = hashlib.sha256(secret.encode("utf-8")).digest()
        return key

    @staticmethod
    def _signature(key: bytes, payload: str) -> str:
        digest = hmac.new(key, payload.encode("ascii"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")

    async def player_link(self, game_id: int, *, user_id: int, base_url: str | None = None) -> PlayerLink:
        """A new private link for ``user_id``'s seat in the game (NotAllowed if they do not play it)."""
        key = await self._key()
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            await self._player(q, game, user_id)
            generation = await q.link_generation(game.id)
        expires = self.now().replace(microsecond=0) + LINK_LIFETIME
        payload = f"{game.id}.{user_id}.{_seconds(expires)}.{generation}"
        token = f"{payload}.{self._signature(key, payload)}"
        path = f"/games/{game.id}/me#t={token}"
        return PlayerLink((base_url.rstrip("/") if base_url else "") + path, token, expires)

    async def web_player(self, game_id: int, token: str | None) -> WebPlayer:
        """Whom ``token`` names in game ``game_id``; NotSignedIn (401) or NotAllowed (403) else."""
        if not token:
            raise NotSignedIn("this page needs your private link: open the link /board gives you")
        match = _TOKEN.fullmatch(str(token)[:200])
        if match is None:
            raise NotSignedIn("this link is not one the bot gives: it is cut or altered",
                              hint="ask /board for a new one")
        payload = token.rsplit(".", 1)[0]
        if not hmac.compare_digest(self._signature(await self._key(), payload), match[5]):
            raise NotSignedIn("this link was not signed by this bot", hint="ask /board for a new one")
        token_game, user_id, expiry, generation = (int(match[i]) for i in range(1, 5))
        if token_game != game_id:
            raise NotAllowed(f"this link is for game {token_game}, not game {game_id}")
        if _seconds(self.now()) >= expiry:
            raise NotSignedIn("this link has expired (a link lasts 24 hours)", hint="ask /board for a new one")
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            if generation != await q.link_generation(game.id):
                raise NotAllowed("a moderator has revoked this game's links", hint="ask /board for a new one")
            player = await self._player(q, game, user_id)        # NotAllowed: the seat is no longer theirs
        return WebPlayer(game.id, user_id, player.name)

    async def revoke_links(self, game_id: int, *, actor: Moderator) -> int:
        """``/mod revoke-links``: every private link of the game made so far stops working (audited);
        the number of the new generation."""
        async with self.store.transaction() as q:
            game = await self._game(q, game_id)
            actor_id = require_moderator(actor, game.guild_id, "revoke the game's web links")
            generation = await q.next_link_generation(game.id)
            await q.audit(game_id=game.id, actor=actor_id, action="revoke_links",
                          detail={"generation": generation}, at=self.now())
        return generation

    # ------------------------------------------------------------------ the player's page
    def _spend(self, what: str, key: tuple, limit: int) -> None:
        """Count one ``what`` of ``key`` against ``limit`` a minute; InvalidInput past it."""
        windows = getattr(self, "_web_windows", None)
        if windows is None:
            windows = self._web_windows = {}
        now = time.monotonic()
        window = windows.setdefault((what, *key), deque())
        while window and now - window[0] >= 60:
            window.popleft()
        if len(window) >= limit:
            wait = int(60 - (now - window[0])) + 1
            raise NotAllowed(f"too many {what}s from the web: at most {limit} a minute",
                             hint=f"wait {wait} s, then try again")
        window.append(now)

    async def web_view(self, game_id: int, token: str | None) -> dict:
        """What the player's page shows besides the public viewer's: who they are, their balance,
        their pending order (theirs only), whether and what they may order now."""
        who = await self.web_player(game_id, token)
        view = await self.player_view(game_id, user_id=who.user_id)
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            state = await self._working_state(q, game) if game.status in ("running", "paused") else None
        variant = self.variant(game)
        features = variant.features
        if state is None:
            not_now, who_may = f"game {game.id} is not running", []
        elif game.locked:
            not_now, who_may = f"orders for update {game.update_no} are locked", variant.who_may_order(state)
        else:
            not_now, who_may = variant.may_order(state, who.name), variant.who_may_order(state)
        shape = ["one move: click a piece, then a square it may go to"]
        if features.several_lines:
            shape = ["several moves, one a line: click piece after piece"]
        if features.fallbacks:
            shape.append("a fallback: `A else B` (B is played if A cannot be)")
        if features.generation:
            shape.append("a new piece: `+X(x,y)`, paid from your balance")
        if features.pawn:
            shape.append(f"a promotion: add `=Q` (the kind it becomes) to a move of a {features.pawn} that promotes")
        if features.royal:
            shape.append(f"joining without a king on the board: place it, `+{features.royal}(x,y)`")
        reserve, draft = [], []
        if state is not None:
            ruleset = variant.ruleset
            for holding in variant.board_additions(state).holdings:
                kinds = [{"letter": k, "name": ruleset.kind(k).name} for k in holding.kinds]
                if holding.owner == who.name:
                    reserve = kinds
                elif holding.owner is None:
                    draft = kinds
        if reserve:
            shape.append("a placement from your reserve: click the piece under Reserve, then a square")
        if draft:
            shape.append("or a draft: click pieces of the draft area (after the action, instead of a placement)")
        if view.pending:
            shape.append("pieces to place this round: " + ", ".join(f"{name} ({letter})" for letter, name in view.pending))
        shape.append("or type the order in the box: each change is checked as /move checks it")
        return {"player": who.name, "colour": view.colour, "team": view.team, "balance": view.balance,
                "currency": view.currency, "pieces": view.pieces, "update": game.update_no,
                "order": view.order, "may_order": not_now is None, "not_now": not_now,
                "who_may_order": sorted(who_may), "secret": features.secret_orders and features.takes_direct_messages,
                "shape": shape, "last_report": view.last_report, "latest": game.snapshot_update,
                "several": features.several_lines, "reserve": reserve, "draft_area": draft, "fallbacks": features.fallbacks, "royal": features.royal,
                "army": [[p.square[0], p.square[1]] for p in state.board.owned_by(who.name)][:5000]
                if state is not None else []}

    async def web_check(self, game_id: int, token: str | None, text: str) -> dict:
        """The live check of the order box: the engine's answer as ``/move`` would give it."""
        who = await self.web_player(game_id, token)
        if not isinstance(text, str) or len(text) > 64_000:
            raise InvalidInput("an order is text of at most 64,000 characters")
        self._spend("check", (game_id, who.user_id), CHECKS_PER_MINUTE)
        checked = await self.check(game_id, user_id=who.user_id, text=text)
        if checked.ok:
            return {"ok": True, "canonical": checked.canonical, "lines": [line.canonical for line in checked.lines]}
        refused = OrderRefused(checked.error)
        return {"ok": False, "error": refused.describe(), "rule": refused.rule or None,
                "span": list(checked.error.span)}

    async def web_submit(self, game_id: int, token: str | None, text: str) -> Receipt:
        """Send the order box: :meth:`submit_order` as ``/move`` (a DM's secrecy where the ruleset
        has secret orders), rate-limited per player, and an audit line ``web_order``."""
        who = await self.web_player(game_id, token)
        if not isinstance(text, str):
            raise InvalidInput("an order must be text")
        self._spend("order", (game_id, who.user_id), SUBMISSIONS_PER_MINUTE)
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
        source = "dm" if self.variant(game).features.takes_direct_messages else "channel"
        receipt = await self.submit_order(game_id, user_id=who.user_id, text=text, source=source,
                                          sent="from the web board")
        async with self.store.transaction() as q:
            await q.audit(game_id=game_id, actor=who.user_id, action="web_order",
                          detail={"player": who.name, "update": receipt.update_no, "source": source},
                          at=self.now())
        return receipt
