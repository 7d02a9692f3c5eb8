"""Timelapse GIFs: one frame per state, one region for all, the update on each, within the limits."""

from __future__ import annotations

from fractions import Fraction
from io import BytesIO

import pytest
from PIL import Image, ImageChops

from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.state import GameState
from bot.render.paint import timelapse
from bot.render.palette import colour_names, player_rgb
from bot.render.paint.timelapse import BANNER_HEIGHT, render_timelapse
from bot.render.scene.timelapse import frame_label, timelapse_region


@pytest.fixture(scope="module")
def neisg():
    return load_preset("neisg")


def _states(ruleset, count: int, spread: int = 1):
    """A knight walking away from two kings, one state per update."""
    players = [Player("Red", "Red", Fraction(10)), Player("Blue", "Blue", Fraction(10))]
    states = []
    for update in range(1, count + 1):
        pieces = [dict(kind="K", owner="Red", square=(0, 0)), dict(kind="K", owner="Blue", square=(6, 6)),
                  dict(kind="N", owner="Red", square=(spread * (update - 1), 2 * (update - 1) % 5 + 1))]
        states.append(GameState.build(ruleset, pieces, [Player(p.name, p.colour, p.balance) for p in players],
                                      update=update))
    return states


def _frames(data: bytes) -> list[Image.Image]:
    gif = Image.open(BytesIO(data))
    assert gif.format == "GIF"
    frames = []
    for index in range(gif.n_frames):
        gif.seek(index)
        frames.append(gif.convert("RGB"))
    return frames


def test_one_frame_per_state_with_its_update(neisg):
    states = _states(neisg, 6)
    data = render_timelapse(neisg, states)
    frames = _frames(data)
    assert len(frames) == len(states)
    assert len({frame.size for frame in frames}) == 1
    assert [frame_label(s) for s in states] == ["before update 1"] + [f"after update {n}" for n in range(1, 6)]
    # the banners differ from frame to frame (the update's number), even where the board does not
    banners = [f.crop((0, 0, f.width, BANNER_HEIGHT)) for f in frames]
    assert all(ImageChops.difference(a, b).getbbox() for a, b in zip(banners, banners[1:]))


def test_common_region_is_the_union_of_occupied_areas(neisg):
    states = _states(neisg, 5, spread=3)       # the knight walks to x = 12
    assert timelapse_region(states) == (-2, -2, 14, 8)
    assert timelapse_region(states, margin=0) == (0, -1, 12, 7)     # at least 9 x 9
    assert timelapse_region([GameState.build(neisg, [], [])]) is None


def test_identical_states_keep_their_frames(neisg):
    state = _states(neisg, 1)[0]
    assert len(_frames(render_timelapse(neisg, [state, state, state]))) == 3


def test_size_limits_hold(neisg, monkeypatch):
    states = _states(neisg, 8, spread=4)
    data = render_timelapse(neisg, states)
    frames = _frames(data)
    assert len(data) <= 8 * 1024 * 1024
    assert len(frames) == 8 and max(frames[0].size) <= 4096
    # a tight byte budget scales the frames down instead of dropping any
    monkeypatch.setattr(timelapse, "MAX_BYTES", len(data) // 3)
    small = render_timelapse(neisg, states)
    assert len(small) <= len(data) // 3
    small_frames = _frames(small)
    assert len(small_frames) == 8 and small_frames[0].height < frames[0].height


def test_no_states_is_an_error(neisg):
    with pytest.raises(ValueError):
        render_timelapse(neisg, [])


@pytest.mark.parametrize("palette", ["default", "colourblind"])
def test_every_players_colour_stays_true_in_the_gif(neisg, palette):
    """Issue 27: the GIF's 256 colours hold each player's colour exactly, also with every colour of
    the file in play and the frame scaled down (a palette made by median cut alone moved them all,
    neighbours' colours together)."""
    names = colour_names()
    players = [Player(f"P{index:02d}", name) for index, name in enumerate(names)]
    kinds = ["K", "Q", "R", "N", "B", "P"]
    pieces = [dict(owner=f"P{index:02d}", kind=kind, square=(index % 8 * 3 + k % 3, index // 8 * 3 + k // 3))
              for index in range(len(names)) for k, kind in enumerate(kinds)]
    states = [GameState.build(neisg, pieces, players, update=update) for update in (1, 2)]
    frames = _frames(render_timelapse(neisg, states, palette=palette))
    assert frames[0].width <= timelapse.TARGET_WIDTH + 1     # scaled down: 37 armies make a wide board
    for frame in frames:
        shown = {colour for _, colour in frame.getcolors(frame.width * frame.height)}
        assert [name for name in names if player_rgb(name, palette)[0] not in shown] == []


def test_each_frames_banner_is_decided_in_the_scene():
    """The banner's words, read without pixels: the update capitalised, then the frame's number
    with the game's title, and the shorter forms a narrow frame falls back on."""
    from bot.render.scene.timelapse import banners

    first, last = banners("NEISG", ["before update 1", "after update 2"])
    assert first.heading == "Before update 1" and last.heading == "After update 2" == last.short_heading
    assert first.counters == ("NEISG · frame 1/2", "frame 1/2", "1/2")
    assert last.counters[0] == "NEISG · frame 2/2"


def test_a_thinned_frames_banner_fits_the_narrowest_frame():
    """Issue 39: the service thins a long game and says so on every frame ("after update 480 · 1 in
    16"); at the narrowest frame (360 pixels) the bold heading ran off the banner's edge. It is
    written smaller, and where even that does not fit, as the update alone."""
    from bot.render.paint.sprites import bold_font
    from bot.render.paint.timelapse import BANNER_MARGIN, MIN_FRAME_WIDTH, SMALLEST_HEADING, _banner, banner_heading
    from bot.render.scene.timelapse import banners

    thinned, huge = banners("Never-Ending Infinite Sandbox Game",
                            ["after update 4800 · 1 in 160", "after update 123456789 · 1 in 1234567"])
    assert thinned.short_heading == "After update 4800" and huge.short_heading == "After update 123456789"
    text, size = banner_heading(MIN_FRAME_WIDTH, thinned)
    assert text == "After update 4800 · 1 in 160" and SMALLEST_HEADING <= size < 26
    assert bold_font(size).getlength(text) <= MIN_FRAME_WIDTH - 2 * BANNER_MARGIN
    assert banner_heading(MIN_FRAME_WIDTH, huge)[0] == "After update 123456789"
    assert banner_heading(1200, thinned) == ("After update 4800 · 1 in 160", 26)    # a wide frame: full size
    for banner in (thinned, huge):
        image = _banner(MIN_FRAME_WIDTH, banner)
        edge = image.crop((MIN_FRAME_WIDTH - BANNER_MARGIN + 2, 0, MIN_FRAME_WIDTH, BANNER_HEIGHT))
        assert len(edge.getcolors()) == 1, "nothing runs off the banner's edge"

