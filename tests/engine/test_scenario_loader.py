"""Scenario files (SCENARIOS.md) are read strictly: a typo never passes silently. An unknown key is an
error naming the file, the table and the key (and the line); so are wrong types, unknown kinds and
owners that are not players."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from bot.engine.scenario import ScenarioError, load_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "neisg"

BASE = """\
ruleset = "neisg"
update = 4
seed = 7
description = "a small position"

[board]
implosions = [[2, 6]]
moved_last_update = [{ from = [1, 3], to = [3, 4] }]

[[players]]
name = "Red"
colour = "Red"
balance = 10.5

[[players]]
name = "Blue"
colour = "Blue"
balance = 10

[[pieces]]
owner = "Red"
kind = "N"
at = [4, 13]
check = "fresh"

[[pieces]]
owner = "Blue"
kind = "R"
at = [10, 13]
disabled = true

[[pieces]]
kind = "O"
at = [0, 0]

[orders]
Red = "N(3,15)"
Blue = "R(3,13)"

[expect]
pieces = [
  { owner = "Red", kind = "N", at = [3, 15], check = "none" },
]
balances = { Red = 11, Blue = 11 }
refused = { Blue = "(4,13)" }
"""


def write(tmp_path: Path, text: str, name: str = "scenario.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def edit(tmp_path: Path, old: str, new: str) -> Path:
    assert BASE.count(old) == 1, old
    return write(tmp_path, BASE.replace(old, new))


def error_of(path: Path) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    error = info.value
    assert str(path) in str(error), "the message names the file"
    return error


def line_of(path: Path, snippet: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if snippet in line)


# ----------------------------------------------------------------------------- a good file
def test_base_scenario_loads(tmp_path):
    scenario = load_scenario(write(tmp_path, BASE))
    assert scenario.ruleset.name == "neisg"
    assert (scenario.update, scenario.seed, scenario.description) == (4, 7, "a small position")
    state = scenario.state
    assert state.implosions == frozenset({(2, 6)})
    assert [(m.origin, m.target) for m in state.moved_last_update] == [((1, 3), (3, 4))]
    assert state.players["Red"].balance == Fraction(21, 2)
    assert state.board.bounds is None
    pieces = {(p.owner, p.kind, p.square): p for p in state.board}
    assert set(pieces) == {("Red", "N", (4, 13)), ("Blue", "R", (10, 13)), (None, "O", (0, 0))}
    assert pieces["Red", "N", (4, 13)].check == "fresh"
    assert pieces["Blue", "R", (10, 13)].disabled
    assert scenario.orders == {"Red": ["N(3,15)"], "Blue": ["R(3,13)"]}
    assert scenario.expect["balances"] == {"Red": 11, "Blue": 11}
    assert scenario.expect["refused"] == {"Blue": "(4,13)"}


EXAMPLES = ["blocked-path.toml", "capturable-cannot-dodge.toml", "dodge.toml", "fallback-on-dodge.toml",
            "generate.toml", "implosion-annihilates.toml", "implosion.toml", "king-captured.toml"]


def test_the_example_scenarios_load():
    """The eight examples of SCENARIOS.md, copied into the project's catalogue."""
    for name in EXAMPLES:
        path = SCENARIOS / name
        scenario = load_scenario(path)
        assert scenario.ruleset.name == "neisg"
        assert set(scenario.state.players) == {"Red", "Blue"}
        assert scenario.expect["pieces"], path.name


def test_implosion_scenario_keeps_two_pieces_on_one_square():
    scenario = load_scenario(SCENARIOS / "implosion-annihilates.toml")
    assert scenario.update == 3
    assert {p.kind for p in scenario.state.board.at((2, 6))} == {"N", "B"}


def test_bounds_from_the_scenario_override_the_ruleset(tmp_path):
    path = edit(tmp_path, "[board]\n", "[board]\nbounds = [[0, 0], [11, 9]]\n")
    assert load_scenario(path).state.board.bounds == ((0, 0), (11, 9))


def test_arena_scenario_gets_bounds_from_its_player_count(tmp_path):
    text = BASE.replace('ruleset = "neisg"', 'ruleset = "arena"').replace(
        '[[pieces]]\nkind = "O"\nat = [0, 0]\n\n', "")
    scenario = load_scenario(write(tmp_path, text))
    assert scenario.state.board.bounds == ((-7, -7), (7, 7))  # R = 3 + 2n with n = 2


def test_a_new_piece_power_up_names_its_piece(tmp_path):
    """SCENARIOS.md: `powerups = [{ kind = "new", piece = "Q", at = [0, 4] }]`; a new piece with no kind
    could not be placed, so the file is refused at its line."""
    text = BASE.replace('ruleset = "neisg"', 'ruleset = "arena"').replace(
        '[[pieces]]\nkind = "O"\nat = [0, 0]\n\n', "").replace("[board]\n", '[board]\npowerups = [{ kind = "new", at = [0, 4] }]\n')
    error = error_of(write(tmp_path, text))
    assert "a new-piece power-up names the kind it holds" in error.problem
    assert error.line == line_of(write(tmp_path, text), "powerups =")


def test_ruleset_may_be_a_file_next_to_the_scenario(tmp_path):
    custom = (Path(__file__).resolve().parents[2] / "assets" / "rulesets" / "neisg.toml").read_text(encoding="utf-8")
    (tmp_path / "house.toml").write_text(custom.replace('title = "Never-Ending Infinite Sandbox Game"',
                                                        'title = "House rules"'), encoding="utf-8")
    path = edit(tmp_path, 'ruleset = "neisg"', 'ruleset = "house.toml"')
    assert load_scenario(path).ruleset.title == "House rules"


# ----------------------------------------------------------------------------- unknown keys
@pytest.mark.parametrize("old, new, table, key", [
    ('description = "a small position"', 'descripton = "a small position"', None, "descripton"),
    ("implosions = [[2, 6]]", "implosion = [[2, 6]]", "board", "implosion"),
    ('colour = "Blue"', 'color = "Blue"', "players", "color"),
    ('check = "fresh"', 'chek = "fresh"', "pieces", "chek"),
    ('refused = { Blue = "(4,13)" }', 'refuse = { Blue = "(4,13)" }', "expect", "refuse"),
    ('{ owner = "Red", kind = "N", at = [3, 15], check = "none" }',
     '{ owner = "Red", kind = "N", at = [3, 15], chekc = "none" }', "expect", "chekc"),
    ("moved_last_update = [{ from = [1, 3], to = [3, 4] }]",
     "moved_last_update = [{ from = [1, 3], too = [3, 4] }]", "board", "too"),
], ids=["top-level", "board", "players", "pieces", "expect", "expect-piece", "board-move"])
def test_unknown_keys_name_the_file_table_key_and_line(tmp_path, old, new, table, key):
    path = edit(tmp_path, old, new)
    error = error_of(path)
    message = str(error)
    assert "unknown key" in message
    assert repr(key) in message
    if table:
        assert f"[{table}]" in message
    expected_line = line_of(path, new.split("\n")[0] if key not in ("chekc", "too") else key)
    assert error.line == expected_line
    assert f"{path}:{expected_line}:" in message


# ----------------------------------------------------------------------------- wrong values
@pytest.mark.parametrize("old, new, words", [
    ("balance = 10.5", 'balance = "ten"', "balance must be a number"),
    ("update = 4", 'update = "4"', "update must be a whole number"),
    ("seed = 7", "seed = 7.5", "seed must be a whole number"),
    ("at = [4, 13]", "at = [4]", "must be a square [x, y]"),
    ("at = [4, 13]", 'at = [4, "13"]', "must be a square [x, y]"),
    ("at = [4, 13]", "at = [4.0, 13]", "must be a square [x, y]"),
    ('check = "fresh"', 'check = "checked"', "check must be one of none, fresh, capturable, spent"),
    ("disabled = true", 'disabled = "yes"', "disabled must be true or false"),
    ('description = "a small position"', "description = 5", "description must be a string"),
    ('Red = "N(3,15)"', "Red = 15", "must be a string or a list of strings"),
    ("implosions = [[2, 6]]", "implosions = [2, 6]", "must be a square"),
    ("[board]\n", "[board]\nbounds = [[5, 5], [0, 0]]\n", "bounds must be [[xmin, ymin], [xmax, ymax]]"),
    ("balances = { Red = 11, Blue = 11 }", 'balances = { Red = "11" }', "must be a number"),
], ids=["balance", "update", "seed", "at-short", "at-string", "at-float", "check", "disabled", "description",
        "order", "implosions", "bounds", "expect-balances"])
def test_wrong_types(tmp_path, old, new, words):
    message = str(error_of(edit(tmp_path, old, new)))
    assert words in message


def test_unknown_kind(tmp_path):
    path = edit(tmp_path, 'kind = "R"', 'kind = "Rk"')
    error = error_of(path)
    assert "unknown piece kind 'Rk'" in str(error)
    assert error.line == line_of(path, 'kind = "Rk"')


def test_errors_point_at_the_right_table_of_an_array(tmp_path):
    """Scenarios repeat [[players]] and [[pieces]]: the line of an error is in the table at fault,
    not in the first table that uses the same key."""
    path = edit(tmp_path, "balance = 10\n", 'balance = "lots"\n')
    assert error_of(path).line == line_of(path, 'balance = "lots"')
    path = edit(tmp_path, 'kind = "O"\nat = [0, 0]', 'kind = "O"\nat = [0]')
    assert error_of(path).line == line_of(path, "at = [0]")
    path = edit(tmp_path, '{ owner = "Red", kind = "N", at = [3, 15]', '{ owner = "Red", kind = "Nx", at = [3, 15]')
    assert error_of(path).line == line_of(path, '"Nx"')


def test_kind_from_another_ruleset_is_unknown(tmp_path):
    """The time thief is neisg only (RULES 7)."""
    text = BASE.replace('ruleset = "neisg"', 'ruleset = "sandbox"').replace('kind = "R"', 'kind = "Tt"')
    assert "unknown piece kind 'Tt'" in str(error_of(write(tmp_path, text)))


def test_owner_must_be_a_player(tmp_path):
    path = edit(tmp_path, 'owner = "Blue"\nkind = "R"', 'owner = "Green"\nkind = "R"')
    error = error_of(path)
    assert "piece owner 'Green' is not a player" in str(error)
    assert error.line == line_of(path, 'owner = "Green"')


def test_orders_and_expectations_name_only_players(tmp_path):
    assert "'Green', who is not a player" in str(error_of(edit(tmp_path, 'Blue = "R(3,13)"', 'Green = "R(3,13)"')))
    assert "'Green', who is not a player" in str(error_of(
        edit(tmp_path, "balances = { Red = 11, Blue = 11 }", "balances = { Red = 11, Green = 11 }")))


def test_expected_piece_owner_must_be_a_player(tmp_path):
    path = edit(tmp_path, '{ owner = "Red", kind = "N"', '{ owner = "Redd", kind = "N"')
    assert "'Redd' is not a player" in str(error_of(path))


def test_two_players_with_one_name(tmp_path):
    path = edit(tmp_path, 'name = "Blue"', 'name = "Red"')
    assert "share a name" in str(error_of(path))


def test_piece_without_a_square(tmp_path):
    path = edit(tmp_path, "kind = \"O\"\nat = [0, 0]\n", "kind = \"O\"\n")
    assert "needs `at`" in str(error_of(path))


def test_missing_and_unknown_ruleset(tmp_path):
    assert "missing key 'ruleset'" in str(error_of(edit(tmp_path, 'ruleset = "neisg"\n', "")))
    error = error_of(edit(tmp_path, 'ruleset = "neisg"', 'ruleset = "nesig"'))
    assert "no preset named 'nesig'" in str(error) and error.line == 1


def test_broken_ruleset_file_is_reported_through_the_scenario(tmp_path):
    (tmp_path / "broken.toml").write_text('name = "broken"\n[pieces.K]\nname = "King"\ncost = 0\nbetza = "KX"\n',
                                          encoding="utf-8")
    error = error_of(edit(tmp_path, 'ruleset = "neisg"', 'ruleset = "broken.toml"'))
    assert "pieces.K.betza" in str(error) and "unknown Betza atom 'X'" in str(error)


def test_unknown_event(tmp_path):
    path = edit(tmp_path, "[board]\n", '[board]\nevents = [{ name = "Harvset", started = 2 }]\n')
    assert "unknown event 'Harvset'" in str(error_of(path))


def test_not_toml_gives_the_line(tmp_path):
    path = edit(tmp_path, "seed = 7", "seed = = 7")
    error = error_of(path)
    assert "not valid TOML" in str(error)
    assert error.line == 3


@pytest.mark.parametrize("old, new", [
    ("at = [4, 13]", "at = [1000001, 13]"),
    ("at = [4, 13]", "at = [4, -2000000]"),
    ("implosions = [[2, 6]]", "implosions = [[2, 60000000]]"),
], ids=["x", "y", "implosion"])
def test_d1_coordinates_beyond_a_million_are_refused(tmp_path, old, new):
    """D1: any coordinate with |x| or |y| above 1,000,000 is rejected as input, whatever the ruleset."""
    path = edit(tmp_path, old, new)
    error = error_of(path)
    assert "D1" in str(error) and "1,000,000" in str(error)
    assert error.line == line_of(path, new)


def test_d1_a_million_itself_is_accepted(tmp_path):
    scenario = load_scenario(edit(tmp_path, "at = [4, 13]", "at = [1000000, -1000000]"))
    assert any(p.square == (1_000_000, -1_000_000) for p in scenario.state.board)


def test_missing_file(tmp_path):
    error = error_of(tmp_path / "absent.toml")
    assert "cannot be read" in str(error)


def test_errors_in_expected_pieces_point_at_the_piece_at_fault(tmp_path):
    """`[expect] pieces` is one array of inline tables: an error in its third table names the third
    table's line, not the first line that uses the same key."""
    three = ('{ owner = "Red", kind = "N", at = [3, 15], check = "none" },\n'
             '  { owner = "Blue", kind = "R", at = [10, 13] },\n'
             '  { owner = "Blue", kind = "R", at = [11, 13] },')
    assert BASE.count('{ owner = "Red", kind = "N", at = [3, 15], check = "none" },') == 1
    text = BASE.replace('{ owner = "Red", kind = "N", at = [3, 15], check = "none" },', three)
    for old, new, words in [
        ('kind = "R", at = [11, 13]', 'kind = "Rx", at = [11, 13]', "unknown piece kind 'Rx'"),
        ("at = [11, 13]", "at = [11]", "must be a square"),
        ("at = [11, 13] }", "at = [11, 13], chekc = true }", "unknown key [expect] 'chekc'"),
        ('{ owner = "Blue", kind = "R", at = [11, 13] }', '{ owner = "Blue", kind = "R" }', "needs `at`"),
        ('owner = "Blue", kind = "R", at = [10, 13]', 'owner = "Bleu", kind = "R", at = [10, 13]',
         "'Bleu' is not a player"),
    ]:
        path = write(tmp_path, text.replace(old, new))
        error = error_of(path)
        assert words in str(error)
        assert error.line == line_of(path, new), new


def test_errors_deep_in_a_large_position_name_their_line(tmp_path):
    """Lines are looked for only when something is wrong, and then found in a big file too."""
    pieces = "".join(f'[[pieces]]\nowner = "Red"\nkind = "N"\nat = [{i}, 100]\n\n' for i in range(3000))
    text = BASE.replace("[[pieces]]\nkind = \"O\"", pieces + "[[pieces]]\nkind = \"O\"", 1)
    path = write(tmp_path, text.replace("at = [2718, 100]", "at = [2718, 100.5]"))
    error = error_of(path)
    assert "must be a square" in str(error)
    assert error.line == line_of(path, "at = [2718, 100.5]")
    path = write(tmp_path, text.replace('kind = "N"\nat = [2999, 100]', 'kind = "Nn"\nat = [2999, 100]'))
    assert error_of(path).line == line_of(path, 'kind = "Nn"')
    assert load_scenario(write(tmp_path, text)).state.board.at((2999, 100))
