"""The update: resolved once however many trigger it (one service, two processes; dead holders: test_claims.py);
extend, reminders, rollback, history and replay."""

from __future__ import annotations

import asyncio
import gc
import sqlite3
from collections import Counter
from datetime import timedelta

import pytest

from bot.service import Moderator, InvalidInput, NotFound, WrongTime
from bot.service.base import new_identity
from bot.service import updates

MOD = Moderator(user_id=99, guild_id=1)     # a moderator of the tests' server
ALICE, BOB, CLEO = 1, 2, 3




async def assert_resolved_once(table, game_id: int, update_no: int, players: int = 3):
    """One snapshot, one set of posts, every order with one outcome."""
    snapshots = [s for s in await table.snapshots(game_id) if s.update_no == update_no]
    assert [(s.revision, s.reason) for s in snapshots] == [(0, "update")]
    kinds = Counter(p.kind for p in await table.posts(game_id) if p.update_no == update_no)
    assert kinds["board"] == kinds["report"] == kinds["health_text"] == kinds["health_image"] == 1
    assert kinds["private_report"] == players
    statuses = [o.status for o in await table.orders(game_id, update_no)]
    assert statuses and set(statuses) == {"resolved"}
    game = await table.service.get_game(game_id)
    assert (game.update_no, game.snapshot_update, game.claimed_by, game.locked) == (update_no + 1, update_no, None,
                                                                                     False)


# ---------------------------------------------------------------------------------------------- once
async def test_an_update_resolves_at_its_deadline_and_only_once(table):
    service, clock = table.service, table.clock
    game = await table.playing_game()
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    clock.now = game.deadline_at - timedelta(seconds=1)
    assert (await service.resolve_if_due(game.id, 2)).outcome == "not_due"
    assert (await service.resolve_if_due(game.id, 3)).outcome == "not_running"
    clock.past(game.deadline_at)
    result = await service.resolve_if_due(game.id, 2)
    assert result.resolved and "Alice: K(0,0)-(0,1) was played" in result.report.text()
    assert (await service.resolve_if_due(game.id, 2)).outcome == "already_resolved"
    assert (await service.resolve_if_due(game.id, 1)).outcome == "already_resolved"
    await assert_resolved_once(table, game.id, 2)
    after = await service.get_game(game.id)
    assert after.deadline_at == game.deadline_at + timedelta(hours=1)   # the schedule keeps its rhythm


async def test_an_engine_failure_loses_nothing_and_the_retry_resolves(table, monkeypatch):
    """The engine runs with the loaded position frozen out of the garbage collector; a crash in it
    hands every object back to the collector, gives the claim back and keeps the order, so the
    next trigger resolves the update exactly once."""
    service, clock = table.service, table.clock
    game = await table.playing_game()
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    clock.past(game.deadline_at)
    real = updates.resolve

    def broken(*args):
        assert gc.get_freeze_count() > 0          # the position is out of the collector's way
        raise RuntimeError("engine bug")

    monkeypatch.setattr(updates, "resolve", broken)
    with pytest.raises(RuntimeError, match="engine bug"):
        await service.resolve_if_due(game.id, 2)
    assert gc.get_freeze_count() == 0
    assert (await service.get_game(game.id)).claimed_by is None
    assert [(o.canonical, o.status) for o in await table.orders(game.id, 2)] == [("K(0,0)-(0,1)", "locked")]
    monkeypatch.setattr(updates, "resolve", real)
    result = await service.resolve_if_due(game.id, 2)
    assert result.resolved and "Alice: K(0,0)-(0,1) was played" in result.report.text()
    assert gc.get_freeze_count() == 0
    await assert_resolved_once(table, game.id, 2)


async def test_two_concurrent_triggers_on_one_service_resolve_once(table):
    service = table.service
    game = await table.playing_game()
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    await service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)", source="dm")
    table.clock.past(game.deadline_at)
    results = await asyncio.gather(service.resolve_if_due(game.id, 2), service.resolve_if_due(game.id, 2))
    outcomes = sorted(r.outcome for r in results)
    assert outcomes.count("resolved") == 1, outcomes
    assert set(outcomes) - {"resolved"} <= {"busy", "already_resolved"}
    await assert_resolved_once(table, game.id, 2)


@pytest.mark.parametrize("holders", [
    ("host-a:101:aaaa", "host-b:202:bbbb"),           # two machines sharing the file
    (None, None),                                     # two services of this process, as after a restart
], ids=["two hosts", "same host"])
async def test_two_processes_on_one_file_resolve_an_update_once(table, holders):
    first = await table.other_process(holders[0] or new_identity())
    second = await table.other_process(holders[1] or new_identity())
    assert first.store is not second.store and first.holder != second.holder
    game = await table.playing_game()
    await first.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    await second.submit_order(game.id, user_id=BOB, text="K(10,0)-(11,0)")
    table.clock.past(game.deadline_at)
    results = await asyncio.gather(first.resolve_if_due(game.id, 2), second.resolve_if_due(game.id, 2),
                                   first.resolve_if_due(game.id, 2), second.resolve_if_due(game.id, 2))
    outcomes = [r.outcome for r in results]
    assert outcomes.count("resolved") == 1, outcomes
    await assert_resolved_once(table, game.id, 2)
    # each process goes on from the other's result
    await second.submit_order(game.id, user_id=ALICE, text="K(0,1)-(0,2)")
    table.clock.past((await first.get_game(game.id)).deadline_at)
    results = await asyncio.gather(second.resolve_if_due(game.id, 3), first.resolve_if_due(game.id, 3))
    assert [r.outcome for r in results].count("resolved") == 1
    assert await first.replay(game.id, 2) and await second.replay(game.id, 3)
    entry = await first.history(game.id, 3)
    assert [p.owner for p in entry.state.board.at((0, 2))] == ["Alice"]


async def test_resolve_now_is_audited_and_refused_while_paused(table):
    service = table.service
    game = await table.playing_game(schedule="manual")
    assert game.deadline_at is None
    assert (await service.resolve_if_due(game.id, 2)).outcome == "not_due"     # manual: only a moderator
    result = await service.resolve_now(game.id, actor=MOD)
    assert result.resolved
    assert [(a.action, a.actor, a.detail) for a in await service.audit_log(game.id)][-1] == (
        "resolve", MOD.user_id, {"update": 2})
    await service.pause_game(game.id, actor=MOD)
    await table.refused(service.resolve_now(game.id, actor=MOD), WrongTime, "is paused, not running")


# ---------------------------------------------------------------------------------------------- timing
async def test_extend_moves_the_deadline_and_reopens_a_lock(table):
    service = table.service
    game = await table.playing_game()
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    table.clock.now = game.deadline_at - timedelta(minutes=1)
    await service.lock_orders(game.id, actor=MOD)
    extended = await service.extend(game.id, minutes=30, actor=MOD)
    assert extended.deadline_at == game.deadline_at + timedelta(minutes=30)
    assert not extended.locked
    assert [o.status for o in await table.orders(game.id, 2)] == ["pending"]
    assert (await table.posts(game.id))[-1].body == (
        f"The deadline of update 2 is extended to {extended.deadline_at:%Y-%m-%d %H:%M} UTC.")
    table.clock.past(game.deadline_at)
    assert (await service.resolve_if_due(game.id, 2)).outcome == "not_due"
    table.clock.past(extended.deadline_at)
    assert (await service.resolve_if_due(game.id, 2)).resolved
    for minutes, words in [(0, "extend by 1 minute to a week"), (10**100, "extend by 1 minute to a week"),
                           (True, "extend by 1 minute")]:
        await table.refused(service.extend(game.id, minutes=minutes, actor=MOD), InvalidInput, words)


async def test_extend_needs_a_deadline(table):
    game = await table.playing_game(schedule="manual")
    await table.refused(table.service.extend(game.id, minutes=10, actor=MOD), WrongTime, "has no deadline")


async def test_a_reminder_names_who_has_not_moved_once_per_deadline(table):
    service = table.service
    game = await table.playing_game(settings={"remind_before": 30})
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    table.clock.now = game.deadline_at - timedelta(minutes=31)
    assert await service.remind_if_due(game.id, 2) is False
    table.clock.now = game.deadline_at - timedelta(minutes=30)
    assert await service.remind_if_due(game.id, 2) is True
    assert await service.remind_if_due(game.id, 2) is False
    reminders = [p.body for p in await table.posts(game.id) if p.kind == "reminder"]
    assert reminders == [f"2 of 3 players have not moved for update 2: Bob, Cleo. Orders close at "
                         f"{game.deadline_at:%Y-%m-%d %H:%M} UTC."]


# ---------------------------------------------------------------------------------------------- rollback
async def test_rollback_restores_an_earlier_board_and_keeps_history(table):
    service = table.service
    game = await table.playing_game()
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    await table.resolve(game.id)
    await service.submit_order(game.id, user_id=ALICE, text="K(0,1)-(0,2)")
    await table.resolve(game.id)
    await service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)", source="dm")   # for update 4
    await service.submit_order(game.id, user_id=CLEO, text="K(0,10)-(0,11)")
    posts_before = {p.id for p in await table.posts(game.id)}

    await table.refused(service.rollback(game.id, to_update=3, actor=MOD), InvalidInput,
                  "roll back to an earlier update, 0 to 2")
    game = await service.rollback(game.id, to_update=1, actor=MOD, reason="a misclick")
    assert (game.update_no, game.snapshot_update, game.locked) == (2, 1, False)
    assert game.deadline_at == table.clock.now + timedelta(hours=1)

    marks = [(s.update_no, s.rolled_back) for s in await table.snapshots(game.id)]
    assert marks == [(0, False), (1, False), (2, True), (3, True)]
    assert [o.status for o in await table.orders(game.id, 4)] == ["cancelled", "cancelled"]
    new = [p for p in await table.posts(game.id) if p.id not in posts_before]
    private = sorted((p.recipient, p.body) for p in new if p.recipient is not None)
    assert [r for r, _ in private] == [BOB, CLEO]
    assert all("was cancelled: a moderator rolled the game back to update 1" in body for _, body in private)
    assert "K(10,0)" not in private[0][1]     # never quoted: a fallback thread is readable by moderators
    [announcement] = [p for p in new if p.recipient is None]
    assert announcement.kind == "announcement" and announcement.filename == "board.png"
    assert announcement.attachment.startswith(b"\x89PNG")
    assert f"rolled **{game.name}** back to the board after update 1 (a misclick)" in announcement.body
    assert "K(10,0)-(10,1)" not in announcement.body                  # the secret stays secret
    [audit] = [a for a in await service.audit_log(game.id) if a.action == "rollback"]
    assert audit.detail == {"to": 1, "from": 3, "snapshots_undone": 2, "reason": "a misclick"}

    assert await service.replay(game.id, 1)
    await table.refused(service.history(game.id, 2), NotFound, "has updates 0 to 1")
    entry = await service.history(game.id, 1)
    assert [p.owner for p in entry.state.board.at((0, 0))] == ["Alice"]
    assert (await service.check(game.id, user_id=ALICE, text="K(0,0)-(1,0)")).ok     # the king is back

    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(1,0)")
    result = await table.resolve(game.id)
    assert result.resolved and "Alice: K(0,0)-(1,0) was played" in result.report.text()
    redo = await service.history(game.id, 2)
    assert (redo.revision, redo.orders) == (1, {"Alice": "K(0,0)-(1,0)"})
    assert await service.replay(game.id, 2)
    all_snapshots = [(s.update_no, s.revision, s.rolled_back) for s in await table.snapshots(game.id)]
    assert all_snapshots == [(0, 0, False), (1, 0, False), (2, 0, True), (2, 1, False), (3, 0, True)]


async def test_rollback_needs_an_earlier_update(table):
    game = await table.new_game()
    await table.refused(table.service.rollback(game.id, to_update=0, actor=MOD), InvalidInput,
                  "there is no earlier update to roll back to")


# ---------------------------------------------------------------------------------------------- history
async def test_history_and_replay(table):
    service = table.service
    game = await table.playing_game()
    entry = await service.history(game.id, 1)
    assert entry.orders == {"Alice": "+K(0,0)", "Bob": "+K(10,0)", "Cleo": "+K(0,10)"}
    assert "Bob placed a king on (10,0)" in entry.report.text()
    picture, report = await service.history_picture(game.id, 1)
    assert picture.png.startswith(b"\x89PNG") and report == entry.report.text()
    start = await service.history(game.id, 0)
    assert start.report is None and len(start.state.board) == 0
    for update_no in (2, -1, 10**100, "1"):
        await table.refused(service.history(game.id, update_no), NotFound, "has updates 0 to 1")
    await table.refused(service.replay(game.id, 10**100), NotFound, "was not resolved by the engine")
    assert await service.replay(game.id, 1)


async def test_replay_notices_a_snapshot_that_does_not_follow_from_its_orders(table):
    game = await table.playing_game()
    await table.service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    await table.resolve(game.id)
    assert await table.service.replay(game.id, 2)
    with sqlite3.connect(table.path) as connection:       # someone edits the stored result by hand
        connection.execute("UPDATE snapshots SET orders = ? WHERE update_no = 2", ('{"Alice": "K(0,0)-(1,0)"}',))
    connection.close()
    assert await table.service.replay(game.id, 2) is False
