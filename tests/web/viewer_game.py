"""The played game of the viewer's tests: three updates resolved, a fourth with a secret order
pending, players with names a page could mistake for markup, and a game name that the name rule
would refuse today (written into the store directly, as an older version could have left it).

``build_viewer_db(path)`` writes it and returns the game's id.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import datetime, timezone

from bot.service import Moderator, Service
from bot.store import Store

MODERATOR = Moderator(user_id=99, guild_id=1)
#: (user id, name, colour, king square): names that are markup or templates in a page
PLAYERS = [(1, "Ada", "Red", (0, 0)), (2, '"onmouseover=alert(1) x', "Blue", (10, 0)),
           (3, "{{7*7}}<script>\u202e", "Green", (0, 10))]
#: the names they join with, replaced in the store afterwards by those above (the name rule refuses
#: ``*``, ``<`` and a right-to-left override today; an older store may hold them)
_JOINED_AS = {2: "Zedzedzed", 3: "Quillquill"}
#: the game's name: a script tag and a right-to-left override (refused by the name rule now)
GAME_NAME = "<script>alert(1)</script>\u202eevil"
#: the secret order pending for update 4 (Ada's, by direct message)
SECRET = "K(0,2)-(1,3)"
#: the moves of updates 2 and 3, by user id
MOVES = {2: {1: "K(0,0)-(0,1)", 2: "K(10,0)-(10,1)", 3: "K(0,10)-(1,10)"},
         3: {1: "K(0,1)-(0,2)", 2: "K(10,1)-(9,1)", 3: "K(1,10)-(1,9)"}}


class _Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now


async def build_game(path) -> int:
    store = await Store.open(path)
    try:
        service = Service(store, clock=_Clock())
        game = await service.create_game(guild_id=1, channel_id=10, actor=MODERATOR, schedule="manual", seed=7,
                                         name="viewer test")
        game = await service.start_game(game.id, actor=MODERATOR)
        for user_id, name, colour, _ in PLAYERS:
            await service.join(game.id, user_id=user_id, name=_JOINED_AS.get(user_id, name), colour=colour)
        for user_id, _, _, (x, y) in PLAYERS:
            await service.submit_order(game.id, user_id=user_id, text=f"K({x},{y})")
        assert (await service.resolve_if_due(game.id, 1, force=True)).resolved
        for update, orders in MOVES.items():
            for user_id, text in orders.items():
                await service.submit_order(game.id, user_id=user_id, text=text)
            assert (await service.resolve_if_due(game.id, update, force=True)).resolved
        receipt = await service.submit_order(game.id, user_id=1, text=SECRET, source="dm")
        assert receipt.secret
        return game.id
    finally:
        await store.close()


def build_viewer_db(path) -> int:
    """The game in a new database at ``path``; its id."""
    game_id = asyncio.run(build_game(path))
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("UPDATE games SET name = ? WHERE id = ?", (GAME_NAME, game_id))
        for user_id, name, _, _ in PLAYERS:
            if user_id in _JOINED_AS:
                joined, written = _JOINED_AS[user_id], json.dumps(name, ensure_ascii=False)[1:-1]
                connection.execute("UPDATE players SET name = ? WHERE user_id = ?", (name, user_id))
                for column in ("state", "report", "orders", "joiners"):
                    connection.execute(f"UPDATE snapshots SET {column} = replace({column}, ?, ?)", (joined, written))
    connection.close()
    return game_id
