"""A moderator's oversight of a game (issue 28): reading the audit log, undoing the last edit, and
giving a seat to another member.

- :meth:`OversightCases.audit_page`: the audit log, newest first, a page at a time, in words. An
  order a moderator entered for a player is a secret until its update resolves: before that its
  entry says whose order it was, never what.
- :meth:`OversightCases.undo_edit`: the position before the last moderator edit, stored as a new
  revision (snapshots never change), audited and announced. Only edits are undone (placing,
  removing or moving a piece, a balance, an event started or stopped, a kick), never a resolution:
  once the update after an edit has resolved, the edit is part of the game, and a rollback is the
  tool. Undoing again undoes the edit before, and so on back to the update's own position. Undoing
  a kick gives the player their seat back.
- :meth:`OversightCases.substitute`: a new member takes over a player's seat: its name, colour,
  pieces and balance (everything in the position is the seat's, not the member's). The old member
  loses access at once, their pending order is cancelled and they are told; the new member is told
  by direct message. Audited and announced.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.engine import serialize
from bot.store import AuditEntry, Game, Snapshot

from .actors import Moderator, require_moderator
from .base import ServiceBase, is_row_number
from .errors import Conflict, InvalidInput, NotAllowed, NotFound, WrongTime, shown
from .names import clean_name

__all__ = ["OversightCases", "AuditLine", "AuditPage", "AUDIT_PAGE_SIZE", "UNDOABLE"]

AUDIT_PAGE_SIZE = 15
#: the audit actions of the edits /mod undo can undo (each stored a revision of the position)
UNDOABLE = ("place", "remove", "move", "balance", "event_start", "event_stop", "kick", "undo")


@dataclass(frozen=True, slots=True)
class AuditLine:
    """One entry of the audit log as a moderator reads it: ``actor`` 0 is the bot itself."""

    number: int
    at: datetime
    actor: int
    action: str
    text: str


@dataclass(frozen=True, slots=True)
class AuditPage:
    game: Game
    page: int
    pages: int
    total: int
    lines: tuple[AuditLine, ...]


def _describe(entry: AuditEntry, game: Game) -> str:
    """What an audit entry records, in words (a secret order stays secret until it is resolved)."""
    d = entry.detail
    action = entry.action
    if action == "order":
        update = d.get("update")
        resolved = game.status == "ended" or (isinstance(update, int) and update < game.update_no)
        whose = f"entered an order for {d.get('player', '?')}" + (f" for update {update}" if update else "")
        if resolved:
            return f"{whose}: `{d.get('order', '?')}`"
        return f"{whose} (what it is stays secret until the update resolves)"
    if "edit" in d:
        return f"{'undid' if action == 'undo' else 'edit'}: {d['edit']}"
    if action == "create":
        return f"created the game ({d.get('ruleset', '?')}, {d.get('schedule', '?')})"
    if action == "configure":
        changed = [f"{key} {value!r}" for key, value in sorted(d.get("settings", {}).items())]
        changed += [f"{key} {d[key]!r}" for key in ("schedule", "name") if key in d]
        return "changed " + (", ".join(changed) or "nothing")
    if action in ("start", "resume"):
        return {"start": "started the game", "resume": "resumed the game"}[action]
    if action in ("pause", "end"):
        reason = d.get("reason")
        return f"{'paused' if action == 'pause' else 'ended'} the game" + (f": {reason}" if reason else "")
    if action in ("lock", "unlock", "resolve"):
        verb = {"lock": "locked the orders of", "unlock": "opened the orders of", "resolve": "resolved"}[action]
        return f"{verb} update {d.get('update', '?')}" + (" at once" if action == "resolve" else "")
    if action == "extend":
        return f"extended the deadline by {d.get('minutes', '?')} minutes"
    if action == "rollback":
        reason = f" ({d['reason']})" if d.get("reason") else ""
        return f"rolled the game back to update {d.get('to', '?')} from update {d.get('from', '?')}{reason}"
    if action == "announce":
        text = str(d.get("text", ""))
        return f"announced: {text[:120]}{'…' if len(text) > 120 else ''}"
    if action == "substitute":
        return f"gave {d.get('player', '?')}'s seat to another member"
    if action == "web_order":
        return f"{d.get('player', '?')} sent their order for update {d.get('update', '?')} from the web page"
    if action == "revoke_links":
        return "revoked every private web link to the game"
    if action == "redeliver":
        return f"asked for posts {', '.join(map(str, d.get('posts', []))) or '?'} to be delivered again"
    return f"{action} {', '.join(f'{key} {value!r}' for key, value in sorted(d.items()))}".strip()


class OversightCases(ServiceBase):
    # ------------------------------------------------------------------ the audit log
    async def audit_page(self, game_id: int, *, actor: Moderator, page: int = 1,
                         per_page: int = AUDIT_PAGE_SIZE) -> AuditPage:
        """Page ``page`` (1: the newest entries) of the game's audit log, for a moderator."""
        if isinstance(page, bool) or not isinstance(page, int) or page < 1:
            raise InvalidInput(f"a page is a number from 1, not {shown(page)}")
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            require_moderator(actor, game.guild_id, "read a game's audit log")
            entries, total = await q.audit_page(game.id, limit=per_page, offset=(page - 1) * per_page)
        pages = max(1, -(-total // per_page))
        if page > pages:
            raise NotFound(f"the audit log of game {game.id} has {pages} page{'s' if pages != 1 else ''}, "
                           f"not {page}", hint="page 1 is the newest")
        lines = tuple(AuditLine(e.id, e.at, e.actor, e.action, _describe(e, game)) for e in entries)
        return AuditPage(game, page, pages, total, lines)

    # ------------------------------------------------------------------ undo
    async def undo_edit(self, game_id: int, *, actor: Moderator) -> Game:
        """Undo the last moderator edit of the current position: its position before the edit
        becomes a new revision (audited as ``undo``, announced). Refused when the current position
        is an update's own (nothing edited since it resolved, or every edit undone already)."""
        async with self._after_orders(game_id), self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                actor_id = require_moderator(actor, game.guild_id, "undo a moderator edit")
                self._require_live(game)
                if game.claimed_by is not None:
                    raise WrongTime(f"update {game.update_no} is being resolved; undo once the board is posted")
                edit, entry = await self._last_edit(q, game)
                before = await q.revision_before(game.id, edit.update_no, edit.revision)
                if before is None:          # an edit always follows the position it changed
                    raise NotFound(f"the position before that edit of game {game.id} is not stored")
                state = serialize.loads(before.state)
                state.checks_consistent = False
                described = entry.detail.get("edit") or edit.reason.removeprefix("edit: ")
                now = self.now()
                revision = await q.next_revision(game.id, game.snapshot_update)
                await q.insert_snapshot(game_id=game.id, update_no=game.snapshot_update, revision=revision,
                                        base_revision=None, state=serialize.dumps(state), orders={}, seed=game.seed,
                                        report=None, reason=f"undo: {described}", created_at=now)
                await q.update_game(game.id, snapshot_revision=revision)
                await q.audit(game_id=game.id, actor=actor_id, action="undo",
                              detail={"edit": described, "undoes": edit.revision, "restores": before.revision,
                                      "revision": revision, "update": game.snapshot_update}, at=now)
                if entry.action == "kick" and is_row_number(entry.detail.get("user")):
                    await q.set_player_status(game.id, entry.detail["user"], "joined")
                self._states[game.id] = ((game.snapshot_update, revision), state)
                await self._post(q, game, game.update_no, "announcement", f"Moderator edit undone: {described}.")
                await self._sync_teams(q, game, state, game.update_no)
                return await q.game(game.id)

    async def _last_edit(self, q, game: Game) -> tuple[Snapshot, AuditEntry]:
        """The edit an undo undoes now, and its audit entry: the current revision if it is an edit;
        if it is an undo, the edit before the position that undo restored, and so on."""
        update = game.snapshot_update
        entries = {(e.detail.get("update"), e.detail.get("revision")): e
                   for e in await q.audit_entries(game.id) if e.action in UNDOABLE}
        revision = game.snapshot_revision
        while True:
            snapshot = await q.snapshot(game.id, update, revision)
            entry = entries.get((update, revision))
            if snapshot is None or entry is None or not snapshot.reason.startswith(("edit: ", "undo: ")):
                raise WrongTime(f"there is no moderator edit to undo in game {game.id}: the board is the position "
                                f"after update {update} as it resolved", hint="/mod rollback goes back to an "
                                "earlier update")
            if entry.action != "undo":
                return snapshot, entry
            revision = entry.detail["restores"]

    # ------------------------------------------------------------------ substitution
    async def substitute(self, game_id: int, *, actor: Moderator, player: str, user_id: int,
                         name: str | None = None) -> Game:
        """Give ``player``'s seat to the member ``user_id``: the same name (``name``, before the
        start only), colour, pieces and balance. The old member may no longer order; their pending
        order is cancelled and they are told, privately; the new member is told by direct message."""
        if not is_row_number(user_id):
            raise InvalidInput(f"{str(user_id)[:20]!r} is not a user id")
        async with self._after_orders(game_id), self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                actor_id = require_moderator(actor, game.guild_id, "give a player's seat to another member")
                if game.status == "ended":
                    raise WrongTime(f"game {game.id} ({game.name}) has ended")
                if game.claimed_by is not None:
                    raise WrongTime(f"update {game.update_no} is being resolved; substitute once the board is posted")
                old = await q.player_named(game.id, str(player).strip()) if str(player).strip() else None
                if old is None or old.status != "joined":
                    raise NotFound(f"no player named {shown(player)} plays game {game.id}",
                                   hint="the player option lists them as you type")
                taken = await q.player(game.id, user_id)
                if taken is not None:
                    raise Conflict(f"that member already played game {game.id} as {taken.name}"
                                   if taken.status != "joined" else
                                   f"that member already plays game {game.id} as {taken.name}",
                                   hint="give the seat to a member who is not in the game")
                new_name = old.name
                if name is not None and clean_name(name).casefold() != old.name.casefold():
                    if game.status != "setup":
                        raise NotAllowed(f"{old.name}'s pieces and reports carry that name, so the new member keeps "
                                         f"it once the game has started", hint="leave the name option empty")
                    new_name = clean_name(name)
                    holder = await q.player_named(game.id, new_name)
                    if holder is not None:
                        raise Conflict(f"the name {new_name!r} is taken in this game")
                now = self.now()
                await q.set_player_status(game.id, old.user_id, "kicked", "replaced")
                await q.insert_player(game_id=game.id, user_id=user_id, name=new_name, colour=old.colour,
                                      joined_at=now, joined_update=old.joined_update, seat=old.seat)
                order = await q.live_order(game.id, game.update_no, old.user_id) if game.update_no else None
                if order is not None:
                    await q.set_order_status(order.id, "cancelled")
                await q.audit(game_id=game.id, actor=actor_id, action="substitute",
                              detail={"player": old.name, "name": new_name, "from_user": old.user_id,
                                      "to_user": user_id, "order_cancelled": order is not None}, at=now)
                update = max(game.update_no, 0)
                cancelled = (f" Your order for update {game.update_no} was cancelled." if order is not None else "")
                await self._post(q, game, update, "notice",
                                 f"A moderator gave your seat in **{game.name}** ({old.name}, {old.colour}) to another "
                                 f"member: you no longer play it.{cancelled}", recipient=old.user_id)
                await self._post(q, game, update, "notice",
                                 f"A moderator gave you the seat of {old.name} ({old.colour}) in **{game.name}**"
                                 + (f", now named {new_name}" if new_name != old.name else "")
                                 + ": its pieces and balance are yours. Send your orders with /move; /orders "
                                   "shows where the seat stands.", recipient=user_id)
                renamed = f" as {new_name}" if new_name != old.name else ""
                await self._post(q, game, update, "announcement",
                                 f"Moderator edit: {old.name}'s seat is now played by another member{renamed}.")
                if game.snapshot_update is not None:        # the new member takes the old one's team thread
                    await self._sync_teams(q, game, await self._working_state(q, game), update)
                return await q.game(game.id)
