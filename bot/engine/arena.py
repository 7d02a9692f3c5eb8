"""Chess Arena's rules (RULES.md 5.2, D39 to D53, D68 to D70) shared by its steps and its variant.

* the armies of the start (:func:`armies`: D39, D40);
* the check of a submission (:class:`ArenaValidator`): ``1 + kings`` moves of different pieces or
  every piece that can move if fewer (D41), the king's normal check rules (D42, D43), two actions to
  one square (D45), ``=X`` only onto an upgrade (D47), one placement per pending piece (D48), no
  ``else`` and ``resign`` alone (D38), in the words of D70;
* the end of the game (:func:`result`: D52, D68).

Resolution itself is a pipeline of steps (``steps/arena.py``); the variant is ``variants/arena.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Iterable

from .abilities import rebased
from .model import Piece, Square, format_amount, format_square
from .movement import attacked
from .notation import (ENERGY, Action, Generate, IllegalOrderError, Line, Move, OrderError, Resign, Submission,
                       format_action, parse_submission)
from .ruleset import Ruleset
from .state import GameState, PowerUp
from .validation import CheckedAction, CheckedLine, Validator, legal_destinations, square_attacked_by_enemy

__all__ = ["ArenaValidator", "armies", "army", "army_centres", "result", "Result", "POWERUP_EVERY", "POWERUP_KINDS",
           "DEFAULT_UPGRADE", "powerup_words", "new_piece_letters", "value_of"]

#: Power-ups appear at the end of rounds 3, 6, 9, ... (RULES 5.2, D51).
POWERUP_EVERY = 3
#: The kinds of power-up in the order of D51's draw (``rng.choice(["king", "new", "upgrade"])``).
POWERUP_KINDS = ("king", "new", "upgrade")
#: What an upgrade makes of a piece when the taking move writes no ``=X`` (RULES 5.2: "queen if none").
DEFAULT_UPGRADE = "Q"
#: The centres sit on the circle of radius R - 3 (RULES 5.2).
_CENTRE_INSET = 3
#: Counter-clockwise from east: the king's orthogonal neighbours (D40).
_ORTHOGONAL = ((1, 0), (0, 1), (-1, 0), (0, -1))


def value_of(ruleset: Ruleset, kind: str) -> Fraction:
    """A kind's value in points: pawn 2, knight 3, bishop 3, rook 5, queen 9, king 15 (RULES 5.2)."""
    return ruleset.pieces[kind].cost


def new_piece_letters(ruleset: Ruleset) -> list[str]:
    """The kinds a new-piece power-up may hold, in D51's draw order: every kind but the king,
    sorted (``["B", "N", "P", "Q", "R"]``)."""
    return sorted(letter for letter, kind in ruleset.pieces.items() if not kind.royal)


def powerup_words(ruleset: Ruleset, powerup: PowerUp) -> str:
    """A power-up as players read it: "new queen", "upgrade", "king me"."""
    if powerup.kind == "new":
        piece = ruleset.pieces[powerup.piece].name.lower() if powerup.piece in ruleset.pieces else "piece"
        return f"new {piece}"
    return {"upgrade": "upgrade", "king": "king me"}.get(powerup.kind, powerup.kind)


# ============================================================================= the armies (D39, D40)
def _round_half_away(value: float) -> int:
    """D40: coordinates are rounded half away from zero."""
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def army_centres(radius: int, count: int) -> list[Square]:
    """The kings' squares of ``count`` armies on a board of radius ``radius`` (D40): on the circle of
    radius R - 3, the first at -90 degrees (bottom), then counter-clockwise in steps of 360/n."""
    circle = radius - _CENTRE_INSET
    centres = []
    for index in range(count):
        angle = math.radians(-90 + index * 360 / count)
        centres.append((_round_half_away(circle * math.cos(angle)), _round_half_away(circle * math.sin(angle))))
    return centres


def _toward_centre(centre: Square) -> tuple[int, int]:
    """D40: the king's orthogonal neighbour nearest (0,0); for a diagonal centre (a tie) the one
    first counter-clockwise from the exact direction to the centre."""
    cx, cy = centre
    distance = {d: (cx + d[0]) ** 2 + (cy + d[1]) ** 2 for d in _ORTHOGONAL}
    nearest = min(distance.values())
    tied = [d for d in _ORTHOGONAL if distance[d] == nearest]
    if len(tied) == 1:
        return tied[0]
    exact = math.degrees(math.atan2(-cy, -cx)) % 360
    return min(tied, key=lambda d: (math.degrees(math.atan2(d[1], d[0])) - exact) % 360)


def army(centre: Square) -> list[tuple[str, Square]]:
    """One army's 13-square diamond (RULES 5.2, D40): the king in the centre, the queen toward the
    board's centre, then counter-clockwise the bishop, the rook (opposite the queen) and the knight;
    eight pawns on the ring at Manhattan distance 2."""
    x, y = centre
    dx, dy = _toward_centre(centre)
    pieces = [("K", centre)]
    for letter in ("Q", "B", "R", "N"):
        pieces.append((letter, (x + dx, y + dy)))
        dx, dy = -dy, dx                       # a quarter turn counter-clockwise
    ring = sorted((x + rx, y + ry) for rx in range(-2, 3) for ry in range(-2, 3) if abs(rx) + abs(ry) == 2)
    pieces += [("P", square) for square in ring]
    return pieces


def armies(ruleset: Ruleset, names: Iterable[str]) -> list[dict]:
    """Every seated player's army (D39: n counts every seated player), players in name order, as
    piece descriptions for :meth:`GameState.build`."""
    names = sorted(names)
    bounds = ruleset.bounds_for(len(names))
    radius = bounds[1][0] if bounds is not None else _CENTRE_INSET + 2 * len(names)
    pieces = []
    for name, centre in zip(names, army_centres(radius, len(names))):
        pieces += [dict(owner=name, kind=letter, square=square) for letter, square in army(centre)]
    return pieces


# ============================================================================= the end (D52, D68)
@dataclass(frozen=True, slots=True)
class Result:
    """How an arena game stands after a round: ``over``, its ``winners`` (several share) and why."""

    over: bool = False
    winners: tuple[str, ...] = ()
    reason: str = ""
    points: Fraction = Fraction(0)


def result(ruleset: Ruleset, state: GameState) -> Result:
    """D52: among active players with at least ``win_at`` points, the highest score wins (equal
    scores share). D68: the game also ends when at most one active player has pieces left (on the
    board or to place, P60) or the session's ``length`` is reached; then the highest score of the
    active players wins. Resigned players neither win nor keep the game going (P60)."""
    active = sorted(name for name, player in state.players.items() if player.status == "active")
    points = {name: state.players[name].balance for name in active}
    target = ruleset.economy.win_at
    reached = [name for name in active if target is not None and points[name] >= target]
    if reached:
        best = max(points[name] for name in reached)
        return Result(True, tuple(n for n in reached if points[n] == best),
                      f"the first to {format_amount(target)} points (RULES 5.2, D52)", best)
    holding = [name for name in active if state.board.owns(name) or state.players[name].pending]
    if len(holding) <= 1:
        reason = ("no player has pieces left (D68)" if not holding
                  else f"only {holding[0]} has pieces left (D68)")
    elif state.length is not None and state.update > state.length:
        reason = f"the session's length of {state.length} rounds is reached (D68)"
    else:
        return Result()
    if not active:
        return Result(True, (), reason)
    best = max(points.values())
    return Result(True, tuple(n for n in active if points[n] == best), reason, best)


# ============================================================================= orders
class ArenaValidator(Validator):
    """The check of an arena submission against P0 (RULES 3.1, 5.2; D7, D37, D38, D41 to D48, D70).

    Each line is a move (RULES 3.1 and the king's rule, D42), a placement of a pending piece
    (``+X(x,y)``, D48) or ``resign``; then the lines are checked together: ``resign`` alone, two
    actions to one square (D45), one placement per pending piece (D48), the number of moves (D41)
    and the answer to a check (D43). Every wrong line is named (D37)."""

    def __init__(self, ruleset: Ruleset, state, position=None) -> None:
        super().__init__(ruleset, state, position)
        self._destinations: dict[int, list[Square]] = {}

    # ---------------------------------------------------------------- the submission
    def check_submission(self, player: str, text: str) -> list[CheckedLine]:
        submission = parse_submission(text, self.ruleset, self.shape.max_length)
        self.check_player(player, text)
        checked, errors = [], []
        for line in submission.lines:
            try:
                checked.append(self.check_line(player, line, text))
            except OrderError as error:
                errors.append(error)
        if errors:
            raise _all_reasons(errors, text)
        self.check_together(checked, submission, text)
        return checked

    def check_player(self, player: str, text: str) -> None:
        record = self.state.players.get(player) if self.state is not None else None
        if record is None:
            raise IllegalOrderError("you are not a player of this game: seats are taken before it starts "
                                    "(RULES 5.2)", text, rule="RULES 5.2")
        if record.status == "resigned":
            raise IllegalOrderError("you resigned and may not order any more this game (D38)", text, rule="D38")
        if record.status != "active":
            raise IllegalOrderError("you are out of this game and may not order any more (RULES 5.2)", text,
                                    rule="RULES 5.2")
        if not self.own_pieces(player) and not record.pending:
            raise IllegalOrderError("you have no pieces left on the board and none to place: you have nothing "
                                    "to order (RULES 5.2)", text, rule="RULES 5.2")

    def check_line(self, player: str, line: Line, text: str) -> CheckedLine:
        if line.fallback is not None:
            raise IllegalOrderError(f"{self.ruleset.name} has no conditional orders: `else` is not allowed, "
                                    f"every line is one of the round's moves (D38)", text, line.fallback_span,
                                    "send the first action alone", rule="D38")
        return CheckedLine(self.check_action(player, line.action, text, line.action_span))

    def _check_action(self, player: str, action: Action) -> CheckedAction:
        if isinstance(action, Resign):
            return CheckedAction(action, "resign", player)
        if isinstance(action, Generate):
            return self.check_new_piece(player, action)
        return self.check_arena_move(player, action)

    # ---------------------------------------------------------------- one line
    def move_problem(self, piece: Piece, target: Square, letter: str | None = None,
                     promote: str | None = None) -> str | None:
        if not self.position.in_bounds(target):
            return f"{format_square(target)} is off the board{self.bounds_text()} (RULES 5.2)"
        return super().move_problem(piece, target, letter, promote)

    def check_arena_move(self, player: str, move: Move) -> CheckedAction:
        """A move (RULES 3.1, D42); ``=X`` only on a move onto an upgrade power-up (D47)."""
        promote = move.promote
        checked = self.check_move(player, replace(move, promote=None))
        if promote is None:
            return checked
        piece = self.board.get(checked.piece_id)
        target = checked.target
        if promote == ENERGY:
            raise IllegalOrderError(f"{self.ruleset.name} has no energy pawns: `=X` names the kind an upgrade "
                                    f"power-up makes (D47)", rule="D47")
        if self.ruleset.pieces[promote].royal:
            raise IllegalOrderError(f"an upgrade never makes a king: write ={self.upgrade_letters()} "
                                    f"(a king comes from the king-me power-up) (D47)", rule="D47")
        if self.ruleset.pieces[piece.kind].royal:
            raise IllegalOrderError("a king that takes an upgrade stays a king: `=X` is refused on a king's move "
                                    "(D47)", hint=f"write {format_action(replace(checked.action, promote=None))}",
                                    rule="D47")
        if not any(p.kind == "upgrade" and p.at == target for p in self.state.powerups):
            raise IllegalOrderError(f"`={promote}` is accepted only on a move onto an upgrade power-up, and "
                                    f"{format_square(target)} holds none: {self.ruleset.name} has no promotion "
                                    f"(D47)", rule="D47")
        return replace(checked, action=replace(checked.action, promote=promote))

    def upgrade_letters(self) -> str:
        """"Q, =R, =B, =N or =P": the kinds an upgrade may make, the most valuable first."""
        letters = sorted(new_piece_letters(self.ruleset), key=lambda letter: (-value_of(self.ruleset, letter), letter))
        return ", =".join(letters[:-1]) + f" or ={letters[-1]}" if len(letters) > 1 else "".join(letters)

    def check_new_piece(self, player: str, action: Generate) -> CheckedAction:
        """``+X(x,y)``: a pending piece placed on a square empty in P0, no power-up on it (D46, D48)."""
        pending = self.state.players[player].pending
        name = self.name(action.letter)
        if action.letter not in pending:
            if pending:
                kinds = ", ".join(self.name(letter) for letter in pending)
                raise IllegalOrderError(f"you have no new {name} to place; you have to place: {kinds} (D48)",
                                        rule="D48")
            raise IllegalOrderError(f"you have no new {name} to place: pieces enter the arena only from new-piece "
                                    f"power-ups, placed in the round after they are taken (RULES 5.2, D48)",
                                    rule="D48")
        square = action.square
        if not self.position.in_bounds(square):
            raise IllegalOrderError(f"{format_square(square)} is off the board{self.bounds_text()} (RULES 5.2)",
                                    rule="RULES 5.2")
        if self.board.occupied(square):
            what = self.name(self.board.at(square)[0])
            raise IllegalOrderError(f"{format_square(square)} holds a {what} in the position you saw: a new piece "
                                    f"is placed on an empty square (D48)", rule="D48")
        if any(p.at == square for p in self.state.powerups):
            raise IllegalOrderError(f"{format_square(square)} holds a power-up: a new piece is placed on a square "
                                    f"with no piece and no power-up (D46, D48)", rule="D48")
        return CheckedAction(action, "place", player)

    # ---------------------------------------------------------------- the lines together
    def check_together(self, checked: list[CheckedLine], submission: Submission, text: str) -> None:
        lines = submission.lines
        actions = [line.action for line in checked]
        resigning = [i for i, action in enumerate(actions) if action.kind == "resign"]
        if resigning:
            if len(actions) > 1:
                raise IllegalOrderError("`resign` is the whole submission: send it alone (D38)", text,
                                        lines[resigning[0]].span, rule="D38")
            return
        pieces: dict[int, int] = {}
        targets: dict[Square, int] = {}
        for i, action in enumerate(actions):
            if action.piece_id is not None:
                if action.piece_id in pieces:
                    piece = self.board.get(action.piece_id)
                    raise IllegalOrderError(f"each piece moves at most once a round: the {self.name(piece)} on "
                                            f"{format_square(piece.square)} has two moves here (D7, RULES 5.2)",
                                            text, lines[i].span, rule="D7")
                pieces[action.piece_id] = i
            if action.target in targets:
                raise IllegalOrderError(f"two of your actions go to one square, {format_square(action.target)}: "
                                        f"each of your moves and placements needs a square of its own (D45)",
                                        text, lines[i].span, rule="D45")
            targets[action.target] = i
        player = checked[0].action.player
        self.check_placements(player, actions, lines, text)
        moves = [action for action in actions if action.kind == "move"]
        self.check_count(player, moves, text)
        self.check_answer(player, moves, text)

    def check_placements(self, player: str, actions: list[CheckedAction], lines, text: str) -> None:
        """D48: exactly one placement per pending piece."""
        pending = list(self.state.players[player].pending)
        placed = [action.action.letter for action in actions if action.kind == "place"]
        for letter in sorted(set(pending) | set(placed)):
            want, got = pending.count(letter), placed.count(letter)
            name = self.name(letter)
            if got > want:
                extra = [i for i, a in enumerate(actions) if a.kind == "place" and a.action.letter == letter][want]
                raise IllegalOrderError(f"you have {want} new {name}{'s' if want != 1 else ''} to place; this "
                                        f"submission places {got} (D48)", text, lines[extra].span, rule="D48")
            if got < want:
                raise IllegalOrderError(f"you must place your new {name} this round with +{letter}(x,y) on an empty "
                                        f"square, or it is lost (D48)", text,
                                        hint=f"add a line +{letter}(x,y) to your moves", rule="D48")

    def check_count(self, player: str, moves: list[CheckedAction], text: str) -> None:
        """D41: 1 + kings moves of different pieces, or every piece with a legal move if fewer."""
        expected, kings, movable = self.moves_expected(player)
        if len(moves) == expected:
            return
        plural = "s" if expected != 1 else ""
        if expected < 1 + kings:
            why = f"every piece of yours that can move: {movable}, fewer than 1 + your kings"
        else:
            why = f"1 + your {kings} king{'s' if kings != 1 else ''}"
        raise IllegalOrderError(
            f"this round you move {expected} different piece{plural} ({why}; RULES 5.2, D41); this submission "
            f"has {len(moves)} move{'s' if len(moves) != 1 else ''}", text,
            hint=f"send {expected} move{plural}, separated by `;`" if expected else "send only your placements",
            rule="D41")

    def check_answer(self, player: str, moves: list[CheckedAction], text: str) -> None:
        """D43: for every own king attacked in P0, a move that ends the attack, when one exists."""
        for king in self.kings_in_check(player):
            if any(self.answers(king, self.board.get(move.piece_id), move.target) for move in moves):
                continue
            answer = self.first_answer(player, king)
            if answer is not None:
                piece, target = answer
                example = format_action(Move(piece.kind, target, piece.square))
                raise IllegalOrderError(
                    f"your king on {format_square(king.square)} is in check: this submission must include a move "
                    f"that ends the attack, as {example} would (RULES 5.2, D43)", text,
                    hint="move the king away, capture the attacker or block its line", rule="D43")

    # ---------------------------------------------------------------- questions about P0
    def destinations_of(self, piece: Piece) -> list[Square]:
        """The legal destinations of ``piece`` in P0 (D42 included), computed once."""
        found = self._destinations.get(piece.id)
        if found is None:
            found = self._destinations[piece.id] = legal_destinations(self.position, piece, state=self.state)
        return found

    def moves_expected(self, player: str) -> tuple[int, int, int]:
        """(moves expected, kings in P0, pieces with a legal move, counted up to 1 + kings) (D41)."""
        pieces = sorted(self.own_pieces(player), key=lambda p: p.canonical_key)
        kings = sum(1 for p in pieces if self.ruleset.pieces[p.kind].royal)
        wanted = 1 + kings
        movable = 0
        for piece in pieces:
            if self.destinations_of(piece):
                movable += 1
                if movable == wanted:
                    break
        return min(wanted, movable), kings, movable

    def kings_in_check(self, player: str) -> list[Piece]:
        kings = [p for p in self.own_pieces(player) if self.ruleset.pieces[p.kind].royal]
        return sorted((k for k in kings if square_attacked_by_enemy(self.position, k.square, player)),
                      key=lambda p: p.canonical_key)

    def answers(self, king: Piece, piece: Piece, target: Square) -> bool:
        """D43: whether moving ``piece`` to ``target``, applied alone to P0 (its victim removed),
        leaves ``king`` attacked by no enemy piece."""
        board = self.board.copy()
        board.remove(piece.id)
        for victim in board.at(target):
            board.remove(victim.id)
        board.add(replace(piece, square=target, moved=True))
        position = rebased(self.position, board)
        square = target if piece.id == king.id else king.square
        return not attacked(position, square, by=lambda p: position.enemies(p.owner, king.owner))

    def first_answer(self, player: str, king: Piece) -> tuple[Piece, Square] | None:
        """A legal move of the player that answers the check on ``king`` (the king's own first)."""
        pieces = sorted(self.own_pieces(player), key=lambda p: (p.id != king.id, p.canonical_key))
        for piece in pieces:
            for target in self.destinations_of(piece):
                if self.answers(king, piece, target):
                    return piece, target
        return None


def _all_reasons(errors: list[OrderError], text: str) -> OrderError:
    """D37: one wrong line refuses the whole submission, and the reasons of all wrong lines are
    given, sorted, so the order of the lines never matters; the span points at the first."""
    if len(errors) == 1:
        return errors[0]
    first = min(errors, key=lambda e: e.span)
    reasons = sorted(error.reason for error in errors)
    return type(first)(f"{len(errors)} lines are refused: " + "; ".join(reasons), text, first.span, first.hint,
                       "D37")
