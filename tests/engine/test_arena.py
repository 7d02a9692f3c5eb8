"""Chess Arena (RULES.md 5.2, issue 21): the variant's answers that scenarios cannot show.

Scenarios (tests/scenarios/arena/) settle the rules of one round; here: the armies of the start (D39,
D40), who may order and when a round may resolve early, the check of a submission as the bot echoes
it (D7, D37), the pieces to place (D48), the standings and the board, the command line (D53,
``--print``) and whole games played by a simple player, whose every accepted submission is played.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from bot.engine.model import Player
from bot.engine.ruleset import load_preset
from bot.engine.serialize import dumps, loads
from bot.engine.state import GameState, PowerUp
from bot.engine.validation import legal_destinations
from bot.engine.abilities import position_for
from bot.engine.variants import load_variant

ROOT = Path(__file__).resolve().parents[2]
ARENA = load_preset("arena")
VARIANT = load_variant("arena")


def seated(*names: str) -> list[Player]:
    return [VARIANT.new_player(name, name) for name in names]


def state_of(pieces, players, **kwargs) -> GameState:
    return GameState.build(ARENA, [dict(owner=o, kind=k, square=s) for o, k, s in pieces], players, **kwargs)


def pieces_of(state: GameState, owner: str) -> dict[tuple[int, int], str]:
    return {p.square: p.kind for p in state.board.owned_by(owner)}


# ----------------------------------------------------------------------------- the start (D39, D40)
def test_two_armies_stand_as_d40_says():
    state = VARIANT.set_up(seated("Red", "Blue"), seed=1, length=30)
    assert state.board.bounds == ((-7, -7), (7, 7))                       # R = 3 + 2 x 2
    assert state.length == 30 and state.update == 1
    blue = pieces_of(state, "Blue")                                         # first in name order: the bottom
    assert {s: k for s, k in blue.items() if k != "P"} == {(0, -4): "K", (0, -3): "Q", (-1, -4): "B",
                                                           (0, -5): "R", (1, -4): "N"}
    assert sorted(s for s, k in blue.items() if k == "P") == [(-2, -4), (-1, -5), (-1, -3), (0, -6), (0, -2),
                                                             (1, -5), (1, -3), (2, -4)]
    red = pieces_of(state, "Red")                                           # the mirror image around (0,4)
    assert red == {(-x, -y): kind for (x, y), kind in blue.items()}
    assert all(p.balance == 0 for p in state.players.values())


@pytest.mark.parametrize("count", range(2, 9))
def test_every_army_is_a_whole_diamond_inside_the_board(count):
    names = [f"P{i}" for i in range(count)]
    state = VARIANT.set_up(seated(*reversed(names)), seed=0)
    radius = 3 + 2 * count
    assert state.board.bounds == ((-radius, -radius), (radius, radius))
    squares = [p.square for p in state.board]
    assert len(squares) == len(set(squares)) == 13 * count                 # no two armies overlap
    for name in names:
        army = pieces_of(state, name)
        [king] = [s for s, k in army.items() if k == "K"]
        assert sorted(army.values()) == ["B", "K", "N"] + ["P"] * 8 + ["Q", "R"]
        assert all(abs(x - king[0]) + abs(y - king[1]) <= 2 for x, y in army)
        assert all(state.board.in_bounds(s) for s in army)
        [queen] = [s for s, k in army.items() if k == "Q"]               # toward the board's centre
        assert queen[0] ** 2 + queen[1] ** 2 < king[0] ** 2 + king[1] ** 2
    first = pieces_of(state, "P0")
    assert next(s for s, k in first.items() if k == "K") == (0, -2 * count)   # the first at -90 degrees


#: D40 by hand: radius 2n, angles -90 + k x 360/n, rounded half away from zero (n = 7: 14 cos(-38.57)
#: = 10.94 -> 11, 14 sin(-38.57) = -8.73 -> -9; n = 8: 16 cos 45 = 11.31 -> 11).
CENTRES = {
    2: [(0, -4), (0, 4)],
    3: [(0, -6), (5, 3), (-5, 3)],
    4: [(0, -8), (8, 0), (0, 8), (-8, 0)],
    5: [(0, -10), (10, -3), (6, 8), (-6, 8), (-10, -3)],
    6: [(0, -12), (10, -6), (10, 6), (0, 12), (-10, 6), (-10, -6)],
    7: [(0, -14), (11, -9), (14, 3), (6, 13), (-6, 13), (-14, 3), (-11, -9)],
    8: [(0, -16), (11, -11), (16, 0), (11, 11), (0, 16), (-11, 11), (-16, 0), (-11, -11)],
}


@pytest.mark.parametrize("count", sorted(CENTRES))
def test_the_kings_stand_on_the_circle_counter_clockwise_in_name_order(count):
    names = [f"P{i}" for i in range(count)]
    state = VARIANT.set_up(seated(*reversed(names)), seed=0)
    kings = [next(p.square for p in state.board.owned_by(name) if p.kind == "K") for name in names]
    assert kings == CENTRES[count]


def test_a_diagonal_centre_puts_the_queen_first_counter_clockwise_from_the_centre():
    """D40's tie: eight players put a king on (11,-11); the centre lies at 135 degrees from it, and the
    first orthogonal neighbour counter-clockwise from there is (10,-11) (180 degrees)."""
    state = VARIANT.set_up(seated(*"ABCDEFGH"), seed=0)
    army = pieces_of(state, "B")
    assert {s: k for s, k in army.items() if k != "P"} == {(11, -11): "K", (10, -11): "Q", (11, -12): "B",
                                                           (12, -11): "R", (11, -10): "N"}


def test_seats_are_taken_before_the_start():
    seating = VARIANT.seating
    assert (seating.seats_before_start, seating.joins_by_placement) == (True, False)
    assert (seating.min_players, seating.max_players) == (2, 8)
    features = VARIANT.features
    assert features.currency == "points" and features.several_lines and features.winners
    assert features.early_resolution and not features.fallbacks and not features.implosions


# ----------------------------------------------------------------------------- who may order
def test_who_may_order_names_the_players_with_something_to_do():
    """P62: active players with a piece that can move or a piece to place."""
    players = seated("Ann", "Bob", "Cid", "Dee", "Eve")
    players[2].pending = ("Q",)                   # Cid: nothing on the board, a queen to place
    players[3].status = "resigned"                # Dee resigned
    state = state_of([("Ann", "R", (0, 0)), ("Bob", "N", (5, 5)), ("Dee", "N", (-5, 5))], players)
    assert VARIANT.who_may_order(state) == ["Ann", "Bob", "Cid"]
    assert "no pieces left" in VARIANT.may_order(state, "Eve")
    assert "resigned" in VARIANT.may_order(state, "Dee")
    assert "not a player" in VARIANT.may_order(state, "Zed")
    assert not VARIANT.may_resolve_early(state, ["Ann", "Bob"])
    assert VARIANT.may_resolve_early(state, ["Ann", "Bob", "Cid"])


def test_a_player_whose_pieces_cannot_move_has_nothing_to_order():
    """D41: a king in the corner whose every neighbour is attacked, and nothing else."""
    state = state_of([("Ann", "K", (-7, -7)), ("Bob", "R", (-6, 5)), ("Bob", "R", (5, -6))], seated("Ann", "Bob"))
    assert VARIANT.who_may_order(state) == ["Bob"]
    assert "legal move" in VARIANT.may_order(state, "Ann")


def test_nobody_orders_once_the_game_is_over():
    players = seated("Ann", "Bob")
    players[0].balance = Fraction(100)
    state = state_of([("Ann", "R", (0, 0)), ("Bob", "N", (5, 5))], players)
    assert VARIANT.verdict(state).winners == ("Ann",)
    assert VARIANT.who_may_order(state) == [] and "over" in VARIANT.may_order(state, "Bob")


def test_when_everyone_resigns_the_game_is_over_with_no_winner():
    """P60: only active players win; with none left the game is over, drawn."""
    state = state_of([("Ann", "R", (0, 0)), ("Bob", "N", (5, 5))], seated("Ann", "Bob"))
    after, report = VARIANT.resolve(state, {"Ann": "resign", "Bob": "resign"}, seed=0)
    verdict = VARIANT.verdict(after)
    assert verdict.over and verdict.drawn and verdict.winners == ()
    assert "The game is over with no winner" in report.text() and len(after.board) == 0


# ----------------------------------------------------------------------------- the check
def test_the_bot_echoes_every_line_in_canonical_form_in_the_order_written():
    state = VARIANT.set_up(seated("Ann", "Bob"), seed=0)
    answer = VARIANT.check(state, "Ann", "n(3,-3)\n  P(0,-2)-(0,-1)  ")
    assert answer.ok and answer.canonical == "N(1,-4)-(3,-3); P(0,-2)-(0,-1)"
    assert VARIANT.check(state, "Ann", answer.canonical).canonical == answer.canonical


def test_every_wrong_line_is_named_in_a_sorted_refusal():
    """D37: the reasons of all wrong lines, sorted, so the order of the lines never matters."""
    state = VARIANT.set_up(seated("Ann", "Bob"), seed=0)
    one = VARIANT.check(state, "Ann", "N(1,-4)-(1,-2); Q(0,-3)-(0,9)")
    other = VARIANT.check(state, "Ann", "Q(0,-3)-(0,9); N(1,-4)-(1,-2)")
    assert one.error.reason == other.error.reason
    assert one.error.reason.startswith("2 lines are refused: ") and "off the board" in one.error.reason
    assert one.error.rule == "D37"
    assert one.error.offending == "N(1,-4)-(1,-2)"                            # the first wrong line


def test_the_count_refusal_points_at_the_whole_submission_and_names_the_number():
    state = VARIANT.set_up(seated("Ann", "Bob"), seed=0)
    refused = VARIANT.check(state, "Ann", "N(1,-4)-(3,-3)").error
    assert "move 2 different pieces" in refused.reason and refused.rule == "D41"
    assert "has 1 move" in refused.reason


def test_check_and_resolution_agree_with_the_validation_every_family_shares():
    """``check`` is what the bot answers at once; the update's validate step checks the same way."""
    state = VARIANT.set_up(seated("Ann", "Bob"), seed=0)
    text = "N(1,-4)-(3,-3)"
    _, report = VARIANT.resolve(state, {"Ann": text}, seed=0)
    [refusal] = report.of_type("refused")
    assert refusal.data["reason"] == VARIANT.check(state, "Ann", text).error.reason


# ----------------------------------------------------------------------------- pieces to place (D48)
def test_a_new_piece_is_pending_for_exactly_the_next_round():
    players = seated("Ann", "Bob")
    state = state_of([("Ann", "R", (0, 0)), ("Bob", "R", (6, 6))], players,
                     powerups=(PowerUp("new", (0, 4), "Q"),))
    after, _ = VARIANT.resolve(state, {"Ann": "R(0,0)-(0,4)"}, seed=0)
    assert after.players["Ann"].pending == ("Q",) and after.powerups == ()
    assert VARIANT.check(after, "Ann", "R(0,4)-(0,3)").error.rule == "D48"
    placed, _ = VARIANT.resolve(after, {"Ann": "R(0,4)-(0,3); +Q(3,3)"}, seed=0)
    assert placed.players["Ann"].pending == ()
    assert pieces_of(placed, "Ann") == {(0, 3): "R", (3, 3): "Q"}
    lost, report = VARIANT.resolve(after, {}, seed=0)
    assert lost.players["Ann"].pending == () and "did not place" in report.text()


def test_an_arena_state_keeps_its_power_ups_and_pending_pieces_when_stored():
    players = seated("Ann", "Bob")
    players[0].pending = ("Q", "N")
    state = state_of([("Ann", "R", (0, 0))], players, powerups=(PowerUp("new", (2, 2), "B"), PowerUp("king", (3, 3))))
    again = loads(dumps(state))
    assert again.players["Ann"].pending == ("Q", "N") and again.powerups == state.powerups


# ----------------------------------------------------------------------------- standings and the board
def test_the_points_board_ranks_by_points_and_marks_the_winners():
    players = seated("Ann", "Bob", "Cid")
    players[0].balance, players[1].balance, players[2].balance = Fraction(40), Fraction(100), Fraction(12)
    players[2].status = "resigned"
    state = state_of([("Ann", "K", (0, 0)), ("Ann", "R", (1, 0)), ("Bob", "N", (5, 5))], players)
    panel = VARIANT.standings_panel(state)
    assert panel.title == "Points board" and panel.currency == "points"
    assert panel.lines == ["1. Bob (Bob): 100 points --- 1 piece, 0 kings",
                           "2. Ann (Ann): 40 points --- 2 pieces, 1 king"]
    assert [row.note for row in panel.rows] == ["🏆 winner", "2 moves a round"]


def test_the_board_shows_each_power_up_with_its_kind():
    state = state_of([("Ann", "R", (0, 0))], seated("Ann", "Bob"),
                     powerups=(PowerUp("upgrade", (3, 3)), PowerUp("new", (-2, 1), "Q")))
    marks = VARIANT.board_additions(state).marks
    assert [(m.square, m.kind, m.piece) for m in marks] == [((-2, 1), "new", "Q"), ((3, 3), "upgrade", None)]


# ----------------------------------------------------------------------------- the command line
POSITION = """ruleset = "arena"
description = "the moves of an arena position"

[board]
powerups = [{ kind = "upgrade", at = [1, 1] }, { kind = "new", piece = "Q", at = [0, 3] }]

[[players]]
name = "Ann"
pending = ["N"]

[[players]]
name = "Bob"
balance = 12

[[pieces]]
owner = "Ann"
kind = "K"
at = [0, 0]

[[pieces]]
owner = "Ann"
kind = "P"
at = [1, 0]

[[pieces]]
owner = "Bob"
kind = "R"
at = [-1, 5]

[orders]
Ann = ["K(0,0)-(0,1)", "P(1,0)-(1,1)=R", "+N(5,5)"]
"""


def run_engine(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot.engine", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, check=False)


def test_moves_lists_legal_moves_with_the_king_rule(tmp_path):
    """D53: every piece's legal moves, D42 included; power-ups block nothing and a pawn enters one only by
    its orthogonal step (D46)."""
    path = tmp_path / "position.toml"
    path.write_text(POSITION, encoding="utf-8")
    result = run_engine("moves", str(path))
    assert result.returncode == 0, result.stderr
    dests = {(tuple(p["at"]), p["owner"]): [tuple(s) for s in p["dests"]] for p in json.loads(result.stdout)["pieces"]}
    assert dests[(0, 0), "Ann"] == [(0, -1), (0, 1), (1, -1), (1, 1)]       # file -1 is the rook's
    assert dests[(1, 0), "Ann"] == [(1, -1), (1, 1), (2, 0)]                 # (0,0) is its own king's
    assert (0, 5) in dests[(-1, 5), "Bob"] and (-1, -7) in dests[(-1, 5), "Bob"]


def test_print_shows_points_power_ups_pending_pieces_and_the_winner(tmp_path):
    path = tmp_path / "position.toml"
    path.write_text(POSITION, encoding="utf-8")
    result = run_engine("scenario", "--print", str(path))
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert 'powerups = [{ kind = "new", piece = "Q", at = [0, 3] }]' in text      # the upgrade was taken
    assert "balance = 12" in text
    assert 'kind = "R"\nat = [1, 1]' in text                                    # the pawn became a rook
    assert text.rstrip().endswith("# winner = []")
    assert "pending" not in text                                                # the knight was placed
    won = POSITION.replace("balance = 12", "balance = 99").replace('Ann = ["K(0,0)-(0,1)", "P(1,0)-(1,1)=R", "+N(5,5)"]',
                                                                  'Bob = "R(-1,5)-(-1,1)"')
    path.write_text(won.replace('at = [-1, 5]', 'at = [-1, 5]\n\n[[pieces]]\nowner = "Ann"\nkind = "B"\nat = [-1, 1]'),
                    encoding="utf-8")
    result = run_engine("scenario", "--print", str(path))
    assert result.stdout.rstrip().endswith('# winner = ["Bob"]'), result.stdout[-300:]
    assert 'pending = ["N"]' not in result.stdout and "did not place" not in result.stdout


def test_a_wrong_winner_is_a_difference(tmp_path):
    path = tmp_path / "position.toml"
    path.write_text(POSITION + '\n[expect]\nwinner = ["Ann"]\n', encoding="utf-8")
    result = run_engine("scenario", str(path))
    assert result.returncode == 1 and "winner: expected ['Ann'], got []" in result.stdout


# ----------------------------------------------------------------------------- whole games
def plan(state: GameState, player: str, rng: random.Random) -> str | None:
    """A simple player: legal moves of different pieces to different squares, captures and power-ups
    first, pending pieces placed on empty squares; retried until the check (D43 among others) accepts
    it, None when nothing is."""
    position = position_for(ARENA, state)
    pieces = state.pieces_of(player)
    for _ in range(30):
        rng.shuffle(pieces)
        lines, targets = [], set()
        kings = sum(1 for p in pieces if p.kind == "K")
        for piece in pieces:
            if len(lines) == 1 + kings:
                break
            dests = [d for d in legal_destinations(position, piece, state=state) if d not in targets]
            wanted = [d for d in dests if state.board.at(d) or d in {p.at for p in state.powerups}]
            if dests:
                target = rng.choice(wanted if wanted and rng.random() < 0.8 else dests)
                targets.add(target)
                lines.append(f"{piece.kind}{piece.square}-{target}".replace(" ", ""))
        (x0, y0), (x1, y1) = state.board.bounds
        taken = {p.square for p in state.board} | {p.at for p in state.powerups} | targets
        for letter in state.players[player].pending:
            free = [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1) if (x, y) not in taken]
            square = rng.choice(free)
            taken.add(square)
            lines.append(f"+{letter}({square[0]},{square[1]})")
        text = "; ".join(lines)
        if text and VARIANT.check(state, player, text).ok:
            return text
    return None


@pytest.mark.parametrize("seed, count", [(1, 2), (2, 3), (3, 5), (4, 8)])
def test_whole_games_keep_their_books_and_play_every_accepted_submission(seed, count):
    """Points equal captured totals; every submission the check accepts is played at the update (no
    refusal); pieces never share a square; the game ends by D52 or D68 within its length."""
    rng = random.Random(seed)
    state = VARIANT.set_up(seated(*[f"P{i}" for i in range(count)]), seed=seed, length=40)
    spawned = 0
    while not VARIANT.verdict(state).over:
        orders = {}
        for name in VARIANT.who_may_order(state):
            text = plan(state, name, rng)
            if text is not None:
                orders[name] = text
        state, report = VARIANT.resolve(state, orders, seed=seed)
        assert not report.of_type("refused"), report.text()
        assert all(p.balance == p.captured for p in state.players.values())
        squares = [p.square for p in state.board]
        assert len(squares) == len(set(squares))
        assert not {p.square for p in state.board} & {p.at for p in state.powerups}
        spawned += len(report.of_type("powerup_spawn"))
    verdict = VARIANT.verdict(state)
    assert verdict.winners and state.update <= 41
    assert spawned >= 1


def test_a_round_does_not_depend_on_the_order_of_players_or_lines():
    """D2: the same round with the players stored and the lines written in another order."""
    players = seated("Ann", "Bob", "Cid")
    state = VARIANT.set_up(players, seed=5)
    orders = {"Ann": "N(1,-6)-(2,-4); P(0,-4)-(0,-3)", "Cid": "Q(-4,3)-(0,-1); P(-5,1)-(-5,0)",
              "Bob": "P(5,1)-(5,0); Q(4,3)-(0,-1)"}      # the queens meet by M.A.D. on (0,-1)
    checked = {name: VARIANT.check(state, name, text) for name, text in orders.items()}
    assert all(answer.ok for answer in checked.values()), {n: a.error.reason for n, a in checked.items() if not a.ok}
    first, _ = VARIANT.resolve(state, orders, seed=5)
    shuffled = VARIANT.set_up(list(reversed(players)), seed=5)
    swapped = {name: "; ".join(reversed(text.split("; "))) for name, text in reversed(list(orders.items()))}
    second, _ = VARIANT.resolve(shuffled, swapped, seed=5)
    key = lambda s: sorted((p.owner, p.kind, p.square) for p in s.board)
    assert key(first) == key(second)
    points = {n: p.balance for n, p in first.players.items()}
    assert points == {n: p.balance for n, p in second.players.items()} == {"Ann": 0, "Bob": 9, "Cid": 9}
