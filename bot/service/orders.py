"""Orders: submit (validated at once against the board the player saw), replace, cancel, look up.

D6: a player's latest valid submission before the lock replaces the earlier one; a refused one is
answered at once with the engine's reason and changes nothing; cancel withdraws the pending order.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.store import Game, OrderRow

from .actors import Moderator, require_moderator
from .base import ServiceBase
from .errors import InvalidInput, NotAllowed, NotFound, OrderRefused, WrongTime

__all__ = ["OrderCases", "Receipt", "SOURCES"]

SOURCES = ("channel", "dm", "moderator")


@dataclass(frozen=True, slots=True)
class Receipt:
    """The confirmation of an accepted order."""

    game_id: int
    update_no: int
    player: str
    canonical: str
    secret: bool
    replaced: str | None            # the canonical order it replaced, if any
    deadline_at: datetime | None
    resolves_now: bool = False      # every player who may order has ordered: the update resolves early

    def text(self) -> str:
        lines = [f"Order for update {self.update_no} accepted: `{self.canonical}`"
                 + (" (secret)" if self.secret else "")]
        if self.replaced is not None:
            lines.append(f"It replaces `{self.replaced}`.")
        if self.resolves_now:
            lines.append("Every player who may order has ordered: the update resolves now.")
        elif self.deadline_at is not None:
            lines.append(f"Orders close at {self.deadline_at:%Y-%m-%d %H:%M} UTC; you may change it until then.")
        return "\n".join(lines)


class OrderCases(ServiceBase):
    async def submit_order(self, game_id: int, *, user_id: int, text: str, source: str = "channel",
                           actor: Moderator | None = None) -> Receipt:
        """Validate ``text`` for ``user_id`` and keep it as their order for the open update.

        ``source`` is ``channel``, ``dm`` (a secret order) or ``moderator`` (entered by ``actor``, a
        :class:`~.actors.Moderator`, on the player's behalf; audited). Raises :class:`OrderRefused` with the engine's reason."""
        if source not in SOURCES:
            raise InvalidInput(f"an order comes from one of {', '.join(SOURCES)}, not {source!r}")
        if not isinstance(text, str):
            raise InvalidInput("an order must be text")
        async with self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                actor_id = require_moderator(actor, game.guild_id, "enter an order for a player") \
                    if source == "moderator" else None
                self._require_open(game)
                variant = self.variant(game)
                if source == "dm" and not variant.features.secret_orders:
                    ruleset = variant.ruleset
                    raise NotAllowed(f"{ruleset.title} takes orders only in the game channel: there are no secret "
                                     f"orders in this ruleset ({ruleset.section or 'RULES 5'})", hint="send it with /move in the game channel")
                player = await self._player(q, game, user_id)
                state = await self._working_state(q, game)
                not_now = variant.may_order(state, player.name)
                if not_now is not None:
                    raise NotAllowed(not_now, hint="your order is kept for no other update: send it when you may order")
                checked = variant.check(state, player.name, text)
                if not checked.ok:
                    raise OrderRefused(checked.error)
                previous = await q.live_order(game.id, game.update_no, user_id)
                if previous is not None:
                    await q.set_order_status(previous.id, "superseded")
                now = self.now()
                await q.insert_order(game_id=game.id, update_no=game.update_no, user_id=user_id, text=text,
                                     canonical=checked.canonical, source=source, submitted_at=now)
                secret = source == "dm"
                if secret and (previous is None or not previous.secret):
                    notice = self.settings(game).secret_notice_for(player.name)
                    if notice:
                        await self._post(q, game, game.update_no, "notice", notice)
                if source == "moderator":
                    await q.audit(game_id=game.id, actor=actor_id, action="order",
                                  detail={"player": player.name, "order": checked.canonical,
                                          "update": game.update_no}, at=now)
                resolves_now = await self._early_deadline(q, game, variant, state, now)
                receipt = Receipt(game.id, game.update_no, player.name, checked.canonical, secret,
                                  None if previous is None else previous.canonical,
                                  now if resolves_now else game.deadline_at, resolves_now)
        if receipt.resolves_now:
            self._schedule_changed(game.id)     # the deadline is now: the scheduler resolves the update
        return receipt

    async def _early_deadline(self, q, game: Game, variant, state, now: datetime) -> bool:
        """Issue 20: where the game resolves early and every player who may order has ordered, the
        deadline becomes now (a moment in the database, like any deadline: a restart keeps it)."""
        if not self.resolves_early(game) or (game.deadline_at is not None and game.deadline_at <= now):
            return False
        names = {row.user_id: row.name for row in await q.players(game.id)}
        ordered = {names[o.user_id] for o in await q.live_orders(game.id, game.update_no) if o.user_id in names}
        if not variant.may_resolve_early(state, ordered):
            return False
        await q.update_game(game.id, deadline_at=now, lock_at=now, reminded_for=None)
        return True

    async def cancel_order(self, game_id: int, *, user_id: int) -> OrderRow:
        """Withdraw the pending order (D6); the player then has no order for this update."""
        async with self.lock_for(game_id):
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
