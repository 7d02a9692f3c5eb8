"""Check states (RULES.md 3.2, D8, D9, D23-D25): who is attacked at the end of an update.

Every piece carries a check state, recomputed at step 10 from the final position::

    state before | piece at end of update                          | new state
    any          | not attacked by an enemy                        | none
    any          | arrived onto an exposed square                  | capturable
    any          | arrived onto a square that is not exposed       | fresh
    none         | stayed, attacked                                | fresh
    fresh        | stayed, attacked                                | capturable
    capturable   | stayed, attacked                                | spent
    spent        | stayed, attacked                                | spent

A square is *exposed* for an arriving piece when some enemy piece attacked it in P0 (with the
arriving piece lifted from its starting square) and the same enemy piece, wherever it now stands,
still attacks it in the final position (D8). An energy pawn is always capturable; a piece next to
a friendly angel is never in check (D25).

:func:`recompute_all` evaluates every piece. When the previous states were themselves computed by
the engine, a piece's state in P0 says whether it was attacked then, so only the pieces whose
being attacked may have changed need asking: :func:`changed_squares` lists the squares whose
occupants or powers changed, :func:`affected_pieces` follows the leaps and lines through them to
the pieces an attack may have reached or left, and every other piece follows the table
(:func:`advance`). The cost grows with the number of changes, not with the board. Property tests
hold the incremental answer equal to the full recomputation and to brute force.
"""

from __future__ import annotations

from itertools import chain
from typing import Iterable, Iterator, Mapping

from .model import Piece, Square
from .abilities import lifted, zombie_index
from .movement import Position, attacked as is_attacked, attacks, iter_attackers

__all__ = ["next_check_state", "evaluate", "advance", "recompute_all", "changed_squares", "affected_pieces",
           "exposed"]

_NEXT_IF_STAYED = {"none": "fresh", "fresh": "capturable", "capturable": "spent", "spent": "spent"}


def next_check_state(before: str, attacked: bool, arrived: bool, exposed_square: bool) -> str:
    """The table of RULES 3.2."""
    if not attacked:
        return "none"
    if arrived:
        return "capturable" if exposed_square else "fresh"
    return _NEXT_IF_STAYED[before]


def _enemy_attackers(position: Position, piece: Piece) -> Iterator[Piece]:
    """The enemies attacking the piece's square, one by one (in no set order)."""
    return iter_attackers(position, piece.square,
                          by=lambda p: p.owner is not None and position.enemies(p.owner, piece.owner))


def exposed(p0: Position, final: Position, piece: Piece, origin: Square | None,
            attackers_now: Iterable[Piece] | None = None) -> bool:
    """D8: an enemy attacked the square in P0, with the arriving piece lifted from ``origin``
    (effects included: a lifted zombie freezes no one), and the same enemy still attacks it in the
    final position.

    Asked from the final side: the enemies attacking the square now (``attackers_now`` when the
    caller has them) are few, and each is checked against P0 alone."""
    target = piece.square
    position = p0
    if origin is not None:
        mover = next((p for p in p0.board.at(origin) if p.id == piece.id), None)
        if mover is not None:
            position = lifted(p0, mover)
    if attackers_now is None:
        attackers_now = _enemy_attackers(final, piece)
    for enemy in attackers_now:
        if enemy.id != piece.id and enemy.id in position.board and attacks(position, position.board.get(enemy.id),
                                                                           target):
            return True
    return False


def evaluate(p0: Position, final: Position, piece: Piece, arrivals: Mapping[int, Square | None],
             before: str, attacked: bool | None = None) -> str:
    """The new check state of one piece of the final position (``attacked``: whether an enemy
    attacks it, when the caller already knows)."""
    if piece.owner is None:
        return "none"
    if piece.energy:
        return "capturable"
    if final.protected(piece):
        return "none"
    if piece.id in arrivals:
        attackers_now = _enemy_attackers(final, piece)
        first = next(attackers_now, None)
        if first is None:
            return "none"
        return next_check_state(before, True, True,
                                exposed(p0, final, piece, arrivals[piece.id], chain((first,), attackers_now)))
    if attacked is None:
        attacked = is_attacked(final, piece.square,
                               by=lambda p: p.owner is not None and final.enemies(p.owner, piece.owner))
    if not attacked:
        return "none"
    return next_check_state(before, True, False, False)


def advance(piece: Piece) -> str:
    """The new state of a piece that stayed and whose attacked status did not change."""
    if piece.energy:
        return "capturable"
    return "none" if piece.check == "none" else _NEXT_IF_STAYED[piece.check]


def recompute_all(p0: Position, final: Position, arrivals: Mapping[int, Square | None],
                  before: Mapping[int, str]) -> dict[int, str]:
    """Every piece's new check state, from scratch."""
    return {p.id: evaluate(p0, final, p, arrivals, before.get(p.id, "none")) for p in final.board}


# ============================================================================= incremental step 10
_NEIGHBOURS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)


def changed_squares(p0: Position, final: Position, changed: Iterable[Square],
                    see_through: set[Square] | None = None) -> tuple[set[Square], set[int]]:
    """The squares whose occupants or powers changed, and the pieces whose protection changed.

    ``changed`` are the squares the update put pieces on, took pieces off or changed pieces on
    (departures, arrivals, removals, promotions, pieces enabled or possessed). A witch makes her
    neighbours transparent to her side (D28), so when a witch is on a changed square every occupied
    square next to her is added: the lines through them may have opened or closed for her side's
    pieces. Near a change, the effects of section 8 may have changed for pieces that did not move:
    a piece that became frozen or unfrozen attacks differently (its square is added); a piece that
    gained or lost an angel's protection changes only its own state (its id is returned). Both are
    asked of every piece off ``changed``, a witch's neighbours included (step 10 evaluates the
    pieces on ``changed`` alone, see :func:`affected_pieces`).

    ``see_through``, when given, receives the squares added only as a witch's neighbours: their
    pieces and what those pieces attack are as in P0; only what passes through them may differ.

    Only the pieces such a change can reach are asked, found from the changes themselves, so the
    cost follows the changes and not how crowded the board is around them (:func:`_effect_candidates`).
    """
    board, board0 = final.board, p0.board
    pieces = final.ruleset.pieces
    witches = {k.letter for k in pieces.values() if k.has("witch")}
    changed = changed if isinstance(changed, (set, frozenset)) else set(changed)
    neighbours: set[Square] = set()
    for square in changed:
        if any(p.kind in witches for p in (*board.at(square), *board0.at(square))):
            x, y = square
            neighbours.update(s for dx, dy in _NEIGHBOURS if board.occupied(s := (x + dx, y + dy)))
    result = changed | neighbours
    protection: set[int] = set()
    powers: set[Square] = set()   # squares where a piece became frozen or unfrozen
    freezing, protecting = _effect_candidates(p0, final, changed)
    for square in (freezing | protecting) - changed:
        for piece in board.at(square):
            if piece.id not in board0:
                continue
            before = board0.get(piece.id)
            if square in freezing and p0.frozen(before) != final.frozen(piece):
                powers.add(square)
            if square in protecting and p0.protected(before) != final.protected(piece):
                protection.add(piece.id)
    result |= powers
    if see_through is not None:
        see_through.update(neighbours - changed - powers)
    return result, protection


def _effect_candidates(p0: Position, final: Position, changed: Iterable[Square]
                       ) -> tuple[set[Square], set[Square]]:
    """The squares where a piece that stayed may have become frozen or unfrozen (a zombie's move
    reaches it), and those where it may have become protected or unprotected (an angel next to
    it), given the changed squares: each asked only its own question (on a crowded board most of
    these squares are occupied).

    An angel protects only its neighbours, so a change holding an angel (before or after) reaches
    the squares next to it. A zombie freezes what its move reaches with the path clear up to it
    (``abilities.AbilityEffects._find_freezer``), so a piece's freezing changes only when a zombie
    on its ray arrived or left (the squares its move reaches from a change holding a zombie), or
    when a square of the path between them changed: a change itself, or a square next to a change
    holding a witch (her neighbours are transparent to her side). From such a path square, the
    squares ahead of it are candidates when a zombie stands behind it, in P0 or now, close enough
    to reach them.
    """
    board, board0 = final.board, p0.board
    pieces = final.ruleset.pieces
    angels = {k.letter for k in pieces.values() if k.has("angel")}
    witches = {k.letter for k in pieces.values() if k.has("witch")}
    # zombie letter -> (step, how far its move reaches along it), as _find_freezer reads them
    zombies = {k.letter: [(r.step, r.range or 1) for r in k.movement.rays if r.move]
               for k in pieces.values() if k.has("zombie")}
    if not angels and not zombies:
        return set(), set()
    # step -> [(zombie letter, reach)] of the rays whose path has squares between zombie and target
    paths: dict[tuple[int, int], list[tuple[str, int]]] = {}
    for letter, rays in zombies.items():
        for step, reach in rays:
            if reach > 1:
                paths.setdefault(step, []).append((letter, reach))
    found: set[Square] = set()        # freezing
    protecting: set[Square] = set()
    path_squares: set[Square] = set()
    for square in changed:
        x, y = square
        here = (*board.at(square), *board0.at(square))
        path_squares.add(square)
        for piece in here:
            if piece.kind in angels:
                protecting.update((x + dx, y + dy) for dx, dy in _NEIGHBOURS)
            rays = zombies.get(piece.kind)
            if rays:
                found.update((x + k * sx, y + k * sy) for (sx, sy), reach in rays for k in range(1, reach + 1))
            if piece.kind in witches:
                path_squares.update((x + dx, y + dy) for dx, dy in _NEIGHBOURS)
    if paths:
        # Where both boards keep the index of the zombies whose move reaches each square (made by
        # the positions' freezing questions), a path square's zombies are two lookups in it instead
        # of one per square a zombie could stand on behind it, on each board.
        reach_of, letters, offsets = zombie_index(final.ruleset)
        indexed = board.keeps_near(letters, offsets) and board0.keeps_near(letters, offsets)
        for x, y in path_squares:
            if indexed:
                for zombie in (*board.near(letters, (x, y), offsets), *board0.near(letters, (x, y), offsets)):
                    offset = (x - zombie.square[0], y - zombie.square[1])
                    for (sx, sy), m in reach_of[zombie.kind].get(offset, ()):
                        for letter, reach in paths.get((sx, sy), ()):
                            if letter == zombie.kind and m < reach:
                                found.update((x + i * sx, y + i * sy) for i in range(1, reach - m + 1))
                continue
            for (sx, sy), kinds in paths.items():
                for letter, reach in kinds:
                    for m in range(1, reach):  # a zombie m squares behind reaches reach - m squares ahead
                        behind = (x - m * sx, y - m * sy)
                        if any(p.kind == letter for b in (board, board0) for p in b.at(behind)):
                            found.update((x + i * sx, y + i * sy) for i in range(1, reach - m + 1))
    return found, protecting


def affected_pieces(p0: Position, final: Position, changed: Iterable[Square],
                    arrivals: Mapping[int, Square | None], moved: Iterable[Square] | None = None,
                    suspects: dict[int, list[Piece]] | None = None, see_through: Iterable[Square] = ()
                    ) -> tuple[set[int], set[int]]:
    """Pieces whose *attacked* status may differ from a consistent P0, and among them those seen
    attacked by an enemy on the way (no need to ask again). Every other piece is attacked exactly
    as in P0, so its new state follows from the table alone (:func:`advance`).

    ``changed`` are the squares whose occupants or powers changed (:func:`changed_squares`). An
    attack by A on the square of B (B unchanged) starts or stops only if A stands (or stood) on a
    changed square, or A slides (or leaps lamely) over a changed square. So from each changed
    square: the enemies its pieces leap to, and along each sliding line, the pieces ahead of it
    that an enemy behind it (or on it) could reach with its range. The walk along a line passes
    through changed squares and stops at the first unchanged square no one can see through: an
    attack lost through two changed squares in a row (two pieces arriving one behind the other) is
    found from the first of them.

    Each such attack may have started (the attacker is here now, or behind) or stopped (it was
    here, or is behind). A piece in check in P0 is affected only if one of its attacks may have
    stopped and none is seen now; a piece not in check only if an attack may have started.
    Arrivals and the pieces on the squares the update itself changed (``moved``: by default every
    changed square) are always affected. The other changed squares changed only what passes
    through them or what their pieces attack (a witch came or went next to them, a piece there
    became frozen or unfrozen), not whether their own pieces are attacked: the walks from them
    find whom that concerns. On a crowded board, where a witch's square has six or seven occupied
    neighbours, this spares asking hundreds of pieces that stayed unattacked.

    ``suspects``, when given, receives for each piece an attack may have started on, the enemies
    whose attack that may be (the pieces of the final position on a changed square or behind it),
    unless a lame leap over a changed square may have started one (its leaper is not looked for).
    Every attack that started is among them: a piece not attacked in P0 is attacked now exactly
    when one of its suspects attacks it (:func:`attacked_by_suspects`).

    On the squares of ``see_through`` (from :func:`changed_squares`: a witch's neighbours whose
    pieces kept their powers) only the lines through them are walked: their own pieces attack as
    in P0, so what they attack is not asked again.
    """
    board, board0 = final.board, p0.board
    changed = changed if isinstance(changed, (set, frozenset)) else set(changed)
    moved = changed if moved is None else moved if isinstance(moved, (set, frozenset)) else set(moved)
    ids: set[int] = set(i for i in arrivals if i in board)
    started: set[int] = set()    # may be attacked now where they were not
    stopped: set[int] = set()    # may have lost an attacker
    attacked: set[int] = set()   # seen attacked by an enemy in the final position
    found_by: dict[int, list[Piece]] = {}   # started: the pieces whose attack it may be
    by_lame_leap: set[int] = set()           # started by a lame leap, whose leaper is not looked for
    slides = dict(final._capture_steps()[1])
    for step, limit in p0._capture_steps()[1].items():
        old = slides.get(step, 0)
        slides[step] = None if (old is None or limit is None) else max(old, limit)
    lame = {(r.step[0] - ox, r.step[1] - oy)  # from a square a lame leap passes over to its target
            for position in (p0, final) for kind in position.ruleset.pieces.values()
            for r in (*kind.movement.rays, *position.extra_rays.get(kind.letter, ()))
            if r.capture and r.lame for ox, oy in r.path}
    walk_limits = {}  # how far to walk each way: the longest slide along the line, either way
    for (dx, dy), limit in slides.items():
        for direction in ((dx, dy), (-dx, -dy)):
            old = walk_limits.get(direction, 0)
            walk_limits[direction] = None if (old is None or limit is None) else max(old, limit)
    enemies, at, reach_of = final.enemies, board.at, final._capture_reach
    for square in changed:
        x, y = square
        now, then = at(square), board0.at(square)
        if square in moved:
            ids.update(p.id for p in now)
        # The pieces here that may capture: now (their attacks may have started) and in P0
        # (theirs may have stopped); none where only the lines through this square changed.
        if square in see_through:
            here = []
        else:
            here = [(final, p, started) for p in now if p.owner is not None and final.can_capture(p)]
            here += [(p0, p, stopped) for p in then if p.owner is not None and p0.can_capture(p)]
        for position, piece, changes in here:  # what they attack, or attacked, by a leap
            for (dx, dy), lame_leap in position._capture_leaps(piece):
                for victim in at((x + dx, y + dy)):
                    if victim.owner is not None and enemies(piece.owner, victim.owner):
                        changes.add(victim.id)
                        if position is final:
                            found_by.setdefault(victim.id, []).append(piece)
                            if not lame_leap:
                                attacked.add(victim.id)
        for dx, dy in lame:
            for victim in at((x + dx, y + dy)):
                if victim.owner is not None:
                    started.add(victim.id)
                    stopped.add(victim.id)
                    by_lame_leap.add(victim.id)
        walks: dict[tuple[int, int], list[tuple[int, Piece]]] = {}  # one walk serves both ways of a line
        for step in slides:
            back = (-step[0], -step[1])
            # Every possible attacker along this line: (distance behind this square, owner, range
            # along the line, what its attacks may have done (started, stopped or both), nothing
            # between it and this square now, the piece when it still has to be asked whether it
            # may capture at all, the piece)
            sliders = [(0, piece.owner, reach, (changes,), position is final, None, piece)
                       for position, piece, changes in here if (reach := position._capture_reach(piece).get(step))]
            behind = walks.get(back)
            if behind is None:
                behind = walks[back] = _walk(final, changed, square, back, walk_limits[back])
            # (whether it may capture at all is asked only when it matters)
            reaching = [(k, piece, reach) for k, piece in behind
                        if piece.owner is not None and (reach := reach_of(piece).get(step, 0)) > k]
            if not sliders and not reaching:
                continue
            ahead = walks.get(step)
            if ahead is None:
                ahead = walks[step] = _walk(final, changed, square, step, walk_limits[step])
            for k, piece, reach in reaching:
                owner = piece.owner
                # Only a piece with an enemy ahead in its range can matter: on a crowded board the
                # pieces behind and ahead are mostly one army, and this spares asking the square
                # whether it lets them through.
                if not any(reach >= k + j and (victim_owner := victim.owner) is not None and victim_owner != owner
                           and enemies(owner, victim_owner) for j, victim in ahead):
                    continue
                # Its attack through this square may have started only if the square lets it
                # through now, and stopped only if the square let it through in P0.
                changes = (*((started,) if not (now and final.blocks(square, piece, now)) else ()),
                           *((stopped,) if not (then and p0.blocks(square, piece, then)) else ()))
                if changes:
                    sliders.append((k, owner, reach, changes, not now and k == behind[0][0], piece, piece))
            if not sliders:
                continue
            for j, victim in ahead:
                victim_owner = victim.owner
                if victim_owner is None:
                    continue
                for k, owner, reach, changes, exact, piece, slider in sliders:
                    # (a piece of the same owner is never an enemy: on a crowded board most pairs)
                    if (reach >= k + j and owner != victim_owner and enemies(owner, victim_owner)
                            and (piece is None or final.can_capture(piece))):
                        if exact and j == ahead[0][0]:  # nothing between them: an attack for sure
                            attacked.add(victim.id)
                        for found in changes:
                            found.add(victim.id)
                            if found is started:
                                found_by.setdefault(victim.id, []).append(slider)
    for piece_id in (started | stopped) - ids:
        in_check = piece_id in board0 and board0.get(piece_id).check != "none"
        if (piece_id in stopped and piece_id not in attacked) if in_check else piece_id in started:
            ids.add(piece_id)
    if suspects is not None:
        suspects.update((i, found) for i, found in found_by.items() if i not in by_lame_leap)
    return ids, attacked


def attacked_by_suspects(final: Position, piece: Piece, suspects: Iterable[Piece]) -> bool:
    """Whether one of these enemies attacks the piece in the final position: for a piece that
    stayed on a square the update left alone, was not attacked in P0 and has the same protection,
    the same answer as asking every line and leap to its square (its suspects from
    :func:`affected_pieces` are every attack that may have started), for a few of them."""
    square = piece.square
    return any(attacks(final, suspect, square) for suspect in suspects)


def _walk(final: Position, changed: set[Square], square: Square, step: tuple[int, int], limit
          ) -> list[tuple[int, Piece]]:
    """The pieces from ``square`` along ``step``, with their distance in steps, up to the first
    unchanged square no one can see through."""
    found: list[tuple[int, Piece]] = []
    at, passable = final.board.at, final.passable
    for k, sq in final.board.occupied_along(square, step, limit):
        here = at(sq)
        for piece in here:
            found.append((k, piece))
        if sq not in changed and not passable(sq, here):   # (the pieces in hand: one lookup of the square)
            break
    return found
