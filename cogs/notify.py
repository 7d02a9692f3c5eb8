"""``/notify``: what a member asks to be told of this channel's game (issue 28).

Nobody is pinged unless they ask. ``pings:on`` gives the member the game's role, which the bot
creates the first time someone asks (and again if it was deleted) and remembers with the service;
the game's posts that ask for attention (a new board, the reminder before the deadline) ping that
role and nobody else. ``pings:off`` takes the role away. ``dm:on`` asks for a direct message when
the reminder goes out and the player has not ordered (players only; ``dm:off`` stops it). With no
option, the answer says what the member gets now.

Creating the role and giving it needs the bot's **Manage Roles** permission (README, "Invite it"),
and the bot's own role must stand above the game's role in the server's list (Discord lets a bot
manage only roles below its own; a role the bot creates starts below it). Without it the member is
told so, privately, and nothing changes. The role is mentionable, so that the bot may ping it
without the Mention Everyone permission.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Literal, Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import NotAllowed

from . import answer, game_for, service_of

__all__ = ["NotifyCog", "ROLE_MISSING_PERMISSION", "role_name", "setup"]

log = logging.getLogger(__name__)

ROLE_MISSING_PERMISSION = ("The bot cannot give roles here: it needs the Manage Roles permission, and its own role "
                           "must be above the game's role in Server Settings > Roles. Ask a moderator; nothing "
                           "was changed.")


def role_name(game) -> str:
    """The name of a game's notification role, as members see it in their profile."""
    return f"{game.name} (game {game.id}) pings"[:100]


class NotifyCog(commands.Cog, name="Notifications"):
    """``/notify``: the game's ping role and the player's direct-message reminder."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        #: one role is made per game even when members ask at the same moment
        self._role_locks: dict[int, asyncio.Lock] = {}

    @property
    def service(self):
        return service_of(self.bot)

    async def game_role(self, guild: discord.Guild, game) -> discord.Role:
        """The game's role in ``guild``: the one the service remembers, or a new one (remembered)."""
        async with self._role_locks.setdefault(game.id, asyncio.Lock()):
            role_id = await self.service.notification_role(game.id)
            role = guild.get_role(role_id) if role_id is not None else None
            if role is None:
                role = await guild.create_role(name=role_name(game), mentionable=True,
                                               reason=f"Skirmish: pings for game {game.id} (/notify)")
                await self.service.keep_notification_role(game.id, role.id)
                log.info("made role %s for the pings of game %s", role.id, game.id)
            return role

    @app_commands.command(name="notify", description="Be pinged for this channel's game, or reminded by direct message")
    @app_commands.describe(pings="on: take the game's role, pinged when a board is posted and before the deadline",
                           dm="on: a direct message before the deadline when you have not ordered (players)")
    @app_commands.guild_only()
    async def notify(self, interaction: discord.Interaction, pings: Optional[Literal["on", "off"]] = None,
                     dm: Optional[Literal["on", "off"]] = None) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            member = interaction.user
            told: list[str] = []
            if pings is not None:
                try:
                    if pings == "on":
                        role = await self.game_role(interaction.guild, game)
                        await member.add_roles(role, reason="/notify pings:on")
                        told.append(f"You have the role **{role.name}**: you are pinged when a board of "
                                    f"{game.name} is posted and before each deadline.")
                    else:
                        role_id = await self.service.notification_role(game.id)
                        role = interaction.guild.get_role(role_id) if role_id is not None else None
                        if role is not None and any(r.id == role.id for r in member.roles):
                            await member.remove_roles(role, reason="/notify pings:off")
                        told.append(f"You are not pinged for {game.name} any more.")
                except discord.Forbidden:
                    return ROLE_MISSING_PERMISSION
            if dm is not None:
                try:
                    await self.service.set_dm_reminder(game.id, user_id=member.id, wanted=dm == "on")
                except NotAllowed as exc:
                    raise NotAllowed(exc.message, hint="only players get a reminder about their order; "
                                                       "/notify pings:on works for everyone") from None
                told.append("You get a direct message before each deadline when you have not ordered."
                            if dm == "on" else "You get no direct-message reminder.")
            if not told:
                told.append(await self._status(game, member))
            return "\n".join(told)

        await answer(interaction, work)

    async def _status(self, game, member: discord.Member) -> str:
        preferences = await self.service.notification_preferences(game.id, user_id=member.id)
        pinged = preferences.role is not None and any(r.id == preferences.role for r in member.roles)
        lines = [f"**{game.name}**: " + ("you are pinged when a board is posted and before each deadline."
                                         if pinged else "you are not pinged (`/notify pings:on` to be).")]
        if preferences.dm_reminder is None:
            lines.append("You do not play this game, so there is no reminder about your order.")
        elif preferences.dm_reminder:
            lines.append("You get a direct message before each deadline when you have not ordered (`/notify dm:off`).")
        else:
            lines.append("You get no direct-message reminder (`/notify dm:on` to get one).")
        return "\n".join(lines)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(NotifyCog(bot))
