"""Rulesets are data (RULES.md sections 1, 5 and 7): every preset carries the piece table of the
rules, and a moderator who breaks a file learns which file, which key and what is wrong."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from bot.engine.board import Board
from bot.engine.model import Piece
from bot.engine.movement import Position, destinations
from bot.engine.ruleset import RULESET_DIR, RulesetError, load_preset, load_ruleset, preset_names, ruleset_from_dict

NEISG_TOML = RULESET_DIR / "neisg.toml"

# RULES.md section 7, copied row by row: letter -> (name, cost, Betza, abilities).
SECTION_7 = {
    "N": ("Knight", 3, "N", set()),
    "G": ("Guard", 4, "K", set()),
    "Ht": ("Hunter", 4, "mKcNcD", set()),
    "B": ("Bishop", 5, "B", set()),
    "L": ("Leopard", 5, "NB2", set()),
    "S": ("Spirit", Fraction(11, 2), "N", {"spirit", "no_capture"}),
    "E": ("Elephant", 6, "KAD", set()),
    "H": ("Hawk", 6, "DAHG", set()),
    "U": ("Unicorn", 6, "NC", set()),
    "W": ("Witch", 6, "QNAD", {"witch", "no_capture"}),
    "R": ("Rook", 7, "R", set()),
    "Sp": ("Spider", 7, "NB2D", set()),
    "Ab": ("Archbishop", 9, "BN", set()),
    "D": ("Dwarf", 9, "K", {"dwarf"}),
    "C": ("Chancellor", 11, "RN", set()),
    "Tt": ("Time Thief", 12, "Q", {"time_thief", "no_capture"}),
    "Q": ("Queen", 13, "Q", set()),
    "Dr": ("Dragon", 17, "QN", set()),
    "Hp": ("Harpy", 16, "mQN", {"harpy", "no_capture"}),
    "An": ("Angel", 20, "K", {"angel"}),
    "Z": ("Zombie", 8, "mR2", {"zombie", "no_capture"}),
    "Pl": ("Pillar", 2, "", {"pillar", "no_capture"}),
    "K": ("King", 0, "K", {"royal"}),
}
NEISG_ONLY = {"Tt", "Hp", "An", "Z", "Pl"}
NEUTRAL = {"O": "Obstacle", "V": "Void"}     # RULES 6: event pieces belonging to nobody

# RULES 5.2 and 5.3: the standard kinds with their own values and rules.
ARENA = {"P": ("Pawn", 2, "mWcF"), "N": ("Knight", 3, "N"), "B": ("Bishop", 3, "B"), "R": ("Rook", 5, "R"),
         "Q": ("Queen", 9, "Q"), "K": ("King", 15, "K")}
MEGACHESS = {"P": ("Pawn", 1, "mKimnDcF", 3), "N": ("Knight", 3, "N", 5), "B": ("Bishop", 3, "B6", 5),
             "R": ("Rook", 5, "R6", 7), "Q": ("Queen", 9, "Q7", 10), "K": ("King", 10, "K", None)}


def test_presets_exist():
    assert {"neisg", "sandbox", "arena", "megachess"} <= set(preset_names())


def test_unknown_preset_names_the_presets():
    with pytest.raises(RulesetError) as info:
        load_preset("nesig")
    assert "no preset named 'nesig'" in str(info.value) and "neisg" in str(info.value)


@pytest.mark.parametrize("preset", ["neisg", "sandbox"])
def test_piece_table_of_section_7(preset):
    ruleset = load_preset(preset)
    expected = {k: v for k, v in SECTION_7.items() if preset == "neisg" or k not in NEISG_ONLY}
    assert set(ruleset.pieces) == set(expected) | {"P"} | set(NEUTRAL)
    for letter, (name, cost, betza, abilities) in expected.items():
        kind = ruleset.pieces[letter]
        assert (kind.letter, kind.name, kind.cost, kind.betza) == (letter, name, cost, betza)
        assert isinstance(kind.cost, Fraction), "costs are exact (RULES 3.1)"
        assert set(kind.abilities) == abilities, letter
    pawn = ruleset.pieces["P"]
    assert (pawn.name, pawn.cost) == ("Pawn", 1)
    assert pawn.betza == ("fmWfcFifmnD" if preset == "neisg" else "fmWfcF")  # RULES 4, 5.1
    for letter, name in NEUTRAL.items():
        assert ruleset.pieces[letter].name == name and ruleset.pieces[letter].movement.never_moves


def test_spirit_costs_exactly_five_and_a_half():
    """RULES 3.1: halves are exact, never floats."""
    for preset in ("neisg", "sandbox"):
        cost = load_preset(preset).pieces["S"].cost
        assert cost == Fraction(11, 2) and type(cost) is Fraction
        assert cost * 2 == 11


def test_economy_fractions_are_exact():
    neisg = load_preset("neisg")
    assert neisg.economy.capture_reward == Fraction(3, 4)
    assert neisg.economy.king_penalty_share == Fraction(1, 5)
    assert load_preset("sandbox").economy.capture_reward == Fraction(2, 3)


def test_arena_piece_table():
    ruleset = load_preset("arena")
    assert set(ruleset.pieces) == set(ARENA)
    for letter, (name, cost, betza) in ARENA.items():
        kind = ruleset.pieces[letter]
        assert (kind.name, kind.cost, kind.betza) == (name, cost, betza)
    assert ruleset.royal_letter == "K"
    assert ruleset.resolution.king_check_rules


def test_megachess_piece_table():
    ruleset = load_preset("megachess")
    assert set(ruleset.pieces) == set(MEGACHESS)
    for letter, (name, cost, betza, ttl) in MEGACHESS.items():
        kind = ruleset.pieces[letter]
        assert (kind.name, kind.cost, kind.betza, kind.fade_ttl) == (name, cost, betza, ttl)
    bishop = ruleset.pieces["B"]
    assert bishop.has("one_time_step") and bishop.once is not None and bishop.once.betza == "mW"


@pytest.mark.parametrize("preset", ["neisg", "sandbox", "arena", "megachess"])
def test_one_royal_kind(preset):
    ruleset = load_preset(preset)
    assert ruleset.royal_letter == "K"
    assert [k.letter for k in ruleset.pieces.values() if k.royal] == ["K"]


# ----------------------------------------------------------------------------- aliases (D4, D20)
def test_chancellor_answers_to_c_and_ch():
    ruleset = load_preset("neisg")
    assert "Ch" in ruleset.pieces["C"].aliases
    assert ruleset.match_letters("C") == ["C"]
    assert ruleset.match_letters("Ch") == ["C"]
    assert ruleset.match_letters("ch") == ["C"]


@pytest.mark.parametrize("preset", ["neisg", "sandbox", "arena", "megachess"])
def test_full_names_are_aliases(preset):
    """D20: full piece names are aliases of their letters (``=Queen``), case-insensitively (D4)."""
    ruleset = load_preset(preset)
    for kind in ruleset.pieces.values():
        name = kind.name.replace(" ", "")
        assert name in kind.aliases
        assert ruleset.match_letters(name) == [kind.letter]
        assert ruleset.match_letters(name.lower()) == [kind.letter]
        assert ruleset.match_letters(name.upper()) == [kind.letter]


def test_letters_match_case_insensitively_and_unknown_letters_match_nothing():
    ruleset = load_preset("neisg")
    assert ruleset.match_letters("n") == ["N"]
    assert ruleset.match_letters("tt") == ["Tt"]
    assert ruleset.match_letters("TimeThief") == ["Tt"]
    assert ruleset.match_letters("X") == []
    assert ruleset.match_letters("Knave") == []


# ----------------------------------------------------------------------------- bounds
@pytest.mark.parametrize("players", range(2, 9))
def test_arena_board_grows_with_players(players):
    """RULES 5.2: the board is [-R, R]^2 with R = 3 + 2n for n players."""
    r = 3 + 2 * players
    assert load_preset("arena").bounds_for(players) == ((-r, -r), (r, r))


def test_other_bounds():
    assert load_preset("neisg").bounds_for(5) is None          # unbounded
    assert load_preset("megachess").bounds_for(5) is None
    assert load_preset("sandbox").bounds_for(5) == ((-99, 1), (99, 99))   # RULES 5.1, D18


# ----------------------------------------------------------------------------- moderators' edits
def edited(tmp_path: Path, old: str, new: str, name: str = "edited.toml") -> Path:
    """neisg.toml with one textual edit, as a moderator would make it."""
    text = NEISG_TOML.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"the snippet must occur once in neisg.toml: {old!r}"
    path = tmp_path / name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


KNIGHT_ROW = '[pieces.N]\nname = "Knight"\ncost = 3\nbetza = "N"\n'


def test_a_moderator_adds_a_piece_with_no_code(tmp_path):
    """RULES 1: moderators may add pieces by editing a ruleset file. A new kind moves as its Betza
    string says: NC is the knight's and the camel's leaps."""
    path = tmp_path / "neisg-plus.toml"
    shutil.copy(NEISG_TOML, path)
    with path.open("a", encoding="utf-8") as f:
        f.write('\n[pieces.Zz]\nname = "Zebu"\ncost = 6.5\nbetza = "NC"\n')
    ruleset = load_ruleset(path)
    kind = ruleset.pieces["Zz"]
    assert (kind.name, kind.cost, kind.betza) == ("Zebu", Fraction(13, 2), "NC")
    assert ruleset.match_letters("zebu") == ["Zz"]
    zebu = Piece(id=1, kind="Zz", owner="Red", square=(10, -4))
    found = destinations(Position(ruleset, Board([zebu])), zebu)
    knight = {(10 + dx, -4 + dy) for dx, dy in [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]}
    camel = {(10 + dx, -4 + dy) for dx, dy in [(1, 3), (3, 1), (3, -1), (1, -3), (-1, -3), (-3, -1), (-3, 1), (-1, 3)]}
    assert set(found) == knight | camel and len(found) == 16
    # the rest of the preset is untouched
    assert set(ruleset.pieces) == set(load_preset("neisg").pieces) | {"Zz"}


def assert_ruleset_error(path: Path, key: str, *problem_words: str) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    error = info.value
    message = str(error)
    assert str(path) in message, "the message names the file"
    assert error.source == str(path)
    assert error.key == key and key in message, f"the message names the key {key!r}: {message}"
    for words in problem_words:
        assert words in message, f"{words!r} not in {message!r}"
    return error


def test_unknown_key_in_a_piece(tmp_path):
    path = edited(tmp_path, KNIGHT_ROW, KNIGHT_ROW.replace('betza = "N"', 'bezta = "N"'))
    assert_ruleset_error(path, "pieces.N.bezta", "unknown key", "betza")


def test_unknown_key_in_a_section(tmp_path):
    path = edited(tmp_path, "start = 10\n", "strat = 10\n")
    assert_ruleset_error(path, "economy.strat", "unknown key")


def test_unknown_top_level_key(tmp_path):
    path = edited(tmp_path, 'name = "neisg"\n', 'name = "neisg"\nauthor = "me"\n')
    assert_ruleset_error(path, "author", "unknown key")


WRONG_TYPES = [
    (KNIGHT_ROW, KNIGHT_ROW.replace("cost = 3", 'cost = "three"'), "pieces.N.cost", "must be a number"),
    (KNIGHT_ROW, KNIGHT_ROW.replace("cost = 3", "cost = true"), "pieces.N.cost", "must be a number"),
    (KNIGHT_ROW, KNIGHT_ROW.replace('name = "Knight"', "name = 3"), "pieces.N.name", "must be a string"),
    (KNIGHT_ROW, KNIGHT_ROW.replace('betza = "N"', "betza = 1"), "pieces.N.betza", "must be a string"),
    ("secret = true ", 'secret = "yes" ', "orders.secret", "true or false"),
    ("king_respawn_after = 3 ", 'king_respawn_after = "3" ', "economy.king_respawn_after", "whole number"),
    ('collisions = "implosion"', 'collisions = "explode"', "resolution.collisions", "must be one of"),
    ("events_from = 2\n", "events_from = 2.5\n", "events.events_from", "whole number"),
    ("P = { max = -1 }", 'P = { max = "low" }', "generation.ranks.P.max", "whole number"),
    ('abilities = ["royal"]', 'abilities = "royal"', "pieces.K.abilities", "list of strings"),
]


@pytest.mark.parametrize("old, new, key, words", WRONG_TYPES, ids=[f"{i}-{key}" for i, (_, _, key, _) in
                                                                   enumerate(WRONG_TYPES)])
def test_wrong_types(tmp_path, old, new, key, words):
    assert_ruleset_error(edited(tmp_path, old, new), key, words)


def test_bad_betza_points_at_the_character(tmp_path):
    path = edited(tmp_path, KNIGHT_ROW, KNIGHT_ROW.replace('betza = "N"', 'betza = "NBX"'))
    error = assert_ruleset_error(path, "pieces.N.betza", "unknown Betza atom 'X'", "position 3", "NBX")
    assert str(error).splitlines()[-1] == "  " + "  ^", "the caret sits under the X"


def test_bad_betza_modifier(tmp_path):
    path = edited(tmp_path, 'betza = "mKcNcD"', 'betza = "mKcNqD"')
    assert_ruleset_error(path, "pieces.Ht.betza", "unknown Betza modifier 'q'", "position 5")


def test_unknown_ability(tmp_path):
    path = edited(tmp_path, 'abilities = ["angel"]', 'abilities = ["angle"]')
    assert_ruleset_error(path, "pieces.An.abilities", "unknown ability 'angle'", "angel")


def test_duplicate_alias(tmp_path):
    path = edited(tmp_path, KNIGHT_ROW, KNIGHT_ROW + 'aliases = ["Ch"]\n')
    assert_ruleset_error(path, "pieces.C", "'Ch'", "already used by piece N")


def test_duplicate_full_name(tmp_path):
    """D20 makes names aliases, so two pieces may not share a name."""
    path = edited(tmp_path, 'name = "Dragon"', 'name = "Queen"')
    assert_ruleset_error(path, "pieces.Dr", "'Queen'", "already used by piece Q")


def test_alias_clashing_with_a_letter_case_insensitively(tmp_path):
    """D4 matches letters case-insensitively, so an alias ``n`` would make ``n(3,4)`` ambiguous."""
    path = edited(tmp_path, 'name = "Guard"', 'name = "Guard"\naliases = ["n"]')
    assert_ruleset_error(path, "pieces.G", "already used by piece N")


def test_unknown_piece_in_generation_ranks(tmp_path):
    path = edited(tmp_path, "Pl = { min = 1 }", "Pl = { min = 1 }\nPil = { min = 1 }")
    assert_ruleset_error(path, "generation.ranks.Pil", "no piece 'Pil'")


def test_unknown_piece_in_promotion(tmp_path):
    path = edited(tmp_path, 'exclude = ["K", "P"]', 'exclude = ["K", "Pw"]')
    assert_ruleset_error(path, "promotion.tiers[0]", "no piece 'Pw'")


def test_missing_required_key(tmp_path):
    path = edited(tmp_path, KNIGHT_ROW, KNIGHT_ROW.replace("cost = 3\n", ""))
    assert_ruleset_error(path, "pieces.N.cost", "missing")


def test_bad_piece_letter(tmp_path):
    path = edited(tmp_path, "[pieces.N]\n", "[pieces.kn]\n")
    assert_ruleset_error(path, "pieces.kn", "capital")


def test_two_royal_kinds(tmp_path):
    path = edited(tmp_path, 'name = "Guard"\ncost = 4\nbetza = "K"\n',
                  'name = "Guard"\ncost = 4\nbetza = "K"\nabilities = ["royal"]\n')
    assert_ruleset_error(path, "pieces", "only one kind may be royal")


def test_not_toml(tmp_path):
    path = edited(tmp_path, 'name = "neisg"\n', 'name = "neisg\n')
    assert_ruleset_error(path, "file", "not valid TOML")


def test_missing_file(tmp_path):
    assert_ruleset_error(tmp_path / "nothing.toml", "file", "not found")


def test_bad_bounds(tmp_path):
    path = edited(tmp_path, "[board]\n", "[board]\nbounds = [[0, 0], [5]]\n")
    assert_ruleset_error(path, "board.bounds", "[[xmin, ymin], [xmax, ymax]]")


def test_ruleset_from_dict_names_its_source():
    with pytest.raises(RulesetError) as info:
        ruleset_from_dict({"name": "tiny", "pieces": {"K": {"name": "King", "cost": 0, "betza": "K", "powers": []}}},
                          "inline")
    assert str(info.value).startswith("inline: pieces.K.powers: unknown key")


def test_a_minimal_ruleset_loads():
    ruleset = ruleset_from_dict({"name": "tiny", "pieces": {"K": {"name": "King", "cost": 0, "betza": "K",
                                                                  "abilities": ["royal"]}}}, "inline")
    assert ruleset.letters == ("K",) and ruleset.royal_letter == "K" and ruleset.bounds_for(2) is None
