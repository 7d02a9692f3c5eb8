"""The score and the health board (RULES.md 4): one line per player, exactly as the forum posts it.

    12. Holo (Purple): 36 --- Health: 19 💖
    11. Aidan (Crimson/Yellow): 39 --- Health: 12 ❤️ +0 Regen, No King

Players are ranked by score (the sum of the costs of their pieces on the board, king 0), then by
the total value they captured, then by name.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from operator import attrgetter

from .model import format_amount
from .ruleset import Ruleset

__all__ = ["Standing", "standings", "health_board_lines", "piece_worth"]

#: The symbol after the balance: (with a king, without one).
_SYMBOLS = {"health": ("💖", "❤️"), "energy": ("⚡", "⚡"), "points": ("", "")}


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    name: str
    colour: str
    score: Fraction
    captured: Fraction
    balance: Fraction
    has_king: bool

    def line(self, currency: str) -> str:
        with_king, without = _SYMBOLS.get(currency, ("", ""))
        text = (f"{self.rank}. {self.name} ({self.colour}): {format_amount(self.score)} --- "
                f"{currency.capitalize()}: {format_amount(self.balance)}")
        symbol = with_king if self.has_king else without
        if symbol:
            text += f" {symbol}"
        if not self.has_king and currency == "health":
            text += " +0 Regen, No King"
        elif not self.has_king:
            text += " No King"
        return text


def piece_worth(ruleset: Ruleset, piece) -> Fraction:
    """A piece's worth in the score: its cost; an energy pawn's worth (D29); a host and its spirit."""
    return _worth(ruleset, piece.kind, piece.energy, piece.spirit)


def _worth(ruleset: Ruleset, kind: str, energy: bool, spirit: bool) -> Fraction:
    if energy:
        return ruleset.promotion.energy_worth
    worth = ruleset.pieces[kind].cost
    if spirit:
        worth += next((k.cost for k in ruleset.pieces.values() if k.has("spirit")), Fraction(0))
    return worth


#: what a piece's worth depends on
_WORTH_OF = attrgetter("kind", "energy", "spirit")


def standings(ruleset: Ruleset, state) -> list[Standing]:
    """Every player still in the game who has joined, ranked. A player's score is summed by kinds
    (how many pieces of each kind, times its worth): the same exact sum, without adding up 50,000
    fractions one piece at a time (a 1,000-player board)."""
    royal = ruleset.royal_letter
    worths: dict[tuple, Fraction] = {}         # a kind's worth, by _WORTH_OF
    rows = []
    for name, player in state.players.items():
        pieces = state.board.owned_by(name)
        if player.status != "active" or (not pieces and player.king_lost_at is None):
            continue
        counts = Counter(map(_WORTH_OF, pieces))
        whole, score = 0, Fraction(0)        # whole worths summed as integers, the others as fractions
        for key, count in counts.items():
            worth = worths.get(key)
            if worth is None:
                worth = worths[key] = Fraction(_worth(ruleset, *key))
            if worth.denominator == 1:
                whole += worth.numerator * count
            else:
                score += worth * count
        score += whole
        has_king = royal is None or any(key[0] == royal for key in counts)
        rows.append((score, player.captured, name, player, has_king))
    rows.sort(key=lambda r: (-r[0], -r[1], r[2]))
    return [Standing(i + 1, name, player.colour, score, captured, player.balance, has_king)
            for i, (score, captured, name, player, has_king) in enumerate(rows)]


def health_board_lines(ruleset: Ruleset, state) -> list[str]:
    currency = ruleset.economy.currency
    return [row.line(currency) for row in standings(ruleset, state)]
