"""The board's scene: which squares, tints, pieces, states, badges, marks, arrows, labels and legend
entries a board of a region shows. Every choice a player reads is made here (a capturable piece gets
four triangles: :attr:`PieceView.capturable`; a piece in check a red ``+`` badge: :attr:`PieceView.badges`);
the painter (:mod:`bot.render.paint.board`) only lays the scene out at a scale and draws it.

No rule is decided here: the states come from the engine's pieces and position (frozen, Variety's
locked pieces), the marks, kingdoms and fading counters from the variant's board additions.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Iterable

from ...engine.abilities import position_for
from ...engine.model import Piece, Square
from ...engine.ruleset import PieceKind, Ruleset
from ...engine.state import GameState
from ...engine.variants.base import BoardAdditions, Fading, Kingdom, Mark
from ..palette import contrast_edge
from .colours import (BLACK, CAPTURE_ARROW, CHECK_FRESH, CHECK_SPENT, FADING, FADING_LAST, FROM_TINT, HILL_TINT, ICE,
                      ICE_INK, IMPLOSION_TINT, LEGEND_PIECE, LIGHT, MOVE_ARROW, OUTSIDE_DARK,
                      OUTSIDE_LIGHT, RANK0_LABEL, RGB, SPIRIT, TEXT, TO_TINT, TOKEN_DEFAULT, TOKEN_STYLES, VARIETY, WHITE,
                      PlayerColours, blend, square_colour, token_fill)
from .grid import Region
from .kingdoms import KingdomEdge, KingdomTag, kingdoms_view
from .limits import MAX_SIDE, MIN_SCALE
from .region import reaches, state_label
from .territory import area_fills

Move = tuple[Square | None, Square, bool]     # origin (None: arrived without moving), target, captured
LABEL_STEPS = (1, 2, 5, 10)                   # axis labels on every square, or every 2nd, 5th or 10th: the first that fits


@dataclass(frozen=True, slots=True)
class Badge:
    """A small disc on a piece's square: its text, its corner (``top-right``, ``top-left``,
    ``bottom-right``, ``bottom-left`` or ``centre``), the text's colour and the disc's."""

    text: str
    corner: str
    ink: RGB
    back: RGB


@dataclass(frozen=True, slots=True)
class PieceView:
    """One piece as drawn: its sprite (kind, owner's tones, hollow when disabled) and its states.
    ``capturable``: four black triangles pointing at it; ``aura``: an energy pawn's rainbow ring,
    the colour inside it; ``frame``: Variety's frame; ``badges`` in the order drawn (drawn where a
    square has 12 pixels or more)."""

    piece: Piece
    kind: PieceKind
    tones: tuple[RGB, ...]
    hollow: bool
    capturable: bool
    aura: RGB | None
    frame: RGB | None
    badges: tuple[Badge, ...]


@dataclass(frozen=True, slots=True)
class Stack:
    """What stands on one square: one piece whole, or up to four in its quarters (reading order),
    with the count on a ``crowd`` badge when more than four stand there."""

    square: Square
    pieces: tuple[PieceView, ...]
    crowd: Badge | None


@dataclass(frozen=True, slots=True)
class SquareFill:
    """A square painted over the board's colours, in the scene's order: the last
    move's from and to squares, an implosion square (with a ``burst``), King of the Hill's (``star``)."""

    square: Square
    colour: RGB
    symbol: str = ""


@dataclass(frozen=True, slots=True)
class Token:
    """A mark drawn as a token: its kind's ``shape`` (circle, arrow, crown, square) and colours, its
    label (``short`` where the square is too small for it); ``corner``: a small token in the corner
    of a square where a piece stands."""

    mark: Mark
    shape: str
    fill: RGB
    edge: RGB
    ink: RGB
    label: str
    short: str
    corner: bool = False
    hatched: bool = False                    # white hatching: no fill far enough from every player's colour


@dataclass(frozen=True, slots=True)
class Arrow:
    origin: Square
    target: Square
    colour: tuple[int, int, int, int]         # RGBA: the arrows are translucent


@dataclass(frozen=True, slots=True)
class FadingBadge:
    """A fading piece's updates left, at its square's top-left corner."""

    fading: Fading
    text: str
    back: RGB
    ink: RGB


@dataclass(frozen=True, slots=True)
class AxisLabel:
    value: int
    text: str
    ink: RGB
    underline: bool


@dataclass(frozen=True, slots=True)
class LegendEntry:
    """One line of the legend: ``kind`` is heading, player (``sample``: the tones), piece (the kind
    and its fills), mark (its key and the kind it is shown on), token (the :class:`Token`) or text."""

    kind: str
    text: str
    sample: object = None
    fit: bool = False          # the column widens to fit this text (the additions' longer words)


@dataclass(frozen=True)
class BoardScene:
    """Everything a board of ``region`` shows, in the order it is drawn."""

    region: Region
    bounds: object
    title: str                               # the picture's title
    short_title: str                         # the title where the long one does not fit
    caption: str                             # the focus's words ("kingdom of Ann")
    inset: str | None                        # the viewport name of an inset
    columns: tuple[AxisLabel, ...]           # every x, above and below (the painter keeps every LABEL_STEPS-th)
    rows: tuple[AxisLabel, ...]              # every y, left and right
    heavy_columns: tuple[int, ...]           # x whose left edge is a heavier line (every five squares)
    heavy_rows: tuple[int, ...]              # y whose top edge is a heavier line
    rank0: bool                              # rank 0's edges drawn
    fills: tuple[SquareFill, ...]
    kingdom_edges: tuple[KingdomEdge, ...]   # kingdoms are edges only, never a tint (.kingdoms)
    tokens: tuple[Token, ...]                # on empty squares (under the pieces) then in corners (over them)
    highlights: tuple[Square, ...]
    stacks: tuple[Stack, ...]
    arrows: tuple[Arrow, ...]
    crosses: tuple[Square, ...]              # a capture's target: a red cross
    fading: tuple[FadingBadge, ...]
    legend: tuple[LegendEntry, ...]
    kingdoms: tuple[Kingdom, ...]            # the kingdoms reaching into the region
    label_steps: tuple[int, ...] = LABEL_STEPS
    rank_zero: bool = True                   # the variant's rank 0 matters: its squares banded in blue
    kingdom_tags: tuple[KingdomTag, ...] = ()   # each kingdom's owner named on its edge
    fit_preview: bool = False                # laid out for a chat's preview: the painter may put the legend under the board

    @property
    def size(self) -> tuple[int, int]:
        x0, y0, x1, y1 = self.region
        return x1 - x0 + 1, y1 - y0 + 1

    def square_colour(self, x: int, y: int) -> RGB:
        return square_colour(x, y, self.bounds, self.rank_zero)


def fits_board(region: Region) -> bool:
    """Whether ``region`` can be a board at all (squares of :data:`MIN_SCALE` pixels within
    :data:`MAX_SIDE`); a larger one is an overview (or insets)."""
    x0, y0, x1, y1 = region
    return min(MAX_SIDE // max(x1 - x0 + 1, 1), MAX_SIDE // max(y1 - y0 + 1, 1)) >= MIN_SCALE


@dataclass(frozen=True)
class Present:
    """What stands in a region and which pieces and squares carry which mark (by key: ``capturable``,
    ``fresh``, ``frozen``, ``implosion``, ``move``, ...): what the scene and its legend are made from."""

    pieces: dict[Square, tuple[Piece, ...]]
    marks: dict[str, set]

    @classmethod
    def read(cls, ruleset: Ruleset, state: GameState, region: Region, bounds, moves: Iterable[Move],
             highlight: Iterable[Square], additions: BoardAdditions) -> "Present":
        pieces = _pieces_in_region(state, region)
        return cls(pieces, _marks(ruleset, state, region, bounds, moves, highlight, additions, pieces))


def board_scene(ruleset: Ruleset, state: GameState, region: Region, bounds, colours: PlayerColours,
                moves: Iterable[Move], highlight: Iterable[Square] = frozenset(),
                additions: BoardAdditions = BoardAdditions(), caption: str = "", inset: str | None = None,
                legend: tuple[LegendEntry, ...] | None = None) -> BoardScene:
    """The scene of a board of ``region`` (x0, y0, x1, y1, inclusive; :func:`fits_board`). ``moves``:
    the last update's moves; ``highlight``: squares framed in cyan; ``inset``: the viewport name of an
    inset of a board of far-apart areas (titled with it, no legend of its own unless ``legend``)."""
    present = Present.read(ruleset, state, region, bounds, moves, highlight, additions)
    if legend is None:
        legend = legend_entries(ruleset, state, colours, present) if inset is None else ()
    x0, y0, x1, y1 = region
    marks, pieces = present.marks, present.pieces
    rank_zero = additions.rank_zero      # the variant's word: rank 0 is drawn only where a rule names it
    where = f"x {x0}..{x1}, y {y0}..{y1}"
    focus = f" · {caption}" if caption else ""
    title = f"{ruleset.title or ruleset.name} · {state_label(state)} · {where}{focus}"
    short_title = f"{ruleset.name} · {state_label(state)} · {where}{focus}"
    if inset is not None:
        title = short_title = f"{inset} · {where}"
    kingdoms = tuple(sorted(marks.get("kingdom", ()), key=lambda k: (k.owner, k.centre)))
    drawn = kingdoms_view(kingdoms, additions.kingdoms, colours, region, lambda square: bool(state.board.at(square)))
    fills = _area_fills(ruleset, state, additions, colours.palette, region)
    fills += _mark_fills(marks, region, bounds, rank_zero)
    arrows = [(o, t, False) for o, t in marks.get("move", ())] + [(o, t, True) for o, t in marks.get("capture", ())]
    inside = _inside(region)
    tokens = sorted(marks.get("token", ()), key=lambda m: (m.square, m.kind))
    taken = colours.taken() if tokens else ()
    return BoardScene(
        region=region, bounds=bounds, title=title, short_title=short_title, caption=caption, inset=inset,
        columns=tuple(_axis_label(x, rank_zero) for x in range(x0, x1 + 1)),
        rows=tuple(_axis_label(y, rank_zero) for y in range(y0, y1 + 1)),
        heavy_columns=tuple(x for x in range(x0 + 1, x1 + 1) if x % 5 == 0),
        heavy_rows=tuple(y for y in range(y0, y1) if (y + 1) % 5 == 0),
        rank0=rank_zero and y0 <= 0 <= y1, fills=tuple(fills),
        kingdom_edges=drawn.edges, kingdom_tags=drawn.tags,
        tokens=tuple([token(m, taken=taken) for m in tokens if m.square not in pieces]
                     + [token(m, corner=True, taken=taken) for m in tokens if m.square in pieces]),
        highlights=tuple(marks.get("highlight", ())),
        stacks=tuple(_stack(ruleset, square, here, marks, colours, bounds, rank_zero) for square, here in pieces.items()),
        arrows=tuple(Arrow(o, t, CAPTURE_ARROW if c else MOVE_ARROW) for o, t, c in sorted(arrows, key=repr)
                     if o is not None),
        crosses=tuple(target for _, target in marks.get("capture", ()) if inside(target)),
        fading=tuple(fading_badge(f) for f in sorted(marks.get("fading", ()), key=lambda f: f.square)),
        legend=tuple(legend), kingdoms=kingdoms, rank_zero=rank_zero,
        # the variant lays its board out for a chat's preview (arena): the board takes the width
        fit_preview=additions.fit_preview and inset is None)


def _inside(region: Region):
    x0, y0, x1, y1 = region
    return lambda square: x0 <= square[0] <= x1 and y0 <= square[1] <= y1


def _axis_label(value: int, rank_zero: bool = True) -> AxisLabel:
    zero = value == 0 and rank_zero
    return AxisLabel(value, str(value), RANK0_LABEL if zero else TEXT, zero)


# ----------------------------------------------------------------------------- what is where
def _pieces_in_region(state: GameState, region: Region) -> dict[Square, tuple[Piece, ...]]:
    x0, y0, x1, y1 = region
    board = state.board
    result: dict[Square, tuple[Piece, ...]] = {}
    if (x1 - x0 + 1) * (y1 - y0 + 1) <= len(board):
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                here = board.at((x, y))
                if here:
                    result[(x, y)] = here
    else:
        for square in board.squares():
            if x0 <= square[0] <= x1 and y0 <= square[1] <= y1:
                result[square] = board.at(square)
    return result


def _piece_marks(ruleset: Ruleset, state: GameState, pieces: dict[Square, tuple[Piece, ...]],
                 marks: dict[str, set], team_marks: bool = False) -> None:
    """Which pieces (by id) are capturable, in check, disabled, frozen, ...: the engine's answers."""
    zombies = [k.letter for k in ruleset.pieces.values() if k.has("zombie")]
    variety = any(e.name == "Variety" for e in state.events)
    if pieces and (variety or any(state.board.count_of_kind(z) for z in zombies)):
        position = position_for(ruleset, state)
        for here in pieces.values():
            for piece in here:
                if piece.owner is not None and position.frozen(piece):
                    marks["frozen"].add(piece.id)
                if variety and position.locked(piece):
                    marks["variety"].add(piece.id)
    teams = sorted({record.team for record in state.players.values() if record.team}) if team_marks else []
    team_of = {name: teams.index(record.team) for name, record in state.players.items() if record.team in teams}
    for here in pieces.values():
        for piece in here:
            if piece.owner is None:
                continue
            if len(teams) >= 2 and piece.owner in team_of:
                marks[f"team:{teams[team_of[piece.owner]]}"].add(piece.id)
            if piece.energy:
                marks["energy"].add(piece.id)
                marks["capturable"].add(piece.id)
            elif piece.check in ("capturable", "fresh", "spent"):
                marks[piece.check].add(piece.id)
            if piece.disabled:
                marks["disabled"].add(piece.id)
            if piece.spirit:
                marks["spirit"].add(piece.id)
            if piece.carrying:
                marks["cargo"].add(piece.id)


def _marks(ruleset: Ruleset, state: GameState, region: Region, bounds, moves: Iterable[Move],
           highlight: Iterable[Square], additions: BoardAdditions,
           pieces: dict[Square, tuple[Piece, ...]]) -> dict[str, set]:
    """Which pieces (by id) and squares carry which mark."""
    marks: dict[str, set] = defaultdict(set)
    _piece_marks(ruleset, state, pieces, marks, additions.team_marks)
    inside = _inside(region)
    marks["implosion"] = {m.square for m in additions.marks if m.kind == "implosion" and inside(m.square)}
    marks["hill"] = {m.square for m in additions.marks if m.kind == "hill" and inside(m.square)}
    marks["token"] = {m for m in additions.marks if m.kind not in ("implosion", "hill") and inside(m.square)}
    marks["kingdom"] = {k for k in additions.kingdoms if reaches(k, region)}
    marks["fading"] = {f for f in additions.fading if inside(f.square)}
    marks["fading-last"] = {f for f in marks["fading"] if f.left <= 1}
    for origin, target, captured in moves:
        if (origin is not None and inside(origin)) or inside(target):
            marks["capture" if captured else "move"].add((origin, target))
    marks["highlight"] = {sq for sq in highlight if inside(sq)}
    if (additions.rank_zero and region[1] <= 0 <= region[3]
            and square_colour(region[0], 0, bounds) not in (OUTSIDE_DARK, OUTSIDE_LIGHT)):
        marks["rank0"] = {True}
    if bounds is not None:
        (bx0, by0), (bx1, by1) = bounds
        if region[0] < bx0 or region[1] < by0 or region[2] > bx1 or region[3] > by1:
            marks["bounds"] = {True}
    return marks


# ----------------------------------------------------------------------------- squares
def _area_fills(ruleset: Ruleset, state: GameState, additions: BoardAdditions, palette: str,
                region: Region) -> list[SquareFill]:
    """Territory's areas (goal, neutral zone, territories, homes) in its own picture's colours,
    under the marks: the board of a variant with areas, as the web viewer's tiles draw it."""
    if not additions.areas:
        return []
    return [SquareFill(square, colour)
            for square, colour in area_fills(ruleset, state, additions, palette, _inside(region))]


def _mark_fills(marks: dict[str, set], region: Region, bounds, rank_zero: bool = True) -> list[SquareFill]:
    """The last moves' from and to squares (yellow), implosion squares (red, a burst) and King of
    the Hill's (gold, a star), each blended with the square's own colour."""
    inside = _inside(region)

    def over(square: Square, tint, symbol: str = "") -> SquareFill:
        return SquareFill(square, blend(square_colour(*square, bounds, rank_zero), tint), symbol)

    fills = []
    for origin, target in sorted(marks.get("move", set()) | marks.get("capture", set()), key=repr):
        fills += [over(square, tint) for square, tint in ((origin, FROM_TINT), (target, TO_TINT))
                  if square is not None and inside(square)]
    fills += [over(square, IMPLOSION_TINT, "burst") for square in marks.get("implosion", ())]
    fills += [over(square, HILL_TINT, "star") for square in marks.get("hill", ())]
    return fills


# ----------------------------------------------------------------------------- marks and pieces
def token(mark: Mark, corner: bool = False, taken: tuple[RGB, ...] = ()) -> Token:
    """A mark as a token: its kind's shape and colour (a circle for a new piece, an arrow pointing
    up for an upgrade, a crown for king me, a rounded square for any other kind) and its label;
    shapes and labels tell the kinds apart without colour. Its fill is none of the players' colours
    ``taken`` (:func:`~.colours.token_fill`; hatched where every fill is too close to one)."""
    shape, preferred = TOKEN_STYLES.get(mark.kind, TOKEN_DEFAULT)
    fill, hatched = token_fill(preferred, taken)
    label = mark.label or mark.kind[:1].upper()
    return Token(mark, shape, fill, tuple(round(c * 0.45) for c in fill), contrast_edge(fill), label, label[-1:],
                 corner, hatched)


def team_badge(team: str, teams: list[str]) -> Badge:
    """A piece's team on the board (issue 39: the teams were told apart in the legend's words only):
    the team's initial at the bottom-left corner, the first team's (by name) light, the second's dark,
    as megachess's alabaster and brushed metal are "one light and smooth, one dark and shiny"."""
    light = teams.index(team) % 2 == 0 if team in teams else True
    return Badge(team[:1].upper(), "bottom-left", BLACK if light else WHITE, WHITE if light else (60, 60, 70))


def fading_badge(fading: Fading) -> FadingBadge:
    """Amber with the updates left; red for a piece's last update."""
    back = FADING_LAST if fading.left <= 1 else FADING
    return FadingBadge(fading, str(fading.left), back, contrast_edge(back))


def _stack(ruleset: Ruleset, square: Square, here: tuple[Piece, ...], marks: dict[str, set],
           colours: PlayerColours, bounds, rank_zero: bool = True) -> Stack:
    alone = len(here) == 1
    centre = square_colour(*square, bounds, rank_zero) if alone else LIGHT
    shown = tuple(piece_view(ruleset, piece, marks, colours, centre) for piece in here[:4])
    crowd = Badge(f"{len(here)}", "centre", WHITE, BLACK) if len(here) > 4 else None
    return Stack(square, shown, crowd)


def piece_view(ruleset: Ruleset, piece: Piece, marks: dict[str, set], colours: PlayerColours,
               centre: RGB = LIGHT) -> PieceView:
    """A piece with its states: capturable (four triangles; an energy pawn always is, in a rainbow
    aura), disabled (hollow), in check (a red ``+``, grey when spent), possessed (a violet ``S``),
    carried by a harpy (its cargo's letter), frozen (an ice badge), locked by Variety (a frame)."""
    kind = ruleset.pieces.get(piece.kind)
    if kind is None:
        kind = PieceKind(piece.kind, piece.kind, 0, "", None)  # type: ignore[arg-type]
    badges = []
    if piece.check in ("fresh", "spent") and piece.id in marks.get(piece.check, ()):
        badges.append(Badge("+", "top-right", WHITE, CHECK_FRESH if piece.check == "fresh" else CHECK_SPENT))
    if piece.spirit:
        badges.append(Badge("S", "top-left", WHITE, SPIRIT))
    if piece.carrying:
        badges.append(Badge(piece.carrying, "bottom-right", BLACK, WHITE))
    if piece.id in marks.get("frozen", ()):
        badges.append(Badge("\u2744", "bottom-left", ICE_INK, ICE))
    team = next((key[5:] for key, ids in marks.items() if key.startswith("team:") and piece.id in ids), None)
    if team is not None:
        badges.append(team_badge(team, sorted(k[5:] for k in marks if k.startswith("team:"))))
    return PieceView(piece, kind, colours.of(piece.owner), piece.disabled, piece.id in marks.get("capturable", ()),
                     centre if piece.id in marks.get("energy", ()) else None,
                     VARIETY if piece.id in marks.get("variety", ()) else None, tuple(badges))


# ----------------------------------------------------------------------------- the legend
_MARK_WORDS = (
    ("capturable", "capturable"), ("energy", "energy pawn"), ("fresh", "in check (fresh)"),
    ("spent", "in check (spent)"), ("disabled", "disabled (hollow)"), ("frozen", "frozen by a zombie"),
    ("variety", "moved last update (Variety)"), ("spirit", "possessed by a spirit"),
    ("cargo", "carried by a harpy"), ("implosion", "implosion square"), ("hill", "King of the Hill"),
    ("move", "last update's move"), ("capture", "last update's capture"), ("highlight", "highlighted"),
    ("rank0", "rank 0"), ("bounds", "outside the board"),
)


def legend_entries(ruleset: Ruleset, state: GameState, colours: PlayerColours, present: Present) -> list[LegendEntry]:
    """The legend of what ``present`` shows: the players (at most 60 named), the kinds, the marks."""
    owners: Counter = Counter()
    kinds: set[str] = set()
    for here in present.pieces.values():
        for piece in here:
            owners[piece.owner] += 1
            kinds.add(piece.kind)
    marks = present.marks
    items: list[LegendEntry] = []
    players = sorted({o for o in owners if o is not None} | {k.owner for k in marks.get("kingdom", ())})
    if players:
        items.append(LegendEntry("heading", "Players"))
        for name in players[:60]:
            tones = colours.of(name)
            record = state.players.get(name)
            team = f", {record.team}" if record is not None and record.team else ""
            items.append(LegendEntry("player", f"{name} ({colours.names.get(name, '?')}{team})", tones, fit=bool(team)))
        if len(players) > 60:
            items.append(LegendEntry("text", f"... and {len(players) - 60} more"))
        teams = sorted(key[5:] for key in marks if key.startswith("team:"))
        if teams:
            items.append(LegendEntry("text", "team on a piece's foot: " + ", ".join(
                f"{team[:1].upper()} {team}" for team in teams), fit=True))
    if kinds:
        items.append(LegendEntry("heading", "Pieces"))
        for kind in (kind for kind in ruleset.pieces.values() if kind.letter in kinds):     # the table's order
            fills = () if kind.has("obstacle") or kind.has("void") else (LEGEND_PIECE,)
            items.append(LegendEntry("piece", f"{kind.letter}  {kind.name}", (kind, fills)))
    return items + _mark_entries(ruleset, marks, colours.taken())


def _mark_entries(ruleset: Ruleset, marks: dict[str, set], taken: tuple[RGB, ...] = ()) -> list[LegendEntry]:
    radii = sorted({k.radius for k in marks.get("kingdom", ())})
    words = [("kingdom", "kingdom's edge (radius " + " or ".join(map(str, radii)) + "), its owner named on it"),
             ("fading", "fading: updates left"), ("fading-last", "fading: its last update"), *_MARK_WORDS]
    present = [(key, text) for key, text in words if marks.get(key)]
    tokens: dict[tuple[str, str, str], Mark] = {}
    for mark in sorted(marks.get("token", ()), key=lambda m: (m.kind, m.label, m.words, m.square)):
        tokens.setdefault((mark.kind, mark.label, mark.words), mark)
    if not (present or tokens):
        return []
    # a sample piece to show a mark on: the pawn's sprite where the ruleset has one
    pawn = ruleset.pieces.get("P") or next(iter(ruleset.pieces.values()))
    return ([LegendEntry("heading", "Marks")]
            + [LegendEntry("token", mark.words or mark.kind, token(mark, taken=taken), fit=True)
               for mark in tokens.values()]
            + [LegendEntry("mark", text, (key, pawn), fit=key in ("kingdom", "fading", "fading-last"))
               for key, text in present])
