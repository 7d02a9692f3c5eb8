"""Use cases of a game's life: create, configure, start, pause, resume, end; joining; listings."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from bot.engine import serialize
from bot.engine.variants import VariantUnavailable, playable_presets, variant_for
from bot.engine.ruleset import Ruleset, load_preset, preset_names
from bot.render.palette import colour_names, distinct_colours, resolve_colour
from bot.store import Game, PlayerRow

from .actors import Moderator, require_moderator
from .base import ServiceBase, departed, is_row_number
from .errors import Conflict, InvalidInput, NotAllowed, NotFound, WrongTime, shown
from .names import GAME_NAME, clean_name
from .settings import GameSettings, Schedule, turn_schedule

__all__ = ["GameCases", "GameSummary", "clean_name", "clean_colour", "playable_rulesets", "colour_choices"]


def playable_rulesets() -> list[str]:
    """The shipped rulesets a game can be created with (``/game create`` offers them): the presets
    whose family has a variant."""
    return playable_presets()


def colour_choices(taken=()) -> tuple[list[str], list[str]]:
    """What /join offers outside a game: the colours not in ``taken``, the most distinct first
    (:func:`bot.render.palette.distinct_colours`), and every colour name in the palette's order."""
    return distinct_colours(taken), colour_names()

def clean_colour(text: str) -> str:
    """A colour of INTERFACES.md (``Purple``, ``Crimson/Yellow``) in its listed spelling."""
    if len(str(text)) > 100:     # no colour name is this long; do not echo it all back
        raise InvalidInput(f"unknown colour {shown(text)}", hint="/join offers the colours as you type")
    try:
        tones = resolve_colour(str(text))
    except ValueError as exc:
        raise InvalidInput(str(exc), hint="/join offers the colours as you type") from None
    return "/".join(tone.name for tone in tones)


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game as ``/games`` lists it: the game, its ruleset's title, how many players play it."""

    game: Game
    title: str
    players: int


@dataclass(frozen=True, slots=True)
class Joined:
    game: Game
    player: PlayerRow
    next_step: str


class GameCases(ServiceBase):
    # ------------------------------------------------------------------ the life of a game
    async def create_game(self, *, guild_id: int, channel_id: int, actor: Moderator, ruleset: str = "neisg",
                          name: str | None = None, seed: int | str | None = None,
                          settings: dict | None = None, schedule: str | Schedule = "manual") -> Game:
        """A new game in a channel or thread (status ``setup``); one live game per channel."""
        actor_id = require_moderator(actor, guild_id, "create a game")
        if ruleset not in preset_names():
            raise InvalidInput(f"unknown ruleset {shown(ruleset)}", hint=f"choose one of {', '.join(playable_presets())}")
        rules = load_preset(ruleset)
        try:
            variant = variant_for(rules)
        except VariantUnavailable as unavailable:  # a half-built preset would resolve by the wrong rules
            raise InvalidInput(str(unavailable), hint=f"choose one of {', '.join(playable_presets())}") from None
        game_settings = GameSettings().changed(settings or {})
        self._check_events_from(rules, settings or {})
        self._check_turn_hours(variant, settings or {})
        game_schedule = schedule if isinstance(schedule, Schedule) else Schedule.parse(schedule)
        if variant.features.turn_based:
            if game_schedule.kind != "manual":
                raise InvalidInput(f"{variant.title} gives each turn its own time instead of a schedule",
                                   hint="set how long a turn lasts with the setting turn_hours")
            game_schedule = turn_schedule(game_settings)
        title = clean_name(f"{ruleset} game" if name is None else name, GAME_NAME)
        seed_text = str(secrets.randbelow(10**9) if seed is None else seed)
        if len(seed_text) > 100:
            raise InvalidInput("a seed is at most 100 characters")
        async with self.store.transaction() as q:
            for existing in await q.games(channel_id=channel_id):
                raise Conflict(f"this channel already runs game {existing.id} ({existing.name})",
                               hint="end it first, or create the game in another channel or thread")
            game_id = await q.insert_game(name=title, ruleset=ruleset, guild_id=guild_id, channel_id=channel_id,
                                          seed=seed_text, settings=game_settings.to_json(),
                                          schedule=game_schedule.to_json(), created_at=self.now(), created_by=actor_id)
            await q.audit(game_id=game_id, actor=actor_id, action="create",
                          detail={"ruleset": ruleset, "name": title, "schedule": game_schedule.describe()},
                          at=self.now())
            return await q.game(game_id)

    async def configure(self, game_id: int, *, actor: Moderator, settings: dict | None = None,
                        schedule: str | Schedule | None = None, name: str | None = None) -> Game:
        """Change settings, the schedule or the name. A new schedule takes effect from the next deadline,
        unless the game has none yet (manual until now), when the deadline is set from now."""
        async with self._after_orders(game_id), self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                actor_id = require_moderator(actor, game.guild_id, "change a game's settings")
                if game.status == "ended":
                    raise WrongTime(f"game {game.id} ({game.name}) has ended")
                changes: dict = {}
                detail: dict = {}
                variant = self.variant(game)
                if settings:
                    new_settings = self.settings(game).changed(settings)
                    changes["settings"] = new_settings.to_json()
                    self._check_events_from(load_preset(game.ruleset), settings, game)
                    self._check_turn_hours(variant, settings)
                    detail["settings"] = settings
                    if "turn_hours" in settings:     # a turn-based game's turns replace its schedule
                        schedule = turn_schedule(new_settings)
                elif schedule is not None and variant.features.turn_based:
                    raise InvalidInput(f"{variant.title} gives each turn its own time instead of a schedule",
                                       hint="set how long a turn lasts with the setting turn_hours")
                if schedule is not None:
                    new_schedule = schedule if isinstance(schedule, Schedule) else Schedule.parse(schedule)
                    changes["schedule"] = new_schedule.to_json()
                    detail["schedule"] = new_schedule.describe()
                    if game.status in ("running", "paused") and (game.deadline_at is None or new_schedule.kind == "manual"):
                        changes.update(self._deadlines(game, new_schedule, self.now()))
                if name is not None:
                    title = clean_name(name, GAME_NAME)
                    changes["name"] = title
                    detail["name"] = title
                if not changes:
                    raise InvalidInput("nothing to change", hint="give settings, a schedule or a name")
                await q.update_game(game.id, **changes)
                await q.audit(game_id=game.id, actor=actor_id, action="configure", detail=detail, at=self.now())
                game = await q.game(game.id)
        self._schedule_changed(game.id)
        return game

    @staticmethod
    def _check_turn_hours(variant, settings: dict) -> None:
        """``turn_hours`` is for turn-based games (territory), where it replaces the schedule."""
        if settings.get("turn_hours") is not None and not variant.features.turn_based:
            raise InvalidInput(f"{variant.title} resolves updates on its schedule, so turn_hours does not apply",
                               hint="change the schedule with /game schedule")

    @staticmethod
    def _check_events_from(ruleset: Ruleset, settings: dict, game: Game | None = None) -> None:
        """``events_from`` moves the event schedule; it is fixed once an update is resolved, so that
        every stored update replays under the schedule it was resolved with."""
        if settings.get("events_from") is None:
            return
        if not variant_for(ruleset).features.events:
            raise InvalidInput(f"the {ruleset.name} ruleset has no events, so events_from does not apply")
        if game is not None and game.update_no > 1:
            raise WrongTime(f"events_from is fixed once an update is resolved (game {game.id} is at update "
                            f"{game.update_no})", hint="start an event now with /mod event start")

    async def start_game(self, game_id: int, *, actor: Moderator) -> Game:
        """Open update 1 for orders: the empty board is snapshot (0, 0)."""
        async with self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                actor_id = require_moderator(actor, game.guild_id, "start a game")
                if game.status != "setup":
                    raise WrongTime(f"game {game.id} ({game.name}) has already started")
                settings = self.settings(game)
                variant = self.variant(game)
                seating = variant.seating
                seated = await q.seated_players(game.id)
                if seating.min_players is not None and seating.seats_before_start and len(seated) < seating.min_players:
                    raise WrongTime(f"{variant.title} needs at least {seating.min_players} players to start; "
                                    f"{len(seated)} {'has' if len(seated) == 1 else 'have'} taken a seat",
                                    hint="players take a seat with /join before the start")
                players = [variant.new_player(row.name, row.colour) for row in seated]
                state = variant.set_up(players, game.seed, length=settings.length)
                now = self.now()
                await q.insert_snapshot(game_id=game.id, update_no=0, revision=0, base_revision=None,
                                        state=serialize.dumps(state), orders={}, seed=game.seed, report=None,
                                        reason="start", created_at=now)
                await q.update_game(game.id, status="running", update_no=1, snapshot_update=0, snapshot_revision=0,
                                    **self._deadlines(game, self.schedule(game), now))
                await q.audit(game_id=game.id, actor=actor_id, action="start", detail={}, at=now)
                game = await q.game(game.id)
                if variant.features.turn_based:
                    # each turn has its own deadline: the turn's length says more than the first
                    # one's clock time (and the demo's posts stay alike on every run)
                    length = turn_schedule(settings).describe().removeprefix("every ")
                    when = f" Each turn lasts up to {length}: it ends as soon as its player's submission is accepted."
                elif game.deadline_at:
                    when = f" Orders close at {game.deadline_at:%Y-%m-%d %H:%M} UTC."
                else:
                    when = ""
                if seated:
                    # the colours the variant seats them with (territory: Red and Blue, whatever was chosen, P68)
                    seats = ", ".join(f"{row.name} ({state.players[row.name].colour})" for row in seated)
                    welcome = f"Seats: {seats}. Send your orders with /move."
                else:
                    welcome = f"Join with /join, then place your king with /move {variant.features.royal or 'K'}(x,y)."
                await self._post(q, game, 0, "announcement",
                                 f"**{game.name}** has started: {variant.title}. {welcome}{when}")
        self._schedule_changed(game.id)
        return game

    async def pause_game(self, game_id: int, *, actor: Moderator, reason: str = "") -> Game:
        """Stop the clock: no deadline falls while paused; resuming shifts it by the paused time."""
        async with self._after_orders(game_id), self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                actor_id = require_moderator(actor, game.guild_id, "pause a game")
                if game.status != "running":
                    raise WrongTime(f"game {game.id} ({game.name}) is {game.status}, not running")
                now = self.now()
                await q.update_game(game.id, status="paused", paused_at=now)
                await q.audit(game_id=game.id, actor=actor_id, action="pause", detail={"reason": reason[:500]}, at=now)
                await self._post(q, game, game.update_no, "announcement",
                                 f"**{game.name}** is paused" + (f": {reason[:500]}" if reason else "."))
                game = await q.game(game.id)
        self._schedule_changed(game.id)
        return game

    async def resume_game(self, game_id: int, *, actor: Moderator) -> Game:
        async with self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                actor_id = require_moderator(actor, game.guild_id, "resume a game")
                if game.status != "paused":
                    raise WrongTime(f"game {game.id} ({game.name}) is not paused")
                now = self.now()
                paused_for = now - game.paused_at
                changes = {"status": "running", "paused_at": None}
                if game.deadline_at is not None:
                    changes["deadline_at"] = game.deadline_at + paused_for
                    changes["lock_at"] = game.lock_at + paused_for if game.lock_at else None
                await q.update_game(game.id, **changes)
                await q.audit(game_id=game.id, actor=actor_id, action="resume",
                              detail={"paused_seconds": round(paused_for.total_seconds())}, at=now)
                game = await q.game(game.id)
                when = f" Orders close at {game.deadline_at:%Y-%m-%d %H:%M} UTC." if game.deadline_at else ""
                await self._post(q, game, game.update_no, "announcement", f"**{game.name}** resumes.{when}")
        self._schedule_changed(game.id)
        return game

    async def end_game(self, game_id: int, *, actor: Moderator, reason: str = "") -> Game:
        async with self._after_orders(game_id), self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                actor_id = require_moderator(actor, game.guild_id, "end a game")
                if game.status == "ended":
                    raise WrongTime(f"game {game.id} ({game.name}) has already ended")
                if game.claimed_by is not None:
                    raise WrongTime(f"update {game.update_no} of game {game.id} is being resolved; try again in a moment")
                await self._finish(q, game, actor_id, reason or "ended by a moderator")
                game = await q.game(game.id)
        self._schedule_changed(game.id)
        await self.make_timelapse(game.id)      # after the commit, off the event loop (.timelapses)
        return game

    # ------------------------------------------------------------------ players
    async def join(self, game_id: int, *, user_id: int, name: str, colour: str) -> Joined:
        """Become a player: a name and a colour unique in the game (RULES 4: the king placement follows)."""
        if not is_row_number(user_id):
            raise InvalidInput(f"{str(user_id)[:20]!r} is not a user id")
        name = clean_name(name)
        colour = clean_colour(colour)
        async with self.lock_for(game_id):
            async with self.store.transaction() as q:
                game = await self._game(q, game_id)
                variant = self.variant(game)
                seating = variant.seating
                seat = self._takes_seat(game, variant)
                existing = await q.player(game.id, user_id)
                if existing is not None:
                    if existing.status == "kicked":
                        raise NotAllowed(departed(existing, game))
                    raise Conflict(f"you already play game {game.id} as {existing.name} ({existing.colour})",
                                   hint="place your king with /move K(x,y) if you have not yet")
                # a name once used in the game's position stays taken (a left player's pieces keep it)
                names = set() if game.status == "setup" else set((await self._working_state(q, game)).players)
                taken = await q.player_named(game.id, name)
                if taken is not None or any(n.casefold() == name.casefold() for n in names):
                    raise Conflict(f"the name {name!r} is taken in this game", hint="choose another with the name option")
                holder = await q.player_with_colour(game.id, colour)
                if holder is not None:
                    rows = await q.players(game.id, include_kicked=True)
                    free = distinct_colours([row.colour for row in rows], self.settings(game).palette)[:3]
                    such_as = (f", such as {', '.join(free[:-1])} or {free[-1]} (the free colours least like "
                               f"the game's)" if len(free) > 1 else "")
                    raise Conflict(f"{holder.name} already plays {colour} in this game",
                                   hint=f"choose another colour{such_as}; /join lists them as you type")
                seat_no = None
                if seat:
                    seated = await q.seated_players(game.id)
                    if seating.max_players is not None and len(seated) >= seating.max_players:
                        raise Conflict(f"all {seating.max_players} seats of game {game.id} ({game.name}) are taken",
                                       hint="ask a moderator to start another game")
                    seat_no = max((row.seat for row in seated), default=0) + 1
                # while update k is being resolved its orders are closed: the joiner enters at update k + 1
                joined_update = game.update_no + (game.claimed_by is not None)
                await q.insert_player(game_id=game.id, user_id=user_id, name=name, colour=colour, joined_at=self.now(),
                                      joined_update=joined_update, seat=seat_no)
                player = await q.player(game.id, user_id)
        if seat:
            return Joined(game, player, f"you have seat {seat_no}; the game begins when a moderator starts it "
                                        f"with /game start")
        king = variant.features.royal or "K"
        # where a king may enter is the variant's rule (no enemy attacks it: RULES 4; at distance 8
        # from every enemy piece: megachess, D62); /rules tells it in the game's words
        return Joined(game, player, f"place your king with /move {king}(x,y) on an empty square; /rules says which "
                                    f"squares you may choose")

    @staticmethod
    def _takes_seat(game: Game, variant) -> bool:
        """Whether joining now takes a seat before the start (True) or joins a running game by a
        king placement (False); refused when the game takes no player now."""
        seating = variant.seating
        if game.status == "ended":
            raise WrongTime(f"game {game.id} ({game.name}) has ended")
        if game.status == "setup":
            if not seating.seats_before_start:
                raise WrongTime(f"game {game.id} ({game.name}) has not started yet",
                                hint="join once a moderator starts it with /game start; then place your king")
            return True
        if not seating.joins_by_placement:
            raise NotAllowed(f"game {game.id} ({game.name}) has started and takes no new players: "
                             f"{variant.title} seats its players before the start",
                             hint="ask a moderator to start another game")
        return False

    # ------------------------------------------------------------------ listings
    async def get_game(self, game_id: int) -> Game:
        async with self.store.snapshot_read() as q:
            return await self._game(q, game_id)

    async def games_in(self, *, guild_id: int | None = None, channel_id: int | None = None,
                       include_ended: bool = False) -> list[Game]:
        statuses = ("setup", "running", "paused", "ended") if include_ended else ("setup", "running", "paused")
        async with self.store.snapshot_read() as q:
            return await q.games(guild_id=guild_id, channel_id=channel_id, statuses=statuses)

    async def server_games(self, guild_id: int, *, ended: int = 5) -> list[GameSummary]:
        """This server's games for ``/games``: every live one (set-up, running, paused) by id, then
        the ``ended`` most recent ended ones; each with its players and its ruleset's title."""
        if not is_row_number(guild_id):
            raise InvalidInput(f"{str(guild_id)[:20]!r} is not a server id")
        async with self.store.snapshot_read() as q:
            live = await q.games(guild_id=guild_id)
            finished = (await q.games(guild_id=guild_id, statuses=("ended",)))[::-1][:max(ended, 0)]
            summaries = []
            for game in live + finished:
                try:
                    title = self.variant(game).title
                except NotFound:                 # a preset withdrawn since: still listed, by its name
                    title = game.ruleset
                summaries.append(GameSummary(game, title, len(await q.players(game.id))))
        return summaries

    async def games_of(self, user_id: int) -> list[Game]:
        """The live games a user plays (for a DM order: which game it is for)."""
        async with self.store.snapshot_read() as q:
            return await q.games_of_user(user_id)

    async def players(self, game_id: int, *, include_kicked: bool = False) -> list[PlayerRow]:
        async with self.store.snapshot_read() as q:
            await self._game(q, game_id)
            return await q.players(game_id, include_kicked=include_kicked)

    async def free_colours(self, game_id: int) -> list[str]:
        """The colours no player of the game has (kicked players keep theirs), the most distinct
        from the game's colours first, in the game's palette: what /join offers (issue 27,
        :func:`bot.render.palette.distinct_colours`)."""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            rows = await q.players(game_id, include_kicked=True)
        return distinct_colours([row.colour for row in rows], self.settings(game).palette)

    async def audit_log(self, game_id: int):
        async with self.store.snapshot_read() as q:
            await self._game(q, game_id)
            return await q.audit_entries(game_id)

