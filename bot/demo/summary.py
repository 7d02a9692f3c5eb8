"""The summary of a demo session: counts read back from its stored updates (and, for what is refused
at once and never stored, from the demo's ledger), how the game ended, and which counts the session
should have produced (a zero there is a failure: exit status 1)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .common import INTERVAL_SECONDS, POSTS, DemoOptions

__all__ = ["Summary"]


@dataclass
class Summary:
    """A session's counts. The common ones are fields; the family's (captures, M.A.D. collisions,
    joins, ...) are in ``counts``, keyed as the family's planner counts them, and shown by its
    ``rows``. ``end`` says how the game ended: the verdict, or cut short by ``--updates``."""

    updates: int = 0
    length: int = 0
    orders: int = 0
    secret: int = 0
    refused_at_once: int = 0
    refused_at_update: int = 0
    posts: int = 0
    counts: Counter = field(default_factory=Counter)
    rows: list[tuple[str, str]] = field(default_factory=list)
    end: str = ""
    ended: int = 0
    players: int = 0            # the players seated or cast (the variant may take fewer than asked)
    players_note: str = ""
    expected: tuple[str, ...] = ()
    seconds: float = 0.0
    late: int = 0
    interval: int = INTERVAL_SECONDS
    first_event: int | None = None
    own_first_event: int | None = None
    resumed: tuple[int, bool] | None = None   # a re-run on the same DIR: (updates played before it, already over)
    record: Path | None = None                # the game's record, exported at the end (DIR/record.json)

    @property
    def refusals(self) -> int:
        return self.refused_at_once + self.refused_at_update

    def value(self, key: str) -> int:
        """A count by its key: a field (``orders``, ``refusals``, ``ended``, ...) or a family's count."""
        if key in self.counts or not hasattr(self, key):
            return self.counts[key]
        return getattr(self, key)

    def missing(self) -> list[str]:
        """The counts the session should have produced and did not."""
        return [key for key in self.expected if self.value(key) == 0]

    def text(self, options: DemoOptions) -> str:
        rows = [
            ("updates", f"{self.updates} of {self.length}"),
            ("end", self.end or "not yet: the session stopped before its end"),
            ("orders", f"{self.orders} ({self.secret} secret, by direct message)"),
            ("refusals", f"{self.refusals} ({self.refused_at_once} at once, {self.refused_at_update} at the update)"),
            *self.rows,
            ("posts", f"{self.posts} files in {Path(options.out) / POSTS}"),
            *([("record", f"{self.record} (re-check it: python -m bot replay {self.record})")] if self.record else []),
        ]
        width = max(len(label) for label, _ in rows)
        title = (f"Skirmish demo: {options.ruleset}, {self.players or options.players} players{self.players_note}, "
                 f"{options.updates} updates, seed {options.seed}; database {options.store_shown}")
        lines = [title]
        before, over = self.resumed or (0, False)
        if over:
            lines.append(f"  nothing was played: this session had ended already, after update {before}; below "
                         f"is its stored summary")
            lines.append(f"  (choose another --out, or delete {Path(options.out)}, to play a new session)")
        elif self.resumed is not None:
            lines.append(f"  continued: {before} update{'s were' if before != 1 else ' was'} played before this run, "
                         f"{self.updates - before} now")
        lines += [f"  {label.ljust(width)}  {value}" for label, value in rows]
        if self.seconds and not over:
            lines.append(f"  {'time'.ljust(width)}  {self.seconds:.0f} s")
        if self.interval != options.interval:
            lines.append(f"  note: a continued session keeps the interval it began with, one update every "
                         f"{self.interval} s")
        if self.late:
            lines.append(f"  warning: {self.late} orders missed their update (a very slow machine?)")
        missing = self.missing()
        if missing:
            lines.append(f"FAILED: the session should have produced {', '.join(missing)}, and did not")
        return "\n".join(lines)
