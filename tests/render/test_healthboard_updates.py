"""Issue 25: the health boards of one game, update after update, drawn by a process that keeps what
it drew (each word's coverage, the widths), are the boards the plain path draws.

The plain path here: every text drawn and measured by Pillow itself (``ImageDraw.text``,
``getlength``). The game's rows keep their names and colours while
their ranks, amounts, kings and notes change, as a game's do from one update to the next; both
palettes, a caller's outline, an endless game showing its top rows and the caller's, energy and
points, a store of words too small for one board.
"""

from __future__ import annotations

import random
from fractions import Fraction
from io import BytesIO

import pytest
from PIL import Image

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
    """The board drawn the plain way: Pillow's own text and lengths."""
    with monkeypatch.context() as m:
        m.setattr(healthboard, "draw_text",
                  lambda draw, xy, text, font, fill: draw.text(xy, text, font=font, fill=fill))
        m.setattr(healthboard, "_stamp", lambda draw, xy, text, size, bold, fill, inks=None: draw.text(
            xy, text, font=healthboard._font(size, bold), fill=fill))
        m.setattr(healthboard, "_width",
                  lambda text, size, bold=False: round(healthboard._font(size, bold).getlength(text)))
        return render_health_board(panel, state, **options).png


def _pixels(png: bytes) -> bytes:
    image = Image.open(BytesIO(png))
    return image.mode.encode() + bytes(str(image.size), "ascii") + image.convert("RGB").tobytes()


@pytest.mark.parametrize("preset, players", [("neisg", 130), ("neisg", 330), ("sandbox", 60), ("megachess", 70)])
def test_a_games_boards_update_after_update_are_the_plain_paths(preset, players, monkeypatch):
    ruleset = load_preset(preset)
    variant = variant_for(ruleset)
    for number, state in enumerate(_states(ruleset, players, 3, seed=players)):
        panel = variant.standings_panel(state)
        caller = panel.rows[(number * 37 + 25) % len(panel.rows)].standing.name
        for options in (dict(), dict(palette="colourblind"), dict(caller=caller)):
            options["game_title"] = variant.title
            kept = render_health_board(panel, state, **options).png
            assert _pixels(kept) == _pixels(_plain(monkeypatch, panel, state, **options)), (number, options)


def test_the_png_without_the_layout_is_the_boards_png():
    ruleset = load_preset("neisg")
    variant = variant_for(ruleset)
    for state in _states(ruleset, 90, 2, seed=9):
        panel = variant.standings_panel(state)
        for palette in ("default", "colourblind"):
            assert _pixels(healthboard.health_board_png(panel, state, game_title=variant.title, palette=palette)) \
                == _pixels(render_health_board(panel, state, game_title=variant.title, palette=palette).png)


def test_a_store_of_words_let_go_within_a_board_changes_no_pixel(monkeypatch):
    monkeypatch.setattr(glyphs, "MAX_WORDS", 40)
    ruleset = load_preset("neisg")
    variant = variant_for(ruleset)
    for state in _states(ruleset, 150, 2, seed=5):
        panel = variant.standings_panel(state)
        kept = render_health_board(panel, state, game_title=variant.title).png
        assert _pixels(kept) == _pixels(_plain(monkeypatch, panel, state, game_title=variant.title))
    assert all(len(face.words) <= 40 for face in map(glyphs._face, (healthboard._font(20), healthboard._font(20, True))))


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
