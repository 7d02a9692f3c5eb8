"""Territory's notation (RULES.md 5.4.7): parsing a submission and printing its canonical echo.

::

    submission := "pass" | "resign" | part [ SEP part ]      SEP := ";" | newline
    part       := action | place | draft          at most one action (first) and one phase 2
    action     := KIND sq                          short move (D5)
                | KIND sq "-" sq { "-" sq }        move; further legs: Fire only
                | KIND sq "<>" sq [ "-" sq ]       Balance swap; Leaf swap, then its move
                | KIND sq "<" sq [ "-" sq ]        Moon pulls the piece on sq, then its move
                | KIND sq [ "-" sq ] ">" sq        Power's move, then it pushes the piece on sq
                | KIND sq [ "-" sq ] "&" sq "-" sq Wind's move, then it carries an ally from sq to sq
                | KIND sq "x" sq                   Wood captures on sq
                | KIND sq ":" action               Leadership gives the action
    place      := "+" KIND sq [ "+" sq ]           second square: Mirror's copy
    draft      := "draft" KIND { [","] KIND }

The lexer is the engine's own (``engine/notation.py``: squares, whole numbers, D1, P51, piece letters
with D4's matching). Parsing needs the position for nothing: it refuses only what no position could
accept, such as a form the kind lacks ("Fire has no swap"); the turn (``turn.py``) judges the rest.
:func:`format_submission` prints the canonical form, which parses back to itself (INTERFACES.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Union

from ..model import Square, format_square
from ..notation import (LOOKALIKES, MAX_ORDER_LENGTH, IllegalOrderError, Lexer, OrderError, OrderSyntaxError)
from ..ruleset import Ruleset
from .state import canonical

__all__ = ["Action", "Place", "Draft", "Part", "TurnSubmission", "parse_turn", "format_action", "format_part",
           "format_submission", "HINT", "FORMS"]

RULE = "RULES 5.4.7"
HINT = ("write an action such as Bal(0,-4)-(0,-2), then `;` and a placement such as +Sun(3,-5) or a draft "
        "such as `draft Bal, Fire`; or `pass`")

#: form -> (the ability that has it, its name in refusals, who has it: for "only ... ")
FORMS = {
    "swap": (("swap_enemy", "swap_ally"), "swap", "swap squares"),
    "pull": (("pull",), "pull", "pull"),
    "push": (("push",), "push", "push"),
    "carry": (("carry_ally",), "carry", "carry an ally"),
    "shot": (("ranged_capture",), "capture without moving (`x`)", "capture without moving"),
    "lead": (("delegate",), "way to give the action (`:`)", "give the action"),
    "legs": (("capture_chain",), "further legs", "move on after a capture"),
    "copy": (("mirror_copy",), "copy", "add a copy"),
}

Span = tuple[int, int]

#: T41: the words that are never written with a space inside them.
_KEYWORDS = ("pass", "resign", "draft", "cancel")
_BLANKS = " \t\r"
#: The most runs of letters a kind's name is looked for in when one of them is not a kind (T41):
#: `White Lo tus` is three.
_SPLIT_KIND_TOKENS = 3


def _tokens_from(text: str, pos: int, end: int, blank_first: bool = False) -> list[Span]:
    """The runs of letters from ``pos`` on, separated by blanks only (at most a kind's worth);
    ``blank_first``: ``pos`` is just after a run, so the first must follow a blank."""
    tokens: list[Span] = []
    while len(tokens) < _SPLIT_KIND_TOKENS:
        start = pos
        while pos < end and text[pos] in _BLANKS:
            pos += 1
        if (tokens or blank_first) and pos == start:
            break
        first = pos
        while pos < end and text[pos].isalpha():
            pos += 1
        if pos == first:
            break
        tokens.append((first, pos))
    return tokens


def _tokens_before(text: str, pos: int, start: int) -> list[Span]:
    """The runs of letters just before ``pos``, each separated from the next by blanks only, in order."""
    tokens: list[Span] = []
    while len(tokens) < _SPLIT_KIND_TOKENS - 1:
        end = pos
        while end > start and text[end - 1] in _BLANKS:
            end -= 1
        if end == pos:
            break
        first = end
        while first > start and text[first - 1].isalpha():
            first -= 1
        if first == end:
            break
        tokens.insert(0, (first, end))
        pos = first
    return tokens


# ----------------------------------------------------------------------------- values
@dataclass(frozen=True, slots=True)
class Action:
    """One piece's action. ``form``: move | swap | pull | push | carry | shot | lead.

    ``origin`` is None in the short form until the turn resolves it (D5, T31). ``moves`` are the
    piece's own move: its legs (Fire: several), the move after a swap or a pull, the move before a
    push or a carry. ``target`` is the square of the piece acted on (swapped with, pulled, pushed,
    carried from, shot at); ``to`` where a carry puts it; ``delegate`` the action a Leadership gives.
    ``spans`` say where each part was written (``kind``, ``origin``, ``target``, ``to``, ``move0``, ...)."""

    form: str
    kind: str
    origin: Square | None
    moves: tuple[Square, ...] = ()
    target: Square | None = None
    to: Square | None = None
    delegate: "Action | None" = None
    span: Span = field(default=(0, 0), compare=False)
    spans: tuple[tuple[str, Span], ...] = field(default=(), compare=False)

    def where(self, name: str) -> Span:
        """Where ``name`` (``origin``, ``target``, ``move1``, ...) was written; the whole action if nowhere."""
        return next((span for key, span in self.spans if key == name), self.span)


@dataclass(frozen=True, slots=True)
class Place:
    """``+KIND sq [+ sq]``: a reserve piece placed on ``square``; ``copy``: Mirror's copy's square."""

    kind: str
    square: Square
    copy: Square | None = None
    span: Span = field(default=(0, 0), compare=False)
    spans: tuple[tuple[str, Span], ...] = field(default=(), compare=False)

    def where(self, name: str) -> Span:
        return next((span for key, span in self.spans if key == name), self.span)


@dataclass(frozen=True, slots=True)
class Draft:
    """``draft KIND, KIND``: kinds from the draft area to the reserve, as written."""

    kinds: tuple[str, ...]
    span: Span = field(default=(0, 0), compare=False)


Part = Union[Action, Place, Draft]


@dataclass(frozen=True, slots=True)
class TurnSubmission:
    """A parsed submission: ``word`` is ``pass`` or ``resign`` (standing alone), else an optional
    action then an optional phase 2 (a placement or a draft). ``text`` is what was parsed (look-alike
    characters read as ASCII, P1), which the spans index."""

    text: str
    word: str | None = None
    action: Action | None = None
    phase2: Place | Draft | None = None

    @property
    def canonical(self) -> str:
        return format_submission(self)


# ----------------------------------------------------------------------------- printing
def format_action(action: Action) -> str:
    """The canonical form of an action (5.4.7): both squares, the primary abbreviation, no spaces."""
    text = action.kind
    if action.origin is not None:
        text += format_square(action.origin)
    if action.form == "move":
        squares = list(action.moves)
        if action.origin is None:
            return text + format_square(squares[0])
        return text + "".join("-" + format_square(s) for s in squares)
    if action.form == "lead":
        return text + ":" + format_action(action.delegate)
    if action.form == "shot":
        return text + "x" + format_square(action.target)
    moved = "".join("-" + format_square(s) for s in action.moves)
    if action.form == "swap":
        return text + "<>" + format_square(action.target) + moved
    if action.form == "pull":
        return text + "<" + format_square(action.target) + moved
    if action.form == "push":
        return text + moved + ">" + format_square(action.target)
    if action.form == "carry":
        return text + moved + "&" + format_square(action.target) + "-" + format_square(action.to)
    raise ValueError(f"unknown form {action.form!r}")


def format_part(part: Part) -> str:
    if isinstance(part, Action):
        return format_action(part)
    if isinstance(part, Place):
        return f"+{part.kind}{format_square(part.square)}" + (f"+{format_square(part.copy)}" if part.copy else "")
    return "draft " + ", ".join(canonical(part.kinds))


def format_submission(submission: TurnSubmission) -> str:
    """``pass``, ``resign``, or the action and the phase 2 joined by ``; ``."""
    if submission.word:
        return submission.word
    return "; ".join(format_part(p) for p in (submission.action, submission.phase2) if p is not None)


# ----------------------------------------------------------------------------- parsing
def parse_turn(text: str, ruleset: Ruleset) -> TurnSubmission:
    """Parse a submission; raise :class:`~bot.engine.notation.OrderError` (with its span) when it is
    not one. An empty submission (blank parts only) is refused here: the caller treats "no text"
    as no submission (D37) before asking."""
    if len(text) > MAX_ORDER_LENGTH:
        raise OrderSyntaxError(f"an order is at most {MAX_ORDER_LENGTH:,} characters; this one has {len(text):,}",
                               text[:80], (0, min(len(text), 80)), HINT, rule=RULE)
    text = text.translate(LOOKALIKES)
    parts: list[tuple[Part | str, Span]] = []
    start = 0
    for piece in re.split(r"([\n;])", text + "\n"):
        if piece in ("\n", ";"):
            start += 1
            continue
        if piece.strip():            # T38: empty parts (a trailing `;`) are ignored
            parts.append(_TurnLexer(text, ruleset, start, start + len(piece)).part())
        start += len(piece)
    if not parts:
        raise OrderSyntaxError("the submission is empty", text, (0, len(text)), HINT, rule=RULE)
    words = [(p, span) for p, span in parts if isinstance(p, str)]
    if words:
        word, span = words[0]
        if len(parts) > 1:
            other = next(s for p, s in parts if (p, s) != (word, span))
            raise OrderSyntaxError(f"`{word}` stands alone: it is the whole submission (T38)", text, other,
                                   f"send `{word}` by itself", rule="T38")
        return TurnSubmission(text, word=word)
    action = phase2 = None
    for part, span in parts:
        if isinstance(part, Action):
            if action is not None:
                raise OrderSyntaxError("one action per turn: move one piece or use one piece's ability (RULES 5.4)",
                                       text, span, HINT, rule="RULES 5.4")
            if phase2 is not None:
                raise OrderSyntaxError("the action comes first, then the placement or the draft (RULES 5.4.7)",
                                       text, span, HINT, rule=RULE)
            action = part
        else:
            if phase2 is not None:
                raise OrderSyntaxError("one phase 2 per turn: place one reserve piece or draft, not both (RULES 5.4)",
                                       text, span, HINT, rule="RULES 5.4")
            phase2 = part
    return TurnSubmission(text, action=action, phase2=phase2)


class _TurnLexer(Lexer):
    """The engine's lexer with 5.4.7's grammar on top; its errors cite RULES 5.4.7 by default."""

    def error(self, reason: str, span: Span, hint: str = HINT, rule: str = RULE, cls=OrderSyntaxError) -> OrderError:
        if rule == "RULES 2":
            rule = RULE
        return cls(reason, self.text, span, hint, rule)

    # ---------------------------------------------------------------- T41: no space inside a word
    def refuse_split_keyword(self, start: int) -> None:
        """``re sign``, ``pa ss``, ``dr aft``: a keyword written with spaces inside it (T41)."""
        tokens = _tokens_from(self.text, start, self.end)
        for count in range(2, len(tokens) + 1):
            joined = "".join(self.text[a:b] for a, b in tokens[:count]).lower()
            if joined in _KEYWORDS:
                span = (tokens[0][0], tokens[count - 1][1])
                raise self.error(f"`{joined}` is one word: no space inside it (T41)", span, f"write `{joined}`",
                                 rule="T41")

    def refuse_glued_draft(self, start: int) -> None:
        """``draftBal``: `draft` is one word followed by a space (T41)."""
        span = self.word_at(start)
        word = self.text[span[0]:span[1]]
        if word[:5].lower() == "draft" and len(word) > 5 and len(self.ruleset.match_letters(word[5:])) == 1:
            raise self.error("`draft` is a word of its own: a space follows it (T41)", span,
                             f"write `draft {word[5:]}`", rule="T41")

    def refuse_split_kind(self, span: Span) -> None:
        """A kind's abbreviation or alias written with spaces inside it (``B al``, ``Bal ance``,
        ``White Lotus``), found from one of its pieces (``span``): the runs of letters around it,
        separated by blanks only, joined into a kind (T41)."""
        before = _tokens_before(self.text, span[0], self.line_start)
        after = _tokens_from(self.text, span[1], self.end, blank_first=True)
        for width in range(2, _SPLIT_KIND_TOKENS + 1):
            for first in range(max(0, width - 1 - len(after)), min(width - 1, len(before)) + 1):
                tokens = before[len(before) - first:] + [span] + after[:width - 1 - first]
                if len(tokens) != width:
                    continue
                joined = "".join(self.text[a:b] for a, b in tokens)
                matches = self.ruleset.match_letters(joined)
                if len(matches) == 1:
                    written = self.text[tokens[0][0]:tokens[-1][1]]
                    name = self.kind_of(matches[0]).name
                    meant = matches[0] if name == matches[0] else f"{matches[0]} ({name})"
                    raise self.error(f"a kind is one word: {written!r} has a space inside it (T41)",
                                     (tokens[0][0], tokens[-1][1]), f"write {meant} without spaces", rule="T41")

    def letters(self) -> str:
        self.skip()
        start = self.pos
        try:
            letter = super().letters()
        except OrderError:
            end = start
            while end < self.end and (self.text[end].isalpha() or self.text[end] == "_"):
                end += 1
            if end > start:
                self.refuse_split_kind((start, end))
            raise
        if self.text[self.pos:self.pos + 1] in _BLANKS:       # `Bal ance(0,-4)`: a kind, a space, letters
            after = _tokens_from(self.text, self.pos, self.end, blank_first=True)
            # the letters that follow may be the next kind of a draft (`draft Bal Fire`)
            if after and len(self.ruleset.match_letters(self.text[after[0][0]:after[0][1]])) != 1:
                self.refuse_split_kind((start, self.pos))
        return letter

    def at_word(self, word: str) -> bool:
        self.skip()
        end = self.pos + len(word)
        return self.text[self.pos:end].lower() == word and not self.text[end:end + 1].isalnum()

    def part(self) -> tuple[Part | str, Span]:
        self.skip()
        start = self.pos
        self.refuse_split_keyword(start)
        self.refuse_glued_draft(start)
        for word in ("pass", "resign"):
            if self.at_word(word):
                self.pos += len(word)
                self.finish("`" + word + "`")
                return word, (start, self.pos)
        if self.at_word("cancel"):
            raise self.error("`cancel` does not exist in territory: your first accepted submission ends your turn "
                             "(T25)", (start, start + len("cancel")), "send the submission you mean to play",
                             rule="T25", cls=IllegalOrderError)
        if self.peek() == "+":
            part: Part = self.place()
        elif self.at_word("draft"):
            part = self.draft()
        else:
            self.check_chess_notation(start)
            part = self.action()
        self.finish("the " + ("placement" if isinstance(part, Place) else "draft" if isinstance(part, Draft)
                              else "action"))
        return part, self.trimmed(start, self.pos)

    def finish(self, what: str) -> None:
        if self.peek():
            raise self.error(f"unexpected text after {what}", self.word_at(self.pos),
                             "separate the action and the placement or draft with `;`")

    def kind_of(self, letter: str):
        return self.ruleset.pieces[letter]

    def square(self, spans: list, name: str) -> Square:
        self.skip()
        start = self.pos
        square = self.coord()
        spans.append((name, (start, self.pos)))
        return square

    def refuse_form(self, letter: str, form: str, span: Span) -> OrderError:
        abilities, words, verb = FORMS[form]
        having = [k.name for k in self.ruleset.pieces.values() if any(k.has(a) for a in abilities)]
        only = (f": only {' and '.join(having)} can {verb}" if having else "")
        return self.error(f"{self.kind_of(letter).name} has no {words}{only} (RULES 5.4.7)", span,
                          rule=RULE, cls=IllegalOrderError)

    def check_form(self, letter: str, form: str, span: Span) -> None:
        abilities = FORMS[form][0]
        if not any(self.kind_of(letter).has(a) for a in abilities):
            raise self.refuse_form(letter, form, span)

    # ---------------------------------------------------------------- parts
    def place(self) -> Place:
        start = self.pos
        self.pos += 1     # '+'
        spans: list = []
        kind_start = self.pos
        letter = self.letters()
        spans.append(("kind", self.trimmed(kind_start, self.pos)))
        square = self.square(spans, "square")
        copy = None
        if self.peek() == "+":
            plus = self.pos
            self.pos += 1
            if self.peek() != "(":
                raise self.error("expected the copy's square after `+`", (self.pos, self.pos + 1),
                                 "write +Mir(0,-5)+(1,-4): the Mirror's square, then its copy's")
            copy = self.square(spans, "copy")
            self.check_form(letter, "copy", (plus, self.pos))
        return Place(letter, square, copy, self.trimmed(start, self.pos), tuple(spans))

    def draft(self) -> Draft:
        start = self.pos
        self.pos += len("draft")
        kinds = []
        while True:
            self.skip()
            if self.peek() == ",":
                if not kinds:
                    raise self.error("expected a kind after `draft`", (self.pos, self.pos + 1),
                                     "write draft Bal, Fire, Ice")
                self.pos += 1
                self.skip()
                if not self.peek():
                    raise self.error("expected a kind after `,`", (self.pos - 1, self.pos), "write draft Bal, Fire, Ice")
            if not self.peek():
                break
            if not (self.text[self.pos].isalpha()):
                raise self.error(f"expected a kind, found {self.text[self.pos]!r}", (self.pos, self.pos + 1),
                                 "write draft Bal, Fire, Ice: kinds separated by commas or spaces (T38)")
            kinds.append(self.letters())
        if not kinds:
            raise self.error("`draft` names the kinds to take", (start, self.pos), "write draft Bal, Fire, Ice")
        return Draft(tuple(kinds), self.trimmed(start, self.pos))

    def action(self) -> Action:
        self.skip()
        start = self.pos
        spans: list = []
        letter = self.letters()
        spans.append(("kind", self.trimmed(start, self.pos)))
        origin = self.square(spans, "origin")
        kind = self.kind_of(letter)
        sign = self.operator()
        if sign == "":
            self.check_moves(letter, (start, self.pos))
            return Action("move", letter, None, (origin,), span=self.trimmed(start, self.pos),
                          spans=(("kind", spans[0][1]), ("move0", spans[1][1])))
        if sign == "(":
            raise self.error("two squares must be joined by `-`", (self.pos, self.pos + 1),
                             "write Bal(0,-4)-(0,-2): the piece's square, a dash, the target square")
        moves: list[Square] = []
        if sign == "-":
            self.pos += 1
            moves.append(self.square(spans, "move0"))
            while self.operator() == "-":
                self.pos += 1
                moves.append(self.square(spans, f"move{len(moves)}"))
            sign = self.operator()
            legs = (dict(spans)["move1"][0], self.pos) if len(moves) > 1 else None   # the further legs
            if sign == "":
                self.check_moves(letter, (start, self.pos))
                if legs:
                    self.check_form(letter, "legs", legs)
                return Action("move", letter, origin, tuple(moves), span=self.trimmed(start, self.pos),
                              spans=tuple(spans))
            if legs:
                self.check_form(letter, "legs", legs)
            if sign not in (">", "&"):
                raise self.error(f"`{sign}` cannot follow the piece's move: a push (`>`) or a carry (`&`) can",
                                 (self.pos, self.pos + len(sign)), HINT)
        form = {"<>": "swap", "<": "pull", ">": "push", "&": "carry", "x": "shot", ":": "lead"}[sign]
        op_span = (self.pos, self.pos + len(sign))
        self.check_form(letter, form, op_span)
        self.pos += len(sign)
        if form == "lead":
            self.skip()
            delegate_start = self.pos
            delegate = self.action()
            if self.kind_of(delegate.kind).has("delegate"):
                raise self.error("a Leadership gives the action to an allied piece that is not a Leadership (T17)",
                                 (delegate_start, self.pos), rule="T17", cls=IllegalOrderError)
            spans.append(("delegate", (delegate_start, self.pos)))
            return Action("lead", letter, origin, delegate=delegate, span=self.trimmed(start, self.pos),
                          spans=tuple(spans))
        target = self.square(spans, "target")
        to = None
        if form == "carry":
            if self.operator() != "-":
                raise self.error("a carry names the ally's square, a dash, and where it goes", (self.pos, self.pos + 1),
                                 "write Wind(1,-4)-(1,-3)&(-4,-5)-(0,-2)")
            self.pos += 1
            to = self.square(spans, "to")
        if form in ("swap", "pull") and self.operator() == "-":
            dash = self.pos
            self.pos += 1
            moves.append(self.square(spans, "move0"))
            if form == "swap" and not kind.has("swap_ally"):
                raise self.error(f"a {kind.name}'s swap is its whole action: it has no move after it (RULES 5.4.6)",
                                 (dash, self.pos), rule="RULES 5.4.6", cls=IllegalOrderError)
            self.check_moves(letter, (dash, self.pos))
        return Action(form, letter, origin, tuple(moves), target, to, span=self.trimmed(start, self.pos),
                      spans=tuple(spans))

    def operator(self) -> str:
        """The next operator: ``-``, ``<>``, ``<``, ``>``, ``&``, ``x``, ``:``, ``(`` or ``""`` at the end."""
        char = self.peek()
        if char == "<":
            if self.text[self.pos + 1:self.pos + 2] == ">":
                return "<>"
            beyond = self.pos + 1
            while beyond < self.end and self.text[beyond] in _BLANKS:
                beyond += 1
            if beyond > self.pos + 1 and self.text[beyond:beyond + 1] == ">":
                raise self.error("`<>` is one sign: no space inside it (T41)", (self.pos, beyond + 1),
                                 "write the swap as Bal(0,-4)<>(3,2)", rule="T41")
            return "<"
        if char in ("x", "X"):
            return "x"
        if char in ("-", ">", "&", ":", "(", ""):
            return char
        raise self.error(f"unexpected {char!r} in the action", (self.pos, self.pos + 1), HINT)

    def check_moves(self, letter: str, span: Span) -> None:
        """A kind that never moves may not be written moving (Shadow's "move" is its jump, T19)."""
        kind = self.kind_of(letter)
        if kind.movement.never_moves and not kind.has("jump_to_ally"):
            raise self.error(f"{kind.name} does not move (RULES 5.4.6)", span, rule="RULES 5.4.6",
                             cls=IllegalOrderError)
