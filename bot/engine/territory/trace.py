"""What a territory turn did, square by square, read back from its report (RULES.md 5.4.2, issue 24).

The board picture after a turn draws the last action: an arrow for every move (each Fire leg, a
Shadow's jump, the own move of a Leaf, Moon, Power or Wind), swap, pull, push and carry, a Wood's
shot, the Leadership's hand-over to its delegate, the captures, the placed pieces and the draft.
A turn's report holds the canonical echo of the submission (its ``order`` entry: both squares of
every part) and the entries of what happened (``capture``, ``pulled``, ``reserve_placed``, ...):
:func:`last_action` reads them back into a :class:`LastAction`, with no position needed, so the
service can draw it from a stored report.

When the submission won (T9: a ``goal_won`` entry), what follows the winning relocation was not
carried out (T34): the relocations stop at the first one that puts a piece on the goal, and the
placement is taken only from the ``reserve_placed`` and ``copied`` entries, which exist only when
it was carried out.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Square
from ..notation import OrderError
from ..report import Report
from ..ruleset import Ruleset
from .notation import Action, parse_turn

__all__ = ["Relocation", "LastAction", "last_action", "action_steps", "OUTCOMES"]

#: What a turn's report may say happened, as :attr:`LastAction.outcome` names it.
OUTCOMES = ("played", "passed", "missed", "skipped", "resigned", "refused", "none")


@dataclass(frozen=True, slots=True)
class Relocation:
    """One step of an action, in the order it was carried out.

    ``form``: ``move`` (a move, one Fire leg, a Shadow's jump, a Leaf's, Moon's, Power's or Wind's
    own move), ``swap`` (both pieces trade squares: ``origin`` and ``target``), ``pull``, ``push``,
    ``carry`` (the piece acted on goes from ``origin`` to ``target``), ``shot`` (a Wood captures on
    ``target`` without moving) or ``lead`` (a Leadership on ``origin`` gives the action to the piece
    on ``target``; nothing moves). ``kind`` is the letter of the acting piece (the Moon's, not the
    pulled piece's); ``captured``: an enemy was captured on ``target``."""

    form: str
    kind: str
    origin: Square
    target: Square
    captured: bool = False


@dataclass(frozen=True, slots=True)
class LastAction:
    """A territory turn as the board picture shows it.

    ``turn`` is T and ``slot`` its place in the cycle (Red, Blue or a territory); ``player`` who
    acted (or missed, or resigned); ``outcome`` one of :data:`OUTCOMES` (``refused``: only refused
    submissions, the turn is still open, T22; ``none``: an empty report); ``text`` the canonical
    submission as played; ``steps`` the relocations carried out; ``captures`` the squares where a
    piece was captured; ``placed`` the (kind letter, square) of each piece put on the board (a
    Mirror's copy too); ``drafted`` the kinds taken from the draft area; ``winner`` who won during
    the turn (the goal, or the opponent's resignation), None otherwise; ``refilled`` the kinds drawn
    from the bag into the draft area at the end of the turn, in the order drawn."""

    turn: int
    slot: str
    player: str | None
    outcome: str
    text: str = ""
    steps: tuple[Relocation, ...] = ()
    captures: tuple[Square, ...] = ()
    placed: tuple[tuple[str, Square], ...] = ()
    drafted: tuple[str, ...] = ()
    winner: str | None = None
    refilled: tuple[str, ...] = ()


def _square(value) -> Square:
    return int(value[0]), int(value[1])


def _unit(a: Square, b: Square) -> tuple[int, int]:
    """The unit step from ``a`` toward ``b`` along one of the 8 lines."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    return (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)


def action_steps(action: Action) -> list[Relocation]:
    """The relocations of an action whose origins are written (a canonical echo), in the order
    they are carried out: a "before" ability then the piece's move (Leaf, Moon), the move then an
    "after" ability (Power, Wind), a Leadership's hand-over then its delegate's action. Pulls and
    pushes go one square along their line (T16)."""
    origin = action.origin
    if origin is None:
        return []
    kind, form, moves = action.kind, action.form, action.moves
    steps: list[Relocation] = []

    def own_moves(start: Square) -> None:
        here = start
        for square in moves:
            steps.append(Relocation("move", kind, here, square))
            here = square

    if form == "move":
        own_moves(origin)
    elif form == "swap":
        steps.append(Relocation("swap", kind, origin, action.target))
        own_moves(action.target)            # a Leaf moves from its square after the swap (T37)
    elif form == "pull":
        target = action.target
        step = _unit(target, origin)
        steps.append(Relocation("pull", kind, target, (target[0] + step[0], target[1] + step[1])))
        own_moves(origin)
    elif form == "push":
        own_moves(origin)
        power = moves[-1] if moves else origin
        target = action.target
        step = _unit(power, target)
        steps.append(Relocation("push", kind, target, (target[0] + step[0], target[1] + step[1])))
    elif form == "carry":
        own_moves(origin)
        steps.append(Relocation("carry", kind, action.target, action.to))
    elif form == "shot":
        steps.append(Relocation("shot", kind, origin, action.target, captured=True))
    elif form == "lead" and action.delegate is not None and action.delegate.origin is not None:
        steps.append(Relocation("lead", kind, origin, action.delegate.origin))
        steps += action_steps(action.delegate)
    return steps


def last_action(ruleset: Ruleset, report: Report) -> LastAction:
    """The turn ``report.update`` as its report tells it (see the module's docstring)."""
    turn = report.update
    cycle = ruleset.family_rules.cycle
    slot = cycle[(turn - 1) % len(cycle)]
    entries = report.entries
    types = [entry.type for entry in entries]
    winner = None
    for entry in entries:
        if entry.type == "goal_won":
            winner = entry.players[0]
        elif entry.type == "conceded":
            winner = entry.data.get("winner") or None
    played = next((e for e in entries if e.type == "order" and e.data.get("outcome") == "played"), None)
    refilled = tuple(kind for e in entries if e.type == "refilled" for kind in _kinds(e.data.get("kinds", "")))

    if played is not None and played.data.get("order") == "resign":
        return LastAction(turn, slot, played.players[0], "resigned", "resign", winner=winner)
    if "skipped" in types:
        return LastAction(turn, slot, None, "skipped")
    if "missed" in types:
        missed = entries[types.index("missed")]
        return LastAction(turn, slot, missed.players[0], "missed", refilled=refilled)
    if played is None:
        refused = next((e for e in entries if e.type == "refused"), None)
        if refused is not None:
            return LastAction(turn, slot, None, "refused")
        return LastAction(turn, slot, None, "none")
    player, text = played.players[0], str(played.data.get("order", ""))
    if "passed" in types:
        return LastAction(turn, slot, player, "passed", text, refilled=refilled)

    captures = tuple(_square(e.data["at"]) for e in entries if e.type == "capture" and "at" in e.data)
    placed = []
    for entry in entries:
        if entry.type in ("reserve_placed", "copied"):
            placed.append((_letter(ruleset, str(entry.data.get("kind", ""))), _square(entry.data["at"])))
    drafted: tuple[str, ...] = ()
    for entry in entries:
        if entry.type == "drafted":
            drafted = _kinds(entry.data.get("kinds", ""))

    steps: list[Relocation] = []
    try:
        submission = parse_turn(text, ruleset)
    except OrderError:        # a stored report of another version: draw what the entries say
        submission = None
    if submission is not None and submission.action is not None:
        steps = action_steps(submission.action)
    if winner is not None and "goal_won" in types:
        goal = _square(entries[types.index("goal_won")].data["at"])
        for index, step in enumerate(steps):
            ends = (step.origin, step.target) if step.form == "swap" else (step.target,)
            if step.form != "lead" and goal in ends:
                steps = steps[:index + 1]
                break
    captured = set(captures)
    steps = [Relocation(s.form, s.kind, s.origin, s.target, s.captured or (s.form == "move" and s.target in captured))
             for s in steps]
    return LastAction(turn, slot, player, "played", text, tuple(steps), captures, tuple(placed), drafted, winner,
                      refilled)


def _kinds(text) -> tuple[str, ...]:
    """``"Bal, Fire"`` (a report's list of kinds) as a tuple."""
    return tuple(kind.strip() for kind in str(text).split(",") if kind.strip())


def _letter(ruleset: Ruleset, name: str) -> str:
    """A kind's letter from its full name as the report writes it (``Mirror`` -> ``Mir``)."""
    for letter, kind in ruleset.pieces.items():
        if kind.name == name or letter == name:
            return letter
    return name
