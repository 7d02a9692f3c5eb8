"""Issue 25: the health boards of one game, update after update, drawn by a process that keeps what
it drew (each word's coverage, the widths, the picture itself: the render pool's worker), are the
boards the plain path draws.

The plain path here: every text drawn and measured by Pillow itself (``ImageDraw.text``,
``getlength``), on a picture made for each board. The game's rows keep their names and colours while
their ranks, amounts, kings and notes change, as a game's do from one update to the next; both
palettes, a caller's outline, an endless game showing its top rows and the caller's, energy and
points, a store of words too small for one board.
"""

from __future__ import annotations

import random
from fractions import Fraction
from io import BytesIO

import pytest
from PIL import Image, ImageDraw

from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.state import GameState
from bot.engine.variants import variant_for
from bot.render.paint import glyphs
from bot.render.paint import health as healthboard
from bot.render.paint.health import render_health_board
from bot.render.scene.health import health_scene

COLOURS = ["Red", "Blue/Coral", "Green/Gold", "Teal", "Crimson/Yellow", "Purple", "Mint/Fuchsia", "Lime/Amber",
           "Navy", "White"]


def _states(ruleset, players: int, updates: int, seed: int) -> list[GameState]:
    """``updates`` positions of one game: the same players and colours, other amounts and kings."""
    rng = random.Random(seed)
    names = [f"P{rng.randrange(10000):04d}{'x' * (i % 3)}" for i in range(players)]
    states = []
    for update in range(4, 4 + updates):
        roster = [Player(n, COLOURS[i % len(COLOURS)], Fraction(rng.randrange(0, 120), rng.choice((1, 1, 2))),
                         Fraction(rng.randrange(0, 40)), king_lost_at=2 if rng.random() < 0.1 else None)
                  for i, n in enumerate(names)]
        pieces = [dict(kind="K", owner=n, square=(i * 3, 0)) for i, n in enumerate(names) if rng.random() < 0.9]
        pieces += [dict(kind=rng.choice("QRBN"), owner=n, square=(i * 3, 1 + k)) for i, n in enumerate(names)
                   for k in range(rng.randrange(4))]
        states.append(GameState.build(ruleset, pieces, roster, update=update))
    return states


def _plain(monkeypatch, panel, state, **options) -> bytes:
    """The board drawn the plain way: Pillow's own text and lengths, a new picture."""
    with monkeypatch.context() as m:
        m.setattr(healthboard, "draw_text",
                  lambda draw, xy, text, font, fill: draw.text(xy, text, font=font, fill=fill))
        m.setattr(healthboard, "_stamp", lambda draw, xy, text, size, bold, fill, inks=None: draw.text(
            xy, text, font=healthboard._font(size, bold), fill=fill))
        m.setattr(healthboard, "_width",
                  lambda text, size, bold=False: round(healthboard._font(size, bold).getlength(text)))
        m.setattr(healthboard, "_canvas", lambda size: Image.new("RGB", size, healthboard.BACKGROUND))
        return render_health_board(panel, state, **options).png


def _pixels(png: bytes) -> bytes:
    image = Image.open(BytesIO(png))
    return image.mode.encode() + bytes(str(image.size), "ascii") + image.convert("RGB").tobytes()


@pytest.fixture
def keeping(monkeypatch):
    """This process keeps each board's picture for the next, as the pool's worker does."""
    monkeypatch.setattr(healthboard, "_keeping", True)
    monkeypatch.setattr(healthboard, "_kept", [])


@pytest.mark.parametrize("preset, players", [("neisg", 130), ("neisg", 330), ("sandbox", 60), ("megachess", 70)])
def test_a_games_boards_update_after_update_are_the_plain_paths(preset, players, keeping, monkeypatch):
    ruleset = load_preset(preset)
    variant = variant_for(ruleset)
    for number, state in enumerate(_states(ruleset, players, 3, seed=players)):
        panel = variant.standings_panel(state)
        caller = panel.rows[(number * 37 + 25) % len(panel.rows)].standing.name
        for options in (dict(), dict(palette="colourblind"), dict(caller=caller)):
            options["game_title"] = variant.title
            kept = render_health_board(panel, state, **options).png
            assert _pixels(kept) == _pixels(_plain(monkeypatch, panel, state, **options)), (number, options)
    assert healthboard._kept, "the picture was kept for the next board"


def test_the_png_without_the_layout_is_the_boards_png():
    ruleset = load_preset("neisg")
    variant = variant_for(ruleset)
    for state in _states(ruleset, 90, 2, seed=9):
        panel = variant.standings_panel(state)
        for palette in ("default", "colourblind"):
            assert _pixels(healthboard.health_board_png(panel, state, game_title=variant.title, palette=palette)) \
                == _pixels(render_health_board(panel, state, game_title=variant.title, palette=palette).png)


def test_a_store_of_words_let_go_within_a_board_changes_no_pixel(keeping, monkeypatch):
    monkeypatch.setattr(glyphs, "MAX_WORDS", 40)
    ruleset = load_preset("neisg")
    variant = variant_for(ruleset)
    for state in _states(ruleset, 150, 2, seed=5):
        panel = variant.standings_panel(state)
        kept = render_health_board(panel, state, game_title=variant.title).png
        assert _pixels(kept) == _pixels(_plain(monkeypatch, panel, state, game_title=variant.title))
    assert all(len(face.words) <= 40 for face in map(glyphs._face, (healthboard._font(20), healthboard._font(20, True))))


def test_a_kept_picture_of_another_size_or_still_in_use_is_not_drawn_on(keeping):
    """Boards of other sizes in turn, and a board drawn while another holds the kept picture (a
    second thread), are each the board drawn on a new picture."""
    ruleset = load_preset("neisg")
    variant = variant_for(ruleset)
    states = [_states(ruleset, players, 1, seed=players)[0] for players in (30, 260, 30, 30)]
    expected = []
    for state in states:
        healthboard._kept.clear()
        expected.append(render_health_board(variant.standings_panel(state), state, game_title=variant.title).png)
    healthboard._kept.clear()
    for state, png in zip(states, expected):
        drawn = render_health_board(variant.standings_panel(state), state, game_title=variant.title).png
        assert _pixels(drawn) == _pixels(png)
    held = healthboard._canvas(Image.open(BytesIO(expected[-1])).size)      # taken, as a board being drawn
    ImageDraw.Draw(held).rectangle((0, 0, 50, 50), fill=(1, 2, 3))
    assert not healthboard._kept
    drawn = render_health_board(variant.standings_panel(states[-1]), states[-1], game_title=variant.title).png
    assert _pixels(drawn) == _pixels(expected[-1])
    assert healthboard._kept and healthboard._kept[-1] is not held


@pytest.mark.parametrize("players", [1, 40, 300, 1000])
def test_a_scale_passed_over_by_its_longest_line_could_not_have_fitted(players):
    """The rough layout measures one line, the longest in characters, which may not be the widest
    drawn (narrow "iiii" names against wide "WWW" ones): it is still at most the layout of every
    line, so the scale chosen is the one measuring every scale in turn chooses."""
    ruleset = load_preset("neisg")
    rng = random.Random(players)
    names = [rng.choice(["i" * rng.randrange(8, 24), "W" * rng.randrange(2, 9), f"P{i:04d}"]) + str(i)
             for i in range(players)]
    roster = [Player(n, COLOURS[i % len(COLOURS)], Fraction(rng.randrange(90))) for i, n in enumerate(names)]
    state = GameState.build(ruleset, [dict(kind="K", owner=n, square=(i * 3, 0)) for i, n in enumerate(names)],
                            roster, update=6)
    panel = variant_for(ruleset).standings_panel(state)
    scene = health_scene(panel, state, game_title="t")
    chosen = None
    for scale in healthboard.SCALES:
        rough = healthboard._plan(scene, scale, measured=False)
        exact = healthboard._plan(scene, scale)
        assert rough["width"] <= exact["width"] and rough["height"] <= exact["height"], scale
        if chosen is None and healthboard._fits(exact):
            chosen = scale
    assert render_health_board(panel, state, game_title="t").layout.scale == (chosen or healthboard.SCALES[-1])
