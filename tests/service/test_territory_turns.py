"""Territory in play-by-post (issue 24, RULES 5.4.8): two seats, turns with their own deadline
(``turn_hours``), a turn ends at its player's first accepted submission, a skipped turn is resolved
at once and posted as one line, orders by DM are shown in the channel (no secrets), and the player
who is not active may only resign."""

from __future__ import annotations

from datetime import timedelta

from bot.service import InvalidInput, OrderRefused

from .conftest import MODERATOR

ANN, BOB = 1, 2


async def _territory(table, settings=None):
    service = table.service
    game = await service.create_game(guild_id=1, channel_id=10, actor=MODERATOR, ruleset="territory", seed=3,
                                     settings=settings)
    await service.join(game.id, user_id=ANN, name="Ann", colour="Red")
    await service.join(game.id, user_id=BOB, name="Bob", colour="Blue")
    return await service.start_game(game.id, actor=MODERATOR)


async def _resolve_due(table, game_id):
    """What the scheduler does: resolve every update whose deadline has come (a skipped turn's is now)."""
    resolved = []
    while True:
        game = await table.service.get_game(game_id)
        if game.status != "running" or game.deadline_at is None or game.deadline_at > table.clock.now:
            return resolved
        result = await table.service.resolve_if_due(game_id, game.update_no)
        assert result.resolved, result
        resolved.append(game.update_no)


async def test_turns_have_their_own_deadline_and_end_at_the_first_accepted_submission(table):
    game = await _territory(table, settings={"turn_hours": 12})
    assert game.deadline_at == table.clock.now + timedelta(hours=12)
    assert table.service.schedule(game).describe() == "every 12 hours"
    [start] = [post.body for post in await table.posts(game.id) if post.kind == "announcement"]
    # each turn has its own deadline: the start says how long one lasts, not the first's clock time
    assert start.endswith("Each turn lasts up to 12 hours: it ends as soon as its player's submission is accepted.")
    assert "UTC" not in start
    receipt = await table.service.submit_order(game.id, user_id=ANN, text="pass")
    assert receipt.resolves_now
    assert await _resolve_due(table, game.id) == [1]
    after = await table.service.get_game(game.id)
    assert after.update_no == 2 and after.deadline_at == table.clock.now + timedelta(hours=12)


async def test_a_skipped_turn_resolves_at_once_and_is_posted_as_one_line(table):
    game = await _territory(table)
    await table.service.submit_order(game.id, user_id=ANN, text="pass")
    await _resolve_due(table, game.id)
    await table.service.submit_order(game.id, user_id=BOB, text="pass")
    assert await _resolve_due(table, game.id) == [2, 3]         # turn 3 (Green) has no controller: skipped
    game = await table.service.get_game(game.id)
    assert game.update_no == 4 and game.deadline_at > table.clock.now
    posts = [p for p in await table.posts(game.id) if p.update_no == 3]
    assert [(p.kind, p.body) for p in posts] == [("report", "Turn 3 is Green's, which nobody controls: it is skipped.")]


async def test_the_player_who_is_not_active_may_only_resign(table):
    game = await _territory(table)
    await table.refused(table.service.submit_order(game.id, user_id=BOB, text="pass"), OrderRefused,
                        "not your turn", "only `resign` is accepted from you (T25)")
    receipt = await table.service.submit_order(game.id, user_id=BOB, text="resign")
    assert receipt.resolves_now
    await _resolve_due(table, game.id)
    ended = await table.service.get_game(game.id)
    assert ended.status == "ended"
    assert any("Ann wins" in p.body for p in await table.posts(game.id) if p.kind == "announcement")


async def test_an_order_by_direct_message_is_shown_in_the_channel(table):
    game = await _territory(table)
    receipt = await table.service.submit_order(game.id, user_id=ANN, text="pass", source="dm")
    assert not receipt.secret
    notices = [p.body for p in await table.posts(game.id) if p.kind == "notice"]
    assert notices == ["Ann plays `pass` (sent by direct message)."]


async def test_an_order_from_the_web_board_is_shown_in_the_channel_as_sent_from_the_web(table):
    game = await _territory(table)
    token = (await table.service.player_link(game.id, user_id=ANN)).token
    receipt = await table.service.web_submit(game.id, token, "pass")
    assert not receipt.secret
    notices = [p.body for p in await table.posts(game.id) if p.kind == "notice"]
    assert notices == ["Ann plays `pass` (sent from the web board)."]      # not "by direct message"


async def test_turn_hours_replace_the_schedule_and_belong_to_turn_based_games(table):
    await table.refused(table.service.create_game(guild_id=1, channel_id=10, actor=MODERATOR, ruleset="territory",
                                                  schedule="every 2 hours"),
                        InvalidInput, "gives each turn its own time", "turn_hours")
    await table.refused(table.service.create_game(guild_id=1, channel_id=10, actor=MODERATOR, ruleset="neisg",
                                                  settings={"turn_hours": 5}),
                        InvalidInput, "turn_hours does not apply")
    game = await _territory(table)
    assert table.service.schedule(game).describe() == "every 24 hours"      # the default turn
    changed = await table.service.configure(game.id, actor=MODERATOR, settings={"turn_hours": 2})
    assert table.service.schedule(changed).describe() == "every 2 hours"
    await table.refused(table.service.configure(game.id, actor=MODERATOR, schedule="every 1 hour"), InvalidInput,
                        "gives each turn its own time")


async def test_a_turn_is_posted_and_shown_with_territory_s_own_picture(table):
    """Issue 24 item 2: the board post after a turn, /board and /history draw the territory picture
    (areas, cycle, reserves, the turn's action), not the plain board."""
    from bot.engine.report import Report
    from bot.render.paint.territory import render_territory

    game = await _territory(table)
    await table.service.submit_order(game.id, user_id=ANN, text="pass")
    await _resolve_due(table, game.id)
    entry = await table.service.history(game.id, 1)
    ruleset = table.service.ruleset(await table.service.get_game(game.id))
    expected = render_territory(ruleset, entry.state, report=entry.report).png
    [board] = [p for p in await table.posts(game.id) if p.kind == "board" and p.update_no == 1]
    assert board.attachment == expected
    shown = await table.service.board_picture(game.id)
    assert shown.png == render_territory(ruleset, entry.state, report=Report.from_json(entry.report.to_json())).png
    assert "turn 2" in shown.caption
    picture, _ = await table.service.history_picture(game.id, 1)
    assert picture.png == expected


async def test_move_suggests_placements_of_the_reserve_and_drafts_as_it_is_typed(table):
    """Issue 24 item 3: autocomplete offers the kinds in the player's reserve for placements and the
    draft area's kinds for drafts, each an order the check accepts; nothing for the player who waits."""
    game = await _territory(table)
    service = table.service
    state = (await service.history(game.id, 0)).state
    reserve = sorted(set(state.territory.reserve("Ann")))
    placed = await service.order_suggestions(game.id, user_id=ANN, typed="+")
    assert placed and all(s.value.startswith("+") for s in placed)
    assert {s.value[1:].split("(")[0] for s in placed} <= set(reserve)
    for suggestion in placed[:5]:
        assert (await service.check(game.id, user_id=ANN, text=suggestion.value)).ok
    kind = reserve[0]
    narrowed = await service.order_suggestions(game.id, user_id=ANN, typed=f"+{kind}(")
    assert narrowed and all(s.value.startswith(f"+{kind}(") for s in narrowed)
    drafts = await service.order_suggestions(game.id, user_id=ANN, typed="draft")
    assert drafts and all(s.value.startswith("draft ") and "reserve" in s.label for s in drafts)
    waiting = await service.order_suggestions(game.id, user_id=BOB, typed="+")
    assert all(s.label.startswith("Refused") and "not your turn" in s.label for s in waiting)


async def test_the_start_names_the_colours_the_game_plays(table):
    """P68: the first seated plays Red and the second Blue, whatever colour they chose at /join."""
    service = table.service
    game = await service.create_game(guild_id=1, channel_id=10, actor=MODERATOR, ruleset="territory", seed=3)
    await service.join(game.id, user_id=ANN, name="Ann", colour="Crimson")
    await service.join(game.id, user_id=BOB, name="Bob", colour="Red")
    await service.start_game(game.id, actor=MODERATOR)
    started = [p.body for p in await table.posts(game.id) if p.kind == "announcement"][-1]
    assert "Seats: Ann (Red), Bob (Blue)." in started
