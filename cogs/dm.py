"""Direct messages: a plain message to the bot is a secret order (RULES 4).

The text is the order, exactly as ``/move`` takes it (several lines: one order a line, or separated
by ``;``), or a text file attached alone (``/move``'s ``file``), for the one game the player plays; ``cancel``
withdraws the pending order and ``help`` lists the commands. A player in several games is asked to
use ``/move`` with its ``game`` option instead. The answer (the canonical order, or the refusal with
its explanation) comes back in the same direct message; the game channel is told only that a
secret order was sent (the service's ``secret_notice``). A ruleset without secret orders refuses
with its reason. Nothing a player sends here is logged.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.service import ServiceError

from . import (APOLOGY, NO_MENTIONS, Reply, as_message, error_text, log_failure, read_order_file, rulebook_of,
               service_of)

__all__ = ["DirectMessages", "setup"]

log = logging.getLogger(__name__)

_HELP_WORDS = {"help", "?", "/help"}
_CANCEL_WORDS = {"cancel", "/cancel"}

DM_HELP = ("Send me your order as a message, e.g. `N(35,2)-(37,3)` or `K(0,0)`: it is a **secret** order for "
           "your game (the channel only learns that you ordered). Several moves: one a line, or separated by `;`; "
           "an order longer than a message: attach it as a text file (UTF-8), alone. `cancel` withdraws it. If you "
           "play several games, use `/move` with its game option. `/help` lists every command.")


class DirectMessages(commands.Cog, name="Direct messages"):
    """Plain direct messages to the bot as secret orders."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is not None or message.author.bot or not isinstance(message.channel, discord.DMChannel):
            return
        try:
            reply = await self._handle(message)
        except ServiceError as exc:
            reply = error_text(exc, rulebook_of(self.bot))
        except Exception as exc:
            log_failure(f"a direct message from user {message.author.id}", exc)
            reply = APOLOGY
        text, files = as_message(Reply(reply))
        try:
            await message.channel.send(text, files=files, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.warning("could not answer user %s's direct message (%s %s)", message.author.id, exc.status, exc.code)

    async def _handle(self, message: discord.Message) -> str:
        text = message.content.strip()
        if message.attachments:
            if text or len(message.attachments) > 1:
                return ("Send your order either as text or as one attached text file, alone: a message with "
                        f"{'text and a file' if text else 'several files'} is not read. Nothing was changed.")
        elif not text:
            return "Send your order as text, e.g. `N(35,2)-(37,3)`."
        if text.casefold() in _HELP_WORDS:
            return DM_HELP
        service = service_of(self.bot)
        games = await service.games_of(message.author.id)
        if not games:
            return ("You do not play any game yet. Join one with /join in its channel, then send your order here "
                    "(or with /move).")
        if len(games) > 1:
            listed = ", ".join(f"{game.name} (game {game.id})" for game in games)
            return (f"You play several games ({listed}), so I cannot tell which this order is for. "
                    "Send it with /move and choose the game option.")
        game = games[0]
        if text.casefold() in _CANCEL_WORDS:
            order = await service.cancel_order(game.id, user_id=message.author.id)
            return (f"Your order `{order.canonical}` for update {order.update_no} of {game.name} is withdrawn: "
                    "you have no order for this update now.")
        if message.attachments:
            text = await read_order_file(message.attachments[0])
        receipt = await service.submit_order(game.id, user_id=message.author.id, text=text, source="dm")
        return receipt.text()


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DirectMessages(bot))
