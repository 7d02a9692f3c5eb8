"""The score and the health board (RULES.md 4): one line per player, exactly as the forum posts it.

    12. Holo (Purple): 36 --- Health: 19 💖
    11. Aidan (Crimson/Yellow): 39 --- Health: 12 ❤️ +0 Regen, No King

Players are ranked by score (the sum of the costs of their pieces on the board, king 0), then by
the total value they captured, then by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
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
        text = (f"{self.rank}. {self.name} ({self.colour}): {_amount(self.score)} --- "
                f"{currency.capitalize()}: {_amount(self.balance)}")
        symbol = with_king if self.has_king else without
        if symbol:
            text += f" {symbol}"
        if not self.has_king and currency == "health":
            text += " +0 Regen, No King"
        elif not self.has_king:
            text += " No King"
        return text


def _amount(value) -> str:
    """``format_amount(value)``, a whole Fraction or int written without making a Fraction of it
    again (a line per player of a 1,000-player health board)."""
    if type(value) is int:
        return str(value)
    if type(value) is Fraction and value.denominator == 1:
        return str(value.numerator)
    return format_amount(value)


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


_ENERGY, _SPIRIT = attrgetter("energy"), attrgetter("spirit")


def standings(ruleset: Ruleset, state) -> list[Standing]:
    """Every player still in the game who has joined, ranked. The same exact scores as summing
    every piece's worth, in whole numbers: each worth is counted in a unit that makes every worth of
    the ruleset whole (a half, where a worth is a half), a player's score is each kind's plain worth
    times how many pieces of it they own (the board's counts: a few kinds a player, not their ~50
    pieces), corrected for the few energy pawns and spirit hosts on the board, whose worth is not
    their kind's alone, and the ranking compares whole numbers (a 1,000-player board: no fraction is
    added or compared)."""
    royal = ruleset.royal_letter
    board = state.board
    plain = {letter: Fraction(_worth(ruleset, letter, False, False)) for letter in ruleset.pieces}
    # the pieces whose worth is not their kind's: energy pawns are among the board's transient pieces
    # (they burst at the next update), spirit hosts are looked for on the whole board
    special = {id(piece): piece for piece in (*filter(_ENERGY, board.transient()), *filter(_SPIRIT, board))}.values()
    worths = {(piece.kind, piece.energy, piece.spirit): Fraction(piece_worth(ruleset, piece)) for piece in special}
    unit = lcm(*(worth.denominator for worth in (*plain.values(), *worths.values())))
    scaled = {letter: worth.numerator * (unit // worth.denominator) for letter, worth in plain.items()}
    extra: dict[str, int] = {}
    for piece in special:
        worth = worths[(piece.kind, piece.energy, piece.spirit)]
        extra[piece.owner] = (extra.get(piece.owner, 0) + worth.numerator * (unit // worth.denominator)
                              - scaled[piece.kind])
    rows = []
    for name, player in state.players.items():
        if player.status != "active":
            continue
        kinds = board.kinds_owned(name)
        if not kinds and player.king_lost_at is None:
            continue
        score = sum([scaled[letter] * count for letter, count in kinds.items()]) + extra.get(name, 0)
        rows.append((score, player.captured, name, player, royal is None or royal in kinds))
    # the captured amounts compared in one unit too
    by = lcm(*(row[1].denominator for row in rows)) if rows else 1
    rows.sort(key=lambda r: (-r[0], -r[1].numerator * (by // r[1].denominator), r[2]))
    return [Standing(i + 1, name, player.colour, Fraction(score) if unit == 1 else Fraction(score, unit), captured,
                     player.balance, has_king)
            for i, (score, captured, name, player, has_king) in enumerate(rows)]


def health_board_lines(ruleset: Ruleset, state) -> list[str]:
    currency = ruleset.economy.currency
    return [row.line(currency) for row in standings(ruleset, state)]
