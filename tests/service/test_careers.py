"""Issue 42: ratings per server and family from the games that ended at their verdict, checked
against openskill's own numbers for a hand-made series of games; the rebuild gives the same numbers,
a rollback takes a result back, hidden members stay off the leaderboard; careers of endless games.

The games are played by a small test variant on the neisg rules whose result the test decides: two
to four seats taken before the start, the kings placed at update 1, the game over once update 2 has
resolved, and the players ranked by their health (set by a moderator's edit before update 2; each
king adds 1 at the update), the highest sharing the win. A player removed by a moderator is out of the standings."""

from __future__ import annotations

from functools import cached_property

import pytest
from openskill.models import PlackettLuce

from bot.engine.standings import Standing as EngineStanding
from bot.engine.variants import Seating, Verdict
from bot.engine.variants.simultaneous import SimultaneousVariant
from bot.service import Conflict, InvalidInput, NotFound, WrongTime
from bot.service import base as service_base
from bot.service import games as service_games
from bot.service.careers import PROVISIONAL_GAMES, rate, rating_model

from .conftest import MODERATOR

ALICE, BOB, CLEO, DAN, EVE = 1, 2, 3, 4, 5
NAMES = {ALICE: ("Alice", "Red", "K(0,0)"), BOB: ("Bob", "Blue", "K(10,0)"), CLEO: ("Cleo", "Green", "K(0,10)"),
         DAN: ("Dan", "Yellow", "K(10,10)"), EVE: ("Eve", "Purple", "K(20,20)")}


class RankedVariant(SimultaneousVariant):
    seating = Seating(seats_before_start=True, joins_by_placement=False, min_players=2, max_players=4)
    family = "ranked"
    #: updates before the verdict (a test of substitutes plays more)
    length = 2

    @cached_property
    def features(self):
        from dataclasses import replace

        return replace(super().features, winners=True)

    def standings(self, state):
        active = [p for p in state.players.values() if p.status == "active"]
        active.sort(key=lambda p: (-p.balance, p.name))
        return [EngineStanding(rank, p.name, p.colour, p.balance, p.captured, p.balance, True)
                for rank, p in enumerate(active, start=1)]

    def verdict(self, state):
        if state.update <= self.length:
            return Verdict()
        ranked = self.standings(state)
        best = ranked[0].balance
        return Verdict(tuple(s.name for s in ranked if s.balance == best), reason="the test's length")


@pytest.fixture
def ranked(monkeypatch):
    made = {}

    def variant_for(ruleset):
        return made.setdefault(ruleset, RankedVariant(ruleset))

    monkeypatch.setattr(service_base, "variant_for", variant_for)
    monkeypatch.setattr(service_games, "variant_for", variant_for)
    return RankedVariant


async def play(table, health: dict[int, int], *, guild_id: int = 1, channel_id: int = 10, kick: int | None = None):
    """One game to its verdict: the seats of ``health``'s members, their health set, every king
    placed at update 1; ``kick``: that member is removed before the update."""
    moderator = MODERATOR if guild_id == 1 else type(MODERATOR)(user_id=99, guild_id=guild_id)
    game = await table.service.create_game(guild_id=guild_id, channel_id=channel_id, actor=moderator, seed=7,
                                           schedule="manual")
    for user_id in health:
        name, colour, _ = NAMES[user_id]
        await table.service.join(game.id, user_id=user_id, name=name, colour=colour)
    await table.service.start_game(game.id, actor=moderator)
    for user_id in health:
        await table.service.submit_order(game.id, user_id=user_id, text=NAMES[user_id][2])
    assert not (await table.resolve(game.id)).ended
    for user_id, amount in health.items():
        await table.service.set_balance(game.id, actor=moderator, player=NAMES[user_id][0], amount=amount)
    if kick is not None:
        await table.service.kick(game.id, actor=moderator, user_id=kick)
    table.clock.advance(minutes=5)
    assert (await table.resolve(game.id)).ended
    return game


def by_hand(series, model=None):
    """openskill's own numbers: ``series`` is a list of games, each a list of (teams of user ids,
    places, weights or None); every member starts at the model's default rating."""
    model = model or PlackettLuce()
    skills = {}
    for teams, places, weights in series:
        rated = model.rate([[skills.setdefault(user, model.rating()) for user in team] for team in teams],
                           ranks=places, **({"weights": weights} if weights else {}))
        for team, new in zip(teams, rated):
            for user, skill in zip(team, new):
                skills[user] = skill
    return {user: (skill.mu, skill.sigma) for user, skill in skills.items()}


def numbers(ratings):
    return {user: (r.mu, r.sigma) for user, r in ratings.items()}


async def test_ratings_follow_openskill_for_a_series_with_a_shared_win_and_a_removed_player(ranked, table):
    await play(table, {ALICE: 30, BOB: 20, CLEO: 10})               # Alice, Bob, Cleo
    await play(table, {ALICE: 20, BOB: 30, CLEO: 30, DAN: 5})       # Bob and Cleo share the win, Alice, Dan
    await play(table, {BOB: 40, CLEO: 20, DAN: 30}, kick=BOB)       # Bob removed: last; Dan, Cleo
    ratings = (await table.service.ratings(1))[1]["ranked"]
    expected = by_hand([
        ([[ALICE], [BOB], [CLEO]], [1, 2, 3], None),
        ([[ALICE], [BOB], [CLEO], [DAN]], [3, 1, 1, 4], None),
        ([[BOB], [CLEO], [DAN]], [3, 2, 1], None),
    ])
    assert numbers(ratings) == expected
    assert {user: (r.games, r.wins) for user, r in ratings.items()} == {
        ALICE: (2, 1), BOB: (3, 1), CLEO: (3, 1), DAN: (2, 1)}
    assert ratings[BOB].mu < 25 < ratings[ALICE].mu


async def test_a_substitute_shares_the_seat_weighted_by_the_orders_each_sent(ranked, table, monkeypatch):
    monkeypatch.setattr(RankedVariant, "length", 3)
    game = await table.service.create_game(guild_id=1, channel_id=10, actor=MODERATOR, seed=7, schedule="manual")
    for user_id in (ALICE, BOB, CLEO):
        await table.service.join(game.id, user_id=user_id, name=NAMES[user_id][0], colour=NAMES[user_id][1])
    await table.service.start_game(game.id, actor=MODERATOR)
    moves = {ALICE: ["K(0,0)"], BOB: ["K(10,0)", "K(10,0)-(10,1)"], CLEO: ["K(0,10)"]}
    for update in range(3):
        if update == 1:
            for name, amount in (("Alice", 20), ("Bob", 50), ("Cleo", 20)):
                await table.service.set_balance(game.id, actor=MODERATOR, player=name, amount=amount)
        if update == 2:
            await table.service.substitute(game.id, actor=MODERATOR, player="Bob", user_id=DAN)
            moves[DAN] = [None, None, "K(10,1)-(10,2)"]
        for user_id, orders in moves.items():
            if update < len(orders) and orders[update]:
                await table.service.submit_order(game.id, user_id=user_id, text=orders[update])
        outcome = await table.resolve(game.id)
    assert outcome.ended
    ratings = (await table.service.ratings(1))[1]["ranked"]
    # the seat "Bob" won: Bob sent 2 of its orders, Dan 1 (weight 1/2); Alice and Cleo follow in the
    # standings' order (equal health, then by name: only a shared win or a draw ties)
    expected = by_hand([([[BOB, DAN], [ALICE], [CLEO]], [1, 2, 3], [[1.0, 0.5], [1.0], [1.0]])],
                       rating_model())
    assert numbers(ratings) == expected
    assert ratings[BOB].mu - 25 > ratings[DAN].mu - 25 > 0


async def test_the_rebuild_gives_the_same_numbers_and_the_cache_is_not_needed(ranked, table):
    await play(table, {ALICE: 30, BOB: 20, CLEO: 10})
    await play(table, {ALICE: 10, BOB: 20, CLEO: 30})
    first = await table.service.ratings()
    again = await table.service.ratings()
    assert first == again
    async with table.store.transaction() as q:          # the cache thrown away: worked out again from the games
        for result in await q.game_results():
            await q.forget_game_result(result.game_id)
    assert await table.service.ratings() == first
    async with table.store.snapshot_read() as q:
        assert len(await q.game_results()) == 2
    # the same results in another order give the same numbers: rate sorts them by end, then id
    results = await table.service._results(1)
    assert rate(reversed(results)) == rate(results) == first[1]


async def test_a_rollback_takes_the_result_back_and_the_replayed_end_counts_instead(ranked, table):
    await play(table, {ALICE: 30, BOB: 20, CLEO: 10})
    before = await table.service.ratings()
    game = await play(table, {ALICE: 10, BOB: 20, CLEO: 30}, channel_id=11)
    assert await table.service.ratings() != before
    reopened = await table.service.rollback(game.id, to_update=0, actor=MODERATOR, reason="a wrong update")
    assert reopened.status == "running"
    assert await table.service.ratings() == before                  # the ratings are as they were before
    posts = [p.body for p in await table.posts(game.id) if p.kind == "announcement"]
    assert any("runs again: its result no longer counts" in body for body in posts)
    assert reopened.update_no == 1
    for user_id in (ALICE, BOB, CLEO):
        await table.service.submit_order(game.id, user_id=user_id, text=NAMES[user_id][2])
    assert not (await table.resolve(game.id)).ended
    for user_id, amount in ((ALICE, 30), (BOB, 20), (CLEO, 10)):          # this time as in the first game
        await table.service.set_balance(game.id, actor=MODERATOR, player=NAMES[user_id][0], amount=amount)
    assert (await table.resolve(game.id)).ended
    ratings = (await table.service.ratings())[1]["ranked"]
    expected = by_hand([([[ALICE], [BOB], [CLEO]], [1, 2, 3], None),
                        ([[ALICE], [BOB], [CLEO]], [1, 2, 3], None)])
    assert numbers(ratings) == expected


async def test_a_game_a_moderator_ended_is_not_rated_and_stays_ended(ranked, table):
    game = await table.service.create_game(guild_id=1, channel_id=10, actor=MODERATOR, seed=7, schedule="manual")
    for user_id in (ALICE, BOB):
        await table.service.join(game.id, user_id=user_id, name=NAMES[user_id][0], colour=NAMES[user_id][1])
    await table.service.start_game(game.id, actor=MODERATOR)
    for user_id in (ALICE, BOB):
        await table.service.submit_order(game.id, user_id=user_id, text=NAMES[user_id][2])
    await table.service.end_game(game.id, actor=MODERATOR, reason="enough")
    assert await table.service.ratings() == {}          # (the result cache is filled: not rated)
    await table.refused(table.service.leaderboard(1), NotFound, "nobody is rated")
    await table.refused(table.service.rollback(game.id, to_update=0, actor=MODERATOR), WrongTime,
                        "ended by a moderator, not by its verdict")


async def test_an_ended_game_is_not_reopened_over_the_live_game_of_its_channel(ranked, table):
    game = await play(table, {ALICE: 30, BOB: 20})
    await table.service.create_game(guild_id=1, channel_id=10, actor=MODERATOR, seed=8, schedule="manual")
    await table.service.ratings()
    await table.refused(table.service.rollback(game.id, to_update=0, actor=MODERATOR), Conflict,
                        "is live in its channel")


async def test_the_leaderboard_counts_members_after_enough_games_and_keeps_hidden_ones_off(ranked, table):
    for number in range(PROVISIONAL_GAMES):
        await play(table, {ALICE: 30, BOB: 20, CLEO: 10 + number})
    await play(table, {ALICE: 30, DAN: 20})
    board = await table.service.leaderboard(1, viewer=DAN)
    assert [(s.place, s.rating.user_id) for s in board.top] == [(1, ALICE), (2, BOB), (3, CLEO)]
    assert [s.rating.user_id for s in board.provisional] == [DAN]
    assert board.own.place is None and board.own.rating.games == 1
    await table.service.set_profile_hidden(1, BOB, True)
    hidden = await table.service.leaderboard(1, viewer=BOB)
    assert [(s.place, s.rating.user_id) for s in hidden.top] == [(1, ALICE), (3, CLEO)]   # Cleo keeps her place
    assert hidden.own.place == 2 and hidden.hidden_self                 # still rated; shown to Bob only
    profile = await table.service.profile(1, BOB)
    assert profile.hidden and profile.ratings[0][1].games == PROVISIONAL_GAMES
    await table.service.set_profile_hidden(1, BOB, False)
    assert [s.rating.user_id for s in (await table.service.leaderboard(1)).top] == [ALICE, BOB, CLEO]


async def test_servers_are_rated_apart_and_a_family_without_games_is_refused(ranked, table):
    await play(table, {ALICE: 30, BOB: 20})
    await play(table, {ALICE: 10, BOB: 20}, guild_id=2, channel_id=20)
    everything = await table.service.ratings()          # (the result cache is filled)
    assert everything[1]["ranked"][ALICE].mu > 25 > everything[2]["ranked"][ALICE].mu
    await table.refused(table.service.leaderboard(1, family="chess"), InvalidInput,
                        "no 'chess' game of this server has been rated", "ranked")
    assert [(b.guild_id, b.family) for b in await table.service.leaderboards()] == [(1, "ranked"), (2, "ranked")]


async def test_a_profile_lists_ratings_and_recent_games_with_their_links(ranked, table):
    game = await play(table, {ALICE: 30, BOB: 20})
    profile = await table.service.profile(1, BOB, public_url="https://skirmish.example/")
    assert [(family, r.games, r.wins) for family, r in profile.ratings] == [("ranked", 1, 0)]
    recent = profile.recent[0]
    assert (recent.game.id, recent.place) == (game.id, 2)
    assert recent.link == "https://discord.com/channels/1/10"
    assert recent.viewer == f"https://skirmish.example/games/{game.id}"
    assert (await table.service.profile(1, BOB)).recent[0].viewer is None
    assert (await table.service.profile(1, EVE)).ratings == ()


def test_the_model_is_openskill_s_plackett_luce_with_its_defaults_and_weights_as_given():
    model, default = rating_model(), PlackettLuce()
    assert (model.mu, model.sigma, model.beta, model.tau) == (default.mu, default.sigma, default.beta, default.tau)
    assert model.weight_bounds is None
    # weights of 1 are the plain update: a game without substitutes gives openskill's numbers without weights
    plain = default.rate([[default.rating()], [default.rating()]], ranks=[1, 2])
    weighted = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2], weights=[[1.0], [1.0]])
    assert [(t[0].mu, t[0].sigma) for t in weighted] == [(t[0].mu, t[0].sigma) for t in plain]
