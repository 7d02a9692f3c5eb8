"""The king penalty moves health, it never creates it (RULES 4, D19, D32, D36, P13).

Random ``neisg`` positions in which one to three players capture Vic's king at once, Vic holding a
random army and health (negative too, D32) and resigning or not, with or without Sudden Death:
Vic loses exactly ``4 + ceil(share x (score + health))`` worked from P0, a resigner like anyone
else (D36), and the capturers gain that much together, each share rounded up (P13).
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.model import Player
from bot.engine.resolution import resolve
from bot.engine.ruleset import load_preset
from bot.engine.state import ActiveEvent, GameState

NEISG = load_preset("neisg")
CAPTURERS = ["Ash", "Bea", "Cid"]
ARMY = ["P", "N", "G", "B", "R", "Q", "Dr"]
# each capturer's rook reaches (0,0) along its own line; every other piece stands far off those lines
LINES = [(0, -1), (-1, 0), (1, 0)]


@st.composite
def king_captures(draw):
    count = draw(st.integers(1, 3))
    health = Fraction(draw(st.integers(-6, 40)))
    army = draw(st.lists(st.sampled_from(ARMY), max_size=4))
    resigns = draw(st.booleans())
    sudden_death = draw(st.booleans())
    pieces = [dict(kind="K", owner="Vic", square=(0, 0))]
    pieces += [dict(kind=kind, owner="Vic", square=(50 + 3 * i, 50)) for i, kind in enumerate(army)]
    players = [Player("Vic", "Teal", health)]
    orders = {"Vic": "resign"} if resigns else {}
    for i, name in enumerate(CAPTURERS[:count]):
        dx, dy = LINES[i]
        distance = draw(st.integers(1, 5))
        start = (dx * distance, dy * distance)
        pieces += [dict(kind="K", owner=name, square=(-100 * (i + 1), -100)),
                   dict(kind="R", owner=name, square=start)]
        players.append(Player(name, ["Purple", "Crimson", "Yellow"][i], Fraction(10)))
        orders[name] = f"R({start[0]},{start[1]})-(0,0)"
    events = (ActiveEvent("Sudden Death", 2),) if sudden_death else ()
    state = GameState.build(NEISG, pieces, players, update=5, events=events,
                            past_events=tuple(e.name for e in events))
    score = sum((NEISG.pieces[kind].cost for kind in army), Fraction(0))
    share = Fraction(2, 5) if sudden_death else Fraction(1, 5)
    penalty = 4 + ceil(share * (score + health))
    return state, orders, count, resigns, penalty


@settings(max_examples=150, deadline=None)
@given(king_captures())
def test_the_capturers_gain_what_the_king_s_owner_loses(case):
    state, orders, count, resigns, penalty = case
    after, report = resolve(NEISG, state, orders, 0)
    context = (orders, penalty, report.to_json())
    assert not report.of_type("refused"), context
    changes = report.balance_changes()
    # the king is worth 0, so a capturer's change is its share of the penalty and its regeneration
    gains = [changes.get(name, 0) - 1 for name in CAPTURERS[:count]]
    assert gains == [ceil(Fraction(penalty, count))] * count, context
    assert penalty <= sum(gains) <= penalty + count - 1, context
    if resigns:  # no king, no pieces left to disintegrate: the penalty is Vic's whole change (D36)
        assert after.players["Vic"].balance == state.players["Vic"].balance - penalty, context
        assert after.players["Vic"].status == "resigned", context
    else:  # the penalty is charged first; debts may then disintegrate pieces (D17)
        assert any(e.type == "balance" and e.players == ("Vic",) and e.data["amount"] == -penalty
                   for e in report.entries), context
