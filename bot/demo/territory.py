"""Territory's simulated players (RULES 5.4; T1 to T40).

Two players take the seats before the start (the first seated plays Red). Each turn the variant
names the player who acts (``who_may_order``: nobody on a skipped turn, which the service resolves
at once); that player sends one submission, which ends the turn the moment it is accepted (5.4.8).
What they send is put together from the position they see, every part tried with the variant's
``resolve`` on a copy and the whole submission checked with its ``check`` before it is sent, so the
demo never states a rule of its own:

1. **an action**, or none: every move the variant lists for each of the player's pieces
   (``destinations``: Shadow's jump and Fire's first leg included), Fire's further legs after a
   capture, and the abilities the pieces' kinds have (named in the ruleset's piece table: swaps,
   pulls, pushes, carries, Wood's shot, a Leadership's delegate). Each is scored by the position it
   leaves: a win, the territories held and the counts in them, the pieces on the board and in the
   reserves, the pieces near the goal; the best few are scored again with what the opponent can
   take or win on the next turn. Now and then an ability is preferred when it scores nearly as well;
2. **a phase 2**: a draft when the reserve is small (the kinds with abilities, a Sun, kinds not held
   yet first), else mostly a placement from the reserve on the square that scores best (the home
   rows, a territory on its turn, a Freedom anywhere it may go, a Mirror with its copy); when the
   variant refuses the pair (an action that loses the territory's control forfeits the phase 2,
   T4), the action goes alone;
3. ``pass`` when nothing is accepted.

Now and then the player who is not active sends a submission anyway (refused: "not your turn"), and
the active player first sends one the bot refuses (a placement outside the home rows, a draft
beyond the reserve's limit, a piece acting outside the territory whose turn it is): the refusals in
T40's words. Same seed, same orders: each player draws from ``random.Random(f"{seed}:{update}:{name}")``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.engine.model import Piece, Square, format_square
from bot.engine.ruleset import Ruleset
from bot.engine.state import GameState
from bot.engine.variants import variant_for

from .common import Intent, Planner, SimulatedPlayer, cast, chebyshev, player_rng

__all__ = ["PLANNER", "plan_turn"]

#: a won game in the scores: larger than anything else a position is worth
WIN = 10_000
#: the seed of the planner's trial resolutions: the refill it draws is not the game's (the players
#: do not see the bag)
TRIAL_SEED = "demo-trial"
#: how many of the best actions (and placements) are scored again with the opponent's reply
RECHECKED = 8
#: the chance that a player prefers an ability to a slightly better plain move
ABILITY_TASTE = 0.45
#: how much worse (in score points) an ability may be and still be preferred
ABILITY_MARGIN = 6.0
#: the chances of the refused submissions staged: out of turn, and the active player's slip
OUT_OF_TURN = 0.12
SLIP = 0.12

#: the abilities an action may use, by the name the piece table gives them
ACTING = ("swap_enemy", "swap_ally", "pull", "push", "carry_ally", "ranged_capture", "delegate", "capture_chain")
_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_LINES = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
_AROUND = _LINES
_SHOTS = tuple((2 * dx, 2 * dy) for dx, dy in _LINES)


def sq(square: Square) -> str:
    return format_square(square)


@dataclass(slots=True)
class Option:
    """A submission (or the action of one) with the position it leaves and its score."""

    text: str
    why: str
    after: GameState | None = None
    score: float = 0.0
    ability: bool = False


@dataclass(slots=True)
class _Areas:
    """The areas of the board as the variant draws them (RULES 5.4.1)."""

    goal: Square
    territories: dict[str, frozenset[Square]]
    homes: dict[str, frozenset[Square]]          # player name -> home place area
    neutral: frozenset[Square]
    controllers: dict[str, str | None] = field(default_factory=dict)


class _Turn:
    """What the active player reads off the position of one turn, computed once."""

    def __init__(self, ruleset: Ruleset, state: GameState, player: str) -> None:
        self.ruleset = ruleset
        self.variant = variant_for(ruleset)
        self.state = state
        self.me = player
        self.opponent = next(name for name in sorted(state.players) if name != player)
        self.areas = self.read_areas(state)
        self.cache: dict[str, Option | None] = {}
        self._destinations: dict[int, list[Square]] = {}

    # ------------------------------------------------------------------ the position
    def read_areas(self, state: GameState) -> _Areas:
        additions = self.variant.board_additions(state)
        goal = next(area.squares[0] for area in additions.areas if area.kind == "goal")
        turns = {slot.name for slot in additions.cycle}         # the areas with turns of their own
        territories = {a.name: frozenset(a.squares) for a in additions.areas if a.name in turns}
        homes = {a.owner: frozenset(a.squares) for a in additions.areas if a.kind == "home" and a.owner}
        neutral = frozenset(s for a in additions.areas if a.kind == "neutral" for s in a.squares)
        controllers = {a.name: a.controller for a in additions.areas if a.name in turns or a.kind == "goal"}
        return _Areas(goal, territories, homes, neutral, controllers)

    def kind(self, piece_or_letter) -> object:
        letter = piece_or_letter if isinstance(piece_or_letter, str) else piece_or_letter.kind
        return self.ruleset.pieces[letter]

    def has(self, piece_or_letter, ability: str) -> bool:
        return self.kind(piece_or_letter).has(ability)

    def pieces(self, state: GameState, name: str) -> list[Piece]:
        return sorted(state.board.owned_by(name), key=lambda p: p.canonical_key)

    def reserve(self, state: GameState, name: str) -> tuple[str, ...]:
        return state.territory.reserve(name) if state.territory is not None else ()

    def destinations(self, piece: Piece) -> list[Square]:
        if piece.id not in self._destinations:
            self._destinations[piece.id] = self.variant.destinations(self.state, piece)
        return self._destinations[piece.id]

    def value(self, piece: Piece) -> float:
        """What a piece is worth to its owner: a Sun counts twice, a Rock comes back (T8)."""
        if self.has(piece, "counts_double"):
            return 3.0
        if self.has(piece, "returns_to_reserve"):
            return 1.0
        return 2.0

    # ------------------------------------------------------------------ trying a submission
    def trial(self, text: str, why: str = "", ability: bool = False) -> Option | None:
        """The submission played on a copy of the position (the variant's resolution), scored; None
        when the variant refuses it."""
        if text in self.cache:
            found = self.cache[text]
            return None if found is None else Option(text, why or found.why, found.after, found.score, ability)
        after, report = self.variant.resolve(self.state, {self.me: text}, TRIAL_SEED)
        if report.of_type("refused"):
            self.cache[text] = None
            return None
        option = Option(text, why, after, self.score(after), ability)
        self.cache[text] = option
        return option

    def accepts(self, text: str) -> bool:
        return self.variant.check(self.state, self.me, text).ok

    def score(self, after: GameState) -> float:
        """What a position is worth to the active player."""
        me, them = self.me, self.opponent
        territory = after.territory
        if territory.winners:
            return WIN if me in territory.winners else -WIN
        if territory.drawn:
            return -WIN / 10
        areas = self.read_areas(after)
        total = 0.0
        for name, squares in areas.territories.items():
            holder = areas.controllers.get(name)
            total += 25 if holder == me else -25 if holder == them else 0
            mine = sum(self.weight(p) for s in squares for p in after.board.at(s) if p.owner == me)
            theirs = sum(self.weight(p) for s in squares for p in after.board.at(s) if p.owner == them)
            total += 3 * max(-3, min(3, mine - theirs))
        goal = areas.goal
        for piece in after.board:
            side = 1 if piece.owner == me else -1
            total += side * 5 * self.value(piece)
            near = max(0, 4 - chebyshev(piece.square, goal))
            total += side * (1.2 if side > 0 else 0.8) * near
            if piece.square == goal:        # one more piece there, and its owner controls the goal
                total += side * (8 if side > 0 else 20)
        total += 1.5 * (len(self.reserve(after, me)) - len(self.reserve(after, them)))
        return total

    def weight(self, piece: Piece) -> int:
        return 2 if self.has(piece, "counts_double") else 1

    def reply(self, option: Option) -> float:
        """What the opponent can do to the position ``option`` leaves on the next turn, when it is
        theirs: a win (a move, an ability or a hand-over that puts a piece on the goal), else the most
        they capture with one move. The variant judges every try."""
        after = option.after
        if after is None or after.territory.over:
            return 0.0
        upcoming = self.variant.next_turn(after)
        if upcoming is None or upcoming[1] != self.opponent:
            return 0.0
        while after.update < upcoming[0]:       # the skipped turns before theirs, resolved as the bot does
            after, _ = self.variant.resolve(after, {}, TRIAL_SEED)
        them = self.opponent
        for text in self.goal_texts(after, them):
            if self.variant.check(after, them, text).ok:
                result, _ = self.variant.resolve(after, {them: text}, TRIAL_SEED)
                if them in result.territory.winners:
                    return WIN * 0.8
        worst = 0.0
        for piece in self.pieces(after, them):
            for mine in self.pieces(after, self.me):
                text = f"{piece.kind}{sq(piece.square)}-{sq(mine.square)}"
                if self.variant.check(after, them, text).ok:
                    worst = max(worst, 5 * self.value(mine))
        return worst

    def goal_texts(self, state: GameState, player: str) -> Iterable[str]:
        """The player's actions that may put a piece of theirs on the goal: a move there (a Shadow's
        jump too), a Leaf's swap then move, a Moon's pull then move, a Wind's carry (after a move
        next to the goal too), a Leadership's hand-over, and every pull and push (the piece moved may
        land there)."""
        goal = self.areas.goal
        allies = self.pieces(state, player)
        for piece in allies:
            origin = f"{piece.kind}{sq(piece.square)}"
            yield f"{origin}-{sq(goal)}"
            others = [a for a in allies if a.id != piece.id]
            if self.has(piece, "swap_ally"):
                for ally in others:
                    yield f"{origin}<>{sq(ally.square)}-{sq(goal)}"
            if self.has(piece, "pull"):
                for target in self.first_on_lines(state, piece.square, piece):
                    yield f"{origin}<{sq(target)}"
                    yield f"{origin}<{sq(target)}-{sq(goal)}"
            if self.has(piece, "push"):
                for target in self.first_on_lines(state, piece.square, piece):
                    yield f"{origin}>{sq(target)}"
            if self.has(piece, "carry_ally"):       # from where it stands, or after a move next to the goal
                beside = [""] + [f"-{sq((goal[0] + dx, goal[1] + dy))}" for dx, dy in _AROUND]
                for ally in others:
                    for moved in beside:
                        yield f"{origin}{moved}&{sq(ally.square)}-{sq(goal)}"
            if self.has(piece, "delegate"):
                for ally in others:
                    if not self.has(ally, "delegate"):
                        yield f"{origin}:{ally.kind}{sq(ally.square)}-{sq(goal)}"

    # ------------------------------------------------------------------ actions
    def actions(self) -> list[Option]:
        """Every action the variant accepts alone, scored."""
        found: list[Option] = []
        for text, why, ability in self.action_texts():
            option = self.trial(text, why, ability)
            if option is not None:
                found.append(option)
        return found

    def action_texts(self) -> Iterable[tuple[str, str, bool]]:
        state = self.state
        board = state.board
        mine = self.pieces(state, self.me)
        for piece in mine:
            origin = f"{piece.kind}{sq(piece.square)}"
            for target in self.destinations(piece):
                victims = [p for p in board.at(target) if p.owner != self.me]
                yield f"{origin}-{sq(target)}", "capture" if victims else "move", False
                if victims and self.has(piece, "capture_chain"):
                    for dx, dy in _AROUND:          # a further leg after the capture (T21)
                        step = (target[0] + dx, target[1] + dy)
                        if board.at(step) and any(p.owner != self.me for p in board.at(step)):
                            yield f"{origin}-{sq(target)}-{sq(step)}", "capture", True
            yield from self.ability_texts(piece, origin, mine)

    def ability_texts(self, piece: Piece, origin: str, mine: list[Piece]) -> Iterable[tuple[str, str, bool]]:
        board = self.state.board
        enemies = self.pieces(self.state, self.opponent)
        if self.has(piece, "swap_enemy"):
            for enemy in enemies:
                yield f"{origin}<>{sq(enemy.square)}", "swap", True
        if self.has(piece, "swap_ally"):
            for ally in mine:
                if ally.id == piece.id:
                    continue
                yield f"{origin}<>{sq(ally.square)}", "swap", True
                for dx, dy in _KNIGHT:
                    then = (ally.square[0] + dx, ally.square[1] + dy)
                    if board.in_bounds(then):
                        yield f"{origin}<>{sq(ally.square)}-{sq(then)}", "swap", True
        if self.has(piece, "pull"):
            for target in self.first_on_lines(self.state, piece.square, piece):
                yield f"{origin}<{sq(target)}", "pull", True
                for then in self.destinations(piece):
                    yield f"{origin}<{sq(target)}-{sq(then)}", "pull", True
        if self.has(piece, "push"):
            for start in [None, *self.destinations(piece)]:
                square = piece.square if start is None else start
                moved = "" if start is None else f"-{sq(start)}"
                for target in self.first_on_lines(self.state, square, piece):
                    yield f"{origin}{moved}>{sq(target)}", "push", True
        if self.has(piece, "carry_ally"):
            for start in [None, *self.destinations(piece)[:3]]:
                square = piece.square if start is None else start
                moved = "" if start is None else f"-{sq(start)}"
                for ally in mine:
                    if ally.id == piece.id:
                        continue
                    for dx, dy in _AROUND:
                        to = (square[0] + dx, square[1] + dy)
                        if board.in_bounds(to) and to != ally.square:
                            yield f"{origin}{moved}&{sq(ally.square)}-{sq(to)}", "carry", True
        if self.has(piece, "ranged_capture"):
            for dx, dy in _SHOTS:
                target = (piece.square[0] + dx, piece.square[1] + dy)
                if any(p.owner != self.me for p in board.at(target)):
                    yield f"{origin}x{sq(target)}", "shot", True
        if self.has(piece, "delegate"):
            for ally in mine:
                if ally.id == piece.id or self.has(ally, "delegate"):
                    continue
                for target in self.destinations(ally):
                    yield f"{origin}:{ally.kind}{sq(ally.square)}-{sq(target)}", "lead", True

    def first_on_lines(self, state: GameState, square: Square, mover: Piece) -> list[Square]:
        """The first piece on each of the 8 lines from ``square`` (a pull's or a push's candidates)."""
        board = state.board
        found = []
        for dx, dy in _LINES:
            x, y = square
            while True:
                x, y = x + dx, y + dy
                if not board.in_bounds((x, y)):
                    break
                here = [p for p in board.at((x, y)) if p.id != mover.id]
                if here:
                    found.append((x, y))
                    break
        return found

    # ------------------------------------------------------------------ phase 2
    def placements(self, prefix: str, rng: random.Random) -> list[Option]:
        """The placements the variant accepts after ``prefix`` (an action, or nothing): each kind of
        the reserve on each square where it may go, a Mirror with a copy beside it."""
        reserve = sorted(set(self.reserve(self.state, self.me)))
        if not reserve:
            return []
        (x0, y0), (x1, y1) = self.state.board.bounds
        empty = [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1) if not self.state.board.at((x, y))]
        head = f"{prefix}; " if prefix else ""
        found: list[Option] = []
        squares_for: dict[bool, list[Square]] = {}
        for anywhere in (False, True):
            kinds = [k for k in reserve if self.has(k, "place_anywhere") == anywhere]
            if kinds:
                squares_for[anywhere] = [s for s in empty if self.accepts(f"{head}+{kinds[0]}{sq(s)}")]
        for kind in reserve:
            squares = squares_for[self.has(kind, "place_anywhere")]
            for square in squares:
                text = f"{head}+{kind}{sq(square)}"
                if self.has(kind, "mirror_copy") and rng.random() < 0.7:
                    copies = [(square[0] + dx, square[1] + dy) for dx, dy in _AROUND]
                    rng.shuffle(copies)
                    for copy in copies:
                        option = self.trial(f"{text}+{sq(copy)}", "place", True)
                        if option is not None:
                            found.append(option)
                            break
                option = self.trial(text, "place")
                if option is not None:
                    found.append(option)
        return found

    def drafts(self, prefix: str, rng: random.Random) -> list[Option]:
        """A draft of the kinds the player likes best from the draft area: three, or as many as
        the variant accepts (the reserve's limit, T6)."""
        area = list(self.state.territory.draft_area)
        if not area:
            return []
        held = set(self.reserve(self.state, self.me)) | {p.kind for p in self.state.board.owned_by(self.me)}

        def liking(kind: str) -> float:
            taste = 3.0 if self.has(kind, "counts_double") else 0.0
            taste += 2.0 if any(self.has(kind, a) for a in ACTING + ("mirror_copy", "place_anywhere", "portal")) else 0
            taste += 1.0 if kind not in held else 0.0
            return taste + rng.random() * 2

        ranked = sorted(area, key=lambda k: (-liking(k), k))
        head = f"{prefix}; " if prefix else ""
        found = []
        for size in (3, 2, 1):
            kinds = sorted(ranked[:size])
            option = self.trial(f"{head}draft {', '.join(kinds)}", "draft")
            if option is not None:
                found.append(option)
                break
        return found


# ============================================================================ one turn's intents
def plan_turn(ruleset: Ruleset, state: GameState, update: int, seed: int | str,
              players: Iterable[SimulatedPlayer], shown: frozenset[str] = frozenset()) -> list[Intent]:
    """The intent of the player whose turn it is (nobody's on a skipped turn), and now and then a
    submission of the other player's out of turn (refused), first."""
    variant = variant_for(ruleset)
    seated = {p.name: p for p in players if p.name in state.players}
    active = [name for name in variant.who_may_order(state) if name in seated]
    if not active:
        return []
    name = active[0]
    rng = player_rng(seed, update, name)
    staging = player_rng(seed, update, "demo")
    turn = _Turn(ruleset, state, name)
    intents = []
    other = seated.get(turn.opponent)
    if other is not None and (update % 9 == 2 or staging.random() < OUT_OF_TURN):
        slip = _out_of_turn(turn, staging)
        if slip is not None:
            intents.append(Intent(other, None, "channel", slip, "out of turn"))
    order, plan = _choose(turn, rng)
    slip = _slip(turn, rng) if rng.random() < SLIP or update % 11 == 5 else None
    source = "dm" if variant.features.takes_direct_messages and rng.random() < 0.2 else "channel"
    intents.append(Intent(seated[name], order, source, slip, plan))
    return intents


def _choose(turn: _Turn, rng: random.Random) -> tuple[str, str]:
    """The active player's submission: an action (or none), then a placement or a draft."""
    actions = turn.actions()
    base = turn.score(turn.state)
    for option in actions:
        option.score += rng.random() * 2
    actions.sort(key=lambda o: -o.score)
    best = _rechecked(turn, actions[:RECHECKED])
    action: Option | None = None
    if best:
        action = best[0]
        abilities = [o for o in best + actions[RECHECKED:RECHECKED * 3] if o.ability]
        if abilities and rng.random() < ABILITY_TASTE:
            favourite = max(abilities, key=lambda o: o.score)
            if favourite.score >= action.score - ABILITY_MARGIN:
                action = favourite
        if action.score <= base and action.after is not None and not action.after.territory.winners:
            # no action improves the position: phase 2 alone, now and then a quiet move anyway
            action = action if rng.random() < 0.3 else None
    if action is not None and action.after is not None and action.after.territory.winners:
        return action.text, "win"
    prefix = action.text if action is not None else ""
    second = _phase_two(turn, prefix, rng)
    if second is not None:
        why = ", ".join(dict.fromkeys(w for w in (action.why if action else "", second.why) if w))
        return second.text, why
    if action is not None:
        return action.text, action.why
    return "pass", "pass"


def _rechecked(turn: _Turn, options: list[Option]) -> list[Option]:
    """The options scored again with the opponent's best reply, best first."""
    for option in options:
        option.score -= turn.reply(option)
    return sorted(options, key=lambda o: -o.score)


def _phase_two(turn: _Turn, prefix: str, rng: random.Random) -> Option | None:
    """A draft when the reserve is small, else mostly a placement; None when neither is accepted."""
    reserve = turn.reserve(turn.state, turn.me)
    limit = next((h.limit for h in turn.variant.board_additions(turn.state).holdings if h.owner == turn.me), None)
    room = (limit - len(reserve)) if limit is not None else 3
    want_draft = not reserve or (len(reserve) <= 2 and rng.random() < 0.7) or (room > 0 and rng.random() < 0.2)
    choices = []
    if want_draft and room > 0:
        choices = turn.drafts(prefix, rng)
    if not choices:
        placed = turn.placements(prefix, rng)
        for option in placed:
            option.score += rng.random() * 3
        placed.sort(key=lambda o: -o.score)
        choices = _rechecked(turn, placed[:RECHECKED // 2])
    if not choices and room > 0 and not want_draft:
        choices = turn.drafts(prefix, rng)
    return choices[0] if choices else None


# ============================================================================ refused submissions
def _out_of_turn(turn: _Turn, rng: random.Random) -> str | None:
    """What the player who is not active sends anyway: a draft or a placement (refused: "not your turn")."""
    them = turn.opponent
    state = turn.state
    texts = []
    if state.territory.draft_area:
        texts.append(f"draft {rng.choice(state.territory.draft_area)}")
    reserve = turn.reserve(state, them)
    home = sorted(s for s in turn.areas.homes.get(them, ()) if not state.board.at(s))
    if reserve and home:
        texts.append(f"+{rng.choice(reserve)}{sq(rng.choice(home))}")
    for piece in turn.pieces(state, them)[:1]:
        texts.append(f"{piece.kind}{sq(piece.square)}")
    rng.shuffle(texts)
    return next((t for t in texts if not turn.variant.check(state, them, t).ok), None)


def _slip(turn: _Turn, rng: random.Random) -> str | None:
    """A submission of the active player's that the bot refuses: a placement in the neutral zone or
    outside the home rows, a draft beyond the reserve's limit, or a piece acting outside the
    territory whose turn it is. Only one the variant refuses is sent."""
    state = turn.state
    texts = []
    reserve = turn.reserve(state, turn.me)
    if reserve:
        kind = rng.choice(reserve)
        neutral = sorted(s for s in turn.areas.neutral if not state.board.at(s))
        if neutral:
            texts.append(f"+{kind}{sq(rng.choice(neutral))}")
        far = sorted(turn.areas.homes.get(turn.opponent, ()))
        if far:
            texts.append(f"+{kind}{sq(rng.choice(far))}")
    area = list(state.territory.draft_area)
    if len(area) >= 3 and len(reserve) >= 5:
        texts.append(f"draft {', '.join(sorted(area[:3]))}")
    for piece in turn.pieces(state, turn.me):
        for target in turn.destinations(piece)[:1]:
            texts.append(f"{piece.kind}{sq(piece.square)}-{sq(target)}")
    rng.shuffle(texts)
    refused = [t for t in texts if not turn.accepts(t)]
    return refused[0] if refused else None


# ============================================================================ the summary's counts
#: report entry type -> the count it adds to
_COUNTED = {"reserve_placed": "placements", "copied": "copies", "drafted": "drafts", "capture": "captures",
            "skipped": "skipped", "passed": "passes", "missed": "missed", "goal_won": "wins",
            "conceded": "resignations", "drawn": "draws", "pulled": "pulls", "pushed": "pushes",
            "carried": "carries"}
#: an order's action in canonical form (RULES 5.4.7): its ability, by the sign that writes it
_ABILITY_SIGNS = (("swap", re.compile(r"<>")), ("pull", re.compile(r"<\(")), ("push", re.compile(r"\)>\(")),
                  ("carry", re.compile(r"&")), ("shot", re.compile(r"\)x\(")), ("lead", re.compile(r"\):")),
                  ("chain", re.compile(r"^\w+\([^)]*\)-\([^)]*\)-\(")))
_ACTION = re.compile(r"^\w+\(")
#: what the summary calls each ability used
_ABILITY_NOUNS = {"swap": "swap", "pull": "pull", "push": "push", "carry": "carry", "shot": "Wood shot",
                  "lead": "Leadership hand-over", "chain": "Fire chain", "copy": "Mirror copy"}
#: the least turns after which a session surely shows a skipped turn (turn 3: nobody controls
#: Green yet), moves and abilities (the first pieces are placed by turn 5), and captures (the two
#: sides meet in the middle after some twenty turns)
SKIPPED_FROM = 3
MOVES_FROM = 16
FIGHTS_FROM = 30


def count(counts: Counter, entry) -> None:
    kind = entry.type
    if kind in _COUNTED:
        counts[_COUNTED[kind]] += 1
    if kind == "drafted":
        counts["drafted"] += len(entry.data.get("kinds", "").split(", "))
    elif kind == "copied":
        counts["abilities"] += 1
        counts["ability:copy"] += 1
    elif kind == "order" and entry.data.get("outcome") == "played":
        text = entry.data.get("order", "")
        action = text.split("; ")[0]
        if not _ACTION.match(action):
            return
        used = next((name for name, sign in _ABILITY_SIGNS if sign.search(action)), None)
        if used is None:
            counts["moves"] += 1
        else:
            counts["abilities"] += 1
            counts[f"ability:{used}"] += 1


def rows(summary) -> list[tuple[str, str]]:
    counts = summary.counts
    used = ", ".join(_many(counts[f"ability:{key}"], noun) for key, noun in _ABILITY_NOUNS.items()
                     if counts[f"ability:{key}"])
    return [
        ("placements", f"{counts['placements']} (pieces from the reserves; {_many(counts['copies'], 'Mirror copy')})"),
        ("drafts", f"{counts['drafts']} ({_many(counts['drafted'], 'piece')} taken from the draft area)"),
        ("moves", str(counts["moves"])),
        ("abilities", f"{counts['abilities']}" + (f" ({used})" if used else "")),
        ("captures", str(counts["captures"])),
        ("skipped turns", f"{counts['skipped']} (nobody controlled the territory; {counts['passes']} passed, "
                          f"{counts['missed']} missed)"),
    ]


def expected(options, variant) -> tuple[str, ...]:
    wanted = ["orders", "refusals", "placements", "drafts", "posts", "ended"]
    if options.updates >= SKIPPED_FROM:
        wanted.append("skipped")
    if options.updates >= MOVES_FROM:
        wanted += ["moves", "abilities"]
    if options.updates >= FIGHTS_FROM:
        wanted.append("captures")
    return tuple(wanted)


def _many(number: int, noun: str) -> str:
    plural = noun[:-1] + "ies" if noun.endswith("y") else noun + "es" if noun.endswith("sh") else noun + "s"
    return f"{number} {noun if number == 1 else plural}"


def headline(variant, state: GameState, winners: tuple[str, ...]) -> str:
    """Who won, with their colour and the turn: "Basil (Blue) wins on turn 54"."""
    who = " and ".join(f"{name} ({state.players[name].colour})" for name in winners)
    return f"{who} {'wins' if len(winners) == 1 else 'share the win'} on turn {state.update - 1}"


def _seated(index: int, count: int) -> int:
    return 0            # both seats are taken before the start


PLANNER = Planner(family="territory", cast=lambda count: cast(count, _seated), plan=plan_turn, count=count,
                  rows=rows, expected=expected, headline=headline)
