"""Authority is checked by the service too (defence in depth): every moderator use case refuses
anyone the front end did not vouch for as a moderator of the game's server, and changes nothing."""

from __future__ import annotations

import pytest

from bot.service import Moderator, NotAllowed

ALICE = 1
MOD = Moderator(user_id=99, guild_id=1)

#: what is not a moderator of guild 1: a bare user id (the moderator's own, even), a player's id,
#: None, a moderator of another server
NOT_MODERATORS = [99, ALICE, None, Moderator(user_id=99, guild_id=2)]

#: every moderator use case, as (name, call(service, game id, actor)) on a game whose update 2 is open
USE_CASES = [
    ("create_game", lambda s, g, a: s.create_game(guild_id=1, channel_id=77, actor=a)),
    ("configure", lambda s, g, a: s.configure(g, actor=a, name="Renamed")),
    ("pause_game", lambda s, g, a: s.pause_game(g, actor=a)),
    ("end_game", lambda s, g, a: s.end_game(g, actor=a)),
    ("lock_orders", lambda s, g, a: s.lock_orders(g, actor=a)),
    ("resolve_now", lambda s, g, a: s.resolve_now(g, actor=a)),
    ("extend", lambda s, g, a: s.extend(g, minutes=30, actor=a)),
    ("rollback", lambda s, g, a: s.rollback(g, to_update=0, actor=a)),
    ("place_piece", lambda s, g, a: s.place_piece(g, actor=a, kind="R", square="(3,3)", owner="Alice")),
    ("remove_piece", lambda s, g, a: s.remove_piece(g, actor=a, square="(0,0)")),
    ("move_piece", lambda s, g, a: s.move_piece(g, actor=a, origin="(0,0)", target="(0,1)")),
    ("set_balance", lambda s, g, a: s.set_balance(g, actor=a, player="Alice", amount=5)),
    ("start_event", lambda s, g, a: s.start_event(g, actor=a, name="King of the Hill")),
    ("kick", lambda s, g, a: s.kick(g, actor=a, user_id=ALICE)),
    ("announce", lambda s, g, a: s.announce(g, actor=a, text="hello")),
    ("order for a player", lambda s, g, a: s.submit_order(g, user_id=ALICE, text="K(0,0)-(0,1)", source="moderator",
                                                          actor=a)),
]


@pytest.mark.parametrize("name, call", USE_CASES, ids=[name for name, _ in USE_CASES])
async def test_a_moderator_use_case_refuses_anyone_else_and_changes_nothing(table, name, call):
    game = await table.playing_game()
    for actor in NOT_MODERATORS:
        await table.refused(call(table.service, game.id, actor), NotAllowed, "only a moderator of this server may",
                            "nothing was changed")
    await call(table.service, game.id, MOD)        # the same request from a moderator goes through


async def test_the_locked_and_paused_use_cases_refuse_anyone_else_too(table):
    service = table.service
    game = await table.playing_game()
    await service.lock_orders(game.id, actor=MOD)
    for actor in NOT_MODERATORS:
        await table.refused(service.unlock_orders(game.id, actor=actor), NotAllowed, "unlock")
    await service.pause_game(game.id, actor=MOD)
    for actor in NOT_MODERATORS:
        await table.refused(service.resume_game(game.id, actor=actor), NotAllowed, "resume")
    await service.resume_game(game.id, actor=MOD)
    await service.start_event(game.id, actor=MOD, name="King of the Hill")
    for actor in NOT_MODERATORS:
        await table.refused(service.stop_event(game.id, actor=actor, name="King of the Hill"), NotAllowed, "event")


async def test_starting_a_game_needs_a_moderator(table):
    game = await table.service.create_game(guild_id=1, channel_id=30, actor=MOD)
    for actor in NOT_MODERATORS:
        await table.refused(table.service.start_game(game.id, actor=actor), NotAllowed, "start a game")
    assert (await table.service.start_game(game.id, actor=MOD)).status == "running"
