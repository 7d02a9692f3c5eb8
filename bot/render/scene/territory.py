"""The territory picture's scene (RULES.md 5.4.1 to 5.4.3, issue 24): what the whole game shows.

:func:`territory_scene` is a pure function of the ruleset, the state, the variant's answers
(``board_additions``: areas, cycle, holdings; the verdict), the turn's report (the last action,
:func:`bot.engine.territory.trace.last_action`) and the palette. It says, top to bottom:

* the **heading**: whose turn it is (the slot and the player; "skipped" when nobody controls the
  territory), or the winner or the draw once the game is over, with the colour of the player it
  names; under it the **caption**, the last action in words (the canonical submission, or
  "skipped", "passed", "missed", "resigned");
* the **board**: its region of squares; each area's tint and, for a controlled territory or goal,
  its frame in the controller's colour (:class:`DrawnArea`); every piece in its owner's tones, two
  on the goal stacked, a Mirror copy marked; the last action's marks (:class:`Arrow`: a move, a
  capture, a swap, a pull, a push, a carry, a Wood's shot, a Leadership's hand-over), the squares
  captured on and the squares placed on;
* the **turn cycle**: each slot's colour, the turn it comes up next and who plays it ("skip":
  nobody controls it), the current slot outlined (none once the game is over);
* **both reserves** and the **draft area** (each kind with its count, the kinds just drawn from the
  bag marked ``new``) and the **bag**'s count;
* the **legend** of the areas (and who controls each territory) and of the marks drawn.

The renderer knows no rule: everything comes from the variant's answers. ``palette="colourblind"``
gives every player and territory colour its colour-blind-safe alternative; the marks use the
Okabe-Ito colours and differ in shape too. Nothing here knows Pillow: the picture is painted by
:mod:`bot.render.paint.territory`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ...engine.model import Piece, Square
from ...engine.report import Report
from ...engine.ruleset import PieceKind, Ruleset
from ...engine.state import GameState
from ...engine.territory.trace import LastAction, last_action as trace_last_action
from ...engine.variants import VariantUnavailable, variant_for
from ...engine.variants.base import Area, BoardAdditions, CycleSlot, Holding, Verdict
from ..palette import NEUTRAL_RGB, PALETTES, colour_names, player_rgb
from .pieces import NOBODYS_TONES

__all__ = ["territory_scene", "has_areas", "area_fills", "area_strength", "AREA_TINT", "TerritoryScene", "DrawnArea", "Arrow", "PieceLook", "SlotLook",
           "HoldingLook", "ChipLook", "LegendItem", "ARROW_STYLES", "AREA_GOAL", "AREA_NEUTRAL", "AREA_TERRITORY",
           "AREA_HOME", "blend", "darker"]

RGB = tuple[int, int, int]

#: The kinds of areas (``Area.kind``, bot/engine/variants/base.py).
AREA_GOAL, AREA_NEUTRAL, AREA_TERRITORY, AREA_HOME = "goal", "neutral", "territory", "home"

#: The goal's gold, the neutral zone's grey, and the squares' light and dark tones under the tints
GOAL_RGB: RGB = (255, 196, 0)
NEUTRAL_AREA_RGB: RGB = (140, 140, 140)
LIGHT_SQUARE: RGB = (246, 243, 236)
DARK_SQUARE: RGB = (226, 220, 207)
GRID_RGB: RGB = (120, 112, 100)

#: The marks of the last action: form -> (colour, the words the legend says). The colours are
#: Okabe and Ito's (colour-blind safe); the shapes differ too (two heads, dashes, dots).
ARROW_STYLES: dict[str, tuple[RGB, str]] = {
    "move": ((0, 114, 178), "move"),
    "capture": ((213, 94, 0), "capture"),
    "swap": ((204, 121, 167), "swap (two heads)"),
    "pull": ((230, 159, 0), "pull"),
    "push": ((230, 159, 0), "push"),
    "carry": ((0, 158, 115), "carry"),
    "shot": ((213, 94, 0), "shot without moving (dashed)"),
    "lead": ((60, 60, 60), "gives the action (dotted)"),
}
PLACED_RGB: RGB = (0, 158, 115)
CAPTURED_RGB: RGB = (213, 94, 0)


#: Area tints: how much of the area's colour covers a light (dark) square, in the posted picture
#: and on the web viewer's tiles (:func:`area_fills`).
AREA_TINT = {AREA_GOAL: (0.75, 0.8), AREA_NEUTRAL: (0.40, 0.45), AREA_TERRITORY: (0.38, 0.48), AREA_HOME: (0.20, 0.28)}


def area_strength(kind: str, light: bool) -> float:
    """How much of an area's tint covers one of its squares, light or dark."""
    return AREA_TINT.get(kind, (0.3, 0.4))[0 if light else 1]


def area_fills(ruleset: Ruleset, state: GameState, additions: BoardAdditions, palette: str,
               inside) -> list[tuple[Square, RGB]]:
    """Each square of an area (``inside`` the picture) in the colour the territory picture paints
    it (its light or dark tone under the area's tint): what a second painter of territory's board,
    the web viewer's tiles, draws under the pieces."""
    fills = []
    for drawn in _SceneMaker(ruleset, state, additions, palette, None, None).drawn_areas():
        for square in drawn.area.squares:
            if inside(square):
                light = (square[0] + square[1]) % 2 != 0
                base = LIGHT_SQUARE if light else DARK_SQUARE
                fills.append((square, blend(base, drawn.tint, area_strength(drawn.area.kind, light))))
    return fills


def blend(base: RGB, colour: RGB, alpha: float) -> RGB:
    return tuple(round(b * (1 - alpha) + c * alpha) for b, c in zip(base, colour))  # type: ignore[return-value]


def darker(colour: RGB, factor: float = 0.6) -> RGB:
    return tuple(round(c * factor) for c in colour)  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class DrawnArea:
    """An area as drawn: its tint and, for a controlled territory or goal, the frame's colour."""

    area: Area
    tint: RGB
    frame: RGB | None


@dataclass(frozen=True, slots=True)
class Arrow:
    """A mark of the last action on the board: ``form`` as in ``ARROW_STYLES`` (``capture`` for a
    move that captured), from ``origin`` to ``target`` (squares), in ``colour``."""

    form: str
    origin: Square
    target: Square
    colour: RGB


@dataclass(frozen=True, slots=True)
class PieceLook:
    """A piece on the board: its kind, its owner's tones, whether it is a Mirror copy (a ``c``), its
    place among the ``stack`` pieces on its square (two on the goal stand side by side)."""

    piece: Piece
    kind: PieceKind
    tones: tuple[RGB, ...]
    copy: bool
    place: int
    stack: int


@dataclass(frozen=True, slots=True)
class SlotLook:
    """A slot of the cycle: its colour; ``turn`` is the next turn that takes it (the current one for
    the current slot); ``words`` the turn and who plays it ("skip": nobody; both empty once the game
    is over); ``outlined``: the current slot; ``muted``: its words greyed (nobody plays it)."""

    slot: CycleSlot
    index: int
    colour: RGB
    turn: int
    outlined: bool
    words: tuple[str, ...]
    muted: bool


@dataclass(frozen=True, slots=True)
class ChipLook:
    """One kind of a holding: its letters, its kind (None: not a kind of the ruleset), how many, the
    words under it ("×2", "new"), ``new`` when just drawn from the bag."""

    kind_letter: str
    kind: PieceKind | None
    count: int
    new: bool
    under: str


@dataclass(frozen=True, slots=True)
class HoldingLook:
    """A reserve (``holding.owner``) or the draft area: its heading, its detail ("reserve 3/7"), the
    tones of its pieces, its owner's swatch (None: the draft area), its chips in canonical order and
    what stands in their place when it holds none ("empty"; "" otherwise)."""

    holding: Holding
    title: str
    detail: str
    tones: tuple[RGB, ...]
    swatch: RGB | None
    chips: tuple[ChipLook, ...]
    empty: str = ""


@dataclass(frozen=True, slots=True)
class LegendItem:
    """A line of the legend: its sample's shape (square, frame, hatch, arrow, cross, plus, copy, or
    piece: the key of a kind's letters, drawn as its words alone, the letters bold), the sample's colour
    (a frame: its tint and its frame's colour; a piece: its kind) and its words."""

    shape: str
    colour: object
    words: str


@dataclass(frozen=True, slots=True)
class TerritoryScene:
    """Everything the territory picture shows (see the module's docstring)."""

    region: tuple[int, int, int, int]
    heading: str
    heading_colour: RGB | None
    caption: str
    areas: tuple[DrawnArea, ...]
    pieces: tuple[PieceLook, ...]
    arrows: tuple[Arrow, ...]
    captures: tuple[Square, ...]
    placed: tuple[Square, ...]
    cycle_title: str                        # "" when the variant has no cycle
    cycle: tuple[SlotLook, ...]
    over: bool
    holdings: tuple[HoldingLook, ...]
    bag: str
    legend: tuple[LegendItem, ...]
    last_action: LastAction | None
    #: the letters every plate is sized to fit: every kind's of the ruleset, so that each label is
    #: written at one size, on the board and in the holdings, from one turn to the next (issue 39:
    #: Moon, Wind, Wood and Shdw were smaller than the rest)
    plate_labels: tuple[str, ...] = ()

    def inside(self, square: Square) -> bool:
        x0, y0, x1, y1 = self.region
        return x0 <= square[0] <= x1 and y0 <= square[1] <= y1


def has_areas(ruleset: Ruleset, state: GameState) -> bool:
    """Whether a game's board is drawn with :func:`~bot.render.paint.territory.render_territory`: its variant's board
    additions name areas (territory); a ruleset no variant plays has none."""
    try:
        return bool(variant_for(ruleset).board_additions(state).areas)
    except VariantUnavailable:
        return False


def territory_scene(ruleset: Ruleset, state: GameState, *, palette: str = "default",
                    last_action: LastAction | None = None, report: Report | None = None,
                    additions: BoardAdditions | None = None) -> TerritoryScene:
    """What the territory picture of ``state`` shows.

    ``last_action`` is the turn to draw over the board (:func:`bot.engine.territory.trace.last_action`);
    given ``report`` instead (the report of the turn that led to ``state``), it is read from there.
    ``additions``: the variant's ``board_additions(state)`` (asked when not given). ``palette`` is
    one of :data:`~bot.render.palette.PALETTES`."""
    if palette not in PALETTES:
        raise ValueError(f"unknown palette {palette!r}: choose one of {', '.join(PALETTES)}")
    variant = variant_for(ruleset)
    if additions is None:
        additions = variant.board_additions(state)
    if not additions.areas:
        raise ValueError(f"{variant.title} has no areas to draw: use render_board")
    if last_action is None and report is not None:
        last_action = trace_last_action(ruleset, report)
    return _SceneMaker(ruleset, state, additions, palette, last_action, variant.verdict(state)).scene()


class _SceneMaker:
    """The scene's choices for one picture: colours by player, territory and slot; the words."""

    def __init__(self, ruleset: Ruleset, state: GameState, additions: BoardAdditions, palette: str,
                 last: LastAction | None, verdict: Verdict) -> None:
        self.ruleset, self.state, self.additions, self.palette = ruleset, state, additions, palette
        self.last, self.verdict = last, verdict
        bounds = state.board.bounds
        if bounds is None:
            squares = [s for area in additions.areas for s in area.squares] + list(state.board.squares())
            bounds = ((min(s[0] for s in squares), min(s[1] for s in squares)),
                      (max(s[0] for s in squares), max(s[1] for s in squares)))
        (x0, y0), (x1, y1) = bounds
        self.region = (x0, y0, x1, y1)
        taken = {p.colour.casefold() for p in state.players.values()} | {a.name.casefold() for a in additions.areas}
        self.spare = [c for c in colour_names() if c.casefold() not in taken]
        self.copies = state.territory.copies if state.territory is not None else frozenset()

    def scene(self) -> TerritoryScene:
        heading, colour = self.heading()
        areas = self.drawn_areas()
        arrows = self.arrows()
        last = self.last
        over = self.verdict.over
        holdings, bag = self.holdings()
        pieces = self.pieces()
        drawn = {look.kind.letter for look in pieces} | {chip.kind_letter for h in holdings for chip in h.chips}
        return TerritoryScene(
            region=self.region, heading=heading, heading_colour=colour, caption=self.caption(), areas=tuple(areas),
            pieces=tuple(pieces), arrows=tuple(arrows),
            captures=tuple(square for square in (last.captures if last is not None else ()) if self.inside(square)),
            placed=tuple(square for _, square in (last.placed if last is not None else ()) if self.inside(square)),
            cycle_title=("Turn cycle: the game is over" if over else "Turn cycle") if self.additions.cycle else "",
            cycle=tuple(self.cycle()), over=over, holdings=tuple(holdings), bag=bag,
            legend=tuple(self.legend(areas, arrows) + self.key(drawn)), last_action=last,
            plate_labels=tuple(kind.letter for kind in self.ruleset.pieces.values()))

    def inside(self, square: Square) -> bool:
        x0, y0, x1, y1 = self.region
        return x0 <= square[0] <= x1 and y0 <= square[1] <= y1

    # ------------------------------------------------------------------ colours
    def player_tones(self, name: str | None) -> tuple[RGB, ...]:
        if name is None or name not in self.state.players:
            return (NEUTRAL_RGB,)
        try:
            return player_rgb(self.state.players[name].colour, self.palette)
        except ValueError:
            return (NEUTRAL_RGB,)

    def player_rgb(self, name: str | None) -> RGB:
        return self.player_tones(name)[0]

    def named_rgb(self, name: str, index: int) -> RGB:
        """A territory's or a slot's colour: the colour of its name when it is one (Green), else a
        colour no player has, by its place in the layout."""
        try:
            return player_rgb(name, self.palette)[0]
        except ValueError:
            spare = self.spare or colour_names()
            return player_rgb(spare[index % len(spare)], self.palette)[0]

    def who(self, name: str | None) -> str:
        """"Ann (Red)"."""
        if name is None:
            return "nobody"
        player = self.state.players.get(name)
        return f"{name} ({player.colour})" if player is not None else name

    def slot_rgb(self, slot: str) -> RGB:
        for index, area in enumerate(self.additions.areas):
            if area.kind == AREA_TERRITORY and area.name == slot:
                return self.named_rgb(area.name, index)
        for name, player in self.state.players.items():
            if player.colour == slot:
                return self.player_rgb(name)
        return self.named_rgb(slot, len(self.additions.areas))

    def is_player_slot(self, name: str) -> bool:
        return any(player.colour == name for player in self.state.players.values())

    # ------------------------------------------------------------------ areas, words, marks
    def drawn_areas(self) -> list[DrawnArea]:
        drawn = []
        for index, area in enumerate(self.additions.areas):
            frame = None
            if area.kind == AREA_GOAL:
                tint = GOAL_RGB
                frame = self.player_rgb(area.controller) if area.controller else None
            elif area.kind == AREA_NEUTRAL:
                tint = NEUTRAL_AREA_RGB
            elif area.kind == AREA_TERRITORY:
                tint = self.named_rgb(area.name, index)
                frame = self.player_rgb(area.controller) if area.controller else None
            elif area.kind == AREA_HOME:
                tint = self.player_rgb(area.owner) if area.owner else NEUTRAL_RGB
            else:
                tint = NEUTRAL_RGB
            drawn.append(DrawnArea(area, tint, frame))
        return drawn

    def heading(self) -> tuple[str, RGB | None]:
        verdict = self.verdict
        if verdict.winners:
            names = " and ".join(self.who(name) for name in verdict.winners)
            reason = f": {verdict.reason}" if verdict.reason else ""
            return f"{names} wins{reason}", self.player_rgb(verdict.winners[0])
        if verdict.drawn:
            return "Drawn" + (f": {verdict.reason}" if verdict.reason else ""), None
        turn = self.state.update
        current = next((slot for slot in self.additions.cycle if slot.current), None)
        if current is None:
            return f"Turn {turn}", None
        if current.player is None:
            return f"Turn {turn}: {current.name}'s turn, skipped (nobody controls {current.name})", None
        if self.is_player_slot(current.name):
            return f"Turn {turn}: {self.who(current.player)} to play", self.player_rgb(current.player)
        return (f"Turn {turn}: {current.name}'s turn, {self.who(current.player)} plays",
                self.player_rgb(current.player))

    def caption(self) -> str:
        last = self.last
        if last is None:
            return "" if self.state.update > 1 else "The game begins: nothing played yet."
        turn = f"Turn {last.turn}"
        if last.outcome == "skipped":
            return f"{turn} ({last.slot}) was skipped: nobody controlled {last.slot}."
        if last.outcome == "missed":
            return f"{turn}: {self.who(last.player)} missed the turn (a pass)."
        if last.outcome == "passed":
            return f"{turn}: {self.who(last.player)} passed."
        if last.outcome == "resigned":
            return f"{turn}: {self.who(last.player)} resigned."
        if last.outcome == "refused":
            return f"{turn}: a submission was refused; the turn is still open."
        if last.outcome == "none":
            return ""
        slot = "" if self.is_player_slot(last.slot) else f" ({last.slot})"
        return f"Last: turn {last.turn}{slot}, {self.who(last.player)}: {last.text}"

    def arrows(self) -> list[Arrow]:
        """The last action's relocations as arrows (a move that captured is a ``capture``)."""
        if self.last is None or self.last.outcome != "played":
            return []
        arrows = []
        for step in self.last.steps:
            form = "capture" if step.form == "move" and step.captured else step.form
            arrows.append(Arrow(form, step.origin, step.target, ARROW_STYLES.get(form, ARROW_STYLES["move"])[0]))
        return arrows

    def pieces(self) -> list[PieceLook]:
        """Every piece on the board's region in its owner's tones, square by square; a Mirror copy
        marked."""
        looks = []
        for square in sorted(self.state.board.squares()):
            if not self.inside(square):
                continue
            here = sorted(self.state.board.at(square), key=lambda p: p.id)
            for place, piece in enumerate(here):
                kind = self.ruleset.pieces.get(piece.kind)
                if kind is not None:
                    looks.append(PieceLook(piece, kind, self.player_tones(piece.owner), piece.id in self.copies,
                                           place, len(here)))
        return looks

    # ------------------------------------------------------------------ the cycle
    def cycle(self) -> list[SlotLook]:
        """Each slot in the slot's colour, with the turn that takes it next and who plays it ("skip":
        nobody controls the territory); the current slot outlined. Once the game is over, no turns
        and no outline."""
        slots = self.additions.cycle
        over = self.verdict.over
        count = len(slots)
        current = next((i for i, slot in enumerate(slots) if slot.current), None)
        looks = []
        for index, slot in enumerate(slots):
            turn = slot.turn          # the variant's: the slots come in turn order, the current one first
            if turn is None:
                turn = self.state.update + (index - current) % count if current is not None else self.state.update + index
            outlined = slot.current and not over
            words = ("", "") if over else (f"T{turn}", "skip" if slot.player is None else slot.player)
            looks.append(SlotLook(slot, index, self.slot_rgb(slot.name), turn, outlined, words,
                                  not (outlined or slot.player)))
        return looks

    # ------------------------------------------------------------------ reserves, draft area, bag
    def holdings(self) -> tuple[list[HoldingLook], str]:
        """Each reserve (its owner, ``n/limit``) and the draft area, the kinds in canonical order
        (5.4.3: the kinds' letters in code-point order) with their counts, the kinds just drawn from
        the bag marked ``new``; the bag's words."""
        fresh = Counter(self.last.refilled) if self.last is not None else Counter()
        bag = self.state.territory.bag if self.state.territory is not None else ()
        bag_words = f"Bag: {len(bag)} piece{'' if len(bag) == 1 else 's'}, hidden"
        looks = []
        for holding in self.additions.holdings:
            counts = Counter(holding.kinds)
            if holding.owner is None:
                title = "Draft area"
                detail = f"{len(holding.kinds)} piece{'' if len(holding.kinds) == 1 else 's'}"
                tones, swatch = NOBODYS_TONES, None
            else:
                title = self.who(holding.owner)
                limit = f"/{holding.limit}" if holding.limit is not None else ""
                detail = f"reserve {len(holding.kinds)}{limit}"
                tones = self.player_tones(holding.owner)
                swatch = tones[0]
            chips = []
            for kind_letter in sorted(counts):
                count = counts[kind_letter]
                new = holding.owner is None and fresh[kind_letter] > 0
                under = " ".join(([f"×{count}"] if count > 1 else []) + (["new"] if new else []))
                chips.append(ChipLook(kind_letter, self.ruleset.pieces.get(kind_letter), count, new, under))
            looks.append(HoldingLook(holding, title, detail, tones, swatch, tuple(chips), "" if chips else "empty"))
        return looks, bag_words

    # ------------------------------------------------------------------ legend
    def key(self, letters: set[str]) -> list[LegendItem]:
        """A line for every kind whose letters are drawn (on the board, in a reserve, in the draft
        area): its sample and "Fre: Freedom", in the ruleset's order, so that a player names every
        piece from the picture alone (issue 39: "Fre" and "Fire" side by side, with no key)."""
        kinds = [kind for kind in self.ruleset.pieces.values() if kind.letter in letters]
        kinds += [PieceKind(letter, letter, 0, "", None)  # type: ignore[arg-type]
                  for letter in sorted(letters - {kind.letter for kind in kinds})]
        return [LegendItem("piece", kind, f"{kind.letter}: {kind.name}") for kind in kinds]

    def legend(self, areas: list[DrawnArea], arrows: list[Arrow]) -> list[LegendItem]:
        """The areas (who controls each territory and the goal), then each form of mark drawn, the
        crosses, the placements and the Mirror copies."""
        items: list[LegendItem] = []
        seen_kinds = set()
        for drawn in areas:
            area = drawn.area
            if area.kind == AREA_GOAL:
                holder = f"controlled by {self.who(area.controller)}" if area.controller else "nobody controls it"
                items.append(LegendItem("square", GOAL_RGB, f"{area.name}: {holder}"))
            elif area.kind == AREA_NEUTRAL:
                items.append(LegendItem("hatch", blend(LIGHT_SQUARE, NEUTRAL_AREA_RGB, 0.45),
                                        f"{area.name}: no placement"))
            elif area.kind == AREA_TERRITORY:
                controller = f"controlled by {self.who(area.controller)}" if area.controller else "nobody controls it"
                items.append(LegendItem("frame", (drawn.tint, drawn.frame), f"{area.name}: {controller}"))
            elif area.kind == AREA_HOME and area.kind + str(area.owner) not in seen_kinds:
                seen_kinds.add(area.kind + str(area.owner))
                owner = f": {area.owner}" if area.owner else ""
                items.append(LegendItem("square", blend(LIGHT_SQUARE, drawn.tint, 0.35), f"{area.name}{owner}"))
        forms = []
        for arrow in arrows:
            if arrow.form not in forms:
                forms.append(arrow.form)
        for form in forms:
            colour, words = ARROW_STYLES[form]
            items.append(LegendItem("arrow", colour, words))
        if self.last is not None and self.last.captures:
            items.append(LegendItem("cross", CAPTURED_RGB, "captured there"))
        if self.last is not None and self.last.placed:
            items.append(LegendItem("plus", PLACED_RGB, "placed from the reserve"))
        if any(piece.id in self.copies for piece in self.state.board):
            items.append(LegendItem("copy", None, "Mirror copy"))
        return items
