"""The health board image: the RULES.md lines exactly, ranked, with the kingless line and the events."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.scenario import load_scenario
from bot.engine.standings import health_board_lines, standings
from bot.engine.state import ActiveEvent, GameState
from bot.engine.variants import PanelEvent, PanelRow, StandingsPanel, variant_for
from bot.render.paint.health import NO_KING_RGB, render_health_board
from bot.render.paint.symbols import HEART_RGB, SPARKLE_HEART_RGB
from bot.render.palette import player_rgb

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "neisg"


def _render(ruleset, state, **options):
    """The health board as the service draws it: the variant's standings panel."""
    variant = variant_for(ruleset)
    return render_health_board(variant.standings_panel(state), state, game_title=variant.title, **options)


def _image(rendered) -> Image.Image:
    image = Image.open(BytesIO(rendered.png)).convert("RGB")
    assert image.size == (rendered.width, rendered.height)
    return image


def _centre(box) -> tuple[int, int]:
    return ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)


@pytest.fixture(scope="module")
def neisg():
    return load_preset("neisg")


def _game(ruleset, update=20, events=(), marked=()):
    players = [
        Player("Holo", "Purple", Fraction(19), Fraction(12)),
        Player("Aidan", "Crimson/Yellow", Fraction(12), Fraction(3), king_lost_at=17),
        Player("Zed", "Yellow", Fraction(23, 2), Fraction(0)),
        Player("Mira", "Teal", Fraction(31), Fraction(40)),
        Player("Bea", "Orange", Fraction(5), Fraction(0)),
    ]
    pieces = [
        dict(kind="K", owner="Holo", square=(0, 0)), dict(kind="Q", owner="Holo", square=(1, 0)),
        dict(kind="R", owner="Holo", square=(2, 0)),
        dict(kind="Dr", owner="Aidan", square=(5, 5)),
        dict(kind="S", owner="Zed", square=(7, 7)), dict(kind="K", owner="Zed", square=(8, 8)),
        dict(kind="K", owner="Mira", square=(-5, 5)), dict(kind="An", owner="Mira", square=(-5, 6)),
        dict(kind="K", owner="Bea", square=(-9, -9)), dict(kind="B", owner="Bea", square=(-8, -9)),
    ]
    return GameState.build(ruleset, pieces, players, update=update, events=tuple(events), marked=tuple(marked))


def test_rows_are_the_health_board_lines_exactly(neisg):
    state = _game(neisg)
    rendered = _render(neisg, state)
    assert rendered.layout.lines == health_board_lines(neisg, state)
    assert [row.text for row in rendered.layout.rows] == health_board_lines(neisg, state)
    _image(rendered)


def test_rows_are_ranked_top_to_bottom(neisg):
    state = _game(neisg)
    rows = _render(neisg, state).layout.rows
    table = standings(neisg, state)
    assert [row.name for row in rows] == [s.name for s in table]
    assert [row.rank for row in rows] == list(range(1, len(rows) + 1))
    tops = [row.box[1] for row in rows]
    assert tops == sorted(tops) and len(set(tops)) == len(tops)
    # Mira and Holo both score 20: Mira captured more, so she is first
    assert [r.name for r in rows[:2]] == ["Mira", "Holo"]
    assert rows[0].text == "1. Mira (Teal): 20 --- Health: 31 💖"


def test_kingless_line_and_hearts(neisg):
    state = _game(neisg)
    rendered = _render(neisg, state)
    image = _image(rendered)
    aidan = rendered.layout.row("Aidan")
    assert aidan.text == "3. Aidan (Crimson/Yellow): 17 --- Health: 12 ❤️ +0 Regen, No King"
    assert not aidan.has_king and aidan.symbol == "❤️" and aidan.regen == "+0 (no king)"
    holo = rendered.layout.row("Holo")
    assert holo.symbol == "💖" and holo.has_king
    # the hearts are drawn, not typed: a red heart for no king, a pink one with a king
    assert image.getpixel(_centre(aidan.symbol_box)) == HEART_RGB
    assert image.getpixel(_centre(holo.symbol_box)) == SPARKLE_HEART_RGB
    # half-points print as 5.5
    assert rendered.layout.row("Zed").text == "4. Zed (Yellow): 5.5 --- Health: 11.5 💖"


def test_swatches_bars_captured_and_regeneration(neisg):
    state = _game(neisg, events=[ActiveEvent("Harvest", 9)])
    rendered = _render(neisg, state)
    image = _image(rendered)
    for row in rendered.layout.rows:
        tones = player_rgb(row.colour)
        x0, y0, x1, y1 = row.swatch_box
        cy = (y0 + y1) // 2
        if len(tones) == 1:
            assert image.getpixel(((x0 + x1) // 2, cy)) == tones[0]
        else:
            assert image.getpixel((x0 + (x1 - x0) // 4, cy)) == tones[0]
            assert image.getpixel((x1 - (x1 - x0) // 4, cy)) == tones[1]
    mira, bea = rendered.layout.row("Mira"), rendered.layout.row("Bea")
    assert mira.bar_fraction == 1.0 and 0 < bea.bar_fraction < 0.2
    assert mira.captured == "40" and mira.balance == "31"
    assert mira.regen == "+2 (Harvest)"                     # Harvest is in force for update 20
    famine = _render(neisg, _game(neisg, events=[ActiveEvent("Famine", 16)])).layout
    assert famine.row("Mira").regen == "+0 (Famine)"
    assert _render(neisg, _game(neisg)).layout.row("Mira").regen == "+1"


def test_events_with_updates_left(neisg):
    # drawn at step 8 of N, in force for N+1 .. N+14, ending at step 8 of N+14; update 20 is next
    events = [ActiveEvent("Harvest", 9), ActiveEvent("King of the Hill", 16), ActiveEvent("Bounty", 19)]
    state = _game(neisg, events=events, marked=[(3, 4)])
    layout = _render(neisg, state).layout
    by_name = {e.name: e for e in layout.events}
    assert (by_name["Harvest"].updates_left, by_name["Harvest"].ends_in) == (4, 23)
    assert (by_name["King of the Hill"].updates_left, by_name["King of the Hill"].ends_in) == (11, 30)
    assert (by_name["Bounty"].updates_left, by_name["Bounty"].ends_in) == (14, 33)
    assert by_name["Harvest"].text == "Harvest: 4 updates left (ends in update 23)"
    tops = [e.box[1] for e in layout.events]
    assert tops == sorted(tops)
    assert all(e.box[1] >= layout.rows[-1].box[3] for e in layout.events)


def test_event_in_its_last_update(neisg):
    # tests/scenarios/neisg/s3-d24-event-ends.toml: started at 2, update 16 is its last
    scenario = load_scenario(SCENARIOS / "s3-d24-event-ends.toml")
    events = variant_for(scenario.ruleset).standings_panel(scenario.state).events
    assert [(e.name, e.started, e.left, e.ends) for e in events] == [("Knights in Shining Armor", 2, 1, 16)]
    layout = _render(scenario.ruleset, scenario.state).layout
    assert layout.events[0].text == "Knights in Shining Armor: 1 update left (ends in update 16)"
    assert layout.lines == health_board_lines(scenario.ruleset, scenario.state)


def test_no_events_no_players(neisg):
    state = GameState.build(neisg, [], [], update=1)
    rendered = _render(neisg, state)
    assert rendered.layout.rows == () and rendered.layout.events == ()
    _image(rendered)


def test_energy_board(neisg):
    sandbox = load_preset("sandbox")
    players = [Player("Red", "Red", Fraction(7)), Player("Blue", "Blue", Fraction(3))]
    pieces = [dict(kind="K", owner="Red", square=(0, 1)), dict(kind="N", owner="Blue", square=(3, 3))]
    state = GameState.build(sandbox, pieces, players, update=3)
    rendered = _render(sandbox, state)
    assert rendered.layout.title == "Energy board"
    assert rendered.layout.lines == health_board_lines(sandbox, state)
    assert rendered.layout.rows[0].symbol == "⚡"
    assert rendered.layout.row("Blue").text.endswith("No King")


def test_many_players_fit_the_size_limit(neisg):
    names = [f"Player{i:03d}" for i in range(150)]
    players = [Player(n, "Red", Fraction(i % 40)) for i, n in enumerate(names)]
    pieces = [dict(kind="K", owner=n, square=(i * 3, 0)) for i, n in enumerate(names)]
    state = GameState.build(neisg, pieces, players, update=5)
    rendered = _render(neisg, state)
    assert rendered.width <= 4096 and rendered.height <= 4096
    assert rendered.layout.lines == health_board_lines(neisg, state)
    boxes = [row.box for row in rendered.layout.rows]
    assert all(0 <= b[0] < b[2] <= rendered.width and 0 <= b[1] < b[3] <= rendered.height for b in boxes)
    _image(rendered)


def test_colourblind_palette(neisg):
    state = _game(neisg)
    rendered = _render(neisg, state, palette="colourblind")
    image = _image(rendered)
    holo = rendered.layout.row("Holo")
    assert image.getpixel(_centre(holo.swatch_box)) == player_rgb("Purple", "colourblind")[0]


def test_swatch_matches_the_board_even_for_an_unknown_colour(neisg):
    from bot.render.board import render_board

    players = [Player("Red", "Red", Fraction(10)), Player("Odd", "Heliotrope", Fraction(10))]
    pieces = [dict(kind="R", owner="Red", square=(0, 1)), dict(kind="Q", owner="Odd", square=(3, 3))]
    state = GameState.build(neisg, pieces, players, update=2)
    health = _render(neisg, state)
    board = render_board(neisg, state)
    health_image, board_image = _image(health), Image.open(BytesIO(board.png)).convert("RGB")
    for name, square in (("Red", (0, 1)), ("Odd", (3, 3))):
        swatch = health_image.getpixel(_centre(health.layout.row(name).swatch_box))
        piece = board_image.crop(board.layout.box(square))
        counts = Counter(piece.get_flattened_data())
        assert counts[swatch] >= 20, (name, swatch, counts.most_common(4))   # the piece is filled with it


def test_the_board_draws_what_the_panel_says(neisg):
    """The renderer knows no rule: rows, notes, warnings, events, the legend and the ranking words
    are the panel's, whatever the variant that made it."""
    state = _game(neisg)
    table = standings(neisg, state)
    rows = tuple(PanelRow(s, f"{s.rank}. {s.name}: {s.score} points", "+3 per capture", alarm=s.name == "Zed")
                 for s in table)
    panel = StandingsPanel(title="Points board", currency="points", rows=rows,
                           events=(PanelEvent("Bounty", 18, 2, 21, "captures pay double.", ((1, 2),)),),
                           next_event_draw=None, legend=(), ranking="Ranked by points.")
    rendered = render_health_board(panel, state, game_title="A test game", palette="default")
    layout = rendered.layout
    assert layout.title == "Points board" and layout.subtitle.startswith("A test game · after update 19")
    assert layout.lines == [row.line for row in rows]
    assert {row.regen for row in layout.rows} == {"+3 per capture"}
    assert [e.text for e in layout.events] == ["Bounty: 2 updates left (ends in update 21)"]
    assert layout.footer == ("Ranked by points.",)
    image = _image(rendered)
    zed, mira = layout.row("Zed"), layout.row("Mira")
    # the alarm colours the note: only Zed's is in the warning red
    def reds(row):      # warning-red pixels in the row's last column, the note
        strip = image.crop((row.box[2] - 160, row.box[1], row.box[2], row.box[3]))
        return sum(1 for pixel in strip.get_flattened_data() if pixel == NO_KING_RGB)
    assert reds(zed) > 0 and reds(mira) == 0


# ============================================================================= issue 27 item 5: standings that do not mislead
def _with_leavers(ruleset, update=14, length=None):
    """Three players in the game; Cleo eliminated (D30), Dan resigned."""
    players = [Player("Ann", "Red", Fraction(9)), Player("Bob", "Blue", Fraction(12)),
               Player("Eve", "Green", Fraction(4)),
               Player("Cleo", "Orange", Fraction(-3), Fraction(30), status="eliminated"),
               Player("Dan", "Purple", Fraction(5), status="resigned")]
    pieces = [dict(kind="K", owner="Ann", square=(0, 0)), dict(kind="K", owner="Bob", square=(5, 5)),
              dict(kind="K", owner="Eve", square=(-5, 5))]
    state = GameState.build(ruleset, pieces, players, update=update)
    return state if length is None else replace(state, length=length)


def test_players_who_left_are_listed_under_the_standings_marked(neisg):
    """The leader of update 13, eliminated at 14, used to vanish from every later board."""
    from bot.render.scene.health import OUT_HEADING, standings_lines

    state = _with_leavers(neisg)
    panel = variant_for(neisg).standings_panel(state)
    assert panel.lines == health_board_lines(neisg, state)                # RULES 4's lines, as they were
    assert [out.name for out in panel.out] == ["Cleo"]        # Dan resigned (or was removed): not listed
    lines = standings_lines(panel)
    assert lines[-2:] == [OUT_HEADING, "✗ Cleo (Orange): eliminated (D30)"]
    layout = _render(neisg, state).layout
    assert [name for name, _, _ in layout.out] == ["Cleo"]
    bottom = max(row.box[3] for row in layout.rows)
    assert all(box[1] >= bottom for _, _, box in layout.out)              # under the ranked rows


def test_a_removed_sandbox_player_is_told_when_they_may_come_back():
    sandbox = load_preset("sandbox")
    state = GameState.build(sandbox, [dict(kind="K", owner="Ann", square=(0, 0))],
                            [Player("Ann", "Red", Fraction(5)),
                             Player("Bob", "Blue", Fraction(0), status="eliminated", rejoin_after=16)], update=13)
    [out] = variant_for(sandbox).standings_panel(state).out
    assert out.line == "Bob (Blue): removed (RULES 5.1); may re-join from update 17 (P33)"


def test_the_text_standings_name_the_first_number(neisg):
    from bot.render.scene.health import standings_lines

    state = _with_leavers(neisg)
    heading, first, *_ = standings_lines(variant_for(neisg).standings_panel(state))
    assert heading.startswith("Rank. Player (colour): score --- Health (score: the cost of the player's pieces")
    assert first == health_board_lines(neisg, state)[0]
    assert _render(neisg, state).layout.rows     # the image's column heading says the same
    assert variant_for(neisg).standings_panel(state).line_heading == "Rank. Player (colour): score --- Health"


def test_a_board_after_the_last_update_asks_for_no_orders(neisg):
    going = _render(neisg, _with_leavers(neisg, update=14, length=20)).layout.subtitle
    over = _render(neisg, _with_leavers(neisg, update=21, length=20)).layout.subtitle
    assert going.endswith("after update 13 · orders now for update 14")
    assert over.endswith("after update 20 · the game is over") and "orders now" not in over
    told = _render(neisg, _with_leavers(neisg, update=14), over=True).layout.subtitle   # the service knows
    assert told.endswith("after update 13 · the game is over")


def test_the_footer_of_a_narrow_board_is_whole(neisg):
    """An early board (few players, narrow image) cut its footer: "... then captured, then nam"."""
    state = _with_leavers(neisg, update=2)
    panel = variant_for(neisg).standings_panel(state)
    rendered = _render(neisg, state)
    assert panel.ranking in rendered.layout.footer                      # the ranking in full, not cut
    image = _image(rendered)
    edge = image.crop((image.width - 6, 0, image.width, image.height))
    assert {colour for _, colour in edge.getcolors(1 << 16)} == {image.getpixel((image.width - 1, 0))}, \
        "nothing runs off the edge"


# ----------------------------------------------------------------------------- the scene, without pixels
def _scene(ruleset, state, **options):
    from bot.render.scene.health import health_scene

    variant = variant_for(ruleset)
    return health_scene(variant.standings_panel(state), state, game_title=variant.title, **options)


def test_a_rows_marks_and_colours_are_decided_in_the_scene(neisg):
    """Read without pixels: the rank and name in bold, the sparkling heart of a player with a king,
    "No King" in red with a greyed bar, the swatch in the player's tones, the shade of every other
    row and the outline of the player asking."""
    from bot.render.scene.health import BAR_RGB, NO_KING_BAR_RGB, PlayerRow

    scene = _scene(neisg, _game(neisg), caller="Zed")
    rows = {row.standing.name: row for row in scene.entries if isinstance(row, PlayerRow)}
    mira, aidan = rows["Mira"], rows["Aidan"]
    assert mira.prefix == "1. Mira" and mira.alarm == ""
    assert mira.words == mira.prefix + mira.rest == "1. Mira (Teal): 20"
    # the label leaves the heart out of the words: it is drawn after the balance
    assert mira.symbol is None and mira.balance_symbol == "💖" and aidan.balance_symbol == "❤️"
    assert mira.bar_fraction == 1.0 and mira.bar_rgb == BAR_RGB["health"] and mira.shaded
    assert aidan.note_alarm and aidan.note == "+0 (no king)" and aidan.bar_rgb == NO_KING_BAR_RGB
    assert aidan.tones == player_rgb("Crimson/Yellow", "default")
    assert [name for name, row in rows.items() if row.caller] == ["Zed"] and scene.caller == "Zed"
    assert _scene(neisg, _game(neisg), palette="colourblind").row("Mira").tones == player_rgb("Teal", "colourblind")
    assert scene.headings[2] == "Captured"


def test_the_scene_says_what_the_board_announces(neisg):
    """The subtitle, the events with the updates each has left, the next draw, and the words of an
    empty board, as the painter writes them."""
    events = (ActiveEvent("Harvest", 16),)
    scene = _scene(neisg, _game(neisg, update=20, events=events))
    assert scene.subtitle.endswith("after update 19 · orders now for update 20")
    assert [event.name for event in scene.events] == ["Harvest"] and "left (ends in update" in scene.events[0].status
    assert scene.no_event == "" and scene.draws_events
    empty = _scene(neisg, GameState.build(neisg, [], [], update=1))
    assert empty.entries == () and empty.empty == "No player has joined yet."
    assert empty.no_event == "No event is active."
    assert empty.subtitle.endswith("before update 1")
    painted = _render(neisg, _game(neisg, update=20, events=events)).layout
    assert painted.subtitle == scene.subtitle and painted.lines == [row.line for row in scene.rows]


# ----------------------------------------------------------------------------- issue 39: each number said once
def _arena_game():
    arena = load_preset("arena")
    players = [Player("Ann", "Red", Fraction(12), captured=Fraction(12)), Player("Bob", "Blue", Fraction(1))]
    pieces = [dict(owner="Ann", kind="K", square=(0, 0)), dict(owner="Bob", kind="K", square=(5, 5))]
    return arena, GameState.build(arena, pieces, players, update=4)


def test_a_row_writes_its_label_under_the_label_heading(neisg):
    """A neisg row said its health three times (the line's "Health: 31 💖", the bar's number, the
    Regen column): the picture writes the row's label, under the panel's label heading; the text
    standings keep RULES 4's line."""
    from bot.render.scene.health import standings_lines

    state = _game(neisg)
    panel = variant_for(neisg).standings_panel(state)
    scene = _scene(neisg, state)
    assert scene.headings[0] == panel.label_heading == "Rank. Player (colour): score"
    assert [row.words for row in scene.rows] == [row.label for row in panel.rows]
    assert scene.row("Mira").words == "1. Mira (Teal): 20" and "Health" not in scene.row("Aidan").words
    assert [row.line for row in scene.rows] == health_board_lines(neisg, state)
    assert standings_lines(panel)[1:] == health_board_lines(neisg, state)      # the text output as it was
    layout = _render(neisg, state).layout
    mira = layout.row("Mira")
    assert mira.words == "1. Mira (Teal): 20" and mira.text == "1. Mira (Teal): 20 --- Health: 31 💖"
    # the heart, which the label leaves out, is drawn after the balance: right of the bar, not in the words
    assert mira.symbol_box[0] > mira.bar_box[2] > mira.text_box[2]
    image = _image(_render(neisg, state))
    assert image.getpixel(_centre(layout.row("Aidan").symbol_box)) == HEART_RGB


def test_a_panel_without_labels_writes_its_lines_under_the_line_heading(neisg):
    state = _game(neisg)
    panel = variant_for(neisg).standings_panel(state)
    bare = replace(panel, rows=tuple(replace(row, label="") for row in panel.rows), label_heading="")
    from bot.render.scene.health import health_scene

    scene = health_scene(bare, state, game_title="t")
    assert scene.headings[0] == panel.line_heading
    assert [row.words for row in scene.rows] == [row.line for row in panel.rows]
    assert scene.row("Mira").symbol == "💖" and scene.row("Mira").balance_symbol is None
    assert "No King" in scene.row("Aidan").alarm


def test_arena_draws_no_captured_column_repeating_its_points():
    """Arena's points are the value captured (D50): the board has no Captured column; a panel with
    a captured heading draws the column under it."""
    from bot.render.scene.health import health_scene

    arena, state = _arena_game()
    panel = variant_for(arena).standings_panel(state)
    scene = health_scene(panel, state, game_title="Chess Arena")
    assert not scene.shows_captured and scene.headings[2] == ""
    assert [row.captured for row in scene.rows] == ["", ""]
    with_column = health_scene(replace(panel, captured_heading="Taken"), state, game_title="Chess Arena")
    assert with_column.shows_captured and with_column.headings[2] == "Taken"
    assert [row.captured for row in with_column.rows] == ["12", "0"]
    without, with_ = render_health_board(panel, state, game_title="t"), render_health_board(
        replace(panel, captured_heading="Taken"), state, game_title="t")
    assert [row.captured for row in without.layout.rows] == ["", ""]
    # the column's room is gone: the note column starts further left
    assert without.layout.rows[0].box[2] < with_.layout.rows[0].box[2]
