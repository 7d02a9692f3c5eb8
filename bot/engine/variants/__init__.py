"""Variants: one object per game family, the engine's answers to everything the program asks.

    variant_for(ruleset)   the ruleset's variant (built once per ruleset)
    load_variant(name)     a shipped preset's variant
    playable_presets()     the presets a game can be created with

A ruleset file names its family (``family = "simultaneous"``, the default). A family, or a choice
inside it, that the engine does not carry out yet makes :func:`variant_for` raise
:class:`VariantUnavailable` with the reason in a player's words, so no game is ever resolved by the
wrong rules. The registry is the one place that knows which families exist.
"""

from __future__ import annotations

from functools import lru_cache

from ..policies import Unplayable
from ..ruleset import Ruleset, load_preset, preset_names
from .arena import ArenaVariant
from .base import (BoardAdditions, Features, Mark, PanelEvent, PanelRow, Seating, StandingsPanel, Variant,
                   Verdict)
from .megachess import MegachessVariant
from .simultaneous import SimultaneousVariant
from .territory import TerritoryVariant

__all__ = ["Variant", "Verdict", "Seating", "Features", "Mark", "BoardAdditions", "PanelRow", "PanelEvent",
           "StandingsPanel", "VariantUnavailable", "variant_for", "load_variant", "playable_presets", "FAMILIES"]

#: family name -> the variant class that plays it
FAMILIES: dict[str, type[Variant]] = {
    SimultaneousVariant.family: SimultaneousVariant,
    MegachessVariant.family: MegachessVariant,
    TerritoryVariant.family: TerritoryVariant,
    ArenaVariant.family: ArenaVariant,
}

#: Unplayable is the registry's refusal: a ruleset whose family or choices have no variant yet.
VariantUnavailable = Unplayable


@lru_cache(maxsize=64)
def variant_for(ruleset: Ruleset) -> Variant:
    """The variant that plays ``ruleset``; :class:`VariantUnavailable` when none can yet."""
    family = FAMILIES.get(ruleset.family)
    if family is None:
        raise VariantUnavailable(ruleset, [f"{ruleset.family} game family"])
    return family(ruleset)


def load_variant(name: str) -> Variant:
    """A shipped preset's variant by name (``neisg``, ``sandbox``, ...)."""
    return variant_for(load_preset(name))


def playable_presets() -> list[str]:
    """The shipped presets a game can be created with."""
    playable = []
    for name in preset_names():
        try:
            load_variant(name)
        except VariantUnavailable:
            continue
        playable.append(name)
    return playable
