"""Issue 25: the update's stages, and the posts made faster without changing a word.

Each player's private report is drawn from the entries that concern them, found in one pass over
the report (not one pass per player): the same entries, in the same order, as ``report.concerning``.
The update reports how long each of its stages took, in its result and in the log.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.engine.runner import run_scenario
from bot.engine.scenario import load_scenario
from bot.service.posts import entries_by_player

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios").glob("*/*.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_each_players_entries_are_the_ones_concerning_them(path):
    scenario = load_scenario(path)
    outcome = run_scenario(scenario)
    report = outcome.report
    found = entries_by_player(report)
    for name in sorted(set(scenario.state.players) | set(outcome.state.players) | set(found)):
        assert found.get(name, []) == report.concerning(name), name


async def test_an_update_says_how_long_each_stage_took(table, caplog):
    game = await table.playing_game()
    await table.service.submit_order(game.id, user_id=1, text="K(0,0)-(0,1)")
    with caplog.at_level(logging.INFO, logger="bot.service.updates"):
        result = await table.resolve(game.id)
    assert set(result.stages) == {"load", "resolve", "render", "store", "outbox", "total"}
    assert all(seconds >= 0 for seconds in result.stages.values())
    assert result.stages["total"] >= result.stages["resolve"] + result.stages["render"]
    logged = [r.getMessage() for r in caplog.records if "resolved (" in r.getMessage()]
    assert len(logged) == 1 and f"game {game.id}: update {game.update_no} resolved (load " in logged[0]
    assert "K(0,0)" not in logged[0]        # times only: never an order in the log
