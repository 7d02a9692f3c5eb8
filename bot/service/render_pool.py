"""A large game's health board drawn in another process, while this one prepares the rest of the update.

An update of 1,000 players spent about half a second drawing its health board (1,000 rows of text
and its PNG; now about 80 ms of the worker's CPU, the panel's and the picture's passage included) and as
long again drawing the board, encoding the new state and writing the reports.
In one process these run one after the other, whatever the cores (the interpreter lock); here the
health board goes to a worker process as soon as the engine is done, the rest is made meanwhile,
and the picture is collected last (issue 25). A worker is sent only what the board shows (the
standings panel, the players' colours, the update): a few hundred kilobytes, never the position.

Only a board of :data:`IN_PARALLEL_FROM` rows or more goes to the worker: a smaller one is drawn
in this process, in less time than the worker's round trip. The picture is the same either way,
byte for byte (the same pure function of the same values). If the worker fails (killed, out of
memory, a broken pool), the board is drawn here instead, and the next large update starts a new
worker: an update never loses its health board to the pool.

The worker starts as multiprocessing's forkserver or spawn methods start one: it imports the main
module again, so a script that resolves such a game keeps its work under
``if __name__ == "__main__":`` (as ``python -m bot`` and the benchmarks do).
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import pickle
import sys
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from dataclasses import dataclass

from PIL import Image

from bot.engine.state import GameState
from bot.engine.variants import StandingsPanel
from bot.render.healthboard import health_board_png, keep_pictures

__all__ = ["RenderPool", "HealthBoard", "IN_PARALLEL_FROM"]

log = logging.getLogger(__name__)

#: a health board of this many rows or more is drawn by the worker (1,000 rows: about 80 ms of its CPU)
IN_PARALLEL_FROM = 200


@dataclass(frozen=True, slots=True)
class _Roster:
    """What the health board reads of a state: the players (their colours), the update and the
    session's length. Sent to the worker instead of a state of 50,000 pieces."""

    players: dict
    update: int
    length: int | None


#: Pillow's blocks of 16 MB a worker keeps for its next picture instead of handing them back to
#: the system (the board of 1,000 rows takes three)
KEPT_BLOCKS = 4


def _set_up_worker() -> None:
    """Run in each new worker before anything else: it imports this module, and with it the
    renderer and Pillow, before the first board is asked for; and it keeps each board's picture for
    the next (healthboard.keep_pictures), and Pillow the memory of other pictures. A board of 1,000
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


class RenderPool:
    """One worker process, started when a large game first needs it (:meth:`warm`) and kept."""

    def __init__(self) -> None:
        self._executor: ProcessPoolExecutor | None = None

    def _started(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(max_workers=1, mp_context=_context(), initializer=_set_up_worker)
            self._executor.submit(_warm)
        return self._executor

    def warm(self, players: int) -> None:
        """Start the worker now if a game of ``players`` will need it (while the engine runs, its
        start costs this process nothing)."""
        if players >= IN_PARALLEL_FROM:
            try:
                self._started()
            except Exception as exc:     # no worker here (no processes allowed): drawn in this process
                log.warning("the health board's worker cannot start (%s: %s)", type(exc).__name__, exc)
                self.discard()

    def health_board(self, panel: StandingsPanel, state: GameState, *, game_title: str,
                     palette: str = "default") -> HealthBoard:
        """Start drawing ``panel``'s health board (see :func:`~bot.render.healthboard.render_health_board`): in the worker
        for a large board, else when its PNG is asked for."""
        if len(panel.rows) < IN_PARALLEL_FROM:
            return HealthBoard(panel, state, game_title, palette)
        roster = _Roster(dict(state.players), state.update, state.length)
        try:
            call = pickle.dumps((panel, roster, dict(game_title=game_title, palette=palette)),
                                protocol=pickle.HIGHEST_PROTOCOL)
            future = self._started().submit(_drawn, call)
        except Exception as exc:        # a broken pool refuses new work: draw here, start afresh next time
            log.warning("the health board's worker is unavailable (%s: %s)", type(exc).__name__, exc)
            self.discard()
            return HealthBoard(panel, state, game_title, palette)
        return HealthBoard(panel, roster, game_title, palette, future, self)

    def discard(self) -> None:
        """Let the worker go (a failed one); the next large board starts another."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the worker (the bot shutting down); a later board starts another."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
