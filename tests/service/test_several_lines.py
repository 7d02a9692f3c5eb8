"""Submissions of several lines through the service (issues 21 and 22, item 6/7): the receipt echoes
each line in canonical form in the order written, an order file is read as UTF-8 text or refused in
words, a refused line among many is quoted with its number, a form starts from the pending order,
and an arena player's pieces to place are in their view and in the reminder.

Arena with Alice and Bob seated (D40, radius 7): Alice's king on (0,-4), knight (1,-4), pawn (0,-2);
Bob's king on (0,4), knight (-1,4), pawn (0,2). Each moves 1 + 1 king = 2 pieces a round (D41)."""

from __future__ import annotations

import pytest

from bot.service import InvalidInput, NotAllowed, OrderRefused, order_from_file
from bot.service.errors import offending_line
from bot.service.orders import ORDER_FILE_LIMIT, Receipt

ALICE, BOB = 1, 2


async def arena(table, *, schedule: str = "every 1 hour"):
    service = table.service
    game = await service.create_game(guild_id=1, channel_id=40, actor=table.MODERATOR, ruleset="arena", seed=3,
                                     schedule=schedule)
    await service.join(game.id, user_id=ALICE, name="Alice", colour="Red")
    await service.join(game.id, user_id=BOB, name="Bob", colour="Blue")
    return await service.start_game(game.id, actor=table.MODERATOR)


# ----------------------------------------------------------------------------- the receipt
async def test_the_receipt_echoes_every_line_in_canonical_form_in_the_order_written(table):
    game = await arena(table)
    receipt = await table.service.submit_order(game.id, user_id=ALICE, text="n(2,-2)\n P(0,-2)-(0,-1) ")
    assert receipt.lines == ("N(1,-4)-(2,-2)", "P(0,-2)-(0,-1)")
    assert receipt.canonical == "N(1,-4)-(2,-2); P(0,-2)-(0,-1)"          # stored as INTERFACES.md says
    assert receipt.text().split("\n") == [
        "Order for update 1 accepted, 2 lines:", "`N(1,-4)-(2,-2)`", "`P(0,-2)-(0,-1)`",
        "Orders close at 2026-11-22 13:00 UTC; you may change it until then."]
    again = await table.service.submit_order(game.id, user_id=ALICE, text="P(0,-2)-(0,-1); N(2,-2)", source="dm")
    assert again.text().split("\n")[:4] == [
        "Order for update 1 accepted (secret), 2 lines:", "`P(0,-2)-(0,-1)`", "`N(1,-4)-(2,-2)`",
        "It replaces `N(1,-4)-(2,-2); P(0,-2)-(0,-1)`."]


def test_a_single_line_reads_as_before_and_a_long_earlier_order_is_counted():
    one = Receipt(1, 3, "Ada", "+K(0,0)", False, None, None, lines=("+K(0,0)",))
    assert one.text() == "Order for update 3 accepted: `+K(0,0)`"
    army = "; ".join(f"P({x},1)-({x},2)" for x in range(40))
    replacing = Receipt(1, 3, "Ada", "resign", False, army, None, lines=("resign",))
    assert replacing.text() == "Order for update 3 accepted: `resign`\nIt replaces your earlier order of 40 lines."


async def test_a_wrong_count_is_refused_with_the_count_expected(table):
    game = await arena(table)
    refused = await table.refused(table.service.submit_order(game.id, user_id=ALICE, text="P(0,-2)-(0,-1)"),
                                  OrderRefused, "this round you move 2 different pieces",
                                  "this submission has 1 move", "send 2 moves, separated by `;`")
    assert refused.error.rule


async def test_a_refused_line_among_several_is_quoted_with_its_number(table):
    game = await arena(table)
    refused = await table.refused(
        table.service.submit_order(game.id, user_id=ALICE, text="P(0,-2)-(0,-1)\n\n  N(5,5)-(6,7)"),
        OrderRefused, "there is no piece of yours on (5,5)")
    assert "\n  line 3: N(5,5)-(6,7)\n          ^^^^^^^^^^^^" in refused.describe()


def test_the_offending_line_of_a_long_text_is_cut_around_the_fault_and_a_whole_refusal_quotes_none():
    text = "; ".join(["P(0,1)-(0,2)"] * 30) + "; X(1,1)-(1,2)"
    at = text.index("X")
    assert offending_line(text, (at, at + 12)) == ["  X(1,1)-(1,2)", "  ^^^^^^^^^^^^"]
    assert offending_line("P(0,1)-(0,2)\nQ(1,1)-(1,2)", (0, 25)) == []      # the submission as a whole
    garbage = "P(0,1)-(0,2)\n" + "x" * 300 + "!" + "y" * 300
    quoted, caret = offending_line(garbage, (13 + 300, 13 + 301))
    assert quoted.startswith("  line 2: …") and quoted.endswith("…") and len(quoted) < 140
    assert quoted[caret.index("^")] == "!"


# ----------------------------------------------------------------------------- order files
def test_an_order_file_is_utf8_text_with_any_line_endings():
    assert order_from_file("\ufeffK(0,0)\r\nQ(1,1)-(1,4)\rN(2,2)\n".encode("utf-8")) == "K(0,0)\nQ(1,1)-(1,4)\nN(2,2)\n"
    assert order_from_file("R(1,1)-(1,5) # Zoë's rook".encode("utf-8")).endswith("Zoë's rook")


@pytest.mark.parametrize("data, words", [
    ("P(0,1)-(0,2) é".encode("latin-1"), ["'orders.txt' is not UTF-8 text: byte 14 (0xE9) cannot be read",
                                          "save the orders as plain text in UTF-8"]),
    ("P(0,1)-(0,2)".encode("utf-16"), ["is not UTF-8 text: byte 1 (0xFF)"]),
    (b"\x89PNG\r\n\x1a\n\x00\x00", ["is not UTF-8 text"]),
    (b"K(0,0)\x00\x00", ["'orders.txt' is not a text file: it holds NUL characters"]),
    (b" \r\n\n", ["'orders.txt' is empty"]),
    (b"K(0,0)\n" * (ORDER_FILE_LIMIT // 7 + 1), ["an order file is at most 256,000 bytes; 'orders.txt' has 256,004"]),
])
def test_an_order_file_that_is_not_utf8_text_is_refused_in_words(data, words):
    with pytest.raises(InvalidInput) as caught:
        order_from_file(data, "orders.txt")
    for word in words:
        assert word in caught.value.describe()


# ----------------------------------------------------------------------------- the form
async def test_the_form_starts_from_the_pending_order_one_line_each(table):
    game = await arena(table)
    empty = await table.service.order_draft(game.id, user_id=ALICE)
    assert (empty.update_no, empty.player, empty.lines) == (1, "Alice", ())
    await table.service.submit_order(game.id, user_id=ALICE, text="N(2,-2); P(0,-2)-(0,-1)")
    draft = await table.service.order_draft(game.id, user_id=ALICE)
    assert draft.lines == ("N(1,-4)-(2,-2)", "P(0,-2)-(0,-1)")
    await table.refused(table.service.order_draft(game.id, user_id=99), NotAllowed, "you are not a player of game")
    await table.service.lock_orders(game.id, actor=table.MODERATOR)
    await table.refused(table.service.order_draft(game.id, user_id=ALICE), Exception, "are locked")


# ----------------------------------------------------------------------------- pieces to place
async def test_pieces_to_place_are_in_the_players_view_and_the_reminder(table):
    game = await arena(table)

    def pending(ruleset, state):            # Alice took a new-queen power-up last round (D46, D48)
        state.players["Alice"].pending = ("Q",)
        return "Alice has a queen to place", {}

    await table.service._edit(game.id, table.MODERATOR, "balance", pending)
    await table.service.set_dm_reminder(game.id, user_id=ALICE, wanted=True)
    view = await table.service.player_view(game.id, user_id=ALICE)
    assert view.pending == (("Q", "Queen"),) and view.currency == "points"
    assert (await table.service.player_view(game.id, user_id=BOB)).pending == ()
    await table.service.submit_order(game.id, user_id=BOB, text="P(0,2)-(0,1); N(-1,4)-(-2,2)")
    table.clock.advance(minutes=1)             # the reminder is due 60 minutes before the 13:00 deadline
    assert await table.service.remind_if_due(game.id, 1)
    reminders = [p for p in await table.posts(game.id) if p.kind == "reminder"]
    channel = next(p for p in reminders if p.recipient is None)
    assert channel.body == ("1 of 2 players have not moved for update 1: Alice. Orders close at 2026-11-22 13:00 UTC."
                            "\nTo place this round: Alice queen `+Q(x,y)`.")
    to_alice = next(p for p in reminders if p.recipient == ALICE)
    assert "You have to place queen `+Q(x,y)`, each as a line of your order." in to_alice.body
