"""Piece sheets: every kind of every ruleset gets a card, and the diagrams mean what the Betza says."""

from __future__ import annotations

from io import BytesIO

import pytest
from PIL import Image

from bot.engine.ruleset import load_preset, preset_names
from bot.render.paint.pieces import BOTH_RGB, CAPTURE_RGB, MOVE_RGB, render_piece_sheet
from bot.render.scene.pieces import MIN_RADIUS, movement_diagram, piece_sheet

KNIGHT = {(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)}
KING = {(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - {(0, 0)}
DABBABA = {(2, 0), (-2, 0), (0, 2), (0, -2)}


@pytest.fixture(scope="module")
def sheets():
    return {name: render_piece_sheet(load_preset(name)) for name in preset_names()}


@pytest.fixture(scope="module")
def neisg():
    return load_preset("neisg")


def _inside(inner, outer) -> bool:
    return outer[0] <= inner[0] <= inner[2] <= outer[2] and outer[1] <= inner[1] <= inner[3] <= outer[3]


@pytest.mark.parametrize("name", preset_names())
def test_every_kind_has_a_card(sheets, name):
    ruleset = load_preset(name)
    rendered = sheets[name]
    image = Image.open(BytesIO(rendered.png))
    assert image.size == (rendered.width, rendered.height)
    assert rendered.width <= 4096 and rendered.height <= 4096
    cards = rendered.layout.cards
    assert [c.letter for c in cards] == list(ruleset.pieces)
    frame = (0, 0, rendered.width, rendered.height)
    for card in cards:
        kind = ruleset.pieces[card.letter]
        assert _inside(card.box, frame) and _inside(card.grid_box, card.box) and _inside(card.sprite_box, card.box)
        assert card.name == kind.name and card.texts[0] == kind.name
        assert len(card.cells) == (2 * card.diagram.radius + 1) ** 2
        assert all(_inside(cell, card.grid_box) for cell in card.cells.values())
    for a in cards:         # cards never overlap
        for b in cards:
            if a is not b:
                assert a.box[2] <= b.box[0] or b.box[2] <= a.box[0] or a.box[3] <= b.box[1] or b.box[3] <= a.box[1]


def test_cost_printed_with_halves(sheets):
    spirit = sheets["neisg"].layout.card("S")
    assert spirit.cost == "5.5"
    assert any("cost 5.5 health" in text for text in spirit.texts)
    assert sheets["neisg"].layout.card("C").texts[1].startswith("C, Ch")


def test_knight_leaps(neisg):
    diagram = movement_diagram(neisg.kind("N"))
    assert diagram.radius == MIN_RADIUS
    assert set(diagram.marks) == KNIGHT
    assert all(m.leap and not m.slide and m.style == "both" and not m.initial for m in diagram.marks.values())
    assert diagram.lines == ()


def test_rook_rides_to_the_edge(neisg):
    diagram = movement_diagram(neisg.kind("R"))
    r = diagram.radius
    expected = {(d * n, 0) for d in (1, -1) for n in range(1, r + 1)} | {(0, d * n) for d in (1, -1) for n in range(1, r + 1)}
    assert set(diagram.marks) == expected
    assert all(m.slide and not m.leap and m.style == "both" for m in diagram.marks.values())
    assert len(diagram.lines) == 4 and all(line.unlimited and len(line.squares) == r for line in diagram.lines)


def test_hunter_moves_as_a_king_and_captures_as_knight_and_dabbaba(neisg):
    diagram = movement_diagram(neisg.kind("Ht"))
    assert {sq for sq, m in diagram.marks.items() if m.style == "move"} == KING
    assert {sq for sq, m in diagram.marks.items() if m.style == "capture"} == KNIGHT | DABBABA
    assert not any(m.style == "both" for m in diagram.marks.values())


def test_pawn_initial_double_step(neisg):
    diagram = movement_diagram(neisg.kind("P"))      # fmWfcFifmnD
    marks = diagram.marks
    assert set(marks) == {(0, 1), (1, 1), (-1, 1), (0, 2)}
    assert marks[(0, 1)].style == "move" and not marks[(0, 1)].initial
    assert marks[(1, 1)].style == marks[(-1, 1)].style == "capture"
    double = marks[(0, 2)]
    assert double.style == "move" and double.initial and double.lame and not double.once
    assert diagram.lame_paths == ((0, 1),)
    assert diagram.directional


def test_limited_rider_and_one_time_step():
    megachess = load_preset("megachess")
    bishop = movement_diagram(megachess.kind("B"))   # B6, once mW
    assert bishop.radius >= 7                        # room to show where the ride stops
    assert all(not line.unlimited and len(line.squares) == 6 for line in bishop.lines)
    assert {sq for sq, m in bishop.marks.items() if m.once} == {(1, 0), (-1, 0), (0, 1), (0, -1)}
    assert all(bishop.marks[sq].style == "move" and bishop.marks[sq].initial for sq in [(1, 0), (0, -1)])
    pawn = movement_diagram(megachess.kind("P"))     # mKimnDcF: diagonals both move and capture
    assert pawn.marks[(1, 1)].style == "both" and pawn.marks[(1, 0)].style == "move"
    assert pawn.marks[(0, 2)].initial and not pawn.directional


def test_kinds_that_never_capture_show_moves_only(neisg):
    for letter in ("W", "S", "Hp", "Z", "Tt"):
        diagram = movement_diagram(neisg.kind(letter))
        assert diagram.marks and not diagram.captures
        assert all(m.style == "move" for m in diagram.marks.values()), letter
    assert movement_diagram(neisg.kind("Pl")).marks == {}


def test_marks_are_drawn_where_the_layout_says(sheets):
    rendered = sheets["neisg"]
    image = Image.open(BytesIO(rendered.png)).convert("RGB")

    def pixel(card, square):
        x0, y0, x1, y1 = card.cells[square]
        return image.getpixel(((x0 + x1) // 2, (y0 + y1) // 2))

    knight = rendered.layout.card("N")
    for square in KNIGHT:
        assert pixel(knight, square) == BOTH_RGB
    assert pixel(knight, (1, 1)) != BOTH_RGB
    hunter = rendered.layout.card("Ht")
    assert pixel(hunter, (2, 1)) == CAPTURE_RGB       # a cross's centre
    x0, y0, x1, y1 = hunter.cells[(1, 0)]             # a ring: green on its rim, not at its centre
    ring = [image.getpixel((x, (y0 + y1) // 2)) for x in range(x0, x1)]
    assert MOVE_RGB in ring and pixel(hunter, (1, 0)) != MOVE_RGB
    # +y is up: the pawn's forward step is above its square
    pawn = rendered.layout.card("P")
    assert pawn.cells[(0, 1)][1] < pawn.cells[(0, 0)][1]


# ----------------------------------------------------------------------------- the scene, without pixels
def test_the_sheets_words_are_decided_in_its_scene(neisg):
    """What a card says is read from the scene: the painter only places it."""
    sheet = piece_sheet(neisg)
    assert sheet.title == f"{neisg.title}: pieces (neisg)"
    assert [card.letter for card in sheet.cards] == list(neisg.pieces)
    spirit = sheet.card("S")
    assert spirit.letters_line.endswith("cost 5.5 health") and spirit.name_line == neisg.pieces["S"].name
    assert sheet.card("P").betza_line == f"Betza: {neisg.pieces['P'].betza}"
    assert "orange square: on its first move only" in sheet.card("P").notes
    assert sheet.card("K").notes[0] == "royal: the player's king"
    assert [words for _, words in sheet.legend][0] == "moves or captures there"


def test_a_kind_that_never_moves_says_so_in_its_scene():
    territory = piece_sheet(load_preset("territory"))
    assert territory.card("Shdw").never_moves == "jumps next to an ally"
    assert territory.card("Wtr").never_moves is None
    assert all("cost" not in card.letters_line for card in territory.cards)     # drafted, not bought
    # the painted card writes exactly the scene's lines
    painted = render_piece_sheet(load_preset("territory")).layout.card("Lts")
    scene = territory.card("Lts")
    assert painted.texts[:3] == (scene.name_line, scene.letters_line, scene.betza_line)
