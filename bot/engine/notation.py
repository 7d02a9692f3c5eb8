"""Order notation (RULES.md section 2): parsing what players type and printing the canonical form.

::

    line     := action [ "else" action ]
    action   := move | generate | resign
    move     := LETTERS [ coord "-" ] coord [ promote ]
    generate := "+" LETTERS coord
    promote  := "=" LETTERS | "=energy" | "=to energy"
    coord    := "(" INT "," INT ")"

Several lines of one submission are separated by newlines or ``;``. Spaces are allowed anywhere.
Parsing needs the ruleset only to read piece letters (D4: case-insensitive when unambiguous).

Errors follow python-chess: :class:`OrderSyntaxError`, :class:`IllegalOrderError` and
:class:`AmbiguousOrderError` all subclass :class:`OrderError` (a ``ValueError``) and carry the
offending ``span`` of the text, the ``reason`` in plain words, the ``rule`` that refused it and a
``hint`` showing how to write it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Union

from .model import COORDINATE_LIMIT, Square, format_square
from .ruleset import Ruleset

__all__ = ["Move", "Generate", "Resign", "Action", "Line", "Submission", "OrderError", "OrderSyntaxError",
           "IllegalOrderError", "AmbiguousOrderError", "parse_submission", "parse_line", "format_action",
           "format_line", "format_submission", "shown_text", "ENERGY", "MAX_ORDER_LENGTH", "Lexer", "LOOKALIKES"]

ENERGY = "energy"
#: Longer texts are refused before parsing: no order needs more, and a bot must not chew on 100 KB.
MAX_ORDER_LENGTH = 2000

FORMAT_HINT = "write a move as N(x,y) or N(x1,y1)-(x2,y2), a generation as +N(x,y)"


# ----------------------------------------------------------------------------- value types
@dataclass(frozen=True, slots=True)
class Move:
    """A move of the piece ``letter``; ``origin`` is None in the short form until validation
    resolves it (D5). ``promote`` is a letter or :data:`ENERGY`."""

    letter: str
    target: Square
    origin: Square | None = None
    promote: str | None = None


@dataclass(frozen=True, slots=True)
class Generate:
    """``+X(x,y)``: a generation, a king placement (``+K``), a harpy's drop or an obstacle."""

    letter: str
    square: Square


@dataclass(frozen=True, slots=True)
class Resign:
    pass


Action = Union[Move, Generate, Resign]


@dataclass(frozen=True, slots=True)
class Line:
    """One order line: an action and, optionally, its fallback (``A else B``)."""

    action: Action
    fallback: Action | None = None
    span: tuple[int, int] = (0, 0)           # where the line stands in the submitted text
    action_span: tuple[int, int] = (0, 0)
    fallback_span: tuple[int, int] = (0, 0)

    def __eq__(self, other: object) -> bool:   # spans are where, not what
        return isinstance(other, Line) and (self.action, self.fallback) == (other.action, other.fallback)

    def __hash__(self) -> int:
        return hash((self.action, self.fallback))


@dataclass(frozen=True, slots=True)
class Submission:
    lines: tuple[Line, ...]


# ----------------------------------------------------------------------------- errors
def shown_text(text: str) -> str:
    """``text`` safe to print, one character for one so that a caret under it stays in place:
    blanks (tabs, carriage returns) become spaces, and characters that move or recolour what
    follows (ANSI escapes, bidi overrides and isolates) or print as nothing (other control and
    format characters) become U+FFFD."""
    return "".join(" " if c.isspace() else "\ufffd" if unicodedata.category(c)[0] in "CZ" and c != " " else c
                   for c in text)


class OrderError(ValueError):
    """An order that is refused. ``span`` is (start, end) in the submitted text."""

    kind = "order"

    def __init__(self, reason: str, text: str = "", span: tuple[int, int] | None = None, hint: str = "",
                 rule: str = "") -> None:
        self.reason, self.text, self.hint, self.rule = reason, text, hint, rule
        self.span = span if span is not None else (0, len(text))
        super().__init__(reason)

    @property
    def offending(self) -> str:
        return self.text[self.span[0]:self.span[1]]

    def describe(self) -> str:
        """The refusal as a player reads it: the reason, the text with the offending part
        underlined, and the hint."""
        lines = [self.reason]
        if self.text and "\n" not in self.text and len(self.text) <= 200:
            start, end = self.span
            lines.append(f"  {shown_text(self.text)}")
            lines.append("  " + " " * start + "^" * max(1, end - start))
        if self.hint:
            lines.append(f"Hint: {self.hint}")
        return "\n".join(lines)


class OrderSyntaxError(OrderError):
    """The text is not an order at all."""

    kind = "syntax"


class IllegalOrderError(OrderError):
    """A well-formed order that the rules refuse."""

    kind = "illegal"


class AmbiguousOrderError(OrderError):
    """A short form that several pieces could play (D5); ``candidates`` are their squares."""

    kind = "ambiguous"

    def __init__(self, reason: str, text: str = "", span: tuple[int, int] | None = None, hint: str = "",
                 rule: str = "D5", candidates: tuple[Square, ...] = ()) -> None:
        super().__init__(reason, text, span, hint, rule)
        self.candidates = candidates


# ----------------------------------------------------------------------------- printing
def format_action(action: Action) -> str:
    """The canonical form (INTERFACES.md): long form, no spaces, the primary letter."""
    if isinstance(action, Resign):
        return "resign"
    if isinstance(action, Generate):
        return f"+{action.letter}{format_square(action.square)}"
    text = action.letter
    if action.origin is not None:
        text += format_square(action.origin) + "-"
    text += format_square(action.target)
    if action.promote:
        text += f"={action.promote}"
    return text


def format_line(line: Line) -> str:
    if line.fallback is None:
        return format_action(line.action)
    return f"{format_action(line.action)} else {format_action(line.fallback)}"


def format_submission(submission: Submission) -> str:
    return "; ".join(format_line(line) for line in submission.lines)


# ----------------------------------------------------------------------------- parsing
# Look-alike characters players paste from phones and chat clients, mapped one to one so that
# spans still point at the right place.
_TRANSLATE = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\uff08": "(", "\uff09": ")",
                            "\uff0c": ",", "\uff1b": ";", "\uff0d": "-", "\uff0b": "+", "\u00a0": " ",
                            **{chr(0xFF10 + d): str(d) for d in range(10)}})   # full-width 0-9 (P51)

_WORD = re.compile(r"[^\s;]*")
#: The only digits of a coordinate (P51); everything else Unicode calls numeric is refused by name.
_DIGITS = frozenset("0123456789")
_EXPONENT = re.compile(r"\s*(\^|\*\*|[eE](?=[+\-]?[0-9]))\s*([+\-]?[0-9]+)")
_EXPONENT_STARTS = ("^", "*", "e", "E")
_CHESS_SQUARE = re.compile(r"^[KQRBNkqrbn]?[a-h]?[1-8]?x?[a-h][1-8](=[QRBNqrbn])?[+#]?$")
_CASTLING = re.compile(r"^(O-O(-O)?|0-0(-0)?)[+#]?$")


def parse_submission(text: str, ruleset: Ruleset, max_length: int = MAX_ORDER_LENGTH) -> Submission:
    """Parse every line of a submission (newline- or ``;``-separated); blank lines are skipped.
    ``max_length``: the longest submission read (P2; a whole army's orders may be longer, P72)."""
    if len(text) > max_length:
        raise OrderSyntaxError(f"an order is at most {max_length:,} characters; this one has {len(text):,}",
                               text[:80], (0, min(len(text), 80)), FORMAT_HINT, rule="P2")
    text = text.translate(_TRANSLATE)
    lines = []
    start = 0
    for piece in re.split(r"([\n;])", text + "\n"):
        if piece in ("\n", ";"):
            start += 1
            continue
        if piece.strip():
            lines.append(_Parser(text, ruleset, start, start + len(piece)).line())
        start += len(piece)
    if not lines:
        raise OrderSyntaxError("the order is empty", text, (0, len(text)), FORMAT_HINT, rule="RULES 2")
    return Submission(tuple(lines))


def parse_line(text: str, ruleset: Ruleset) -> Line:
    """Parse exactly one order line."""
    submission = parse_submission(text, ruleset)
    if len(submission.lines) != 1:
        second = submission.lines[1].span
        raise OrderSyntaxError("only one order line is expected here", text, second,
                               "send one line; several lines are for rulesets with several moves (D7)", rule="D7")
    return submission.lines[0]


def _power_beyond_limit(base: str, operator: str, exponent: str) -> bool:
    """Whether ``base^exponent`` (or ``base e exponent``) is beyond D1's limit, without computing
    huge powers (nor reading a huge exponent). A negative exponent gives no whole number and is not
    "beyond" anything."""
    if exponent.startswith("-"):
        return False
    digits = exponent.lstrip("+").lstrip("0")
    power = int(digits or "0") if len(digits) <= 3 else 1000
    base_value = int(base.lstrip("0") or "0") if len(base.lstrip("0")) <= 12 else COORDINATE_LIMIT + 1
    if operator in ("^", "**"):
        if base_value in (0, 1):
            return False
        return power > 64 or base_value ** power > COORDINATE_LIMIT
    return base_value != 0 and (power > 64 or base_value * 10 ** power > COORDINATE_LIMIT)


def _char_name(char: str) -> str:
    """The character's Unicode name in lower case, for refusals that point at one."""
    return unicodedata.name(char, f"U+{ord(char):04X}").lower()


class _Parser:
    """A small recursive-descent parser over text[start:end] that remembers positions."""

    def __init__(self, text: str, ruleset: Ruleset, start: int, end: int) -> None:
        self.text, self.ruleset, self.pos, self.end = text, ruleset, start, end
        self.line_start = start

    # ---------------------------------------------------------------- helpers
    def skip(self) -> None:
        while self.pos < self.end and self.text[self.pos] in " \t\r":
            self.pos += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < self.end else ""

    def error(self, reason: str, span: tuple[int, int], hint: str = FORMAT_HINT, rule: str = "RULES 2",
              cls=OrderSyntaxError) -> OrderError:
        return cls(reason, self.text, span, hint, rule)

    def trimmed(self, start: int, end: int) -> tuple[int, int]:
        """(start, end) without the blanks the parser skipped after the last token."""
        while end > start and self.text[end - 1] in " \t\r":
            end -= 1
        return start, end

    def word_at(self, pos: int) -> tuple[int, int]:
        end = _WORD.match(self.text, pos, self.end).end()
        return pos, max(end, pos + 1)

    # ---------------------------------------------------------------- grammar
    def line(self) -> Line:
        self.skip()
        line_start = self.pos
        if self.at_else():
            raise self.error("`else` needs an action before it", (self.pos, self.pos + 4),
                             "write A else B, for example R(12,15) else R(12,10)-(16,10)")
        a_start = self.pos
        action = self.action()
        a_span = self.trimmed(a_start, self.pos)
        fallback = None
        f_span = (0, 0)
        if self.peek():
            if self.at_else():
                else_span = (self.pos, self.pos + 4)
                self.pos += 4
                self.skip()
                f_start = self.pos
                if not self.peek() or self.at_else():
                    raise self.error("`else` must be followed by a fallback action",
                                     (self.pos, self.pos + 4) if self.peek() else else_span,
                                     "write A else B, for example R(12,15) else R(12,10)-(16,10)")
                fallback = self.action()
                f_span = self.trimmed(f_start, self.pos)
                if self.peek():
                    if self.text[self.pos:self.pos + 4].lower() == "else":
                        raise self.error("a fallback has no fallback of its own (D12)", self.word_at(self.pos),
                                         "one `else` per line", rule="D12")
                    raise self.error("unexpected text after the fallback", self.word_at(self.pos))
            else:
                raise self.error("unexpected text after the order", self.word_at(self.pos),
                                 "one action per line; a fallback is written `A else B`")
        return Line(action, fallback, self.trimmed(line_start, self.pos), a_span, f_span)

    def at_else(self) -> bool:
        return (self.text[self.pos:self.pos + 4].lower() == "else"
                and not self.text[self.pos + 4:self.pos + 5].isalnum())

    def check_chess_notation(self, start: int) -> None:
        word_span = self.word_at(start)
        word = self.text[word_span[0]:word_span[1]]
        if _CASTLING.match(word):
            raise self.error("castling does not exist here", word_span, "move the king and rook one order at a time",
                             rule="D4")
        if _CHESS_SQUARE.match(word) and "(" not in word:
            letter = word[0].upper() if len(word) > 2 and word[0] in "KQRBNkqrbn" else "P"
            raise self.error(f"chess notation such as {word!r} is not accepted (D4)", word_span,
                             f"write the piece letter and the square's coordinates: {letter}(x,y) "
                             f"or {letter}(x1,y1)-(x2,y2)", rule="D4")

    def action(self) -> Action:
        self.skip()
        start = self.pos
        self.check_chess_notation(start)
        rest = self.text[self.pos:self.end]
        if rest[:6].lower() == "resign" and not rest[6:7].isalnum():
            self.pos += 6
            return Resign()
        if self.peek() == "+":
            self.pos += 1
            letter = self.letters()
            square = self.coord()
            return Generate(letter, square)
        letter = self.letters()
        first = self.coord()
        origin, target = None, first
        if self.peek() == "-":
            self.pos += 1
            if self.peek() != "(":
                raise self.error("expected the target square after `-`", (self.pos, self.pos + 1))
            origin, target = first, self.coord()
        elif self.peek() == "(":
            raise self.error("two squares must be joined by `-`", (self.pos, self.pos + 1),
                             "write N(x1,y1)-(x2,y2): the piece's square, a dash, the target square")
        promote = None
        if self.peek() == "=":
            promote = self.promotion()
        if not letter:
            raise self.error("missing piece letter", (start, start + 1))
        return Move(letter, target, origin, promote)

    def letters(self) -> str:
        self.skip()
        start = self.pos
        while self.pos < self.end and (self.text[self.pos].isalpha() or self.text[self.pos] == "_"):
            self.pos += 1
        word = self.text[start:self.pos]
        if not word:
            found = self.text[start:start + 1] or "end of the order"
            raise self.error(f"expected a piece letter, found {found!r}", (start, start + 1))
        return self.resolve_letter(word, (start, self.pos))

    def resolve_letter(self, word: str, span: tuple[int, int]) -> str:
        matches = self.ruleset.match_letters(word)
        if len(matches) == 1:
            return matches[0]
        letters = " ".join(self.ruleset.letters)
        if len(matches) > 1:
            raise self.error(f"the letter {word!r} could mean {' or '.join(matches)} (D4)", span,
                             f"write one of {', '.join(matches)} with its exact capitals", rule="D4",
                             cls=AmbiguousOrderError)
        if re.fullmatch(r"[A-Za-z]+x[A-Za-z]*", word) or (len(word) > 1 and "x" in word[1:]):
            capturer = word.split("x")[0]
            raise self.error(f"{word!r} is chess capture notation, which is not accepted (D4)", span,
                             f"a capture is written as a move onto the enemy's square: {capturer}(x,y)", rule="D4")
        raise self.error(f"unknown piece letter {word!r} (D4)", span,
                         f"the {self.ruleset.name} letters are: {letters}", rule="D4", cls=IllegalOrderError)

    def coord(self) -> Square:
        self.skip()
        start = self.pos
        if self.peek() != "(":
            found = self.text[self.pos:self.pos + 1]
            if found in _DIGITS or found == "-":
                raise self.error("coordinates go in parentheses", self.word_at(self.pos),
                                 "write the square as (x,y), for example N(3,4)")
            raise self.error(f"expected a square like (3,4), found {found or 'the end of the order'!r}",
                             (self.pos, self.pos + 1))
        self.pos += 1
        x = self.integer()
        if self.peek() != ",":
            raise self.error("expected `,` between the two coordinates", (self.pos, self.pos + 1),
                             "write the square as (x,y)")
        self.pos += 1
        y = self.integer()
        if self.peek() != ")":
            raise self.error("expected `)` to close the square", (self.pos, self.pos + 1), "write the square as (x,y)")
        self.pos += 1
        del start
        return x, y

    def integer(self) -> int:
        """A whole number: an optional sign, blanks, then the ASCII digits 0-9 (P51). Any other
        character Unicode counts as a digit or a number (``²``, ``₃``, ``⑤``, ``٣``, ``½``) is
        refused pointing at it: ``int()`` reads some of them and not others, and a coordinate that
        looks like one number and means another is worse than a refusal."""
        self.skip()
        start = self.pos
        negative = False
        if self.pos < self.end and self.text[self.pos] in "+-":
            negative = self.text[self.pos] == "-"
            self.pos += 1
        self.skip()
        digits_start = self.pos
        while self.pos < self.end and self.text[self.pos] in _DIGITS:
            self.pos += 1
        digits = self.text[digits_start:self.pos]
        if self.pos < self.end and self.text[self.pos].isnumeric():
            self.refuse_numeral(self.pos)
        if not digits:
            raise self.error("expected a whole number", (start, start + 1), "coordinates are whole numbers: (3,-4)")
        # Exponents and decimals: say what is wrong instead of a generic syntax error.
        tail = self.text[self.pos:self.end]
        m = _EXPONENT.match(tail) if tail.lstrip()[:1] in _EXPONENT_STARTS else None
        if m:
            self.pos += m.end()
            if _power_beyond_limit(digits, m.group(1), m.group(2)):
                raise self.error(f"coordinates beyond ±{COORDINATE_LIMIT:,} are refused (D1)", (start, self.pos),
                                 "play near the action: the board is large but not that large", rule="D1",
                                 cls=IllegalOrderError)
            raise self.error("coordinates are whole numbers written out in digits", (start, self.pos),
                             "write the square as (x,y) with plain integers, for example (100,-3)")
        if tail[:1] == "." and tail[1:2].isnumeric():
            end = self.pos + 1
            while end < self.end and self.text[end].isnumeric():
                end += 1
            raise self.error("coordinates are whole numbers", (start, end), "write the square as (x,y) with integers")
        # At most MAX_ORDER_LENGTH digits, far below int()'s limit; still, count before converting.
        if len(digits.lstrip("0")) > 12 or int(digits) > COORDINATE_LIMIT:
            raise self.error(f"coordinates beyond ±{COORDINATE_LIMIT:,} are refused (D1)", (start, self.pos),
                             "play near the action: the board is large but not that large", rule="D1",
                             cls=IllegalOrderError)
        return -int(digits) if negative else int(digits)

    def refuse_numeral(self, pos: int) -> None:
        char = self.text[pos]
        raise self.error(f"{char!r} ({_char_name(char)}) is not a digit: write coordinates with 0-9",
                         (pos, pos + 1), "write the square as (x,y) with the digits 0-9, for example (3,-4)",
                         rule="P51")

    def promotion(self) -> str:
        start = self.pos
        self.pos += 1  # '='
        self.skip()
        word_start = self.pos
        while self.pos < self.end and self.text[self.pos].isalpha():
            self.pos += 1
        word = self.text[word_start:self.pos]
        if word.lower() == "to":
            self.skip()
            second_start = self.pos
            while self.pos < self.end and self.text[self.pos].isalpha():
                self.pos += 1
            if self.text[second_start:self.pos].lower() == ENERGY:
                return ENERGY
            raise self.error("`=to` must be followed by `energy`", (start, self.pos), "write =energy or =to energy")
        if word.lower() == ENERGY:
            return ENERGY
        if not word:
            raise self.error("`=` must be followed by the kind to promote to", (start, start + 1),
                             "write =Q, =Queen or =energy")
        return self.resolve_letter(word, (word_start, self.pos))


#: The lexer other notations build on (territory's, RULES 5.4.7): squares, whole numbers (D1, P51),
#: piece letters (D4) and errors with spans, over ``text[start:end]``.
Lexer = _Parser
#: The look-alike characters read as ASCII, one for one (P1): ``text.translate(LOOKALIKES)``.
LOOKALIKES = _TRANSLATE
