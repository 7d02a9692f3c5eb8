"""Validation: every submission is checked against P0 (RULES 3.1); refusals go to their owners."""

from __future__ import annotations

from ..notation import OrderError
from ..report import PRIVATE
from ..update import Order, Update

__all__ = ["validate"]


def validate(update: Update) -> None:
    """Check every submission against P0; refusals are reported privately to their owners."""
    validator = update.validator()
    for player in sorted(update.submissions):
        submitted = update.submissions[player]
        text = submitted if isinstance(submitted, str) else "\n".join(submitted)
        try:
            lines = validator.check_submission(player, text)
        except OrderError as error:
            update.report.add("refused", [player], PRIVATE, text=text, reason=error.reason, rule=error.rule)
            continue
        update.executed_players.add(player)
        update.orders.extend(Order(player, i, line) for i, line in enumerate(lines))
