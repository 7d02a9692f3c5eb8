"""The timelapse of an ended game: made after the commit, off the event loop, from frames kept as
each update resolved; the same GIF as drawing every position at the end; never lost, never twice."""

from __future__ import annotations

import asyncio
import io
import random
import threading

import pytest
from PIL import Image

from bot.engine import serialize
from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.state import GameState
from bot.render.paint.timelapse import assemble_timelapse, render_frame, render_timelapse
from bot.render.scene.timelapse import frame_label, timelapse_region
from bot.service.posts import timelapse_body
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


# ----------------------------------------------------------------------------- size (issue 39)
#: Discord refuses an attachment over 10 MB.
DISCORD_LIMIT = 10 * 1024 * 1024


def test_positions_are_thinned_to_the_byte_budget_and_the_frame_count():
    assert timelapses.thinned(21, 1) == list(range(21))
    assert timelapses.thinned(10, 4) == [0, 4, 8, 9]                        # the end is always shown
    assert timelapses.frames_step(21, 480_000) == 1                         # the demo's 20 megachess updates
    for positions in (61, 501):                                             # 480 KB frames: megachess's
        step = timelapses.frames_step(positions, 480_000)
        shown = timelapses.thinned(positions, step)
        assert len(shown) * 480_000 <= timelapses.FRAME_BUDGET and step > 1
        assert timelapses.frames_step(positions, 480_000) == step
        assert len(timelapses.thinned(positions, step - 1)) * 480_000 > timelapses.FRAME_BUDGET   # no thinner
    assert len(timelapses.thinned(501, timelapses.frames_step(501, 1_000))) <= timelapses.MOST_FRAMES
    assert timelapses.frames_step(2, 10 ** 9) == 1                          # the start and the end, whatever
    assert "one frame every 16 updates" in timelapse_body(501, 16) and "(500 updates)" in timelapse_body(501, 16)


def _walk(ruleset, updates: int) -> list[GameState]:
    """A generated game on a small board: each update one of two players' sixteen pieces takes a
    random king's step (the positions after each update; a test draws only the ones shown)."""
    rng = random.Random(39)
    places = [(x, y) for x in range(-4, 5) for y in range(-4, 5)]
    at = dict(zip(range(16), rng.sample(places, 16)))
    kinds = [(("Ann" if i < 8 else "Bob"), "KQRBNPPP"[i % 8]) for i in range(16)]
    states = []
    for update in range(1, updates + 2):
        pieces = [dict(owner=owner, kind=kind, square=at[i]) for i, (owner, kind) in enumerate(kinds)]
        states.append(GameState.build(ruleset, pieces, [Player("Ann", "Red"), Player("Bob", "Blue")], update=update))
        mover = rng.randrange(16)
        x, y = at[mover]
        free = [s for s in places if s not in at.values() and max(abs(s[0] - x), abs(s[1] - y)) == 1]
        if free:
            at[mover] = rng.choice(free)
    return states


@pytest.mark.parametrize("updates", [60, 500])
def test_a_timelapse_of_60_or_500_updates_stays_under_discord_s_10_mb(updates):
    ruleset = load_preset("neisg")
    states = _walk(ruleset, updates)
    region = timelapse_region(states)
    last = render_frame(ruleset, states[-1], region)              # what the service weighs a frame by
    step = timelapses.frames_step(len(states), len(last))
    shown = timelapses.thinned(len(states), step)
    labels = [timelapses.thinned_label(frame_label(states[i]), step) for i in shown]
    gif = assemble_timelapse(ruleset.title, labels, [render_frame(ruleset, states[i], region) for i in shown])
    assert len(gif) < DISCORD_LIMIT
    with Image.open(io.BytesIO(gif)) as image:
        assert image.n_frames == len(shown) <= timelapses.MOST_FRAMES
    if updates == 500:
        assert step > 1 and shown[-1] == 500 and labels[-1] == f"after update 500 · 1 in {step}"


async def test_a_long_game_s_timelapse_says_it_is_thinned(table, monkeypatch):
    monkeypatch.setattr(timelapses, "MOST_FRAMES", 3)
    game = await table.playing_game()
    await play(table, game, 5)                                   # 7 positions: the start and 6 updates
    labels = []
    real = timelapses.assemble_timelapse
    monkeypatch.setattr(timelapses, "assemble_timelapse", lambda title, shown, pngs: labels.extend(shown) or
                        real(title, shown, pngs))
    await table.service.end_game(game.id, actor=MOD)
    [post] = await timelapse_posts(table, game.id)
    assert labels == ["before update 1 · 1 in 3", "after update 3 · 1 in 3", "after update 6 · 1 in 3"]
    assert "one frame every 3 updates" in post.body and "(6 updates)" in post.body
    with Image.open(io.BytesIO(post.attachment)) as image:
        assert image.n_frames == 3
