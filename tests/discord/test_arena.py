"""Chess Arena on Discord (issue 21 item 6): seats taken with /join before /game start, several
lines in one /move (``;``, the form of ``/move`` alone, a file), the confirmation echoing every line
in canonical form in the order written, a wrong count refused with the count expected, early
resolution, the points board, pieces to place in /orders and reminders, and the verdict.

The arena armies of two players (D40, radius 3 + 2 x 2 = 7): Ada's king on (0,-4) with her queen
on (0,-3), knight on (1,-4) and pawns on (0,-2), (2,-4), ...; Bob's mirrored around (0,4)."""

from __future__ import annotations

import discord
import pytest

from .conftest import stamp


@pytest.fixture
async def owner(world):
    """A member with Manage Server: runs /game create and /game start."""
    role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    member = world.guild.add_member(world.env.create_user("olga"), roles=[role])
    await world.env.settle()
    return member


async def seated_arena(world, owner, *, schedule: str = "every 1 hour"):
    """An arena game made and started on Discord, Ada (alice) and Bob (bob) seated with /join first."""
    created = await owner.slash(world.channel, "game create", ruleset="arena", schedule=schedule)
    assert "players take their seats with /join now, before the start" in created.response.content
    ada = await world.alice.slash(world.channel, "join", colour="Red", name="Ada")
    assert "you have seat 1" in ada.response.content
    bob = await world.bob.slash(world.channel, "join", colour="Blue", name="Bob")
    assert "you have seat 2" in bob.response.content
    started = await owner.slash(world.channel, "game start")
    assert "started" in started.response.content, started.response.content
    await world.env.settle()
    [game] = await world.service.games_in(channel_id=world.channel.id)
    return game


async def test_a_round_of_several_lines_by_text_and_by_the_form_resolves_early(world, owner):
    game = await seated_arena(world, owner)
    # a seat is taken before the start and none after
    late = await world.cleo.slash(world.channel, "join", colour="Green")
    assert "has started and takes no new players" in late.response.content

    # D41: one move where 1 + kings = 2 are due is refused at once, with the count expected
    short = await world.alice.slash(world.channel, "move", order="P(0,-2)-(0,-1)")
    assert short.ephemeral
    assert "this round you move 2 different pieces" in short.response.content
    assert "this submission has 1 move" in short.response.content
    assert "send 2 moves, separated by `;`" in short.response.content
    assert await world.service.my_order(game.id, user_id=world.alice.id) is None

    # two lines separated by `;`: every line echoed in canonical form, in the order written
    sent = await world.alice.slash(world.channel, "move", order="N(2,-2); p(0,-2)-(0,-1)")
    assert sent.response.content == (
        "Order for update 1 accepted, 2 lines:\n`N(1,-4)-(2,-2)`\n`P(0,-2)-(0,-1)`\n"
        f"Orders close at {stamp('2099-11-22 13:00')}; you may change it until then.")
    assert (await world.service.my_order(game.id, user_id=world.alice.id)).canonical == \
        "N(1,-4)-(2,-2); P(0,-2)-(0,-1)"

    # /move alone opens a form with a line for each order; sending it is /move with that text
    shown = await world.bob.slash(world.channel, "move")
    assert shown.modal is not None and shown.modal["title"] == "Your order for update 1"
    [row] = shown.modal["components"]
    [field] = row["components"]
    assert field["custom_id"] == "orders" and field["style"] == discord.TextStyle.paragraph.value
    assert "value" not in field or not field["value"], "Bob has no order yet: an empty form"
    confirmed = await world.bob.submit_modal(shown, {"orders": "P(0,2)-(0,1)\nN(-2,2)"})
    assert confirmed.ephemeral
    assert confirmed.response.content == (
        "Order for update 1 accepted, 2 lines:\n`P(0,2)-(0,1)`\n`N(-1,4)-(-2,2)`\n"
        "Every player who may order has ordered: the update resolves now.")

    # early resolution: the deadline is now, so the update is due at once (the scheduler resolves it)
    due = await world.service.get_game(game.id)
    assert due.deadline_at == world.clock.now
    resolution = await world.service.resolve_if_due(game.id, 1)
    assert resolution.resolved
    await world.env.settle()

    # the form opens again with the pending order to edit, one line each
    await world.service.submit_order(game.id, user_id=world.bob.id, text="P(0,1)-(0,0); N(-2,2)-(-3,0)")
    again = await world.bob.slash(world.channel, "move")
    [row] = again.modal["components"]
    assert row["components"][0]["value"] == "P(0,1)-(0,0)\nN(-2,2)-(-3,0)"
    assert again.modal["title"] == "Your order for update 2"


async def test_a_refused_line_among_several_is_quoted_with_its_number(world, owner):
    game = await seated_arena(world, owner)
    shown = await world.alice.slash(world.channel, "move")
    refused = await world.alice.submit_modal(shown, {"orders": "P(0,-2)-(0,-1)\nN(5,5)-(6,7)"})
    text = refused.response.content
    assert text.startswith("Order refused:\n```\n")
    assert "there is no piece of yours on (5,5)" in text
    assert "  line 2: N(5,5)-(6,7)\n          ^^^^^^^^^^^^" in text
    assert await world.service.my_order(game.id, user_id=world.alice.id) is None


async def test_the_form_is_refused_to_who_may_not_order(world, owner):
    await seated_arena(world, owner)
    outsider = await world.cleo.slash(world.channel, "move")
    assert outsider.modal is None and outsider.ephemeral
    assert "you are not a player of game 1" in outsider.response.content


async def test_an_order_file_is_read_as_utf8_lines(world, owner):
    game = await seated_arena(world, owner)
    orders = "\ufeffP(0,-2)-(0,-1)\r\nN(1,-4)-(2,-2)\r\n".encode("utf-8")
    sent = await world.alice.slash(world.channel, "move", file=("orders.txt", orders))
    assert "Order for update 1 accepted, 2 lines:\n`P(0,-2)-(0,-1)`\n`N(1,-4)-(2,-2)`" in sent.response.content
    latin1 = await world.alice.slash(world.channel, "move", file=("orders.txt", "P(0,-2)-(0,-1) é".encode("latin-1")))
    assert "'orders.txt' is not UTF-8 text: byte 16 (0xE9) cannot be read" in latin1.response.content
    assert "save the orders as plain text in UTF-8" in latin1.response.content
    both = await world.alice.slash(world.channel, "move", order="P(0,-2)-(0,-1)", file=("orders.txt", orders))
    assert "send your order as text or as a file, not both" in both.response.content
    too_big = await world.alice.slash(world.channel, "move", file=("army.txt", b"P(0,-2)-(0,-1)\n" * 20_000))
    assert "an order file is at most 256,000 bytes; 'army.txt' has 300,000" in too_big.response.content
    assert (await world.service.my_order(game.id, user_id=world.alice.id)).canonical == \
        "P(0,-2)-(0,-1); N(1,-4)-(2,-2)"


async def test_a_direct_message_holds_several_lines(world, owner):
    game = await seated_arena(world, owner)
    await world.bob.user.send_dm("P(0,2)-(0,1)\nN(-1,4)-(-2,2)")
    answer = world.bob.user.dm_channel.history()[-1].content
    assert answer.startswith("Order for update 1 accepted (secret), 2 lines:\n`P(0,2)-(0,1)`\n`N(-1,4)-(-2,2)`")
    assert (await world.service.my_order(game.id, user_id=world.bob.id)).source == "dm"


async def test_pieces_to_place_show_in_orders_and_in_the_reminder(world, owner):
    game = await seated_arena(world, owner)

    def pending(ruleset, state):            # Ada took a new-queen power-up last round (D46, D48)
        state.players["Ada"].pending = ("Q",)
        return "Ada has a queen to place", {}

    await world.service._edit(game.id, world.moderator, "balance", pending)
    await world.service.set_dm_reminder(game.id, user_id=world.alice.id, wanted=True)
    mine = await world.alice.slash(world.channel, "orders")
    assert "To place this round: queen `+Q(x,y)`, on an empty square, each as a line of your order." in \
        mine.response.content
    assert "points 0" in mine.response.content
    world.clock.advance(minutes=1)
    assert await world.service.remind_if_due(game.id, 1)
    await world.env.settle()
    reminder = [m.content for m in world.public(world.channel) if "have not moved" in m.content][-1]
    assert reminder.endswith("To place this round: Ada queen `+Q(x,y)`.")
    to_ada = world.alice.user.dm_channel.history()[-1].content
    assert "You have to place queen `+Q(x,y)`, each as a line of your order." in to_ada


async def test_the_points_board_and_the_verdict(world, owner):
    game = await seated_arena(world, owner)
    board = await world.alice.slash(world.channel, "health")
    assert "1. Ada (Red): 0 points --- 13 pieces, 1 king" in board.response.content
    assert "health" not in board.response.content.casefold()
    await world.alice.slash(world.channel, "move", order="P(0,-2)-(0,-1); N(1,-4)-(2,-2)")
    # D52: the first to 100 points at the end of a round wins (a moderator's edit brings Ada there)
    await world.service.set_balance(game.id, actor=world.moderator, player="Ada", amount=100)
    over = await world.bob.slash(world.channel, "move", order="P(0,2)-(0,1); N(-1,4)-(-2,2)")
    assert "the game is over (D52, D68)" in over.response.content
    resolution = await world.resolve(game)
    assert resolution.resolved and resolution.ended
    posts = [m.content for m in world.public(world.channel)]
    # one announcement says why the game ended, who won and the final standings (issue 39: two
    # announcements back to back said the end twice)
    endings = [text for text in posts if "has ended" in text or "Final standings" in text]
    assert len(endings) == 1
    assert endings[0].startswith("**arena game** has ended: the first to 100 points")
    assert "(RULES 5.2, D52). Ada wins after update 1.\nFinal standings:\n1. Ada (Red): 100 points" in endings[0]
    assert (await world.service.get_game(game.id)).status == "ended"
