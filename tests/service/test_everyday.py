"""Everyday use cases (issue 28): leaving a game, a player's own order history, the server's games,
and the piece kinds a moderator places."""

from __future__ import annotations

from bot.service import NotAllowed, OrderRefused, WrongTime

ALICE, BOB, CLEO, DORA = 1, 2, 3, 4


async def test_leaving_a_running_game_is_resigning_at_the_end_of_the_update(table):
    service = table.service
    game = await table.playing_game()
    await service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)")
    departure = await service.leave(game.id, user_id=BOB)
    assert departure.outcome == "resigns" and departure.receipt.canonical == "resign"
    assert "at the end of update 2: your order is now `resign` (it replaces `K(10,0)-(10,1)`)" in departure.text()
    assert (await service.my_order(game.id, user_id=BOB)).canonical == "resign"
    result = await table.resolve(game.id)
    assert result.resolved
    entry = await service.history(game.id, 2)
    assert entry.state.players["Bob"].status == "resigned"
    assert not entry.state.board.owned_by("Bob")
    # RULES 5: a resigned player may not join again this session (the engine refuses their orders)
    await table.refused(service.submit_order(game.id, user_id=BOB, text="K(20,20)"), OrderRefused)


async def test_a_player_who_leaves_may_change_their_mind_before_the_deadline(table):
    service = table.service
    game = await table.playing_game()
    await service.leave(game.id, user_id=CLEO)
    receipt = await service.submit_order(game.id, user_id=CLEO, text="K(0,10)-(0,11)")
    assert receipt.replaced == "resign"
    await table.resolve(game.id)
    assert (await service.history(game.id, 2)).state.players["Cleo"].status == "active"


async def test_a_joiner_with_nothing_on_the_board_leaves_at_once(table):
    service = table.service
    game = await table.playing_game()
    await service.join(game.id, user_id=DORA, name="Dora", colour="Purple")
    await service.submit_order(game.id, user_id=DORA, text="K(30,30)")
    departure = await service.leave(game.id, user_id=DORA)
    assert departure.outcome == "gone" and "nothing of yours was on the board" in departure.text()
    assert await service.games_of(DORA) == []
    assert [o.status for o in await table.orders(game.id, 2) if o.user_id == DORA] == ["cancelled"]
    await table.refused(service.submit_order(game.id, user_id=DORA, text="K(30,30)"), NotAllowed,
                        "you left game 1 (neisg game)")
    await table.refused(service.join(game.id, user_id=DORA, name="Dora2", colour="Pink"), NotAllowed, "you left game")
    assert (await table.posts(game.id))[-1].body == "Dora has left the game."
    result = await table.resolve(game.id)
    assert result.resolved and "Dora" not in result.report.text()


async def test_leaving_before_the_start_frees_the_seat(table):
    service = table.service
    game = await service.create_game(guild_id=1, channel_id=40, actor=table.MODERATOR, ruleset="arena", seed=3)
    await service.join(game.id, user_id=ALICE, name="Alice", colour="Red")
    departure = await service.leave(game.id, user_id=ALICE)
    assert departure.outcome == "seat_freed"
    assert await service.players(game.id) == []
    again = await service.join(game.id, user_id=ALICE, name="Alice", colour="Red")
    assert again.player.seat == 1


async def test_leaving_is_refused_when_orders_are_locked_or_the_game_ended(table):
    service = table.service
    game = await table.playing_game()
    await service.lock_orders(game.id, actor=table.MODERATOR)
    await table.refused(service.leave(game.id, user_id=ALICE), WrongTime, "locked")
    await service.end_game(game.id, actor=table.MODERATOR)
    await table.refused(service.leave(game.id, user_id=ALICE), WrongTime, "has ended")
    await table.refused(service.leave(game.id, user_id=77), NotAllowed, "you are not a player")


async def test_a_players_order_history_is_their_own_newest_first(table):
    service = table.service
    game = await table.playing_game()
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)")
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(1,0)", source="dm")
    await service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)")
    history = await service.order_history(game.id, user_id=ALICE)
    assert [(o.update_no, o.canonical, o.status, o.secret) for o in history] == [
        (2, "K(0,0)-(1,0)", "pending", True), (2, "K(0,0)-(0,1)", "superseded", False), (1, "+K(0,0)", "resolved", False)]
    await table.refused(service.order_history(game.id, user_id=77), NotAllowed, "you are not a player")


async def test_the_servers_games_live_first_then_the_latest_ended(table):
    service = table.service
    first = await table.new_game(channel_id=10, name="First")
    await service.end_game(first.id, actor=table.MODERATOR)
    second = await table.new_game(channel_id=11, name="Second")
    await service.create_game(guild_id=2, channel_id=12, actor=type(table.MODERATOR)(99, 2), name="Elsewhere")
    setup = await service.create_game(guild_id=1, channel_id=13, actor=table.MODERATOR, name="Soon")
    listed = [(s.game.name, s.game.status, s.title, s.players) for s in await service.server_games(1)]
    assert listed == [("Second", "running", "Never-Ending Infinite Sandbox Game", 3),
                      ("Soon", "setup", "Never-Ending Infinite Sandbox Game", 0),
                      ("First", "ended", "Never-Ending Infinite Sandbox Game", 3)]
    assert second.id < setup.id


async def test_piece_kinds_are_the_rulesets_pieces(table):
    game = await table.new_game()
    kinds = await table.service.piece_kinds(game.id)
    assert ("N", "Knight") in kinds and ("K", "King") in kinds
    assert len({letter for letter, _ in kinds}) == len(kinds)
