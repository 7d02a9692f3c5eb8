"""A schedule typed by a moderator is read or refused in words, never crashes (issue 19 item 9).

Python's ``int()`` refuses numbers of more than 4,300 digits with a ValueError; a schedule of
5,000 digits is refused as any interval out of range is, and the refusal changes nothing.
"""

from __future__ import annotations

import pytest

from bot.service import InvalidInput, Schedule

HUGE = "every " + "9" * 5000 + " minutes"


@pytest.mark.parametrize("text, words", [
    (HUGE, "an interval must be from 10 seconds to 30 days, not 'every 999"),
    ("every 1" + "0" * 5000 + " seconds", "from 10 seconds to 30 days"),
    ("every 721 hours", "from 10 seconds to 30 days, not 'every 721 hours'"),
    ("daily " + "1" * 5000 + ":00", "is not a schedule"),
    ("every \u0663\u0660 minutes", "is not a schedule"),       # digits are 0-9 (P51)
    ("every \u00b3\u2070 minutes", "is not a schedule"),
])
def test_a_schedule_out_of_range_or_not_in_digits_is_refused_in_words(text, words):
    with pytest.raises(InvalidInput) as caught:
        Schedule.parse(text)
    assert words in caught.value.message
    assert len(caught.value.describe()) < 200


@pytest.mark.parametrize("text, seconds", [("every 000000000000000000000030 minutes", 1800),
                                           ("every 720 hours", 30 * 24 * 3600), ("every 10 s", 10)])
def test_leading_zeros_and_the_limits_are_read(text, seconds):
    assert Schedule.parse(text) == Schedule("interval", seconds=seconds)


async def test_creating_or_rescheduling_with_a_huge_number_changes_nothing(table):
    await table.refused(table.service.create_game(guild_id=1, channel_id=20, actor=table.MODERATOR, schedule=HUGE),
                        InvalidInput, "from 10 seconds to 30 days")
    game = await table.new_game()
    await table.refused(table.service.configure(game.id, actor=table.MODERATOR, schedule=HUGE), InvalidInput,
                        "from 10 seconds to 30 days")
    assert table.service.schedule(await table.service.get_game(game.id)) == Schedule("interval", seconds=3600)
