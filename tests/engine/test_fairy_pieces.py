"""Every kind of every ruleset, checked against a diagram drawn by hand (RULES.md sections 3.1, 5, 7, 8).

Diagrams are drawn with forward (+y) at the top and the piece ``@`` in the centre:

    *  the piece may move there and capture there
    m  move only (an enemy standing there may not be captured)
    c  capture only (the square must hold an enemy)
    .  neither

"Move" is read from ``destinations`` on an otherwise empty board, "capture" by placing one enemy
piece on each square in turn. The window is the diagram's radius (Chebyshev distance).
"""

from __future__ import annotations

import random

import pytest

from bot.engine.abilities import position_for
from bot.engine.board import Board
from bot.engine.model import Piece
from bot.engine.movement import Position, destinations, reach
from bot.engine.ruleset import load_preset
from bot.engine.state import ActiveEvent, GameState
from bot.engine.validation import legal_destinations

PRESETS = ("neisg", "sandbox", "arena", "megachess")

#: Where the piece stands in each preset: off the origin so that a coordinate mix-up shows, and
#: inside the bounds (sandbox: y in [1, 99]; arena: [-R, R]^2, R = 19 for eight players).
ORIGIN = {"neisg": (5, -3), "sandbox": (0, 50), "arena": (2, 1), "megachess": (-7, 12)}
BOUNDS = {"neisg": None, "sandbox": ((-99, 1), (99, 99)), "arena": ((-19, -19), (19, 19)), "megachess": None}
NEUTRAL = {"O", "V"}  # obstacles and voids belong to nobody and never move

# ----------------------------------------------------------------------------- diagrams
EMPTY = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . @ . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

KNIGHT = """
. . . . . . . . .
. . . . . . . . .
. . . * . * . . .
. . * . . . * . .
. . . . @ . . . .
. . * . . . * . .
. . . * . * . . .
. . . . . . . . .
. . . . . . . . .
"""

# Spirit (RULES 8): moves as a knight, cannot capture enemies.
KNIGHT_MOVE_ONLY = KNIGHT.replace("*", "m")

KING = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . * * * . . .
. . . * @ * . . .
. . . * * * . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

# Hunter mKcNcD: moves as a king, captures as a knight or an orthogonal 2-leap.
HUNTER = """
. . . . . . . . .
. . . . . . . . .
. . . c c c . . .
. . c m m m c . .
. . c m @ m c . .
. . c m m m c . .
. . . c c c . . .
. . . . . . . . .
. . . . . . . . .
"""

BISHOP = """
* . . . . . . . *
. * . . . . . * .
. . * . . . * . .
. . . * . * . . .
. . . . @ . . . .
. . . * . * . . .
. . * . . . * . .
. * . . . . . * .
* . . . . . . . *
"""

# Leopard NB2: knight plus a bishop of at most 2 squares.
LEOPARD = """
. . . . . . . . .
. . . . . . . . .
. . * * . * * . .
. . * * . * * . .
. . . . @ . . . .
. . * * . * * . .
. . * * . * * . .
. . . . . . . . .
. . . . . . . . .
"""

# Elephant KAD: king, (2,2) and (2,0) leaps.
ELEPHANT = """
. . . . . . . . .
. . . . . . . . .
. . * . * . * . .
. . . * * * . . .
. . * * @ * * . .
. . . * * * . . .
. . * . * . * . .
. . . . . . . . .
. . . . . . . . .
"""

# Hawk DAHG: (2,0) (2,2) (3,0) (3,3) leaps.
HAWK = """
. . . . . . . . .
. * . . * . . * .
. . * . * . * . .
. . . . . . . . .
. * * . @ . * * .
. . . . . . . . .
. . * . * . * . .
. * . . * . . * .
. . . . . . . . .
"""

# Unicorn NC: knight and camel (3,1).
UNICORN = """
. . . . . . . . .
. . . * . * . . .
. . . * . * . . .
. * * . . . * * .
. . . . @ . . . .
. * * . . . * * .
. . . * . * . . .
. . . * . * . . .
. . . . . . . . .
"""

ROOK = """
. . . . * . . . .
. . . . * . . . .
. . . . * . . . .
. . . . * . . . .
* * * * @ * * * *
. . . . * . . . .
. . . . * . . . .
. . . . * . . . .
. . . . * . . . .
"""

# Spider NB2D: knight, bishop of at most 2, orthogonal 2-leap.
SPIDER = """
. . . . . . . . .
. . . . . . . . .
. . * * * * * . .
. . * * . * * . .
. . * . @ . * . .
. . * * . * * . .
. . * * * * * . .
. . . . . . . . .
. . . . . . . . .
"""

ARCHBISHOP = """
* . . . . . . . *
. * . . . . . * .
. . * * . * * . .
. . * * . * * . .
. . . . @ . . . .
. . * * . * * . .
. . * * . * * . .
. * . . . . . * .
* . . . . . . . *
"""

CHANCELLOR = """
. . . . * . . . .
. . . . * . . . .
. . . * * * . . .
. . * . * . * . .
* * * * @ * * * *
. . * . * . * . .
. . . * * * . . .
. . . . * . . . .
. . . . * . . . .
"""

QUEEN = """
* . . . * . . . *
. * . . * . . * .
. . * . * . * . .
. . . * * * . . .
* * * * @ * * * *
. . . * * * . . .
. . * . * . * . .
. * . . * . . * .
* . . . * . . . *
"""

# Time thief (RULES 8): moves as a queen, never captures normally.
QUEEN_MOVE_ONLY = QUEEN.replace("*", "m")

# Dragon QN: queen plus knight.
DRAGON = """
* . . . * . . . *
. * . . * . . * .
. . * * * * * . .
. . * * * * * . .
* * * * @ * * * *
. . * * * * * . .
. . * * * * * . .
. * . . * . . * .
* . . . * . . . *
"""

# Witch QNAD and harpy mQN (RULES 8): both move like a dragon (A and D lie on queen lines) and
# neither ever captures.
DRAGON_MOVE_ONLY = DRAGON.replace("*", "m")

# Zombie mR2: up to two squares orthogonally, never captures.
ZOMBIE = """
. . . . . . . . .
. . . . . . . . .
. . . . m . . . .
. . . . m . . . .
. . m m @ m m . .
. . . . m . . . .
. . . . m . . . .
. . . . . . . . .
. . . . . . . . .
"""

# neisg pawn fmWfcFifmnD, never moved: one or two forward to empty squares, diagonal captures
# forward (RULES 4).
PAWN_NEISG = """
. . . . . . . . .
. . . . . . . . .
. . . . m . . . .
. . . c m c . . .
. . . . @ . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

# A pawn that has moved (and the sandbox pawn fmWfcF, which never double-steps, RULES 5.1).
PAWN_SINGLE = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . c m c . . .
. . . . @ . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

# arena pawn mWcF (RULES 5.2): one square orthogonally in any direction, captures diagonally in any.
PAWN_ARENA = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . c m c . . .
. . . m @ m . . .
. . . c m c . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

# megachess pawn mKimnDcF (RULES 5.3): one square in any direction, two orthogonally on its first
# move, captures one square diagonally in any direction.
PAWN_MEGACHESS = """
. . . . . . . . .
. . . . . . . . .
. . . . m . . . .
. . . * m * . . .
. . m m @ m m . .
. . . * m * . . .
. . . . m . . . .
. . . . . . . . .
. . . . . . . . .
"""

PAWN_MEGACHESS_MOVED = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . * m * . . .
. . . m @ m . . .
. . . * m * . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

# megachess bishop B6 with its once-in-a-life orthogonal step to an empty square (RULES 5.3).
BISHOP6_WITH_STEP = """
. . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . .
. . * . . . . . . . . . . . * . .
. . . * . . . . . . . . . * . . .
. . . . * . . . . . . . * . . . .
. . . . . * . . . . . * . . . . .
. . . . . . * . . . * . . . . . .
. . . . . . . * m * . . . . . . .
. . . . . . . m @ m . . . . . . .
. . . . . . . * m * . . . . . . .
. . . . . . * . . . * . . . . . .
. . . . . * . . . . . * . . . . .
. . . . * . . . . . . . * . . . .
. . . * . . . . . . . . . * . . .
. . * . . . . . . . . . . . * . .
. . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . .
"""

BISHOP6_STEP_USED = BISHOP6_WITH_STEP.replace("m", ".")

ROOK6 = """
. . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . .
. . . . . . . . * . . . . . . . .
. . . . . . . . * . . . . . . . .
. . . . . . . . * . . . . . . . .
. . . . . . . . * . . . . . . . .
. . . . . . . . * . . . . . . . .
. . . . . . . . * . . . . . . . .
. . * * * * * * @ * * * * * * . .
. . . . . . . . * . . . . . . . .
. . . . . . . . * . . . . . . . .
. . . . . . . . * . . . . . . . .
. . . . . . . . * . . . . . . . .
. . . . . . . . * . . . . . . . .
. . . . . . . . * . . . . . . . .
. . . . . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . .
"""

QUEEN7 = """
. . . . . . . . . . . . . . . . .
. * . . . . . . * . . . . . . * .
. . * . . . . . * . . . . . * . .
. . . * . . . . * . . . . * . . .
. . . . * . . . * . . . * . . . .
. . . . . * . . * . . * . . . . .
. . . . . . * . * . * . . . . . .
. . . . . . . * * * . . . . . . .
. * * * * * * * @ * * * * * * * .
. . . . . . . * * * . . . . . . .
. . . . . . * . * . * . . . . . .
. . . . . * . . * . . * . . . . .
. . . . * . . . * . . . * . . . .
. . . * . . . . * . . . . * . . .
. . * . . . . . * . . . . . * . .
. * . . . . . . * . . . . . . * .
. . . . . . . . . . . . . . . . .
"""

COMMON = {"N": KNIGHT, "G": KING, "Ht": HUNTER, "B": BISHOP, "L": LEOPARD, "S": KNIGHT_MOVE_ONLY,
          "E": ELEPHANT, "H": HAWK, "U": UNICORN, "W": DRAGON_MOVE_ONLY, "R": ROOK, "Sp": SPIDER,
          "Ab": ARCHBISHOP, "D": KING, "C": CHANCELLOR, "Q": QUEEN, "Dr": DRAGON, "K": KING,
          "O": EMPTY, "V": EMPTY}

#: (preset, letter) -> the diagram of an unmoved piece.
DIAGRAMS: dict[tuple[str, str], str] = {
    **{("neisg", k): v for k, v in COMMON.items()},
    ("neisg", "P"): PAWN_NEISG,
    ("neisg", "Tt"): QUEEN_MOVE_ONLY,
    ("neisg", "Hp"): DRAGON_MOVE_ONLY,
    ("neisg", "An"): KING,
    ("neisg", "Z"): ZOMBIE,
    ("neisg", "Pl"): EMPTY,
    **{("sandbox", k): v for k, v in COMMON.items()},
    ("sandbox", "P"): PAWN_SINGLE,
    ("arena", "P"): PAWN_ARENA,
    ("arena", "N"): KNIGHT,
    ("arena", "B"): BISHOP,
    ("arena", "R"): ROOK,
    ("arena", "Q"): QUEEN,
    ("arena", "K"): KING,
    ("megachess", "P"): PAWN_MEGACHESS,
    ("megachess", "N"): KNIGHT,
    ("megachess", "B"): BISHOP6_WITH_STEP,
    ("megachess", "R"): ROOK6,
    ("megachess", "Q"): QUEEN7,
    ("megachess", "K"): KING,
}

#: Pieces in a particular state: (preset, letter, piece fields, diagram).
VARIANTS = [
    ("neisg", "P", {"moved": True}, PAWN_SINGLE),
    ("sandbox", "P", {"moved": True}, PAWN_SINGLE),
    ("megachess", "P", {"moved": True}, PAWN_MEGACHESS_MOVED),
    ("megachess", "B", {"step_used": True}, BISHOP6_STEP_USED),
    ("megachess", "B", {"moved": True}, BISHOP6_WITH_STEP),   # the step is once in its life, not first move
    ("neisg", "Q", {"moved": True}, QUEEN),
]


def parse_diagram(text: str) -> dict[tuple[int, int], str]:
    rows = [line.split() for line in text.strip().splitlines()]
    size = len(rows)
    assert size % 2 == 1 and all(len(r) == size for r in rows), "a diagram is an odd square"
    radius = size // 2
    assert rows[radius][radius] == "@"
    return {(col - radius, radius - row): cell for row, line in enumerate(rows) for col, cell in enumerate(line)
            if (row, col) != (radius, radius)}


def render(cells: dict[tuple[int, int], str]) -> str:
    radius = max(abs(c) for sq in cells for c in sq)
    lines = []
    for dy in range(radius, -radius - 1, -1):
        lines.append(" ".join("@" if (dx, dy) == (0, 0) else cells[(dx, dy)] for dx in range(-radius, radius + 1)))
    return "\n".join(lines)


def position(preset: str, pieces: list[Piece]) -> Position:
    return Position(load_preset(preset), Board(pieces, bounds=BOUNDS[preset]))


def observed_diagram(preset: str, letter: str, radius: int, **fields) -> dict[tuple[int, int], str]:
    ox, oy = ORIGIN[preset]
    owner = None if letter in NEUTRAL else "Red"
    piece = Piece(id=1, kind=letter, owner=owner, square=(ox, oy), **fields)
    moves = set(destinations(position(preset, [piece]), piece, window=radius))
    cells = {}
    for dx in range(-radius, radius + 1):
        for dy in range(-radius, radius + 1):
            if (dx, dy) == (0, 0):
                continue
            square = (ox + dx, oy + dy)
            enemy = Piece(id=2, kind="N", owner="Blue", square=square)
            captures = square in destinations(position(preset, [piece, enemy]), piece, window=radius)
            move = square in moves
            cells[(dx, dy)] = "*" if move and captures else "m" if move else "c" if captures else "."
    return cells


ALL_KINDS = [(preset, letter) for preset in PRESETS for letter in load_preset(preset).pieces]


@pytest.mark.parametrize("preset, letter", ALL_KINDS, ids=[f"{p}-{k}" for p, k in ALL_KINDS])
def test_every_kind_matches_its_diagram(preset, letter):
    assert (preset, letter) in DIAGRAMS, f"draw a diagram for {letter} of {preset}"
    expected = parse_diagram(DIAGRAMS[preset, letter])
    radius = max(abs(c) for sq in expected for c in sq)
    observed = observed_diagram(preset, letter, radius)
    assert render(observed) == render(expected)


@pytest.mark.parametrize("preset, letter, fields, diagram", VARIANTS,
                         ids=[f"{p}-{k}-{'-'.join(f)}" for p, k, f, _ in VARIANTS])
def test_piece_states_match_their_diagrams(preset, letter, fields, diagram):
    expected = parse_diagram(diagram)
    radius = max(abs(c) for sq in expected for c in sq)
    assert render(observed_diagram(preset, letter, radius, **fields)) == render(expected)


# ----------------------------------------------------------------------------- helpers
def piece(i: int, kind: str, owner: str | None, square, **fields) -> Piece:
    return Piece(id=i, kind=kind, owner=owner, square=square, **fields)


def dests(preset: str, pieces: list[Piece], mover: Piece, window: int | None = 8) -> set:
    return set(destinations(position(preset, pieces), mover, window=window))


# ----------------------------------------------------------------------------- pawns
def test_pawn_double_step_needs_both_squares_empty():
    """RULES 4: two squares on the first move if both are empty (the n of ``ifmnD``)."""
    pawn = piece(1, "P", "Red", (3, -5))
    assert dests("neisg", [pawn], pawn) == {(3, -4), (3, -3)}
    for owner in ("Red", "Blue", None):
        blocker = piece(2, "O" if owner is None else "N", owner, (3, -4))
        assert dests("neisg", [pawn, blocker], pawn) == set(), f"blocked by {owner}"
    far = piece(2, "N", "Blue", (3, -3))
    assert dests("neisg", [pawn, far], pawn) == {(3, -4)}, "the double step never captures"


def test_blocked_double_step_names_the_blocking_square():
    pawn = piece(1, "P", "Red", (3, -5))
    blocker = piece(2, "N", "Blue", (3, -4))
    answer = reach(position("neisg", [pawn, blocker]), pawn, (3, -3))
    assert not answer.ok and answer.blocked_by == (3, -4)
    assert "(3,-4)" in answer.reason


def test_pawn_forward_step_never_captures_and_diagonal_needs_an_enemy():
    pawn = piece(1, "P", "Red", (0, -2), moved=True)
    ahead = piece(2, "N", "Blue", (0, -1))
    diagonal = piece(3, "N", "Blue", (1, -1))
    friend = piece(4, "N", "Red", (-1, -1))
    assert dests("neisg", [pawn, ahead, diagonal, friend], pawn) == {(1, -1)}
    answer = reach(position("neisg", [pawn, ahead]), pawn, (0, -1))
    assert not answer.ok and "cannot capture that way" in answer.reason
    answer = reach(position("neisg", [pawn]), pawn, (1, -1))
    assert not answer.ok and "only capture" in answer.reason


def test_moved_pawn_has_no_double_step():
    pawn = piece(1, "P", "Red", (0, -5), moved=True)
    assert not reach(position("neisg", [pawn]), pawn, (0, -3)).ok


def test_pawns_of_every_owner_move_toward_plus_y():
    """RULES 1 and 4: forward is +y for everyone in neisg."""
    for owner in ("Red", "Blue", "Zed"):
        pawn = piece(1, "P", owner, (0, -5), moved=True)
        assert dests("neisg", [pawn], pawn) == {(0, -4)}


@pytest.mark.parametrize("preset", ["arena", "megachess"])
def test_omnidirectional_pawns_capture_diagonally_in_every_direction(preset):
    """RULES 5.2, 5.3: pawns step in any direction and capture one square diagonally in any direction."""
    o = ORIGIN[preset]
    pawn = piece(1, "P", "Red", o, moved=True)
    enemies = [piece(i, "N", "Blue", (o[0] + dx, o[1] + dy))
               for i, (dx, dy) in enumerate([(1, 1), (-1, -1), (1, 0), (0, -1)], start=2)]
    found = dests(preset, [pawn, *enemies], pawn)
    assert (o[0] + 1, o[1] + 1) in found and (o[0] - 1, o[1] - 1) in found
    assert (o[0] + 1, o[1]) not in found and (o[0], o[1] - 1) not in found, "no orthogonal capture"


def test_megachess_pawn_double_step_in_four_directions_is_blocked_by_the_square_between():
    o = ORIGIN["megachess"]
    pawn = piece(1, "P", "Red", o)
    blocker = piece(2, "K", "Red", (o[0] - 1, o[1]))
    found = dests("megachess", [pawn, blocker], pawn)
    assert (o[0] - 2, o[1]) not in found
    assert {(o[0] + 2, o[1]), (o[0], o[1] + 2), (o[0], o[1] - 2)} <= found


# ----------------------------------------------------------------------------- special kinds
def test_hunter_moves_as_a_king_but_captures_only_as_knight_or_dabbaba():
    hunter = piece(1, "Ht", "Red", (0, 0))
    adjacent = piece(2, "N", "Blue", (1, 0))
    knight_square = piece(3, "N", "Blue", (2, 1))
    dabbaba_square = piece(4, "N", "Blue", (0, -2))
    pos = position("neisg", [hunter, adjacent, knight_square, dabbaba_square])
    found = set(destinations(pos, hunter))
    assert (1, 0) not in found, "the hunter cannot capture as a king"
    assert {(2, 1), (0, -2)} <= found
    assert "cannot capture that way" in reach(pos, hunter, (1, 0)).reason
    assert "only capture" in reach(pos, hunter, (-2, 1)).reason  # empty knight square
    assert reach(pos, hunter, (-1, 1)).ok


def test_megachess_bishop_orthogonal_step_is_once_and_only_onto_an_empty_square():
    o = ORIGIN["megachess"]
    bishop = piece(1, "B", "Red", o)
    enemy = piece(2, "N", "Blue", (o[0] + 1, o[1]))
    found = dests("megachess", [bishop, enemy], bishop)
    assert (o[0] + 1, o[1]) not in found, "the one-time step is a move (mW), not a capture"
    assert (o[0] - 1, o[1]) in found
    used = piece(1, "B", "Red", o, step_used=True)
    assert not reach(position("megachess", [used]), used, (o[0] - 1, o[1])).ok


def test_megachess_sliders_stop_at_their_range():
    o = ORIGIN["megachess"]
    for kind, limit, step in (("R", 6, (0, 1)), ("B", 6, (1, 1)), ("Q", 7, (-1, 0)), ("Q", 7, (-1, 1))):
        p = piece(1, kind, "Red", o)
        pos = position("megachess", [p])
        assert reach(pos, p, (o[0] + limit * step[0], o[1] + limit * step[1])).ok
        assert not reach(pos, p, (o[0] + (limit + 1) * step[0], o[1] + (limit + 1) * step[1])).ok


def test_zombie_mR2_is_blocked_and_never_captures():
    zombie = piece(1, "Z", "Red", (0, 0))
    near = piece(2, "N", "Blue", (0, 1))
    side = piece(3, "N", "Blue", (2, 0))
    found = dests("neisg", [zombie, near, side], zombie)
    assert found == {(1, 0), (-1, 0), (-2, 0), (0, -1), (0, -2)}
    answer = reach(position("neisg", [zombie, near]), zombie, (0, 2))
    assert not answer.ok and answer.blocked_by == (0, 1)


def test_pillar_never_moves_and_blocks():
    pillar = piece(1, "Pl", "Red", (0, 3))
    rook = piece(2, "R", "Blue", (0, 0))
    pos = position("neisg", [pillar, rook])
    assert destinations(pos, pillar) == []
    assert not reach(pos, pillar, (0, 4)).ok
    assert (0, 3) in destinations(pos, rook)      # an enemy pillar can be captured
    assert (0, 4) not in destinations(pos, rook)  # and nothing passes it
    assert reach(pos, rook, (0, 5)).blocked_by == (0, 3)


def test_harpy_moves_as_queen_and_knight_but_never_captures_an_enemy():
    harpy = piece(1, "Hp", "Red", (0, 0))
    on_line = piece(2, "N", "Blue", (0, 3))
    on_knight = piece(3, "N", "Blue", (1, 2))
    found = dests("neisg", [harpy, on_line, on_knight], harpy)
    assert (0, 2) in found and (0, 3) not in found and (0, 4) not in found
    assert (1, 2) not in found and (2, 1) in found and (-1, -2) in found
    assert "never captures" in reach(position("neisg", [harpy, on_knight]), harpy, (1, 2)).reason


@pytest.mark.parametrize("letter", ["S", "W", "Tt", "Hp", "Z"])
def test_non_capturing_kinds_never_capture(letter):
    """RULES 3.2 and 8: zombie, witch, spirit, harpy and time thief never capture normally."""
    p = piece(1, letter, "Red", (0, 0))
    empty = set(dests("neisg", [p], p))
    assert empty, "it moves"
    for i, square in enumerate(sorted(empty), start=2):
        enemy = piece(i, "N", "Blue", square)
        assert square not in dests("neisg", [p, enemy], p)


def test_megachess_teammates_are_not_enemies():
    """RULES 5.3: a move onto a square held by a teammate is illegal; enemies of the other team are
    captured."""
    pieces = [piece(1, "R", "Ann", (0, 0)), piece(2, "N", "Bob", (0, 3)), piece(3, "N", "Cid", (3, 0))]
    teams = {"Ann": "alabaster", "Bob": "alabaster", "Cid": "brushed metal"}
    pos = Position(load_preset("megachess"), Board(pieces), teams=teams)
    found = set(destinations(pos, pieces[0]))
    assert (0, 2) in found and (0, 3) not in found, "Bob is Ann's teammate"
    assert (3, 0) in found and (4, 0) not in found, "Cid is on the other team"
    assert "your own piece" in reach(pos, pieces[0], (0, 3)).reason


def test_neutral_pieces_never_move():
    for letter in ("O", "V"):
        p = piece(1, letter, None, (0, 0))
        assert destinations(position("neisg", [p]), p) == []


# ----------------------------------------------------------------------------- blocking and targets
def test_rules_3_1_example_the_knight_blocks_the_rook():
    """RULES 3.1 and D5: "the knight on (4,13) blocks the rook's path"."""
    knight = piece(1, "N", "Red", (4, 13))
    rook = piece(2, "R", "Blue", (10, 13))
    pos = position("neisg", [knight, rook])
    answer = reach(pos, rook, (3, 13))
    assert not answer.ok
    assert answer.blocked_by == (4, 13)
    assert "the knight on (4,13) blocks the rook's path" in answer.reason
    found = set(destinations(pos, rook))
    assert (4, 13) in found and (5, 13) in found       # it may capture the knight
    assert (3, 13) not in found and (2, 13) not in found
    assert reach(pos, rook, (4, 13)).ok and reach(pos, rook, (4, 13)).capture


@pytest.mark.parametrize("letter, step", [("R", (1, 0)), ("B", (-1, 1)), ("Q", (0, -1)), ("Q", (1, 1)),
                                          ("C", (-1, 0)), ("Ab", (1, -1)), ("Dr", (0, 1)), ("L", (1, 1)),
                                          ("Sp", (-1, -1))])
def test_sliders_stop_at_the_first_piece(letter, step):
    slider = piece(1, letter, "Red", (0, 0))
    blocker_square = (step[0], step[1]) if letter in ("L", "Sp") else (3 * step[0], 3 * step[1])
    k = 1 if letter in ("L", "Sp") else 3
    beyond = ((k + 1) * step[0], (k + 1) * step[1])
    for owner in ("Red", "Blue"):
        blocker = piece(2, "G", owner, blocker_square)
        pos = position("neisg", [slider, blocker])
        found = set(destinations(pos, slider))
        assert beyond not in found
        assert (blocker_square in found) == (owner == "Blue")
        answer = reach(pos, slider, beyond)
        assert not answer.ok and answer.blocked_by == blocker_square
        assert f"({blocker_square[0]},{blocker_square[1]})" in answer.reason


def test_leapers_jump_over_pieces():
    knight = piece(1, "N", "Red", (0, 0))
    wall = [piece(i, "G", "Blue", sq) for i, sq in enumerate(
        [(1, 0), (0, 1), (1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1), (-1, 1)], start=2)]
    assert len(dests("neisg", [knight, *wall], knight)) == 8
    hawk = piece(1, "H", "Red", (0, 0))
    assert (0, 3) in dests("neisg", [hawk, *wall], hawk), "the hawk's H leap is not lame"


def test_capture_enemy_but_never_a_friend():
    """RULES 3.1: the target holds no piece of the player."""
    queen = piece(1, "Q", "Red", (0, 0))
    enemy = piece(2, "N", "Blue", (0, 4))
    friend = piece(3, "N", "Red", (4, 4))
    pos = position("neisg", [queen, enemy, friend])
    found = set(destinations(pos, queen))
    assert (0, 4) in found and (4, 4) not in found
    assert reach(pos, queen, (0, 4)).capture
    assert "your own piece" in reach(pos, queen, (4, 4)).reason
    # a square shared by a friend and an enemy (after a collision) is not a legal target either
    shared = piece(4, "N", "Red", (0, 4))
    assert (0, 4) not in destinations(position("neisg", [queen, enemy, shared]), queen)


def test_disabled_pieces_may_move_but_not_capture():
    """RULES 3.1: a disabled (just generated) piece may move but may not capture."""
    knight = piece(1, "N", "Red", (0, 0), disabled=True)
    enemy = piece(2, "N", "Blue", (2, 1))
    pos = position("neisg", [knight, enemy])
    found = set(destinations(pos, knight))
    assert (2, 1) not in found and len(found) == 7
    answer = reach(pos, knight, (2, 1))
    assert not answer.ok and "disabled" in answer.reason
    rook = piece(3, "R", "Red", (5, 0), disabled=True)
    wall = piece(4, "N", "Blue", (5, 3))
    found = set(destinations(position("neisg", [rook, wall]), rook))
    assert (5, 2) in found and (5, 3) not in found and (5, 4) not in found, "it still cannot pass"


def test_unbounded_sliders_reach_the_edge_of_the_window():
    rook = piece(1, "R", "Red", (0, 0))
    found = dests("neisg", [rook], rook, window=32)
    assert (32, 0) in found and (0, -32) in found and (33, 0) not in found
    assert len(found) == 4 * 32
    assert reach(position("neisg", [rook]), rook, (0, 999_999)).ok


# ----------------------------------------------------------------------------- bounds
def test_sandbox_bounds_clip_every_kind():
    """RULES 5.1: x in [-99, 99], y in [1, 99]; coordinates outside are illegal."""
    rook = piece(1, "R", "Red", (-99, 1))
    pos = position("sandbox", [rook])
    found = legal_destinations(pos, rook)
    assert len(found) == 198 + 98
    assert all(-99 <= x <= 99 and 1 <= y <= 99 for x, y in found)
    assert (99, 1) in found and (-99, 99) in found
    assert "outside" in reach(pos, rook, (-99, 0)).reason
    knight = piece(1, "N", "Red", (-99, 1))
    assert legal_destinations(position("sandbox", [knight]), knight) == [(-98, 3), (-97, 2)]
    pawn = piece(1, "P", "Red", (50, 99))
    assert legal_destinations(position("sandbox", [pawn]), pawn) == []
    hawk = piece(1, "H", "Red", (97, 2))
    assert set(legal_destinations(position("sandbox", [hawk]), hawk)) == {
        (99, 2), (95, 2), (97, 4),      # D
        (99, 4), (95, 4),               # A
        (94, 2), (97, 5),               # H
        (94, 5)}                        # G


# ----------------------------------------------------------------------------- list and check agree
@pytest.mark.parametrize("preset", PRESETS)
def test_reach_agrees_with_destinations_on_random_positions(preset):
    """The squares a player is shown (``destinations``) are exactly the ones ``reach`` accepts, on
    crowded random positions with every kind of the ruleset, stacked squares, disabled and moved
    pieces, and (neisg, sandbox) the abilities of RULES 8 and the Witch Trials event in force."""
    ruleset = load_preset(preset)
    kinds = [k for k in ruleset.pieces if k not in NEUTRAL]
    rng = random.Random(sum(map(ord, preset)))
    ox, oy = ORIGIN[preset]
    window = 5
    for _ in range(50):
        pieces = [Piece(id=i, kind=rng.choice(kinds), owner=rng.choice(["Ann", "Bob", "Cid"]),
                        square=(ox + rng.randint(-6, 6), oy + rng.randint(-6, 6)), disabled=rng.random() < 0.2,
                        moved=rng.random() < 0.5, step_used=rng.random() < 0.3)
                  for i in range(1, rng.randint(2, 25))]
        witch_trials = preset in ("neisg", "sandbox") and rng.random() < 0.3
        state = GameState(board=Board(pieces, bounds=BOUNDS[preset]),
                          events=(ActiveEvent("Witch Trials", 1),) if witch_trials else ())
        pos = position_for(ruleset, state)
        for p in pieces:
            shown = set(destinations(pos, p, window=window))
            for dx in range(-window, window + 1):
                for dy in range(-window, window + 1):
                    square = (p.square[0] + dx, p.square[1] + dy)
                    assert reach(pos, p, square).ok == (square in shown), (p, square)
