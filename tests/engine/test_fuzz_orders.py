"""Whatever a player types, checking it never raises: it is accepted, or refused with a reason (issue 19).

``check_order`` is what the bot runs on every order a player sends; an exception there is "something
went wrong" for the player and an error in the log for anyone who cares to type ``K(²,3)``. Each
order grammar is fuzzed in turn with

* arbitrary Unicode text, and
* texts shaped like the grammar's orders (piece letters and names, squares, `-`, `=`, `else`,
  `resign`, separators) with characters inserted, deleted or replaced, from a pool of the
  characters that broke parsers before: digits Unicode knows that ``int()`` reads or not (``²``,
  ``₃``, ``⑤``, ``٣``, full-width), blanks other than spaces, bidi controls, ANSI escapes,
  letters whose case changes their length.

A refusal must give a reason, name the rule, point inside (or just past) the text, and read
without control or format characters. An accepted
order's canonical form must be accepted again as itself (INTERFACES.md: parsing a canonical form
and printing it again gives the same text).

Adding a grammar (territory's notation, say) is one line in :data:`GRAMMARS`.

Counting fuzzed orders: the default example count keeps the suite fast. For a long run, set
``SKIRMISH_FUZZ_EXAMPLES`` and ask Hypothesis for its statistics, which count the passing examples::

    SKIRMISH_FUZZ_EXAMPLES=20000 .venv/bin/pytest -q tests/engine/test_fuzz_orders.py \\
        -p no:cacheprovider --hypothesis-show-statistics
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.model import Player
from bot.engine.notation import OrderError
from bot.engine.ruleset import Ruleset, load_preset
from bot.engine.state import GameState
from bot.engine.territory.state import TerritoryState
from bot.engine.validation import check_order
from bot.engine.variants import variant_for

EXAMPLES = int(os.environ.get("SKIRMISH_FUZZ_EXAMPLES", "150"))

#: Characters that broke or could break a hand-written lexer.
NASTY = ["²", "³", "₃", "⑤", "٣", "۵", "५", "０", "９", "½", "Ⅻ", "三", "𝟓",        # digits and numbers
         "\t", "\r", "\x0b", "\x0c", "\u00a0", "\u2003", "\u3000", "\u200b", "\ufeff",  # blanks
         "\u202e", "\u2066", "\u2069", "\x1b[31m", "\x1b", "\x00",                      # bidi, ANSI, NUL
         "\u2212", "\u2013", "\uff08", "\uff09", "\uff0c", "\uff1b", "\uff0d",          # look-alikes
         "İ", "ß", "ﬀ", "Ｎ", "ǅ", "\u0301", "\u3164",                                  # case and marks
         "`", "```", "*", "_", "~", "|", "@", "#", ">", "<", "\\", "e", "^", "**", ".", "..."]


@dataclass(frozen=True)
class Grammar:
    """One way players write orders: a name for the test id, texts shaped like its orders, and the
    check the bot runs on what a player sends (returns the refusal, or None when accepted)."""

    name: str
    shaped: st.SearchStrategy[str]
    check: Callable[[str], OrderError | None]
    recheck: Callable[[str], str | None] | None = None   # the canonical form, when accepted


def preset_state(ruleset: Ruleset) -> GameState:
    """Red and Blue with a piece of every kind near the origin, so fuzzed squares hit real pieces."""
    owned = [letter for letter in ruleset.letters if letter not in ("O", "V")]
    pieces = [dict(owner="Red", kind=letter, square=(i, 0)) for i, letter in enumerate(owned)]
    pieces += [dict(owner="Blue", kind=letter, square=(i, 3)) for i, letter in enumerate(owned)]
    players = [Player("Red", "Red", Fraction(50), team="A"), Player("Blue", "Blue", Fraction(50), team="B")]
    return GameState.build(ruleset, pieces, players)


def words_of(ruleset: Ruleset) -> list[str]:
    """Every way of naming a piece: letters and aliases, in any case."""
    words = []
    for kind in ruleset.pieces.values():
        for word in (kind.letter, *kind.aliases):
            words += [word, word.lower(), word.upper()]
    return words


NUMBER = st.one_of(st.integers(-3, 30).map(str), st.integers(-1_000_001, 1_000_001).map(str),
                   st.sampled_from(["+3", "- 3", "-\t5", "\u22124", "007", "1e7", "10^2", "2**40", "1.5", "9" * 30]))
BLANK = st.sampled_from(["", "", "", " ", "  ", "\t", "\r", "\u00a0"])


@st.composite
def order_line(draw, ruleset: Ruleset) -> str:
    """One line: move, generation or resignation, maybe with a fallback, blanks between tokens."""
    words = words_of(ruleset)

    def square() -> str:
        return f"({draw(BLANK)}{draw(NUMBER)}{draw(BLANK)},{draw(BLANK)}{draw(NUMBER)}{draw(BLANK)})"

    def action() -> str:
        shape = draw(st.sampled_from(["short", "long", "generate", "resign", "promote"]))
        if shape == "resign":
            return draw(st.sampled_from(["resign", "Resign", "RESIGN"]))
        letter = draw(st.sampled_from(words))
        if shape == "generate":
            return f"+{draw(BLANK)}{letter}{square()}"
        text = letter + draw(BLANK) + square()
        if shape in ("long", "promote"):
            text += draw(BLANK) + draw(st.sampled_from(["-", "\u2013"])) + draw(BLANK) + square()
        if shape == "promote":
            text += "=" + draw(st.sampled_from([*words, "energy", "to energy", ""]))
        return text

    text = action()
    if draw(st.integers(0, 3)) == 0:
        text += draw(st.sampled_from([" else ", " ELSE ", "else"])) + action()
    return draw(BLANK) + text + draw(BLANK)


@st.composite
def submission(draw, ruleset: Ruleset) -> str:
    """Several lines joined by `;`, newlines or both (the multi-move rulesets, D7)."""
    lines = draw(st.lists(order_line(ruleset), min_size=1, max_size=6))
    separators = st.sampled_from([";", "; ", "\n", "\r\n", ";\n", "\n\n", "\uff1b"])
    return "".join(line + (draw(separators) if i < len(lines) - 1 else "") for i, line in enumerate(lines))


@st.composite
def mutated(draw, base: st.SearchStrategy[str]) -> str:
    """A grammar-shaped text with a few characters inserted, deleted or replaced."""
    text = draw(base)
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["insert", "replace", "delete", "duplicate"]))
        piece = draw(st.sampled_from(NASTY) | st.characters(codec="utf-8"))
        if edit == "insert":
            text = text[:at] + piece + text[at:]
        elif edit == "replace":
            text = text[:at] + piece + text[at + 1:]
        elif edit == "delete":
            text = text[:at] + text[at + 1:]
        else:
            text = text[:at] + text[at:at + draw(st.integers(1, 8))] + text[at:]
    return text


def preset_grammar(preset: str, shape=order_line, by_variant: bool = False) -> Grammar:
    """A preset's orders as ``check_order`` sees them, played by Red; ``by_variant``: as its variant's
    check does (arena's own rules: D38, D41, D43, D45, D47, D48)."""
    ruleset = load_preset(preset)
    state = preset_state(ruleset)

    def answer(text: str):
        if by_variant:
            return variant_for(ruleset).check(state, "Red", text)
        return check_order(ruleset, state, "Red", text)

    def check(text: str) -> OrderError | None:
        return answer(text).error

    def recheck(text: str) -> str | None:
        result = answer(text)
        return result.canonical if result.ok else None

    label = "line" if shape is order_line else "submission"
    return Grammar(f"{preset} {label}", shape(ruleset), check, recheck)


def territory_state(ruleset: Ruleset) -> GameState:
    """Turn 1 (Red's) with a piece of every kind of each side on the board, a reserve and a draft area."""
    squares = [(x, y) for y in (-5, -4, -3, -2) for x in range(-5, 6)]
    pieces = [dict(owner="Red", kind=k, square=s) for k, s in zip(ruleset.letters, squares)]
    pieces += [dict(owner="Blue", kind=k, square=(x, -y)) for k, (x, y) in zip(ruleset.letters, squares)]
    state = GameState.build(ruleset, pieces, [Player("Red", "Red"), Player("Blue", "Blue")])
    state.territory = TerritoryState().with_changes(reserves={"Red": ["Mir", "Sun", "Fre"], "Blue": ["Ice"]},
                                                    draft_area=["Bal", "Chs", "Ice", "Lts", "Moon", "Wtr"],
                                                    bag=["Sun", "Wind"])
    return state


_ON_THE_BOARD = st.integers(-6, 6).map(str)
TERRITORY_NUMBER = st.one_of(_ON_THE_BOARD, _ON_THE_BOARD, _ON_THE_BOARD, NUMBER)   # mostly on the 11 x 11 board


@st.composite
def territory_submission(draw, ruleset: Ruleset) -> str:
    """RULES 5.4.7's forms: actions of every shape (Leadership's nested), placements, drafts, pass and
    resign, in any order and number, with blanks between tokens and `;` or newlines between parts."""
    words = words_of(ruleset)

    def square() -> str:
        return f"({draw(BLANK)}{draw(TERRITORY_NUMBER)}{draw(BLANK)},{draw(BLANK)}{draw(TERRITORY_NUMBER)}{draw(BLANK)})"

    def kind() -> str:
        return draw(st.sampled_from(words)) + draw(BLANK)

    def action(depth: int = 0) -> str:
        head = kind() + square()
        shape = draw(st.sampled_from(["short", "move", "legs", "swap", "pull", "push", "carry", "shot", "lead"]))
        moved = "-" + square() if draw(st.booleans()) else ""
        if shape == "short":
            return kind() + square()
        if shape == "move":
            return head + "-" + square()
        if shape == "legs":
            return head + "".join("-" + square() for _ in range(draw(st.integers(2, 4))))
        if shape in ("swap", "pull"):
            return head + ("<>" if shape == "swap" else "<") + square() + moved
        if shape == "push":
            return head + moved + ">" + square()
        if shape == "carry":
            return head + moved + "&" + square() + "-" + square()
        if shape == "shot":
            return head + draw(st.sampled_from(["x", "X", " x "])) + square()
        return head + ":" + (action(depth + 1) if depth < 2 else kind() + square())

    def part() -> str:
        shape = draw(st.sampled_from(["action", "action", "place", "draft", "pass", "resign", ""]))
        if shape == "action":
            return action()
        if shape == "place":
            return "+" + kind() + square() + ("+" + square() if draw(st.booleans()) else "")
        if shape == "draft":
            separators = st.sampled_from([", ", ",", " ", " , "])
            kinds = [kind() for _ in range(draw(st.integers(0, 4)))]
            return "draft " + "".join(k + (draw(separators) if i < len(kinds) - 1 else "") for i, k in enumerate(kinds))
        return shape
    parts = [part() for _ in range(draw(st.integers(1, 3)))]
    separators = st.sampled_from([";", "; ", "\n", ";\n", "\uff1b"])
    return draw(BLANK) + "".join(p + (draw(separators) if i < len(parts) - 1 else "") for i, p in enumerate(parts))


def territory_grammar() -> Grammar:
    """Territory's notation (RULES 5.4.7) as its variant checks it, played by Red on her turn."""
    ruleset = load_preset("territory")
    state = territory_state(ruleset)

    def check(text: str) -> OrderError | None:
        return variant_for(ruleset).check(state, "Red", text).error

    def recheck(text: str) -> str | None:
        result = variant_for(ruleset).check(state, "Red", text)
        return result.canonical if result.ok else None

    return Grammar("territory submission", territory_submission(ruleset), check, recheck)


GRAMMARS = [
    preset_grammar("neisg"),
    preset_grammar("sandbox"),
    preset_grammar("arena", by_variant=True),
    preset_grammar("megachess", by_variant=True),
    preset_grammar("arena", submission, by_variant=True),   # kings plus one: several lines (D7)
    preset_grammar("megachess", submission, by_variant=True),   # each piece: several lines (D7)
    territory_grammar(),                                         # RULES 5.4.7: actions, placements, drafts
]


def assert_accepted_or_refused_with_a_reason(grammar: Grammar, text: str) -> None:
    error = grammar.check(text)   # the point of the test: this never raises
    if error is None:
        if grammar.recheck is not None:
            canonical = grammar.recheck(text)
            assert canonical is not None and grammar.recheck(canonical) == canonical, (text, canonical)
        return
    assert error.reason.strip(), f"{text!r} was refused without a reason"
    assert error.rule, f"{text!r}: {error.reason!r} names no rule"
    start, end = error.span
    assert 0 <= start <= end <= len(text) + 1, (text, error.span, error.reason)
    described = error.describe()   # what the player reads: nothing in it reorders, recolours or hides text
    assert not any(unicodedata.category(c)[0] == "C" and c != "\n" for c in described), (text, described)


@pytest.mark.parametrize("grammar", GRAMMARS, ids=[g.name for g in GRAMMARS])
@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_no_order_text_raises(grammar: Grammar, data) -> None:
    text = data.draw(st.one_of(st.text(max_size=60), grammar.shaped, mutated(grammar.shaped)), label="text")
    assert_accepted_or_refused_with_a_reason(grammar, text)


# The texts of issue 19 that raised ValueError, and their relatives, on every grammar.
REPORTED = ["K(²,3)", "N(⑤,3)", "K(3₃,1)", "K(-\t5,3)", "K(-\r5,3)", "K(٣,1)", "K(1,1²)", "+N(𝟓,1)",
            "N(1^99999999999999999999,2)", "N(1e-" + "9" * 1900 + ",2)"]


@pytest.mark.parametrize("grammar", GRAMMARS, ids=[g.name for g in GRAMMARS])
@pytest.mark.parametrize("text", REPORTED, ids=[repr(t)[:30] for t in REPORTED])
def test_reported_texts_are_answered(grammar: Grammar, text: str) -> None:
    assert_accepted_or_refused_with_a_reason(grammar, text)
