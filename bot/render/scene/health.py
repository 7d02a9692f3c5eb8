"""The health board's scene: what the standings picture says, row by row, with no Pillow.

:func:`health_scene` is a pure function of a :class:`~bot.engine.variants.StandingsPanel` (what the
variant says the standings show: each row's line, character for character, and its note; the events
in force; the next draw; the legend), the players' colours in ``state``, the ruleset's title, the
palette and the player asking. Nothing here knows a rule: no regeneration, event or currency is
worked out here, only which of the panel's words are shown, how they are marked and in which
colours.

A :class:`HealthScene` holds, top to bottom: the title and the subtitle (the update, "orders now" or
"the game is over"), the banner of a finished game (with its trophy when someone won), the columns'
headings (no captured column where the panel has no ``captured_heading``), the entries (each
player's :class:`PlayerRow`, the line standing for rows left out of an
endless game, the players who left, marked), the events with the updates each has left and the next
draw, each team's total with its bar, and the footer's legend and ranking. A row's line is split
A row writes the panel row's ``words``: its ``label`` where the variant gives one (the balance and the
note have columns of their own, so the label leaves them out), else its line; its heading is then
``panel.label_heading``. The row's words are split where a symbol stands that the painter draws as a
picture (:data:`SYMBOLS`: the hearts, the bolt, the trophy); a symbol the line has and the label
leaves out (a neisg heart) is drawn after the balance instead. "No King" is written in red
(``alarm``).

:func:`standings_lines` is the same standings as text, what the image shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from bot.engine.model import amount_in, counted, format_amount, format_square
from bot.engine.standings import Standing
from bot.engine.variants import PanelEvent, PanelRow, StandingsPanel
from bot.engine.variants.base import TeamTotal

# the board's owner -> tones rule, so that a swatch always matches the player's pieces on the board
# (a colour name the palette does not know gets the same spare colour in both images)
from .colours import PlayerColours
from ..palette import PALETTES

__all__ = ["PlayerRow", "GapRow", "OutRow", "EventLine", "TeamLine", "HealthScene", "health_scene", "shown_rows",
           "standings_lines", "split_symbol", "amount_text", "bar_fraction", "event_words", "team_words", "SYMBOLS",
           "OUT_HEADING", "OUT_MARK", "BAR_RGB"]

RGB = tuple[int, int, int]

#: The text standings' line over the players who left the game, and the mark before each.
OUT_HEADING = "Out of the game:"
OUT_MARK = "✗"

#: The symbols the engine writes in a line or a note (bot.engine.standings, the variants), in the
#: order to look for them; they are drawn as pictures, since DejaVu Sans has none of them in colour.
SYMBOLS = ("💖", "❤️", "❤", "⚡", "🏆")
#: The bar's colour by the panel's currency (another currency draws as points)
BAR_RGB = {"health": (214, 40, 70), "energy": (235, 170, 0), "points": (60, 110, 200)}
#: The bar of a player who has lost their king: greyed
NO_KING_BAR_RGB = (150, 120, 125)
#: The words of a board no player has joined yet, and of an events box with no event
NOBODY_YET = "No player has joined yet."
NO_EVENT = "No event is active."
#: The headings of the events box and of the teams box
EVENTS_HEADING = "Active events"
TEAMS_HEADING = "Teams"


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """One player's row. ``line`` is their health board line, exactly (the text standings');
    ``words`` what the row writes of it (the panel row's label, or the line), drawn as ``prefix``
    (the rank and name, bold), ``rest``, the ``symbol``'s picture (None: no symbol) and ``after``;
    ``alarm`` is its end written in red ("No King ..."; empty: none). ``tones``: the swatch's
    colours (both tones of a two-tone colour). The bar fills ``bar_fraction`` of its length in
    ``bar_rgb``; ``balance``, ``captured`` and ``note`` are the columns' texts (``captured``: "" when
    the board has no such column; ``note_alarm``: the note in red); ``balance_symbol``: the line's
    symbol that the words leave out, drawn after the balance (None: none). ``winner``: on the gold of the winners; ``shaded``: a row with a shade (every
    other row); ``caller``: outlined as the player asking."""

    standing: Standing
    line: str
    words: str
    prefix: str
    rest: str
    symbol: str | None
    after: str
    alarm: str
    tones: tuple[RGB, ...]
    bar_fraction: float
    bar_rgb: RGB
    balance: str
    captured: str
    note: str
    note_alarm: bool
    balance_symbol: str | None
    winner: bool
    shaded: bool
    caller: bool


@dataclass(frozen=True, slots=True)
class GapRow:
    """The line standing for the rows an endless game's board leaves out ("⋯ 12 more ⋯")."""

    words: str


@dataclass(frozen=True, slots=True)
class OutRow:
    """A player who left the game: under the rows, marked with :data:`OUT_MARK`, greyed, no bar."""

    name: str
    line: str
    tones: tuple[RGB, ...]


@dataclass(frozen=True, slots=True)
class EventLine:
    """An event in force: its name, its status ("4 updates left (ends in update 23)") and its
    sentence, with the squares it marks."""

    name: str
    started: int
    updates_left: int
    ends_in: int
    status: str
    sentence: str


@dataclass(frozen=True, slots=True)
class TeamLine:
    """A team's total (megachess): its words, and the bar of its points against the leading team's."""

    name: str
    players: int
    points: str
    words: str
    bar_fraction: float
    bar_rgb: RGB


@dataclass(frozen=True, slots=True)
class HealthScene:
    """Everything the health board shows (see the module's docstring)."""

    title: str
    subtitle: str
    result: str                             # the banner of a game that is over ("Bob wins: ..."); "" none
    trophy: bool                            # the banner shows a trophy: somebody won
    headings: tuple[str, str, str, str]     # over the words, the bars, the captured values ("": no such
                                            # column), the notes
    entries: tuple[PlayerRow | GapRow | OutRow, ...]
    empty: str                              # what stands in place of the rows when nobody has joined
    draws_events: bool                      # the game draws events: the events box is shown
    events_heading: str
    events: tuple[EventLine, ...]
    no_event: str                           # the events box's words when no event is in force
    next_draw: str                          # when the next event is drawn (in the events box); "" none
    teams: tuple[TeamLine, ...]
    teams_heading: str
    legend: tuple[tuple[str, str], ...]     # (symbol, words): what the symbols mean
    ranking: str                            # how the rows are ranked
    ranking_short: str                      # the ranking's words where the full ones do not fit a line
    winners: tuple[str, ...]
    caller: str | None
    hidden: int                             # rows not shown (an endless game shows its top rows)

    @property
    def rows(self) -> tuple[PlayerRow, ...]:
        return tuple(entry for entry in self.entries if type(entry) is PlayerRow)

    @property
    def shows_captured(self) -> bool:
        """The board has a captured column (arena's points are the value captured: none)."""
        return bool(self.headings[2])

    def row(self, name: str) -> PlayerRow:
        for row in self.rows:
            if row.standing.name == name:
                return row
        raise KeyError(name)


def split_symbol(text: str) -> tuple[str, str | None, str]:
    """``text`` around the first symbol drawn as a picture: before, the symbol (None), after."""
    for symbol in SYMBOLS:
        at = text.find(symbol)
        if at >= 0:
            return text[:at], symbol, text[at + len(symbol):]
    return text, None, ""


def shown_rows(panel: StandingsPanel, caller: str | None = None) -> tuple[tuple[PanelRow, ...], PanelRow | None, int]:
    """What the standings show of ``panel``: its rows, or for an endless game (``panel.shown``) the
    first ``panel.shown`` rows; then the caller's own row when it is not among them (None
    otherwise); and how many rows are left out."""
    rows = panel.rows
    if panel.shown is None or len(rows) <= panel.shown:
        return rows, None, 0
    top = rows[:panel.shown]
    own = panel.row_of(caller) if caller is not None else None
    if own is not None and own in top:
        own = None
    return top, own, len(rows) - len(top) - (1 if own is not None else 0)


def team_words(team: TeamTotal, currency: str) -> str:
    """A team's total in words: "brushed metal: 1 point · 2 players"."""
    return f"{team.name}: {amount_in(team.points, currency)} · {counted(team.players, 'player')}"


def standings_lines(panel: StandingsPanel, caller: str | None = None) -> list[str]:
    """The standings as text, what the image shows: the panel's heading where its lines leave a
    number unnamed (``panel.text_heading``), the rows shown (for an endless game the top
    ``panel.shown`` and ``caller``'s own row, with how many are left out), each team's total, the
    players who left the game, marked (``panel.out``), and how a finished game ended. Between the
    heading and what follows the rows, exactly ``panel.lines``."""
    top, own, hidden = shown_rows(panel, caller)
    lines = [panel.text_heading] if panel.text_heading and panel.rows else []
    lines += [row.line for row in top]
    if own is not None:
        between = panel.rows.index(own) - len(top)
        if between:
            lines.append(f"... {between} more ...")
        lines.append(own.line)
        after = hidden - between
    else:
        after = hidden
    if after:
        lines.append(f"... and {after} more")
    lines += [team_words(team, panel.currency) for team in panel.teams]
    if panel.out:        # players who left, under the standings rather than missing from them
        lines.append(OUT_HEADING)
        lines += [f"{OUT_MARK} {out.line}" for out in panel.out]
    if panel.result:
        lines.append(f"🏆 {panel.result}" if panel.winners else panel.result)
    return lines


def event_words(event: PanelEvent) -> tuple[str, str]:
    """An event's status ("4 updates left (ends in update 23)") and its sentence, with the squares
    it marks."""
    left = event.left
    status = f"{left} {'update' if left == 1 else 'updates'} left (ends in update {event.ends})"
    sentence = event.sentence
    marked = ", ".join(format_square(square) for square in event.squares)
    if marked:
        sentence = f"{sentence.rstrip('.')}: {marked}."
    return status, sentence[:1].upper() + sentence[1:]


def health_scene(panel: StandingsPanel, state, *, game_title: str, palette: str = "default",
                 caller: str | None = None, over: bool | None = None) -> HealthScene:
    """What the health board of ``state`` shows.

    ``panel``: the variant's ``standings_panel(state)``; ``state``: for the players' colours and the
    update; ``game_title``: the ruleset's title, shown under the panel's title. ``caller``: the
    player asking (``/health``): their row is outlined, and an endless game's board (``panel.shown``)
    shows their row after the top ones when they are not among them. ``over``: the game has ended
    (no "orders now"); by default when the panel has a result or the session's length is played."""
    if palette not in PALETTES:
        raise ValueError(f"unknown palette {palette!r}: choose one of {', '.join(PALETTES)}")
    after = state.update - 1
    if over is None:      # the variant's result, or the session's length played out
        over = bool(panel.result) or (state.length is not None and after >= state.length)
    if after < 1:
        subtitle = f"{game_title} · before update {state.update}"
    elif over:
        subtitle = f"{game_title} · after update {after} · the game is over"
    else:
        subtitle = f"{game_title} · after update {after} · orders now for update {state.update}"
    currency = panel.currency
    entries = _entries(panel, caller, PlayerColours(state, palette))
    if panel.next_event_draw is None or not panel.draws_events:
        next_draw = ""
    elif panel.next_event_draw == state.update:
        next_draw = (f"A new event is drawn at the end of update {panel.next_event_draw} "
                     f"(in force from update {panel.next_event_draw + 1}).")
    else:
        next_draw = (f"Next event drawn in update {panel.next_event_draw} "
                     f"(in force from update {panel.next_event_draw + 1}).")
    lead = max([team.points for team in panel.teams] + [Fraction(1)])
    teams = tuple(TeamLine(team.name, team.players, format_amount(team.points), team_words(team, currency),
                           min(1.0, float(max(Fraction(0), team.points) / lead)) if lead > 0 else 0.0,
                           BAR_RGB.get(currency, BAR_RGB["points"]))
                  for team in panel.teams)
    rows = [entry for entry in entries if type(entry) is PlayerRow]
    return HealthScene(
        title=panel.title, subtitle=subtitle, result=panel.result, trophy=bool(panel.winners),
        headings=(panel.label_heading or panel.line_heading, currency.capitalize(), panel.captured_heading,
                  panel.note_heading),
        entries=tuple(entries), empty="" if panel.rows else NOBODY_YET, draws_events=panel.draws_events,
        events_heading=EVENTS_HEADING, teams_heading=TEAMS_HEADING,
        events=tuple(EventLine(event.name, event.started, event.left, event.ends, *event_words(event))
                     for event in panel.events),
        no_event=NO_EVENT if panel.draws_events and not panel.events else "", next_draw=next_draw, teams=teams,
        legend=tuple(panel.legend), ranking=panel.ranking, ranking_short=panel.ranking_short,
        winners=tuple(row.standing.name for row in rows if row.winner),
        caller=caller if any(row.caller for row in rows) else None, hidden=shown_rows(panel, caller)[2])


def _entries(panel: StandingsPanel, caller: str | None, colours: PlayerColours) -> list[PlayerRow | GapRow | OutRow]:
    """The board's entries in order: the rows shown, the lines standing for the rows left out, the
    players who left."""
    top, own, hidden = shown_rows(panel, caller)
    indices: list[int | str] = list(range(len(top)))
    after = hidden
    if own is not None:
        at = panel.rows.index(own)
        between = at - len(top)
        if between:
            indices.append(f"⋯ {between} more ⋯")
        indices.append(at)
        after = hidden - between
    if after:
        indices.append(f"⋯ and {after} more")
    best = max([row.standing.balance for row in panel.rows] + [Fraction(1)])
    best_numerator, best_denominator = best.numerator, best.denominator
    bar_rgb = BAR_RGB.get(panel.currency, BAR_RGB["points"])
    winners = set(panel.winners)
    captured = bool(panel.captured_heading)
    entries: list[PlayerRow | GapRow | OutRow] = []
    for index in indices:
        if type(index) is str:
            entries.append(GapRow(index))
            continue
        panel_row = panel.rows[index]
        row, line, words = panel_row.standing, panel_row.line, panel_row.words
        before, symbol, after_symbol = split_symbol(words)
        # a heart the label leaves out still says whether the player has a king: after the balance
        balance_symbol = split_symbol(line)[1] if symbol is None and words != line else None
        prefix = f"{row.rank}. {row.name}"
        if not before.startswith(prefix):
            prefix = ""
        if symbol is not None:
            alarm = after_symbol if "No King" in after_symbol else ""
        else:
            alarm = words[words.index("No King"):] if "No King" in before else ""
        entries.append(PlayerRow(
            row, line, words, prefix, before[len(prefix):], symbol, after_symbol, alarm, colours.of(row.name),
            bar_fraction(row.balance, best_numerator, best_denominator), bar_rgb if row.has_king else NO_KING_BAR_RGB,
            amount_text(row.balance), amount_text(row.captured) if captured else "", panel_row.note, panel_row.alarm,
            balance_symbol, row.name in winners,
            index % 2 == 0, caller is not None and row.name == caller))
    entries += [OutRow(out.name, out.line, colours.of(out.name)) for out in panel.out]
    return entries


def amount_text(value: Fraction) -> str:
    """format_amount: a whole Fraction written from its numerator (a Fraction's hash, a copy of it
    and its comparisons are Python code: 3,000 amounts a board)."""
    if type(value) is Fraction and value.denominator == 1:
        return str(value.numerator)
    return format_amount(value)


def bar_fraction(balance: Fraction, best_numerator: int, best_denominator: int) -> float:
    """How much of the bar a balance fills: ``min(1.0, float(balance / best)) if balance > 0 else
    0.0`` for ``best`` (1 or more) = ``best_numerator / best_denominator``, the same float from whole
    numbers (a true division of whole numbers is rounded once, from the exact quotient, as
    ``float()`` of the Fraction is; a Fraction's division and comparison are Python code, 1,000 rows
    a board)."""
    numerator = balance.numerator
    if numerator <= 0:
        return 0.0
    return min(1.0, numerator * best_denominator / (balance.denominator * best_numerator))
