"""Territory's scenario additions (RULES.md 5.4.9, T39): read, compare and print.

One scenario is one turn: ``update`` is T. The scenario loader (``engine/scenario.py``) asks the
family part of the file's ruleset for the keys it adds and hands it the file to read them:

* ``[territory]``: ``slot`` (optional; must equal (update-1) mod L), ``draft_area`` (default empty),
  ``bag`` (default: the pool minus the reserves, the draft area and the board, Mirror copies
  excepted, never below 0 of a kind), ``quiet`` (quiet turns so far, default 0);
* ``[[players]]``: ``colour`` Red (player 0) or Blue, ``reserve`` (kinds, default empty);
* ``[[pieces]]``: ``copy = true`` for a Mirror copy, also in ``[expect]``'s pieces, where it is
  compared (``copy = false``: a Mirror that is not a copy);
* ``[expect]``: ``reserves``, ``draft_area``, ``bag`` (multisets), ``control`` (territory or ``Goal``
  -> player name, ``""`` for nobody), ``drawn``, ``next = { update = N, player = "name" }`` (the
  next turn that is not skipped; ``{}`` once the game is over). ``winner`` is the engine's own key,
  compared with the variant's verdict.

A file is malformed (T39) when the goal is already controlled, two pieces share a square, ``quiet``
is 24 or more, a reserve holds more than the limit, ``copy = true`` is on a kind other than a Mirror,
or a piece has no owner.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..model import Piece
from ..report import Report
from ..ruleset import Ruleset
from ..state import GameState
from .layout import GOAL, PLAYERS
from .state import TerritoryState, canonical
from .turn import QUIET_DRAW, controls, next_turn, territory_of

__all__ = ["TerritoryScenario"]


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


class TerritoryScenario:
    """The keys territory adds to scenario files, and what they mean (RULES 5.4.9)."""

    keys = {"top": {"territory"}, "players": {"reserve"}, "pieces": {"copy"},
            "expect": {"reserves", "draft_area", "bag", "control", "drawn", "next"}}

    # ------------------------------------------------------------------ reading
    def read(self, loader, data: dict, ruleset: Ruleset, state: GameState) -> None:
        """Fill ``state.territory`` from the file (``loader`` reports errors with lines)."""
        rules = ruleset.family_rules
        table = data.get("territory", {})
        if not isinstance(table, dict):
            raise loader.fail("[territory] must be a table", "territory")
        loader.unknown(table, {"slot", "draft_area", "bag", "quiet"}, "territory")
        if "slot" in table:
            slot = loader.integer(table["slot"], "slot", "[territory] ")
            if slot != rules.slot(state.update):
                raise loader.fail(f"[territory] slot {slot} does not match update {state.update}: turn T takes slot "
                                  f"(T-1) mod {len(rules.cycle)} = {rules.slot(state.update)} (T2)", "slot", "territory")
        quiet = loader.integer(table.get("quiet", 0), "quiet", "[territory] ")
        if not 0 <= quiet < QUIET_DRAW:
            raise loader.fail(f"[territory] quiet must be 0 to {QUIET_DRAW - 1}: at {QUIET_DRAW} the game is already "
                              f"drawn (T39)", "quiet", "territory")
        draft_area = self.kinds(loader, table.get("draft_area", []), "draft_area", ruleset, "territory")

        colours: dict[str, str] = {}
        reserves: dict[str, list[str]] = {}
        for index, raw in enumerate(data.get("players", [])):
            loader.context = ("players", index)
            try:
                name = raw["name"]
                colour = raw.get("colour", name)
                if colour not in PLAYERS:
                    raise loader.fail(f"a territory player's colour is Red (player 0) or Blue, not {colour!r} "
                                      f"(RULES 5.4.9)", "colour")
                if colour in colours.values():
                    raise loader.fail(f"two players are {colour}", "colour")
                colours[name] = colour
                reserves[name] = self.kinds(loader, raw.get("reserve", []), "reserve", ruleset, "players")
                if len(reserves[name]) > rules.reserve_max:
                    raise loader.fail(f"{name}'s reserve holds {len(reserves[name])}: at most {rules.reserve_max} "
                                      f"(T39)", "reserve")
            finally:
                loader.context = None
        if sorted(colours.values()) != sorted(PLAYERS):
            raise loader.fail("a territory scenario has two [[players]]: one Red, one Blue (RULES 5.4.9)", None, "players")

        copies: set[int] = set()
        pieces_by_id = {piece.id: piece for piece in state.board}
        for index, raw in enumerate(data.get("pieces", [])):
            loader.context = ("pieces", index)
            try:
                piece = pieces_by_id[index + 1]   # GameState.build numbers the pieces from 1, in file order
                if piece.owner is None:
                    raise loader.fail("every territory piece has an owner (T39)", "kind")
                if "copy" in raw and loader.boolean(raw["copy"], "copy", "[[pieces]] "):
                    if not ruleset.pieces[piece.kind].has("mirror_copy"):
                        raise loader.fail(f"copy = true is only for a Mirror, not a {ruleset.pieces[piece.kind].name} "
                                          f"(T39)", "copy")
                    copies.add(piece.id)
            finally:
                loader.context = None
        squares = Counter(piece.square for piece in state.board)
        shared = sorted(square for square, count in squares.items() if count > 1)
        if shared:
            raise loader.fail(f"two pieces share the square ({shared[0][0]},{shared[0][1]}) (T39)", None, "pieces")
        outside = sorted(piece.square for piece in state.board if not rules.on_board(piece.square))
        if outside:
            raise loader.fail(f"a piece stands on ({outside[0][0]},{outside[0][1]}), off the board", None, "pieces")

        if "bag" in table:
            bag = self.kinds(loader, table["bag"], "bag", ruleset, "territory")
        else:
            pool = Counter({kind: rules.copies for kind in rules.kinds})
            pool.subtract(draft_area)
            for kinds in reserves.values():
                pool.subtract(kinds)
            pool.subtract(piece.kind for piece in state.board if piece.id not in copies)
            bag = [kind for kind in rules.kinds for _ in range(max(0, pool[kind]))]
        state.territory = TerritoryState().with_changes(reserves=reserves, draft_area=draft_area, bag=bag,
                                                        copies=copies, quiet=quiet)
        if controls(ruleset, state)[GOAL] is not None:
            raise loader.fail("the goal is already controlled: the game would be over before the turn (T39)", None,
                              "pieces")

    def kinds(self, loader, value: Any, key: str, ruleset: Ruleset, table: str) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise loader.fail(f"{key} must be a list of kinds", key, table)
        for kind in value:
            if kind not in ruleset.pieces:
                raise loader.fail(f"unknown piece kind {kind!r} in {key} (the {ruleset.name} kinds: "
                                  f"{' '.join(ruleset.letters)})", key, table)
        return list(value)

    def expected_piece_fields(self, loader, item: dict) -> dict[str, Any]:
        """An expected piece's own keys (5.4.9): ``copy``, compared where written, as the piece's
        optional fields are."""
        return {"copy": loader.boolean(item["copy"], "copy", "[expect] piece ")} if "copy" in item else {}

    def piece_value(self, state: GameState, piece: Piece, key: str) -> Any:
        """The value of an expected piece's own key for a piece of the position after the turn."""
        if key == "copy":
            return piece.id in territory_of(state).copies
        raise KeyError(key)

    def read_expect(self, loader, table: dict, ruleset: Ruleset, names: set[str]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in table.items():
            if key == "reserves":
                if not isinstance(value, dict):
                    raise loader.fail("[expect] reserves must be a table of player = [kinds]", key, "expect")
                out[key] = {loader.player_name(name, names, key): canonical(self.kinds(loader, kinds, key, ruleset,
                                                                                       "expect"))
                            for name, kinds in value.items()}
            elif key in ("draft_area", "bag"):
                out[key] = canonical(self.kinds(loader, value, key, ruleset, "expect"))
            elif key == "control":
                if not isinstance(value, dict):
                    raise loader.fail("[expect] control must be a table of territory = \"player\"", key, "expect")
                areas = (*ruleset.family_rules.territory_names, GOAL)
                control = {}
                for area, who in value.items():
                    if area not in areas:
                        raise loader.fail(f"[expect] control names {area!r}, which is neither a territory nor Goal "
                                          f"({', '.join(areas)})", key, "expect")
                    who = loader.string(who, area, "[expect] control ")
                    if who and who not in names:
                        raise loader.fail(f"[expect] control names {who!r}, who is not a player of this scenario",
                                          key, "expect")
                    control[area] = who or None
                out[key] = control
            elif key == "drawn":
                out[key] = loader.boolean(value, key, "[expect] ")
            elif key == "next":
                if not isinstance(value, dict):
                    raise loader.fail("[expect] next must be { update = N, player = \"name\" }, or {} once the game "
                                      "is over", key, "expect")
                loader.unknown(value, {"update", "player"}, "expect")
                if value and set(value) != {"update", "player"}:
                    raise loader.fail("[expect] next needs both update and player", key, "expect")
                out[key] = None if not value else (loader.integer(value["update"], "update", "[expect] next "),
                                                   loader.player_name(value["player"], names, key))
        return out

    # ------------------------------------------------------------------ comparing
    def compare(self, scenario, state: GameState, report: Report) -> list[str]:
        expect, ruleset = scenario.expect, scenario.ruleset
        territory = territory_of(state)
        diffs = []
        for name, wanted in expect.get("reserves", {}).items():
            if territory.reserve(name) != wanted:
                diffs.append(f"reserve of {name}: expected {list(wanted)}, got {list(territory.reserve(name))}")
        for key in ("draft_area", "bag"):
            if key in expect and getattr(territory, key) != expect[key]:
                diffs.append(f"{key}: expected {list(expect[key])}, got {list(getattr(territory, key))}")
        if "control" in expect:
            got = controls(ruleset, state)
            for area, wanted in expect["control"].items():
                if got[area] != wanted:
                    diffs.append(f"control of {area}: expected {wanted or 'nobody'}, got {got[area] or 'nobody'}")
        if "drawn" in expect and territory.drawn != expect["drawn"]:
            diffs.append(f"drawn: expected {_toml(expect['drawn'])}, got {_toml(territory.drawn)}")
        if "next" in expect:
            got_next = next_turn(ruleset, state)
            if got_next != expect["next"]:
                diffs.append(f"next: expected {self.next_text(expect['next'])}, got {self.next_text(got_next)}")
        return diffs

    @staticmethod
    def next_text(value: tuple[int, str] | None) -> str:
        return "{}" if value is None else f'{{ update = {value[0]}, player = "{value[1]}" }}'

    # ------------------------------------------------------------------ printing (--print)
    def player_lines(self, state: GameState, name: str) -> list[str]:
        reserve = territory_of(state).reserve(name)
        return [f"reserve = {_toml(list(reserve))}"] if reserve else []

    def piece_lines(self, state: GameState, piece: Piece) -> list[str]:
        return ["copy = true"] if piece.id in territory_of(state).copies else []

    def lines(self, scenario, state: GameState) -> list[str]:
        """The ``[territory]`` table of the position after the turn, then, as comments, what an
        ``[expect]`` would compare: control, the next turn, a draw."""
        ruleset = scenario.ruleset
        territory = territory_of(state)
        held = controls(ruleset, state)
        control = ", ".join(f"{area} = {_toml(who or '')}" for area, who in held.items())
        lines = ["", "[territory]", f"slot = {ruleset.family_rules.slot(state.update)}",
                 f"draft_area = {_toml(list(territory.draft_area))}", f"bag = {_toml(list(territory.bag))}",
                 f"quiet = {territory.quiet}", f"# control = {{ {control} }}",
                 f"# next = {self.next_text(next_turn(ruleset, state))}"]
        if territory.drawn:
            lines.append("# drawn = true")
        return lines
