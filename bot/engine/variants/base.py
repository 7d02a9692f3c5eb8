"""The Variant protocol: everything the rest of the program asks about a game's shape.

One variant object per game family, built from a ruleset file (``variant_for(ruleset)``). The
service, the cogs, the renderer and the demo ask it; none of them reads a ruleset's flags or tests
its name. The questions:

- **seating**: how players come in (seats before the start, or joining later by placing a king),
  and :meth:`Variant.set_up`, the position a game starts from;
- **who may order now** (:meth:`Variant.may_order`, :meth:`Variant.who_may_order`) and whether an
  update **may resolve early** (:meth:`Variant.may_resolve_early`);
- the **check** of a submission (:meth:`Variant.check`) and the **resolution** (:meth:`Variant.resolve`);
- the **verdict** (winners, a draw, or none yet) and the **standings**;
- what the **board image adds** (:meth:`Variant.board_additions`) and the standings panel
  (:meth:`Variant.standings_panel`);
- the **/rules summary** (:meth:`Variant.rules_summary`) and the features a game offers.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from fractions import Fraction
from typing import Collection, Iterable, Mapping

from ..abilities import position_for
from ..events import describe_event
from ..model import Piece, Player, Square
from ..movement import DEFAULT_WINDOW, Position
from ..report import Report
from ..ruleset import Ruleset
from ..standings import Standing
from ..state import GameState
from ..validation import OrderCheck, legal_destinations

__all__ = ["Variant", "Verdict", "Seating", "Features", "Mark", "Kingdom", "Fading", "BoardAdditions", "PanelRow",
           "PanelEvent", "PanelOut", "players_out", "TeamTotal", "StandingsPanel", "Area", "CycleSlot", "Holding"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """How a game stands: won (``winners``, several when they share), ``drawn``, or going on."""

    winners: tuple[str, ...] = ()
    drawn: bool = False
    reason: str = ""

    @property
    def over(self) -> bool:
        return bool(self.winners) or self.drawn


@dataclass(frozen=True, slots=True)
class Seating:
    """How players come into a game.

    ``seats_before_start``: players take seats before ``/game start`` (and none after);
    ``joins_by_placement``: a player joins a running game by placing a king (neisg, sandbox);
    ``min_players``/``max_players``: the seats a game needs and takes (None: no limit)."""

    seats_before_start: bool
    joins_by_placement: bool
    min_players: int | None = None
    max_players: int | None = None


@dataclass(frozen=True, slots=True)
class Features:
    """What a game of this variant offers, in the words the bot and the demo need.

    ``currency``: what balances count (health, energy, points); ``secret_orders``: orders may come
    by direct message; ``fallbacks``: ``A else B``; ``generation``: ``+X(x,y)``; ``implosions``:
    collisions make implosion squares; ``events``: the ruleset draws events; ``several_lines``: a
    submission holds several moves; ``pawn``: the letter that promotes; ``royal``: the king's letter;
    ``early_resolution``: the default of the game setting that resolves an update once every player
    who may order has ordered; ``winners``: a game ends with winners (the verdict names them; the
    scenario printout ends with ``# winner = [...]``); ``direct_messages``: orders may be sent by
    direct message (None: exactly when they are secret; territory takes them by DM but posts them,
    having no secrets); ``turn_based``: one player acts at a time and a turn ends at its player's
    first accepted submission, whatever the early-resolution setting (RULES 5.4.8)."""

    currency: str
    secret_orders: bool
    fallbacks: bool
    generation: bool
    resign: bool
    implosions: bool
    events: bool
    several_lines: bool
    pawn: str | None
    royal: str | None
    early_resolution: bool
    winners: bool = False
    direct_messages: bool | None = None
    turn_based: bool = False

    @property
    def takes_direct_messages(self) -> bool:
        return self.secret_orders if self.direct_messages is None else self.direct_messages


@dataclass(frozen=True, slots=True)
class Mark:
    """A marked square on the board image: ``kind`` is ``implosion``, ``hill`` (King of the Hill) or
    an arena power-up's kind (``new``, ``upgrade``, ``king``), ``piece`` the kind a new piece holds.
    ``label``: the few characters drawn on the mark (``+N``); ``words``: what the legend says of it
    (``power-up: new knight``); the renderer draws any kind with a label and words."""

    square: Square
    kind: str
    piece: str | None = None
    label: str = ""
    words: str = ""


@dataclass(frozen=True, slots=True)
class Kingdom:
    """A circle drawn on the board: the kingdom of ``owner``'s king on ``centre`` (megachess, D60).
    A square is inside when ``dx^2 + dy^2 <= radius^2``."""

    owner: str
    team: str | None
    centre: Square
    radius: int

    def holds(self, square: Square) -> bool:
        """Whether ``square`` is inside the kingdom (D60: ``dx^2 + dy^2 <= radius^2``)."""
        dx, dy = square[0] - self.centre[0], square[1] - self.centre[1]
        return dx * dx + dy * dy <= self.radius * self.radius


@dataclass(frozen=True, slots=True)
class Fading:
    """A piece outside its owner's kingdom (megachess, D60): ``left`` is how many more of its team's
    updates it survives standing still outside; it is removed at the end of update ``removed_at``
    unless it moves or comes back."""

    square: Square
    owner: str
    fade: int
    left: int
    removed_at: int


@dataclass(frozen=True, slots=True)
class Area:
    """A named area drawn under the pieces (territory, RULES 5.4.1): ``kind`` is ``goal``,
    ``neutral``, ``territory`` or ``home``; ``controller`` the player who controls it now (goal and
    territories), ``owner`` the player whose home place area it is."""

    name: str
    kind: str
    squares: tuple[Square, ...]
    controller: str | None = None
    owner: str | None = None


@dataclass(frozen=True, slots=True)
class CycleSlot:
    """One slot of a turn cycle beside the board (territory, 5.4.2): ``name`` is a player's colour
    or a territory's; ``current`` is the slot of the turn being played (drawn outlined); ``player``
    who acts in it from the position shown (None: nobody, the turn will be skipped); ``turn`` the
    turn that takes the slot next. A variant lists the slots in turn order, the current one first."""

    name: str
    current: bool = False
    player: str | None = None
    turn: int | None = None


@dataclass(frozen=True, slots=True)
class Holding:
    """Pieces off the board drawn beside it (territory, 5.4.3): a player's reserve (``owner``) or the
    draft area (``owner`` None), kinds in canonical order; ``limit`` the most it may hold."""

    owner: str | None
    kinds: tuple[str, ...]
    limit: int | None = None


@dataclass(frozen=True, slots=True)
class BoardAdditions:
    """What the board image shows besides the pieces."""

    marks: tuple[Mark, ...] = ()
    kingdoms: tuple[Kingdom, ...] = ()
    fading: tuple[Fading, ...] = ()
    areas: tuple[Area, ...] = ()             # territory: the goal, the neutral zone, territories, homes
    cycle: tuple[CycleSlot, ...] = ()        # territory: the turn cycle, the current slot outlined
    holdings: tuple[Holding, ...] = ()       # territory: both reserves and the draft area
    rank_zero: bool = True                   # rank 0 is a line the rules draw: the board bands it
    team_marks: bool = False                 # a piece's team is marked on it (team play is the game)
    fit_preview: bool = False                # the board is laid out for a chat preview: framed close, legend under it


@dataclass(frozen=True, slots=True)
class PanelRow:
    """One line of the standings panel: the standing, its text line and the note after the balance
    (what the balance regenerates by next update); ``alarm`` draws the note in the warning colour.
    ``label`` is the row's words where a picture draws the balance and the note in columns of their
    own (the text line, kept as RULES 4 writes it, says them again: "Health: 38 💖 +0 Regen, No
    King"); empty: the line says nothing the columns do."""

    standing: Standing
    line: str
    note: str
    alarm: bool = False
    label: str = ""

    @property
    def words(self) -> str:
        """What a picture with balance and note columns writes in the row: ``label`` or ``line``."""
        return self.label or self.line


@dataclass(frozen=True, slots=True)
class PanelEvent:
    """An event in force: its name, the update it was drawn in, updates left counting the next one,
    the update it ends in, and the sentence announcing it."""

    name: str
    started: int
    left: int
    ends: int
    sentence: str
    squares: tuple[Square, ...] = ()        # the squares it marks (King of the Hill), shown after the sentence


@dataclass(frozen=True, slots=True)
class PanelOut:
    """A player who has left the game, listed under the standings rather than dropped from them
    (issue 27): their name, colour and how they left, in words (``line``: "Cleo (Scarlet): eliminated
    (D30)")."""

    name: str
    colour: str
    line: str


def players_out(state, words) -> tuple[PanelOut, ...]:
    """The players of ``state`` who are no longer in the game, by name, each with ``words(player)``
    (None: not listed)."""
    out = []
    for name in sorted(state.players):
        player = state.players[name]
        said = words(player) if player.status != "active" else None
        if said:
            out.append(PanelOut(name, player.colour, f"{name} ({player.colour}): {said}"))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class TeamTotal:
    """A team's line under the standings (megachess): its players in the game and their points."""

    name: str
    players: int
    points: Fraction


@dataclass(frozen=True, slots=True)
class StandingsPanel:
    """The standings as the health board shows them (``title``: "Health board", ...)."""

    title: str
    currency: str
    rows: tuple[PanelRow, ...]
    events: tuple[PanelEvent, ...]
    next_event_draw: int | None
    legend: tuple[tuple[str, str], ...]     # (symbol, words)
    ranking: str                            # how rows are ranked, in words
    ranking_short: str = ""                 # the same in fewer words, where ``ranking`` does not fit
    teams: tuple[TeamTotal, ...] = ()       # team games: each team's total
    line_heading: str = "Standing: score --- balance"   # the heading over the lines
    note_heading: str = "Regen"             # the heading over the notes
    draws_events: bool = True               # False: the game draws no events (no events box is drawn)
    winners: tuple[str, ...] = ()           # a game that is over: who won (empty: going on, or drawn)
    result: str = ""                        # a game that is over: how it ended, in words
    shown: int | None = None                # an endless game shows its first ``shown`` rows and the caller's
    out: tuple[PanelOut, ...] = ()          # players who left the game, listed (marked) under the rows
    text_heading: str = ""                  # the text standings' first line, where a number is unnamed
    captured_heading: str = "Captured"      # the heading over ``standing.captured``; empty: no such column
    label_heading: str = ""                 # the heading over the rows' ``words`` (empty: ``line_heading``)

    @property
    def lines(self) -> list[str]:
        return [row.line for row in self.rows]

    def top(self, count: int) -> tuple[PanelRow, ...]:
        """The first ``count`` rows (an endless game shows the top 20 and the caller's own row)."""
        return self.rows[:count]

    def row_of(self, name: str) -> PanelRow | None:
        """The row of the player ``name`` (their rank is ``row.standing.rank``), or None."""
        return next((row for row in self.rows if row.standing.name == name), None)


class Variant(ABC):
    """A game family's answers. Subclasses: :class:`bot.engine.variants.simultaneous.SimultaneousVariant`."""

    #: The family's name, as a ruleset file writes it (``family = "simultaneous"``).
    family: str = ""
    #: Whether rank 0 is a line the rules draw (neisg: pawns are placed below it, pillars above it),
    #: which the board then bands in blue; a family whose rules never name rank 0 says False, and its
    #: ``board_additions`` carries the answer (``BoardAdditions.rank_zero``) to the picture.
    rank_zero_matters: bool = True
    #: Whether the game is played by teams, so that a piece's team is marked on the board (megachess);
    #: carried to the picture as ``BoardAdditions.team_marks``.
    team_play: bool = False
    #: Whether the default board is laid out for a chat's preview (Discord's, about 550 pixels wide):
    #: the occupied area framed with one square of margin instead of two and the legend under the
    #: board instead of beside it, so that the board takes the picture's width. Arena says True: its
    #: armies stand on a circle as wide as the board, whose squares the legend beside it and the
    #: second square of margin made smaller still in a preview (issue 39). Carried to the picture as
    #: ``BoardAdditions.fit_preview``.
    board_for_preview: bool = False

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    @property
    def name(self) -> str:
        return self.ruleset.name

    @property
    def title(self) -> str:
        return self.ruleset.title or self.ruleset.name

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"

    # ------------------------------------------------------------------ seating and set-up
    @property
    @abstractmethod
    def seating(self) -> Seating: ...

    @property
    @abstractmethod
    def features(self) -> Features: ...

    @abstractmethod
    def new_player(self, name: str, colour: str) -> Player:
        """A player record as the variant seats it (its starting balance)."""

    @abstractmethod
    def set_up(self, players: Iterable[Player], seed: int | str, length: int | None = None) -> GameState:
        """The position a game starts from with these players seated (arena: the armies)."""

    # ------------------------------------------------------------------ orders
    @abstractmethod
    def may_order(self, state: GameState, player: str) -> str | None:
        """Why ``player`` may not order for the update ``state.update`` (a sentence), or None."""

    @abstractmethod
    def who_may_order(self, state: GameState) -> list[str]:
        """The players who may order now, by name: reminders and "who has ordered" name only them."""

    def may_resolve_early(self, state: GameState, ordered: Collection[str]) -> bool:
        """Whether the update may resolve before its deadline now that ``ordered`` have ordered
        (asked only where the game's early-resolution setting is on)."""
        waiting = self.who_may_order(state)
        return bool(waiting) and set(waiting) <= set(ordered)

    @abstractmethod
    def check(self, state: GameState, player: str, text: str) -> OrderCheck:
        """Check a submission against the position the player saw; never raises for bad input."""

    @abstractmethod
    def resolve(self, state: GameState, orders: Mapping[str, str | Iterable[str]], seed: int | str
                ) -> tuple[GameState, Report]:
        """The update ``state.update`` with every player's submission: pure and deterministic."""

    def destinations(self, state: GameState, piece: Piece, window: int | None = DEFAULT_WINDOW,
                     position: Position | None = None) -> list[Square]:
        """Sorted squares the check of a submission would accept for a plain move or capture by
        ``piece``, whoever may order now (``python -m bot.engine moves``); within ``window``
        (Chebyshev) on an unbounded board. ``position``: ``state``'s, when the caller has it."""
        if position is None:
            position = position_for(self.ruleset, state)
        return legal_destinations(position, piece, window, state=state)

    def other_orders(self, state: GameState, player: str) -> list[tuple[str, str]]:
        """``(order, words)`` of the orders besides plain moves that ``player`` may send now, each
        one the check accepts (territory: placing a reserve piece, drafting): what autocomplete
        offers next to the moves. None by default."""
        return []

    # ------------------------------------------------------------------ results
    @abstractmethod
    def verdict(self, state: GameState) -> Verdict:
        """Whether the game is won or drawn in ``state``."""

    @abstractmethod
    def standings(self, state: GameState) -> list[Standing]:
        """Every player in the game, ranked."""

    def places(self, state: GameState) -> dict[str, int]:
        """Where each player of a finished game placed (1 is first; equal numbers tie), for ratings:
        the winners share first place (every player still ranked, when drawn); the others follow in
        the order of the standings; players the standings leave out (resigned, eliminated) share
        the last place. Empty while the game goes on (the verdict is not over)."""
        verdict = self.verdict(state)
        if not verdict.over:
            return {}
        ranked = [standing.name for standing in self.standings(state)]
        first = set(verdict.winners) if verdict.winners else set(ranked)
        places = {name: 1 for name in ranked if name in first}
        for name in ranked:
            if name not in places:
                places[name] = len(places) + 1
        for name in verdict.winners:            # a winner the standings do not list still won
            places.setdefault(name, 1)
        last = len(places) + 1
        for name in sorted(state.players):
            places.setdefault(name, last)
        return places

    def standing_lines(self, state: GameState) -> list[str]:
        """The standings as text lines, one a player (the health board's text)."""
        return self.standings_panel(state).lines

    @abstractmethod
    def standings_panel(self, state: GameState) -> StandingsPanel:
        """The standings with what the health board shows beside them."""

    @abstractmethod
    def board_additions(self, state: GameState) -> BoardAdditions:
        """What the board image shows besides the pieces."""

    def brief_report(self, report: Report) -> str | None:
        """The one line that stands for an update where nothing happened (a skipped turn), posted
        instead of the board and the standings; None: the update is posted in full."""
        return None

    @abstractmethod
    def rules_summary(self) -> str:
        """A short summary of the rules for players (/rules), in Discord Markdown."""

    # ------------------------------------------------------------------ events (RULES 6)
    # A variant whose games draw no events keeps these answers (``features.events`` is False).
    @property
    def first_event(self) -> int | None:
        """The update at whose end the first event is drawn, or None: no event is ever drawn."""
        return None

    def event_draws(self, length: int) -> list[int]:
        """The updates of a game of ``length`` updates at whose end an event is drawn."""
        return []

    def events_in_force(self, state: GameState) -> tuple[PanelEvent, ...]:
        """The events in force for the update ``state.update`` or drawn for the ones after it."""
        return ()

    def next_event_draw(self, state: GameState) -> int | None:
        """The update at whose end the next event is drawn, or None when no more will be."""
        return None

    def events_left(self, state: GameState) -> int:
        """How many events of the ruleset's pool have not been drawn yet this session."""
        return 0

    def describe_event(self, name: str) -> str:
        """The sentence announcing the event ``name`` in this game's words (its currency, ...)."""
        return describe_event(self.ruleset, name)
