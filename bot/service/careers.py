"""Careers (issue 42): ratings per server and game family, profiles, leaderboards, and the career
lines of endless games. docs/ratings.md says what is computed and why.

Everything here is a pure function of the stored games:

- **results**: a game that ended at its verdict (the variant's :meth:`~bot.engine.variants.Variant.places`
  of its final snapshot) is rated; each seat's members with their share of the seat's resolved orders
  (:func:`result_of`). Results are kept in ``game_results`` as a cache keyed by the final snapshot:
  a row whose snapshot is no longer the game's current one (a moderator rolled the game back and it
  ended again), or a game ended before the cache existed, is worked out again before it is read
  (:meth:`CareerCases._results`). A row whose game is no longer ended is not read.
- **ratings**: openskill's Plackett-Luce model over the rated results of one server and family, in
  a defined order (the time the game ended, then its id): :func:`rate`. Computed on demand (a server's
  thousand games take a few tenths of a second, benchmarks/ratings.py), so a rebuild is the same
  computation and gives the same numbers.
- **careers** of endless games (the variant's verdict never names winners): from the stored updates
  of the member's games, their reports and standings (:func:`career_of`).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime
from fractions import Fraction
from typing import Iterable

from openskill.models import PlackettLuce

from bot.engine import serialize
from bot.engine.report import Report
from bot.engine.state import GameState
from bot.engine.variants import Variant
from bot.store import Game, GameResult, PlayerRow, Snapshot

from .base import ServiceBase, frozen, is_row_number
from .errors import InvalidInput, NotFound

__all__ = ["CareerCases", "Rating", "Standing", "Leaderboard", "Profile", "Career", "CareerCount", "RecentGame",
           "result_of", "rate", "career_of", "rating_model", "PROVISIONAL_GAMES", "LEADERBOARD_SIZE"]

#: a member counts on a leaderboard after this many rated games of its family; until then they are
#: listed as provisional (docs/ratings.md: before that, their order among themselves is mostly the
#: luck of one or two games; five is what a regular plays in a month or two)
PROVISIONAL_GAMES = 5
#: how many members a leaderboard shows
LEADERBOARD_SIZE = 20
#: how many of a member's games a profile lists
RECENT_GAMES = 5
#: how many (game, member) career counts a service keeps between profiles (see CareerCases._career_in)
CACHED_CAREERS = 10_000


def rating_model() -> PlackettLuce:
    """The model every rating is computed with: openskill's Plackett-Luce with its published
    defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300), and the members' weights taken as given
    (``weight_bounds=None``: a member who played the whole seat has weight 1, the model's plain
    update; docs/ratings.md)."""
    model = PlackettLuce()
    # openskill documents weight_bounds=None as "no normalisation"; its compiled constructor refuses
    # None (it wants a tuple), the attribute takes it, and rate() reads the attribute
    model.weight_bounds = None
    return model


@dataclass(frozen=True, slots=True)
class Rating:
    """A member's rating in one family of one server: openskill's ``mu`` and ``sigma``, the rated
    games they played and won (first place, shared or not)."""

    user_id: int
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        """What leaderboards sort by: ``mu - 3 sigma``, a skill the member very probably has."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def text(self) -> str:
        return f"{self.ordinal:.1f} ({self.mu:.1f} ± {self.sigma:.1f})"


def result_of(game: Game, variant: Variant, state: GameState, snapshot: Snapshot, players: Iterable[PlayerRow],
              orders_sent: dict[int, int]) -> GameResult:
    """The result of an ended game from its final snapshot (``state``, ``snapshot``), its players'
    rows (every member who held a seat) and the resolved orders each member sent. Rated when the
    variant's verdict is over. A seat's members are every row that held its name, a member who left
    before anything of theirs was on the board (departure ``left``) excepted; each is weighted by
    their share of the seat's resolved orders, relative to the member who sent most (1); a member
    with none is left out while another member has some (all weigh 1 when none has any)."""
    places = variant.places(state)
    members: dict[str, list[PlayerRow]] = defaultdict(list)
    for row in players:
        if row.departure != "left" and row.name in places:
            members[row.name].append(row)
    rows = []
    for seat in sorted(members):
        sent = {row.user_id: orders_sent.get(row.user_id, 0) for row in members[seat]}
        most = max(sent.values())
        for row in sorted(members[seat], key=lambda r: r.user_id):
            if most == 0:                   # nobody sent one: none of them played more than another
                rows.append((seat, row.user_id, places[seat], 1.0))
            elif sent[row.user_id]:
                rows.append((seat, row.user_id, places[seat], sent[row.user_id] / most))
    return GameResult(game_id=game.id, snapshot_update=snapshot.update_no, snapshot_revision=snapshot.revision,
                      guild_id=game.guild_id, family=variant.family, rated=bool(places), ended_at=snapshot.created_at,
                      places=tuple(rows))


def rate(results: Iterable[GameResult], model: PlackettLuce | None = None) -> dict[str, dict[int, Rating]]:
    """``family -> user id -> Rating`` after the rated ``results``, taken by the time each game
    ended, then its id (whatever order they come in). Each seat is a team of its members (one, unless
    a moderator handed the seat to a substitute), ranked by its place (equal places tie), each
    member weighted as :func:`result_of` says."""
    model = model or rating_model()
    skills: dict[str, dict[int, object]] = defaultdict(dict)
    played: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    won: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for result in sorted(results, key=lambda r: (r.ended_at, r.game_id)):
        seats: dict[str, list[tuple[int, int, float]]] = defaultdict(list)
        for seat, user_id, place, weight in result.places:
            seats[seat].append((user_id, place, weight))
        if not result.rated or len(seats) < 2:
            continue
        family = skills[result.family]
        order = sorted(seats)
        teams = [[family.setdefault(user, model.rating()) for user, _, _ in seats[seat]] for seat in order]
        ranks = [float(seats[seat][0][1]) for seat in order]
        weights = [[weight for _, _, weight in seats[seat]] for seat in order]
        rated = model.rate(teams, ranks=ranks, weights=weights)
        for seat, team in zip(order, rated):
            for (user, place, _), skill in zip(seats[seat], team):
                family[user] = skill
                played[result.family][user] += 1
                won[result.family][user] += place == 1
    return {name: {user: Rating(user, skill.mu, skill.sigma, played[name][user], won[name][user])
                   for user, skill in family.items()} for name, family in skills.items()}


# ----------------------------------------------------------------------------- careers of endless games
@dataclass(slots=True)
class Career:
    """A member's career in the endless games (no verdict) of one family on a server, from the
    stored updates of their games."""

    family: str
    games: int = 0
    updates_played: int = 0
    best_rank: int | None = None
    kings_captured: int = 0
    value_captured: Fraction = Fraction(0)
    longest_king_life: int = 0
    events_survived: int = 0
    armies_taken: int = 0

    def add(self, other: "Career") -> None:
        self.games += other.games
        self.updates_played += other.updates_played
        if other.best_rank is not None:
            self.best_rank = other.best_rank if self.best_rank is None else min(self.best_rank, other.best_rank)
        self.kings_captured += other.kings_captured
        self.value_captured += other.value_captured
        self.longest_king_life = max(self.longest_king_life, other.longest_king_life)
        self.events_survived += other.events_survived
        self.armies_taken += other.armies_taken

    def text(self) -> str:
        value = self.value_captured
        worth = str(value.numerator) if value.denominator == 1 else f"{float(value):.1f}"
        parts = [f"{self.games} game{'s' if self.games != 1 else ''}", f"{self.updates_played} updates played",
                 f"best rank {self.best_rank if self.best_rank is not None else '-'}",
                 f"{self.kings_captured} kings captured", f"pieces captured worth {worth}",
                 f"longest king life {self.longest_king_life} updates", f"{self.events_survived} events survived"]
        if self.armies_taken:
            parts.append(f"{self.armies_taken} armies taken")
        return f"**{self.family}**: " + ", ".join(parts)


def _holder(seat_rows: list[PlayerRow], user_id: int, moment: datetime) -> bool:
    """Whether ``user_id`` held the seat at ``moment``: each member holds it from the time they took
    it (their row's ``joined_at``) until the next member took it."""
    ordered = sorted(seat_rows, key=lambda row: (row.joined_at, row.user_id))
    holder = ordered[0].user_id
    for row in ordered[1:]:
        if row.joined_at <= moment:
            holder = row.user_id
    return holder == user_id


class CareerCount:
    """The career of ``user_id`` in one game, counted update by update (:meth:`add`, in update
    order: each resolved update's snapshot as the engine stored it, and its state): the updates whose
    order of theirs was resolved, their best rank in the standings after an update, the kings their
    captures took, the value of the pieces they captured (the standings' count, which only grows for
    a player: summed over its rises), the most updates in a row they kept a king, the events that
    ended while they were in the game, the armies handed to them (megachess, D61). A seat held by
    several members in turn counts for each member while they held it. Pure: one state at a time."""

    def __init__(self, variant: Variant, seat_rows: list[PlayerRow], user_id: int) -> None:
        self.variant, self.seat_rows, self.user_id = variant, seat_rows, user_id
        self.seat = seat_rows[0].name
        royal_letter = variant.features.royal
        self.royal = (variant.ruleset.pieces[royal_letter].name.lower()
                      if royal_letter in variant.ruleset.pieces else None)
        self.career = Career(variant.family, games=1)
        self._captured_before = Fraction(0)
        self._life = 0

    def copy(self) -> "CareerCount":
        """The count so far, to go on counting apart (the variant and the seat's rows are shared)."""
        twin = CareerCount.__new__(CareerCount)
        twin.variant, twin.seat_rows, twin.user_id, twin.seat, twin.royal = (
            self.variant, self.seat_rows, self.user_id, self.seat, self.royal)
        twin.career = replace(self.career)
        twin._captured_before, twin._life = self._captured_before, self._life
        return twin

    def add(self, snapshot: Snapshot, state: GameState) -> None:
        career, seat = self.career, self.seat
        standing = next((s for s in self.variant.standings(state) if s.name == seat), None)
        captured_now = standing.captured if standing is not None else self._captured_before
        risen = captured_now - self._captured_before if captured_now >= self._captured_before else captured_now
        self._captured_before = captured_now
        if not _holder(self.seat_rows, self.user_id, snapshot.created_at):
            return
        report = Report.from_json(snapshot.report) if snapshot.report else Report(snapshot.update_no)
        if seat in snapshot.orders:
            career.updates_played += 1
        career.value_captured += risen
        king_lost = False
        for entry in report.entries:
            if entry.type == "capture" and entry.data.get("kind") == self.royal:
                if seat in entry.data.get("by", ()):
                    career.kings_captured += 1
                if entry.data.get("owner") == seat:
                    king_lost = True
            elif entry.type == "king_lost" and entry.players and entry.players[0] == seat:
                king_lost = True
            elif entry.type == "army" and entry.players and entry.players[0] == seat:
                career.armies_taken += 1
            elif entry.type == "event_end" and standing is not None:
                career.events_survived += 1
        if standing is not None:
            career.best_rank = standing.rank if career.best_rank is None else min(career.best_rank, standing.rank)
        self._life = self._life + 1 if standing is not None and standing.has_king and not king_lost else 0
        career.longest_king_life = max(career.longest_king_life, self._life)


def _count_update(count: CareerCount, snapshot: Snapshot) -> None:
    count.add(snapshot, serialize.loads(snapshot.state))


def career_of(variant: Variant, updates: Iterable[tuple[Snapshot, GameState]], seat_rows: list[PlayerRow],
              user_id: int) -> Career:
    """The career of ``user_id`` in one game from its resolved updates in order (:class:`CareerCount`)."""
    count = CareerCount(variant, seat_rows, user_id)
    for snapshot, state in updates:
        count.add(snapshot, state)
    return count.career


# ----------------------------------------------------------------------------- what the front ends show
@dataclass(frozen=True, slots=True)
class Standing:
    """A line of a leaderboard: the member's place among those who count (None: provisional)."""

    place: int | None
    rating: Rating


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """A server's leaderboard of one family: the top members who count (``LEADERBOARD_SIZE``), the
    provisional members (fewer than ``PROVISIONAL_GAMES`` rated games), and the viewer's own line."""

    guild_id: int
    family: str
    top: tuple[Standing, ...]
    provisional: tuple[Standing, ...]
    counted: int
    own: Standing | None = None
    hidden_self: bool = False
    families: tuple[str, ...] = ()
    #: each member's name in the last game of the server they played (the CLI has no Discord names)
    names: dict[int, str] = field(default_factory=dict, compare=False)

    def name_of(self, user_id: int) -> str:
        return self.names.get(user_id, f"member {user_id}")

    def lines(self) -> list[str]:
        """The leaderboard as text (``python -m bot ratings``): the members who count, then the
        provisional ones, each with their rating (ordinal, mu ± sigma), games and wins."""
        lines = [f"Server {self.guild_id}, {self.family}: {self.counted} counted, {len(self.provisional)} provisional "
                 f"(a member counts after {PROVISIONAL_GAMES} rated games)"]
        for standing in self.top:
            lines.append(f"  {standing.place:>3}. {self._line(standing.rating)}")
        for standing in self.provisional:
            lines.append(f"    ?. {self._line(standing.rating)} (provisional)")
        return lines

    def _line(self, rating: Rating) -> str:
        return (f"{self.name_of(rating.user_id)} (user {rating.user_id}): {rating.text()}, "
                f"{rating.games} game{'s' if rating.games != 1 else ''}, {rating.wins} won")


@dataclass(frozen=True, slots=True)
class RecentGame:
    game: Game
    title: str
    place: int | None           # their place when the game was rated
    link: str                   # the game's channel (its posts are its record)
    viewer: str | None          # the web viewer's page, when [web] public_url is set


@dataclass(frozen=True, slots=True)
class Profile:
    guild_id: int
    user_id: int
    hidden: bool
    ratings: tuple[tuple[str, Rating], ...]
    careers: tuple[Career, ...]
    recent: tuple[RecentGame, ...] = field(default_factory=tuple)
    #: the member hid their profile and someone else looks: their ratings and places are not shown
    private: bool = False


def _leaderboard(guild_id: int, family: str, ratings: dict[int, Rating], hidden: set[int],
                 viewer: int | None, families: tuple[str, ...], names: dict[int, str]) -> Leaderboard:
    ordered = sorted(ratings.values(), key=lambda r: (-r.ordinal, -r.mu, r.user_id))
    counted = [r for r in ordered if not r.provisional]
    places = {r.user_id: place for place, r in enumerate(counted, start=1)}
    shown = [r for r in counted if r.user_id not in hidden]
    top = tuple(Standing(places[r.user_id], r) for r in shown[:LEADERBOARD_SIZE])
    provisional = tuple(Standing(None, r) for r in ordered if r.provisional and r.user_id not in hidden)
    own = None
    if viewer is not None and viewer in ratings:
        own = Standing(places.get(viewer), ratings[viewer])
    return Leaderboard(guild_id, family, top, provisional, len(counted), own, viewer in hidden, families, names)


class CareerCases(ServiceBase):
    """Ratings, leaderboards, profiles and careers: reads of the stored games (the result cache is
    brought up to date first, in a transaction of its own when anything is missing)."""

    async def _results(self, guild_id: int | None) -> list[GameResult]:
        """The results of the ended games of a server (or of every server), each as its current
        final snapshot says, by the time it ended then its id. Missing or stale results are worked
        out in a consistent read (a state read and ranked per game, off the event loop), then kept
        in one short transaction, each only if its game still ends on that snapshot: nothing waits
        for the write lock while they are worked out."""
        async with self.store.snapshot_read() as q:
            ended = await q.games(guild_id=guild_id, statuses=("ended",))
            kept = {result.game_id: result for result in await q.game_results(guild_id)}
            fresh = []
            for game in ended:
                cached = kept.get(game.id)
                key = (game.snapshot_update, game.snapshot_revision)
                if game.snapshot_update is not None and (cached is None
                                                         or (cached.snapshot_update, cached.snapshot_revision) != key):
                    fresh.append(await self._work_out_result(q, game))
        if fresh:
            async with self.store.transaction() as q:
                for result in fresh:
                    game = await q.game(result.game_id)
                    if (game is not None and game.status == "ended"
                            and (game.snapshot_update, game.snapshot_revision)
                            == (result.snapshot_update, result.snapshot_revision)):
                        await q.keep_game_result(result)
            kept.update({result.game_id: result for result in fresh})
        ended_ids = {game.id for game in ended}
        return sorted((r for r in kept.values() if r.game_id in ended_ids), key=lambda r: (r.ended_at, r.game_id))

    async def _work_out_result(self, q, game: Game) -> GameResult:
        """The result of an ended game from its final snapshot (a read)."""
        snapshot = await q.snapshot(game.id, game.snapshot_update, game.snapshot_revision)
        try:
            variant = self.variant(game)
        except NotFound:                # a ruleset withdrawn since: the game cannot be read, and is not rated
            return GameResult(game.id, game.snapshot_update, game.snapshot_revision, game.guild_id, game.ruleset,
                              False, snapshot.created_at, ())
        state = await asyncio.to_thread(frozen, serialize.loads, snapshot.state)
        return result_of(game, variant, state, snapshot, await q.players(game.id, include_kicked=True),
                         await q.resolved_order_counts(game.id))

    async def ratings(self, guild_id: int | None = None) -> dict[int, dict[str, dict[int, Rating]]]:
        """``server -> family -> user id -> Rating``, worked out from the stored games."""
        results = await self._results(guild_id)
        by_guild: dict[int, list[GameResult]] = defaultdict(list)
        for result in results:
            if result.rated:
                by_guild[result.guild_id].append(result)
        return {guild: await asyncio.to_thread(rate, found) for guild, found in sorted(by_guild.items())}

    async def leaderboard(self, guild_id: int, *, family: str | None = None, viewer: int | None = None) -> Leaderboard:
        """The server's leaderboard of ``family`` (by default the family of most rated games)."""
        ratings = (await self.ratings(guild_id)).get(guild_id, {})
        families = tuple(sorted(ratings, key=lambda f: (-sum(r.games for r in ratings[f].values()), f)))
        if not families:
            raise NotFound("no game of this server has ended with a verdict yet, so nobody is rated",
                           hint="arena and territory games are rated when they end with a winner or a draw")
        if family is None:
            family = families[0]
        elif family not in ratings:
            raise InvalidInput(f"no {str(family)[:40]!r} game of this server has been rated; "
                               f"the rated families are {', '.join(families)}")
        async with self.store.snapshot_read() as q:
            hidden = await q.hidden_members(guild_id)
            names = await q.member_names(guild_id)
        return _leaderboard(guild_id, family, ratings[family], hidden, viewer, families, names)

    async def leaderboards(self, *, family: str | None = None) -> list[Leaderboard]:
        """Every server's leaderboards (of ``family`` only, if given), by server then family: what
        ``python -m bot ratings`` prints."""
        boards = []
        everything = await self.ratings()
        async with self.store.snapshot_read() as q:
            for guild, families in everything.items():
                hidden = await q.hidden_members(guild)
                members = await q.member_names(guild)
                names = tuple(sorted(families))
                for name in names:
                    if family is None or name == family:
                        boards.append(_leaderboard(guild, name, families[name], hidden, None, names, members))
        return boards

    async def rated_families(self, guild_id: int) -> list[str]:
        """The families the server's leaderboards have, as last worked out (a hint for autocomplete:
        the result cache is read as it is, not brought up to date)."""
        if not is_row_number(guild_id):
            return []
        async with self.store.snapshot_read() as q:
            return await q.rated_families(guild_id)

    async def set_profile_hidden(self, guild_id: int, user_id: int, hidden: bool) -> None:
        """``hidden``: keep the member off the server's leaderboards (they are still rated)."""
        if not is_row_number(guild_id) or not is_row_number(user_id):
            raise InvalidInput("a profile belongs to a member of a server")
        async with self.store.transaction() as q:
            await q.set_hidden(guild_id, user_id, bool(hidden))

    async def profile(self, guild_id: int, user_id: int, *, viewer: int | None = None,
                      public_url: str | None = None) -> Profile:
        """A member's profile on a server, as ``viewer`` (by default the member) may see it: their
        rating in each family (not shown to others when the member hid it), their careers in the
        endless games, their recent games with where to read them."""
        if not is_row_number(user_id):
            raise NotFound(f"{str(user_id)[:20]!r} is not a member")
        results = await self._results(guild_id)
        ratings = await asyncio.to_thread(rate, results)
        async with self.store.snapshot_read() as q:
            hidden = user_id in await q.hidden_members(guild_id)
            shown = not hidden or viewer in (None, user_id)
            own = tuple((family, found[user_id]) for family, found in sorted(ratings.items())
                        if user_id in found and shown)
            places = {r.game_id: place for r in results if r.rated and shown
                      for _, user, place, _ in r.places if user == user_id}
            games = await q.games_played_by(user_id, guild_id, limit=1000)
            careers: dict[str, Career] = {}
            for game in games:
                career = await self._career_in(q, game, user_id)
                if career is not None:
                    careers.setdefault(career.family, Career(career.family, games=0)).add(career)
        recent = []
        base = public_url.rstrip("/") if public_url else None
        for game in games[:RECENT_GAMES]:
            try:
                title = self.variant(game).title
            except NotFound:
                title = game.ruleset
            recent.append(RecentGame(game, title, places.get(game.id),
                                     f"https://discord.com/channels/{game.guild_id}/{game.channel_id}",
                                     f"{base}/games/{game.id}" if base else None))
        return Profile(guild_id, user_id, hidden, own, tuple(careers[f] for f in sorted(careers)), tuple(recent),
                       private=not shown)

    async def _career_in(self, q, game: Game, user_id: int) -> Career | None:
        """The member's career in ``game`` if it is an endless game (its verdict never names
        winners) that has started; None otherwise."""
        if game.snapshot_update is None:
            return None
        try:
            variant = self.variant(game)
        except NotFound:
            return None
        if variant.features.winners:
            return None
        rows = await q.players(game.id, include_kicked=True)
        mine = next((row for row in rows if row.user_id == user_id), None)
        if mine is None or mine.departure == "left":
            return None
        seat_rows = [row for row in rows if row.name == mine.name]
        keys = tuple(key for key in await q.resolved_keys(game.id) if 0 < key[0] <= game.snapshot_update)
        # A count is kept with the updates it counted (and the seat's rows): while they are the start of
        # the game's updates now, counting goes on after them; a rollback or a substitution since
        # starts it again. A copy goes on, so that two profiles at once never count an update twice.
        cache_key = (game.id, user_id)
        kept = self._career_counts.get(cache_key)
        if kept is not None and kept[0] == tuple(seat_rows) and keys[:len(kept[1])] == kept[1]:
            count, done = kept[2].copy(), len(kept[1])
        else:
            count, done = CareerCount(variant, seat_rows, user_id), 0
        for update_no, revision in keys[done:]:
            # one state at a time (a large game's would not fit at once), read and ranked off the event loop
            snapshot = await q.snapshot(game.id, update_no, revision)
            await asyncio.to_thread(frozen, _count_update, count, snapshot)
        counts = self._career_counts
        counts[cache_key] = (tuple(seat_rows), keys, count.copy())
        counts.move_to_end(cache_key)
        while len(counts) > CACHED_CAREERS:
            counts.popitem(last=False)
        return count.career
