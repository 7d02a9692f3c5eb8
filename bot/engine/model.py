"""Value types shared by the whole engine: squares, pieces and players."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from operator import attrgetter

__all__ = ["Square", "Piece", "Player", "CHECK_STATES", "PLAYER_STATUSES", "format_square", "format_amount", "counted", "amount_in",
           "COORDINATE_LIMIT"]

Square = tuple[int, int]

#: D1: any coordinate beyond this in absolute value is refused as input, whatever the ruleset.
COORDINATE_LIMIT = 1_000_000

CHECK_STATES = ("none", "fresh", "capturable", "spent")
PLAYER_STATUSES = ("active", "eliminated", "resigned")


def format_square(square: Square) -> str:
    """Squares are printed exactly as they are typed in orders: ``(x,y)``, no space."""
    return f"({square[0]},{square[1]})"


def counted(value: Fraction | int, noun: str, plural: str | None = None) -> str:
    """An amount with its noun, singular for exactly one ("1 point", "8 pieces", "1.5 points"):
    ``plural`` defaults to ``noun`` + "s"; a noun with no plural, like "health",
    passes itself as both."""
    plural = noun + "s" if plural is None else plural
    return f"{format_amount(value)} {noun if Fraction(value) == 1 else plural}"


def amount_in(value: Fraction | int, currency: str) -> str:
    """An amount of a ruleset's currency, as its plural name gives it ("points", "health"):
    "1 point", "2 points", "3 health"."""
    singular = currency[:-1] if currency.endswith("s") else currency
    return counted(value, singular, currency)


def format_amount(value: Fraction | int) -> str:
    """Balances and costs: whole numbers plainly, halves as ``5.5`` (exact arithmetic, RULES 3.1)."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    if value.denominator == 2:
        whole = abs(value.numerator) // 2
        sign = "-" if value < 0 else ""
        return f"{sign}{whole}.5"
    return f"{float(value):.2f}"


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece on the board. ``id`` is a handle only: no rule may depend on its value."""

    id: int
    kind: str                       # the primary letter in the ruleset's piece table
    owner: str | None               # None: neutral (obstacle, void, power-up, bonus piece)
    square: Square
    check: str = "none"             # none | fresh | capturable | spent (RULES 3.2)
    disabled: bool = False          # generated in this or the previous update
    moved: bool = False             # has ever moved
    energy: bool = False            # a pawn promoted to energy (rainbow aura)
    spirit: bool = False            # hosts its owner's spirit
    carrying: str | None = None     # the kind a harpy carries
    carrying_since: int | None = None
    fade: int = 0                   # megachess fade counter
    step_used: bool = False         # megachess bishop's one-time orthogonal step spent
    placed: int | None = None       # update in which the piece was placed

    def at(self, square: Square) -> "Piece":
        return replace(self, square=square)

    def with_check(self, check: str) -> "Piece":
        """``replace(self, check=check)``, about two and a half times as fast: after a big update
        step 10 changes the check state of tens of thousands of pieces (see _slot_copier)."""
        return _with_check(self, check)

    def enabled(self) -> "Piece":
        """``replace(self, disabled=False)``, as fast as :meth:`with_check`: step 9 enables every
        piece generated in the update before (a thousand after a big one)."""
        return _with_disabled(self, False)

    @property
    def canonical_key(self) -> tuple:
        """Canonical order (INTERFACES.md): owner name, then x, then y, then kind letter."""
        return (self.owner or "", self.square[0], self.square[1], self.kind)


def _slot_copier(cls: type, changed: str):
    """A function ``(obj, value)`` making a copy of obj whose field ``changed`` is value, for a frozen
    dataclass with slots. It fills the new object's slots through the class's own slot descriptors, as the
    generated ``__init__`` does through ``object.__setattr__`` once a field, but without a call by
    name for each field: the code is written out once, field by field, the way dataclasses writes
    ``__init__`` itself. Every slot is set, so a field added to the class is copied too."""
    setters = {f"_set_{name}": cls.__dict__[name].__set__ for name in cls.__slots__}
    lines = ["def copy(obj, value):", "    new = _new(_cls)"]
    lines += [f"    _set_{name}(new, {'value' if name == changed else 'obj.' + name})" for name in cls.__slots__]
    lines.append("    return new")
    namespace = {"_new": object.__new__, "_cls": cls, **setters}
    exec("\n".join(lines), namespace)
    return namespace["copy"]


_with_check = _slot_copier(Piece, "check")
_with_disabled = _slot_copier(Piece, "disabled")


@dataclass(slots=True)
class Player:
    """A player of one game. Balances are exact (halves happen: Spirit 5.5)."""

    name: str
    colour: str
    balance: Fraction = Fraction(0)
    captured: Fraction = Fraction(0)
    status: str = "active"
    team: str | None = None
    king_lost_at: int | None = None
    king_lost_square: Square | None = None
    rejoin_after: int | None = None
    pending: tuple[str, ...] = field(default_factory=tuple)

    def copy(self) -> "Player":
        """``replace(self)``, about four times as fast: an update copies every player of the game
        (10,000 in the largest), whether they ordered or not."""
        return Player(*_player_values(self))


_player_values = attrgetter(*Player.__slots__)   # every field, in the order of the constructor
