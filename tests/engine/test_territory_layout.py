"""Territory's ruleset file (RULES.md 5.4.1, 5.4.3): the default layout, and the checks a moderator's
edit meets when the file is loaded (the file, the key and the problem)."""

from __future__ import annotations

import copy
import tomllib

import pytest

from bot.engine.ruleset import RULESET_DIR, RulesetError, load_preset, ruleset_from_dict

TERRITORY = load_preset("territory")
RULES = TERRITORY.family_rules
RAW = tomllib.loads((RULESET_DIR / "territory.toml").read_text(encoding="utf-8"))


def _load(edit) -> object:
    data = copy.deepcopy(RAW)
    edit(data)
    return ruleset_from_dict(data, "my-territory.toml")


def _refusal(edit) -> str:
    with pytest.raises(RulesetError) as refused:
        _load(edit)
    return str(refused.value)


def test_the_default_layout_has_the_areas_of_5_4_1():
    areas = {}
    for square in RULES.squares():
        areas.setdefault(RULES.area(square), []).append(square)
    assert areas["goal"] == [(0, 0)]
    assert len(areas["neutral"]) == 8
    assert {name: len(areas[name]) for name in ("Green", "Purple", "Yellow", "Orange")} == dict.fromkeys(
        ("Green", "Purple", "Yellow", "Orange"), 9)
    assert len(areas["home:Red"]) == len(areas["home:Blue"]) == 22
    assert len(areas["plain"]) == 32
    assert RULES.area((-3, -2)) == "Green" and RULES.area((3, 2)) == "Yellow" and RULES.area((0, 3)) == "plain"
    assert TERRITORY.board.bounds == ((-5, -5), (5, 5))       # the layout's bounds are the board's


def test_the_layout_is_symmetric_red_for_blue():
    """T1: (x,y) -> (x,-y) swaps Red and Blue, Green and Orange, Purple and Yellow."""
    swap = {"home:Red": "home:Blue", "home:Blue": "home:Red", "Green": "Orange", "Orange": "Green",
            "Purple": "Yellow", "Yellow": "Purple"}
    for x, y in RULES.squares():
        area = RULES.area((x, y))
        assert RULES.area((x, -y)) == swap.get(area, area)


def test_the_cycle_pool_and_limits():
    assert RULES.cycle == ("Red", "Blue", "Green", "Red", "Blue", "Yellow", "Red", "Blue", "Purple", "Red", "Blue",
                           "Orange")
    assert [RULES.slot_name(t) for t in (1, 2, 3, 12, 13)] == ["Red", "Blue", "Green", "Orange", "Red"]
    assert " ".join(RULES.kinds) == ("Bal Chs Fire Fre Ice Infy Ldr Lf Lts Mir Moon Prtl Pwr Rck Shdw Sld Sun Wind "
                                     "Wood Wtr")
    assert (RULES.copies, RULES.start_kinds, RULES.area_size, RULES.draft_max, RULES.reserve_max,
            RULES.turn_hours) == (2, 3, 6, 3, 7, 24)


def test_full_names_without_spaces_and_lotus_are_aliases():
    for text, letter in (("Balance", "Bal"), ("WhiteLotus", "Lts"), ("lotus", "Lts"), ("SHADOW", "Shdw"),
                         ("fire", "Fire"), ("Infinity", "Infy")):
        assert TERRITORY.match_letters(text) == [letter]
    assert TERRITORY.match_letters("Lot") == []                 # no prefixes (T38)


def _territory(data, index):
    return data["layout"]["territories"][index]


@pytest.mark.parametrize("edit, words", [
    (lambda d: _territory(d, 0).update(squares=[[[-4, -4], [-2, -1]]]), "layout.territories[0].squares: Green overlaps Red's home"),
    (lambda d: _territory(d, 1).update(name="Red"), "layout.territories[1].name: a territory may not be named 'Red'"),
    (lambda d: _territory(d, 1).update(name="goal"), "may not be named 'goal'"),
    (lambda d: d["layout"].update(cycle=["Red", "Green", "Purple", "Yellow", "Orange"]), "the cycle has no Blue turn"),
    (lambda d: d["layout"].update(cycle=["Red", "Blue", "Green", "Purple", "Yellow"]), "territory Orange is missing from the cycle"),
    (lambda d: d["layout"].update(cycle=["Red", "Blue", "Grey", "Green", "Purple", "Yellow", "Orange"]), "'Grey' is neither"),
    (lambda d: d["layout"].update(neutral=[[[-2, -1], [1, 1]]]), "layout.territories[0].squares: Green overlaps the neutral zone on (-2,-1)"),
    (lambda d: d["layout"]["home"].update(Red=[[[-5, -6], [5, -4]]]), "layout.home.Red[0]"),
    (lambda d: d["layout"].update(home={"Red": [[[-5, -5], [5, -4]]]}), "layout.home: must name exactly Red and Blue"),
    (lambda d: d["layout"].update(goal=[0, 9]), "layout.goal: (0,9) is outside the bounds"),
    (lambda d: d["layout"].update(colour="gold"), "layout.colour: unknown key"),
    (lambda d: d["layout"].pop("cycle"), "layout.cycle: missing"),
    (lambda d: d["draft"].update(reserve_max=-1), "draft.reserve_max: must be a whole number"),
    (lambda d: d["draft"].update(copies=1), "draft.copies"),
    (lambda d: d.pop("layout"), "layout: missing"),
    (lambda d: d["layout"].update(bounds=[[-500, -500], [500, 500]]), "layout.bounds: a territory board has at most"),
])
def test_a_wrong_layout_is_refused_with_the_file_the_key_and_the_problem(edit, words):
    message = _refusal(edit)
    assert message.startswith("my-territory.toml: ") and words in message, message


def test_the_goal_inside_the_neutral_rectangle_is_cut_out():
    assert (0, 0) not in RULES.neutral and len(RULES.neutral) == 8


def test_a_moderator_may_move_the_territories_with_no_code():
    def edit(data):
        _territory(data, 0)["squares"] = [[[-4, -3], [-3, -1]]]       # Green loses a column
        data["layout"]["cycle"] = ["Red", "Blue", "Green", "Yellow", "Red", "Blue", "Purple", "Orange"]
    rules = _load(edit).family_rules
    assert rules.area((-2, -2)) == "plain" and rules.slot_name(4) == "Yellow" and len(rules.cycle) == 8


def test_other_families_may_not_write_territory_tables():
    with pytest.raises(RulesetError, match="layout: unknown key"):
        ruleset_from_dict({"name": "x", "layout": {}, "pieces": {"K": {"name": "King", "cost": 0, "betza": "K"}}},
                          "x.toml")
