"""The pictures of Chess Arena and megachess (issues 21, 22), checked by meaning: what the layout
says is drawn where, and the colours at those places.

Arena: every power-up on the board with its kind (a new piece's letter), told apart by shape as well
as colour, at small sizes and in the colour-blind palette; the points board with the winners.
Megachess: each king's kingdom edged in its owner's colour, the fading pieces with the updates they have
left, the framing of a team, a player or a kingdom; the top 20, the caller's row and the teams.
Everything is drawn from the variant's answers (``board_additions``, ``standings_panel``).
"""

from __future__ import annotations

import io
from fractions import Fraction

import pytest
from PIL import Image

from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.state import GameState, PowerUp
from bot.engine.variants import variant_for
from bot.engine.variants.base import BoardAdditions, Fading, Kingdom, Mark
from bot.render.board import MAX_INSETS, Focus, focus_region, render_board
from bot.render.paint.health import render_health_board
from bot.render.scene.colours import DARK, PlayerColours
from bot.render.scene.health import shown_rows, standings_lines

ARENA = load_preset("arena")
MEGA = load_preset("megachess")
ALABASTER, METAL = "alabaster", "brushed metal"


def _image(rendered) -> Image.Image:
    return Image.open(io.BytesIO(rendered.png)).convert("RGB")


def _pixels(image: Image.Image, box) -> list[tuple[int, int, int]]:
    x0, y0, x1, y1 = box
    return [image.getpixel((x, y)) for x in range(x0, x1) for y in range(y0, y1)]


def _close(a, b, tolerance=12) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b))


# ============================================================================= arena: power-ups
def _arena(powerups, pieces=(("Ann", "K", (0, -8)), ("Bob", "K", (0, 8))), players=("Ann", "Bob"), **kwargs):
    people = [Player(name, colour) for name, colour in zip(players, ("Red", "Blue", "Green", "Orange"))]
    specs = [dict(owner=o, kind=k, square=s) for o, k, s in pieces]
    return GameState.build(ARENA, specs, people, powerups=tuple(powerups), **kwargs)


POWERUPS = (PowerUp("new", (3, 3), "N"), PowerUp("upgrade", (-4, 5)), PowerUp("king", (4, -3)),
            PowerUp("new", (-3, -4), "Q"))


def test_the_variant_labels_each_power_up_with_what_players_type_and_names_it():
    marks = variant_for(ARENA).board_additions(_arena(POWERUPS)).marks
    assert [(m.square, m.kind, m.piece, m.label, m.words) for m in marks] == [
        ((-4, 5), "upgrade", None, "=", "power-up: upgrade"),
        ((-3, -4), "new", "Q", "+Q", "power-up: new queen"),
        ((3, 3), "new", "N", "+N", "power-up: new knight"),
        ((4, -3), "king", None, "K", "power-up: king me"),
    ]


@pytest.mark.parametrize("palette", ["default", "colourblind"])
def test_the_arena_board_draws_every_power_up_on_its_square(palette):
    state = _arena(POWERUPS)
    rendered = render_board(ARENA, state, palette=palette)
    layout, image = rendered.layout, _image(rendered)
    drawn = {mark.square: (mark, box) for mark, box in layout.marks}
    assert set(drawn) == {p.at for p in POWERUPS}
    for square, (mark, box) in drawn.items():
        square_box = layout.box(square)
        # the token fills most of its square, inside it
        assert square_box[0] <= box[0] and box[2] <= square_box[2] and square_box[1] <= box[1] and box[3] <= square_box[3]
        assert box[2] - box[0] >= 0.8 * layout.scale
        # and it shows: a good part of the square is no longer the board's colour
        board = image.getpixel((square_box[0] + 1, square_box[1] + 1))
        changed = sum(1 for pixel in _pixels(image, square_box) if not _close(pixel, board))
        assert changed > 0.3 * layout.scale ** 2, mark
    assert {(mark.kind, mark.label) for mark, _ in layout.marks} == {("new", "+N"), ("new", "+Q"), ("upgrade", "="),
                                                                   ("king", "K")}


def _silhouette(image: Image.Image, box, background) -> set[tuple[int, int]]:
    x0, y0 = box[0], box[1]
    return {(x - x0, y - y0) for x in range(box[0], box[2]) for y in range(box[1], box[3])
            if not _close(image.getpixel((x, y)), background, 30)}


def test_power_up_kinds_differ_in_shape_not_only_in_colour():
    """Readable without colour (the colour-blind palette changes players' colours, not this): the
    three kinds' silhouettes on the same square colour overlap by far less than all of them."""
    state = _arena([PowerUp("new", (2, 2), "N"), PowerUp("upgrade", (4, 2)), PowerUp("king", (6, 2))])
    rendered = render_board(ARENA, state, palette="colourblind")
    image, layout = _image(rendered), rendered.layout
    shapes = {}
    for mark, box in layout.marks:
        square = layout.box(mark.square)
        shapes[mark.kind] = _silhouette(image, square, image.getpixel((square[0] + 1, square[1] + 1)))
    for a, b in (("new", "upgrade"), ("new", "king"), ("upgrade", "king")):
        union = shapes[a] | shapes[b]
        assert len(shapes[a] & shapes[b]) < 0.85 * len(union), (a, b)


def test_power_ups_stay_drawn_with_their_letter_on_small_squares():
    """A wide region draws small squares: each token still fills its square and carries ink (its
    label) of the contrasting colour."""
    state = _arena(POWERUPS)
    rendered = render_board(ARENA, state, region=(-100, -100, 100, 100))
    layout, image = rendered.layout, _image(rendered)
    assert not layout.overview and layout.scale <= 20
    assert len(layout.marks) == 4
    for mark, box in layout.marks:
        assert box[2] - box[0] >= 0.8 * layout.scale
        colours = set(_pixels(image, box))
        assert len(colours) > 4       # the shape, its edge and the label's ink, not a flat square


def test_a_mark_under_a_piece_is_drawn_in_the_corner_and_the_piece_stays_visible():
    state = _arena([PowerUp("new", (0, 8), "R")])
    rendered = render_board(ARENA, state)
    (mark, box), = rendered.layout.marks
    square = rendered.layout.box((0, 8))
    assert (square[0] + square[2]) / 2 <= box[0] < box[2] <= square[2] and (square[1] + square[3]) / 2 <= box[1] < box[3] <= square[3]
    centre = ((square[0] + square[2]) // 2, (square[1] + square[3]) // 2)
    assert _image(rendered).getpixel(centre) == PlayerColours(state, "default").of("Bob")[-1]


def test_any_mark_kind_draws_generically_with_its_label_and_words():
    """Territory's areas and future marks: an unknown kind is a token with its label."""
    state = _arena([])
    extra = BoardAdditions(marks=(Mark((5, 5), "goal", label="G", words="the goal"),))
    rendered = render_board(ARENA, state, additions=extra)
    assert [(m.kind, m.label) for m, _ in rendered.layout.marks] == [("goal", "G")]


def test_the_default_region_includes_every_power_up():
    pieces = (("Ann", "K", (-7, -7)), ("Bob", "K", (-6, -7)))
    assert not render_board(ARENA, _arena([], pieces=pieces)).layout.contains((5, 5))
    rendered = render_board(ARENA, _arena([PowerUp("king", (5, 5))], pieces=pieces))
    assert rendered.layout.contains((5, 5)) and [m.square for m, _ in rendered.layout.marks] == [(5, 5)]


# ============================================================================= arena: the points board
def _points_game(bob: int, pending=()):
    players = [Player("Ann", "Red", Fraction(38), Fraction(20)), Player("Bob", "Blue", Fraction(bob), Fraction(50),
                                                                          pending=pending)]
    pieces = [("Ann", "K", (0, -8)), ("Ann", "R", (1, -8)), ("Bob", "K", (0, 8)), ("Bob", "N", (2, 8))]
    return GameState.build(ARENA, [dict(owner=o, kind=k, square=s) for o, k, s in pieces], players, update=12)


def test_the_points_board_shows_points_with_the_variant_s_headings_and_no_events():
    state = _points_game(61, pending=("B",))
    variant = variant_for(ARENA)
    panel = variant.standings_panel(state)
    rendered = render_health_board(panel, state, game_title=variant.title)
    layout = rendered.layout
    assert layout.title == "Points board" and layout.events_box is None and not layout.result
    assert layout.lines == ["1. Bob (Blue): 61 points --- 2 pieces, 1 king",
                            "2. Ann (Red): 38 points --- 2 pieces, 1 king"]
    # the pending placement: in the standings panel, with what to type
    assert layout.row("Bob").regen == "2 moves a round, places +B (bishop)"
    assert panel.line_heading == "Standing: points --- pieces, kings" and panel.note_heading == "This round"
    assert layout.footer[0].startswith("🏆 winner (first to 100 points")


def test_a_won_game_shows_the_winner_s_banner_and_row():
    state = _points_game(104)
    variant = variant_for(ARENA)
    panel = variant.standings_panel(state)
    assert panel.winners == ("Bob",)
    rendered = render_health_board(panel, state, game_title=variant.title)
    layout, image = rendered.layout, _image(rendered)
    assert layout.winners == ("Bob",) and layout.result.startswith("Bob wins: the first to 100 points")
    assert layout.result_box is not None and layout.result_box[3] <= layout.rows[0].box[1]
    row = layout.row("Bob")
    assert row.regen == "🏆 winner"
    assert image.getpixel((row.box[0] + 2, row.box[1] + 2)) == (255, 236, 170)        # the gold row
    # the trophy is drawn: gold pixels where the note starts (DejaVu Sans has no 🏆)
    note = [p for p in _pixels(image, (row.text_box[2], row.box[1], row.box[2], row.box[3]))
            if _close(p, (240, 180, 20), 30)]
    assert note
    assert standings_lines(panel)[-1] == f"🏆 {layout.result}"


# ============================================================================= megachess: the board
def _mega(pieces, players, update=8):
    specs = [dict(owner=o, kind=k, square=s, **extra) for o, k, s, *rest in pieces for extra in [rest[0] if rest else {}]]
    return GameState.build(MEGA, specs, players, update=update)


def _mega_players():
    return [Player("Ann", "Purple", Fraction(120), team=ALABASTER), Player("Bob", "Orange", Fraction(80), team=ALABASTER),
            Player("Cid", "Teal", Fraction(200), team=METAL)]


MEGA_PIECES = [("Ann", "K", (0, 0)), ("Ann", "R", (20, 0), {"fade": 5}), ("Ann", "P", (3, 1)),
               ("Ann", "P", (0, 17), {"fade": 3}), ("Bob", "K", (30, 6)), ("Bob", "N", (31, 7)),
               ("Cid", "K", (60, 40)), ("Cid", "Q", (61, 41))]


def test_the_board_draws_each_kingdom_s_edge_in_its_owner_s_colour_and_leaves_its_squares_plain():
    state = _mega(MEGA_PIECES, _mega_players())
    rendered = render_board(MEGA, state, focus="kingdom:Ann")
    layout, image = rendered.layout, _image(rendered)
    assert [(k.owner, k.centre, k.radius) for k in layout.kingdoms] == [("Ann", (0, 0), 16), ("Bob", (30, 6), 16)]
    inside = layout.kingdom_squares("Ann")
    assert (16, 0) in inside and (0, -16) in inside and (17, 0) not in inside and (12, 12) not in inside
    purple = PlayerColours(state, "default").of("Ann")[0]
    # a dark square inside, away from the edge, is the same colour as one outside: no tint (issue 39)
    inside_pixel = image.getpixel(tuple(c + 3 for c in layout.box((2, 2))[:2]))
    assert inside_pixel == image.getpixel(tuple(c + 3 for c in layout.box((-16, -16))[:2]))
    # the edge: a band of the owner's colour inside the square at the kingdom's edge
    x0, y0, x1, y1 = layout.box((16, 0))
    assert image.getpixel((x1 - 3, (y0 + y1) // 2)) == purple
    # the pieces stay in their colour
    rook = layout.box((3, 1))
    assert image.getpixel(((rook[0] + rook[2]) // 2, (rook[1] + rook[3]) // 2)) == purple


def test_fading_pieces_show_the_updates_they_have_left():
    """D60 through the variant: the rook (fade 5, time to live 7) has 3 updates left, the pawn
    (fade 3, time to live 3) its last; both outside Ann's kingdom."""
    state = _mega(MEGA_PIECES, _mega_players())
    rendered = render_board(MEGA, state, focus="player:Ann")
    layout, image = rendered.layout, _image(rendered)
    badges = {fading.square: (fading.left, box) for fading, box in layout.fading}
    assert {square: left for square, (left, _) in badges.items()} == {(20, 0): 3, (0, 17): 1}
    for square, (left, box) in badges.items():
        square_box = layout.box(square)
        assert square_box[0] == box[0] and square_box[1] == box[1] and box[2] - box[0] >= 0.4 * layout.scale
        rim = image.getpixel((box[0] + (box[2] - box[0]) // 2, box[1] + 2))
        assert _close(rim, (200, 25, 25) if left == 1 else (245, 190, 50), 40), (square, rim)


def test_focus_frames_a_kingdom_a_player_and_a_team():
    state = _mega(MEGA_PIECES, _mega_players())
    additions = variant_for(MEGA).board_additions(state)
    assert focus_region(state, additions, "kingdom:Ann", None) == ((-17, -17, 17, 17), "kingdom of Ann")
    assert focus_region(state, additions, "Cid", None) == ((43, 23, 77, 57), "kingdom of Cid")   # a bare name
    assert focus_region(state, additions, "player:ann", None) == ((-2, -2, 22, 19), "Ann's pieces")
    region, words = focus_region(state, additions, Focus("team", "Alabaster"), None)
    assert words == "team alabaster" and region == (-2, -2, 33, 19)
    rendered = render_board(MEGA, state, focus="team:alabaster")
    assert rendered.layout.focus == "team alabaster" and rendered.layout.region == region
    assert all(rendered.layout.contains(p.square) for name in ("Ann", "Bob") for p in state.board.owned_by(name))
    assert not rendered.layout.contains((60, 40))


def test_a_player_without_a_king_is_framed_by_their_pieces():
    state = _mega([("Ann", "R", (5, 5)), ("Ann", "P", (8, 9)), ("Cid", "K", (60, 40))], _mega_players())
    additions = variant_for(MEGA).board_additions(state)
    assert focus_region(state, additions, "kingdom:Ann", None) == ((3, 3, 11, 11), "Ann's pieces")


@pytest.mark.parametrize("focus, words", [
    ("kingdom:Zed", "no player named 'Zed'"),
    ("team:chrome", "no player of this game is on a team named 'chrome' (teams: alabaster, brushed metal)"),
    ("kingdom:Bob", "Bob has no pieces on the board"),
    ("castle:Ann", "a focus is team:NAME, player:NAME, kingdom:NAME, a viewport such as B2, or all"),
])
def test_a_focus_on_nothing_is_refused_in_words(focus, words):
    players = _mega_players()
    state = _mega([("Ann", "K", (0, 0)), ("Cid", "K", (60, 40))], players)
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        render_board(MEGA, state, focus=focus)


def test_the_overview_of_a_large_game_still_renders_and_a_kingdom_focus_is_readable():
    """Kings far apart, more areas than insets would show readably: the whole board is an
    overview; a kingdom's frame is a board of at least 20 pixels a square with the kingdom drawn."""
    count = MAX_INSETS + 4
    players = [Player(f"P{i}", "Blue" if i % 2 else "Orange", team=(ALABASTER, METAL)[i % 2]) for i in range(count)]
    pieces = [(f"P{i}", "K", (i * 900, (i % 3) * 700)) for i in range(count)]
    pieces += [(f"P{i}", "P", (i * 900 + 2, (i % 3) * 700 + 1)) for i in range(count)]
    state = _mega(pieces, players)
    assert render_board(MEGA, state).layout.overview
    rendered = render_board(MEGA, state, focus="kingdom:P7")
    assert not rendered.layout.overview and rendered.layout.scale >= 20
    assert [k.owner for k in rendered.layout.kingdoms] == ["P7"]


# ============================================================================= megachess: the standings
def _many(count=30, update=40):
    players, pieces = [], []
    for i in range(count):
        name = f"Player{i:02d}"
        players.append(Player(name, "Blue" if i % 2 else "Orange", Fraction(1000 - 10 * i), Fraction(i),
                              team=(ALABASTER, METAL)[i % 2]))
        pieces.append(dict(owner=name, kind="K", square=(i * 40, 0)))
    return GameState.build(MEGA, pieces, players, update=update)


def test_an_endless_game_shows_the_top_20_and_the_caller_s_own_rank():
    state = _many()
    variant = variant_for(MEGA)
    panel = variant.standings_panel(state)
    assert panel.shown == 20 and len(panel.rows) == 30
    rendered = render_health_board(panel, state, game_title=variant.title, caller="Player24")
    layout = rendered.layout
    assert [row.rank for row in layout.rows] == list(range(1, 21)) + [25]
    assert layout.caller == "Player24" and layout.hidden == 9 and layout.gap_box is not None
    assert layout.gap_box[1] >= layout.rows[19].box[3] and layout.gap_box[3] <= layout.rows[20].box[1]
    image = _image(rendered)
    own = layout.row("Player24").box
    assert _close(image.getpixel((own[0] + 1, (own[1] + own[3]) // 2)), (20, 90, 200), 20)     # outlined
    lines = standings_lines(panel, "Player24")
    assert lines[:20] == panel.lines[:20]
    assert lines[20:23] == ["... 4 more ...", panel.row_of("Player24").line, "... and 5 more"]


def test_a_caller_in_the_top_20_is_outlined_where_they_stand():
    state = _many()
    variant = variant_for(MEGA)
    panel = variant.standings_panel(state)
    top, own, hidden = shown_rows(panel, "Player03")
    assert len(top) == 20 and own is None and hidden == 10
    layout = render_health_board(panel, state, game_title=variant.title, caller="Player03").layout
    assert len(layout.rows) == 20 and layout.caller == "Player03" and layout.hidden == 10
    assert standings_lines(panel, "Player03")[20] == "... and 10 more"
    # someone who has not joined: the top 20 only
    assert render_health_board(panel, state, game_title=variant.title, caller="Nobody").layout.caller is None


def test_each_team_s_total_is_drawn_under_the_rows():
    state = _many()
    variant = variant_for(MEGA)
    panel = variant.standings_panel(state)
    layout = render_health_board(panel, state, game_title=variant.title).layout
    totals = {team: sum(p.balance for p in state.players.values() if p.team == team) for team in (ALABASTER, METAL)}
    assert [(t.name, t.players, t.points) for t in layout.teams] == \
        [(ALABASTER, 15, str(totals[ALABASTER])), (METAL, 15, str(totals[METAL]))]
    assert layout.teams[0].text == f"alabaster: {totals[ALABASTER]} points · 15 players"
    assert layout.teams[0].box[1] > layout.rows[-1].box[3]
    assert layout.teams[0].bar_fraction == 1.0 and layout.teams[1].bar_fraction < 1.0
    assert standings_lines(panel)[-2:] == [t.text for t in layout.teams]


def test_the_megachess_note_counts_fading_pieces_and_warns_of_the_last_update():
    """Ann's rook has 3 updates left, her pawn its last: alabaster's next update is 9."""
    state = _mega(MEGA_PIECES, _mega_players(), update=8)
    panel = variant_for(MEGA).standings_panel(state)
    ann, bob = panel.row_of("Ann"), panel.row_of("Bob")
    assert ann.note == "2 fading, 1 gone after update 9 unless moved" and ann.alarm
    assert bob.note == "none fading" and not bob.alarm
    assert panel.note_heading == "Fading (D60)" and not panel.draws_events


def test_a_game_without_teams_or_a_top_keeps_its_lines_as_they_are():
    neisg = load_preset("neisg")
    state = GameState.build(neisg, [dict(owner="Holo", kind="K", square=(0, 0))], [Player("Holo", "Purple")])
    panel = variant_for(neisg).standings_panel(state)
    # the lines as they are, under the heading that names the score (issue 27 item 5)
    assert standings_lines(panel, "Holo") == [panel.text_heading, *panel.lines]
    assert shown_rows(panel, "Holo") == (panel.rows, None, 0)
    assert panel.text_heading.startswith("Rank. Player (colour): score --- Health (score: the cost of")


def test_the_variant_answers_the_renderer_reads_are_its_own():
    """Kingdoms and fading come from the variant: a hand-made answer is drawn as given."""
    state = _mega([("Ann", "P", (0, 0))], _mega_players())
    additions = BoardAdditions(kingdoms=(Kingdom("Ann", ALABASTER, (0, 0), 2),),
                               fading=(Fading((0, 0), "Ann", 1, 2, 9),))
    layout = render_board(MEGA, state, additions=additions).layout
    assert layout.kingdom_squares("Ann") == {(x, y) for x in range(-2, 3) for y in range(-2, 3) if x * x + y * y <= 4}
    assert [(f.square, f.left) for f, _ in layout.fading] == [((0, 0), 2)]


def test_overlapping_kingdoms_leave_every_square_its_own_colour():
    """Where kingdoms overlap the square keeps the board's colour (issue 39: ten tints over each
    other made mud under the pieces): each kingdom is only its edge."""
    players = [Player("Ann", "Navy", team=ALABASTER), Player("Bob", "Maroon", team=METAL),
               Player("Cid", "Forest", team=ALABASTER)]
    state = _mega([("Ann", "K", (0, 0)), ("Bob", "K", (4, 0)), ("Cid", "K", (2, 4))], players)
    rendered = render_board(MEGA, state, region=(-20, -20, 24, 24))
    image, layout = _image(rendered), rendered.layout

    def colour(square):
        x0, y0, x1, y1 = layout.box(square)
        return image.getpixel(((x0 + x1) // 2, (y0 + y1) // 2))

    # (-13, -3) only Ann's, (17, -3) only Bob's, (4, 18) only Cid's, (2, 2) all three: all dark squares
    assert [sorted(layout_owner for layout_owner in ("Ann", "Bob", "Cid") if square in layout.kingdom_squares(layout_owner))
            for square in ((-13, -3), (17, -3), (4, 18), (2, 2))] == [["Ann"], ["Bob"], ["Cid"], ["Ann", "Bob", "Cid"]]
    assert {colour(square) for square in ((-13, -3), (17, -3), (4, 18), (2, 2), (-20, -20))} == {DARK}


def test_the_endless_boards_scene_holds_the_top_the_gaps_the_caller_and_the_teams():
    """Without pixels: the top 20, the line for the rows left out, the caller's own row outlined
    after them, and each team's bar against the leading team's."""
    from bot.render.scene.health import GapRow, PlayerRow, health_scene

    state = _many()
    variant = variant_for(MEGA)
    scene = health_scene(variant.standings_panel(state), state, game_title=variant.title, caller="Player24")
    kinds = [type(entry) for entry in scene.entries]
    assert kinds == [PlayerRow] * 20 + [GapRow, PlayerRow, GapRow]
    assert [entry.words for entry in scene.entries if isinstance(entry, GapRow)] == ["⋯ 4 more ⋯", "⋯ and 5 more"]
    assert scene.entries[21].caller and scene.entries[21].standing.name == "Player24" and scene.hidden == 9
    assert scene.teams[0].bar_fraction == 1.0 and scene.teams[1].bar_fraction < 1.0
    assert scene.teams[0].words.startswith("alabaster: ")


def test_a_team_s_line_counts_its_points_and_players_in_agreeing_words():
    """Issue 39: "brushed metal: 1 points · 1 player" read wrong; one of each is singular."""
    from bot.engine.variants.base import TeamTotal
    from bot.render.scene.health import team_words

    assert team_words(TeamTotal("brushed metal", 1, Fraction(1)), "points") == "brushed metal: 1 point · 1 player"
    assert team_words(TeamTotal("alabaster", 2, Fraction(5, 2)), "points") == "alabaster: 2.5 points · 2 players"
    assert team_words(TeamTotal("alabaster", 3, Fraction(0)), "health") == "alabaster: 0 health · 3 players"
