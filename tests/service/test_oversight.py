"""A moderator's oversight (issue 28): the audit log in pages and words (secret orders kept secret
until they resolve), undo of the last edit (a new revision, audited, never a resolution), and a
seat given to another member."""

from __future__ import annotations

from bot.service import Conflict, InvalidInput, Moderator, NotAllowed, NotFound, WrongTime

ALICE, BOB, CLEO, DORA = 1, 2, 3, 4


async def board(table, game_id):
    """``{square: (kind, owner)}`` of the current position."""
    game = await table.service.get_game(game_id)
    entry = await table.service.history(game_id, game.snapshot_update)
    return {p.square: (p.kind, p.owner) for p in entry.state.board}


async def current_reason(table, game_id) -> str:
    game = await table.service.get_game(game_id)
    async with table.store.snapshot_read() as q:
        return (await q.snapshot(game.id, game.snapshot_update, game.snapshot_revision)).reason


# ----------------------------------------------------------------------------- the audit log
async def test_the_audit_log_reads_newest_first_in_pages_for_moderators_only(table):
    service = table.service
    game = await table.playing_game()
    for number in range(20):
        await service.announce(game.id, actor=table.MODERATOR, text=f"notice {number}")
    first = await service.audit_page(game.id, actor=table.MODERATOR)
    assert (first.page, first.pages, first.total) == (1, 2, 22)
    assert [line.text for line in first.lines[:2]] == ["announced: notice 19", "announced: notice 18"]
    second = await service.audit_page(game.id, actor=table.MODERATOR, page=2)
    assert [line.text for line in second.lines][-2:] == ["created the game (neisg, every 1 hour)", "started the game"][::-1]
    assert second.lines[-1].actor == table.MODERATOR.user_id
    await table.refused(service.audit_page(game.id, actor=table.MODERATOR, page=3), NotFound, "has 2 pages, not 3")
    await table.refused(service.audit_page(game.id, actor=Moderator(99, guild_id=2)), NotAllowed,
                        "only a moderator of this server may read a game's audit log")
    await table.refused(service.audit_page(game.id, actor=table.MODERATOR, page=0), InvalidInput, "a page is")


async def test_an_order_a_moderator_entered_stays_secret_in_the_log_until_it_resolves(table):
    service = table.service
    game = await table.playing_game()
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(0,1)", source="moderator", actor=table.MODERATOR)
    [line] = [line for line in (await service.audit_page(game.id, actor=table.MODERATOR)).lines if line.action == "order"]
    assert line.text == "entered an order for Alice for update 2 (what it is stays secret until the update resolves)"
    assert "(0,1)" not in line.text
    await table.resolve(game.id)
    [line] = [line for line in (await service.audit_page(game.id, actor=table.MODERATOR)).lines if line.action == "order"]
    assert line.text == "entered an order for Alice for update 2: `K(0,0)-(0,1)`"


# ----------------------------------------------------------------------------- undo
async def test_undo_restores_the_position_before_the_last_edit_as_a_new_revision(table):
    service = table.service
    game = await table.playing_game()
    before = await board(table, game.id)
    await service.place_piece(game.id, actor=table.MODERATOR, kind="N", square="(3,3)", owner="Alice")
    await service.move_piece(game.id, actor=table.MODERATOR, origin="(3,3)", target="(4,5)")
    after_place = {**before, (3, 3): ("N", "Alice")}
    game = await service.undo_edit(game.id, actor=table.MODERATOR)
    assert await board(table, game.id) == after_place
    assert game.snapshot_revision == 3 and await current_reason(table, game.id) == (
        "undo: Alice's Knight moved from (3,3) to (4,5)")
    game = await service.undo_edit(game.id, actor=table.MODERATOR)          # and the edit before
    assert await board(table, game.id) == before and game.snapshot_revision == 4
    await table.refused(service.undo_edit(game.id, actor=table.MODERATOR), WrongTime, "no moderator edit to undo")
    audit = [(line.action, line.text) for line in (await service.audit_page(game.id, actor=table.MODERATOR)).lines]
    assert audit[:2] == [("undo", "undid: Alice's Knight placed on (3,3)"),
                         ("undo", "undid: Alice's Knight moved from (3,3) to (4,5)")]
    posts = [p.body for p in await table.posts(game.id) if p.kind == "announcement"]
    assert posts[-1] == "Moderator edit undone: Alice's Knight placed on (3,3)."
    snapshots = [s.revision for s in await table.snapshots(game.id) if s.update_no == 1]
    assert snapshots == [0, 1, 2, 3, 4]                 # nothing overwritten


async def test_an_edit_followed_by_a_resolution_is_not_undone(table):
    service = table.service
    game = await table.playing_game()
    await service.place_piece(game.id, actor=table.MODERATOR, kind="R", square="(20,20)", owner=None)
    await table.resolve(game.id)
    await table.refused(service.undo_edit(game.id, actor=table.MODERATOR), WrongTime, "no moderator edit to undo",
                        "/mod rollback")
    await table.refused(service.undo_edit(game.id, actor=Moderator(7, guild_id=2)), NotAllowed, "undo a moderator edit")


async def test_undoing_a_kick_gives_the_seat_back(table):
    service = table.service
    game = await table.playing_game()
    await service.kick(game.id, actor=table.MODERATOR, user_id=BOB, reason="spam")
    await table.refused(service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)"), NotAllowed,
                        "a moderator removed you")
    await service.undo_edit(game.id, actor=table.MODERATOR)
    assert (10, 0) in await board(table, game.id)
    receipt = await service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)")
    assert receipt.canonical == "K(10,0)-(10,1)"


# ----------------------------------------------------------------------------- substitution
async def test_a_new_member_takes_over_a_seat_and_the_old_one_loses_access(table):
    service = table.service
    game = await table.playing_game()
    await service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)")
    await service.substitute(game.id, actor=table.MODERATOR, player="bob", user_id=DORA)
    await table.refused(service.submit_order(game.id, user_id=BOB, text="K(10,0)-(11,0)"), NotAllowed,
                        "a moderator gave your seat in game 1 (neisg game) to another member")
    assert await service.my_order(game.id, user_id=DORA) is None           # Bob's order was cancelled
    receipt = await service.submit_order(game.id, user_id=DORA, text="K(10,0)-(11,0)")
    assert receipt.player == "Bob"
    view = await service.player_view(game.id, user_id=DORA)
    assert (view.name, view.colour, view.pieces, view.has_king) == ("Bob", "Blue", 1, True)
    assert [g.id for g in await service.games_of(BOB)] == [] and [g.id for g in await service.games_of(DORA)] == [game.id]
    posts = [(p.recipient, p.body) for p in await table.posts(game.id) if p.update_no == 2]
    assert (BOB, "A moderator gave your seat in **neisg game** (Bob, Blue) to another member: you no longer play "
                 "it. Your order for update 2 was cancelled.") in posts
    assert any(r == DORA and b.startswith("A moderator gave you the seat of Bob (Blue)") for r, b in posts)
    assert (None, "Moderator edit: Bob's seat is now played by another member.") in posts
    result = await table.resolve(game.id)
    assert result.resolved and "Bob" in result.report.text()
    [line] = [line for line in (await service.audit_page(game.id, actor=table.MODERATOR)).lines
              if line.action == "substitute"]
    assert line.text == "gave Bob's seat to another member"


async def test_substitution_refusals(table):
    service = table.service
    game = await table.playing_game()
    await table.refused(service.substitute(game.id, actor=table.MODERATOR, player="Zed", user_id=DORA), NotFound,
                        "no player named 'Zed'")
    await table.refused(service.substitute(game.id, actor=table.MODERATOR, player="Bob", user_id=CLEO), Conflict,
                        "already plays game 1 as Cleo")
    await table.refused(service.substitute(game.id, actor=table.MODERATOR, player="Bob", user_id=DORA, name="Dora"),
                        NotAllowed, "keeps it once the game has started")
    await table.refused(service.substitute(game.id, actor=Moderator(7, guild_id=2), player="Bob", user_id=DORA),
                        NotAllowed, "give a player's seat to another member")


async def test_before_the_start_a_seat_may_change_its_name(table):
    service = table.service
    game = await service.create_game(guild_id=1, channel_id=40, actor=table.MODERATOR, ruleset="arena", seed=3)
    await service.join(game.id, user_id=ALICE, name="Alice", colour="Red")
    await service.join(game.id, user_id=BOB, name="Bob", colour="Blue")
    await service.substitute(game.id, actor=table.MODERATOR, player="Bob", user_id=DORA, name="Dora")
    players = await service.players(game.id)
    assert [(p.name, p.user_id, p.colour, p.seat) for p in players] == [("Alice", ALICE, "Red", 1),
                                                                         ("Dora", DORA, "Blue", 2)]
    started = await service.start_game(game.id, actor=table.MODERATOR)
    assert started.status == "running"


async def test_a_bad_user_id_is_refused(table):
    game = await table.playing_game()
    await table.refused(table.service.substitute(game.id, actor=table.MODERATOR, player="Bob", user_id="x" * 5000),
                        InvalidInput, "is not a user id")
