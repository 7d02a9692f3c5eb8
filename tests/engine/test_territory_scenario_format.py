"""Territory's scenario additions (RULES.md 5.4.9, T39): read strictly, compared key by key, printed back,
and ``moves`` (5.4.6's last line)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine.runner import run_scenario, state_to_toml
from bot.engine.scenario import ScenarioError, load_scenario

ROOT = Path(__file__).resolve().parents[2]

BASE = """ruleset = "territory"
update = 1
seed = 5
description = "a position"
players = [
  { name = "Ann", colour = "Red", reserve = ["Mir", "Wood"] },
  { name = "Bob", colour = "Blue" },
]
pieces = [
  { owner = "Ann", kind = "Bal", at = [0, -4] },
  { owner = "Bob", kind = "Sun", at = [3, 2] },
]

[territory]
draft_area = ["Bal", "Chs", "Ice", "Lts", "Moon", "Wtr"]

[orders]
Ann = "Bal(0,-4)-(0,-2)"
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "case.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _error(tmp_path: Path, text: str) -> str:
    with pytest.raises(ScenarioError) as error:
        load_scenario(_write(tmp_path, text))
    return str(error.value)


def test_the_territory_part_is_read(tmp_path):
    scenario = load_scenario(_write(tmp_path, BASE))
    territory = scenario.state.territory
    assert territory.reserve("Ann") == ("Mir", "Wood") and territory.reserve("Bob") == ()
    assert territory.quiet == 0 and territory.copies == frozenset()
    # the default bag: the pool of 40 minus the reserves, the draft area and the board
    assert len(territory.bag) == 40 - 2 - 6 - 2
    assert territory.bag.count("Sun") == 1 and territory.bag.count("Bal") == 0


def test_the_default_bag_leaves_out_mirror_copies_and_never_goes_below_zero(tmp_path):
    text = BASE.replace('{ owner = "Bob", kind = "Sun", at = [3, 2] },',
                        '{ owner = "Bob", kind = "Mir", at = [3, 2] },\n  { owner = "Bob", kind = "Mir", at = [3, 3], '
                        'copy = true },\n  { owner = "Bob", kind = "Bal", at = [4, 4] },')
    territory = load_scenario(_write(tmp_path, text)).state.territory
    assert territory.bag.count("Mir") == 0          # 2 - Ann's reserve - Bob's placed Mirror; the copy is extra
    assert territory.bag.count("Bal") == 0          # 2 - 1 in the draft area - 2 on the board: not -1
    assert len(territory.copies) == 1


@pytest.mark.parametrize("edit, words", [
    (('draft_area = [', 'slot = 4\ndraft_area = ['), "[territory] slot 4 does not match update 1"),
    (('draft_area = [', 'quiet = 24\ndraft_area = ['), "quiet must be 0 to 23"),
    (('reserve = ["Mir", "Wood"]', 'reserve = ["Mir", "Wood", "Sun", "Sun", "Ice", "Ice", "Bal", "Fire"]'),
     "Ann's reserve holds 8: at most 7 (T39)"),
    (('at = [3, 2] }', 'at = [3, 2], copy = true }'), "copy = true is only for a Mirror, not a Sun (T39)"),
    (('{ owner = "Bob", kind = "Sun", at = [3, 2] }', '{ kind = "Sun", at = [3, 2] }'), "every territory piece has an owner (T39)"),
    (('at = [3, 2] }', 'at = [0, -4] }'), "two pieces share the square (0,-4) (T39)"),
    (('at = [3, 2] }', 'at = [0, 0] }'), "the goal is already controlled"),
    (('colour = "Blue"', 'colour = "Green"'), "a territory player's colour is Red (player 0) or Blue, not 'Green'"),
    (('colour = "Blue"', 'colour = "Red"'), "two players are Red"),
    (('draft_area = ["Bal"', 'draft_area = ["Bishop"'), "unknown piece kind 'Bishop' in draft_area"),
    (('draft_area = [', 'colour = "gold"\ndraft_area = ['), "unknown key [territory] 'colour'"),
    (('reserve = ["Mir", "Wood"]', 'reserve = ["Mir"], reserves = ["Wood"]'), "unknown key [players] 'reserves'"),
    (('Ann = "Bal(0,-4)-(0,-2)"', 'Ann = "Bal(0,-4)-(0,-2)"\n\n[expect]\ncontrol = { Grey = "Ann" }'),
     "[expect] control names 'Grey', which is neither a territory nor Goal"),
    (('Ann = "Bal(0,-4)-(0,-2)"', 'Ann = "Bal(0,-4)-(0,-2)"\n\n[expect]\nnext = { update = 2 }'),
     "[expect] next needs both update and player"),
    (('Ann = "Bal(0,-4)-(0,-2)"', 'Ann = "Bal(0,-4)-(0,-2)"\n\n[expect]\nreserve = { Ann = [] }'),
     "unknown key [expect] 'reserve'"),
])
def test_a_malformed_territory_scenario_names_the_file_and_the_problem(tmp_path, edit, words):
    old, new = edit
    assert old in BASE
    message = _error(tmp_path, BASE.replace(old, new, 1))
    assert message.startswith(str(tmp_path / "case.toml")) and words in message, message


def test_other_rulesets_do_not_take_territory_keys(tmp_path):
    text = 'ruleset = "neisg"\n[territory]\nquiet = 1\n'
    assert "unknown key 'territory'" in _error(tmp_path, text)


def test_every_expect_key_is_compared(tmp_path):
    text = BASE + """
[expect]
reserves = { Ann = ["Wood"], Bob = [] }
draft_area = ["Bal"]
bag = ["Sun"]
control = { Yellow = "", Goal = "Ann" }
drawn = true
next = { update = 3, player = "Ann" }
"""
    differences = run_scenario(load_scenario(_write(tmp_path, text))).differences
    assert differences == [
        "reserve of Ann: expected ['Wood'], got ['Mir', 'Wood']",
        "draft_area: expected ['Bal'], got ['Bal', 'Chs', 'Ice', 'Lts', 'Moon', 'Wtr']",
        f"bag: expected ['Sun'], got {list(load_scenario(_write(tmp_path, BASE)).state.territory.bag)}",
        "control of Yellow: expected nobody, got Bob",
        "control of Goal: expected Ann, got nobody",
        "drawn: expected true, got false",
        'next: expected { update = 3, player = "Ann" }, got { update = 2, player = "Bob" }',
    ]


def test_expect_compares_copy_on_pieces_where_written(tmp_path):
    """5.4.9: `copy = true` marks a Mirror copy in [expect]'s pieces too, compared like the pieces'
    optional fields; other rulesets refuse the key."""
    placed = BASE.replace('Ann = "Bal(0,-4)-(0,-2)"', 'Ann = "+Mir(0,-5)+(1,-5)"')
    expect = """
[expect]
pieces = [
  { owner = "Ann", kind = "Bal", at = [0, -4] },
  { owner = "Bob", kind = "Sun", at = [3, 2] },
  { owner = "Ann", kind = "Mir", at = [0, -5], copy = MIRROR },
  { owner = "Ann", kind = "Mir", at = [1, -5], copy = COPY },
]
"""
    right = expect.replace("MIRROR", "false").replace("COPY", "true")
    assert run_scenario(load_scenario(_write(tmp_path, placed + right))).differences == []
    wrong = expect.replace("MIRROR", "true").replace("COPY", "false")
    assert run_scenario(load_scenario(_write(tmp_path, placed + wrong))).differences == [
        "piece differs: expected Ann Mir on (0,-5) (copy=True), got Ann Mir on (0,-5) (copy=False)",
        "piece differs: expected Ann Mir on (1,-5) (copy=False), got Ann Mir on (1,-5) (copy=True)",
    ]
    assert "[expect] piece copy must be true or false, not 'yes'" in _error(
        tmp_path, placed + expect.replace("MIRROR", '"yes"').replace("COPY", "true"))
    other = 'ruleset = "neisg"\n[expect]\npieces = [{ kind = "N", at = [0, 0], copy = true }]\n'
    assert "unknown key [expect] 'copy'" in _error(tmp_path, other)


def test_print_writes_the_position_after_the_turn_as_a_scenario(tmp_path):
    scenario = load_scenario(_write(tmp_path, BASE.replace('Ann = "Bal(0,-4)-(0,-2)"',
                                                           'Ann = "Bal(0,-4)-(0,-2); +Mir(0,-5)+(1,-5)"')))
    outcome = run_scenario(scenario)
    printed = state_to_toml(scenario, outcome.state)
    assert 'reserve = ["Wood"]' in printed and "copy = true" in printed
    assert "[territory]\nslot = 1\n" in printed and "quiet = 0" in printed
    assert '# control = { Green = "", Purple = "", Yellow = "Bob", Orange = "", Goal = "" }' in printed
    assert '# next = { update = 2, player = "Bob" }' in printed
    again = load_scenario(_write(tmp_path, printed))            # the printout is a scenario of the next turn
    before, after = outcome.state.territory, again.state.territory
    assert again.update == 2 and (after.reserves, after.draft_area, after.bag, after.quiet) == (
        before.reserves, before.draft_area, before.bag, before.quiet)
    copy = [p.square for p in again.state.board if p.id in after.copies]
    assert copy == [(1, -5)]                                    # ids are handles: the copy is found again


def test_moves_lists_plain_moves_jumps_and_first_legs(tmp_path):
    text = """ruleset = "territory"
description = "moves"
players = [{ name = "Ann", colour = "Red" }, { name = "Bob", colour = "Blue" }]
pieces = [
  { owner = "Ann", kind = "Shdw", at = [-5, -5] },
  { owner = "Ann", kind = "Rck", at = [0, -1] },
  { owner = "Ann", kind = "Ice", at = [4, -5] },
  { owner = "Ann", kind = "Sun", at = [4, -4] },
  { owner = "Bob", kind = "Fire", at = [2, 2] },
  { owner = "Bob", kind = "Sld", at = [1, 0] },
]
"""
    result = subprocess.run([sys.executable, "-m", "bot.engine", "moves", str(_write(tmp_path, text))],
                            capture_output=True, text=True, cwd=ROOT, check=True)
    dests = {(p["kind"], tuple(p["at"])): [tuple(s) for s in p["dests"]] for p in json.loads(result.stdout)["pieces"]}
    assert dests[("Ice", (4, -5))] == []                                    # Ice never moves
    assert dests[("Sun", (4, -4))] == []                                    # frozen by the Ice (T13)
    shadow = dests[("Shdw", (-5, -5))]      # it jumps next to another ally (T19), frozen ones included
    assert (0, 0) in shadow and (1, -2) in shadow and (3, -4) in shadow
    assert (1, 0) in shadow                 # onto Bob's Shield: a Shield does not guard itself (T15)
    assert (2, -2) not in shadow and (-4, -4) not in shadow
    rock = dests[("Rck", (0, -1))]          # a king step or a two-step over an empty square (T11)
    assert (0, 0) in rock and (0, 1) in rock and (1, 0) in rock and (-2, -1) in rock
    # Bob's Fire: its first leg only, a knight move, not onto Bob's own Shield
    assert dests[("Fire", (2, 2))] == [(0, 1), (0, 3), (1, 4), (3, 0), (3, 4), (4, 1), (4, 3)]
