"""Regenerate the reference renders in this folder (the README shows them).

    .venv/bin/python docs/images/make_images.py

board-small.png      a small neisg game with the last update's moves and a capture
board-states.png     every state the board shows: capturable, disabled, check badges, implosions,
                     an energy pawn, obstacles and voids, a possessed piece, a harpy's cargo, frozen
                     pieces, Variety's locked pieces, King of the Hill, a two-tone player
board-colourblind.png the small game in the colour-blind-safe palette
board-sandbox.png    a corner of the bounded sandbox board: bounds and the squares outside
overview.png         100,000 pieces in 100 armies over two million squares each way: the overview
board-insets.png     the README's example after its update: three pieces far apart, drawn as three
                     named insets (C3, B2, A1) instead of one board of 65 x 65 squares
healthboard.png      a neisg health board: kings and a kingless player, two events running
pieces-neisg.png     the neisg piece sheet: every kind with its movement diagram
board-arena.png      a Chess Arena round: four armies, the four power-ups (new knight, new queen,
                     upgrade, king me)
board-arena-colourblind.png  the same in the colour-blind-safe palette
healthboard-arena.png        the arena's points board of a finished game: the winner's banner and row
board-megachess.png  a megachess game framed on one player's kingdom (focus="kingdom:Cid"): kingdoms' edges
                     in their owners' colours, fading pieces with the updates they have left
board-megachess-12.png   the whole board of a megachess game of 12 players whose kingdoms overlap: each
                     kingdom its edge only (no tint), its owner's name on it, alike colours dashed apart
board-megachess-100.png  a game of 100 players (repeated colours) framed on Ada's kingdom: 13 kingdoms
healthboard-megachess.png    megachess standings of 30 players as Quinn asks: the top 20, Quinn's
                     own row, each team's total
board-territory.png  a territory game after turn 13: areas, control frames, the Moon's pull and move,
                     a placement, the cycle with turn 14 outlined, both reserves, the draft area
board-territory-colourblind.png  the same in the colour-blind-safe palette
pieces-territory.png the territory piece sheet: the 20 pieces, their diagrams and abilities
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from bot.engine.model import Player  # noqa: E402
from bot.engine.ruleset import load_preset  # noqa: E402
from bot.engine.state import ActiveEvent, GameState, LastMove  # noqa: E402
from bot.render.board import render_board  # noqa: E402


def small_game():
    ruleset = load_preset("neisg")
    players = [Player("Holo", "Purple"), Player("Aidan", "Crimson/Yellow"), Player("Mira", "Teal"),
               Player("Sol", "Orange"), Player("Bea", "Sky")]
    P = lambda owner, kind, x, y, **kw: dict(owner=owner, kind=kind, square=(x, y), **kw)  # noqa: E731
    pieces = [
        P("Holo", "K", 2, 3), P("Holo", "Q", 4, 5), P("Holo", "N", 5, 2, check="fresh"), P("Holo", "P", 3, -2),
        P("Holo", "P", 4, -1), P("Holo", "R", 0, 6),
        P("Aidan", "K", 10, 8), P("Aidan", "B", 8, 6), P("Aidan", "Ab", 11, 5), P("Aidan", "P", 9, -3),
        P("Aidan", "L", 7, 9, check="capturable"),
        P("Mira", "K", -5, 9), P("Mira", "R", -3, 7), P("Mira", "U", -4, 4), P("Mira", "G", -6, 8),
        P("Sol", "K", 12, -2), P("Sol", "Dr", 9, 0), P("Sol", "N", 13, 1, disabled=True),
        P("Bea", "K", -6, -3), P("Bea", "C", -2, 0), P("Bea", "P", -4, -4), P("Bea", "Hp", -1, -5, carrying="N"),
    ]
    state = GameState.build(ruleset, pieces, players, update=14)
    moves = [((2, 5), (4, 5), False), ((7, 8), (8, 6), True), ((-3, 2), (-3, 7), False), (None, (13, 1), False)]
    return ruleset, state, moves


def states_game():
    ruleset = load_preset("neisg")
    players = [Player("Holo", "Purple"), Player("Aidan", "Crimson/Yellow"), Player("Mira", "Teal"),
               Player("Sol", "Orange")]
    P = lambda owner, kind, x, y, **kw: dict(owner=owner, kind=kind, square=(x, y), **kw)  # noqa: E731
    pieces = [
        P("Holo", "K", 0, 0), P("Holo", "Q", 2, 1, check="capturable"), P("Holo", "P", 1, 6, energy=True),
        P("Holo", "R", 3, 3, check="fresh"), P("Holo", "B", 4, 3, check="spent"), P("Holo", "N", 5, 1, disabled=True),
        P("Holo", "Ab", -2, 2, spirit=True), P("Holo", "Hp", -3, 4, carrying="R"),
        P("Aidan", "K", 7, 6), P("Aidan", "Z", 6, 3), P("Aidan", "W", 8, 2), P("Aidan", "An", 8, 4),
        P("Aidan", "Sp", 9, 5, disabled=True),
        P("Mira", "K", -3, -2), P("Mira", "Dr", -1, -1), P("Mira", "Tt", 4, -2), P("Mira", "S", 6, -2),
        P("Mira", "D", 7, -1), P("Mira", "E", 5, -3),
        P("Sol", "K", 9, -3), P("Sol", "H", 1, -3), P("Sol", "Ht", 2, -4), P("Sol", "Pl", 3, 5),
        P("Sol", "C", 6, 0), P("Sol", "U", 8, -4),
        P(None, "O", -1, 3), P(None, "O", -2, 5), P(None, "V", 0, 5), P(None, "V", 10, 1),
        P("Holo", "N", 4, 0), P("Sol", "B", 4, 0),  # a collision: two pieces on one square
    ]
    state = GameState.build(ruleset, pieces, players, update=23,
                            implosions=frozenset({(4, 0), (-2, -3)}),
                            events=(ActiveEvent("Variety", 20), ActiveEvent("King of the Hill", 16)),
                            moved_last_update=(LastMove((9, 3), (9, 5)), LastMove((2, 5), (2, 1))),
                            marked=((10, -2),))
    moves = [((9, 3), (9, 5), False), ((2, 5), (2, 1), False), ((-1, 1), (-1, -1), True)]
    return ruleset, state, moves


def sandbox_corner():
    ruleset = load_preset("sandbox")
    players = [Player("Ash", "Forest"), Player("Brook", "Rose"), Player("Cole", "Gold")]
    rng = random.Random(3)
    letters = ["P", "P", "P", "N", "B", "R", "G", "L", "E", "U", "Q"]
    pieces, seen = [], set()
    for owner, (cx, cy) in zip(("Ash", "Brook", "Cole"), ((-92, 6), (-85, 12), (-94, 15))):
        pieces.append(dict(owner=owner, kind="K", square=(cx, cy)))
        seen.add((cx, cy))
        for _ in range(9):
            square = (cx + rng.randint(-4, 4), cy + rng.randint(-4, 4))
            if square in seen or not (-99 <= square[0] <= 99 and 1 <= square[1] <= 99):
                continue
            seen.add(square)
            pieces.append(dict(owner=owner, kind=rng.choice(letters), square=square))
    return ruleset, GameState.build(ruleset, pieces, players, update=31)


def armies(count: int = 100_000, armies: int = 100, spread: int = 1_000_000, seed: int = 1):
    """``count`` pieces in ``armies`` clusters of about 60 x 60 squares spread over
    [-spread, spread] each way (tests/render/test_board.py uses the same shape)."""
    ruleset = load_preset("neisg")
    rng = random.Random(seed)
    from bot.render.palette import colour_names
    names = colour_names()
    players = [Player(f"P{i:03d}", names[i % len(names)]) for i in range(armies)]
    letters = ["P", "P", "P", "P", "N", "B", "R", "Q", "G", "L"]
    per_army = count // armies
    pieces, seen = [], set()
    for player in players:
        cx, cy = rng.randint(-spread + 100, spread - 100), rng.randint(-spread + 100, spread - 100)
        placed = 0
        while placed < per_army:
            square = (cx + rng.randint(-30, 30), cy + rng.randint(-30, 30))
            if square in seen:
                continue
            seen.add(square)
            pieces.append(dict(owner=player.name, kind="K" if placed == 0 else rng.choice(letters), square=square))
            placed += 1
    return ruleset, GameState.build(ruleset, pieces, players, update=120)


def boards() -> dict:
    """board-small.png, board-colourblind.png, board-states.png, board-sandbox.png, overview.png,
    board-insets.png: file name -> a function drawing its PNG bytes."""
    def small(palette="default"):
        ruleset, state, moves = small_game()
        return render_board(ruleset, state, last_moves=moves, palette=palette).png

    def states():
        ruleset, state, moves = states_game()
        return render_board(ruleset, state, last_moves=moves).png

    return {
        "board-small.png": small,
        "board-colourblind.png": lambda: small("colourblind"),
        "board-states.png": states,
        "board-sandbox.png": lambda: render_board(*sandbox_corner()).png,
        "overview.png": lambda: render_board(*armies()).png,
        "board-insets.png": far_apart,
    }


def far_apart() -> bytes:
    """The README's example (tests/scenarios/neisg/king-captured.toml) after its update."""
    from bot.engine.runner import run_scenario
    from bot.engine.scenario import load_scenario

    scenario = load_scenario(HERE.parents[1] / "tests" / "scenarios" / "neisg" / "king-captured.toml")
    state = run_scenario(scenario).state
    return render_board(scenario.ruleset, state).png


# ----------------------------------------------------------------------------- health board, piece sheet
def health_board_game():
    """A neisg health board mid-game: players with and without a king, two events running."""
    from fractions import Fraction

    ruleset = load_preset("neisg")
    players = [
        Player("Holo", "Purple", Fraction(19), Fraction(12)),
        Player("Aidan", "Crimson/Yellow", Fraction(12), Fraction(9), king_lost_at=22),
        Player("Mira", "Teal", Fraction(31), Fraction(40)),
        Player("Zed", "Yellow", Fraction(23, 2), Fraction(3)),
        Player("Quill", "Navy", Fraction(7), Fraction(0)),
        Player("Bea", "Orange", Fraction(26), Fraction(18)),
    ]
    pieces = [
        ("Holo", "K", (0, 0)), ("Holo", "Q", (1, 0)), ("Holo", "R", (2, 0)), ("Holo", "N", (3, 1)),
        ("Aidan", "Dr", (5, 5)), ("Aidan", "N", (6, 7)),
        ("Mira", "K", (-5, 5)), ("Mira", "An", (-5, 6)), ("Mira", "B", (-6, 6)),
        ("Zed", "K", (8, 8)), ("Zed", "S", (7, 7)),
        ("Quill", "K", (-9, -9)), ("Quill", "P", (-8, -8)), ("Quill", "P", (-7, -8)),
        ("Bea", "K", (12, -3)), ("Bea", "C", (12, -2)), ("Bea", "L", (11, -2)), ("Bea", "G", (13, -2)),
    ]
    state = GameState.build(ruleset, [dict(owner=o, kind=k, square=sq) for o, k, sq in pieces], players,
                            update=24, events=(ActiveEvent("Harvest", 16), ActiveEvent("King of the Hill", 23)),
                            marked=((3, 4),))
    return ruleset, state


def health_board_and_piece_sheet() -> dict:
    """healthboard.png (the neisg health board) and pieces-neisg.png (the neisg piece sheet)."""
    from bot.render.paint.pieces import render_piece_sheet

    return {
        "healthboard.png": lambda: _health(*health_board_game()),
        "pieces-neisg.png": lambda: render_piece_sheet(load_preset("neisg")).png,
    }


def _health(ruleset, state, caller=None) -> bytes:
    from bot.engine.variants import variant_for
    from bot.render.paint.health import render_health_board

    variant = variant_for(ruleset)
    return render_health_board(variant.standings_panel(state), state, game_title=variant.title, caller=caller).png


# ----------------------------------------------------------------------------- arena and megachess
def arena_game(over: bool = False):
    """Round 10 of a four-player Chess Arena (set up by the variant, then some pieces moved and some
    captured): four power-ups on the board, Bob has a bishop to place. ``over``: Bob has 104 points,
    the game is won."""
    from fractions import Fraction

    from bot.engine.arena import armies as arena_armies
    from bot.engine.state import PowerUp

    ruleset = load_preset("arena")
    names = ["Ann", "Bob", "Cid", "Dee"]
    colours = {"Ann": "Red", "Bob": "Blue", "Cid": "Green", "Dee": "Orange"}
    points = {"Ann": 38, "Bob": 104 if over else 61, "Cid": 24, "Dee": 45}
    moved = {(0, -7): (0, -3), (1, -8): (3, -5), (7, 0): (3, 1), (8, 1): (6, 3), (0, 7): (-2, 4),
             (-1, 8): (-3, 6), (-7, 0): (-4, -2), (-8, 1): (-5, 3), (0, -6): (0, -5), (6, 0): (5, 0)}
    gone = {(1, -7), (-1, -7), (7, 1), (0, 6), (1, 7), (-6, 0), (-7, 1), (8, 2)}
    pieces = [dict(spec, square=moved.get(spec["square"], spec["square"]))
              for spec in arena_armies(ruleset, names) if spec["square"] not in gone]
    players = [Player(n, colours[n], Fraction(points[n]), Fraction(points[n] - 10),
                      pending=("B",) if n == "Bob" and not over else ()) for n in names]
    powerups = (PowerUp("new", (3, 3), "N"), PowerUp("upgrade", (-4, 5)), PowerUp("king", (4, -3)),
                PowerUp("new", (-3, -4), "Q"))
    state = GameState.build(ruleset, pieces, players, update=14 if over else 11, powerups=powerups,
                            moved_last_update=(LastMove((0, -7), (0, -3)), LastMove((7, 0), (3, 1))))
    return ruleset, state


MEGACHESS_NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lou", "Max", "Ned",
                   "Oda", "Pia", "Quinn", "Rex", "Sol", "Tam", "Uma", "Vic", "Wes", "Xia", "Yul", "Zoe", "Abe",
                   "Bea", "Cal", "Dot"]


def megachess_game(players: int = 6):
    """Update 40 of megachess: players on two teams, each king with its starter army (D63) spread a
    little, and pieces fading outside their kingdoms with 1 to 7 updates left. The first six kings
    stand close together, the others far away."""
    import random
    from fractions import Fraction

    from bot.render.palette import colour_names

    ruleset = load_preset("megachess")
    rng = random.Random(40)
    kings = [(0, 0), (30, 6), (52, 30), (24, 44), (6, 34), (60, -4)]
    kings += [(200 + 40 * (i % 6), 40 * (i // 6)) for i in range(max(0, players - len(kings)))]
    names = MEGACHESS_NAMES[:players]
    first = ["Blue", "Orange", "Purple", "Teal", "Crimson", "Olive"]
    palette = first + [c for c in colour_names() if c not in first and c != "Black"]
    army = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
    army = [("P", d) for d in army] + list(zip("RNBQBNR", [(-2, 1), (-2, 2), (-1, 2), (0, 2), (1, 2), (2, 2), (2, 1)]))
    pieces, seen, people = [], set(), []
    for index, (name, (kx, ky)) in enumerate(zip(names, kings)):
        team = ("alabaster", "brushed metal")[index % 2]
        people.append(Player(name, palette[index % len(palette)], Fraction(rng.randint(40, 420)),
                             Fraction(rng.randint(0, 60)), team=team))
        for letter, (dx, dy) in [("K", (0, 0))] + army:
            square = (kx + dx * 2 + rng.randint(-2, 2) if letter != "K" else kx,
                      ky + dy * 2 + rng.randint(-2, 2) if letter != "K" else ky)
            if square not in seen:
                seen.add(square)
                pieces.append(dict(owner=name, kind=letter, square=square))
    strays = [("Ann", "R", (18, -6), 5), ("Ann", "P", (-4, 19), 2), ("Bob", "N", (44, 14), 4),
              ("Cid", "B", (37, 19), 1), ("Cid", "P", (67, 40), 3), ("Cid", "N", (48, 49), 5),
              ("Dee", "Q", (14, 62), 9), ("Fay", "P", (44, -12), 2), ("Eve", "R", (36, 38), 4)]
    for owner, letter, square, fade in strays:
        if owner in names and square not in seen:
            seen.add(square)
            pieces.append(dict(owner=owner, kind=letter, square=square, fade=fade))
    return ruleset, GameState.build(ruleset, pieces, people, update=40)


CROWD_NAMES = ("Ada Basil Cleo Edda Fenn Greta Hugo Ines Jory Lev Mira Nils Olga Pia Quinn Rae Sven Tove Uma "
               "Vik").split()


def megachess_crowd(players: int, seed: int = 39):
    """Update 39 of a crowded megachess game, drawn from ``seed``: ``players`` kings at least 10
    squares apart (Chebyshev) on a square holding about 260 squares a player, as joins crowd an
    endless board, each with its starter army spread by up to 3 squares; colours in the order /join
    offers them (repeated after 37 players), names from CROWD_NAMES (then Ada1, Basil1, ...)."""
    from bot.render.palette import distinct_colours

    ruleset = load_preset("megachess")
    rng = random.Random(seed)
    side = int((260 * players) ** 0.5)
    kings: list[tuple[int, int]] = []
    while len(kings) < players:
        king = (rng.randint(0, side), rng.randint(0, side))
        if all(max(abs(king[0] - x), abs(king[1] - y)) >= 10 for x, y in kings):
            kings.append(king)
    colours = distinct_colours()
    army = [("P", (dx, dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
    army += list(zip("RNBQBNR", [(-2, 1), (-2, 2), (-1, 2), (0, 2), (1, 2), (2, 2), (2, 1)]))
    pieces, seen, people = [], set(), []
    for index, (kx, ky) in enumerate(kings):
        name = CROWD_NAMES[index % len(CROWD_NAMES)] + (str(index // len(CROWD_NAMES)) if index >= len(CROWD_NAMES) else "")
        people.append(Player(name, colours[index % len(colours)], team=("alabaster", "brushed metal")[index % 2]))
        for letter, (dx, dy) in [("K", (0, 0))] + army:
            square = (kx, ky) if letter == "K" else (kx + dx * 2 + rng.randint(-3, 3), ky + dy * 2 + rng.randint(-3, 3))
            if square not in seen:
                seen.add(square)
                pieces.append(dict(owner=name, kind=letter, square=square))
    return ruleset, GameState.build(ruleset, pieces, people, update=40)


def arena_and_megachess() -> dict:
    """board-arena.png, board-arena-colourblind.png, healthboard-arena.png, board-megachess.png,
    board-megachess-12.png, board-megachess-100.png and healthboard-megachess.png."""
    return {
        "board-arena.png": lambda: render_board(*arena_game()).png,
        "board-arena-colourblind.png": lambda: render_board(*arena_game(), palette="colourblind").png,
        "healthboard-arena.png": lambda: _health(*arena_game(over=True)),
        "board-megachess.png": lambda: render_board(*megachess_game(), focus="kingdom:Cid").png,
        "board-megachess-12.png": lambda: render_board(*megachess_crowd(12)).png,
        "board-megachess-100.png": lambda: render_board(*megachess_crowd(100), focus="kingdom:Ada").png,
        "healthboard-megachess.png": lambda: _health(*megachess_game(players=30), caller="Quinn"),
    }


# ----------------------------------------------------------------------------- territory
def territory_game():
    """Turn 13 (Red's) of a territory game, played: Ann (Red) holds Green, Bob (Blue) holds Yellow,
    Purple is even and Bob's Chaos blocks Orange; Ann's Moon pulls Bob's Water from (1,2) to (1,1)
    and moves to (3,-2), and she places a Portal. Returns the ruleset, the state (Bob to play turn
    14) and the turn's report."""
    from collections import Counter

    from bot.engine.territory.state import TerritoryState
    from bot.engine.variants import variant_for

    ruleset = load_preset("territory")
    P = lambda owner, kind, x, y: dict(owner=owner, kind=kind, square=(x, y))  # noqa: E731
    pieces = [P("Ann", "Rck", -3, -2), P("Ann", "Sun", -2, -3), P("Ann", "Moon", 1, -4), P("Ann", "Bal", 0, -4),
              P("Ann", "Fire", 3, -1), P("Ann", "Mir", -1, -5), P("Ann", "Mir", -2, -5), P("Ann", "Wood", 4, -4),
              P("Bob", "Sun", 3, 2), P("Bob", "Sld", 4, 3), P("Bob", "Lts", 2, 1), P("Bob", "Chs", -3, 2),
              P("Bob", "Wtr", 1, 2), P("Bob", "Infy", 4, -2), P("Bob", "Pwr", -4, 4)]
    reserves = {"Ann": ("Ice", "Lf", "Prtl"), "Bob": ("Fre", "Fre", "Ldr", "Shdw", "Wind")}
    draft = ("Bal", "Fire", "Ice", "Moon", "Rck", "Wood")
    state = GameState.build(ruleset, pieces, [Player("Ann", "Red"), Player("Bob", "Blue")], update=13,
                            bounds=((-5, -5), (5, 5)), seats=("Ann", "Bob"))
    used = Counter(p["kind"] for p in pieces) + Counter(draft)
    used += Counter(kind for kinds in reserves.values() for kind in kinds)
    used["Mir"] -= 1                    # the Mirror's copy is not one of the pool's 40 pieces (T18)
    bag = [kind for kind in sorted(ruleset.pieces) for _ in range(max(0, 2 - used[kind]))]
    copy = next(p.id for p in state.board if p.square == (-2, -5))      # the Mirror's copy
    state.territory = TerritoryState().with_changes(reserves=reserves, draft_area=draft, bag=bag, copies={copy})
    after, report = variant_for(ruleset).resolve(state, {"Ann": "Moon(1,-4)<(1,2)-(3,-2); +Prtl(-4,-4)"}, 7)
    return ruleset, after, report


def territory() -> dict:
    """board-territory.png, board-territory-colourblind.png and pieces-territory.png."""
    from bot.render.paint.pieces import render_piece_sheet
    from bot.render.paint.territory import render_territory

    def board(palette: str) -> bytes:
        ruleset, state, report = territory_game()
        return render_territory(ruleset, state, report=report, palette=palette).png

    return {
        "board-territory.png": lambda: board("default"),
        "board-territory-colourblind.png": lambda: board("colourblind"),
        "pieces-territory.png": lambda: render_piece_sheet(load_preset("territory")).png,
    }


def images() -> dict:
    """Every reference render: file name -> a function drawing its PNG bytes (tests/render compares
    them with the files, so a change to a picture is a change to these files too)."""
    return {**boards(), **health_board_and_piece_sheet(), **arena_and_megachess(), **territory()}


if __name__ == "__main__":
    for name, make in images().items():
        (HERE / name).write_bytes(make())
