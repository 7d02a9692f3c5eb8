"""The report's sentences told the quick way are those of the plain way (issue 25).

An update of 1,000 players tells 1,001 reports: the public one and a private one for each player.
:meth:`_Story.told` sorts the entries by type once and runs only the steps that concern the types
present; moves are read from their canonical form in one match; amounts are written from the
Fraction's numerator and denominator; balance changes are grouped by a key equal to the amount.
Each is compared here with the plain way it replaced, kept below as it was: the engine's reports of
every scenario of the catalogue (public, each player's, each private one with the public context),
reports made at random from the entries that meet in one sentence, and the report's JSON text.
"""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest

from bot.engine import report as report_module
from bot.engine.model import format_amount
from bot.engine.report import (Context, Entry, Report, _amount_key, _and, _change, _implosions, _move_of,
                               _piece_words, _SENTENCES, _generic, _signed, _Story, _victims, render)
from bot.engine.runner import run_scenario
from bot.engine.scenario import load_scenario

CATALOGUE = Path(__file__).resolve().parents[1] / "scenarios"
FILES = sorted(CATALOGUE.rglob("*.toml"))
_SQUARE = re.compile(r"\((-?\d+),(-?\d+)\)")


# ----------------------------------------------------------------------------- the plain way
def plain_move_of(order: str):
    if order.startswith("+") or ")-(" not in order:
        return None
    squares = [(int(x), int(y)) for x, y in _SQUARE.findall(order)]
    return (squares[0], squares[1]) if len(squares) >= 2 else None


def plain_change(amount, currency: str) -> str:
    form = currency[:-1] if abs(amount) == 1 and currency.endswith("s") else currency
    return f"{'+' if amount >= 0 else '-'}{format_amount(abs(amount))} {form}"


class PlainStory(_Story):
    """told() as it was before issue 25's pass: every step reads every entry."""

    def told(self) -> list[str]:
        entries, reader = self.entries, self.reader
        skip: set[int] = set()
        rewards: dict[int, dict[str, list[str]]] = {}
        orders_captured = {(e.players[0], victim) for e in entries if e.type == "order"
                           and e.data.get("outcome") == "captured" for victim in _victims(e)}
        captures_paid: dict[tuple[str, str], list[int]] = {}
        played_orders: dict[tuple[tuple[str, ...], str], list[int]] = {}
        for index, entry in enumerate(entries):
            if entry.type == "balance" and str(entry.data.get("reason", "")).startswith("captured "):
                reason = str(entry.data["reason"])
                cut = min([at for at in (reason.find(", "), reason.find(": ")) if at >= 0] + [len(reason)])
                captures_paid.setdefault((entry.players[0], reason[:cut]), []).append(index)
            elif entry.type == "order" and entry.data.get("outcome") == "played":
                played_orders.setdefault((entry.players, str(entry.data.get("order"))), []).append(index)
        for index, entry in enumerate(entries):
            if entry.type == "order" and entry.data.get("outcome") == "captured":
                for victim in _victims(entry):
                    transfer = f"captured {victim.rsplit(' on (', 1)[0]} (D19)"
                    paid = [(other, f"captured {victim}", None)
                            for other in captures_paid.get((entry.players[0], f"captured {victim}"), ())]
                    paid += [(other, transfer, ", D19") for other in captures_paid.get((entry.players[0], transfer), ())]
                    for other, prefix, said in paid:
                        if other in skip:
                            continue
                        skip.add(other)
                        balance = entries[other]
                        rest = said if said is not None else str(balance.data["reason"])[len(prefix):]
                        rewards.setdefault(index, {}).setdefault(victim, []).append(_signed(balance) + rest)
            elif entry.type == "capture" and not entry.data.get("sniped"):
                if all((player, _piece_words(entry)) in orders_captured for player in entry.data["by"]):
                    skip.add(index)
            elif entry.type == "fallback":
                later = [i for i in played_orders.get((entry.players, str(entry.data["order"])), ()) if i > index]
                if later:
                    skip.add(later[0])
        bounces = {tuple(e.data["at"]) for e in entries if e.type == "bounce"}
        for index, entry in enumerate(entries):
            if (entry.type == "order" and entry.data.get("outcome") == "cancelled"
                    and str(entry.data.get("what", "")).startswith("bounce:")):
                move = plain_move_of(str(entry.data["order"]))
                if move is not None and move[1] in bounces:
                    skip.add(index)
        groups: dict[tuple, list[int]] = {}
        for index, entry in enumerate(entries):
            if entry.type == "balance" and index not in skip:
                d = entry.data
                groups.setdefault((d["reason"], d["amount"], d["currency"]), []).append(index)
        shared = {indices[0]: indices for indices in groups.values()
                  if len({entries[i].players[0] for i in indices}) > 1}
        for indices in shared.values():
            skip.update(indices[1:])
        implosions = [i for i, e in enumerate(entries) if e.type == "implosion"]
        skip.update(implosions[1:])
        played: dict[int, list[str]] = {}
        first = None
        for index, entry in enumerate(entries):
            if index in skip:
                continue
            if entry.type == "order" and entry.data.get("outcome", "played") == "played":
                if first is not None and entries[first].players == entry.players:
                    played[first].append(entry.data["order"])
                    skip.add(index)
                    continue
                first = index
                played[index] = [entry.data["order"]]
            else:
                first = None
        took: dict[str, int] = {}
        for index, entry in enumerate(entries):
            if entry.type == "order" and entry.data.get("outcome") == "captured" and index not in skip:
                for victim in _victims(entry):
                    took.setdefault(victim, index)
        after: dict[int, list[str]] = {}
        sentences = []
        for index, entry in enumerate(entries):
            if index in skip:
                continue
            if entry.type == "king_lost":
                capture = self.capture_of(entry.players[0], tuple(entry.data["at"]))
                later = took.get(_piece_words(capture)) if capture is not None else None
                if later is not None and later > index:
                    after.setdefault(later, []).append(self.king_lost(entry))
                    continue
            if index in played and len(played[index]) > 1:
                sentences.append(f"{self.subject(entry.players[0], _and(played[index]))} were played.")
            elif index in shared:
                sentences.append(self.shared_balance([entries[i] for i in shared[index]]))
            elif entry.type == "implosion":
                sentences.append(_implosions([tuple(entries[i].data["at"]) for i in implosions]))
            elif entry.type == "order":
                sentences.append(self.order(entry, rewards.get(index, {})))
            elif entry.type == "fallback":
                sentences.append(self.fallback(entry))
            elif entry.type == "king_lost":
                sentences.append(self.king_lost(entry))
            else:
                sentence = _SENTENCES.get(entry.type, _generic)(entry, reader)
                if sentence:
                    sentences.append(sentence)
            sentences += after.pop(index, [])
        return sentences


def plain_moves(entries: list[Entry]) -> tuple[dict, dict]:
    """The Context's moves by origin and by target, read when it was made, as they were."""
    moves_from: dict = {}
    moves_to: dict = {}
    for entry in entries:
        if entry.type == "order" and entry.players:
            move = plain_move_of(str(entry.data.get("order", "")))
            if move is not None:
                moves_from.setdefault(move[0], []).append((entry.players[0], move[1]))
                moves_to.setdefault(move[1], []).append((entry.players[0], move[0]))
    return moves_from, moves_to


def both_ways(entries: list[Entry], reader: str | None, context: Context) -> tuple[list[str], list[str]]:
    return _Story(entries, reader, context).told(), PlainStory(entries, reader, context).told()


def assert_told_alike(report: Report) -> int:
    """Every text an update tells from ``report``, the quick way and the plain way; how many."""
    public = report.public()
    context = Context(public)
    assert (context.moves_from, context.moves_to) == plain_moves(public)   # read when first asked
    told = 0
    quick, plain = both_ways(public, None, context)
    assert quick == plain
    players = sorted({p for e in report.entries for p in e.players})
    for name in players:
        for entries, ctx in ((report.for_player(name), Context(report.for_player(name))),
                             (report.concerning(name), context)):
            quick, plain = both_ways(entries, name, ctx)
            assert quick == plain, name
            told += 1
    return told + 1


# ----------------------------------------------------------------------------- the engine's reports
@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(CATALOGUE)) for p in FILES])
def test_every_scenarios_report_is_told_as_the_plain_way_tells_it(path):
    report = run_scenario(load_scenario(path)).report
    assert_told_alike(report)
    for name in sorted({p for e in report.entries for p in e.players}):      # the moves asked before the texts
        context = Context(report.for_player(name))
        assert (context.moves_to, context.moves_from) == plain_moves(report.for_player(name))[::-1]
    assert report.to_json_text() == json.dumps(report.to_json(), sort_keys=True)


def test_the_catalogue_holds_the_entries_the_quick_steps_skip_to():
    """The scenarios reach each step told() runs only when its types are present."""
    types = set()
    for path in FILES:
        types |= {e.type for e in run_scenario(load_scenario(path)).report.entries}
    assert {"order", "capture", "balance", "fallback", "bounce", "king_lost", "implosion"} <= types


# ----------------------------------------------------------------------------- reports at random
NAMES = ["Ann", "Bob", "Cleo", "Dan"]
KINDS = ["king", "knight", "rook"]


def _random_report(rng: random.Random) -> Report:
    """Entries that meet in one sentence, mixed at random: captures and their rewards and D19
    penalties, fallbacks and the orders they played, bounces and the orders they stopped, lost
    kings, implosions, balance changes shared or not (equal amounts as int, Fraction and float)."""
    report = Report(rng.randint(1, 9))
    square = lambda: (rng.randint(-3, 3), rng.randint(-3, 3))
    fmt = lambda s: f"({s[0]},{s[1]})"
    for _ in range(rng.randint(1, 14)):
        player = rng.choice(NAMES)
        other = rng.choice(NAMES)
        at, to = square(), square()
        order = f"{rng.choice('KNR')}{fmt(at)}-{fmt(to)}"
        pick = rng.randrange(11)
        if pick == 0:
            report.add("order", [player], order=order, outcome="played")
        elif pick == 1:
            kind = rng.choice(KINDS)
            victim = f"{other}'s {kind} on {fmt(to)}"
            report.add("order", [player], order=order, outcome="captured", what=victim)
            if rng.random() < 0.8:
                report.add("capture", [player], by=(player,) + ((other,) if rng.random() < 0.2 else ()),
                           owner=other, kind=kind, at=to, sniped=rng.random() < 0.1)
            if rng.random() < 0.7:
                report.add("balance", [player], amount=Fraction(rng.randint(1, 6), rng.choice([1, 2])),
                           currency="health", reason=f"captured {victim}" + rng.choice(["", ", shared by 2 (D14)"]))
            if rng.random() < 0.3:
                report.add("balance", [player], amount=Fraction(11), currency="health",
                           reason=f"captured {other}'s {kind} (D19)")
        elif pick == 2:
            first = order
            fallback = f"R{fmt(square())}-{fmt(square())}"
            report.add("fallback", [player], first=first, order=fallback,
                       why=rng.choice(["the capturable piece was captured", "blocked",
                                       f"the square was empty, the rook dodged to {fmt(square())}",
                                       "the square was empty, the rook had left"]))
            if rng.random() < 0.8:
                report.add("order", [player], order=fallback, outcome="played")
        elif pick == 3:
            report.add("bounce", [player, other], at=to, pieces=f"{player}'s rook and {other}'s knight")
            report.add("order", [player], order=order, outcome="cancelled", what="bounce: stopped")
        elif pick == 4:
            report.add("order", [player], order=order, outcome="cancelled",
                       what=rng.choice(["bounce: stopped", "something else"]))
        elif pick == 5:
            report.add("king_lost", [other], at=to, respawn=report.update + 2)
        elif pick == 6:
            report.add("implosion", [], at=square())
        elif pick == 7:
            amount = rng.choice([Fraction(1), 1, 1.0, Fraction(1, 2), 0.5, Fraction(-4), -4, Fraction(3, 2)])
            report.add("balance", [player], amount=amount, currency=rng.choice(["health", "points"]),
                       reason=rng.choice(["regeneration", "+1 a point"]))
        elif pick == 8:
            report.add("order", [player], order=order, outcome=rng.choice(["dodged", "held", "destroyed"]),
                       what=rng.choice([f"the square was empty, the king dodged to {fmt(to)}",
                                        "the square was empty, the knight had left", "blocked"]), at=to)
        elif pick == 9:
            report.add("elimination" if rng.random() < 0.5 else "resignation", [player])
        else:
            report.add("order", [player], order=f"+N{fmt(at)}", outcome="played")
        if rng.random() < 0.1:
            entry = report.entries.pop()
            report.add(entry.type, entry.players, "private", **entry.data)
    return report


def test_reports_at_random_are_told_as_the_plain_way_tells_them():
    rng = random.Random(25)
    told = 0
    for _ in range(1500):
        report = _random_report(rng)
        told += assert_told_alike(report)
        assert report.to_json_text() == json.dumps(report.to_json(), sort_keys=True)
    assert told > 5000


def test_a_report_changed_after_it_was_told_is_told_afresh():
    """Nothing is kept between tellings: an entry added is told (and grouped) the next time."""
    report = Report(3)
    report.add("balance", ["Ann"], amount=Fraction(1), currency="health", reason="regeneration")
    assert render(report.public()) == "- Ann: +1 health (regeneration)."
    report.add("balance", ["Bob"], amount=1, currency="health", reason="regeneration")
    assert render(report.public()) == "- Regeneration: +1 health for Ann and Bob."
    assert _Story(report.public(), None, Context(report.public())).told() == \
        PlainStory(report.public(), None, Context(report.public())).told()


# ----------------------------------------------------------------------------- the pieces
@pytest.mark.parametrize("order", [
    "K(3,7)-(2,7)", "Q(-12,0)-(-12,-40)", "+N(1,2)", "K(3,7)", "Sp(1,1)-(2,2)x(3,3)", "K(1,2)-(3,4)=Q",
    "N(0,6)-(2,7) / R(30,40)-(30,45)", "X(a,b)-(1,2)", "K( 1,2)-(3,4)", "K(1,2) -(3,4)", "(1,2)-(3,4)",
    "K(1,2)-(3,4)-(5,6)", "K(+1,2)-(3,4)", "K(1,2)-(3,4", "K(1,2)(5,5)-(3,4)", "Kx(1,2)-(3,4)",
    "K(١,2)-(3,4)", "K(1_0,2)-(3,4)", "K(1,2)-(-0,4)", "", "+K(1,2)-(3,4)", "K((1,2)-(3,4)", "K(1,2))-((3,4)",
])
def test_a_move_is_read_as_the_squares_in_it(order):
    assert _move_of(order) == plain_move_of(order)


def test_moves_at_random_are_read_as_the_squares_in_them():
    rng = random.Random(7)
    alphabet = "KN+()-,0123456789 x="
    for _ in range(20000):
        order = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        assert _move_of(order) == plain_move_of(order), order


AMOUNTS = [0, 1, -1, 2, -2, 17, -300, Fraction(0), Fraction(1), Fraction(-1), Fraction(5, 2), Fraction(-5, 2),
           Fraction(1, 2), Fraction(-1, 2), Fraction(1, 3), Fraction(-7, 3), Fraction(10 ** 20), 1.0, 0.5, -2.5,
           True, False]


@pytest.mark.parametrize("amount", AMOUNTS, ids=repr)
@pytest.mark.parametrize("currency", ["health", "points", "energy", "s", ""])
def test_an_amount_is_written_as_format_amount_writes_it(amount, currency):
    assert _change(amount, currency) == plain_change(amount, currency)


def test_the_amounts_key_groups_what_the_amount_groups():
    keys: dict = {}
    plain: dict = {}
    for index, amount in enumerate(AMOUNTS + [Fraction(2), 2.0, Fraction(-1, 2), -0.5]):
        keys.setdefault(_amount_key(amount), []).append(index)
        plain.setdefault(amount, []).append(index)
    assert list(keys.values()) == list(plain.values())


def test_the_quick_helpers_are_those_the_report_uses():
    assert report_module._Story.told is not PlainStory.told
    assert render([Entry("balance", ("Ann",), data={"amount": Fraction(5, 2), "currency": "points",
                                                   "reason": "x"})]) == "- Ann: +2.5 points (x)."
