"""Game states to and from versioned JSON (stored in snapshots, replayed, shipped between processes).

The format is plain JSON: exact amounts are strings (``"11/2"``) or integers, squares are
``[x, y]``. ``version`` is checked on reading: an older version is migrated on reading, one step
at a time (:data:`MIGRATIONS`), so a game stored by an earlier release resumes; a newer version than
this code knows is refused rather than misread. Stored snapshots are immutable records and are
never rewritten: the migration runs each time an old one is read.

Versions: 1, the first; 2 adds ``seats`` (the players seated before the start, in seat order).
The optional key ``territory`` holds a territory game's reserves, draft area, bag, Mirror copies,
quiet turns and result (RULES 5.4); it is absent from other families' states and read with defaults,
so it needs no version of its own.

Writing the pieces costs in the pieces that changed (issue 25). :func:`dumps` keeps, for the last
few boards it wrote (:data:`_KEEP`, the latest first), each piece's place in the canonical order,
its key and its text, by the piece object's ``id()``; the record holds the pieces themselves, so no
other object can be given one of those ids while it lives, and pieces are frozen, so an object
found there is unchanged. The engine reuses the pieces an update leaves alone (after a 1,000-order
update, 93 % of a 50,000-piece board), so the next board is written from the closest record: the
pieces that left are dropped from its order, the new ones keyed, written and put in their places,
the others neither keyed, written nor compared again (a 50,000-piece state in about half the time).
A board read by :func:`loads` or edited has new objects: they are written like any new piece. The
records are never changed once made and the list of them is replaced, not changed, so threads
writing different games share them safely; only a few are kept, and each lives until it is
replaced by the record of the board written from it or pushed out by newer ones.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from dataclasses import fields
from itertools import compress, count, filterfalse, islice, repeat
from operator import attrgetter, eq, not_
from fractions import Fraction
from typing import Any

from .board import Board
from .model import Piece, Player
from .state import ActiveEvent, GameState, LastMove, PowerUp
from .territory.state import TerritoryState

__all__ = ["STATE_VERSION", "MIGRATIONS", "migrate", "state_to_json", "state_from_json", "dumps", "loads",
           "StateFormatError"]

STATE_VERSION = 2

_PIECE_DEFAULTS = {f.name: f.default for f in fields(Piece)}
#: the fields a piece writes only where they differ from their defaults (most pieces: none), read
#: all at once and compared with the defaults in one go (a 50,000-piece state is encoded each update)
_OPTIONAL = tuple(name for name in _PIECE_DEFAULTS if name not in ("id", "kind", "owner", "square"))
_optional_values = attrgetter(*_OPTIONAL)
_OPTIONAL_DEFAULTS = tuple(_PIECE_DEFAULTS[name] for name in _OPTIONAL)


class StateFormatError(ValueError):
    """A stored state this code cannot read."""


def _amount(value: Fraction) -> int | str:
    return value.numerator if value.denominator == 1 else str(value)


def _square(value) -> list[int] | None:
    return None if value is None else [value[0], value[1]]


def _piece_json(piece: Piece) -> dict[str, Any]:
    square = piece.square
    raw: dict[str, Any] = {"id": piece.id, "kind": piece.kind, "owner": piece.owner, "at": [square[0], square[1]]}
    values = _optional_values(piece)
    if values != _OPTIONAL_DEFAULTS:
        for name, value, default in zip(_OPTIONAL, values, _OPTIONAL_DEFAULTS):
            if value != default:
                raw[name] = value
    return raw


def state_to_json(state: GameState) -> dict[str, Any]:
    return _state_json(state)


def _state_json(state: GameState, pieces: bool = True) -> dict[str, Any]:
    players = []
    for name in sorted(state.players):
        p = state.players[name]
        players.append({"name": p.name, "colour": p.colour, "balance": _amount(p.balance),
                        "captured": _amount(p.captured), "status": p.status, "team": p.team,
                        "king_lost_at": p.king_lost_at, "king_lost_square": _square(p.king_lost_square),
                        "rejoin_after": p.rejoin_after, "pending": list(p.pending)})
    bounds = state.board.bounds
    family: dict[str, Any] = {}
    if state.territory is not None:   # an optional key: states of other families are unchanged
        family["territory"] = state.territory.to_json()
    return {
        **family,
        "version": STATE_VERSION,
        "update": state.update,
        "bounds": None if bounds is None else [_square(bounds[0]), _square(bounds[1])],
        "players": players,
        # the canonical order (owner, x, y, kind), then the id
        **({"pieces": [_piece_json(piece) for piece in sorted(
            state.board, key=lambda p: (p.owner or "", p.square, p.kind, p.id))]} if pieces else {}),
        "implosions": sorted(_square(s) for s in state.implosions),
        "moved_last_update": [{"from": _square(m.origin), "to": _square(m.target)} for m in state.moved_last_update],
        "length": state.length,
        "events": [{"name": e.name, "started": e.started} for e in state.events],
        "past_events": list(state.past_events),
        "powerups": [{"kind": p.kind, "at": _square(p.at), "piece": p.piece} for p in state.powerups],
        "marked": [_square(s) for s in state.marked],
        "seats": list(state.seats),
        "next_id": state.next_id,
        "checks_consistent": state.checks_consistent,
    }


def _seats_from_v1(raw: dict[str, Any]) -> dict[str, Any]:
    """Version 1 to 2: games stored before seats existed seated nobody before their start."""
    return {**raw, "seats": [], "version": 2}


#: version -> the function that turns a stored state of that version into the next version
MIGRATIONS = {1: _seats_from_v1}


def migrate(raw: dict[str, Any]) -> dict[str, Any]:
    """A stored state brought to :data:`STATE_VERSION`, one version at a time."""
    version = raw.get("version") if isinstance(raw, dict) else None
    while version != STATE_VERSION:
        step = MIGRATIONS.get(version) if isinstance(version, int) and not isinstance(version, bool) else None
        if step is None:
            raise StateFormatError(f"state format version {version!r} is not supported (this code reads "
                                   f"versions {min(MIGRATIONS)} to {STATE_VERSION})")
        raw = step(raw)
        version = raw["version"]
    return raw


def state_from_json(raw: dict[str, Any]) -> GameState:
    raw = migrate(raw)
    try:
        bounds = raw["bounds"]
        pieces = [Piece(id=p["id"], kind=p["kind"], owner=p["owner"], square=tuple(p["at"]),
                        **{k: v for k, v in p.items() if k not in ("id", "kind", "owner", "at")})
                  for p in raw["pieces"]]
        # all at once: the board sorts its line indexes once instead of growing them piece by piece
        board = Board(pieces, bounds=None if bounds is None else (tuple(bounds[0]), tuple(bounds[1])))
        players = {}
        for p in raw["players"]:
            players[p["name"]] = Player(
                name=p["name"], colour=p["colour"], balance=Fraction(p["balance"]), captured=Fraction(p["captured"]),
                status=p["status"], team=p["team"], king_lost_at=p["king_lost_at"],
                king_lost_square=None if p["king_lost_square"] is None else tuple(p["king_lost_square"]),
                rejoin_after=p["rejoin_after"], pending=tuple(p["pending"]))
        return GameState(
            board=board, players=players, update=raw["update"],
            implosions=frozenset(tuple(s) for s in raw["implosions"]),
            moved_last_update=tuple(LastMove(tuple(m["from"]), tuple(m["to"])) for m in raw["moved_last_update"]),
            length=raw["length"],
            events=tuple(ActiveEvent(e["name"], e["started"]) for e in raw["events"]),
            past_events=tuple(raw["past_events"]),
            powerups=tuple(PowerUp(p["kind"], tuple(p["at"]), p["piece"]) for p in raw["powerups"]),
            marked=tuple(tuple(s) for s in raw["marked"]),
            seats=tuple(raw["seats"]),
            next_id=raw["next_id"],
            checks_consistent=raw["checks_consistent"],
            territory=TerritoryState.from_json(raw["territory"]) if raw.get("territory") is not None else None,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise StateFormatError(f"stored state is malformed: {type(exc).__name__}: {exc}") from None


#: the lists of a state that grow with the game, encoded and decoded a slice at a time
_LONG_LISTS = frozenset({"pieces", "players"})
_SLICE = 500
_ENCODE = json.JSONEncoder(separators=(",", ":"), sort_keys=True).encode
_DECODE = json.JSONDecoder().raw_decode
_BLANKS = " \t\n\r"


def _encode_list(items: list) -> str:
    parts = (_ENCODE(items[start:start + _SLICE])[1:-1] for start in range(0, len(items), _SLICE))
    return "[" + ",".join(parts) + "]"


def _piece_parts(values: tuple) -> tuple[str, str, str, str]:
    """The optional fields of a piece with these values (``_optional_values``), as the text that
    goes between its fixed keys in sorted order: before ``"id"``, between ``"id"`` and ``"kind"``,
    between ``"kind"`` and ``"owner"``, after ``"owner"`` (each written as ``json`` writes it)."""
    parts: tuple[list[str], ...] = ([], [], [], [])
    for name, value, default in sorted(zip(_OPTIONAL, values, _OPTIONAL_DEFAULTS)):
        if value != default:
            at = 0 if name < "id" else 1 if name < "kind" else 2 if name < "owner" else 3
            parts[at].append(f",{_ENCODE(name)}:{_ENCODE(value)}")
    return tuple("".join(part) for part in parts)


#: the optional fields' text by their values: a board has a few dozen combinations at most
_PARTS: dict[tuple, tuple[str, str, str, str]] = {}


def _canonical_key(piece: Piece) -> tuple:
    """A piece's place in the canonical order: owner, x, y, kind, then the id (unique on a board)."""
    return (piece.owner or "", piece.square, piece.kind, piece.id)


def _piece_texts(pieces) -> list[str]:
    """Each piece's ``state_to_json`` object as ``_ENCODE`` writes it, character for character,
    written directly: from the piece's values, the fields that differ from their defaults (most
    pieces: none) and the owners' and kinds' JSON strings each made once (50,000 pieces in a
    twentieth of a second, instead of building a dictionary per piece and encoding it)."""
    strings: dict = {}
    parts_of = _PARTS
    optional_values = _optional_values
    texts = []
    for piece in pieces:
        values = optional_values(piece)
        parts = parts_of.get(values)
        if parts is None:
            parts = parts_of[values] = _piece_parts(values)
            if len(parts_of) > 4096:        # a pathological board: keep the table small
                parts_of.clear()
        kind, owner, (x, y), number = piece.kind, piece.owner, piece.square, piece.id
        if type(x) is not int or type(y) is not int or type(number) is not int:
            texts.append(_ENCODE(_piece_json(piece)))        # as json writes any other value
            continue
        kind_text = strings.get(kind)
        if kind_text is None:
            kind_text = strings[kind] = _ENCODE(kind)
        owner_text = strings.get(owner)
        if owner_text is None:
            owner_text = strings[owner] = _ENCODE(owner)
        texts.append(f'{{"at":[{x},{y}]{parts[0]},"id":{number}{parts[1]},"kind":{kind_text}{parts[2]},'
                     f'"owner":{owner_text}{parts[3]}}}')
    return texts


class _Encoded:
    """The pieces of a board as encoded, in the canonical order: ``ids`` (each piece's ``id()``),
    ``keys`` (:func:`_canonical_key`) and ``texts`` (:func:`_piece_texts`); and ``pieces``, each
    piece by its ``id()``. Never changed once made: threads encoding other games may be reading
    it. Holding the pieces keeps their ``id()`` from being given to another object while the record
    lives: an object of a later board with the ``id()`` of one of them is that very piece,
    unchanged (pieces are frozen), so its key and text are the ones recorded."""

    __slots__ = ("pieces", "ids", "keys", "texts")

    def __init__(self, pieces: dict[int, Piece], ids: list[int], keys: list[tuple], texts: list[str]) -> None:
        self.pieces, self.ids, self.keys, self.texts = pieces, ids, keys, texts


#: the boards encoded last, the latest first: at most _KEEP of them (see the module's docstring)
_RECENT: tuple[_Encoded, ...] = ()
_KEEP = 3
#: how many of a board's pieces are looked up in each recent record to choose the closest one
_SAMPLE = 64


def _encode_all(pieces: dict[int, Piece]) -> _Encoded:
    """Every piece keyed, sorted and written: a board that shares no piece with a recent one. Each
    key is made once (as :func:`_canonical_key`, inline: the first state written after a restart has
    50,000 of them), the pieces sorted by their keys' places."""
    values = list(pieces.values())
    keys = [(piece.owner or "", piece.square, piece.kind, piece.id) for piece in values]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    ordered = list(map(values.__getitem__, order))
    return _Encoded(pieces, list(map(id, ordered)), list(map(keys.__getitem__, order)), _piece_texts(ordered))


class _Nobody:
    """Stands for no piece where a piece's owner, square and kind are compared: equal to none."""

    owner = square = kind = object()


_ID = attrgetter("id")
_PLACE = attrgetter("owner", "square", "kind")       # with the id (the same here), a piece's key
_NOBODY = _Nobody()


def _encode_changes(pieces: dict[int, Piece], base: _Encoded) -> _Encoded:
    """``_encode_all(pieces)``, from the record of a board that shares most of its pieces; only
    the pieces of one board and not the other are looked at. A piece that left is replaced by the
    new piece with its id when the two have the same key (its check state changed, say: most of an
    update's changes), written in its place; the others are dropped, and the other new pieces put in
    their places, found by bisection. The pieces both boards hold are neither keyed nor written
    again, and never compared with each other; the pieces that left are matched with the new ones
    in C (maps over them, no Python step per piece), and the lists are copied once, a slice between
    each two places where a piece is dropped or put (an update of 1,000 orders on 50,000 pieces:
    about 3,500 pieces left, 2,600 of them replaced, 900 dropped, 1,000 put)."""
    added = list(filterfalse(base.pieces.__contains__, pieces))
    if not added and len(pieces) == len(base.pieces):       # the very same pieces
        return _Encoded(pieces, base.ids, base.keys, base.texts)
    ids, keys, texts = base.ids, base.keys, base.texts
    new = {piece.id: piece for piece in map(pieces.__getitem__, added)}
    left = list(compress(count(), map(not_, map(pieces.__contains__, ids))))      # places in the old order
    before = list(map(base.pieces.__getitem__, map(ids.__getitem__, left)))
    after = list(map(new.get, map(_ID, before), repeat(_NOBODY)))       # the new piece with the same id
    same = list(map(eq, map(_PLACE, after), map(_PLACE, before)))
    replacing = list(compress(after, same))
    for piece in replacing:
        del new[piece.id]
    inserted = list(new.values())
    written = _piece_texts(replacing + inserted)
    ids, texts = ids[:], texts[:]          # copies: a record's lists are never changed
    for at, piece, text in zip(compress(left, same), replacing, written):
        ids[at] = id(piece)
        texts[at] = text
    # (place in the old order, 0: the new piece goes before it, 1: the old piece is dropped)
    changes: list[tuple] = [(at, 1) for at in compress(left, map(not_, same))]
    for piece, key, text in zip(inserted, map(_canonical_key, inserted), islice(written, len(replacing), None)):
        changes.append((bisect_left(keys, key), 0, key, text, id(piece)))
    if not changes:
        return _Encoded(pieces, ids, keys, texts)
    changes.sort()          # by place, then what comes first there: never two keys equal
    merged_ids: list[int] = []
    merged_keys: list[tuple] = []
    merged_texts: list[str] = []
    start = 0
    for change in changes:
        at = change[0]
        if at > start:
            merged_ids += ids[start:at]
            merged_keys += keys[start:at]
            merged_texts += texts[start:at]
            start = at
        if change[1]:
            start = at + 1          # the old piece is not copied
        else:
            merged_keys.append(change[2])
            merged_texts.append(change[3])
            merged_ids.append(change[4])
    merged_ids += ids[start:]
    merged_keys += keys[start:]
    merged_texts += texts[start:]
    return _Encoded(pieces, merged_ids, merged_keys, merged_texts)


def _piece_texts_of(board) -> list[str]:
    """The pieces of ``board`` in the canonical order, each as ``_ENCODE`` writes its
    ``state_to_json`` object, character for character (a list a record holds: never to be changed).
    Only the pieces missing from the closest of the recent records are keyed and written (see the
    module's docstring)."""
    global _RECENT
    pieces = dict(zip(map(id, board), board))
    recent = _RECENT
    base, shared = None, 0
    if pieces:
        sample = list(islice(pieces, _SAMPLE))
        for record in recent:
            hits = sum(map(record.pieces.__contains__, sample))
            if hits > shared:
                base, shared = record, hits
    encoded = _encode_all(pieces) if base is None else _encode_changes(pieces, base)
    if pieces:
        # a new tuple, never the old one changed: another thread may be reading it
        _RECENT = (encoded, *[record for record in recent if record is not base][:_KEEP - 1])
    return encoded.texts


def dumps(state: GameState) -> str:
    """The state as compact JSON with sorted keys (the text ``json.dumps(state_to_json(state),
    separators=(",", ":"), sort_keys=True)`` gives, character for character). The pieces are
    written directly (:func:`_piece_texts_of`) and the players a slice at a time: one call encoding
    50,000 pieces would hold the interpreter lock for a tenth of a second, stalling every other
    thread (the bot's event loop). The whole text is made by one join of every key's text and every
    piece's: joining the pieces first and then framing them made four more copies of 4 MB, each in
    memory the system had to hand over afresh (5 ms of a 50,000-piece state, issue 25)."""
    raw = _state_json(state, pieces=False)
    texts = {key: _encode_list(value) if key in _LONG_LISTS else _ENCODE(value) for key, value in raw.items()}
    pieces = _piece_texts_of(state.board)
    parts: list[str] = []
    for key in sorted([*texts, "pieces"]):
        if key != "pieces":
            parts.append(f"{_ENCODE(key)}:{texts[key]}")
        elif not pieces:
            parts.append('"pieces":[]')
        else:
            parts.append('"pieces":[' + pieces[0])
            parts += islice(pieces, 1, None)
            parts[-1] += "]"
    parts[0] = "{" + parts[0]
    parts[-1] += "}"
    return ",".join(parts)


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _BLANKS:
        at += 1
    return at


def _decode_object(text: str) -> Any:
    """``json.loads(text)``, where an object's pieces and players are decoded one item at a time
    (each call short: see :func:`dumps`). Anything else, nested values included, is decoded whole."""
    at = _skip(text, 0)
    if not text.startswith("{", at):
        return json.loads(text)
    raw: dict[str, Any] = {}
    at = _skip(text, at + 1)
    if text.startswith("}", at):
        return raw if _skip(text, at + 1) == len(text) else json.loads(text)
    while True:
        key, at = _DECODE(text, at)
        at = _skip(text, at)
        if not text.startswith(":", at):
            return json.loads(text)       # malformed: let the standard decoder say where
        at = _skip(text, at + 1)
        if key in _LONG_LISTS and text.startswith("[", at):
            items, at = [], _skip(text, at + 1)
            if text.startswith("]", at):
                at += 1
            else:
                while True:
                    item, at = _DECODE(text, at)
                    items.append(item)
                    at = _skip(text, at)
                    if text.startswith(",", at):
                        at = _skip(text, at + 1)
                    elif text.startswith("]", at):
                        at += 1
                        break
                    else:
                        return json.loads(text)
            raw[key] = items
        else:
            raw[key], at = _DECODE(text, at)
        at = _skip(text, at)
        if text.startswith(",", at):
            at = _skip(text, at + 1)
        elif text.startswith("}", at):
            return raw if _skip(text, at + 1) == len(text) else json.loads(text)
        else:
            return json.loads(text)


def loads(text: str) -> GameState:
    return state_from_json(_decode_object(text))
