"""Player colours (INTERFACES.md "Colours"): the names players may choose and their RGB values.

``assets/colours.toml`` lists every colour with its RGB value and a colour-blind-safe alternative.
Names compare without regard to case; ``A/B`` is a two-tone colour when both parts exist. A renderer
asks :func:`player_rgb` for the tones of a player's colour in one of :data:`PALETTES`.

:func:`distinct_colours` orders the free colours of a game the most distinct first (what ``/join``
offers and the demo assigns): each next colour is the one farthest, by CIEDE2000, from every colour
already taken and from the grey of neutral pieces (issue 27).

The module also holds the colour arithmetic the tests use to justify the palette: sRGB to CIE Lab
(D65) and the CIEDE2000 difference, written out here so that no dependency is needed.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["Colour", "PALETTES", "COLOURS_FILE", "load_colours", "colour_names", "resolve_colour",
           "player_rgb", "distinct_colours", "colour_distance", "contrast_edge", "relative_luminance", "srgb_to_lab", "delta_e2000", "delta_e2000_lab",
           "delta_e76", "simulate_colour_blindness"]

RGB = tuple[int, int, int]

COLOURS_FILE = Path(__file__).resolve().parents[2] / "assets" / "colours.toml"

#: The palettes a game may select: the named colours as they are, or their colour-blind-safe
#: alternatives (chosen to stay apart for protanopes and deuteranopes, tests/render/test_palette.py).
PALETTES = ("default", "colourblind")

#: Colour used for pieces of nobody (obstacles, power-ups) and for an unknown colour name.
NEUTRAL_RGB: RGB = (128, 128, 128)


@dataclass(frozen=True, slots=True)
class Colour:
    """One named colour: its display name, its RGB value and its colour-blind-safe alternative."""

    name: str
    rgb: RGB
    safe_rgb: RGB

    def in_palette(self, palette: str = "default") -> RGB:
        if palette not in PALETTES:
            raise ValueError(f"unknown palette {palette!r}: choose one of {', '.join(PALETTES)}")
        return self.safe_rgb if palette == "colourblind" else self.rgb


def _rgb(value, where: str) -> RGB:
    if (not isinstance(value, list) or len(value) != 3
            or not all(isinstance(c, int) and 0 <= c <= 255 for c in value)):
        raise ValueError(f"{COLOURS_FILE.name}: {where}: expected [r, g, b] with values 0-255")
    return (value[0], value[1], value[2])


@lru_cache(maxsize=1)
def load_colours() -> dict[str, Colour]:
    """Every colour players may choose, keyed by its casefolded name, in the file's order."""
    with COLOURS_FILE.open("rb") as handle:
        data = tomllib.load(handle)
    colours: dict[str, Colour] = {}
    for index, entry in enumerate(data.get("colour", [])):
        name = entry.get("name")
        if not isinstance(name, str) or not name or "/" in name:
            raise ValueError(f"{COLOURS_FILE.name}: colour {index + 1}: a name without '/' is required")
        key = name.casefold()
        if key in colours:
            raise ValueError(f"{COLOURS_FILE.name}: colour {name!r} is listed twice")
        colours[key] = Colour(name, _rgb(entry.get("rgb"), f"{name}.rgb"),
                              _rgb(entry.get("safe_rgb"), f"{name}.safe_rgb"))
    return colours


def colour_names() -> list[str]:
    """The display names of every colour, in the file's order."""
    return [colour.name for colour in load_colours().values()]


def resolve_colour(name: str) -> tuple[Colour, ...]:
    """The tones of a colour name: one, or two for ``A/B``. Raises ValueError naming the unknown part."""
    colours = load_colours()
    parts = [part.strip() for part in name.split("/")]
    if len(parts) > 2 or any(not part for part in parts):
        raise ValueError(f"{name!r} is not a colour: write one name, or two joined by '/' (Crimson/Yellow)")
    tones = []
    for part in parts:
        colour = colours.get(part.casefold())
        if colour is None:
            raise ValueError(f"unknown colour {part!r}: choose one of {', '.join(colour_names())}")
        tones.append(colour)
    if len(tones) == 2 and tones[0] == tones[1]:
        raise ValueError(f"{name!r} names the same colour twice")
    return tuple(tones)


def player_rgb(name: str, palette: str = "default") -> tuple[RGB, ...]:
    """The RGB tones of a player's colour in a palette (``default`` or ``colourblind``)."""
    return tuple(colour.in_palette(palette) for colour in resolve_colour(name))


def colour_distance(first: Colour, second: Colour, palette: str = "default") -> float:
    """How far apart two colours look in a palette (CIEDE2000). In the colour-blind palette it is
    the smallest of the distances for normal vision and as protanopes and deuteranopes see them,
    since that palette is chosen for those players."""
    a, b = first.in_palette(palette), second.in_palette(palette)
    return min(delta_e2000(view(a), view(b)) for view in _views(palette))


def distinct_colours(taken=(), palette: str = "default") -> list[str]:
    """Every colour name not in ``taken``, the most distinct first: each next one is the free colour
    whose nearest colour among those taken, those already listed and the grey of pieces of nobody
    (:data:`NEUTRAL_RGB`) is farthest (CIEDE2000, :func:`colour_distance`); ties go to the file's
    order. ``taken`` holds the colours of a game's players (``A/B`` takes both tones; names compare
    without regard to case; unknown names are ignored). A game offers the list in this order, so
    that the first players of a game get colours far apart, and so do those who join later."""
    colours = load_colours()
    distances = _distances(palette)
    taken_keys = {str(name).casefold() for name in taken}
    tones = set()
    for name in taken:
        try:
            tones.update(tone.name.casefold() for tone in resolve_colour(str(name)))
        except ValueError:
            continue
    # nearest[key]: the distance from colour ``key`` to the nearest colour already in use
    nearest = {key: min([distances[key, _NEUTRAL_KEY], *(distances[key, tone] for tone in tones)])
               for key in colours if key not in taken_keys}
    order = []
    while nearest:
        best = max(nearest, key=lambda key: nearest[key])     # max keeps the first of equals: file order
        order.append(colours[best].name)
        del nearest[best]
        for key in nearest:
            nearest[key] = min(nearest[key], distances[key, best])
    return order


def _views(palette: str):
    """How the colours of a palette are seen for :func:`colour_distance`: as they are, and in the
    colour-blind palette also as protanopes and deuteranopes see them."""
    if palette not in PALETTES:
        raise ValueError(f"unknown palette {palette!r}: choose one of {', '.join(PALETTES)}")
    views = [lambda rgb: rgb]
    if palette == "colourblind":
        views += [lambda rgb, kind=kind: simulate_colour_blindness(rgb, kind) for kind in _DICHROMAT]
    return views


#: the key of the neutral grey among the colours :func:`_distances` compares
_NEUTRAL_KEY = "\x00neutral"


@lru_cache(maxsize=len(PALETTES))
def _distances(palette: str) -> dict[tuple[str, str], float]:
    """The distance of every two colours of the file (and of each to the neutral grey), by key."""
    rgbs = {key: colour.in_palette(palette) for key, colour in load_colours().items()}
    rgbs[_NEUTRAL_KEY] = NEUTRAL_RGB
    labs = [{key: srgb_to_lab(view(rgb)) for key, rgb in rgbs.items()} for view in _views(palette)]
    return {(first, second): min(delta_e2000_lab(lab[first], lab[second]) for lab in labs)
            for first in rgbs for second in rgbs}


def relative_luminance(rgb: RGB) -> float:
    """WCAG relative luminance, 0 (black) to 1 (white)."""
    r, g, b = (_linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_edge(rgb: RGB) -> RGB:
    """Black or white, whichever has the higher WCAG contrast ratio against ``rgb``."""
    luminance = relative_luminance(rgb)
    against_black = (luminance + 0.05) / 0.05
    against_white = 1.05 / (luminance + 0.05)
    return (0, 0, 0) if against_black >= against_white else (255, 255, 255)


# ----------------------------------------------------------------------------- colour science
def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encode(linear: float) -> int:
    linear = min(1.0, max(0.0, linear))
    c = 12.92 * linear if linear <= 0.0031308 else 1.055 * linear ** (1 / 2.4) - 0.055
    return round(c * 255)


def srgb_to_lab(rgb: RGB) -> tuple[float, float, float]:
    """CIE L*a*b* (D65 white) of an sRGB colour."""
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = (0.2126729 * r + 0.7151522 * g + 0.0721750 * b) / 1.00000
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e76(first: RGB, second: RGB) -> float:
    """CIE76: the Euclidean distance in Lab."""
    return math.dist(srgb_to_lab(first), srgb_to_lab(second))


def delta_e2000(first: RGB, second: RGB) -> float:
    """CIEDE2000 between two sRGB colours."""
    return delta_e2000_lab(srgb_to_lab(first), srgb_to_lab(second))


def delta_e2000_lab(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    """CIEDE2000 (Sharma, Wu and Dalal 2005) between two Lab colours, with kL = kC = kH = 1."""
    l1, a1, b1 = first
    l2, a2, b2 = second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp = l2 - l1
    dcp = c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    elif h2p - h1p > 180:
        dhp = h2p - h1p - 360
    else:
        dhp = h2p - h1p + 360
    d_hp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lp_mean = (l1 + l2) / 2
    cp_mean = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp_mean = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hp_mean = (h1p + h2p + 360) / 2
    else:
        hp_mean = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hp_mean - 30)) + 0.24 * math.cos(math.radians(2 * hp_mean))
         + 0.32 * math.cos(math.radians(3 * hp_mean + 6)) - 0.20 * math.cos(math.radians(4 * hp_mean - 63)))
    d_theta = 30 * math.exp(-(((hp_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (lp_mean - 50) ** 2 / math.sqrt(20 + (lp_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dlp / s_l) ** 2 + (dcp / s_c) ** 2 + (d_hp / s_h) ** 2
                     + r_t * (dcp / s_c) * (d_hp / s_h))


#: Viénot, Brettel and Mollon (1999) dichromat simulation matrices, in linear RGB.
_DICHROMAT = {
    "protanopia": ((0.11238, 0.88762, 0.0), (0.11238, 0.88762, 0.0), (0.00401, -0.00401, 1.0)),
    "deuteranopia": ((0.29275, 0.70725, 0.0), (0.29275, 0.70725, 0.0), (-0.02234, 0.02234, 1.0)),
}


def simulate_colour_blindness(rgb: RGB, kind: str) -> RGB:
    """How ``rgb`` looks to a protanope or a deuteranope (Viénot et al. 1999)."""
    matrix = _DICHROMAT[kind]
    linear = [_linear(c) for c in rgb]
    r, g, b = (sum(m * c for m, c in zip(row, linear)) for row in matrix)
    return _encode(r), _encode(g), _encode(b)
