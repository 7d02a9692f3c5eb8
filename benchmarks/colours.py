"""How far apart are the first players' colours? The smallest CIEDE2000 distance between any two of
the first N players' colours (default 12, the demo's cast), before and after issue 27.

    .venv/bin/python benchmarks/colours.py [--players N] [--palette default|colourblind]

"Before" is the order colours were offered and assigned in until issue 27: the order of
``assets/colours.toml`` (Red, Crimson, Scarlet, Maroon, ...). "After" is
:func:`bot.render.palette.distinct_colours` of an empty game: each next colour the one farthest
from every colour already taken (and from the grey of neutral pieces), which is what ``/join``
offers first and what the demo assigns. For each it prints the colours, the closest pair and its
distance, and how many of the colours are reds, oranges or yellows (hue up to 110 degrees in CIE
LCh, chroma above 30: Yellow is at 105, Lime at 131). Numbers only, no asserts; they depend on the colour file alone.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.render.palette import (PALETTES, colour_distance, colour_names, distinct_colours,  # noqa: E402
                                load_colours, srgb_to_lab)


def closest_pair(names: list[str], palette: str) -> tuple[float, str, str]:
    colours = load_colours()
    return min((colour_distance(colours[a.casefold()], colours[b.casefold()], palette), a, b)
               for a, b in itertools.combinations(names, 2))


def warm(names: list[str], palette: str) -> int:
    """How many of ``names`` are reds, oranges or yellows (LCh hue up to 110 degrees, chroma > 30)."""
    count = 0
    for name in names:
        _, a, b = srgb_to_lab(load_colours()[name.casefold()].in_palette(palette))
        hue = math.degrees(math.atan2(b, a)) % 360
        count += math.hypot(a, b) > 30 and hue <= 110
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--palette", choices=PALETTES, default="default")
    options = parser.parse_args(argv)
    count = max(2, min(options.players, len(colour_names())))
    print(f"the first {count} players' colours, palette {options.palette}, smallest CIEDE2000 between two:")
    for label, names in (("before (file order)", colour_names()[:count]),
                         ("after (most distinct first)", distinct_colours((), options.palette)[:count])):
        distance, first, second = closest_pair(names, options.palette)
        print(f"  {label:28} {distance:6.2f}  ({first} - {second}); reds/oranges/yellows: "
              f"{warm(names, options.palette)} of {count}")
        print(f"    {', '.join(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
