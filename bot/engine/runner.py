"""Run scenario files (SCENARIOS.md): resolve the update, compare with ``[expect]``, print states.

:func:`run_scenario` returns the differences between what happened and what the file expects, as
sentences; an empty list is a pass. :func:`state_to_toml` writes a state back in the scenario
format, so that an expectation can be checked by hand against ``--print``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .model import Piece, format_amount, format_square
from .report import Report
from .resolution import resolve
from .scenario import Scenario
from .state import GameState
from .variants import variant_for

__all__ = ["Outcome", "run_scenario", "compare", "state_to_toml"]

_OPTIONAL_FIELDS = ("check", "disabled", "moved", "energy", "spirit", "carrying", "fade", "step_used", "placed",
                    "carrying_since")
_OPTIONAL_SET = frozenset(_OPTIONAL_FIELDS)


@dataclass(slots=True)
class Outcome:
    scenario: Scenario
    state: GameState
    report: Report
    differences: list[str]

    @property
    def passed(self) -> bool:
        return not self.differences


def run_scenario(scenario: Scenario) -> Outcome:
    state, report = resolve(scenario.ruleset, scenario.state, scenario.orders, scenario.seed)
    return Outcome(scenario, state, report, compare(scenario, state, report))


class _FamilyFields:
    """The optional piece fields a family adds to ``[expect]``'s pieces (territory: ``copy``), read
    from the position after the update by the family's part of the format."""

    __slots__ = ("names", "part", "state")

    def __init__(self, part: Any, state: GameState) -> None:
        self.part, self.state = part, state
        self.names: tuple[str, ...] = tuple(sorted(part.keys.get("pieces", ()))) if part is not None else ()

    def value(self, piece: Piece, key: str) -> Any:
        return self.part.piece_value(self.state, piece, key) if key in self.names else getattr(piece, key)


_NO_FAMILY_FIELDS = _FamilyFields(None, None)


def _describe_spec(spec: dict, own: _FamilyFields = _NO_FAMILY_FIELDS) -> str:
    owner = spec.get("owner") or "neutral"
    extras = ", ".join(f"{k}={spec[k]}" for k in (*_OPTIONAL_FIELDS, *own.names) if k in spec)
    return f"{owner} {spec['kind']} on {format_square(spec['square'])}" + (f" ({extras})" if extras else "")


def _describe_piece(piece: Piece, fields=_OPTIONAL_FIELDS, own: _FamilyFields = _NO_FAMILY_FIELDS) -> str:
    owner = piece.owner or "neutral"
    extras = ", ".join(f"{k}={own.value(piece, k)}" for k in fields)
    return f"{owner} {piece.kind} on {format_square(piece.square)}" + (f" ({extras})" if extras else "")


def compare(scenario: Scenario, state: GameState, report: Report) -> list[str]:
    expect = scenario.expect
    before = scenario.state
    diffs: list[str] = []
    if "pieces" in expect:
        own = _FamilyFields(scenario.part, state)
        diffs.extend(_compare_pieces(expect["pieces"], list(state.board), own))
    for key, label in (("balances", "balance"), ("captured", "captured")):
        for name, wanted in expect.get(key, {}).items():
            player = state.players.get(name)
            got = getattr(player, "balance" if key == "balances" else "captured") if player else None
            if got != wanted:
                diffs.append(f"{label} of {name}: expected {format_amount(wanted)}, got "
                             f"{format_amount(got) if got is not None else 'no such player'}")
    if "refused" in expect:
        refusals: dict[str, list[str]] = {}
        for entry in report.of_type("refused"):
            refusals.setdefault(entry.players[0], []).append(entry.data["reason"])
        wanted = expect["refused"]
        for name in sorted(set(refusals) - set(wanted)):
            diffs.append(f"refused: {name}'s order was refused but no refusal was expected: {refusals[name][0]}")
        for name, words in sorted(wanted.items()):
            if name not in refusals:
                diffs.append(f"refused: expected {name}'s order to be refused (with {words!r}); it was accepted")
            elif not any(words.casefold() in reason.casefold() for reason in refusals[name]):
                diffs.append(f"refused: {name}'s refusal does not mention {words!r}: {' | '.join(refusals[name])}")
    if "implosions" in expect:
        got = sorted(state.implosions)
        if got != expect["implosions"]:
            diffs.append(f"implosions: expected {_squares(expect['implosions'])}, got {_squares(got)}")
    if "eliminated" in expect:
        got = sorted(n for n, p in state.players.items() if p.status == "eliminated"
                     and before.players[n].status != "eliminated")
        if got != sorted(expect["eliminated"]):
            diffs.append(f"eliminated: expected {sorted(expect['eliminated'])}, got {got}")
    if "status" in expect:
        for name, wanted in expect["status"].items():
            got = state.players[name].status
            if got != wanted:
                diffs.append(f"status of {name}: expected {wanted}, got {got}")
    if "events" in expect:
        got = sorted(e.name for e in state.events)
        if got != sorted(expect["events"]):
            diffs.append(f"events: expected {sorted(expect['events'])}, got {got}")
    if "past_events" in expect:
        if list(state.past_events) != expect["past_events"]:
            diffs.append(f"past_events: expected {expect['past_events']}, got {list(state.past_events)}")
    if "marked" in expect:
        got = sorted(state.marked)
        if got != expect["marked"]:
            diffs.append(f"marked: expected {_squares(expect['marked'])}, got {_squares(got)}")
    if "powerups" in expect:
        got = sorted((p.kind, p.piece, p.at) for p in state.powerups)
        wanted = sorted((p.kind, p.piece, p.at) for p in expect["powerups"])
        if got != wanted:
            diffs.append(f"powerups: expected {wanted}, got {got}")
    if "winner" in expect:
        got = sorted(variant_for(scenario.ruleset).verdict(state).winners)
        if got != sorted(expect["winner"]):
            diffs.append(f"winner: expected {sorted(expect['winner'])}, got {got}")
    if "report" in expect:
        text = "\n".join(report.text(name) for name in sorted(state.players)) + "\n" + report.text()
        for words in expect["report"]:
            if words.casefold() not in text.casefold():
                diffs.append(f"report: does not mention {words!r}")
    if scenario.part is not None:        # the family's own keys (territory: RULES 5.4.9)
        diffs.extend(scenario.part.compare(scenario, state, report))
    return diffs


def _squares(squares) -> str:
    return "[" + ", ".join(format_square(s) for s in squares) + "]"


def _compare_pieces(expected: list[dict], actual: list[Piece], own: _FamilyFields = _NO_FAMILY_FIELDS) -> list[str]:
    """The whole board, in any order; optional fields compared only where written.

    Each expected piece takes the first piece, in canonical order, of its owner, kind and square
    whose written fields all agree; then what is left takes any piece of its owner, kind and square
    (a difference of state). The pieces are grouped by owner, kind and square first, so a board of
    50,000 pieces compares in linear time whatever the order of the file. ``own``: the fields the
    family adds (territory's ``copy``), compared where written too."""
    remaining = sorted(actual, key=lambda p: p.canonical_key)
    groups: dict[tuple, list[Piece]] = {}   # owner, kind, square -> pieces not taken yet
    for piece in remaining:
        key = (piece.owner, piece.kind, piece.square)
        group = groups.get(key)
        if group is None:
            groups[key] = [piece]
        else:
            group.append(piece)
    unmatched: list[dict] = []
    for spec in expected:  # First pass: exact matches of every written field.
        group = groups.get((spec["owner"], spec["kind"], spec["square"]))
        for i, piece in enumerate(group or ()):
            if _written_fields_agree(spec, piece, own):
                del group[i]
                break
        else:
            unmatched.append(spec)
    still: list[dict] = []
    mismatched: list[str] = []
    for spec in unmatched:  # Second pass: same piece, other state
        group = groups.get((spec["owner"], spec["kind"], spec["square"]))
        if group:
            piece = group.pop(0)
            fields = [k for k in (*_OPTIONAL_FIELDS, *own.names) if k in spec]
            mismatched.append(f"piece differs: expected {_describe_spec(spec, own)}, got "
                              f"{_describe_piece(piece, fields, own)}")
        else:
            still.append(spec)
    diffs = [f"missing piece: {_describe_spec(spec, own)}" for spec in still]
    diffs.extend(mismatched)
    left = {piece.id for group in groups.values() for piece in group}
    diffs.extend(f"extra piece: {_describe_piece(p, ('check',))}" for p in remaining if p.id in left)
    return diffs


def _written_fields_agree(spec: dict, piece: Piece, own: _FamilyFields = _NO_FAMILY_FIELDS) -> bool:
    """Whether the optional fields written for an expected piece all have the piece's values."""
    for key, value in spec.items():
        if key in _OPTIONAL_SET:
            if getattr(piece, key) != value:
                return False
        elif key in own.names and own.value(piece, key) != value:
            return False
    return True


# ----------------------------------------------------------------------------- printing
def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return format_amount(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return str(value)


def state_to_toml(scenario: Scenario, state: GameState) -> str:
    """The position after the update in the scenario format (players, pieces, board)."""
    lines = [f'ruleset = {_toml_value(scenario.ruleset.name if scenario.ruleset.source.endswith(scenario.ruleset.name + ".toml") else scenario.ruleset.source)}',
             f"update = {state.update}", f"seed = {scenario.seed}",
             f"description = {_toml_value('position after ' + (scenario.description or scenario.path))}", "", "[board]"]
    if state.board.bounds is not None and state.board.bounds != scenario.ruleset.bounds_for(len(state.players)):
        (x0, y0), (x1, y1) = state.board.bounds
        lines.append(f"bounds = [[{x0}, {y0}], [{x1}, {y1}]]")
    lines.append(f"implosions = {_toml_value([list(s) for s in sorted(state.implosions)])}")
    if state.moved_last_update:
        moves = ", ".join(f"{{ from = [{m.origin[0]}, {m.origin[1]}], to = [{m.target[0]}, {m.target[1]}] }}"
                          for m in state.moved_last_update)
        lines.append(f"moved_last_update = [{moves}]")
    if state.length is not None:
        lines.append(f"length = {state.length}")
    if state.events:
        events = ", ".join(f'{{ name = {_toml_value(e.name)}, started = {e.started} }}' for e in state.events)
        lines.append(f"events = [{events}]")
    if state.past_events:
        lines.append(f"past_events = {_toml_value(list(state.past_events))}")
    if state.marked:
        lines.append(f"marked = {_toml_value([list(s) for s in state.marked])}")
    if state.powerups:
        powerups = ", ".join(f"{{ kind = {_toml_value(p.kind)}, "
                             + (f"piece = {_toml_value(p.piece)}, " if p.piece is not None else "")
                             + f"at = [{p.at[0]}, {p.at[1]}] }}" for p in sorted(state.powerups, key=lambda p: p.at))
        lines.append(f"powerups = [{powerups}]")
    for name in sorted(state.players):
        p = state.players[name]
        lines += ["", "[[players]]", f"name = {_toml_value(p.name)}", f"colour = {_toml_value(p.colour)}",
                  f"balance = {format_amount(p.balance)}", f"captured = {format_amount(p.captured)}"]
        if p.team:
            lines.append(f"team = {_toml_value(p.team)}")
        if p.king_lost_at is not None:
            lines.append(f"king_lost_at = {p.king_lost_at}")
        if p.king_lost_square is not None:
            lines.append(f"king_lost_square = {_toml_value(list(p.king_lost_square))}")
        if p.status != "active":
            lines.append(f"status = {_toml_value(p.status)}")
        if p.rejoin_after is not None:
            lines.append(f"rejoin_after = {p.rejoin_after}")
        if scenario.part is not None:
            lines += scenario.part.player_lines(state, name)
        if p.pending:
            lines.append(f"pending = {_toml_value(list(p.pending))}")
    for piece in sorted(state.board, key=lambda p: p.canonical_key):
        lines += ["", "[[pieces]]"]
        if piece.owner is not None:
            lines.append(f"owner = {_toml_value(piece.owner)}")
        lines += [f"kind = {_toml_value(piece.kind)}", f"at = [{piece.square[0]}, {piece.square[1]}]"]
        if piece.check != "none":
            lines.append(f"check = {_toml_value(piece.check)}")
        for key in ("disabled", "moved", "energy", "spirit", "step_used"):
            if getattr(piece, key):
                lines.append(f"{key} = true")
        for key in ("carrying", "carrying_since", "placed"):
            if getattr(piece, key) is not None:
                lines.append(f"{key} = {_toml_value(getattr(piece, key))}")
        if piece.fade:
            lines.append(f"fade = {piece.fade}")
        if scenario.part is not None:
            lines += scenario.part.piece_lines(state, piece)
    if scenario.part is not None:
        lines += scenario.part.lines(scenario, state)
    variant = variant_for(scenario.ruleset)
    if variant.features.winners:   # arena, territory: the verdict, [] while the game goes on
        lines += ["", f"# winner = {_toml_value(list(variant.verdict(state).winners))}"]
    return "\n".join(lines) + "\n"
