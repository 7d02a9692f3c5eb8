"""What a variant says about events (RULES 6), for the views, the health board and the demo, which
no longer read the ruleset's [events] section themselves (issue 18 item 2)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.state import ActiveEvent, GameState
from bot.engine.variants import load_variant, variant_for

NEISG = load_preset("neisg")


def _state(update: int, **kwargs) -> GameState:
    return GameState.build(NEISG, [dict(kind="K", owner="Red", square=(0, 0))],
                           [Player("Red", "Red", Fraction(10))], update=update, **kwargs)


def test_the_schedule_of_draws():
    neisg, sandbox = load_variant("neisg"), load_variant("sandbox")
    assert neisg.first_event == 2 and sandbox.first_event == 25
    # one every 7 updates from update 2, none with fewer than 7 updates left to run (min_left)
    assert neisg.event_draws(20) == [2, 9] and neisg.event_draws(22) == [2, 9, 16]
    assert sandbox.event_draws(20) == []                 # a 20-update sandbox session draws none
    assert sandbox.event_draws(40) == [25, 39]


def test_events_in_force_name_the_hill_squares_and_count_the_pool():
    state = _state(20, events=(ActiveEvent("King of the Hill", 16), ActiveEvent("Harvest", 9)),
                   past_events=("Harvest", "King of the Hill"), marked=((3, 4), (-1, 2)))
    variant = load_variant("neisg")
    events = variant.events_in_force(state)
    assert [(e.name, e.left, e.ends) for e in events] == [("Harvest", 4, 23), ("King of the Hill", 11, 30)]
    assert events[0].squares == () and events[1].squares == ((3, 4), (-1, 2))
    assert "health" in events[1].sentence                # the ruleset's currency, not a placeholder
    assert variant.events_left(state) == 10              # 12 in the pool, 2 drawn
    assert variant.next_event_draw(state) == 23


def test_a_ruleset_without_events_answers_none():
    quiet = variant_for(replace(NEISG, source=f"{NEISG.source}#quiet", events=replace(NEISG.events, pool=())))
    state = _state(5)
    assert not quiet.features.events
    assert quiet.first_event is None and quiet.event_draws(100) == []
    assert quiet.next_event_draw(state) is None and quiet.events_left(state) == 0
    assert quiet.standings_panel(state).next_event_draw is None


def test_a_games_first_event_setting():
    assert NEISG.with_events_from(None) is NEISG and NEISG.with_events_from(2) is NEISG
    moved = NEISG.with_events_from(5)
    assert moved.source != NEISG.source and moved != NEISG          # never passes for the preset
    assert variant_for(moved).first_event == 5 and variant_for(moved).event_draws(20) == [5, 12]
