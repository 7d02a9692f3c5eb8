"""Team threads (issue 22 item 7): in a game of teams (megachess), a private thread per team where
its players plan together, created and kept by the bot.

The service keeps the **roster**: which member plays on which team now (``team_members``), from
the game's position (a player whose record is active on a team: joined, not taken, not resigned)
and the players' rows (a member who left, was kicked or replaced is on no team). Whenever the roster
changes (after an update: joins settle there, D62, D71, and armies are taken, D61; after a
moderator's edit, an undo, a substitution or a rollback) a ``team_threads`` post goes into the
outbox in the same transaction. Its publisher (Discord: :mod:`bot.discord_publisher`) reads the
roster as it stands when it delivers the post and makes each team's private thread match it:
opening the thread the first time (remembered with :meth:`TeamCases.keep_team_thread`), inviting the
team's players and removing the game's other players. Delivering the latest roster is idempotent, so
a retry or a late delivery never leaves a thread wrong. The post's text says what changed, in words.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.state import GameState
from bot.store import Game

from .base import ServiceBase

__all__ = ["TeamCases", "TeamRoster", "TeamThreads", "roster_of", "TEAM_THREADS"]

#: the kind of the outbox post that brings the team threads up to date
TEAM_THREADS = "team_threads"


@dataclass(frozen=True, slots=True)
class TeamRoster:
    """A team of the game: its thread (None until the publisher has made it) and the user ids of
    the members who play on it now, with their names."""

    team: str
    thread_id: int | None
    members: tuple[tuple[int, str], ...]

    @property
    def member_ids(self) -> frozenset[int]:
        return frozenset(user_id for user_id, _ in self.members)


@dataclass(frozen=True, slots=True)
class TeamThreads:
    """What the team threads of a game must look like: each team that has had players, and every
    member who has played the game (those not on a team's roster are removed from its thread;
    anyone else, a moderator who looked in, is left alone)."""

    game: Game
    teams: tuple[TeamRoster, ...]
    players: frozenset[int]


def roster_of(state: GameState, players) -> dict[int, str]:
    """``user id -> team`` of the players of the game (joined rows) whose record in ``state`` is
    active on a team."""
    if not any(record.team for record in state.players.values()):
        return {}
    roster = {}
    for row in players:
        record = state.players.get(row.name)
        if record is not None and record.team and record.status == "active":
            roster[row.user_id] = record.team
    return roster


class TeamCases(ServiceBase):
    async def _sync_teams(self, q, game: Game, state: GameState, update_no: int) -> bool:
        """Bring the game's roster up to date with ``state`` (in the caller's transaction) and, when
        it changed, post ``team_threads`` saying how. True when it changed."""
        # the players' rows only matter to a position with teams: a game without (every update of a
        # 1,000-player sandbox) does not read 1,000 rows to find an empty roster (issue 25)
        teams = any(record.team for record in state.players.values())
        roster = roster_of(state, await q.players(game.id) if teams else ())
        before = await q.team_members(game.id)
        if roster == before:
            return False
        await q.set_team_members(game.id, roster)
        for team in sorted(set(roster.values())):
            await q.note_team(game.id, team)
        names = {row.user_id: row.name for row in await q.players(game.id, include_kicked=True)}
        joins = [(names.get(user_id, str(user_id)), team, before.get(user_id))
                 for user_id, team in roster.items() if before.get(user_id) != team]
        leaves = {(names.get(user_id, f"member {user_id}"), team)
                  for user_id, team in before.items() if user_id not in roster}
        changes = []
        for name, team, earlier in sorted(joins):
            if (name, team) in leaves:              # a seat given to another member (/mod substitute)
                leaves.discard((name, team))
                changes.append(f"{name}'s seat on {team} passes to another member")
            elif earlier is None:
                changes.append(f"{name} joins {team}")
            else:
                changes.append(f"{name} moves from {earlier} to {team}")
        changes.extend(f"{name} leaves {team}" for name, team in sorted(leaves))
        await self._post(q, game, update_no, TEAM_THREADS, "Team threads: " + "; ".join(changes) + ".")
        return True

    async def team_threads(self, game_id: int) -> TeamThreads:
        """The team threads of a game as they must be now (the publisher of ``team_threads`` posts)."""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            roster = await q.team_members(game.id)
            threads = await q.team_threads(game.id)
            rows = await q.players(game.id, include_kicked=True)
        names = {row.user_id: row.name for row in rows if row.status == "joined"}
        teams = tuple(TeamRoster(team, thread_id, tuple(sorted(((user_id, names.get(user_id, str(user_id)))
                                                                for user_id, on in roster.items() if on == team),
                                                               key=lambda member: (member[1], member[0]))))
                      for team, thread_id in sorted(threads.items()))
        return TeamThreads(game, teams, frozenset(row.user_id for row in rows))

    async def keep_team_thread(self, game_id: int, team: str, thread_id: int) -> None:
        """Remember the thread the publisher made for ``team`` (found again after a restart)."""
        async with self.store.transaction() as q:
            game = await self._game(q, game_id)
            await q.keep_team_thread(game.id, team, thread_id)
