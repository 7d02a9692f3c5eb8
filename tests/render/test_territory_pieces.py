"""`/pieces` for territory (issue 24 item 2): the 20 pieces with their movement diagrams and their
abilities in the engine's words (bot/engine/vocabulary.py), and no cost, since pieces are drafted."""

from __future__ import annotations

import pytest

from bot.engine.ruleset import load_preset
from bot.engine.vocabulary import ABILITIES
from bot.render.paint.pieces import render_piece_sheet


@pytest.fixture(scope="module")
def sheet():
    return render_piece_sheet(load_preset("territory"))


def test_the_twenty_pieces_each_with_its_diagram(sheet):
    ruleset = load_preset("territory")
    cards = sheet.layout.cards
    assert len(cards) == 20 and [card.letter for card in cards] == list(ruleset.pieces)
    water = sheet.layout.card("Wtr").diagram        # exactly three squares orthogonally, a leap
    assert set(water.marks) == {(3, 0), (-3, 0), (0, 3), (0, -3)} and all(m.leap for m in water.marks.values())
    balance = sheet.layout.card("Bal").diagram      # two squares, blocked by a piece between (T11)
    assert set(balance.marks) == {(2, 0), (-2, 0), (0, 2), (0, -2)} and balance.lame_paths


@pytest.mark.parametrize("letter", ["Bal", "Fire", "Fre", "Ldr", "Lf", "Mir", "Moon", "Pwr", "Rck", "Shdw", "Lts",
                                    "Wind", "Wood", "Sun", "Chs", "Sld", "Ice", "Prtl"])
def test_every_ability_in_the_engines_words(sheet, letter):
    kind = load_preset("territory").pieces[letter]
    card = sheet.layout.card(letter)
    (ability,) = kind.abilities
    words = ABILITIES[ability].replace(f"({kind.name}, ", "(").replace(f" ({kind.name})", "")
    assert card.notes[0] == words
    assert kind.name not in words.split("(")[-1]          # the card names its kind once, in its title
    # every line of the note is on the card (the card grows to hold the longest note)
    assert " ".join(card.texts[3:]) == " ".join(words.split())


def test_no_cost_for_drafted_pieces(sheet):
    for card in sheet.layout.cards:
        assert "cost" not in card.texts[1] and card.texts[1].startswith(card.letter)
    assert sheet.layout.card("Lts").texts[1] == "Lts, Lotus"


def test_the_shadow_jumps_it_does_not_stand_still(sheet):
    shadow = sheet.layout.card("Shdw")
    assert shadow.diagram.marks == {} and "jumps next to an allied piece" in shadow.notes[0]


def test_other_rulesets_keep_their_costs():
    sheet = render_piece_sheet(load_preset("neisg"))
    assert any("cost 5.5 health" in text for text in sheet.layout.card("S").texts)
