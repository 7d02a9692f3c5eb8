"""Issue 25: orders arriving together are written together, and nothing is lost, duplicated or reordered.

Submissions made at the same moment are validated ahead (against the open update's position, outside
the game's lock) and written by one transaction per group, in the order they were made. Each stays
all-or-nothing, and the outcome is what one transaction per submission gives: D6, the latest valid
order of each player wins (two orders of one player in one group keep the later); a refused one
changes nothing for the others; a submission is confirmed only once its group is committed, so a
crash in the middle of a group loses nothing already confirmed.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.service import NotAllowed, NotFound, OrderRefused, WrongTime
from bot.store.queries import Queries

from .conftest import MODERATOR

ROOT = Path(__file__).resolve().parents[2]

#: a square grid of players whose kings stand 4 squares apart (no king attacks another's squares)
CROWD = [(100 + i, f"P{i:02d}", colour, (4 * (i % 5), 4 * (i // 5)))
         for i, colour in enumerate(["Red", "Blue", "Green", "Yellow", "Purple", "Orange", "Pink", "Brown", "Black",
                                     "White", "Grey", "Cyan", "Magenta", "Lime", "Olive", "Maroon", "Navy", "Teal",
                                     "Gold", "Silver"])]


def step(square, dx, dy) -> str:
    x, y = square
    return f"K({x},{y})-({x + dx},{y + dy})"


async def at_once(service, game_id, submissions):
    """``(user_id, text[, source])`` submitted at the same moment, in this order: each one's receipt or error."""
    return await asyncio.gather(*(service.submit_order(game_id, user_id=user_id, text=text,
                                                       source=rest[0] if rest else "channel")
                                  for user_id, text, *rest in submissions), return_exceptions=True)


def count_transactions(store, monkeypatch) -> list[int]:
    """Count the store's write transactions from now on (to know the submissions were grouped)."""
    counted = [0]
    transaction = store.transaction

    def counting():
        counted[0] += 1
        return transaction()

    monkeypatch.setattr(store, "transaction", counting)
    return counted


async def live(table, game_id, update_no) -> dict[int, str]:
    return {o.user_id: o.canonical for o in await table.orders(game_id, update_no) if o.status == "pending"}


async def test_many_players_and_repeated_orders_at_once_keep_each_players_last(table, monkeypatch):
    game = await table.playing_game(players=CROWD)
    transactions = count_transactions(table.store, monkeypatch)
    submissions = []
    for round_ in range(3):            # every player three times, rounds interleaved: the third one wins
        for user_id, _, _, king in CROWD:
            submissions.append((user_id, step(king, *[(1, 0), (0, 1), (1, 1)][round_])))
    receipts = await at_once(table.service, game.id, submissions)
    assert transactions[0] < len(submissions) / 10, "the submissions were not written in groups"
    assert all(not isinstance(r, Exception) for r in receipts)
    assert await live(table, game.id, game.update_no) == {user_id: step(king, 1, 1) for user_id, _, _, king in CROWD}
    # each receipt names the order it replaced: the player's previous submission, in the order made
    for index, (user_id, text) in enumerate(submissions):
        earlier = [t for u, t in submissions[:index] if u == user_id]
        assert receipts[index].canonical == text
        assert receipts[index].replaced == (earlier[-1] if earlier else None)
    # every accepted order is stored once, in the order submitted; all but the last of each are superseded
    stored = [(o.user_id, o.canonical, o.status) for o in await table.orders(game.id, game.update_no)]
    assert [(u, t) for u, t, _ in stored] == submissions
    assert [s for _, _, s in stored] == ["superseded"] * 2 * len(CROWD) + ["pending"] * len(CROWD)


async def test_two_orders_of_one_player_in_one_group_keep_the_later(table):
    game = await table.playing_game()
    first, second = await at_once(table.service, game.id, [(1, "K(0,0)-(0,1)"), (1, "K(0,0)-(1,0)")])
    assert (first.replaced, second.replaced) == (None, "K(0,0)-(0,1)")
    assert await live(table, game.id, game.update_no) == {1: "K(0,0)-(1,0)"}
    result = await table.resolve(game.id)
    assert "Alice: K(0,0)-(1,0) was played" in result.report.text()


async def test_a_refused_submission_in_a_group_changes_nothing_for_the_others(table):
    game = await table.playing_game()
    outcomes = await at_once(table.service, game.id, [
        (1, "K(0,0)-(0,1)"),            # Alice: accepted
        (2, "K(10,0)-(10,5)"),          # Bob: a king does not go five squares
        (3, "K(0,10)-(1,10)"),          # Cleo: accepted
        (1, "Q(0,0)-(0,2)"),            # Alice again: refused, her first order stands
        (77, "K(3,3)"),                 # not a player
        (2, "K(10,0)-(11,0)"),          # Bob again: accepted
    ])
    assert [type(o).__name__ for o in outcomes] == ["Receipt", "OrderRefused", "Receipt", "OrderRefused",
                                                    "NotAllowed", "Receipt"]
    assert "not a player" in outcomes[4].describe()
    assert outcomes[5].replaced is None        # Bob's refused order never replaced anything
    assert await live(table, game.id, game.update_no) == {1: "K(0,0)-(0,1)", 2: "K(10,0)-(11,0)",
                                                          3: "K(0,10)-(1,10)"}
    assert len(await table.orders(game.id, game.update_no)) == 3          # refused orders are not stored


async def test_a_secret_order_is_announced_once_per_player_in_a_group(table):
    game = await table.playing_game()
    await at_once(table.service, game.id, [(1, "K(0,0)-(0,1)", "dm"), (2, "K(10,0)-(11,0)"),
                                            (1, "K(0,0)-(1,0)", "dm"), (2, "K(10,0)-(10,1)", "dm")])
    notices = [p.body for p in await table.posts(game.id) if p.kind == "notice"]
    assert notices == ["Alice has submitted a secret move", "Bob has submitted a secret move"]
    assert all("K(" not in body for body in notices)


async def test_the_order_that_completes_the_set_resolves_the_update_early(table):
    game = await table.playing_game(settings={"early_resolution": True})
    receipts = await at_once(table.service, game.id, [(1, "K(0,0)-(0,1)"), (2, "K(10,0)-(11,0)"),
                                                      (1, "K(0,0)-(1,0)"), (3, "K(0,10)-(1,10)"),
                                                      (2, "K(10,0)-(10,1)")])
    assert [r.resolves_now for r in receipts] == [False, False, False, True, False]
    now = table.clock()
    assert [r.deadline_at for r in receipts] == [game.deadline_at] * 3 + [now, now]
    assert (await table.service.get_game(game.id)).deadline_at == now
    assert "resolves now" in receipts[3].text()


async def test_an_order_checked_ahead_on_a_position_since_edited_is_checked_again(table):
    game = await table.playing_game()
    await table.service.submit_order(game.id, user_id=2, text="K(10,0)-(11,0)")   # the position is known
    await table.service.remove_piece(game.id, square=(0, 0), actor=MODERATOR)       # Alice's king is gone
    await table.refused(table.service.submit_order(game.id, user_id=1, text="K(0,0)-(0,1)"), OrderRefused,
                        "(0,0)")


async def test_a_player_who_joined_since_the_position_was_known_may_order(table):
    game = await table.playing_game()
    await table.service.submit_order(game.id, user_id=2, text="K(10,0)-(11,0)")
    await table.service.join(game.id, user_id=4, name="Dan", colour="Purple")
    receipt = await table.service.submit_order(game.id, user_id=4, text="K(20,20)")
    assert receipt.canonical == "+K(20,20)"


async def test_orders_sent_at_once_are_written_before_a_cancel_or_a_lock_sent_after_them(table):
    game = await table.playing_game()
    submitted, cancelled = await asyncio.gather(table.service.submit_order(game.id, user_id=1, text="K(0,0)-(0,1)"),
                                                table.service.cancel_order(game.id, user_id=1))
    assert cancelled.canonical == submitted.canonical
    assert await live(table, game.id, game.update_no) == {}
    outcomes = await asyncio.gather(table.service.submit_order(game.id, user_id=2, text="K(10,0)-(11,0)"),
                                    table.service.lock_orders(game.id, actor=MODERATOR),
                                    table.service.submit_order(game.id, user_id=3, text="K(0,10)-(1,10)"),
                                    return_exceptions=True)
    assert outcomes[0].canonical == "K(10,0)-(11,0)" and isinstance(outcomes[2], WrongTime)
    assert [(o.user_id, o.status) for o in await table.orders(game.id, game.update_no)] == [
        (1, "cancelled"), (2, "locked")]


async def test_a_group_that_fails_loses_nothing_confirmed_and_keeps_nothing_of_its_own(table, monkeypatch):
    game = await table.playing_game()
    confirmed = await at_once(table.service, game.id, [(1, "K(0,0)-(0,1)"), (2, "K(10,0)-(11,0)")])
    written = Queries.insert_orders

    async def fail_after_writing(self, **kwargs):     # the statements run, then the disk fails
        await written(self, **kwargs)
        raise OSError("disk I/O error")

    monkeypatch.setattr(Queries, "insert_orders", fail_after_writing)
    failed = await at_once(table.service, game.id, [(1, "K(0,0)-(1,0)"), (3, "K(0,10)-(1,10)")])
    assert all(isinstance(outcome, OSError) for outcome in failed)
    assert await live(table, game.id, game.update_no) == {1: confirmed[0].canonical, 2: confirmed[1].canonical}
    monkeypatch.undo()
    again = await table.service.submit_order(game.id, user_id=3, text="K(0,10)-(1,10)")
    assert again.replaced is None
    assert len(await live(table, game.id, game.update_no)) == 3


CRASH = textwrap.dedent("""
    import asyncio, os, signal, sys
    from bot.service import Moderator, Service
    from bot.store import Store
    from bot.store.queries import Queries

    async def main(path):
        service = Service(await Store.open(path))
        moderator = Moderator(user_id=99, guild_id=1)
        game = await service.create_game(guild_id=1, channel_id=10, actor=moderator, seed=7)
        await service.start_game(game.id, actor=moderator)
        for user_id, name, colour, (x, y) in [(1, "Alice", "Red", (0, 0)), (2, "Bob", "Blue", (10, 0)),
                                              (3, "Cleo", "Green", (0, 10))]:
            await service.join(game.id, user_id=user_id, name=name, colour=colour)
            receipt = await service.submit_order(game.id, user_id=user_id, text=f"K({x},{y})")
            print("confirmed", user_id, receipt.canonical, flush=True)
        written = Queries.insert_orders

        async def die_after_writing(self, **kwargs):    # a power cut in the middle of the group
            await written(self, **kwargs)
            os.kill(os.getpid(), signal.SIGKILL)

        Queries.insert_orders = die_after_writing
        await asyncio.gather(*(service.submit_order(game.id, user_id=u, text=t)
                               for u, t in [(1, "K(1,1)"), (2, "K(12,0)"), (3, "K(0,12)")]))
        print("NOT KILLED", flush=True)

    asyncio.run(main(sys.argv[1]))
""")


def test_a_process_killed_in_the_middle_of_a_group_loses_nothing_confirmed(tmp_path):
    path = tmp_path / "crash.sqlite3"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKIRMISH_FAULT")}
    run = subprocess.run([sys.executable, "-c", CRASH, str(path)], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120, check=False)
    assert run.returncode == -9, run.stderr
    confirmed = {(int(user), order) for _, user, order in (line.split() for line in run.stdout.splitlines())}
    assert len(confirmed) == 3
    import sqlite3
    with sqlite3.connect(path) as db:
        stored = set(db.execute("SELECT user_id, canonical FROM orders WHERE status = 'pending'").fetchall())
        count = db.execute("SELECT COUNT(*) FROM orders").fetchone()[0]
    assert stored == confirmed and count == 3


@pytest.mark.parametrize("source", ["channel", "dm"])
async def test_a_kicked_player_checked_ahead_is_refused_by_the_group(table, source):
    game = await table.playing_game()
    await table.service.submit_order(game.id, user_id=3, text="K(0,10)-(1,10)")    # Cleo is known to be playing
    await table.service.kick(game.id, user_id=3, actor=MODERATOR)
    await table.refused(table.service.submit_order(game.id, user_id=3, text="K(0,10)-(0,11)", source=source),
                        NotAllowed, "removed you")


@pytest.mark.parametrize("game_id", [True, 1.0, "1", 2**70])
async def test_what_is_not_a_game_number_never_joins_a_games_group(table, game_id):
    game = await table.playing_game()
    assert game.id == 1
    outcomes = await asyncio.gather(table.service.submit_order(game.id, user_id=1, text="K(0,0)-(0,1)"),
                                    table.service.submit_order(game_id, user_id=2, text="K(10,0)-(11,0)"),
                                    return_exceptions=True)
    assert outcomes[0].canonical == "K(0,0)-(0,1)" and isinstance(outcomes[1], NotFound)
    assert await live(table, game.id, game.update_no) == {1: "K(0,0)-(0,1)"}


class CountingLock(asyncio.Lock):
    """The game's lock, counting how many times it was asked for (to know who waits for it)."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    async def acquire(self):
        self.asked += 1
        return await super().acquire()


async def until(condition) -> None:
    for _ in range(5000):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("never came")


@pytest.mark.parametrize("action", ["kick", "end_game"])
async def test_a_kick_or_an_end_comes_after_the_orders_sent_before_it_and_before_those_sent_after(table, action):
    """While a group is waiting for the game's lock (held by another use case), Cleo sends an order,
    then a moderator kicks her (or ends the game), then Cleo and Bob send orders. Cleo's first order
    is written before the kick, which then cancels it, as if each had taken the lock in turn; the
    orders sent after the kick are refused (Cleo: removed; the game: ended) or kept (Bob)."""
    service = table.service
    game = await table.playing_game()
    await service.submit_order(game.id, user_id=1, text="K(0,0)-(0,1)")     # the position is known
    lock = service._locks[game.id] = CountingLock()
    await lock.acquire()
    queue = lambda: service._order_queues.get(game.id, ())      # noqa: E731
    first = asyncio.create_task(service.submit_order(game.id, user_id=1, text="K(0,0)-(1,0)"))
    await until(lambda: lock.asked == 2)        # the writer holds Alice's group, waiting for the lock
    before = asyncio.create_task(service.submit_order(game.id, user_id=3, text="K(0,10)-(1,10)"))
    await until(lambda: len(queue()) == 1)
    if action == "kick":
        moderator = asyncio.create_task(service.kick(game.id, user_id=3, actor=MODERATOR))
    else:
        moderator = asyncio.create_task(service.end_game(game.id, actor=MODERATOR))
    await until(lambda: lock.asked == 3 or len(queue()) == 2)      # the moderator's use case waits its turn
    after = [asyncio.create_task(service.submit_order(game.id, user_id=3, text="K(0,10)-(0,11)")),
             asyncio.create_task(service.submit_order(game.id, user_id=2, text="K(10,0)-(11,0)"))]
    await asyncio.sleep(0.01)
    lock.release()
    outcomes = await asyncio.gather(first, before, moderator, *after, return_exceptions=True)
    assert outcomes[0].canonical == "K(0,0)-(1,0)"
    assert outcomes[1].canonical == "K(0,10)-(1,10)"          # written before the kick or the end
    assert not isinstance(outcomes[2], BaseException), outcomes[2]
    orders = [(o.user_id, o.canonical, o.status) for o in await table.orders(game.id, game.update_no)]
    assert (3, "K(0,10)-(1,10)", "cancelled") in orders       # then cancelled by it
    if action == "kick":
        assert isinstance(outcomes[3], NotAllowed) and "removed you" in str(outcomes[3])
        assert outcomes[4].canonical == "K(10,0)-(11,0)"
        assert await live(table, game.id, game.update_no) == {1: "K(0,0)-(1,0)", 2: "K(10,0)-(11,0)"}
    else:
        assert isinstance(outcomes[3], WrongTime) and isinstance(outcomes[4], WrongTime)
        assert await live(table, game.id, game.update_no) == {}
    assert all(user != 3 or status != "pending" for user, _, status in orders)
