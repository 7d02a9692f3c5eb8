"""The one rule for names that posts print: player names and game names (docs/service.md).

A name is printed inside public posts (reports, announcements, the health board), often at the
start of a line and inside Discord markup (``**name**``). So a name

* is trimmed, its blanks collapsed to single spaces and its characters in NFKC form (``Ａｄａ`` is
  ``Ada``), 1 to ``limit`` characters long;
* contains no character Discord reads as markup or a mention (``@ # * _ ~ | < > \\ :`` and the
  backquote), and no control or format character (ANSI escapes, bidi overrides and isolates,
  zero-width characters);
* shows: no character that prints as nothing (Hangul fillers, the blank Braille pattern), and no
  combining mark without a letter to sit on or stacked more than three high (a name cannot be
  only accents, nor spill over the lines around it);
* does not start like a list item, a quote or a heading (``- Ada``, ``+ Ada``, ``1. Ada``,
  ``2) Ada``), which would change the layout of the line it begins.

Each refusal names the character (its code point and Unicode name) or the start at fault.

An announcement (``/mod announce``) is free text, Discord markup included, but it too must show
(:func:`clean_announcement`): no control character but line breaks and tabs (a NUL, an escape), and
something visible besides blanks and characters that print as nothing (zero-width spaces and
joiners, the word joiner, a byte-order mark, Hangul fillers).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from .errors import InvalidInput, shown
from .settings import MAX_NAME_LENGTH

__all__ = ["NameRule", "PLAYER_NAME", "GAME_NAME", "clean_name", "clean_announcement", "describe_character"]

#: Characters Discord reads as markup or mentions.
MARKUP = frozenset("@#`*_~|<>\\:")
#: Letters and symbols that print as nothing (before and after NFKC: U+3164 becomes U+1160).
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Names of the control characters Unicode leaves unnamed, as refusals call them.
_CONTROL_NAMES = {"\x00": "null", "\x07": "bell", "\x08": "backspace", "\x1b": "escape", "\x7f": "delete"}
#: The most combining marks one character may carry (Zalgo text spills over neighbouring lines).
MAX_MARKS = 3
#: What Discord reads as a list item, quote or heading at the start of a line.
_LAYOUT_START = re.compile(r"^(?:[-+*>]|#{1,3}|-#|[0-9]+[.)])(?: |$)")


@dataclass(frozen=True, slots=True)
class NameRule:
    """Which name is checked: how it is called in refusals, its length, the words it may not be."""

    what: str
    limit: int
    hint: str
    reserved: frozenset[str] = frozenset()


PLAYER_NAME = NameRule("a name", MAX_NAME_LENGTH, "choose another with the name option",
                       frozenset({"you", "nobody", "everyone", "here"}))   # reports use these words
GAME_NAME = NameRule("a game's name", 100, "choose another with the name option")


def describe_character(char: str) -> str:
    """``U+200B (zero width space)``: a character as a refusal names it."""
    name = unicodedata.name(char, "") or _CONTROL_NAMES.get(char, "unnamed")
    return f"U+{ord(char):04X} ({name.lower()})"


def clean_name(text: object, rule: NameRule = PLAYER_NAME) -> str:
    """``text`` as posts print it, or :class:`InvalidInput` saying what is wrong (nothing changes)."""
    what, hint = rule.what, rule.hint
    if not isinstance(text, str):
        raise InvalidInput(f"{what} must be text")
    # Checked before NFKC, which would rename the character the player typed.
    invisible = sorted({c for c in text if c in INVISIBLE})
    if invisible:
        raise InvalidInput(f"{what} cannot contain {', '.join(describe_character(c) for c in invisible)}: it prints as "
                           "nothing, so readers would not see it", hint=hint)
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    if not name:
        raise InvalidInput(f"{what} cannot be empty", hint=hint)
    if len(name) > rule.limit:
        raise InvalidInput(f"{what} has at most {rule.limit} characters; {shown(name)} has {len(name)}",
                           hint="choose a shorter one with the name option")
    bad = sorted({c for c in name if c in MARKUP or unicodedata.category(c).startswith("C")})
    if bad:
        listed = " ".join(repr(c) for c in bad)
        raise InvalidInput(f"{what} cannot contain {listed}: reports would show it as markup or a mention, or not "
                           "at all", hint="use letters, digits, spaces, dots and dashes")
    _check_marks(name, what, hint)
    start = _LAYOUT_START.match(name)
    if start:
        raise InvalidInput(f"{what} cannot start with {start.group(0).strip()!r}: at the start of a line Discord "
                           "shows it as a list item, a quote or a heading", hint=hint)
    if name.casefold() in rule.reserved:
        raise InvalidInput(f"{name!r} cannot be a player's name: reports use that word", hint=hint)
    return name


def _check_marks(name: str, what: str, hint: str) -> None:
    """Combining marks sit on a visible character, at most :data:`MAX_MARKS` on each."""
    run = 0
    for i, char in enumerate(name):
        if not unicodedata.category(char).startswith("M"):
            run = 0
            continue
        run += 1
        if i == run - 1 or name[i - run] == " ":
            raise InvalidInput(f"{what} cannot have {describe_character(char)} at character {i + 1}: a combining mark needs a "
                               "letter before it, so readers would not see it", hint=hint)
        if run > MAX_MARKS:
            raise InvalidInput(f"{what} cannot stack more than {MAX_MARKS} combining marks on one letter (at "
                               f"character {i + 1}): they spill over the lines around the name", hint=hint)


#: The most characters an announcement holds (a Discord message, with room for the bot's own words).
ANNOUNCEMENT_LIMIT = 1800


def clean_announcement(text: object) -> str:
    """``text`` trimmed, as the channel is to read it, or :class:`InvalidInput` naming what is wrong
    (nothing is posted): 1 to :data:`ANNOUNCEMENT_LIMIT` characters, no control character but line
    breaks and tabs, and not only blanks and characters that print as nothing."""
    hint = "write the announcement with visible characters and send it again"
    if not isinstance(text, str):
        raise InvalidInput("an announcement must be text")
    text = text.strip()
    if not text or len(text) > ANNOUNCEMENT_LIMIT:
        raise InvalidInput(f"an announcement is 1 to {ANNOUNCEMENT_LIMIT:,} characters")
    controls = sorted({c for c in text if unicodedata.category(c) == "Cc" and c not in "\n\r\t"})
    if controls:
        raise InvalidInput(f"an announcement cannot contain {', '.join(describe_character(c) for c in controls)}: a "
                           "control character, which Discord shows as nothing or refuses", hint=hint)
    shows = [c for c in text if not c.isspace() and c not in INVISIBLE and unicodedata.category(c) != "Cf"]
    if not shows:
        unseen = sorted({c for c in text if not c.isspace()})
        raise InvalidInput(f"an announcement must show something: this one holds only "
                           f"{', '.join(describe_character(c) for c in unseen[:5])}"
                           f"{' and more' if len(unseen) > 5 else ''}, {'which print' if len(unseen) > 1 else 'which prints'} as "
                           "nothing, so the channel "
                           "would read an empty post", hint=hint)
    return text
