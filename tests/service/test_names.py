"""Names that posts print (issue 19 item 7): one rule for player names and game names.

A name a reader cannot see, or one that changes the layout of the post it is printed in, is refused
with the reason, pointing at the character or the start at fault; the refusal changes nothing (the
table's ``refused`` compares the whole database before and after). Real names in any script, with
their accents, are kept.
"""

from __future__ import annotations

import pytest

from bot.service import InvalidInput
from bot.service.names import GAME_NAME, PLAYER_NAME, clean_announcement, clean_name

# (name, words of the refusal)
UNSEEN_OR_LAYOUT = [
    ("\u3164", "U+3164 (hangul filler)"),
    ("\u3164\u3164\u3164", "prints as nothing"),
    ("Ada\u3164", "U+3164 (hangul filler)"),              # looks exactly like "Ada"
    ("\uffa0", "U+FFA0 (halfwidth hangul filler)"),
    ("\u2800", "U+2800 (braille pattern blank)"),
    ("\u0301\u0301", "U+0301 (combining acute accent) at character 1: a combining mark needs a letter"),
    ("Ada \u0308", "at character 5: a combining mark needs a letter"),
    ("Za\u0353\u0353\u0353\u0353lgo", "more than 3 combining marks on one letter (at character 6)"),
    ("- Ada", "cannot start with '-': at the start of a line Discord shows it as a list item"),
    ("-", "cannot start with '-'"),
    ("+ Ada", "cannot start with '+'"),
    ("1. Ada", "cannot start with '1.'"),
    ("12) Ada", "cannot start with '12)'"),
    ("> Ada", "cannot contain '>'"),
    ("# Ada", "cannot contain '#'"),
    ("* Ada", "cannot contain '*'"),
    ("Ada```", "cannot contain '`'"),
    ("\u202eAda", "cannot contain '\\u202e'"),              # right-to-left override
    ("Ada\u2066x\u2069", "cannot contain '\\u2066' '\\u2069'"),
    ("\x1b[31mAda", "cannot contain '\\x1b'"),             # ANSI colour
    ("A\u200bda", "cannot contain '\\u200b'"),            # zero-width space
    ("@everyone", "cannot contain '@'"),
    ("   ", "cannot be empty"),
]

KEPT = [
    ("Ada", "Ada"),
    ("Zoe\u0308", "Zoë"),                 # NFKC composes the accent
    ("Nguye\u0302\u0303n", "Nguyễn"),      # two marks on one letter
    ("José-María", "José-María"),
    ("علي", "علي"),
    ("अनिल", "अनिल"),                      # Devanagari vowel signs are marks after a letter
    ("-Ada", "-Ada"),                      # no space: not a list item
    ("R2-D2", "R2-D2"),
    ("Ada 1. Lovelace", "Ada 1. Lovelace"),
    ("2.5 Ada", "2.5 Ada"),
    ("Ｌｏｖｅｌａｃｅ", "Lovelace"),
    ("  Ada   Lovelace ", "Ada Lovelace"),
    ("Robert'); DROP TABLE games;--", "Robert'); DROP TABLE games;--"),
]


@pytest.mark.parametrize("rule", [PLAYER_NAME, GAME_NAME], ids=["player", "game"])
@pytest.mark.parametrize("name, words", UNSEEN_OR_LAYOUT, ids=[repr(n) for n, _ in UNSEEN_OR_LAYOUT])
def test_one_rule_refuses_unseen_names_and_layout_for_players_and_games(rule, name, words):
    with pytest.raises(InvalidInput) as caught:
        clean_name(name, rule)
    assert words in caught.value.message
    assert caught.value.message.startswith(rule.what) or "cannot be a player's name" in caught.value.message
    assert caught.value.hint


@pytest.mark.parametrize("rule", [PLAYER_NAME, GAME_NAME], ids=["player", "game"])
@pytest.mark.parametrize("name, kept", KEPT, ids=[repr(n) for n, _ in KEPT])
def test_real_names_are_kept(rule, name, kept):
    assert clean_name(name, rule) == kept


def test_lengths_and_reserved_words_differ_by_name():
    assert clean_name("x" * 100, GAME_NAME) == "x" * 100
    with pytest.raises(InvalidInput, match="a name has at most 32 characters"):
        clean_name("x" * 33, PLAYER_NAME)
    with pytest.raises(InvalidInput, match="a game's name has at most 100 characters"):
        clean_name("x" * 101, GAME_NAME)
    assert clean_name("Everyone", GAME_NAME) == "Everyone"
    with pytest.raises(InvalidInput, match="cannot be a player's name"):
        clean_name("Everyone", PLAYER_NAME)


# ---------------------------------------------------------------------------------------------- the use cases
SOME_BAD = [("\u3164", "prints as nothing"), ("- Ada", "list item"), ("1. Ada", "list item"),
            ("\u0301", "needs a letter"), ("\u202eAda", "cannot contain"), ("Ada``` @here", "cannot contain")]


@pytest.mark.parametrize("name, words", SOME_BAD, ids=[repr(n) for n, _ in SOME_BAD])
async def test_joining_with_such_a_name_is_refused_and_changes_nothing(table, name, words):
    game = await table.new_game()
    await table.refused(table.service.join(game.id, user_id=4, name=name, colour="Purple"), InvalidInput,
                        "a name", words)


@pytest.mark.parametrize("name, words", SOME_BAD, ids=[repr(n) for n, _ in SOME_BAD])
async def test_a_game_with_such_a_name_is_refused_and_changes_nothing(table, name, words):
    await table.refused(table.service.create_game(guild_id=1, channel_id=20, actor=table.MODERATOR, name=name),
                        InvalidInput, "a game's name", words)
    game = await table.new_game(name="Friday night chess")
    await table.refused(table.service.configure(game.id, actor=table.MODERATOR, name=name), InvalidInput,
                        "a game's name", words)
    assert (await table.service.get_game(game.id)).name == "Friday night chess"


async def test_a_game_name_is_printed_as_cleaned(table):
    game = await table.new_game(name="  Friday   night  chess ")
    assert game.name == "Friday night chess"
    game = await table.service.configure(game.id, actor=table.MODERATOR, name="Ｓａｔｕｒｄａｙ")
    assert game.name == "Saturday"


@pytest.mark.parametrize("text, words", [
    ("\u200b", "must show something: this one holds only U+200B (zero width space), which prints as nothing"),
    (" \u200b\u200c\u200d\u2060\ufeff ", "U+200C (zero width non-joiner), U+200D (zero width joiner)"),
    ("\u3164\u2800", "U+2800 (braille pattern blank), U+3164 (hangul filler), which print as nothing"),
    ("Tea\x00break", "cannot contain U+0000 (null): a control character"),
    ("\x1b[31mred", "U+001B (escape)"),
    ("   ", "1 to 1,800 characters"),
    ("x" * 1801, "1 to 1,800 characters"),
])
def test_an_announcement_that_would_not_show_is_refused_in_words(text, words):
    """Issue 36: /mod announce's text is free (markup included), but the channel must see it."""
    with pytest.raises(InvalidInput) as refused:
        clean_announcement(text)
    assert words in refused.value.message


def test_an_announcement_keeps_its_markup_line_breaks_and_a_zero_width_space_among_words():
    text = "**Tea break** at five:\n- bring cups\t<@123> \u200b"
    assert clean_announcement(f"  {text}  ") == text
