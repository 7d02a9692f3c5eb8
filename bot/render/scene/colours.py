"""The colours a board is drawn in: the squares, the tints of marked squares, the marks' tokens and
badges, and each player's tones in the chosen palette. Plain numbers (RGB), no Pillow."""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from ...engine.state import GameState
from ..palette import NEUTRAL_RGB, colour_names, delta_e2000, player_rgb

RGB = tuple[int, int, int]

# the squares (chess.svg's board, slightly muted so that player colours stand out)
LIGHT: RGB = (240, 217, 181)
DARK: RGB = (196, 160, 120)
OUTSIDE_LIGHT: RGB = (150, 150, 150)
OUTSIDE_DARK: RGB = (130, 130, 130)
FIVE_LINE: RGB = (120, 90, 60)
BOUND_LINE: RGB = (30, 30, 30)
RANK0_TINT = ((90, 150, 220), 0.35)
IMPLOSION_TINT = ((230, 60, 30), 0.55)
FROM_TINT = ((250, 235, 60), 0.45)
TO_TINT = ((250, 235, 60), 0.65)
HILL_TINT = ((255, 200, 0), 0.6)
HIGHLIGHT: RGB = (0, 170, 200)
VARIETY: RGB = (150, 60, 210)
MOVE_ARROW = (20, 100, 200, 150)
CAPTURE_ARROW = (210, 20, 20, 170)
BACKGROUND: RGB = (250, 250, 247)
TEXT: RGB = (25, 25, 25)
MUTED: RGB = (95, 95, 95)
RAINBOW = ((228, 3, 3), (255, 140, 0), (255, 237, 0), (0, 128, 38), (0, 77, 255), (117, 7, 135))
# board additions: fading counters, and the tokens of marks by kind (shape, fill; the fills from
# Okabe and Ito's colour-blind-safe set, the shapes and labels telling the kinds apart anyway)
FADING: RGB = (245, 190, 50)
FADING_LAST: RGB = (200, 25, 25)
TOKEN_STYLES: dict[str, tuple[str, RGB]] = {
    "new": ("circle", (0, 158, 115)),        # a new piece: its letter to place next round
    "upgrade": ("arrow", (0, 114, 178)),     # an upgrade: an arrow pointing up
    "king": ("crown", (230, 159, 0)),        # king me: a crown
}
TOKEN_DEFAULT: tuple[str, RGB] = ("square", (150, 110, 190))
# a token's fill must not look like any player's colour in the game (issue 39: the orange crown read
# as an orange player's piece): each kind's own fill first, then these (but another kind's), the first CIEDE2000
# TOKEN_DISTANCE or more from every player's tone; where none is, the farthest, hatched in white (a
# pattern no player's pieces have)
TOKEN_DISTANCE = 15.0
TOKEN_FILLS: tuple[RGB, ...] = ((0, 158, 115), (0, 114, 178), (230, 159, 0), (150, 110, 190), (240, 228, 66),
                                (204, 121, 167), (86, 180, 233), (120, 80, 20), (255, 255, 255), (20, 20, 20))


@lru_cache(maxsize=256)
def token_fill(preferred: RGB, taken: tuple[RGB, ...]) -> tuple[RGB, bool]:
    """The fill of a token whose kind prefers ``preferred``, in a game whose players' tones are
    ``taken``, and whether it is hatched: the first of ``preferred`` and :data:`TOKEN_FILLS` at least
    :data:`TOKEN_DISTANCE` (CIEDE2000) from every one of them, else the farthest, hatched."""
    best, best_distance = preferred, -1.0
    kinds = {fill for _, fill in TOKEN_STYLES.values()} | {TOKEN_DEFAULT[1]}   # kept apart by colour too
    for fill in (preferred, *(f for f in TOKEN_FILLS if f not in kinds)):
        distance = min((delta_e2000(fill, tone) for tone in taken), default=100.0)
        if distance >= TOKEN_DISTANCE:
            return fill, False
        if distance > best_distance:
            best, best_distance = fill, distance
    return best, True


@lru_cache(maxsize=1024)
def _player_rgb(colour: str, palette: str) -> tuple[RGB, ...]:
    """:func:`~.palette.player_rgb`, kept: a game of 1,000 players has a few dozen colours, each
    looked up again for every player every picture (an unknown colour raises each time)."""
    return player_rgb(colour, palette)


class PlayerColours:
    """Owner -> tones in the chosen palette; a colour name the palette does not know gets a
    free palette colour (by the owner's name order), so a piece is never drawn colourless."""

    def __init__(self, state: GameState, palette: str) -> None:
        self.palette = palette
        self.tones: dict[str | None, tuple[RGB, ...]] = {None: ()}
        self.names: dict[str, str] = {}
        unknown = []
        for name in sorted(state.players):
            colour = state.players[name].colour
            try:
                self.tones[name] = _player_rgb(colour, palette)
                self.names[name] = colour
            except ValueError:
                unknown.append(name)
        used = {c.casefold() for c in self.names.values()}
        spare = [c for c in colour_names() if c.casefold() not in used]
        for index, name in enumerate(unknown):
            colour = spare[index % len(spare)] if spare else "Grey"
            self.tones[name] = player_rgb(colour, palette)
            self.names[name] = colour

    def taken(self) -> tuple[RGB, ...]:
        """Every tone a player of the game is drawn in (what a token must not look like)."""
        return tuple(sorted({tone for tones in self.tones.values() for tone in tones}))

    def of(self, owner: str | None) -> tuple[RGB, ...]:
        tones = self.tones.get(owner)
        if tones is None:  # a piece of someone not in the player list
            spare = colour_names()
            tones = player_rgb(spare[sum(map(ord, owner or "")) % len(spare)], self.palette)
            self.tones[owner] = tones
            self.names[owner] = "?"
        return tones


def blend(base: RGB, tint: tuple[RGB, float]) -> RGB:
    colour, alpha = tint
    return tuple(round(b * (1 - alpha) + c * alpha) for b, c in zip(base, colour))  # type: ignore[return-value]


def mean_tone(tones: Sequence[RGB]) -> RGB:
    if not tones:
        return NEUTRAL_RGB
    return tuple(sum(t[c] for t in tones) // len(tones) for c in range(3))  # type: ignore[return-value]


# lines and badges
RANK0_LINE: RGB = (40, 90, 170)      # the edges of rank 0
RANK0_LABEL: RGB = (0, 70, 160)      # rank 0's (column 0's) axis label, underlined
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
CHECK_FRESH: RGB = (220, 20, 20)
CHECK_SPENT: RGB = (90, 90, 90)
SPIRIT: RGB = (130, 70, 200)
ICE_INK: RGB = (0, 60, 140)
ICE: RGB = (190, 230, 255)
STAR: RGB = (255, 240, 170)
CROSS: RGB = (200, 0, 0)
LEGEND_PIECE: RGB = (235, 235, 235)  # a kind's sample in the legend
LEGEND_SAMPLE: RGB = (150, 150, 150)  # the piece a mark's sample stands on


def square_colour(x: int, y: int, bounds, rank_zero: bool = True) -> RGB:
    """A square's own colour: dark where ``x + y`` is even (``(0, 0)`` is dark, like a1), rank 0
    tinted blue where the variant says rank 0 matters (``rank_zero``), a square outside the bounds grey."""
    dark = (x + y) % 2 == 0
    if bounds is not None:
        (bx0, by0), (bx1, by1) = bounds
        if not (bx0 <= x <= bx1 and by0 <= y <= by1):
            return OUTSIDE_DARK if dark else OUTSIDE_LIGHT
    colour = DARK if dark else LIGHT
    if y == 0 and rank_zero:
        colour = blend(colour, RANK0_TINT)
    return colour
