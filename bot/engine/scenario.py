"""Scenario files (SCENARIOS.md): one update written down as a position, orders and expectations.

:func:`load_scenario` reads and checks a file strictly: an unknown key, a value of the wrong type or
a piece kind missing from the ruleset raises :class:`ScenarioError`, naming the file, the line and
what is wrong, so a typo never passes silently.

The file is parsed once, by :mod:`tomllib`, which does not say where a value was written. The line
of an error is therefore found afterwards, and only when there is an error: the loader remembers
which table it is reading (``[[pieces]]`` number 31,415, say) and :meth:`_Loader.line_of` searches
the text from that table's header for the key at fault. A file that loads costs no line search at
all, which matters for large positions (issue 18: ``benchmarks/scenario.py``).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from .model import CHECK_STATES, COORDINATE_LIMIT, PLAYER_STATUSES, Player, Square
from .ruleset import Ruleset, RulesetError, load_preset, load_ruleset
from .state import ActiveEvent, GameState, LastMove, PowerUp
from .territory.scenario import TerritoryScenario

__all__ = ["Scenario", "ScenarioError", "load_scenario"]

_TOP_KEYS = {"ruleset", "update", "seed", "description", "board", "players", "pieces", "orders", "expect"}
_BOARD_KEYS = {"bounds", "implosions", "moved_last_update", "length", "events", "past_events", "powerups", "marked"}
_PLAYER_KEYS = {"name", "colour", "balance", "captured", "team", "king_lost_at", "king_lost_square", "status",
                "rejoin_after", "pending"}
_PIECE_KEYS = {"owner", "kind", "at", "check", "disabled", "moved", "energy", "spirit", "carrying", "fade",
               "step_used", "placed", "carrying_since"}
_EXPECT_KEYS = {"pieces", "balances", "captured", "refused", "implosions", "eliminated", "events", "past_events",
                "powerups", "marked", "status", "winner", "report"}
_EXPECT_PIECE_KEYS = _PIECE_KEYS
_PIECE_FLAGS = ("disabled", "moved", "energy", "spirit", "step_used")
_PIECE_COUNTS = ("fade", "placed", "carrying_since")
_POWERUP_KINDS = ("new", "upgrade", "king")
#: family -> its part of the format: the keys it adds (``keys["top" | "players" | "pieces" | "expect"]``)
#: and what they mean (``read``, ``read_expect``, then ``compare`` and the ``--print`` lines in
#: runner.py). Territory's is RULES 5.4.9.
FAMILY_PARTS = {"territory": TerritoryScenario()}
#: An error inside one table of the ``pieces = [...]`` array of ``[expect]`` is looked for from
#: that table's opening brace: the context names it so.
_EXPECTED_PIECE = "expect.pieces"


class ScenarioError(ValueError):
    """A malformed scenario file: the message names the file, the line (when known) and the problem."""

    def __init__(self, path: str, problem: str, line: int | None = None) -> None:
        self.path, self.problem, self.line = path, problem, line
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {problem}")


@dataclass(slots=True)
class Scenario:
    path: str
    ruleset: Ruleset
    state: GameState
    seed: int
    description: str
    orders: dict[str, list[str]]
    expect: dict[str, Any] = field(default_factory=dict)
    part: Any = None          # the family's part of the format (FAMILY_PARTS), or None

    @property
    def update(self) -> int:
        return self.state.update


def load_scenario(path: str | Path) -> Scenario:
    path = Path(path)
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(name, f"cannot be read: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        if line is None:
            m = re.search(r"line (\d+)", str(exc))
            line = int(m.group(1)) if m else None
        raise ScenarioError(name, f"not valid TOML: {exc}", line) from None
    return _Loader(name, text, path.parent).scenario(data)


class _Loader:
    def __init__(self, path: str, text: str, folder: Path) -> None:
        self.path, self.text, self.folder = path, text, folder
        self.context: tuple[str, int] | None = None   # the table being read, and which [[table]] of its name
        self._lines: list[str] | None = None
        self.part: Any = None                          # the family's part of the format, once the ruleset is read

    def extra(self, table: str) -> set[str]:
        """The keys the family's part adds to a table (``top``, ``players``, ``pieces``, ``expect``)."""
        return self.part.keys.get(table, set()) if self.part is not None else set()

    # ---------------------------------------------------------------- errors with lines
    @property
    def lines(self) -> list[str]:
        """The file's lines, split on the first error only."""
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines

    def fail(self, problem: str, key: str | None = None, table: str | None = None) -> ScenarioError:
        occurrence = 0
        if self.context is not None and table in (None, self.context[0], self.context[0].partition(".")[0]):
            table, occurrence = self.context
        return ScenarioError(self.path, problem, self.line_of(key, table, occurrence))

    def line_of(self, key: str | None, table: str | None, occurrence: int = 0) -> int | None:
        """Best effort: the first line assigning ``key`` after the header of ``table`` (the
        ``occurrence``-th one, counting from 0, for an array of tables such as ``[[pieces]]``; for
        ``expect.pieces``, after the opening brace of the ``occurrence``-th expected piece)."""
        lines = self.lines
        start = 0
        if table == _EXPECTED_PIECE:
            start = self.expected_piece_start(occurrence)
        elif table:
            header = re.compile(r"^\s*\[\[?\s*" + re.escape(table) + r"\s*\]\]?\s*$")
            starts = [i for i, line in enumerate(lines) if header.match(line)]
            start = starts[min(occurrence, len(starts) - 1)] if starts else 0
        if key is None:
            return start + 1 if table else None
        pattern = re.compile(r"^\s*\"?" + re.escape(key) + r"\"?\s*=|[{,]\s*" + re.escape(key) + r"\s*=")
        for i in range(start, len(lines)):
            if pattern.search(lines[i]):
                return i + 1
        return start + 1 if table else None

    def expected_piece_start(self, index: int) -> int:
        """The line (from 0) where the ``index``-th inline table of ``[expect]``'s ``pieces`` opens."""
        lines = self.lines
        start = self.line_of("pieces", "expect") or 1
        seen = 0
        for i in range(start - 1, len(lines)):
            seen += lines[i].count("{")
            if seen > index:
                return i
        return start - 1

    def unknown(self, table: dict, known: set[str], where: str) -> None:
        if table.keys() <= known:
            return
        for key in table:
            if key not in known:
                label = f"[{where}] " if where else ""
                raise self.fail(f"unknown key {label}{key!r} (known: {', '.join(sorted(known))})", key,
                                where or None)

    # ---------------------------------------------------------------- typed values
    def integer(self, value: Any, key: str, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{where}{key} must be a whole number, not {value!r}", key)
        return value

    def number(self, value: Any, key: str, where: str) -> Fraction:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(f"{where}{key} must be a number, not {value!r}", key)
        return Fraction(str(value))

    def boolean(self, value: Any, key: str, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(f"{where}{key} must be true or false, not {value!r}", key)
        return value

    def string(self, value: Any, key: str, where: str) -> str:
        if not isinstance(value, str):
            raise self.fail(f"{where}{key} must be a string, not {value!r}", key)
        return value

    def square(self, value: Any, key: str, where: str) -> Square:
        if value.__class__ is list and len(value) == 2:   # the usual case, checked in a few operations
            x, y = value
            if (x.__class__ is int and y.__class__ is int
                    and -COORDINATE_LIMIT <= x <= COORDINATE_LIMIT and -COORDINATE_LIMIT <= y <= COORDINATE_LIMIT):
                return x, y
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise self.fail(f"{where}{key} must be a square [x, y], not {value!r}", key)
        if any(abs(v) > COORDINATE_LIMIT for v in value):
            raise self.fail(f"{where}{key} {value!r} is beyond ±{COORDINATE_LIMIT:,}: such coordinates are refused "
                            f"as input (D1)", key)
        return value[0], value[1]

    def squares(self, value: Any, key: str, where: str) -> list[Square]:
        if not isinstance(value, list):
            raise self.fail(f"{where}{key} must be a list of squares [[x, y], ...]", key)
        return [self.square(v, key, where) for v in value]

    def tables(self, value: Any, key: str) -> list[dict]:
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(f"{key} must be an array of tables ([[{key}]])", key)
        return value

    # ---------------------------------------------------------------- the file
    def scenario(self, data: dict) -> Scenario:
        self.unknown(data, _TOP_KEYS | {key for part in FAMILY_PARTS.values() for key in part.keys["top"]}, "")
        ruleset = self.ruleset(data.get("ruleset"))
        self.part = FAMILY_PARTS.get(ruleset.family)
        self.unknown(data, _TOP_KEYS | self.extra("top"), "")
        update = self.integer(data.get("update", 1), "update", "")
        seed = self.integer(data.get("seed", 0), "seed", "")
        description = self.string(data.get("description", ""), "description", "")
        board = data.get("board", {})
        if not isinstance(board, dict):
            raise self.fail("[board] must be a table", "board")
        self.unknown(board, _BOARD_KEYS, "board")
        players = [self.within("players", i, self.player, i, t)
                   for i, t in enumerate(self.tables(data.get("players", []), "players"))]
        names = [p.name for p in players]
        if len(set(names)) != len(names):
            raise self.fail("two [[players]] share a name", "name", "players")
        for index, player in enumerate(players):
            if player.team is not None and player.team not in ruleset.teams.names:
                teams = ", ".join(ruleset.teams.names) or f"none: {ruleset.name} has no teams"
                raise ScenarioError(self.path, f"team must be one of {teams}, not {player.team!r}",
                                    self.line_of("team", "players", index))
        player_names = set(names)
        pieces = []
        try:
            for i, table in enumerate(self.tables(data.get("pieces", []), "pieces")):
                self.context = ("pieces", i)
                pieces.append(self.piece(table, ruleset, player_names))
        finally:
            self.context = None
        bounds = None
        if "bounds" in board:
            corners = self.squares(board["bounds"], "bounds", "[board] ")
            if len(corners) != 2 or corners[0][0] > corners[1][0] or corners[0][1] > corners[1][1]:
                raise self.fail("[board] bounds must be [[xmin, ymin], [xmax, ymax]]", "bounds", "board")
            bounds = (corners[0], corners[1])
        state = GameState.build(ruleset, pieces, players, bounds=bounds, update=update,
                                **self.board_memory(board, ruleset))
        orders = self.orders(data.get("orders", {}), player_names)
        expect = self.within("expect", 0, self.expect, data.get("expect", {}), ruleset, player_names)
        if self.part is not None:
            self.part.read(self, data, ruleset, state)
            expect.update(self.within("expect", 0, self.part.read_expect, self, data.get("expect", {}), ruleset,
                                      player_names))
        return Scenario(self.path, ruleset, state, seed, description, orders, expect, self.part)

    def within(self, table: str, index: int, read, *args):
        """Read one table, so that an error without a table of its own points into this one."""
        self.context = (table, index)
        try:
            return read(*args)
        finally:
            self.context = None

    def ruleset(self, value: Any) -> Ruleset:
        if value is None:
            raise self.fail("missing key 'ruleset' (a preset name such as \"neisg\", or a path to a ruleset file)")
        value = self.string(value, "ruleset", "")
        try:
            if value.endswith(".toml") or "/" in value:
                candidate = Path(value)
                if not candidate.is_absolute():
                    candidate = self.folder / candidate
                return load_ruleset(candidate)
            return load_preset(value)
        except RulesetError as exc:
            raise self.fail(f"ruleset: {exc}", "ruleset") from None

    def board_memory(self, board: dict, ruleset: Ruleset) -> dict:
        out: dict[str, Any] = {}
        w = "[board] "
        if "implosions" in board:
            out["implosions"] = frozenset(self.squares(board["implosions"], "implosions", w))
        if "moved_last_update" in board:
            moves = []
            for item in self.tables(board["moved_last_update"], "moved_last_update"):
                self.unknown(item, {"from", "to"}, "board")
                if "from" not in item or "to" not in item:
                    raise self.fail("moved_last_update entries need `from` and `to`", "moved_last_update", "board")
                moves.append(LastMove(self.square(item["from"], "from", w), self.square(item["to"], "to", w)))
            out["moved_last_update"] = tuple(moves)
        if "length" in board:
            out["length"] = self.integer(board["length"], "length", w)
        if "events" in board:
            events = []
            for item in self.tables(board["events"], "events"):
                self.unknown(item, {"name", "started"}, "board")
                name = self.event_name(item.get("name"), ruleset, "events")
                events.append(ActiveEvent(name, self.integer(item.get("started"), "started", w)))
            out["events"] = tuple(events)
        if "past_events" in board:
            values = board["past_events"]
            if not isinstance(values, list):
                raise self.fail("[board] past_events must be a list of event names", "past_events", "board")
            out["past_events"] = tuple(self.event_name(v, ruleset, "past_events") for v in values)
        if "powerups" in board:
            out["powerups"] = tuple(self.powerup(t, ruleset) for t in self.tables(board["powerups"], "powerups"))
        if "marked" in board:
            out["marked"] = tuple(self.squares(board["marked"], "marked", w))
        return out

    def event_name(self, value: Any, ruleset: Ruleset, key: str) -> str:
        name = self.string(value, key, "[board] ")
        if ruleset.events.pool and name not in ruleset.events.pool:
            raise self.fail(f"unknown event {name!r} (the {ruleset.name} pool: {', '.join(ruleset.events.pool)})", key)
        return name

    def powerup(self, item: dict, ruleset: Ruleset) -> PowerUp:
        self.unknown(item, {"kind", "piece", "at"}, "board")
        kind = self.string(item.get("kind"), "kind", "power-up ")
        if kind not in _POWERUP_KINDS:
            raise self.fail(f"power-up kind must be one of {', '.join(_POWERUP_KINDS)}, not {kind!r}", "kind")
        piece = item.get("piece")
        if piece is not None and piece not in ruleset.pieces:
            raise self.fail(f"unknown piece kind {piece!r} in a power-up", "piece")
        if kind == "new" and piece is None:
            raise self.fail('a new-piece power-up names the kind it holds: piece = "Q"', "kind")
        return PowerUp(kind, self.square(item.get("at"), "at", "power-up "), piece)

    def player(self, index: int, table: dict) -> Player:
        self.unknown(table, _PLAYER_KEYS | self.extra("players"), "players")
        w = "[[players]] "
        if "name" not in table:
            raise self.fail(f"player {index + 1} has no name", None, "players")
        name = self.string(table["name"], "name", w)
        status = self.string(table.get("status", "active"), "status", w)
        if status not in PLAYER_STATUSES:
            raise self.fail(f"status must be one of {', '.join(PLAYER_STATUSES)}, not {status!r}", "status")
        pending = table.get("pending", [])
        if not isinstance(pending, list) or not all(isinstance(v, str) for v in pending):
            raise self.fail("pending must be a list of piece letters", "pending")
        return Player(
            name=name,
            colour=self.string(table.get("colour", name), "colour", w),
            balance=self.number(table.get("balance", 0), "balance", w),
            captured=self.number(table.get("captured", 0), "captured", w),
            status=status,
            team=self.string(table["team"], "team", w) if "team" in table else None,
            king_lost_at=self.integer(table["king_lost_at"], "king_lost_at", w) if "king_lost_at" in table else None,
            king_lost_square=self.square(table["king_lost_square"], "king_lost_square", w)
            if "king_lost_square" in table else None,
            rejoin_after=self.integer(table["rejoin_after"], "rejoin_after", w) if "rejoin_after" in table else None,
            pending=tuple(pending),
        )

    def piece(self, table: dict, ruleset: Ruleset, names: set[str]) -> dict:
        self.unknown(table, _PIECE_KEYS | self.extra("pieces"), "pieces")
        spec = self.piece_fields(table, ruleset, names, "[[pieces]] ")
        for required in ("kind", "square"):
            if required not in spec:
                raise self.fail(f"a piece needs `{'at' if required == 'square' else required}`", None, "pieces")
        return spec

    def piece_fields(self, table: dict, ruleset: Ruleset, names: set[str], w: str) -> dict:
        """The fields of one piece, checked; the usual ones (owner, kind, at, check) first and in
        few operations, since a large position has tens of thousands of pieces."""
        spec: dict[str, Any] = {"owner": None}
        read = 0   # how many of the table's keys are read so far
        owner = table.get("owner")
        if owner is not None:
            if owner.__class__ is not str:
                self.string(owner, "owner", w)
            if owner not in names:
                raise self.fail(f"piece owner {owner!r} is not a player of this scenario", "owner")
            spec["owner"] = owner
            read += 1
        kind = table.get("kind")
        if kind is not None:
            if kind.__class__ is not str:
                self.string(kind, "kind", w)
            if kind not in ruleset.pieces:
                raise self.fail(f"unknown piece kind {kind!r} (the {ruleset.name} letters: {' '.join(ruleset.letters)})",
                                "kind")
            spec["kind"] = kind
            read += 1
        at = table.get("at")
        if at is not None:
            spec["square"] = self.square(at, "at", w)
            read += 1
        check = table.get("check")
        if check is not None:
            if check.__class__ is not str:
                self.string(check, "check", w)
            if check not in CHECK_STATES:
                raise self.fail(f"check must be one of {', '.join(CHECK_STATES)}, not {check!r}", "check")
            spec["check"] = check
            read += 1
        if len(table) == read:
            return spec
        for key in _PIECE_FLAGS:
            if key in table:
                spec[key] = self.boolean(table[key], key, w)
        for key in _PIECE_COUNTS:
            if key in table:
                spec[key] = self.integer(table[key], key, w)
        if "carrying" in table:
            carrying = self.string(table["carrying"], "carrying", w)
            if carrying not in ruleset.pieces:
                raise self.fail(f"unknown piece kind {carrying!r} carried", "carrying")
            spec["carrying"] = carrying
        return spec

    def orders(self, table: Any, names: set[str]) -> dict[str, list[str]]:
        if not isinstance(table, dict):
            raise self.fail("[orders] must be a table of player = \"order\"", "orders")
        orders: dict[str, list[str]] = {}
        for name, value in table.items():
            if name not in names:
                raise self.fail(f"[orders] names {name!r}, who is not a player of this scenario", name, "orders")
            if isinstance(value, str):
                orders[name] = [value]
            elif isinstance(value, list) and all(isinstance(v, str) for v in value):
                orders[name] = list(value)
            else:
                raise self.fail(f"the order of {name!r} must be a string or a list of strings", name, "orders")
        return orders

    def expect(self, table: Any, ruleset: Ruleset, names: set[str]) -> dict[str, Any]:
        if not isinstance(table, dict):
            raise self.fail("[expect] must be a table", "expect")
        self.unknown(table, _EXPECT_KEYS | self.extra("expect"), "expect")
        out: dict[str, Any] = {}
        w = "[expect] "
        for key, value in table.items():
            if key == "pieces":
                if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
                    raise self.fail("[expect] pieces must be a list of tables", "pieces", "expect")
                out[key] = self.expected_pieces(value, ruleset, names)
            elif key in ("balances", "captured"):
                out[key] = {self.player_name(n, names, key): self.number(v, n, w) for n, v in self.mapping(value, key).items()}
            elif key == "refused":
                out[key] = {self.player_name(n, names, key): self.string(v, n, w) for n, v in self.mapping(value, key).items()}
            elif key == "status":
                status = {}
                for n, v in self.mapping(value, key).items():
                    v = self.string(v, n, w)
                    if v not in PLAYER_STATUSES:
                        raise self.fail(f"status must be one of {', '.join(PLAYER_STATUSES)}, not {v!r}", n, "expect")
                    status[self.player_name(n, names, key)] = v
                out[key] = status
            elif key in ("implosions", "marked"):
                out[key] = sorted(self.squares(value, key, w))
            elif key in ("eliminated", "winner", "events", "past_events", "report"):
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    raise self.fail(f"[expect] {key} must be a list of strings", key, "expect")
                if key in ("eliminated", "winner"):
                    for n in value:
                        self.player_name(n, names, key)
                out[key] = list(value)
            elif key == "powerups":
                out[key] = [self.powerup(t, ruleset) for t in self.tables(value, key)]
        return out

    def expected_pieces(self, items: list[dict], ruleset: Ruleset, names: set[str]) -> list[dict]:
        pieces = []
        outer = self.context
        try:
            for i, item in enumerate(items):
                self.context = (_EXPECTED_PIECE, i)
                self.unknown(item, _EXPECT_PIECE_KEYS | self.extra("pieces"), "expect")
                spec = self.piece_fields(item, ruleset, names, "[expect] piece ")
                if self.part is not None:        # the family's own piece keys (territory: copy)
                    spec.update(self.part.expected_piece_fields(self, item))
                if "kind" not in spec or "square" not in spec:
                    raise self.fail(f"an expected piece needs `{'kind' if 'kind' not in spec else 'at'}`")
                pieces.append(spec)
        finally:
            self.context = outer
        return pieces

    def mapping(self, value: Any, key: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(f"[expect] {key} must be a table of player = value", key, "expect")
        return value

    def player_name(self, name: str, names: set[str], key: str) -> str:
        if name not in names:
            raise self.fail(f"[expect] {key} names {name!r}, who is not a player of this scenario", key, "expect")
        return name
