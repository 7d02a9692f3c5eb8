"""The update report (INTERFACES.md): typed entries, each naming its players and its audience.

Entries are data; :func:`render` turns them into sentences, for the game channel (``public``) or
for one player (their private report, where their own orders are told as "your ..."). Balance
changes are entries too, and they add up to each player's change over the update.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable

from .model import format_amount, format_square

__all__ = ["Entry", "Report", "render", "PUBLIC", "PRIVATE"]

PUBLIC = "public"
PRIVATE = "private"


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing that happened. ``type`` names it (order, refused, capture, dodge, hold, fallback,
    collision, annihilation, resignation, promotion, burst, possession, pickup, drop, cargo_lost,
    balance, disintegration, elimination, king_lost, respawn, implosion, event_start, event_end);
    ``players`` are those concerned; ``audience`` is public or private (then ``players[0]`` only)."""

    type: str
    players: tuple[str, ...]
    audience: str = PUBLIC
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"type": self.type, "players": list(self.players), "audience": self.audience,
                "data": _jsonable(self.data)}

    @classmethod
    def from_json(cls, raw: dict) -> "Entry":
        return cls(raw["type"], tuple(raw["players"]), raw["audience"], _unjson(raw.get("data", {})))


def _jsonable(value):
    if isinstance(value, Fraction):
        return {"fraction": str(value)}
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


def _unjson(value):
    if isinstance(value, dict):
        if set(value) == {"fraction"}:
            return Fraction(value["fraction"])
        return {k: _unjson(v) for k, v in value.items()}
    if isinstance(value, list):
        return tuple(_unjson(v) for v in value)
    return value


@dataclass(slots=True)
class Report:
    update: int
    entries: list[Entry] = field(default_factory=list)

    def add(self, type: str, players: Iterable[str], audience: str = PUBLIC, **data: Any) -> Entry:
        entry = Entry(type, tuple(players), audience, data)
        self.entries.append(entry)
        return entry

    def of_type(self, type: str) -> list[Entry]:
        return [e for e in self.entries if e.type == type]

    def balance_changes(self) -> dict[str, Fraction]:
        totals: dict[str, Fraction] = {}
        for entry in self.of_type("balance"):
            player = entry.players[0]
            totals[player] = totals.get(player, Fraction(0)) + entry.data["amount"]
        return totals

    def for_player(self, player: str) -> list[Entry]:
        """What one player is told: every public entry and their own private ones."""
        return [e for e in self.entries if e.audience == PUBLIC or (e.players and e.players[0] == player)]

    def concerning(self, player: str) -> list[Entry]:
        """What happened to one player: public entries naming them and their own private ones
        (their private report, without the rest of the public report)."""
        return [e for e in self.entries if player in e.players and (e.audience == PUBLIC or e.players[0] == player)]

    def public(self) -> list[Entry]:
        return [e for e in self.entries if e.audience == PUBLIC]

    def text(self, player: str | None = None) -> str:
        entries = self.public() if player is None else self.for_player(player)
        return render(entries, player, self.update)

    def to_json(self) -> dict:
        return {"update": self.update, "entries": [e.to_json() for e in self.entries]}

    @classmethod
    def from_json(cls, raw: dict) -> "Report":
        return cls(raw["update"], [Entry.from_json(e) for e in raw["entries"]])


# ----------------------------------------------------------------------------- sentences
def render(entries: Iterable[Entry], reader: str | None = None, update: int | None = None) -> str:
    """Sentences a player understands, one per entry, grouped under a heading."""
    lines = []
    if update is not None:
        lines.append(f"Update {update}" + (f" (your report, {reader})" if reader else ""))
    for entry in entries:
        sentence = _SENTENCES.get(entry.type, _generic)(entry, reader)
        if sentence:
            lines.append(f"- {sentence}")
    return "\n".join(lines)


def _who(player: str | None, reader: str | None, capital: bool = True) -> str:
    if player is None:
        return "Nobody" if capital else "nobody"
    if player == reader:
        return "You" if capital else "you"
    return player


def _whose(player: str, reader: str | None) -> str:
    return "your" if player == reader else f"{player}'s"


def _amount(value) -> str:
    return format_amount(value)


def _order(entry: Entry, reader: str | None) -> str:
    d = entry.data
    player = entry.players[0]
    order = d["order"]
    outcome = d.get("outcome", "played")
    subject = f"{_whose(player, reader).capitalize()} {order}" if player == reader else f"{player}: {order}"
    if outcome == "played":
        return f"{subject} was played."
    if outcome == "captured":
        return f"{subject} captured {d['what']}."
    if outcome == "dodged":
        return f"{subject} found the square empty: {d['what']}."
    if outcome == "held":
        return f"{subject} did not happen: the piece was capturable and held in place by an attack (D13)."
    if outcome == "cancelled":
        return f"{subject} did not happen: {d['what']}."
    if outcome == "destroyed":
        return f"{subject} met other pieces on {format_square(d['at'])} and was destroyed (M.A.D.)."
    return f"{subject}: {outcome}."


def _refused(entry: Entry, reader: str | None) -> str:
    player = entry.players[0]
    return f"{_whose(player, reader).capitalize()} order {entry.data['text']!r} was refused: {entry.data['reason']}"


def _fallback(entry: Entry, reader: str | None) -> str:
    player = entry.players[0]
    d = entry.data
    first = f"{_whose(player, reader).capitalize()} {d['first']}" if player == reader else f"{player}: {d['first']}"
    return f"{first} failed: {d['why']}; {_whose(player, reader)} fallback {d['order']} was played instead (D12)."


def _capture(entry: Entry, reader: str | None) -> str:
    d = entry.data
    capturers = " and ".join(_who(p, reader) for p in d["by"])
    whose = "the" if d["owner"] is None else _whose(d["owner"], reader)
    sniped = " as it was placed (sniped)" if d.get("sniped") else ""
    return f"{capturers} captured {whose} {d['kind']} on {format_square(d['at'])}{sniped}."


def _collision(entry: Entry, reader: str | None) -> str:
    d = entry.data
    return (f"Collision on {format_square(d['at'])}: {', '.join(d['arrivals'])} arrived together; "
            f"it is an implosion square now (RULES 3.4).")


def _annihilation(entry: Entry, reader: str | None) -> str:
    d = entry.data
    return (f"The implosion square {format_square(d['at'])} annihilated {', '.join(d['pieces'])}, "
            f"with no reward (D15).")


def _balance(entry: Entry, reader: str | None) -> str:
    d = entry.data
    amount = d["amount"]
    sign = "+" if amount >= 0 else "-"
    return f"{_who(entry.players[0], reader)}: {sign}{_amount(abs(amount))} {d['currency']} ({d['reason']})."


def _simple(template: str):
    def sentence(entry: Entry, reader: str | None) -> str:
        data = dict(entry.data)
        data.setdefault("player", entry.players[0] if entry.players else "")
        mine = data["player"] == reader
        data["whose"] = "Your" if mine else f"{data['player']}'s"   # at the start of a sentence
        data["their"] = "your" if mine else "their"
        data["player"] = _who(data["player"], reader)
        for key, value in list(data.items()):
            if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
                data[key] = format_square(value)
        return template.format(**data)
    return sentence


def _elimination(entry: Entry, reader: str | None) -> str:
    player = _who(entry.players[0], reader)
    if "rejoin" in entry.data:  # sandbox: removed, may come back (RULES 5.1, P33)
        verb = "are" if player == "You" else "is"
        return (f"{player} {verb} removed from the game (balance below 0 with nothing left to sell, RULES 5.1), "
                f"with no automatic respawn; {player.lower() if player == 'You' else player} may re-join from "
                f"update {entry.data['rejoin']} on (P33).")
    return f"{player} {'are' if player == 'You' else 'is'} eliminated (D30)."


def _mad(entry: Entry, reader: str | None) -> str:
    d = entry.data
    text = f"M.A.D. on {format_square(d['at'])}: {_and(d['arrivals'])} arrived together and were all destroyed"
    if d.get("stayed"):
        text += f"; {_and(d['stayed'])} standing there {'was' if len(d['stayed']) == 1 else 'were'} captured by each"
    return text + " (RULES 5.2)."


def _winner(entry: Entry, reader: str | None) -> str:
    d = entry.data
    names = _and([_who(p, reader) for p in d["winners"]])
    if len(d["winners"]) > 1:
        return f"{names} share the win with {_amount(d['points'])} points: {d['reason']}."
    verb = "win" if d["winners"][0] == reader else "wins"
    return f"{names} {verb} with {_amount(d['points'])} points: {d['reason']}."


def _and(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _army(entry: Entry, reader: str | None) -> str:
    """Megachess: a captured king's remaining pieces go to its capturer (D61)."""
    heir, victim, count = entry.players[0], entry.data["victim"], entry.data["count"]
    if victim == reader:
        return (f"Your king was captured: you are eliminated, and your remaining {count} piece(s) go to {heir} "
                f"(D61); you may join again as a new player (D64).")
    return (f"{victim}'s king was captured: {victim} is eliminated, and the remaining {count} piece(s) go to "
            f"{_who(heir, reader, capital=False)} (D61); {victim} may join again as a new player (D64).")


def _generic(entry: Entry, reader: str | None) -> str:
    return f"{entry.type}: {', '.join(entry.players)} {entry.data}"


def _removal(entry: Entry, reader: str | None) -> str:
    """Territory: where a captured piece goes (RULES 5.4.3, T8, T18)."""
    d = entry.data
    if d["to"] == "reserve":
        return f"The captured {d['kind']} returns to {_whose(entry.players[0], reader)} reserve (T8)."
    if d["to"] == "gone":
        return f"The captured {d['kind']} was a Mirror copy: it leaves the game (T18)."
    return f"The captured {d['kind']} goes to the draft area."


def _conceded(entry: Entry, reader: str | None) -> str:
    """Territory: a resignation ends the game (RULES 5.4.4)."""
    who = " and ".join(_who(p, reader) for p in entry.players)
    winner = entry.data["winner"]
    if not winner:
        return f"{who} resigned: the game is drawn."
    return f"{who} resigned: {_who(winner, reader)} {'win' if winner == reader else 'wins'}."


_SENTENCES = {
    "order": _order,
    "refused": _refused,
    "fallback": _fallback,
    "capture": _capture,
    "collision": _collision,
    "annihilation": _annihilation,
    "balance": _balance,
    "resignation": _simple("{player} resigned; {their} pieces left the board."),
    "promotion": _simple("{player} promoted the pawn on {at} to {to}."),
    "burst": _simple("{whose} energy pawn on {at} burst into +{amount} (D29)."),
    "possession": _simple("{whose} spirit possessed the {host} on {at}."),
    "unpossession": _simple("{whose} spirit left its host for {at}."),
    "pickup": _simple("{whose} harpy picked up the {cargo} on {at}."),
    "drop": _simple("{whose} harpy dropped the {cargo} on {at}."),
    "cargo_lost": _simple("{whose} harpy lost the {cargo} it carried ({why})."),
    "disintegration": _simple("{whose} {kind} on {at} disintegrated (balance below 0, D17)."),
    "sale": _simple("{whose} {kind} on {at} was sold (balance below 0)."),
    "elimination": _elimination,
    "king_lost": _simple("{player} lost {their} king on {at}; it respawns automatically at the end of update {respawn}."),
    "respawn": _simple("{whose} king respawned on {at}."),
    "placement": _simple("{player} placed a king on {at}."),
    "implosion": _simple("{at} is an implosion square: whatever stands on it at the end of the next update is annihilated."),
    "event_start": _simple("Event {name} begins: {effect} It lasts until update {until}."),
    "event_end": _simple("Event {name} has ended."),
    "obstacle": _simple("{player} placed an obstacle on {at}."),
    "obstacles_removed": _simple("{count} obstacle(s) crumbled."),
    # arena (RULES 5.2)
    "mad": _mad,
    "placed": _simple("{player} placed a new {kind} on {at}."),
    "placements_lost": _simple("The new pieces placed on {at} met and were all lost; nobody scores (D49)."),
    "powerup_taken": _simple("{whose} {kind} took the {what} power-up on {at}: {effect}."),
    "powerup_lost": _simple("The {what} power-up on {at} was lost: several pieces took it at once (M.A.D., "
                            "RULES 5.2)."),
    "powerup_spawn": _simple("A power-up appeared on {at}: {what} (D51)."),
    "powerup_none": _simple("No power-up appeared: no square is 2 or more from every piece (D51)."),
    "unplaced": _simple("{player} did not place {their} new {kinds}: lost (D48)."),
    "winner": _winner,
    "game_over": _simple("The game is over with no winner: {reason}."),
    # megachess (RULES 5.3)
    "bounce": _simple("Bounce on {at}: {pieces} moved there together and stayed where they were (D57)."),
    "collection": _simple("{whose} {kind} collected the bonus {bonus} on {at}: a {bonus} of {their} own now "
                          "stands on {origin} (D58)."),
    "army": _army,
    "join": _simple("{player} joined {team} with a king on {at} and a starter army of {count} piece(s) (D62, D63)."),
    "join_failed": _simple("{whose} join on {at} failed: {why} (D62)."),
    "faded": _simple("{whose} {kind} on {at} faded away: more than {ttl} updates outside {their} kingdom (D60)."),
    "bonus": _simple("A bonus {kind} appeared on {at} (D59)."),
    # territory (RULES 5.4)
    "skipped": _simple("Turn {turn} is {slot}'s, which nobody controls: it is skipped."),
    "missed": _simple("{player} missed turn {turn}: nothing was accepted by the deadline, a pass (T23)."),
    "passed": _simple("{player} passed turn {turn}."),
    "removal": _removal,
    "reserve_placed": _simple("{player} placed a {kind} from {their} reserve on {at}."),
    "copied": _simple("{whose} Mirror added a copy on {at} (T18)."),
    "drafted": _simple("{player} drafted {kinds}."),
    "pulled": _simple("{whose} Moon pulled the {kind} on {at} to {to}."),
    "pushed": _simple("{whose} Power pushed the {kind} on {at} to {to}."),
    "carried": _simple("{whose} Wind carried the {kind} on {at} to {to}."),
    "goal_won": _simple("{player} controls the goal {at} and wins (T9)."),
    "refilled": _simple("The draft area is filled back from the bag: {kinds}."),
    "drawn": _simple("{quiet} quiet turns in a row: the game is drawn (T10)."),
    "conceded": _conceded,
}
