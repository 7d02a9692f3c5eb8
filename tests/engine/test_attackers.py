"""Attack and cover (RULES.md 3.2): ``attackers`` is the fast question behind check states, exposure,
joining and the dwarf rule. It must name exactly the pieces that ``attacks`` accepts one by one.

A square is attacked by a piece that could capture a piece standing on it, whoever that piece
belongs to (a piece covers its friends' squares), with a clear path; disabled, frozen and
never-capturing pieces cover nothing; a piece never attacks its own square (D23).
"""

from __future__ import annotations

import random

import pytest

from bot.engine.abilities import WITCH_TRIALS, position_for
from bot.engine.board import Board
from bot.engine.model import Piece
from bot.engine.movement import Position, attackers, attacks, destinations
from bot.engine.ruleset import load_preset
from bot.engine.state import ActiveEvent, GameState

NEISG = load_preset("neisg")
KINDS = [k for k in NEISG.pieces if k not in ("O", "V")]
OWNERS = ["Red", "Blue", "Green"]
NON_CAPTURING = ["S", "W", "Tt", "Hp", "Z", "Pl"]


def witch_trials(blocker: Piece, mover: Piece) -> bool:
    """Every piece transparent to its own side (the Witch Trials event, RULES 6)."""
    return blocker.owner == mover.owner


def everywhere(square, pieces=None) -> bool:   # a position's passable: (square, its pieces when known)
    return True


def random_position(rng: random.Random, witch_trials_active: bool) -> Position:
    """Random neisg pieces, built through ``position_for`` so that the abilities of RULES 8 are in
    force: witches and spirits are transparent to their side, zombies freeze, Witch Trials makes
    every piece transparent to its own side."""
    count = rng.randint(1, 30)
    span = rng.choice([3, 6, 10])
    pieces = []
    for i in range(1, count + 1):
        if pieces and rng.random() < 0.08:  # a collision: share a square with an earlier piece
            square = rng.choice(pieces).square
        else:
            square = (rng.randint(-span, span), rng.randint(-span, span))
        kind = rng.choice(KINDS)
        owner = None if rng.random() < 0.05 else rng.choice(OWNERS)
        if owner is None:
            kind = "O"
        pieces.append(Piece(id=i, kind=kind, owner=owner, square=square, disabled=rng.random() < 0.15,
                            moved=rng.random() < 0.5, energy=kind == "P" and rng.random() < 0.2))
    events = (ActiveEvent(WITCH_TRIALS, 1),) if witch_trials_active else ()
    state = GameState(board=Board(pieces), events=events)
    return position_for(NEISG, state)


def brute_force(position: Position, square, by=None) -> list[Piece]:
    return sorted((p for p in position.board if (by is None or by(p)) and attacks(position, p, square)),
                  key=lambda p: p.canonical_key)


@pytest.mark.parametrize("seed, witch_trials_active", [(1, False), (2, False), (3, True), (4, True)])
def test_attackers_equal_brute_force(seed, witch_trials_active):
    """400 random positions: the fast line-walking ``attackers`` names exactly the pieces for which
    ``attacks`` holds, with and without an owner filter, through stacks, transparency and freezes."""
    rng = random.Random(seed)
    checked = attacked = 0
    for _ in range(100):
        position = random_position(rng, witch_trials_active)
        occupied = list(position.board.squares())
        span = 12
        targets = occupied + [(rng.randint(-span, span), rng.randint(-span, span)) for _ in range(15)]
        for square in targets:
            expected = brute_force(position, square)
            assert attackers(position, square) == expected, (square, sorted(position.board, key=lambda p: p.id))
            owner = rng.choice(OWNERS)
            by = lambda p, owner=owner: position.enemies(p.owner, owner)  # noqa: E731
            assert attackers(position, square, by=by) == brute_force(position, square, by)
            checked += 1
            attacked += bool(expected)
    assert attacked > checked // 5, "the random positions must actually contain attacks"


@pytest.mark.parametrize("seed", [5, 6])
def test_attacks_agrees_with_capture_destinations(seed):
    """RULES 3.2 defines attack as "could capture a piece standing on it": on a square holding only
    enemies of a piece, ``attacks`` and the piece's capture destinations agree."""
    rng = random.Random(seed)
    compared = 0
    for _ in range(60):
        position = random_position(rng, witch_trials_active=seed == 6)
        for piece in position.board:
            if piece.owner is None:
                continue
            found = set(destinations(position, piece, window=30))
            for square in position.board.squares():
                others = position.board.at(square)
                if square == piece.square or not all(position.enemies(piece.owner, o.owner) for o in others):
                    continue
                assert attacks(position, piece, square) == (square in found), (piece, square)
                compared += 1
    assert compared > 500


# ----------------------------------------------------------------------------- by hand
def position_of(*pieces: Piece, **kwargs) -> Position:
    return Position(NEISG, Board(pieces), **kwargs)


def test_a_piece_covers_its_friends():
    rook = Piece(id=1, kind="R", owner="Red", square=(0, 0))
    friend = Piece(id=2, kind="N", owner="Red", square=(0, 5))
    pos = position_of(rook, friend)
    assert attackers(pos, (0, 5)) == [rook]
    assert attackers(pos, (0, 6)) == []  # the friend blocks the line behind it


def test_d23_a_piece_never_attacks_its_own_square():
    """D23: enemies sharing an implosion square do not check each other."""
    red = Piece(id=1, kind="Q", owner="Red", square=(2, 6))
    blue = Piece(id=2, kind="K", owner="Blue", square=(2, 6))
    pos = position_of(red, blue)
    assert attackers(pos, (2, 6)) == []
    assert not attacks(pos, red, (2, 6)) and not attacks(pos, blue, (2, 6))
    # both still attack outward, and a third piece attacks the shared square
    assert attackers(pos, (3, 7)) == [blue, red]
    rook = Piece(id=3, kind="R", owner="Green", square=(2, 0))
    assert attackers(position_of(red, blue, rook), (2, 6)) == [rook]


def test_disabled_pieces_attack_nothing():
    """RULES 3.2: a piece that is disabled covers nothing."""
    queen = Piece(id=1, kind="Q", owner="Red", square=(0, 0), disabled=True)
    pos = position_of(queen)
    assert all(attackers(pos, sq) == [] for sq in [(1, 1), (0, 5), (-3, 0), (1, 0)])
    active = Piece(id=1, kind="Q", owner="Red", square=(0, 0))
    assert attackers(position_of(active), (0, 5)) == [active]


def test_frozen_pieces_attack_nothing():
    """RULES 8: a frozen piece attacks nothing."""
    knight = Piece(id=1, kind="N", owner="Red", square=(0, 0))
    assert attackers(position_of(knight), (1, 2)) == [knight]
    assert attackers(position_of(knight, frozen=lambda p: p.id == 1), (1, 2)) == []


def test_a_piece_frozen_by_a_zombie_attacks_nothing():
    """RULES 8: an enemy piece the zombie's mR2 move could reach is frozen and attacks nothing."""
    knight = Piece(id=1, kind="N", owner="Red", square=(0, 0))
    zombie = Piece(id=2, kind="Z", owner="Blue", square=(0, -2))
    position = position_for(NEISG, GameState(board=Board([knight, zombie])))
    assert attackers(position, (1, 2)) == []
    assert destinations(position, knight) == []
    far = Piece(id=2, kind="Z", owner="Blue", square=(0, -3))
    position = position_for(NEISG, GameState(board=Board([knight, far])))
    assert attackers(position, (1, 2)) == [knight]


@pytest.mark.parametrize("letter", NON_CAPTURING)
def test_never_capturing_kinds_cover_nothing(letter):
    """RULES 3.2: zombie, witch, spirit, harpy, time thief and pillar cover nothing."""
    piece = Piece(id=1, kind=letter, owner="Red", square=(0, 0))
    pos = position_of(piece)
    for dx in range(-3, 4):
        for dy in range(-3, 4):
            assert attackers(pos, (dx, dy)) == []


def test_energy_pawn_attacks_nothing():
    pawn = Piece(id=1, kind="P", owner="Red", square=(0, 0), moved=True)
    assert attackers(position_of(pawn), (1, 1)) == [pawn]
    energy = Piece(id=1, kind="P", owner="Red", square=(0, 0), moved=True, energy=True)
    assert attackers(position_of(energy), (1, 1)) == []


def test_capture_only_and_move_only_rays():
    """The pawn attacks its forward diagonals, never the square ahead; the hunter attacks its knight
    and 2-leap squares, not the squares it moves to."""
    pawn = Piece(id=1, kind="P", owner="Red", square=(0, 0))
    hunter = Piece(id=2, kind="Ht", owner="Blue", square=(10, 0))
    pos = position_of(pawn, hunter)
    assert attackers(pos, (1, 1)) == [pawn] and attackers(pos, (-1, 1)) == [pawn]
    assert attackers(pos, (0, 1)) == [] and attackers(pos, (0, 2)) == [] and attackers(pos, (1, -1)) == []
    assert attackers(pos, (12, 1)) == [hunter] and attackers(pos, (10, 2)) == [hunter]
    assert attackers(pos, (11, 0)) == [] and attackers(pos, (11, 1)) == []


def test_sliders_are_blocked_unless_the_blocker_is_transparent():
    rook = Piece(id=1, kind="R", owner="Red", square=(0, 0))
    block = Piece(id=2, kind="N", owner="Blue", square=(0, 3))
    pos = position_of(rook, block)
    assert attackers(pos, (0, 3)) == [rook]
    assert attackers(pos, (0, 4)) == []
    # with transparency (Witch Trials) a friendly blocker lets the rook through, an enemy does not
    friend = Piece(id=2, kind="N", owner="Red", square=(0, 3))
    see_through = {"transparent": witch_trials, "passable": everywhere}
    assert attackers(position_of(rook, friend, **see_through), (0, 4)) == [rook]
    assert attackers(position_of(rook, block, **see_through), (0, 4)) == []
    # a spirit (transparent to its own side, RULES 8) is seen through by its side only
    spirit = Piece(id=2, kind="S", owner="Red", square=(0, 3))
    position = position_for(NEISG, GameState(board=Board([rook, spirit])))
    assert attackers(position, (0, 4)) == [rook]
    enemy_rook = Piece(id=1, kind="R", owner="Blue", square=(0, 0))
    position = position_for(NEISG, GameState(board=Board([enemy_rook, spirit])))
    assert attackers(position, (0, 4)) == []


def test_far_attackers_on_an_unbounded_board():
    rook = Piece(id=1, kind="R", owner="Red", square=(-384, -12))
    bishop = Piece(id=2, kind="B", owner="Blue", square=(10000 - 5000, -12 + 5000))
    pos = position_of(rook, bishop)
    assert attackers(pos, (10000, -12)) == [bishop, rook]
