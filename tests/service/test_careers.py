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
    assert profile.hidden and profile.ratings[0][1].games == PROVISIONAL_GAMES and not profile.private
    seen = await table.service.profile(1, BOB, viewer=ALICE)           # never shown to others
    assert seen.private and seen.ratings == () and {r.place for r in seen.recent} == {None}
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


# ----------------------------------------------------------------------------- careers of endless games
async def test_the_careers_of_an_endless_game_come_from_its_stored_updates(table):
    """neisg never ends with a verdict: no rating, a career. Alice places her king (update 1), takes a
    knight a moderator put next to it (2), then Bob's king, which a moderator moved next to hers (3)."""
    service = table.service
    game = await table.playing_game(players=[(ALICE, "Alice", "Red", (0, 0)), (BOB, "Bob", "Blue", (10, 0))])
    await service.place_piece(game.id, actor=MODERATOR, kind="N", square="(1,1)", owner="Bob")
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(1,1)")
    assert (await table.resolve(game.id)).resolved
    await service.move_piece(game.id, actor=MODERATOR, origin="(10,0)", target="(0,2)")
    await service.submit_order(game.id, user_id=ALICE, text="K(1,1)-(0,2)")
    resolved = await table.resolve(game.id)
    assert "king" in resolved.report.text()
    [alice] = (await service.profile(1, ALICE)).careers
    [bob] = (await service.profile(1, BOB)).careers
    final = (await service.history(game.id, 3)).state
    ended_events = 0
    for update in (1, 2, 3):
        report = (await service.history(game.id, update)).report
        ended_events += len(report.of_type("event_end"))
    assert (alice.family, alice.games, alice.updates_played, alice.kings_captured) == ("simultaneous", 1, 3, 1)
    assert alice.value_captured == final.players["Alice"].captured > 0
    assert alice.longest_king_life == 3 and alice.best_rank == 1
    assert alice.events_survived == bob.events_survived == ended_events
    assert (bob.updates_played, bob.kings_captured, bob.value_captured, bob.armies_taken) == (1, 0, 0, 0)
    assert bob.longest_king_life == 2                       # his king stood after updates 1 and 2
    assert "3 updates played" in alice.text() and "1 kings captured" in alice.text()
    assert (await service.ratings(1)) == {}                 # a running endless game rates nobody


# ----------------------------------------------------------------------------- python -m bot ratings
def played_store(path, games) -> None:
    """A store at ``path`` where ``games`` (health maps) were played to their verdict on server 1."""
    import asyncio

    from bot.service import Service
    from bot.store import Store

    from .conftest import Clock, Table

    async def work():
        store = await Store.open(path)
        try:
            table = Table(path, store, Clock())
            for channel, health in enumerate(games, start=10):
                await play(table, health, channel_id=channel)
            await Service(store).set_profile_hidden(1, CLEO, True)
        finally:
            await store.close()

    asyncio.run(work())


def test_the_command_prints_each_server_s_leaderboard_with_the_provisional_members_marked(ranked, tmp_path, capsys):
    from bot.__main__ import main

    path = tmp_path / "skirmish.sqlite3"
    played_store(path, [{ALICE: 30, BOB: 20, CLEO: 10}] * PROVISIONAL_GAMES + [{ALICE: 30, DAN: 20}])
    assert main(["ratings", "--store-url", f"sqlite:///{path}"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Server 1, ranked: 3 counted, 1 provisional (a member counts after 5 rated games)"
    assert lines[1].startswith("    1. Alice (user 1): ") and lines[1].endswith(", 6 games, 6 won")
    assert lines[2].startswith("    2. Bob (user 2): ") and lines[2].endswith(", 5 games, 0 won")
    assert lines[3].startswith("    ?. Dan (user 4): ") and lines[3].endswith(", 1 game, 0 won (provisional)")
    assert len(lines) == 4                                  # Cleo (3rd) hid her profile: never shown
    # the same numbers on every run, and the same as the service's
    assert main(["ratings", "--store-url", f"sqlite:///{path}", "--family", "ranked"]) == 0
    assert capsys.readouterr().out.splitlines() == lines
    assert main(["ratings", "--store-url", f"sqlite:///{path}", "--family", "territory"]) == 0
    assert capsys.readouterr().out == "No territory game has ended with a verdict yet: nobody is rated.\n"


def test_the_command_refuses_a_database_it_cannot_open_with_status_2(tmp_path, capsys):
    from bot.__main__ import main

    assert main(["ratings", "--store-url", "postgresql://nobody@127.0.0.1:1/skirmish"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("python -m bot ratings: error: ") and "127.0.0.1:1" in error
    with pytest.raises(SystemExit):
        main(["ratings", "--store-url", "mysql://x"])


def test_a_megachess_king_capture_is_a_king_captured_and_an_army_taken_in_the_career():
    """D61's scenario as one stored update: Ann's rook takes Cid's king and Ann takes his army."""
    from datetime import datetime, timezone
    from pathlib import Path

    from bot.engine.resolution import resolve
    from bot.engine.scenario import load_scenario
    from bot.engine.variants import variant_for
    from bot.service.careers import career_of
    from bot.store import PlayerRow, Snapshot

    scenario = load_scenario(Path(__file__).parents[1] / "scenarios/megachess/king-capture-hands-over-the-army.toml")
    state, report = resolve(scenario.ruleset, scenario.state, scenario.orders, scenario.seed)
    moment = datetime(2026, 11, 22, tzinfo=timezone.utc)
    snapshot = Snapshot(1, 1, 0, 0, "", {name: "; ".join(o) for name, o in scenario.orders.items()}, [], "1",
                        report.to_json(), "update", False, moment)
    rows = {name: PlayerRow(1, user, name, "White", "joined", moment, 0)
            for user, name in ((ALICE, "Ann"), (BOB, "Cid"))}
    variant = variant_for(scenario.ruleset)
    ann = career_of(variant, [(snapshot, state)], [rows["Ann"]], ALICE)
    cid = career_of(variant, [(snapshot, state)], [rows["Cid"]], BOB)
    assert (ann.family, ann.updates_played, ann.kings_captured, ann.armies_taken) == ("megachess", 1, 1, 1)
    assert ann.value_captured == state.players["Ann"].captured == 10 and ann.best_rank == 1
    assert ann.longest_king_life == 1
    assert (cid.kings_captured, cid.armies_taken, cid.longest_king_life, cid.best_rank) == (0, 0, 0, None)
    assert "1 armies taken" in ann.text() and "armies" not in cid.text()


async def test_a_career_is_counted_on_from_the_last_update_counted_and_again_after_a_rollback(table, monkeypatch):
    """Careers are kept between profiles: the next profile reads only the updates resolved since;
    a rollback makes the count start again, so the undone updates stop counting."""
    from bot.service import careers

    service = table.service
    game = await table.playing_game(players=[(ALICE, "Alice", "Red", (0, 0)), (BOB, "Bob", "Blue", (10, 0))])
    read = []
    counting = careers._count_update
    monkeypatch.setattr(careers, "_count_update", lambda count, snapshot: (read.append(snapshot.update_no),
                                                                           counting(count, snapshot)))
    for update in (2, 3):
        await service.submit_order(game.id, user_id=ALICE, text=f"K(0,{update - 2})-(0,{update - 1})")
        assert (await table.resolve(game.id)).resolved
    assert (await service.profile(1, ALICE)).careers[0].updates_played == 3
    assert read == [1, 2, 3]
    await service.submit_order(game.id, user_id=ALICE, text="K(0,2)-(0,3)")
    assert (await table.resolve(game.id)).resolved
    read.clear()
    assert (await service.profile(1, ALICE)).careers[0].updates_played == 4
    assert read == [4]                                      # only the update resolved since
    await service.rollback(game.id, to_update=2, actor=MODERATOR)
    read.clear()
    assert (await service.profile(1, ALICE)).careers[0].updates_played == 2
    assert read == [1, 2]                                   # counted again: 3 and 4 were undone
