"""Order legality against the position players saw, P0 (RULES.md 3.1, 4, 5.1, 8 and D4-D7, D11, D20-D22).

This module is the one place that decides whether an order may be played. ``moves``, the bot's
instant answer to a player and the update itself all ask it, so what a player is told and what
the update does never disagree.

* :func:`check_order` is the front ends' entry point: text in, an :class:`OrderCheck` out, either
  the canonical order or the refusal (an :class:`~bot.engine.notation.OrderError` whose reason names
  the rule in plain words and whose span points at the offending text).
* :class:`Validator` checks parsed actions and returns :class:`CheckedAction` values that the
  resolution consumes (which piece moves, whether it is a capture attempt, what it costs).
* :func:`legal_destinations` lists the plain moves and captures a piece may make (``moves``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from . import economy
from .abilities import lifted as lift, position_for, rebased
from .board import BoardView
from .model import Piece, Square, format_amount, format_square
from .movement import DEFAULT_WINDOW, Position, Reach, attackers, destinations, reach
from .notation import (ENERGY, Action, AmbiguousOrderError, Generate, IllegalOrderError, Line, Move,
                       OrderError, Resign, Submission, format_action, parse_submission)
from .policies import submission_shape
from .ruleset import PieceKind, Ruleset

__all__ = ["CheckedAction", "CheckedLine", "OrderCheck", "Validator", "check_order", "legal_destinations",
           "square_attacked_by_enemy", "generation_cost"]

OBSTACLES = "Obstacles"


def a_(name: str) -> str:
    """``name`` with its indefinite article: "a rook", "an angel" (a unicorn: the sound decides)."""
    return f"{'an' if name[:1] in 'aeio' else 'a'} {name}"


@dataclass(frozen=True, slots=True)
class CheckedAction:
    """A valid action, resolved against P0.

    ``kind`` is one of move, generate, place (a king), drop (a harpy's cargo), obstacle, resign.
    ``special`` marks the moves of section 8: possess, unpossess, pickup, theft.
    ``capture`` is True for a capture attempt (the target held an enemy in P0; a theft, D27),
    ``victims`` the ids of the enemy pieces it targets, ``cost`` what the order costs at the update.
    """

    action: Action
    kind: str
    player: str
    piece_id: int | None = None
    capture: bool = False
    victims: tuple[int, ...] = ()
    special: str = ""
    cost: Fraction = Fraction(0)

    @property
    def canonical(self) -> str:
        return format_action(self.action)

    @property
    def target(self) -> Square | None:
        if isinstance(self.action, Move):
            return self.action.target
        if isinstance(self.action, Generate):
            return self.action.square
        return None


@dataclass(frozen=True, slots=True)
class CheckedLine:
    action: CheckedAction
    fallback: CheckedAction | None = None

    @property
    def canonical(self) -> str:
        text = self.action.canonical
        return text if self.fallback is None else f"{text} else {self.fallback.canonical}"


@dataclass(frozen=True, slots=True)
class OrderCheck:
    """The answer to a submission: ``ok`` with the ``canonical`` order, or the ``error``."""

    text: str
    lines: tuple[CheckedLine, ...] = ()
    error: OrderError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def canonical(self) -> str:
        return "; ".join(line.canonical for line in self.lines)


def check_order(ruleset: Ruleset, state, player: str, text: str) -> OrderCheck:
    """Check a player's submission against the position they saw; never raises for bad input."""
    try:
        lines = Validator(ruleset, state).check_submission(player, text)
    except OrderError as error:
        return OrderCheck(text, error=error)
    return OrderCheck(text, lines=tuple(lines))


def generation_cost(ruleset: Ruleset, state, kind: PieceKind) -> Fraction:
    """What generating ``kind`` costs this update (Clearance halves it, rounded up: RULES 6)."""
    from .events import EventEffects

    return EventEffects(ruleset, state.events).generation_cost(kind.cost)


def square_attacked_by_enemy(position: Position, square: Square, owner: str, lifted: Piece | None = None) -> list[Piece]:
    """Enemies of ``owner`` attacking ``square``, with ``lifted`` taken off the board first
    (a king cannot hide from a rook behind itself)."""
    if lifted is not None:
        position = lift(position, lifted)
    return attackers(position, square, by=lambda p: position.enemies(p.owner, owner))


def legal_destinations(position: Position, piece: Piece, window: int | None = DEFAULT_WINDOW,
                       state=None) -> list[Square]:
    """Sorted squares validation would accept for a plain move or capture by ``piece``: moves onto
    friends by a spirit or a harpy included, a time thief's thefts when ``state`` says who moved
    last update; no generation, no promotion. Within ``window`` (Chebyshev) on an unbounded board."""
    if position.board.bounds is not None:
        window = None
    validator = Validator(position.ruleset, state, position)
    candidates = set(destinations(position, piece, window))
    kind = position.kind(piece)
    x, y = piece.square

    def near(square: Square) -> bool:
        return window is None or max(abs(square[0] - x), abs(square[1] - y)) <= window

    if kind.has("spirit") or kind.has("harpy"):
        candidates.update(p.square for p in position.board if p.owner == piece.owner and p.id != piece.id
                          and near(p.square))
    if kind.has("time_thief") and state is not None:
        candidates.update(last.origin for last in state.moved_last_update if near(last.origin))
    return sorted(s for s in candidates if validator.move_problem(piece, s) is None)


class Validator:
    """Checks orders for one position (P0). Build once per update or per player request."""

    def __init__(self, ruleset: Ruleset, state, position: Position | None = None) -> None:
        self.ruleset = ruleset
        self.state = state
        self.position = position if position is not None else position_for(ruleset, state)
        self.board = self.position.board
        self.pawn = ruleset.promotion.pawn
        self.royal = ruleset.royal_letter
        self.currency = ruleset.economy.currency
        self.section = ruleset.section or "RULES 4"  # the preset's section of RULES.md, cited by refusals
        self.shape = submission_shape(ruleset)

    # ================================================================= submissions
    def check_submission(self, player: str, text: str) -> list[CheckedLine]:
        submission = parse_submission(text, self.ruleset, self.shape.max_length)
        self.check_player(player, text)
        self.check_line_count(submission, text)
        checked = [self.check_line(player, line, text) for line in submission.lines]
        self.check_together(checked, submission, text)
        return checked

    def check_player(self, player: str, text: str) -> None:
        record = self.state.players.get(player) if self.state is not None else None
        if record is None:
            raise IllegalOrderError("you are not a player of this game: join it first", text, rule="RULES 4")
        if record.status == "eliminated":
            if economy.may_return(self.ruleset, record):   # removed by debts, may re-join (RULES 5.1, P33)
                refusal = economy.rejoin_refusal(self.ruleset, record, self.state.update)
                if refusal is not None:
                    raise IllegalOrderError(refusal, text, rule="P33")
                return   # a newcomer again: no pieces, no lost king, so only a king placement is valid
            raise IllegalOrderError("you were eliminated and may not re-join this session (D30)", text, rule="D30")
        if record.status == "resigned":
            raise IllegalOrderError("you resigned and may not re-join this session (RULES 4)", text, rule="RULES 4")

    def check_line_count(self, submission: Submission, text: str) -> None:
        problem = self.shape.line_count_problem(len(submission.lines), self.ruleset.name)
        if problem is not None:
            raise IllegalOrderError(
                problem, text, submission.lines[1].span,
                "send a single line; your latest valid order replaces the earlier one (D6)", rule="D7")

    def check_together(self, checked: list[CheckedLine], submission: Submission, text: str) -> None:
        """D7: the lines of one submission are validated together."""
        if len(checked) < 2:
            return
        seen_pieces: dict[int, int] = {}
        seen_targets: dict[Square, int] = {}
        for i, line in enumerate(checked):
            action = line.action
            if action.piece_id is not None:
                if action.piece_id in seen_pieces:
                    raise IllegalOrderError("each piece moves at most once per update (D7)", text,
                                            submission.lines[i].span, rule="D7")
                seen_pieces[action.piece_id] = i
            if self.shape.distinct_targets and action.target is not None:
                if action.target in seen_targets:
                    raise IllegalOrderError(f"two of your moves go to {format_square(action.target)} (RULES 5.2)",
                                            text, submission.lines[i].span, rule="RULES 5.2")
                seen_targets[action.target] = i

    def check_line(self, player: str, line: Line, text: str) -> CheckedLine:
        first = self.check_action(player, line.action, text, line.action_span)
        if line.fallback is None:
            return CheckedLine(first)
        if not self.ruleset.orders.fallbacks:
            raise IllegalOrderError(f"{self.ruleset.name} has no conditional orders: `else` is not allowed", text,
                                    line.fallback_span, "send the first action alone", rule="D11")
        moves_capturable = (first.kind == "move" and first.piece_id is not None and first.piece_id in self.board
                            and self.board.get(first.piece_id).check == "capturable")  # a drop moves no harpy
        if not first.capture and not moves_capturable:
            raise IllegalOrderError(
                "a fallback is allowed only behind a capture attempt or a move of a capturable piece (D11)",
                text, line.action_span,
                "drop the `else` part, or make the first action a capture of an enemy piece", rule="D11")
        second = self.check_action(player, line.fallback, text, line.fallback_span, fallback=True)
        return CheckedLine(first, second)

    # ================================================================= actions
    def check_action(self, player: str, action: Action, text: str, span: tuple[int, int],
                     fallback: bool = False) -> CheckedAction:
        try:
            return self._check_action(player, action)
        except OrderError as error:
            where = "the fallback: " if fallback else ""
            raise type(error)(where + error.reason, text, span, error.hint, error.rule,
                              **({"candidates": error.candidates} if isinstance(error, AmbiguousOrderError) else {})
                              ) from None

    def _check_action(self, player: str, action: Action) -> CheckedAction:
        joined = self.joined(player)
        if isinstance(action, Resign):
            if not self.ruleset.orders.resign:
                raise IllegalOrderError(f"{self.ruleset.name} has no resignation", rule="RULES 2")
            if not joined:
                raise IllegalOrderError("you have not joined yet, so there is nothing to resign from", rule="RULES 4")
            return CheckedAction(action, "resign", player)
        has_king = self.royal is not None and self.board.owns_kind(player, self.royal)
        if isinstance(action, Generate):
            if action.letter == self.royal:
                return self.check_placement(player, action.square, has_king)
            if not joined:
                raise self.not_joined()
            return self.check_generate(player, action)
        if action.letter == self.royal and not has_king and action.origin is None and action.promote is None:
            return self.check_placement(player, action.target, has_king)  # D20
        if not joined:
            raise self.not_joined()
        return self.check_move(player, action)

    def not_joined(self) -> IllegalOrderError:
        return IllegalOrderError("you have not joined yet: your first order places your king",
                                 hint="write K(x,y) on an empty square that no enemy attacks", rule="RULES 4")

    def joined(self, player: str) -> bool:
        record = self.state.players.get(player)
        return self.board.owns(player) or (record is not None and record.king_lost_at is not None)

    def own_pieces(self, player: str) -> list[Piece]:
        """The player's pieces in P0 (the board indexes pieces by owner)."""
        return self.board.owned_by(player)

    def name(self, piece_or_letter) -> str:
        letter = piece_or_letter if isinstance(piece_or_letter, str) else piece_or_letter.kind
        return self.ruleset.pieces[letter].name.lower()

    def amount(self, value: Fraction) -> str:
        return f"{format_amount(value)} {self.currency}"

    # ================================================================= moves
    def check_move(self, player: str, move: Move) -> CheckedAction:
        kind = self.ruleset.pieces[move.letter]
        name = kind.name.lower()
        if move.origin is not None:
            pieces = self.board.at(move.origin)
            mine = [p for p in pieces if p.owner == player and self.plays_as(p, move.letter)]
            if not mine:
                own = [p for p in pieces if p.owner == player]
                if own:
                    raise IllegalOrderError(f"your piece on {format_square(move.origin)} is {a_(self.name(own[0]))}, "
                                            f"not {a_(name)}", hint=f"write {own[0].kind}{format_square(move.origin)}-...",
                                            rule="RULES 3.1")
                others = [p for p in pieces if p.owner is not None]
                if others:
                    raise IllegalOrderError(f"the {self.name(others[0])} on {format_square(move.origin)} belongs to "
                                            f"{others[0].owner}: you can only move your own pieces", rule="RULES 3.1")
                raise IllegalOrderError(f"there is no piece of yours on {format_square(move.origin)}", rule="RULES 3.1")
            candidates = mine[:1]
        else:
            candidates = sorted((p for p in self.own_pieces(player) if self.plays_as(p, move.letter)),
                                key=lambda p: p.square)
            if not candidates:
                raise IllegalOrderError(f"you have no {name} on the board", rule="RULES 3.1",
                                        hint=f"generate one with +{move.letter}(x,y)" if self.ruleset.orders.generation
                                        and not kind.royal else "")
        results = [(p, self.move_problem(p, move.target, move.letter, move.promote)) for p in candidates]
        playable = [p for p, problem in results if problem is None]
        if len(playable) == 1:
            return self.checked_move(player, playable[0], move)
        if len(playable) > 1:  # D5, D22: only pieces that can really make the move count
            squares = ", ".join(format_square(p.square) for p in playable)
            raise AmbiguousOrderError(
                f"{len(playable)} of your {name}s can go to {format_square(move.target)}: from {squares} (D5)",
                hint=f"say which one: {move.letter}{format_square(playable[0].square)}-{format_square(move.target)}",
                candidates=tuple(p.square for p in playable))
        if len(results) == 1:
            raise IllegalOrderError(results[0][1], rule="RULES 3.1")
        reasons = "; ".join(f"from {format_square(p.square)}: {problem}" for p, problem in results)
        raise IllegalOrderError(f"none of your {name}s can go to {format_square(move.target)} (D5): {reasons}",
                                rule="D5")

    def plays_as(self, piece: Piece, letter: str) -> bool:
        """Whether ``letter`` names this piece: its kind, or the spirit riding in a host."""
        return piece.kind == letter or (piece.spirit and self.ruleset.pieces[letter].has("spirit"))

    def move_problem(self, piece: Piece, target: Square, letter: str | None = None,
                     promote: str | None = None) -> str | None:
        """None when ``piece`` (played as ``letter``) may move to ``target``; else why not."""
        letter = letter or piece.kind
        if not self.position.in_bounds(target):
            return f"{format_square(target)} is outside the board{self.bounds_text()} ({self.section})"
        mover = self.mover(piece, letter)
        special = self.special_move(mover, target)
        if special is not None and mover is not piece and special[0] == "possess" and special[1] is None:
            return (f"a spirit leaving its host lands on an empty square: it cannot possess the "
                    f"{self.name(self.board.at(target)[0])} on {format_square(target)} in the same move "
                    f"(RULES 8, P44)")
        if special is not None:
            return special[1]
        answer = reach(self.position, mover, target)
        if not answer.ok:
            return answer.reason
        problem = self.capture_problem(mover, target) if answer.capture else None
        if problem is None and self.position.ruleset.resolution.king_check_rules and self.ruleset.pieces[letter].royal:
            by = square_attacked_by_enemy(self.position, target, piece.owner, piece)
            if by:
                problem = (f"a king may not move onto {format_square(target)}: it is attacked by {by[0].owner}'s "
                           f"{self.name(by[0])} on {format_square(by[0].square)} (RULES 5.2, D42)")
        if problem is None and promote is not None:
            problem = self.promotion_problem(mover, target, promote)
        return problem

    def mover(self, piece: Piece, letter: str) -> Piece:
        """The piece as it moves: a spirit leaving its host moves as a spirit from the host's square."""
        if piece.kind != letter and piece.spirit:
            return replace(piece, kind=letter, spirit=False, moved=True)
        return piece

    def special_move(self, mover: Piece, target: Square) -> tuple[str, str | None] | None:
        """Moves of section 8 that 3.1 would refuse: a spirit or a harpy onto a friend, a theft.
        Returns (special, problem) or None when the move is an ordinary one."""
        kind = self.ruleset.pieces[mover.kind]
        occupants = self.board.at(target)
        friends = [p for p in occupants if p.owner is not None and not self.position.enemies(p.owner, mover.owner)
                   and p.id != mover.id]
        if friends and (kind.has("spirit") or kind.has("harpy")):
            host = friends[0]
            geometry = self.reach_ignoring_target(mover, target)
            if not geometry.ok:
                return ("blocked", geometry.reason)
            host_kind = self.ruleset.pieces[host.kind]
            if host_kind.has("pillar"):
                return ("possess" if kind.has("spirit") else "pickup",
                        "a pillar never moves, so it can be neither possessed nor carried (RULES 7, P28)")
            if kind.has("spirit"):
                if len(occupants) > 1:
                    return ("possess", "a spirit possesses a piece alone on its square (RULES 8, P9)")
                if host.kind == self.pawn or host_kind.has("spirit") or host.spirit:
                    what = "a pawn" if host.kind == self.pawn else "a piece that already holds a spirit"
                    return ("possess", f"a spirit cannot possess {what} (RULES 8)")
                return ("possess", None)
            if len(occupants) > 1:
                return ("pickup", "a harpy picks up a piece alone on its square (RULES 8, P10)")
            if host_kind.royal:
                return ("pickup", "a harpy cannot carry a king (RULES 8)")
            if mover.carrying is not None:
                return ("pickup", f"the harpy already carries {a_(self.name(mover.carrying))}: drop it first (RULES 8)")
            return ("pickup", None)
        if kind.has("time_thief") and self.state is not None:
            victims = self.theft_victims(mover, target)
            if victims:
                if occupants:
                    return ("theft", f"the time thief lands on {format_square(target)}, which must be empty (D27)")
                if mover.disabled:
                    return ("theft", f"the {kind.name.lower()} was generated last update and is disabled: it may move "
                                     f"but not steal, a theft being a capture attempt (RULES 3.1, D27)")
                geometry = reach(self.position, mover, target)
                if not geometry.ok:
                    return ("theft", geometry.reason)
                victim_square = victims[0].square
                return ("theft", self.capture_problem(mover, victim_square, victims))
        return None

    def reach_ignoring_target(self, mover: Piece, target: Square) -> Reach:
        """The geometry of a move onto friends (possession, pickup): the target seen as empty.
        A view of the board, not a copy: copying a 50,000-piece board took half a second."""
        return reach(rebased(self.position, BoardView(self.board, lifted_square=target)), mover, target)

    def theft_victims(self, thief: Piece, origin: Square) -> list[Piece]:
        """Enemy pieces that came from ``origin`` last update (the time thief's prey, RULES 8)."""
        found = []
        for last in self.state.moved_last_update:
            if last.origin == origin:
                found.extend(p for p in self.board.at(last.target) if self.position.enemies(p.owner, thief.owner)
                             and p.owner is not None)
        return found

    def capture_problem(self, mover: Piece, target: Square, victims: list[Piece] | None = None) -> str | None:
        """Rules that forbid a capture attempt on ``target`` (angel D25, dwarf D26)."""
        if victims is None:
            victims = [p for p in self.board.at(target) if self.position.enemies(p.owner, mover.owner)]
        for victim in victims:
            if self.position.protected(victim):
                return (f"the {self.name(victim)} on {format_square(victim.square)} is protected by an angel next to "
                        f"it: it cannot be the target of a capture (RULES 8, D25)")
            if self.ruleset.pieces[victim.kind].has("dwarf") and not victim.disabled:  # RULES 8: disabled, no effect
                count = self.dwarf_attackers(victim)
                if count < 2:
                    return (f"a dwarf can be captured only when at least two enemy pieces attack it; the dwarf on "
                            f"{format_square(victim.square)} is attacked by {count} (RULES 8, D26)")
        return None

    def dwarf_attackers(self, dwarf: Piece) -> int:
        """D26: attackers of every player but the owner, less any whose line runs through another."""
        found = attackers(self.position, dwarf.square, by=lambda p: p.owner is not None and p.owner != dwarf.owner)
        squares = {p.square for p in found}
        counted = 0
        for piece in found:
            dx, dy = dwarf.square[0] - piece.square[0], dwarf.square[1] - piece.square[1]
            steps = max(abs(dx), abs(dy))
            behind = False
            if steps > 1 and (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
                ux, uy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
                behind = any((piece.square[0] + j * ux, piece.square[1] + j * uy) in squares for j in range(1, steps))
            counted += not behind
        return counted

    def promotion_problem(self, pawn: Piece, target: Square, promote: str) -> str | None:
        rules = self.ruleset.promotion
        if pawn.kind != self.pawn:
            return f"only a pawn can promote; this is {a_(self.name(pawn))}"
        if promote == ENERGY:
            tier = self.promotion_tier(pawn, target)
            if not rules.energy:
                return f"{self.ruleset.name} has no energy promotion ({self.section})"
            if tier is None:
                return self.promotion_ranks_text()
            return None
        tier = self.promotion_tier(pawn, target)
        if tier is None:
            return self.promotion_ranks_text()
        kind = self.ruleset.pieces[promote]
        if promote in tier.exclude or kind.has("obstacle") or kind.has("void"):
            allowed_elsewhere = [t.rank for t in rules.tiers if promote not in t.exclude and t is not tier]
            extra = f"; at rank {allowed_elsewhere[0]} it can" if allowed_elsewhere and not kind.royal else ""
            return f"a pawn reaching rank {tier.rank} cannot promote to {a_(kind.name.lower())}{extra} ({self.section})"
        price = self.promotion_price(tier, kind)
        balance = self.state.players[pawn.owner].balance if self.state is not None else None
        if balance is not None and price > balance:
            return (f"promoting to {a_(kind.name.lower())} costs {self.amount(price)}; you have "
                    f"{self.amount(balance)} ({self.section})")
        return None

    def promotion_tier(self, pawn: Piece, target: Square):
        for tier in self.ruleset.promotion.tiers:
            if tier.or_above and target[1] >= tier.rank:
                return tier
            if not tier.or_above and target[1] == tier.rank and pawn.square[1] < tier.rank:
                return tier
        return None

    def promotion_ranks_text(self) -> str:
        tiers = self.ruleset.promotion.tiers
        if not tiers:
            return f"pawns do not promote in {self.ruleset.name}"
        if len(tiers) == 1 and tiers[0].or_above:
            return f"pawns promote only on a move ending on rank {tiers[0].rank} or above ({self.section})"
        ranks = " or ".join(str(t.rank) for t in tiers)
        return f"pawns promote only on the move that reaches rank {ranks} ({self.section})"

    @staticmethod
    def promotion_price(tier, kind: PieceKind) -> Fraction:
        price = tier.prices.get(kind.letter)
        if price is None:
            return Fraction(0)
        if price == "half":
            return kind.cost / 2
        return Fraction(price)

    def checked_move(self, player: str, piece: Piece, move: Move) -> CheckedAction:
        mover = self.mover(piece, move.letter)
        special = self.special_move(mover, move.target)
        canonical = Move(move.letter, move.target, piece.square, move.promote)
        cost = Fraction(0)
        if move.promote and move.promote != ENERGY:
            cost = self.promotion_price(self.promotion_tier(mover, move.target), self.ruleset.pieces[move.promote])
        if special is not None:
            kind = special[0]
            if kind == "theft":
                victims = tuple(p.id for p in self.theft_victims(mover, move.target))
                return CheckedAction(canonical, "move", player, piece.id, True, victims, "theft", cost)
            return CheckedAction(canonical, "move", player, piece.id, False, (), kind, cost)
        victims = tuple(p.id for p in self.board.at(move.target) if self.position.enemies(p.owner, player))
        special_name = "unpossess" if mover is not piece else ""
        return CheckedAction(canonical, "move", player, piece.id, bool(victims), victims, special_name, cost)

    # ================================================================= generation and placement
    def check_generate(self, player: str, action: Generate) -> CheckedAction:
        kind = self.ruleset.pieces[action.letter]
        square = action.square
        carrier = self.carrier(player, action.letter)
        if carrier is not None:
            self.check_free_square(square, "a carried piece is dropped on an empty square (RULES 8)")
            return CheckedAction(action, "drop", player, carrier.id)
        if kind.has("void"):
            raise IllegalOrderError("voids cannot be placed by players (RULES 6)", rule="RULES 6")
        if kind.has("obstacle"):
            if not any(e.name == OBSTACLES for e in self.state.events):
                raise IllegalOrderError("obstacles can be placed only while the Obstacles event is active (RULES 6)",
                                        rule="RULES 6")
            self.check_free_square(square, "an obstacle is placed on an empty square (RULES 6)")
            return CheckedAction(action, "obstacle", player)
        if not self.ruleset.orders.generation or not self.ruleset.generation.allowed:
            raise IllegalOrderError(f"{self.ruleset.name} has no generation of pieces", rule="RULES 2")
        self.check_free_square(square, f"pieces are generated only on empty squares ({self.section})")
        low = self.ruleset.generation.min_rank.get(action.letter)
        high = self.ruleset.generation.max_rank.get(action.letter)
        y = square[1]
        if (low is not None and y < low) or (high is not None and y > high):
            raise IllegalOrderError(f"{kind.name.lower()}s may only be generated {self.rank_text(low, high)}, "
                                    f"not on rank {y} ({self.section})", rule=self.section)
        cost = generation_cost(self.ruleset, self.state, kind)
        balance = self.state.players[player].balance
        if cost > balance:
            raise IllegalOrderError(f"{a_(kind.name.lower())} costs {self.amount(cost)}; you have {self.amount(balance)} "
                                    f"({self.section})", rule=self.section)
        return CheckedAction(action, "generate", player, cost=cost)

    @staticmethod
    def rank_text(low: int | None, high: int | None) -> str:
        if low is not None and high is not None:
            return f"on rank {low}" if low == high else f"on ranks {low} to {high}"
        if high is not None:
            return f"below rank {high + 1}"
        return f"above rank {low - 1}"

    def carrier(self, player: str, letter: str) -> Piece | None:
        """A harpy of the player carrying ``letter``: ``+X(x,y)`` is then its drop (RULES 8); the
        one on the lowest square when several do, found without sorting the player's army."""
        return min((p for p in self.own_pieces(player) if p.carrying == letter), key=lambda p: p.square,
                   default=None)

    def check_free_square(self, square: Square, rule: str) -> None:
        if not self.position.in_bounds(square):
            raise IllegalOrderError(f"{format_square(square)} is outside the board{self.bounds_text()} "
                                    f"({self.section})", rule=self.section)
        if self.board.occupied(square):
            what = self.name(self.board.at(square)[0])
            raise IllegalOrderError(f"{format_square(square)} holds {a_(what)} in the position you saw: {rule}",
                                    rule=self.section)

    def bounds_text(self) -> str:
        if self.board.bounds is None:
            return ""
        (x0, y0), (x1, y1) = self.board.bounds
        return f" (x from {x0} to {x1}, y from {y0} to {y1})"

    def check_placement(self, player: str, square: Square, has_king: bool) -> CheckedAction:
        """Joining or respawning by order (RULES 4, D20)."""
        action = Generate(self.royal, square)
        if has_king:
            king = next(p for p in self.own_pieces(player) if p.kind == self.royal)
            raise IllegalOrderError("you already have a king on the board: +K places a king only when you have none "
                                    "(D20)", hint=f"to move it, write {self.royal}{format_square(king.square)}-"
                                    f"{format_square(square)}", rule="D20")
        self.check_free_square(square, "a king is placed on an empty square (RULES 4)")
        enemies = square_attacked_by_enemy(self.position, square, player)
        if enemies:
            by = enemies[0]
            raise IllegalOrderError(f"{format_square(square)} is attacked by the {self.name(by)} on "
                                    f"{format_square(by.square)}: a king is placed only on a square no enemy attacks "
                                    f"(RULES 4)", rule="RULES 4")
        return CheckedAction(action, "place", player)
