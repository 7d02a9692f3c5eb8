"""The one place that knows which game families the demo has simulated players for: the variant's
family (``variant.family``) picks its planner, as the engine's registry picks a family's variant."""

from __future__ import annotations

from bot.engine.variants import Variant, load_variant, playable_presets

from . import arena, megachess, simultaneous, territory
from .common import DemoError, Planner

__all__ = ["PLANNERS", "planner_for"]

#: family -> its simulated players
PLANNERS: dict[str, Planner] = {planner.family: planner
                                for planner in (simultaneous.PLANNER, arena.PLANNER, megachess.PLANNER,
                                                territory.PLANNER)}


def planner_for(variant: Variant) -> Planner:
    """The simulated players of ``variant``'s family; :class:`DemoError` when the demo has none."""
    planner = PLANNERS.get(variant.family)
    if planner is None:
        played = [name for name in playable_presets() if load_variant(name).family in PLANNERS]
        raise DemoError(f"the demo has no simulated players for {variant.title} (the {variant.family} game family) "
                        f"yet; choose one of {', '.join(played)}")
    return planner
