"""Territory's pieces on a position being played (RULES.md 5.4.4 to 5.4.6, T11 to T21, T28 to T37).

A :class:`Table` is the position of one turn while its submission is carried out: the board (a copy),
the reserves, the draft area and the Mirror copies. Its methods are the rules: control (Sun counts 2,
Chaos blocks), freezing (Ice), Shields, Lotus boxes, moves and captures, and every ability, one
method each. A rule that refuses raises :class:`Refusal` with the reason in a player's words, the
span of the submission it points at and the rule it cites; a relocation after which a player controls
the goal raises :class:`Won` (T9: the rest of the submission is not carried out).

Abilities are named in the ruleset's piece table (``abilities = ["pull"]``) and looked up by name,
never by a kind's letter, so a moderator's piece table decides who has them.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from ..betza import describe_betza
from ..board import Board
from ..model import Piece, Square, format_square as sq
from ..ruleset import PieceKind, Ruleset
from .layout import GOAL, Territory, TerritoryRules
from .notation import Action, Draft, Place
from .state import TerritoryState

__all__ = ["Table", "Refusal", "Won", "chebyshev", "LOTUS_REACH"]

#: A White Lotus holds pieces in the 7x7 box centred on it: Chebyshev distance 3 (T14).
LOTUS_REACH = 3

Span = tuple[int, int]


class Refusal(Exception):
    """A rule refuses the submission: ``reason`` in plain words, ``span`` where it points, ``rule``."""

    def __init__(self, reason: str, span: Span, rule: str) -> None:
        super().__init__(reason)
        self.reason, self.span, self.rule = reason, span, rule


class Won(Exception):
    """A player controls the goal: the game is won at once (T9)."""

    def __init__(self, player: str) -> None:
        super().__init__(player)
        self.player = player


def chebyshev(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def _a(name: str) -> str:
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


class Table:
    """One turn's position while it is played. ``entries`` are the report's entries, in order, as
    ``(type, players, data)``; ``winner`` is set when a relocation wins."""

    def __init__(self, ruleset: Ruleset, board: Board, territory: TerritoryState, colours: dict[str, str],
                 next_id: int) -> None:
        self.ruleset = ruleset
        self.rules: TerritoryRules = ruleset.family_rules
        self.board = board.copy()
        self.reserves = {name: list(territory.reserve(name)) for name in colours}
        self.draft_area = list(territory.draft_area)
        self.copies = set(territory.copies)
        self.colours = colours                      # player name -> Red | Blue
        self.next_id = next_id
        self.entries: list[tuple[str, tuple[str, ...], dict]] = []
        self.winner: str | None = None

    def fork(self) -> "Table":
        """An independent copy, to try an action without changing this one (D5's short form)."""
        other = Table.__new__(Table)
        other.ruleset, other.rules, other.colours, other.next_id = self.ruleset, self.rules, self.colours, self.next_id
        other.board = self.board.copy()
        other.reserves = {name: list(kinds) for name, kinds in self.reserves.items()}
        other.draft_area, other.copies, other.entries = list(self.draft_area), set(self.copies), list(self.entries)
        other.winner = self.winner
        return other

    # ------------------------------------------------------------------ who and what
    def kind(self, piece: Piece) -> PieceKind:
        return self.ruleset.pieces[piece.kind]

    def name(self, piece: Piece) -> str:
        return self.kind(piece).name

    def has(self, piece: Piece, ability: str) -> bool:
        return self.kind(piece).has(ability)

    def opponent(self, player: str) -> str:
        return next(name for name in self.colours if name != player)

    def whose(self, piece: Piece, player: str) -> str:
        return "your" if piece.owner == player else f"{piece.owner}'s"

    def describe(self, piece: Piece) -> str:
        """"the Rock on (0,1)"."""
        return f"the {self.name(piece)} on {sq(piece.square)}"

    def pieces_near(self, square: Square, distance: int = 1) -> Iterable[Piece]:
        x, y = square
        for dx in range(-distance, distance + 1):
            for dy in range(-distance, distance + 1):
                if (dx or dy):
                    yield from self.board.at((x + dx, y + dy))

    # ------------------------------------------------------------------ control (5.4.4)
    def count(self, player: str, squares: Iterable[Square]) -> int:
        """The player's count on these squares: one a piece, a Sun (counts_double) two."""
        total = 0
        for square in squares:
            for piece in self.board.at(square):
                if piece.owner == player:
                    total += 2 if self.has(piece, "counts_double") else 1
        return total

    def area_squares(self, name: str) -> frozenset[Square]:
        if name == GOAL:
            return frozenset({self.rules.goal})
        territory = self.rules.territory(name)
        return territory.squares if territory else frozenset()

    def controller(self, name: str) -> str | None:
        """Who controls a territory or the goal (``Goal``): a count at least the opponent's plus 2;
        nobody in a territory other than the goal that holds a Chaos (blocks_control)."""
        squares = self.area_squares(name)
        if name != GOAL and any(self.has(p, "blocks_control") for s in squares for p in self.board.at(s)):
            return None
        counts = {player: self.count(player, squares) for player in self.colours}
        for player, count in counts.items():
            if all(count >= other + 2 for rival, other in counts.items() if rival != player):
                return player
        return None

    def check_goal(self) -> None:
        """T9: control of the goal is checked after every relocation; its first controller wins."""
        winner = self.controller(GOAL)
        if winner is not None:
            self.entries.append(("goal_won", (winner,), {"at": self.rules.goal}))
            raise Won(winner)

    # ------------------------------------------------------------------ effects on a piece (T13 to T15)
    def frozen_by(self, piece: Piece) -> Piece | None:
        """The Ice that freezes the piece (Chebyshev distance 1, either side), or None."""
        return next((p for p in self.pieces_near(piece.square) if p.id != piece.id and self.has(p, "freezes")), None)

    def unfrozen(self, piece: Piece, span: Span, role: str = "") -> None:
        ice = self.frozen_by(piece)
        if ice is not None:
            what = f"{self.describe(piece)} is frozen" + (f" and cannot be {role}" if role else "")
            raise Refusal(f"{what}: it stands next to {self.describe(ice)} (T13)", span, "T13")

    def shield_of(self, piece: Piece) -> Piece | None:
        """An allied Shield diagonally next to the piece (T15); a Shield does not guard itself."""
        x, y = piece.square
        for dx in (-1, 1):
            for dy in (-1, 1):
                for other in self.board.at((x + dx, y + dy)):
                    if other.owner == piece.owner and other.id != piece.id and self.has(other, "shield"):
                        return other
        return None

    def capturable(self, victim: Piece, span: Span) -> None:
        shield = self.shield_of(victim)
        if shield is not None:
            raise Refusal(f"{self.describe(victim)} cannot be captured: {self.whose(shield, victim.owner)} Shield on "
                          f"{sq(shield.square)} guards it (T15)", span, "T15")

    def lotus_check(self, piece: Piece, start: Square, end: Square, span: Span) -> None:
        """T14: a relocation from ``start`` to ``end`` is illegal when a White Lotus other than the
        relocated piece has ``start`` within its box and ``end`` beyond it."""
        for lotus in self.board:
            if lotus.id == piece.id or not self.has(lotus, "lotus_box"):
                continue
            if chebyshev(lotus.square, start) <= LOTUS_REACH < chebyshev(lotus.square, end):
                raise Refusal(f"{self.describe(piece)} cannot leave the box of the White Lotus on {sq(lotus.square)} "
                              f"(the 7x7 square around it): {sq(end)} is outside it (T14)", span, "T14")

    # ------------------------------------------------------------------ changes
    def relocate(self, *moves: tuple[Piece, Square]) -> None:
        """Pieces go to their squares at once (a swap is two), then the goal is checked (T9)."""
        for piece, _ in moves:
            self.board.remove(piece.id)
        for piece, square in moves:
            self.board.add(piece.at(square))
        self.check_goal()

    def capture(self, victim: Piece, by: str) -> None:
        """5.4.3's removal: to the draft area; a Rock to its owner's reserve while that holds fewer
        than the limit (T8); a Mirror copy leaves the game (T18)."""
        self.board.remove(victim.id)
        owner = victim.owner
        data = {"by": (by,), "owner": owner, "kind": self.name(victim), "at": victim.square}
        self.entries.append(("capture", (by, owner), data))
        if victim.id in self.copies:
            self.copies.discard(victim.id)
            destination = "gone"
        elif self.has(victim, "returns_to_reserve") and len(self.reserves[owner]) < self.rules.reserve_max:
            self.reserves[owner].append(victim.kind)
            destination = "reserve"
        else:
            self.draft_area.append(victim.kind)
            destination = "draft area"
        self.entries.append(("removal", (owner,), {"kind": self.name(victim), "to": destination}))

    # ------------------------------------------------------------------ the acting piece
    def own_piece(self, action: Action, player: str) -> Piece:
        """The player's piece of the action's kind on its origin square."""
        origin = action.origin
        span = action.where("origin")
        kind = self.ruleset.pieces[action.kind]
        here = self.board.at(origin)
        mine = [p for p in here if p.kind == action.kind and p.owner == player]
        if mine:
            return mine[0]
        if not here:
            raise Refusal(f"there is no piece on {sq(origin)} (RULES 5.4.5)", span, "RULES 5.4.5")
        other = here[0]
        if other.owner != player:
            raise Refusal(f"{self.describe(other)} is {other.owner}'s, not yours", span, "RULES 5.4.5")
        raise Refusal(f"your piece on {sq(origin)} is a {self.name(other)}, not {_a(kind.name)}", span, "RULES 5.4.5")

    def in_territory(self, piece: Piece, territory: Territory | None, span: Span) -> None:
        if territory is not None and piece.square not in territory.squares:
            raise Refusal(f"only pieces in {territory.name} act on {territory.name}'s turn: {self.describe(piece)} "
                          f"stands outside {territory.name} (RULES 5.4.2)", span, "RULES 5.4.2")

    # ------------------------------------------------------------------ an action (5.4.5, 5.4.6)
    def act(self, action: Action, player: str, territory: Territory | None) -> None:
        """Carry out an action whose origins are known (the short form resolved). On a territory
        turn the acting piece (for a Leadership, the Leadership only: T17) must start in it."""
        piece = self.own_piece(action, player)
        self.in_territory(piece, territory, action.where("origin"))
        self.perform(action, piece, player)

    def perform(self, action: Action, piece: Piece, player: str) -> None:
        form = action.form
        if form == "move":
            if self.has(piece, "jump_to_ally"):
                self.jump(piece, action.moves[0], action.where("move0"))
            elif self.has(piece, "capture_chain"):
                self.fire(piece, action)
            else:
                self.move(piece, action.moves[0], action.where("move0"))
        elif form == "swap":
            self.swap(piece, action, enemy=self.has(piece, "swap_enemy"))
        elif form == "pull":
            self.pull(piece, action)
        elif form == "push":
            self.push(piece, action)
        elif form == "carry":
            self.carry(piece, action)
        elif form == "shot":
            self.shoot(piece, action)
        elif form == "lead":
            self.lead(piece, action, player)
        else:  # the parser makes no other form
            raise ValueError(f"unknown form {form!r}")

    # ------------------------------------------------------------------ moves and captures
    def landing(self, piece: Piece, target: Square, span: Span) -> list[Piece]:
        """What a relocation that may capture and stack (a move, a leg, a jump) meets on ``target``:
        the enemies it would capture (:meth:`land` checks their Shields). An ally there is allowed
        only on the goal (a stack, 5.4.4)."""
        if not self.rules.on_board(target):
            raise Refusal(f"{sq(target)} is off the board", span, "RULES 5.4.1")
        if target == piece.square:
            raise Refusal(f"{self.describe(piece)} is already on {sq(target)}", span, "RULES 5.4.5")
        occupants = self.board.at(target)
        allies = [p for p in occupants if p.owner == piece.owner]
        if allies:
            if target != self.rules.goal:
                raise Refusal(f"your {self.name(allies[0])} stands on {sq(target)}: a piece may end on an ally only "
                              f"on the goal (RULES 5.4.4)", span, "RULES 5.4.4")
            return []
        return list(occupants)

    def reach(self, piece: Piece, target: Square, capturing: bool, span: Span) -> None:
        """The piece's own movement (its Betza rays) reaches ``target``; a piece between blocks a
        non-leaping move (T11)."""
        kind = self.kind(piece)
        name = kind.name
        if kind.movement.never_moves:
            raise Refusal(f"{_a(name)} does not move (RULES 5.4.6)", span, "RULES 5.4.6")
        x, y = piece.square
        dx, dy = target[0] - x, target[1] - y
        blocker: Square | None = None
        for ray in kind.movement.rays:
            if (capturing and not ray.capture) or (not capturing and not ray.move):
                continue
            sx, sy = ray.step
            if ray.range == 1:
                if (sx, sy) != (dx, dy):
                    continue
                between = [(x + ox, y + oy) for ox, oy in ray.path]
            else:
                k = _multiple(dx, dy, sx, sy)
                if k is None or (ray.range is not None and k > ray.range):
                    continue
                between = [(x + j * sx, y + j * sy) for j in range(1, k)]
            blocked = next((s for s in between if self.board.at(s)), None)
            if blocked is None:
                return
            blocker = blocker or blocked
        if blocker is not None:
            raise Refusal(f"the {self.name(self.board.at(blocker)[0])} on {sq(blocker)} blocks the {name}'s path (T11)",
                          span, "T11")
        raise Refusal(f"{_a(name)} cannot move from {sq(piece.square)} to {sq(target)}: it "
                      f"{describe_betza(kind.betza)} (RULES 5.4.6)", span, "RULES 5.4.6")

    def land(self, piece: Piece, target: Square, victims: list[Piece], span: Span) -> bool:
        """Shields and Lotus boxes, then the captures and the relocation; whether it captured."""
        for victim in victims:
            self.capturable(victim, span)
        self.lotus_check(piece, piece.square, target, span)
        for victim in victims:
            self.capture(victim, piece.owner)
        self.relocate((piece, target))
        return bool(victims)

    def move(self, piece: Piece, target: Square, span: Span) -> bool:
        """A move by the piece's movement: onto an empty square, an enemy (a capture) or the goal
        holding an ally (a stack). Whether it captured."""
        self.unfrozen(piece, span)
        victims = self.landing(piece, target, span)
        self.reach(piece, target, bool(victims), span)
        return self.land(piece, target, victims, span)

    def fire(self, piece: Piece, action: Action) -> None:
        """T21, T36: the knight move, then a king step after each leg that captured; a step to an
        empty square ends the chain, and a leg after it refuses the submission."""
        captured = False
        for index, target in enumerate(action.moves):
            span = action.where(f"move{index}")
            piece = self.board.get(piece.id)
            if index == 0:
                captured = self.move(piece, target, span)
                continue
            if not captured:
                previous = action.moves[index - 1]
                raise Refusal(f"the Fire's leg to {sq(previous)} captured nothing, so its chain ended there: no "
                              f"further leg (T21, T36)", span, "T36")
            self.unfrozen(piece, span)
            if chebyshev(piece.square, target) != 1:
                raise Refusal(f"after a capture the Fire steps one square (a king's step): {sq(target)} is not next "
                              f"to {sq(piece.square)} (T21)", span, "T21")
            victims = self.landing(piece, target, span)
            captured = self.land(piece, target, victims, span)

    def jump(self, piece: Piece, target: Square, span: Span) -> None:
        """T19, T28: a Shadow jumps to a square next to an allied piece other than itself (and other
        than the ally it would stack on), empty, enemy (a capture) or the goal holding an ally."""
        self.unfrozen(piece, span)
        victims = self.landing(piece, target, span)
        allies = [p for p in self.pieces_near(target) if p.owner == piece.owner and p.id != piece.id]
        if not allies:
            stack = target == self.rules.goal and self.board.at(target)
            rule = "T28" if stack else "T19"
            why = (" (the ally on the goal does not count, T28)" if stack else "")
            raise Refusal(f"a Shadow jumps only next to one of your other pieces: {sq(target)} is next to none{why} "
                          f"({rule})", span, rule)
        self.land(piece, target, victims, span)

    # ------------------------------------------------------------------ abilities
    def line_target(self, piece: Piece, target: Square, span: Span, verb: str) -> tuple[Piece, tuple[int, int], int]:
        """The first piece on one of the 8 lines from ``piece`` (T16): the piece on ``target``,
        with nothing between. Returns it, the unit step toward it and its distance."""
        dx, dy = target[0] - piece.square[0], target[1] - piece.square[1]
        name = self.name(piece)
        if (dx, dy) == (0, 0) or not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
            raise Refusal(f"{sq(target)} is not on a line (straight or diagonal) from the {name} on {sq(piece.square)} "
                          f"(T16)", span, "T16")
        occupants = self.board.at(target)
        if not occupants:
            raise Refusal(f"there is no piece on {sq(target)} to {verb}", span, "T16")
        unit = (_sign(dx), _sign(dy))
        distance = max(abs(dx), abs(dy))
        for j in range(1, distance):
            between = (piece.square[0] + j * unit[0], piece.square[1] + j * unit[1])
            if self.board.at(between):
                raise Refusal(f"the {self.name(self.board.at(between)[0])} on {sq(between)} blocks the {name}'s line: "
                              f"only the first piece on a line can be {verb}ed (T16)", span, "T16")
        return occupants[0], unit, distance

    def swap(self, piece: Piece, action: Action, enemy: bool) -> None:
        """Balance (full phase, T16): swap with an enemy not on the goal or in the neutral zone, at
        any distance. Leaf (before its move): swap with an ally, then optionally its move from its
        new square (T37). Swaps never capture; Shields do not stop them (T15); Lotus boxes hold
        both halves (T14)."""
        span, target = action.where("target"), action.target
        name = self.name(piece)
        self.unfrozen(piece, action.where("origin"))
        if not self.rules.on_board(target):
            raise Refusal(f"{sq(target)} is off the board", span, "RULES 5.4.1")
        occupants = self.board.at(target)
        if not occupants:
            raise Refusal(f"there is no piece on {sq(target)} to swap with", span, "T16")
        other = occupants[0]
        if other.id == piece.id:
            raise Refusal(f"{_a(name)} cannot swap with itself", span, "RULES 5.4.6")
        if enemy:
            if other.owner == piece.owner:
                raise Refusal(f"{_a(name)} swaps only with an enemy piece: {self.describe(other)} is yours (T16)",
                              span, "T16")
            area = self.rules.area(target)
            if area == "goal":
                raise Refusal(f"{_a(name)} cannot swap with a piece on the goal (T16)", span, "T16")
            if area == "neutral":
                raise Refusal(f"{_a(name)} cannot swap with a piece in the neutral zone (T16)", span, "T16")
        elif other.owner != piece.owner:
            raise Refusal(f"{_a(name)} swaps only with an allied piece: {self.describe(other)} is "
                          f"{other.owner}'s (RULES 5.4.6)", span, "RULES 5.4.6")
        origin = piece.square
        self.lotus_check(piece, origin, target, span)
        self.lotus_check(other, target, origin, span)
        self.relocate((piece, target), (other, origin))
        if action.moves:
            self.then_move(piece, action)

    def then_move(self, piece: Piece, action: Action) -> None:
        """A "before" ability's move, checked after its effect (T37)."""
        self.move(self.board.get(piece.id), action.moves[0], action.where("move0"))

    def pull(self, piece: Piece, action: Action) -> None:
        """Moon (before its move, T16, T29): pull the first piece on a line one square toward the
        Moon; a piece already next to it cannot be pulled. Then optionally the Moon's move (T37)."""
        span = action.where("target")
        self.unfrozen(piece, action.where("origin"))
        pulled, unit, distance = self.line_target(piece, action.target, span, "pull")
        if distance == 1:
            raise Refusal(f"{self.describe(pulled)} is next to the Moon and cannot be pulled (T29)", span, "T29")
        destination = (action.target[0] - unit[0], action.target[1] - unit[1])
        self.lotus_check(pulled, action.target, destination, span)
        self.relocate((pulled, destination))
        self.entries.append(("pulled", (piece.owner,), {"kind": self.name(pulled), "at": action.target,
                                                       "to": destination}))
        if action.moves:
            self.then_move(piece, action)

    def push(self, piece: Piece, action: Action) -> None:
        """Power (after its optional move, T16): push the first piece on a line one square away;
        the square beyond must be empty and on the board."""
        if action.moves:
            self.move(piece, action.moves[0], action.where("move0"))
            piece = self.board.get(piece.id)
        span = action.where("target")
        self.unfrozen(piece, span)
        pushed, unit, _ = self.line_target(piece, action.target, span, "push")
        beyond = (action.target[0] + unit[0], action.target[1] + unit[1])
        if not self.rules.on_board(beyond):
            raise Refusal(f"{sq(beyond)}, beyond {self.describe(pushed)}, is off the board: nothing is pushed off (T16)",
                          span, "T16")
        if self.board.at(beyond):
            raise Refusal(f"{sq(beyond)}, beyond {self.describe(pushed)}, is not empty: a push never captures (T16)",
                          span, "T16")
        self.lotus_check(pushed, action.target, beyond, span)
        self.relocate((pushed, beyond))
        self.entries.append(("pushed", (piece.owner,), {"kind": self.name(pushed), "at": action.target, "to": beyond}))

    def carry(self, piece: Piece, action: Action) -> None:
        """Wind (after its optional move, T20, T35): an allied piece but the Wind, anywhere, goes to
        an empty square next to the Wind, or onto the goal next to it holding another ally (a stack).
        A carry never captures."""
        if action.moves:
            self.move(piece, action.moves[0], action.where("move0"))
            piece = self.board.get(piece.id)
        span, to_span = action.where("target"), action.where("to")
        self.unfrozen(piece, span)
        start, end = action.target, action.to
        occupants = self.board.at(start)
        if not occupants:
            raise Refusal(f"there is no piece on {sq(start)} to carry", span, "T20")
        carried = occupants[0]
        if carried.owner != piece.owner or carried.id == piece.id:
            whose = "itself" if carried.id == piece.id else f"{self.describe(carried)}, {carried.owner}'s"
            raise Refusal(f"a Wind carries an allied piece other than itself, not {whose} (T20)", span, "T20")
        if end == start:
            raise Refusal(f"{self.describe(carried)} is already on {sq(end)}: a carry moves it (T35)", to_span, "T35")
        if not self.rules.on_board(end):
            raise Refusal(f"{sq(end)} is off the board", to_span, "RULES 5.4.1")
        if chebyshev(end, piece.square) != 1:
            raise Refusal(f"a Wind carries its ally next to itself: {sq(end)} is not next to the Wind on "
                          f"{sq(piece.square)} (T20)", to_span, "T20")
        there = self.board.at(end)
        if there and not (end == self.rules.goal and all(p.owner == piece.owner for p in there)):
            raise Refusal(f"{sq(end)} is not empty: a carry never captures and stacks only on the goal (T20)",
                          to_span, "T20")
        self.lotus_check(carried, start, end, to_span)
        self.relocate((carried, end))
        self.entries.append(("carried", (piece.owner,), {"kind": self.name(carried), "at": start, "to": end}))

    def shoot(self, piece: Piece, action: Action) -> None:
        """Wood (full phase): capture without moving two squares away in a straight line (a D or A
        square), the square between empty; Shields guard (T15)."""
        span, target = action.where("target"), action.target
        self.unfrozen(piece, action.where("origin"))
        dx, dy = target[0] - piece.square[0], target[1] - piece.square[1]
        if not (abs(dx), abs(dy)) in ((2, 0), (0, 2), (2, 2)):
            raise Refusal(f"a Wood captures exactly two squares away in a straight line (orthogonal or diagonal): "
                          f"{sq(target)} is not (RULES 5.4.6)", span, "RULES 5.4.6")
        between = (piece.square[0] + dx // 2, piece.square[1] + dy // 2)
        if self.board.at(between):
            raise Refusal(f"the {self.name(self.board.at(between)[0])} on {sq(between)} blocks the Wood's shot "
                          f"(RULES 5.4.6)", span, "RULES 5.4.6")
        occupants = self.board.at(target)
        if not occupants:
            raise Refusal(f"there is no piece on {sq(target)} to capture", span, "RULES 5.4.6")
        if any(p.owner == piece.owner for p in occupants):
            raise Refusal(f"a Wood captures only enemy pieces: {self.describe(occupants[0])} is yours", span,
                          "RULES 5.4.6")
        for victim in occupants:
            self.capturable(victim, span)
        for victim in occupants:
            self.capture(victim, piece.owner)
        self.check_goal()

    def lead(self, piece: Piece, action: Action, player: str) -> None:
        """Leadership (full phase, T17): gives the action to an allied piece that is not a
        Leadership; neither may be frozen. The delegate acts with its own movement and abilities,
        from anywhere."""
        self.unfrozen(piece, action.where("origin"))
        delegated = action.delegate
        delegate = self.own_piece(delegated, player)
        self.unfrozen(delegate, delegated.where("origin"), "a Leadership's delegate")
        self.perform(delegated, delegate, player)

    # ------------------------------------------------------------------ phase 2 (5.4.3)
    def place(self, part: Place, player: str, territory: Territory | None) -> None:
        """One reserve piece onto an empty square: the home place area on a player turn (a Freedom
        anywhere but the goal and the neutral zone; any piece next to one of the player's Portals);
        the territory only on its turn. A Mirror may add a copy next to it (T18, T33)."""
        kind = self.ruleset.pieces[part.kind]
        reserve = self.reserves[player]
        if part.kind not in reserve:
            held = ", ".join(reserve) or "nothing"
            raise Refusal(f"you have no {kind.name} in your reserve (it holds {held}) (RULES 5.4.3)",
                          part.where("kind"), "RULES 5.4.3")
        self.check_spot(part.square, player, territory, kind.has("place_anywhere"), part.where("square"))
        reserve.remove(part.kind)
        self.add_piece(part.kind, player, part.square)
        self.entries.append(("reserve_placed", (player,), {"kind": kind.name, "at": part.square}))
        if part.copy is not None:
            span = part.where("copy")
            if chebyshev(part.copy, part.square) != 1:
                raise Refusal(f"the Mirror's copy goes on a square next to the Mirror on {sq(part.square)}: "
                              f"{sq(part.copy)} is not (T18)", span, "T18")
            self.check_free(part.copy, span)
            if territory is not None and part.copy not in territory.squares:
                raise Refusal(f"on {territory.name}'s turn the copy too goes in {territory.name} (RULES 5.4.2)",
                              span, "RULES 5.4.2")
            copy = self.add_piece(part.kind, player, part.copy)
            self.copies.add(copy.id)
            self.entries.append(("copied", (player,), {"kind": kind.name, "at": part.copy}))

    def add_piece(self, kind: str, player: str, square: Square) -> Piece:
        piece = Piece(id=self.next_id, kind=kind, owner=player, square=square)
        self.next_id += 1
        self.board.add(piece)
        return piece

    def check_free(self, square: Square, span: Span) -> None:
        """A square a piece may be put on: on the board, not the goal nor the neutral zone, empty."""
        if not self.rules.on_board(square):
            raise Refusal(f"{sq(square)} is off the board", span, "RULES 5.4.1")
        area = self.rules.area(square)
        if area == "goal":
            raise Refusal("pieces are never placed on the goal (RULES 5.4.1)", span, "RULES 5.4.1")
        if area == "neutral":
            raise Refusal(f"{sq(square)} is in the neutral zone, where pieces are never placed (RULES 5.4.1)",
                          span, "RULES 5.4.1")
        if self.board.at(square):
            raise Refusal(f"{sq(square)} is not empty: a piece is placed on an empty square (T7)", span, "T7")

    def check_spot(self, square: Square, player: str, territory: Territory | None, anywhere: bool, span: Span) -> None:
        if not self.rules.on_board(square):
            raise Refusal(f"{sq(square)} is off the board", span, "RULES 5.4.1")
        if territory is not None:
            if square not in territory.squares:
                raise Refusal(f"on {territory.name}'s turn a piece is placed in {territory.name} only (RULES 5.4.2)",
                              span, "RULES 5.4.2")
        elif not (anywhere or square in self.rules.homes[self.colours[player]] or self.portal_next_to(square, player)):
            raise Refusal(f"{sq(square)} is neither in your home place area nor next to one of your Portals "
                          f"(RULES 5.4.3, T1)", span, "RULES 5.4.3")
        self.check_free(square, span)

    def portal_next_to(self, square: Square, player: str) -> bool:
        return any(p.owner == player and self.has(p, "portal") for p in self.pieces_near(square))

    def draft(self, part: Draft, player: str) -> None:
        """1 to 3 pieces from the draft area to the reserve, refused whole when the reserve would
        hold more than 7 (T6)."""
        rules = self.rules
        kinds = list(part.kinds)
        if len(kinds) > rules.draft_max:
            raise Refusal(f"a draft takes 1 to {rules.draft_max} pieces, not {len(kinds)} (RULES 5.4.3)", part.span,
                          "RULES 5.4.3")
        available = Counter(self.draft_area)
        for kind, wanted in sorted(Counter(kinds).items()):
            if available[kind] < wanted:
                name = self.ruleset.pieces[kind].name
                holds = f"only {available[kind]}" if available[kind] else "no"
                raise Refusal(f"the draft area holds {holds} {name} (it holds {', '.join(self.draft_area) or 'nothing'})"
                              f" (RULES 5.4.3)", part.span, "RULES 5.4.3")
        reserve = self.reserves[player]
        if len(reserve) + len(kinds) > rules.reserve_max:
            room = rules.reserve_max - len(reserve)
            advice = f"draft {room} or fewer" if room else "place a piece instead"
            raise Refusal(f"your reserve holds {len(reserve)}: drafting {len(kinds)} would make {len(reserve) + len(kinds)}, "
                          f"more than {rules.reserve_max} (T6); {advice}", part.span, "T6")
        for kind in kinds:
            self.draft_area.remove(kind)
            reserve.append(kind)
        self.entries.append(("drafted", (player,), {"kinds": ", ".join(sorted(kinds))}))

    # ------------------------------------------------------------------ the result
    def territory_state(self, base: TerritoryState) -> TerritoryState:
        return base.with_changes(reserves=self.reserves, draft_area=self.draft_area, copies=self.copies)


def _multiple(dx: int, dy: int, sx: int, sy: int) -> int | None:
    """k > 0 with (dx, dy) == k * (sx, sy), else None."""
    if sx:
        if dx % sx:
            return None
        k = dx // sx
    else:
        if dx or not sy or dy % sy:
            return None
        k = dy // sy
    return k if k > 0 and dy == k * sy else None

