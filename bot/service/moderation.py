"""Moderator edits of the position: place, remove or move a piece, set a balance, kick a player,
start or stop an event, announce.

An edit never changes a stored snapshot. It makes a new revision of the current one, with the
edit in its ``reason`` and in the audit log, so history replays exactly and a rollback can undo
it. After an edit the engine recomputes every check state from scratch (``checks_consistent`` is
cleared). Orders already pending were validated against the earlier revision; the update
re-validates them (RULES 3.1) and refuses, with the reason, any the edit made illegal.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Callable

from bot.engine import serialize
from bot.engine.events import EVENTS
from bot.engine.model import COORDINATE_LIMIT, Piece, Square, format_amount, format_square
from bot.engine.ruleset import Ruleset
from bot.engine.state import ActiveEvent, GameState
from bot.engine.variants import variant_for
from bot.store import Game

from .actors import Moderator, require_moderator
from .base import ServiceBase, is_row_number
from .errors import InvalidInput, NotFound, WrongTime, shown
from .names import clean_announcement

__all__ = ["ModerationCases", "parse_square", "parse_amount"]

_SQUARE = re.compile(r"^\(?\s*(-?\d{1,7})\s*,\s*(-?\d{1,7})\s*\)?$")


def parse_square(text: str) -> Square:
    """``(x,y)`` or ``x,y`` within the D1 limit."""
    match = _SQUARE.match(str(text).strip())
    if not match:
        raise InvalidInput(f"{str(text)[:40]!r} is not a square", hint="write it as (x,y), e.g. (3,-2)")
    x, y = int(match.group(1)), int(match.group(2))
    if abs(x) > COORDINATE_LIMIT or abs(y) > COORDINATE_LIMIT:
        raise InvalidInput(f"{format_square((x, y))} is off the board: coordinates are limited to "
                           f"±{COORDINATE_LIMIT:,} (D1)")
    return x, y


def parse_amount(text: str | int | Fraction) -> Fraction:
    """A balance: a whole number or a half (``5.5``), as the economy keeps them exactly."""
    try:
        value = Fraction(str(text).strip())
    except (ValueError, ZeroDivisionError):
        raise InvalidInput(f"{str(text)[:40]!r} is not an amount", hint="write a number such as 12 or 5.5") from None
    if value.denominator not in (1, 2) or abs(value) > 10**9:
        raise InvalidInput(f"{text} is not a whole or half amount up to a billion")
    return value


class ModerationCases(ServiceBase):
    async def _edit(self, game_id: int, actor: Moderator, action: str, change: Callable[[Ruleset, GameState], tuple[str, dict]],
                    *, also=None) -> Game:
        """Apply ``change`` to a copy of the working state and store it as a new revision; ``also``
        (``async (queries, game)``) does the rest of the use case in the same transaction."""
        async with self._after_orders(game_id), self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                actor_id = require_moderator(actor, game.guild_id, _EDITS[action])
                self._require_live(game)
                if game.claimed_by is not None:
                    raise WrongTime(f"update {game.update_no} is being resolved; edit once the board is posted")
                ruleset = self.ruleset(game)
                working = await self._working_state(q, game)
                state = serialize.loads(serialize.dumps(working))      # a private copy to change
                description, detail = change(ruleset, state)
                state.checks_consistent = False
                now = self.now()
                revision = await q.next_revision(game.id, game.snapshot_update)
                await q.insert_snapshot(game_id=game.id, update_no=game.snapshot_update, revision=revision,
                                        base_revision=None, state=serialize.dumps(state), orders={}, seed=game.seed,
                                        report=None, reason=f"edit: {description}", created_at=now)
                await q.update_game(game.id, snapshot_revision=revision)
                await q.audit(game_id=game.id, actor=actor_id, action=action,
                              detail={**detail, "edit": description, "revision": revision,
                                      "update": game.snapshot_update}, at=now)
                self._states[game.id] = ((game.snapshot_update, revision), state)
                if also is not None:
                    await also(q, game)
                await self._post(q, game, game.update_no, "announcement", f"Moderator edit: {description}.")
                await self._sync_teams(q, game, state, game.update_no)
                return await q.game(game.id)

    @staticmethod
    def _kind(ruleset: Ruleset, text: str) -> str:
        letters = ruleset.match_letters(str(text).strip())
        if len(letters) != 1:
            known = " ".join(ruleset.letters)
            raise InvalidInput(f"{str(text)[:20]!r} is {'ambiguous' if letters else 'not a piece'} in {ruleset.title} (D4)",
                               hint=f"the letters are: {known}")
        return letters[0]

    @staticmethod
    def _owner(state: GameState, name: str | None) -> str | None:
        if name is None or name == "":
            return None
        for player in state.players:
            if player.casefold() == str(name).strip().casefold():
                return player
        raise NotFound(f"no player named {shown(name)} in this game", hint="leave the owner empty for a neutral piece")

    async def place_piece(self, game_id: int, *, actor: Moderator, kind: str, square: str, owner: str | None) -> Game:
        def change(ruleset: Ruleset, state: GameState):
            letter = self._kind(ruleset, kind)
            at = parse_square(square)
            who = self._owner(state, owner)
            if not state.board.in_bounds(at):
                raise InvalidInput(f"{format_square(at)} is outside the board's bounds")
            if state.board.at(at):
                raise InvalidInput(f"{format_square(at)} is occupied by {_names(ruleset, state.board.at(at))}",
                                   hint="remove that piece first, or choose an empty square")
            if ruleset.kind(letter).royal and who is not None and any(
                    ruleset.kind(p.kind).royal for p in state.board.owned_by(who)):
                raise InvalidInput(f"{who} already has a king on the board: one king per player")
            state.board.add(Piece(id=state.new_piece_id(), kind=letter, owner=who, square=at, placed=state.update - 1))
            whose = f"{who}'s" if who else "a neutral"
            return (f"{whose} {ruleset.kind(letter).name} placed on {format_square(at)}",
                    {"kind": letter, "square": list(at), "owner": who})
        return await self._edit(game_id, actor, "place", change)

    async def remove_piece(self, game_id: int, *, actor: Moderator, square: str, kind: str | None = None) -> Game:
        def change(ruleset: Ruleset, state: GameState):
            at = parse_square(square)
            pieces = list(state.board.at(at))
            if kind:
                letter = self._kind(ruleset, kind)
                pieces = [p for p in pieces if p.kind == letter]
            if not pieces:
                raise NotFound(f"there is no {'such ' if kind else ''}piece on {format_square(at)}")
            if len(pieces) > 1:
                raise InvalidInput(f"{format_square(at)} holds {_names(ruleset, pieces)}",
                                   hint="say which with the kind option")
            state.board.remove(pieces[0].id)
            return (f"{_names(ruleset, pieces)} removed from {format_square(at)}",
                    {"square": list(at), "kind": pieces[0].kind, "owner": pieces[0].owner})
        return await self._edit(game_id, actor, "remove", change)

    async def move_piece(self, game_id: int, *, actor: Moderator, origin: str, target: str) -> Game:
        def change(ruleset: Ruleset, state: GameState):
            start, end = parse_square(origin), parse_square(target)
            pieces = state.board.at(start)
            if len(pieces) != 1:
                raise NotFound(f"there is no piece on {format_square(start)}" if not pieces
                               else f"{format_square(start)} holds several pieces; remove and place instead")
            if state.board.at(end):
                raise InvalidInput(f"{format_square(end)} is occupied by {_names(ruleset, state.board.at(end))}")
            if not state.board.in_bounds(end):
                raise InvalidInput(f"{format_square(end)} is outside the board's bounds")
            piece = pieces[0]
            state.board.remove(piece.id)
            state.board.add(piece.at(end))
            return (f"{_names(ruleset, pieces)} moved from {format_square(start)} to {format_square(end)}",
                    {"from": list(start), "to": list(end), "kind": piece.kind, "owner": piece.owner})
        return await self._edit(game_id, actor, "move", change)

    async def set_balance(self, game_id: int, *, actor: Moderator, player: str, amount: str | int) -> Game:
        def change(ruleset: Ruleset, state: GameState):
            name = self._owner(state, player)
            if name is None:
                raise InvalidInput("say whose balance to set")
            value = parse_amount(amount)
            before = state.players[name].balance
            state.players[name].balance = value
            currency = variant_for(ruleset).features.currency
            return (f"{name}'s {currency} set to {format_amount(value)} (was {format_amount(before)})",
                    {"player": name, "from": str(before), "to": str(value)})
        return await self._edit(game_id, actor, "balance", change)

    async def start_event(self, game_id: int, *, actor: Moderator, name: str) -> Game:
        def change(ruleset: Ruleset, state: GameState):
            event = _event_name(name)
            if any(e.name == event for e in state.events):
                raise InvalidInput(f"{event} is already in force")
            state.events = (*state.events, ActiveEvent(event, state.update - 1))
            if event not in state.past_events:
                state.past_events = (*state.past_events, event)
            return (f"the event {event} starts: {variant_for(ruleset).describe_event(event)}", {"event": event})
        return await self._edit(game_id, actor, "event_start", change)

    async def stop_event(self, game_id: int, *, actor: Moderator, name: str) -> Game:
        def change(ruleset: Ruleset, state: GameState):
            event = _event_name(name)
            if not any(e.name == event for e in state.events):
                active = ", ".join(e.name for e in state.events) or "none"
                raise InvalidInput(f"{event} is not in force (in force: {active})")
            state.events = tuple(e for e in state.events if e.name != event)
            return (f"the event {event} ends", {"event": event})
        return await self._edit(game_id, actor, "event_stop", change)

    async def kick(self, game_id: int, *, actor: Moderator, user_id: int, reason: str = "") -> Game:
        """Remove a player: their pieces leave the board, their order is cancelled, they may not re-join."""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            require_moderator(actor, game.guild_id, _EDITS["kick"])
            row = await q.player(game.id, user_id) if is_row_number(user_id) else None
        if row is None or row.status == "kicked":
            raise NotFound(f"that user is not a player of game {game_id}")

        def change(ruleset: Ruleset, state: GameState):
            removed = 0
            for piece in list(state.board.owned_by(row.name)):
                state.board.remove(piece.id)
                removed += 1
            if row.name in state.players:
                state.players[row.name].status = "resigned"
            why = f" ({reason[:300]})" if reason else ""
            return (f"{row.name} was removed from the game{why}; {removed} pieces left the board",
                    {"player": row.name, "user": user_id, "pieces": removed, "reason": reason[:300]})
        async def also(q, game: Game) -> None:
            await q.set_player_status(game.id, user_id, "kicked", "kicked")
            order = await q.live_order(game.id, game.update_no, user_id)
            if order is not None:
                await q.set_order_status(order.id, "cancelled")
        return await self._edit(game_id, actor, "kick", change, also=also)

    def event_names(self) -> list[str]:
        """Every event a moderator may start or stop, by name, in alphabetical order (what
        ``/mod event`` offers as it is typed)."""
        return sorted(EVENTS)

    async def announce(self, game_id: int, *, actor: Moderator, text: str) -> int:
        """Post ``text`` in the game's channel, audited; refused when it would not show
        (:func:`~.names.clean_announcement`: a NUL, only zero-width characters)."""
        async with self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                actor_id = require_moderator(actor, game.guild_id, "announce in a game's channel")
                text = clean_announcement(text)
                await q.audit(game_id=game.id, actor=actor_id, action="announce", detail={"text": text}, at=self.now())
                return await self._post(q, game, game.update_no, "announcement", text)


#: what each edit is, in "only a moderator may ..." (its audit action -> words)
_EDITS = {"place": "place a piece", "remove": "remove a piece", "move": "move a piece",
          "balance": "set a player's balance", "event_start": "start an event", "event_stop": "stop an event",
          "kick": "remove a player from a game"}


def _names(ruleset: Ruleset, pieces) -> str:
    words = []
    for piece in pieces:
        whose = f"{piece.owner}'s" if piece.owner else "a neutral"
        words.append(f"{whose} {ruleset.kind(piece.kind).name}")
    return " and ".join(words)


def _event_name(text: str) -> str:
    for name in EVENTS:
        if name.casefold() == " ".join(str(text).split()).casefold():
            return name
    raise InvalidInput(f"unknown event {str(text)[:40]!r}", hint=f"the events are: {', '.join(sorted(EVENTS))}")
