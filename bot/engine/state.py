"""The state of one game between two updates: players, board and the memory of the last update."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from .board import Board, Bounds
from .model import Piece, Player, Square
from .movement import Position
from .ruleset import Ruleset
from .territory.state import TerritoryState

__all__ = ["GameState", "ActiveEvent", "LastMove", "PowerUp"]


@dataclass(frozen=True, slots=True)
class ActiveEvent:
    name: str
    started: int            # the update at whose step 8 it was drawn


@dataclass(frozen=True, slots=True)
class LastMove:
    """A move made in the previous update (Variety, the time thief)."""

    origin: Square
    target: Square


@dataclass(frozen=True, slots=True)
class PowerUp:
    kind: str               # new | upgrade | king
    at: Square
    piece: str | None = None


@dataclass(slots=True)
class GameState:
    """Everything the engine needs to resolve the next update.

    ``update`` is the number of the update the pending orders are for. ``players`` is keyed by name.
    """

    board: Board
    players: dict[str, Player] = field(default_factory=dict)
    update: int = 1
    implosions: frozenset[Square] = frozenset()
    moved_last_update: tuple[LastMove, ...] = ()
    length: int | None = None
    events: tuple[ActiveEvent, ...] = ()
    past_events: tuple[str, ...] = ()
    powerups: tuple[PowerUp, ...] = ()
    marked: tuple[Square, ...] = ()
    #: the players seated before the start, in seat order (arena, territory); empty where players
    #: join a running game by placing a king (neisg, sandbox, megachess)
    seats: tuple[str, ...] = ()
    next_id: int = 1
    #: True when every piece's check state was computed by the engine from the previous update, so
    #: step 10 may update check states incrementally; a hand-made position (a scenario) is False.
    checks_consistent: bool = False
    #: a territory game's reserves, draft area, bag, Mirror copies, quiet turns and result (RULES 5.4);
    #: None in every other family
    territory: TerritoryState | None = None

    def new_piece_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def pieces_of(self, owner: str) -> list[Piece]:
        return sorted(self.board.owned_by(owner), key=lambda p: p.canonical_key)

    def teams(self) -> dict[str, str]:
        return {p.name: p.team for p in self.players.values() if p.team}

    def position(self, ruleset: Ruleset) -> Position:
        """This state as seen by movement queries (effects of abilities and events are added by
        the rules that own them)."""
        return Position(ruleset, self.board, teams=self.teams())

    @classmethod
    def build(cls, ruleset: Ruleset, pieces: Iterable[dict], players: Iterable[Player] = (),
              bounds: Bounds | None = None, **kwargs) -> "GameState":
        """A state from piece descriptions (dicts of :class:`Piece` fields without ``id``)."""
        players = list(players)
        if bounds is None:
            bounds = ruleset.bounds_for(len(players))
        made = [Piece(id=number, **spec) for number, spec in enumerate(pieces, start=1)]
        return cls(board=Board(made, bounds=bounds), players={p.name: p for p in players}, next_id=len(made) + 1,
                   **kwargs)
