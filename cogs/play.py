"""Player commands: join a game, send and withdraw orders, and look at the game.

Every answer goes only to the player who asked (an ephemeral message, or the direct message the
command was used in): the game channel carries only the game's own posts (boards, reports,
announcements and the notice that someone sent a secret order). Each command is deferred before the
service is called, so rendering or a busy database never runs past Discord's 3 seconds.

Commands used in a server act on the live game of the channel or thread (or of the thread's parent
channel); in a direct message, on the player's game (the ``game`` option chooses among several).
"""

from __future__ import annotations

from datetime import datetime
from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_publisher import discord_times, my_board_id
from bot.service import InvalidInput, NotAllowed, ServiceError, colour_choices
from bot.service.orders import split_lines
from bot.service.views import MAX_RADIUS

from . import (APOLOGY, Reply, answer, channel_game, error_text, game_for, log_failure, matching, read_order_file,
               rulebook_of, send_reply, service_of)

__all__ = ["PlayCog", "OrderForm", "standings_text", "events_text", "games_text", "history_text", "colour_suggestions", "HELP_TEXT",
           "MODERATOR_HELP_HINT", "setup"]

#: the longest order the /move option takes (P2's 2,000 characters); longer ones come by the form
#: (Discord's text inputs hold 4,000) or as a file (P72: up to 64,000 for a whole army's moves)
ORDER_OPTION_LENGTH = 2000
FORM_LENGTH = 4000
_CHOICES = 25                   # Discord shows at most 25 autocomplete choices


def _source(interaction: discord.Interaction) -> str:
    """Where an order comes from: a direct message (a secret order) or the game's channel."""
    return "dm" if interaction.guild_id is None else "channel"


class OrderForm(discord.ui.Modal):
    """``/move`` alone: a form with one order a line (Discord's paragraph input, up to 4,000
    characters), starting from the player's pending order. Sending it is ``/move`` with that text."""

    def __init__(self, service, draft, source: str) -> None:
        super().__init__(title=f"Your order for update {draft.update_no}"[:45], timeout=30 * 60)
        self.service, self.draft, self.source = service, draft, source
        pending = "\n".join(draft.lines)
        self.orders = discord.ui.TextInput(
            label="One order a line", custom_id="orders", style=discord.TextStyle.paragraph,
            placeholder="N(35,2)-(37,3)\nQ(0,0)-(0,4)\n+Q(3,3)", required=True, max_length=FORM_LENGTH,
            default=pending if 0 < len(pending) <= FORM_LENGTH else None)
        self.add_item(self.orders)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        async def work() -> str:
            receipt = await self.service.submit_order(self.draft.game.id, user_id=interaction.user.id,
                                                      text=self.orders.value, source=self.source)
            return receipt.text()

        await answer(interaction, work)

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        log_failure(f"/move's form for user {interaction.user.id}", error)
        if not interaction.response.is_done():
            await send_reply(interaction, Reply(APOLOGY))


def _when(moment: datetime | None) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC" if moment else ""


# ----------------------------------------------------------------------------- texts
HELP_TEXT = """\
**Skirmish**: simultaneous-move chess by post. Everyone orders, then every order resolves at once.
`/join` join this channel's game with a name and a colour; then place your king: `/move K(x,y)`
`/move` send your order, e.g. `N(35,2)-(37,3)`; a later order replaces it until the lock. Several moves: \
separate them with `;`, or use `/move` alone for a form with a line each, or attach a text file (`file`)
`/orders` your pending order, your balance, what happened to you last update and your last orders
`/cancel` withdraw your pending order; `/leave` leave the game (your order becomes `resign`)
`/games` this server's games; `/notify` be pinged for this game, or reminded by direct message
`/board` the board around your army; around a square (`center`, `radius`), with a piece's legal moves (`piece`), \
or zoomed on a team, a kingdom, a player's pieces, a viewport the picture names such as `B2`, or `all` (`zoom`)
`/health` the standings: health, energy or points, as the game counts them
`/pieces` the piece sheet: every piece, its moves and its cost
`/rules` the rules of this game in short
`/history` the board and the report of an earlier update
`/event` the events in force and when the next one comes
`/profile` your ratings, careers and recent games (`player`: someone else's; `hide:True` keeps you off leaderboards)
`/leaderboard` this server's top 20 in a game family, and your rank
A direct message to the bot is a **secret** order for your game: the channel only learns that you \
ordered. Every answer of the bot to you is private."""


#: what /help adds for a moderator (the whole list is /mod help)
MODERATOR_HELP_HINT = """\
**You moderate this server.** `/game create|start|pause|resume|schedule|settings|end` run this channel's game; \
`/mod ...` locks, resolves, edits the position, undoes an edit, kicks or substitutes a player, reads the audit log \
and more: `/mod help` explains each."""


def events_text(status) -> str:
    """``status``: the service's ``EventStatus``."""
    game = status.game
    if not status.has_events:
        return f"**{game.name}** has no events: its ruleset draws none."
    lines = [f"**{game.name}**, update {status.update_no}:"]
    if status.active:
        lines.append("Events in force:")
        for event in status.active:
            lines.append(f"- **{event.name}** (since update {event.started + 1}, until update {event.last_update}): "
                         f"{event.effect}")
    else:
        lines.append("No event is in force.")
    for square in status.marked:
        lines.append(f"King of the Hill square: ({square[0]},{square[1]})")
    if status.next_draw is not None and status.pool_left:
        lines.append(f"The next event is drawn at update {status.next_draw} and is in force from update "
                     f"{status.next_draw + 1} ({status.pool_left} events not drawn yet this session).")
    else:
        lines.append("No more events will be drawn this session.")
    return "\n".join(lines)


def games_text(summaries) -> str:
    """``/games``: the server's games (the service's ``GameSummary`` values), one line each."""
    if not summaries:
        return "No game on this server yet. A moderator creates one with /game create in a channel or thread."
    lines = ["Games on this server:"]
    for summary in summaries:
        game = summary.game
        players = f"{summary.players} player{'s' if summary.players != 1 else ''}"
        if game.status == "setup":
            state = f"being set up, {players}"
        elif game.status == "ended":
            state = f"ended after update {max(game.update_no - 1, 0)}"
        else:
            state = f"{game.status}, update {game.update_no}, {players}"
            if game.status == "running" and game.deadline_at:
                state += f", orders close at {_when(game.lock_at or game.deadline_at)}"
        lines.append(f"- **{game.name}** (game {game.id}, {summary.title}) in <#{game.channel_id}>: {state}")
    return "\n".join(lines)


def history_text(orders) -> str:
    """A player's own latest orders (the service's ``OrderRow`` values, newest first)."""
    if not orders:
        return ""
    lines = ["Your last orders:"]
    for order in orders:
        status = {"pending": "pending", "locked": "locked for the update", "resolved": "played",
                  "superseded": "replaced", "cancelled": "withdrawn"}.get(order.status, order.status)
        if order.status == "refused":
            status = f"refused at the update: {order.refusal}" if order.refusal else "refused"
        secret = " (secret)" if order.secret else ""
        lines.append(f"- update {order.update_no}: `{order.canonical or order.text[:60]}`{secret}, {status}")
    return "\n".join(lines)


def standings_text(standings) -> str:
    """``/health``: the service's ``Standings`` as text, the caller's own row in bold with "(you)";
    a player not ranked yet is told why."""
    if not standings.lines:
        return "No player has pieces on the board yet."
    lines = [f"**{line}** (you)" if standings.own is not None and line == standings.own else line
             for line in standings.lines]
    if standings.caller is not None and standings.own is None:
        lines.append(f"You ({standings.caller}) are not in the standings: you have no pieces on the board.")
    return "\n".join(lines)


def _view_text(view) -> str:
    """``view``: the service's ``PlayerView``."""
    game = view.game
    lines = [f"**{game.name}** (game {game.id}), update {game.update_no}: you play as {view.name} ({view.colour}), "
             f"{view.currency} {view.balance}, {view.pieces} pieces" + ("" if view.has_king else ", no king on the board")
             + "."]
    if view.team:
        lines.append(f"Your team: {view.team}.")
    if view.pending:
        places = ", ".join(f"{name.lower()} `+{letter}(x,y)`" for letter, name in view.pending)
        lines.append(f"To place this round: {places}, on an empty square, each as a line of your order.")
    if view.order is None:
        lines.append(f"You have no order for update {game.update_no}.")
    else:
        order_lines = split_lines(view.order)
        secret = " (secret)" if view.order_secret else ""
        if len(order_lines) == 1:
            lines.append(f"Your order for update {game.update_no}: `{view.order}`{secret}")
        else:
            lines.append(f"Your order for update {game.update_no}{secret}, {len(order_lines)} lines:")
            lines.extend(f"`{line}`" for line in order_lines)
    if game.deadline_at:
        lines.append(f"Orders close at {_when(game.lock_at or game.deadline_at)}.")
    if view.last_report:
        lines.append(f"Last update:\n{view.last_report}")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- autocomplete
def colour_suggestions(typed: str, taken: set[str], offer: list[str] | None = None) -> list[str]:
    """Colours to offer for what is typed: single colours, or ``A/B`` once ``A/`` is typed, minus the
    colours taken in the game (compared without regard to case). ``offer`` is the free colours in
    the order to offer them (the service's ``free_colours``: the most distinct from the game's
    colours first, issue 27); by default the service's :func:`~bot.service.colour_choices` of ``taken``."""
    distinct, every = colour_choices(taken)
    offer = distinct if offer is None else offer
    names = offer + [n for n in every if n not in offer]    # taken ones stay possible as a tone of A/B
    taken = {t.casefold() for t in taken}
    if "/" in typed:
        first, second = typed.split("/", 1)
        by_key = {n.casefold(): n for n in names}
        base = by_key.get(first.strip().casefold())
        if base is None:
            return []
        candidates = [f"{base}/{n}" for n in matching([n for n in names if n != base], second)]
    else:
        candidates = matching(names, typed)
    return [c for c in candidates if c.casefold() not in taken][:_CHOICES]


def viewer_url_of(interaction_or_client) -> str | None:
    """The web viewer's public address (``[web] public_url``), or None."""
    client = getattr(interaction_or_client, "client", interaction_or_client)
    config = getattr(client, "config", None)
    return config.web.public_url if config is not None else None


async def own_board_text(interaction: discord.Interaction, game_id: int) -> str | None:
    """The line giving the caller their private link to the game's web page (None: no viewer, or
    they do not play the game)."""
    viewer = viewer_url_of(interaction)
    if viewer is None:
        return None
    try:
        link = await service_of(interaction).player_link(game_id, user_id=interaction.user.id, base_url=viewer)
    except NotAllowed:
        return None
    return (f"Your own board, where you order by clicking: <{link.url}>\nA private link for you alone (do not "
            f"share it), good until {discord_times(link.expires_at.strftime('%Y-%m-%d %H:%M UTC'))}.")


class MyBoardButton(discord.ui.DynamicItem[discord.ui.Button], template=r"skirmish:myboard:(?P<game>[0-9]{1,19})"):
    """The "My board" button under each board post (bot/discord_publisher.py): answers the member
    who clicks with their private link, privately; anyone else is told they do not play the game."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="My board", style=discord.ButtonStyle.secondary,
                                           custom_id=my_board_id(game_id)))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item, match) -> "MyBoardButton":
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> str:
            game = await service_of(interaction).get_game(self.game_id)
            text = await own_board_text(interaction, game.id)
            if text is None:
                await service_of(interaction).player_link(game.id, user_id=interaction.user.id)   # says why not
                raise NotAllowed("the web viewer has no public address here ([web] public_url)")
            return text

        await answer(interaction, work)


class PlayCog(commands.Cog, name="Play"):
    """The player commands."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def service(self):
        return service_of(self.bot)

    # ------------------------------------------------------------------ autocomplete callbacks
    async def game_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[int]]:
        try:
            games = list(await self.service.games_of(interaction.user.id))
            if interaction.guild_id is not None:
                here = await channel_game(self.service, interaction.channel, interaction.channel_id)
                if here is not None and all(g.id != here.id for g in games):
                    games.insert(0, here)
            typed = current.strip().casefold()
            shown = [g for g in games if not typed or typed in g.name.casefold() or typed in str(g.id)]
            return [app_commands.Choice(name=f"{g.name} (game {g.id})"[:100], value=g.id) for g in shown[:_CHOICES]]
        except Exception as exc:            # an autocomplete must never fail loudly: offer nothing
            log_failure("game autocomplete", exc)
            return []

    async def order_autocomplete(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        """The orders the player may send now that complete what they typed (the service's
        ``order_suggestions``: legal moves, their pieces nearest the square typed first, captures
        marked). Nothing to suggest, or any failure, offers nothing: the typed text still goes."""
        try:
            chosen = getattr(interaction.namespace, "game", None)
            game = await game_for(interaction, chosen if isinstance(chosen, int) else None)
            suggestions = await self.service.order_suggestions(game.id, user_id=interaction.user.id, typed=current)
            return [app_commands.Choice(name=s.label, value=s.value) for s in suggestions[:_CHOICES]]
        except ServiceError:                # not a game here, not a player: nothing to offer
            return []
        except Exception as exc:
            log_failure("order autocomplete", exc)
            return []

    async def colour_autocomplete(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        try:
            taken: set[str] = set()
            offer = None
            game = await channel_game(self.service, interaction.channel, interaction.channel_id)
            if game is not None:
                taken = {p.colour for p in await self.service.players(game.id, include_kicked=True)}
                offer = await self.service.free_colours(game.id)
            return [app_commands.Choice(name=c, value=c) for c in colour_suggestions(current, taken, offer)]
        except Exception as exc:
            log_failure("colour autocomplete", exc)
            return []

    # ------------------------------------------------------------------ joining and orders
    @app_commands.command(name="join", description="Join this channel's game with a name and a colour")
    @app_commands.describe(colour="your colour (unique in the game); A/B for two tones, e.g. Crimson/Yellow",
                           name="the name reports use for you (default: your display name)")
    @app_commands.autocomplete(colour=colour_autocomplete)
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction, colour: app_commands.Range[str, 1, 65],
                   name: Optional[app_commands.Range[str, 1, 32]] = None) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            chosen = name if name is not None else interaction.user.display_name
            joined = await self.service.join(game.id, user_id=interaction.user.id, name=chosen, colour=colour)
            return (f"You joined **{joined.game.name}** as {joined.player.name} ({joined.player.colour}). "
                    f"Next: {joined.next_step}.")

        await answer(interaction, work)

    @app_commands.command(name="move", description="Send your order: text, a form with a line each (no option), or a file")
    @app_commands.describe(order="e.g. N(35,2)-(37,3); several moves: N(1,1)-(2,3); Q(0,0)-(0,4). Leave out for a form",
                           file="a text file (UTF-8), one order a line: for orders longer than a message",
                           game="the game (needed in a direct message when you play several)")
    @app_commands.autocomplete(game=game_autocomplete, order=order_autocomplete)
    async def move(self, interaction: discord.Interaction,
                   order: Optional[app_commands.Range[str, 1, ORDER_OPTION_LENGTH]] = None,
                   file: Optional[discord.Attachment] = None, game: Optional[int] = None) -> None:
        if order is None and file is None:
            await self._open_order_form(interaction, game)
            return

        async def work() -> str:
            if order is not None and file is not None:
                raise InvalidInput("send your order as text or as a file, not both",
                                   hint="/move with the file alone reads every line of the file")
            found = await game_for(interaction, game)
            text = order if file is None else await read_order_file(file)
            receipt = await self.service.submit_order(found.id, user_id=interaction.user.id, text=text,
                                                      source=_source(interaction))
            return receipt.text()

        await answer(interaction, work)

    async def _open_order_form(self, interaction: discord.Interaction, game: int | None) -> None:
        """``/move`` alone: a form with a line for each order, holding the pending order to edit.
        A modal must be the interaction's first answer, so nothing slow runs before it; a refusal
        (not a player, orders locked) is answered instead of a form the player could not send."""
        try:
            found = await game_for(interaction, game)
            draft = await self.service.order_draft(found.id, user_id=interaction.user.id)
        except ServiceError as exc:
            await send_reply(interaction, Reply(error_text(exc, rulebook_of(interaction))))
            return
        except Exception as exc:
            log_failure(f"/move's form for user {interaction.user.id}", exc)
            await send_reply(interaction, Reply(APOLOGY))
            return
        await interaction.response.send_modal(OrderForm(self.service, draft, _source(interaction)))

    @app_commands.command(name="orders", description="Your order, balance, last update and order history (only you see it)")
    @app_commands.describe(game="the game (needed in a direct message when you play several)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def orders(self, interaction: discord.Interaction, game: Optional[int] = None) -> None:
        async def work() -> str:
            found = await game_for(interaction, game)
            view = await self.service.player_view(found.id, user_id=interaction.user.id)
            history = history_text(await self.service.order_history(found.id, user_id=interaction.user.id))
            return _view_text(view) + (f"\n{history}" if history else "")

        await answer(interaction, work)

    @app_commands.command(name="games", description="This server's games and where they stand")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        async def work() -> str:
            return games_text(await self.service.server_games(interaction.guild_id))

        await answer(interaction, work)

    @app_commands.command(name="leave", description="Leave this channel's game (asks you to confirm)")
    @app_commands.describe(game="the game (needed in a direct message when you play several)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def leave(self, interaction: discord.Interaction, game: Optional[int] = None) -> None:
        from .moderation import confirm

        found: dict = {}

        async def prepare() -> str:
            chosen = await game_for(interaction, game)
            found["game"] = chosen
            if chosen.status == "setup":
                return f"Leave **{chosen.name}** before its start? Your seat becomes free for someone else."
            return (f"Leave **{chosen.name}**? Your order for update {chosen.update_no} becomes `resign`: your pieces "
                    f"leave the board at the end of the update and you cannot join again this session.")

        async def act() -> str:
            departure = await self.service.leave(found["game"].id, user_id=interaction.user.id,
                                                 source=_source(interaction))
            return departure.text()

        await confirm(interaction, prepare, act)

    @app_commands.command(name="cancel", description="Withdraw your pending order")
    @app_commands.describe(game="the game (needed in a direct message when you play several)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def cancel(self, interaction: discord.Interaction, game: Optional[int] = None) -> None:
        async def work() -> str:
            found = await game_for(interaction, game)
            order = await self.service.cancel_order(found.id, user_id=interaction.user.id)
            return (f"Your order `{order.canonical}` for update {order.update_no} is withdrawn: you have no order "
                    "for this update now.")

        await answer(interaction, work)

    # ------------------------------------------------------------------ looking at the game
    async def zoom_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        """What /board can zoom on: the caller's kingdom, each team, each player's kingdom and pieces."""
        try:
            chosen = getattr(interaction.namespace, "game", None)
            game = await game_for(interaction, chosen if isinstance(chosen, int) else None)
            found = await self.service.zoom_choices(game.id, current, user_id=interaction.user.id, limit=_CHOICES)
            return [app_commands.Choice(name=label[:100], value=value[:100]) for label, value in found]
        except ServiceError:
            return []
        except Exception as exc:
            log_failure("zoom autocomplete", exc)
            return []

    @app_commands.command(name="board", description="The board: around your army, a square, a piece's moves, or zoomed")
    @app_commands.describe(center="the square in the middle, as (x,y), or a viewport the picture names, such as B2",
                           radius=f"squares shown on each side of the centre (1 to {MAX_RADIUS})",
                           piece="the square of a piece, as (x,y): its legal moves are framed",
                           zoom="a team, a player's kingdom or pieces, a viewport such as B2, or all (completes as you type)",
                           game="the game (needed in a direct message when you play several)")
    @app_commands.autocomplete(game=game_autocomplete, zoom=zoom_autocomplete)
    async def board(self, interaction: discord.Interaction, center: Optional[app_commands.Range[str, 1, 40]] = None,
                    radius: Optional[app_commands.Range[int, 1, MAX_RADIUS]] = None,
                    piece: Optional[app_commands.Range[str, 1, 40]] = None,
                    zoom: Optional[app_commands.Range[str, 1, 100]] = None, game: Optional[int] = None) -> None:
        async def work() -> Reply:
            if radius is not None and center is None and piece is None:
                raise InvalidInput("radius goes with center or piece",
                                   hint="give a centre square too, e.g. center:(0,0) radius:8")
            found = await game_for(interaction, game)
            picture = await self.service.board_picture(found.id, center=center, radius=radius, piece=piece,
                                                       user_id=interaction.user.id, focus=zoom)
            own = await own_board_text(interaction, found.id)
            return Reply(picture.caption + (f"\n{own}" if own else ""), ((picture.filename, picture.png),))

        await answer(interaction, work)

    @app_commands.command(name="health", description="The standings: every player's health, energy or points")
    @app_commands.describe(game="the game (needed in a direct message when you play several)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def health(self, interaction: discord.Interaction, game: Optional[int] = None) -> None:
        async def work() -> Reply:
            found = await game_for(interaction, game)
            standings = await self.service.standings(found.id, user_id=interaction.user.id)
            return Reply(standings_text(standings), ((standings.picture.filename, standings.picture.png),))

        await answer(interaction, work)

    @app_commands.command(name="pieces", description="The piece sheet: every piece, its moves and its cost")
    @app_commands.describe(game="the game (needed in a direct message when you play several)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def pieces(self, interaction: discord.Interaction, game: Optional[int] = None) -> None:
        async def work() -> Reply:
            found = await game_for(interaction, game)
            picture = await self.service.piece_sheet(found.id)
            return Reply(picture.caption + ". Letters are what you write in orders: `N(35,2)-(37,3)`.",
                         ((picture.filename, picture.png),))

        await answer(interaction, work)

    @app_commands.command(name="rules", description="The rules of this game in short")
    @app_commands.describe(game="the game (needed in a direct message when you play several)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def rules(self, interaction: discord.Interaction, game: Optional[int] = None) -> None:
        async def work() -> str:
            found = await game_for(interaction, game)
            return self.service.rules_summary(found)

        await answer(interaction, work)

    @app_commands.command(name="history", description="The board and the report of an earlier update")
    @app_commands.describe(update="the update's number (0: the empty board at the start)",
                           game="the game (needed in a direct message when you play several)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def history(self, interaction: discord.Interaction, update: app_commands.Range[int, 0, 1_000_000],
                      game: Optional[int] = None) -> None:
        async def work() -> Reply:
            found = await game_for(interaction, game)
            picture, report = await self.service.history_picture(found.id, update)
            files = [(picture.filename, picture.png)]
            text = f"{picture.caption}.\n{report}"
            if len(text) > 2000:
                files.append((f"report-{update:04d}.md", report.encode("utf-8")))
                text = f"{picture.caption}. The report is attached."
            return Reply(text, tuple(files))

        await answer(interaction, work)

    @app_commands.command(name="event", description="The events in force and when the next one is drawn")
    @app_commands.describe(game="the game (needed in a direct message when you play several)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def event(self, interaction: discord.Interaction, game: Optional[int] = None) -> None:
        async def work() -> str:
            found = await game_for(interaction, game)
            return events_text(await self.service.event_status(found.id))

        await answer(interaction, work)

    @app_commands.command(name="help", description="The commands of Skirmish")
    async def help_(self, interaction: discord.Interaction) -> None:
        from .moderation import _role_setting, is_moderator

        text = HELP_TEXT
        if is_moderator(interaction.user, _role_setting(interaction.client)):
            text += "\n\n" + MODERATOR_HELP_HINT
        await interaction.response.send_message(text, ephemeral=True,
                                                allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PlayCog(bot))
    bot.add_dynamic_items(MyBoardButton)

