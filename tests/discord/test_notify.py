"""Opt-in notifications on Discord (issue 28): the game's role taken and left with /notify, pinged
when a board is posted and before the deadline (and nobody else, ever), the direct-message
reminder, and deadlines as Discord timestamps."""

from __future__ import annotations

import discord

from cogs.notify import ROLE_MISSING_PERMISSION, role_name

from .conftest import stamp


def stored(world, message):
    """SimCord's record of a message: who it really pinged (``ping_role_ids``, ``ping_user_ids``)."""
    return world.env.backend.get_message(message.channel.id, message.id)


def roles_of(world, member) -> list[int]:
    """The roles ``member`` has in the server, as Discord keeps them."""
    return world.env.backend.get_guild(world.guild.id).members[member.id].role_ids


def role_requests(world) -> list:
    return [r for r in world.env.http_requests if r.method == "POST" and r.path.endswith("/roles")]


async def started(world, **options):
    game = await world.game(**options)
    await world.join(game, world.alice, "Red", "Alice")
    await world.join(game, world.bob, "Blue", "Bob")
    return game


async def test_pings_on_makes_the_games_role_once_and_gives_it(world):
    game = await started(world)
    result = await world.alice.slash(world.channel, "notify", pings="on")
    assert result.ephemeral
    game = await world.service.get_game(game.id)
    role = world.guild.roles[role_name(game)]
    assert game.notify_role == role.id
    assert f"You have the role **{role_name(game)}**" in result.response.content
    assert role.id in roles_of(world, world.alice)
    # a second member gets the same role; a spectator may take it too
    await world.cleo.slash(world.channel, "notify", pings="on")
    assert role.id in roles_of(world, world.cleo)
    assert len(role_requests(world)) == 1
    status = await world.cleo.slash(world.channel, "notify")
    assert "you are pinged when a board is posted" in status.response.content
    assert "You do not play this game" in status.response.content
    off = await world.alice.slash(world.channel, "notify", pings="off")
    assert "not pinged" in off.response.content
    assert role.id not in roles_of(world, world.alice)


async def test_a_new_board_and_the_reminder_ping_the_role_and_nothing_else_does(world):
    game = await started(world, schedule="every 1 hour")
    await world.alice.slash(world.channel, "notify", pings="on")
    role_id = (await world.service.get_game(game.id)).notify_role
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)")
    world.clock.advance(minutes=31)                          # the reminder: 60 minutes before the deadline
    game = await world.service.get_game(game.id)
    assert await world.service.remind_if_due(game.id, game.update_no)
    await world.env.settle()
    await world.resolve(game)
    posted = world.public(world.channel)
    reminder = next(m for m in posted if "have not moved" in m.content)
    assert reminder.content.startswith(f"<@&{role_id}> 1 of 2 players have not moved for update 1: Bob.")
    assert f"Orders close at {stamp('2099-11-22 13:00')}." in reminder.content
    board = next(m for m in posted if "the board after update 1" in m.content)
    assert board.content == f"<@&{role_id}> **neisg game**: the board after update 1."
    assert stored(world, board).ping_role_ids == [role_id] and stored(world, reminder).ping_role_ids == [role_id]
    others = [m for m in posted if m not in (board, reminder)]
    assert others and all(stored(world, m).ping_role_ids == [] and f"<@&{role_id}>" not in m.content for m in others)
    assert all(stored(world, m).ping_user_ids == [] for m in posted)
    # the stored posts are the same text as before: the ping is added when they are delivered
    async with world.service.store.snapshot_read() as q:
        bodies = [row.body for row in await q.posts(game.id)]
    assert "**neisg game**: the board after update 1." in bodies and all("<@&" not in b for b in bodies)


async def test_a_deleted_role_is_made_again(world):
    game = await started(world)
    await world.alice.slash(world.channel, "notify", pings="on")
    first = (await world.service.get_game(game.id)).notify_role
    await world.env.bot.get_guild(world.guild.id).get_role(first).delete()
    await world.env.settle()
    await world.bob.slash(world.channel, "notify", pings="on")
    second = (await world.service.get_game(game.id)).notify_role
    assert second != first and second in roles_of(world, world.bob)


async def test_without_manage_roles_the_member_is_told_and_nothing_changes(world):
    game = await started(world)
    world.env.inject_error("POST", f"/guilds/{world.guild.id}/roles", status=403, code=50013, times=None)
    result = await world.alice.slash(world.channel, "notify", pings="on")
    assert result.response.content == ROLE_MISSING_PERMISSION
    assert (await world.service.get_game(game.id)).notify_role is None


async def test_dm_reminder_only_for_players_who_asked_and_have_not_ordered(world):
    game = await started(world, schedule="every 1 hour")
    spectator = await world.cleo.slash(world.channel, "notify", dm="on")
    assert "you are not a player" in spectator.response.content and "pings:on" in spectator.response.content
    for member in (world.alice, world.bob):
        answer = await member.slash(world.channel, "notify", dm="on")
        assert "You get a direct message before each deadline" in answer.response.content
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)")
    world.clock.advance(minutes=31)
    assert await world.service.remind_if_due(game.id, 1)
    await world.env.settle()
    bob_dm = world.bob.user.dm_channel.history()
    assert bob_dm[-1].content == (f"Reminder: you have not ordered for update 1 of **neisg game**. Orders close at "
                                  f"{stamp('2099-11-22 13:00')}. Send your order with /move in the game's channel or "
                                  "here, by direct message.")
    assert stored(world, bob_dm[-1]).ping_user_ids == []
    alice_dm = world.alice.user.dm_channel
    assert not any("Reminder" in m.content for m in (alice_dm.history() if alice_dm else []))
    off = await world.bob.slash(world.channel, "notify", dm="off")
    assert "no direct-message reminder" in off.response.content
    status = await world.bob.slash(world.channel, "notify")
    assert "you are not pinged" in status.response.content and "`/notify dm:on`" in status.response.content


async def test_notify_is_offered_to_every_member_in_a_server_only(world):
    await world.game()
    assert "notify" in world.alice.available_commands(world.channel)
    assert "notify" not in world.alice.user.available_commands()
    assert isinstance(world.env.bot.get_cog("Notifications"), discord.ext.commands.Cog)
