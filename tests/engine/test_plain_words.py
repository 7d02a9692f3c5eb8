"""Refusals name their rule in plain words (RULES 2): Betza strings read aloud, and the preset's own
section of RULES.md cited for rules the presets share."""

from bot.engine.betza import describe_betza
from bot.engine.ruleset import load_preset


def test_betza_in_plain_words():
    assert describe_betza("mKcNcD") == "moves as a king; captures as a knight or by a 2-square orthogonal leap"
    assert describe_betza("fmWfcF") == "moves one square forward; captures one square diagonally forward"
    assert describe_betza("fmWfcFifmnD") == ("moves one square forward or 2 squares forward (not over a piece) on its "
                                             "first move; captures one square diagonally forward")
    assert describe_betza("NB2D") == ("moves and captures as a knight, as a bishop up to 2 squares or by a 2-square "
                                      "orthogonal leap")
    assert describe_betza("") == "never moves"


def test_every_shipped_preset_names_its_section():
    assert load_preset("neisg").section == "RULES 4"
    assert load_preset("sandbox").section == "RULES 5.1"
    assert load_preset("arena").section == "RULES 5.2"
    assert load_preset("megachess").section == "RULES 5.3"
