"""Issue 25: a large update's health board and its overview are drawn by worker processes while
the rest is prepared.

The posts and the timelapse frame are the same, byte for byte, whether the workers draw the
pictures or this process does; a worker that dies (killed, a broken pool) costs the update
nothing: the picture is drawn here, and the next large update starts a new worker.
"""

from __future__ import annotations

import os
import signal
from fractions import Fraction

import pytest

from bot.engine.model import Player
from bot.engine.resolution import resolve
from bot.engine.ruleset import load_preset
from bot.engine.state import GameState
from bot.engine.variants import variant_for
from bot.render.board import render_board
from bot.render.paint.health import render_health_board
from bot.service import render_pool
from bot.service.render_pool import IN_PARALLEL_FROM, RenderPool
from bot.service.updates import prepare_update

COLOURS = ["Red", "Blue", "Green/Gold", "Teal", "Crimson/Yellow", "Purple", "Orange", "Lime/Amber"]


def _update(players: int):
    """A neisg game of ``players`` kings (some with a queen), resolved once: the states before and
    after, the report, the players' user ids."""
    ruleset = load_preset("neisg")
    names = [f"Player{i:04d}" for i in range(players)]
    roster = [Player(n, COLOURS[i % len(COLOURS)], Fraction(10 + i % 41)) for i, n in enumerate(names)]
    pieces = [dict(kind="K", owner=n, square=(4 * i, 0)) for i, n in enumerate(names)]
    pieces += [dict(kind="Q", owner=n, square=(4 * i, 2)) for i, n in enumerate(names) if i % 3 == 0]
    state = GameState.build(ruleset, pieces, roster, update=3)
    orders = {names[i]: f"K({4 * i},0)-({4 * i},1)" for i in range(0, players, 2)}
    new_state, report = resolve(ruleset, state, orders, seed=5)
    return ruleset, state, new_state, report, {n: 1000 + i for i, n in enumerate(names)}


@pytest.fixture(scope="module")
def large():
    return _update(IN_PARALLEL_FROM + 40)


@pytest.fixture
def pool(monkeypatch):
    # the large game's overview (320 pieces) goes to its worker too, as one of 50,000 pieces does
    monkeypatch.setattr(render_pool, "OVERVIEW_IN_PARALLEL_FROM", 300)
    made = RenderPool()
    yield made
    made.close()


def _prepare(update, pool=None):
    ruleset, state, new_state, report, user_ids = update
    return prepare_update(ruleset, state, new_state, report, user_ids, "pool test", "default", [], None, pool)


def test_the_posts_are_the_same_whoever_draws_the_health_board(large, pool):
    here = _prepare(large)
    there = _prepare(large, pool)
    assert pool._executor is not None and pool._overview_executor is not None      # the workers drew them
    assert [d.kind for d in there.drafts][:3] == ["board", "health_image", "health_text"]
    assert there == here
    assert there.frame.png == there.drafts[0].attachment        # the frame is the board the worker drew


def test_a_small_board_is_drawn_here_without_a_worker(pool):
    small = _update(12)
    assert _prepare(small, pool) == _prepare(small)
    assert pool._executor is None and pool._overview_executor is None
    pool.warm(12, 16)
    assert pool._executor is None and pool._overview_executor is None


def test_a_killed_worker_costs_the_update_nothing_and_the_next_one_gets_a_new_worker(large, pool):
    ruleset, _, new_state, _, _ = large
    variant = variant_for(ruleset)
    panel = variant.standings_panel(new_state)
    expected = render_health_board(panel, new_state, game_title=variant.title).png
    pool.warm(len(new_state.players))
    assert pool.health_board(panel, new_state, game_title=variant.title).png() == expected
    first = pool._executor
    for pid in list(first._processes):
        os.kill(pid, signal.SIGKILL)
    # the dead worker's job, or the broken pool's refusal: drawn here all the same
    assert pool.health_board(panel, new_state, game_title=variant.title).png() == expected
    drawn = pool.health_board(panel, new_state, game_title=variant.title).png()
    assert drawn == expected
    assert pool._executor is not None and pool._executor is not first


def test_where_no_worker_can_start_the_board_is_drawn_here(large, pool, monkeypatch):
    def refused():
        raise OSError("no processes here")

    monkeypatch.setattr(render_pool, "_context", refused)
    pool.warm(IN_PARALLEL_FROM, render_pool.OVERVIEW_IN_PARALLEL_FROM)          # never raises: the update goes on
    assert pool._executor is None and pool._overview_executor is None
    assert _prepare(large, pool) == _prepare(large)


def test_a_drawing_that_fails_fails_the_same_here_and_keeps_the_worker(large, pool):
    """An error of the drawing itself (an unknown palette) is the caller's, as without a worker;
    the worker is not to blame and stays."""
    ruleset, _, new_state, _, _ = large
    variant = variant_for(ruleset)
    panel = variant.standings_panel(new_state)
    pool.warm(len(new_state.players))
    worker = pool._executor
    with pytest.raises(ValueError, match="unknown palette"):
        pool.health_board(panel, new_state, game_title=variant.title, palette="sepia").png()
    assert pool._executor is worker
    assert pool.health_board(panel, new_state, game_title=variant.title).png() == \
        render_health_board(panel, new_state, game_title=variant.title).png


def test_the_worker_keeps_pillow_s_memory_and_draws_each_board_as_this_process_does(large, pool):
    """The worker keeps a picture's memory for the next one (no page faults for 49 MB each board):
    boards of other sizes, one after another in the kept memory, are the boards drawn here."""
    from PIL import Image

    ruleset, state, new_state, _, _ = large
    variant = variant_for(ruleset)
    other = _update(IN_PARALLEL_FROM + 90)[2]
    pool.warm(len(new_state.players))
    assert pool._executor.submit(Image.core.get_blocks_max).result() == render_pool.KEPT_BLOCKS > 0
    for drawn in (new_state, other, state, new_state):
        panel = variant.standings_panel(drawn)
        assert pool.health_board(panel, drawn, game_title=variant.title).png() == \
            render_health_board(panel, drawn, game_title=variant.title).png


def test_a_killed_overview_worker_costs_the_update_nothing_and_the_next_one_gets_a_new_worker(large, pool):
    ruleset, _, new_state, _, _ = large
    expected = render_board(ruleset, new_state)
    pool.warm(0, len(new_state.board))
    assert pool._executor is None            # the health board's worker is not needed for this
    assert pool.board(ruleset, new_state).result() == expected
    first = pool._overview_executor
    for pid in list(first._processes):
        os.kill(pid, signal.SIGKILL)
    # the dead worker's job, or the broken pool's refusal: drawn here all the same
    assert pool.board(ruleset, new_state).result() == expected
    assert pool.board(ruleset, new_state).result() == expected
    assert pool._overview_executor is not None and pool._overview_executor is not first
    # and the whole update, after another death
    for pid in list(pool._overview_executor._processes):
        os.kill(pid, signal.SIGKILL)
    assert _prepare(large, pool) == _prepare(large)


def test_each_update_s_overview_is_its_own(pool):
    """The worker draws one board after another: each is the board of its own position (nothing
    kept from the one before: coordinates, owners, colours, the pieces' number)."""
    updates = [_update(IN_PARALLEL_FROM + n) for n in (40, 90, 70)]
    for ruleset, state, new_state, _, _ in updates + updates[:1]:
        for drawn in (new_state, state):
            assert pool.board(ruleset, drawn).result() == render_board(ruleset, drawn)
        assert pool._overview_executor is not None
    with pytest.raises(ValueError, match="unknown palette"):
        pool.board(ruleset, state, palette="sepia")


def test_a_small_overview_is_drawn_here(large, pool, monkeypatch):
    ruleset, _, new_state, _, _ = large
    monkeypatch.setattr(render_pool, "OVERVIEW_IN_PARALLEL_FROM", len(new_state.board) + 1)
    assert pool.board(ruleset, new_state).result() == render_board(ruleset, new_state)
    assert pool._overview_executor is None


def test_the_health_board_s_call_is_read_back_as_the_values_sent():
    """The call is pickled field by field (render_pool._CallPickler): read back, it equals the
    panel and roster sent, of every kind of value a panel holds (events, teams, players who left,
    halves, a player with every field set, a Fraction in a nested value), types included."""
    import pickle

    from bot.engine.standings import Standing
    from bot.engine.variants.base import PanelEvent, PanelOut, PanelRow, StandingsPanel, TeamTotal

    rows = tuple(PanelRow(Standing(rank, f"P{rank}", "Red", Fraction(2 * rank + 1, 2), Fraction(rank), Fraction(-3),
                                   rank % 2 == 0), f"{rank}. P{rank} (Red)", "+1 Regen", rank == 3)
                 for rank in range(1, 6))
    panel = StandingsPanel(title="Health board", currency="health", rows=rows,
                           events=(PanelEvent("Fog", 3, 2, 6, "Fog falls.", ((1, 2), (-3, 4))),),
                           next_event_draw=7, legend=(("💖", "has a king"),), ranking="by score",
                           teams=(TeamTotal("North", 3, Fraction(7, 2)),), winners=("P1",), result="P1 wins",
                           shown=20, out=(PanelOut("Cleo", "Blue", "Cleo (Blue): eliminated (D30)"),))
    players = {"P1": Player("P1", "Red", Fraction(11, 2), Fraction(3), "active", "North", 4, (5, -6), 7, ("+Q(1,2)",)),
               "P2": Player("P2", "Green/Gold")}
    call = (panel, render_pool._Roster(players, 9, None), dict(game_title="Neisg", palette="default",
                                                               extra=[Fraction(1, 3), Fraction(4)]))
    back = pickle.loads(render_pool._pickled(call))
    assert back == call
    assert [type(row.standing.score) for row in back[0].rows] == [Fraction] * 5
    assert type(back[1].players["P1"]) is Player and back[1].players["P1"].pending == ("+Q(1,2)",)
    assert back[0].rows[0].standing.score == Fraction(3, 2) and back[2]["extra"][1].denominator == 1
