"""Moderator commands for a game's life: ``/game create|start|pause|resume|schedule|settings|end``.

A game lives in the channel or thread where ``/game create`` is used (one live game per channel).
Only moderators (Manage Server, or the configured role: :func:`cogs.moderation.is_moderator`) may
use these commands; ``/game end`` asks for confirmation first. Answers are private; what the
channel must know (the start, a pause, the end) the service posts through the outbox.
"""

from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import playable_rulesets

from . import answer, game_for, service_of
from .moderation import _moderator, confirm, moderator_only

__all__ = ["GameSetupCog", "setup"]


def _when(moment) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC" if moment else "none (manual schedule)"


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class GameSetupCog(commands.GroupCog, name="Game setup", group_name="game", group_description="Create and run this channel's game"):
    """``/game ...``: create a game in a channel and run its life."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self):
        return service_of(self.bot)

    @app_commands.command(name="create", description="Create a game in this channel or thread")
    @app_commands.describe(ruleset="the rules to play", name="the game's name",
                           schedule="when updates resolve: manual, every 2 hours, daily 18:00 (UTC), daily 18:00 Europe/Paris",
                           length="updates in the session (empty: never-ending)",
                           events_from="the update of the first event (empty: the ruleset's own)")
    @app_commands.choices(ruleset=[app_commands.Choice(name=n, value=n) for n in playable_rulesets()])
    @moderator_only
    async def create(self, interaction: discord.Interaction, ruleset: str = "neisg",
                     name: Optional[app_commands.Range[str, 1, 100]] = None,
                     schedule: Optional[app_commands.Range[str, 1, 60]] = None,
                     length: Optional[app_commands.Range[int, 1, 100_000]] = None,
                     events_from: Optional[app_commands.Range[int, 1, 100_000]] = None) -> None:
        async def work() -> str:
            settings = {key: value for key, value in (("length", length), ("events_from", events_from))
                        if value is not None} or None
            game = await self.service.create_game(guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                                                  actor=_moderator(interaction), ruleset=ruleset, name=name,
                                                  settings=settings, schedule=schedule or "manual")
            rounds = f"{length} updates" if length is not None else "no set length"
            seating = self.service.variant(game).seating
            joining = ("players take their seats with /join now, before the start" if seating.seats_before_start
                       else "players join with /join once it has started")
            return (f"Created game {game.id}, **{game.name}** ({game.ruleset}) in this channel: schedule "
                    f"{self.service.schedule(game).describe()}, {rounds}. Start it with /game start; {joining}.")

        await answer(interaction, work)

    @app_commands.command(name="start", description="Start this channel's game: orders open for update 1")
    @moderator_only
    async def start(self, interaction: discord.Interaction) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            game = await self.service.start_game(game.id, actor=_moderator(interaction))
            return f"{game.name} has started; the channel is told. Deadline: {_when(game.deadline_at)}."

        await answer(interaction, work)

    @app_commands.command(name="pause", description="Stop the clock of this channel's game")
    @app_commands.describe(reason="why (shown in the channel)")
    @moderator_only
    async def pause(self, interaction: discord.Interaction,
                    reason: Optional[app_commands.Range[str, 1, 300]] = None) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            game = await self.service.pause_game(game.id, actor=_moderator(interaction), reason=reason or "")
            return f"{game.name} is paused; the channel is told. /game resume restarts the clock."

        await answer(interaction, work)

    @app_commands.command(name="resume", description="Restart the clock; the deadline moves by the paused time")
    @moderator_only
    async def resume(self, interaction: discord.Interaction) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            game = await self.service.resume_game(game.id, actor=_moderator(interaction))
            return f"{game.name} resumes. Deadline: {_when(game.deadline_at)}."

        await answer(interaction, work)

    @app_commands.command(name="schedule", description="Change when updates resolve")
    @app_commands.describe(schedule="manual, every 30 minutes, every 2 hours, daily 18:00 (UTC), daily 18:00 Europe/Paris")
    @moderator_only
    async def schedule(self, interaction: discord.Interaction, schedule: app_commands.Range[str, 1, 60]) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            game = await self.service.configure(game.id, actor=_moderator(interaction), schedule=schedule)
            return (f"{game.name} now resolves {self.service.schedule(game).describe()}. "
                    f"Deadline: {_when(game.deadline_at)}.")

        await answer(interaction, work)

    @app_commands.command(name="settings", description="Change the game's settings or name")
    @app_commands.describe(name="the game's name", length="updates in the session",
                           secret_notice="what the channel is told of a secret order ({player}: the name)",
                           lock_before="minutes before the deadline that orders lock",
                           remind_before="minutes before the lock that the channel is reminded (0: never)",
                           palette="the board's colours",
                           events_from="the update of the first event (only before update 1 is resolved)",
                           early_resolution="resolve an update as soon as every player who may order has ordered")
    @app_commands.choices(palette=[app_commands.Choice(name="default", value="default"),
                                   app_commands.Choice(name="colour-blind", value="colourblind")])
    @moderator_only
    async def settings(self, interaction: discord.Interaction,
                       name: Optional[app_commands.Range[str, 1, 100]] = None,
                       length: Optional[app_commands.Range[int, 1, 100_000]] = None,
                       secret_notice: Optional[app_commands.Range[str, 0, 200]] = None,
                       lock_before: Optional[app_commands.Range[int, 0, 10_080]] = None,
                       remind_before: Optional[app_commands.Range[int, 0, 10_080]] = None,
                       palette: Optional[str] = None,
                       events_from: Optional[app_commands.Range[int, 1, 100_000]] = None,
                       early_resolution: Optional[bool] = None) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            changes = {key: value for key, value in (("length", length), ("secret_notice", secret_notice),
                                                     ("lock_before", lock_before), ("remind_before", remind_before),
                                                     ("palette", palette), ("events_from", events_from),
                                                     ("early_resolution", early_resolution))
                       if value is not None}
            if not changes and name is None:
                current = self.service.settings(game)
                first = self.service.variant(game).first_event
                return (f"**{game.name}** (game {game.id}, {game.ruleset}): length {current.length or 'none'}, "
                        f"lock_before {current.lock_before} min, remind_before {current.remind_before} min, "
                        f"palette {current.palette}, events_from {first if first is not None else 'none (no events)'}, "
                        f"early_resolution {'on' if self.service.resolves_early(game) else 'off'}, "
                        f"secret_notice {current.secret_notice!r}, schedule "
                        f"{self.service.schedule(game).describe()}. Give an option to change it.")
            game = await self.service.configure(game.id, actor=_moderator(interaction), settings=changes or None,
                                                name=name)
            changed = ", ".join([*(f"{k} = {v!r}" for k, v in changes.items()), *([f"name = {name!r}"] if name else [])])
            return f"{game.name}: changed {changed}."

        await answer(interaction, work)

    @app_commands.command(name="end", description="End this channel's game (pending orders are cancelled)")
    @app_commands.describe(reason="why (shown in the channel)")
    @moderator_only
    async def end(self, interaction: discord.Interaction,
                  reason: Optional[app_commands.Range[str, 1, 300]] = None) -> None:
        found: dict = {}

        async def prepare() -> str:
            game = await game_for(interaction)
            found["game"] = game
            return (f"End **{game.name}** (game {game.id}) now? Pending orders are cancelled and the session's "
                    f"timelapse is posted. This cannot be undone.")

        async def act() -> str:
            game = await self.service.end_game(found["game"].id, actor=_moderator(interaction), reason=reason or "")
            return f"{game.name} has ended; the channel is told."

        await confirm(interaction, prepare, act)

    @app_commands.command(name="export", description="Post this game's record: every update, order, seed "
                                                      "and report, for anyone to re-check")
    @moderator_only
    async def export(self, interaction: discord.Interaction) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            filename, data = await self.service.export_record(game.id, actor=_moderator(interaction))
            return (f"The record of {game.name} ({len(data):,} bytes) is posted in the channel as {filename}; "
                    f"`python -m bot replay {filename}` re-checks every update.")

        await answer(interaction, work)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameSetupCog(bot))
