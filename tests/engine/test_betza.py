"""Betza notation (RULES.md section 7): every string the rulesets use, the dialect's modifiers, and
errors that point at the offending character so a moderator editing a ruleset knows what to fix."""

from __future__ import annotations

import pytest

from bot.engine.betza import BetzaError, parse_betza
from bot.engine.ruleset import load_preset, preset_names

# Leap families, written out by hand (x grows to the right, y upward; forward is +y).
WAZIR = {(1, 0), (-1, 0), (0, 1), (0, -1)}
FERZ = {(1, 1), (1, -1), (-1, 1), (-1, -1)}
DABBABA = {(2, 0), (-2, 0), (0, 2), (0, -2)}
ALFIL = {(2, 2), (2, -2), (-2, 2), (-2, -2)}
KNIGHT = {(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)}
CAMEL = {(1, 3), (3, 1), (3, -1), (1, -3), (-1, -3), (-3, -1), (-3, 1), (-1, 3)}
THREELEAPER = {(3, 0), (-3, 0), (0, 3), (0, -3)}
TRIPPER = {(3, 3), (3, -3), (-3, 3), (-3, -3)}


def rays(steps, range_=1, move=True, capture=True, initial=False, lame=False) -> set[tuple]:
    return {(step, range_, move, capture, initial, lame) for step in steps}


def parsed(text: str) -> set[tuple]:
    movement = parse_betza(text)
    out = {(r.step, r.range, r.move, r.capture, r.initial, r.lame) for r in movement.rays}
    assert len(out) == len(movement.rays), f"{text!r} produced duplicate rays"
    return out


# Every Betza string of the shipped rulesets (and the brief's combinations), with its rays by hand.
EXPECTED: dict[str, set[tuple]] = {
    "": set(),                                                    # the pillar: never moves
    "N": rays(KNIGHT),
    "K": rays(WAZIR | FERZ),
    "B": rays(FERZ, None),
    "R": rays(WAZIR, None),
    "Q": rays(WAZIR | FERZ, None),
    # neisg pawn: forward step to an empty square, forward diagonal captures, first-move double
    # step that a piece on the square in between blocks (RULES 4).
    "fmWfcFifmnD": rays({(0, 1)}, move=True, capture=False)
    | rays({(1, 1), (-1, 1)}, move=False, capture=True)
    | rays({(0, 2)}, move=True, capture=False, initial=True, lame=True),
    "fmWfcF": rays({(0, 1)}, capture=False) | rays({(1, 1), (-1, 1)}, move=False),
    "mWcF": rays(WAZIR, capture=False) | rays(FERZ, move=False),
    # megachess pawn: the king step on a diagonal and the diagonal capture merge into one ray.
    "mKimnDcF": rays(WAZIR, capture=False) | rays(FERZ)
    | rays(DABBABA, capture=False, initial=True, lame=True),
    # The hunter moves as a king and captures as a knight or an orthogonal 2-leap (RULES 7).
    "mKcNcD": rays(WAZIR | FERZ, capture=False) | rays(KNIGHT | DABBABA, move=False),
    "NB2": rays(KNIGHT) | rays(FERZ, 2),
    "KAD": rays(WAZIR | FERZ | ALFIL | DABBABA),
    "DAHG": rays(DABBABA | ALFIL | THREELEAPER | TRIPPER),
    "NC": rays(KNIGHT | CAMEL),
    "QNAD": rays(WAZIR | FERZ, None) | rays(KNIGHT | ALFIL | DABBABA),
    "NB2D": rays(KNIGHT | DABBABA) | rays(FERZ, 2),
    "BN": rays(FERZ, None) | rays(KNIGHT),
    "RN": rays(WAZIR, None) | rays(KNIGHT),
    "QN": rays(WAZIR | FERZ, None) | rays(KNIGHT),
    # m qualifies only the atom right after it: the harpy's knight part keeps its capture flag (its
    # no_capture ability is what stops it capturing, RULES 8).
    "mQN": rays(WAZIR | FERZ, None, capture=False) | rays(KNIGHT),
    "mR2": rays(WAZIR, 2, capture=False),
    "mW": rays(WAZIR, capture=False),
    "NN": rays(KNIGHT, None),                                     # nightrider
    "R6": rays(WAZIR, 6),
    "B6": rays(FERZ, 6),
    "B2": rays(FERZ, 2),
    # territory (RULES 5.4.6, T11): exact leaps, the 2-square ones blocked by a piece between
    "nD": rays(DABBABA, lame=True),                               # Balance, Freedom, Power
    "nA": rays(ALFIL, lame=True),                                 # Leadership, Moon, White Lotus
    "KnD": rays(WAZIR | FERZ) | rays(DABBABA, lame=True),         # Rock
    "W": rays(WAZIR),                                             # Sun
    "H": rays(THREELEAPER),                                       # Water: never blocked
    "KNAD": rays(WAZIR | FERZ | KNIGHT | ALFIL | DABBABA),        # Infinity: the 5x5 box, a leap
    "Q7": rays(WAZIR | FERZ, 7),
    "W3": rays(WAZIR, 3),                                         # W3 = R3
}


def ruleset_betza_strings() -> set[str]:
    out = set()
    for preset in preset_names():
        for kind in load_preset(preset).pieces.values():
            out.add(kind.betza)
            if kind.once is not None:
                out.add(kind.once.betza)
    return out


def test_every_ruleset_betza_string_has_a_hand_written_expectation():
    """A Betza string added to a preset must get its expected rays written here."""
    missing = ruleset_betza_strings() - set(EXPECTED)
    assert not missing, f"add these Betza strings to EXPECTED: {sorted(missing)}"


@pytest.mark.parametrize("text", sorted(EXPECTED))
def test_parse(text):
    assert parsed(text) == EXPECTED[text]


def test_combinations_from_the_brief():
    for text in ("mKcNcD", "fmWfcFifmnD", "NB2D", "QNAD", "mR2", "NN", "R6", "B2", "Q7"):
        assert parsed(text) == EXPECTED[text], text


def test_pillar_never_moves():
    assert parse_betza("").never_moves
    assert not parse_betza("N").never_moves


def test_moves_and_captures_views():
    hunter = parse_betza("mKcNcD")
    assert {r.step for r in hunter.moves} == WAZIR | FERZ
    assert {r.step for r in hunter.captures} == KNIGHT | DABBABA


def test_whitespace_is_ignored():
    assert parsed(" N B2 ") == parsed("NB2")


def test_atoms_combine_by_union_and_merge_move_and_capture():
    # mW plus cW is plain W: one ray per direction that both moves and captures.
    assert parsed("mWcW") == rays(WAZIR)
    assert parsed("WF") == parsed("K")


def test_range_on_a_leaper_makes_a_limited_rider():
    assert parsed("NN2") == rays(KNIGHT, 2)
    assert parsed("K2") == rays(WAZIR | FERZ, 2)
    assert parsed("R10") == rays(WAZIR, 10)


def test_rider_properties():
    rook = next(iter(parse_betza("R").rays))
    assert rook.slides and rook.path == ()
    knight = next(iter(parse_betza("N").rays))
    assert not knight.slides
    assert next(iter(parse_betza("R2").rays)).slides


# ----------------------------------------------------------------------------- directions
@pytest.mark.parametrize("text, steps", [
    ("fW", {(0, 1)}),
    ("bW", {(0, -1)}),
    ("lW", {(-1, 0)}),
    ("rW", {(1, 0)}),
    ("vW", {(0, 1), (0, -1)}),
    ("sW", {(1, 0), (-1, 0)}),
    ("fbW", {(0, 1), (0, -1)}),              # several groups add up
    ("lrW", {(1, 0), (-1, 0)}),
    ("fF", {(1, 1), (-1, 1)}),
    ("bF", {(1, -1), (-1, -1)}),
    ("lF", {(-1, 1), (-1, -1)}),
    ("rF", {(1, 1), (1, -1)}),
    ("flF", {(-1, 1)}),                      # a pair names one diagonal
    ("frF", {(1, 1)}),
    ("blF", {(-1, -1)}),
    ("brF", {(1, -1)}),
    ("lfF", {(-1, 1)}),                      # the order of the pair does not matter
    ("rbF", {(1, -1)}),
    ("flW", {(0, 1), (-1, 0)}),              # on an orthogonal atom a pair means either
    ("fN", {(1, 2), (-1, 2), (2, 1), (-2, 1)}),
    ("bN", {(1, -2), (-1, -2), (2, -1), (-2, -1)}),
    ("lN", {(-1, 2), (-1, -2), (-2, 1), (-2, -1)}),
    ("ffN", {(1, 2), (-1, 2)}),              # doubled: the steep (narrow) forward knight moves
    ("rrN", {(2, 1), (2, -1)}),              # the flat (narrow) rightward ones
    ("flN", {(-1, 2), (-2, 1)}),
    ("brN", {(1, -2), (2, -1)}),
    ("fK", {(0, 1), (1, 1), (-1, 1)}),
    ("flK", {(0, 1), (-1, 0), (-1, 1)}),
    ("fR", {(0, 1)}),
    ("bB", {(1, -1), (-1, -1)}),
    ("fD", {(0, 2)}),
    ("sC", {(3, 1), (3, -1), (-3, 1), (-3, -1)}),
])
def test_direction_modifiers(text, steps):
    assert {r.step for r in parse_betza(text).rays} == steps


def test_direction_keeps_range_and_mode():
    assert parsed("fmR2") == rays({(0, 1)}, 2, capture=False)
    assert parsed("bcB") == rays({(1, -1), (-1, -1)}, None, move=False)


def test_initial_modifier():
    """``i``: only on the piece's first move (the pawn's double step)."""
    assert parsed("iN") == rays(KNIGHT, initial=True)
    assert parsed("ifmnD") == rays({(0, 2)}, capture=False, initial=True, lame=True)
    # the same step with and without i are two different rays
    assert parsed("DiD") == rays(DABBABA) | rays(DABBABA, initial=True)


@pytest.mark.parametrize("text, path", [
    ("fnD", ((0, 1),)),
    ("bnD", ((0, -1),)),
    ("frnA", ((1, 1),)),
    ("fnH", ((0, 1), (0, 2))),
    ("blnG", ((-1, -1), (-2, -2))),
])
def test_non_leaping_modifier_gives_the_squares_passed_over(text, path):
    (ray,) = parse_betza(text).rays
    assert ray.lame and ray.range == 1
    assert ray.path == path


def test_plain_leap_has_no_path():
    (ray,) = parse_betza("fD").rays
    assert not ray.lame and ray.path == ()


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize("text, position, words", [
    # unknown atom
    ("X", 0, "unknown Betza atom"),
    ("NX", 1, "unknown Betza atom"),
    ("KAJ", 2, "unknown Betza atom"),
    ("mM", 1, "unknown Betza atom"),
    ("2N", 0, "unknown Betza atom"),
    # unknown modifier
    ("xN", 0, "unknown Betza modifier"),
    ("fmaW", 2, "unknown Betza modifier"),
    ("NBe2", 2, "unknown Betza modifier"),
    # modifiers with no atom after them
    ("Nm", 1, "no atom"),
    ("NB2fm", 3, "no atom"),
    ("i", 0, "no atom"),
    # doubled rider
    ("RR", 1, "doubled"),
    ("NBB", 2, "doubled"),
    ("QQ7", 1, "doubled"),
    # n applies only to straight leaps of 2 or more
    ("nN", 0, "non-leaping"),
    ("KnN", 1, "non-leaping"),
    ("nW", 0, "non-leaping"),
    ("nR", 0, "non-leaping"),
    ("nDD", 0, "non-leaping"),
    # range 0
    ("R0", 1, "at least 1"),
    ("NB0", 2, "at least 1"),
    ("mQ00", 2, "at least 1"),
    # directions that select nothing
    ("ffF", 0, "select no move"),
    ("NffB", 1, "select no move"),
    ("vvW", 0, "doubled"),
])
def test_errors_point_at_the_offending_character(text, position, words):
    with pytest.raises(BetzaError) as info:
        parse_betza(text)
    error = info.value
    assert error.position == position
    assert words in error.reason
    assert error.text == text
    # The message shows the string with a caret under the offending character.
    message = str(error)
    assert f"position {position + 1}" in message
    lines = message.splitlines()
    assert lines[-2] == "  " + text
    assert lines[-1] == "  " + " " * position + "^"


def test_doubled_compound_is_not_called_a_rider():
    """K is a compound of W and F, not a rider: the message must not say it is one."""
    with pytest.raises(BetzaError) as info:
        parse_betza("KK")
    assert info.value.position == 1
    assert "rider" not in info.value.reason.split("(")[0] and "compound" in info.value.reason
    with pytest.raises(BetzaError) as info:
        parse_betza("BB")
    assert "already a rider" in info.value.reason


def test_betza_error_is_a_value_error():
    with pytest.raises(ValueError):
        parse_betza("Y")
