"""Where pieces can go and what they attack, on a :class:`Position`.

A :class:`Position` is a board seen under a ruleset together with the effects in force for one
update (frozen pieces, transparency, extra moves granted by events). Every movement question the
engine asks goes through the three functions here:

* :func:`destinations`: every square a piece may move or capture to (used by ``moves`` and /board);
* :func:`reach`: can this piece go to that square, and if not, why (used by order validation);
* :func:`attackers`: which pieces could capture a piece standing on a square (check states,
  exposure, joining, the dwarf rule); :func:`attacked` answers only whether there is one.

All three walk rays through the board's line index, so their cost grows with the pieces on the
lines involved, never with the distance.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import inf
from typing import Callable, Iterator, Mapping

from .betza import Ray, describe_betza
from .board import Board
from .model import Piece, Square
from .ruleset import PieceKind, Ruleset

__all__ = ["Position", "Reach", "destinations", "reach", "attackers", "iter_attackers", "attacked", "attacks",
           "DEFAULT_WINDOW"]

#: On an unbounded board ``moves`` lists destinations within this Chebyshev distance (SCENARIOS.md).
DEFAULT_WINDOW = 32


def _never(*pieces: Piece) -> bool:
    return False


@dataclass(slots=True, weakref_slot=True)  # abilities' effects refer back to it weakly
class Position:
    """A board under a ruleset with the effects in force; the input of every movement query.

    The effects are local questions, answered by looking around one piece, so that checking one
    order on a 50,000-piece board never scans the board: ``transparent(blocker, mover)`` says
    whether ``mover`` passes through ``blocker`` (witch, spirits, Witch Trials); ``frozen(piece)``
    pieces neither move nor attack (zombie); ``protected(piece)`` pieces cannot be the target of a
    capture attempt (angel); ``passable(square, pieces=None)`` whether any mover could pass the
    square (``pieces``: its pieces, when the caller has just looked them up). ``extra_rays`` adds
    moves to kinds (an event such as Knights in Shining Armor); ``teams`` maps owners to teams where
    a ruleset has them, so teammates are not enemies.
    ``bot.engine.abilities`` builds the effects of RULES.md section 8.
    """

    ruleset: Ruleset
    board: Board
    frozen: Callable[[Piece], bool] = _never
    transparent: Callable[[Piece, Piece], bool] = _never
    protected: Callable[[Piece], bool] = _never
    passable: Callable[..., bool] = _never   # (square, its pieces if known): could any mover pass it?
    locked: Callable[[Piece], bool] = _never          # may not move this update, still attacks (Variety)
    extra_rays: Mapping[str, tuple[Ray, ...]] = field(default_factory=dict)
    teams: Mapping[str, str] = field(default_factory=dict)
    _rays_cache: dict = field(default_factory=dict, repr=False)
    _steps_cache: tuple | None = field(default=None, repr=False)
    _reach_cache: dict = field(default_factory=dict, init=False, repr=False)
    _leaps_cache: dict = field(default_factory=dict, init=False, repr=False)

    # ------------------------------------------------------------ relations
    def kind(self, piece: Piece) -> PieceKind:
        return self.ruleset.pieces[piece.kind]

    def enemies(self, a: str | None, b: str | None) -> bool:
        """Owners ``a`` and ``b`` are enemies: different players of different teams (or neutral)."""
        if a == b:
            return False
        if a is None or b is None:
            return True
        ta, tb = self.teams.get(a), self.teams.get(b)
        return ta is None or ta != tb

    def can_capture(self, piece: Piece) -> bool:
        """Whether the piece may capture at all this update (RULES 3.1, 3.2, 8)."""
        return (self.kind(piece).captures and not piece.disabled and not piece.energy
                and not self.frozen(piece))

    def can_move(self, piece: Piece) -> bool:
        return piece.owner is not None and not piece.energy and not self.frozen(piece) and not self.locked(piece)

    def rays(self, piece: Piece) -> tuple[Ray, ...]:
        """Every ray the piece may use now: its kind's, its once-in-a-life move, event extras."""
        key = (piece.kind, piece.moved, piece.step_used, piece.spirit)
        cached = self._rays_cache.get(key)
        if cached is None:
            kind = self.kind(piece)
            rays = [r for r in kind.movement.rays if not r.initial or not piece.moved]
            if kind.once is not None and not piece.step_used:
                rays.extend(kind.once.rays)
            if piece.spirit:  # a possessed host gains its spirit's moves (RULES 8)
                for spirit in self.ruleset.pieces.values():
                    if spirit.has("spirit"):  # with what events add to the spirit's moves
                        rays.extend(r for r in (*spirit.movement.rays, *self.extra_rays.get(spirit.letter, ()))
                                    if r not in rays)
            rays.extend(self.extra_rays.get(piece.kind, ()))
            cached = self._rays_cache[key] = tuple(rays)
        return cached

    def blocks(self, square: Square, mover: Piece, pieces: tuple[Piece, ...] | None = None) -> bool:
        """A square stops ``mover`` unless every piece on it is transparent to it. ``pieces``: the
        square's pieces on this board, when the caller has them in hand (one lookup fewer in the
        map of the whole board, whose every lookup costs a cache miss on a large board)."""
        # a loop, not any(): step 10 asks this tens of thousands of times
        for p in self.board.at(square) if pieces is None else pieces:
            if not self.transparent(p, mover) or self.kind(p).has("void"):
                return True
        return False

    def in_bounds(self, square: Square) -> bool:
        return self.board.in_bounds(square)

    # ------------------------------------------------------------ capture steps, for attackers()
    def _capture_reach(self, piece: Piece) -> dict[tuple[int, int], float]:
        """For each step the piece captures along, how many times it may repeat it: the longest
        range of its capturing rays with that step (``inf`` when unlimited). Cached like
        :meth:`rays`."""
        key = (piece.kind, piece.moved, piece.step_used, piece.spirit)
        reach = self._reach_cache.get(key)
        if reach is None:
            reach = {}
            for ray in self.rays(piece):
                if ray.capture:
                    reach[ray.step] = max(reach.get(ray.step, 0), inf if ray.range is None else ray.range)
            self._reach_cache[key] = reach
        return reach

    def _capture_leaps(self, piece: Piece) -> tuple[tuple[tuple[int, int], bool], ...]:
        """The piece's capturing leaps (rays of range 1) as ``(step, lame)``. Cached like :meth:`rays`."""
        key = (piece.kind, piece.moved, piece.step_used, piece.spirit)
        leaps = self._leaps_cache.get(key)
        if leaps is None:
            leaps = self._leaps_cache[key] = tuple((r.step, r.lame) for r in self.rays(piece)
                                                   if r.capture and r.range == 1)
        return leaps

    def _capture_steps(self) -> tuple[dict, dict]:
        """Every capturing step in the ruleset: leaps (range 1) and slides, with their longest range."""
        if self._steps_cache is None:
            leaps: dict[tuple[int, int], None] = {}
            slides: dict[tuple[int, int], int | None] = {}
            kinds = list(self.ruleset.pieces.values())
            all_rays: list[Ray] = []
            for kind in kinds:
                all_rays.extend(kind.movement.rays)
                if kind.once is not None:
                    all_rays.extend(kind.once.rays)
            for extra in self.extra_rays.values():
                all_rays.extend(extra)
            for ray in all_rays:
                if not ray.capture:
                    continue
                if ray.range == 1:
                    leaps[ray.step] = None
                else:
                    old = slides.get(ray.step, 0)
                    slides[ray.step] = None if (old is None or ray.range is None) else max(old, ray.range)
            self._steps_cache = (tuple(leaps), slides)
        return self._steps_cache


@dataclass(frozen=True, slots=True)
class Reach:
    """The answer of :func:`reach`: ``ok``, or why not (``blocked_by`` names the blocking square)."""

    ok: bool
    capture: bool = False
    blocked_by: Square | None = None
    reason: str = ""


def _occupant_relation(position: Position, mover: Piece, square: Square) -> str:
    """What stands on a target square for ``mover``: empty | friend | enemy | void."""
    pieces = position.board.at(square)
    if not pieces:
        return "empty"
    if any(position.kind(p).has("void") for p in pieces):
        return "void"
    if any(not position.enemies(mover.owner, p.owner) for p in pieces):
        return "friend"
    return "enemy"


def _lame_path_clear(position: Position, piece: Piece, ray: Ray) -> bool:
    x, y = piece.square
    return not any(position.blocks((x + dx, y + dy), piece) for dx, dy in ray.path)


def _window_limit(origin: Square, step: tuple[int, int], window: int | None, position: Position) -> int | None:
    """How many steps fit in the window (Chebyshev distance) and in the bounds."""
    limit: int | None = None
    if window is not None:
        limit = window // max(abs(step[0]), abs(step[1]))
    bounds = position.board.bounds
    if bounds is not None:
        (x0, y0), (x1, y1) = bounds
        for coord, d, lo, hi in ((origin[0], step[0], x0, x1), (origin[1], step[1], y0, y1)):
            if d > 0:
                k = (hi - coord) // d
            elif d < 0:
                k = (coord - lo) // -d
            else:
                continue
            limit = k if limit is None else min(limit, k)
    return limit


def destinations(position: Position, piece: Piece, window: int | None = DEFAULT_WINDOW) -> list[Square]:
    """Sorted squares the piece may move or capture to (RULES 3.1), within ``window`` (Chebyshev
    distance from the piece) on an unbounded board; ``window=None`` needs bounds."""
    if not position.can_move(piece):
        return []
    capture_ok = position.can_capture(piece)
    found: set[Square] = set()
    x, y = piece.square
    for ray in position.rays(piece):
        if not ray.move and not (ray.capture and capture_ok):
            continue
        limit = _window_limit(piece.square, ray.step, window, position)
        if ray.range is not None:
            limit = ray.range if limit is None else min(limit, ray.range)
        if limit is None:
            raise ValueError("destinations on an unbounded board need a window")
        if limit < 1:
            continue
        if ray.range == 1:
            if ray.lame and not _lame_path_clear(position, piece, ray):
                continue
            target = (x + ray.step[0], y + ray.step[1])
            if _accepts(position, piece, ray, target, capture_ok):
                found.add(target)
            continue
        dx, dy = ray.step
        previous = 0
        for k, square in position.board.occupied_along(piece.square, ray.step, limit):
            if ray.move:
                found.update((x + j * dx, y + j * dy) for j in range(previous + 1, k))
            previous = k
            if _accepts(position, piece, ray, square, capture_ok):
                found.add(square)
            if position.blocks(square, piece):
                break
        else:
            if ray.move:
                found.update((x + j * dx, y + j * dy) for j in range(previous + 1, limit + 1))
    return sorted(s for s in found if position.in_bounds(s))


def _accepts(position: Position, piece: Piece, ray: Ray, target: Square, capture_ok: bool) -> bool:
    if not position.in_bounds(target):
        return False
    relation = _occupant_relation(position, piece, target)
    if relation == "empty":
        return ray.move
    if relation == "enemy":
        return ray.capture and capture_ok
    return False


def reach(position: Position, piece: Piece, target: Square) -> Reach:
    """Can ``piece`` move or capture to ``target`` on this position (RULES 3.1)? When it cannot,
    the answer says why in plain words, naming the blocking square for a slider (D5)."""
    kind = position.kind(piece)
    if target == piece.square:
        return Reach(False, reason=f"the {kind.name.lower()} is already on that square")
    if not position.in_bounds(target):
        return Reach(False, reason="that square is outside the board")
    if piece.energy:
        return Reach(False, reason="an energy pawn cannot move (RULES 4)")
    if position.frozen(piece):
        return Reach(False, reason=f"the {kind.name.lower()} is frozen by a zombie this update (RULES 8)")
    if position.locked(piece):
        return Reach(False, reason=f"the {kind.name.lower()} moved in the previous update and may not move "
                                   f"during Variety (RULES 6)")
    relation = _occupant_relation(position, piece, target)
    if relation == "void":
        return Reach(False, reason="a void cannot be entered (RULES 6)")
    if relation == "friend":
        return Reach(False, reason="your own piece stands on that square (RULES 3.1)")
    capture = relation == "enemy"
    x, y = piece.square
    dx, dy = target[0] - x, target[1] - y
    blocked_at: Square | None = None
    wrong_mode = False
    for ray in position.rays(piece):
        sx, sy = ray.step
        k = _multiple(dx, dy, sx, sy)
        if k is None or (ray.range is not None and k > ray.range):
            continue
        if capture and not ray.capture or not capture and not ray.move:
            wrong_mode = True
            continue
        if ray.range == 1 and ray.lame:
            blocker = next(((x + ox, y + oy) for ox, oy in ray.path if position.blocks((x + ox, y + oy), piece)), None)
        else:
            blocker = next((sq for _, sq in position.board.occupied_along(piece.square, ray.step, k - 1)
                            if position.blocks(sq, piece)), None)
        if blocker is None:
            if capture and not position.can_capture(piece):
                reason = (f"the {kind.name.lower()} was generated last update and is disabled: it may move "
                          f"but not capture (RULES 3.1)" if piece.disabled
                          else f"the {kind.name.lower()} never captures (RULES 3.2)")
                return Reach(False, capture=True, reason=reason)
            return Reach(True, capture=capture)
        blocked_at = blocked_at or blocker
    name = kind.name.lower()
    if blocked_at is not None:
        others = position.board.at(blocked_at)
        what = position.kind(others[0]).name.lower() if others else "piece"
        return Reach(False, capture, blocked_at, f"the {what} on ({blocked_at[0]},{blocked_at[1]}) blocks the {name}'s path")
    if wrong_mode:
        if capture and not kind.captures:
            return Reach(False, True, reason=f"the {name} never captures (RULES 3.2)")
        if capture:
            return Reach(False, True, reason=f"the {name} cannot capture that way ({kind.betza}): "
                                             f"it {describe_betza(kind.betza)}")
        return Reach(False, False, reason=f"the {name} can only capture that way, and the square is empty "
                                          f"({kind.betza}): it {describe_betza(kind.betza)}")
    article = "an" if name[:1] in "aeio" else "a"
    return Reach(False, capture, reason=f"{article} {name} cannot move from ({x},{y}) to ({target[0]},{target[1]}) "
                                        f"({kind.betza}): it {describe_betza(kind.betza)}")


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
    if k <= 0 or dy != k * sy:
        return None
    return k


def attacks(position: Position, piece: Piece, square: Square) -> bool:
    """Whether ``piece`` could capture a piece standing on ``square`` (RULES 3.2), whoever owns it."""
    if not position.can_capture(piece) or square == piece.square:
        return False
    x, y = piece.square
    dx, dy = square[0] - x, square[1] - y
    for ray in position.rays(piece):
        if not ray.capture:
            continue
        k = _multiple(dx, dy, *ray.step)
        if k is None or (ray.range is not None and k > ray.range):
            continue
        if ray.range == 1:
            if not ray.lame or _lame_path_clear(position, piece, ray):
                return True
        elif not any(position.blocks(sq, piece) for _, sq in position.board.occupied_along(piece.square, ray.step, k - 1)):
            return True
    return False


def attackers(position: Position, square: Square, by: Callable[[Piece], bool] | None = None) -> list[Piece]:
    """Every piece that attacks ``square`` (D23: never one standing on it), optionally filtered,
    in canonical order.

    Looks only where an attacker could stand: one leap away for each capturing leap of the ruleset,
    and along each sliding line up to the first piece that blocks everyone.
    """
    return sorted(iter_attackers(position, square, by), key=lambda p: p.canonical_key)


def iter_attackers(position: Position, square: Square, by: Callable[[Piece], bool] | None = None
                   ) -> Iterator[Piece]:
    """The pieces of :func:`attackers` one by one, in no set order, for a caller that may stop at
    the first that suits it. The sliding lines are looked at first: they cost a few bisections of
    the line index where the leaps cost one lookup each."""
    found: set[int] = set()
    yield from _slide_attackers(position, square, by, found)
    yield from _leap_attackers(position, square, by, found)


def attacked(position: Position, square: Square, by: Callable[[Piece], bool] | None = None) -> bool:
    """Whether any piece (passing ``by``) attacks ``square``: ``bool(attackers(...))``, stopping
    at the first attacker found."""
    return next(iter_attackers(position, square, by), None) is not None


def _leap_attackers(position: Position, square: Square, by: Callable[[Piece], bool] | None,
                    found: set[int]) -> Iterator[Piece]:
    """Attackers one capturing leap away (any of their rays may do the capture), not yet ``found``."""
    at = position.board.at
    leaps, _ = position._capture_steps()
    x, y = square
    for sx, sy in leaps:
        for piece in at((x - sx, y - sy)):
            if piece.id not in found and (by is None or by(piece)) and attacks(position, piece, square):
                found.add(piece.id)
                yield piece


def _slide_attackers(position: Position, square: Square, by: Callable[[Piece], bool] | None,
                     found: set[int]) -> Iterator[Piece]:
    """Attackers along each sliding line, up to the first piece that blocks everyone, not yet ``found``."""
    board = position.board
    at, along = board.at, board.occupied_along
    reach_of, can_capture, passable = position._capture_reach, position.can_capture, position.passable
    _, slides = position._capture_steps()
    for step, longest in slides.items():
        seen_blockers: list[tuple[Square, tuple[Piece, ...]]] = []   # with their pieces, looked up once
        for k, sq in along(square, (-step[0], -step[1]), longest):
            here = at(sq)
            for piece in here:
                if piece.id in found or (by is not None and not by(piece)):
                    continue
                if reach_of(piece).get(step, 0) < k or not can_capture(piece):
                    continue
                if seen_blockers and any(position.blocks(b, piece, pieces) for b, pieces in seen_blockers):
                    continue
                found.add(piece.id)
                yield piece
            if not passable(sq, here):
                break  # the first piece no one can see through hides everything behind it
            seen_blockers.append((sq, here))
