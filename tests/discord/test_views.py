"""Player commands that look at the game: /board, /health, /pieces, /rules, /history, /event, /help.
Answers are private; pictures come as attachments."""

from __future__ import annotations

import pytest
import simcord

from dataclasses import replace

from bot.engine.ruleset import load_preset
from bot.engine.variants import variant_for
from bot.service.base import ServiceBase

PNG = b"\x89PNG\r\n\x1a\n"

#: the text standings' first line: it names the score (issue 27 item 5)
HEADING = "Rank. Player (colour): score --- Health (score: the cost of the player's pieces on the board, king 0)"


async def attachment_bytes(result, index: int = 0) -> bytes:
    return await result.response.attachments[index].read()


async def playing(world):
    """A game after update 1: Alice's king on (0,0), Bob's on (5,0) and a knight generated."""
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    await world.join(game, world.bob, "Blue", "Bob")
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)")
    await world.service.submit_order(game.id, user_id=world.bob.id, text="K(5,0)")
    await world.resolve(game)
    return game


async def test_board_is_a_private_picture(world):
    await playing(world)
    result = await world.cleo.slash(world.channel, "board")
    assert world.deferred_privately() and result.ephemeral
    assert result.response.content == "neisg game: the board for update 2"
    [picture] = result.response.attachments
    assert picture.filename == "board.png"
    assert (await attachment_bytes(result)).startswith(PNG)


async def test_board_around_a_square_and_a_pieces_moves(world):
    await playing(world)
    around = await world.alice.slash(world.channel, "board", center="(0,0)", radius=3)
    assert around.response.attachments[0].filename == "board.png"
    whole = await world.alice.slash(world.channel, "board")
    assert await attachment_bytes(around) != await attachment_bytes(whole)
    king = await world.alice.slash(world.channel, "board", piece="(0,0)")
    assert "the King on (0,0) can move to 8 squares (framed)" in king.response.content
    assert king.ephemeral and king.response.attachments


async def test_board_option_validation(world):
    await playing(world)
    with pytest.raises(simcord.OptionError):
        await world.alice.slash(world.channel, "board", center="(0,0)", radius=61)
    with pytest.raises(simcord.OptionError):
        await world.alice.slash(world.channel, "board", center="(0,0)", radius=0)
    lonely_radius = await world.alice.slash(world.channel, "board", radius=4)
    assert "radius goes with center or piece" in lonely_radius.response.content
    bad_square = await world.alice.slash(world.channel, "board", center="e4")
    assert "'e4' is not a square" in bad_square.response.content
    assert "Hint: write it as (x,y)" in bad_square.response.content
    off_board = await world.alice.slash(world.channel, "board", center="(2000000,0)")
    assert "D1" in off_board.response.content
    empty = await world.alice.slash(world.channel, "board", piece="(9,9)")
    assert "there is no piece on (9,9)" in empty.response.content
    assert not empty.response.attachments


async def test_health_board_lines_and_picture(world):
    await playing(world)
    result = await world.cleo.slash(world.channel, "health")
    assert result.ephemeral
    assert result.response.content.splitlines() == [HEADING, "1. Alice (Red): 0 --- Health: 11 💖",
                                                    "2. Bob (Blue): 0 --- Health: 11 💖"]
    assert result.response.attachments[0].filename == "health.png"
    assert (await attachment_bytes(result)).startswith(PNG)


async def test_health_before_anyone_has_pieces(world):
    await world.game()
    result = await world.alice.slash(world.channel, "health")
    assert result.response.content == "No player has pieces on the board yet."


async def test_pieces_sheet(world):
    await world.game()
    result = await world.alice.slash(world.channel, "pieces")
    assert result.ephemeral
    assert result.response.content.startswith("The pieces of Never-Ending Infinite Sandbox Game")
    assert result.response.attachments[0].filename == "pieces.png"
    assert (await attachment_bytes(result)).startswith(PNG)


async def test_pieces_sheet_of_a_sandbox_game_is_its_own(world):
    await world.game(ruleset="sandbox")
    result = await world.alice.slash(world.channel, "pieces")
    assert result.response.content.startswith("The pieces of Sandbox Chess")
    assert (await attachment_bytes(result)).startswith(PNG)


async def test_rules_summarise_the_ruleset_with_its_decisions(world):
    await world.game()
    result = await world.alice.slash(world.channel, "rules")
    text = result.response.content
    assert result.ephemeral and len(text) <= 2000
    assert text.startswith("**Never-Ending Infinite Sandbox Game** (`neisg`)")
    for needle in ("D2", "D4", "D5", "D6", "D11", "D20", "secretly by direct message", "/pieces",
                   "start with 10", "the first at update 2"):
        assert needle in text, needle
    await world.game(world.lobby, ruleset="sandbox")
    sandbox = await world.alice.slash(world.lobby, "rules")
    text = sandbox.response.content
    assert len(text) <= 2000 and "no secret orders" in text        # RULES 5.1
    for needle in ("start with 5, +1 for each update your order was executed", "2/3 x the value taken",
                   "3 + 10% of (piece values + energy), rounded up, to nobody", "sold cheapest first",
                   "re-join 5 updates later", "reaching rank 9, not into a king or pawn (dragon 3 energy)",
                   "x from -99 to 99, y from 1 to 99", "the first at update 25", "one at a time"):
        assert needle in text, needle


def test_rules_of_a_multi_move_ruleset():
    text = variant_for(load_preset("arena")).rules_summary()      # what /rules shows in an arena game
    assert len(text) <= 2000 and "D7" in text and "`;`" in text
    assert "first to 100 points" in text and "M.A.D." in text and "Power-ups" in text
    assert "No `else`" in text


async def test_history_shows_an_earlier_board_and_its_report(world):
    game = await playing(world)
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,1)")
    await world.resolve(game)
    result = await world.cleo.slash(world.channel, "history", update=1)
    assert result.ephemeral
    text = result.response.content
    assert text.startswith("neisg game: the board after update 1.")
    assert "Alice placed a king on (0,0)" in text
    assert result.response.attachments[0].filename == "board-0001.png"
    start = await world.cleo.slash(world.channel, "history", update=0)
    assert "Update 0: no report (start)." in start.response.content
    future = await world.cleo.slash(world.channel, "history", update=9)
    assert "has updates 0 to 2, not 9" in future.response.content
    with pytest.raises(simcord.OptionError):
        await world.cleo.slash(world.channel, "history", update=-1)


async def test_event_shows_the_next_draw_and_the_events_in_force(world):
    game = await playing(world)
    first = await world.alice.slash(world.channel, "event")
    assert first.ephemeral
    assert "No event is in force." in first.response.content
    assert "The next event is drawn at update 2 and is in force from update 3" in first.response.content
    await world.resolve(game)                     # update 2 draws the first event
    now = (await world.alice.slash(world.channel, "event")).response.content
    assert "Events in force:" in now and "(since update 3, until update 16)" in now
    assert "The next event is drawn at update 9" in now
    assert "11 events not drawn yet" in now


async def test_event_in_a_ruleset_without_events(world, monkeypatch):
    # no playable preset lacks events yet: the game is played by neisg's variant with an empty event pool
    neisg = load_preset("neisg")
    quiet = variant_for(replace(neisg, source=f"{neisg.source}#no-events", events=replace(neisg.events, pool=())))
    assert not quiet.features.events
    monkeypatch.setattr(ServiceBase, "variant", classmethod(lambda cls, game: quiet))
    await world.game()
    result = await world.alice.slash(world.channel, "event")
    assert "has no events" in result.response.content


async def test_views_in_a_direct_message(world):
    await playing(world)
    board = await world.bob.user.slash("board")
    assert board.response.attachments[0].filename == "board.png"
    health = await world.bob.user.slash("health")
    assert health.response.content.startswith(f"{HEADING}\n1. Alice (Red)")
    rules = await world.bob.user.slash("rules")
    assert "Never-Ending Infinite Sandbox Game" in rules.response.content


async def test_help_lists_every_player_command(world):
    result = await world.alice.slash(world.lobby, "help")
    assert result.ephemeral
    for command in ("/join", "/move", "/orders", "/cancel", "/board", "/health", "/pieces", "/rules",
                    "/history", "/event"):
        assert command in result.response.content
    assert "secret" in result.response.content
    in_dm = await world.alice.user.slash("help")
    assert in_dm.response.content == result.response.content


async def test_every_view_needs_a_game(world):
    for command in ("orders", "cancel", "board", "health", "pieces", "rules", "event"):
        result = await world.alice.slash(world.lobby, command)
        assert result.ephemeral
        assert "no game runs in this channel" in result.response.content, command
    result = await world.alice.slash(world.lobby, "history", update=1)
    assert "no game runs in this channel" in result.response.content
