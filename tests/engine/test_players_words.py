"""What players read, second pass (issue 39): counts agree with their nouns ("1 point", "8 pieces",
never "1 points" or "piece(s)"), a verb agrees with "You", a standings row does not say its numbers
twice where a picture gives them columns, and a removed player is told the truth about re-joining."""

from __future__ import annotations

from fractions import Fraction

from bot.engine.model import Player, amount_in, counted
from bot.engine.report import Entry, render
from bot.engine.ruleset import load_preset
from bot.engine.state import GameState
from bot.engine.variants import variant_for


def test_an_amount_of_one_takes_the_singular():
    assert [counted(n, "piece") for n in (0, 1, 8)] == ["0 pieces", "1 piece", "8 pieces"]
    assert counted(Fraction(3, 2), "point") == "1.5 points"
    assert [amount_in(n, "points") for n in (1, 2)] == ["1 point", "2 points"]
    assert amount_in(1, "health") == "1 health" and amount_in(7, "health") == "7 health"


def test_the_goal_s_winner_reads_a_verb_that_agrees():
    won = [Entry("goal_won", ("Ann",), data={"at": (0, 0)})]
    assert render(won) == "- Ann controls the goal (0,0) and wins (T9)."
    assert render(won, "Ann") == "- You control the goal (0,0) and win (T9)."


def test_counted_pieces_and_obstacles_in_the_report():
    entries = [Entry("army", ("Lev",), data={"victim": "Kasia", "count": 8}),
               Entry("army", ("Lev",), data={"victim": "Ines", "count": 1}),
               Entry("join", ("Hugo",), data={"team": "brushed metal", "at": (1, 2), "count": 15}),
               Entry("join", ("Ada",), data={"team": "alabaster", "at": (3, 4), "count": 1}),
               Entry("obstacles_removed", (), data={"count": 1}),
               Entry("obstacles_removed", (), data={"count": 3})]
    text = render(entries)
    assert "(s)" not in text
    assert "the remaining 8 pieces go to Lev (D61)" in text and "the remaining 1 piece goes to Lev (D61)" in text
    assert "a starter army of 15 pieces (D62, D63)" in text and "a starter army of 1 piece (D62, D63)" in text
    assert "- 1 obstacle crumbled." in text and "- 3 obstacles crumbled." in text
    assert "your remaining 1 piece goes to Lev" in render(entries[1:2], "Ines")
    winner = [Entry("winner", ("Ann",), data={"winners": ("Ann",), "points": 1, "reason": "the last one left"})]
    assert render(winner) == "- Ann wins with 1 point: the last one left."


def test_standings_lines_say_1_point():
    arena = load_preset("arena")
    state = GameState.build(arena, [dict(owner="Ann", kind="K", square=(0, 0)),
                                    dict(owner="Bob", kind="K", square=(5, 5))],
                            [Player("Ann", "Red", Fraction(1), captured=Fraction(1)), Player("Bob", "Blue")])
    panel = variant_for(arena).standings_panel(state)
    assert panel.lines[0].startswith("1. Ann (Red): 1 point --- 1 piece, 1 king")
    assert panel.lines[1].startswith("2. Bob (Blue): 0 points")
    megachess = load_preset("megachess")
    state = GameState.build(megachess, [dict(owner="Hugo", kind="K", square=(0, 0))],
                            [Player("Hugo", "Forest", Fraction(1), team="brushed metal")])
    assert variant_for(megachess).standings_panel(state).lines == ["1. Hugo (Forest, brushed metal): 1 point"]


def test_arena_has_no_captured_column_that_repeats_the_points():
    """D50: an arena player's points are the value they captured, grown together; the column said
    the same number as "Points" on every row."""
    arena = load_preset("arena")
    state = GameState.build(arena, [dict(owner="Ann", kind="K", square=(0, 0))],
                            [Player("Ann", "Red", Fraction(12), captured=Fraction(12))])
    panel = variant_for(arena).standings_panel(state)
    assert panel.rows[0].standing.captured == panel.rows[0].standing.balance == 12
    assert panel.captured_heading == ""
    assert variant_for(load_preset("megachess")).standings_panel(state).captured_heading == "Captured"


def test_a_neisg_row_in_a_picture_says_its_health_once():
    """The text line keeps RULES 4's form ("Health: 26 ❤️ +0 Regen, No King"); the picture, which
    draws the health as a bar with its number and the regeneration in a column, writes the label."""
    neisg = load_preset("neisg")
    state = GameState.build(neisg, [dict(owner="Ann", kind="R", square=(0, 0)), dict(owner="Bob", kind="K", square=(4, 4))],
                            [Player("Ann", "Red", Fraction(26), captured=Fraction(23)), Player("Bob", "Blue", Fraction(9))],
                            update=5)
    panel = variant_for(neisg).standings_panel(state)
    ann = panel.row_of("Ann")
    assert "Health: 26" in ann.line and "+0 Regen, No King" in ann.line            # RULES 4's text, as it was
    assert ann.words == "1. Ann (Red): 7" == ann.line.split(" --- ")[0]            # a rook costs 7
    assert "26" not in ann.words and "Regen" not in ann.words and ann.note          # the columns say them
    assert panel.label_heading == "Rank. Player (colour): score"


def test_a_removed_sandbox_player_may_re_join_now_once_the_update_has_come():
    sandbox = load_preset("sandbox")
    players = [Player("Ann", "Red", Fraction(5)), Player("Bob", "Blue", status="eliminated", rejoin_after=10)]
    pieces = [dict(kind="K", owner="Ann", square=(0, 0))]
    before = variant_for(sandbox).standings_panel(GameState.build(sandbox, pieces, players, update=9))
    assert before.out[0].line == "Bob (Blue): removed (RULES 5.1); may re-join from update 11 (P33)"
    players = [Player("Ann", "Red", Fraction(5)), Player("Bob", "Blue", status="eliminated", rejoin_after=10)]
    later = variant_for(sandbox).standings_panel(GameState.build(sandbox, pieces, players, update=20))
    assert later.out[0].line == "Bob (Blue): removed (RULES 5.1); may re-join now (P33)"
