"""What a territory game keeps besides the board (RULES.md 5.4.3, 5.4.4): the territory part of a GameState.

The pool's 40 pieces are each in exactly one place: the bag, the draft area, a reserve or the board.
Reserves, the draft area and the bag are multisets, kept as tuples of kinds in canonical order
(code-point order of the primary abbreviations, 5.4.3). Mirror copies are marked by the ids of their
pieces on the board (ids are handles: which piece, never a number a rule reads). The turn number and
its slot are the state's ``update``: turn T takes slot (T-1) mod L (T2).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping

__all__ = ["TerritoryState", "canonical"]


def canonical(kinds: Iterable[str]) -> tuple[str, ...]:
    """A multiset of kinds in canonical order (5.4.3)."""
    return tuple(sorted(kinds))


@dataclass(frozen=True, slots=True)
class TerritoryState:
    """Reserves (player name -> kinds), the draft area, the bag, the Mirror copies on the board, the
    count of quiet turns in a row (T10), and how the game ended: ``winners`` (one name: a
    resignation never draws, T42) or ``drawn``, with ``ended`` saying why in words."""

    reserves: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    draft_area: tuple[str, ...] = ()
    bag: tuple[str, ...] = ()
    copies: frozenset[int] = frozenset()
    quiet: int = 0
    winners: tuple[str, ...] = ()
    drawn: bool = False
    ended: str = ""

    @property
    def over(self) -> bool:
        return bool(self.winners) or self.drawn

    def reserve(self, player: str) -> tuple[str, ...]:
        return self.reserves.get(player, ())

    def with_changes(self, **changes) -> "TerritoryState":
        """A copy with some fields changed; multisets given in any order are put in canonical order."""
        for key in ("draft_area", "bag"):
            if key in changes:
                changes[key] = canonical(changes[key])
        if "reserves" in changes:
            changes["reserves"] = {name: canonical(kinds) for name, kinds in sorted(changes["reserves"].items())}
        if "copies" in changes:
            changes["copies"] = frozenset(changes["copies"])
        return replace(self, **changes)

    # ------------------------------------------------------------------ JSON (engine/serialize.py)
    def to_json(self) -> dict:
        return {"reserves": {name: list(kinds) for name, kinds in sorted(self.reserves.items())},
                "draft_area": list(self.draft_area), "bag": list(self.bag), "copies": sorted(self.copies),
                "quiet": self.quiet, "winners": list(self.winners), "drawn": self.drawn, "ended": self.ended}

    @classmethod
    def from_json(cls, raw: dict) -> "TerritoryState":
        return cls(reserves={str(name): canonical(kinds) for name, kinds in raw.get("reserves", {}).items()},
                   draft_area=canonical(raw.get("draft_area", ())), bag=canonical(raw.get("bag", ())),
                   copies=frozenset(int(i) for i in raw.get("copies", ())), quiet=int(raw.get("quiet", 0)),
                   winners=tuple(raw.get("winners", ())), drawn=bool(raw.get("drawn", False)),
                   ended=str(raw.get("ended", "")))
