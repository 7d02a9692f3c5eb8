"""The timelapse of a game: each update's frame kept as it resolves, the GIF made after the game ends.

Drawing every frame at the end, inside the transaction that ended the game, held the database's
writer for as long as it took (a minute and a half for 60 frames of 1,000 players) and stalled
every other game. Instead:

- when an update resolves, its frame is drawn off the event loop with the update's other pictures
  (:func:`update_frame`; the board post itself when it shows the same region) and stored in the
  update's transaction, with the box its position shows;
- the transaction that ends a game only records that the game *owes* its timelapse;
- after the commit, :meth:`TimelapseCases.make_timelapse` makes the GIF off the event loop and
  outside any transaction: the common region comes from the stored boxes, a stored frame drawn on
  that region is used as it is, and only the others (the game spread further after they were drawn;
  the start; a moderator's edit) are drawn again. One short transaction then puts the GIF in the
  outbox and marks the debt paid. It is idempotent, and a crash before it ends leaves the debt, which
  :meth:`~.updates.UpdateCases.recover` pays at the next start. The GIF is the one
  :func:`bot.render.paint.timelapse.render_timelapse` makes of the same positions, frame for frame;
- a long game is thinned to a byte budget first (:func:`frames_step`): one position every N
  updates and the last, each frame's label saying "· 1 in N" (Discord takes 10 MB at most).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from bot.engine import serialize
from bot.engine.ruleset import Ruleset
from bot.engine.state import GameState
from bot.render.board import Rendered
from bot.render.paint.timelapse import MAX_BYTES, assemble_timelapse, render_frame
from bot.render.scene.timelapse import Extent, frame_label, region_of, state_extent

from .base import ServiceBase
from .posts import timelapse_body

__all__ = ["TimelapseCases", "Frame", "update_frame", "frame_place", "thinned", "thinned_label", "frames_step",
           "FRAME_BUDGET", "MOST_FRAMES"]

log = logging.getLogger(__name__)

#: The frames' PNG bytes a timelapse may hold before it is thinned. The GIF of frames that weigh
#: more is scaled down until it is under ``MAX_BYTES`` (8 MB, Discord takes 10): up to twice that
#: the boards stay readable; beyond it every position would shrink to a smudge, so positions are
#: left out instead (a megachess game: 480 KB a frame, 21 frames made a 7.4 MB GIF).
FRAME_BUDGET = 2 * MAX_BYTES
#: The most frames in one GIF, however light: a longer GIF is not watched, and each frame costs
#: time to draw and encode (500 updates of a small board otherwise make 501 frames).
MOST_FRAMES = 100


def frames_step(count: int, frame_bytes: int, budget: int | None = None, most: int | None = None) -> int:
    """The smallest step such that every step-th of ``count`` positions (the first, then every
    step-th, and always the last: :func:`thinned`), at ``frame_bytes`` a frame, fit ``budget``
    (default :data:`FRAME_BUDGET`) and number at most ``most`` (default :data:`MOST_FRAMES`)."""
    budget = FRAME_BUDGET if budget is None else budget
    most = MOST_FRAMES if most is None else most
    if count < 1:
        raise ValueError("a timelapse needs at least one position")
    step = 1
    while True:
        shown = len(thinned(count, step))
        if shown <= 2 or (shown <= most and shown * frame_bytes <= budget):
            return step
        step += 1


def thinned_label(label: str, step: int) -> str:
    """A frame's label when the timelapse shows one position every ``step`` updates: said on
    every frame, beside its update ("after update 480 · 1 in 16")."""
    return label if step == 1 else f"{label} · 1 in {step}"


def thinned(count: int, step: int) -> list[int]:
    """The indexes of the positions shown with one frame every ``step`` updates: 0, step, 2 step,
    ..., and the last position always (the game's end)."""
    shown = list(range(0, count, step))
    if shown[-1] != count - 1:
        shown.append(count - 1)
    return shown


@dataclass(frozen=True, slots=True)
class Frame:
    """One position's timelapse frame (a board PNG, without its banner), with what it was drawn for."""

    label: str
    extent: Extent | None
    bounds: list | None
    region: tuple[int, int, int, int] | None
    png: bytes


def _bounds(state: GameState) -> list | None:
    return None if state.board.bounds is None else [list(corner) for corner in state.board.bounds]


def frame_place(state: GameState, earlier: list[Extent | None]) -> tuple[Extent | None, tuple | None]:
    """The box of what ``state`` shows and the region of its frame, on the positions so far
    (``earlier``: their boxes). Finding the box looks at every piece (3-5 ms for 50,000): the update
    works it out before it waits for its pictures, not after (:func:`update_frame`'s ``place``)."""
    extent = state_extent(state)
    return extent, region_of([*earlier, extent], state.board.bounds)


def update_frame(ruleset: Ruleset, state: GameState, earlier: list[Extent | None], board: Rendered,
                 palette: str = "default", place: tuple[Extent | None, tuple | None] | None = None) -> Frame:
    """The frame of ``state`` (the position after an update) on the region of the positions so far
    (``earlier``: their boxes; ``place``: :func:`frame_place` of them, if worked out already). The
    update's board is that very picture when it shows the same region."""
    extent, region = place if place is not None else frame_place(state, earlier)
    if region is not None and tuple(board.layout.region) == tuple(region):
        png = board.png
    else:
        png = render_frame(ruleset, state, region, palette=palette)
    return Frame(frame_label(state), extent, _bounds(state), region, png)


def _same_region(stored, region) -> bool:
    return (stored is None and region is None) or (stored is not None and region is not None
                                                   and tuple(stored) == tuple(region))


class TimelapseCases(ServiceBase):
    def _timelapse_lock(self, game_id: int) -> asyncio.Lock:
        locks = self.__dict__.setdefault("_timelapse_locks", {})
        return locks.setdefault(game_id, asyncio.Lock())

    async def _earlier_extents(self, game_id: int, update_no: int) -> list[Extent | None]:
        """The boxes of the stored frames of the positions before ``update_no`` (current revisions)."""
        async with self.store.snapshot_read() as q:
            keys = await q.snapshot_keys(game_id)
            facts = await q.frame_facts(game_id)
        return [facts[key][1] for key in keys if key in facts and key[0] < update_no]

    async def make_timelapse(self, game_id: int) -> int | None:
        """Make the timelapse an ended game owes and put it in the outbox: its post id, or None when
        nothing was owed (made already, here or by another process). Runs off the event loop and
        outside any transaction but the last, short one; a failure is logged and the debt stays
        (the next start tries again)."""
        try:
            return await self._make_timelapse(game_id)
        except Exception:
            log.exception("the timelapse of game %s could not be made; it is tried again at the next start", game_id)
            return None

    async def _make_timelapse(self, game_id: int) -> int | None:
        async with self._timelapse_lock(game_id):
            async with self.store.snapshot_read() as q:
                game = await q.game(game_id)
                update_no = await q.owed_timelapse(game_id)
                if game is None or update_no is None:
                    return None
                keys = await q.snapshot_keys(game_id)
                facts = await q.frame_facts(game_id)
            if len(keys) < 2:           # nothing happened: no timelapse (as before the first update)
                async with self.store.transaction() as q:
                    await q.timelapse_made(game_id, 0)
                return None
            ruleset, palette = self.ruleset(game), self.settings(game).palette
            states: dict[tuple[int, int], GameState] = {}
            for key in keys:            # positions without a stored frame: the start, a moderator's edit
                if key not in facts:
                    async with self.store.snapshot_read() as q:
                        snapshot = await q.snapshot(game_id, *key)
                    states[key] = await asyncio.to_thread(serialize.loads, snapshot.state)
            extents = [facts[key][1] if key in facts else state_extent(states[key]) for key in keys]
            bounds = next((b for b in (facts[key][2] if key in facts else states[key].board.bounds for key in keys)
                           if b), None)
            region = region_of(extents, bounds)
            step = frames_step(len(keys), await self._frame_bytes(game_id, keys, facts, region))
            chosen = [keys[index] for index in thinned(len(keys), step)]
            labels, pngs = [], []
            for key in chosen:
                if key in facts and _same_region(facts[key][3], region):
                    async with self.store.snapshot_read() as q:
                        png = await q.frame_png(game_id, *key)
                    labels.append(facts[key][0])
                else:
                    state = states.get(key)
                    if state is None:
                        async with self.store.snapshot_read() as q:
                            snapshot = await q.snapshot(game_id, *key)
                        state = await asyncio.to_thread(serialize.loads, snapshot.state)
                    png = await asyncio.to_thread(render_frame, ruleset, state, region, palette=palette)
                    labels.append(frame_label(state))
                pngs.append(png)
            labels = [thinned_label(label, step) for label in labels]
            gif = await asyncio.to_thread(assemble_timelapse, ruleset.title, labels, pngs)
            async with self.store.transaction() as q:
                if await q.owed_timelapse(game_id) is None:
                    return None
                post_id = await self._post(q, game, update_no, "timelapse", timelapse_body(len(keys), step), gif,
                                           "timelapse.gif")
                await q.timelapse_made(game_id, post_id)
            return post_id

    async def _frame_bytes(self, game_id: int, keys: list, facts: dict, region) -> int:
        """What one frame weighs, as its PNG: the heaviest of the first, middle and last stored
        frames drawn on ``region`` (a game's frames share their size, and a game fills up or
        empties as it goes). 0 when none is stored on it: only the frame count then thins."""
        stored = [key for key in keys if key in facts and _same_region(facts[key][3], region)]
        samples = {stored[0], stored[len(stored) // 2], stored[-1]} if stored else set()
        sizes = [0]
        for key in samples:
            async with self.store.snapshot_read() as q:
                sizes.append(len(await q.frame_png(game_id, *key)))
        return max(sizes)
