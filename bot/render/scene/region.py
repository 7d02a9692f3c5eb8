"""Which squares a board shows: the region asked for, a focus framed (a team, a player, a kingdom,
a viewport by name), or the occupied area with a margin; and what the variant adds to the board."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from ...engine.model import Square
from ...engine.ruleset import Ruleset
from ...engine.state import GameState
from ...engine.variants import VariantUnavailable, variant_for
from ...engine.variants.base import BoardAdditions, Kingdom, Mark
from .grid import BoardRead, InRegion, Region, occupied_viewports
from .limits import DEFAULT_MARGIN, PREVIEW_MARGIN


def state_label(state) -> str:
    """Which position a picture shows, in one convention for boards and timelapse frames: the
    update whose result it is ("after update 4"), or "before update 1" for the empty start."""
    done = state.update - 1
    return f"after update {done}" if done >= 1 else f"before update {state.update}"


def additions_of(ruleset: Ruleset, state: GameState) -> BoardAdditions:
    """What the board shows besides the pieces: the variant's answer (a ruleset no variant plays
    yet still shows the state's implosion and marked squares)."""
    try:
        variant = variant_for(ruleset)
    except VariantUnavailable:
        return BoardAdditions(marks=tuple([Mark(square, "implosion") for square in sorted(state.implosions)]
                                          + [Mark(square, "hill") for square in sorted(state.marked)]))
    return variant.board_additions(state)


@dataclass(frozen=True, slots=True)
class Focus:
    """A part of the board to frame: ``kind`` is ``team`` (the pieces of a team's players),
    ``player`` (a player's pieces) or ``kingdom`` (the circles of a player's kingdom, or their
    pieces when they have none); ``name`` the team or the player."""

    kind: str
    name: str

    KINDS = ("team", "player", "kingdom", "viewport", "all")
    #: words that ask for the whole board (its default picture)
    WHOLE = ("all", "whole", "board", "whole board")

    @classmethod
    def parse(cls, text: "Focus | str") -> "Focus":
        """``team:NAME``, ``player:NAME``, ``kingdom:NAME`` (a bare name is a player's kingdom, or
        the viewport of that name, ``B2``, when no player has it), ``viewport:B2``, or ``all``: the
        whole board, as its default picture frames it."""
        if isinstance(text, Focus):
            return text
        if str(text).strip().lower() in cls.WHOLE:
            return cls("all", "board")
        kind, sep, name = str(text).partition(":")
        if not sep:
            kind, name = "kingdom", kind
        kind, name = kind.strip().lower(), name.strip()
        if kind == "viewport":
            name = name.upper()
        if kind not in cls.KINDS or not name:
            raise ValueError(f"a focus is team:NAME, player:NAME, kingdom:NAME, a viewport such as B2, or all; "
                             f"not {text!r}")
        return cls(kind, name)


_VIEWPORT_NAME = re.compile(r"^[A-Za-z]{1,3}[1-9][0-9]{0,3}$")
VIEWPORT_WORD = "viewport "


def is_viewport_name(text: str) -> bool:
    """Whether ``text`` is written like a viewport's name (``B2``, ``aa10``): letters, then a row number."""
    return bool(_VIEWPORT_NAME.match(str(text).strip()))


def focus_region(state: GameState, additions: BoardAdditions, focus: "Focus | str", bounds) -> tuple[Region, str]:
    """The region framing ``focus`` and the words naming it for the title (``kingdom of Ann``).

    A team: every piece of its players, with a margin of two squares. A player: their pieces, the
    same. A kingdom: every circle of the player's kingdom whole, with a margin of one square (a
    player with no kingdom: their pieces). Raises ValueError naming what is missing."""
    focus = Focus.parse(focus)
    players = state.players
    if focus.kind == "all":
        return choose_region(state, bounds, None, None, None, additions), ""
    if focus.kind == "kingdom" and _VIEWPORT_NAME.match(focus.name) and not _has_player(state, focus.name):
        focus = Focus("viewport", focus.name.upper())
    if focus.kind == "viewport":
        named = occupied_viewports(state, choose_region(state, bounds, None, None, None, additions))
        if focus.name not in named:
            known = f"it names {', '.join(sorted(named, key=_viewport_order))}" if named else "it has no pieces"
            raise ValueError(f"the board has no viewport {focus.name}: {known}")
        return named[focus.name], f"{VIEWPORT_WORD}{focus.name}"
    if focus.kind == "team":
        wanted = focus.name.casefold()
        names = sorted(name for name, player in players.items()
                       if player.team is not None and player.team.casefold() == wanted)
        teams = sorted({player.team for player in players.values() if player.team})
        if not names:
            known = f" (teams: {', '.join(teams)})" if teams else " (this game has no teams)"
            raise ValueError(f"no player of this game is on a team named {focus.name!r}{known}")
        team = players[names[0]].team
        squares = [piece.square for name in names for piece in state.board.owned_by(name)]
        if not squares:
            raise ValueError(f"no player of team {team} has pieces on the board")
        return _frame(squares, DEFAULT_MARGIN, bounds), f"team {team}"
    name = _player_named(state, focus.name)
    squares = [piece.square for piece in state.board.owned_by(name)]
    if focus.kind == "kingdom":
        circles = [k for k in additions.kingdoms if k.owner == name]
        if circles:
            corners = [(k.centre[0] + dx * k.radius, k.centre[1] + dy * k.radius) for k in circles
                       for dx in (-1, 1) for dy in (-1, 1)]
            return _frame(corners, 1, bounds), f"kingdom of {name}"
    if not squares:
        raise ValueError(f"{name} has no pieces on the board")
    return _frame(squares, DEFAULT_MARGIN, bounds), f"{name}'s pieces"


def _has_player(state: GameState, name: str) -> bool:
    return name in state.players or any(n.casefold() == name.casefold() for n in state.players)


def _viewport_order(name: str) -> tuple[int, int, str]:
    """Viewport names in the grid's reading order: row, then column (``A1``, ``B1``, ``A2``)."""
    letters = name.rstrip("0123456789")
    return int(name[len(letters):]), len(letters), letters


def _player_named(state: GameState, name: str) -> str:
    if name in state.players:
        return name
    folded = [n for n in state.players if n.casefold() == name.casefold()]
    if len(folded) == 1:
        return folded[0]
    raise ValueError(f"no player named {name!r} in this game")


def _frame(squares: Sequence[Square], margin: int, bounds) -> Region:
    return framed_region([s[0] for s in squares], [s[1] for s in squares], margin, bounds)


def circle_squares(kingdom: Kingdom, region: Region) -> Iterable[Square]:
    """The squares of ``kingdom`` (``dx^2 + dy^2 <= radius^2``) inside ``region``."""
    (cx, cy), r = kingdom.centre, kingdom.radius
    x0, y0, x1, y1 = region
    for x in range(max(x0, cx - r), min(x1, cx + r) + 1):
        reach = math.isqrt(r * r - (x - cx) ** 2)
        for y in range(max(y0, cy - reach), min(y1, cy + reach) + 1):
            yield x, y


def choose_region(state: GameState, bounds, region, center, radius, additions: BoardAdditions,
                   board: "BoardRead | None" = None) -> Region:
    if region is not None:
        x0, y0, x1, y1 = (int(v) for v in region)
        return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)
    if center is not None or radius is not None:
        cx, cy = center if center is not None else (0, 0)
        r = 8 if radius is None else max(0, int(radius))
        return cx - r, cy - r, cx + r, cy + r
    box = (board or state.board).bounding_box()
    extra = [mark.square for mark in additions.marks]
    if box is None and not extra:
        if bounds is not None:
            (bx0, by0), (bx1, by1) = bounds
            cx, cy = (bx0 + bx1) // 2, (by0 + by1) // 2
            return max(bx0, cx - 4), max(by0, cy - 4), min(bx1, cx + 4), min(by1, cy + 4)
        return -4, -4, 4, 4
    xs = [s[0] for s in extra]
    ys = [s[1] for s in extra]
    if box is not None:
        xs += [box[0][0], box[1][0]]
        ys += [box[0][1], box[1][1]]
    if additions.fit_preview:
        # a board laid out for a chat's preview (the variant's word) is framed closer, within the
        # bounds (their thick line shows the edge): every square of margin is a column of the
        # picture's width (arena's armies span the board, issue 39)
        return framed_region(xs, ys, PREVIEW_MARGIN, bounds, beyond=0)
    return framed_region(xs, ys, DEFAULT_MARGIN, bounds)


def framed_region(xs: list[int], ys: list[int], margin: int, bounds, beyond: int = 1) -> Region:
    """The box around these coordinates with a margin, at least 9 x 9 squares, and on a bounded
    board no more than ``beyond`` squares outside its edge (but never leaving out a square given)."""
    x0, y0 = min(xs) - margin, min(ys) - margin
    x1, y1 = max(xs) + margin, max(ys) + margin
    # a small area is shown with some room around it: at least 9 x 9 squares
    if x1 - x0 < 8:
        grow = 8 - (x1 - x0)
        x0, x1 = x0 - grow // 2, x1 + grow - grow // 2
    if y1 - y0 < 8:
        grow = 8 - (y1 - y0)
        y0, y1 = y0 - grow // 2, y1 + grow - grow // 2
    if bounds is not None:
        # show the edge of a bounded board, not a sea of outside squares
        (bx0, by0), (bx1, by1) = bounds
        x0, y0 = max(x0, min(bx0 - beyond, *xs)), max(y0, min(by0 - beyond, *ys))
        x1, y1 = min(x1, max(bx1 + beyond, *xs)), min(y1, max(by1 + beyond, *ys))
    return x0, y0, x1, y1


def reaches(kingdom: Kingdom, region: Region) -> bool:
    """Whether some square of ``kingdom`` lies inside ``region``."""
    x0, y0, x1, y1 = region
    (cx, cy), r = kingdom.centre, kingdom.radius
    dx = max(x0 - cx, 0, cx - x1)
    dy = max(y0 - cy, 0, cy - y1)
    return dx * dx + dy * dy <= r * r


def default_viewports(ruleset: Ruleset, state: GameState, additions: BoardAdditions | None = None) -> dict[str, Region]:
    """The viewports the board's default picture names (its insets, or its overview's occupied
    cells), by name: what a player may ask for by name (``B2``)."""
    bounds = state.board.bounds or ruleset.bounds_for(len(state.players))
    if additions is None:
        additions = additions_of(ruleset, state)
    board = BoardRead(state)
    region = choose_region(state, bounds, None, None, None, additions, board)
    return occupied_viewports(state, region, within=InRegion(state, region, board))
