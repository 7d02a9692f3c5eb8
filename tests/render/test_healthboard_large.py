"""A large health board (issue 25): drawn fast, and still exactly the picture it was.

The board of 1,000 rows is drawn with its repeated parts made once (the hearts, the short texts
of a row, the widths), the scales at which it cannot fit passed over without measuring its rows,
and a picture above two million pixels saved at zlib's fastest level. None of this may change a
pixel, and the same input still gives the same bytes.
"""

from __future__ import annotations

from fractions import Fraction
from io import BytesIO

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.standings import health_board_lines
from bot.engine.state import GameState
from bot.engine.variants import variant_for
from bot.render.paint import health as healthboard
from bot.render.paint.health import MAX_SIDE, SCALES, SMALLEST_UP_TO, render_health_board
from bot.render.scene.health import bar_fraction, health_scene

COLOURS = ["Red", "Blue", "Green/Gold", "Teal", "Crimson/Yellow", "Purple", "Orange", "Lime/Amber"]


@pytest.fixture(scope="module")
def neisg():
    return load_preset("neisg")


def _state(ruleset, players: int, update: int = 5) -> GameState:
    names = [f"Player{i:04d}" for i in range(players)]
    roster = [Player(n, COLOURS[i % len(COLOURS)], Fraction(i % 53, 1 + i % 3), Fraction(i % 7),
                     king_lost_at=3 if i % 11 == 0 else None) for i, n in enumerate(names)]
    pieces = [dict(kind="K", owner=n, square=(i * 3, 0)) for i, n in enumerate(names) if i % 11]
    pieces += [dict(kind="Q", owner=n, square=(i * 3, 1)) for i, n in enumerate(names) if i % 4 == 0]
    return GameState.build(ruleset, pieces, roster, update=update)


def _render(ruleset, state, **options):
    variant = variant_for(ruleset)
    return render_health_board(variant.standings_panel(state), state, game_title=variant.title, **options)


def _pixels(png: bytes) -> Image.Image:
    return Image.open(BytesIO(png)).convert("RGB")


@pytest.fixture(scope="module")
def large(neisg):
    state = _state(neisg, 1000)
    return state, _render(neisg, state)


def test_a_board_of_1000_rows_is_a_png_of_every_row_within_the_size_limit(neisg, large):
    state, rendered = large
    image = Image.open(BytesIO(rendered.png))
    assert image.format == "PNG" and image.mode == "RGB"
    assert image.size == (rendered.width, rendered.height)
    assert rendered.width <= MAX_SIDE and rendered.height <= MAX_SIDE
    assert rendered.width * rendered.height > SMALLEST_UP_TO        # the fast level's case
    assert rendered.layout.lines == health_board_lines(neisg, state)
    assert len(rendered.png) < 10 * 1024 * 1024                    # Discord's upload limit


def test_the_same_board_gives_the_same_bytes_whatever_was_drawn_before(neisg, large):
    """The caches (hearts, texts, widths) are keyed by what they draw: another board drawn in
    between (other sizes, other numbers) changes nothing."""
    state, rendered = large
    _render(neisg, _state(neisg, 7, update=9), caller="Player0003")
    _render(neisg, _state(neisg, 300, update=2), palette="colourblind")
    assert _render(neisg, state).png == rendered.png


def test_the_fast_level_changes_no_pixel(large):
    """The big board's PNG holds exactly the pixels the smallest PNG would."""
    _, rendered = large
    image = _pixels(rendered.png)
    smallest = BytesIO()
    image.save(smallest, format="PNG", optimize=True)
    assert len(smallest.getvalue()) < len(rendered.png)
    assert ImageChops.difference(_pixels(smallest.getvalue()), image).getbbox() is None


@pytest.mark.parametrize("text", ["0", "+1", "12", "11/2", "−3", "No King", "+1 (no king)", "Wj", "ÄÖ ★ 49"])
@pytest.mark.parametrize("size", [8, 10, 17, 20])
@pytest.mark.parametrize("bold", [False, True])
def test_a_stamped_text_is_the_text_pillow_draws(text, size, bold):
    """A short text of a row drawn from its cached coverage has exactly the pixels ImageDraw.text gives
    it, on a shaded row, in any colour."""
    drawn = Image.new("RGB", (140, 50), (238, 234, 226))
    stamped = drawn.copy()
    font = healthboard._font(size, bold)
    for x, y, fill in ((3, 2, (20, 20, 24)), (41, 17, (180, 20, 30))):
        ImageDraw.Draw(drawn).text((x, y), text, font=font, fill=fill)
        healthboard._stamp(ImageDraw.Draw(stamped), (x, y), text, size, bold, fill)
    assert ImageChops.difference(drawn, stamped).getbbox() is None


@pytest.mark.parametrize("players", [0, 1, 40, 150, 400, 1000, 2500])
def test_a_scale_passed_over_unmeasured_could_not_have_fitted(neisg, players):
    """Leaving the rows unmeasured only makes the layout smaller, so a scale at which even that
    does not fit is one the measured layout would not fit either: the scale chosen is the one
    trying every scale in turn chooses."""
    state = _state(neisg, players)
    scene = health_scene(variant_for(neisg).standings_panel(state), state, game_title="t")
    chosen = None
    for scale in SCALES:
        rough = healthboard._plan(scene, scale, measured=False)
        exact = healthboard._plan(scene, scale)
        assert rough["width"] <= exact["width"] and rough["height"] <= exact["height"]
        if chosen is None and healthboard._fits(exact):
            chosen = scale
    assert _render(neisg, state).layout.scale == (chosen or SCALES[-1])


def test_a_bar_s_fraction_from_whole_numbers_is_the_fraction_s_float():
    """The bar's length is worked out from numerators and denominators: the float the Fractions give."""
    import random

    rng = random.Random(12)
    values = [Fraction(rng.randint(-50, 3_000), rng.choice([1, 1, 2, 3, 7])) for _ in range(400)]
    values += [Fraction(0), Fraction(1, 2), Fraction(-1, 2), Fraction(10**30 + 1, 3)]
    for best in [Fraction(1), Fraction(7, 2), Fraction(2_999, 3), max(values)] + values[:40]:
        if best < 1:
            continue
        for balance in values:
            plain = min(1.0, float(balance / best)) if balance > 0 else 0.0
            assert bar_fraction(balance, best.numerator, best.denominator) == plain, (balance, best)
