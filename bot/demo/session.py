"""The session driver of the demo: one game played through the service, as the bot plays it.

The game is created, or the unfinished one found in ``DIR/skirmish.sqlite3`` (or in the database
``--store-url`` names) is continued (a demo killed at any point resumes where it stopped). Players
take their seats before the start where the variant seats players (arena), or join the running game
when their time comes (neisg, sandbox, megachess). Each update's orders go in as soon as its board
is posted; the real scheduler resolves it at its deadline (or at once, where the game resolves
early); the outbox is delivered to files. The players' intents come from the planner of the game's
family (:mod:`bot.demo.planners`).

The simulated players are never late: a deadline that falls while they are still sending an
update's orders (a machine busy drawing the last board) is acted on once they are all in
(the scheduler's ``ready``, :class:`_Pace`). So a seed plays the same session, post for post, on any machine and any
store, whatever the interval; and the interval only sets how fast the session goes.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from bot.engine.model import format_amount
from bot.engine.ruleset import Ruleset, load_preset
from bot.engine.variants import variant_for

from .common import (CHANNEL_ID, GUILD_ID, HEARTBEAT_SECONDS, LEASE_BEATS, LEDGER, MODERATOR_ID, POSTS, RECORD,
                     STORE_MARK, DemoError, DemoOptions, Planner, SimulatedPlayer)
from .planners import planner_for
from .summary import Summary

__all__ = ["run_demo", "main", "seat_count"]

log = logging.getLogger(__name__)

#: how soon the scheduler tries a turn-based game's due deadline again (a skipped turn, due at once)
SKIPPED_TURN_WAIT = timedelta(seconds=0.5)


# ============================================================================ the ledger
class _Ledger:
    """What the database does not keep: per update, the orders refused at once and the secret ones.
    Rewritten per update, so an update whose orders are sent again after a crash counts once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.entries: dict[str, dict] = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            self.entries = {}
        except (OSError, ValueError) as exc:
            raise DemoError(f"cannot read {path}: {exc}") from None

    def record(self, update: int, **counts: int) -> None:
        from bot.service.publishing import write_atomically

        self.entries[str(update)] = counts
        write_atomically(self.path, json.dumps(self.entries, indent=1, sort_keys=True).encode("utf-8"))

    def total(self, key: str) -> int:
        return sum(entry.get(key, 0) for entry in self.entries.values())


class _StoreMark:
    """Which database holds the session whose posts are in DIR, when that is not ``DIR/skirmish.sqlite3``
    (``--store-url``): DIR's ``demo-store.json``, the URL (without its password) and the game's
    creation time. A run continues the session only where DIR and the database belong together, so
    one session's posts never end up in two directories, nor two sessions' in one."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.facts: dict | None = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            self.facts = None
        except (OSError, ValueError) as exc:
            raise DemoError(f"cannot read {path}: {exc}") from None

    def check_store(self, options: DemoOptions) -> None:
        """DIR's session lives in the database asked for (the default's DIR has no mark)."""
        if self.facts is not None and self.facts.get("store") != options.store_shown:
            raise DemoError(f"{options.out} holds a session played on {self.facts.get('store')}: give "
                            f"--store-url with that database to continue it, or choose another --out")

    def check_game(self, options: DemoOptions, game) -> None:
        """The database's session is DIR's (or DIR has none yet, and the store is DIR's own file)."""
        if options.store_url is None and self.facts is None:
            return
        created = self.facts.get("created_at") if self.facts is not None else None
        if self.facts is None or (created is not None and created != game.created_at.isoformat()):
            raise DemoError(f"{options.store_shown} holds this session already, played into another directory "
                            f"(its posts are there): give that --out to continue it, or use another database")
        if created is None:         # the run that created the game stopped before it marked DIR
            self.write(options, game)

    def check_no_game(self, options: DemoOptions) -> None:
        """A database without the session is not given a DIR that holds one (its posts would mix)."""
        if self.facts is not None and self.facts.get("created_at") is not None:
            raise DemoError(f"{options.out} holds a session that {options.store_shown} does not have (a new "
                            f"database?): choose another --out, or delete {options.out}")

    def write(self, options: DemoOptions, game) -> None:
        if options.store_url is None:
            return
        from bot.service.publishing import write_atomically

        self.facts = {"store": options.store_shown, "created_at": None if game is None else game.created_at.isoformat()}
        write_atomically(self.path, json.dumps(self.facts, indent=1, sort_keys=True).encode("utf-8"))


# ============================================================================ the session driver
class _Progress:
    """A progress bar on a terminal; nothing otherwise (CI logs stay clean)."""

    def __init__(self, total: int, stream=None) -> None:
        self.total = total
        self.stream = stream or sys.stdout
        self.enabled = self.stream.isatty()

    def show(self, done: int, note: str = "") -> None:
        if not self.enabled:
            return
        width = 30
        filled = width * min(done, self.total) // max(self.total, 1)
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] update {done}/{self.total} {note:<24}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


async def run_demo(options: DemoOptions) -> Summary:
    """Play (or continue) the demo session in ``options.out``; the summary of the whole session."""
    from bot.service import Service
    from bot.service.claims import Liveness
    from bot.store import Store, StoreError

    started = time.monotonic()
    ruleset = _ruleset(options.ruleset)
    variant = variant_for(ruleset)
    planner = planner_for(variant)
    count, note = seat_count(variant, options.players)
    options = replace(options, players=count)
    players = planner.cast(count)
    out = Path(options.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DemoError(f"cannot make {out}: {exc}") from None
    mark = _StoreMark(out / STORE_MARK)
    mark.check_store(options)       # before the store is opened: a refused run makes no database
    try:
        store = await Store.open(options.store)
    except (OSError, StoreError) as exc:
        raise DemoError(f"cannot open {options.store_shown}: {exc}") from None
    except Exception as exc:        # the server's own refusal (no such database, a wrong password, ...)
        raise DemoError(f"cannot open {options.store_shown}: {type(exc).__name__}: {exc}") from None
    try:
        liveness = Liveness(beat=timedelta(seconds=HEARTBEAT_SECONDS), lease_beats=LEASE_BEATS)
        session = _Session(Service(store, liveness=liveness), ruleset, planner, players, options, mark)
        summary = await session.play()
        summary.players_note = note
        summary.seconds = time.monotonic() - started
        return summary
    finally:
        await store.close()


def seat_count(variant, asked: int) -> tuple[int, str]:
    """The players of a session of ``variant`` when ``asked`` for: within the seats the variant
    takes (arena: 2 to 8), with a note saying so when that is not what was asked."""
    from bot.render.palette import colour_names

    seating = variant.seating
    low = max(2, seating.min_players or 2)         # the demo's players always meet someone
    high = seating.max_players
    most = min(high, len(colour_names())) if high is not None else len(colour_names())
    if asked < low:        # one limit and one message for --players 1, 0 or -3
        raise DemoError(f"{variant.title} needs at least {low} players, not {asked}: the demo plays "
                        f"{low} to {most}")
    if high is not None and asked > high:
        return high, f" ({asked} asked; {variant.title} seats {low} to {high})"
    if asked > most:
        raise DemoError(f"the demo has {low} to {most} players (one colour each), not {asked}")
    return asked, ""


def _moderator():
    """The demo server's moderator, as the service's moderator use cases take one."""
    from bot.service import Moderator

    return Moderator(user_id=MODERATOR_ID, guild_id=GUILD_ID)


async def _deliver_until(stop: asyncio.Event, service, relay) -> None:
    """Deliver the outbox as posts arrive (what ``OutboxRelay.run`` does), until ``stop`` is set."""
    while not stop.is_set():
        service.posts_waiting.clear()
        try:
            await relay.deliver_due()
        except Exception:          # as OutboxRelay.run: a failed round is retried, delivery goes on
            log.exception("the demo's outbox delivery failed; retrying")
        try:
            await asyncio.wait_for(service.posts_waiting.wait(), relay.poll_seconds)
        except TimeoutError:
            pass


async def _deliver_all(service, relay) -> None:
    """Deliver every post of the session before the demo ends. A demo killed and run again finds
    its game's posts still held by its dead predecessor (the game's sender, bot/service/publishing.py)
    until that one's lease has passed (3 s after its last heartbeat: common.py, LEASE_BEATS): then
    this waits for it, looking every relay poll, for at most the lease and a poll more."""
    liveness = service.liveness
    give_up = time.monotonic() + (liveness.lease + liveness.beat).total_seconds() + relay.poll_seconds
    while True:
        while await relay.deliver_due():
            pass
        if not relay.sent_elsewhere or time.monotonic() > give_up:
            return
        await asyncio.sleep(relay.poll_seconds)


class _Pace:
    """The last update whose orders the simulated players have sent (or had sent before the demo
    was stopped): what the scheduler's deadlines wait for."""

    def __init__(self) -> None:
        self.sent_for = 0
        self.closed = False
        self._moved = asyncio.Event()

    def sent(self, update: int) -> None:
        self.sent_for = max(self.sent_for, update)
        self._moved.set()
        self._moved = asyncio.Event()

    def close(self) -> None:
        """The session stops: nothing waits any more."""
        self.closed = True
        self._moved.set()

    async def orders_in(self, update: int) -> bool:
        """Wait until the orders of ``update`` are in; False if the session stops first."""
        while not (self.closed or self.sent_for >= update):
            await self._moved.wait()
        return not self.closed


def _ruleset(name: str) -> Ruleset:
    from bot.engine.ruleset import RulesetError, preset_names

    if name not in preset_names():
        raise DemoError(f"unknown ruleset {name!r}: choose one of {', '.join(preset_names())}")
    from bot.engine.variants import VariantUnavailable

    try:
        ruleset = load_preset(name)
        variant_for(ruleset)
    except (RulesetError, VariantUnavailable) as exc:
        raise DemoError(str(exc)) from None
    return ruleset


class _Session:
    """One demo game driven through the service: the moderator's part and the players' part."""

    def __init__(self, service, ruleset: Ruleset, planner: Planner, players: list[SimulatedPlayer],
                 options: DemoOptions, mark: _StoreMark) -> None:
        self.service = service
        self.mark = mark
        self.ruleset = ruleset
        self.planner = planner
        self.players = players
        self.options = options
        self.out = Path(options.out)
        self.ledger = _Ledger(self.out / LEDGER)
        self.late = 0
        self.interval = options.interval
        self.pace = _Pace()
        # a turn-based game (territory) keeps its own turn length: a turn ends at its player's accepted
        # submission and a skipped turn at once (RULES 5.4.8); the demo sets no pace of its own
        self.turn_based = variant_for(ruleset).features.turn_based
        self._reports: dict[int, object] = {}
        self.existed = False            # the database held this session already (a re-run)
        self.resumed: tuple[int, bool] | None = None     # a re-run: (updates played before, already over)

    async def play(self) -> Summary:
        from bot.scheduler import GameScheduler
        from bot.service import FilePublisher, OutboxRelay

        service = self.service
        game = await self.find_or_create()
        self.resumed = (game.snapshot_update or 0, game.status == "ended") if self.existed else None
        if not self.turn_based and service.schedule(game).kind == "interval":
            self.interval = service.schedule(game).seconds      # a session keeps the interval it began with
        relay = OutboxRelay(service, FilePublisher(self.out / POSTS), poll_seconds=0.5)
        progress = _Progress(self.options.updates)
        if game.status == "running" and not game.locked and game.claimed_by is None:
            # before the scheduler starts: a deadline that passed while the demo was down then
            # resolves with this update's orders in, as in a session that never stopped
            await self.play_update(game)
            game = await self.start_clock(game)
        # the orders of the open update are in: sent just now, or locked in when the demo stopped
        # (the scheduler's start may resolve it)
        self.pace.sent(game.update_no)
        # a skipped turn is due the moment the turn before it resolves: the scheduler, seeing it due
        # after its run, waits retry_after (30 s) before it resolves it
        # the real scheduler, which does what is due for the open update only once the players'
        # orders for it are in: a deadline that passed meanwhile (the machine was slow to post the
        # board or to plan) then resolves the update with all of them, as on a fast machine
        scheduler = GameScheduler(service, ready=lambda game: self.pace.orders_in(game.update_no),
                                  **({"retry_after": SKIPPED_TURN_WAIT} if self.turn_based else {}))
        await service.start()          # its heartbeat (bot/service/claims.py): a demo killed mid-update
        await scheduler.start()        # holds its claim for the lease only
        stop = asyncio.Event()
        delivery = asyncio.create_task(_deliver_until(stop, service, relay), name="demo outbox relay")
        played_out = False
        try:
            # the orders of this update are in: sent just now, or locked in when the demo stopped
            # (the scheduler may have resolved it since, at its start)
            played = game.update_no
            game = await self.start_clock(await service.get_game(game.id))
            while True:
                progress.show(game.snapshot_update or 0)
                game = await self.next_open_update(game.id, played)
                if game.status == "ended":
                    break
                await self.play_update(game)
                played = game.update_no
                self.pace.sent(played)
            played_out = True
        finally:
            # stopped, not cancelled: a task cancelled inside a database read can leave the
            # store's reader connection in an open transaction
            stop.set()
            self.pace.close()
            service.posts_waiting.set()
            await delivery
            await scheduler.settle()
            await scheduler.shutdown()
            if not played_out:
                await service.stop()
        try:                            # while the service lives: its relay sends the game's posts
            progress.show(game.snapshot_update or 0, "delivering posts")
            await _deliver_all(service, relay)
        finally:
            await service.stop()
        progress.close()
        summary = await self.summarise(game)
        summary.record = await self.export_record(game)
        return summary

    async def export_record(self, game) -> Path:
        """The game's record in ``DIR/record.json``, as a moderator's /game export posts it (not
        posted here): anyone re-checks it with ``python -m bot replay DIR/record.json``."""
        from bot.service.publishing import write_atomically

        _, data = await self.service.export_record(game.id, actor=_moderator(), post=False)
        path = self.out / RECORD
        write_atomically(path, data)
        return path

    # ------------------------------------------------------------------ the moderator
    async def find_or_create(self):
        """The demo game found in the database (started if it was not), or a new one."""
        from bot.service import Schedule

        service, options = self.service, self.options
        first_event = options.first_event(self.ruleset)
        moved = {} if first_event == variant_for(self.ruleset).first_event else {"events_from": first_event}
        mark = self.mark
        games = await service.games_in(channel_id=CHANNEL_ID, include_ended=True)
        if games:
            self.existed = True
            game = max(games, key=lambda g: g.id)
            if game.name != options.game_name:
                where = ("choose another --out, or delete that directory" if options.store_url is None else
                         "choose another database, or drop that one's tables")
                raise DemoError(f"{options.store_shown} holds another session, {game.name!r}; {where}")
            mark.check_game(options, game)
        else:
            mark.check_no_game(options)
            mark.write(options, None)       # first: a run killed right after creating the game still owns it
            # the schedule is set once the first orders are in (start_clock): the announcement of
            # the start then has no clock time in it, and the session's posts are alike on every run
            game = await service.create_game(guild_id=GUILD_ID, channel_id=CHANNEL_ID, actor=_moderator(),
                                             ruleset=options.ruleset, name=options.game_name, seed=options.seed,
                                             settings={"length": options.updates, "remind_before": 0,
                                                       "lock_before": 0, **moved},
                                             schedule=Schedule("manual"))
            mark.write(options, game)
        if game.status == "setup":
            await self.take_seats(game)
            game = await service.start_game(game.id, actor=_moderator())
        self.ruleset = service.ruleset(game)        # as the game plays it (its own first event)
        return game

    async def take_seats(self, game) -> None:
        """Where the variant seats its players before the start (arena), every simulated player takes
        a seat (again after a crash: a seat already taken is kept)."""
        from bot.service import Conflict

        if not variant_for(self.ruleset).seating.seats_before_start:
            return
        for player in self.players:
            try:
                await self.service.join(game.id, user_id=player.user_id, name=player.name, colour=player.colour)
            except Conflict:
                pass

    async def start_clock(self, game):
        """Deadlines every ``interval`` seconds from now, as a moderator's /game schedule would set."""
        from bot.service import Schedule

        # a game set on its interval already keeps it, a turn-based game its turn length; a deadline
        # that is "now" (everyone had ordered for update 1: early resolution) still needs the interval
        # for the updates after it
        if game.status != "running" or self.turn_based or self.service.schedule(game).kind != "manual":
            return game
        return await self.service.configure(game.id, actor=_moderator(),
                                            schedule=Schedule("interval", seconds=self.interval))

    async def next_open_update(self, game_id: int, played: int):
        """Wait until the scheduler has resolved update ``played`` (its board is posted) and the next
        update is open for orders, or the game has ended."""
        patience = max(60.0, 10.0 * self.interval)
        deadline = time.monotonic() + patience
        while True:
            game = await self.service.get_game(game_id)
            if game.status == "ended" or (game.update_no > played and not game.locked and game.claimed_by is None):
                return game
            if time.monotonic() > deadline:
                raise DemoError(f"update {game.update_no} was not resolved within {patience:.0f} s; "
                                "is the scheduler running?")
            await asyncio.sleep(0.05)

    # ------------------------------------------------------------------ the players
    async def play_update(self, game) -> None:
        """Join this update's newcomers (where players join a running game), then send every
        player's orders (slips first)."""
        from bot.service import Conflict, OrderRefused, WrongTime
        from bot.service.base import with_joiners

        service, update = self.service, game.update_no
        joined = {row.user_id for row in await service.players(game.id)}
        seated = variant_for(self.ruleset).seating.seats_before_start
        for player in self.players:
            if not seated and player.joins_at <= update and player.user_id not in joined:
                try:
                    await service.join(game.id, user_id=player.user_id, name=player.name, colour=player.colour)
                except Conflict:
                    pass
        seen = await service.history(game.id, game.snapshot_update)
        rows = await service.players(game.id)
        state = with_joiners(self.ruleset, seen.state,
                             [(row.name, row.colour) for row in rows if row.name not in seen.state.players])
        shown: set[str] = set()
        for number in range(1, game.snapshot_update + 1):
            shown.update(entry.type for entry in await self.entries(game.id, number))
        intents = await asyncio.to_thread(self.planner.plan, self.ruleset, state, update, self.options.seed,
                                          self.players, frozenset(shown))
        refused = secret = sent = 0
        answers: dict[str, list[str]] = {}      # each player's refusals, as the bot answers them privately
        for intent in intents:
            user = intent.player.user_id
            try:
                if intent.slip is not None:
                    try:
                        await service.submit_order(game.id, user_id=user, text=intent.slip, source=intent.source)
                    except OrderRefused as refusal:
                        refused += 1
                        answers.setdefault(intent.player.name, []).append(
                            refusal_answer(update, intent.slip, intent.source, refusal))
                if intent.order is None:
                    continue
                receipt = await service.submit_order(game.id, user_id=user, text=intent.order, source=intent.source)
            except (WrongTime, OrderRefused):
                self.late += 1          # the update closed meanwhile (never: the deadline waits for the orders)
                continue
            if receipt.update_no != update:
                self.late += 1
            sent += 1
            secret += receipt.secret
        self.write_refusals(update, answers)
        self.ledger.record(update, sent=sent, secret=secret, refused=refused)

    def write_refusals(self, update: int, answers: dict[str, list[str]]) -> None:
        """Each refused player's answers of this update, in ``posts/NNNN/private/<player>-refused.md``
        beside their private report: on Discord the bot answers a refused order at once, to its
        sender only, so nothing in the channel shows it. Rewritten whole per update, so an update
        whose orders are sent again after a crash leaves the same file."""
        from bot.service.publishing import safe_file_name, write_atomically

        folder = self.out / POSTS / f"{update:04d}" / "private"
        for name, texts in sorted(answers.items()):
            write_atomically(folder / safe_file_name(f"{name}-refused.md"), ("\n\n".join(texts) + "\n").encode())

    async def entries(self, game_id: int, update: int) -> list:
        """The report entries of a resolved update (read once: a resolved update does not change)."""
        if update not in self._reports:
            entry = await self.service.history(game_id, update)
            self._reports[update] = (len(entry.orders), entry.report.entries if entry.report else [])
        return self._reports[update][1]

    # ------------------------------------------------------------------ the summary
    async def summarise(self, game) -> Summary:
        variant = variant_for(self.ruleset)
        summary = Summary(length=self.options.updates, players=self.options.players,
                          expected=self.planner.expected(self.options, variant), late=self.late,
                          interval=self.interval, first_event=variant.first_event,
                          own_first_event=variant_for(_ruleset(self.options.ruleset)).first_event)
        summary.updates = game.snapshot_update or 0
        summary.resumed = self.resumed
        for update in range(1, summary.updates + 1):
            for entry in await self.entries(game.id, update):
                if entry.type == "refused":
                    summary.refused_at_update += 1
                else:
                    self.planner.count(summary.counts, entry)
            summary.orders += self._reports[update][0]
        summary.secret = self.ledger.total("secret")
        summary.refused_at_once = self.ledger.total("refused")
        posts = self.out / POSTS
        summary.posts = sum(1 for path in posts.rglob("*") if path.is_file()) if posts.exists() else 0
        if game.status == "ended":
            summary.ended = 1
            summary.end = await self.ending(game, variant, summary.updates)
        summary.rows = self.planner.rows(summary)
        return summary

    async def ending(self, game, variant, updates: int) -> str:
        """How the game ended, in words: the variant's verdict on the last position, or cut short at
        the session's length when it had none (the game's own end never came)."""
        state = (await self.service.history(game.id, updates)).state if updates else None
        verdict = variant.verdict(state) if state is not None else None
        if verdict is None or not verdict.over:
            return (f"cut short after update {updates} (--updates {self.options.updates}): the game had no "
                    f"verdict yet")
        if verdict.drawn or not verdict.winners:
            headline = "drawn, no winner"
        elif self.planner.headline is not None:
            headline = self.planner.headline(variant, state, verdict.winners)
        else:
            currency = variant.features.currency
            best = max(state.players[name].balance for name in verdict.winners)
            names = verdict.winners
            who = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
            headline = (f"{who} {'wins' if len(names) == 1 else 'share the win'} with "
                        f"{format_amount(best)} {currency}")
        return f"{headline}: {verdict.reason}" if verdict.reason else headline


def refusal_answer(update: int, order: str, source: str, refusal) -> str:
    """How the bot answers a refused order, privately, to the player who sent it (cogs/__init__.py's
    ``error_text`` without Discord's code block): the order, the reason with the part at fault
    pointed at, the hint, and where the rulebook explains the rule it cites."""
    from bot.service.rulebook import Rulebook

    how = "by direct message" if source == "dm" else "with /move"
    first_line = order.splitlines()[0] if order else ""
    shown_order = first_line if first_line == order else f"{first_line} … ({len(order.splitlines())} lines)"
    footer = Rulebook().footer(refusal.message, refusal.hint, refusal.rule)
    return "\n".join([f"**Order refused** (update {update}, sent {how}): `{shown_order}`", "```",
                       refusal.describe(), "```", *([footer] if footer else [])])


def main(options: DemoOptions) -> int:
    """Run the demo and print its summary: 0 when every expected count is positive, else 1."""
    try:
        summary = asyncio.run(run_demo(options))
    except KeyboardInterrupt:
        print(f"\nstopped; the same command continues the session in {options.out}", file=sys.stderr)
        return 130
    print(summary.text(options))
    return 1 if summary.missing() else 0
