"""What the service refuses, as typed errors (``ValueError`` subclasses, like the engine's).

Each carries a message a player or moderator can act on, and optionally the rule that refused it
and a hint. Front ends show ``str(error)``; nothing has changed when one is raised.
"""

from __future__ import annotations

__all__ = ["ServiceError", "NotFound", "NotAllowed", "NotSignedIn", "WrongTime", "InvalidInput", "OrderRefused", "Conflict",
           "shown", "offending_line"]


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


class NotSignedIn(ServiceError):
    """A web request without a valid link token: none, malformed, not signed by this server, or
    expired (HTTP 401). A token that is genuine but no longer good here is :class:`NotAllowed` (403)."""


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
        """The engine's explanation. The engine quotes a short one-line submission itself; for one
        of several lines (a form, a file, a direct message) or a long one, the line at fault is
        quoted here, with its number in the text and the offending part underlined, so a player
        finds it among hundreds."""
        error = self.error
        text = error.text or ""
        if not text or ("\n" not in text and len(text) <= 200):
            return error.describe()
        lines = [error.reason, *offending_line(text, error.span)]
        if error.hint:
            lines.append(f"Hint: {error.hint}")
        return "\n".join(lines)


#: the most characters of an offending line quoted under a refusal
_QUOTED = 120


def offending_line(text: str, span: tuple[int, int]) -> list[str]:
    """The order of ``text`` (lines separated by newlines or ``;``) that ``span`` points at, as two
    lines of a refusal: ``line N: <the order>`` and a caret under the offending part. Nothing when
    the span covers several orders (a refusal of the submission as a whole, such as a wrong count)."""
    from bot.engine.notation import shown_text

    start, end = max(0, min(span[0], len(text))), max(0, min(span[1], len(text)))
    first = max(text.rfind("\n", 0, start), text.rfind(";", 0, start)) + 1
    after = [i for i in (text.find("\n", start), text.find(";", start)) if i != -1]
    last = min(after) if after else len(text)
    if end > last or (start == 0 and end >= len(text) and (first, last) != (0, len(text))):
        return []
    while first < start and text[first].isspace():
        first += 1
    window_start = max(first, min(start, last) - _QUOTED // 2) if last - first > _QUOTED else first
    window_end = min(last, window_start + _QUOTED)
    shown_part = shown_text(text[window_start:window_end].rstrip())
    before = "…" if window_start > first else ""
    after_text = "…" if window_end < last else ""
    label = f"line {text.count(chr(10), 0, start) + 1}: " if "\n" in text else ""
    quoted = f"  {label}{before}{shown_part}{after_text}"
    offset = 2 + len(label) + len(before) + (start - window_start)
    width = max(1, min(end, window_end) - start)
    return [quoted, " " * offset + "^" * width]
