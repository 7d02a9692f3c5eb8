"""The engine's entry point: ``resolve(ruleset, state, orders, seed) -> (new_state, report)``.

Pure and deterministic: the same position, orders and seed give the same result whatever the order
of players, pieces or orders (D2, D3). The ruleset's variant does the work (``variants/``); the
simultaneous family runs its pipeline of named steps (``steps/``) on one update's working context
(``update.py``), every random draw coming from ``random.Random(f"{seed}:{update}")`` (``rng_for``).
"""

from __future__ import annotations

from typing import Iterable, Mapping

from .report import Report
from .ruleset import Ruleset
from .state import GameState
from .update import rng_for
from .variants import variant_for

__all__ = ["resolve", "rng_for"]


def resolve(ruleset: Ruleset, state: GameState, orders: Mapping[str, str | Iterable[str]], seed: int | str
            ) -> tuple[GameState, Report]:
    """Resolve the update ``state.update`` with every player's submission (text as typed)."""
    return variant_for(ruleset).resolve(state, orders, seed)
