"""The steps of the simultaneous update (RULES.md 3.4, D16), one module per concern.

Each step is a named function of the update's working context (:class:`bot.engine.update.Update`);
a variant assembles its pipeline from them (``variants/simultaneous.py``), so the order of the steps
is written down once, as data::

    validate          every submission against P0 (RULES 3.1)      steps/validate.py
    1 movement        two rounds (D12): holds, dodges, captures, collisions   steps/moves.py
    2 annihilation    last update's implosion squares (D15)        steps/removals.py
    3 resignations                                                 steps/removals.py
    4 transformations promotions, bursts, possession, cargo        steps/transformations.py
    5 balances        rewards, king penalties, costs, regeneration steps/economy.py
    6 debts           negative balances (D17, D30)                 steps/economy.py
    7 respawns        automatic king respawns                      steps/respawns.py
    8 events          events end and start, effects apply          engine/events.py
    9 enable          `disabled` cleared on last update's pieces   steps/checks.py
    10 check states   check states and new implosion squares       steps/checks.py
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..update import Update

__all__ = ["Step"]


@dataclass(frozen=True, slots=True)
class Step:
    """One named step of a pipeline: ``rule`` says where RULES.md describes it."""

    name: str
    rule: str
    run: Callable[[Update], None]

    def __call__(self, update: Update) -> None:
        self.run(update)
