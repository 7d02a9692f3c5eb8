"""The piece sheet's scene: one card per kind of a ruleset, with a movement diagram from its Betza.

A card says the kind's name, the letters a player may type, its cost, its Betza string, the notes
on its abilities and, for a kind with no Betza move, what its diagram says instead ("never
moves"). The diagram is computed from the compiled movement (:class:`bot.engine.betza.Movement`),
never drawn by hand, so a moderator who adds a piece to a ruleset file gets its card for free:

* a leap's destination is a large mark; a rider's squares are small marks on a line, which rides
  on past the grid's edge when it has no limit;
* each mark's ``style``: ``both`` (moves or captures there), ``move`` (only moves there) or
  ``capture`` (only captures there; a kind that never captures has no such mark);
* ``initial``: allowed on the piece's first move only (the pawn's double step), or once in its
  life (megachess's bishop step); ``lame``: the leap is blocked by a piece standing on a square it
  crosses (non-leaping ``n``).

:func:`piece_sheet` is a pure function of the ruleset; :mod:`bot.render.paint.pieces` draws it.
Nothing here knows Pillow.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.betza import Ray
from bot.engine.model import format_amount
from bot.engine.ruleset import PieceKind, Ruleset
from bot.engine.vocabulary import ABILITIES

__all__ = ["NOBODYS_TONES", "SquareMark", "RideLine", "Diagram", "PieceCard", "PieceSheet", "movement_diagram",
           "piece_sheet", "MIN_RADIUS", "MARK_STYLES"]

#: Pieces that are nobody's (every piece on the sheet, the territory's draft area): a neutral white, as a
#: chess diagram draws them.
NOBODYS_TONES = ((246, 246, 246),)

#: The smallest diagram is 9 x 9 squares; larger when a leap or a limited ride needs the room.
MIN_RADIUS = 4

#: The legend under the sheet: (style key, words).
MARK_STYLES: tuple[tuple[str, str], ...] = (
    ("both", "moves or captures there"),
    ("move", "moves there only (never captures there)"),
    ("capture", "captures there only"),
    ("ride", "rides along the line until blocked; an arrowhead: without limit"),
    ("initial", "first move only (or once in the piece's life, as its card says)"),
    ("lame", "dotted: blocked by a piece on a square it crosses (no jump)"),
)



@dataclass(frozen=True, slots=True)
class SquareMark:
    """How a piece may use one square of its diagram (offset from the piece, +y forward)."""

    move: bool
    capture: bool
    leap: bool          # reached by a single leap (a large mark)
    slide: bool         # reached by riding (a small mark on a line)
    initial: bool       # only on the first move, or once in the piece's life (see ``once``)
    once: bool = False  # the megachess bishop's one-time step
    lame: bool = False  # a straight leap blocked by a piece on a square it passes over

    @property
    def style(self) -> str:
        """``both``, ``move`` or ``capture``: the shape drawn on the square."""
        if self.move and self.capture:
            return "both"
        return "move" if self.move else "capture"


@dataclass(frozen=True, slots=True)
class RideLine:
    """A rider's line in the diagram: the squares it reaches, and whether it rides on beyond them."""

    step: tuple[int, int]
    squares: tuple[tuple[int, int], ...]
    unlimited: bool     # the ray has no range limit: it continues past the grid's edge
    move: bool
    capture: bool
    initial: bool


@dataclass(frozen=True, slots=True)
class Diagram:
    """The marks of one kind on a (2 radius + 1)-square grid centred on the piece."""

    radius: int
    marks: dict[tuple[int, int], SquareMark]
    lines: tuple[RideLine, ...]
    lame_paths: tuple[tuple[int, int], ...]     # squares a non-leaping leap passes over
    captures: bool                              # False: the kind never captures (its marks say so)
    directional: bool                           # the moves depend on which way is forward



@dataclass(frozen=True, slots=True)
class PieceCard:
    """What one kind's card says: ``kind`` (its sprite), its name, the line of its letters and cost,
    its Betza line, its diagram, what the diagram says when the kind never moves by Betza (None
    otherwise) and its notes, in order (the painter wraps them to the card's width)."""

    kind: PieceKind
    name_line: str
    letters_line: str
    betza_line: str
    diagram: Diagram
    never_moves: str | None
    notes: tuple[str, ...]

    @property
    def letter(self) -> str:
        return self.kind.letter


@dataclass(frozen=True, slots=True)
class PieceSheet:
    """A ruleset's piece sheet: its title, a card per kind in the ruleset's order, the legend of the
    marks (:data:`MARK_STYLES`: style key, words)."""

    title: str
    cards: tuple[PieceCard, ...]
    legend: tuple[tuple[str, str], ...] = MARK_STYLES

    def card(self, letter: str) -> PieceCard:
        for card in self.cards:
            if card.letter == letter:
                return card
        raise KeyError(letter)


def piece_sheet(ruleset: Ruleset) -> PieceSheet:
    """Every kind of ``ruleset`` on one sheet."""
    cards = []
    for kind in ruleset.pieces.values():
        diagram = movement_diagram(kind)
        cost = _cost_words(ruleset, kind)
        cards.append(PieceCard(
            kind, kind.name, f"{_letters(kind)}  ·  {cost}" if cost else _letters(kind),
            f"Betza: {kind.betza}" if kind.betza else "Betza: (none)", diagram,
            _never_moves_words(kind) if kind.movement.never_moves and kind.once is None else None,
            tuple(_notes(kind, diagram, ruleset))))
    return PieceSheet(f"{ruleset.title}: pieces ({ruleset.name})", tuple(cards))


# ----------------------------------------------------------------------------- the diagram
def _extent(ray: Ray) -> int:
    return max(abs(ray.step[0]), abs(ray.step[1]))


def _diagram_radius(rays: list[Ray]) -> int:
    """Room for every leap and every limited ride with a free square beyond, at least 9 x 9."""
    needed = MIN_RADIUS
    for ray in rays:
        if ray.range is None:
            needed = max(needed, 2 * _extent(ray) + 1)       # at least two squares of every rider line
        else:
            needed = max(needed, _extent(ray) * ray.range + (1 if ray.range > 1 else 0))
    return needed


def movement_diagram(kind: PieceKind, radius: int | None = None) -> Diagram:
    """The squares ``kind`` reaches from the centre of an empty grid, and how it uses each."""
    captures = kind.captures
    rays: list[tuple[Ray, bool]] = [(ray, False) for ray in kind.movement.rays]
    if kind.once is not None:
        rays += [(ray, True) for ray in kind.once.rays]
    if radius is None:
        radius = _diagram_radius([ray for ray, _ in rays])

    # (offset) -> list of (move, capture, leap, initial, once, lame)
    reached: dict[tuple[int, int], list[tuple[bool, bool, bool, bool, bool, bool]]] = {}
    lines: list[RideLine] = []
    lame_paths: set[tuple[int, int]] = set()
    for ray, once in rays:
        move, capture = ray.move, ray.capture and captures
        if not move and not capture:
            continue
        initial = ray.initial or once
        dx, dy = ray.step
        limit = ray.range if ray.range is not None else radius * 2 + 1
        squares = []
        for n in range(1, limit + 1):
            square = (dx * n, dy * n)
            if max(abs(square[0]), abs(square[1])) > radius:
                break
            squares.append(square)
            reached.setdefault(square, []).append((move, capture, not ray.slides, initial, once, ray.lame))
        if ray.slides and squares:
            lines.append(RideLine(ray.step, tuple(squares), ray.range is None, move, capture, initial))
        if ray.lame:
            lame_paths.update(ray.path)

    marks: dict[tuple[int, int], SquareMark] = {}
    for square, ways in reached.items():
        always = [w for w in ways if not w[3]]
        chosen = always or ways            # an initial-only mark only where nothing else reaches
        marks[square] = SquareMark(
            move=any(w[0] for w in chosen),
            capture=any(w[1] for w in chosen),
            leap=any(w[2] for w in chosen),
            slide=any(not w[2] for w in chosen),
            initial=not always,
            once=not always and all(w[4] for w in chosen),
            lame=any(w[5] for w in chosen),
        )
    directional = any(marks.get((x, -y)) != mark for (x, y), mark in marks.items())
    return Diagram(radius, marks, tuple(lines), tuple(sorted(lame_paths)), captures, directional)


def _notes(kind: PieceKind, diagram: Diagram, ruleset: Ruleset) -> list[str]:
    notes: list[str] = []
    if kind.royal:
        notes.append("royal: the player's king")
    abilities = kind.abilities
    if "obstacle" in abilities:
        notes.append("neutral; blocks movement; can be captured for no reward")
    if "void" in abilities:
        notes.append("neutral; cannot be entered, crossed or captured")
    if "pillar" in abilities:
        notes.append("blocks movement; placed above rank 0")
    if "spirit" in abilities:
        notes.append("possesses a friendly non-pawn piece by moving onto it")
    if "witch" in abilities:
        notes.append("transparent to her side; makes her neighbours transparent")
    if "dwarf" in abilities:
        notes.append("capturable only when two enemy pieces attack it")
    if "angel" in abilities:
        notes.append("friendly neighbours cannot be captured")
    if "zombie" in abilities:
        notes.append("freezes enemy pieces its move could reach")
    if "time_thief" in abilities:
        notes.append("captures a piece that moved last update by moving to the square it came from")
    if "harpy" in abilities:
        notes.append("picks up a friend; drops it within two updates")
    if "one_time_step" in abilities and kind.once is not None:
        notes.append(f"once in its life: {kind.once.betza} (orange squares)")
    for ability in sorted(abilities - _WORDED, key=_ABILITY_ORDER.get):
        notes.append(_ability_words(ability, kind))
    if not diagram.captures and kind.movement.rays and not any(
            a in abilities for a in ("time_thief",)):
        notes.append("never captures")
    elif not diagram.captures and "time_thief" in abilities:
        notes.append("never captures normally")
    if any(mark.initial and not mark.once for mark in diagram.marks.values()):
        notes.append("orange square: on its first move only")
    if diagram.directional:
        notes.append("forward (+y) is up")
    return notes


#: Abilities whose note is written above (or that the diagram shows): the others get the engine's
#: own sentence (bot/engine/vocabulary.py), so a ruleset's new abilities are explained with no code.
_WORDED = frozenset({"royal", "no_capture", "transparent", "obstacle", "void", "pillar", "spirit", "witch", "dwarf",
                     "angel", "zombie", "time_thief", "harpy", "one_time_step"})
_ABILITY_ORDER = {name: index for index, name in enumerate(ABILITIES)}


def _ability_words(ability: str, kind: PieceKind) -> str:
    """The vocabulary's sentence for an ability, without the kind's own name in its citation:
    "... (Balance, T16)" on the Balance's card reads "... (T16)"."""
    words = ABILITIES.get(ability, ability.replace("_", " "))
    return words.replace(f"({kind.name}, ", "(").replace(f" ({kind.name})", "")


def _never_moves_words(kind: PieceKind) -> str:
    """What the diagram of a kind with no Betza move says: Shadow's jump is its only way to move."""
    return "jumps next to an ally" if kind.has("jump_to_ally") else "never moves"


def _letters(kind: PieceKind) -> str:
    """The letters a player may type: the primary letter and short aliases (not the full name)."""
    spelled = kind.name.replace(" ", "").casefold()
    short_aliases = [a for a in kind.aliases if a.replace(" ", "").casefold() != spelled]
    return ", ".join([kind.letter, *short_aliases])


def _cost_words(ruleset: Ruleset, kind: PieceKind) -> str:
    """"cost 3 health", "value 1 point", "neutral"; empty when no kind of the ruleset has a cost
    (territory's pieces are drafted, not bought)."""
    if kind.has("obstacle") or kind.has("void"):
        return "neutral"
    if all(other.cost == 0 for other in ruleset.pieces.values()):
        return ""
    amount = format_amount(kind.cost)
    currency = ruleset.economy.currency
    if currency == "points":
        return f"value {amount} point" + ("" if kind.cost == 1 else "s")
    return f"cost {amount} {currency}"
