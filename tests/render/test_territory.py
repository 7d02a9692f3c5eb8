"""The territory picture (bot/render/scene/territory.py, bot/render/paint/territory.py; issue 24
item 2, RULES 5.4.2): the board with its areas, the pieces, the last action, the cycle with the
current slot outlined, both reserves, the draft area and the bag, as its layout says and as the
pixels show."""

from __future__ import annotations

import colorsys
from collections import Counter
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from bot.__main__ import main
from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.runner import run_scenario
from bot.engine.scenario import load_scenario
from bot.engine.state import GameState
from bot.engine.territory.state import TerritoryState
from bot.engine.variants import variant_for
from bot.render.palette import player_rgb
from bot.render.paint.territory import WIDTH, render_territory
from bot.render.scene.territory import ARROW_STYLES, has_areas, territory_scene

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios" / "territory"
MOVE = "Moon(1,-4)<(1,2)-(3,-2); +Prtl(-4,-4)"


def _turn_13():
    """Turn 13 (Red's slot) of a game under way: Ann (Red) holds Green, Bob (Blue) holds Yellow,
    Purple is even and Orange holds Bob's Chaos; a Mirror copy on (-2,-5)."""
    ruleset = load_preset("territory")
    P = lambda owner, kind, x, y: dict(owner=owner, kind=kind, square=(x, y))  # noqa: E731
    pieces = [P("Ann", "Rck", -3, -2), P("Ann", "Sun", -2, -3), P("Ann", "Moon", 1, -4), P("Ann", "Bal", 0, -4),
              P("Ann", "Fire", 3, -1), P("Ann", "Mir", -1, -5), P("Ann", "Mir", -2, -5), P("Ann", "Wood", 4, -4),
              P("Bob", "Sun", 3, 2), P("Bob", "Sld", 4, 3), P("Bob", "Lts", 2, 1), P("Bob", "Chs", -3, 2),
              P("Bob", "Wtr", 1, 2), P("Bob", "Infy", 4, -2), P("Bob", "Pwr", -4, 4)]
    reserves = {"Ann": ("Ice", "Lf", "Prtl"), "Bob": ("Wind", "Fre", "Ldr", "Shdw", "Fre")}
    draft = ("Bal", "Fire", "Ice", "Moon", "Rck", "Wood")
    state = GameState.build(ruleset, pieces, [Player("Ann", "Red"), Player("Bob", "Blue")], update=13,
                            bounds=((-5, -5), (5, 5)), seats=("Ann", "Bob"))
    used = Counter(p["kind"] for p in pieces) + Counter(draft)
    used += Counter(kind for kinds in reserves.values() for kind in kinds)
    used["Mir"] -= 1                    # the Mirror's copy is not one of the pool's 40 pieces (T18)
    bag = [kind for kind in sorted(ruleset.pieces) for _ in range(max(0, 2 - used[kind]))]
    copy = next(p.id for p in state.board if p.square == (-2, -5))
    state.territory = TerritoryState().with_changes(reserves=reserves, draft_area=draft, bag=bag, copies={copy})
    return ruleset, state


@pytest.fixture(scope="module")
def turn_14():
    """After Ann's turn 13: the Moon pulls Bob's Water from (1,2) to (1,1), moves to (3,-2), and a
    Portal is placed on (-4,-4); Bob (Blue) is to play turn 14."""
    ruleset, before = _turn_13()
    after, report = variant_for(ruleset).resolve(before, {"Ann": MOVE}, 7)
    assert after.update == 14 and report.of_type("order")[0].data["order"] == MOVE
    return ruleset, after, report


@pytest.fixture(scope="module")
def picture(turn_14):
    ruleset, state, report = turn_14
    return render_territory(ruleset, state, report=report)


def _pixel(rendered, xy):
    return Image.open(BytesIO(rendered.png)).convert("RGB").getpixel(xy)


def _hue_gap(first, second) -> float:
    """Degrees between the hues of two colours."""
    a, b = (colorsys.rgb_to_hsv(*(c / 255 for c in rgb))[0] * 360 for rgb in (first, second))
    return min(abs(a - b), 360 - abs(a - b))


def _centre(box):
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


def test_one_image_a_phone_shows_whole(picture):
    image = Image.open(BytesIO(picture.png))
    assert image.format == "PNG" and image.size == (picture.width, picture.height) == (WIDTH, picture.height)
    # taller than wide, within a phone screen's 19.5 by 9; nothing off to the side
    assert WIDTH < picture.height < 2.15 * WIDTH
    layout = picture.layout
    assert layout.scale >= 60                    # 11 squares across: big enough to read the pieces' letters


def test_every_area_is_drawn_in_its_colour(picture):
    layout = picture.layout
    names = {drawn.area.name: drawn.area.kind for drawn in layout.areas}
    assert names == {"Goal": "goal", "Neutral zone": "neutral", "Green": "territory", "Purple": "territory",
                     "Yellow": "territory", "Orange": "territory", "Red home": "home", "Blue home": "home"}
    assert layout.area("Green").tint == player_rgb("Green")[0]
    assert layout.area("Purple").tint == player_rgb("Purple")[0]
    assert layout.area("Red home").tint == player_rgb("Red")[0]
    assert layout.area("Blue home").tint == player_rgb("Blue")[0]
    # an empty square of each territory shows a pale shade of its colour (the same hue); the goal is
    # gold, the neutral zone grey
    for square, name in (((-4, -1), "Green"), ((4, 1), "Yellow"), ((-4, 1), "Orange"), ((4, -3), "Purple")):
        box = layout.box(square)
        shown = _pixel(picture, (box[0] + 12, box[3] - 12))
        assert _hue_gap(shown, layout.area(name).tint) < 15, name
    gold = _pixel(picture, _centre(layout.box((0, 0))))
    assert gold[0] > 200 and gold[1] > 150 and gold[2] < 100
    grey = _pixel(picture, (layout.box((-1, 0))[0] + 6, layout.box((-1, 0))[1] + 30))
    assert max(grey) - min(grey) < 20


def test_territories_framed_in_their_controllers_colour(picture):
    layout = picture.layout
    red, blue = player_rgb("Red")[0], player_rgb("Blue")[0]
    assert layout.area("Green").frame == red and layout.area("Green").area.controller == "Ann"
    assert layout.area("Yellow").frame == blue
    assert layout.area("Purple").frame is None and layout.area("Orange").frame is None     # even; a Chaos
    left, top, _, _ = layout.box((-4, -1))              # Green's top left corner: the frame's colour
    assert _pixel(picture, (left + 4, top + 4)) == red
    assert any("Green: controlled by Ann (Red)" == words for words in layout.legend)
    assert any("Orange: nobody controls it" == words for words in layout.legend)


def test_pieces_in_their_owners_colour(picture, turn_14):
    _, state, _ = turn_14
    layout = picture.layout
    assert {piece.square for piece, _ in layout.pieces} == set(state.board.squares())
    for piece, box in layout.pieces:
        assert _pixel(picture, _centre(box)) == player_rgb(state.players[piece.owner].colour)[0]
    moon = next(box for piece, box in layout.pieces if piece.kind == "Moon")
    square = layout.box((3, -2))
    assert square[0] <= moon[0] and moon[2] <= square[2]
    assert "Mirror copy" in layout.legend


def test_the_current_slot_is_outlined_with_who_plays_each_slot(picture):
    layout = picture.layout
    cycle = layout.cycle
    # in turn order from the current turn (issue 39): turn 14 takes slot (14-1) mod 12, Blue, first
    assert [slot.slot.name for slot in cycle] == ["Blue", "Green", "Red", "Blue", "Yellow", "Red",
                                                  "Blue", "Purple", "Red", "Blue", "Orange", "Red"]
    assert [slot.turn for slot in cycle] == list(range(14, 26))
    outlined = [slot for slot in cycle if slot.outlined]
    assert outlined == [layout.current_slot] and layout.current_slot.index == 0
    assert layout.current_slot.words == ("T14", "Bob")
    by_name = {slot.slot.name: slot for slot in cycle}
    assert by_name["Green"].words == ("T15", "Ann") and by_name["Yellow"].words == ("T18", "Bob")
    assert by_name["Purple"].words == ("T21", "skip") and by_name["Orange"].words == ("T24", "skip")
    assert cycle[-1].words == ("T25", "Ann")             # the slot before the current one comes next round
    # the outline is drawn: black just outside the current slot's box, not outside the others
    box = layout.current_slot.box
    assert _pixel(picture, (box[0] - 2, (box[1] + box[3]) // 2)) == (20, 20, 20)
    other = cycle[3].box
    assert _pixel(picture, (other[0] - 2, (other[1] + other[3]) // 2)) != (20, 20, 20)
    assert layout.heading == "Turn 14: Bob (Blue) to play"


def test_both_reserves_in_canonical_order_with_their_limit(picture):
    layout = picture.layout
    ann, bob = layout.holding("Ann"), layout.holding("Bob")
    assert ann.title == "Ann (Red)" and ann.detail == "reserve 2/7"          # the Portal was placed
    assert [(chip.kind, chip.count) for chip in ann.chips] == [("Ice", 1), ("Lf", 1)]
    assert bob.detail == "reserve 5/7"
    assert [(chip.kind, chip.count) for chip in bob.chips] == [("Fre", 2), ("Ldr", 1), ("Shdw", 1), ("Wind", 1)]
    draft = layout.holding(None)
    assert draft.title == "Draft area" and [chip.kind for chip in draft.chips] == ["Bal", "Fire", "Ice", "Moon", "Rck",
                                                                                   "Wood"]
    assert layout.bag == "Bag: 12 pieces, hidden"
    for holding in layout.holdings:                      # chips inside their panel, never overlapping
        for chip in holding.chips:
            assert holding.box[0] <= chip.box[0] and chip.box[2] <= holding.box[2]
        boxes = [chip.box for chip in holding.chips]
        assert all(a[2] <= b[0] for a, b in zip(boxes, boxes[1:]))
    # a reserve's pieces are drawn in its owner's colour, the draft area's in nobody's
    assert _pixel(picture, _centre(ann.chips[0].box)) == player_rgb("Red")[0]
    assert _pixel(picture, _centre(draft.chips[0].box)) == (246, 246, 246)


def test_the_last_action_arrows(picture):
    layout = picture.layout
    assert [(a.form, a.origin, a.target) for a in layout.arrows] == [("pull", (1, 2), (1, 1)),
                                                                     ("move", (1, -4), (3, -2))]
    assert layout.placed == ((-4, -4),) and layout.captures == ()
    assert layout.caption == f"Last: turn 13, Ann (Red): {MOVE}"
    # the move's arrow crosses (2,-3), the square between: the arrow's colour shows there
    r, g, b = _pixel(picture, _centre(layout.box((2, -3))))
    assert b > r and b > g
    assert "move" in layout.legend and "pull" in layout.legend and "placed from the reserve" in layout.legend


@pytest.mark.parametrize("name, forms", [
    ("example-7-fire-chain-and-a-rock-returning", ["capture", "capture", "move"]),
    ("t17-a-leadership-gives-an-ability", ["lead", "swap"]),
    ("wind-moves-then-carries-an-ally", ["move", "carry"]),
    ("wood-captures-without-moving", ["shot"]),
    ("example-5-power-move-then-push", ["move", "push"]),
])
def test_every_kind_of_action_has_its_mark(name, forms):
    scenario = load_scenario(SCENARIOS / f"{name}.toml")
    outcome = run_scenario(scenario)
    layout = render_territory(scenario.ruleset, outcome.state, report=outcome.report).layout
    assert [arrow.form for arrow in layout.arrows] == forms
    assert all(ARROW_STYLES[arrow.form][1] in layout.legend for arrow in layout.arrows)      # each explained


def test_a_capture_is_crossed_out():
    scenario = load_scenario(SCENARIOS / "example-7-fire-chain-and-a-rock-returning.toml")
    outcome = run_scenario(scenario)
    rendered = render_territory(scenario.ruleset, outcome.state, report=outcome.report)
    assert rendered.layout.captures == ((1, -2), (2, -1))
    assert "captured there" in rendered.layout.legend


def test_a_skipped_turn_in_words():
    scenario = load_scenario(SCENARIOS / "cycle-turn-3-skipped-nobody-controls-green.toml")
    outcome = run_scenario(scenario)
    layout = render_territory(scenario.ruleset, outcome.state, report=outcome.report).layout
    assert layout.caption == "Turn 3 (Green) was skipped: nobody controlled Green."
    assert layout.arrows == () and layout.current_slot.turn == 4


def test_a_territory_turn_names_its_player():
    scenario = load_scenario(SCENARIOS / "example-5-4-9.toml")
    layout = render_territory(scenario.ruleset, scenario.state).layout
    assert layout.heading == "Turn 3: Green's turn, Ann (Red) plays"
    assert layout.current_slot.slot.name == "Green" and layout.current_slot.words == ("T3", "Ann")
    assert layout.caption == "" and layout.arrows == ()


def test_the_winner_when_the_game_is_over():
    scenario = load_scenario(SCENARIOS / "example-8-a-stack-on-the-goal-wins.toml")
    outcome = run_scenario(scenario)
    layout = render_territory(scenario.ruleset, outcome.state, report=outcome.report).layout
    assert layout.heading.startswith("Ann (Red) wins") and "goal" in layout.heading
    assert layout.current_slot is None and all(slot.words == ("", "") for slot in layout.cycle)
    assert layout.area("Goal").frame == player_rgb("Red")[0]
    stacked = [box for piece, box in layout.pieces if piece.square == (0, 0)]
    assert len(stacked) == 2 and stacked[0] != stacked[1]          # both pieces of the stack show


def test_a_draw_when_the_game_is_over():
    scenario = load_scenario(SCENARIOS / "quiet-24th-turn-a-pass-draws-and-refills.toml")
    outcome = run_scenario(scenario)
    layout = render_territory(scenario.ruleset, outcome.state, report=outcome.report).layout
    assert layout.heading.startswith("Drawn") and "24" in layout.heading
    assert [chip.new for chip in layout.holding(None).chips].count(True) == len(outcome.report.of_type("refilled")[0]
                                                                              .data["kinds"].split(", "))


def test_the_colourblind_palette(turn_14):
    ruleset, state, report = turn_14
    rendered = render_territory(ruleset, state, report=report, palette="colourblind")
    layout = rendered.layout
    for name in ("Green", "Purple", "Yellow", "Orange"):
        assert layout.area(name).tint == player_rgb(name, "colourblind")[0]
    assert layout.area("Green").frame == player_rgb("Red", "colourblind")[0]
    for piece, box in layout.pieces:
        assert _pixel(rendered, _centre(box)) == player_rgb(state.players[piece.owner].colour, "colourblind")[0]
    assert player_rgb("Blue", "colourblind") != player_rgb("Blue")
    with pytest.raises(ValueError):
        render_territory(ruleset, state, palette="sepia")


def test_only_a_board_with_areas_is_drawn_this_way(turn_14):
    ruleset, state, _ = turn_14
    assert has_areas(ruleset, state)
    neisg = load_scenario(ROOT / "tests" / "scenarios" / "neisg" / "king-captured.toml")
    assert not has_areas(neisg.ruleset, neisg.state)


def test_the_render_command_draws_a_territory_scenario(tmp_path):
    scenario = SCENARIOS / "example-5-4-9.toml"
    out = tmp_path / "after.png"
    assert main(["render", str(scenario), "--after", "--out", str(out)]) == 0
    assert Image.open(out).size[0] == WIDTH
    loaded = load_scenario(scenario)
    outcome = run_scenario(loaded)
    expected = render_territory(loaded.ruleset, outcome.state, report=outcome.report)
    assert out.read_bytes() == expected.png                      # the position after, with its last action
    before = tmp_path / "before.png"
    assert main(["render", str(scenario), "--palette=colourblind", "--out", str(before)]) == 0
    assert before.read_bytes() == render_territory(loaded.ruleset, loaded.state, palette="colourblind").png


def test_the_render_command_refuses_a_region_for_a_board_drawn_whole(tmp_path, capsys):
    out = tmp_path / "x.png"
    assert main(["render", str(SCENARIOS / "example-5-4-9.toml"), "--region=-1,-1,1,1", "--out", str(out)]) == 2
    assert "drawn whole" in capsys.readouterr().err and not out.exists()


# ----------------------------------------------------------------------------- the scene, without pixels
def test_the_turn_cycle_the_heading_and_the_marks_are_decided_in_the_scene(turn_14):
    """Read without pixels: who plays, the current slot outlined with the turn each slot comes up
    next, the last action's arrows, crosses and placements, the Mirror copy and the new chips."""
    ruleset, state, report = turn_14
    scene = territory_scene(ruleset, state, report=report)
    assert scene.heading == "Turn 14: Bob (Blue) to play"
    assert scene.heading_colour == player_rgb("Blue", "default")[0]
    assert scene.caption == f"Last: turn 13, Ann (Red): {MOVE}"
    outlined = [slot for slot in scene.cycle if slot.outlined]
    assert len(outlined) == 1 and outlined[0].words == ("T14", "Bob") and outlined[0].index == 0
    assert [slot.turn for slot in scene.cycle] == list(range(14, 26))      # in turn order, the current first
    assert all(slot.muted == (slot.slot.player is None) for slot in scene.cycle)
    assert {(arrow.form, arrow.origin, arrow.target) for arrow in scene.arrows} >= {("pull", (1, 2), (1, 1))}
    assert scene.placed == ((-4, -4),)
    assert [look.piece.square for look in scene.pieces if look.copy] == [(-2, -5)]
    assert "Mirror copy" in [item.words for item in scene.legend]
    ann = next(look for look in scene.holdings if look.holding.owner == "Ann")
    assert ann.title == "Ann (Red)" and ann.detail.startswith("reserve ")
    assert ann.swatch == player_rgb("Red", "default")[0]
    draft = next(look for look in scene.holdings if look.holding.owner is None)
    assert draft.title == "Draft area" and draft.swatch is None
    assert [chip.kind_letter for chip in draft.chips] == sorted(chip.kind_letter for chip in draft.chips)
    assert scene.bag.startswith("Bag: ") and scene.bag.endswith(", hidden")
    # the picture writes exactly the scene's words
    layout = render_territory(ruleset, state, report=report).layout
    assert layout.legend == tuple(item.words for item in scene.legend) and layout.bag == scene.bag


def test_the_colour_blind_scene_swaps_every_players_colour(turn_14):
    ruleset, state, report = turn_14
    scene = territory_scene(ruleset, state, report=report, palette="colourblind")
    assert scene.heading_colour == player_rgb("Blue", "colourblind")[0]
    assert {look.tones for look in scene.pieces if look.piece.owner == "Ann"} == {player_rgb("Red", "colourblind")}


def test_a_second_painter_tints_the_areas_as_the_posted_picture_does(turn_14, picture):
    """The web viewer's tiles paint territory with the board painter (``paint_squares``): every
    square of an area is the colour of that square in the posted picture (its tone under the area's
    tint: gold goal, grey neutral zone, each territory and home its colour), and every area square
    is tinted, none missed."""
    from bot.render.board import paint_squares, scene_of

    ruleset, state, _ = turn_14
    region, scale = (-5, -5, 5, 5), 32
    squares = paint_squares(ruleset, state, region, scale)
    layout = picture.layout
    marked = {square for arrow in layout.arrows for square in _line(arrow.origin, arrow.target)}
    empty = [s for d in layout.areas for s in d.area.squares if not state.board.at(s) and s not in marked]
    assert len(empty) > 40
    for x, y in empty:
        box = layout.box((x, y))
        posted = _pixel(picture, _centre(box))        # clear of the frames, the goal's ring and the hatching
        tile = squares.getpixel(((x - region[0]) * scale + scale // 2, (region[3] - y) * scale + scale // 2))
        assert tile == posted, (x, y, tile, posted)
    tinted = {fill.square for fill in scene_of(ruleset, state, region).fills}
    assert {s for d in layout.areas for s in d.area.squares} <= tinted


def _line(origin, target):
    """The squares a straight or diagonal arrow from ``origin`` to ``target`` passes over, both ends included."""
    (x0, y0), (x1, y1) = origin, target
    steps = max(abs(x1 - x0), abs(y1 - y0)) or 1
    return {(round(x0 + (x1 - x0) * k / steps), round(y0 + (y1 - y0) * k / steps)) for k in range(steps + 1)}
