"""Betza movement notation: the dialect of RULES.md section 7.

A Betza string describes how a piece moves as a sequence of *atoms*, each optionally preceded by
modifiers and followed by a range::

    fmWfcFifmnD      a neisg pawn: forward step, forward diagonal capture, first-move double step
    mKcNcD           the hunter: moves as a king, captures as a knight or an orthogonal 2-leap
    NB2D             the spider: knight, bishop up to 2 squares, orthogonal 2-leap

Atoms (upper case):

* leapers ``W`` (1,0), ``F`` (1,1), ``D`` (2,0), ``A`` (2,2), ``N`` (2,1), ``C`` (3,1, camel),
  ``H`` (3,0), ``G`` (3,3), ``Z`` (3,2, zebra) and ``K`` (= ``WF``);
* riders ``R`` (= ``WW``), ``B`` (= ``FF``), ``Q`` (= ``RB``); any doubled leaper letter is a rider
  of that leap (``NN`` is the nightrider);
* a number after an atom limits it to that many steps (``R6``, ``B2``, ``Q7``; ``W3`` = ``R3``).

Modifiers (lower case, before the atom they qualify):

* ``m`` moves only, ``c`` captures only (neither: both);
* ``i`` only on the piece's first move (it has never moved);
* ``n`` non-leaping: a straight leap (``D`` ``A`` ``H`` ``G``) is blocked by a piece on a square
  it passes over;
* directions, relative to the side's forward (+y): ``f`` forward, ``b`` backward, ``l`` left,
  ``r`` right, ``v`` vertical, ``s`` sideways; ``fl``, ``fr``, ``bl``, ``br`` name a diagonal
  (on an orthogonal atom, where no move is both, they mean either); doubled ``ff``, ``bb``,
  ``ll``, ``rr`` take only the narrow moves of an oblique atom (``ffN``: the two steep forward
  knight moves). Several direction groups add up (``fbW`` = forward and backward).

Parsing is strict: an unknown letter, a modifier with no atom after it, or a modifier that does not
apply raises :class:`BetzaError` pointing at the offending character.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

__all__ = ["BetzaError", "Ray", "Movement", "parse_betza", "describe_betza", "LEAPS"]

#: The basic leap of each leaper letter, as (long, short) offsets.
LEAPS: dict[str, tuple[int, int]] = {
    "W": (1, 0),
    "F": (1, 1),
    "D": (2, 0),
    "A": (2, 2),
    "N": (2, 1),
    "C": (3, 1),
    "H": (3, 0),
    "G": (3, 3),
    "Z": (3, 2),
}

#: Compound letters: each expands into leapers, riding or not.
_COMPOUNDS: dict[str, tuple[tuple[str, bool], ...]] = {
    "K": (("W", False), ("F", False)),
    "R": (("W", True),),
    "B": (("F", True),),
    "Q": (("W", True), ("F", True)),
}

_DIRECTION_LETTERS = frozenset("fblrvs")
_OTHER_MODIFIERS = frozenset("mcin")


class BetzaError(ValueError):
    """A Betza string that cannot be read; ``position`` is the index of the offending character."""

    def __init__(self, text: str, position: int, message: str) -> None:
        self.text = text
        self.position = position
        self.reason = message
        pointer = " " * position + "^"
        super().__init__(f"{message} at position {position + 1} of Betza {text!r}\n  {text}\n  {pointer}")


@dataclass(frozen=True, slots=True)
class Ray:
    """One direction of movement: ``step`` repeated up to ``range`` times (``None``: unlimited).

    A leap has ``range == 1``. ``lame`` leaps need the squares they pass over (``path``) to be free.
    """

    step: tuple[int, int]
    range: int | None
    move: bool
    capture: bool
    initial: bool = False
    lame: bool = False

    @property
    def path(self) -> tuple[tuple[int, int], ...]:
        """Offsets a lame straight leap passes over, from its origin (empty unless ``lame``)."""
        if not self.lame:
            return ()
        dx, dy = self.step
        length = max(abs(dx), abs(dy))
        ux, uy = _sign(dx), _sign(dy)
        return tuple((ux * j, uy * j) for j in range(1, length))

    @property
    def slides(self) -> bool:
        """True when the ray can be repeated (a rider), so pieces on its way block it."""
        return self.range is None or self.range > 1


@dataclass(frozen=True, slots=True)
class Movement:
    """The compiled movement of a piece kind: every ray it may use."""

    betza: str
    rays: tuple[Ray, ...]

    @property
    def moves(self) -> tuple[Ray, ...]:
        return tuple(r for r in self.rays if r.move)

    @property
    def captures(self) -> tuple[Ray, ...]:
        return tuple(r for r in self.rays if r.capture)

    @property
    def never_moves(self) -> bool:
        return not self.rays


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def _symmetries(long: int, short: int) -> list[tuple[int, int]]:
    """All distinct vectors obtained from a leap by reflection and rotation."""
    out: list[tuple[int, int]] = []
    for a, b in ((long, short), (short, long)):
        for sx in (1, -1):
            for sy in (1, -1):
                v = (a * sx, b * sy)
                if v not in out:
                    out.append(v)
    return out


def _kind_of_leap(long: int, short: int) -> str:
    if short == 0:
        return "orthogonal"
    if long == short:
        return "diagonal"
    return "oblique"


def _direction_test(token: str, leap_kind: str):
    """A predicate on (dx, dy) for one direction token, forward being +y."""
    single = {
        "f": lambda dx, dy: dy > 0,
        "b": lambda dx, dy: dy < 0,
        "l": lambda dx, dy: dx < 0,
        "r": lambda dx, dy: dx > 0,
        "v": lambda dx, dy: abs(dy) > abs(dx),
        "s": lambda dx, dy: abs(dx) > abs(dy),
    }
    if len(token) == 1:
        return single[token]
    a, b = token
    if a == b:  # narrow: the steep (f, b) or flat (l, r) half of an oblique atom
        base = single[a]
        steep = a in "fb"
        return lambda dx, dy: base(dx, dy) and ((abs(dy) > abs(dx)) if steep else (abs(dx) > abs(dy)))
    first, second = single[a], single[b]
    if leap_kind == "orthogonal":  # no orthogonal move is both: the pair means either
        return lambda dx, dy: first(dx, dy) or second(dx, dy)
    return lambda dx, dy: first(dx, dy) and second(dx, dy)


def _direction_tokens(text: str, letters: str, start: int) -> list[str]:
    """Group direction letters into tokens: pairs like ``fl`` and doubles like ``ff``."""
    tokens: list[str] = []
    i = 0
    while i < len(letters):
        a = letters[i]
        b = letters[i + 1] if i + 1 < len(letters) else ""
        if b and (a == b or (a in "fb" and b in "lr") or (a in "lr" and b in "fb")):
            if a == b and a in "vs":
                raise BetzaError(text, start + i, f"direction {a!r} doubled")
            tokens.append(a + b if a in "fb" or a == b else b + a)
            i += 2
        else:
            tokens.append(a)
            i += 1
    return tokens


@lru_cache(maxsize=512)
def parse_betza(text: str) -> Movement:
    """Compile a Betza string into a :class:`Movement`; raise :class:`BetzaError` when unreadable."""
    rays: dict[tuple, Ray] = {}
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        mod_start = i
        modifiers: list[tuple[str, int]] = []
        while i < n and text[i].islower():
            if text[i] not in _DIRECTION_LETTERS and text[i] not in _OTHER_MODIFIERS:
                raise BetzaError(text, i, f"unknown Betza modifier {text[i]!r}")
            modifiers.append((text[i], i))
            i += 1
        if i >= n:
            raise BetzaError(text, mod_start, "modifiers with no atom after them")
        atom_pos = i
        letter = text[i]
        if letter not in LEAPS and letter not in _COMPOUNDS:
            raise BetzaError(text, i, f"unknown Betza atom {letter!r} (known: {' '.join([*LEAPS, *_COMPOUNDS])})")
        i += 1
        if letter in LEAPS:
            riding = i < n and text[i] == letter
            if riding:
                i += 1
            parts = ((letter, riding),)
        else:
            if i < n and text[i] == letter:
                what = "is already a rider" if letter in "RBQ" else "is a compound of leaps (a riding king is Q)"
                raise BetzaError(text, i, f"{letter!r} {what} and cannot be doubled")
            parts = _COMPOUNDS[letter]
        digits_start = i
        while i < n and text[i].isdigit():
            i += 1
        limit: int | None = None
        if i > digits_start:
            limit = int(text[digits_start:i])
            if limit < 1:
                raise BetzaError(text, digits_start, "a range must be at least 1")
        _add_atom(rays, text, parts, modifiers, limit, atom_pos)
    return Movement(betza=text, rays=tuple(rays.values()))


def _add_atom(rays, text, parts, modifiers, limit, atom_pos) -> None:
    letters = [m for m, _ in modifiers]
    move = "m" in letters or "c" not in letters
    capture = "c" in letters or "m" not in letters
    initial = "i" in letters
    lame = "n" in letters
    direction_letters = "".join(m for m in letters if m in _DIRECTION_LETTERS)
    direction_start = next((p for m, p in modifiers if m in _DIRECTION_LETTERS), atom_pos)
    tokens = _direction_tokens(text, direction_letters, direction_start)
    for leaper, riding in parts:
        long, short = LEAPS[leaper]
        kind = _kind_of_leap(long, short)
        if lame and (riding or kind == "oblique" or long == 1):
            where = next(p for m, p in modifiers if m == "n")
            raise BetzaError(text, where, "'n' (non-leaping) applies only to straight leaps of 2 or more (D A H G)")
        tests = [_direction_test(t, kind) for t in tokens]
        ray_range = limit if riding or limit is not None else 1
        chosen = [v for v in _symmetries(long, short) if not tests or any(t(*v) for t in tests)]
        if not chosen:
            raise BetzaError(text, direction_start, f"the directions {direction_letters!r} select no move of {leaper!r}")
        for v in chosen:
            key = (v, ray_range, initial, lame)
            old = rays.get(key)
            if old is not None:
                rays[key] = Ray(v, ray_range, old.move or move, old.capture or capture, initial, lame)
            else:
                rays[key] = Ray(v, ray_range, move, capture, initial, lame)


# ----------------------------------------------------------------------------- plain words
_ATOM_WORDS = {
    "K": "as a king", "R": "as a rook", "B": "as a bishop", "Q": "as a queen", "N": "as a knight",
    "W": "one square orthogonally", "F": "one square diagonally",
    "D": "by a 2-square orthogonal leap", "A": "by a 2-square diagonal leap",
    "H": "by a 3-square orthogonal leap", "G": "by a 3-square diagonal leap",
    "C": "as a camel (a 3-and-1 leap)", "Z": "as a zebra (a 3-and-2 leap)",
}
_DIRECTION_WORDS = {"f": "forward", "b": "backward", "l": "to the left", "r": "to the right",
                    "v": "forward or backward", "s": "sideways", "fl": "forward-left", "fr": "forward-right",
                    "bl": "backward-left", "br": "backward-right", "ff": "steeply forward", "bb": "steeply backward",
                    "ll": "far to the left", "rr": "far to the right"}


@lru_cache(maxsize=256)
def describe_betza(text: str) -> str:
    """A Betza string in plain words, for refusals: ``mKcNcD`` -> "moves as a king; captures as a
    knight or by a 2-square orthogonal leap"; ``fmWfcF`` -> "moves one square forward; captures one
    square diagonally forward". The string must be valid (:func:`parse_betza` accepts it)."""
    groups: dict[str, list[str]] = {}
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        mods = ""
        while i < n and text[i].islower():
            mods += text[i]
            i += 1
        if i >= n:
            break
        letter = text[i]
        i += 1
        riding = i < n and text[i] == letter and letter in LEAPS
        if riding:
            i += 1
        start = i
        while i < n and text[i].isdigit():
            i += 1
        limit = text[start:i]
        if riding:
            phrase = f"riding the {letter} leap"
        else:
            phrase = _ATOM_WORDS.get(letter, letter)
        directions = "".join(m for m in mods if m in _DIRECTION_LETTERS)
        if directions:
            tokens = _direction_tokens(text, directions, 0)
            where = " or ".join(_DIRECTION_WORDS.get(t, t) for t in tokens)
            if letter == "W" and not riding:
                phrase = f"one square {where}"
            elif letter == "F" and not riding:
                phrase = f"one square diagonally {where}"
            elif letter in ("D", "H") and not riding:
                phrase = f"{'2' if letter == 'D' else '3'} squares {where}"
            else:
                phrase = f"{phrase} {where}"
        if limit:
            phrase += f" up to {limit} square{'s' if limit != '1' else ''}"
        if "n" in mods:
            phrase += " (not over a piece)"
        if "i" in mods:
            phrase += " on its first move"
        mode = "moves" if "m" in mods and "c" not in mods else "captures" if "c" in mods and "m" not in mods \
            else "moves and captures"
        groups.setdefault(mode, []).append(phrase)
    if not groups:
        return "never moves"
    return "; ".join(f"{mode} {_either(phrases)}" for mode, phrases in groups.items())


def _either(phrases: list[str]) -> str:
    return phrases[0] if len(phrases) == 1 else f"{', '.join(phrases[:-1])} or {phrases[-1]}"
