"""Options with choices take only their choices (issue 36): discord.py passes a ``Literal`` or
``@app_commands.choices`` option's value on as the client sent it, so one shared check, the bot's
command tree (cogs.CommandTree), refuses any other value before a command runs, for every command."""

from __future__ import annotations

import discord
from discord import app_commands

from .conftest import let_use

#: the options with choices the bot has today; the test below finds every one by itself
KNOWN = {("mod event", "action"), ("notify", "pings"), ("notify", "dm"), ("game create", "ruleset"),
         ("game settings", "palette")}


def options_with_choices(bot) -> list[tuple[app_commands.Command, app_commands.Parameter]]:
    return [(command, parameter) for command in bot.tree.walk_commands() if isinstance(command, app_commands.Command)
            for parameter in command.parameters if parameter.choices]


def valid_options(command: app_commands.Command) -> dict:
    """Values SimCord accepts for the command's required options (never reached: the check comes first)."""
    filled = {}
    for parameter in command.parameters:
        if not parameter.required:
            continue
        if parameter.choices:
            filled[parameter.display_name] = parameter.choices[0].value
        elif parameter.type is discord.AppCommandOptionType.integer:
            filled[parameter.display_name] = int(parameter.min_value or 1)
        elif parameter.type is discord.AppCommandOptionType.boolean:
            filled[parameter.display_name] = True
        else:
            filled[parameter.display_name] = "x" * int(parameter.min_value or 1)
    return filled


async def moderator(world):
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    member = world.guild.add_member(world.env.create_user("adam"), roles=[role])
    let_use(world, [role], "mod", "game")
    await world.env.settle()
    return member


async def test_a_value_outside_an_options_choices_is_refused_for_every_command(world, forge):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    admin = await moderator(world)
    found = options_with_choices(world.env.bot)
    assert {(c.qualified_name, p.display_name) for c, p in found} >= KNOWN
    audit = await world.service.audit_log(game.id)
    for command, parameter in found:
        forged = "pause" if parameter.type is discord.AppCommandOptionType.string else 999_999
        forge(**{parameter.display_name: forged})
        options = valid_options(command) | {parameter.display_name: parameter.choices[0].value}
        result = await admin.slash(world.channel, command.qualified_name, **options)
        allowed = ", ".join(str(choice.value) for choice in parameter.choices)
        assert result.ephemeral, command.qualified_name
        assert result.response.content == (
            f"{forged!r} is not a choice of the option `{parameter.display_name}` of /{command.qualified_name}: "
            f"choose one of {allowed}. Nothing was changed."), result.response.content
        forge(**{parameter.display_name: parameter.choices[0].value})
    assert await world.service.audit_log(game.id) == audit                     # nothing was done
    assert [g.id for g in await world.service.games_in(channel_id=world.channel.id)] == [game.id]


async def test_mod_event_with_an_action_outside_start_and_stop_is_not_taken_as_stop(world, forge):
    game = await world.game()
    admin = await moderator(world)
    started = await admin.slash(world.channel, "mod event", action="start", name="Famine")
    assert "starts" in started.response.content
    forge(action="pause")
    refused = await admin.slash(world.channel, "mod event", action="stop", name="Famine")
    assert "'pause' is not a choice of the option `action` of /mod event: choose one of start, stop" in (
        refused.response.content)
    assert [e.name for e in (await world.service.event_status(game.id)).active] == ["Famine"]   # still running
    assert [entry.action for entry in await world.service.audit_log(game.id)][-1] == "event_start"
    forge(action="stop")
    stopped = await admin.slash(world.channel, "mod event", action="stop", name="Famine")
    assert "ends" in stopped.response.content                                  # the real choices still work
