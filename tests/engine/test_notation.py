"""Order notation (RULES.md section 2, D1, D4, D12, D20; INTERFACES.md "Orders: canonical form").

Table-driven: every accepted string with the canonical text it parses to (``format_submission`` of
the parse; the short form ``N(37,3)`` keeps no origin until validation resolves it, D5), and every
refused string with its error class, its ``kind`` and the exact part of the text the error points
at (``span``), plus words of the reason a player reads. Then properties (Hypothesis): printing and
parsing are inverse, and the canonical form is a fixed point however an order was typed.

Choices where RULES.md is silent, as a careful reader would take them:

* ``+3`` is read as 3 (a sign is part of an integer; the grammar only says INT may be negative),
  and leading zeros are harmless (``007`` is 7).
* Look-alike characters pasted from phones are read as what they look like: the unicode minus
  sign and dashes, full-width parentheses, comma and semicolon, the no-break space.
* An error at the very end of the text (``N(3,4``) points just past it, ``(len, len + 1)``, so the
  caret of ``describe()`` sits after the last character typed.
* ``10^2`` is not "beyond ±1,000,000": it is refused as a syntax error (write numbers in digits);
  only a power that really exceeds D1's limit is refused by D1.
* Lowercase chess notation such as ``nf3`` is recognised as chess, like ``Nf3`` (D4).
"""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.notation import (ENERGY, MAX_ORDER_LENGTH, AmbiguousOrderError, Generate, IllegalOrderError, Line,
                                 Move, OrderError, OrderSyntaxError, Resign, Submission, format_action, format_line,
                                 format_submission, parse_line, parse_submission)
from bot.engine.ruleset import load_preset

NEISG = load_preset("neisg")
SANDBOX = load_preset("sandbox")

END = object()  # the error points just past the end of the text


def canonical(text: str, ruleset=NEISG) -> str:
    return format_submission(parse_submission(text, ruleset))


# ============================================================================ accepted
# (text, canonical after parsing)
ACCEPTED_NEISG: list[tuple[str, str]] = [
    # short and long moves
    ("N(37,3)", "N(37,3)"),
    ("N(35,2)-(37,3)", "N(35,2)-(37,3)"),
    ("R(12,15)", "R(12,15)"),
    ("R(12,10)-(12,15)", "R(12,10)-(12,15)"),
    ("N(0,0)", "N(0,0)"),
    # spaces anywhere
    (" N ( 35 , 2 ) - ( 37 , 3 ) ", "N(35,2)-(37,3)"),
    ("N(35,2) -(37,3)", "N(35,2)-(37,3)"),
    ("N(35,2)- (37,3)", "N(35,2)-(37,3)"),
    ("N\t(35,2)\t-\t(37,3)", "N(35,2)-(37,3)"),
    ("N(35 ,2 )", "N(35,2)"),
    ("   N(1,2)", "N(1,2)"),
    ("N(1,2)   ", "N(1,2)"),
    # negative coordinates, the limits of D1, signs and zeros
    ("N(-1,-1)", "N(-1,-1)"),
    ("N(-384,-12)", "N(-384,-12)"),
    ("Q(1000000,-1000000)", "Q(1000000,-1000000)"),
    ("Q(-1000000,1000000)", "Q(-1000000,1000000)"),
    ("Q(+3,+4)", "Q(3,4)"),
    ("Q(- 3,4)", "Q(-3,4)"),
    ("Q(007,-0)", "Q(7,0)"),
    ("Q(0000000000001,0)", "Q(1,0)"),
    # look-alike characters: unicode minus sign, en dash, full-width forms, no-break space
    ("Q(\u22123,4)", "Q(-3,4)"),
    ("Q(3,\u22124)-(\u22125,6)", "Q(3,-4)-(-5,6)"),
    ("Q(3,4)\u2013(5,6)", "Q(3,4)-(5,6)"),
    ("Q(3,4)\u2212(5,6)", "Q(3,4)-(5,6)"),
    ("Q\uff083\uff0c4\uff09", "Q(3,4)"),
    ("Q\uff08\uff13\uff0c\uff0d\uff14\uff09", "Q(3,-4)"),   # full-width digits and minus too (P51)
    # blanks between the sign and the digits are blanks like any other (issue 19)
    ("Q(-\t3,4)", "Q(-3,4)"),
    ("Q(-\r3,+\t4)", "Q(-3,4)"),
    ("Q(3,4)\u00a0", "Q(3,4)"),
    ("+N(\u22121,\u22121)", "+N(-1,-1)"),
    # generation
    ("+Tt(-384,-12)", "+Tt(-384,-12)"),
    ("+ Tt ( -384 , -12 )", "+Tt(-384,-12)"),
    ("+tt(-384,-12)", "+Tt(-384,-12)"),
    ("+N(3,-4)", "+N(3,-4)"),
    ("+P(0,-1)", "+P(0,-1)"),
    ("+Pl(0,1)", "+Pl(0,1)"),
    ("+timethief(1,1)", "+Tt(1,1)"),
    ("+Spirit(1,1)", "+S(1,1)"),
    ("+An(1,1)", "+An(1,1)"),
    ("+O(1,1)", "+O(1,1)"),
    # promotion: letters, D20 full names in any case, energy
    ("P(4,6)=Q", "P(4,6)=Q"),
    ("P(4,5)-(4,6)=Q", "P(4,5)-(4,6)=Q"),
    ("P(4,6)=Queen", "P(4,6)=Q"),
    ("P(4,6)=queen", "P(4,6)=Q"),
    ("P(4,6)=QUEEN", "P(4,6)=Q"),
    ("P(4,6)=q", "P(4,6)=Q"),
    ("P(4,6) = Q", "P(4,6)=Q"),
    ("P(4,6)=Dragon", "P(4,6)=Dr"),
    ("P(4,6)=dr", "P(4,6)=Dr"),
    ("P(4,6)=Angel", "P(4,6)=An"),
    ("P(4,6)=Harpy", "P(4,6)=Hp"),
    ("P(4,6)=TimeThief", "P(4,6)=Tt"),
    ("P(4,6)=Ch", "P(4,6)=C"),
    ("P(4,6)=Chancellor", "P(4,6)=C"),
    ("P(4,6)=energy", "P(4,6)=energy"),
    ("P(4,6)=Energy", "P(4,6)=energy"),
    ("P(4,6)=ENERGY", "P(4,6)=energy"),
    ("P(4,6)=to energy", "P(4,6)=energy"),
    ("P(4,6)= to   energy", "P(4,6)=energy"),
    ("P(4,6)=To Energy", "P(4,6)=energy"),
    ("P(4,5)-(4,6)=energy", "P(4,5)-(4,6)=energy"),
    ("P(4,6)=K", "P(4,6)=K"),                      # well-formed; validation refuses it
    ("p(4,6)=q", "P(4,6)=Q"),
    # resign
    ("resign", "resign"),
    ("Resign", "resign"),
    ("RESIGN", "resign"),
    ("  resign  ", "resign"),
    # kings: +K is a placement, K(x,y) is decided at validation (D20)
    ("+K(3,-2)", "+K(3,-2)"),
    ("K(3,-2)", "K(3,-2)"),
    ("k(3,-2)", "K(3,-2)"),
    ("+king(3,-2)", "+K(3,-2)"),
    ("King(3,-2)", "K(3,-2)"),
    ("K(3,-2)-(4,-2)", "K(3,-2)-(4,-2)"),
    # fallbacks
    ("R(12,15) else N(10,14)", "R(12,15) else N(10,14)"),
    ("R(12,15)else N(10,14)", "R(12,15) else N(10,14)"),
    ("R(12,15) ELSE N(10,14)", "R(12,15) else N(10,14)"),
    ("R(12,15)   Else   N(10,14)", "R(12,15) else N(10,14)"),
    ("R(12,10)-(12,15) else R(12,10)-(16,10)", "R(12,10)-(12,15) else R(12,10)-(16,10)"),
    ("R(12,15) else resign", "R(12,15) else resign"),
    ("resign else R(12,15)", "resign else R(12,15)"),    # well-formed; D11 refuses it at validation
    ("Tt(5,5) else Tt(4,4)", "Tt(5,5) else Tt(4,4)"),
    ("R(12,15) else +N(1,-1)", "R(12,15) else +N(1,-1)"),
    ("P(4,6)=Q else P(4,6)=energy", "P(4,6)=Q else P(4,6)=energy"),
    # several lines, with newlines or ';' (D7 decides at validation how many a ruleset takes)
    ("N(1,2); N(3,4)", "N(1,2); N(3,4)"),
    ("N(1,2)\nN(3,4)", "N(1,2); N(3,4)"),
    ("N(1,2);N(3,4);N(5,6)", "N(1,2); N(3,4); N(5,6)"),
    ("N(1,2)\r\nN(3,4)", "N(1,2); N(3,4)"),
    ("N(1,2);\n\nN(3,4)", "N(1,2); N(3,4)"),
    ("N(1,2);", "N(1,2)"),
    ("; N(1,2)", "N(1,2)"),
    ("R(12,15) else N(10,14); resign", "R(12,15) else N(10,14); resign"),
    ("N(1,2)\uff1bN(3,4)", "N(1,2); N(3,4)"),
    # letters: case-insensitive when unambiguous (D4), aliases, full names (D20)
    ("n(3,4)", "N(3,4)"),
    ("Ch(1,1)", "C(1,1)"),
    ("ch(1,1)", "C(1,1)"),
    ("CH(1,1)", "C(1,1)"),
    ("c(1,1)", "C(1,1)"),
    ("Chancellor(1,1)", "C(1,1)"),
    ("sp(1,2)", "Sp(1,2)"),
    ("SP(1,2)", "Sp(1,2)"),
    ("s(1,2)", "S(1,2)"),
    ("hp(1,2)", "Hp(1,2)"),
    ("h(1,2)", "H(1,2)"),
    ("HT(1,2)", "Ht(1,2)"),
    ("ab(1,2)", "Ab(1,2)"),
    ("an(1,2)", "An(1,2)"),
    ("pl(1,2)", "Pl(1,2)"),
    ("d(1,2)", "D(1,2)"),
    ("DR(1,2)", "Dr(1,2)"),
    ("z(1,2)", "Z(1,2)"),
    ("Unicorn(1,2)", "U(1,2)"),
    ("hawk(1,2)", "H(1,2)"),
    ("Hunter(1,2)", "Ht(1,2)"),
    ("knight(1,2)", "N(1,2)"),
    ("TIMETHIEF(1,2)", "Tt(1,2)"),
]

ACCEPTED_SANDBOX: list[tuple[str, str]] = [
    ("Dr(1,9)", "Dr(1,9)"),
    ("P(3,7)=Dr", "P(3,7)=Dr"),
    ("P(3,6)-(3,7)=Queen", "P(3,6)-(3,7)=Q"),
    ("+S(10,10)", "+S(10,10)"),
    ("ch(1,1)", "C(1,1)"),
    ("R(1,1) else R(2,2)", "R(1,1) else R(2,2)"),
    ("resign", "resign"),
    ("+P(-99,1)", "+P(-99,1)"),
]


@pytest.mark.parametrize("text, expected", ACCEPTED_NEISG, ids=[repr(t) for t, _ in ACCEPTED_NEISG])
def test_accepted_neisg(text: str, expected: str) -> None:
    assert canonical(text) == expected


@pytest.mark.parametrize("text, expected", ACCEPTED_SANDBOX, ids=[repr(t) for t, _ in ACCEPTED_SANDBOX])
def test_accepted_sandbox(text: str, expected: str) -> None:
    assert canonical(text, SANDBOX) == expected


# ============================================================================ refused
# (text, error class, where, words of the reason); ``where`` is the offending substring (its first
# occurrence), (substring, occurrence number) or END.
S, I = OrderSyntaxError, IllegalOrderError

REFUSED_NEISG: list[tuple] = [
    # nothing to read
    ("", S, (0, 0), "empty"),
    ("   ", S, (0, 3), "empty"),
    (";", S, (0, 1), "empty"),
    ("\n\n", S, (0, 2), "empty"),
    # chess notation (D4)
    ("Nf3", S, "Nf3", "chess notation"),
    ("e4", S, "e4", "chess notation"),
    ("Qxe5", S, "Qxe5", "chess notation"),
    ("exd5", S, "exd5", "chess notation"),
    ("Nxf3", S, "Nxf3", "chess notation"),
    ("Ne4+", S, "Ne4+", "chess notation"),
    ("e8=Q", S, "e8=Q", "chess notation"),
    ("Rd1", S, "Rd1", "chess notation"),
    ("Bb5", S, "Bb5", "chess notation"),
    ("Kd1", S, "Kd1", "chess notation"),
    ("Nbd2", S, "Nbd2", "chess notation"),
    (" Nf3", S, "Nf3", "chess notation"),
    ("Nf3; N(1,2)", S, "Nf3", "chess notation"),
    ("N(1,2); e4", S, "e4", "chess notation"),
    ("R(12,15) else Nf3", S, "Nf3", "chess notation"),
    ("resign else e4", S, "e4", "chess notation"),
    ("O-O", S, "O-O", "castling"),
    ("O-O-O", S, "O-O-O", "castling"),
    ("0-0", S, "0-0", "castling"),
    ("N(3,4) else O-O", S, "O-O", "castling"),
    ("RxN(12,15)", S, "RxN", "chess capture notation"),
    ("Rx(12,15)", S, "Rx", "chess capture notation"),
    ("QxR(1,1)", S, "QxR", "chess capture notation"),
    # unknown letters (D4): the hint lists the ruleset's letters
    ("X(1,2)", I, "X", "unknown piece letter"),
    ("T(1,2)", I, "T", "unknown piece letter"),
    ("Time Thief(1,2)", I, "Time", "unknown piece letter"),
    ("nf3", S, "nf3", "chess notation"),
    ("+X(1,1)", I, "X", "unknown piece letter"),
    ("P(4,6)=X", I, "X", "unknown piece letter"),
    ("P(4,6)=toenergy", I, "toenergy", "unknown piece letter"),
    ("resignN(1,2)", I, "resignN", "unknown piece letter"),
    ("Kn(1,2)", I, "Kn", "unknown piece letter"),
    ("N(1,2); Y(3,4)", I, "Y", "unknown piece letter"),
    ("Rook Queen(1,1)", S, "Q", "expected a square"),
    # D1: coordinates beyond ±1,000,000
    ("N(10^100,3)", I, "10^100", "beyond ±1,000,000"),
    ("N(1000001,0)", I, "1000001", "beyond ±1,000,000"),
    ("N(0,-1000001)", I, "-1000001", "beyond ±1,000,000"),
    ("N(1,2)-(3,1000001)", I, "1000001", "beyond ±1,000,000"),
    ("+N(99999999999999999999999999999999999999,0)", I, "99999999999999999999999999999999999999",
     "beyond ±1,000,000"),
    ("N(" + "9" * 1900 + ",0)", I, "9" * 1900, "beyond ±1,000,000"),
    ("N(1e7,3)", I, "1e7", "beyond ±1,000,000"),
    ("N(-10 ^ 7,3)", I, "-10 ^ 7", "beyond ±1,000,000"),
    ("N(2**40,0)", I, "2**40", "beyond ±1,000,000"),
    ("N(\u22121000001,0)", I, "\u22121000001", "beyond ±1,000,000"),
    # numbers that are not written as whole numbers in digits
    ("N(10^2,3)", S, "10^2", "whole numbers"),
    ("N(1e6,3)", S, "1e6", "whole numbers"),
    ("N(1e-3,3)", S, "1e-3", "whole numbers"),
    ("N(1.5,2)", S, "1.5", "whole numbers"),
    ("N(1,2.0)", S, "2.0", "whole numbers"),
    ("N(-0.5,2)", S, "-0.5", "whole numbers"),
    # digits are 0-9 only (P51): what else Unicode calls a digit is refused, pointing at it (issue 19)
    ("K(\u00b2,3)", S, "\u00b2", "'\u00b2' (superscript two) is not a digit: write coordinates with 0-9"),
    ("N(\u2464,3)", S, "\u2464", "(circled digit five) is not a digit"),
    ("K(3\u2083,1)", S, "\u2083", "(subscript three) is not a digit"),
    ("K(1,-\u0663)", S, "\u0663", "(arabic-indic digit three) is not a digit"),
    ("K(1,2\u00bd)", S, "\u00bd", "(vulgar fraction one half) is not a digit"),
    ("+N(\U0001d7d3,1)", S, "\U0001d7d3", "is not a digit"),
    # missing parentheses, commas, dash
    ("N 3,4", S, "3,4", "parentheses"),
    ("N3,4", S, "3,4", "parentheses"),
    ("N(3 4)", S, "4", "expected `,`"),
    ("N(3;4)", S, ";", "expected `,`"),
    ("N(3,4", S, END, "expected `)`"),
    ("N(3,4(", S, ("(", 2), "expected `)`"),
    ("N[3,4]", S, "[", "expected a square"),
    ("N", S, END, "expected a square"),
    ("+N", S, END, "expected a square"),
    ("N(3,4)(5,6)", S, ("(", 2), "joined by `-`"),
    ("N(3,4) (5,6)", S, ("(", 2), "joined by `-`"),
    ("N(3,4)-", S, END, "target square after `-`"),
    ("N(3,4)-5,6", S, "5", "target square after `-`"),
    ("N(3,4)--(5,6)", S, ("-", 2), "target square after `-`"),
    ("N(,2)", S, ",", "whole number"),
    ("N(1,,2)", S, (",", 2), "whole number"),
    ("N(a,2)", S, "a", "whole number"),
    ("N((1,2)", S, ("(", 2), "whole number"),
    ("N()", S, ")", "whole number"),
    ("+(1,2)", S, "(", "piece letter"),
    ("(3,4)", S, "(", "piece letter"),
    ("=Q", S, "=", "piece letter"),
    ("-(3,4)", S, "-", "piece letter"),
    ("123", S, "1", "piece letter"),
    ("+K(1,2)-(3,4)", S, "-(3,4)", "unexpected text"),
    ("N(1,2)-(3,4)-(5,6)", S, "-(5,6)", "unexpected text"),
    # promotion syntax
    ("P(4,6)=", S, "=", "must be followed by the kind"),
    ("P(4,6)=1", S, "=", "must be followed by the kind"),
    ("P(4,6)=to", S, "=to", "`=to` must be followed by `energy`"),
    ("P(4,6)=to queen", S, "=to queen", "`=to` must be followed by `energy`"),
    ("P(4,6)=Q=R", S, "=R", "unexpected text"),
    # else
    ("R(12,15) else", S, "else", "must be followed by a fallback"),
    ("R(12,15) else   ", S, "else", "must be followed by a fallback"),
    ("R(12,15) else\nN(1,2)", S, "else", "must be followed by a fallback"),
    ("R(12,15) else else N(1,1)", S, ("else", 2), "must be followed by a fallback"),
    ("else N(1,2)", S, "else", "needs an action before it"),
    ("ELSE", S, "ELSE", "needs an action before it"),
    ("N(1,2); else", S, "else", "needs an action before it"),
    ("R(12,15) else N(1,1) else N(2,2)", S, ("else", 2), "no fallback of its own"),
    ("R(12,15) else N(1,1) extra", S, "extra", "unexpected text after the fallback"),
    ("R(12,15) elsewhere", S, "elsewhere", "unexpected text after the order"),
    ("R(12,15) or N(1,1)", S, "or", "unexpected text after the order"),
    # text after the order
    ("N(3,4) please", S, "please", "unexpected text"),
    ("N(3,4) N(5,6)", S, "N(5,6)", "unexpected text"),
    ("resign now", S, "now", "unexpected text"),
    ("resign!", S, "!", "unexpected text"),
    ("N(3,4)!", S, "!", "unexpected text"),
    ("N(3,4) # my move", S, "#", "unexpected text"),
    # several lines: the error points into the line at fault
    ("N(1,2)\nN(3", S, END, "expected `,`"),
    ("N(1,2)\nR(12,15) else", S, "else", "must be followed by a fallback"),
    ("N(1,2); N(3,4) foo", S, "foo", "unexpected text"),
]

REFUSED_SANDBOX: list[tuple] = [
    ("+Tt(1,1)", I, "Tt", "unknown piece letter"),   # the time thief is neisg only
    ("Hp(1,1)", I, "Hp", "unknown piece letter"),
    ("Nf3", S, "Nf3", "chess notation"),
    ("Q(1,1000001)", I, "1000001", "beyond ±1,000,000"),
]


def expected_span(text: str, where) -> tuple[int, int]:
    if where is END:
        return len(text), len(text) + 1
    if isinstance(where, tuple) and isinstance(where[0], int):
        return where
    if isinstance(where, tuple):
        sub, occurrence = where
        start = -1
        for _ in range(occurrence):
            start = text.index(sub, start + 1)
        return start, start + len(sub)
    start = text.index(where)
    return start, start + len(where)


def check_refusal(text: str, ruleset, cls, where, words: str) -> OrderError:
    with pytest.raises(OrderError) as caught:
        parse_submission(text, ruleset)
    error = caught.value
    assert type(error) is cls, f"{type(error).__name__}: {error.reason}"
    assert error.kind == {OrderSyntaxError: "syntax", IllegalOrderError: "illegal"}[cls]
    assert words in error.reason, error.reason
    assert error.span == expected_span(text, where), (error.span, error.offending, error.reason)
    assert error.rule, "every refusal names the rule that refused it"
    assert error.hint, "every refusal of the notation shows how to write it"
    return error


def table_id(case: tuple) -> str:
    text = case[0]
    return repr(text if len(text) < 40 else text[:20] + "..." + text[-10:])


@pytest.mark.parametrize("text, cls, where, words", REFUSED_NEISG, ids=[table_id(c) for c in REFUSED_NEISG])
def test_refused_neisg(text: str, cls, where, words: str) -> None:
    check_refusal(text, NEISG, cls, where, words)


@pytest.mark.parametrize("text, cls, where, words", REFUSED_SANDBOX, ids=[table_id(c) for c in REFUSED_SANDBOX])
def test_refused_sandbox(text: str, cls, where, words: str) -> None:
    check_refusal(text, SANDBOX, cls, where, words)


def test_the_table_is_large() -> None:
    """The brief asks for at least 150 strings; keep the table from shrinking unnoticed."""
    total = len(ACCEPTED_NEISG) + len(ACCEPTED_SANDBOX) + len(REFUSED_NEISG) + len(REFUSED_SANDBOX)
    assert total >= 150, total


# ============================================================================ hints and rules
@pytest.mark.parametrize("text, form", [("Nf3", "N(x,y)"), ("e4", "P(x,y)"), ("Qxe5", "Q(x,y)"),
                                        ("Kd1", "K(x,y)"), ("R(1,1) else Bb5", "B(x,y)")])
def test_chess_notation_hint_shows_the_accepted_form(text: str, form: str) -> None:
    error = check_refusal(text, NEISG, S, text.split()[-1], "chess notation")
    assert form in error.hint and "(x1,y1)-(x2,y2)" in error.hint
    assert error.rule == "D4"


def test_chess_capture_hint_says_a_capture_is_a_move_onto_the_square() -> None:
    error = check_refusal("RxN(12,15)", NEISG, S, "RxN", "chess capture notation")
    assert "R(x,y)" in error.hint and "enemy's square" in error.hint
    assert error.rule == "D4"


def test_unknown_letter_hint_lists_the_rulesets_letters() -> None:
    error = check_refusal("X(1,2)", NEISG, I, "X", "unknown piece letter 'X'")
    assert error.rule == "D4"
    assert "neisg" in error.hint
    listed = error.hint.split(":", 1)[1].split()
    assert set(listed) >= {"P", "N", "Ht", "Sp", "Tt", "Hp", "An", "Z", "Pl", "K"}
    sandbox = check_refusal("Tt(1,2)", SANDBOX, I, "Tt", "unknown piece letter")
    assert "sandbox" in sandbox.hint and "Tt" not in sandbox.hint.split(":", 1)[1].split()


def test_d1_refusals_name_d1() -> None:
    for text, where in (("N(10^100,3)", "10^100"), ("N(1000001,0)", "1000001")):
        error = check_refusal(text, NEISG, I, where, "beyond ±1,000,000")
        assert error.rule == "D1" and "(D1)" in error.reason


def test_two_fallbacks_cite_d12() -> None:
    error = check_refusal("R(12,15) else N(1,1) else N(2,2)", NEISG, S, ("else", 2), "no fallback of its own")
    assert error.rule == "D12"


def test_describe_underlines_the_offending_part() -> None:
    with pytest.raises(OrderError) as caught:
        parse_submission("R(12,15) else N(1,1) please", NEISG)
    lines = caught.value.describe().splitlines()
    assert lines[1] == "  R(12,15) else N(1,1) please"
    assert lines[2] == "  " + " " * 21 + "^" * 6
    assert lines[3].startswith("Hint: ")


def test_describe_shows_the_text_one_character_for_one_without_controls() -> None:
    """Tabs show as spaces; bidi overrides, ANSI escapes and zero-width characters, which would
    reorder, recolour or hide the text around them, show as U+FFFD; the caret stays in place."""
    text = "R(12,15)\t\u202e\x1b[31m\u200bplease"
    with pytest.raises(OrderError) as caught:
        parse_submission(text, NEISG)
    lines = caught.value.describe().splitlines()
    assert lines[1] == "  R(12,15) \ufffd\ufffd[31m\ufffdplease"
    assert lines[2].index("^") == lines[1].index("\ufffd")
    assert not any(c in caught.value.describe() for c in "\t\u202e\x1b\u200b")


# ============================================================================ long texts
def test_text_over_max_order_length_is_refused_before_parsing() -> None:
    """100 KB of text: refused with the limit in the reason, pointing at the first characters."""
    text = "N(1,2) " * (100_000 // 7 + 1)
    assert len(text) > MAX_ORDER_LENGTH
    with pytest.raises(OrderSyntaxError) as caught:
        parse_submission(text, NEISG)
    error = caught.value
    assert f"at most {MAX_ORDER_LENGTH:,} characters" in error.reason
    assert f"{len(text):,}" in error.reason
    assert error.span == (0, 80) and error.offending == text[:80]
    assert error.rule


def test_a_text_of_exactly_max_order_length_is_read() -> None:
    text = "N(1,2)".ljust(MAX_ORDER_LENGTH)
    assert canonical(text) == "N(1,2)"
    with pytest.raises(OrderSyntaxError):
        parse_submission(text + " ", NEISG)


# ============================================================================ value types and spans
def test_short_form_keeps_no_origin_until_validation() -> None:
    line = parse_line("N(37,3)", NEISG)
    assert line.action == Move("N", (37, 3))
    assert line.action.origin is None
    assert format_action(line.action) == "N(37,3)"


def test_parsed_values() -> None:
    sub = parse_submission("n(35,2)-(37,3)=queen else +Tt(-384,-12); resign; P(4,6)=to energy", NEISG)
    assert sub == Submission((Line(Move("N", (37, 3), (35, 2), "Q"), Generate("Tt", (-384, -12))),
                              Line(Resign()), Line(Move("P", (4, 6), None, ENERGY))))


def test_spans_of_lines_and_actions_are_exact() -> None:
    """Spans point at the text as typed, without the blanks around it, for every line."""
    text = "  R(12,15)   else   N(1,2)   ;\n  +Tt(-384,-12)  "
    first, second = parse_submission(text, NEISG).lines
    assert text[slice(*first.span)] == "R(12,15)   else   N(1,2)"
    assert text[slice(*first.action_span)] == "R(12,15)"
    assert text[slice(*first.fallback_span)] == "N(1,2)"
    assert text[slice(*second.span)] == "+Tt(-384,-12)"
    assert text[slice(*second.action_span)] == "+Tt(-384,-12)"


def test_parse_line_refuses_a_second_line() -> None:
    text = "N(1,2); N(3,4)"
    with pytest.raises(OrderSyntaxError) as caught:
        parse_line(text, NEISG)
    assert caught.value.offending == "N(3,4)"
    assert caught.value.rule == "D7"


def test_interfaces_canonical_examples_are_fixed_points() -> None:
    for text in ("N(35,2)-(37,3)", "+Tt(-384,-12)", "P(4,5)-(4,6)=Q", "P(4,5)-(4,6)=energy", "+K(3,-2)", "resign",
                 "R(12,10)-(12,15) else R(12,10)-(16,10)", "N(1,2); N(3,4)"):
        assert canonical(text) == text


def test_spans_are_not_part_of_equality() -> None:
    assert parse_line("N(1,2)", NEISG) == parse_line("   n ( 1 , 2 )", NEISG)
    assert hash(parse_line("N(1,2)", NEISG)) == hash(parse_line("   n ( 1 , 2 )", NEISG))


def test_no_ambiguous_letters_in_the_presets() -> None:
    """D4: an ambiguous letter would be an AmbiguousOrderError; the presets have none, so every
    case-folded letter, alias and name resolves to exactly one piece."""
    for ruleset in (NEISG, SANDBOX):
        for kind in ruleset.pieces.values():
            for word in (kind.letter, *kind.aliases):
                for variant in (word, word.lower(), word.upper()):
                    assert ruleset.match_letters(variant) == [kind.letter], variant
    assert not issubclass(AmbiguousOrderError, OrderSyntaxError)


# ============================================================================ properties
LETTERS = list(NEISG.letters)
COORD = st.integers(-1_000_000, 1_000_000)
SQUARE = st.tuples(COORD, COORD)
PROMOTE = st.none() | st.sampled_from(LETTERS) | st.just(ENERGY)
MOVE = st.builds(Move, st.sampled_from(LETTERS), SQUARE, st.none() | SQUARE, PROMOTE)
GENERATE = st.builds(Generate, st.sampled_from(LETTERS), SQUARE)
ACTION = st.one_of(MOVE, GENERATE, st.just(Resign()))
LINE = st.builds(Line, ACTION, st.none() | ACTION)
SUBMISSION = st.lists(LINE, min_size=1, max_size=5).map(lambda lines: Submission(tuple(lines)))


@settings(max_examples=400)
@given(SUBMISSION)
def test_parse_of_format_is_the_order(submission: Submission) -> None:
    text = format_submission(submission)
    assert parse_submission(text, NEISG) == submission
    assert format_submission(parse_submission(text, NEISG)) == text


BLANK = st.text(alphabet=" \t\u00a0", max_size=2)


@st.composite
def typed(draw, submission: Submission) -> str:
    """The submission as a player might type it: blanks between tokens, any case, aliases and full
    names, `=to energy`, look-alike minus signs and dashes, `;` or newlines between lines."""

    def blank() -> str:
        return draw(BLANK)

    def letters(letter: str) -> str:
        kind = NEISG.pieces[letter]
        word = draw(st.sampled_from([letter, *kind.aliases]))
        return "".join(c.upper() if draw(st.booleans()) else c.lower() for c in word)

    def number(n: int) -> str:
        if n >= 0:
            return draw(st.sampled_from(["", "+"])) + str(n)
        return draw(st.sampled_from(["-", "\u2212", "- "])) + str(-n)

    def square(sq) -> str:
        return f"({blank()}{number(sq[0])}{blank()},{blank()}{number(sq[1])}{blank()})"

    def action(a) -> str:
        if isinstance(a, Resign):
            return draw(st.sampled_from(["resign", "Resign", "RESIGN"]))
        if isinstance(a, Generate):
            return f"+{blank()}{letters(a.letter)}{blank()}{square(a.square)}"
        text = letters(a.letter) + blank()
        if a.origin is not None:
            text += square(a.origin) + blank() + draw(st.sampled_from(["-", "\u2013", "\u2212"])) + blank()
        text += square(a.target)
        if a.promote == ENERGY:
            text += blank() + "=" + blank() + draw(st.sampled_from(["energy", "ENERGY", "to energy", "To  Energy"]))
        elif a.promote is not None:
            text += blank() + "=" + blank() + letters(a.promote)
        return text

    def line(l: Line) -> str:
        text = action(l.action)
        if l.fallback is not None:
            text += " " + blank() + draw(st.sampled_from(["else", "ELSE", "Else"])) + " " + blank()
            text += action(l.fallback)
        return blank() + text + blank()

    separators = st.sampled_from([";", "\n", "; ", ";\n", "\r\n", "\uff1b"])
    return "".join(line(l) + (draw(separators) if i < len(submission.lines) - 1 else "")
                   for i, l in enumerate(submission.lines))


@settings(max_examples=400)
@given(st.data())
def test_any_typing_of_an_order_parses_to_its_canonical_form(data) -> None:
    submission = data.draw(SUBMISSION)
    text = data.draw(typed(submission))
    parsed = parse_submission(text, NEISG)
    assert parsed == submission, text
    assert format_submission(parsed) == format_submission(submission)


@settings(max_examples=600)
@given(st.text(alphabet=string.ascii_letters[:30] + "0123456789()+-=,;. \n\u2212" + "ENRQKPelsx", max_size=40))
def test_any_text_is_refused_cleanly_or_has_a_stable_canonical_form(text: str) -> None:
    """Fuzz: any text either raises an OrderError with a span inside (or just after) the text, or
    parses to an order whose canonical form parses back to itself."""
    try:
        parsed = parse_submission(text, NEISG)
    except OrderError as error:
        start, end = error.span
        assert 0 <= start <= end <= len(text) + 1
        assert error.reason
        return
    once = format_submission(parsed)
    again = parse_submission(once, NEISG)
    assert again == parsed
    assert format_submission(again) == once


def test_format_line_and_action_agree_with_format_submission() -> None:
    line = Line(Move("R", (12, 15), (12, 10)), Move("R", (16, 10), (12, 10)))
    assert format_line(line) == "R(12,10)-(12,15) else R(12,10)-(16,10)"
    assert format_submission(Submission((line, Line(Resign())))) == format_line(line) + "; resign"


def test_a_whole_army_s_orders_may_be_longer_than_one_order_p72() -> None:
    """P72: megachess moves each piece once, so its submissions may hold 64,000 characters; the
    one-order rulesets keep P2's 2,000; beyond either the refusal names the limit and cites P2."""
    from bot.engine.policies import MAX_ARMY_ORDER_LENGTH, submission_shape

    megachess = load_preset("megachess")
    assert submission_shape(megachess).max_length == MAX_ARMY_ORDER_LENGTH == 64_000
    assert submission_shape(NEISG).max_length == MAX_ORDER_LENGTH
    army = ";".join(f"P({x},{y})-({x},{y + 1})" for x in range(60) for y in range(0, 40, 2))
    assert MAX_ORDER_LENGTH < len(army) < MAX_ARMY_ORDER_LENGTH
    assert len(parse_submission(army, megachess, MAX_ARMY_ORDER_LENGTH).lines) == 1200
    with pytest.raises(OrderSyntaxError) as caught:
        parse_submission(";".join([army] * 4), megachess, MAX_ARMY_ORDER_LENGTH)
    assert "at most 64,000 characters" in caught.value.reason and caught.value.rule == "P2"

