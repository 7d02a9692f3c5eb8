"""Events (RULES.md section 6): named pool entries that change the rules for a while.

Timing: an event drawn at step 8 of update N is in force for updates N+1 to N+14 and ends at step 8
of update N+14; its one-off start effects happen at step 8 of update N. Where two events set the
same quantity, the one started later wins.

:class:`EventEffects` answers the questions other rules ask ("what does a capture pay now?"), so
each event's effect is written here once. :func:`step_events` is D16's step 8: per-update effects
of the events in force, then ends, then the schedule's draw and the start effects.

Choices RULES.md leaves open are in docs/rules/decisions.md (P19-P23).
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from math import ceil
from typing import TYPE_CHECKING, Iterable

from .betza import parse_betza
from .model import Piece, Square, format_square
from .ruleset import Ruleset
from .state import ActiveEvent
from .vocabulary import EVENTS

if TYPE_CHECKING:  # pragma: no cover
    from .update import Update

__all__ = ["EventEffects", "EVENTS", "describe_event", "step_events", "scheduled", "king_of_the_hill_square"]

def describe_event(ruleset: Ruleset, name: str) -> str:
    """The sentence announcing an event in this ruleset's words: its currency (health, energy),
    and the energy pawn only where the ruleset has one."""
    promotion = ruleset.promotion
    energy_pawn = f"; an energy pawn pays {promotion.energy_worth}" if promotion.energy else ""
    return EVENTS.get(name, "").format(currency=ruleset.economy.currency, energy_pawn=energy_pawn)


_CAMEL = parse_betza("C").rays
#: Events that change who attacks what all over the board (transparency, extra leaps). The others
#: change the economy, or add and remove pieces, which step 10 sees as changed squares.
ATTACK_EVENTS = frozenset({"Witch Trials", "Knights in Shining Armor"})
_REGEN_EVENTS = ("Harvest", "Famine")


class EventEffects:
    """The rule changes of the events in force for one update."""

    def __init__(self, ruleset: Ruleset, active: Iterable[ActiveEvent]) -> None:
        self.ruleset = ruleset
        self.active = sorted(active, key=lambda e: (e.started, e.name))   # later-started last: it wins
        self.names = {e.name for e in self.active}

    def has(self, name: str) -> bool:
        return name in self.names

    def capture_fraction(self, base: Fraction) -> Fraction:
        return Fraction(1) if self.has("Bounty") else base

    def energy_capture_reward(self, base: Fraction) -> Fraction:
        return self.ruleset.promotion.energy_worth if self.has("Bounty") else base

    def king_share(self, base: Fraction) -> Fraction:
        return base * 2 if self.has("Sudden Death") else base

    def regeneration(self, base: Fraction) -> Fraction:
        amount = base
        for event in self.active:
            if event.name == "Harvest":
                amount = base + 1
            elif event.name == "Famine":
                amount = Fraction(0)
        return amount

    def generation_cost(self, cost: Fraction) -> Fraction:
        return Fraction(ceil(cost / 2)) if self.has("Clearance") else cost

    def extra_rays(self) -> dict:
        """Knights in Shining Armor: kinds that move like a knight also leap like a camel (1,3)."""
        if not self.has("Knights in Shining Armor"):
            return {}
        knights = {k.letter for k in self.ruleset.pieces.values()
                   if any(r.range == 1 and sorted(map(abs, r.step)) == [1, 2] and r.move for r in k.movement.rays)}
        return {letter: _CAMEL for letter in knights}

    def variety_locked(self, piece: Piece, moved_to: frozenset[Square]) -> bool:
        return self.has("Variety") and piece.square in moved_to


def scheduled(ruleset: Ruleset, update: int, length: int | None) -> bool:
    """Whether the schedule draws an event at step 8 of ``update``."""
    rules = ruleset.events
    if rules.events_from is None or not rules.pool or update < rules.events_from or (update - rules.events_from) % rules.every:
        return False
    return length is None or length - update + 1 >= rules.min_left


def step_events(update: "Update") -> None:
    """D16 step 8: effects of the events in force, then events end, then a new one may start."""
    ruleset = update.ruleset
    rules = ruleset.events
    active, past, marked = update.p0.events, update.p0.past_events, update.p0.marked
    number = update.number
    in_force = [e for e in active if e.started < number <= e.started + rules.duration]
    names = {e.name for e in in_force}
    if "King of the Hill" in names:
        for square in marked:
            for owner in sorted({p.owner for p in update.board.at(square) if p.owner}):
                if update.players[owner].status == "active":
                    update.ledger.credit(owner, Fraction(1), f"King of the Hill on {format_square(square)}")
    if "World Destruction" in names:
        _sprinkle(update, "V", tries=1, distance=3)
    ending = [e for e in active if number >= e.started + rules.duration]
    for event in sorted(ending, key=lambda e: (e.started, e.name)):
        _end(update, event)
        if event.name == "King of the Hill":
            marked = ()
    active = tuple(e for e in active if e not in ending)
    if "Obstacles" not in {e.name for e in active} and "Obstacles" in past:
        thicket = {e.started for e in active if e.name == "Obstacle Thicket"}  # P21: its obstacles wait for its end
        obstacles = sorted((p for p in update.board.owned_by(None) if ruleset.pieces[p.kind].has("obstacle")
                            and p.placed not in thicket), key=lambda p: p.canonical_key)
        gone = [p for p in obstacles if update.rng.random() < 0.25]
        for piece in gone:
            update.remove(piece.id)
        if gone:
            update.report.add("obstacles_removed", [], count=len(gone))
    if scheduled(ruleset, number, update.p0.length):
        if rules.cooldown is None:
            blocked = set(past)
        else:
            blocked = set(past[-rules.cooldown:]) if rules.cooldown else set()
        blocked |= {e.name for e in active}
        candidates = sorted(name for name in rules.pool if name not in blocked)
        if candidates and (rules.max_active is None or len(active) < rules.max_active):
            name = update.rng.choice(candidates)
            event = ActiveEvent(name, number)
            active = active + (event,)
            past = past + (name,)
            marked = _start(update, event, marked)
            update.report.add("event_start", [], name=name, effect=describe_event(ruleset, name),
                              until=number + rules.duration)
    started_or_ended = {e.name for e in set(active) ^ set(update.p0.events)}
    if started_or_ended & ATTACK_EVENTS:
        update.events_changed = True  # attacks change everywhere: step 10 recomputes every piece
    update.events_state = (tuple(active), tuple(past), tuple(marked))


def _start(update: "Update", event: ActiveEvent, marked) -> tuple:
    if event.name == "Obstacle Thicket":
        _sprinkle(update, "O", tries=3, distance=4)
    elif event.name == "King of the Hill":
        square = king_of_the_hill_square(update)
        if square is not None:
            marked = tuple(marked) + (square,)
    return tuple(marked)


def _end(update: "Update", event: ActiveEvent) -> None:
    ruleset = update.ruleset
    if event.name == "Obstacle Thicket":
        for piece in [p for p in update.board.owned_by(None) if ruleset.pieces[p.kind].has("obstacle")
                      and p.placed == event.started]:
            update.remove(piece.id)
    elif event.name == "World Destruction":
        for piece in [p for p in update.board.owned_by(None) if ruleset.pieces[p.kind].has("void")]:
            update.remove(piece.id)
    update.report.add("event_end", [], name=event.name)


def _neutral_letter(ruleset: Ruleset, ability: str) -> str | None:
    return next((k.letter for k in ruleset.pieces.values() if k.has(ability)), None)


def _sprinkle(update: "Update", wanted: str, tries: int, distance: int) -> None:
    """For each piece (canonical order), ``tries`` draws of an empty square within ``distance``
    (Chebyshev) on which a neutral obstacle or void appears."""
    ruleset = update.ruleset
    letter = _neutral_letter(ruleset, "obstacle" if wanted == "O" else "void")
    if letter is None:
        return
    board = update.board
    owners = sorted((p for p in board if p.owner is not None), key=lambda p: p.canonical_key)
    for piece in owners:
        x, y = piece.square
        for _ in range(tries):
            empty = [(x + dx, y + dy) for dx in range(-distance, distance + 1) for dy in range(-distance, distance + 1)
                     if (dx or dy) and board.in_bounds((x + dx, y + dy)) and not board.occupied((x + dx, y + dy))]
            if not empty:
                break
            square = update.rng.choice(sorted(empty))
            update.add(Piece(update.new_id(), letter, None, square, placed=update.number))


def king_of_the_hill_square(update: "Update", lattice: int = 256) -> Square | None:
    """An empty square far from all pieces: on a lattice over the occupied area (grown by 4), the
    points farthest (in lattice steps) from any piece; one of them drawn at random."""
    board = update.board
    box = board.bounding_box()
    if box is None:
        return None
    (x0, y0), (x1, y1) = box
    x0, y0, x1, y1 = x0 - 4, y0 - 4, x1 + 4, y1 + 4
    if board.bounds is not None:
        (bx0, by0), (bx1, by1) = board.bounds
        x0, y0, x1, y1 = max(x0, bx0), max(y0, by0), min(x1, bx1), min(y1, by1)
    spacing = max(1, ceil(max(x1 - x0 + 1, y1 - y0 + 1) / lattice))
    width, height = (x1 - x0) // spacing + 1, (y1 - y0) // spacing + 1
    distance = [[-1] * height for _ in range(width)]
    queue: deque = deque()
    for square in board.squares():
        i, j = (square[0] - x0) // spacing, (square[1] - y0) // spacing
        if 0 <= i < width and 0 <= j < height and distance[i][j] < 0:
            distance[i][j] = 0
            queue.append((i, j))
    while queue:
        i, j = queue.popleft()
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                a, b = i + di, j + dj
                if 0 <= a < width and 0 <= b < height and distance[a][b] < 0:
                    distance[a][b] = distance[i][j] + 1
                    queue.append((a, b))
    best = max(max(column) for column in distance)
    if best <= 0:
        return None
    candidates = sorted((x0 + i * spacing, y0 + j * spacing) for i in range(width) for j in range(height)
                        if distance[i][j] == best and not board.occupied((x0 + i * spacing, y0 + j * spacing)))
    return update.rng.choice(candidates) if candidates else None
