"""A large game's pictures drawn in other processes, while this one prepares the rest of the update.

An update of 1,000 players spent about half a second drawing its health board (1,000 rows of text
and its PNG; now about 80 ms of the worker's CPU, the panel's and the picture's passage included) and as
long again drawing the board, encoding the new state and writing the reports.
In one process these run one after the other, whatever the cores (the interpreter lock); here the
health board goes to a worker process as soon as the engine is done, the overview of a board of
many pieces to another, the rest is made meanwhile, and the pictures are collected last (issue 25).
A worker is sent only what its picture shows, never the position: the health board's the
standings panel, the players' colours and the update (a few hundred kilobytes); the overview's an
:class:`~bot.render.board.Overview`, each piece's x, y and owner as arrays of numbers with the grid,
the colours and the texts (about 0.65 MB for 50,000 pieces, packed in 2 ms, where the pieces
themselves would take a quarter of a second to pickle).

Only a health board of :data:`IN_PARALLEL_FROM` rows or more, and an overview of
:data:`OVERVIEW_IN_PARALLEL_FROM` pieces or more, go to a worker: a smaller one is drawn in this
process, in less time than the worker's round trip (so a small game never starts a worker). Each
picture is the same either way, byte for byte (the same pure function of the same values). If a
worker fails (killed, out of memory, a broken pool), its picture is drawn here instead, and the next
large update starts a new worker: an update never loses a picture to the pool.

The two workers draw at once (the health board of 1,000 rows and the overview of 50,000 pieces take
about 85 and 55 ms of CPU; one worker drawing both in turn would end after this process). They
start as multiprocessing's forkserver or spawn methods start one: each imports the main module
again, so a script that resolves such a game keeps its work under ``if __name__ == "__main__":`` (as
``python -m bot`` and the benchmarks do).
"""

from __future__ import annotations

import gc
import io
import logging
import multiprocessing
import pickle
import sys
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from dataclasses import dataclass, fields
from fractions import Fraction
from operator import attrgetter

from PIL import Image

from bot.engine.model import Player
from bot.engine.ruleset import Ruleset
from bot.engine.standings import Standing
from bot.engine.state import GameState
from bot.engine.variants import StandingsPanel
from bot.engine.variants.base import PanelEvent, PanelOut, PanelRow, TeamTotal
from bot.render.board import Overview, Painted, Rendered, plan_board
from bot.render.paint.overview import paint_overview
from bot.render.paint.health import health_board_png, keep_pictures

__all__ = ["RenderPool", "HealthBoard", "BoardPicture", "IN_PARALLEL_FROM", "OVERVIEW_IN_PARALLEL_FROM"]

log = logging.getLogger(__name__)

#: a health board of this many rows or more is drawn by the worker (1,000 rows: about 80 ms of its CPU)
IN_PARALLEL_FROM = 200
#: an overview of this many pieces or more is drawn by the other worker (50,000 pieces: about 65 ms
#: of its CPU, the PNG included). A smaller game's update has little else to draw or encode while
#: its overview is drawn (100 players / 5,000 pieces: the state and the texts take a few ms), so
#: the overview would end last either way, after the round trip.
OVERVIEW_IN_PARALLEL_FROM = 10_000


@dataclass(frozen=True, slots=True)
class _Roster:
    """What the health board reads of a state: the players (their colours), the update and the
    session's length. Sent to the worker instead of a state of 50,000 pieces."""

    players: dict
    update: int
    length: int | None


def _values_of(cls) -> attrgetter:
    """A function giving an instance's fields' values, in the order of ``cls``'s constructor."""
    names = [field.name for field in fields(cls)]
    assert all(field.init for field in fields(cls)) and len(names) > 1, cls
    return attrgetter(*names)


#: the classes of what the health board's worker is sent, each pickled as its class and its
#: fields' values (made again by its constructor; see _CallPickler)
_SENT = {cls: _values_of(cls) for cls in (StandingsPanel, PanelRow, Standing, PanelEvent, PanelOut, TeamTotal, Player)}


class _CallPickler(pickle.Pickler):
    """Pickles the health board's call as pickle does, but the panel's and the players' dataclasses as
    their class and their fields' values, and a whole Fraction as its numerator: pickle's own way
    for a dataclass with slots looks its fields up again for every object, and a Fraction is
    written as text and parsed back. 1,000 rows: 1.6 ms instead of 4.5 here (before the worker can
    begin), 2.1 ms instead of 4.5 in the worker. The same values come out."""

    def reducer_override(self, obj):
        cls = type(obj)
        values = _SENT.get(cls)
        if values is not None:
            return cls, values(obj)
        if cls is Fraction:
            return (Fraction, (obj.numerator,) if obj.denominator == 1 else (obj.numerator, obj.denominator))
        return NotImplemented


def _pickled(call: tuple) -> bytes:
    buffer = io.BytesIO()
    _CallPickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(call)
    return buffer.getvalue()


#: Pillow's blocks of 16 MB a worker keeps for its next picture instead of handing them back to
#: the system (the board of 1,000 rows takes three)
KEPT_BLOCKS = 4


def _set_up_worker() -> None:
    """Run in each new worker before anything else: it imports this module, and with it the
    renderer and Pillow, before the first board is asked for; and it keeps each board's picture for
    the next (bot.render.paint.health.keep_pictures), and Pillow the memory of other pictures. A board of 1,000
    rows is 49 MB of pixels: memory fresh from the system costs a page fault every 4 KB, 15-20 ms of
    each board, where the kept picture is filled in 1-2 ms (Pillow's kept blocks alone did not
    last: the small pictures drawn meanwhile, new words, the PNG's bands, take and shrink them).
    The worker then stays at its peak, about 100 MiB, between updates instead of going back to
    about 50 MiB."""
    Image.core.set_blocks_max(KEPT_BLOCKS)
    keep_pictures()
    gc.freeze()       # the modules' objects, here for good: never walked again by a full collection


def _drawn(call: bytes) -> bytes:
    """Run in the worker: the PNG of the board whose arguments ``call`` holds, pickled. Only the
    picture goes back (update_posts posts it; nothing reads the layout of this board: a /health
    board is drawn where it is asked for): 1,000 rows' layout pickled and read back cost 8-10 ms.
    The collector is paused meanwhile, the arguments read within the pause: reading the panel and
    drawing make tens of thousands of objects, freed as they go, and the collections they set off
    (a full one every few boards) cost 3-15 ms of each board; what is left is collected after."""
    gc.disable()
    try:
        panel, roster, options = pickle.loads(call)
        return health_board_png(panel, roster, **options)
    finally:
        gc.enable()


def _set_up_overview_worker() -> None:
    """Run in the overview's worker before anything else: it imports the renderer and Pillow, and
    Pillow keeps the memory of one overview for the next (about 30 MiB of pixels for 50,000 pieces)."""
    Image.core.set_blocks_max(KEPT_BLOCKS)
    gc.freeze()


def _overview_drawn(call: bytes) -> Rendered:
    """Run in the overview's worker: the board of the :class:`~bot.render.board.Overview` packed in
    ``call``, drawn and written as a PNG (its layout goes back with it: the timelapse frame reads its
    region). With the collector paused, as :func:`_drawn`."""
    gc.disable()
    try:
        return paint_overview(Overview.unpack(call)).encode()
    finally:
        gc.enable()


def _warm() -> None:
    """Run first in a new worker, so that it starts (and sets itself up) before the first board."""


def _context():
    # forkserver: the worker starts from a clean server process, not as a copy of this one, whose
    # other threads (the event loop, the database's) might hold locks at the moment of a fork
    method = "forkserver" if sys.platform.startswith("linux") else "spawn"
    return multiprocessing.get_context(method)


class HealthBoard:
    """A health board on its way: the panel it shows, and its picture (:meth:`png`)."""

    def __init__(self, panel: StandingsPanel, state: GameState | _Roster, game_title: str, palette: str,
                 future: Future | None = None, pool: "RenderPool | None" = None) -> None:
        self.panel = panel
        self._state, self._title, self._palette = state, game_title, palette
        self._future, self._pool = future, pool

    def png(self) -> bytes:
        """The picture's PNG: the worker's, or drawn here (a small board, or the worker failed)."""
        if self._future is not None:
            try:
                return self._future.result()
            except Exception as exc:      # the worker died, the pool broke, or the drawing failed there
                log.warning("the health board's worker failed (%s: %s); drawing it in this process",
                            type(exc).__name__, exc)
                if isinstance(exc, BrokenExecutor) and self._pool is not None:
                    self._pool.discard()
        return health_board_png(self.panel, self._state, game_title=self._title, palette=self._palette)


class BoardPicture:
    """The update's board on its way: drawn already, or an overview its worker is drawing
    (:meth:`result`)."""

    def __init__(self, rendered: Rendered | None = None, overview: Overview | None = None,
                 future: Future | None = None, pool: "RenderPool | None" = None) -> None:
        self._rendered, self._overview, self._future, self._pool = rendered, overview, future, pool

    def result(self) -> Rendered:
        """The board's PNG and layout: the worker's, or drawn here (the worker failed)."""
        if self._rendered is None:
            try:
                self._rendered = self._future.result()
            except Exception as exc:      # the worker died, the pool broke, or the drawing failed there
                log.warning("the overview's worker failed (%s: %s); drawing it in this process",
                            type(exc).__name__, exc)
                if isinstance(exc, BrokenExecutor) and self._pool is not None:
                    self._pool.discard("overview")
                self._rendered = paint_overview(self._overview).encode()
        return self._rendered


#: the workers by what they draw: the attribute of :class:`RenderPool` holding each one's
#: executor, and the function each runs first
_WORKERS = {"health": ("_executor", _set_up_worker), "overview": ("_overview_executor", _set_up_overview_worker)}


class RenderPool:
    """Two worker processes, one for health boards, one for overviews, each started when a large
    game first needs it (:meth:`warm`) and kept: an update's two pictures are drawn at once."""

    def __init__(self) -> None:
        self._executor: ProcessPoolExecutor | None = None
        self._overview_executor: ProcessPoolExecutor | None = None

    def _started(self, worker: str = "health") -> ProcessPoolExecutor:
        name, set_up = _WORKERS[worker]
        executor = getattr(self, name)
        if executor is None:
            executor = ProcessPoolExecutor(max_workers=1, mp_context=_context(), initializer=set_up)
            setattr(self, name, executor)
            executor.submit(_warm)
        return executor

    def warm(self, players: int, pieces: int = 0) -> None:
        """Start the workers now that a game of ``players`` and ``pieces`` will need (while the
        engine runs, their start costs this process nothing)."""
        wanted = {"health": players >= IN_PARALLEL_FROM, "overview": pieces >= OVERVIEW_IN_PARALLEL_FROM}
        for worker in _WORKERS:
            if wanted[worker]:
                try:
                    self._started(worker)
                except Exception as exc:     # no worker here (no processes allowed): drawn in this process
                    log.warning("the %s worker cannot start (%s: %s)", worker, type(exc).__name__, exc)
                    self.discard(worker)

    def health_board(self, panel: StandingsPanel, state: GameState, *, game_title: str,
                     palette: str = "default") -> HealthBoard:
        """Start drawing ``panel``'s health board (see :func:`~bot.render.paint.health.render_health_board`): in the worker
        for a large board, else when its PNG is asked for."""
        if len(panel.rows) < IN_PARALLEL_FROM:
            return HealthBoard(panel, state, game_title, palette)
        roster = _Roster(dict(state.players), state.update, state.length)
        try:
            call = _pickled((panel, roster, dict(game_title=game_title, palette=palette)))
            future = self._started().submit(_drawn, call)
        except Exception as exc:        # a broken pool refuses new work: draw here, start afresh next time
            log.warning("the health board's worker is unavailable (%s: %s)", type(exc).__name__, exc)
            self.discard()
            return HealthBoard(panel, state, game_title, palette)
        return HealthBoard(panel, roster, game_title, palette, future, self)

    def board(self, ruleset: Ruleset, state: GameState, *, palette: str = "default") -> BoardPicture:
        """Start drawing ``state``'s board (:func:`~bot.render.board.paint_board`'s picture of the
        whole board): an overview of many pieces in its worker, sent only what the overview shows
        (:class:`~bot.render.board.Overview`, packed), any other board drawn and written here at once."""
        planned = plan_board(ruleset, state, palette=palette)
        if isinstance(planned, Painted):
            return BoardPicture(planned.encode())
        if planned.count < OVERVIEW_IN_PARALLEL_FROM:
            return BoardPicture(paint_overview(planned).encode())
        try:
            call = planned.pack()
        except OverflowError:           # coordinates beyond 64 bits: no array holds them, drawn here
            return BoardPicture(paint_overview(planned).encode())
        try:
            future = self._started("overview").submit(_overview_drawn, call)
        except Exception as exc:        # a broken pool refuses new work: draw here, start afresh next time
            log.warning("the overview's worker is unavailable (%s: %s)", type(exc).__name__, exc)
            self.discard("overview")
            return BoardPicture(paint_overview(planned).encode())
        return BoardPicture(None, planned, future, self)

    def discard(self, worker: str = "health") -> None:
        """Let a worker go (a failed one); the next large picture of its kind starts another."""
        name = _WORKERS[worker][0]
        executor = getattr(self, name)
        setattr(self, name, None)
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers (the bot shutting down); a later picture starts another."""
        for name, _ in _WORKERS.values():
            executor = getattr(self, name)
            setattr(self, name, None)
            if executor is not None:
                executor.shutdown(wait=True, cancel_futures=True)
