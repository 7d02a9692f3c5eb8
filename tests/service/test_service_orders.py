"""Orders (RULES 2, D6; RULES 4 secret orders): submit, replace, cancel, lock, against a real file.

A refused request must say why in words a player can act on and change nothing: every refusal
test compares a dump of every table before and after.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest

from bot.service import Moderator, InvalidInput, NotAllowed, NotFound, OrderRefused, ServiceError, WrongTime

MOD = Moderator(user_id=99, guild_id=1)     # a moderator of the tests' server
ALICE, BOB, CLEO = 1, 2, 3




async def lock_it(table, game):
    await table.service.lock_orders(game.id, actor=MOD)


async def kick_cleo(table, game):
    await table.service.kick(game.id, actor=MOD, user_id=CLEO)


BAD_ORDERS = {
    # label: (setup, user, text, error type, words the player reads)
    "unknown game": (None, ALICE, "K(0,0)-(0,1)", NotFound, ["there is no game 999"]),
    "not a player": (None, 42, "K(0,0)-(0,1)", NotAllowed,
                     ["you are not a player of game", "join it first with /join"]),
    "someone else's piece": (None, ALICE, "K(10,0)-(10,1)", OrderRefused,
                             ["the king on (10,0) belongs to Bob: you can only move your own pieces"]),
    "after the lock": (lock_it, ALICE, "K(0,0)-(1,0)", WrongTime, ["orders for update 2 are locked"]),
    "100 KB of text": (None, ALICE, "K(0,0)-(0,1)" + "x" * 100_000, OrderRefused,
                       ["an order is at most 2,000 characters; this one has 100,012"]),
    "10^100 coordinates": (None, ALICE, f"K(0,0)-({10**100},1)", OrderRefused,
                           ["coordinates beyond ±1,000,000 are refused (D1)"]),
    "SQL in the order": (None, ALICE, "'); DROP TABLE games;--", OrderRefused, ["expected a piece letter"]),
    "chess notation": (None, ALICE, "Nf3", OrderRefused, ["chess notation such as 'Nf3' is not accepted (D4)"]),
    "no such piece": (None, ALICE, "N(5,5)-(6,7)", OrderRefused, ["(5,5)"]),
    "a kicked player": (kick_cleo, CLEO, "K(0,10)-(0,11)", NotAllowed, ["a moderator removed you from game"]),
}


@pytest.mark.parametrize("label", list(BAD_ORDERS))
async def test_a_bad_order_is_refused_with_its_reason_and_changes_nothing(table, label):
    setup, user, text, error_type, words = BAD_ORDERS[label]
    game = await table.playing_game()
    # Alice's valid order stands before the bad request: a refusal must not replace it (D6)
    await table.service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    if setup is not None:
        await setup(table, game)
    game_id = 999 if label == "unknown game" else game.id
    await table.refused(table.service.submit_order(game_id, user_id=user, text=text), error_type, *words)
    if label != "unknown game":
        mine = await table.service.my_order(game.id, user_id=ALICE)
        assert mine.canonical == "K(0,0)-(0,1)"


@pytest.mark.parametrize("game_id, user_id, words", [
    (10**100, ALICE, "there is no game"),
    ("1; DROP TABLE games", ALICE, "is not a game number"),
    (1, 10**100, "you are not a player of game 1"),
])
async def test_out_of_range_numbers_are_refused_in_words(table, game_id, user_id, words):
    game = await table.playing_game()
    assert game.id == 1
    await table.refused(table.service.submit_order(game_id, user_id=user_id, text="K(0,0)-(0,1)"),
                  ServiceError, words)
    await table.refused(table.service.cancel_order(game_id, user_id=user_id), ServiceError, words)


async def test_an_unknown_source_is_refused(table):
    game = await table.playing_game()
    await table.refused(table.service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)", source="carrier pigeon"),
                  InvalidInput, "an order comes from one of channel, dm, moderator")


async def test_the_latest_valid_order_replaces_the_earlier_one_d6(table):
    game = await table.playing_game()
    first = await table.service.submit_order(game.id, user_id=ALICE, text="k(0,0)-(0,1)")
    assert first.canonical == "K(0,0)-(0,1)" and first.replaced is None
    second = await table.service.submit_order(game.id, user_id=ALICE, text="K (0, 0) - (1, 0)")
    assert second.canonical == "K(0,0)-(1,0)"
    assert second.replaced == "K(0,0)-(0,1)"
    assert "It replaces `K(0,0)-(0,1)`." in second.text()
    statuses = [(o.canonical, o.status) for o in await table.orders(game.id, 2)]
    assert statuses == [("K(0,0)-(0,1)", "superseded"), ("K(0,0)-(1,0)", "pending")]

    result = await table.resolve(game.id)
    assert "Alice: K(0,0)-(1,0) was played" in result.report.text()
    entry = await table.service.history(game.id, 2)
    assert [p.kind for p in entry.state.board.at((1, 0))] == ["K"]
    assert entry.state.board.at((0, 1)) == ()
    assert [(o.canonical, o.status) for o in await table.orders(game.id, 2) if o.user_id == ALICE] == [
        ("K(0,0)-(0,1)", "superseded"), ("K(0,0)-(1,0)", "resolved")]


async def test_a_refused_submission_keeps_the_earlier_order(table):
    game = await table.playing_game()
    await table.service.submit_order(game.id, user_id=BOB, text="K(10,0)-(11,0)")
    await table.refused(table.service.submit_order(game.id, user_id=BOB, text="K(10,0)-(13,0)"), OrderRefused,
                  "K(10,0)-(13,0)")
    result = await table.resolve(game.id)
    assert "Bob: K(10,0)-(11,0) was played" in result.report.text()


async def test_cancel_withdraws_the_pending_order(table):
    game = await table.playing_game()
    await table.service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    cancelled = await table.service.cancel_order(game.id, user_id=ALICE)
    assert cancelled.canonical == "K(0,0)-(0,1)"
    assert await table.service.my_order(game.id, user_id=ALICE) is None
    assert [o.status for o in await table.orders(game.id, 2)] == ["cancelled"]
    assert "Alice" in (await table.service.order_status(game.id)).waiting

    await table.refused(table.service.cancel_order(game.id, user_id=ALICE), NotFound,
                  "you have no order for update 2 to cancel")
    result = await table.resolve(game.id)
    assert "K(0,0)-(0,1)" not in result.report.text()
    entry = await table.service.history(game.id, 2)
    assert [p.owner for p in entry.state.board.at((0, 0))] == ["Alice"]


async def test_a_secret_order_is_announced_only_as_a_notice(table, caplog):
    caplog.set_level(logging.DEBUG)
    game = await table.playing_game()
    before = {p.id for p in await table.posts(game.id)}
    first = await table.service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)", source="dm")
    assert first.secret and "(secret)" in first.text()
    second = await table.service.submit_order(game.id, user_id=BOB, text="K(10,0)-(11,0)", source="dm")
    await table.service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")      # in the channel
    await table.service.lock_orders(game.id, actor=MOD)

    new = [p for p in await table.posts(game.id) if p.id not in before]
    notices = [p for p in new if p.kind == "notice"]
    assert [(p.body, p.recipient) for p in notices] == [("Bob has submitted a secret move", None)]
    secrets = ["K(10,0)-(10,1)", "K(10,0)-(11,0)", "(10,1)", "(11,0)"]
    for post in await table.posts(game.id):       # nothing public tells the secret before the update
        if post.recipient is None:
            for secret in secrets:
                assert secret not in post.body
                assert post.attachment is None or secret.encode() not in post.attachment
    status = await table.service.order_status(game.id)
    assert "Bob" in status.ordered and not any(s in status.text() for s in secrets)
    mine = await table.service.player_view(game.id, user_id=BOB)
    assert mine.order == second.canonical and mine.order_secret
    for record in caplog.records:
        if record.levelno >= logging.INFO:
            assert not any(s in record.getMessage() for s in secrets), record.getMessage()

    result = await table.resolve(game.id)                 # the update then tells what happened
    assert "Bob: K(10,0)-(11,0) was played" in result.report.text()
    assert "K(10,0)-(10,1)" not in result.report.text()


async def test_the_secret_notice_follows_the_setting(table):
    game = await table.playing_game(settings={"secret_notice": ""})
    await table.service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)", source="dm")
    assert [p for p in await table.posts(game.id) if p.kind == "notice"] == []
    await table.service.configure(game.id, actor=MOD, settings={"secret_notice": "A sealed envelope from {player}."})
    await table.service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)", source="dm")
    assert [p.body for p in await table.posts(game.id) if p.kind == "notice"] == ["A sealed envelope from Alice."]


async def test_a_ruleset_without_secret_orders_refuses_a_dm(table):
    game = await table.new_game(ruleset="sandbox", players=[(1, "Alice", "Red", None)])
    await table.refused(table.service.submit_order(game.id, user_id=ALICE, text="K(5,5)", source="dm"), NotAllowed,
                  "no secret orders in this ruleset", "send it with /move in the game channel")


async def test_lock_freezes_the_order_book_and_unlock_reopens_it(table):
    game = await table.playing_game()
    await table.service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    locked = await table.service.lock_orders(game.id, actor=MOD)
    assert locked.locked
    assert [o.status for o in await table.orders(game.id, 2)] == ["locked"]
    assert (await table.posts(game.id))[-1].body.startswith("Orders for update 2 are locked")
    await table.refused(table.service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)"), WrongTime,
                  "orders for update 2 are locked")
    await table.refused(table.service.cancel_order(game.id, user_id=ALICE), WrongTime, "locked")
    await table.refused(table.service.lock_orders(game.id, actor=MOD), WrongTime, "already locked")

    opened = await table.service.unlock_orders(game.id, actor=MOD)
    assert not opened.locked
    assert [o.status for o in await table.orders(game.id, 2)] == ["pending"]
    assert (await table.posts(game.id))[-1].body == "Orders for update 2 are open again."
    await table.refused(table.service.unlock_orders(game.id, actor=MOD), WrongTime, "not locked")
    receipt = await table.service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(1,0)")
    assert receipt.replaced == "K(0,0)-(0,1)"
    assert [a.action for a in await table.service.audit_log(game.id)][-2:] == ["lock", "unlock"]


async def test_the_lock_falls_lock_before_minutes_before_the_deadline(table):
    game = await table.playing_game(settings={"lock_before": 10})
    assert game.lock_at == game.deadline_at - timedelta(minutes=10)
    table.clock.now = game.lock_at - timedelta(seconds=1)
    assert await table.service.lock_if_due(game.id, 2) is False
    await table.service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    table.clock.now = game.lock_at
    assert await table.service.lock_if_due(game.id, 2) is True
    assert await table.service.lock_if_due(game.id, 2) is False       # once
    await table.refused(table.service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)"), WrongTime,
                  "locked")
    assert [p.body for p in await table.posts(game.id)].count(
        f"Orders for update 2 are locked; the update resolves at {game.deadline_at:%Y-%m-%d %H:%M} UTC.") == 1


async def test_a_joiner_must_place_a_king_on_a_free_unattacked_square(table):
    game = await table.playing_game()
    await table.service.join(game.id, user_id=4, name="Dan", colour="Purple")
    await table.refused(table.service.submit_order(game.id, user_id=4, text="K(0,0)"), OrderRefused, "(0,0)")
    await table.refused(table.service.submit_order(game.id, user_id=4, text="K(1,1)"), OrderRefused, "(1,1)")
    await table.refused(table.service.submit_order(game.id, user_id=4, text="N(20,20)-(21,22)"), OrderRefused)
    receipt = await table.service.submit_order(game.id, user_id=4, text="K(20,20)")
    assert receipt.canonical == "+K(20,20)"
    result = await table.resolve(game.id)
    assert "Dan placed a king on (20,20)" in result.report.text()
    view = await table.service.player_view(game.id, user_id=4)
    assert view.has_king and view.pieces == 1
