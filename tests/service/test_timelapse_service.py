"""The timelapse of an ended game: made after the commit, off the event loop, from frames kept as
each update resolved; the same GIF as drawing every position at the end; never lost, never twice."""

from __future__ import annotations

import asyncio
import threading

from bot.engine import serialize
from bot.render.paint.timelapse import render_timelapse
from bot.service import Moderator, Service
from bot.service import timelapses

MOD = Moderator(user_id=99, guild_id=1)
ALICE, BOB = 1, 2


async def play(table, game, moves: int, start: int = 0):
    """``moves`` updates in which Alice's king walks up from (0, start) (and Bob's stays)."""
    for step in range(start, start + moves):
        await table.service.submit_order(game.id, user_id=ALICE, text=f"K(0,{step})-(0,{step + 1})")
        assert (await table.resolve(game.id)).resolved


async def timelapse_posts(table, game_id):
    return [p for p in await table.posts(game_id) if p.kind == "timelapse"]


async def test_the_gif_made_from_kept_frames_is_the_gif_of_every_position(table):
    game = await table.playing_game()
    await play(table, game, 3)
    await table.service.place_piece(game.id, actor=MOD, kind="R", square="(30,30)", owner="Bob")   # spreads
    frames = table.rows("SELECT update_no, revision FROM timelapse_frames WHERE game_id = ?", (game.id,))
    assert sorted(frames) == [(1, 0), (2, 0), (3, 0), (4, 0)]           # one per resolved update
    await table.service.end_game(game.id, actor=MOD)
    [post] = await timelapse_posts(table, game.id)
    latest = {}
    for snapshot in await table.snapshots(game.id, include_rolled_back=False):
        latest[snapshot.update_no] = snapshot
    states = [serialize.loads(s.state) for s in latest.values()]
    game = await table.service.get_game(game.id)
    assert post.attachment == render_timelapse(table.service.ruleset(game), states)
    assert "(4 updates)" in post.body


async def test_a_crash_before_the_gif_is_made_loses_nothing_and_posts_it_once(table, monkeypatch):
    game = await table.playing_game(settings={"length": 3})
    await play(table, game, 1)

    async def killed(self, game_id):          # the process dies after the commit, before the GIF
        return None

    monkeypatch.setattr(timelapses.TimelapseCases, "make_timelapse", killed)
    await play(table, game, 1, start=1)       # the last update: the game ends
    assert (await table.service.get_game(game.id)).status == "ended"
    assert await timelapse_posts(table, game.id) == []
    assert table.rows("SELECT update_no, post_id FROM timelapses") == [(3, None)]    # owed
    monkeypatch.undo()

    restarted = Service(table.store, clock=table.clock)
    await restarted.recover()
    [post] = await timelapse_posts(table, game.id)
    assert post.attachment[:4] == b"GIF8" and post.update_no == 3
    await restarted.recover()                 # again, and from the other process: still once
    assert await table.service.make_timelapse(game.id) is None
    assert [p.id for p in await timelapse_posts(table, game.id)] == [post.id]
    assert table.rows("SELECT post_id FROM timelapses") == [(post.id,)]


async def test_another_games_orders_go_through_while_the_gif_is_being_made(table, monkeypatch):
    big = await table.playing_game()
    await play(table, big, 2)
    other = await table.playing_game(channel_id=11, players=[(3, "Cleo", "Green", (0, 0)), (4, "Dan", "Yellow", (9, 0))])
    drawing, release = threading.Event(), threading.Event()
    assemble = timelapses.assemble_timelapse

    def slow_assemble(*args):
        drawing.set()
        assert release.wait(10), "the test never released the timelapse"
        return assemble(*args)

    monkeypatch.setattr(timelapses, "assemble_timelapse", slow_assemble)
    ending = asyncio.create_task(table.service.end_game(big.id, actor=MOD))
    while not drawing.is_set():
        await asyncio.sleep(0.01)
    # the GIF is being made: the game has ended, and the database and the event loop are free
    assert (await table.service.get_game(big.id)).status == "ended"
    receipt = await asyncio.wait_for(table.service.submit_order(other.id, user_id=3, text="K(0,0)-(0,1)"), 5)
    assert receipt.canonical == "K(0,0)-(0,1)"
    release.set()
    await ending
    assert len(await timelapse_posts(table, big.id)) == 1


async def test_a_game_ended_before_any_update_owes_no_timelapse(table):
    game = await table.new_game()
    await table.service.end_game(game.id, actor=MOD)
    assert await timelapse_posts(table, game.id) == []
    assert table.rows("SELECT post_id FROM timelapses") == []


async def test_an_updates_frame_placed_before_its_pictures_are_collected_is_the_frame_placed_after(table):
    """prepare_update works out the frame's box and region (frame_place) while the pictures are drawn,
    and hands them to update_frame: the same frame as update_frame working them out itself, whether
    the board's picture is the frame (the same region) or the frame is drawn again (a region grown)."""
    from bot.render.board import paint_board
    from bot.render.scene.timelapse import region_of, state_extent

    game = await table.playing_game()
    await play(table, game, 2)
    await table.service.place_piece(game.id, actor=MOD, kind="R", square="(30,30)", owner="Bob")
    game = await table.service.get_game(game.id)
    ruleset = table.service.ruleset(game)
    states = [(await table.service.history(game.id, n)).state for n in (1, 2)]
    edited = serialize.loads((await table.snapshots(game.id, include_rolled_back=False))[-1].state)
    drawn_again = []
    for state, earlier in ((states[1], [state_extent(states[0])]), (edited, [state_extent(s) for s in states]),
                           (states[1], [state_extent(edited)])):      # a region the position no longer fills
        place = timelapses.frame_place(state, earlier)
        assert place == (state_extent(state), region_of([*earlier, state_extent(state)], state.board.bounds))
        board = paint_board(ruleset, state).encode()
        frame = timelapses.update_frame(ruleset, state, earlier, board, "default", place)
        drawn_again.append(frame.png != board.png)
        assert frame == timelapses.update_frame(ruleset, state, earlier, board)
    assert drawn_again == [False, False, True]       # the board itself twice, then drawn on a wider region
