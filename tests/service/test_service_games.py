"""A game's life (create, start, join, pause, resume, end), several games at once, and a restart."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.render.palette import colour_names, distinct_colours
from bot.service import (Moderator, Conflict, InvalidInput, MemoryPublisher, NotAllowed, NotFound, OrderRefused, OutboxRelay,
                         Service, WrongTime)
from bot.store import Store

MOD = Moderator(user_id=99, guild_id=1)     # a moderator of the tests' server
ALICE, BOB, CLEO = 1, 2, 3
DISCORD_MESSAGE_LIMIT = 2000
SQL_NAME = "Robert'); DROP TABLE games;--"
BIG = "x" * 100_000




# ---------------------------------------------------------------------------------------------- creating
async def test_a_game_is_created_then_started_with_its_first_deadline(table):
    service, clock = table.service, table.clock
    game = await service.create_game(guild_id=1, channel_id=10, actor=MOD, schedule="every 2 hours", seed=5,
                                     name="Friday  night   chess")
    assert (game.status, game.name, game.update_no, game.deadline_at) == ("setup", "Friday night chess", 0, None)
    await table.refused(service.submit_order(game.id, user_id=ALICE, text="K(0,0)"), WrongTime, "has not started yet")
    await table.refused(service.join(game.id, user_id=ALICE, name="Alice", colour="Red"), WrongTime,
                  "has not started yet", "/game start")

    game = await service.start_game(game.id, actor=MOD)
    assert (game.status, game.update_no) == ("running", 1)
    assert game.deadline_at == clock.now + timedelta(hours=2)
    [start] = await table.snapshots(game.id)
    assert (start.update_no, start.revision, start.reason) == (0, 0, "start")
    [post] = await table.posts(game.id)
    assert post.kind == "announcement" and post.recipient is None
    assert "**Friday night chess** has started" in post.body and "Orders close at 2026-11-22 14:00 UTC" in post.body
    assert [a.action for a in await service.audit_log(game.id)] == ["create", "start"]
    await table.refused(service.start_game(game.id, actor=MOD), WrongTime, "has already started")


@pytest.mark.parametrize("options, error_type, words", [
    ({"ruleset": "chess960"}, InvalidInput, ["unknown ruleset 'chess960'", "neisg"]),
    ({"ruleset": BIG}, InvalidInput, ["unknown ruleset"]),
    ({"schedule": "whenever"}, InvalidInput, ["'whenever' is not a schedule", "every 30 minutes"]),
    ({"schedule": BIG}, InvalidInput, ["is not a schedule"]),
    ({"schedule": "every 1 second"}, InvalidInput, ["from 10 seconds to 30 days"]),
    ({"settings": {"lenght": 10}}, InvalidInput, ["unknown setting 'lenght'", "length"]),
    ({"settings": {BIG: 1}}, InvalidInput, ["unknown setting"]),
    ({"settings": {"length": 0}}, InvalidInput, ["length must be a whole number of updates from 1 to 100,000"]),
    ({"settings": {"length": BIG}}, InvalidInput, ["length must be a whole number"]),
    ({"settings": {"palette": BIG}}, InvalidInput, ["palette must be one of default"]),
    ({"settings": {"events_from": 0}}, InvalidInput, ["events_from must be an update number from 1"]),
    ({"ruleset": "megachess", "settings": {"events_from": 3}}, InvalidInput,
     ["the megachess ruleset has no events, so events_from does not apply"]),
    ({"name": BIG}, InvalidInput, ["a game's name has at most 100 characters"]),
    ({"name": "\u3164"}, InvalidInput, ["a game's name cannot contain U+3164 (hangul filler)"]),
    ({"channel_id": 10}, Conflict, ["this channel already runs game 1", "another channel or thread"]),
])
async def test_creating_a_game_refuses_bad_options(table, options, error_type, words):
    await table.new_game(channel_id=10)
    arguments = {"guild_id": 1, "channel_id": 20, "actor": MOD, **options}
    await table.refused(table.service.create_game(**arguments), error_type, *words)


async def test_sql_in_a_game_name_is_kept_as_plain_text(table):
    game = await table.service.create_game(guild_id=1, channel_id=10, actor=MOD, name=SQL_NAME)
    assert (await table.service.get_game(game.id)).name == SQL_NAME
    assert table.rows("SELECT name FROM games") == [(SQL_NAME,)]


# ---------------------------------------------------------------------------------------------- joining
@pytest.mark.parametrize("user, name, colour, error_type, words", [
    (4, "alice", "Purple", Conflict, ["the name 'alice' is taken in this game"]),
    (4, "Dan", "red", Conflict, ["Alice already plays Red in this game"]),
    (ALICE, "Alicia", "Purple", Conflict, ["you already play game 1 as Alice (Red)"]),
    (4, "Dan", "Plaid", InvalidInput, ["unknown colour 'Plaid'"]),
    (4, "Dan", "Red'); DROP TABLE players;--", InvalidInput, ["unknown colour"]),
    (4, "Dan", BIG, InvalidInput, ["colour"]),
    (4, BIG, "Purple", InvalidInput, ["a name has at most 32 characters", "has 100000"]),
    (4, "@everyone", "Purple", InvalidInput, ["a name cannot contain '@'"]),
    (4, "   ", "Purple", InvalidInput, ["a name cannot be empty"]),
    (4, "nobody", "Purple", InvalidInput, ["cannot be a player's name"]),
    (10**100, "Dan", "Purple", InvalidInput, ["is not a user id"]),
])
async def test_joining_refuses_taken_or_bad_names_and_colours(table, user, name, colour, error_type, words):
    game = await table.new_game()
    await table.refused(table.service.join(game.id, user_id=user, name=name, colour=colour), error_type, *words)


async def test_a_taken_colour_is_answered_with_the_free_colours_least_like_the_games(table):
    """Issue 27: Alice, Bob and Cleo play Red, Blue and Green; the colours offered are those farthest
    from theirs (and from the grey of neutral pieces), never Crimson or Scarlet next to Red."""
    game = await table.new_game()
    offer = await table.service.free_colours(game.id)
    assert offer == distinct_colours(["Red", "Blue", "Green"])
    assert {"Red", "Blue", "Green"}.isdisjoint(offer) and len(offer) == len(colour_names()) - 3
    assert offer.index("Crimson") > 10 and offer.index("Scarlet") > 10
    await table.refused(table.service.join(game.id, user_id=4, name="Dan", colour="red"), Conflict,
                        "Alice already plays Red", f"such as {offer[0]}, {offer[1]} or {offer[2]}")
    colourblind = await table.new_game(channel_id=11, settings={"palette": "colourblind"})
    assert await table.service.free_colours(colourblind.id) == distinct_colours(["Red", "Blue", "Green"],
                                                                                "colourblind")


async def test_joining_an_unknown_or_ended_game_is_refused(table):
    game = await table.new_game()
    await table.refused(table.service.join(999, user_id=4, name="Dan", colour="Purple"), NotFound,
                  "there is no game 999")
    await table.service.end_game(game.id, actor=MOD)
    await table.refused(table.service.join(game.id, user_id=4, name="Dan", colour="Purple"), WrongTime, "has ended")


async def test_sql_in_a_player_name_is_only_ever_data(table):
    game = await table.new_game(players=[])
    tables_before = table.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    joined = await table.service.join(game.id, user_id=7, name=SQL_NAME, colour="Crimson/Yellow")
    assert joined.player.name == SQL_NAME and joined.player.colour == "Crimson/Yellow"
    assert table.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") == tables_before
    assert table.rows("SELECT id, status FROM games") == [(game.id, "running")]
    await table.service.submit_order(game.id, user_id=7, text="K(2,3)")
    result = await table.resolve(game.id)
    assert f"{SQL_NAME} placed a king on (2,3)" in result.report.text()
    lines, _ = await table.service.health_board(game.id)
    assert lines[1:] == [f"1. {SQL_NAME} (Crimson/Yellow): 0 --- Health: 11 💖"]     # under the heading


# ---------------------------------------------------------------------------------------------- pause
async def test_pause_stops_the_clock_and_resume_shifts_the_deadline(table):
    service, clock = table.service, table.clock
    game = await table.playing_game()                       # update 1 resolved at 13:00:01
    deadline, lock_at = game.deadline_at, game.lock_at
    assert deadline == clock.now.replace(second=0) + timedelta(hours=1)
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")

    clock.now = deadline - timedelta(minutes=30)
    paused = await service.pause_game(game.id, actor=MOD, reason="lunch")
    assert paused.status == "paused"
    assert (await table.posts(game.id))[-1].body == f"**{game.name}** is paused: lunch"
    await table.refused(service.pause_game(game.id, actor=MOD), WrongTime, "is paused, not running")
    await table.refused(service.extend(game.id, minutes=30, actor=MOD), WrongTime, "is paused", "resume it first")

    clock.now = deadline + timedelta(hours=1)               # the old deadline passes while paused
    assert (await service.resolve_if_due(game.id, 2)).outcome == "not_running"
    assert await service.lock_if_due(game.id, 2) is False

    resumed = await service.resume_game(game.id, actor=MOD)  # paused for 1 h 30 min
    assert resumed.status == "running"
    assert resumed.deadline_at == deadline + timedelta(minutes=90)
    assert resumed.lock_at == lock_at + timedelta(minutes=90)
    assert (await table.posts(game.id))[-1].body.endswith(f"Orders close at {resumed.deadline_at:%Y-%m-%d %H:%M} UTC.")
    await table.refused(service.resume_game(game.id, actor=MOD), WrongTime, "is not paused")

    clock.now = resumed.deadline_at - timedelta(seconds=1)
    assert (await service.resolve_if_due(game.id, 2)).outcome == "not_due"
    clock.past(resumed.deadline_at)
    result = await service.resolve_if_due(game.id, 2)
    assert result.resolved and "Alice: K(0,0)-(0,1) was played" in result.report.text()
    audit = await service.audit_log(game.id)
    assert [(a.action, a.detail.get("paused_seconds")) for a in audit if a.action in ("pause", "resume")] == [
        ("pause", None), ("resume", 5400)]


# ---------------------------------------------------------------------------------------------- ending
async def test_a_moderator_ends_a_game(table):
    service = table.service
    game = await table.playing_game()
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    ended = await service.end_game(game.id, actor=MOD, reason="server closing")
    assert ended.status == "ended" and ended.deadline_at is None
    assert [o.status for o in await table.orders(game.id, 2)] == ["cancelled"]
    posts = await table.posts(game.id)
    assert [p.body for p in posts if p.kind == "announcement"][-1] == f"**{game.name}** has ended: server closing."
    [timelapse] = [p for p in posts if p.kind == "timelapse"]
    assert timelapse.attachment.startswith(b"GIF8") and timelapse.filename == "timelapse.gif"
    assert "(1 update)" in timelapse.body
    await table.refused(service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)"), WrongTime, "has ended")
    await table.refused(service.end_game(game.id, actor=MOD), WrongTime, "has already ended")
    assert (await service.resolve_if_due(game.id, 2)).outcome == "already_resolved"
    again = await service.create_game(guild_id=1, channel_id=game.channel_id, actor=MOD)   # the channel is free
    assert again.id != game.id


async def test_a_game_ends_after_its_length_with_a_timelapse(table):
    service = table.service
    game = await table.playing_game(settings={"length": 2})
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    assert not any(p.kind == "timelapse" for p in await table.posts(game.id))
    result = await table.resolve(game.id)
    assert result.resolved and result.ended
    game = await service.get_game(game.id)
    assert game.status == "ended"
    posts = await table.posts(game.id)
    [timelapse] = [p for p in posts if p.kind == "timelapse"]
    assert timelapse.attachment[:6] in (b"GIF87a", b"GIF89a")
    assert "(2 updates)" in timelapse.body
    assert f"**{game.name}** has ended: all 2 updates are played." in [p.body for p in posts]
    assert (await service.resolve_if_due(game.id, 3)).outcome == "already_resolved"
    assert [s.update_no for s in await table.snapshots(game.id)] == [0, 1, 2]


async def test_a_never_ending_game_goes_on(table):
    game = await table.playing_game()
    for _ in range(2):
        assert not (await table.resolve(game.id)).ended
    assert (await table.service.get_game(game.id)).status == "running"


SANDBOX_PLAYERS = [(1, "Alice", "Red", (0, 1)), (2, "Bob", "Blue", (10, 1)), (3, "Cleo", "Green", (0, 11))]


async def test_a_sandbox_game_may_move_its_first_event(table):
    """Sandbox's first event is "the update 25 patch" (RULES 5.1); a moderator may set it earlier
    before play starts, and the game's own schedule is what the update follows."""
    service = table.service
    game = await table.playing_game(ruleset="sandbox", players=SANDBOX_PLAYERS, settings={"events_from": 3})
    assert service.ruleset(game).events.events_from == 3
    assert (await table.resolve(game.id)).resolved            # update 2: no event yet
    assert not [p for p in await table.posts(game.id) if p.kind == "events"]
    assert (await table.resolve(game.id)).resolved            # update 3: the first draw
    [events] = [p for p in await table.posts(game.id) if p.kind == "events"]
    assert "begins" in events.body and "It lasts until update 17." in events.body   # in force 4 to 17 (RULES 6)
    assert await service.replay(game.id, 3)                   # stored updates replay under the game's schedule
    await table.refused(service.configure(game.id, actor=MOD, settings={"events_from": 30}), WrongTime,
                        "events_from is fixed once an update is resolved", "/mod event start")


async def test_a_sandbox_game_keeps_the_update_25_patch_by_default(table):
    game = await table.playing_game(ruleset="sandbox", players=SANDBOX_PLAYERS)
    assert table.service.ruleset(game).events.events_from == 25
    await table.refused(table.service.configure(game.id, actor=MOD, settings={"events_from": -1}), InvalidInput,
                        "events_from must be an update number")


# ---------------------------------------------------------------------------------------------- several games
async def test_games_side_by_side_in_one_guild_are_independent(table):
    service = table.service
    first = await table.playing_game(channel_id=10)
    second = await table.new_game(channel_id=11, seed=8, players=[(ALICE, "Alicia", "Blue", None),
                                                                   (5, "Eve", "Red", None)])
    assert [g.id for g in await service.games_in(guild_id=1)] == [first.id, second.id]
    assert [g.id for g in await service.games_of(ALICE)] == [first.id, second.id]

    await service.submit_order(first.id, user_id=ALICE, text="K(0,0)-(0,1)")
    await service.submit_order(second.id, user_id=ALICE, text="K(0,0)")            # a placement there
    await service.submit_order(second.id, user_id=5, text="K(6,6)", source="dm")
    assert (await service.my_order(first.id, user_id=ALICE)).canonical == "K(0,0)-(0,1)"
    assert (await service.my_order(second.id, user_id=ALICE)).canonical == "+K(0,0)"
    await table.refused(service.submit_order(first.id, user_id=5, text="K(1,1)"), NotAllowed,
                  "you are not a player of game 1")

    assert (await table.resolve(first.id)).resolved
    first_now, second_now = await service.get_game(first.id), await service.get_game(second.id)
    assert (first_now.update_no, second_now.update_no) == (3, 1)
    assert (await service.my_order(second.id, user_id=ALICE)).canonical == "+K(0,0)"   # untouched
    assert all(p.game_id == second.id for p in await table.posts(second.id))
    assert [p.body for p in await table.posts(first.id) if p.kind == "notice"] == []
    assert [p.body for p in await table.posts(second.id) if p.kind == "notice"] == ["Eve has submitted a secret move"]

    await service.end_game(first.id, actor=MOD)
    assert (await service.get_game(second.id)).status == "running"
    result = await service.resolve_if_due(second.id, 1)     # its deadline passed with the clock
    assert result.resolved
    assert "Alicia placed a king on (0,0)" in result.report.text()
    lines, _ = await service.health_board(second.id)
    assert [line.split(" (")[0] for line in lines[1:]] == ["1. Alicia", "2. Eve"]


# ---------------------------------------------------------------------------------------------- restart
async def test_a_restart_keeps_everything(table, db_path, clock):
    service = table.service
    game = await table.playing_game()
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    await service.submit_order(game.id, user_id=BOB, text="K(10,0)-(11,0)", source="dm")
    await service.place_piece(game.id, actor=MOD, kind="R", square="(5,5)", owner=None)
    relay = OutboxRelay(service, MemoryPublisher())
    delivered_before = await relay.deliver_due()
    await service.announce(game.id, actor=MOD, text="Back in five minutes")   # left unsent
    await service.stop()            # as the bot at shutdown: the game's posts are free for the next process at once
    before = table.dump()
    game_before = await service.get_game(game.id)
    await table.store.close()

    table.store = await Store.open(db_path)                 # a new process: new store, new service
    restarted = Service(table.store, clock=clock)
    assert restarted.holder != service.holder
    assert table.dump() == before
    assert await restarted.recover() == []
    assert await restarted.get_game(game.id) == game_before
    assert [p.name for p in await restarted.players(game.id)] == ["Alice", "Bob", "Cleo"]
    assert (await restarted.my_order(game.id, user_id=ALICE)).canonical == "K(0,0)-(0,1)"
    assert (await restarted.my_order(game.id, user_id=BOB)).secret

    relay = OutboxRelay(restarted, MemoryPublisher())
    assert await relay.deliver_due() == 1
    assert [p.body for p in relay.publisher.delivered] == ["Back in five minutes"]
    clock.past((await restarted.get_game(game.id)).deadline_at)
    result = await restarted.resolve_if_due(game.id, 2)
    assert result.resolved
    text = result.report.text()
    assert "Alice: K(0,0)-(0,1) was played" in text and "Bob: K(10,0)-(11,0) was played" in text
    entry = await restarted.history(game.id, 2)
    assert [p.kind for p in entry.state.board.at((5, 5))] == ["R"]         # the edit survived too
    assert await restarted.replay(game.id, 2)
    assert delivered_before > 0



async def test_a_player_who_joins_while_an_update_is_resolved_enters_at_the_next(table, monkeypatch):
    service = table.service
    game = await table.playing_game()
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    commit, joined = service._commit, []

    async def join_then_commit(*args, **kwargs):      # Dan joins between the claim and the commit
        joined.append(await service.join(game.id, user_id=4, name="Dan", colour="Purple"))
        with pytest.raises(WrongTime, match="locked"):
            await service.submit_order(game.id, user_id=4, text="K(20,20)")
        return await commit(*args, **kwargs)

    monkeypatch.setattr(service, "_commit", join_then_commit)
    result = await table.resolve(game.id)
    monkeypatch.undo()
    assert result.resolved and "Dan" not in result.report.text()
    assert joined[0].player.joined_update == 3
    receipt = await service.submit_order(game.id, user_id=4, text="K(20,20)")
    assert (receipt.update_no, receipt.canonical) == (3, "+K(20,20)")
    result = await table.resolve(game.id)
    assert "Dan placed a king on (20,20)" in result.report.text()
    assert (await service.player_view(game.id, user_id=4)).has_king


async def test_a_player_who_joined_earlier_places_a_king_later(table):
    service = table.service
    game = await table.playing_game()
    await service.join(game.id, user_id=4, name="Dan", colour="Purple")      # joins for update 2 ...
    await table.resolve(game.id)                                             # ... without ordering
    await table.resolve(game.id)
    assert (await service.player_view(game.id, user_id=4)).has_king is False
    await service.submit_order(game.id, user_id=4, text="K(20,20)")         # places the king in update 4
    result = await table.resolve(game.id)
    assert "Dan placed a king on (20,20)" in result.report.text()
    lines, _ = await service.health_board(game.id)
    assert any(line.endswith("Dan (Purple): 0 --- Health: 11 💖") for line in lines)


async def test_a_sandbox_session_pays_energy_only_for_executed_orders(table):
    """Issue 11 through the service: 5 energy at joining and +1 for the join order (RULES 5.1, P31);
    then +1 only for a player whose order was executed; a generation pays the piece's value."""
    service = table.service
    game = await table.playing_game(ruleset="sandbox", players=SANDBOX_PLAYERS)

    async def health() -> str:
        posts = [p for p in await table.posts(game.id) if p.kind == "health_text"]
        return posts[-1].body

    assert "Alice (Red): 0 --- Energy: 6 ⚡" in await health()
    await service.submit_order(game.id, user_id=1, text="K(0,1)-(0,2)")          # executed: +1
    await table.refused(service.submit_order(game.id, user_id=2, text="+R(12,1)"), OrderRefused,
                        "a rook costs 7 energy; you have 6 energy (RULES 5.1)")   # Bob sends nothing then
    assert (await table.resolve(game.id)).resolved
    text = await health()
    assert "Alice (Red): 0 --- Energy: 7 ⚡" in text and "Bob (Blue): 0 --- Energy: 6 ⚡" in text
    await service.submit_order(game.id, user_id=1, text="+R(-5,1)")              # 7 - 7 + 1
    assert (await table.resolve(game.id)).resolved
    assert "Alice (Red): 7 --- Energy: 1 ⚡" in await health()


async def test_a_ruleset_whose_rules_are_not_carried_out_yet_is_refused_with_what_is_missing(table, monkeypatch):
    """The registry's refusal (a family or a policy not written yet) reaches the moderator in words,
    and nothing is created."""
    from bot.engine.policies import Unplayable
    from bot.service import games

    def unavailable(ruleset):
        raise Unplayable(ruleset, ["hexagonal boards"])

    monkeypatch.setattr(games, "variant_for", unavailable)
    await table.refused(table.service.create_game(guild_id=1, channel_id=10, actor=table.MODERATOR, ruleset="neisg"),
                        InvalidInput, "cannot be played yet", "hexagonal boards", "choose one of")
