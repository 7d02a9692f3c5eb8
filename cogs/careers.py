"""Careers (issue 42): ``/profile [player] [hide]`` and ``/leaderboard [family]``.

Both answer only the member who asked (ephemeral) and are about the server they are used in. The
service works everything out from the stored games (bot/service/careers.py, docs/ratings.md); this
cog only turns its answers into text. Members are named by mention, which pings nobody
(``AllowedMentions.none()``, as every answer of the bot).
"""

from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import InvalidInput, Leaderboard, Profile

from . import answer, log_failure, matching, service_of

__all__ = ["CareersCog", "profile_text", "leaderboard_text", "setup"]

_PLACES = {1: "1st", 2: "2nd", 3: "3rd"}


def _place(place: int) -> str:
    return _PLACES.get(place, f"{place}th")


def profile_text(profile: Profile) -> str:
    """A profile as the member reads it: ratings (with their uncertainty), careers, recent games."""
    lines = [f"**Profile of <@{profile.user_id}>** on this server"
             + (" (hidden from the leaderboards: /profile hide:False shows it again)"
                if profile.hidden and not profile.private else "")]
    if profile.private:
        lines.append("Their ratings are private: they keep off this server's leaderboards.")
    elif profile.ratings:
        lines.append("Ratings (the skill shown is mu − 3 sigma: the lower, the less sure):")
        for family, rating in profile.ratings:
            provisional = " — provisional" if rating.provisional else ""
            lines.append(f"- {family}: {rating.ordinal:.1f} (mu {rating.mu:.1f} ± sigma {rating.sigma:.1f}), "
                         f"{rating.games} rated game{'s' if rating.games != 1 else ''}, {rating.wins} won{provisional}")
    else:
        lines.append("Not rated yet: ratings come from arena and territory games that end with a winner or a draw.")
    if profile.careers:
        lines.append("Careers in the endless games:")
        lines += [f"- {career.text()}" for career in profile.careers]
    if profile.recent:
        lines.append("Recent games:")
        for recent in profile.recent:
            place = f", {_place(recent.place)}" if recent.place is not None else ""
            viewer = f" · [viewer]({recent.viewer})" if recent.viewer else ""
            lines.append(f"- game {recent.game.id} **{recent.game.name}** ({recent.title}, {recent.game.status}"
                         f"{place}): [channel]({recent.link}){viewer}")
    return "\n".join(lines)


def leaderboard_text(board: Leaderboard) -> str:
    """The top of a server's leaderboard, the viewer's own line, and who is still provisional."""
    others = [f for f in board.families if f != board.family]
    lines = [f"**Leaderboard: {board.family}** ({board.counted} member{'s' if board.counted != 1 else ''} with "
             f"5 or more rated games" + (f"; also rated: {', '.join(others)}" if others else "") + ")"]
    if board.top:
        lines += [f"{standing.place}. <@{standing.rating.user_id}> {standing.rating.text()}, "
                  f"{standing.rating.games} games, {standing.rating.wins} won" for standing in board.top]
    else:
        lines.append("Nobody has played enough rated games to count yet.")
    if board.own is not None:
        rating = board.own.rating
        where = (f"you are {_place(board.own.place)} of {board.counted}" if board.own.place is not None else
                 f"you are provisional ({rating.games} of 5 rated games)")
        hidden = " (hidden: only you see it)" if board.hidden_self else ""
        lines.append(f"Your rating: {rating.text()}; {where}{hidden}.")
    if board.provisional:
        shown = ", ".join(f"<@{s.rating.user_id}>" for s in board.provisional[:20])
        more = f" and {len(board.provisional) - 20} more" if len(board.provisional) > 20 else ""
        lines.append(f"Provisional (fewer than 5 rated games): {shown}{more}.")
    return "\n".join(lines)


class CareersCog(commands.Cog, name="Careers"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def service(self):
        return service_of(self.bot)

    def _public_url(self) -> str | None:
        """``[web] public_url`` (``config.web.public_url``: the viewer's address) where the
        configuration has it, else None."""
        web = getattr(getattr(self.bot, "config", None), "web", None)
        return getattr(web, "public_url", None)

    @app_commands.command(name="profile", description="A member's ratings, careers and recent games (only you see it)")
    @app_commands.describe(player="whose profile (default: yours)",
                           hide="True: keep yourself off this server's leaderboards (still rated); False: show again")
    @app_commands.guild_only()
    async def profile(self, interaction: discord.Interaction, player: Optional[discord.Member] = None,
                      hide: Optional[bool] = None) -> None:
        async def work() -> str:
            member = player.id if player is not None else interaction.user.id
            note = ""
            if hide is not None:
                if member != interaction.user.id:
                    raise InvalidInput("only your own profile can be hidden or shown",
                                       hint="/profile hide:True, without a player")
                await self.service.set_profile_hidden(interaction.guild_id, member, hide)
                note = ("You are off this server's leaderboards now (still rated; /profile hide:False shows you "
                        "again).\n" if hide else "You are on this server's leaderboards again.\n")
            found = await self.service.profile(interaction.guild_id, member, viewer=interaction.user.id,
                                               public_url=self._public_url())
            return note + profile_text(found)

        await answer(interaction, work)

    async def family_autocomplete(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        try:
            families = await self.service.rated_families(interaction.guild_id)
            return [app_commands.Choice(name=name, value=name) for name in matching(families, current)[:25]]
        except Exception as exc:            # an autocomplete must never fail loudly: offer nothing
            log_failure("family autocomplete", exc)
            return []

    @app_commands.command(name="leaderboard", description="This server's top 20 in a game family, and your rank")
    @app_commands.describe(family="the game family (default: the one with most rated games here)")
    @app_commands.autocomplete(family=family_autocomplete)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction,
                          family: Optional[app_commands.Range[str, 1, 40]] = None) -> None:
        async def work() -> str:
            board = await self.service.leaderboard(interaction.guild_id, family=family, viewer=interaction.user.id)
            return leaderboard_text(board)

        await answer(interaction, work)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CareersCog(bot))
