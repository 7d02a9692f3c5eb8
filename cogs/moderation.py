"""Moderator commands: ``/mod ...`` (the order book, resolution, edits of the position, players,
events, announcements, who has ordered, posts that did not go out).

Who is a moderator: a member with Manage Server, or with the role configured as
``[moderation] role`` (``config.moderator_role``: a role's name, compared without regard to case,
or its id). Every command carries the :func:`moderator_only` check; anyone else gets a private
refusal and nothing is called. Discord shows the group only to members with Manage Server (its
default permission) unless the server allows a role in Server Settings > Integrations; the bot's
own check stays, whatever the server allows.

Destructive actions (resolve, rollback, kick, remove; ``/game end`` in :mod:`cogs.setup`) first ask
for confirmation with a :class:`ConfirmView`: only the moderator who asked may press its buttons;
Cancel, or no answer before the time-out, changes nothing.

The cog only translates: every action is a service use case called with ``actor`` (the
moderator's id), which writes the audit entry and puts any public announcement in the outbox. The
answers here are private, so the channel never reads an action twice. ``/mod status`` shows who has
and has not ordered, never what: secret orders stay secret from moderators too. ``/mod posts`` lists
the game's posts that failed (parked, waiting for access, retrying) with their reasons, never their
text; ``/mod redeliver`` tries parked and waiting posts again at once.
"""

from __future__ import annotations

import functools
import logging
from typing import Awaitable, Callable, Literal, Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import Moderator, NotFound, ServiceError

from . import (APOLOGY, NO_MENTIONS, Reply, answer, channel_game, error_text, game_for, log_failure, matching, outcome,
               rulebook_of, send_reply, service_of)

__all__ = ["ModerationCog", "ConfirmView", "is_moderator", "moderator_only", "confirm", "REFUSAL",
           "CONFIRM_SECONDS", "MOD_HELP_TEXT", "audit_text", "setup"]

log = logging.getLogger("cogs.moderation")

#: what anyone but a moderator is told
REFUSAL = ("Only moderators can use this command: members with Manage Server or the server's moderator "
           "role. Nothing was changed.")
#: how long a confirmation waits for its button
CONFIRM_SECONDS = 60.0
_CHOICES = 25


# ----------------------------------------------------------------------------- who moderates
def is_moderator(member: discord.abc.User, role_setting: str | int | None) -> bool:
    """Whether ``member`` moderates: Manage Server (administrators have it), or the configured role
    (``role_setting``: its id, or its name compared without regard to case). Outside a server
    (``member`` is a plain user) nobody does."""
    if not isinstance(member, discord.Member):
        return False
    if member.guild_permissions.manage_guild:
        return True
    if role_setting is None or role_setting == "":
        return False
    wanted = str(role_setting).strip()
    for role in member.roles:
        if str(role.id) == wanted or role.name.casefold() == wanted.casefold():
            return True
    return False


def _role_setting(client) -> str | int | None:
    config = getattr(client, "config", None)
    return getattr(config, "moderator_role", None)


def moderator_only(callback):
    """Decorator for a command's callback (under ``@app_commands.command``): a non-moderator is
    refused privately and the callback does not run. It answers instead of raising a check failure,
    because a refusal is an expected answer, not an error for the logs."""

    @functools.wraps(callback)
    async def checked(self, interaction: discord.Interaction, *args, **kwargs):
        if not is_moderator(interaction.user, _role_setting(interaction.client)):
            log.info("refused /%s to user %s: not a moderator",
                     interaction.command.qualified_name if interaction.command else "?", interaction.user.id)
            await interaction.response.send_message(REFUSAL, ephemeral=True, allowed_mentions=NO_MENTIONS)
            return None
        return await callback(self, interaction, *args, **kwargs)

    return checked


# ----------------------------------------------------------------------------- confirmation
class ConfirmView(discord.ui.View):
    """Confirm and Cancel buttons for one moderator's destructive action. ``action`` runs once, on
    Confirm by ``owner_id``; anyone else's press is refused privately; Cancel or the time-out does
    nothing (the question is then marked as such and the buttons removed)."""

    def __init__(self, owner_id: int, question: str, action: Callable[[], Awaitable[Reply | str]], *,
                 timeout: float = CONFIRM_SECONDS) -> None:
        super().__init__(timeout=timeout)
        self.owner_id = owner_id
        self.question = question
        self.action = action
        self.outcome: str | None = None          # "confirmed", "cancelled" or "timed out"
        self.origin: discord.Interaction | None = None   # the command whose answer carries the buttons

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id == self.owner_id:
            return True
        await interaction.response.send_message("Only the moderator who asked can answer this confirmation.",
                                                ephemeral=True, allowed_mentions=NO_MENTIONS)
        return False

    @discord.ui.button(label="Confirm", style=discord.ButtonStyle.danger)
    async def confirm_button(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        if self.outcome is not None:
            return
        self.outcome = "confirmed"
        self.stop()
        await interaction.response.edit_message(content=f"{self.question}\nConfirmed: working on it…", view=None,
                                                allowed_mentions=NO_MENTIONS)
        reply = await outcome(self.action, f"a confirmed action by user {interaction.user.id}", rulebook_of(interaction))
        try:
            await send_reply(interaction, reply)
        except discord.HTTPException as exc:
            log.warning("could not answer a confirmed action (%s %s)", exc.status, exc.code)

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel_button(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        if self.outcome is not None:
            return
        self.outcome = "cancelled"
        self.stop()
        await interaction.response.edit_message(content=f"{self.question}\nCancelled: nothing was changed.",
                                                view=None, allowed_mentions=NO_MENTIONS)

    async def on_timeout(self) -> None:
        if self.outcome is not None:
            return
        self.outcome = "timed out"
        if self.origin is not None:
            try:
                await self.origin.edit_original_response(
                    content=f"{self.question}\nNo answer in time: nothing was changed.", view=None,
                    allowed_mentions=NO_MENTIONS)
            except discord.HTTPException:       # the answer is gone or expired: nothing to tidy
                pass


async def confirm(interaction: discord.Interaction, prepare: Callable[[], Awaitable[str]],
                  action: Callable[[], Awaitable[Reply | str]], *, timeout: float = CONFIRM_SECONDS) -> ConfirmView | None:
    """Ask the invoking moderator privately to confirm. ``prepare`` (checks that the action makes
    sense now, e.g. that the game exists) returns the question; a refusal from it is the answer and
    no buttons are shown. ``action`` runs on Confirm. Returns the view (None if refused)."""
    try:
        await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException as exc:
        log.warning("could not defer a confirmation (%s %s)", exc.status, exc.code)
        return None
    try:
        question = await prepare()
    except ServiceError as exc:
        await send_reply(interaction, Reply(error_text(exc, rulebook_of(interaction))))
        return None
    except Exception as exc:
        log_failure(f"a confirmation for user {interaction.user.id}", exc)
        await send_reply(interaction, Reply(APOLOGY))
        return None
    view = ConfirmView(interaction.user.id, question, action, timeout=timeout)
    view.origin = interaction
    try:
        await interaction.edit_original_response(content=question, view=view, allowed_mentions=NO_MENTIONS)
    except discord.HTTPException as exc:     # nobody can press the buttons: forget the question
        view.stop()
        log.warning("could not ask for a confirmation (%s %s)", exc.status, exc.code)
        return None
    return view


MOD_HELP_TEXT = """\
**Moderator commands** (members with Manage Server, or the server's moderator role; answers are private).
`/game create|start|pause|resume|schedule|settings|end` the life of this channel's game; `/game export` posts its record
`/mod lock` / `/mod unlock` freeze or reopen the order book of the open update
`/mod resolve` ⚠ resolve the open update now; `/mod extend minutes` move the deadline later
`/mod rollback update [game]` ⚠ make the board after an earlier update current again (`game`: one that ended at \
its verdict, which then runs again and leaves the ratings)
`/mod place kind square [owner]`, `/mod remove square` ⚠, `/mod move origin target`, `/mod balance player amount` \
edit the position (each edit is a new revision, announced in the channel)
`/mod undo` ⚠ undo the last edit (again: the one before); never an update's resolution
`/mod kick member` ⚠ remove a player; `/mod substitute player member` ⚠ give a player's seat to another member
`/mod event start|stop name`, `/mod announce text`
`/mod status` who has ordered (never what); `/mod audit [page]` the audit log, newest first
`/mod revoke-links` ⚠ every player's private web link to this game stops working (a new /board gives a new one)
`/mod posts` posts that did not go out, and why; `/mod redeliver [post]` try them again
⚠: asks you to confirm first. Discord shows `/game` and `/mod` only to members with Manage Server unless the \
server allows its moderator role in Server Settings > Integrations > Skirmish."""


# ----------------------------------------------------------------------------- the cog
@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class ModerationCog(commands.GroupCog, name="Moderation", group_name="mod", group_description="Moderator commands for this channel's game"):
    """``/mod ...``: the moderator's tools for a running game."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self):
        return service_of(self.bot)

    # ------------------------------------------------------------------ autocomplete (issue 28)
    async def player_autocomplete(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        """The players of this channel's game, those whose name starts with what is typed first."""
        try:
            game = await channel_game(self.service, interaction.channel, interaction.channel_id)
            if game is None or not is_moderator(interaction.user, _role_setting(interaction.client)):
                return []
            names = sorted((p.name for p in await self.service.players(game.id)), key=str.casefold)
            return [app_commands.Choice(name=n, value=n) for n in matching(names, current)[:_CHOICES]]
        except Exception as exc:            # an autocomplete must never fail loudly: offer nothing
            log_failure("player autocomplete", exc)
            return []

    async def kind_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        """The pieces of this channel's game's ruleset: ``N: Knight``, by letter or name."""
        try:
            game = await channel_game(self.service, interaction.channel, interaction.channel_id)
            if game is None or not is_moderator(interaction.user, _role_setting(interaction.client)):
                return []
            kinds = dict((f"{letter}: {name}", letter) for letter, name in await self.service.piece_kinds(game.id))
            typed = current.strip()
            exact = [label for label, letter in kinds.items() if letter == typed]       # letters are case-sensitive
            shown = exact + [label for label in matching(list(kinds), typed) if label not in exact]
            return [app_commands.Choice(name=label[:100], value=kinds[label]) for label in shown[:_CHOICES]]
        except Exception as exc:
            log_failure("piece kind autocomplete", exc)
            return []

    # ------------------------------------------------------------------ the order book and the update
    @app_commands.command(name="lock", description="Lock the order book of the open update")
    @moderator_only
    async def lock(self, interaction: discord.Interaction) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            game = await self.service.lock_orders(game.id, actor=_moderator(interaction))
            return f"Orders for update {game.update_no} of {game.name} are locked."

        await answer(interaction, work)

    @app_commands.command(name="unlock", description="Open the order book again")
    @moderator_only
    async def unlock(self, interaction: discord.Interaction) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            game = await self.service.unlock_orders(game.id, actor=_moderator(interaction))
            return f"Orders for update {game.update_no} of {game.name} are open again."

        await answer(interaction, work)

    @app_commands.command(name="resolve", description="Resolve the open update now, whatever its deadline")
    @moderator_only
    async def resolve(self, interaction: discord.Interaction) -> None:
        found: dict = {}

        async def prepare() -> str:
            game = await game_for(interaction)
            found["game"] = game
            status = await self.service.order_status(game.id)
            return (f"Resolve update {game.update_no} of **{game.name}** now? {len(status.ordered)} of "
                    f"{len(status.ordered) + len(status.waiting)} players have ordered.")

        async def act() -> str:
            game = found["game"]
            result = await self.service.resolve_now(game.id, actor=_moderator(interaction))
            if result.resolved:
                return (f"Update {result.update_no} of {game.name} is resolved; the board and the report are "
                        f"being posted." + (" The game has ended." if result.ended else ""))
            return f"Update {result.update_no} of {game.name} was not resolved ({result.outcome.replace('_', ' ')})."

        await confirm(interaction, prepare, act)

    async def _server_game(self, interaction: discord.Interaction, game_id: int):
        """The game ``game_id`` if it is one of this server's (an ended one too)."""
        try:
            found = await self.service.get_game(game_id)
        except NotFound:
            found = None
        if found is None or found.guild_id != interaction.guild_id:
            raise NotFound(f"there is no game {game_id} on this server", hint="/games lists them")
        return found

    @app_commands.command(name="rollback", description="Make the board after an earlier update current again")
    @app_commands.describe(update="the update to go back to (0: the empty board at the start)",
                           reason="why (shown in the channel's announcement)",
                           game="a game of this server that ended at its verdict (default: this channel's game)")
    @moderator_only
    async def rollback(self, interaction: discord.Interaction, update: app_commands.Range[int, 0, 1_000_000],
                       reason: Optional[app_commands.Range[str, 1, 300]] = None,
                       game: Optional[app_commands.Range[int, 1, 2**63 - 1]] = None) -> None:
        found: dict = {}

        async def prepare() -> str:
            target = await self._server_game(interaction, game) if game is not None else await game_for(interaction)
            found["game"] = target
            if target.status == "ended":
                return (f"Roll **{target.name}** back to the board after update {update}? It ended; it runs again "
                        f"from there, and its result no longer counts in the ratings until it ends again.")
            return (f"Roll **{target.name}** back to the board after update {update}? Later updates are undone "
                    f"(kept in the history) and the pending orders for update {target.update_no} are cancelled.")

        async def act() -> str:
            game = await self.service.rollback(found["game"].id, to_update=update, actor=_moderator(interaction),
                                               reason=reason or "")
            return f"{game.name} is back at the board after update {update}; orders are open for update {game.update_no}."

        await confirm(interaction, prepare, act)

    @app_commands.command(name="extend", description="Move the deadline (and the lock) later")
    @app_commands.describe(minutes="how many minutes later (up to a week: 10080)")
    @moderator_only
    async def extend(self, interaction: discord.Interaction, minutes: app_commands.Range[int, 1, 10_080]) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            game = await self.service.extend(game.id, minutes=minutes, actor=_moderator(interaction))
            return f"The deadline of update {game.update_no} is now {game.deadline_at:%Y-%m-%d %H:%M} UTC."

        await answer(interaction, work)

    # ------------------------------------------------------------------ edits of the position
    @app_commands.command(name="place", description="Put a piece on an empty square")
    @app_commands.describe(kind="the piece's letter, e.g. N", square="the square, as (x,y)",
                           owner="the player's name (empty: a neutral piece)")
    @app_commands.autocomplete(kind=kind_autocomplete, owner=player_autocomplete)
    @moderator_only
    async def place(self, interaction: discord.Interaction, kind: app_commands.Range[str, 1, 10],
                    square: app_commands.Range[str, 1, 40],
                    owner: Optional[app_commands.Range[str, 1, 32]] = None) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            await self.service.place_piece(game.id, actor=_moderator(interaction), kind=kind, square=square, owner=owner)
            return "Placed. The channel is told of the edit."

        await answer(interaction, work)

    @app_commands.command(name="remove", description="Take a piece off the board")
    @app_commands.describe(square="the square, as (x,y)", kind="the piece's letter, when the square holds several")
    @moderator_only
    async def remove(self, interaction: discord.Interaction, square: app_commands.Range[str, 1, 40],
                     kind: Optional[app_commands.Range[str, 1, 10]] = None) -> None:
        found: dict = {}

        async def prepare() -> str:
            game = await game_for(interaction)
            found["game"] = game
            what = f"the {kind} piece" if kind else "the piece"
            return f"Remove {what} on {square} in **{game.name}**?"

        async def act() -> str:
            await self.service.remove_piece(found["game"].id, actor=_moderator(interaction), square=square, kind=kind)
            return "Removed. The channel is told of the edit."

        await confirm(interaction, prepare, act)

    @app_commands.command(name="move", description="Move a piece to an empty square (an edit, not an order)")
    @app_commands.describe(origin="the piece's square, as (x,y)", target="the empty square, as (x,y)")
    @moderator_only
    async def move(self, interaction: discord.Interaction, origin: app_commands.Range[str, 1, 40],
                   target: app_commands.Range[str, 1, 40]) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            await self.service.move_piece(game.id, actor=_moderator(interaction), origin=origin, target=target)
            return "Moved. The channel is told of the edit."

        await answer(interaction, work)

    @app_commands.command(name="balance", description="Set a player's balance (health, energy or points)")
    @app_commands.describe(player="the player's name", amount="the new balance: a whole number or a half, e.g. 5.5")
    @app_commands.autocomplete(player=player_autocomplete)
    @moderator_only
    async def balance(self, interaction: discord.Interaction, player: app_commands.Range[str, 1, 32],
                      amount: app_commands.Range[str, 1, 20]) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            await self.service.set_balance(game.id, actor=_moderator(interaction), player=player, amount=amount)
            return "Balance set. The channel is told of the edit."

        await answer(interaction, work)

    # ------------------------------------------------------------------ players, events, words
    @app_commands.command(name="kick", description="Remove a player: their pieces leave the board")
    @app_commands.describe(member="the player to remove", reason="why (shown in the channel)")
    @moderator_only
    async def kick(self, interaction: discord.Interaction, member: discord.Member,
                   reason: Optional[app_commands.Range[str, 1, 300]] = None) -> None:
        found: dict = {}

        async def prepare() -> str:
            game = await game_for(interaction)
            players = {p.user_id: p for p in await self.service.players(game.id)}
            if member.id not in players:
                raise NotFound(f"{member.display_name} is not a player of game {game.id} ({game.name})")
            found["game"] = game
            name = players[member.id].name
            return (f"Remove {name} from **{game.name}**? Their pieces leave the board, their order is cancelled "
                    f"and they cannot join again.")

        async def act() -> str:
            await self.service.kick(found["game"].id, actor=_moderator(interaction), user_id=member.id,
                                    reason=reason or "")
            return "The player is removed. The channel is told."

        await confirm(interaction, prepare, act)

    async def event_autocomplete(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        typed = current.strip().casefold()
        names = self.service.event_names()
        starts = [n for n in names if n.casefold().startswith(typed)]
        contains = [n for n in names if typed in n.casefold() and n not in starts]
        return [app_commands.Choice(name=n, value=n) for n in (starts + contains)[:_CHOICES]]

    @app_commands.command(name="event", description="Start or stop an event")
    @app_commands.describe(action="start or stop", name="the event")
    @app_commands.autocomplete(name=event_autocomplete)
    @moderator_only
    async def event(self, interaction: discord.Interaction, action: Literal["start", "stop"],
                    name: app_commands.Range[str, 1, 60]) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            if action == "start":
                await self.service.start_event(game.id, actor=_moderator(interaction), name=name)
                return "The event starts. The channel is told."
            await self.service.stop_event(game.id, actor=_moderator(interaction), name=name)
            return "The event ends. The channel is told."

        await answer(interaction, work)

    @app_commands.command(name="announce", description="Post an announcement in the game's channel")
    @app_commands.describe(text="what to announce (up to 1,800 characters)")
    @moderator_only
    async def announce(self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 1800]) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            await self.service.announce(game.id, actor=_moderator(interaction), text=text)
            return f"Announced in the channel of {game.name}."

        await answer(interaction, work)

    @app_commands.command(name="status", description="Who has ordered for the open update (never what)")
    @moderator_only
    async def status(self, interaction: discord.Interaction) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            status = await self.service.order_status(game.id)
            text = status.text()
            if status.ordered:
                text += "\nOrdered: " + ", ".join(status.ordered)
            return text

        await answer(interaction, work)

    # ------------------------------------------------------------------ oversight (issue 28)
    @app_commands.command(name="help", description="The moderator commands")
    @moderator_only
    async def help_(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(MOD_HELP_TEXT, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="audit", description="The game's audit log, newest first")
    @app_commands.describe(page="1: the newest entries")
    @moderator_only
    async def audit(self, interaction: discord.Interaction,
                    page: Optional[app_commands.Range[int, 1, 100_000]] = None) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            return audit_text(await self.service.audit_page(game.id, actor=_moderator(interaction), page=page or 1))

        await answer(interaction, work)

    @app_commands.command(name="undo", description="Undo the last moderator edit of the position")
    @moderator_only
    async def undo(self, interaction: discord.Interaction) -> None:
        found: dict = {}

        async def prepare() -> str:
            game = await game_for(interaction)
            found["game"] = game
            return (f"Undo the last moderator edit of **{game.name}**? The position before it becomes current "
                    f"again (a new revision; the channel is told).")

        async def act() -> str:
            await self.service.undo_edit(found["game"].id, actor=_moderator(interaction))
            return "Undone. The channel is told."

        await confirm(interaction, prepare, act)

    @app_commands.command(name="substitute", description="Give a player's seat (pieces, balance) to another member")
    @app_commands.describe(player="the player whose seat it is", member="the member who takes it over",
                           name="a new name for the seat (only before the game starts)")
    @app_commands.autocomplete(player=player_autocomplete)
    @moderator_only
    async def substitute(self, interaction: discord.Interaction, player: app_commands.Range[str, 1, 32],
                         member: discord.Member, name: Optional[app_commands.Range[str, 1, 32]] = None) -> None:
        found: dict = {}

        async def prepare() -> str:
            game = await game_for(interaction)
            found["game"] = game
            return (f"Give {player}'s seat in **{game.name}** to {member.display_name}? They take over its pieces "
                    f"and balance; the player who has it now may no longer order (their pending order is "
                    f"cancelled, and they are told).")

        async def act() -> str:
            await self.service.substitute(found["game"].id, actor=_moderator(interaction), player=player,
                                          user_id=member.id, name=name)
            return f"{member.display_name} now plays the seat. The channel, and both members, are told."

        await confirm(interaction, prepare, act)

    @app_commands.command(name="revoke-links", description="Every player's private web link to this game stops working")
    @moderator_only
    async def revoke_links(self, interaction: discord.Interaction) -> None:
        found: dict = {}

        async def prepare() -> str:
            game = await game_for(interaction)
            found["game"] = game
            return (f"Revoke every private web link to **{game.name}**? Pages open with them stop working at once; "
                    f"each player gets a new link from /board or the My board button.")

        async def act() -> str:
            await self.service.revoke_links(found["game"].id, actor=_moderator(interaction))
            return "Revoked: every link made before now is refused. The audit log records it."

        await confirm(interaction, prepare, act)

    # ------------------------------------------------------------------ posts that did not go out
    @app_commands.command(name="posts", description="The game's posts that failed to go out, and why")
    @moderator_only
    async def posts(self, interaction: discord.Interaction) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            troubles = await self.service.post_troubles(game.id, actor=_moderator(interaction))
            if not troubles:
                return f"Every post of {game.name} has gone out or is on its way."
            return "\n".join([f"Posts of {game.name} that have not gone out:"] + [f"- {t.text()}" for t in troubles])

        await answer(interaction, work)

    @app_commands.command(name="redeliver", description="Try parked or waiting posts again now")
    @app_commands.describe(post="one post's number (from /mod posts); empty: every parked or waiting post")
    @moderator_only
    async def redeliver(self, interaction: discord.Interaction,
                        post: Optional[app_commands.Range[int, 1, 9_007_199_254_740_991]] = None) -> None:
        async def work() -> str:
            game = await game_for(interaction)
            released = await self.service.redeliver(game.id, actor=_moderator(interaction), post_id=post)
            listed = ", ".join(str(number) for number in released)
            return (f"{len(released)} post{'s' if len(released) != 1 else ''} of {game.name} will be tried again now "
                    f"({listed}). /mod posts shows any that fail again.")

        await answer(interaction, work)


def audit_text(page) -> str:
    """A page of the audit log (the service's ``AuditPage``): one line an entry, newest first; who
    acted as a mention (shown as the member's name, never pinging: answers allow no mentions)."""
    lines = [f"**{page.game.name}**: audit log, page {page.page} of {page.pages} ({page.total} entries, newest "
             f"first)"]
    for line in page.lines:
        who = "the bot" if line.actor == 0 else f"<@{line.actor}>"
        lines.append(f"`#{line.number}` {line.at:%Y-%m-%d %H:%M} UTC, {who}: {line.text}")
    if page.page < page.pages:
        lines.append(f"Older entries: `/mod audit page:{page.page + 1}`.")
    return "\n".join(lines)


def _moderator(interaction: discord.Interaction) -> Moderator:
    """The service's token for a moderator the :func:`moderator_only` check let through."""
    return Moderator(user_id=interaction.user.id, guild_id=interaction.guild_id)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ModerationCog(bot))
