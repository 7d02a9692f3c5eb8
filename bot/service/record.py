"""A game record anyone can re-check (issue 29): export a game's history, replay it with the engine.

The record (``docs/record.md``) is one JSON document: the game (ruleset, settings, seed), then every
stored snapshot in order, each as what it is: the start, an update the engine resolved (the position
it was resolved from, the locked orders, secret ones included, the seed, the report and the position
after), a moderator's edit (the position it left), and whether a rollback undid it; then the audit
log of the moderators' actions. Only resolved updates are in it: the open update's orders never are.

:func:`replay_record` re-resolves every update from its own record with the engine and checks, for
each, that it gives the recorded report and position, and that the position it was resolved from is
the one the record stores before it (its base revision, with the players who joined for it): a
record edited by hand (an order, a balance, a piece) is caught and the first difference named.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable

from bot.engine import serialize
from bot.engine.report import Report
from bot.engine.resolution import resolve
from bot.engine.ruleset import Ruleset, RulesetError, load_preset
from bot.store import AuditEntry, Game, Snapshot

from .actors import Moderator, require_moderator
from .base import ServiceBase, with_joiners
from .errors import WrongTime
from .settings import GameSettings

__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "RecordError", "UpdateCheck", "build_record", "replay_record",
           "first_difference", "RecordCases"]

RECORD_FORMAT = "skirmish-record"
RECORD_VERSION = 1


class RecordError(ValueError):
    """A file that is not a game record this code can read; the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class UpdateCheck:
    """The replay of one recorded update: ``matches``, or the first ``difference`` in words; and
    ``refused``, the orders the engine refused in it, each ``player: text -- reason`` (a refused
    order is part of what happened)."""

    update: int
    revision: int
    rolled_back: bool
    matches: bool
    difference: str = ""
    refused: tuple[str, ...] = ()

    def line(self) -> str:
        """What ``python -m bot replay`` prints for the update: its verdict, then a line for each
        refused order."""
        name = f"update {self.update}" + (f" (revision {self.revision})" if self.revision else "") \
            + (" (rolled back)" if self.rolled_back else "")
        verdict = f"{name}: {'matches' if self.matches else 'DIFFERS: ' + self.difference}"
        return "\n".join([verdict, *(f"  refused: {line}" for line in self.refused)])


# ----------------------------------------------------------------------------- export
def build_record(game: Game, snapshots: Iterable[Snapshot], audit: Iterable[AuditEntry], ruleset: Ruleset,
                 exported_at: str) -> dict[str, Any]:
    """The record of ``game`` from its stored snapshots (every revision, rolled-back ones included)
    and audit log. ``ruleset`` is the game's ruleset as it plays it (settings applied)."""
    snapshots = sorted(snapshots, key=lambda s: (s.update_no, s.revision))
    by_key = {(s.update_no, s.revision): s for s in snapshots}
    resolved = {s.update_no for s in snapshots if s.reason == "update"}
    entries = []
    for snapshot in snapshots:
        state = json.loads(snapshot.state)
        entry: dict[str, Any] = {"update": snapshot.update_no, "revision": snapshot.revision,
                                 "rolled_back": snapshot.rolled_back, "at": snapshot.created_at.isoformat()}
        if snapshot.reason == "update":
            base = by_key.get((snapshot.update_no - 1, snapshot.base_revision))
            before = with_joiners(ruleset, serialize.loads(base.state), snapshot.joiners) if base else None
            entry.update(kind="update", base_revision=snapshot.base_revision,
                         joiners=[list(j) for j in snapshot.joiners],
                         before=None if before is None else serialize.state_to_json(before),
                         orders=dict(sorted(snapshot.orders.items())), seed=snapshot.seed, report=snapshot.report,
                         after=state)
        else:
            kind = "start" if snapshot.reason == "start" else "edit" if snapshot.reason.startswith("edit") else \
                snapshot.reason.split(":")[0]
            entry.update(kind=kind, reason=snapshot.reason, state=state)
        entries.append(entry)
    actions = []
    for item in audit:
        # an order a moderator entered is shown only once its update is resolved (never a secret early)
        update = item.detail.get("update") if isinstance(item.detail, dict) else None
        if item.action == "order" and update not in resolved:
            continue
        actions.append({"at": item.at.isoformat(), "actor": item.actor, "action": item.action, "detail": item.detail})
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "exported_at": exported_at,
        "game": {"id": game.id, "name": game.name, "ruleset": game.ruleset, "settings": game.settings,
                 "seed": game.seed, "status": game.status, "state_version": serialize.STATE_VERSION},
        "entries": entries,
        "moderation": actions,
    }


# ----------------------------------------------------------------------------- replay
def _ruleset_of(record: dict[str, Any]) -> Ruleset:
    game = record.get("game")
    if not isinstance(game, dict) or not isinstance(game.get("ruleset"), str):
        raise RecordError("the record names no game ruleset (game.ruleset)")
    try:
        return GameSettings.from_json(game.get("settings") or {}).applied_to(load_preset(game["ruleset"]))
    except RulesetError as exc:
        raise RecordError(f"the record's ruleset cannot be loaded: {exc}") from None
    except ValueError as exc:
        raise RecordError(f"the record's settings cannot be read: {exc}") from None


def _check_header(record: Any) -> None:
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(f"this is not a Skirmish game record (no \"format\": \"{RECORD_FORMAT}\")")
    if record.get("version") != RECORD_VERSION:
        raise RecordError(f"record version {record.get('version')!r} is not supported (this code reads "
                          f"version {RECORD_VERSION})")
    if not isinstance(record.get("entries"), list):
        raise RecordError("the record has no list of entries")


def replay_record(record: Any) -> list[UpdateCheck]:
    """Re-resolve every update of ``record`` with the engine, in order; one check per update."""
    _check_header(record)
    ruleset = _ruleset_of(record)
    states: dict[tuple[int, int], dict] = {}
    checks = []
    for index, entry in enumerate(record["entries"]):
        try:
            key = (int(entry["update"]), int(entry["revision"]))
            if entry["kind"] != "update":
                states[key] = serialize.migrate(entry["state"])
                continue
            checks.append(_replay_update(ruleset, entry, key, states))
            states[key] = serialize.migrate(entry["after"])
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"entry {index + 1} cannot be read: {type(exc).__name__}: {exc}") from None
    return checks


def _replay_update(ruleset: Ruleset, entry: dict, key: tuple[int, int], states: dict) -> UpdateCheck:
    update, revision = key
    rolled_back = bool(entry.get("rolled_back"))

    def differs(what: str) -> UpdateCheck:
        return UpdateCheck(update, revision, rolled_back, False, what)

    before = serialize.migrate(entry["before"])
    base = states.get((update - 1, entry["base_revision"]))
    if base is None:
        return differs(f"the position it was resolved from (update {update - 1}, revision "
                       f"{entry['base_revision']}) is not in the record")
    joiners = [tuple(j) for j in entry.get("joiners", [])]
    expected_before = serialize.state_to_json(with_joiners(ruleset, serialize.state_from_json(base), joiners))
    difference = first_difference(expected_before, before)
    if difference:
        return differs(f"its starting position is not the recorded position before it: {difference}")
    state, report = resolve(ruleset, serialize.state_from_json(before), entry["orders"], entry["seed"])
    refused = tuple(report.refusals())
    # an order edited by hand shows first in what the report says the players ordered: named so,
    # rather than by its consequence in the position (a piece's id, a balance)
    difference = order_difference(entry["report"], report.to_json())
    if difference:
        return UpdateCheck(update, revision, rolled_back, False, difference, refused)
    difference = first_difference(serialize.migrate(entry["after"]), serialize.state_to_json(state), "position")
    if not difference:
        difference = first_difference(entry["report"], report.to_json(), "report")
    if difference:
        return UpdateCheck(update, revision, rolled_back, False, difference, refused)
    Report.from_json(entry["report"])     # a recorded report that the engine cannot read is an error too
    return UpdateCheck(update, revision, rolled_back, True, refused=refused)


def _orders_reported(report: Any) -> dict[str, list[str]]:
    """What a report (as JSON) says each player ordered: the ``order`` of its order entries, by
    player, in the report's order."""
    ordered: dict[str, list[str]] = {}
    for entry in report.get("entries", []) if isinstance(report, dict) else []:
        data = entry.get("data") if isinstance(entry, dict) else None
        if entry.get("type") == "order" and isinstance(data, dict) and "order" in data:
            for player in entry.get("players", []):
                outcome = f" ({data['outcome']})" if data.get("outcome") else ""
                ordered.setdefault(str(player), []).append(f"{data['order']}{outcome}")
    return ordered


def order_difference(recorded: Any, replayed: Any) -> str:
    """The first player (by name) whose orders the recorded report and the replay's report tell
    differently, in words (``the order of Ada: the record's report says N(1,1)-(2,3) (played), the
    replay of the record's orders gives N(1,1)-(2,4) (played)``); empty when they agree."""
    before, after = _orders_reported(recorded), _orders_reported(replayed)
    for player in sorted(set(before) | set(after)):
        said, gives = before.get(player, []), after.get(player, [])
        if said != gives:
            return (f"the order of {player}: the record's report says {'; '.join(said) or 'no order'}, the "
                    f"replay of the record's orders gives {'; '.join(gives) or 'no order'}")
    return ""


def first_difference(recorded: Any, replayed: Any, path: str = "") -> str:
    """Where two JSON values first differ, in words (``position.players[2].balance: the record says
    12, the replay gives 11``); empty when they are equal."""
    if recorded == replayed:
        return ""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for name in sorted(set(recorded) | set(replayed), key=str):
            where = f"{path}.{name}" if path else str(name)
            if name not in recorded:
                return f"{where}: the replay gives {_short(replayed[name])}, the record has nothing"
            if name not in replayed:
                return f"{where}: the record says {_short(recorded[name])}, the replay has nothing"
            found = first_difference(recorded[name], replayed[name], where)
            if found:
                return found
    if isinstance(recorded, list) and isinstance(replayed, list):
        for i, (a, b) in enumerate(zip(recorded, replayed)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        shorter = min(len(recorded), len(replayed))
        extra = recorded[shorter] if len(recorded) > shorter else replayed[shorter]
        return (f"{path}: the record has {len(recorded)} items, the replay {len(replayed)} "
                f"(the first not in both: {_short(extra)})")
    return f"{path or 'the value'}: the record says {_short(recorded)}, the replay gives {_short(replayed)}"


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."



# ----------------------------------------------------------------------------- the use case
class RecordCases(ServiceBase):
    async def export_record(self, game_id: int, *, actor: Moderator, post: bool = True) -> tuple[str, bytes]:
        """The game's record as ``(file name, JSON bytes)``; with ``post``, also posted in the game's
        channel through the outbox (audited). Only resolved updates are in it."""
        async with self.store.snapshot_read() as q:
            game = await self._game(q, game_id)
            require_moderator(actor, game.guild_id, "export a game's record")
            if game.snapshot_update is None:
                raise WrongTime(f"game {game.id} ({game.name}) has not started yet: it has no record")
            snapshots = await q.snapshots(game.id, include_rolled_back=True)
            audit = await q.audit_entries(game.id)
        record = build_record(game, snapshots, audit, self.ruleset(game), self.now().isoformat())
        data = (json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")
        filename = f"game-{game.id}-record.json"
        if post:
            updates = sum(1 for entry in record["entries"] if entry["kind"] == "update" and not entry["rolled_back"])
            async with self.lock_for(game.id):
                async with self.store.transaction() as q:
                    await q.audit(game_id=game.id, actor=actor.user_id, action="export",
                                  detail={"updates": updates}, at=self.now())
                    await self._post(q, game, max(game.update_no - 1, 0), "record",
                                     f"The record of **{game.name}**: {updates} resolved update"
                                     f"{'s' if updates != 1 else ''}, every order, seed and report. Anyone can "
                                     f"re-check it: `python -m bot replay {filename}` (docs/record.md).",
                                     data, filename)
        return filename, data
