"""Board posts link to the web viewer when ``[web] public_url`` is set (issue 40), through SimCord."""

from __future__ import annotations

import pytest

from bot.client import SkirmishBot
from bot.config import Config, WebConfig
from bot.discord_publisher import board_link

VIEWER = "https://viewer.example.org"


@pytest.fixture
def simcord_bot(service) -> SkirmishBot:
    return SkirmishBot(Config(web=WebConfig(public_url=VIEWER)), service=service)


def _posted(world):
    return [r.json for r in world.env.http_requests
            if r.method == "POST" and r.path == f"/channels/{world.channel.id}/messages"]


async def test_a_board_post_carries_a_button_to_its_update_on_the_viewer(world):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    await world.join(game, world.bob, "Blue", "Bob")
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)")
    await world.service.submit_order(game.id, user_id=world.bob.id, text="K(5,0)")
    await world.resolve(game)
    requests = _posted(world)
    boards = [r for r in requests if "the board after update 1" in (r.get("content") or "")]
    assert len(boards) == 1
    [row] = boards[0]["components"]
    button, mine = row["components"]
    assert (button["label"], button["style"], button["url"]) == (
        "Open the board", 5, f"{VIEWER}/games/{game.id}?update=1")
    assert (mine["label"], mine["custom_id"]) == ("My board", f"skirmish:myboard:{game.id}")
    others = [r for r in requests if r is not boards[0]]
    assert others and not any(r.get("components") for r in others)      # reports, standings: no button


async def _played(world):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    await world.join(game, world.bob, "Blue", "Bob")
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)")
    await world.service.submit_order(game.id, user_id=world.bob.id, text="K(5,0)")
    await world.resolve(game)
    return game


async def test_my_board_under_a_board_post_answers_each_player_privately_with_their_own_link(world):
    game = await _played(world)
    [board] = [m for m in world.channel.history() if "the board after update 1" in (m.content or "")]
    clicked = await world.alice.click(board, label="My board")
    assert clicked.ephemeral and clicked.response.ephemeral
    text = clicked.response.content
    assert f"<{VIEWER}/games/{game.id}/me#t=" in text and "do not share it" in text
    token = text.split("#t=")[1].split(">")[0]
    assert (await world.service.web_player(game.id, token)).user_id == world.alice.id
    other = await world.bob.click(board, label="My board")
    assert (await world.service.web_player(game.id, other.response.content.split("#t=")[1].split(">")[0])).name == "Bob"
    stranger = await world.cleo.click(board, label="My board")
    assert stranger.ephemeral and "you are not a player of game" in stranger.response.content


async def test_board_adds_the_players_own_link_to_its_private_answer(world):
    game = await _played(world)
    answered = await world.alice.slash(world.channel, "board")
    assert answered.ephemeral
    assert f"<{VIEWER}/games/{game.id}/me#t=" in answered.response.content
    watching = await world.cleo.slash(world.channel, "board")
    assert "/me#t=" not in (watching.response.content or "")


def test_only_a_board_in_a_channel_links_and_only_with_a_viewer():
    from datetime import datetime, timezone

    from bot.store import Post

    def post(**fields):
        values = dict(id=1, game_id=7, update_no=3, kind="board", recipient=None, body="", attachment=None,
                      filename=None, created_at=datetime(2026, 1, 1, tzinfo=timezone.utc), attempts=0,
                      last_error=None, next_attempt_at=None, sent_at=None, message_id=None)
        return Post(**dict(values, **fields))

    assert board_link(VIEWER, post()) == f"{VIEWER}/games/7?update=3"
    assert board_link(None, post()) is None
    assert board_link(VIEWER, post(kind="report")) is None
    assert board_link(VIEWER, post(recipient=5)) is None
