"""What the web viewer shows (``bot/web``): every game's resolved updates, read only.

Secrecy: everything here is read from the stored snapshots of resolved updates (their state and
their public report). No order, pending or resolved, no private report and no direct message is
ever read: the viewer cannot show what it never has.

Pictures are tiles (:mod:`bot.render.paint.tiles`) addressed by game, update, revision, zoom and tile: a
revision never changes once written, so a tile's bytes are the same forever and are kept in a
bounded cache; the states behind them are kept for the few updates being looked at.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from dataclasses import dataclass, field

from bot.engine import serialize
from bot.engine.report import Report
from bot.engine.validation import legal_destinations
from bot.render.board import Focus, additions_of, focus_region
from bot.render.scene.health import standings_lines
from bot.render.palette import player_rgb
from bot.render.paint.tiles import Frame, TileIndex, frame_of, tile_png
from bot.render.paint.sprites import legend_entries

from .base import ServiceBase, is_row_number
from .errors import InvalidInput, NotFound

__all__ = ["ViewerCases", "ViewedGame", "ViewedUpdate", "SQUARE_LIMIT"]

#: the largest coordinate the viewer takes (the engine's own limit is far below it)
SQUARE_LIMIT = 10**9
_STATES_KEPT = 3            # updates whose state is kept in memory (a 500,000-piece state is ~150 MB)
_TILES_KEPT = 4096          # tiles kept (at most ~64 MB of PNG)
_SQUARE_IN_TEXT = re.compile(r"\((-?\d+),(-?\d+)\)")


@dataclass(frozen=True, slots=True)
class ViewedGame:
    """A game as the viewer lists it: its latest resolved update (None: not started)."""

    id: int
    name: str
    ruleset: str
    status: str
    update: int | None
    players: int


@dataclass(slots=True)
class ViewedUpdate:
    """One resolved update of a game, as stored (``revision``: the moderators' edits since)."""

    game: ViewedGame
    update: int
    revision: int
    latest: int
    ruleset: object
    state: object
    report: Report | None
    palette: str
    frame: Frame
    last_moves: list
    additions: object
    index: TileIndex
    described: dict | None = field(default=None)


def _last_moves(state, report: Report | None) -> list:
    captured = set()
    if report is not None:
        captured = {tuple(entry.data["at"]) for entry in report.of_type("capture") if "at" in entry.data}
    return [(move.origin, move.target, move.target in captured) for move in state.moved_last_update]


def _number(value, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"{what} is a whole number from {low} to {high}, not {str(value)[:20]!r}")
    return value


@dataclass(slots=True)
class _ViewerMemory:
    """What one web process keeps: the updates last looked at (by game, update, revision), the
    tiles last drawn (by game, update, revision, zoom, column, row) and the loads under way."""

    states: OrderedDict = field(default_factory=OrderedDict)
    tiles: OrderedDict = field(default_factory=OrderedDict)
    loading: dict = field(default_factory=dict)


class ViewerCases(ServiceBase):
    """The viewer's reads. Its caches live on the service (one per web process)."""

    def _viewer_memory(self) -> "_ViewerMemory":
        memory = getattr(self, "_viewer_kept", None)
        if memory is None:      # made on first use: the bot's service without a viewer keeps nothing
            memory = self._viewer_kept = _ViewerMemory()
        return memory

    async def viewer_games(self) -> list[ViewedGame]:
        """Every game of the store with at least one resolved update or start, by id."""
        async with self.store.snapshot_read() as q:
            games = await q.games(statuses=("running", "paused", "ended"))
            counted = [(game, len(await q.players(game.id))) for game in games]
        return [self._viewed(game, players) for game, players in counted if game.snapshot_update is not None]

    def _viewed(self, game, players: int) -> ViewedGame:
        try:
            title = self.variant(game).title
        except NotFound:
            title = game.ruleset
        return ViewedGame(game.id, game.name, title, game.status, game.snapshot_update, players)

    async def viewed_update(self, game_id: int, update_no: int | None = None,
                            revision: int | None = None) -> ViewedUpdate:
        """The game's update ``update_no`` (None: the latest) as the viewer draws it; ``revision``
        names one stored revision (None: the update's current one). NotFound for an unknown game,
        update or revision."""
        if not is_row_number(game_id):
            raise NotFound(f"there is no game {str(game_id)[:20]}")
        states = self._viewer_memory().states
        if revision is not None:            # a revision never changes: kept, it needs no reading
            kept = states.get((game_id, update_no, revision))
            if kept is not None:
                states.move_to_end((game_id, update_no, revision))
                return kept
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            if game.snapshot_update is None:
                raise NotFound(f"game {game.id} has not started: it has no board to show yet")
            latest = game.snapshot_update
            if update_no is None:
                update_no = latest
            if isinstance(update_no, bool) or not isinstance(update_no, int) or not 0 <= update_no <= latest:
                raise NotFound(f"game {game.id} has updates 0 to {latest}, not {str(update_no)[:20]}")
            if revision is None:
                # an update's current revision is its last one: revisions rolled back are older than
                # any made since (asked without reading the state: a 500,000-piece one is 50 MB)
                revision = await q.next_revision(game.id, update_no) - 1
            elif not (is_row_number(revision) or revision == 0):
                raise NotFound(f"update {update_no} of game {game.id} has no revision {str(revision)[:20]}")
            key = (game.id, update_no, revision)
            kept = states.get(key)
            if kept is not None:
                states.move_to_end(key)
                kept.latest = latest
                return kept
            players = len(await q.players(game.id))
        loading = self._viewer_memory().loading
        task = loading.get(key)
        if task is None:        # one load per update however many ask at once
            task = loading[key] = asyncio.ensure_future(self._load_viewed(game, update_no, revision, players))
            task.add_done_callback(lambda _: loading.pop(key, None))
        viewed = await asyncio.shield(task)
        viewed.latest = latest
        return viewed

    async def _load_viewed(self, game, update_no: int, revision: int, players: int) -> ViewedUpdate:
        async with self.store.snapshot_read() as q:
            snapshot = await q.snapshot(game.id, update_no, revision)
            if snapshot is None:
                raise NotFound(f"update {update_no} of game {game.id} has no revision {revision}")
            resolved = await q.resolved_revision(game.id, update_no) or snapshot
        report = None if resolved.report is None else Report.from_json(resolved.report)
        ruleset = self.ruleset(game)
        palette = self.settings(game).palette

        def load():
            state = serialize.loads(snapshot.state)
            index = TileIndex(state, palette)
            index.cells            # made here, with the state, rather than by the first tile of dots
            return state, frame_of(ruleset, state), additions_of(ruleset, state), index

        state, frame, additions, index = await asyncio.to_thread(load)
        viewed = ViewedUpdate(self._viewed(game, players), update_no, revision, game.snapshot_update, ruleset,
                              state, report, palette, frame, _last_moves(state, report), additions, index)
        states = self._viewer_memory().states
        states[(game.id, update_no, revision)] = viewed
        while len(states) > _STATES_KEPT:
            states.popitem(last=False)
        return viewed

    async def viewer_tile(self, game_id: int, update_no: int, revision: int, zoom: int, tx: int, ty: int) -> bytes:
        """One tile's PNG. InvalidInput for a zoom or tile outside the board's; NotFound for an
        unknown game, update or revision. A tile drawn before is answered from the cache without
        reading the store (its address names a revision, which never changes)."""
        cache = self._viewer_memory().tiles
        png = cache.get((game_id, update_no, revision, zoom, tx, ty))
        if png is not None:
            cache.move_to_end((game_id, update_no, revision, zoom, tx, ty))
            return png
        viewed = await self.viewed_update(game_id, update_no, revision)
        frame = viewed.frame
        zoom = _number(zoom, "zoom", 0, frame.max_zoom)
        tiles = frame.tiles(zoom) - 1
        tx, ty = _number(tx, "the tile's column", 0, tiles), _number(ty, "the tile's row", 0, tiles)
        png = await asyncio.to_thread(tile_png, viewed.ruleset, viewed.state, frame=frame, zoom=zoom,
                                      tile=(tx, ty), palette=viewed.palette, last_moves=viewed.last_moves,
                                      additions=viewed.additions, index=viewed.index)
        cache[(game_id, viewed.update, viewed.revision, zoom, tx, ty)] = png
        while len(cache) > _TILES_KEPT:
            cache.popitem(last=False)
        return png

    async def viewer_description(self, game_id: int, update_no: int | None = None) -> dict:
        """What the page shows beside the board, as JSON-ready values: the game, the update, its
        frame, its public report (each line with the squares it names), the standings, the legend
        and the variant's panels (events, marks and power-ups, turn cycle, reserves)."""
        viewed = await self.viewed_update(game_id, update_no)
        if viewed.described is None:
            viewed.described = await asyncio.to_thread(self._describe, viewed)
        return dict(viewed.described, latest=viewed.latest)

    def _describe(self, viewed: ViewedUpdate) -> dict:
        state, ruleset, game = viewed.state, viewed.ruleset, viewed.game
        variant = self.variant_of(ruleset)
        report_lines = []
        if viewed.report is not None:
            for line in viewed.report.text().splitlines():
                squares = [[int(x), int(y)] for x, y in _SQUARE_IN_TEXT.findall(line)][:8]
                report_lines.append({"text": line, "squares": squares})
        panel = variant.standings_panel(state)
        owners: dict[str, int] = {}
        kinds: set[str] = set()
        for piece in state.board:
            if piece.owner is not None:
                owners[piece.owner] = owners.get(piece.owner, 0) + 1
            kinds.add(piece.kind)
        players = []
        for name in sorted(state.players):
            record = state.players[name]
            try:
                tones = player_rgb(record.colour, viewed.palette)
            except ValueError:
                tones = ()
            players.append({"name": name, "colour": record.colour, "team": record.team,
                            "rgb": ["#%02x%02x%02x" % tone for tone in tones], "pieces": owners.get(name, 0)})
        additions = viewed.additions
        panels = []
        if panel.events:
            panels.append({"title": "Events in force", "lines": [f"{e.name}: {e.sentence}" for e in panel.events]})
        tokens = [m for m in additions.marks if m.words]
        if tokens:
            panels.append({"title": "Power-ups and marks",
                           "lines": [f"{m.words} at ({m.square[0]},{m.square[1]})" for m in tokens[:200]]})
        if additions.cycle:
            panels.append({"title": "Turn cycle",
                           "lines": [("> " if slot.current else "") + slot.name
                                     + (f": {slot.player}" if slot.player else ": nobody (skipped)")
                                     for slot in additions.cycle]})
        if additions.holdings:
            panels.append({"title": "Reserves and draft area",
                           "lines": [f"{holding.owner or 'draft area'}: "
                                     + (", ".join(ruleset.kind(k).name for k in holding.kinds) or "empty")
                                     + (f" (at most {holding.limit})" if holding.limit is not None else "")
                                     for holding in additions.holdings]})
        if additions.areas:
            panels.append({"title": "Areas",
                           "lines": [f"{area.name} ({area.kind})"
                                     + (f": held by {area.controller}" if area.controller else "")
                                     for area in additions.areas]})
        return {
            "game": {"id": game.id, "name": game.name, "ruleset": game.ruleset, "status": game.status},
            "update": viewed.update, "revision": viewed.revision,
            "position": "the start" if viewed.update == 0 else f"after update {viewed.update}",
            "frame": viewed.frame.to_json(),
            "report": report_lines,
            "standings": {"title": panel.title, "lines": standings_lines(panel)},
            "legend": {"players": players,
                       "pieces": [{"letter": letter, "name": name} for letter, name in legend_entries(ruleset, kinds)]},
            "panels": panels,
            "last_moves": [{"from": list(a) if a is not None else None, "to": list(b), "capture": c}
                           for a, b, c in viewed.last_moves[:5000]],
        }

    @classmethod
    def variant_of(cls, ruleset):
        from bot.engine.variants import variant_for

        return variant_for(ruleset)

    async def viewer_square(self, game_id: int, update_no: int, x: int, y: int) -> dict:
        """The pieces on (x, y) after the update, each with the squares the engine says it may move
        to from there (``legal_destinations``)."""
        x = _number(x, "x", -SQUARE_LIMIT, SQUARE_LIMIT)
        y = _number(y, "y", -SQUARE_LIMIT, SQUARE_LIMIT)
        viewed = await self.viewed_update(game_id, update_no)

        def read():
            state, ruleset = viewed.state, viewed.ruleset
            here = state.board.at((x, y))
            if not here:
                return []
            position = self.position_for(ruleset, state)
            found = []
            for piece in here:
                kind = ruleset.kind(piece.kind)
                states = [word for word, on in (("capturable", piece.check == "capturable" or piece.energy),
                                                ("in check (fresh)", piece.check == "fresh"),
                                                ("in check (spent)", piece.check == "spent"),
                                                ("disabled", piece.disabled), ("possessed", piece.spirit),
                                                ("carrying", piece.carrying), ("energy", piece.energy)) if on]
                destinations = sorted(legal_destinations(position, piece, state=state)) if piece.owner else []
                found.append({"kind": kind.name, "letter": piece.kind, "owner": piece.owner, "states": states,
                              "destinations": [list(square) for square in destinations]})
            return found

        pieces = await asyncio.to_thread(read)
        return {"square": [x, y], "update": viewed.update, "pieces": pieces}

    async def viewer_search(self, game_id: int, update_no: int, text: str) -> dict:
        """Where ``text`` points: ``x,y`` a square; a player's name their pieces (the region that
        frames them); a team's name its pieces. InvalidInput naming what was not found."""
        text = str(text).strip()[:100]
        match = re.fullmatch(r"\(?\s*(-?\d{1,10})\s*,\s*(-?\d{1,10})\s*\)?", text)
        if match:
            x, y = int(match[1]), int(match[2])
            _number(x, "x", -SQUARE_LIMIT, SQUARE_LIMIT), _number(y, "y", -SQUARE_LIMIT, SQUARE_LIMIT)
            return {"square": [x, y]}
        if not text:
            raise InvalidInput("type a player's name or a square as x,y")
        viewed = await self.viewed_update(game_id, update_no)
        state = viewed.state
        wanted = text.casefold()
        names = [name for name in state.players if name.casefold() == wanted]
        names = names or sorted(name for name in state.players if wanted in name.casefold())
        teams = sorted({p.team for p in state.players.values() if p.team and p.team.casefold() == wanted})
        if teams and not names:
            focus = Focus("team", teams[0])
        elif names:
            focus = Focus("player", names[0])
        else:
            raise InvalidInput(f"no player or team of this game is named {text!r}",
                               hint="type part of a player's name, or a square as x,y")
        bounds = state.board.bounds or viewed.ruleset.bounds_for(len(state.players))
        try:
            region, words = focus_region(state, viewed.additions, focus, bounds)
        except ValueError as exc:
            raise InvalidInput(str(exc)) from None
        x0, y0, x1, y1 = region
        return {"region": [x0, y0, x1, y1], "square": [(x0 + x1) // 2, (y0 + y1) // 2], "found": words}
