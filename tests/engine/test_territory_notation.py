"""Territory's notation (RULES.md 5.4.7, T38): every form, its canonical echo, and refusals that say what
is wrong and how to write it, pointing at the offending text."""

from __future__ import annotations

import pytest

from bot.engine.notation import OrderError
from bot.engine.ruleset import load_preset
from bot.engine.territory.notation import Action, Draft, Place, parse_turn

TERRITORY = load_preset("territory")

#: 5.4.7's canonical examples: each parses and prints back as itself.
CANONICAL = ["Bal(0,-4)-(0,-2)", "Bal(0,-4)<>(3,2)", "Lf(2,-4)<>(0,-2)-(1,0)", "Moon(1,-4)<(-2,-1)-(3,-2)",
             "Pwr(0,-3)>(0,-1)", "Pwr(0,-4)-(0,-2)>(0,1)", "Wind(1,-4)-(1,-3)&(-4,-5)-(0,-2)", "Wood(1,-2)x(3,0)",
             "Fire(0,-4)-(1,-2)-(2,-1)-(2,0)", "Ldr(3,-2):Wtr(-5,-4)-(-5,-1)", "+Sun(3,-5)", "+Mir(0,-5)+(1,-4)",
             "draft Bal, Fire, Ice", "pass", "resign", "Sun(-2,-3)-(-2,-2); +Wood(-4,-3)"]


def _parse(text: str):
    return parse_turn(text, TERRITORY)


def _refusal(text: str) -> OrderError:
    with pytest.raises(OrderError) as refused:
        _parse(text)
    return refused.value


@pytest.mark.parametrize("text", CANONICAL)
def test_the_canonical_examples_print_back_as_themselves(text):
    assert _parse(text).canonical == text


@pytest.mark.parametrize("typed, canonical", [
    ("  sun ( -2 , -3 ) - ( -2,-2 ) ;\n +wood(-4,-3);", "Sun(-2,-3)-(-2,-2); +Wood(-4,-3)"),   # T38: a trailing `;`
    ("DRAFT ice fire,bal", "draft Bal, Fire, Ice"),                     # kinds by commas and/or spaces, sorted
    ("draft Lotus, WhiteLotus", "draft Lts, Lts"),                      # aliases (T38)
    ("Balance(0,-4)<>(3,2)", "Bal(0,-4)<>(3,2)"),
    ("PASS", "pass"),
    ("Ldr(3,-2) : wtr(-5,-1)", "Ldr(3,-2):Wtr(-5,-1)"),                 # a short form after `:` (T31)
    ("Wind(1,-4) & (-4,-5) - (0,-2)", "Wind(1,-4)&(-4,-5)-(0,-2)"),     # a carry without the Wind's move
    ("Wood(1,-2) X (3,0)", "Wood(1,-2)x(3,0)"),
    ("Shadow(4,4)-(1,1)", "Shdw(4,4)-(1,1)"),                           # the Shadow's jump is its move
    ("Sun\uff08-2\uff0c-3\uff09\u2013(-2,-2)", "Sun(-2,-3)-(-2,-2)"),   # look-alikes (P1)
])
def test_what_players_type_is_echoed_canonically(typed, canonical):
    assert _parse(typed).canonical == canonical
    assert _parse(canonical).canonical == canonical


def test_the_parts_of_a_submission():
    submission = _parse("Moon(1,-4)<(-2,-1)-(3,-2); draft Bal Ice")
    assert submission.action == Action("pull", "Moon", (1, -4), ((3, -2),), target=(-2, -1))
    assert submission.phase2 == Draft(("Bal", "Ice"))
    short = _parse("Sun(-2,-2)").action
    assert (short.form, short.origin, short.moves) == ("move", None, ((-2, -2),))
    place = _parse("+Mir(0,-5)+(1,-4)").phase2
    assert place == Place("Mir", (0, -5), (1, -4))
    lead = _parse("Ldr(3,-2):Wtr(-5,-4)-(-5,-1)").action
    assert lead.delegate == Action("move", "Wtr", (-5, -4), ((-5, -1),))


@pytest.mark.parametrize("text, words, offending", [
    ("Fire(0,-4)<>(3,2)", "Fire has no swap: only Balance and Leaf can swap squares", "<>"),
    ("Sun(0,-4)<(3,2)", "Sun has no pull: only Moon can pull", "<"),
    ("Bal(0,-4)>(0,0)", "Balance has no push", ">"),
    ("Moon(0,-4)&(0,0)-(1,1)", "Moon has no carry", "&"),
    ("Fire(0,-4)x(2,-2)", "Fire has no capture without moving", "x"),
    ("Sun(0,-4):Wtr(1,1)-(1,4)", "Sun has no way to give the action", ":"),
    ("Bal(0,-4)-(0,-2)-(0,0)", "Balance has no further legs: only Fire can move on after a capture", "(0,0)"),
    ("+Sun(3,-5)+(4,-5)", "Sun has no copy: only Mirror can add a copy", "+(4,-5)"),
    ("Bal(0,-4)<>(3,2)-(3,3)", "a Balance's swap is its whole action", "-(3,3)"),
    ("Ldr(0,-4):Ldr(2,-2)-(4,0)", "a Leadership gives the action to an allied piece that is not a Leadership (T17)",
     "Ldr(2,-2)-(4,0)"),
    ("Ice(1,1)-(1,2)", "Ice does not move", "Ice(1,1)-(1,2)"),
    ("pass; +Sun(3,-5)", "`pass` stands alone", "+Sun(3,-5)"),
    ("resign; Bal(0,-4)-(0,-2)", "`resign` stands alone", "Bal(0,-4)-(0,-2)"),
    ("+Sun(3,-5); Bal(0,-4)-(0,-2)", "the action comes first", "Bal(0,-4)-(0,-2)"),
    ("Bal(0,-4)-(0,-2); Sun(1,1)-(1,2)", "one action per turn", "Sun(1,1)-(1,2)"),
    ("+Sun(3,-5); draft Bal", "one phase 2 per turn", "draft Bal"),
    ("draft", "`draft` names the kinds to take", "draft"),
    ("draft Bal,", "expected a kind after `,`", ","),
    ("Bal(0,-4)(0,-2)", "two squares must be joined by `-`", "("),
    ("Xyz(1,1)", "unknown piece letter 'Xyz' (D4)", "Xyz"),
    ("Bal(0,-4)-(0,-2) else Bal(0,-4)-(2,-4)", "unexpected 'e' in the action", "e"),
    ("Nf3", "chess notation", "Nf3"),
    ("Bal(0,-4) - (0,²)", "not a digit", "²"),
    ("", "the submission is empty", ""),
    ("cancel", "`cancel` does not exist in territory", "cancel"),              # T25
])
def test_refusals_say_what_is_wrong_and_point_at_it(text, words, offending):
    error = _refusal(text)
    assert words in error.reason, error.reason
    assert error.offending == offending, (error.offending, error.span)
    assert error.rule and error.hint


def test_a_refused_form_names_no_kind_that_lacks_it():
    """The "only ..." list is read from the piece table's abilities, not hard-coded."""
    assert "only Wind can carry an ally" in _refusal("Sun(0,0)&(1,1)-(2,2)").reason


@pytest.mark.parametrize("typed, canonical", [
    ("  Bal ( 0 , - 4 )  <>  ( 3 , 2 ) ;  + Wood ( 0 , -5 ) ", "Bal(0,-4)<>(3,2); +Wood(0,-5)"),
    ("Moon(1,-4) < (-2,-1) - (3,-2)", "Moon(1,-4)<(-2,-1)-(3,-2)"),
    ("Wood(1,-2) x (3,0)", "Wood(1,-2)x(3,0)"),
    ("+ Mir(0,-5) + (1,-4)", "+Mir(0,-5)+(1,-4)"),
    ("draft Bal , Fire Ice", "draft Bal, Fire, Ice"),
    ("draft Lf Lts", "draft Lf, Lts"),                      # two kinds side by side are two kinds, not one
    (" resign ", "resign"),
])
def test_t41_spaces_between_the_parts_and_inside_squares_are_fine(typed, canonical):
    assert _parse(typed).canonical == canonical


@pytest.mark.parametrize("text, words, offending, hint", [
    ("B al(1,2)", "a kind is one word: 'B al' has a space inside it (T41)", "B al", "write Bal (Balance) without"),
    ("Bal ance(0,-4)-(0,-2)", "'Bal ance' has a space inside it", "Bal ance", "write Bal (Balance)"),
    ("White Lotus(1,1)", "'White Lotus' has a space inside it", "White Lotus", "write Lts (White Lotus)"),
    ("White Lo tus(1,1)", "'White Lo tus' has a space inside it", "White Lo tus", "write Lts (White Lotus)"),
    ("+S un(3,-5)", "'S un' has a space inside it", "S un", "write Sun without spaces"),
    ("draft Bal, Fi re", "'Fi re' has a space inside it", "Fi re", "write Fire without spaces"),
    ("re sign", "`resign` is one word: no space inside it (T41)", "re sign", "write `resign`"),
    ("pa ss", "`pass` is one word", "pa ss", "write `pass`"),
    ("dr aft Bal", "`draft` is one word", "dr aft", "write `draft`"),
    ("Bal(0,-4)< >(3,2)", "`<>` is one sign: no space inside it (T41)", "< >", "Bal(0,-4)<>(3,2)"),
    ("draftBal", "`draft` is a word of its own: a space follows it (T41)", "draftBal", "write `draft Bal`"),
])
def test_t41_no_space_inside_a_kind_an_alias_or_a_keyword(text, words, offending, hint):
    refusal = _refusal(text)
    assert words in refusal.reason and refusal.rule == "T41"
    assert refusal.offending == offending and hint in refusal.hint
