"""What every part of the demo shares: its options, its errors, the simulated players and their
intents, and small helpers of the players' policies (the random draw of one player in one update,
an order's text)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bot.engine.model import Piece, Square, format_square
from bot.engine.ruleset import Ruleset
from bot.engine.variants import variant_for

__all__ = ["DATABASE", "POSTS", "LEDGER", "RECORD", "STORE_MARK", "STORE_SCHEMES", "INTERVAL_SECONDS", "MAX_INTERVAL_SECONDS",
           "HEARTBEAT_SECONDS", "LEASE_BEATS",
           "GUILD_ID", "CHANNEL_ID", "MODERATOR_ID", "FIRST_USER_ID", "NAMES", "DemoError", "DemoOptions",
           "SimulatedPlayer", "Intent", "Planner", "cast", "shown_url", "player_rng", "move_text", "chebyshev",
           "join_lines"]

DATABASE = "skirmish.sqlite3"
POSTS = "posts"
LEDGER = "demo-ledger.json"
#: the game's record at the end of the session (what /game export posts; python -m bot replay re-checks it)
RECORD = "record.json"
#: in DIR, when the session's game lives in a database outside it (``--store-url``): which one
STORE_MARK = "demo-store.json"
#: the store URLs ``--store-url`` takes (INTERFACES.md, "[store]")
STORE_SCHEMES = ("sqlite:///", "postgresql://", "postgres://")

#: seconds between two deadlines (``--interval``): time to watch each update's posts arrive. The
#: players are never late whatever the machine (a deadline waits for their orders: session.py), so
#: 0 plays as fast as the machine resolves
INTERVAL_SECONDS = 3
#: the longest interval ``--interval`` takes
MAX_INTERVAL_SECONDS = 24
#: the demo service's heartbeat (bot/service/claims.py's Liveness): every second, and a silent
#: service is dead after 3 beats (the bot's: 5 s and 15 s). A demo killed while it held an update's
#: claim or its posts, run again, takes them over after 3 s instead of 15
HEARTBEAT_SECONDS = 1
LEASE_BEATS = 3
#: the demo's Discord-shaped ids (nothing is sent anywhere)
GUILD_ID = 1
CHANNEL_ID = 1
MODERATOR_ID = 1
FIRST_USER_ID = 1001

NAMES = ("Ada", "Basil", "Cleo", "Dario", "Edda", "Fenn", "Greta", "Hugo", "Ines", "Jory", "Kasia", "Lev",
         "Mira", "Nils", "Odile", "Pavel", "Quinn", "Rosa", "Sami", "Tove", "Ugo", "Vera", "Wim", "Xenia",
         "Yusuf", "Zora")


class DemoError(Exception):
    """The demo cannot run or continue (printed as one message)."""


@dataclass(frozen=True, slots=True)
class DemoOptions:
    ruleset: str = "neisg"
    players: int = 12
    updates: int = 20
    seed: int = 1
    out: Path = Path("demo")
    interval: int = INTERVAL_SECONDS    # seconds between two deadlines, 0 to MAX_INTERVAL_SECONDS
    events_from: int | None = None      # the first event's update; None: see first_event()
    store_url: str | None = None        # the database (sqlite:///... or postgresql://...); None: DIR/skirmish.sqlite3

    def __post_init__(self) -> None:
        if not 0 <= self.interval <= MAX_INTERVAL_SECONDS:
            raise DemoError(f"--interval is the seconds between two deadlines, 0 to {MAX_INTERVAL_SECONDS}, not "
                            f"{self.interval}")

    @property
    def store(self) -> str | Path:
        """What the store opens: ``store_url``, or the file ``DIR/skirmish.sqlite3``."""
        return self.store_url if self.store_url is not None else Path(self.out) / DATABASE

    @property
    def store_shown(self) -> str:
        """The database as printed: ``DIR/skirmish.sqlite3``, or the URL without its password."""
        if self.store_url is None:
            return str(Path(self.out) / DATABASE)
        return shown_url(self.store_url)

    @property
    def game_name(self) -> str:
        """Names the session: a database holding another session is not continued by mistake."""
        chosen = f", events from {self.events_from}" if self.events_from is not None else ""
        return (f"Skirmish demo ({self.ruleset}, {self.players} players, {self.updates} updates, "
                f"seed {self.seed}{chosen})")

    def first_event(self, ruleset: Ruleset) -> int | None:
        """The update of the session's first event draw: ``events_from`` when given; else the
        ruleset's own when an event falls within the session; else, so that a short session still
        shows one (sandbox's first is at update 25), a quarter of the way in (at least update 2).
        None for a ruleset without events."""
        if self.events_from is not None:
            return self.events_from
        variant = variant_for(ruleset)
        own = variant.first_event
        if own is None:
            return None
        if variant.event_draws(self.updates):
            return own
        return max(2, self.updates // 4)


def shown_url(url: str) -> str:
    """``url`` as it may be printed: a password in it becomes ``***``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


@dataclass(frozen=True, slots=True)
class SimulatedPlayer:
    user_id: int
    name: str
    colour: str
    joins_at: int       # the update for which they join (0: a seat taken before the start)


@dataclass(frozen=True, slots=True)
class Intent:
    """What one player sends for one update: perhaps a ``slip`` first (an order the bot refuses),
    then ``order`` (None: they send nothing), in the channel or by direct message."""

    player: SimulatedPlayer
    order: str | None
    source: str = "channel"
    slip: str | None = None
    plan: str = ""      # why: join, capture, ambush, dodge, collide, generate, advance, ...


def player_rng(seed: int | str, update: int, who: str) -> random.Random:
    """The draws of one player (or of the staging, ``who = "demo"``) in one update."""
    return random.Random(f"{seed}:{update}:{who}")


def move_text(piece: Piece, target: Square, suffix: str = "") -> str:
    """A move in canonical form: ``N(1,2)-(3,3)``, with ``suffix`` (``=Q``) after it."""
    return f"{piece.kind}{format_square(piece.square)}-{format_square(target)}{suffix}"


def chebyshev(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def join_lines(lines: list[str], rng: random.Random) -> str:
    """One submission of several lines, as players write them: separated by ``;`` or by newlines (D7)."""
    return ("\n" if rng.random() < 0.5 else "; ").join(lines)


@dataclass(frozen=True, slots=True)
class Planner:
    """The simulated players of one game family: everything the session driver asks a family.

    ``cast(count)``: the players, and when each comes in (``joins_at``: 0 for a seat before the
    start); ``plan(ruleset, state, update, seed, players, shown)``: every player's intent for the
    update from the position they saw (``shown``: the report entry types of the session so far);
    ``count(counts, entry)``: one report entry into the session's counts; ``rows(summary)``: the
    summary's lines for the family's counts, (label, value); ``expected(options, variant)``: the
    counts a session of these options must make positive (a zero is a failure);
    ``headline(variant, state, winners)``: who won, in the family's words (None: the winners'
    balance in the variant's currency, as arena's points)."""

    family: str
    cast: Callable[[int], list[SimulatedPlayer]]
    plan: Callable[..., list[Intent]]
    count: Callable[[Counter, object], None]
    rows: Callable[..., list[tuple[str, str]]]
    expected: Callable[..., tuple[str, ...]]
    headline: Callable[..., str] | None = None


def cast(count: int, joins_at: Callable[[int, int], int] | None = None) -> list[SimulatedPlayer]:
    """``count`` players with distinct names and colours; ``joins_at(index, count)`` says when each
    comes in (by default two in three join at update 1, the others at updates 2 and 3: joining
    mid-game is part of the show). Each takes the colour ``/join`` offers first when the players
    before have theirs: the most distinct free colour (issue 27)."""
    from bot.render.palette import distinct_colours

    colours = distinct_colours()
    if not 2 <= count <= len(colours):
        raise DemoError(f"the demo has 2 to {len(colours)} players, not {count}")
    when = joins_at or _two_in_three
    players = []
    for index in range(count):
        name = NAMES[index] if index < len(NAMES) else f"Player {index + 1}"
        players.append(SimulatedPlayer(FIRST_USER_ID + index, name, colours[index], when(index, count)))
    return players


def _two_in_three(index: int, count: int) -> int:
    early = max(2, -(-2 * count // 3))
    return 1 if index < early else 2 + (index - early) % 2
