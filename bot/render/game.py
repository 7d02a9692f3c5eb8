"""The board picture of any game, as the bot posts and shows it.

A game whose variant names areas on its board (territory: goal, territories, home rows, with the
turn cycle, the reserves and the draft area) is drawn whole by :func:`bot.render.paint.territory.render_territory`,
with the last turn's action when its report is given; every other game by
:func:`bot.render.board.render_board`, which takes the framing options (a centre and radius,
highlighted squares, a zoom). The choice is the variant's answer, never a ruleset's name.
"""

from __future__ import annotations

from bot.engine.report import Report
from bot.engine.ruleset import Ruleset
from bot.engine.state import GameState

from .board import Rendered, render_board
from .paint.territory import render_territory
from .scene.territory import has_areas

__all__ = ["render_game_board", "drawn_whole"]


def drawn_whole(ruleset: Ruleset, state: GameState) -> bool:
    """Whether the game's board is always drawn whole (framing options do not apply)."""
    return has_areas(ruleset, state)


def render_game_board(ruleset: Ruleset, state: GameState, *, palette: str = "default", report: Report | None = None,
                      **framing) -> Rendered:
    """The game's board picture; ``framing`` (center, radius, highlight, focus, region) is for boards
    that are framed, and is not used where the board is drawn whole."""
    if drawn_whole(ruleset, state):
        return render_territory(ruleset, state, palette=palette, report=report)
    return render_board(ruleset, state, palette=palette, **framing)
