"""Moderator commands for a game's life, /game ...: create in a channel or thread, start, pause,
resume, schedule, settings, end (confirmed), each through the service, audited and answered privately."""

from __future__ import annotations

import dataclasses

import discord
import pytest
import simcord

from cogs.moderation import REFUSAL

from .conftest import let_use, stamp


@pytest.fixture
async def referee(world):
    """A member with the configured moderator role."""
    bot = world.env.bot
    bot.config = dataclasses.replace(bot.config, moderator_role="Referee")
    role = world.guild.create_role("Referee")
    member = world.guild.add_member(world.env.create_user("rita"), roles=[role])
    let_use(world, [role], "game")          # the server lets its moderator role see /game (README)
    await world.env.settle()
    return member


@pytest.fixture
async def owner_like(world):
    """A member with Manage Server and no moderator role."""
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    member = world.guild.add_member(world.env.create_user("adam"), roles=[role])
    await world.env.settle()
    return member


async def actions(world, game) -> list[tuple[int, str]]:
    return [(entry.actor, entry.action) for entry in await world.service.audit_log(game.id)]


# ----------------------------------------------------------------------------- who may
async def test_game_commands_are_shown_to_moderators_only(world, referee, owner_like):
    assert not any(name.startswith("game ") for name in world.alice.available_commands(world.channel))
    assert "game create" in referee.available_commands(world.channel)        # allowed by the server
    assert "game create" in owner_like.available_commands(world.channel)     # Manage Server: Discord's default
    command = world.env.backend.find_command("game", world.guild.id)
    assert int(command["default_member_permissions"]) == discord.Permissions(manage_guild=True).value


async def test_a_plain_member_cannot_create_or_run_a_game(world, referee):
    # the server let everyone see /game, but the bot's own check still refuses whoever does not moderate
    let_use(world, [world.guild.default_role, referee.guild.roles["Referee"]], "game")
    result = await world.alice.slash(world.channel, "game create", ruleset="sandbox")
    assert result.ephemeral and result.response.content == REFUSAL
    assert await world.service.games_in(channel_id=world.channel.id) == []
    game = await world.game(start=False)
    refused = await world.alice.slash(world.channel, "game start")
    assert refused.response.content == REFUSAL
    assert (await world.service.get_game(game.id)).status == "setup"
    ending = await world.alice.slash(world.channel, "game end")
    assert ending.response.content == REFUSAL and not ending.response.components
    assert not world.env.errors


async def test_manage_server_is_enough(world, owner_like):
    result = await owner_like.slash(world.channel, "game create")
    assert result.ephemeral and "Created game 1, **neisg game** (neisg)" in result.response.content
    [game] = await world.service.games_in(channel_id=world.channel.id)
    assert await actions(world, game) == [(owner_like.id, "create")]


# ----------------------------------------------------------------------------- create
async def test_create_with_every_option_in_this_channel_of_this_server(world, referee):
    result = await referee.slash(world.channel, "game create", ruleset="sandbox", name="Friday Sandbox",
                                 schedule="every 2 hours", length=12)
    assert world.deferred_privately() and result.ephemeral
    assert "Created game 1, **Friday Sandbox** (sandbox)" in result.response.content
    assert "every 2 hours, 12 updates" in result.response.content
    [game] = await world.service.games_in(channel_id=world.channel.id)
    assert (game.guild_id, game.ruleset, game.name, game.status) == (world.guild.id, "sandbox", "Friday Sandbox", "setup")
    assert world.service.settings(game).length == 12
    assert world.service.schedule(game).describe() == "every 2 hours"
    assert await actions(world, game) == [(referee.id, "create")]
    again = await referee.slash(world.channel, "game create")
    assert "this channel already runs game 1" in again.response.content


async def test_a_sandbox_game_may_be_created_with_its_first_event_earlier(world, referee):
    result = await referee.slash(world.channel, "game create", ruleset="sandbox", events_from=10)
    assert "Created game 1" in result.response.content
    [game] = await world.service.games_in(channel_id=world.channel.id)
    assert world.service.ruleset(game).events.events_from == 10
    shown = await referee.slash(world.channel, "game settings")
    assert "events_from 10" in shown.response.content


async def test_create_offers_the_playable_rulesets_and_refuses_a_bad_schedule(world, referee):
    with pytest.raises(simcord.OptionError):
        await referee.slash(world.channel, "game create", ruleset="chess960")
    bad = await referee.slash(world.channel, "game create", schedule="whenever")
    assert "is not a schedule" in bad.response.content and "Hint:" in bad.response.content
    assert await world.service.games_in(channel_id=world.channel.id) == []


async def test_create_in_a_thread_uses_the_thread(world, referee):
    parent = world.env.bot.get_channel(world.channel.id)
    await parent.create_thread(name="league", type=discord.ChannelType.public_thread)
    await world.env.settle()
    [thread] = world.channel.threads
    await referee.slash(thread, "game create", name="Thread game")
    [game] = await world.service.games_in(channel_id=thread.id)
    assert game.name == "Thread game" and game.guild_id == world.guild.id
    assert await world.service.games_in(channel_id=world.channel.id) == []


# ----------------------------------------------------------------------------- the life of a game
async def test_start_pause_resume_and_the_channel_is_told_once_each(world, referee):
    await referee.slash(world.channel, "game create", schedule="every 1 hour")
    started = await referee.slash(world.channel, "game start")
    assert "has started" in started.response.content and stamp("2099-11-22 13:00") in started.response.content
    [game] = await world.service.games_in(channel_id=world.channel.id)
    assert game.status == "running"
    world.clock.advance(minutes=10)
    paused = await referee.slash(world.channel, "game pause", reason="server maintenance")
    assert "is paused" in paused.response.content
    assert (await world.service.get_game(game.id)).status == "paused"
    world.clock.advance(minutes=30)
    resumed = await referee.slash(world.channel, "game resume")
    assert stamp("2099-11-22 13:30") in resumed.response.content
    assert (await world.service.get_game(game.id)).status == "running"
    again = await referee.slash(world.channel, "game resume")
    assert "is not paused" in again.response.content
    await world.env.settle()
    public = [m.content for m in world.public(world.channel)]
    assert sum("has started" in text for text in public) == 1
    assert public.count("**neisg game** is paused: server maintenance") == 1
    assert sum("resumes" in text for text in public) == 1
    assert [a for _, a in await actions(world, game)] == ["create", "start", "pause", "resume"]


async def test_schedule_and_settings_go_through_configure(world, referee):
    game = await world.game()
    result = await referee.slash(world.channel, "game schedule", schedule="daily 18:00")
    assert "every day at 18:00 UTC" in result.response.content and stamp("2099-11-22 18:00") in result.response.content
    assert world.service.schedule(await world.service.get_game(game.id)).at == "18:00"
    changed = await referee.slash(world.channel, "game settings", length=30, remind_before=0, palette="colourblind",
                                  name="Winter League")
    assert changed.ephemeral and "Winter League: changed" in changed.response.content
    game = await world.service.get_game(game.id)
    settings = world.service.settings(game)
    assert (game.name, settings.length, settings.remind_before, settings.palette) == (
        "Winter League", 30, 0, "colourblind")
    shown = await referee.slash(world.channel, "game settings")
    assert "length 30" in shown.response.content and "palette colourblind" in shown.response.content
    assert "events_from 2" in shown.response.content          # neisg's own first event (RULES 4)
    assert [a for _, a in await actions(world, game)][-2:] == ["configure", "configure"]
    with pytest.raises(simcord.OptionError):
        await referee.slash(world.channel, "game settings", lock_before=-1)


async def test_commands_outside_a_game_channel_explain(world, referee):
    result = await referee.slash(world.lobby, "game start")
    assert "no game runs in this channel" in result.response.content


# ----------------------------------------------------------------------------- end
async def test_end_asks_first_and_cancel_keeps_the_game(world, referee):
    game = await world.game()
    asked = await referee.slash(world.channel, "game end")
    assert asked.ephemeral and "End **neisg game** (game 1) now?" in asked.response.content
    cancelled = await referee.click(asked.response.message, label="Cancel")
    assert "nothing was changed" in cancelled.response.content
    assert (await world.service.get_game(game.id)).status == "running"
    assert "end" not in [a for _, a in await actions(world, game)]


async def test_end_after_confirmation(world, referee):
    game = await world.game()
    await world.join(game, world.alice, "Red")
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)")
    asked = await referee.slash(world.channel, "game end", reason="season over")
    done = await referee.click(asked.response.message, label="Confirm")
    assert "neisg game has ended" in done.response.content and not done.response.components
    assert (await world.service.get_game(game.id)).status == "ended"
    assert await world.service.games_in(channel_id=world.channel.id) == []
    assert (referee.id, "end") in await actions(world, game)
    await world.env.settle()
    # the channel may hold a new game now
    created = await referee.slash(world.channel, "game create", name="Next")
    assert "Created game 2" in created.response.content
