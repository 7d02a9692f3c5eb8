"""Rulesets are data: a TOML file per preset under ``assets/rulesets/``.

A ruleset file has a few top-level keys and one table per concern (``[board]``, ``[orders]``,
``[resolution]``, ``[economy]``, ``[generation]``, ``[promotion]``, ``[events]``, ``[teams]``) and a
piece table ``[pieces.X]`` per kind. Every key is checked when the file is loaded: a missing
required key, a value of the wrong type, an unknown key or an unreadable Betza string fails with
:class:`RulesetError` naming the file, the key and what is wrong, so a moderator who edits a file
learns at once what to fix. ``docs/rulesets.md`` documents every key.

The engine never branches on a ruleset's name: it reads these values and selects its policies
(collisions, orders per update, economy) from them.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from .betza import BetzaError, Movement, parse_betza
from .territory.layout import TABLES as TERRITORY_TABLES, TablesError, read_tables as read_territory_tables
from .vocabulary import ABILITIES, EVENTS

__all__ = ["RulesetError", "PieceKind", "PromotionTier", "Ruleset", "load_ruleset", "load_preset",
           "preset_names", "RULESET_DIR", "ABILITIES", "FAMILIES"]

RULESET_DIR = Path(__file__).resolve().parents[2] / "assets" / "rulesets"

#: The game families a ruleset file may name (``family = ...``); each has its variant in bot/engine/variants.
FAMILIES = ("simultaneous", "territory", "megachess", "arena")
#: family -> (the top-level tables it adds to a ruleset file, the function reading them into its rules:
#: ``read(tables, letters)``, raising TablesError(key, problem)). The result is ``Ruleset.family_rules``.
FAMILY_TABLES = {"territory": (TERRITORY_TABLES, read_territory_tables)}

_CHOICES = {
    ("orders", "policy"): ("single", "kings_plus_one", "each_piece"),
    ("orders", "turns"): ("simultaneous", "teams_alternate", "alternate"),
    ("resolution", "collisions"): ("implosion", "mad", "bounce"),
    ("economy", "currency"): ("health", "energy", "points"),
    ("economy", "regen_when"): ("king", "executed_order", "in_game", "never"),
    ("economy", "negative"): ("disintegrate", "sell", "none"),
    ("economy", "refund_rounding"): ("up", "up_half"),
    ("economy", "king_penalty_to"): ("capturer", "nobody"),
    ("economy", "king_capture"): ("penalty", "take_army", "points"),
}


class RulesetError(ValueError):
    """A ruleset file that cannot be used; the message names the file, the key and the problem."""

    def __init__(self, source: str, key: str, problem: str) -> None:
        self.source, self.key, self.problem = source, key, problem
        super().__init__(f"{source}: {key}: {problem}")


# ----------------------------------------------------------------------------- value types
@dataclass(frozen=True, slots=True)
class PieceKind:
    """One row of the piece table (RULES.md section 7)."""

    letter: str
    name: str
    cost: Fraction
    betza: str
    movement: Movement
    aliases: tuple[str, ...] = ()
    abilities: frozenset[str] = frozenset()
    once: Movement | None = None      # a move allowed once in the piece's life (one_time_step)
    fade_ttl: int | None = None       # megachess kingdoms

    @property
    def royal(self) -> bool:
        return "royal" in self.abilities

    @property
    def captures(self) -> bool:
        return "no_capture" not in self.abilities and "pillar" not in self.abilities

    def has(self, ability: str) -> bool:
        return ability in self.abilities


@dataclass(frozen=True, slots=True)
class PromotionTier:
    rank: int
    or_above: bool = False                      # any move ending at or above the rank (neisg)
    exclude: tuple[str, ...] = ()
    prices: Mapping[str, str] = field(default_factory=dict)   # letter -> "half" | a number


@dataclass(frozen=True, slots=True)
class BoardRules:
    bounds: tuple[tuple[int, int], tuple[int, int]] | None = None
    radius_base: int | None = None          # arena: [-R, R]^2 with R = base + per_player * n
    radius_per_player: int | None = None
    min_players: int | None = None
    max_players: int | None = None


@dataclass(frozen=True, slots=True)
class OrderRules:
    policy: str = "single"
    turns: str = "simultaneous"
    secret: bool = True
    fallbacks: bool = True
    generation: bool = True
    resign: bool = True
    early_resolution: bool = False   # the game setting's default: resolve once everyone who may order has


@dataclass(frozen=True, slots=True)
class ResolutionRules:
    collisions: str = "implosion"
    check_states: bool = True
    holds: bool = True
    king_check_rules: bool = False


@dataclass(frozen=True, slots=True)
class EconomyRules:
    currency: str = "health"
    start: Fraction = Fraction(10)
    regen: Fraction = Fraction(1)
    regen_when: str = "king"
    capture_reward: Fraction = Fraction(3, 4)
    king_capture: str = "penalty"
    king_penalty_base: Fraction = Fraction(4)
    king_penalty_share: Fraction = Fraction(1, 5)
    king_penalty_to: str = "capturer"
    king_bonus: Fraction = Fraction(0)          # megachess: +100 per king taken
    negative: str = "disintegrate"
    refund: Fraction = Fraction(1, 2)
    refund_rounding: str = "up"
    king_respawn_after: int | None = 3
    respawn_first_distance: int = 1
    rejoin_after_removal: int | None = None     # None: a removed player may not re-join
    points_per_update: Fraction = Fraction(0)
    win_at: Fraction | None = None


@dataclass(frozen=True, slots=True)
class GenerationRules:
    allowed: bool = True
    min_rank: Mapping[str, int] = field(default_factory=dict)
    max_rank: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PromotionRules:
    pawn: str | None = "P"
    tiers: tuple[PromotionTier, ...] = ()
    energy: bool = False
    energy_worth: Fraction = Fraction(8)
    energy_capture_reward: Fraction = Fraction(4)
    energy_burst: Fraction = Fraction(8)


@dataclass(frozen=True, slots=True)
class EventRules:
    events_from: int | None = None
    every: int = 7
    duration: int = 14
    min_left: int = 0
    cooldown: int | None = None     # None: an event never repeats in a session
    max_active: int | None = None
    pool: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TeamRules:
    names: tuple[str, ...] = ()
    join_distance: int | None = None
    kingdom_radius: int | None = None
    bonus_every: int | None = None


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A whole ruleset: its sections and its piece table. Immutable and hashable by name/source."""

    name: str
    title: str
    source: str
    board: BoardRules
    orders: OrderRules
    resolution: ResolutionRules
    economy: EconomyRules
    generation: GenerationRules
    promotion: PromotionRules
    events: EventRules
    teams: TeamRules
    pieces: Mapping[str, PieceKind]
    section: str = ""    # the RULES.md section of the preset, cited by refusals ("RULES 5.1")
    family: str = "simultaneous"   # the game family whose variant plays it (bot/engine/variants)
    family_rules: Any = None       # what the family's own tables say (territory: TerritoryRules), or None

    def __hash__(self) -> int:
        return hash((self.name, self.source))

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Ruleset) and (self.name, self.source) == (other.name, other.source)
                                 and self.pieces == other.pieces)

    def kind(self, letter: str) -> PieceKind:
        return self.pieces[letter]

    @property
    def letters(self) -> tuple[str, ...]:
        return tuple(self.pieces)

    @property
    def royal_letter(self) -> str | None:
        return next((k.letter for k in self.pieces.values() if k.royal), None)

    def bounds_for(self, players: int) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """The board's bounds; arena's grow with the number of players (R = base + per_player * n)."""
        if self.board.bounds is not None:
            return self.board.bounds
        if self.board.radius_base is not None:
            r = self.board.radius_base + (self.board.radius_per_player or 0) * players
            return (-r, -r), (r, r)
        return None

    def with_events_from(self, update: int | None) -> "Ruleset":
        """This ruleset with its first event drawn at ``update`` (a game's setting); itself when
        ``update`` is None or already its own. The copy has its own ``source`` so that it never
        passes for the shipped preset."""
        if update is None or update == self.events.events_from:
            return self
        return dataclasses.replace(self, source=f"{self.source}#events_from={update}",
                                   events=dataclasses.replace(self.events, events_from=update))

    def match_letters(self, text: str) -> list[str]:
        """Piece letters that ``text`` may name (D4): an exact letter, alias or name first; else
        every case-insensitive match. One result is a match; several are ambiguous; none, unknown."""
        exact = [k.letter for k in self.pieces.values() if text == k.letter or text in k.aliases]
        if exact:
            return exact
        folded = text.casefold()
        return [k.letter for k in self.pieces.values()
                if folded == k.letter.casefold() or any(folded == a.casefold() for a in k.aliases)]


# ----------------------------------------------------------------------------- loading
def preset_names() -> list[str]:
    return sorted(p.stem for p in RULESET_DIR.glob("*.toml"))


@lru_cache(maxsize=32)
def load_preset(name: str) -> Ruleset:
    """A shipped preset by name (``neisg``, ``sandbox``, ``arena``, ``megachess``)."""
    path = RULESET_DIR / f"{name}.toml"
    if not path.is_file():
        raise RulesetError(name, "ruleset", f"no preset named {name!r} (presets: {', '.join(preset_names())})")
    return load_ruleset(path)


def load_ruleset(path: str | Path) -> Ruleset:
    """Load and check a ruleset file; raise :class:`RulesetError` on any problem."""
    path = Path(path)
    source = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesetError(source, "file", "not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(source, "file", f"not valid TOML: {exc}") from None
    return ruleset_from_dict(data, source)


def ruleset_from_dict(data: Mapping[str, Any], source: str) -> Ruleset:
    reader = _Reader(source)
    top = dict(data)
    known = {"name", "title", "family", "board", "orders", "resolution", "economy", "generation", "promotion",
             "events", "teams", "pieces", "section"}
    family = reader.choice(top, "family", "", FAMILIES, default="simultaneous")
    family_tables, read_family_tables = FAMILY_TABLES.get(family, ((), None))
    reader.reject_unknown(top, known | set(family_tables), "")
    name = reader.string(top, "name", "")
    title = reader.string(top, "title", "", default=name)
    pieces = _load_pieces(reader, top.get("pieces"))
    letters = set(pieces)
    generation_table = reader.table(top, "generation", "")
    promotion_table = reader.table(top, "promotion", "")
    board = reader.section(BoardRules, reader.table(top, "board", ""), "board")
    family_rules = None
    if read_family_tables is not None:
        try:
            family_rules = read_family_tables({key: top[key] for key in family_tables if key in top}, tuple(pieces))
        except TablesError as exc:
            raise RulesetError(source, exc.key, exc.problem) from None
        if board.bounds is None and getattr(family_rules, "bounds", None) is not None:
            board = dataclasses.replace(board, bounds=family_rules.bounds)   # the layout's bounds
    ruleset = Ruleset(
        name=name,
        title=title,
        source=source,
        board=board,
        orders=reader.section(OrderRules, reader.table(top, "orders", ""), "orders"),
        resolution=reader.section(ResolutionRules, reader.table(top, "resolution", ""), "resolution"),
        economy=reader.section(EconomyRules, reader.table(top, "economy", ""), "economy"),
        generation=_load_generation(reader, generation_table, letters),
        promotion=_load_promotion(reader, promotion_table, letters),
        events=reader.section(EventRules, reader.table(top, "events", ""), "events"),
        teams=reader.section(TeamRules, reader.table(top, "teams", ""), "teams"),
        pieces=pieces,
        section=reader.string(top, "section", "", default=""),
        family=family,
        family_rules=family_rules,
    )
    _check_consistency(reader, ruleset)
    return ruleset


def _check_events(reader: "_Reader", pool: tuple[str, ...]) -> None:
    for name in pool:
        if name not in EVENTS:
            raise RulesetError(reader.source, "events.pool", f"unknown event {name!r} (known: {', '.join(sorted(EVENTS))})")


def _load_pieces(reader: "_Reader", table: Any) -> dict[str, PieceKind]:
    if not isinstance(table, dict) or not table:
        raise RulesetError(reader.source, "pieces", "missing: a ruleset needs a [pieces.X] table per kind")
    pieces: dict[str, PieceKind] = {}
    seen_names: dict[str, str] = {}
    for letter, row in table.items():
        where = f"pieces.{letter}"
        if not letter.isalpha() or not letter[0].isupper() or len(letter) > 4:
            raise RulesetError(reader.source, where, "a piece letter is 1 to 4 letters starting with a capital")
        if not isinstance(row, dict):
            raise RulesetError(reader.source, where, "must be a table")
        reader.reject_unknown(row, {"name", "cost", "betza", "aliases", "abilities", "once", "fade_ttl"}, where)
        name = reader.string(row, "name", where)
        cost = reader.number(row, "cost", where)
        betza = reader.string(row, "betza", where)  # required: betza = "" for a piece that never moves
        movement = _movement(reader, betza, f"{where}.betza")
        once_text = reader.string(row, "once", where, default="")
        once = _movement(reader, once_text, f"{where}.once") if once_text else None
        aliases = tuple(reader.strings(row, "aliases", where))
        abilities = reader.strings(row, "abilities", where)
        for ability in abilities:
            if ability not in ABILITIES:
                raise RulesetError(reader.source, f"{where}.abilities",
                                   f"unknown ability {ability!r} (known: {', '.join(sorted(ABILITIES))})")
        fade = row.get("fade_ttl")
        if fade is not None and (not isinstance(fade, int) or isinstance(fade, bool) or fade < 0):
            raise RulesetError(reader.source, f"{where}.fade_ttl", "must be a whole number of updates, 0 or more")
        # D20: full names are aliases of their letters.
        all_aliases = tuple(dict.fromkeys((*aliases, name.replace(" ", ""))))
        for alias in (letter, *all_aliases):
            other = seen_names.get(alias.casefold())
            if other is not None and other != letter:
                raise RulesetError(reader.source, where, f"name or alias {alias!r} is already used by piece {other}")
            seen_names[alias.casefold()] = letter
        pieces[letter] = PieceKind(letter, name, cost, betza, movement, all_aliases, frozenset(abilities), once, fade)
    return pieces


def _movement(reader: "_Reader", betza: str, where: str) -> Movement:
    try:
        return parse_betza(betza)
    except BetzaError as exc:
        raise RulesetError(reader.source, where, str(exc)) from None


def _load_generation(reader: "_Reader", table: dict, letters: set[str]) -> GenerationRules:
    reader.reject_unknown(table, {"allowed", "ranks"}, "generation")
    allowed = reader.boolean(table, "allowed", "generation", default=True)
    ranks = reader.table(table, "ranks", "generation")
    min_rank: dict[str, int] = {}
    max_rank: dict[str, int] = {}
    for letter, limits in ranks.items():
        where = f"generation.ranks.{letter}"
        if letter not in letters:
            raise RulesetError(reader.source, where, f"no piece {letter!r} in [pieces]")
        if not isinstance(limits, dict):
            raise RulesetError(reader.source, where, "must be a table like { min = 1, max = 1 }")
        reader.reject_unknown(limits, {"min", "max"}, where)
        if "min" in limits:
            min_rank[letter] = reader.integer(limits, "min", where)
        if "max" in limits:
            max_rank[letter] = reader.integer(limits, "max", where)
    return GenerationRules(allowed, min_rank, max_rank)


def _load_promotion(reader: "_Reader", table: dict, letters: set[str]) -> PromotionRules:
    where = "promotion"
    reader.reject_unknown(table, {"pawn", "tiers", "energy", "energy_worth", "energy_capture_reward",
                                  "energy_burst"}, where)
    pawn = reader.string(table, "pawn", where, default="") or None
    if pawn is not None and pawn not in letters:
        raise RulesetError(reader.source, f"{where}.pawn", f"no piece {pawn!r} in [pieces]")
    tiers = []
    raw_tiers = table.get("tiers", [])
    if not isinstance(raw_tiers, list):
        raise RulesetError(reader.source, f"{where}.tiers", "must be an array of tables ([[promotion.tiers]])")
    for i, tier in enumerate(raw_tiers):
        tw = f"{where}.tiers[{i}]"
        if not isinstance(tier, dict):
            raise RulesetError(reader.source, tw, "must be a table")
        reader.reject_unknown(tier, {"rank", "or_above", "exclude", "prices"}, tw)
        exclude = tuple(reader.strings(tier, "exclude", tw))
        prices = reader.table(tier, "prices", tw)
        for letter in (*exclude, *prices):
            if letter not in letters:
                raise RulesetError(reader.source, tw, f"no piece {letter!r} in [pieces]")
        for letter, price in prices.items():
            if price != "half" and not (isinstance(price, (int, float)) and not isinstance(price, bool)):
                raise RulesetError(reader.source, f"{tw}.prices.{letter}", 'must be "half" or a number')
        tiers.append(PromotionTier(reader.integer(tier, "rank", tw), reader.boolean(tier, "or_above", tw, default=False),
                                   exclude, {k: str(v) for k, v in prices.items()}))
    defaults = PromotionRules()
    return PromotionRules(
        pawn=pawn,
        tiers=tuple(tiers),
        energy=reader.boolean(table, "energy", where, default=False),
        energy_worth=reader.number(table, "energy_worth", where, default=defaults.energy_worth),
        energy_capture_reward=reader.number(table, "energy_capture_reward", where,
                                            default=defaults.energy_capture_reward),
        energy_burst=reader.number(table, "energy_burst", where, default=defaults.energy_burst),
    )


def _check_consistency(reader: "_Reader", ruleset: Ruleset) -> None:
    _check_events(reader, ruleset.events.pool)
    royals = [k.letter for k in ruleset.pieces.values() if k.royal]
    if len(royals) > 1:
        raise RulesetError(reader.source, "pieces", f"only one kind may be royal, found {', '.join(royals)}")
    for kind in ruleset.pieces.values():
        if kind.has("one_time_step") and kind.once is None:
            raise RulesetError(reader.source, f"pieces.{kind.letter}.once", "the one_time_step ability needs a `once` Betza move")
    b = ruleset.board.bounds
    if b is not None and (b[0][0] > b[1][0] or b[0][1] > b[1][1]):
        raise RulesetError(reader.source, "board.bounds", "must be [[xmin, ymin], [xmax, ymax]] with min <= max")


class _Reader:
    """Typed access to TOML tables, raising :class:`RulesetError` with the key's full name."""

    def __init__(self, source: str) -> None:
        self.source = source

    def choice(self, table, key, where, choices: tuple[str, ...], default: str) -> str:
        value = self.string(table, key, where, default=default)
        if value not in choices:
            raise RulesetError(self.source, self._key(where, key), f"must be one of {', '.join(choices)}, not {value!r}")
        return value

    def _key(self, where: str, key: str) -> str:
        return f"{where}.{key}" if where else key

    def reject_unknown(self, table: Mapping[str, Any], known: set[str], where: str) -> None:
        for key in table:
            if key not in known:
                raise RulesetError(self.source, self._key(where, key),
                                   f"unknown key (known here: {', '.join(sorted(known))})")

    def table(self, table: Mapping[str, Any], key: str, where: str) -> dict:
        value = table.get(key, {})
        if not isinstance(value, dict):
            raise RulesetError(self.source, self._key(where, key), "must be a table")
        return value

    def string(self, table, key, where, default: str | None = None) -> str:
        value = table.get(key, default)
        if value is None:
            raise RulesetError(self.source, self._key(where, key), "missing")
        if not isinstance(value, str):
            raise RulesetError(self.source, self._key(where, key), f"must be a string, not {value!r}")
        return value

    def strings(self, table, key, where) -> list[str]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise RulesetError(self.source, self._key(where, key), "must be a list of strings")
        return value

    def boolean(self, table, key, where, default: bool | None = None) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise RulesetError(self.source, self._key(where, key), "missing" if value is None else "must be true or false")
        return value

    def integer(self, table, key, where, default: int | None = None) -> int:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesetError(self.source, self._key(where, key), "missing" if value is None else "must be a whole number")
        return value

    def number(self, table, key, where, default: Fraction | None = None) -> Fraction:
        """An exact number: an integer, a decimal like 5.5, or a fraction written "3/4"."""
        value = table.get(key, default)
        if value is None:
            raise RulesetError(self.source, self._key(where, key), "missing")
        if isinstance(value, Fraction):
            return value
        if isinstance(value, bool):
            raise RulesetError(self.source, self._key(where, key), "must be a number")
        try:
            if isinstance(value, (int, float, str)):
                return Fraction(str(value))
        except (ValueError, ZeroDivisionError):
            pass
        raise RulesetError(self.source, self._key(where, key), f"must be a number such as 3, 5.5 or \"3/4\", not {value!r}")

    def section(self, cls, table: Mapping[str, Any], where: str):
        """Fill a section dataclass from its table, checking each field against its default's type."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        self.reject_unknown(table, set(fields), where)
        defaults = cls()
        values = {}
        for name, value in table.items():
            default = getattr(defaults, name)
            key = self._key(where, name)
            if (where, name) in _CHOICES:
                choices = _CHOICES[(where, name)]
                if value not in choices:
                    raise RulesetError(self.source, key, f"must be one of {', '.join(choices)}, not {value!r}")
                values[name] = value
            elif isinstance(default, bool):
                values[name] = self.boolean(table, name, where)
            elif isinstance(default, Fraction) or name == "win_at":
                values[name] = self.number(table, name, where)
            elif isinstance(default, int) or name in _OPTIONAL_INTS:
                values[name] = self.integer(table, name, where)
            elif isinstance(default, tuple) and name != "bounds":
                values[name] = tuple(self.strings(table, name, where))
            elif name == "bounds":
                values[name] = self.bounds(value, key)
            else:
                values[name] = self.string(table, name, where)
        return cls(**values)

    def bounds(self, value: Any, key: str):
        ok = (isinstance(value, list) and len(value) == 2 and all(
            isinstance(c, list) and len(c) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in c)
            for c in value))
        if not ok:
            raise RulesetError(self.source, key, "must be [[xmin, ymin], [xmax, ymax]]")
        return (value[0][0], value[0][1]), (value[1][0], value[1][1])


_OPTIONAL_INTS = {"radius_base", "radius_per_player", "min_players", "max_players", "king_respawn_after",
                  "rejoin_after_removal", "events_from", "cooldown", "max_active", "join_distance", "kingdom_radius",
                  "bonus_every"}
