"""The Discord front end: one cog module per command group (ARCHITECTURE.md).

Cogs only translate Discord to service calls and service results to Discord messages. What they
share lives here:

- :func:`game_for`: which game an interaction is about (the live game of the channel or thread; in
  a direct message, the one game the player plays, or the one named by the ``game`` option);
- :func:`answer`: run a command's work and answer privately, within Discord's 3 seconds (the
  interaction is deferred first), turning a :class:`~bot.service.ServiceError` into words a player
  can act on and anything unexpected into an apology and a log line at ERROR;
- :func:`error_text`: a refused order as the engine's explanation in a code block
  (:func:`code_block`: one the player's text cannot close), and where to read the rule it cites
  (:func:`rulebook_of`: the service's rulebook, issue 27);
- :class:`CommandTree`: the bot's command tree, whose one check refuses an option value that is not
  among the option's registered choices (:func:`unregistered_choice`), for every command that has
  choices: discord.py sends a ``Literal`` or ``@choices`` option's value as the client sent it, and a
  client or a proxy may send any.

Secrecy: nothing here logs what a player typed. An unexpected failure is logged with its type and
traceback (file, line, code), never its message or arguments, because an order's text may be in
them.
"""

from __future__ import annotations

import io
import logging
import traceback
from dataclasses import dataclass, field
from typing import Awaitable, Callable

import discord
from discord import app_commands

from bot.discord_publisher import discord_times
from bot.service import (Game, InvalidInput, NotFound, OrderRefused, ServiceError, order_from_file,
                         require_order_file_size)
from bot.service.rulebook import Rulebook

__all__ = ["Reply", "answer", "send_reply", "as_message", "error_text", "code_block", "game_for", "channel_game",
           "service_of", "rulebook_of", "log_failure", "matching", "read_order_file", "unregistered_choice",
           "CommandTree", "APOLOGY", "MESSAGE_LIMIT", "NO_MENTIONS"]

log = logging.getLogger("cogs")

MESSAGE_LIMIT = 2000
NO_MENTIONS = discord.AllowedMentions.none()
APOLOGY = ("Sorry, something went wrong on the bot's side and nothing was changed. "
           "Please try again in a moment; if it keeps happening, tell a moderator.")


@dataclass(frozen=True, slots=True)
class Reply:
    """What a command answers: text and files (``(filename, bytes)``)."""

    text: str
    files: tuple[tuple[str, bytes], ...] = field(default=())


def service_of(interaction_or_client):
    """The bot's :class:`~bot.service.Service`."""
    client = getattr(interaction_or_client, "client", interaction_or_client)
    return client.service


def rulebook_of(interaction_or_client) -> Rulebook:
    """The rulebook the bot's messages point to (``[docs] rulebook_url``; its paths without one)."""
    return getattr(service_of(interaction_or_client), "rulebook", None) or Rulebook()


def error_text(error: ServiceError, rulebook: Rulebook | None = None) -> str:
    """How a refusal reads: a refused order as the engine's explanation (the offending part
    pointed at) in a code block; any other refusal as its message and hint. When it cites a rule
    (D12, RULES 3.4), a last line says where the rulebook explains it (what the player typed is
    not searched: a rule is never read into an order)."""
    text = f"Order refused:\n{code_block(error.describe())}" if isinstance(error, OrderRefused) else error.describe()
    footer = (rulebook or Rulebook()).footer(error.message, error.hint, error.rule)
    return f"{text}\n{footer}" if footer else text


def code_block(text: str) -> str:
    """``text`` in a Discord code block that the text cannot close: a zero-width space goes between
    backquotes, so a typed ```` ``` ```` shows as typed and the block (and the caret under the
    order) stays whole."""
    while "``" in text:
        text = text.replace("``", "`\u200b`")
    return f"```\n{text}\n```"


def log_failure(what: str, exc: BaseException) -> None:
    """Log an unexpected failure at ERROR with its type and where it happened, without its message
    (which may quote a secret order)."""
    frames = "".join(traceback.format_tb(exc.__traceback__))
    log.error("%s failed with %s (message withheld: it may quote an order)\n%s", what, type(exc).__name__,
              frames.rstrip())


def as_message(reply: Reply) -> tuple[str, list[discord.File]]:
    """The message text and files of a reply; times (``2026-11-22 18:00 UTC``) become Discord
    timestamps each reader sees in their own zone; text beyond Discord's limit becomes a file."""
    text = discord_times(reply.text)
    files = list(reply.files)
    if len(text) > MESSAGE_LIMIT:
        files.append(("answer.md", text.encode("utf-8")))
        first = text.split("\n", 1)[0][:MESSAGE_LIMIT - 60]
        text = first + "\n*(the full answer is attached: answer.md)*"
    return text, [discord.File(io.BytesIO(data), filename=name) for name, data in files]


async def send_reply(interaction: discord.Interaction, reply: Reply, *, ephemeral: bool = True) -> None:
    """Answer ``interaction`` with ``reply``: the deferred answer becomes it, or it is the answer."""
    text, files = as_message(reply)
    if interaction.response.is_done():
        await interaction.edit_original_response(content=text, attachments=files, allowed_mentions=NO_MENTIONS)
    else:
        await interaction.response.send_message(text, files=files, ephemeral=ephemeral, allowed_mentions=NO_MENTIONS)


async def outcome(work: Callable[[], Awaitable[Reply | str]], what: str, rulebook: Rulebook | None = None) -> Reply:
    """Run a command's ``work`` and turn what it gives (a reply, a service refusal, or a failure:
    logged as ``what`` without its message, answered with an apology) into the reply to send."""
    try:
        result = await work()
    except ServiceError as exc:
        return Reply(error_text(exc, rulebook))
    except Exception as exc:
        log_failure(what, exc)
        return Reply(APOLOGY)
    return result if isinstance(result, Reply) else Reply(result)


async def answer(interaction: discord.Interaction, work: Callable[[], Awaitable[Reply | str]], *,
                 ephemeral: bool = True) -> None:
    """Defer ``interaction`` (so Discord's 3 seconds never run out, whatever ``work`` does), run
    ``work`` and answer with what it returns, or with the refusal, or with an apology."""
    command = f"/{interaction.command.qualified_name}" if interaction.command else "an interaction"
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    except discord.HTTPException as exc:   # the interaction expired or was answered: nobody to tell
        log.warning("%s: could not defer the interaction (%s %s)", command, exc.status, exc.code)
        return
    reply = await outcome(work, f"{command} by user {interaction.user.id}", rulebook_of(interaction))
    try:
        await send_reply(interaction, reply, ephemeral=ephemeral)
    except discord.HTTPException as exc:
        log.warning("%s: could not answer the interaction (%s %s)", command, exc.status, exc.code)


def matching(names: list[str], typed: str) -> list[str]:
    """``names`` that contain ``typed`` (case-insensitive), those starting with it first (autocomplete)."""
    key = typed.strip().casefold()
    starts = [n for n in names if n.casefold().startswith(key)]
    contains = [n for n in names if key in n.casefold() and n not in starts]
    return starts + contains


async def read_order_file(attachment: discord.Attachment) -> str:
    """The order in an attached text file: its size checked before it is downloaded, then read as
    UTF-8 text (the service refuses anything else in words)."""
    require_order_file_size(attachment.size, attachment.filename)
    try:
        data = await attachment.read()
    except (discord.HTTPException, discord.NotFound) as exc:
        raise InvalidInput(f"the file {attachment.filename[:60]!r} could not be downloaded from Discord "
                           f"({getattr(exc, 'status', '?')})", hint="send it again in a moment") from None
    return order_from_file(data, attachment.filename)


# ----------------------------------------------------------------------------- choices
def unregistered_choice(interaction: discord.Interaction) -> str | None:
    """Why a slash command's options cannot be taken, or None: an option that has choices (a
    ``Literal`` or ``@app_commands.choices``) holds a value that is none of them. Discord's clients
    offer only the choices, but discord.py does not check what arrives, so ``/mod event action:pause``
    from a client or a proxy would otherwise be read as whichever branch comes last."""
    if interaction.type is not discord.InteractionType.application_command:
        return None                     # autocomplete: the options are still being typed
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None
    namespace = interaction.namespace
    for parameter in command.parameters:
        if not parameter.choices:
            continue
        value = getattr(namespace, parameter.display_name, None)
        if value is None:               # an optional option left out
            continue
        allowed = [choice.value for choice in parameter.choices]
        if value not in allowed:
            listed = ", ".join(str(choice) for choice in allowed)
            return (f"{str(value)[:40]!r} is not a choice of the option `{parameter.display_name}` of "
                    f"/{command.qualified_name}: choose one of {listed}. Nothing was changed.")
    return None


class CommandTree(app_commands.CommandTree):
    """The bot's command tree (``tree_cls`` of :class:`bot.client.SkirmishBot`): before any slash
    command runs, :func:`unregistered_choice` is asked, and a value outside an option's choices is
    answered privately and goes no further, whatever the command (nothing is called, nothing logged
    at ERROR: it is an expected answer)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        problem = unregistered_choice(interaction)
        if problem is None:
            return True
        command = interaction.command.qualified_name if interaction.command else "?"
        log.info("refused /%s to user %s: an option's value is not one of its choices", command, interaction.user.id)
        try:
            await interaction.response.send_message(problem, ephemeral=True, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:   # expired or answered: nobody to tell, nothing was done
            log.warning("/%s: could not answer the interaction (%s %s)", command, exc.status, exc.code)
        return False


# ----------------------------------------------------------------------------- which game
async def channel_game(service, channel: discord.abc.Messageable | None, channel_id: int | None) -> Game | None:
    """The live game of a channel or thread; for a thread without one, its parent channel's."""
    if channel_id is None:
        return None
    games = await service.games_in(channel_id=channel_id)
    if not games:
        parent_id = getattr(channel, "parent_id", None)
        if parent_id is not None:
            games = await service.games_in(channel_id=parent_id)
    return games[0] if games else None


async def game_for(interaction: discord.Interaction, game_id: int | None = None) -> Game:
    """The game ``interaction`` is about. In a server: the live game of its channel (or of the
    thread's parent channel); the ``game`` option, if given, must name that game. In a direct
    message: the game named by ``game_id`` among the player's games, or their only game."""
    service = service_of(interaction)
    if interaction.guild_id is not None:
        game = await channel_game(service, interaction.channel, interaction.channel_id)
        if game is None:
            raise NotFound("no game runs in this channel",
                           hint="use the command in a game's channel or thread, or in a direct message to the bot")
        if game_id is not None and game_id != game.id:
            raise InvalidInput(f"this channel runs game {game.id} ({game.name}), not game {game_id}",
                               hint="use the command in that game's channel, or in a direct message to the bot")
        return game
    games = await service.games_of(interaction.user.id)
    if game_id is not None:
        for game in games:
            if game.id == game_id:
                return game
        raise NotFound(f"you do not play game {game_id}", hint="the game option lists the games you play")
    if not games:
        raise NotFound("you do not play any game yet",
                       hint="join one with /join in its channel; then you can use the commands here too")
    if len(games) > 1:
        listed = ", ".join(f"{game.name} (game {game.id})" for game in games)
        raise InvalidInput(f"you play several games: {listed}", hint="choose one with the game option")
    return games[0]
