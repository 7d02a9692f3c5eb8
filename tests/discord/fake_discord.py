"""A fake Discord on 127.0.0.1 for end-to-end tests of the real network path (issue 10, item 3).

:class:`FakeDiscord` is an aiohttp server with just enough of Discord's REST API (under
``/api/v10``) and gateway (a JSON websocket at ``/gateway``) for discord.py to log in, connect,
receive a server with a channel and members, sync slash commands, answer interactions and post
messages with attachments. The test drives it from outside: :meth:`FakeDiscord.slash` dispatches an
``INTERACTION_CREATE`` for a slash command (subcommands included: ``slash(user, "game", "create",
ruleset="neisg")``), :meth:`FakeDiscord.press` one for a button on an earlier answer (a
confirmation's Confirm), :meth:`FakeDiscord.direct_message` a ``MESSAGE_CREATE`` in a member's
direct-message channel; :meth:`FakeDiscord.answered` waits for the bot's answer to an interaction.

Everything the bot sends is recorded: :attr:`FakeDiscord.messages` (channel and DM messages with
content, nonce and attachment names, in order), :attr:`FakeDiscord.replies` (interaction answers),
:attr:`FakeDiscord.requests` (method, path, status). Like Discord, a message sent with
``enforce_nonce`` and a nonce already used in that channel returns the earlier message instead of
creating a second one (:attr:`FakeDiscord.deduplicated`; the fake remembers nonces for its whole
life, Discord for a few minutes). JSON answers carry ``Content-Type: application/json`` exactly:
discord.py reads anything else as text.

Failure injection: :meth:`FakeDiscord.fail` adds a :class:`Rule`: the next ``count`` requests
matching a method and a path pattern answer with a status and a JSON body instead (429 with
``retry_after``, 500, 403 with code 50007, ...); ``count=None`` means every matching request;
``after=True`` carries the request out and loses only its answer (the post exists, the bot sees an
error and sends it again).

Not implemented: resuming (a RESUME gets RESUMED but nothing is replayed), gateway compression
(frames are plain text, which discord.py accepts), rate-limit buckets other than injected 429s,
threads, message edits and deletes in channels, attachments' bytes (only their names are kept).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

from aiohttp import WSMsgType, web

API = "/api/v10"

#: permissions given to everyone in the fake server (administrator: the bot may do anything)
ALL_PERMISSIONS = str((1 << 41) - 1)


def _json(data, status: int = 200, headers: dict | None = None) -> web.Response:
    """A JSON answer whose Content-Type is exactly ``application/json``: discord.py compares the
    header for equality and takes anything else (``; charset=utf-8``) for text."""
    return web.Response(body=json.dumps(data).encode("utf-8"), status=status,
                        headers={**(headers or {}), "Content-Type": "application/json"})


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


@dataclass
class Rule:
    """Answer the next ``count`` requests matching ``method`` and ``path`` (a regular expression
    searched in the path after ``/api/v10``) with ``status`` and ``body``; ``hits`` counts them."""

    method: str
    path: str
    status: int
    body: dict
    count: int | None = 1
    headers: dict = field(default_factory=dict)
    hits: int = 0
    after: bool = False         # True: do the request, then answer with the error (a lost answer)

    def matches(self, method: str, path: str) -> bool:
        if self.count is not None and self.hits >= self.count:
            return False
        return method == self.method and re.search(self.path, path) is not None


@dataclass
class Recorded:
    """A message the bot created (or a message a member sent, ``from_bot`` False)."""

    id: int
    channel_id: int
    guild_id: int | None
    content: str
    nonce: str | None
    attachments: list[str]
    from_bot: bool
    ephemeral: bool = False
    via: str = "channel"        # channel | webhook (an interaction's answer)

    @property
    def is_dm(self) -> bool:
        return self.guild_id is None


class FakeDiscord:
    """The fake. ``await start()`` binds random ports on 127.0.0.1; :attr:`api_base` and
    :attr:`gateway_url` are what ``config.toml`` takes; ``await stop()`` closes it."""

    BOT_ID = 900_000_000_000_000_001
    APP_ID = 900_000_000_000_000_002
    GUILD_ID = 910_000_000_000_000_001
    CHANNEL_ID = 910_000_000_000_000_010
    OWNER_ID = 920_000_000_000_000_001

    def __init__(self) -> None:
        self._ids = itertools.count(930_000_000_000_000_000)
        self.users: dict[int, dict] = {}
        self.members: list[int] = []
        self.channels: dict[int, dict] = {}
        self.dm_channels: dict[int, int] = {}          # user id -> DM channel id
        self.messages: list[Recorded] = []
        self.replies: list[dict] = []
        self.requests: list[tuple[str, str, int]] = []
        self.rules: list[Rule] = []
        self.commands: dict[str, dict] = {}
        self.ready = asyncio.Event()
        self.synced = asyncio.Event()
        self._nonces: dict[tuple[int, str], Recorded] = {}
        self.deduplicated: list[Recorded] = []          # repeated nonces answered with the earlier message
        self._token_channel: dict[str, int] = {}        # interaction token -> channel
        self._deferred_private: dict[str, bool] = {}    # interaction token -> deferred ephemerally
        self._originals: dict[str, Recorded] = {}       # interaction token -> its original answer
        self._ws: web.WebSocketResponse | None = None
        self._seq = 0
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        self.bot_user = self._user(self.BOT_ID, "skirmish", bot=True)
        self.add_member(self.OWNER_ID, "owner")
        self.channels[self.CHANNEL_ID] = {"id": str(self.CHANNEL_ID), "type": 0, "guild_id": str(self.GUILD_ID),
                                          "name": "skirmish", "position": 0, "permission_overwrites": [],
                                          "nsfw": False, "topic": None, "parent_id": None, "rate_limit_per_user": 0,
                                          "last_message_id": None}

    # ------------------------------------------------------------------ the world
    def _user(self, user_id: int, name: str, *, bot: bool = False) -> dict:
        data = {"id": str(user_id), "username": name, "discriminator": "0", "global_name": name, "avatar": None,
                "bot": bot, "public_flags": 0, "flags": 0}
        self.users[user_id] = data
        return data

    def add_member(self, user_id: int, name: str) -> dict:
        """A member of the fake server (call before the bot connects)."""
        data = self._user(user_id, name)
        self.members.append(user_id)
        return data

    def _member(self, user_id: int) -> dict:
        return {"user": self.users[user_id], "roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False,
                "mute": False, "flags": 0, "nick": None, "avatar": None, "pending": False,
                "permissions": ALL_PERMISSIONS}

    def _guild(self) -> dict:
        return {
            "id": str(self.GUILD_ID), "name": "Skirmish server", "icon": None, "owner_id": str(self.OWNER_ID),
            "unavailable": False, "member_count": len(self.members) + 1, "large": False,
            "roles": [{"id": str(self.GUILD_ID), "name": "@everyone", "permissions": ALL_PERMISSIONS, "position": 0,
                       "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}],
            "channels": [{k: v for k, v in c.items() if k != "guild_id"} for c in self.channels.values()
                         if c.get("guild_id")],
            "members": [self._member(uid) for uid in self.members] + [
                {"user": self.bot_user, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False,
                 "mute": False, "flags": 0}],
            "threads": [], "emojis": [], "stickers": [], "features": [], "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0, "preferred_locale": "en-US", "system_channel_id": None,
            "afk_channel_id": None, "afk_timeout": 300, "joined_at": "2026-01-01T00:00:00+00:00",
        }

    def dm_channel(self, user_id: int) -> int:
        if user_id not in self.dm_channels:
            channel_id = next(self._ids)
            self.dm_channels[user_id] = channel_id
            self.channels[channel_id] = {"id": str(channel_id), "type": 1, "recipients": [self.users[user_id]],
                                         "last_message_id": None}
        return self.dm_channels[user_id]

    # ------------------------------------------------------------------ failure injection
    def fail(self, method: str, path: str, status: int, body: dict | None = None, *, count: int | None = 1,
             retry_after: float | None = None, after: bool = False) -> Rule:
        """Answer the next ``count`` matching requests with ``status``. A 429 carries ``retry_after``
        (default 0.1 s) and the ``Via`` header discord.py expects of Discord (without it discord.py
        takes a 429 for a Cloudflare ban). ``after``: the request is carried out first and only its
        answer is lost (a message is created, the bot sees the error and retries)."""
        headers = {}
        if status == 429:
            retry = 0.1 if retry_after is None else retry_after
            body = body or {"message": "You are being rate limited.", "retry_after": retry, "global": False}
            headers = {"Via": "1.1 google", "Retry-After": str(retry), "X-RateLimit-Scope": "user"}
        rule = Rule(method, path, status, body or {"message": f"fake error {status}", "code": 0}, count, headers,
                    after=after)
        self.rules.append(rule)
        return rule

    def _rule(self, method: str, path: str) -> Rule | None:
        for rule in self.rules:
            if rule.matches(method, path):
                rule.hits += 1
                return rule
        return None

    # ------------------------------------------------------------------ server
    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        r = app.router
        r.add_get(API + "/gateway", self._get_gateway)
        r.add_get(API + "/gateway/bot", self._get_gateway)
        r.add_get(API + "/users/@me", self._me)
        r.add_get(API + "/oauth2/applications/@me", self._application)
        r.add_get(API + "/applications/@me", self._application)
        r.add_put(API + "/applications/{app}/commands", self._put_commands)
        r.add_put(API + "/applications/{app}/guilds/{guild}/commands", self._put_commands)
        r.add_get(API + "/applications/{app}/commands", self._get_commands)
        r.add_get(API + "/applications/{app}/guilds/{guild}/commands", self._get_commands)
        r.add_post(API + "/interactions/{id}/{token}/callback", self._callback)
        r.add_post(API + "/webhooks/{app}/{token}", self._webhook_post)
        r.add_patch(API + "/webhooks/{app}/{token}/messages/{message}", self._webhook_patch)
        r.add_get(API + "/webhooks/{app}/{token}/messages/{message}", self._webhook_get)
        r.add_delete(API + "/webhooks/{app}/{token}/messages/{message}", self._no_content)
        r.add_post(API + "/channels/{channel}/messages", self._post_message)
        r.add_post(API + "/channels/{channel}/typing", self._no_content)
        r.add_get(API + "/channels/{channel}", self._get_channel)
        r.add_post(API + "/users/@me/channels", self._open_dm)
        r.add_get(API + "/users/{user}", self._get_user)
        r.add_get(API + "/guilds/{guild}/members/{user}", self._get_member)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @web.middleware
    async def _middleware(self, request: web.Request, handler):
        path = request.path[len(API):] if request.path.startswith(API) else request.path
        rule = self._rule(request.method, path) if request.path.startswith(API) else None
        if rule is not None and not rule.after:
            await request.read()
        else:
            try:
                response = await handler(request)
            except web.HTTPException as exc:
                response = _json({"message": exc.reason, "code": 0}, status=exc.status)
        if rule is not None:
            response = _json(rule.body, status=rule.status, headers=rule.headers)
        self.requests.append((request.method, path, response.status))
        return response

    # ------------------------------------------------------------------ REST
    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url, "shards": 1,
                                  "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                                          "max_concurrency": 1}})

    async def _application(self, request: web.Request) -> web.Response:
        return _json({
            "id": str(self.APP_ID), "name": "Skirmish", "icon": None, "description": "", "bot_public": True,
            "bot_require_code_grant": False, "owner": self.users[self.OWNER_ID], "verify_key": "0" * 64,
            "flags": 0, "summary": "", "team": None, "rpc_origins": [], "tags": [],
            "interactions_endpoint_url": None, "redirect_uris": [], "approximate_guild_count": 1,
        })

    async def _put_commands(self, request: web.Request) -> web.Response:
        payload = await request.json()
        result = []
        for command in payload:
            data = dict(command, id=str(next(self._ids)), application_id=str(self.APP_ID), version="1",
                        default_member_permissions=command.get("default_member_permissions"))
            if "guild" in request.match_info:
                data["guild_id"] = request.match_info["guild"]
            self.commands[command["name"]] = data
            result.append(data)
        self.synced.set()
        return _json(result)

    async def _get_commands(self, request: web.Request) -> web.Response:
        return _json(list(self.commands.values()))

    async def _no_content(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel = self.channels.get(int(request.match_info["channel"]))
        if channel is None:
            return _json({"message": "Unknown Channel", "code": 10003}, status=404)
        return _json(channel)

    async def _me(self, request: web.Request) -> web.Response:
        return _json(self.bot_user)

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(int(request.match_info["user"]))
        if user is None:
            return _json({"message": "Unknown User", "code": 10013}, status=404)
        return _json(user)

    async def _get_member(self, request: web.Request) -> web.Response:
        user_id = int(request.match_info["user"])
        if user_id not in self.members:
            return _json({"message": "Unknown Member", "code": 10007}, status=404)
        return _json(self._member(user_id))

    async def _open_dm(self, request: web.Request) -> web.Response:
        payload = await request.json()
        user_id = int(payload["recipient_id"])
        if user_id not in self.users:
            return _json({"message": "Unknown User", "code": 10013}, status=404)
        return _json(self.channels[self.dm_channel(user_id)])

    @staticmethod
    async def _payload(request: web.Request) -> tuple[dict, list[str]]:
        """The JSON payload of a request and the names of its files (multipart: ``payload_json``
        and ``files[n]``)."""
        if request.content_type.startswith("multipart/"):
            payload: dict = {}
            files: list[str] = []
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                else:
                    await part.read()
                    files.append(part.filename or part.name)
            return payload, files
        if request.can_read_body:
            return await request.json(), []
        return {}, []

    def _message(self, recorded: Recorded, author: dict, flags: int = 0, interaction: bool = False) -> dict:
        data = {
            "id": str(recorded.id), "channel_id": str(recorded.channel_id), "author": author,
            "content": recorded.content, "timestamp": _now(), "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "embeds": [], "pinned": False,
            "type": 0, "flags": flags, "components": [],
            "attachments": [{"id": str(recorded.id + i + 1), "filename": name, "size": 1,
                             "url": f"http://127.0.0.1:{self.port}/attachments/{name}",
                             "proxy_url": f"http://127.0.0.1:{self.port}/attachments/{name}"}
                            for i, name in enumerate(recorded.attachments)],
        }
        if recorded.nonce is not None:
            data["nonce"] = recorded.nonce
        if recorded.guild_id is not None:
            data["guild_id"] = str(recorded.guild_id)
        if interaction:
            data["webhook_id"] = str(self.APP_ID)
        return data

    async def _post_message(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel"])
        channel = self.channels.get(channel_id)
        if channel is None:
            return _json({"message": "Unknown Channel", "code": 10003}, status=404)
        payload, files = await self._payload(request)
        nonce = payload.get("nonce")
        if nonce is not None:
            nonce = str(nonce)
            earlier = self._nonces.get((channel_id, nonce))
            if earlier is not None and payload.get("enforce_nonce"):
                self.deduplicated.append(earlier)
                return _json(self._message(earlier, self.bot_user))
        guild_id = int(channel["guild_id"]) if channel.get("guild_id") else None
        recorded = Recorded(next(self._ids), channel_id, guild_id, payload.get("content") or "", nonce, files,
                            from_bot=True)
        if nonce is not None:
            self._nonces[(channel_id, nonce)] = recorded
        self.messages.append(recorded)
        return _json(self._message(recorded, self.bot_user))

    async def _callback(self, request: web.Request) -> web.Response:
        payload, files = await self._payload(request)
        interaction_id = request.match_info["id"]
        reply = {"interaction": interaction_id, "token": request.match_info["token"], "kind": "callback",
                 "type": payload.get("type"), "data": payload.get("data") or {}, "files": files}
        self.replies.append(reply)
        data = payload.get("data") or {}
        if payload.get("type") == 5:
            self._deferred_private[request.match_info["token"]] = bool((data.get("flags") or 0) & 64)
        if payload.get("type") == 4 and not (data.get("flags", 0) & 64):
            self._record_webhook(self._token_channel.get(request.match_info["token"]), data, files)
        if request.query.get("with_response") in ("true", "True", "1"):
            return _json({"interaction": {"id": interaction_id, "type": 2,
                                                      "response_message_loading": payload.get("type") == 5,
                                                      "response_message_ephemeral": bool(data.get("flags", 0) & 64)}})
        return web.Response(status=204)

    def _record_webhook(self, channel_id: int | None, data: dict, files: list[str]) -> Recorded:
        channel_id = channel_id or self.CHANNEL_ID
        channel = self.channels.get(channel_id, {})
        guild_id = int(channel["guild_id"]) if channel.get("guild_id") else None
        ephemeral = bool((data.get("flags") or 0) & 64)
        recorded = Recorded(next(self._ids), channel_id, guild_id, data.get("content") or "", None, files,
                            from_bot=True, ephemeral=ephemeral, via="webhook")
        if not ephemeral:
            self.messages.append(recorded)
        return recorded

    async def _webhook_post(self, request: web.Request) -> web.Response:
        payload, files = await self._payload(request)
        token = request.match_info["token"]
        self.replies.append({"token": token, "kind": "followup", "data": payload, "files": files})
        deferred_private = self._deferred_private.get(token, False)
        flags = payload.get("flags") or (64 if deferred_private else 0)
        recorded = self._record_webhook(self._token_channel.get(token), dict(payload, flags=flags), files)
        return _json(self._message(recorded, self.bot_user, flags, interaction=True))

    async def _webhook_patch(self, request: web.Request) -> web.Response:
        payload, files = await self._payload(request)
        token = request.match_info["token"]
        self.replies.append({"token": token, "kind": "edit", "data": payload, "files": files})
        flags = 64 if self._deferred_private.get(token, False) else 0
        original = self._originals.get(token)
        if original is None:            # the deferred "thinking" message becomes the answer
            original = self._record_webhook(self._token_channel.get(token), dict(payload, flags=flags), files)
            self._originals[token] = original
        else:
            original.content = payload.get("content", original.content) or ""
        data = self._message(original, self.bot_user, flags, interaction=True)
        data["components"] = payload.get("components") or []
        return _json(data)

    async def _webhook_get(self, request: web.Request) -> web.Response:
        recorded = Recorded(next(self._ids), self.CHANNEL_ID, self.GUILD_ID, "", None, [], True)
        return _json(self._message(recorded, self.bot_user, interaction=True))

    # ------------------------------------------------------------------ gateway
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._ws = ws
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            frame = json.loads(msg.data)
            op = frame.get("op")
            if op == 1:
                await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
            elif op == 2:
                await self.dispatch("READY", {
                    "v": 10, "user": self.bot_user, "session_id": "fake-session",
                    "resume_gateway_url": self.gateway_url, "guilds": [{"id": str(self.GUILD_ID), "unavailable": True}],
                    "application": {"id": str(self.APP_ID), "flags": 0}, "shard": [0, 1],
                    "private_channels": [], "relationships": [], "presences": [], "geo_ordered_rtc_regions": [],
                    "user_settings": {}, "guild_join_requests": [],
                })
                await self.dispatch("GUILD_CREATE", self._guild())
                self.ready.set()
            elif op == 6:
                await self.dispatch("RESUMED", {})
        if self._ws is ws:
            self._ws = None
        return ws

    async def dispatch(self, event: str, data: dict) -> None:
        if self._ws is None:
            raise RuntimeError("the bot is not connected to the fake gateway")
        self._seq += 1
        await self._ws.send_json({"op": 0, "t": event, "s": self._seq, "d": data})

    # ------------------------------------------------------------------ acting as members

    async def slash(self, user_id: int, name: str, subcommand: str | None = None, /, **options) -> str:
        """A member runs ``/name [subcommand] option=value ...`` in the game channel; returns the
        interaction's token (its answers are in :attr:`replies` under that token)."""
        command = self.commands[name]
        declared = command.get("options", [])
        if subcommand is not None:
            declared = next(o for o in declared if o["name"] == subcommand).get("options", [])
        types = {o["name"]: o["type"] for o in declared}
        given = [{"name": key, "type": types.get(key, 3), "value": value} for key, value in options.items()]
        if subcommand is not None:
            given = [{"name": subcommand, "type": 1, "options": given}]
        return await self._interaction(user_id, 2, {"id": command["id"], "name": name, "type": 1, "options": given})

    async def press(self, user_id: int, token: str, label: str) -> str:
        """A member presses the button ``label`` on the answer to the interaction ``token``; returns
        the new interaction's token."""
        edits = [r for r in self.answers(token) if r["kind"] == "edit" and r["data"].get("components")]
        if not edits:
            raise AssertionError(f"the answer to {token} has no buttons")
        components = edits[-1]["data"]["components"]
        buttons = [c for row in components for c in row.get("components", [])]
        button = next(b for b in buttons if b.get("label") == label)
        original = self._originals[token]
        message = self._message(original, self.bot_user, 64 if self._deferred_private.get(token) else 0,
                                interaction=True)
        message["components"] = components
        return await self._interaction(user_id, 3, {"custom_id": button["custom_id"], "component_type": 2},
                                       message=message)

    async def _interaction(self, user_id: int, kind: int, command_data: dict, message: dict | None = None) -> str:
        interaction_id = next(self._ids)
        token = f"token-{interaction_id}"
        self._token_channel[token] = self.CHANNEL_ID
        data = {
            "id": str(interaction_id), "application_id": str(self.APP_ID), "type": kind, "token": token, "version": 1,
            "guild_id": str(self.GUILD_ID), "channel_id": str(self.CHANNEL_ID),
            "channel": dict(self.channels[self.CHANNEL_ID]), "member": self._member(user_id),
            "app_permissions": ALL_PERMISSIONS, "locale": "en-US", "guild_locale": "en-US", "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.GUILD_ID)}, "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
            "data": command_data,
        }
        if message is not None:
            data["message"] = message
        await self.dispatch("INTERACTION_CREATE", data)
        return token

    def answers(self, token: str) -> list[dict]:
        return [reply for reply in self.replies if reply.get("token") == token]

    async def answered(self, token: str, timeout: float = 10.0) -> str:
        """Wait for the bot's final answer to an interaction (a followup, an edit or an immediate
        message) and return its text."""
        async def wait() -> str:
            while True:
                for reply in self.answers(token):
                    if reply["kind"] in ("followup", "edit") or (reply["kind"] == "callback" and reply["type"] == 4):
                        return reply["data"].get("content") or ""
                await asyncio.sleep(0.05)
        return await asyncio.wait_for(wait(), timeout)

    async def direct_message(self, user_id: int, content: str) -> Recorded:
        """A member sends the bot ``content`` in their direct-message channel."""
        channel_id = self.dm_channel(user_id)
        recorded = Recorded(next(self._ids), channel_id, None, content, None, [], from_bot=False)
        self.messages.append(recorded)
        await self.dispatch("MESSAGE_CREATE", {
            "id": str(recorded.id), "channel_id": str(channel_id), "author": self.users[user_id],
            "content": content, "timestamp": _now(), "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
            "pinned": False, "type": 0, "flags": 0, "components": [],
        })
        return recorded

    def bot_messages(self, channel_id: int) -> list[Recorded]:
        return [m for m in self.messages if m.channel_id == channel_id and m.from_bot]
