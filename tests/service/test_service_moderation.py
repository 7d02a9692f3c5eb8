"""Moderator edits: each a new revision of the current snapshot with an audit entry; the update then
re-validates pending orders and refuses, with the reason, those an edit made illegal. Kick, events,
announcements."""

from __future__ import annotations

import pytest

from bot.service import Moderator, InvalidInput, NotAllowed, NotFound, OrderRefused, WrongTime

MOD = Moderator(user_id=99, guild_id=1)     # a moderator of the tests' server
ALICE, BOB, CLEO = 1, 2, 3




async def test_an_edit_is_a_new_revision_with_an_audit_entry(table):
    service = table.service
    game = await table.playing_game()
    [original] = [s for s in await table.snapshots(game.id) if s.update_no == 1]
    edited = await service.place_piece(game.id, actor=MOD, kind="rook", square="(3, 3)", owner="bob")
    assert (edited.snapshot_update, edited.snapshot_revision, edited.update_no) == (1, 1, 2)
    revisions = [s for s in await table.snapshots(game.id) if s.update_no == 1]
    assert [(s.revision, s.reason) for s in revisions] == [(0, "update"), (1, "edit: Bob's Rook placed on (3,3)")]
    assert revisions[0] == original                                   # the stored snapshot is never changed
    [audit] = [a for a in await service.audit_log(game.id) if a.action == "place"]
    assert (audit.actor, audit.detail) == (MOD.user_id, {"kind": "R", "square": [3, 3], "owner": "Bob", "revision": 1,
                                                         "edit": "Bob's Rook placed on (3,3)", "update": 1})
    assert (await table.posts(game.id))[-1].body == "Moderator edit: Bob's Rook placed on (3,3)."
    view = await service.player_view(game.id, user_id=BOB)
    assert view.pieces == 2

    await service.move_piece(game.id, actor=MOD, origin="(3,3)", target="(4,4)")
    await service.remove_piece(game.id, actor=MOD, square="(4,4)")
    await service.set_balance(game.id, actor=MOD, player="Cleo", amount="5.5")
    assert [a.action for a in await service.audit_log(game.id)][-4:] == ["place", "move", "remove", "balance"]
    assert [s.revision for s in await table.snapshots(game.id) if s.update_no == 1] == [0, 1, 2, 3, 4]
    lines, _ = await service.health_board(game.id)
    assert "3. Cleo (Green): 0 --- Health: 5.5 💖" in lines
    assert (await service.player_view(game.id, user_id=CLEO)).balance == "5.5"

    result = await table.resolve(game.id)                  # the update starts from the last revision
    assert await service.replay(game.id, 2)
    entry = await service.history(game.id, 2)
    assert entry.state.players["Cleo"].balance == 6.5      # 5.5 + 1 regeneration
    assert result.resolved


async def test_an_update_refuses_an_order_an_edit_made_illegal(table):
    service = table.service
    game = await table.playing_game()
    await service.submit_order(game.id, user_id=BOB, text="+N(10,3)")            # 3 health of Bob's 11
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(1,0)")
    await service.set_balance(game.id, actor=MOD, player="Bob", amount=1)       # now Bob cannot pay
    await service.move_piece(game.id, actor=MOD, origin="(0,0)", target="(0,3)")  # and Alice's king is elsewhere

    result = await table.resolve(game.id)
    orders = {o.user_id: o for o in await table.orders(game.id, 2) if o.status != "superseded"}
    assert (orders[BOB].status, orders[BOB].refusal) == ("refused", "a knight costs 3 health; you have 1 health (RULES 4)")
    assert (orders[ALICE].status, orders[ALICE].refusal) == ("refused", "there is no piece of yours on (0,0)")
    private = {p.recipient: p.body for p in await table.posts(game.id) if p.kind == "private_report" and p.update_no == 2}
    assert "a knight costs 3 health; you have 1 health" in private[BOB]
    entry = await service.history(game.id, 2)
    assert entry.state.board.at((10, 3)) == ()
    assert [p.owner for p in entry.state.board.at((0, 3))] == ["Alice"]
    assert entry.state.board.at((1, 0)) == ()
    assert result.resolved


async def test_cleo_cannot_order_a_piece_of_alice_placed_by_a_moderator(table):
    game = await table.playing_game()
    await table.service.place_piece(game.id, actor=MOD, kind="N", square="(20,20)", owner="Alice")
    with pytest.raises(OrderRefused) as caught:
        await table.service.submit_order(game.id, user_id=CLEO, text="N(20,20)-(21,22)")
    assert "belongs to Alice" in caught.value.describe()


@pytest.mark.parametrize("edit, error_type, words", [
    (lambda s, g: s.place_piece(g, actor=MOD, kind="R", square="(0,0)", owner=None), InvalidInput,
     ["(0,0) is occupied by Alice's King", "remove that piece first"]),
    (lambda s, g: s.place_piece(g, actor=MOD, kind="R", square=f"({10**100},0)", owner=None), InvalidInput,
     ["is not a square", "(x,y)"]),
    (lambda s, g: s.place_piece(g, actor=MOD, kind="R", square="(2000000,0)", owner=None), InvalidInput,
     ["(2000000,0) is off the board", "(D1)"]),
    (lambda s, g: s.place_piece(g, actor=MOD, kind="R", square="(5,5)", owner="Robert'); DROP TABLE games;--"),
     NotFound, ["no player named", "in this game"]),
    (lambda s, g: s.place_piece(g, actor=MOD, kind="R", square="(5,5)", owner="x" * 100_000), NotFound,
     ["no player named"]),
    (lambda s, g: s.place_piece(g, actor=MOD, kind="Xyzzy", square="(5,5)", owner=None), InvalidInput,
     ["'Xyzzy' is not a piece", "(D4)"]),
    (lambda s, g: s.place_piece(g, actor=MOD, kind="K", square="(5,5)", owner="Alice"), InvalidInput,
     ["Alice already has a king on the board"]),
    (lambda s, g: s.remove_piece(g, actor=MOD, square="(5,5)"), NotFound, ["there is no piece on (5,5)"]),
    (lambda s, g: s.move_piece(g, actor=MOD, origin="(0,0)", target="(10,0)"), InvalidInput,
     ["(10,0) is occupied by Bob's King"]),
    (lambda s, g: s.set_balance(g, actor=MOD, player="Alice", amount="lots"), InvalidInput, ["'lots' is not an amount"]),
    (lambda s, g: s.set_balance(g, actor=MOD, player="Alice", amount="1/3"), InvalidInput,
     ["is not a whole or half amount"]),
    (lambda s, g: s.start_event(g, actor=MOD, name="Snowball fight"), InvalidInput, ["unknown event 'Snowball fight'"]),
    (lambda s, g: s.stop_event(g, actor=MOD, name="Famine"), InvalidInput, ["Famine is not in force"]),
    (lambda s, g: s.kick(g, actor=MOD, user_id=42), NotFound, ["that user is not a player of game"]),
    (lambda s, g: s.kick(g, actor=MOD, user_id=10**100), NotFound, ["that user is not a player of game"]),
    (lambda s, g: s.announce(g, actor=MOD, text="x" * 100_000), InvalidInput, ["an announcement is 1 to 1,800"]),
    (lambda s, g: s.place_piece(999, actor=MOD, kind="R", square="(5,5)", owner=None), NotFound,
     ["there is no game 999"]),
], ids=["occupied", "10^100", "beyond D1", "SQL owner", "100 KB owner", "unknown kind", "second king", "empty square",
        "move onto a piece", "not an amount", "a third", "unknown event", "event not in force", "not a player",
        "huge user id", "100 KB announcement", "unknown game"])
async def test_a_bad_edit_is_refused_and_changes_nothing(table, edit, error_type, words):
    game = await table.playing_game()
    await table.refused(edit(table.service, game.id), error_type, *words)


async def test_no_edit_before_the_start_or_while_an_update_is_being_resolved(table):
    service = table.service
    game = await service.create_game(guild_id=1, channel_id=10, actor=MOD)
    await table.refused(service.place_piece(game.id, actor=MOD, kind="R", square="(1,1)", owner=None), WrongTime,
                  "has not started yet")
    game = await table.playing_game(channel_id=11)
    table.clock.past(game.deadline_at)
    await service._claim(game.id, 2, force=False)           # an update being resolved right now
    await table.refused(service.place_piece(game.id, actor=MOD, kind="R", square="(1,1)", owner=None), WrongTime,
                  "is being resolved")


async def test_kick_removes_the_player_their_pieces_and_their_order(table):
    service = table.service
    game = await table.playing_game()
    await service.place_piece(game.id, actor=MOD, kind="N", square="(0,12)", owner="Cleo")
    await service.submit_order(game.id, user_id=CLEO, text="K(0,10)-(0,11)", source="dm")
    kicked = await service.kick(game.id, actor=MOD, user_id=CLEO, reason="spamming")
    assert kicked.snapshot_revision == 2
    assert (await table.posts(game.id))[-1].body == (
        "Moderator edit: Cleo was removed from the game (spamming); 2 pieces left the board.")
    assert [o.status for o in await table.orders(game.id, 2) if o.user_id == CLEO] == ["cancelled"]
    assert [p.name for p in await service.players(game.id)] == ["Alice", "Bob"]
    assert [(p.name, p.status) for p in await service.players(game.id, include_kicked=True)][-1] == ("Cleo", "kicked")
    [audit] = [a for a in await service.audit_log(game.id) if a.action == "kick"]
    assert audit.detail["player"] == "Cleo" and audit.detail["pieces"] == 2

    await table.refused(service.submit_order(game.id, user_id=CLEO, text="K(0,11)"), NotAllowed,
                  "a moderator removed you from game")
    await table.refused(service.join(game.id, user_id=CLEO, name="Cleo2", colour="Purple"), NotAllowed,
                  "a moderator removed you from game")
    await table.refused(service.kick(game.id, actor=MOD, user_id=CLEO), NotFound, "not a player")
    result = await table.resolve(game.id)
    assert "Cleo" not in result.report.text()
    lines, _ = await service.health_board(game.id)
    assert not any(line.split(". ", 1)[1].startswith("Cleo") for line in lines)
    status = await service.order_status(game.id)
    assert "Cleo" not in status.ordered + status.waiting


async def test_a_moderator_starts_and_stops_an_event(table):
    service = table.service
    game = await table.playing_game()
    await service.start_event(game.id, actor=MOD, name="famine")
    assert (await table.posts(game.id))[-1].body.startswith("Moderator edit: the event Famine starts")
    await table.refused(service.start_event(game.id, actor=MOD, name="Famine"), InvalidInput, "already in force")
    entry = await service.history(game.id, 1)
    assert [e.name for e in entry.state.events] == ["Famine"]
    await service.stop_event(game.id, actor=MOD, name="FAMINE")
    assert [e.name for e in (await service.history(game.id, 1)).state.events] == []
    assert [a.action for a in await service.audit_log(game.id)][-2:] == ["event_start", "event_stop"]


async def test_an_event_started_by_a_moderator_is_announced_in_the_game_s_words(table):
    """The announcement fills in the event's sentence (its currency), never a raw {template}."""
    game = await table.playing_game()
    await table.service.start_event(game.id, actor=MOD, name="King of the Hill")
    body = (await table.posts(game.id))[-1].body
    assert "gains +1 health" in body and "{" not in body


async def test_an_announcement_is_posted_and_audited(table):
    game = await table.playing_game()
    post_id = await table.service.announce(game.id, actor=MOD, text="  Tournament tonight!  ")
    [post] = [p for p in await table.posts(game.id) if p.id == post_id]
    assert (post.kind, post.body, post.recipient) == ("announcement", "Tournament tonight!", None)
    assert (await table.service.audit_log(game.id))[-1].detail == {"text": "Tournament tonight!"}


async def test_a_moderator_may_order_for_a_player(table):
    game = await table.playing_game()
    receipt = await table.service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)", source="moderator",
                                               actor=MOD)
    assert receipt.player == "Alice"
    [audit] = [a for a in await table.service.audit_log(game.id) if a.action == "order"]
    assert (audit.actor, audit.detail) == (MOD.user_id, {"player": "Alice", "order": "K(0,0)-(0,1)", "update": 2})
