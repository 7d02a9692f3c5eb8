"""Order suggestions as a player types (issue 28): legal orders from the engine, filtered by what
is typed, the nearest pieces first, captures marked, kept per (game, revision, player)."""

from __future__ import annotations

ALICE, BOB, CLEO, DORA = 1, 2, 3, 4


async def values(table, game_id, user_id, typed):
    return [s.value for s in await table.service.order_suggestions(game_id, user_id=user_id, typed=typed)]


async def test_nothing_typed_offers_every_legal_move_of_the_players_pieces(table):
    service = table.service
    game = await table.playing_game()
    offered = await service.order_suggestions(game.id, user_id=ALICE, typed="")
    assert sorted(s.value for s in offered) == sorted(
        f"K(0,0)-({x},{y})" for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0))
    state_game = await service.get_game(game.id)
    for suggestion in offered:                 # every one is what /move accepts
        assert (await service.check(state_game.id, user_id=ALICE, text=suggestion.value)).ok
        assert len(suggestion.value) <= 100 and len(suggestion.label) <= 100


async def test_what_is_typed_filters_by_the_start_of_the_long_or_the_short_form(table):
    game = await table.playing_game()
    assert await values(table, game.id, ALICE, "k(0, 0)-(1") == ["K(0,0)-(1,-1)", "K(0,0)-(1,0)", "K(0,0)-(1,1)"]
    assert await values(table, game.id, ALICE, "K(1,1") == ["K(0,0)-(1,1)"]          # short: the king to (1,1)
    # nothing completes it: the one choice says why /move would refuse it, and keeps the text
    [refusal] = await table.service.order_suggestions(game.id, user_id=BOB, typed="K(0,0)")   # Bob's king is elsewhere
    assert refusal.value == "K(0,0)" and refusal.label.startswith("Refused: ")


async def test_the_nearest_pieces_come_first_and_captures_are_marked(table):
    service = table.service
    game = await table.playing_game()
    for kind, square in (("R", "(10,21)"), ("R", "(22,25)"), ("N", "(20,20)"), ("N", "(5,5)")):
        await service.place_piece(game.id, actor=table.MODERATOR, kind=kind, square=square, owner="Alice")
    await service.place_piece(game.id, actor=table.MODERATOR, kind="P", square="(22,21)", owner="Bob")
    offered = await service.order_suggestions(game.id, user_id=ALICE, typed="R(22,21)")
    # both rooks reach (22,21); the nearer one (4 squares away) comes before the one 12 away
    assert [(s.value, s.label) for s in offered] == [
        ("R(22,25)-(22,21)", "R(22,25)-(22,21) captures Bob's Pawn"),
        ("R(10,21)-(22,21)", "R(10,21)-(22,21) captures Bob's Pawn")]
    knight = await service.order_suggestions(game.id, user_id=ALICE, typed="N(20,20)")
    assert knight[0].label == "N(20,20)-(22,21) captures Bob's Pawn"                 # a piece's captures first
    everything = await values(table, game.id, ALICE, "N")
    assert len(everything) == 16 and everything[0].startswith("N(5,5)")            # canonical order without a square


async def test_at_most_25_and_a_new_revision_is_seen(table):
    service = table.service
    game = await table.playing_game()
    for x in (3, 6, 9, 12):
        await service.place_piece(game.id, actor=table.MODERATOR, kind="Q", square=f"({x},30)", owner="Alice")
    assert len(await values(table, game.id, ALICE, "")) == 25
    assert "Q(3,30)-(3,31)" in await values(table, game.id, ALICE, "Q(3,30)-(3,3")
    await service.place_piece(game.id, actor=table.MODERATOR, kind="P", square="(3,31)", owner="Cleo")
    labels = [s.label for s in await service.order_suggestions(game.id, user_id=ALICE, typed="Q(3,30)-(3,3")]
    # the capture first; (3,32) and beyond are gone behind the pawn: the new revision is seen
    assert labels == ["Q(3,30)-(3,31) captures Cleo's Pawn", "Q(3,30)-(3,3)"]


async def test_a_complete_order_that_is_no_move_is_judged_like_move_would(table):
    service = table.service
    game = await table.playing_game()
    await service.join(game.id, user_id=DORA, name="Dora", colour="Purple")
    placement = await service.order_suggestions(game.id, user_id=DORA, typed="K(30,30)")
    assert [(s.value, s.label) for s in placement] == [("+K(30,30)", "+K(30,30) (a valid order)")]
    refused = await service.order_suggestions(game.id, user_id=DORA, typed="K(1,1)")
    assert len(refused) == 1 and refused[0].value == "K(1,1)" and refused[0].label.startswith("Refused: ")
    resign = await service.order_suggestions(game.id, user_id=ALICE, typed="res")
    assert resign[0].value == "resign"


async def test_nothing_is_offered_to_whoever_may_not_order_now(table, monkeypatch):
    service = table.service
    game = await table.playing_game()
    assert await values(table, game.id, 77, "") == []                               # not a player
    monkeypatch.setattr(type(service.variant(game)), "may_order",
                        lambda self, state, player: None if player != "Alice" else "not your turn")
    assert await values(table, game.id, ALICE, "") == []
    assert await values(table, game.id, BOB, "")
    monkeypatch.undo()
    await service.lock_orders(game.id, actor=table.MODERATOR)
    assert await values(table, game.id, ALICE, "") == []


async def test_earlier_lines_are_kept(table):
    game = await table.playing_game()
    offered = await values(table, game.id, ALICE, "K(0,0)-(0,1) else K(0,0)-(1,1);K(0,0)-(-1")
    assert offered == ["K(0,0)-(0,1) else K(0,0)-(1,1); K(0,0)-(-1,-1)", "K(0,0)-(0,1) else K(0,0)-(1,1); K(0,0)-(-1,0)",
                       "K(0,0)-(0,1) else K(0,0)-(1,1); K(0,0)-(-1,1)"]
