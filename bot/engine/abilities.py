"""The abilities of RULES.md section 8 that change what pieces may do, as local effects.

:func:`position_for` turns a game state into the :class:`~bot.engine.movement.Position` that every
movement and validation question is asked on. Each effect is answered by looking only around the
piece concerned, so checking one order on a 50,000-piece board stays in the microseconds:

* transparency: a transparent piece (a witch, an unpossessing spirit) lets pieces of its own side
  through; every piece next to a witch is transparent to the witch's side, but not to that witch
  (D28); during Witch Trials every piece is transparent to its own side;
* zombie: an enemy piece that the zombie's move could reach in P0 (path clear up to it) is frozen;
* angel: a friendly piece next to a non-disabled angel cannot be targeted by a capture (D25).

Disabled pieces provide none of these effects (RULES 8). A zombie's freezing is not an attack, so a
frozen zombie still freezes (docs/rules/abilities.md).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from weakref import proxy

from .model import Piece, Square
from .movement import Position
from .ruleset import Ruleset

__all__ = ["position_for", "rebased", "lifted", "AbilityEffects", "WITCH_TRIALS", "zombie_index"]

WITCH_TRIALS = "Witch Trials"

_NEIGHBOURS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
#: after this many squares asked about, a position has its board keep the index of the pieces next
#: to each witch (Board.keep_near: made once in the number of witches, then carried from board to
#: board by the game's updates); before, it looks around each square (one order's check asks about
#: a few)
_WITCH_INDEX_AFTER = 256
#: likewise, after this many pieces asked whether they are frozen, the board keeps the index of the
#: zombies whose move reaches each square (one lookup instead of one per square a zombie could stand
#: on), and after this many asked whether they are protected, the index of the angels next to each
#: square (one lookup instead of eight)
_ZOMBIE_INDEX_AFTER = 256
_ANGEL_INDEX_AFTER = 256


class AbilityEffects:
    """The effects of section 8 on one position; answers are memoised per piece."""

    def __init__(self, ruleset: Ruleset, position: Position, witch_trials: bool = False,
                 like: "AbilityEffects | None" = None) -> None:
        self.ruleset = ruleset
        # A weak reference: the position holds these effects (its frozen, protected, ... are their
        # methods), so a strong one would make a cycle and leave every position, lifted views
        # included, with its memos, to the cyclic garbage collector.
        self.position = proxy(position)
        self.board = position.board
        self.witch_trials = witch_trials
        if like is not None:  # the same ruleset: its kinds with abilities are known
            self.zombies, self.witches, self.transparents, self.angels = (
                like.zombies, like.witches, like.transparents, like.angels)
        else:
            kinds = ruleset.pieces.values()
            self.zombies = {k.letter: k for k in kinds if k.has("zombie")}
            self.witches = {k.letter for k in kinds if k.has("witch")}
            self.transparents = {k.letter for k in kinds if k.has("transparent") or k.has("witch") or k.has("spirit")}
            self.angels = {k.letter for k in kinds if k.has("angel")}
        self.zombie_reach, self.zombie_letters, self.zombie_offsets = zombie_index(ruleset)
        self.witch_letters = frozenset(self.witches)
        self.angel_letters = frozenset(self.angels)
        self._protected_asked = 0
        self._frozen: dict[int, bool] = {}
        self._passable: dict[Square, bool] = {}
        self._witches_near: dict[Square, tuple[Piece, ...]] = {}

    def _same_side(self, a: Piece, b: Piece) -> bool:
        return a.owner is not None and b.owner is not None and not self.position.enemies(a.owner, b.owner)

    def transparent(self, blocker: Piece, mover: Piece) -> bool:
        if blocker.id == mover.id:
            return True
        if self._same_side(blocker, mover):   # asked once: a crowded board asks this thousands of times
            if self.witch_trials:
                return True
            if blocker.kind in self.transparents and not blocker.disabled:
                return True
        if self.witches:
            return self._next_to_witch_of(blocker.square, mover)
        return False

    def passable(self, square: Square, pieces: tuple[Piece, ...] | None = None) -> bool:
        """Whether some mover could pass through this square (so attackers behind it count).
        Memoised: a position's pieces do not change while its effects are asked about. ``pieces``:
        the square's pieces on this position's board, when the caller has just looked them up (a
        walk along a line does), so as not to look the square up again in a map of the whole board."""
        known = self._passable.get(square)
        if known is None:
            known = self._passable[square] = self._compute_passable(
                square, self.board.at(square) if pieces is None else pieces)
        return known

    def _compute_passable(self, square: Square, pieces: tuple[Piece, ...]) -> bool:
        # one pass over the square's pieces (usually one): a neutral piece stops everyone; pieces
        # all of transparent kinds and not disabled let their side through
        transparents, see_through = self.transparents, True
        for p in pieces:
            if p.owner is None:
                return False
            if see_through and (p.disabled or p.kind not in transparents):
                see_through = False
        if see_through or self.witch_trials:
            return True
        return bool(self.witches) and bool(self._witches_next_to(square))

    def _witches_next_to(self, square: Square) -> tuple[Piece, ...]:
        """The active witches next to a square, memoised per square: from the board's index of the
        witches' neighbours when it keeps one, else eight lookups around the square. Local on
        purpose: a position is built for every order a player sends, so nothing here may scan the
        board; only a position asked about _WITCH_INDEX_AFTER squares has its board make the index,
        once for the game's later boards too (a whole update asks about tens of thousands)."""
        known = self._witches_near.get(square)
        if known is None:
            board, letters = self.board, self.witch_letters
            near = board.near(letters, square)
            if near is None and len(self._witches_near) >= _WITCH_INDEX_AFTER:
                board.keep_near(letters)
                near = board.near(letters, square)
            if near is None:
                witches = self.witches
                near = [p for p in board.around(square, _NEIGHBOURS) if p.kind in witches]
            known = self._witches_near[square] = tuple(p for p in near if not p.disabled) if near else ()
        return known

    def _next_to_witch_of(self, square: Square, mover: Piece) -> bool:
        """A piece next to a (non-disabled) witch is transparent to her side, except to her."""
        witches = self._witches_next_to(square)
        return bool(witches) and any(witch.id != mover.id and self._same_side(witch, mover) for witch in witches)

    def frozen(self, piece: Piece) -> bool:
        if not self.zombies or piece.owner is None:
            return False
        cached = self._frozen.get(piece.id)
        if cached is None:
            cached = self._frozen[piece.id] = self._find_freezer(piece)
        return cached

    def _find_freezer(self, piece: Piece) -> bool:
        """Whether an enemy zombie (not disabled) freezes the piece: its move reaches the piece's
        square with the path clear up to it. From the board's index of the zombies whose move
        reaches each square when it keeps one (one lookup; made once a position has asked about
        _ZOMBIE_INDEX_AFTER pieces, as the witches' index), else one lookup per square a zombie
        could stand on (eight for a zombie moving up to two squares orthogonally)."""
        board = self.board
        near = board.near(self.zombie_letters, piece.square, self.zombie_offsets)
        if near is None and len(self._frozen) >= _ZOMBIE_INDEX_AFTER:
            board.keep_near(self.zombie_letters, self.zombie_offsets)
            near = board.near(self.zombie_letters, piece.square, self.zombie_offsets)
        if near is not None:
            x, y = piece.square
            for zombie in near:
                if zombie.disabled or not self.position.enemies(zombie.owner, piece.owner):
                    continue
                # (the index holds every zombie kind's offsets: this kind's own may not give this one)
                ways = self.zombie_reach[zombie.kind].get((x - zombie.square[0], y - zombie.square[1]), ())
                if any(self._clear_between(zombie, k, step) for step, k in ways):
                    return True
            return False
        x, y = piece.square
        for kind in self.zombies.values():
            for ray in kind.movement.rays:
                if not ray.move:
                    continue
                sx, sy = ray.step
                for k in range(1, (ray.range or 1) + 1):
                    for zombie in board.at((x - k * sx, y - k * sy)):
                        if (zombie.kind == kind.letter and not zombie.disabled
                                and self.position.enemies(zombie.owner, piece.owner)
                                and self._clear_between(zombie, k, ray.step)):
                            return True
        return False

    def _clear_between(self, mover: Piece, k: int, step: tuple[int, int]) -> bool:
        x, y = mover.square
        return not any(self.position.blocks((x + j * step[0], y + j * step[1]), mover) for j in range(1, k))

    def protected(self, piece: Piece) -> bool:
        """D25: next to a friendly non-disabled angel (Chebyshev 1); an angel never protects itself."""
        if not self.angels or piece.owner is None:
            return False
        # the angels next to the square from the board's index of them when it keeps one (one lookup,
        # made once a position has asked about _ANGEL_INDEX_AFTER pieces), else eight lookups around
        board, letters = self.board, self.angel_letters
        near = board.near(letters, piece.square)
        if near is None:
            self._protected_asked += 1
            if self._protected_asked > _ANGEL_INDEX_AFTER:
                board.keep_near(letters)
                near = board.near(letters, piece.square)
            else:
                near = board.around(piece.square, _NEIGHBOURS)
        return any(angel.kind in self.angels and not angel.disabled and angel.id != piece.id
                   and self._same_side(angel, piece) for angel in near)


ZombieReach = dict[str, dict[tuple[int, int], list[tuple[tuple[int, int], int]]]]


@lru_cache(maxsize=64)   # as policies_for: a few rulesets in a process
def zombie_index(ruleset: Ruleset) -> tuple[ZombieReach, frozenset[str], frozenset[tuple[int, int]]]:
    """For each zombie kind of the ruleset (letter), the offsets from a zombie to the squares its
    move reaches (``k * step`` for each move ray and k up to its range, 1 for an unlimited one, as
    :meth:`AbilityEffects._find_freezer` reads them), each with the (step, k) pairs that give it;
    and the letters and offsets under which a board keeps the index of the zombies whose move
    reaches each square (``Board.keep_near``, ``Board.near``).

    The same objects for the same ruleset each time: a board finds its index by them, and a key
    that is the kept one itself is found without comparing the offsets one by one."""
    reach: ZombieReach = {}
    for kind in ruleset.pieces.values():
        if kind.has("zombie"):
            offsets = reach[kind.letter] = {}
            for ray in kind.movement.rays:
                if ray.move:
                    sx, sy = ray.step
                    for k in range(1, (ray.range or 1) + 1):
                        offsets.setdefault((k * sx, k * sy), []).append((ray.step, k))
    return reach, frozenset(reach), frozenset(o for offsets in reach.values() for o in offsets)


def position_for(ruleset: Ruleset, state) -> Position:
    """The position of ``state`` with every ability and event effect in force for the next update."""
    from .events import EventEffects  # events import the state module, which imports movement

    position = state.position(ruleset)
    events = EventEffects(ruleset, state.events)
    position.extra_rays = events.extra_rays()
    if events.has("Variety"):
        moved_to = frozenset(m.target for m in state.moved_last_update)
        position.locked = lambda piece: events.variety_locked(piece, moved_to)
    _install(position, ruleset, events.has(WITCH_TRIALS))
    return position


def _install(position: Position, ruleset: Ruleset, witch_trials: bool,
             like: AbilityEffects | None = None) -> AbilityEffects:
    effects = AbilityEffects(ruleset, position, witch_trials=witch_trials, like=like)
    if effects.transparents or effects.witch_trials:
        position.transparent = effects.transparent
        position.passable = effects.passable
    else:
        position.transparent, position.passable = _never_transparent, _never_passable
    position.frozen = effects.frozen
    position.protected = effects.protected
    return effects


def _never_transparent(blocker: Piece, mover: Piece) -> bool:
    return False


def _never_passable(square: Square, pieces: tuple[Piece, ...] | None = None) -> bool:
    return False


def rebased(position: Position, board) -> Position:
    """The same position on another board (usually a :class:`~bot.engine.board.BoardView`), with
    the section 8 effects recomputed there: a lifted zombie no longer freezes, a lifted angel no
    longer protects (D8: "effects included")."""
    effects = getattr(position.frozen, "__self__", None)
    if not isinstance(effects, AbilityEffects):
        effects = None
    other = replace(position, board=board)
    _install(other, position.ruleset, effects is not None and effects.witch_trials, like=effects)
    return other


def lifted(position: Position, *pieces: Piece) -> Position:
    """The position with these pieces taken off the board, effects included."""
    from .board import BoardView

    return rebased(position, BoardView(position.board, lifted_ids=[p.id for p in pieces]))
