"""Megachess on Discord (issue 22 item 7): joining by a king placement, a move on the other team's
update refused in the engine's words, a whole army's orders as a file, a private thread per team
created and kept by the bot with the right members, and the standings with each team's total.

Three players place kings 20 squares apart (D62 asks 8): Ada on (0,0) joins alabaster (ties go to
alabaster), Bob on (20,0) brushed metal (the smaller team), Cy on (0,20) alabaster (even again).
Each gets the starter army around the king (D63): Bob's knights on (18,2) and (22,2), his queen
on (20,2), pawns on (19,-1), ... Alabaster moves on odd updates, brushed metal on even ones."""

from __future__ import annotations

import discord
import pytest


async def joined(world):
    """A started megachess game whose update 1 (three joins) is resolved: update 2 is brushed metal's."""
    game = await world.game(ruleset="megachess", schedule="every 1 hour")
    for member, colour, name, king in ((world.alice, "Red", "Ada", "K(0,0)"), (world.bob, "Blue", "Bob", "K(20,0)"),
                                       (world.cleo, "Green", "Cy", "K(0,20)")):
        joining = await member.slash(world.channel, "join", colour=colour, name=name)
        assert "place your king with /move K(x,y)" in joining.response.content
        placed = await member.slash(world.channel, "move", order=king)
        assert f"accepted: `+{king}`" in placed.response.content
    await world.resolve(game)
    return game


def team_threads(world) -> dict[str, object]:
    return {thread.name: thread for thread in world.channel.threads if "· team ·" in thread.name}


async def dm_file(world, member, name: str, data: bytes, text: str = "") -> str:
    """``member`` sends the bot a direct message with a file attached; the bot's answer."""
    channel = world.env.backend.get_dm_channel(member.id)
    attached = world.env.backend.store_attachments(channel.id, [(name, data)])
    await member.user.send_dm(text, attachments=attached)
    return member.user.dm_channel.history()[-1].content


def members(world, thread) -> set[int]:
    return set(world.env.backend.get_channel(thread.id).thread_members)


async def test_each_team_gets_a_private_thread_with_its_players(world):
    game = await joined(world)
    threads = team_threads(world)
    assert set(threads) == {f"alabaster · team · game {game.id}", f"brushed metal · team · game {game.id}"}
    alabaster, metal = threads[f"alabaster · team · game {game.id}"], threads[f"brushed metal · team · game {game.id}"]
    for thread in (alabaster, metal):
        assert world.env.backend.get_channel(thread.id).type == discord.ChannelType.private_thread.value
    bot_id = world.env.bot.user.id
    assert members(world, alabaster) == {bot_id, world.alice.id, world.cleo.id}
    assert members(world, metal) == {bot_id, world.bob.id}
    welcome = alabaster.history(viewer=world.alice)[0].content
    assert welcome.startswith("Team **alabaster**'s private thread for **megachess game**: plan your moves together")
    with pytest.raises(Exception):
        alabaster.history(viewer=world.bob)                 # the other team cannot read it
    # /orders tells a player their team
    mine = await world.alice.slash(world.channel, "orders")
    assert "Your team: alabaster." in mine.response.content
    # a player who leaves the game leaves the thread; the thread is kept, not made again
    await world.service.kick(game.id, actor=world.moderator, user_id=world.cleo.id, reason="away")
    await world.env.settle()
    assert members(world, alabaster) == {bot_id, world.alice.id}
    assert len(team_threads(world)) == 2
    # the next updates change no roster: no thread is touched
    before = len(world.env.http_requests)
    await world.resolve(game)
    assert not any("/threads" in r.path or "thread-members" in r.path for r in world.env.http_requests[before:])


async def test_a_move_on_the_other_teams_update_is_refused_in_words(world):
    await joined(world)
    refused = await world.alice.slash(world.channel, "move", order="P(0,1)-(0,2)")
    text = refused.response.content
    assert text.startswith("Order refused:\n```\n")
    assert ("update 2 is brushed metal's update: alabaster moves on the next one, so your moves are for update 3 "
            "(RULES 5.3, D65)") in text
    assert "Hint: joins and `resign` are accepted on any update (D65)" in text
    form = await world.alice.slash(world.channel, "move")            # the form is offered (a join or resign may go)
    assert form.modal is not None
    # as she types, no move is offered on the other team's update: the one choice says why
    [choice] = await world.alice.autocomplete(world.channel, "move", "order", "P(0,1)-(0,2)")
    assert choice["name"].startswith("Refused: update 2 is brushed metal's update: alabaster moves on the next one")
    offered = await world.bob.autocomplete(world.channel, "move", "order", "Q(20,2)-(20,")
    assert offered and all(c["value"].startswith("Q(20,2)-(20,") for c in offered)


async def test_a_whole_armys_orders_as_a_file(world):
    game = await joined(world)
    army = "N(18,2)-(17,4)\nQ(20,2)-(20,5)\n\nP(19,-1)-(19,-2)\n".encode("utf-8")
    sent = await world.bob.slash(world.channel, "move", file=("bob-update-2.txt", army))
    assert sent.response.content.startswith(
        "Order for update 2 accepted, 3 lines:\n`N(18,2)-(17,4)`\n`Q(20,2)-(20,5)`\n`P(19,-1)-(19,-2)`")
    assert (await world.service.my_order(game.id, user_id=world.bob.id)).canonical == \
        "N(18,2)-(17,4); Q(20,2)-(20,5); P(19,-1)-(19,-2)"
    # by direct message, the same file alone is a secret order
    answer = await dm_file(world, world.bob, "orders.txt", "Q(20,2)-(20,6)\nN(22,2)-(23,4)".encode())
    assert answer.startswith("Order for update 2 accepted (secret), 2 lines:\n`Q(20,2)-(20,6)`\n`N(22,2)-(23,4)`")
    both = await dm_file(world, world.bob, "orders.txt", b"Q(20,2)-(20,7)", text="these are my moves")
    assert "either as text or as one attached text file, alone" in both


async def test_without_the_thread_permissions_team_posts_wait_and_boards_go_on(world):
    game = await world.game(ruleset="megachess")
    world.env.inject_error("POST", f"/channels/{world.channel.id}/threads", status=403, code=50013, times=None)
    await world.join(game, world.alice, "Red", "Ada")
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)")
    await world.resolve(game)
    posts = await world.service.post_troubles(game.id, actor=world.moderator)
    [waiting] = [p for p in posts if p.kind == "team_threads"]
    assert waiting.state == "waiting" and waiting.destination == "the team threads of megachess game"
    assert "Create Private Threads, Manage Threads" in waiting.reason
    assert any(m.content.startswith("**megachess game**: the board after update 1") for m in world.public(world.channel))
    assert team_threads(world) == {}


async def test_an_archived_team_thread_is_opened_again_for_a_new_teammate(world):
    game = await joined(world)
    metal = team_threads(world)[f"brushed metal · team · game {game.id}"]
    await world.env.bot.get_channel(metal.id).edit(archived=True)        # a quiet week archives it
    await world.env.settle()
    dora = world.guild.add_member(world.env.create_user("dora"))
    await world.join(game, dora, "Yellow", "Dora")
    await world.service.submit_order(game.id, user_id=dora.id, text="K(40,0)")   # joins the smaller team
    await world.resolve(game)
    assert not world.env.backend.get_channel(metal.id).thread_metadata.archived
    assert members(world, metal) == {world.env.bot.user.id, world.bob.id, dora.id}
    assert len(team_threads(world)) == 2


async def test_health_shows_the_top_20_the_callers_rank_and_each_teams_total(world):
    game = await world.game(ruleset="megachess", schedule="every 1 hour")
    colours = ["Red", "Blue", "Green", "Yellow", "Purple", "Orange", "Crimson", "Teal", "Navy", "Olive", "Maroon",
               "Lime", "Pink", "Brown", "Gold", "Silver", "Cyan", "Magenta", "Indigo", "Violet", "Coral", "Mint"]
    for number in range(22):                 # kings 12 squares apart on a line (D62 asks 8)
        if number == 21:
            user_id, name = world.alice.id, "Zed"           # last by name among equal scores
        else:
            user_id, name = 1000 + number, f"P{number:02d}"
        await world.service.join(game.id, user_id=user_id, name=name, colour=colours[number])
        await world.service.submit_order(game.id, user_id=user_id, text=f"K({12 * number},0)")
    await world.resolve(game)
    result = await world.alice.slash(world.channel, "health")
    lines = result.response.content.split("\n")
    assert lines[0].startswith("1. P00 (")
    assert lines[19].startswith("20. P19 (") and lines[20] == "... 1 more ..."
    assert lines[21].startswith("**22. Zed (") and lines[21].endswith("** (you)")
    assert lines[22:] == ["alabaster: 11 points · 11 players", "brushed metal: 11 points · 11 players"]
    assert [a.filename for a in result.response.attachments] == ["health.png"]
    # someone who does not play sees the top 20 and the teams, and no row of theirs
    outsider = await world.cleo.slash(world.channel, "health")
    assert "(you)" not in outsider.response.content and "... and 2 more" in outsider.response.content


async def test_the_board_zooms_on_a_team_or_a_kingdom(world):
    await joined(world)
    choices = await world.alice.autocomplete(world.channel, "board", "zoom", "")
    assert [c["value"] for c in choices[:5]] == ["kingdom:Ada", "player:Ada", "all", "team:alabaster",
                                                 "team:brushed metal"]
    assert [c["name"] for c in await world.alice.autocomplete(world.channel, "board", "zoom", "bob")] == [
        "kingdom of Bob", "pieces of Bob"]
    kingdom = await world.alice.slash(world.channel, "board", zoom="kingdom:Bob")
    assert kingdom.response.content == "megachess game: the board for update 2, zoomed on kingdom of Bob"
    assert [a.filename for a in kingdom.response.attachments] == ["board.png"]
    team = await world.alice.slash(world.channel, "board", zoom="team:alabaster")
    assert team.response.content.endswith("zoomed on team alabaster")
    unknown = await world.alice.slash(world.channel, "board", zoom="team:copper")
    assert "no player of this game is on a team named 'copper' (teams: alabaster, brushed metal)" in \
        unknown.response.content
    both = await world.alice.slash(world.channel, "board", zoom="kingdom:Ada", center="(0,0)")
    assert "zoom goes alone" in both.response.content


async def test_a_teammate_who_left_the_server_does_not_keep_the_others_out(world):
    game = await world.game(ruleset="megachess")
    await world.join(game, world.alice, "Red", "Ada")
    await world.join(game, world.cleo, "Green", "Cy")
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)")
    await world.service.submit_order(game.id, user_id=world.cleo.id, text="K(40,0)")
    world.env.inject_error("PUT", f"/channels/*/thread-members/{world.alice.id}", status=404, code=10007)
    await world.resolve(game)
    threads = team_threads(world)
    assert len(threads) == 2
    alabaster = threads[f"alabaster · team · game {game.id}"]
    metal = threads[f"brushed metal · team · game {game.id}"]
    assert members(world, alabaster) == {world.env.bot.user.id}                 # Ada could not be added
    assert members(world, metal) == {world.env.bot.user.id, world.cleo.id}
    assert await world.service.post_troubles(game.id, actor=world.moderator) == []     # delivered, not parked
