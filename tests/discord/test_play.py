"""Player commands that change something: /join, /move, /orders, /cancel, and how every command
finds its game, validates its options and answers (privately, deferred, errors in words)."""

from __future__ import annotations

import logging

import discord
import pytest
import simcord

from bot.render.palette import distinct_colours
from bot.service import ServiceError

from .conftest import stamp


# ----------------------------------------------------------------------------- /join
async def test_join_defaults_the_name_to_the_display_name_and_answers_privately(world):
    game = await world.game()
    result = await world.alice.slash(world.channel, "join", colour="purple")
    assert world.deferred_privately() and result.ephemeral
    assert "You joined **neisg game** as alice (Purple)" in result.response.content
    assert "K(x,y)" in result.response.content
    [player] = await world.service.players(game.id)
    assert (player.user_id, player.name, player.colour) == (world.alice.id, "alice", "Purple")
    assert not any("joined" in m.content for m in world.public(world.channel))


async def test_join_with_a_name_and_a_two_tone_colour(world):
    game = await world.game()
    result = await world.bob.slash(world.channel, "join", colour="Crimson/Yellow", name="Holo")
    assert "as Holo (Crimson/Yellow)" in result.response.content
    assert [p.name for p in await world.service.players(game.id)] == ["Holo"]


async def test_join_refusals_are_explained(world):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    taken_colour = await world.bob.slash(world.channel, "join", colour="red")
    assert taken_colour.ephemeral
    assert "Alice already plays Red" in taken_colour.response.content
    assert "Hint:" in taken_colour.response.content
    taken_name = await world.bob.slash(world.channel, "join", colour="Blue", name="alice")
    assert "the name 'alice' is taken" in taken_name.response.content
    unknown = await world.bob.slash(world.channel, "join", colour="Plaid")
    assert "Plaid" in unknown.response.content
    markup = await world.bob.slash(world.channel, "join", colour="Blue", name="@everyone")
    assert "cannot contain" in markup.response.content
    again = await world.alice.slash(world.channel, "join", colour="Blue")
    assert "you already play game" in again.response.content
    assert [p.name for p in await world.service.players(game.id)] == ["Alice"]


async def test_join_outside_a_game_channel_and_before_the_start(world):
    nowhere = await world.alice.slash(world.lobby, "join", colour="Red")
    assert nowhere.ephemeral
    assert "no game runs in this channel" in nowhere.response.content
    await world.game(start=False)
    early = await world.alice.slash(world.channel, "join", colour="Red")
    assert "has not started yet" in early.response.content


async def test_join_is_not_offered_in_direct_messages(world):
    await world.game()
    assert "join" not in world.alice.user.available_commands()
    assert "move" in world.alice.user.available_commands()


async def test_join_option_validation(world):
    await world.game()
    with pytest.raises(simcord.OptionError):
        await world.alice.slash(world.channel, "join", colour="Red", name="x" * 33)
    with pytest.raises(simcord.OptionError):
        await world.alice.slash(world.channel, "join", name="Alice")          # the colour is required


async def test_colour_autocomplete_filters_by_what_is_typed_and_hides_taken_colours(world):
    game = await world.game()
    await world.join(game, world.alice, "Crimson")
    choices = [c["value"] for c in await world.bob.autocomplete(world.channel, "join", "colour", "RE")]
    assert choices[0] == "Red"                                  # names starting with it come first
    assert len(choices) > 1 and all("re" in c.casefold() for c in choices)
    assert await world.bob.autocomplete(world.channel, "join", "colour", "crim") == []     # taken
    everything = [c["value"] for c in await world.bob.autocomplete(world.channel, "join", "colour", "")]
    assert len(everything) == 25 and "Crimson" not in everything
    two_tone = [c["value"] for c in await world.bob.autocomplete(world.channel, "join", "colour", "crimson/ye")]
    assert "Crimson/Yellow" in two_tone and all(c.startswith("Crimson/") for c in two_tone)
    assert await world.bob.autocomplete(world.channel, "join", "colour", "nosuch/") == []


async def test_colour_autocomplete_offers_the_most_distinct_free_colours_first(world):
    """Issue 27: with nothing typed, the offer is the free colours farthest from the game's (file
    order put Red, Crimson, Scarlet, Maroon first); Red and Scarlet, close to a taken Crimson, come late."""
    game = await world.game()
    first = [c["value"] for c in await world.bob.autocomplete(world.channel, "join", "colour", "")]
    assert first == distinct_colours()[:25] and first[:4] != ["Red", "Crimson", "Scarlet", "Maroon"]
    await world.join(game, world.alice, first[0])
    after = [c["value"] for c in await world.bob.autocomplete(world.channel, "join", "colour", "")]
    assert after == distinct_colours([first[0]])[:25] and first[0] not in after
    await world.join(game, world.bob, "Crimson")
    offer = [c["value"] for c in await world.cleo.autocomplete(world.channel, "join", "colour", "")]
    assert "Red" not in offer[:12] and "Scarlet" not in offer[:12]


# ----------------------------------------------------------------------------- /move
async def test_move_in_the_channel_answers_with_the_canonical_order_privately(world):
    game = await world.game()
    await world.join(game, world.alice, "Red")
    result = await world.alice.slash(world.channel, "move", order="k( 0 , 0 )")
    assert world.deferred_privately() and result.ephemeral and result.response.ephemeral
    assert result.response.content == "Order for update 1 accepted: `+K(0,0)`"
    order = await world.service.my_order(game.id, user_id=world.alice.id)
    assert (order.canonical, order.source) == ("+K(0,0)", "channel")
    # the channel shows nothing of it to the others: no notice for a channel order, no echo
    [announcement] = world.public(world.channel)
    assert announcement.content.startswith("**neisg game** has started")
    assert all("K(0,0)" not in m.content for m in world.channel.history(viewer=world.bob))


async def test_a_later_order_replaces_the_earlier_one(world):
    game = await world.game()
    await world.join(game, world.alice, "Red")
    await world.alice.slash(world.channel, "move", order="K(0,0)")
    result = await world.alice.slash(world.channel, "move", order="K(3,3)")
    assert "accepted: `+K(3,3)`" in result.response.content
    assert "It replaces `+K(0,0)`." in result.response.content


async def test_a_refused_order_shows_the_engines_explanation_in_a_code_block(world):
    game = await world.game()
    await world.join(game, world.alice, "Red")
    await world.alice.slash(world.channel, "move", order="K(0,0)")
    refused = await world.alice.slash(world.channel, "move", order="Nf3")
    assert refused.ephemeral
    text = refused.response.content
    block, footer = text.rsplit("\n", 1)
    assert block.startswith("Order refused:\n```\n") and block.endswith("\n```")
    assert "Nf3" in block
    # issue 27: the rule it cites, and where the rulebook explains it
    assert footer == "Read D4 in the rulebook: docs/rulebook/decisions.md#d4"
    # D6: the refusal changed nothing
    assert (await world.service.my_order(game.id, user_id=world.alice.id)).canonical == "+K(0,0)"


async def test_move_shows_the_deadline_of_a_scheduled_game(world):
    game = await world.game(schedule="every 1 hour")
    await world.join(game, world.alice, "Red")
    result = await world.alice.slash(world.channel, "move", order="K(0,0)")
    assert f"Orders close at {stamp('2099-11-22 13:00')}" in result.response.content


async def test_move_by_someone_who_has_not_joined(world):
    await world.game()
    result = await world.cleo.slash(world.channel, "move", order="K(0,0)")
    assert result.ephemeral
    assert "you are not a player of game 1" in result.response.content
    assert "join it first with /join" in result.response.content


async def test_move_when_the_orders_are_locked(world):
    game = await world.game()
    await world.join(game, world.alice, "Red")
    await world.service.lock_orders(game.id, actor=world.moderator)
    result = await world.alice.slash(world.channel, "move", order="K(0,0)")
    assert "are locked" in result.response.content


async def test_move_option_validation(world):
    await world.game()
    with pytest.raises(simcord.OptionError):        # longer than P2's 2,000 characters: the form or a file
        await world.alice.slash(world.channel, "move", order="K(0,0)" * 400)
    with pytest.raises(simcord.OptionError):
        await world.alice.slash(world.channel, "move", order="K(0,0)", game="one")


async def test_the_game_option_in_a_channel_must_name_the_channels_game(world):
    game = await world.game()
    await world.join(game, world.alice, "Red")
    result = await world.alice.slash(world.channel, "move", order="K(0,0)", game=game.id + 5)
    assert f"this channel runs game {game.id}" in result.response.content
    same = await world.alice.slash(world.channel, "move", order="K(0,0)", game=game.id)
    assert "accepted" in same.response.content


async def test_a_game_in_a_thread_and_a_thread_of_a_game_channel(world):
    parent = world.env.bot.get_channel(world.channel.id)
    await parent.create_thread(name="game two", type=discord.ChannelType.public_thread)
    await parent.create_thread(name="table talk", type=discord.ChannelType.public_thread)
    await world.env.settle()
    threads = {thread.name: thread for thread in world.channel.threads}
    in_channel = await world.game()
    in_thread = await world.game(threads["game two"])
    await world.join(in_channel, world.alice, "Red")
    await world.join(in_thread, world.alice, "Blue")
    # a thread with its own game: that game
    result = await world.alice.slash(threads["game two"], "move", order="K(1,1)")
    assert "accepted: `+K(1,1)`" in result.response.content
    assert (await world.service.my_order(in_thread.id, user_id=world.alice.id)).canonical == "+K(1,1)"
    # a thread without one: its channel's game
    result = await world.alice.slash(threads["table talk"], "move", order="K(2,2)")
    assert "accepted: `+K(2,2)`" in result.response.content
    assert (await world.service.my_order(in_channel.id, user_id=world.alice.id)).canonical == "+K(2,2)"


# ----------------------------------------------------------------------------- /orders, /cancel
async def test_orders_shows_only_my_own_pending_order(world):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    await world.join(game, world.bob, "Blue", "Bob")
    none_yet = await world.alice.slash(world.channel, "orders")
    assert none_yet.ephemeral
    assert "you play as Alice (Red), health 10, 0 pieces, no king on the board" in none_yet.response.content
    assert "You have no order for update 1." in none_yet.response.content
    await world.bob.slash(world.channel, "move", order="K(9,9)")
    await world.alice.slash(world.channel, "move", order="K(0,0)")
    mine = await world.alice.slash(world.channel, "orders")
    assert "Your order for update 1: `+K(0,0)`" in mine.response.content
    assert "K(9,9)" not in mine.response.content
    assert all("K(0,0)" not in m.content for m in world.channel.history(viewer=world.bob))


async def test_cancel_withdraws_the_pending_order(world):
    game = await world.game()
    await world.join(game, world.alice, "Red")
    await world.alice.slash(world.channel, "move", order="K(0,0)")
    result = await world.alice.slash(world.channel, "cancel")
    assert result.ephemeral
    assert "Your order `+K(0,0)` for update 1 is withdrawn" in result.response.content
    assert await world.service.my_order(game.id, user_id=world.alice.id) is None
    again = await world.alice.slash(world.channel, "cancel")
    assert "you have no order for update 1 to cancel" in again.response.content


# ----------------------------------------------------------------------------- failures
async def test_an_unexpected_failure_is_an_apology_and_an_error_log_without_the_order(world, monkeypatch, caplog):
    game = await world.game()
    await world.join(game, world.alice, "Red")

    async def broken(*args, **kwargs):
        raise RuntimeError(f"database exploded while storing {kwargs.get('text')}")

    monkeypatch.setattr(world.service, "submit_order", broken)
    with caplog.at_level(logging.DEBUG):
        result = await world.alice.slash(world.channel, "move", order="K(17,-4)")
    assert result.ephemeral
    assert "Sorry, something went wrong" in result.response.content
    assert "K(17,-4)" not in result.response.content and "exploded" not in result.response.content
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors and "RuntimeError" in errors[0].getMessage() and "/move" in errors[0].getMessage()
    assert all("K(17,-4)" not in r.getMessage() for r in caplog.records)
    assert not world.env.errors          # nothing escaped to discord.py's own error handlers


async def test_every_service_error_becomes_a_private_message(world, monkeypatch):
    game = await world.game()
    await world.join(game, world.alice, "Red")

    async def refuse(*args, **kwargs):
        raise ServiceError("the moon is in the wrong phase", hint="wait for the next update")

    monkeypatch.setattr(world.service, "player_view", refuse)
    result = await world.alice.slash(world.channel, "orders")
    assert result.ephemeral
    assert result.response.content == "the moon is in the wrong phase\nHint: wait for the next update"


async def test_move_completes_the_players_legal_orders_as_they_type(world):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    await world.join(game, world.bob, "Blue", "Bob")
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)")
    await world.service.submit_order(game.id, user_id=world.bob.id, text="K(5,0)")
    await world.resolve(game)
    await world.service.place_piece(game.id, actor=world.moderator, kind="P", square="(1,1)", owner="Bob")
    choices = await world.alice.autocomplete(world.channel, "move", "order", "K(0,0)-(1")
    assert choices[0] == {"name": "K(0,0)-(1,1) captures Bob's Pawn", "value": "K(0,0)-(1,1)"}
    assert {c["value"] for c in choices} == {"K(0,0)-(1,1)", "K(0,0)-(1,0)", "K(0,0)-(1,-1)"}
    assert await world.cleo.autocomplete(world.channel, "move", "order", "") == []      # not a player
    picked = await world.alice.slash(world.channel, "move", order=choices[0]["value"])
    assert "accepted: `K(0,0)-(1,1)`" in picked.response.content
