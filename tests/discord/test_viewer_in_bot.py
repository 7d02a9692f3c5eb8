"""``[web] enabled``: the bot serves the web viewer in its own process, on its own service."""

from __future__ import annotations

import socket

import aiohttp
import pytest

from bot.client import SkirmishBot
from bot.config import Config, WebConfig


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


PORT = _free_port()


@pytest.fixture
def simcord_bot(service) -> SkirmishBot:
    return SkirmishBot(Config(web=WebConfig(enabled=True, host="127.0.0.1", port=PORT)), service=service)


async def test_the_bot_serves_the_viewer_of_its_games(world):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{PORT}/") as response:
            assert response.status == 200
            assert f'<a href="/games/{game.id}">' in await response.text()
        async with session.get(f"http://127.0.0.1:{PORT}/api/games/{game.id}/updates/latest") as response:
            assert response.status == 200 and (await response.json())["update"] == 0
