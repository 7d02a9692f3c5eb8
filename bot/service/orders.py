"""Orders: submit (validated at once against the board the player saw), replace, cancel, look up.

D6: a player's latest valid submission before the lock replaces the earlier one; a refused one is
answered at once with the engine's reason and changes nothing; cancel withdraws the pending order.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass
from datetime import datetime

from bot.engine.validation import OrderCheck
from bot.store import Game, OrderRow

from .actors import Moderator, require_moderator
from .base import OrdersBarrier, ServiceBase, is_row_number, position_token, with_joiners
from .errors import InvalidInput, NotAllowed, NotFound, OrderRefused, ServiceError, WrongTime, shown

__all__ = ["OrderCases", "OrderDraft", "Receipt", "Departure", "SOURCES", "LEAVE_ORDER", "split_lines", "ORDER_FILE_LIMIT",
           "order_from_file", "require_order_file_size"]

#: what leaving a running game is (issue 28, docs/service.md "Leaving"): the engine's resignation (D38)
LEAVE_ORDER = "resign"

SOURCES = ("channel", "dm", "moderator")

#: the largest order file read, in bytes: a whole army's orders (P72: 64,000 characters) in UTF-8,
#: where a character may take up to 4 bytes. The engine refuses a longer text with its own words.
ORDER_FILE_LIMIT = 256_000


def require_order_file_size(size: int, filename: str = "") -> None:
    """Refuse an order file larger than :data:`ORDER_FILE_LIMIT` before it is even read."""
    if size > ORDER_FILE_LIMIT:
        raise InvalidInput(f"an order file is at most {ORDER_FILE_LIMIT:,} bytes; {shown(filename or 'this file')} "
                           f"has {size:,}",
                           hint="an order holds at most 64,000 characters (P72): send only your moves")


def order_from_file(data: bytes, filename: str = "") -> str:
    """The order a player sent as a text file (a submission longer than a Discord message, P72):
    UTF-8 text, with or without a byte-order mark, any line endings. Anything else is refused in
    words (nothing is guessed: a file in another encoding would be read wrongly)."""
    name = shown(filename or "the file")
    require_order_file_size(len(data), filename)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{name} is not UTF-8 text: byte {exc.start + 1:,} (0x{data[exc.start]:02X}) cannot be "
                           f"read", hint="save the orders as plain text in UTF-8 (a .txt file) and send it again"
                           ) from None
    if "\x00" in text:
        raise InvalidInput(f"{name} is not a text file: it holds NUL characters",
                           hint="save the orders as plain text in UTF-8 (a .txt file) and send it again")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise InvalidInput(f"{name} is empty", hint="write one order a line, e.g. `N(35,2)-(37,3)`")
    return text


@dataclass(frozen=True, slots=True)
class Receipt:
    """The confirmation of an accepted order. ``canonical`` is the whole submission as stored (its
    lines joined with ``; ``); ``lines`` each line's canonical form, in the order the player wrote
    them (D7: a submission of several moves)."""

    game_id: int
    update_no: int
    player: str
    canonical: str
    secret: bool
    replaced: str | None            # the canonical order it replaced, if any
    deadline_at: datetime | None
    resolves_now: bool = False      # every player who may order has ordered: the update resolves early
    lines: tuple[str, ...] = ()

    def text(self) -> str:
        """The answer to the player: the order as the bot keeps it, one line each when it has
        several, what it replaced, and when the orders close."""
        lines = self.lines or (self.canonical,)
        secret = " (secret)" if self.secret else ""
        if len(lines) == 1:
            answer = [f"Order for update {self.update_no} accepted: `{lines[0]}`{secret}"]
        else:
            answer = [f"Order for update {self.update_no} accepted{secret}, {len(lines)} lines:"]
            answer.extend(f"`{line}`" for line in lines)
        if self.replaced is not None:
            earlier = split_lines(self.replaced)
            if len(earlier) == 1 or len(self.replaced) <= 120:
                answer.append(f"It replaces `{self.replaced}`.")
            else:
                answer.append(f"It replaces your earlier order of {len(earlier)} lines.")
        if self.resolves_now:
            answer.append("Every player who may order has ordered: the update resolves now.")
        elif self.deadline_at is not None:
            answer.append(f"Orders close at {self.deadline_at:%Y-%m-%d %H:%M} UTC; you may change it until then.")
        return "\n".join(answer)


def split_lines(canonical: str) -> list[str]:
    """The lines of a stored canonical submission (INTERFACES.md: joined with ``; ``, which no
    line's own canonical form contains)."""
    return [line for line in canonical.split("; ") if line] or [canonical]


@dataclass(frozen=True, slots=True)
class Departure:
    """What ``leave`` did: ``seat_freed`` (before the start: the seat is free again), ``resigns``
    (``receipt``: the player's order is now ``resign``, played at the update's end) or ``gone``
    (nothing of theirs was in the position: they left at once)."""

    game: Game
    player: str
    outcome: str
    receipt: Receipt | None = None

    def text(self) -> str:
        if self.outcome == "seat_freed":
            return f"You left **{self.game.name}** before its start; your seat is free for someone else."
        if self.outcome == "gone":
            return f"You left **{self.game.name}**; nothing of yours was on the board."
        receipt = self.receipt
        replaced = f" (it replaces `{receipt.replaced}`)" if receipt.replaced else ""
        return (f"You leave **{self.game.name}** at the end of update {receipt.update_no}: your order is now "
                f"`resign`{replaced}. Your pieces leave the board then, and you cannot join again this session. "
                f"To stay after all, send another order with /move before the orders close.")


@dataclass(frozen=True, slots=True)
class OrderDraft:
    """What a form for the caller's order starts from: the open update and the lines of their
    pending order (empty: they have none)."""

    game: Game
    update_no: int
    player: str
    lines: tuple[str, ...]


#: the most submissions one transaction carries (more waiting are written by the next)
ORDER_GROUP_LIMIT = 1000


@dataclass(slots=True)
class _Submission:
    """A submission waiting for its group: what the caller sent, the engine's answer found ahead
    of the group (``checked``, for the position ``token`` and the player named ``player``), and
    the future its caller awaits."""

    user_id: int
    text: str
    source: str
    actor: Moderator | None
    future: asyncio.Future
    checked: OrderCheck | None = None
    token: tuple | None = None
    player: str | None = None
    sent: str = "by direct message"   # how a "dm" order came, as the channel's notice says it


@dataclass(slots=True)
class _Accepted:
    """A submission its group's transaction accepts."""

    index: int                 # its place in the group
    submission: _Submission
    player: str
    checked: OrderCheck
    previous: str | None       # the canonical order it replaces
    secret: bool
    actor_id: int | None
    first: bool                # the player had no live order before it
    status: str = "pending"    # superseded: a later order of the same group replaces it


class OrderCases(ServiceBase):
    async def order_draft(self, game_id: int, *, user_id: int) -> OrderDraft:
        """The open update and the caller's pending order, one line each, for a form to edit;
        refused as :meth:`submit_order` would refuse at once (not a player, the orders locked, not
        their turn), so the player is not handed a form they cannot send."""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            self._require_open(game)
            player = await self._player(q, game, user_id)
            not_now = self.variant(game).may_order(await self._working_state(q, game), player.name)
            if not_now is not None:
                raise NotAllowed(not_now, hint="your order is kept for no other update: send it when you may order")
            order = await q.live_order(game.id, game.update_no, user_id)
        return OrderDraft(game, game.update_no, player.name, tuple(split_lines(order.canonical)) if order else ())

    async def submit_order(self, game_id: int, *, user_id: int, text: str, source: str = "channel",
                           actor: Moderator | None = None, sent: str = "by direct message") -> Receipt:
        """Validate ``text`` for ``user_id`` and keep it as their order for the open update.

        ``source`` is ``channel``, ``dm`` (a secret order) or ``moderator`` (entered by ``actor``, a
        :class:`~.actors.Moderator`, on the player's behalf; audited). Raises :class:`OrderRefused` with the engine's reason.
        ``sent``: how a ``dm`` order came, in the words of the channel's notice where the ruleset has no
        secret orders ("by direct message", or "from the web board" for the private page's orders).

        Orders arriving together are written together (issue 25): each submission is validated at
        once against the position of the open update as last seen (outside the game's lock), then
        waits for the game's next group; one transaction carries the group, in the order the
        submissions arrived. The group's transaction checks each submission again against the game
        as it stands (open, the player playing, the same position: else it is validated again
        there, as one submission alone would be), so a group gives exactly what one transaction per
        submission would: D6, the latest valid order of each player wins; a refused one changes
        nothing; and a submission is confirmed only once its group is committed."""
        if source not in SOURCES:
            raise InvalidInput(f"an order comes from one of {', '.join(SOURCES)}, not {source!r}")
        if not isinstance(text, str):
            raise InvalidInput("an order must be text")
        self._require_game_number(game_id)      # before it keys a queue: True would be game 1's
        loop = asyncio.get_running_loop()
        submission = _Submission(user_id, text, source, actor, loop.create_future(), sent=sent)
        self._check_ahead(game_id, submission)
        # no await between the caller and the queue: submissions join it in the order they were made
        self._order_queues.setdefault(game_id, deque()).append(submission)
        if game_id not in self._order_writers:
            self._order_writers[game_id] = loop.create_task(self._write_orders(game_id))
        return await submission.future

    # ------------------------------------------------------------------ groups of submissions
    def _check_ahead(self, game_id: int, submission: "_Submission") -> None:
        """Validate ``submission`` against the position its game's orders were last validated
        against, outside any lock (the slow part: the engine's check). Only a help: the group's
        transaction keeps the result if that position is still the game's, and decides everything
        else (a refusal here is not final: the transaction checks again with the game as it is)."""
        context = self._order_contexts.get(game_id)
        if context is None:
            return
        player = context.players.get(submission.user_id) if is_row_number(submission.user_id) else None
        try:
            checked, _ = self._accept(context.game, context.variant, player, context.state, submission)
        except ServiceError:
            return
        submission.checked, submission.token, submission.player = checked, context.token, player.name

    def _accept(self, game: Game, variant, player, state, submission: "_Submission", checked=None):
        """The checks of one submission, in the order a player is told about them: the engine's
        ``OrderCheck`` and the moderator's audit id; raises the first refusal. ``checked``: the
        engine's answer for this very position and player, found already."""
        source = submission.source
        actor_id = require_moderator(submission.actor, game.guild_id, "enter an order for a player") \
            if source == "moderator" else None
        self._require_open(game)
        if source == "dm" and not variant.features.takes_direct_messages:
            ruleset = variant.ruleset
            raise NotAllowed(f"{ruleset.title} takes orders only in the game channel: there are no secret "
                             f"orders in this ruleset ({ruleset.section or 'RULES 5'})", hint="send it with /move in the game channel")
        player = self._require_player(game, player)
        if checked is None:
            not_now = variant.may_order(state, player.name)
            if not_now is not None:
                raise NotAllowed(not_now, hint="your order is kept for no other update: send it when you may order")
            checked = variant.check(state, player.name, submission.text)
        if not checked.ok:
            raise OrderRefused(checked.error)
        return checked, actor_id

    async def _write_orders(self, game_id: int) -> None:
        """The game's writer: group after group of waiting submissions, until none is left. It
        stops at a use case waiting behind the submissions made before it (:meth:`_after_orders`)
        until that one is done."""
        queue = self._order_queues[game_id]
        group: list[_Submission] = []
        try:
            while queue:
                if isinstance(queue[0], OrdersBarrier):
                    barrier = queue.popleft()
                    if not barrier.reached.done():
                        barrier.reached.set_result(None)
                    await barrier.released
                    continue
                while queue and len(group) < ORDER_GROUP_LIMIT and not isinstance(queue[0], OrdersBarrier):
                    submission = queue.popleft()
                    if not submission.future.done():       # done: its caller gave up before it was written
                        group.append(submission)
                if not group:
                    continue
                try:
                    outcomes, resolves_now = await self._write_group(game_id, group)
                except Exception as exc:       # rolled back: nothing of the group was written
                    outcomes, resolves_now = [exc] * len(group), False
                for submission, outcome in zip(group, outcomes):
                    if submission.future.done():
                        continue
                    if isinstance(outcome, BaseException):
                        submission.future.set_exception(outcome)
                    else:
                        submission.future.set_result(outcome)
                group = []
                if resolves_now:
                    self._schedule_changed(game_id)     # the deadline is now: the scheduler resolves the update
        except BaseException as exc:   # cancelled (the loop is closing): tell every caller still waiting
            for waiting in [*group, *queue]:
                future = waiting.reached if isinstance(waiting, OrdersBarrier) else waiting.future
                if not future.done():
                    future.set_exception(exc)
            queue.clear()
            raise
        finally:
            if not queue:
                self._order_queues.pop(game_id, None)
            self._order_writers.pop(game_id, None)

    async def _write_group(self, game_id: int, group: list["_Submission"]) -> tuple[list, bool]:
        """One transaction for ``group``: each submission's receipt or refusal, in order, and
        whether one of them completed the set of orders (the update resolves now)."""
        outcomes: list = [None] * len(group)
        async with self.lock_for(game_id):
            async with self.store.transaction() as q:
                try:
                    game = await self._game(q, game_id)
                    variant = self.variant(game)
                except ServiceError as exc:
                    return [exc] * len(group), False
                user_ids = list(dict.fromkeys(s.user_id for s in group if is_row_number(s.user_id)))
                rows = await q.players_among(game.id, user_ids)
                state = token = None
                if game.snapshot_update is not None:
                    base = await self._snapshot_state(q, game)
                    joiners = await self._joiners(q, game, base)
                    state = with_joiners(self.ruleset(game), base, joiners)
                    token = position_token(game, joiners)
                live = await q.live_orders_among(game.id, game.update_no, user_ids) if rows else {}
                settings = self.settings(game)
                accepted: list[_Accepted] = []
                latest: dict[int, _Accepted] = {}        # each player's last accepted order in this group
                superseded: list[int] = []
                posts: list[tuple] = []
                now = self.now()
                for index, submission in enumerate(group):
                    player = rows.get(submission.user_id) if is_row_number(submission.user_id) else None
                    known = submission.checked if (submission.token is not None and submission.token == token
                                                   and player is not None and submission.player == player.name) else None
                    try:
                        checked, actor_id = self._accept(game, variant, player, state, submission, known)
                    except ServiceError as exc:
                        outcomes[index] = exc
                        continue
                    earlier = latest.get(submission.user_id)
                    if earlier is not None:                   # D6: this one replaces the group's earlier one
                        earlier.status = "superseded"
                        previous, previous_secret = earlier.checked.canonical, earlier.submission.source == "dm"
                    elif submission.user_id in live:
                        order = live[submission.user_id]
                        superseded.append(order.id)
                        previous, previous_secret = order.canonical, order.secret
                    else:
                        previous, previous_secret = None, False
                    secret = submission.source == "dm" and variant.features.secret_orders
                    if secret and (previous is None or not previous_secret):
                        notice = settings.secret_notice_for(player.name)
                        if notice:
                            posts.append((game.update_no, "notice", notice, None, None, None))
                    elif submission.source == "dm" and not secret:   # a game without secrets shows a DM order in the channel
                        posts.append((game.update_no, "notice",
                                      f"{player.name} plays `{checked.canonical}` (sent {submission.sent}).",
                                      None, None, None))
                    entry = _Accepted(index, submission, player.name, checked, previous, secret, actor_id,
                                      first=earlier is None and submission.user_id not in live)
                    accepted.append(entry)
                    latest[submission.user_id] = entry
                completes = None
                if accepted:
                    await q.insert_orders(game_id=game.id, update_no=game.update_no, submitted_at=now,
                                          superseded=superseded,
                                          orders=[(a.submission.user_id, a.submission.text, a.checked.canonical,
                                                   a.submission.source, a.status) for a in accepted])
                    for entry in accepted:
                        if entry.actor_id is not None:
                            await q.audit(game_id=game.id, actor=entry.actor_id, action="order",
                                          detail={"player": entry.player, "order": entry.checked.canonical,
                                                  "update": game.update_no}, at=now)
                    await self._posts(q, game, posts)
                    completes = await self._early_deadline(q, game, variant, state, now, accepted)
                deadline = game.deadline_at
                for entry in accepted:
                    resolves_now = entry is completes
                    if resolves_now:
                        deadline = now
                    outcomes[entry.index] = Receipt(
                        game.id, game.update_no, entry.player, entry.checked.canonical, entry.secret, entry.previous,
                        deadline, resolves_now, tuple(line.canonical for line in entry.checked.lines))
                if token is not None:
                    self._remember_position(game, token, state, rows)
        return outcomes, completes is not None

    async def _early_deadline(self, q, game: Game, variant, state, now: datetime, accepted: list["_Accepted"]):
        """Issue 20: where the game resolves early and every player who may order has ordered, the
        deadline becomes now (a moment in the database, like any deadline: a restart keeps it).
        Returns the accepted submission of the group that completed the set (its receipt says the
        update resolves now), or None."""
        if not self.resolves_early(game) or (game.deadline_at is not None and game.deadline_at <= now):
            return None
        names = {row.user_id: row.name for row in await q.players(game.id)}
        ordered = {names[o.user_id] for o in await q.live_orders(game.id, game.update_no) if o.user_id in names}
        if not variant.may_resolve_early(state, ordered):
            return None
        # One at a time, the first order after which every player who may order had ordered; only a
        # player's first order can add to the set, and a larger set is never less complete.
        firsts = [a for a in accepted if a.first]
        before = ordered - {a.player for a in firsts}
        if variant.may_resolve_early(state, before):
            completes = accepted[0]
        else:
            low, high = 0, len(firsts) - 1
            while low < high:
                middle = (low + high) // 2
                if variant.may_resolve_early(state, before | {a.player for a in firsts[:middle + 1]}):
                    high = middle
                else:
                    low = middle + 1
            completes = firsts[low]
        await q.update_game(game.id, deadline_at=now, lock_at=now, reminded_for=None)
        return completes

    async def leave(self, game_id: int, *, user_id: int, source: str = "channel") -> Departure:
        """A player leaves the game (issue 28; the decision is in docs/service.md, "Leaving").

        Before the start, a seat is simply given up. In a running game, leaving is the engine's
        resignation: the player's order for the open update becomes ``resign`` (D38: their pieces
        leave the board at the end of the update, captures on them that update still count, and
        they may not join again this session), accepted and replaceable like any order, so the
        same checks apply (the orders must be open; the variant must take it). A player with
        nothing in the position (a joiner whose king is not placed), whom the variant would refuse
        ``resign`` ("you have not joined yet"), leaves at once: their pending order is cancelled."""
        if source not in ("channel", "dm"):
            raise InvalidInput(f"a player leaves from the channel or by direct message, not {source!r}")
        async with self._after_orders(game_id), self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                player = await self._player(q, game, user_id)
                if game.status == "ended":
                    raise WrongTime(f"game {game.id} ({game.name}) has ended")
                if game.status == "setup":
                    await q.delete_player(game.id, user_id)
                    return Departure(game, player.name, "seat_freed")
                self._require_open(game)
                state = await self._working_state(q, game)
                variant = self.variant(game)
                if variant.check(state, player.name, LEAVE_ORDER).ok or state.board.owned_by(player.name):
                    resigning = True
                else:
                    resigning = False
                    await q.set_player_status(game.id, user_id, "kicked", "left")
                    order = await q.live_order(game.id, game.update_no, user_id)
                    if order is not None:
                        await q.set_order_status(order.id, "cancelled")
                    await self._post(q, game, game.update_no, "announcement", f"{player.name} has left the game.")
                    return Departure(game, player.name, "gone")
        if resigning:
            receipt = await self.submit_order(game_id, user_id=user_id, text=LEAVE_ORDER, source=source)
            return Departure(game, player.name, "resigns", receipt)

    async def order_history(self, game_id: int, *, user_id: int, limit: int = 10) -> list[OrderRow]:
        """The caller's own latest orders in the game (every status, the refusal's reason kept),
        newest first: only ever shown to their owner."""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            await self._player(q, game, user_id)
            return await q.orders_of(game.id, user_id, limit)

    async def cancel_order(self, game_id: int, *, user_id: int) -> OrderRow:
        """Withdraw the pending order (D6); the player then has no order for this update."""
        async with self._after_orders(game_id), self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                self._require_open(game)
                await self._player(q, game, user_id)
                order = await q.live_order(game.id, game.update_no, user_id)
                if order is None:
                    raise NotFound(f"you have no order for update {game.update_no} to cancel")
                await q.set_order_status(order.id, "cancelled")
                return order

    async def my_order(self, game_id: int, *, user_id: int) -> OrderRow | None:
        """The caller's live order for the open update (only ever shown to its owner)."""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            await self._player(q, game, user_id)
            return await q.live_order(game.id, game.update_no, user_id)

    async def check(self, game_id: int, *, user_id: int, text: str):
        """Validate without keeping (for previews and autocomplete): the engine's ``OrderCheck``."""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            self._require_live(game)
            player = await self._player(q, game, user_id)
            state = await self._working_state(q, game)
            return self.variant(game).check(state, player.name, text)

    @staticmethod
    def _require_open(game: Game) -> None:
        ServiceBase._require_live(game)
        if game.locked:
            raise WrongTime(f"orders for update {game.update_no} are locked; the update is being resolved",
                            hint="your order will be for the next update once the board is posted")
