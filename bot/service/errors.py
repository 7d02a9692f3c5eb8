"""What the service refuses, as typed errors (``ValueError`` subclasses, like the engine's).

Each carries a message a player or moderator can act on, and optionally the rule that refused it
and a hint. Front ends show ``str(error)``; nothing has changed when one is raised.
"""

from __future__ import annotations

__all__ = ["ServiceError", "NotFound", "NotAllowed", "WrongTime", "InvalidInput", "OrderRefused", "Conflict",
           "shown"]


def shown(value, limit: int = 40) -> str:
    """``value`` quoted for an error message, cut to ``limit`` characters: whatever was typed (100 KB
    of it), the answer still fits in a Discord message."""
    text = value if isinstance(value, str) else str(value)
    return repr(text if len(text) <= limit else text[:limit] + "…")


class ServiceError(ValueError):
    """A request the service refused; nothing was changed."""

    def __init__(self, message: str, *, hint: str | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.rule = rule

    def describe(self) -> str:
        return self.message + (f"\nHint: {self.hint}" if self.hint else "")


class NotFound(ServiceError):
    """No such game, player, snapshot or piece."""


class NotAllowed(ServiceError):
    """The caller may not do this (not a player of the game, not a moderator, kicked, ...)."""


class WrongTime(ServiceError):
    """Not now: the orders are locked, the game has not started, is paused or has ended."""


class InvalidInput(ServiceError):
    """A malformed value: a name, a colour, a setting, a square."""


class Conflict(ServiceError):
    """Someone else holds it: a taken name or colour, a channel that already has a game."""


class OrderRefused(ServiceError):
    """The engine refused the order; ``error`` is its :class:`~bot.engine.notation.OrderError`."""

    def __init__(self, error) -> None:
        super().__init__(error.reason, hint=error.hint, rule=error.rule)
        self.error = error

    def describe(self) -> str:
        return self.error.describe()
