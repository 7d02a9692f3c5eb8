"""Secret orders: a plain direct message, or /move in a direct message (RULES 4). The order's text
never reaches a server channel, a log line at INFO or above, or anyone else before the update."""

from __future__ import annotations

import logging


def texts(channel) -> list[str]:
    return [message.content for message in channel.history()]


async def test_a_direct_message_is_a_secret_order(world, caplog):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    await world.join(game, world.bob, "Blue", "Bob")
    with caplog.at_level(logging.DEBUG):
        await world.bob.user.send_dm("k(7,-3)")
    assert texts(world.bob.user.dm_channel)[-1] == "Order for update 1 accepted: `+K(7,-3)` (secret)"
    order = await world.service.my_order(game.id, user_id=world.bob.id)
    assert (order.canonical, order.source) == ("+K(7,-3)", "dm")
    # the channel learns only that Bob ordered, through the service's notice post
    assert [m.content for m in world.public(world.channel)][-1] == "Bob has submitted a secret move"
    assert all("7,-3" not in message.content for message in world.server_messages())
    assert all("7,-3" not in record.getMessage() for record in caplog.records if record.levelno >= logging.INFO)


async def test_the_secret_stays_secret_until_the_update_resolves_it(world, caplog):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    await world.join(game, world.bob, "Blue", "Bob")
    with caplog.at_level(logging.INFO):
        await world.bob.user.send_dm("K(7,-3)")
        await world.bob.user.send_dm("K(8,-3)")                 # a replacement: no second notice
        await world.alice.slash(world.channel, "move", order="K(0,0)")
        await world.alice.slash(world.channel, "orders")
        await world.cleo.slash(world.channel, "board")
        await world.alice.slash(world.channel, "health")
    assert [m.content for m in world.public(world.channel)].count("Bob has submitted a secret move") == 1
    for secret in ("7,-3", "8,-3"):
        assert all(secret not in message.content for message in world.server_messages())
        assert all(secret not in record.getMessage() for record in caplog.records)
    await world.resolve(game)
    report = [m.content for m in world.public(world.channel) if m.content.startswith("Update 1")]
    assert report and "Bob placed a king on (8,-3)" in report[0]


async def test_move_in_a_direct_message_is_secret_too(world):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    result = await world.alice.user.slash("move", order="K(2,2)")
    assert result.response.content == "Order for update 1 accepted: `+K(2,2)` (secret)"
    assert (await world.service.my_order(game.id, user_id=world.alice.id)).source == "dm"
    assert world.public(world.channel)[-1].content == "Alice has submitted a secret move"
    mine = await world.alice.user.slash("orders")
    assert "Your order for update 1: `+K(2,2)` (secret)" in mine.response.content


async def test_the_secret_notice_is_configurable_and_may_be_silent(world):
    quiet = await world.game(settings={"secret_notice": ""})
    await world.join(quiet, world.alice, "Red", "Alice")
    before = len(world.public(world.channel))
    await world.alice.user.send_dm("K(1,1)")
    assert "accepted" in texts(world.alice.user.dm_channel)[-1]
    assert len(world.public(world.channel)) == before
    custom = await world.game(world.lobby, settings={"secret_notice": "{player} whispered an order"})
    await world.join(custom, world.bob, "Blue", "Bob")
    await world.bob.user.send_dm("K(1,1)")
    assert world.public(world.lobby)[-1].content == "Bob whispered an order"


async def test_a_refused_secret_order_is_explained_in_the_direct_message(world):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    await world.alice.user.send_dm("Nf3")
    answer = texts(world.alice.user.dm_channel)[-1]
    assert answer.startswith("Order refused:\n```\n") and "Nf3" in answer
    assert await world.service.my_order(game.id, user_id=world.alice.id) is None
    assert all("Nf3" not in message.content for message in world.server_messages())


async def test_a_ruleset_without_secret_orders_refuses_direct_messages_with_the_reason(world):
    game = await world.game(ruleset="sandbox")
    await world.join(game, world.alice, "Red", "Alice")
    await world.alice.user.send_dm("K(5,5)")
    answer = texts(world.alice.user.dm_channel)[-1]
    assert "takes orders only in the game channel" in answer
    assert "Hint: send it with /move in the game channel" in answer
    result = await world.alice.user.slash("move", order="K(5,5)")
    assert "takes orders only in the game channel" in result.response.content
    assert await world.service.my_order(game.id, user_id=world.alice.id) is None


async def test_a_player_of_several_games_is_asked_to_choose(world):
    first = await world.game()
    second = await world.game(world.lobby)
    await world.join(first, world.alice, "Red", "Alice")
    await world.join(second, world.alice, "Red", "Alice")
    await world.alice.user.send_dm("K(0,0)")
    answer = texts(world.alice.user.dm_channel)[-1]
    assert "You play several games" in answer and "/move" in answer and "game option" in answer
    assert await world.service.my_order(first.id, user_id=world.alice.id) is None
    choose = await world.alice.user.slash("move", order="K(0,0)")
    assert "you play several games" in choose.response.content
    offered = await world.alice.user.autocomplete("move", "game", "")
    assert [choice["value"] for choice in offered] == [first.id, second.id]
    assert offered[0]["name"] == f"neisg game (game {first.id})"
    result = await world.alice.user.slash("move", order="K(0,0)", game=second.id)
    assert "accepted: `+K(0,0)` (secret)" in result.response.content
    assert (await world.service.my_order(second.id, user_id=world.alice.id)).canonical == "+K(0,0)"
    stranger = await world.alice.user.slash("move", order="K(0,0)", game=second.id + 10)
    assert f"you do not play game {second.id + 10}" in stranger.response.content


async def test_someone_in_no_game(world):
    await world.game()
    await world.cleo.user.send_dm("K(0,0)")
    assert "You do not play any game yet" in texts(world.cleo.user.dm_channel)[-1]
    result = await world.cleo.user.slash("board")
    assert "you do not play any game yet" in result.response.content
    assert "/join" in result.response.content


async def test_cancel_and_help_by_direct_message(world):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    await world.alice.user.send_dm("K(0,0)")
    await world.alice.user.send_dm("cancel")
    assert "Your order `+K(0,0)` for update 1 of neisg game is withdrawn" in texts(world.alice.user.dm_channel)[-1]
    assert await world.service.my_order(game.id, user_id=world.alice.id) is None
    await world.alice.user.send_dm("help")
    assert "secret" in texts(world.alice.user.dm_channel)[-1]


async def test_an_unexpected_failure_in_a_direct_message(world, monkeypatch, caplog):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")

    async def broken(*args, **kwargs):
        raise KeyError(kwargs.get("text"))

    monkeypatch.setattr(world.service, "submit_order", broken)
    with caplog.at_level(logging.DEBUG):
        await world.alice.user.send_dm("K(31,-9)")
    assert texts(world.alice.user.dm_channel)[-1].startswith("Sorry, something went wrong")
    assert any(r.levelno == logging.ERROR and "KeyError" in r.getMessage() for r in caplog.records)
    assert all("31,-9" not in r.getMessage() for r in caplog.records)
    assert not world.env.errors


async def test_an_answer_too_long_for_one_message_is_attached(world, monkeypatch):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")

    async def verbose(*args, **kwargs):
        from bot.service import InvalidInput

        raise InvalidInput("several pieces could make that move: " + ", ".join(f"({i},{i})" for i in range(400)))

    monkeypatch.setattr(world.service, "submit_order", verbose)
    await world.alice.user.send_dm("N(3,3)")
    last = world.alice.user.dm_channel.history()[-1]
    assert last.content.startswith("several pieces could make that move") and len(last.content) <= 2000
    [attached] = last.attachments
    assert attached.filename == "answer.md"
    assert "(399,399)" in (await attached.read()).decode()
