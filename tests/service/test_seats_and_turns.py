"""Issue 20: the service asks the variant about seats, who may order now, early resolution and the
verdict. The shipped simultaneous games join by king placement, let everyone order and never end by
a win, so these tests seat a small test variant on the neisg rules: players take seats before the
start (2 to 3), Cleo may not order (she "sits out"), the update resolves early by default, and a
player who reaches 12 health wins (neisg: 10 at the start, +1 a resolved update with a king)."""

from __future__ import annotations

from functools import cached_property

import pytest

from bot.engine.variants import Seating, Verdict
from bot.engine.variants.simultaneous import SimultaneousVariant
from bot.service import Conflict, NotAllowed, WrongTime
from bot.service import base as service_base
from bot.service import games as service_games

from .conftest import MODERATOR

ALICE, BOB, CLEO, DAN = 1, 2, 3, 4


class SeatedVariant(SimultaneousVariant):
    seating = Seating(seats_before_start=True, joins_by_placement=False, min_players=2, max_players=3)

    @cached_property
    def features(self):
        from dataclasses import replace

        return replace(super().features, early_resolution=True)

    def may_order(self, state, player):
        if player == "Cleo":
            return "Cleo sits this update out (the test variant's rule)"
        return super().may_order(state, player)

    def who_may_order(self, state):
        return [name for name in super().who_may_order(state) if name != "Cleo"]

    def verdict(self, state):
        winners = tuple(sorted(name for name, p in state.players.items() if p.balance >= 12))
        return Verdict(winners, reason="12 health reached" if winners else "")


@pytest.fixture
def seated(monkeypatch):
    """Every game of the test is played by the SeatedVariant."""
    made = {}

    def variant_for(ruleset):
        return made.setdefault(ruleset, SeatedVariant(ruleset))

    monkeypatch.setattr(service_base, "variant_for", variant_for)
    monkeypatch.setattr(service_games, "variant_for", variant_for)


async def _seat(table, game, *players):
    for user_id, name, colour in players:
        await table.service.join(game.id, user_id=user_id, name=name, colour=colour)


SEATS = [(ALICE, "Alice", "Red"), (BOB, "Bob", "Blue"), (CLEO, "Cleo", "Green")]


async def _created(table, schedule="every 1 hour", settings=None):
    return await table.service.create_game(guild_id=1, channel_id=10, actor=MODERATOR, schedule=schedule, seed=7,
                                           settings=settings)


# ----------------------------------------------------------------------------- seats and set-up
async def test_players_take_seats_before_the_start_and_the_start_seats_them(seated, table):
    game = await _created(table)
    joined = await table.service.join(game.id, user_id=BOB, name="Bob", colour="Blue")
    assert "seat 1" in joined.next_step and "/game start" in joined.next_step
    await _seat(table, game, (ALICE, "Alice", "Red"), (CLEO, "Cleo", "Green"))
    await table.refused(table.service.join(game.id, user_id=DAN, name="Dan", colour="Yellow"), Conflict,
                        "all 3 seats", "are taken")
    started = await table.service.start_game(game.id, actor=MODERATOR)
    state = (await table.service.history(started.id, 0)).state
    assert state.seats == ("Bob", "Alice", "Cleo")                       # in the order they sat down
    assert {name: p.balance for name, p in state.players.items()} == {"Bob": 10, "Alice": 10, "Cleo": 10}
    announcement = (await table.posts(game.id))[-1].body
    assert "Seats: Bob (Blue), Alice (Red), Cleo (Green)" in announcement and "place your king" not in announcement


async def test_a_started_game_of_seats_takes_no_new_player(seated, table):
    game = await _created(table)
    await _seat(table, game, *SEATS[:2])
    await table.service.start_game(game.id, actor=MODERATOR)
    await table.refused(table.service.join(game.id, user_id=DAN, name="Dan", colour="Yellow"), NotAllowed,
                        "has started and takes no new players", "seats its players before the start")


async def test_a_game_needs_its_minimum_of_seats_to_start(seated, table):
    game = await _created(table)
    await _seat(table, game, SEATS[0])
    await table.refused(table.service.start_game(game.id, actor=MODERATOR), WrongTime,
                        "needs at least 2 players to start; 1 has taken a seat", "/join")


async def test_games_that_join_by_king_placement_still_refuse_seats_before_the_start(table):
    game = await _created(table)
    await table.refused(table.service.join(game.id, user_id=ALICE, name="Alice", colour="Red"), WrongTime,
                        "has not started yet", "/game start")


# ----------------------------------------------------------------------------- who may order now
async def _started(table, **kwargs):
    game = await _created(table, **kwargs)
    await _seat(table, game, *SEATS)
    return await table.service.start_game(game.id, actor=MODERATOR)


async def test_an_order_from_a_player_who_may_not_order_now_is_refused_with_the_variant_s_reason(seated, table):
    game = await _started(table)
    await table.refused(table.service.submit_order(game.id, user_id=CLEO, text="K(0,10)"), NotAllowed,
                        "Cleo sits this update out")


async def test_reminders_and_the_order_status_name_only_who_may_order(seated, table):
    game = await _started(table, settings={"early_resolution": False, "remind_before": 30})
    await table.service.submit_order(game.id, user_id=ALICE, text="K(0,0)")
    status = await table.service.order_status(game.id)
    assert (status.ordered, status.waiting) == (("Alice",), ("Bob",))
    table.clock.advance(minutes=31)
    assert await table.service.remind_if_due(game.id, 1)
    reminder = (await table.posts(game.id))[-1].body
    assert reminder.startswith("1 of 2 players have not moved for update 1: Bob.") and "Cleo" not in reminder


# ----------------------------------------------------------------------------- early resolution
async def test_the_update_resolves_once_everyone_who_may_order_has_ordered(seated, table):
    game = await _started(table)
    first = await table.service.submit_order(game.id, user_id=ALICE, text="K(0,0)")
    assert not first.resolves_now and (await table.service.get_game(game.id)).deadline_at == game.deadline_at
    last = await table.service.submit_order(game.id, user_id=BOB, text="K(10,0)")
    assert last.resolves_now and "resolves now" in last.text()
    moved = await table.service.get_game(game.id)
    assert moved.deadline_at == table.clock.now                     # the deadline is data: a restart keeps it
    result = await table.service.resolve_if_due(game.id, 1)         # no force: it is due
    assert result.resolved


async def test_early_resolution_is_a_game_setting(seated, table):
    game = await _started(table, settings={"early_resolution": False})
    await table.service.submit_order(game.id, user_id=ALICE, text="K(0,0)")
    receipt = await table.service.submit_order(game.id, user_id=BOB, text="K(10,0)")
    assert not receipt.resolves_now
    assert (await table.service.resolve_if_due(game.id, 1)).outcome == "not_due"


async def test_neisg_keeps_its_deadlines_by_default(table):
    game = await table.new_game()
    for user_id, _, _, (x, y) in table.PLAYERS:
        receipt = await table.service.submit_order(game.id, user_id=user_id, text=f"K({x},{y})")
        assert not receipt.resolves_now
    assert table.service.resolves_early(await table.service.get_game(game.id)) is False
    changed = await table.service.configure(game.id, actor=MODERATOR, settings={"early_resolution": True})
    assert table.service.resolves_early(changed)


async def test_a_nonsense_early_resolution_setting_is_refused(table):
    game = await table.new_game()
    await table.refused(table.service.configure(game.id, actor=MODERATOR, settings={"early_resolution": "yes"}),
                        Exception, "early_resolution must be true or false")


# ----------------------------------------------------------------------------- verdicts
async def test_a_won_game_ends_with_the_winners_and_the_final_standings(seated, table):
    game = await _started(table, settings={"early_resolution": False})
    for user_id, king in ((ALICE, "K(0,0)"), (BOB, "K(10,0)")):
        await table.service.submit_order(game.id, user_id=user_id, text=king)
    first = await table.resolve(game.id)
    assert first.resolved and not first.ended                    # 11 health each
    second = await table.resolve(game.id)
    assert second.resolved and second.ended                      # 12 health each: a shared win
    ended = await table.service.get_game(game.id)
    assert ended.status == "ended"
    bodies = [post.body for post in await table.posts(game.id) if post.kind == "announcement"]
    # one announcement: why it ended, who won, the final standings (issue 39: not two back to back)
    (result,) = [body for body in bodies if "has ended" in body or "Final standings" in body]
    assert f"**{game.name}** has ended: 12 health reached" in result
    assert "Alice and Bob share the win after update 2.\nFinal standings:" in result and "Health: 12" in result
    assert any(post.kind == "timelapse" for post in await table.posts(game.id))
