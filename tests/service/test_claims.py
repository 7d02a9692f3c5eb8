"""Claims that survive hosts (issue 26 item 5): each running service has an identity of its own and
a heartbeat; a dead holder's claim is freed once its lease has passed and the update resolves once;
a live holder's claim is never taken over, not by another host nor by another service of the same
process; a stalled holder's late result is refused (fencing); a clean stop frees everything at once;
a process killed in the middle of an update loses nothing.

Nothing sleeps: the lease is crossed by moving the service clock. The engine is held in its thread
by an event where a test needs an update "in the middle" of being computed."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import threading
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest

from bot.service import Service, WrongTime, updates
from bot.service.claims import LIVENESS, Liveness
from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]
ALICE, BOB, CLEO = 1, 2, 3
LEASE = LIVENESS.lease
BEAT = LIVENESS.beat
KILLED = -9


class Engine:
    """The real engine, counted, and held in its thread on the calls named in ``hold`` (1: the
    first) until ``release()``: an update "being computed" for as long as a test needs."""

    def __init__(self, monkeypatch, hold: tuple[int, ...] = ()) -> None:
        self.real = updates.resolve
        self.calls = 0
        self.hold = hold
        self.entered = threading.Event()
        self.gate = threading.Event()
        self.lock = threading.Lock()
        monkeypatch.setattr(updates, "resolve", self)

    def __call__(self, *args):
        with self.lock:
            self.calls += 1
            call = self.calls
        if call in self.hold:
            self.entered.set()
            assert self.gate.wait(30), "the test never released the engine"
        return self.real(*args)

    async def held(self) -> None:
        """Wait until a held call is inside the engine."""
        assert await asyncio.to_thread(self.entered.wait, 30), "the engine was never called"

    def release(self) -> None:
        self.gate.set()


async def assert_resolved_once(table, game_id: int, update_no: int):
    """One snapshot of the update, one board and one report posted, every order resolved, the claim
    released."""
    snapshots = [s for s in await table.snapshots(game_id) if s.update_no == update_no]
    assert [(s.revision, s.reason) for s in snapshots] == [(0, "update")]
    kinds = Counter(p.kind for p in await table.posts(game_id) if p.update_no == update_no)
    assert kinds["board"] == kinds["report"] == 1
    statuses = [o.status for o in await table.orders(game_id, update_no)]
    assert statuses and set(statuses) == {"resolved"}
    game = await table.service.get_game(game_id)
    assert (game.update_no, game.claimed_by, game.locked) == (update_no + 1, None, False)


async def services(table) -> list[tuple]:
    """``(identity, host, pid)`` of the rows of ``services``, by identity."""
    async with table.store.snapshot_read() as q:
        return sorted((row.identity, row.host, row.pid) for row in await q.services())


async def ordered_game(table):
    """A game at update 2 with two orders in, its deadline passed."""
    game = await table.playing_game()
    await table.service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    await table.service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)", source="dm")
    table.clock.past(game.deadline_at)
    return game


@pytest.fixture
async def elsewhere(table):
    """A service on another host: its own store on the shared file, its own identity."""
    service = await table.other_process("elsewhere-0001")
    service.host, service.pid = "container-7f3a", 1       # a re-created container reuses pid 1
    return service


# ---------------------------------------------------------------------------------------------- identity
async def test_each_service_has_an_identity_of_its_own_and_a_row_while_it_runs(table):
    one, two = Service(table.store, clock=table.clock), Service(table.store, clock=table.clock)
    assert len({one.holder, two.holder, table.service.holder}) == 3        # one process, three identities
    await one.start()
    await two.start()
    try:
        assert one.beating and two.beating
        assert await services(table) == sorted([(one.holder, one.host, os.getpid()), (two.holder, two.host, os.getpid())])
        async with table.store.snapshot_read() as q:
            rows = await q.services()
        assert {row.heartbeat_at for row in rows} == {table.clock.now}
    finally:
        await one.stop()
    assert await services(table) == [(two.holder, two.host, os.getpid())]
    assert not one.beating and two.beating
    await two.stop()
    assert await services(table) == []


# ---------------------------------------------------------------------------------------------- dead holders
@pytest.mark.parametrize("freed_by", ["resolve_if_due", "recover", "heartbeat sweep"])
async def test_a_dead_holders_claim_on_another_host_is_freed_once_its_lease_has_passed(table, elsewhere, freed_by,
                                                                                     monkeypatch, caplog):
    """The other host claims and dies (its heartbeat stops). Within the lease its claim holds; once
    the lease has passed, the next resolve_if_due, recover() or heartbeat's sweep frees it, and the
    update resolves once with the orders it had."""
    service, clock = table.service, table.clock
    game = await ordered_game(table)
    claimed = await elsewhere._claim(game.id, 2, force=False)      # claimed, then the host is gone
    assert not isinstance(claimed, updates.Resolution), claimed
    engine = Engine(monkeypatch)
    await table.refused(service.submit_order(game.id, user_id=CLEO, text="K(0,10)-(0,11)"), WrongTime, "locked")

    clock.advance(seconds=LEASE.total_seconds() - 1)                # silent, but within its lease
    assert (await service.resolve_if_due(game.id, 2)).outcome == "busy"
    assert await service.recover() == []
    assert await service.beat() == []
    assert (await service.get_game(game.id)).claimed_by == elsewhere.holder

    clock.advance(seconds=2)                                        # the lease has passed
    caplog.set_level(logging.WARNING, logger="bot.service.claims")
    if freed_by == "recover":
        assert await service.recover() == [game.id]
    elif freed_by == "heartbeat sweep":
        assert await service.beat() == [game.id]
        assert elsewhere.holder not in [identity for identity, _, _ in await services(table)]   # forgotten too
    if freed_by != "resolve_if_due":
        assert (await service.get_game(game.id)).claimed_by is None
    result = await service.resolve_if_due(game.id, 2)
    assert result.resolved
    assert f"the claim on update 2 of service {elsewhere.holder} (on host container-7f3a, pid 1" in caplog.text
    text = result.report.text()
    assert "Alice: K(0,0)-(0,1) was played" in text and "K(10,0)-(10,1)" in text    # no order lost
    assert engine.calls == 1
    await assert_resolved_once(table, game.id, 2)
    assert (await service.resolve_if_due(game.id, 2)).outcome == "already_resolved"


async def test_a_claim_whose_holder_has_no_row_is_free_at_once(table):
    """A claim named by a service that stopped cleanly, or written by the code before this one
    (``host:pid:boot``, which no service row names), blocks nothing."""
    game = await ordered_game(table)
    async with table.store.transaction() as q:
        await q.update_game(game.id, claimed_by="old-host:4242:0dead0", claimed_at=table.clock.now, locked=True)
        await q.move_orders(game.id, 2, "pending", "locked")
    assert await table.service.recover() == [game.id]
    assert await table.service.recover() == []
    assert (await table.service.resolve_if_due(game.id, 2)).resolved
    await assert_resolved_once(table, game.id, 2)


# ---------------------------------------------------------------------------------------------- live holders
@pytest.mark.parametrize("where", ["another host", "the same process"])
async def test_a_live_holders_claim_is_never_taken_over(table, elsewhere, where, monkeypatch):
    """While the holder computes (the engine held in its thread) and beats, the clock runs ten
    leases on: nobody takes the claim, not another host, not another Service of the same process
    on the same store; the holder then stores the update, and the engine ran once."""
    service, clock = table.service, table.clock
    holder = elsewhere if where == "another host" else Service(table.store, clock=clock)
    game = await ordered_game(table)
    engine = Engine(monkeypatch, hold=(1,))
    task = asyncio.create_task(holder.resolve_if_due(game.id, 2))
    try:
        await engine.held()
        for _ in range(10 * LIVENESS.lease_beats):
            clock.advance(seconds=BEAT.total_seconds())
            assert await holder.beat() == []
            assert (await service.resolve_if_due(game.id, 2)).outcome == "busy"
            await table.refused(service.resolve_now(game.id, actor=table.MODERATOR), WrongTime,
                                "update 2 is already being resolved")
        assert await service.recover() == [] and await service.beat() == []
        assert (await service.get_game(game.id)).claimed_by == holder.holder
    finally:
        engine.release()
    result = await task
    assert result.resolved and engine.calls == 1
    await assert_resolved_once(table, game.id, 2)


@pytest.mark.parametrize("stores", ["one store", "two stores"])
async def test_two_services_in_one_process_racing_run_the_engine_once(table, stores, monkeypatch):
    clock = table.clock
    store = table.store
    if stores == "two stores":
        store = await Store.open(table.path)
        table._extra.append(store)
    first, second = Service(table.store, clock=clock), Service(store, clock=clock)
    game = await ordered_game(table)
    engine = Engine(monkeypatch)
    results = await asyncio.gather(*(service.resolve_if_due(game.id, 2) for service in (first, second) * 3))
    outcomes = Counter(result.outcome for result in results)
    assert outcomes["resolved"] == 1 and set(outcomes) <= {"resolved", "busy", "already_resolved"}, outcomes
    assert engine.calls == 1
    await assert_resolved_once(table, game.id, 2)


async def test_the_heartbeat_beats_while_the_engine_computes_off_the_loop(table, monkeypatch):
    """A started service's heartbeat is a task on the event loop, so it beats while a long update is
    computed in a thread: the clock passes three leases during the computation, another service
    asking meanwhile finds the claim busy, and the update is stored."""
    clock = table.clock
    liveness = Liveness(beat=timedelta(milliseconds=20))            # beats quickly; its lease: 60 ms of the clock
    holder = Service(table.store, clock=clock, liveness=liveness)
    other = await table.other_process("other-0002")
    other.liveness = liveness
    game = await ordered_game(table)
    loop = asyncio.get_running_loop()
    beaten = threading.Event()
    real_beat = holder.beat

    async def beat():
        freed = await real_beat()
        beaten.set()
        return freed

    holder.beat = beat
    asked = []

    def long_update(*args):
        for _ in range(3):                          # the clock moves a lease on; the heartbeat follows it
            clock.now += liveness.lease
            beaten.clear()
            assert beaten.wait(30), "no heartbeat while the engine computed"
            assert beaten.wait(30)
        asked.append(asyncio.run_coroutine_threadsafe(other.resolve_if_due(game.id, 2), loop).result(30).outcome)
        return real(*args)

    real = updates.resolve
    monkeypatch.setattr(updates, "resolve", long_update)
    await holder.start()
    try:
        result = await holder.resolve_if_due(game.id, 2)
    finally:
        await holder.stop()
    assert asked == ["busy"]
    assert result.resolved
    await assert_resolved_once(table, game.id, 2)


# ---------------------------------------------------------------------------------------------- fencing
@pytest.mark.parametrize("meanwhile", ["taken over and resolved", "freed by a sweep"])
async def test_a_stalled_holders_late_result_is_not_stored(table, elsewhere, meanwhile, monkeypatch, caplog):
    """The holder stalls past its lease while computing (no heartbeat: a process stopped, a host cut
    off). Its claim is freed and the update resolved by another service, or only freed; when the
    stalled holder comes back with its result, its storing transaction finds the claim is not its
    own and writes nothing: the update is stored exactly once."""
    service, clock = table.service, table.clock
    game = await ordered_game(table)
    engine = Engine(monkeypatch, hold=(1,))
    stalled = asyncio.create_task(elsewhere.resolve_if_due(game.id, 2))
    try:
        await engine.held()
        clock.advance(seconds=LEASE.total_seconds() + 1)
        if meanwhile == "taken over and resolved":
            assert (await service.resolve_if_due(game.id, 2)).resolved
        else:
            assert await service.beat() == [game.id]
        before = table.dump()
    finally:
        engine.release()
    caplog.set_level(logging.WARNING, logger="bot.service.updates")
    late = await stalled
    assert late.outcome == "busy"
    assert f"update 2 was computed but is not stored: the claim of this service ({elsewhere.holder})" in caplog.text
    assert table.dump() == before, "the late result wrote something"
    if meanwhile == "freed by a sweep":
        assert (await service.resolve_if_due(game.id, 2)).resolved
    assert engine.calls == 2
    await assert_resolved_once(table, game.id, 2)


async def test_a_service_taken_for_dead_beats_again_and_keeps_nothing_it_lost(table, elsewhere):
    game = await ordered_game(table)
    await elsewhere.recover()
    clock = table.clock
    clock.advance(seconds=LEASE.total_seconds() + 1)
    await table.service.beat()                        # the sweep forgets the silent service
    assert elsewhere.holder not in [identity for identity, _, _ in await services(table)]
    await elsewhere.beat()                            # ... which was only slow: it is back
    assert elsewhere.holder in [identity for identity, _, _ in await services(table)]
    assert (await elsewhere.resolve_if_due(game.id, 2)).resolved


# ---------------------------------------------------------------------------------------------- clean stop
async def test_a_clean_stop_removes_the_row_and_frees_the_claim_at_once(table, elsewhere, monkeypatch):
    service = table.service
    game = await ordered_game(table)
    await elsewhere.start()
    assert elsewhere.holder in [identity for identity, _, _ in await services(table)]
    claimed = await elsewhere._claim(game.id, 2, force=False)     # an update under way when it stops
    assert not isinstance(claimed, updates.Resolution)
    await elsewhere.stop()
    assert elsewhere.holder not in [identity for identity, _, _ in await services(table)]
    assert (await service.resolve_if_due(game.id, 2)).resolved   # no lease to wait for
    await assert_resolved_once(table, game.id, 2)


async def test_a_claim_left_by_a_cancelled_task_of_this_service_is_taken_back(table, monkeypatch):
    """A task of this service cancelled in the middle of an update (a shutdown that ran out of
    time) leaves its claim; the service itself, which is not computing that update any more, takes
    it back at the next trigger instead of waiting for ever on its own live claim."""
    service = table.service
    game = await ordered_game(table)
    engine = Engine(monkeypatch, hold=(1,))
    task = asyncio.create_task(service.resolve_if_due(game.id, 2))
    await engine.held()
    task.cancel()
    engine.release()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert (await service.get_game(game.id)).claimed_by == service.holder
    assert (await service.resolve_if_due(game.id, 2)).resolved
    await assert_resolved_once(table, game.id, 2)


def test_a_lease_is_a_few_beats():
    assert (LIVENESS.beat, LIVENESS.lease) == (timedelta(seconds=5), timedelta(seconds=15))
    for wrong in ({"beat": timedelta(0)}, {"lease_beats": 1}):
        with pytest.raises(ValueError, match="lease of at least 2 beats"):
            Liveness(**wrong)


# ---------------------------------------------------------------------------------------------- a crash
_KILLED_PROCESS = """
import asyncio, sys
from datetime import datetime
from bot.service import Service
from bot.store import Store

async def main(path, game_id, moment):
    store = await Store.open(path)
    try:
        service = Service(store, clock=lambda: moment)
        await service.start()
        print(service.holder, flush=True)
        await service.resolve_if_due(game_id, 2)       # SIGKILLed at the fault point
        await service.stop()
    finally:
        await store.close()

asyncio.run(main(sys.argv[1], int(sys.argv[2]), datetime.fromisoformat(sys.argv[3])))
"""


@pytest.mark.parametrize("point", ["after_claim", "after_engine", "after_commit"])
async def test_a_process_killed_in_the_middle_of_an_update_loses_nothing(table, point, monkeypatch):
    """Another process (a real one, on the same file) is killed with SIGKILL at a fault point of
    update 2. Its claim holds for the lease, then this service resolves the update once, with every
    order; killed after its commit, the update is resolved and nothing is left to do."""
    service, clock = table.service, table.clock
    if getattr(table.store, "path", None) is None:
        pytest.skip("the other process is handed the SQLite file (tests/faults kill processes on PostgreSQL)")
    game = await ordered_game(table)
    env = {**os.environ, "SKIRMISH_FAULT": point, "SKIRMISH_FAULT_UPDATE": "2"}
    killed = await asyncio.to_thread(subprocess.run, [sys.executable, "-c", _KILLED_PROCESS, str(table.path),
                                                      str(game.id), clock.now.isoformat()],
                                     cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert killed.returncode == KILLED, killed.stderr
    identity = killed.stdout.split()[0]
    engine = Engine(monkeypatch)
    if point == "after_commit":
        assert (await service.get_game(game.id)).claimed_by is None
        assert (await service.resolve_if_due(game.id, 2)).outcome == "already_resolved"
    else:
        assert (await service.get_game(game.id)).claimed_by == identity
        assert (await service.resolve_if_due(game.id, 2)).outcome == "busy"      # within its lease
        clock.advance(seconds=LEASE.total_seconds() + 1)
        result = await service.resolve_if_due(game.id, 2)
        assert result.resolved and "Alice: K(0,0)-(0,1) was played" in result.report.text()
    assert engine.calls == (0 if point == "after_commit" else 1)
    await assert_resolved_once(table, game.id, 2)
    clock.advance(seconds=LEASE.total_seconds() + 1)
    await service.beat()
    assert identity not in [row for row, _, _ in await services(table)]       # the dead process is forgotten


# ---------------------------------------------------------------------------------------------- both back ends
@pytest.fixture
async def shared(store_url, clock, table):
    """A table on either back end (a SQLite file, a PostgreSQL database) and a second store on the
    same database: another process's. (Only the service's reads are used: no SQLite dumps.)"""
    table = type(table)(None, await Store.open(store_url), clock)
    try:
        other = await Store.open(store_url)
        table._extra.append(other)
        yield table, other
    finally:
        await table.close()


async def test_on_either_back_end_a_live_claim_holds_a_dead_one_is_freed_and_a_late_result_refused(shared,
                                                                                                  monkeypatch):
    """One mechanism for both back ends. Another process's service claims and computes (the engine
    held); while it beats, nobody takes the claim, however far the clock runs. It then falls silent
    past its lease: this service frees the claim and resolves the update; the silent one's late
    result is refused. The engine ran twice, the update is stored once; a sweep forgets the dead
    service, and a clean stop frees this one's row at once."""
    table, other_store = shared
    service, clock = table.service, table.clock
    holder = Service(other_store, clock=clock, holder="elsewhere-0003")
    game = await ordered_game(table)
    engine = Engine(monkeypatch, hold=(1,))
    late = asyncio.create_task(holder.resolve_if_due(game.id, 2))
    try:
        await engine.held()
        for _ in range(2 * LIVENESS.lease_beats):
            clock.advance(seconds=BEAT.total_seconds())
            await holder.beat()
            assert (await service.resolve_if_due(game.id, 2)).outcome == "busy"
        assert await service.recover() == []
        clock.advance(seconds=LEASE.total_seconds() + 1)            # the holder falls silent
        result = await service.resolve_if_due(game.id, 2)
        assert result.resolved and "Alice: K(0,0)-(0,1) was played" in result.report.text()
    finally:
        engine.release()
    assert (await late).outcome == "busy"
    assert engine.calls == 2
    await assert_resolved_once(table, game.id, 2)
    await service.start(heartbeat=False)
    await service.beat()
    async with table.store.snapshot_read() as q:
        assert [row.identity for row in await q.services()] == [service.holder]     # the silent one forgotten
    await service.stop()
    async with table.store.snapshot_read() as q:
        assert await q.services() == []
