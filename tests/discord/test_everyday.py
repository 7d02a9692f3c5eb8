"""Everyday player commands (issue 28): /games, /leave (confirmed first), the order history in
/orders."""

from __future__ import annotations

from .conftest import stamp


async def test_games_lists_this_servers_games_and_where_they_stand(world):
    empty = await world.alice.slash(world.channel, "games")
    assert empty.ephemeral and "No game on this server yet" in empty.response.content
    game = await world.game(schedule="every 1 hour")
    await world.join(game, world.alice, "Red", "Alice")
    await world.service.create_game(guild_id=world.guild.id, channel_id=world.lobby.id, actor=world.moderator,
                                    name="Lobby League")
    text = (await world.bob.slash(world.lobby, "games")).response.content
    assert text.split("\n") == [
        "Games on this server:",
        f"- **neisg game** (game {game.id}, Never-Ending Infinite Sandbox Game) in <#{world.channel.id}>: running, "
        f"update 1, 1 player, orders close at {stamp('2099-11-22 13:00')}",
        f"- **Lobby League** (game {game.id + 1}, Never-Ending Infinite Sandbox Game) in <#{world.lobby.id}>: being "
        "set up, 0 players",
    ]
    assert "games" not in world.alice.user.available_commands()


async def test_leave_asks_first_then_the_order_becomes_resign(world):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)")
    await world.resolve(game)
    asked = await world.alice.slash(world.channel, "leave")
    assert asked.ephemeral and "Leave **neisg game**? Your order for update 2 becomes `resign`" in asked.response.content
    assert await world.service.my_order(game.id, user_id=world.alice.id) is None            # nothing yet
    done = await world.alice.click(asked.response.message, label="Confirm")
    assert "You leave **neisg game** at the end of update 2: your order is now `resign`" in done.response.content
    assert (await world.service.my_order(game.id, user_id=world.alice.id)).canonical == "resign"
    cancelled = await world.alice.slash(world.channel, "leave")
    stays = await world.alice.click(cancelled.response.message, label="Cancel")
    assert "nothing was changed" in stays.response.content


async def test_orders_shows_the_players_own_history(world):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    await world.join(game, world.bob, "Blue", "Bob")
    await world.alice.slash(world.channel, "move", order="K(0,0)")
    await world.bob.slash(world.channel, "move", order="K(9,9)")
    await world.resolve(game)
    await world.alice.slash(world.channel, "move", order="K(0,0)-(0,1)")
    await world.alice.slash(world.channel, "move", order="K(0,0)-(1,1)")
    text = (await world.alice.slash(world.channel, "orders")).response.content
    assert text.split("Your last orders:\n")[1].split("\n") == [
        "- update 2: `K(0,0)-(1,1)`, pending", "- update 2: `K(0,0)-(0,1)`, replaced", "- update 1: `+K(0,0)`, played"]
    assert "K(9,9)" not in text
