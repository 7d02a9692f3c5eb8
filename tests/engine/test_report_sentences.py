"""The report's sentences read right for the channel and for the player concerned (INTERFACES.md,
"The report"): a private report says "you" and "your", never "You's" or "You lost their king"; one
clear sentence per outcome, naming whose piece; routine changes summed up (issue 27 item 4). Only
the words change: the entries, and the balance changes they add up to, are the engine's."""

import re
from fractions import Fraction
from pathlib import Path

import pytest

from bot.engine.report import PRIVATE, Entry, Report, render
from bot.engine.runner import run_scenario
from bot.engine.scenario import load_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"

ENTRIES = [
    Entry("sale", ("Red",), data={"kind": "rook", "at": (1, 2)}),
    Entry("resignation", ("Red",)),
    Entry("elimination", ("Red",), data={"rejoin": 15}),
    Entry("elimination", ("Red",)),
]


def test_the_channel_reads_names() -> None:
    assert render(ENTRIES).splitlines() == [
        "- Red's rook on (1,2) was sold (balance below 0).",
        "- Red resigned; their pieces left the board.",
        "- Red is removed from the game (balance below 0 with nothing left to sell, RULES 5.1), with no automatic "
        "respawn; Red may re-join from update 15 on (P33).",
        "- Red is eliminated (D30): their balance stayed below 0 after all their other pieces were gone; there is "
        "no respawn.",
    ]


def test_the_player_concerned_reads_you_and_your() -> None:
    assert render(ENTRIES, "Red").splitlines() == [
        "- Your rook on (1,2) was sold (balance below 0).",
        "- You resigned; your pieces left the board.",
        "- You are removed from the game (balance below 0 with nothing left to sell, RULES 5.1), with no automatic "
        "respawn; you may re-join from update 15 on (P33).",
        "- You are eliminated (D30): your balance stayed below 0 after all your other pieces were gone; there is "
        "no respawn.",
    ]
    assert render([Entry("refused", ("Red",), PRIVATE, {"text": "N(0,0)", "reason": "no piece"})], "Red") == (
        "- Your order 'N(0,0)' was refused: no piece")


# ============================================================================= a lost king
KING_LOST = Entry("king_lost", ("Red",), data={"at": (1, 2), "respawn": 5})
CAPTURED = Entry("capture", ("Blue",), data={"by": ("Blue",), "owner": "Red", "kind": "king", "at": (1, 2)})


def test_a_lost_king_says_when_it_respawns_and_who_took_it() -> None:
    assert render([KING_LOST]) == ("- Red lost their king on (1,2); it respawns automatically at the end of update 5 "
                                   "unless Red places a new king first.")
    assert render([KING_LOST], "Red", context=[CAPTURED, KING_LOST]) == (
        "- You lost your king on (1,2) to Blue; it respawns automatically at the end of update 5 unless you place a "
        "new king first.")


@pytest.mark.parametrize("leaving", [Entry("elimination", ("Red",)), Entry("resignation", ("Red",))])
def test_a_player_who_leaves_is_promised_no_respawn(leaving) -> None:
    """Issue 27: a private report said the king "respawns automatically" and then "You are eliminated"."""
    text = render([KING_LOST, leaving], "Red")
    assert "respawn" not in text.splitlines()[0]
    assert text.splitlines()[0] == "- You lost your king on (1,2)."


def test_an_eliminated_players_private_report_does_not_contradict_itself() -> None:
    """A king captured, the debts of the update eliminate its owner (D30): the report of a real update."""
    scenario = load_scenario(SCENARIOS / "neisg" / "s4-d30-eliminated.toml")
    report = run_scenario(scenario).report
    assert report.of_type("elimination") and report.of_type("king_lost"), "the scenario is about this"
    victim = report.of_type("elimination")[0].players[0]
    private = report.private_text(victim)
    assert "eliminated" in private and "respawns automatically" not in private


# ============================================================================= whose piece dodged
def test_a_dodge_names_the_piece_and_its_owner() -> None:
    """Issue 27: "K(3,7)-(2,7) found the square empty: the square was empty, the king dodged to (2,6)"."""
    attack = Entry("order", ("Ann",), data={"order": "K(3,7)-(2,7)", "outcome": "dodged",
                                             "what": "the square was empty, the king dodged to (2,6)"})
    dodge = Entry("order", ("Bob",), data={"order": "K(2,7)-(2,6)", "outcome": "played"})
    assert render([attack, dodge]).splitlines() == [
        "- Ann: K(3,7)-(2,7) found (2,7) empty: Bob's king dodged to (2,6) (D10).",
        "- Bob: K(2,7)-(2,6) was played.",
    ]
    # Ann's private report holds only her order: the public report says whose king it was
    assert render([attack], "Ann", context=[attack, dodge]) == (
        "- Your K(3,7)-(2,7) found (2,7) empty: Bob's king dodged to (2,6) (D10).")
    assert render([attack], "Ann") == "- Your K(3,7)-(2,7) found the square empty: the king dodged to (2,6) (D10)."


def test_a_private_report_names_the_dodger_from_a_real_update() -> None:
    scenario = load_scenario(SCENARIOS / "neisg" / "s8-timethief-dodge.toml")
    report = run_scenario(scenario).report
    assert "Your Tt(3,5)-(3,0) found (5,1) empty: Blue's knight dodged to (7,2) (D10)." in report.private_text("Red")


def test_a_fallback_says_why_in_words() -> None:
    """Issue 27: "failed: the capturable piece was captured" reworded."""
    report = run_scenario(load_scenario(SCENARIOS / "sandbox" / "s3-capturable-fallback-fires.toml")).report
    text = report.text()
    assert ("Blue: N(0,6)-(2,7) did not happen: the knight on (0,6) was capturable and Red captured it, so their "
            "fallback R(30,40)-(30,45) was played instead (D12).") in text
    assert "R(30,40)-(30,45) was played." not in text        # told once, by the fallback's sentence
    assert "the capturable piece was captured" not in text
    assert "so your fallback R(30,40)-(30,45)" in report.private_text("Blue")


# ============================================================================= summed up
def _regenerating(names: list[str]) -> Report:
    report = Report(7)
    report.add("order", ["Ann"], order="K(0,0)-(0,1)", outcome="played")
    for name in names:
        report.add("balance", [name], amount=Fraction(1), currency="health", reason="regeneration")
    report.add("balance", ["Ann"], amount=Fraction(-4), currency="health", reason="generated rook on (-9,4)")
    return report


def test_regeneration_is_one_line() -> None:
    names = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim"]
    lines = _regenerating(names).text().splitlines()
    assert lines == [
        "Update 7",
        "- Ann: K(0,0)-(0,1) was played.",
        "- Regeneration: +1 health for Ann, Bob, Cleo, Dan, Eve, Fay, Gus, Hal, Ida, Jo and Kim.",
        "- Ann: -4 health (generated rook on (-9,4)).",
    ]
    assert _regenerating(["Ann", "Bob"]).private_text("Ann").splitlines()[1:] == [
        "- Your K(0,0)-(0,1) was played.",
        "- You: +1 health (regeneration).",
        "- You: -4 health (generated rook on (-9,4)).",
    ]


def test_one_players_orders_played_in_a_row_are_one_sentence() -> None:
    report = Report(3)
    for order in ("P(1,2)-(1,3)", "N(2,2)-(3,4)", "Q(5,5)-(6,6)"):
        report.add("order", ["Ann"], order=order, outcome="played")
    report.add("order", ["Bob"], order="K(9,9)-(9,8)", outcome="played")
    assert report.text().splitlines()[1:] == [
        "- Ann: P(1,2)-(1,3), N(2,2)-(3,4) and Q(5,5)-(6,6) were played.",
        "- Bob: K(9,9)-(9,8) was played.",
    ]


def test_a_shared_capture_is_told_in_each_capturers_line_once() -> None:
    report = run_scenario(load_scenario(SCENARIOS / "sandbox" / "s3-collision-capturable-shared-fallback.toml")).report
    text = report.text()
    assert ("Green: B(1,1)-(5,5) captured Blue's knight on (5,5) together with Red (+1 energy, shared by 2 (D14))."
            in text)
    assert "Red: R(0,5)-(5,5) captured Blue's knight on (5,5) together with Green" in text
    assert "Green and Red captured" not in text.replace("was capturable and Green and Red captured it", "")
    assert "Green's bishop and Red's rook arrived on (5,5) together: a collision (RULES 3.4)." in text


# ============================================================================= every amount is told
SIGNED = re.compile(r"([+-]\d+(?:\.5)?) (health|energy|points?)")


def _told_amounts(text: str, reader: str | None) -> dict[str, Fraction]:
    """Each player's balance change as the rendered text tells it: a player's line, a shared line
    ("... for Ann and Bob"), or the reward written in a capturer's order line."""
    totals: dict[str, Fraction] = {}
    for line in text.splitlines()[1:]:
        line = line.removeprefix("- ")
        shared = re.search(r": ([+-][\d.]+) (?:health|energy|points?) for ([^()]+)\.$", line)
        if shared:
            names = re.split(r", | and ", shared.group(2))
            for name in names:
                name = reader if name == "you" else name
                totals[name] = totals.get(name, Fraction(0)) + Fraction(shared.group(1))
            continue
        own = re.match(r"^(\w+): ([+-][\d.]+) (?:health|energy|points?) \(", line)
        if own:
            name = reader if own.group(1) == "You" else own.group(1)
            totals[name] = totals.get(name, Fraction(0)) + Fraction(own.group(2))
            continue
        order = re.match(r"^(\w+):? [^ ]+ captured ", line) or re.match(r"^(Your) [^ ]+ captured ", line)
        if order:
            name = reader if order.group(1) == "Your" else order.group(1)
            for amount, _ in SIGNED.findall(line):
                totals[name] = totals.get(name, Fraction(0)) + Fraction(amount)
    return {name: amount for name, amount in totals.items() if amount}


@pytest.mark.parametrize("path", sorted(str(p.relative_to(SCENARIOS)) for p in SCENARIOS.glob("*/*.toml")
                                        if p.parent.name in ("neisg", "sandbox", "arena", "megachess")))
def test_the_told_amounts_add_up_to_each_players_change(path) -> None:
    """INTERFACES.md: balance changes in the entries add up to each player's change; summing up
    lines must not lose one (every scenario of the simultaneous families, as the channel reads it)."""
    scenario = load_scenario(SCENARIOS / path)
    report = run_scenario(scenario).report
    changes = {name: amount for name, amount in report.balance_changes().items() if amount}
    assert _told_amounts(report.text(), None) == changes


def test_a_lost_king_is_told_right_after_the_order_that_took_it() -> None:
    report = run_scenario(load_scenario(SCENARIOS / "neisg" / "king-captured.toml")).report
    lines = report.text().splitlines()
    took = lines.index("- Red: R(5,0)-(5,5) captured Blue's king on (5,5) (+11 health, D19).")   # D19 paid to Red
    assert lines[took + 1].startswith("- Blue lost their king on (5,5) to Red; it respawns automatically")
