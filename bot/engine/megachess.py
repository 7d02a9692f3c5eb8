"""Megachess's own rules below the steps (RULES.md 5.3, D54 to D67, D71, D72).

What the check of a submission, the steps of an update (``steps/megachess.py``) and the variant
(``variants/megachess.py``) share:

* the **teams**: which team moves in an update, how many players each has, which one a joiner joins;
* **joining**: the distance to the nearest enemy piece (D62) and the starter army (D63);
* **kingdoms**: the distance of a piece to its owner's nearest king (D60);
* **bonus pieces**: neutral pieces, entered by plain movement (D58);
* :class:`MegachessValidator`, the check of a submission against P0 with the words of D72.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from .model import Piece, Square, format_square
from .movement import DEFAULT_WINDOW, Position, destinations
from .notation import Generate, IllegalOrderError, Move, Resign, Submission, parse_submission
from .policies import TeamsAlternate, turn_order
from .ruleset import Ruleset
from .validation import CheckedAction, CheckedLine, Validator

__all__ = ["STARTER_ARMY", "MegachessValidator", "Teams", "enemy_within", "kingdom_distance2", "outside_kingdom",
           "bonus_kinds", "EmptySquares", "megachess_destinations", "once_step_used"]

#: D63: the starter army around a joining king, in the order it is laid out: 8 pawns on the squares
#: at distance 1 (by x, then y), then rook, knight, bishop, queen, bishop, knight, rook.
STARTER_ARMY: tuple[tuple[tuple[int, int], str], ...] = (
    *(((dx, dy), "P") for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)),
    ((-2, 1), "R"), ((-2, 2), "N"), ((-1, 2), "B"), ((0, 2), "Q"), ((1, 2), "B"), ((2, 2), "N"), ((2, 1), "R"),
)


class Teams:
    """The teams of one position: who is on which, how many play, who moves (RULES 5.3, D62, D65)."""

    def __init__(self, ruleset: Ruleset, state) -> None:
        self.ruleset = ruleset
        self.state = state
        self.names: tuple[str, ...] = ruleset.teams.names
        turns = turn_order(ruleset)
        self.turns: TeamsAlternate | None = turns if isinstance(turns, TeamsAlternate) else None

    def moving(self, update: int | None = None) -> str | None:
        """The team whose pieces move in ``update`` (default: the position's update)."""
        if self.turns is None or not self.names:
            return None
        return self.turns.moving_team(self.state.update if update is None else update)

    def next_update_of(self, team: str, after: int | None = None) -> int:
        """The next update, after ``after`` (default: the position's update), in which ``team`` moves."""
        start = (self.state.update if after is None else after) + 1
        return self.turns.next_update_of(team, start) if self.turns is not None else start

    def team_of(self, player: str) -> str | None:
        """The player's team, None for a player on none of the ruleset's teams (not joined yet, or a
        team name the ruleset does not have: such a player is on no team, never an error)."""
        record = self.state.players.get(player)
        return record.team if record is not None and record.team in self.names else None

    def sizes(self) -> dict[str, int]:
        """D62: the active players owning pieces in this position, by team."""
        sizes = {name: 0 for name in self.names}
        for name, player in self.state.players.items():
            if player.status == "active" and player.team in sizes and self.state.board.owns(name):
                sizes[player.team] += 1
        return sizes

    def smaller(self, sizes: dict[str, int] | None = None) -> str:
        """The team a joiner joins: the smaller one; ties go to the first named (alabaster, RULES 5.3)."""
        sizes = self.sizes() if sizes is None else sizes
        return min(self.names, key=lambda team: (sizes.get(team, 0), self.names.index(team)))

    def enemy_of(self, team: str):
        """A test for P0's pieces: those of players on another team than ``team`` (D62: bonus pieces,
        owned by nobody, are no enemies for joining)."""
        players = self.state.players

        def enemy(piece: Piece) -> bool:
            if piece.owner is None:
                return False
            record = players.get(piece.owner)
            return record is None or record.team != team
        return enemy


def enemy_within(board, square: Square, is_enemy, distance: int) -> tuple[Piece, int] | None:
    """The nearest piece passing ``is_enemy`` at Chebyshev distance below ``distance`` from
    ``square`` (the closest, then in canonical order), with its distance; None when there is none.
    Looks at the squares around, never at the whole board."""
    x, y = square
    found: list[tuple[int, tuple, Piece]] = []
    for dx in range(-distance + 1, distance):
        for dy in range(-distance + 1, distance):
            for piece in board.at((x + dx, y + dy)):
                if is_enemy(piece):
                    found.append((max(abs(dx), abs(dy)), piece.canonical_key, piece))
    if not found:
        return None
    near, _, piece = min(found, key=lambda item: item[:2])
    return piece, near


def kingdom_distance2(kings: Sequence[Piece], square: Square) -> int | None:
    """The squared Euclidean distance from ``square`` to the nearest of ``kings`` (D60); None: no king."""
    if not kings:
        return None
    return min((k.square[0] - square[0]) ** 2 + (k.square[1] - square[1]) ** 2 for k in kings)


def outside_kingdom(ruleset: Ruleset, kings: Sequence[Piece], square: Square) -> bool:
    """D60: farther than the kingdom radius from every king of the owner (``dx^2 + dy^2 > r^2``);
    with no king every square is outside."""
    radius = ruleset.teams.kingdom_radius
    if radius is None:
        return False
    distance2 = kingdom_distance2(kings, square)
    return distance2 is None or distance2 > radius * radius


def bonus_kinds(ruleset: Ruleset) -> list[str]:
    """D59: the kinds a bonus piece is drawn from, in canonical (letter) order: every non-royal kind
    (megachess: B, N, P, Q, R)."""
    return sorted(kind.letter for kind in ruleset.pieces.values() if not kind.royal)


class EmptySquares(Sequence[Square]):
    """The empty squares of a rectangle in canonical order (by x, then y), as a sequence that is
    never built: ``rng.choice`` asks only its length and one item, so drawing from a rectangle of a
    million squares costs what the pieces inside it cost (D59, INTERFACES.md "Randomness")."""

    def __init__(self, corner_low: Square, corner_high: Square, occupied: Iterable[Square]) -> None:
        (self.x0, self.y0), (self.x1, self.y1) = corner_low, corner_high
        self.height = self.y1 - self.y0 + 1
        columns: dict[int, list[int]] = {}
        for x, y in set(occupied):
            if self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1:
                columns.setdefault(x, []).append(y)
        self.columns = sorted((x, sorted(ys)) for x, ys in columns.items())
        taken = sum(len(ys) for _, ys in self.columns)
        self.count = (self.x1 - self.x0 + 1) * self.height - taken

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.count))]
        if index < 0:
            index += self.count
        if not 0 <= index < self.count:
            raise IndexError(index)
        x = self.x0
        for column, ys in self.columns:
            before = (column - x) * self.height     # the full columns before this one
            if index < before:
                break
            index -= before
            free = self.height - len(ys)
            if index < free:
                return column, self._free_y(ys, index)
            index -= free
            x = column + 1
        return x + index // self.height, self.y0 + index % self.height

    def _free_y(self, taken: list[int], index: int) -> int:
        """The ``index``-th free y of a column whose occupied ys are ``taken`` (sorted)."""
        y = self.y0 + index
        for occupied in taken:
            if occupied <= y:
                y += 1
            else:
                break
        return y


def once_step_used(ruleset: Ruleset, piece: Piece, target: Square) -> bool:
    """D55: whether a move from the piece's square to ``target`` is its once-in-a-life move (the
    bishop's orthogonal step) rather than one of its usual moves."""
    kind = ruleset.pieces[piece.kind]
    if kind.once is None:
        return False
    dx, dy = target[0] - piece.square[0], target[1] - piece.square[1]

    def reaches(ray) -> bool:
        (sx, sy), longest = ray.step, ray.range
        k = dx // sx if sx else dy // sy if sy else 0
        return k > 0 and (sx * k, sy * k) == (dx, dy) and (longest is None or k <= longest)

    return any(reaches(r) for r in kind.once.rays) and not any(reaches(r) for r in kind.movement.rays)


# ============================================================================= the check of a submission
class MegachessValidator(Validator):
    """RULES 3.1 as megachess plays it: teams (D65), teammates (D72), bonus pieces (D58), joining (D62)."""

    def __init__(self, ruleset: Ruleset, state, position: Position | None = None) -> None:
        super().__init__(ruleset, state, position)
        self.teams = Teams(ruleset, state)

    # ---------------------------------------------------------------- the submission as a whole
    def check_submission(self, player: str, text: str) -> list[CheckedLine]:
        submission = parse_submission(text, self.ruleset, self.shape.max_length)
        self.check_player(player, text)
        self.check_shape(player, submission, text)
        checked = [self.check_line(player, line, text) for line in submission.lines]
        self.check_together(checked, submission, text)
        return checked

    def check_player(self, player: str, text: str) -> None:
        """D64: whoever left the game (eliminated or resigned) may join again, so only a stranger
        is refused here."""
        if self.state is None or player not in self.state.players:
            raise IllegalOrderError("you are not a player of this game: join it first", text, rule="RULES 5.3")

    def check_shape(self, player: str, submission: Submission, text: str) -> None:
        """D38: ``resign`` alone; D62: a join alone; D65: moves only on the team's own update."""
        lines = submission.lines
        resigns = [line for line in lines if isinstance(line.action, Resign)]
        if resigns and len(lines) > 1:
            raise IllegalOrderError("`resign` is accepted only as the whole submission (D38)", text, resigns[0].span,
                                    "send `resign` alone, or your moves without it", rule="D38")
        if not self.board.owns(player):
            if len(lines) > 1:
                raise IllegalOrderError("you have no pieces: your order is one king placement, which joins the game "
                                        "(D62)", text, lines[1].span, "send K(x,y) alone", rule="D62")
            return
        if resigns:
            return
        mine, moving = self.teams.team_of(player), self.teams.moving()
        if moving is not None and mine != moving:
            raise IllegalOrderError(self.other_update(mine, moving), text, lines[0].span,
                                    "joins and `resign` are accepted on any update (D65)", rule="D65")

    def other_update(self, mine: str | None, moving: str) -> str:
        """D65, D72: the words of a move sent on the other team's update."""
        update = self.state.update
        if mine is None:
            return (f"update {update} is {moving}'s update and you are on no team: only {moving} moves now "
                    f"(RULES 5.3, D65)")
        return (f"update {update} is {moving}'s update: {mine} moves on the next one, so your moves are for "
                f"update {self.teams.next_update_of(mine)} (RULES 5.3, D65)")

    def not_joined(self) -> IllegalOrderError:
        return IllegalOrderError("you have no pieces: your first order places your king, which joins the game (D62)",
                                 hint=f"write K(x,y) on an empty square at distance at least "
                                      f"{self.ruleset.teams.join_distance or 1} from every enemy piece",
                                 rule="D62")

    # ---------------------------------------------------------------- joining (D62)
    def check_placement(self, player: str, square: Square, has_king: bool) -> CheckedAction:
        if self.board.owns(player):
            raise IllegalOrderError("you already have pieces on the board: a king placement joins the game, and "
                                    "only a player with no pieces joins (D62)", rule="D62")
        self.check_free_square(square, "a king joins on an empty square (D62)")
        team = self.teams.smaller()
        problem = self.join_problem(square, team)
        if problem is not None:
            raise IllegalOrderError(problem, rule="D62")
        return CheckedAction(Generate(self.royal, square), "place", player)

    def join_problem(self, square: Square, team: str, settled: bool = False) -> str | None:
        """D62: why a king joining ``team`` may not land on ``square`` (the distance to P0's nearest
        enemy piece), naming the team it would join (D72; ``settled``: at the update, D71); None
        when it may."""
        distance = self.ruleset.teams.join_distance
        if not distance:
            return None
        near = enemy_within(self.board, square, self.teams.enemy_of(team), distance)
        if near is None:
            return None
        piece, gap = near
        return (f"{format_square(square)} is at distance {gap} from {piece.owner}'s {self.name(piece)} on "
                f"{format_square(piece.square)}: a joining king lands at distance at least {distance} from every "
                f"enemy piece, and you would {'have joined' if settled else 'join'} {team} (RULES 5.3, D62)")

    # ---------------------------------------------------------------- moves (D55, D56, D58, D72)
    def move_problem(self, piece: Piece, target: Square, letter: str | None = None,
                     promote: str | None = None) -> str | None:
        if promote is not None:
            return f"pawns never promote in {self.ruleset.name} (RULES 5.3)"
        occupants = self.board.at(target)
        mates = [p for p in occupants if p.owner is not None and p.owner != piece.owner
                 and not self.position.enemies(p.owner, piece.owner)]
        if mates:
            mate = mates[0]
            return (f"{format_square(target)} holds {mate.owner}'s {self.name(mate)}, a teammate's piece: a move onto "
                    f"a teammate's square is illegal (RULES 5.3, D72)")
        if occupants and all(p.owner is None for p in occupants):
            if not self.position.in_bounds(target):
                return super().move_problem(piece, target, letter)
            geometry = self.reach_ignoring_target(piece, target)   # D58, P54: entered by plain movement
            return None if geometry.ok else self.cannot_move(piece, target, geometry.reason)
        problem = super().move_problem(piece, target, letter)
        return None if problem is None else self.cannot_move(piece, target, problem)

    def cannot_move(self, piece: Piece, target: Square, problem: str) -> str:
        """D72's words for a move the piece cannot make: a once-in-a-life step already spent (D55),
        or the step that never captures (D55, D56)."""
        kind = self.ruleset.pieces[piece.kind]
        if kind.once is not None and piece.step_used and once_step_used(self.ruleset, piece, target):
            return (f"the {kind.name.lower()} on {format_square(piece.square)} cannot move to {format_square(target)}: "
                    f"its one-time orthogonal step is already used (RULES 5.3, D55)")
        return problem

    def checked_move(self, player: str, piece: Piece, move: Move) -> CheckedAction:
        occupants = self.board.at(move.target)
        if occupants and all(p.owner is None for p in occupants):
            canonical = Move(move.letter, move.target, piece.square, move.promote)
            return CheckedAction(canonical, "move", player, piece.id, special="collect")   # D58: no capture
        return super().checked_move(player, piece, move)


def megachess_destinations(position: Position, piece: Piece, state, window: int | None = DEFAULT_WINDOW
                           ) -> list[Square]:
    """D67: every square the piece may move or capture to, whatever the update's team: its
    destinations on P0 plus the bonus pieces it reaches by plain movement (D58), each checked by
    :class:`MegachessValidator`."""
    if position.board.bounds is not None:
        window = None
    validator = MegachessValidator(position.ruleset, state, position)
    if piece.owner is None:
        return []
    candidates = set(destinations(position, piece, window))
    x, y = piece.square
    candidates.update(p.square for p in position.board.owned_by(None)
                      if window is None or max(abs(p.square[0] - x), abs(p.square[1] - y)) <= window)
    candidates.discard(piece.square)
    return sorted(s for s in candidates if validator.move_problem(piece, s) is None)
