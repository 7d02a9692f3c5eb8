"""One territory turn (RULES.md 5.4.2 to 5.4.6, 5.4.8, 5.4.10): who acts, the check of a submission,
playing it, the refill, the verdict, and the set-up of a game.

A turn is one update: ``state.update`` is T, and turn T takes slot (T-1) mod L of the cycle (T2). A
player slot makes that player active; a territory slot makes its controller active when the turn
begins, and nobody controlling it skips the turn at once (report "skipped"). The active player's
first accepted submission ends the turn (5.4.8); the other player may only resign (T25). A refused
submission leaves the turn open and the position unchanged (T22); no submission is a missed turn, a
pass (T23). Quiet turns (skipped, passed, missed) count toward the draw after 24 in a row (T10, T27).

Every random draw of turn T comes from ``random.Random(f"{seed}:{T}")`` (INTERFACES.md), the set-up
using T = 0: three distinct start kinds, then the fill of the draft area, each ``rng.choice`` from a
list in canonical order (5.4.3).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Iterable, Mapping

from ..board import Board
from ..model import Player, format_square
from ..notation import AmbiguousOrderError, IllegalOrderError, OrderError
from ..report import Report
from ..ruleset import Ruleset
from ..state import GameState
from ..validation import OrderCheck
from .layout import GOAL, PLAYERS, Territory, TerritoryRules
from .notation import HINT, Action, Draft, Place, TurnSubmission, format_action, format_submission, parse_turn
from .pieces import Refusal, Table, Won
from .state import TerritoryState

__all__ = ["TurnCheck", "set_up", "active_player", "slot_of", "controls", "check_turn", "resolve_turn",
           "next_turn", "fill", "QUIET_DRAW", "skipped_run", "submission_text", "table_for", "territory_of",
           "legal_destinations", "player_of", "colours_of", "format_submission"]

#: T10: after this many consecutive quiet turns (skipped, passed or missed) the game is drawn.
QUIET_DRAW = 24


@dataclass(frozen=True, slots=True)
class TurnCheck(OrderCheck):
    """The answer to a territory submission: ``ok`` with its canonical echo, or the ``error``."""

    echo: str = ""

    @property
    def canonical(self) -> str:
        return self.echo


# ----------------------------------------------------------------------------- the position
def territory_of(state: GameState) -> TerritoryState:
    return state.territory if state.territory is not None else TerritoryState()


def colours_of(state: GameState) -> dict[str, str]:
    """Player name -> Red or Blue."""
    return {name: player.colour for name, player in sorted(state.players.items())}


def player_of(state: GameState, colour: str) -> str | None:
    return next((name for name, player in sorted(state.players.items()) if player.colour == colour), None)


def table_for(ruleset: Ruleset, state: GameState) -> Table:
    return Table(ruleset, state.board, territory_of(state), colours_of(state), state.next_id)


def slot_of(ruleset: Ruleset, turn: int) -> str:
    """Red, Blue or the territory whose turn ``turn`` is (T2)."""
    return ruleset.family_rules.slot_name(turn)


def controls(ruleset: Ruleset, state: GameState) -> dict[str, str | None]:
    """Every territory's controller and the goal's (``Goal``), None for nobody (5.4.4)."""
    table = table_for(ruleset, state)
    return {name: table.controller(name) for name in (*ruleset.family_rules.territory_names, GOAL)}


def active_player(ruleset: Ruleset, state: GameState, turn: int | None = None) -> str | None:
    """Who acts in turn ``turn`` (default: the state's) from this position; None when the turn is
    skipped (its territory has no controller) or the game is over."""
    if territory_of(state).over:
        return None
    slot = slot_of(ruleset, state.update if turn is None else turn)
    if slot in PLAYERS:
        return player_of(state, slot)
    return table_for(ruleset, state).controller(slot)


def next_turn(ruleset: Ruleset, state: GameState) -> tuple[int, str] | None:
    """The next turn that is not skipped, from this position (the state's own turn when it is
    still open), and its player; None when the game is over (5.4.9's ``next``)."""
    if territory_of(state).over:
        return None
    for turn in range(state.update, state.update + len(ruleset.family_rules.cycle) + 1):
        player = active_player(ruleset, state, turn)
        if player is not None:
            return turn, player
    return None


# ----------------------------------------------------------------------------- set-up and refill
def fill(rules: TerritoryRules, draft_area: list[str], bag: list[str], rng: random.Random) -> list[str]:
    """5.4.3's fill: while the draft area holds fewer than ``area_size`` and the bag is not empty,
    ``rng.choice(bag)`` (the bag in canonical order, with repeats) moves one piece. Returns what
    was drawn, in order; ``draft_area`` and ``bag`` are changed in place."""
    drawn = []
    bag.sort()
    while len(draft_area) < rules.area_size and bag:
        kind = rng.choice(bag)
        bag.remove(kind)
        draft_area.append(kind)
        drawn.append(kind)
    return drawn


def set_up(ruleset: Ruleset, players: Iterable[Player], seed: int | str) -> GameState:
    """The start of a game (5.4.3): the first seated plays Red, the second Blue; at T = 0 three
    ``rng.choice`` among the kinds not chosen yet give three distinct kinds, each reserve gets one
    copy of each, and the draft area is filled from the bag. The board starts empty."""
    players = list(players)
    if len(players) != len(PLAYERS):
        raise ValueError(f"territory is played by exactly {len(PLAYERS)} players, not {len(players)}")
    rules: TerritoryRules = ruleset.family_rules
    seated = {p.name: replace(p, colour=colour) for p, colour in zip(players, PLAYERS)}
    rng = random.Random(f"{seed}:0")
    chosen: list[str] = []
    for _ in range(rules.start_kinds):
        chosen.append(rng.choice([kind for kind in rules.kinds if kind not in chosen]))
    bag = [kind for kind in rules.kinds for _ in range(rules.copies)]
    for _ in seated:
        for kind in chosen:
            bag.remove(kind)
    draft_area: list[str] = []
    fill(rules, draft_area, bag, rng)
    territory = TerritoryState().with_changes(reserves={name: chosen for name in seated}, draft_area=draft_area,
                                              bag=bag)
    return GameState(board=Board(bounds=rules.bounds), players=seated, update=1, seats=tuple(seated),
                     territory=territory)


# ----------------------------------------------------------------------------- checking a submission
def submission_text(value: str | Iterable[str]) -> str:
    """A submission as one text: a list (a scenario's lines) joined by newlines."""
    return value if isinstance(value, str) else "\n".join(value)


def _not_your_turn(ruleset: Ruleset, state: GameState, active: str | None) -> str:
    turn = state.update
    slot = slot_of(ruleset, turn)
    if active is None:
        return (f"not your turn: turn {turn} is {slot}'s, which nobody controls, so it is skipped; only `resign` "
                f"is accepted (T24)")
    whose = f"{active}'s" if slot in PLAYERS else f"{slot}'s, played by {active}, who controls {slot}"
    return f"not your turn: turn {turn} is {whose} (RULES 5.4.8); only `resign` is accepted from you (T25)"


def check_turn(ruleset: Ruleset, state: GameState, player: str, text: str) -> TurnCheck:
    """Check a submission against the position; never raises for bad input."""
    try:
        submission, _ = _checked(ruleset, state, player, text)
    except OrderError as error:
        return TurnCheck(text, error=error)
    return TurnCheck(text, echo=submission.canonical)


def _checked(ruleset: Ruleset, state: GameState, player: str, text: str) -> tuple[TurnSubmission, Table | None]:
    """The submission played on a copy of the position (None for ``pass``, ``resign``), or the refusal."""
    if territory_of(state).over:
        raise IllegalOrderError("the game is over (T25)", text, (0, len(text)), "", rule="T25")
    if player not in state.players:
        raise IllegalOrderError("you are not a player of this game", text, (0, len(text)), "", rule="RULES 5.4")
    active = active_player(ruleset, state)
    if active is None and territory_of(state).quiet + len(skipped_run(ruleset, state)) >= QUIET_DRAW:
        raise IllegalOrderError(f"the game is over: turn {state.update} is skipped and the skips from there make "
                                f"{QUIET_DRAW} quiet turns in a row, a draw, before anything sent on it (T42)",
                                text, (0, len(text)), "", rule="T42")
    if player != active:       # T24, T25: only `resign`, whatever else the text says
        try:
            submission = parse_turn(text, ruleset)
        except OrderError:
            submission = None
        if submission is not None and submission.word == "resign":
            return submission, None
        raise IllegalOrderError(_not_your_turn(ruleset, state, active), text, (0, len(text)),
                                "wait for your turn; `resign` is accepted at any time", rule="T25")
    submission = parse_turn(text, ruleset)
    if submission.word in ("pass", "resign"):
        return submission, None
    return _play(ruleset, state, player, submission, text)


def _play(ruleset: Ruleset, state: GameState, player: str, submission: TurnSubmission, text: str
          ) -> tuple[TurnSubmission, Table]:
    """Carry out the submission on a working copy of the position: the action, then (unless it
    won, or lost the territory's control, T4) the placement or the draft."""
    table = table_for(ruleset, state)
    slot = slot_of(ruleset, state.update)
    territory = ruleset.family_rules.territory(slot)
    action = submission.action
    try:
        if action is not None:
            action = _with_origins(table, action, player, territory, text)
            submission = replace(submission, action=action)
            table.act(action, player, territory)
            if territory is not None and submission.phase2 is not None and table.controller(slot) != player:
                raise Refusal(f"this action loses control of {slot}, so its place/draft phase is forfeited (T4): "
                              f"send the action alone, or another action", submission.phase2.span, "T4")
        if isinstance(submission.phase2, Place):
            table.place(submission.phase2, player, territory)
        elif isinstance(submission.phase2, Draft):
            table.draft(submission.phase2, player)
    except Won as won:
        table.winner = won.player
    except Refusal as refusal:
        raise IllegalOrderError(refusal.reason, text, refusal.span, HINT, rule=refusal.rule) from None
    return submission, table


def _with_origins(table: Table, action: Action, player: str, territory: Territory | None, text: str) -> Action:
    """D5, T31: a short form's origin is the one piece of that kind of the player's that could
    legally make the move this turn (the action alone, not T4 nor phase 2), also after ``Ldr(x,y):``."""
    if action.form == "lead":
        delegate = action.delegate
        if delegate.origin is None:
            def trial(origin):
                return replace(action, delegate=replace(delegate, origin=origin))
            return _only_candidate(table, action, delegate, trial, player, territory, text)
        return action
    if action.origin is None:
        return _only_candidate(table, action, action, lambda origin: replace(action, origin=origin), player,
                               territory, text)
    return action


def _only_candidate(table: Table, action: Action, short: Action, trial, player: str, territory: Territory | None,
                    text: str) -> Action:
    kind = table.ruleset.pieces[short.kind]
    target = short.moves[0]
    pieces = sorted((p for p in table.board.owned_by(player) if p.kind == short.kind), key=lambda p: p.square)
    span = short.span
    if not pieces:
        raise IllegalOrderError(f"you have no {kind.name} on the board (D5)", text, span, HINT, rule="D5")
    able, reasons = [], []
    for piece in pieces:
        attempt = trial(piece.square)
        try:
            table.fork().act(attempt, player, territory)
        except Won:
            pass
        except Refusal as refusal:
            reasons.append(f"from {format_square(piece.square)}: {refusal.reason}")
            continue
        able.append(attempt)
    if len(able) == 1:
        return able[0]
    if able:
        squares = tuple(a.origin if a.form != "lead" else a.delegate.origin for a in able)
        listed = " or ".join(format_square(s) for s in squares)
        example = format_action(able[0].delegate if able[0].form == "lead" else able[0])
        raise AmbiguousOrderError(f"{len(able)} of your {kind.name} pieces could go to {format_square(target)}: "
                                  f"from {listed} (D5, T31)", text, span,
                                  f"write both squares, for example {example}", rule="D5", candidates=squares)
    if len(reasons) == 1:
        reason = reasons[0].split(": ", 1)[1]
        raise IllegalOrderError(f"{reason} (D5)" if "(D5)" not in reason else reason, text, span, HINT, rule="D5")
    raise IllegalOrderError(f"none of your {kind.name} pieces can go to {format_square(target)} (D5): "
                            + "; ".join(reasons), text, span, HINT, rule="D5")


# ----------------------------------------------------------------------------- resolving a turn
def resolve_turn(ruleset: Ruleset, state: GameState, orders: Mapping[str, str | Iterable[str]], seed: int | str
                 ) -> tuple[GameState, Report]:
    """Turn ``state.update`` with the players' submissions (text as typed; a list is the lines of
    one submission). Pure and deterministic.

    A skipped turn happens first, the moment the turn before it ended (T42): a ``resign`` sent on it
    comes after the skip. Resignations come before what they race (T42). When a turn ends, the
    skipped turns that follow it are counted at once if they bring the quiet count to 24 (T43)."""
    turn = state.update
    report = Report(turn)
    base = territory_of(state)
    texts = {name: submission_text(value) for name, value in orders.items()}
    texts = {name: text for name, text in sorted(texts.items()) if text.strip()}   # D37: empty is none
    if base.over:
        for name, text in texts.items():
            report.add("refused", [name], text=text, reason="the game is over (T25)")
        return _copy(state), report

    active = active_player(ruleset, state)
    resigned: list[str] = []
    active_text: str | None = None
    for name, text in texts.items():
        if name not in state.players:
            report.add("refused", [name], text=text, reason="you are not a player of this game")
            continue
        try:
            parsed = parse_turn(text, ruleset)
        except OrderError:
            parsed = None
        if parsed is not None and parsed.word == "resign":
            resigned.append(name)
        elif name != active:
            report.add("refused", [name], text=text, reason=_not_your_turn(ruleset, state, active))
        else:
            active_text = text

    if active is None:                 # T42: the skip first, then any resignation
        report.add("skipped", [], turn=turn, slot=slot_of(ruleset, turn))
        after = _quiet(ruleset, state, report, base, seed, refill=False)
        if not resigned:
            return after, report
        if territory_of(after).over:
            for name in resigned:
                report.add("refused", [name], text=texts[name], reason=_over_by_skips(after))
            return after, report
        waiting = next_turn(ruleset, after)       # P64: after the skip, the next turn's player is active
        return _resignation(after, report, resigned, waiting[1] if waiting else None, None), report
    if resigned:
        return _resignation(replace(state, update=turn + 1), report, resigned, active, active_text), report
    if active_text is None:
        report.add("missed", [active], turn=turn)
        return _quiet(ruleset, state, report, base, seed, refill=True), report
    try:
        submission, table = _checked(ruleset, state, active, active_text)
    except OrderError as error:
        report.add("refused", [active], text=active_text, reason=error.reason)   # T22: the turn stays open
        return _copy(state), report
    report.add("order", [active], order=submission.canonical, outcome="played")
    if submission.word == "pass":
        report.add("passed", [active], turn=turn)
        return _quiet(ruleset, state, report, base, seed, refill=True), report
    for kind, players, data in table.entries:
        report.add(kind, players, **data)
    territory = table.territory_state(base).with_changes(quiet=0)
    players = _players(state)
    for kind, (by, *_), _data in table.entries:      # the standings' "Captured": enemy pieces taken
        if kind == "capture" and by in players:
            players[by].captured += 1
    after = replace(state, board=table.board, players=players, update=turn + 1, next_id=table.next_id,
                    territory=territory)
    if table.winner is not None:
        after.territory = territory.with_changes(winners=(table.winner,),
                                                 ended=f"{table.winner} controls the goal (T9)")
        return after, report
    after.territory = _refilled(ruleset.family_rules, after.territory, seed, turn, report)
    return _skips_ahead(ruleset, after, report), report


def _copy(state: GameState) -> GameState:
    return replace(state, board=state.board.copy(), players=_players(state))


def _players(state: GameState) -> dict[str, Player]:
    return {name: replace(player) for name, player in state.players.items()}


def _refilled(rules: TerritoryRules, territory: TerritoryState, seed: int | str, turn: int, report: Report
              ) -> TerritoryState:
    draft_area, bag = list(territory.draft_area), list(territory.bag)
    drawn = fill(rules, draft_area, bag, random.Random(f"{seed}:{turn}"))   # INTERFACES.md: the turn's draws
    if drawn:
        report.add("refilled", [], kinds=", ".join(drawn))
    return territory.with_changes(draft_area=draft_area, bag=bag)


def _quiet(ruleset: Ruleset, state: GameState, report: Report, base: TerritoryState, seed: int | str, refill: bool
           ) -> GameState:
    """A skipped, passed or missed turn: quiet + 1 (T10, T27), the refill unless skipped (T26), then
    the skipped turns that follow (T43)."""
    turn = state.update
    territory = base.with_changes(quiet=base.quiet + 1)
    if refill:
        territory = _refilled(ruleset.family_rules, territory, seed, turn, report)
    if territory.quiet >= QUIET_DRAW:
        territory = _drawn(territory, report)
        return replace(_copy(state), update=turn + 1, territory=territory)
    return _skips_ahead(ruleset, replace(_copy(state), update=turn + 1, territory=territory), report)


def _drawn(territory: TerritoryState, report: Report) -> TerritoryState:
    report.add("drawn", [], quiet=territory.quiet)
    return territory.with_changes(drawn=True, ended=f"{territory.quiet} quiet turns in a row (T10)")


def skipped_run(ruleset: Ruleset, state: GameState) -> list[int]:
    """The turns from ``state.update`` on that are skipped, one after the other, in this position
    (nothing changes on a skipped turn, so the position decides them all); empty when that turn has
    a player. A player's own slot is never skipped, so the run is shorter than the cycle."""
    turns = []
    turn = state.update
    while len(turns) < len(ruleset.family_rules.cycle) and active_player(ruleset, state, turn) is None:
        turns.append(turn)
        turn += 1
    return turns


def _skips_ahead(ruleset: Ruleset, after: GameState, report: Report) -> GameState:
    """T43: the turn that just ended is followed at once by the skipped turns after it (5.4.2); when
    one of them is the 24th quiet turn in a row the game is drawn now, with no next turn. Otherwise
    they stay to come, each its own update (the service resolves them at once)."""
    territory = territory_of(after)
    if territory.over or territory.quiet + len(ruleset.family_rules.cycle) < QUIET_DRAW:
        return after       # no run of skipped turns can reach the draw
    run = skipped_run(ruleset, after)
    if territory.quiet + len(run) < QUIET_DRAW:
        return after
    counted = run[:QUIET_DRAW - territory.quiet]
    for turn in counted:
        report.add("skipped", [], turn=turn, slot=slot_of(ruleset, turn))
    after.territory = _drawn(territory.with_changes(quiet=territory.quiet + len(counted)), report)
    return after


def _over_by_skips(state: GameState) -> str:
    return (f"the game is over: it was drawn by {territory_of(state).quiet} quiet turns in a row before your "
            f"`resign` (T42: a skipped turn happens first, when the turn before it ends)")


def _resignation(state: GameState, report: Report, resigned: list[str], active: str | None,
                 active_text: str | None) -> GameState:
    """T42: ``resign`` from either player at any time; the opponent wins (``state``: the position as
    the turn leaves it, its number already moved on). A resignation comes before
    what it races: the other player's counts first, so when both resign the active player wins, and
    a resignation never draws. The active player's other submission, or their own ``resign`` after
    the other's, is refused: the game is over (T25). No refill (T26). ``active`` is None only when
    the position waits for nobody, which never happens between a skipped turn and a player's slot."""
    players = _players(state)
    others = [name for name in resigned if name != active]
    loser = others[0] if others else resigned[0]
    players[loser].status = "resigned"
    report.add("order", [loser], order="resign", outcome="played")
    winner = next(name for name in sorted(players) if name != loser)
    report.add("conceded", [loser], winner=winner)
    territory = territory_of(state).with_changes(winners=(winner,), ended=f"{loser} resigned")
    for name in resigned:
        if name != loser:
            report.add("refused", [name], text="resign",
                       reason=f"the game is over: {loser} resigned first, so you win (T42)")
    if active_text is not None:
        report.add("refused", [active], text=active_text,
                   reason="the game is over: your opponent resigned (T25, T42)")
    return replace(state, board=state.board.copy(), players=players, territory=territory)


def legal_destinations(ruleset: Ruleset, state: GameState, piece) -> list[tuple[int, int]]:
    """``moves`` (5.4.6's last line): the squares the piece's plain move reaches on its owner's
    player turn, with Shadow's jump and Fire's first leg, freezing, Lotus boxes, Shields and goal
    stacks applied."""
    table = table_for(ruleset, state)
    found = []
    for square in ruleset.family_rules.squares():
        attempt = Action("move", piece.kind, piece.square, (square,))
        try:
            table.fork().act(attempt, piece.owner, None)
        except Won:
            pass
        except Refusal:
            continue
        found.append(square)
    return found

