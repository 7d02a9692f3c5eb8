"""The timelapse's scene: which squares every frame shows and what each frame's banner says.

Every frame shows the same region of the board (the union of the squares occupied in any of the
states, with a margin, unless the caller gives one), so pieces move across a still board instead of
the board jumping around. A state is the position between two updates (``state.update`` is the
next update to resolve), so its frame reads "after update N" with ``N = state.update - 1``.

The work comes apart for a game that is still being played: :func:`state_extent` and
:func:`region_of` give the common region from each state's occupied box (kept per update, so the
states need not be loaded again); :func:`banners` says what each frame's banner reads. The frames
are painted by :mod:`bot.render.paint.timelapse`. Nothing here knows Pillow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .region import framed_region, state_label

__all__ = ["Banner", "banners", "timelapse_region", "frame_label", "state_extent", "region_of", "Extent", "MARGIN"]

#: the box ``(x0, y0, x1, y1)`` of what a state shows (pieces, implosion squares, marked squares)
Extent = tuple[int, int, int, int]

#: squares of margin around what the states show
MARGIN = 2


@dataclass(frozen=True, slots=True)
class Banner:
    """A frame's banner: ``heading`` on the left (the update, capitalised, with what the label adds:
    "After update 480 · 1 in 16" for a long game thinned); ``short_heading``, the update alone, where
    the heading does not fit a narrow frame; on the right the first of ``counters`` that fits (the
    game's title with the frame's number, then shorter forms)."""

    heading: str
    counters: tuple[str, ...]
    short_heading: str


def banners(title: str, labels: Sequence[str]) -> tuple[Banner, ...]:
    """The banner of each frame of a timelapse of ``title`` whose frames show ``labels`` (a label
    may add to its update after " · ": the service's "after update 480 · 1 in 16")."""
    count = len(labels)
    return tuple(Banner(label[0].upper() + label[1:],
                        (f"{title} · frame {index + 1}/{count}", f"frame {index + 1}/{count}", f"{index + 1}/{count}"),
                        label[0].upper() + label[1:].split(" · ")[0])
                 for index, label in enumerate(labels))


def frame_label(state) -> str:
    """The words on a state's frame: the update whose result it shows (as on a board's title)."""
    return state_label(state)


def timelapse_region(states: Sequence, margin: int = MARGIN) -> tuple[int, int, int, int] | None:
    """The union of the occupied areas of ``states`` (pieces, implosion squares, marked squares),
    ``margin`` squares wider on each side and at least 9 x 9, kept within one square of the
    board's bounds; None when no state has anything to show."""
    bounds = next((state.board.bounds for state in states if state.board.bounds), None)
    return region_of([state_extent(state) for state in states], bounds, margin)


def state_extent(state) -> Extent | None:
    """The box of what ``state`` shows (pieces, implosion squares, marked squares); None if nothing."""
    xs: list[int] = []
    ys: list[int] = []
    box = state.board.bounding_box()
    if box is not None:
        xs += [box[0][0], box[1][0]]
        ys += [box[0][1], box[1][1]]
    for x, y in (*state.implosions, *state.marked):
        xs.append(x)
        ys.append(y)
    if not xs:
        return None
    return min(xs), min(ys), max(xs), max(ys)


def region_of(extents: Sequence[Extent | None], bounds, margin: int = MARGIN) -> tuple[int, int, int, int] | None:
    """The timelapse region of states with these extents (see :func:`timelapse_region`) on a board
    with these bounds (None: unbounded)."""
    boxes = [extent for extent in extents if extent is not None]
    if not boxes:
        return None
    xs = [min(b[0] for b in boxes), max(b[2] for b in boxes)]
    ys = [min(b[1] for b in boxes), max(b[3] for b in boxes)]
    return framed_region(xs, ys, margin, tuple(map(tuple, bounds)) if bounds else None)
