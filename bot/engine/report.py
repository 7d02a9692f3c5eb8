"""The update report (INTERFACES.md): typed entries, each naming its players and its audience.

Entries are data; :func:`render` turns them into sentences, for the game channel (``public``) or
for one player (their private report, where their own orders are told as "your ..."). Balance
changes are entries too, and they add up to each player's change over the update.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable

from .model import Square, amount_in, counted, format_amount, format_square

__all__ = ["Entry", "Report", "Context", "render", "PUBLIC", "PRIVATE"]

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
    kind = type(value)
    if kind is str or kind is int:      # most of a report's values: asked first
        return value
    if isinstance(value, Fraction):
        return {"fraction": str(value)}
    if isinstance(value, (tuple, list)):
        return [v if type(v) is int or type(v) is str else _jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: v if type(v) is str or type(v) is int else _jsonable(v) for k, v in value.items()}
    return value


def _fraction_json(value):
    """What ``json.dumps`` writes for a value it does not know: a Fraction as :func:`_jsonable` does."""
    if isinstance(value, Fraction):
        return {"fraction": str(value)}
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


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

    def refusals(self) -> list[str]:
        """Every order refused in the update, public or private, one line each:
        ``player: text -- reason``, the reason as the player was told it. A refused order is part of
        what happened: a scenario's printout and a record's replay show these lines."""
        return [_refusal_line(entry) for entry in self.entries if entry.type == "refused"]

    def text_with_refusals(self) -> str:
        """The public report with every refusal told as a ``refused: ...`` line (:meth:`refusals`)
        instead of a sentence, private ones included: what the scenario runner prints."""
        told = render([e for e in self.public() if e.type != "refused"], None, self.update)
        return "\n".join([told, *(f"refused: {line}" for line in self.refusals())])

    def context(self) -> "Context":
        """What the public report says about who did what, read once: every private report of
        the update draws on it (``render(own, name, update, context=report.context())``)."""
        return Context(self.public())

    def private_text(self, player: str) -> str:
        """The private report of ``player``: what happened to them (:meth:`concerning`), told with
        the public report as context (whose piece dodged, who shared a capture)."""
        return render(self.concerning(player), player, self.update, context=self.context())

    def to_json(self) -> dict:
        return {"update": self.update, "entries": [e.to_json() for e in self.entries]}

    def to_json_text(self) -> str:
        """``json.dumps(self.to_json(), sort_keys=True)``, the same text, written without copying
        every entry's data first: the encoder writes tuples as lists itself and asks
        :func:`_fraction_json` for the Fractions (an update of 1,000 players: 2,000 entries)."""
        entries = [{"type": e.type, "players": e.players, "audience": e.audience, "data": e.data}
                   for e in self.entries]
        return json.dumps({"update": self.update, "entries": entries}, sort_keys=True, default=_fraction_json)

    @classmethod
    def from_json(cls, raw: dict) -> "Report":
        return cls(raw["update"], [Entry.from_json(e) for e in raw["entries"]])


# ----------------------------------------------------------------------------- sentences
def render(entries: Iterable[Entry], reader: str | None = None, update: int | None = None,
           context: "Iterable[Entry] | Context | None" = None) -> str:
    """Sentences a player understands under a heading: one sentence per outcome, naming whose piece.

    What one outcome wrote as several entries is told once: a capture that the capturer's order
    line already tells is not repeated, and its reward is written in that line ("(+3 health)"); a
    fallback that was played is told by the fallback's sentence; routine balance changes shared by
    several players (regeneration, +1 a point an update) are one line naming them; the new implosion
    squares are one line. ``context``: the entries the sentences may draw on to name who did what
    (whose piece dodged; by default ``entries``; a private report passes the public report's
    :meth:`Report.context`, read once for every player). Only the words change: every balance
    entry's amount is written, so they still add up."""
    entries = list(entries)
    if not isinstance(context, Context):
        context = Context(entries if context is None else context)
    lines = []
    if update is not None:
        lines.append(f"Update {update}" + (f" (your report, {reader})" if reader else ""))
    lines += [f"- {sentence}" for sentence in _Story(entries, reader, context).told()]
    return "\n".join(lines)


_SQUARE = re.compile(r"\((-?\d+),(-?\d+)\)")
#: a move's canonical form up to its target: the first two squares _SQUARE finds in it (the first
#: "(" starts the first), when they are written one after the other as "(a,b)-(c,d)"
_MOVE = re.compile(r"[^(]*\((-?\d+),(-?\d+)\)-\((-?\d+),(-?\d+)\)")
_DODGE = re.compile(r"^the square was empty, the (?P<kind>.+?) (?:dodged to (?P<to>\(-?\d+,-?\d+\))|had left)$")


_TOLD_DODGE = re.compile(r"^(?P<piece>.+) on \(-?\d+,-?\d+\) (?P<rest>dodged.*?)(?: \(D10\))?$")


def _squares_of(order: str) -> list[Square]:
    """The squares an order's canonical form names, in order (a move: origin, then target)."""
    return [(int(x), int(y)) for x, y in _SQUARE.findall(order)]


def _move_of(order: str) -> tuple[Square, Square] | None:
    """(origin, target) of a move's canonical form ``X(a,b)-(c,d)...``; None for anything else."""
    if order.startswith("+") or ")-(" not in order:
        return None
    shape = _MOVE.match(order)
    if shape is not None:       # the canonical form: its first two squares, read in one match
        x, y, to_x, to_y = shape.groups()
        return (int(x), int(y)), (int(to_x), int(to_y))
    squares = _squares_of(order)
    return (squares[0], squares[1]) if len(squares) >= 2 else None


def _victims(entry: Entry) -> list[str]:
    """The pieces an order captured, as the engine described them ("Ada's king on (1,6)")."""
    return [part for part in str(entry.data.get("what", "")).split(", ") if part]


def _piece_words(entry: Entry) -> str:
    """A capture entry's piece as the engine describes it (``Ada's king on (1,6)``)."""
    d = entry.data
    owner = f"{d['owner']}'s " if d.get("owner") else ""
    return f"{owner}{d['kind']} on {format_square(d['at'])}"


class Context:
    """What a list of entries says about who did what: the moves by origin and by target, the
    captures (by the captured piece's owner and square), annihilations, and the players who left
    (eliminated, resigned: no respawn to promise them).

    The moves are read the first time a sentence asks for them (a dodge, a fallback): an update of
    a thousand orders where nothing dodged never reads them."""

    __slots__ = ("_orders", "_moves_from", "_moves_to", "captured", "captures_of", "annihilated", "gone")

    def __init__(self, entries: Iterable[Entry]) -> None:
        self._orders: list[Entry] = []
        self._moves_from: dict[Square, list[tuple[str, Square]]] | None = None
        self._moves_to: dict[Square, list[tuple[str, Square]]] | None = None
        self.captured: dict[tuple[str | None, Square], Entry] = {}
        self.captures_of: dict[str, list[Entry]] = {}     # by the piece's words ("Ada's king on (1,6)")
        self.annihilated: set[Square] = set()
        self.gone: set[str] = set()
        for entry in entries:
            if entry.type == "order":
                if entry.players:
                    self._orders.append(entry)
            elif entry.type == "capture":
                self.captured.setdefault((entry.data.get("owner"), tuple(entry.data["at"])), entry)
                self.captures_of.setdefault(_piece_words(entry), []).append(entry)
            elif entry.type == "annihilation":
                self.annihilated.add(tuple(entry.data["at"]))
            elif entry.type in ("elimination", "resignation") and entry.players:
                self.gone.add(entry.players[0])
            elif entry.type == "army":
                self.gone.add(entry.data["victim"])

    @property
    def moves_from(self) -> dict[Square, list[tuple[str, Square]]]:
        """(player, target) of the moves, by origin."""
        if self._moves_from is None:
            self._read_moves()
        return self._moves_from

    @property
    def moves_to(self) -> dict[Square, list[tuple[str, Square]]]:
        """(player, origin) of the moves, by target."""
        if self._moves_to is None:
            self._read_moves()
        return self._moves_to

    def _read_moves(self) -> None:
        moves_from: dict[Square, list[tuple[str, Square]]] = {}
        moves_to: dict[Square, list[tuple[str, Square]]] = {}
        for entry in self._orders:
            move = _move_of(str(entry.data.get("order", "")))
            if move is not None:
                moves_from.setdefault(move[0], []).append((entry.players[0], move[1]))
                moves_to.setdefault(move[1], []).append((entry.players[0], move[0]))
        self._moves_from, self._moves_to = moves_from, moves_to


#: the types whose entries told() may leave out or tell together with others (with the orders that
#: captured and the balance changes of several players)
_TOGETHER = frozenset({"capture", "fallback", "bounce", "implosion", "king_lost"})
_NO_REWARDS: dict[str, list[str]] = {}


class _Story:
    """One rendering of a list of entries: which entries another sentence already tells, which are
    told together, and what the context says about whose pieces moved."""

    def __init__(self, entries: list[Entry], reader: str | None, context: Context) -> None:
        self.entries, self.reader = entries, reader
        self.gone = context.gone
        self.context = context

    # ------------------------------------------------------------------ who did what
    def whose(self, player: str | None, capital: bool = False) -> str:
        if player is None:
            return "The" if capital else "the"
        words = _whose(player, self.reader)
        return words[:1].upper() + words[1:] if capital else words

    def moves_to(self, square: Square) -> list[tuple[str, Square]]:
        """(player, origin) of the moves in the context that ended on ``square``."""
        return self.context.moves_to.get(square, [])

    def dodge_words(self, attacker: str, target: Square | None, why: str) -> tuple[Square | None, str] | None:
        """The square found empty and "Lev's leopard dodged to (-3,1)" for the engine's "the square
        was empty, the leopard dodged to (-3,1)" (D70's "dodged" kept); None when ``why`` is not a
        dodge. The piece that dodged is the one whose move ended where it dodged to (a theft's
        victim too, whose square is not the thief's target, D27)."""
        match = _DODGE.match(why)
        if match is None:
            return None
        kind, to = match.group("kind"), match.group("to")
        if to is not None:
            movers = sorted({(p, origin) for p, origin in self.moves_to(_squares_of(to)[0]) if p != attacker})
            if len(movers) == 1:
                owner, origin = movers[0]
                return origin, f"{self.whose(owner)} {kind} dodged to {to}"
            return None, f"the {kind} dodged to {to}"
        movers = sorted({p for p, _ in self.context.moves_from.get(target, ()) if p != attacker}) if target else []
        if len(movers) == 1:
            return target, f"{self.whose(movers[0])} {kind} had left"
        return target, f"the {kind} had left"

    def capture_of(self, owner: str, square: Square) -> Entry | None:
        return self.context.captured.get((owner, square))

    def partners(self, player: str, victim: str) -> list[str]:
        """Who else captured ``victim`` with ``player`` (a shared capture, D14)."""
        for entry in self.context.captures_of.get(victim, ()):
            if player in entry.data["by"] and len(entry.data["by"]) > 1:
                return [p for p in entry.data["by"] if p != player]
        return []

    # ------------------------------------------------------------------ the sentences
    def told(self) -> list[str]:
        entries, reader = self.entries, self.reader
        # the entries by type, in one pass: each step below reads only the types it concerns (a private
        # report is two or three entries, told a thousand times an update; the public report, thousands)
        by_type: dict[str, list[int]] = {}
        for index, entry in enumerate(entries):
            indices = by_type.get(entry.type)
            if indices is None:
                by_type[entry.type] = [index]
            else:
                indices.append(index)
        orders = by_type.get("order", ())
        balances = by_type.get("balance", ())
        if _TOGETHER.isdisjoint(by_type) and len(orders) <= 1 and (
                len(balances) <= 1 or len({entries[i].players[0] for i in balances}) == 1) and (
                not orders or entries[orders[0]].data.get("outcome") != "captured"):
            # nothing that another sentence tells or that is told together (most private reports):
            # each entry its own sentence, as the steps below would find
            return self._each(entries)
        skip: set[int] = set()
        rewards: dict[int, dict[str, list[str]]] = {}       # order entry -> victim -> its rewards' words
        captured = [i for i in orders if entries[i].data.get("outcome") == "captured"]
        orders_captured = {(entries[i].players[0], victim) for i in captured for victim in _victims(entries[i])}
        if captured:
            # its reward ("captured Ada's knight on (1,4)", maybe ", shared by 2 (D14)"), and a king's
            # penalty paid to its capturer ("captured Ada's king (D19)"), by (player, "captured ...")
            captures_paid: dict[tuple[str, str], list[int]] = {}
            for index in balances:
                reason = entries[index].data.get("reason", "")
                if str(reason).startswith("captured "):
                    reason = str(entries[index].data["reason"])
                    cut = min([at for at in (reason.find(", "), reason.find(": ")) if at >= 0] + [len(reason)])
                    captures_paid.setdefault((entries[index].players[0], reason[:cut]), []).append(index)
            for index in captured:
                entry = entries[index]
                for victim in _victims(entry):
                    transfer = f"captured {victim.rsplit(' on (', 1)[0]} (D19)"
                    paid = [(other, f"captured {victim}", None)
                            for other in captures_paid.get((entry.players[0], f"captured {victim}"), ())]
                    paid += [(other, transfer, ", D19") for other in captures_paid.get((entry.players[0], transfer), ())]
                    for other, prefix, said in paid:
                        if other in skip:
                            continue
                        skip.add(other)
                        balance = entries[other]
                        rest = said if said is not None else str(balance.data["reason"])[len(prefix):]
                        rewards.setdefault(index, {}).setdefault(victim, []).append(_signed(balance) + rest)
        for index in by_type.get("capture", ()):
            entry = entries[index]
            if not entry.data.get("sniped"):
                if all((player, _piece_words(entry)) in orders_captured for player in entry.data["by"]):
                    skip.add(index)      # the capturers' order lines tell it
        fallbacks = by_type.get("fallback")
        if fallbacks:
            played_orders: dict[tuple[tuple[str, ...], str], list[int]] = {}
            for index in orders:
                entry = entries[index]
                if entry.data.get("outcome") == "played":
                    played_orders.setdefault((entry.players, str(entry.data.get("order"))), []).append(index)
            for index in fallbacks:
                entry = entries[index]
                later = [i for i in played_orders.get((entry.players, str(entry.data["order"])), ()) if i > index]
                if later:
                    skip.add(later[0])   # "... was played instead" says it
        if "bounce" in by_type:
            bounces = {tuple(entries[i].data["at"]) for i in by_type["bounce"]}
            for index in orders:
                entry = entries[index]
                # megachess: the bounce's own line tells the orders it stopped (D57, D72's "bounce")
                if (entry.data.get("outcome") == "cancelled"
                        and str(entry.data.get("what", "")).startswith("bounce:")):
                    move = _move_of(str(entry.data["order"]))
                    if move is not None and move[1] in bounces:
                        skip.add(index)
        shared: dict[int, list[int]] = {}
        told_balances = [i for i in balances if i not in skip]
        if len(told_balances) > 1 and len({entries[i].players[0] for i in told_balances}) > 1:
            groups: dict[tuple, list[int]] = {}
            for index in told_balances:
                d = entries[index].data
                groups.setdefault((d["reason"], _amount_key(d["amount"]), d["currency"]), []).append(index)
            shared = {indices[0]: indices for indices in groups.values()
                      if len({entries[i].players[0] for i in indices}) > 1}
            for indices in shared.values():
                skip.update(indices[1:])
        implosions = by_type.get("implosion", [])
        skip.update(implosions[1:])

        # one player's orders played one after another: one sentence (a single order is its own line)
        played: dict[int, list[str]] = {}
        if len(orders) > 1:
            first = None
            for index, entry in enumerate(entries):
                if index in skip:
                    continue
                if entry.type == "order" and entry.data.get("outcome", "played") == "played":
                    if first is not None and entries[first].players == entry.players:
                        played[first].append(entry.data["order"])
                        skip.add(index)
                        continue
                    first = index
                    played[index] = [entry.data["order"]]
                else:
                    first = None

        # a lost king is told right after the order line that took it, where there is one
        took: dict[str, int] = {}
        after: dict[int, list[str]] = {}
        if "king_lost" in by_type:
            for index in captured:
                if index not in skip:
                    for victim in _victims(entries[index]):
                        took.setdefault(victim, index)

        sentences = []
        for index, entry in enumerate(entries):
            if index in skip:
                continue
            kind = entry.type
            if kind == "king_lost":
                capture = self.capture_of(entry.players[0], tuple(entry.data["at"]))
                later = took.get(_piece_words(capture)) if capture is not None else None
                if later is not None and later > index:
                    after.setdefault(later, []).append(self.king_lost(entry))
                    continue
            if index in played and len(played[index]) > 1:
                sentences.append(f"{self.subject(entry.players[0], _and(played[index]))} were played.")
            elif index in shared:
                sentences.append(self.shared_balance([entries[i] for i in shared[index]]))
            elif kind == "order":
                sentences.append(self.order(entry, rewards.get(index, _NO_REWARDS)))
            elif kind == "implosion":
                sentences.append(_implosions([tuple(entries[i].data["at"]) for i in implosions]))
            elif kind == "fallback":
                sentences.append(self.fallback(entry))
            elif kind == "king_lost":
                sentences.append(self.king_lost(entry))
            else:
                sentence = _SENTENCES.get(kind, _generic)(entry, reader)
                if sentence:
                    sentences.append(sentence)
            if after:
                sentences += after.pop(index, [])
        return sentences

    def _each(self, entries: list[Entry]) -> list[str]:
        sentences = []
        for entry in entries:
            if entry.type == "order":
                sentences.append(self.order(entry, _NO_REWARDS))
            else:
                sentence = _SENTENCES.get(entry.type, _generic)(entry, self.reader)
                if sentence:
                    sentences.append(sentence)
        return sentences

    def subject(self, player: str, order: str) -> str:
        return f"{self.whose(player, capital=True)} {order}" if player == self.reader else f"{player}: {order}"

    def order(self, entry: Entry, rewards: dict[str, list[str]]) -> str:
        d = entry.data
        player = entry.players[0]
        order = d["order"]
        outcome = d.get("outcome", "played")
        subject = self.subject(player, order)
        if outcome == "played":
            return f"{subject} was played."
        move = _move_of(order)
        if outcome == "captured":
            parts = []
            for victim in _victims(entry):
                words = _yours(victim, self.reader)
                partners = self.partners(player, victim)
                if partners:
                    words += f" together with {_and([_who(p, self.reader, capital=False) for p in partners])}"
                if victim in rewards:
                    words += f" ({'; '.join(rewards[victim])})"
                parts.append(words)
            return f"{subject} captured {', '.join(parts)}."
        if outcome == "dodged":
            target = move[1] if move else None
            dodge = self.dodge_words(player, target, str(d["what"]))
            if dodge is not None:
                return f"{_found(subject, dodge[0])}: {dodge[1]} (D10)."
            told = _TOLD_DODGE.match(str(d["what"]))      # arena: "Greta's pawn on (-9,0) dodged to (-8,1) (D10)"
            if told is not None and target is not None:
                piece = _yours(told.group("piece"), self.reader)
                return f"{subject} found {format_square(target)} empty: {piece} {told.group('rest')} (D10)."
            return f"{subject} found the square empty: {d['what']}."
        if outcome == "held":
            origin = move[0] if move else None
            capture = self.capture_of(player, origin) if origin is not None else None
            kind = capture.data["kind"] if capture is not None else "piece"
            where = f" on {format_square(origin)}" if origin is not None else ""
            return f"{subject} did not happen: the {kind}{where} was capturable and an attack held it in place (D13)."
        if outcome == "cancelled":
            return f"{subject} did not happen: {d['what']}."
        if outcome == "destroyed":
            return f"{subject} met other pieces on {format_square(d['at'])} and was destroyed (M.A.D.)."
        return f"{subject}: {outcome}."

    def fallback(self, entry: Entry) -> str:
        d = entry.data
        player = entry.players[0]
        subject = self.subject(player, d["first"])
        move = _move_of(d["first"])
        instead = f"so {'your' if player == self.reader else 'their'} fallback {d['order']} was played instead (D12)"
        why = str(d["why"])
        dodge = self.dodge_words(player, move[1] if move else None, why)
        if dodge is not None:
            return f"{_found(subject, dodge[0])}: {dodge[1]}, {instead}."
        if why == "the capturable piece was captured" and move is not None:
            capture = self.capture_of(player, move[0])
            if capture is not None:
                by = _and([_who(p, self.reader, capital=False) for p in capture.data["by"]])
                return (f"{subject} did not happen: the {capture.data['kind']} on {format_square(move[0])} was "
                        f"capturable and {by} captured it, {instead}.")
            return (f"{subject} did not happen: the piece on {format_square(move[0])} was capturable and under "
                    f"attack, {instead}.")
        return f"{subject} failed: {why}; {instead}."

    def king_lost(self, entry: Entry) -> str:
        player = entry.players[0]
        mine = player == self.reader
        who = _who(player, self.reader)
        square = tuple(entry.data["at"])
        text = f"{who} lost {'your' if mine else 'their'} king on {format_square(square)}"
        capture = self.capture_of(player, square)
        if capture is not None:
            text += f" to {_and([_who(p, self.reader, capital=False) for p in capture.data['by']])}"
        elif square in self.context.annihilated:
            text += " to the implosion square"
        if player in self.gone:      # eliminated or resigned: no respawn to promise (D30)
            return text + "."
        return (text + f"; it respawns automatically at the end of update {entry.data['respawn']} unless "
                f"{'you place' if mine else f'{player} places'} a new king first.")

    def shared_balance(self, group: list[Entry]) -> str:
        """One line for a change several players share: "Regeneration: +1 health for Ann, Bob and Cleo."."""
        first = group[0].data
        reason = str(first["reason"])
        names = list(dict.fromkeys(_who(entry.players[0], self.reader, capital=False) for entry in group))
        return f"{reason[:1].upper()}{reason[1:]}: {_signed(group[0])} for {_and(names)}."


def _found(subject: str, square: Square | None) -> str:
    """"Ann: K(3,7)-(2,7) found (2,7) empty" (or "found the square empty" when it is not known)."""
    return f"{subject} found {format_square(square) if square is not None else 'the square'} empty"


def _signed(entry: Entry) -> str:
    """A balance entry's change: ``+1 health``, ``-8 health``, ``+1 point``."""
    return _change(entry.data["amount"], entry.data["currency"])


def _change(amount, currency: str) -> str:
    """``+1 health``, ``-2.5 points``: the sign, ``format_amount`` of the size and the currency's form
    for it. Whole numbers and halves, nearly every amount, are written from the Fraction's numerator
    and denominator (the arithmetic of Fractions is Python code: a report writes thousands)."""
    kind = type(amount)
    if kind is Fraction:
        numerator, denominator = amount.numerator, amount.denominator
    elif kind is int:
        numerator, denominator = amount, 1
    else:
        denominator = 0
    if denominator == 1 or denominator == 2:
        size = -numerator if numerator < 0 else numerator
        words = str(size) if denominator == 1 else f"{size // 2}.5"
        if size == 1 and denominator == 1 and currency.endswith("s"):
            currency = currency[:-1]
        return f"{'+' if numerator >= 0 else '-'}{words} {currency}"
    return f"{'+' if amount >= 0 else '-'}{format_amount(abs(amount))} {_currency(currency, amount)}"


def _amount_key(amount):
    """``amount`` as a key equal to it, with the same hash: a whole Fraction as its integer (a
    Fraction's hash is Python code; the public report groups a thousand balance changes)."""
    if type(amount) is Fraction and amount.denominator == 1:
        return amount.numerator
    return amount


def _currency(currency: str, amount) -> str:
    """``points`` for 2, ``point`` for 1 (health and energy have one form)."""
    return currency[:-1] if abs(amount) == 1 and currency.endswith("s") else currency


def _implosions(squares: list[Square]) -> str:
    names = _and([format_square(square) for square in squares])
    if len(squares) == 1:
        return (f"{names} is an implosion square now: whatever stands on it at the end of the next update is "
                f"annihilated (D15).")
    return (f"{names} are implosion squares now: whatever stands on them at the end of the next update is "
            f"annihilated (D15).")


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


def _one_line(text: str) -> str:
    """``text`` on one printable line: its lines joined by `` / ``, other control characters shown
    as U+FFFD (a printout's comment line stays one line)."""
    joined = " / ".join(part.strip() for part in str(text).splitlines() if part.strip())
    return "".join("\ufffd" if not c.isprintable() else c for c in joined)


def _refusal_line(entry: Entry) -> str:
    player = entry.players[0] if entry.players else "?"
    return f"{player}: {_one_line(entry.data.get('text', ''))} -- {_one_line(entry.data.get('reason', 'refused'))}"


def _refused(entry: Entry, reader: str | None) -> str:
    player = entry.players[0]
    return f"{_whose(player, reader).capitalize()} order {entry.data['text']!r} was refused: {entry.data['reason']}"


def _capture(entry: Entry, reader: str | None) -> str:
    d = entry.data
    capturers = " and ".join(_who(p, reader) for p in d["by"])
    whose = "the" if d["owner"] is None else _whose(d["owner"], reader)
    sniped = " as it was placed (sniped)" if d.get("sniped") else ""
    return f"{capturers} captured {whose} {d['kind']} on {format_square(d['at'])}{sniped}."


def _yours(words: str, reader: str | None) -> str:
    """"Ann's king" as the reader Ann reads it: "your king"."""
    return f"your {words[len(reader) + 3:]}" if reader and words.startswith(f"{reader}'s ") else words


def _mine(entry: Entry, reader: str | None, key: str, joiner: str) -> Entry:
    """``entry`` with the pieces in ``data[key]`` (joined by ``joiner``) told to ``reader`` as theirs."""
    words = _and([_yours(part, reader) for part in str(entry.data[key]).split(joiner)])
    return Entry(entry.type, entry.players, entry.audience, {**entry.data, key: words})


def _collision(entry: Entry, reader: str | None) -> str:
    d = entry.data
    arrivals = _and([_yours(words, reader) for words in d["arrivals"]])
    text = f"{arrivals} arrived on {format_square(d['at'])} together: a collision (RULES 3.4)."
    return text[:1].upper() + text[1:]


def _annihilation(entry: Entry, reader: str | None) -> str:
    d = entry.data
    return (f"The implosion square {format_square(d['at'])} annihilated "
            f"{', '.join(_yours(piece, reader) for piece in d['pieces'])}, with no reward (D15).")


def _balance(entry: Entry, reader: str | None) -> str:
    d = entry.data
    return f"{_who(entry.players[0], reader)}: {_change(d['amount'], d['currency'])} ({_yours(d['reason'], reader)})."


def _simple(template: str):
    def sentence(entry: Entry, reader: str | None) -> str:
        data = dict(entry.data)
        data.setdefault("player", entry.players[0] if entry.players else "")
        mine = data["player"] == reader
        data["whose"] = "Your" if mine else f"{data['player']}'s"   # at the start of a sentence
        data["their"] = "your" if mine else "their"
        data["s"] = "" if mine else "s"                             # "You control", "Ann controls"
        data["plural"] = "" if data.get("count") == 1 else "s"       # "1 obstacle", "8 pieces"
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
    mine = player == "You"
    return (f"{player} {'are' if mine else 'is'} eliminated (D30): {'your' if mine else 'their'} balance stayed "
            f"below 0 after all {'your' if mine else 'their'} other pieces were gone; there is no respawn.")


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
        return f"{names} share the win with {amount_in(d['points'], 'points')}: {d['reason']}."
    verb = "win" if d["winners"][0] == reader else "wins"
    return f"{names} {verb} with {amount_in(d['points'], 'points')}: {d['reason']}."


def _and(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _army(entry: Entry, reader: str | None) -> str:
    """Megachess: a captured king's remaining pieces go to its capturer (D61)."""
    heir, victim, count = entry.players[0], entry.data["victim"], entry.data["count"]
    army = f"{counted(count, 'piece')} {'goes' if count == 1 else 'go'}"
    if victim == reader:
        return (f"Your king was captured: you are eliminated, and your remaining {army} to {heir} "
                f"(D61); you may join again as a new player (D64).")
    return (f"{victim}'s king was captured: {victim} is eliminated, and the remaining {army} to "
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
    "refused": _refused,
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
    "respawn": _simple("{whose} king respawned on {at}."),
    "placement": _simple("{player} placed a king on {at}."),
    "event_start": _simple("Event {name} begins: {effect} It lasts until update {until}."),
    "event_end": _simple("Event {name} has ended."),
    "obstacle": _simple("{player} placed an obstacle on {at}."),
    "obstacles_removed": _simple("{count} obstacle{plural} crumbled."),
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
    "bounce": lambda entry, reader: _simple("Bounce on {at}: {pieces} moved there together and stayed where they "
                                            "were (D57).")(_mine(entry, reader, "pieces", " and "), reader),
    "collection": _simple("{whose} {kind} collected the bonus {bonus} on {at}: a {bonus} of {their} own now "
                          "stands on {origin} (D58)."),
    "army": _army,
    "join": _simple("{player} joined {team} with a king on {at} and a starter army of {count} piece{plural} "
                    "(D62, D63)."),
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
    "goal_won": _simple("{player} control{s} the goal {at} and win{s} (T9)."),
    "refilled": _simple("The draft area is filled back from the bag: {kinds}."),
    "drawn": _simple("{quiet} quiet turns in a row: the game is drawn (T10)."),
    "conceded": _conceded,
}
