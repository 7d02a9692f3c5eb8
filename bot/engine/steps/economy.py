"""D16 steps 5 and 6: the economy of the update (the rules themselves are in ``engine/economy.py``)."""

from __future__ import annotations

from .. import economy
from ..update import Update

__all__ = ["balances", "debts"]


def balances(update: Update) -> None:
    """D16 step 5: capture rewards, king penalties, costs, regeneration."""
    economy.capture_rewards(update, update.captures)
    economy.king_penalties(update, update.kings_lost)
    economy.pay_costs(update)
    economy.regenerate(update)


def debts(update: Update) -> None:
    """D16 step 6: a balance below 0 disintegrates or sells pieces (D17, D30, RULES 5.1)."""
    economy.settle_debts(update, update.rng)
