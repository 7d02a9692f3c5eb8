"""What players and moderators look at: the board, the health board, their own view, the order
status of an update. Reads only; pictures are drawn off the event loop.

Secrecy: :meth:`ViewCases.order_status` tells who has and has not ordered, never what; a player's
own order is only in :meth:`ViewCases.player_view`, asked for by that player.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime

from bot.engine.model import format_amount
from bot.engine.report import Report, render
from bot.engine.validation import legal_destinations
from bot.render.board import Focus, default_viewports, is_viewport_name
from bot.render.game import drawn_whole, render_game_board
from bot.render.paint.health import render_health_board
from bot.render.paint.pieces import render_piece_sheet
from bot.render.scene.health import standings_lines
from bot.store import Game

from .base import ServiceBase, is_row_number
from .errors import InvalidInput, NotFound
from .moderation import parse_square

__all__ = ["ViewCases", "PlayerView", "Standings", "pending_pieces", "OrderStatus", "Picture", "EventStatus", "ActiveEventView", "MAX_RADIUS"]

MAX_RADIUS = 60


@dataclass(frozen=True, slots=True)
class Picture:
    png: bytes
    filename: str
    caption: str


@dataclass(frozen=True, slots=True)
class PlayerView:
    game: Game
    name: str
    colour: str
    balance: str
    currency: str                   # what the balance counts: health, energy, points
    pieces: int
    has_king: bool
    order: str | None               # the pending canonical order (only ever shown to its owner)
    order_secret: bool
    last_report: str | None         # what happened to them in the last update
    #: pieces they must place this round (arena's new-piece power-ups, D48): ``(letter, name)``
    pending: tuple[tuple[str, str], ...] = ()
    team: str | None = None         # their team, in a game of teams (megachess)


@dataclass(frozen=True, slots=True)
class OrderStatus:
    game: Game
    update_no: int
    ordered: tuple[str, ...]        # names, by name
    waiting: tuple[str, ...]
    locked: bool
    deadline_at: datetime | None

    def text(self) -> str:
        lines = [f"Update {self.update_no} of {self.game.name}: {len(self.ordered)} of "
                 f"{len(self.ordered) + len(self.waiting)} players have ordered"
                 + (" (orders are locked)" if self.locked else "") + "."]
        if self.waiting:
            lines.append("Not yet: " + ", ".join(self.waiting))
        if self.deadline_at:
            lines.append(f"Deadline: {self.deadline_at:%Y-%m-%d %H:%M} UTC")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class ActiveEventView:
    name: str
    effect: str                     # the sentence announcing it (RULES 6)
    started: int                    # drawn at step 8 of this update
    last_update: int                # in force up to and including this update; ends at its step 8


@dataclass(frozen=True, slots=True)
class EventStatus:
    """The events in force for the open update and when the next one is drawn (RULES 6)."""

    game: Game
    update_no: int                  # the open update
    active: tuple[ActiveEventView, ...]
    next_draw: int | None           # the update at whose step 8 the next event is drawn; None: no more
    pool_left: int                  # events of the pool not yet drawn this session
    has_events: bool                # False: the ruleset has no events at all
    marked: tuple[tuple[int, int], ...] = ()    # King of the Hill squares


def pending_pieces(ruleset, player) -> tuple[tuple[str, str], ...]:
    """``(letter, name)`` of the pieces ``player`` (the engine's record) must place this round."""
    return tuple((letter, ruleset.kind(letter).name) for letter in player.pending)


@dataclass(frozen=True, slots=True)
class Standings:
    """The standings as ``/health`` shows them: the text lines (a game without end: the top rows,
    the caller's own row and how many are left out, each team's total), who asked (``caller``,
    None: not a player), their own line and rank (None: not in the standings, e.g. no pieces yet),
    how many players are ranked, and the picture."""

    game: Game
    title: str
    lines: tuple[str, ...]
    caller: str | None
    own: str | None
    rank: int | None
    ranked: int
    picture: Picture


#: what /board's zoom takes, for a refusal's hint
ZOOM_HINT = ("choose a team, a kingdom or a player's pieces as you type, a viewport the board's picture names "
             "(such as B2), or all for the whole board")


class ViewCases(ServiceBase):
    async def board_picture(self, game_id: int, *, center: str | None = None, radius: int | None = None,
                            piece: str | None = None, user_id: int | None = None, focus: str | None = None) -> Picture:
        """The current board; around ``center`` within ``radius``; or one of the caller's pieces
        (``piece``: its square) with its legal destinations framed; or zoomed on ``focus``: a team
        (``team:alabaster``), a player's kingdom (``kingdom:Ada``, the circles of their kings whole),
        a player's pieces (``player:Ada``), a viewport the board's picture names (``B2``, as a
        ``center`` too), or ``all``: the whole board. With none of them, a player (``user_id``) sees
        the area around their own army, and anyone else the whole board (issue 27)."""
        if focus is not None and (center or piece or radius is not None):
            raise InvalidInput("zoom goes alone: it frames a team, a kingdom or a player's pieces by itself",
                               hint="leave out center, radius and piece, or leave out zoom")
        if focus is not None:
            try:
                Focus.parse(focus)
            except ValueError as exc:
                raise InvalidInput(str(exc), hint=ZOOM_HINT) from None
        if radius is not None and (isinstance(radius, bool) or not isinstance(radius, int) or not 1 <= radius <= MAX_RADIUS):
            raise InvalidInput(f"the radius is 1 to {MAX_RADIUS} squares, not {radius!r}")
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            self._require_live_or_ended(game)
            state = await self._working_state(q, game)
            own = (await q.player(game.id, user_id) if user_id is not None and is_row_number(user_id)
                   and focus is None and not center and not piece else None)
        ruleset = self.ruleset(game)
        highlight = None
        if (center and focus is None and radius is None and not piece and is_viewport_name(center)
                and center.strip().upper() in default_viewports(ruleset, state)):
            focus, center = center.strip(), None    # "ask for a viewport such as A1": asked where a square goes
        middle = parse_square(center) if center else None
        caption = f"{game.name}: the board for update {game.update_no}"
        around = (own is not None and own.status == "joined" and state.board.owns(own.name)
                  and not drawn_whole(ruleset, state))
        if around:       # a player's own army: their kingdom, or their pieces, with the area around
            focus = f"kingdom:{own.name}"
        if piece:
            square = parse_square(piece)
            pieces = state.board.at(square)
            if not pieces:
                raise NotFound(f"there is no piece on ({square[0]},{square[1]})")
            chosen = pieces[0]
            position = self.position_for(ruleset, state)
            destinations = legal_destinations(position, chosen, state=state)
            highlight = sorted(destinations)
            middle = middle or square
            caption = (f"{game.name}: the {ruleset.kind(chosen.kind).name} on ({square[0]},{square[1]}) "
                       f"can move to {len(highlight)} squares (framed)")
        palette = self.settings(game).palette
        last = None
        if drawn_whole(ruleset, state):      # territory: drawn whole, with the last turn's action
            async with self.store.snapshot_read() as q:
                snapshot = await q.snapshot(game.id, game.snapshot_update, game.snapshot_revision)
            last = Report.from_json(snapshot.report) if snapshot is not None and snapshot.report else None
            caption = f"{game.name}: the board for turn {game.update_no}"
        try:
            rendered = await asyncio.to_thread(render_game_board, ruleset, state, center=middle,
                                               radius=radius if middle else None, highlight=highlight,
                                               palette=palette, focus=focus, report=last)
        except ValueError as exc:
            if focus is None:
                raise
            raise InvalidInput(str(exc), hint=ZOOM_HINT) from None
        if around:
            caption += f", around your army ({rendered.layout.focus}); zoom:all shows the whole board"
        elif focus is not None and rendered.layout.focus:
            caption += f", zoomed on {rendered.layout.focus}"
        return Picture(rendered.png, "board.png", caption)

    @staticmethod
    def position_for(ruleset, state):
        from bot.engine.abilities import position_for

        return position_for(ruleset, state)

    async def health_board(self, game_id: int, *, user_id: int | None = None) -> tuple[list[str], Picture]:
        """The standings as text lines and as the health board's picture, in the variant's words
        (health, energy, points). ``user_id``: the member asking; a game without end (megachess)
        then shows the top rows (``panel.shown``: 20), the caller's own row wherever it ranks, and
        each team's total (the renderer's ``standings_lines``), with the caller's row outlined."""
        standings = await self.standings(game_id, user_id=user_id)
        return list(standings.lines), standings.picture

    async def standings(self, game_id: int, *, user_id: int | None = None) -> "Standings":
        """:meth:`health_board` with what the caller's own row is (``own``: its line, None when they
        have none)."""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            self._require_live_or_ended(game)
            state = await self._working_state(q, game)
            row = await q.player(game.id, user_id) if user_id is not None and is_row_number(user_id) else None
        caller = row.name if row is not None and row.status == "joined" else None
        variant = self.variant(game)
        panel = variant.standings_panel(state)
        own = panel.row_of(caller) if caller is not None else None
        rendered = await asyncio.to_thread(render_health_board, panel, state, game_title=variant.title,
                                           palette=self.settings(game).palette, caller=caller,
                                           over=True if game.status == "ended" else None)
        return Standings(game, panel.title, tuple(standings_lines(panel, caller)), caller,
                         None if own is None else own.line, own.standing.rank if own is not None else None,
                         len(panel.rows),
                         Picture(rendered.png, "health.png", f"{game.name}: {panel.currency} board"))

    async def zoom_choices(self, game_id: int, typed: str = "", *, user_id: int | None = None,
                           limit: int = 25) -> list[tuple[str, str]]:
        """``(label, value)`` of the parts of the board ``/board zoom`` can frame that match
        ``typed``: the caller's own kingdom first, the whole board (``all``), then each team, each
        player's kingdom (``kingdom:NAME``, their pieces when they have no king) and pieces
        (``player:NAME``), then the viewports the board's picture names (``B2``)."""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            self._require_live_or_ended(game)
            state = await self._snapshot_state(q, game)
            row = await q.player(game.id, user_id) if user_id is not None and is_row_number(user_id) else None
        key = str(typed).strip().casefold()
        choices: list[tuple[str, str]] = []
        names = sorted(name for name in state.players if state.board.owns(name))
        if row is not None and row.name in names:
            choices.append(("my kingdom", f"kingdom:{row.name}"))
            choices.append(("my pieces", f"player:{row.name}"))
        choices.append(("the whole board", "all"))
        teams = sorted({record.team for name, record in state.players.items() if record.team and name in names})
        choices += [(f"team {team}", f"team:{team}") for team in teams]
        for name in names:
            choices.append((f"kingdom of {name}", f"kingdom:{name}"))
            choices.append((f"pieces of {name}", f"player:{name}"))
        if not drawn_whole(self.ruleset(game), state):
            choices += [(f"viewport {name}: x {x0}..{x1}, y {y0}..{y1}", name)
                        for name, (x0, y0, x1, y1) in default_viewports(self.ruleset(game), state).items()]
        return [(label, value) for label, value in choices
                if not key or key in label.casefold() or key in value.casefold()][:limit]

    def rules_summary(self, game: Game) -> str:
        """The /rules text of the game: its variant's summary of the rules as the game plays them,
        and the rulebook's page of the game, where every rule it cites is explained (issue 27)."""
        page = self.rulebook.shown(self.rulebook.ruleset_page(self.ruleset(game).name))
        return f"{self.variant(game).rules_summary()}\nThe full rules: {page}"

    async def piece_kinds(self, game_id: int) -> list[tuple[str, str]]:
        """``(letter, name)`` of every piece of the game's ruleset, in the ruleset's order (what
        ``/mod place`` offers as a moderator types a kind)."""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
        return [(kind.letter, kind.name) for kind in self.ruleset(game).pieces.values()]

    async def piece_sheet(self, game_id: int) -> Picture:
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
        ruleset = self.ruleset(game)
        rendered = await asyncio.to_thread(render_piece_sheet, ruleset)
        return Picture(rendered.png, "pieces.png", f"The pieces of {ruleset.title}")

    async def player_view(self, game_id: int, *, user_id: int) -> PlayerView:
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            row = await self._player(q, game, user_id)
            state = await self._working_state(q, game)
            order = await q.live_order(game.id, game.update_no, user_id)
            last = await q.resolved_revision(game.id, game.snapshot_update) if game.snapshot_update else None
        ruleset = self.ruleset(game)
        player = state.players[row.name]
        pieces = state.board.owned_by(row.name)
        last_report = None
        if last is not None and last.report is not None:
            report = Report.from_json(last.report)
            own = report.concerning(row.name)
            last_report = render(own, row.name, report.update, context=report.context()) if own else None
        return PlayerView(game, row.name, row.colour, format_amount(player.balance),
                          self.variant(game).features.currency, len(pieces),
                          any(ruleset.kind(p.kind).royal for p in pieces),
                          None if order is None else order.canonical, bool(order and order.secret), last_report,
                          pending_pieces(ruleset, player), player.team)

    async def order_status(self, game_id: int) -> OrderStatus:
        """Who has ordered for the open update and who has not (never what they ordered)."""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            players = await q.players(game.id)
            live = {o.user_id for o in await q.live_orders(game.id, game.update_no)}
            may = await self._may_order_now(q, game)
        ordered = tuple(sorted(p.name for p in players if p.user_id in live and p.name in may))
        waiting = tuple(sorted(p.name for p in players if p.user_id not in live and p.name in may))
        return OrderStatus(game, game.update_no, ordered, waiting, game.locked, game.deadline_at)

    async def history_picture(self, game_id: int, update_no: int) -> tuple[Picture, str]:
        """The board after an earlier update and that update's public report."""
        entry = await self.history(game_id, update_no)
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
        ruleset = self.ruleset(game)
        rendered = await asyncio.to_thread(render_game_board, ruleset, entry.state,
                                           palette=self.settings(game).palette, report=entry.report)
        report = entry.report.text() if entry.report else f"Update {update_no}: no report ({entry.reason})."
        return Picture(rendered.png, f"board-{update_no:04d}.png", f"{game.name}: the board after update {update_no}"), report

    async def event_status(self, game_id: int) -> EventStatus:
        """The events in force for the open update and the next scheduled draw (reads only)."""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            self._require_live_or_ended(game)
            state = await self._snapshot_state(q, game)
        variant = self.variant(game)
        active = tuple(ActiveEventView(e.name, e.sentence, e.started, e.ends) for e in variant.events_in_force(state))
        next_draw = variant.next_event_draw(state) if game.status != "ended" else None
        return EventStatus(game, game.update_no, active, next_draw, variant.events_left(state),
                           variant.features.events, tuple(state.marked))

    @staticmethod
    def _require_live_or_ended(game: Game) -> None:
        if game.snapshot_update is None:
            ServiceBase._require_live(game)
