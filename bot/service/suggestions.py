"""Order suggestions as a player types (issue 28): ``/move``'s autocomplete.

:meth:`SuggestionCases.order_suggestions` answers what a player has typed so far with at most 25
orders they may send now, the most likely first. The rules stay the engine's: who may order now is
``variant.may_order``, the moves are the engine's legal destinations of each of the player's pieces
(:func:`bot.engine.validation.legal_destinations`, the squares validation would accept), and a
text that is not a plain move (a king placement, a generation, a fallback) is judged by
``variant.check`` exactly as ``/move`` would judge it.

- **Filtered by what is typed**: the last line (after the last ``;``) is matched, blanks aside and
  without regard to case, against the start of each move's canonical form (``N(35,2)-(37,3)``) and
  of its short form (``N(37,3)``: a knight to (37,3)); the earlier lines are kept as typed.
- **The most likely first**: the player's pieces nearest the first square typed (the piece's own,
  or the square it goes to), then by the canonical order; a piece's captures before its other moves.
- **Captures marked**: the label says what a move takes ("captures Bob's Rook").
- **Fast on a large board**: a piece's destinations are computed when first needed and kept per
  (game, snapshot revision, player), so every later keystroke reads them; the first keystrokes
  compute only the pieces they show. The work runs off the event loop and stops within a time
  budget, so an answer is always back within Discord's 3 seconds (``benchmarks/autocomplete.py``
  measures it on a 50,000-piece board).
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field

from bot.engine.model import Piece, Square, format_square

from .base import ServiceBase

__all__ = ["SuggestionCases", "Suggestion", "SUGGESTIONS", "CACHED_PLAYERS"]

#: Discord shows at most 25 choices; a choice's name and value are at most 100 characters
SUGGESTIONS = 25
_CHOICE_LENGTH = 100
#: how many (game, revision, player) move lists are kept
CACHED_PLAYERS = 512
#: the most time one answer spends computing destinations (the rest comes with the next keystroke)
_BUDGET_SECONDS = 1.0
_SQUARE = re.compile(r"\((-?[0-9]+),(-?[0-9]+)\)")
_LETTERS = re.compile(r"^\+?([A-Za-z]*)")


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One choice: ``value`` is the order ``/move`` receives, ``label`` what the player reads."""

    value: str
    label: str


@dataclass(slots=True)
class _Moves:
    """A player's pieces in one position and their moves, filled in as they are asked for."""

    position: object
    pieces: list[Piece]
    variant: object = None
    others: list[tuple[str, str]] = field(default_factory=list)   # placements, drafts: variant.other_orders
    moves: dict[int, list[tuple[str, str, bool, str]]] = field(default_factory=dict)   # piece id -> moves


def _whose(owner: str | None) -> str:
    return f"{owner}'s" if owner else "a neutral"


def _distance(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


class SuggestionCases(ServiceBase):
    async def order_suggestions(self, game_id: int, *, user_id: int, typed: str,
                                limit: int = SUGGESTIONS) -> list[Suggestion]:
        """At most ``limit`` orders the player may send now that complete ``typed`` (see the
        module); none when they may not order now (not a player, orders locked, not their turn)."""
        text = str(typed)[:1000]
        head, separator, last = text.rpartition(";")
        prefix = f"{head.strip()}; " if separator else ""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            if game.status != "running" or game.locked or game.snapshot_update is None:
                return []
            player = await q.player(game.id, user_id)
            if player is None or player.status != "joined":
                return []
            state = await self._working_state(q, game)
        variant = self.variant(game)
        if variant.may_order(state, player.name) is not None:
            return []
        key = (game.id, game.snapshot_update, game.snapshot_revision, player.name)
        moves = self._move_lists.get(key)
        if player.name not in variant.who_may_order(state):
            # they may send only what any update takes (megachess's other team: a join or `resign`,
            # D65): no move to offer; what they type is answered below with the check's reason
            moves = _Moves(None, [])
        elif moves is None:
            moves = await asyncio.to_thread(self._new_moves, game, state, player.name)
            self._move_lists[key] = moves
            while len(self._move_lists) > CACHED_PLAYERS:
                self._move_lists.popitem(last=False)
        else:
            self._move_lists.move_to_end(key)
        typed_key = "".join(last.split())
        found = await asyncio.to_thread(self._matching_moves, moves, state, typed_key, limit)
        suggestions = [Suggestion(prefix + value, label) for value, label in found
                       if len(prefix + value) <= _CHOICE_LENGTH]
        if typed_key and not separator and "resign".startswith(typed_key.casefold()) \
                and variant.check(state, player.name, "resign").ok:
            suggestions.insert(0, Suggestion("resign", "resign: leave the game; your pieces go at the update's end"))
        if typed_key:
            whole = prefix + typed_key
            checked = variant.check(state, player.name, text)
            if checked.ok and len(checked.canonical) <= _CHOICE_LENGTH:
                suggestions = [Suggestion(checked.canonical, f"{checked.canonical} (a valid order)"[:_CHOICE_LENGTH])] + [
                    s for s in suggestions if s.value != checked.canonical]
            elif not suggestions and checked.error is not None and len(whole) <= _CHOICE_LENGTH:
                # nothing completes it: say why /move would refuse it, and keep what was typed
                suggestions = [Suggestion(whole, f"Refused: {checked.error.reason}"[:_CHOICE_LENGTH])]
        return suggestions[:limit]

    def _new_moves(self, game, state, name: str) -> _Moves:
        cached = self._positions.get(game.id)
        position_key = (game.snapshot_update, game.snapshot_revision)
        if cached is not None and cached[0] == position_key and cached[1] is state.board:
            position = cached[2]
        else:
            position = self.position_for(self.ruleset(game), state)
            self._positions[game.id] = (position_key, state.board, position)
        variant = self.variant(game)
        return _Moves(position, state.pieces_of(name), variant, variant.other_orders(state, name))

    def _matching_moves(self, moves: _Moves, state, typed: str, limit: int) -> list[tuple[str, str]]:
        """``(value, label)`` of the moves that complete ``typed`` (one line, no blanks), the
        pieces nearest its first square first; stops at ``limit`` or when the time budget is spent."""
        folded = typed.casefold()
        letters = _LETTERS.match(typed).group(1).casefold()
        square = _SQUARE.search(typed)
        anchor = (int(square.group(1)), int(square.group(2))) if square and len(square.group(1)) < 9 \
            and len(square.group(2)) < 9 else None
        candidates = [p for p in moves.pieces if p.kind.casefold().startswith(letters)
                      or letters.startswith(p.kind.casefold())]
        if anchor is not None:
            candidates.sort(key=lambda p: _distance(p.square, anchor))
        found: list[tuple[str, str]] = []
        deadline = time.perf_counter() + _BUDGET_SECONDS
        for piece in candidates:
            listed = moves.moves.get(piece.id)
            if listed is None:
                if time.perf_counter() > deadline:
                    break
                listed = self._piece_moves(moves, state, piece)
                moves.moves[piece.id] = listed
            for canonical, short, _capture, label in listed:
                if canonical.casefold().startswith(folded) or short.casefold().startswith(folded):
                    found.append((canonical, label))
                    if len(found) >= limit:
                        return found
        for order, label in moves.others:       # placements and drafts (territory), after the moves
            if order.casefold().replace(" ", "").startswith(folded):
                found.append((order, label[:_CHOICE_LENGTH]))
                if len(found) >= limit:
                    break
        return found

    def _piece_moves(self, moves: _Moves, state, piece: Piece) -> list[tuple[str, str, bool, str]]:
        """``(canonical, short form, capture, label)`` of every legal plain move of ``piece``, its
        captures first."""
        ruleset = moves.position.ruleset
        origin = format_square(piece.square)
        listed = []
        for target in moves.variant.destinations(state, piece, position=moves.position):
            canonical = f"{piece.kind}{origin}-{format_square(target)}"
            others = [p for p in state.board.at(target) if p.id != piece.id]
            enemies = [p for p in others if p.owner != piece.owner]
            if enemies:
                taken = " and ".join(f"{_whose(p.owner)} {ruleset.kind(p.kind).name}" for p in enemies)
                label = f"{canonical} captures {taken}"
            elif others:
                label = f"{canonical} onto your {' and '.join(ruleset.kind(p.kind).name for p in others)}"
            else:
                label = canonical
            listed.append((canonical, f"{piece.kind}{format_square(target)}", bool(enemies), label[:_CHOICE_LENGTH]))
        listed.sort(key=lambda move: not move[2])          # captures first, otherwise in square order
        return listed
