"""Every query of bot/store/queries.py on both back ends, with the values the service gives it.

PostgreSQL does not convert a parameter's type (a bool for an INTEGER column or an int for a TEXT one
is an error there, silently accepted by SQLite), so a query that only ever ran on SQLite may fail on
PostgreSQL. The tests below call each one; the last fails when a query is added to
:class:`~bot.store.queries.Queries` without a call here.
"""

from __future__ import annotations

import inspect
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.store import Store
from bot.store.queries import Queries

T0 = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
BIG_ID = 1_234_567_890_123_456_789           # Discord ids need 64 bits


@pytest.fixture
async def store(store_url):
    store = await Store.open(store_url)
    yield store
    await store.close()


def write(store):
    return store.transaction()


def read(store):
    return store.snapshot_read()


async def new_game(store, channel_id: int = 10, guild_id: int = BIG_ID) -> int:
    async with write(store) as q:
        return await q.insert_game(name="Ünïcode game", ruleset="neisg", guild_id=guild_id, channel_id=channel_id,
                                   seed="42", settings={"b": 1, "a": [1, 2]}, schedule={"kind": "manual"},
                                   created_at=T0, created_by=BIG_ID)


async def test_games_and_claims(store):
    game_id = await new_game(store)
    async with write(store) as q:
        await q.update_game(game_id, status="running", update_no=1, locked=False, deadline_at=T0 + timedelta(hours=1),
                            settings={"x": True}, notify_role=BIG_ID, snapshot_update=0, snapshot_revision=0)
        assert await q.claim(game_id, 1, "service-a", T0) is True
        assert await q.claim(game_id, 1, "service-b", T0) is False
        assert await q.hold_claim(game_id, 1, "service-a") is True
        assert await q.hold_claim(game_id, 1, "service-b") is False
    async with read(store) as q:
        game = await q.game(game_id)
        assert (game.name, game.guild_id, game.created_by, game.notify_role) == ("Ünïcode game", BIG_ID, BIG_ID, BIG_ID)
        assert (game.status, game.update_no, game.locked, game.claimed_by, game.claimed_at) == \
            ("running", 1, True, "service-a", T0)
        assert game.settings == {"x": True} and game.schedule == {"kind": "manual"}
        assert game.deadline_at == T0 + timedelta(hours=1)
        assert [g.id for g in await q.games()] == [game_id]
        assert [g.id for g in await q.games(guild_id=BIG_ID, channel_id=10, statuses=["running"])] == [game_id]
        assert await q.games(statuses=["ended"]) == []
        assert await q.dead_claims(T0) == [(game_id, 1, "service-a", None, None, None)]
    async with write(store) as q:
        await q.register_service(identity="service-a", host="host-1", pid=4242, started_at=T0, now=T0)
        await q.register_service(identity="service-a", host="host-1", pid=4242, started_at=T0,
                                 now=T0 + timedelta(seconds=5))
        assert await q.beat("service-a", T0 + timedelta(seconds=10)) is True
        assert await q.beat("nobody", T0) is False
        assert await q.dead_claims(T0, game_id=game_id) == []
        assert await q.free_dead_claim(game_id, "service-a", T0) is False        # it beats: alive
        [service] = await q.services()
        assert (service.identity, service.host, service.pid, service.started_at, service.heartbeat_at) == \
            ("service-a", "host-1", 4242, T0, T0 + timedelta(seconds=10))
        assert await q.remove_dead_services(T0 + timedelta(seconds=11)) == 1
        assert await q.free_dead_claim(game_id, "service-a", T0) is True
        assert await q.claim(game_id, 1, "service-b", T0) is True
        assert await q.release_claim(game_id, 1, "service-b") is True
        await q.register_service(identity="service-b", host="host-2", pid=1, started_at=T0, now=T0)
        await q.remove_service("service-b")
        assert await q.services() == []


async def test_players(store):
    game_id = await new_game(store)
    async with write(store) as q:
        await q.insert_player(game_id=game_id, user_id=BIG_ID, name="Zoë", colour="Crimson/Yellow", joined_at=T0,
                              joined_update=0, seat=2)
        await q.insert_player(game_id=game_id, user_id=2, name="ann", colour="Purple", joined_at=T0, joined_update=0,
                              seat=1)
        await q.insert_player(game_id=game_id, user_id=3, name="Émile", colour="Teal", joined_at=T0, joined_update=3)
        await q.set_dm_reminder(game_id, 2, True)
        await q.set_player_status(game_id, 3, "kicked", "left")
    async with read(store) as q:
        assert [p.name for p in await q.seated_players(game_id)] == ["ann", "Zoë"]
        ann = await q.player(game_id, 2)
        assert (ann.dm_reminder, ann.seat, ann.status, ann.joined_at) == (True, 1, "joined", T0)
        assert (await q.player_named(game_id, "ANN")).user_id == 2
        assert (await q.player_with_colour(game_id, "crimson/yellow")).user_id == BIG_ID
        assert [p.name for p in await q.players(game_id)] == ["Zoë", "ann"]
        assert [p.name for p in await q.players(game_id, include_kicked=True)] == ["Zoë", "ann", "Émile"]
        assert await q.player_names(game_id) == {p.user_id: p.name for p in await q.players(game_id)}
        assert list(await q.player_names(game_id)) == [BIG_ID, 2]
        assert (await q.player(game_id, 3)).departure == "left"
        assert await q.joined_since(game_id, 0) == [("Zoë", "Crimson/Yellow"), ("ann", "Purple")]
        assert [g.id for g in await q.games_of_user(BIG_ID)] == [game_id]
        assert sorted(await q.players_among(game_id, [2, 3, 99])) == [2, 3]
    async with write(store) as q:
        await q.delete_player(game_id, 3)
        assert await q.player(game_id, 3) is None


async def test_orders(store):
    game_id = await new_game(store)
    async with write(store) as q:
        for user_id in (1, 2, 3):
            await q.insert_player(game_id=game_id, user_id=user_id, name=f"P{user_id}", colour=f"C{user_id}",
                                  joined_at=T0, joined_update=1)
        first = await q.insert_order(game_id=game_id, update_no=1, user_id=1, text="K(0,0)-(1,0)",
                                     canonical="K(0,0)-(1,0)", source="channel", submitted_at=T0)
        await q.insert_orders(game_id=game_id, update_no=1, submitted_at=T0, superseded=[first], orders=[
            (1, "K(0,0)-(0,1)", "K(0,0)-(0,1)", "dm", "pending"),
            (2, "nonsense", None, "channel", "refused"),
            (3, "resign", "resign", "moderator", "pending")])
        await q.insert_orders(game_id=game_id, update_no=1, submitted_at=T0, superseded=[], orders=[])
    async with read(store) as q:
        live = await q.live_orders(game_id, 1)
        assert [(o.user_id, o.canonical, o.source) for o in live] == [(1, "K(0,0)-(0,1)", "dm"),
                                                                     (3, "resign", "moderator")]
        assert await q.live_canonical(game_id, 1) == [(o.user_id, o.canonical) for o in live]
        assert (await q.live_order(game_id, 1, 1)).secret
        assert [o.status for o in await q.orders(game_id)] == ["superseded", "pending", "refused", "pending"]
        assert len(await q.orders(game_id, 1)) == 4 and await q.orders(game_id, 2) == []
        assert [o.id for o in await q.orders_of(game_id, 1, limit=1)] == [live[0].id]
        assert sorted(await q.live_orders_among(game_id, 1, [1, 2, 3])) == [1, 3]
    async with write(store) as q:
        assert await q.move_orders(game_id, 1, "pending", "locked") == 2
        await q.settle_orders(game_id, 1, {3: "no such piece"})
        await q.set_order_status(first, "cancelled", None)
        await q.settle_orders(game_id, 1, {})
    async with read(store) as q:
        assert [(o.status, o.refusal) for o in await q.orders(game_id)] == [
            ("cancelled", None), ("resolved", None), ("refused", None), ("refused", "no such piece")]


async def test_snapshots(store):
    game_id = await new_game(store)
    async with write(store) as q:
        await q.insert_snapshot(game_id=game_id, update_no=0, revision=0, base_revision=None, state='{"s": 0}',
                                orders={}, seed="42", report=None, reason="start", created_at=T0)
        await q.insert_snapshot(game_id=game_id, update_no=1, revision=0, base_revision=0, state='{"s": 1}',
                                orders={"Zoë": "K(0,0)-(0,1)"}, seed="42", report={"entries": []}, reason="update",
                                created_at=T0, joiners=[("Zoë", "Teal")])
        await q.insert_snapshot(game_id=game_id, update_no=1, revision=1, base_revision=0, state='{"s": 2}',
                                orders={}, seed="42", report='{"entries": [1]}', reason="edit: a piece",
                                created_at=T0)
        assert await q.next_revision(game_id, 1) == 2 and await q.next_revision(game_id, 5) == 0
    async with read(store) as q:
        snapshot = await q.snapshot(game_id, 1, 0)
        assert (snapshot.orders, snapshot.joiners, snapshot.report, snapshot.rolled_back) == \
            ({"Zoë": "K(0,0)-(0,1)"}, [("Zoë", "Teal")], {"entries": []}, False)
        assert await q.snapshot_state(game_id, 1, 1) == '{"s": 2}'
        assert (await q.current_revision(game_id, 1)).revision == 1
        assert (await q.resolved_revision(game_id, 1)).revision == 0
        assert (await q.revision_before(game_id, 1, 1)).revision == 0
        assert await q.snapshot_count(game_id) == 3
        assert await q.snapshot_keys(game_id) == [(0, 0), (1, 1)]
    async with write(store) as q:
        assert await q.roll_back_after(game_id, 0) == 2
    async with read(store) as q:
        assert [s.update_no for s in await q.snapshots(game_id)] == [0]
        assert len(await q.snapshots(game_id, include_rolled_back=True)) == 3
        assert await q.current_revision(game_id, 1) is None


async def test_outbox(store):
    game_id = await new_game(store)
    async with write(store) as q:
        first = await q.insert_post(game_id=game_id, update_no=1, kind="board", body="", attachment=b"\x89PNG\x00",
                                    filename="board.png", created_at=T0)
        await q.insert_posts(game_id=game_id, created_at=T0, posts=[
            (1, "private_report", "you moved", None, None, BIG_ID),
            (1, "report", "the update", None, "report.md", None)])
    async with read(store) as q:
        posts = await q.posts(game_id)
        assert [(p.kind, p.recipient, p.attachment) for p in posts] == [
            ("board", None, b"\x89PNG\x00"), ("private_report", BIG_ID, None), ("report", None, None)]
        assert [p.id for p in await q.due_posts(T0, limit=2)] == [p.id for p in posts[:2]]
        assert await q.unsent_count() == 3 and await q.next_retry_at() is None
    async with write(store) as q:
        assert await q.mark_sent(first, T0, "1234") is True
        await q.mark_failed(posts[1].id, "Discord is down", T0 + timedelta(minutes=1), state="waiting")
        await q.park_post(posts[2].id, "missing access")
    async with read(store) as q:
        assert await q.next_retry_at() == T0 + timedelta(minutes=1)
        assert await q.waiting_post_count(game_id) == 1
        assert [p.state for p in await q.troubled_posts(game_id)] == ["waiting", "parked"]
        assert await q.due_posts(T0) == []
    async with write(store) as q:
        await q.release_posts(game_id, [posts[1].id, posts[2].id])
    async with read(store) as q:
        assert [p.state for p in await q.due_posts(T0)] == ["pending", "pending"]


async def test_one_sender_of_a_games_posts(store):
    """games.posting_by: taken when free (nobody's, or its holder's row gone or silent since
    alive_since), never from a live holder; due posts, retries and the outbox's updates of the
    games a sender holds only."""
    game_id, other_game = await new_game(store), await new_game(store, channel_id=11)
    async with write(store) as q:
        post = await q.insert_post(game_id=game_id, update_no=1, kind="announcement", body="hello", created_at=T0)
        await q.insert_post(game_id=other_game, update_no=1, kind="announcement", body="hi", created_at=T0)
        await q.register_service(identity="service-a", host="host-1", pid=1, started_at=T0, now=T0)
        assert await q.take_posting("service-a", T0, owned=None) == [game_id, other_game]
        assert await q.take_posting("service-a", T0) == []                      # kept, not taken again
        await q.register_service(identity="service-b", host="host-2", pid=2, started_at=T0, now=T0)
        assert await q.take_posting("service-b", T0) == []                      # a live holder's: never
        assert await q.posting_holders("service-b") == [(game_id, "service-a", "host-1", 1, T0),
                                                        (other_game, "service-a", "host-1", 1, T0)]
        assert await q.posting_holders("service-a") == []
        assert [p.id for p in await q.due_posts(T0, sender="service-b")] == []
        assert await q.mark_sent(post, T0, "1", sender="service-b") is False   # the fence
        assert await q.mark_failed(post, "down", T0, sender="service-b") is False
        assert await q.park_post(post, "gone", sender="service-b") is False
        assert await q.next_retry_at(sender="service-b") is None
        assert await q.mark_failed(post, "down", T0 + timedelta(seconds=1), sender="service-a") is True
        assert await q.next_retry_at(sender="service-a") == T0 + timedelta(seconds=1)
        # service-a silent since T0: dead for anyone alive since a moment after it
        assert await q.take_posting("service-b", T0 + timedelta(seconds=1)) == [game_id, other_game]
        assert [p.id for p in await q.due_posts(T0 + timedelta(seconds=2), sender="service-b")][0] == post
        assert await q.mark_sent(post, T0, "1", sender="service-a") is False
        assert await q.mark_sent(post, T0, "1", sender="service-b") is True
        await q.remove_service("service-b")                                    # a clean stop frees at once
        assert await q.posting_holders("service-a") == [(other_game, "service-b", None, None, None)]
        assert await q.take_posting("service-a", T0) == [other_game]          # (the sent one's game has nothing to send)


async def test_timelapses_and_teams(store):
    game_id = await new_game(store)
    async with write(store) as q:
        await q.insert_frame(game_id=game_id, update_no=1, revision=0, label="after update 1", extent=[0, 0, 3, 3],
                             bounds=None, region=[0, 0, 7, 7], png=b"one")
        await q.insert_frame(game_id=game_id, update_no=1, revision=0, label="after update 1", extent=[0, 0, 4, 4],
                             bounds=[[0, 0], [7, 7]], region=[0, 0, 7, 7], png=b"two")          # drawn again
        await q.owe_timelapse(game_id, 1, T0)
        await q.owe_timelapse(game_id, 2, T0)                  # owed once
        await q.set_team_members(game_id, {BIG_ID: "Red", 2: "Blue"})
        await q.set_team_members(game_id, {2: "Red"})
        await q.note_team(game_id, "Red")
        await q.note_team(game_id, "Blue")
        await q.keep_team_thread(game_id, "Red", BIG_ID)
        await q.note_team(game_id, "Red")                      # the thread is kept
    async with read(store) as q:
        assert await q.frame_facts(game_id) == {(1, 0): ("after update 1", [0, 0, 4, 4], [[0, 0], [7, 7]], [0, 0, 7, 7])}
        assert await q.frame_png(game_id, 1, 0) == b"two" and await q.frame_png(game_id, 2, 0) is None
        assert await q.owed_timelapse(game_id) == 1
        assert await q.games_owing_timelapses() == [game_id]
        assert await q.team_members(game_id) == {2: "Red"}
        assert await q.team_threads(game_id) == {"Blue": None, "Red": BIG_ID}
    async with write(store) as q:
        assert await q.timelapse_made(game_id, 0) is True
        assert await q.timelapse_made(game_id, 5) is False
        assert await q.owed_timelapse(game_id) is None


async def test_audit(store):
    game_id = await new_game(store)
    async with write(store) as q:
        for n in range(3):
            await q.audit(game_id=game_id, actor=BIG_ID, action="kick" if n else "edit", detail={"n": n, "at": T0},
                          at=T0 + timedelta(minutes=n))
    async with read(store) as q:
        assert [e.detail["n"] for e in await q.audit_entries(game_id)] == [0, 1, 2]
        assert [e.action for e in await q.audit_entries(game_id, action="edit")] == ["edit"]
        page, total = await q.audit_page(game_id, limit=1, offset=1)
        assert (total, [e.detail["n"] for e in page], page[0].actor, page[0].at) == (3, [1], BIG_ID,
                                                                                   T0 + timedelta(minutes=1))


async def test_careers(store):
    from bot.store import GameResult

    game_id = await new_game(store)
    async with write(store) as q:
        await q.insert_player(game_id=game_id, user_id=BIG_ID, name="Émile", colour="Red", joined_at=T0,
                              joined_update=0)
        await q.insert_player(game_id=game_id, user_id=2, name="Bob", colour="Blue", joined_at=T0, joined_update=0)
        await q.update_game(game_id, status="ended", update_no=2, snapshot_update=1, snapshot_revision=0)
        for user_id, status in ((BIG_ID, "resolved"), (BIG_ID, "resolved"), (2, "resolved"), (2, "refused")):
            await q.insert_order(game_id=game_id, update_no=1, user_id=user_id, text="K(0,0)", canonical="K(0,0)",
                                 source="channel", submitted_at=T0, status=status)
        result = GameResult(game_id, 1, 0, BIG_ID, "arena", True, T0 + timedelta(hours=1),
                            (("Bob", 2, 2, 1.0), ("Émile", BIG_ID, 1, 0.5)))
        await q.keep_game_result(result)
        await q.keep_game_result(result)                    # kept again: replaced, not doubled
        await q.set_hidden(BIG_ID, 2, True)
        await q.set_hidden(BIG_ID, BIG_ID, True)
        await q.set_hidden(BIG_ID, BIG_ID, False)
    async with read(store) as q:
        assert await q.game_results() == [result]
        assert await q.game_results(BIG_ID) == [result] and await q.game_results(1) == []
        assert await q.rated_families(BIG_ID) == ["arena"] and await q.rated_families(1) == []
        assert await q.resolved_order_counts(game_id) == {BIG_ID: 2, 2: 1}
        assert await q.resolved_keys(game_id) == []
        assert [g.id for g in await q.games_played_by(BIG_ID, BIG_ID)] == [game_id]
        assert await q.games_played_by(BIG_ID, 1) == []
        assert await q.hidden_members(BIG_ID) == {2}
        assert await q.member_names(BIG_ID) == {BIG_ID: "Émile", 2: "Bob"} and await q.member_names(1) == {}
    async with write(store) as q:
        await q.forget_game_result(game_id)
    async with read(store) as q:
        assert await q.game_results() == []


async def test_web_links(store):
    game_id = await new_game(store)
    async with write(store) as q:
        assert await q.web_secret("first") == "first"
        assert await q.web_secret("second") == "first"          # made once, then kept
        assert await q.link_generation(game_id) == 0
        assert await q.next_link_generation(game_id) == 1
        assert await q.next_link_generation(game_id) == 2
    async with read(store) as q:
        assert await q.link_generation(game_id) == 2


def test_every_query_is_called_above():
    queries = {name for name, member in inspect.getmembers(Queries, inspect.iscoroutinefunction)
               if not name.startswith("_")}
    called = set(re.findall(r"\bq\.([a-z_]+)\(", Path(__file__).read_text(encoding="utf-8")))
    assert sorted(queries - called) == [], "add a call of each to this file"
