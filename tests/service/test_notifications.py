"""Opt-in notifications in the service (issue 28): which posts ping the game's role, the players'
direct-message reminders, and schedules in a time zone."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from bot.service import InvalidInput, NotAllowed, Schedule, WrongTime
from bot.service.notifications import PING_KINDS

ALICE, BOB, CLEO = 1, 2, 3


async def test_only_a_new_board_and_the_reminder_ping_the_games_role(table):
    service = table.service
    game = await table.new_game()
    await service.keep_notification_role(game.id, 555)
    assert await service.notification_role(game.id) == 555
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)")
    table.clock.advance(minutes=1)
    assert await service.remind_if_due(game.id, 1)
    await table.resolve(game.id)
    pinging = {}
    for post in await table.posts(game.id):
        pinging.setdefault(await service.ping_role(post), set()).add(post.kind)
    assert pinging[555] == {"board", "reminder"} == set(PING_KINDS)
    assert {"announcement", "health_text", "report", "private_report"} <= pinging[None]
    private = [p for p in await table.posts(game.id) if p.recipient is not None]
    assert private and [await service.ping_role(p) for p in private] == [None] * len(private)


async def test_a_game_without_a_role_pings_nobody(table):
    game = await table.playing_game()
    posts = await table.posts(game.id)
    assert posts and [await table.service.ping_role(p) for p in posts] == [None] * len(posts)


async def test_a_role_id_must_be_an_id(table):
    game = await table.new_game()
    for bad in (0, -5, "555", 2**70, True):
        await table.refused(table.service.keep_notification_role(game.id, bad), InvalidInput, "is not a role id")


async def test_the_dm_reminder_goes_to_players_who_asked_and_have_not_ordered(table):
    service = table.service
    game = await table.new_game()
    for user_id in (ALICE, BOB):
        preferences = await service.set_dm_reminder(game.id, user_id=user_id, wanted=True)
        assert preferences.dm_reminder is True
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)")
    table.clock.advance(minutes=1)
    assert await service.remind_if_due(game.id, 1)
    reminders = [p for p in await table.posts(game.id) if p.kind == "reminder"]
    channel, *direct = reminders
    assert channel.recipient is None and channel.body.startswith("2 of 3 players have not moved for update 1: Bob, Cleo.")
    assert [p.recipient for p in direct] == [BOB]       # Alice ordered; Cleo did not ask
    assert direct[0].body == ("Reminder: you have not ordered for update 1 of **neisg game**. Orders close at "
                              "2026-11-22 13:00 UTC. Send your order with /move in the game's channel or here, "
                              "by direct message.")
    # sent once per deadline, like the channel's reminder
    assert not await service.remind_if_due(game.id, 1)
    assert len([p for p in await table.posts(game.id) if p.kind == "reminder"]) == 2


async def test_a_player_who_stops_asking_gets_no_dm_and_nobody_asking_changes_nothing(table):
    service = table.service
    game = await table.new_game()
    await service.set_dm_reminder(game.id, user_id=BOB, wanted=True)
    await service.set_dm_reminder(game.id, user_id=BOB, wanted=False)
    assert (await service.notification_preferences(game.id, user_id=BOB)).dm_reminder is False
    table.clock.advance(minutes=1)
    assert await service.remind_if_due(game.id, 1)
    assert [p.recipient for p in await table.posts(game.id) if p.kind == "reminder"] == [None]


async def test_the_dm_reminder_names_no_player_who_may_not_order_now(table, monkeypatch):
    service = table.service
    game = await table.new_game()
    for user_id in (ALICE, BOB, CLEO):
        await service.set_dm_reminder(game.id, user_id=user_id, wanted=True)
    variant_type = type(service.variant(game))
    monkeypatch.setattr(variant_type, "who_may_order", lambda self, state: ["Cleo"])
    table.clock.advance(minutes=1)
    assert await service.remind_if_due(game.id, 1)
    reminders = [p for p in await table.posts(game.id) if p.kind == "reminder"]
    assert reminders[0].body.startswith("1 of 1 players have not moved for update 1: Cleo.")
    assert [p.recipient for p in reminders[1:]] == [CLEO]


async def test_only_a_player_may_ask_for_a_dm_reminder(table):
    game = await table.new_game()
    await table.refused(table.service.set_dm_reminder(game.id, user_id=77, wanted=True), NotAllowed,
                        "you are not a player of game")
    await table.service.end_game(game.id, actor=table.MODERATOR)
    await table.refused(table.service.set_dm_reminder(game.id, user_id=ALICE, wanted=True), WrongTime, "has ended")
    preferences = await table.service.notification_preferences(game.id, user_id=77)
    assert preferences.dm_reminder is None and preferences.role is None


# ----------------------------------------------------------------------------- time zones
@pytest.mark.parametrize("text, zone", [("daily 18:00 Europe/Paris", "Europe/Paris"),
                                        ("every day at 7:05 america/new_york", "America/New_York"),
                                        ("daily 18:00 UTC", None), ("daily 18:00", None)])
def test_a_daily_schedule_reads_its_time_zone(text, zone):
    schedule = Schedule.parse(text)
    assert schedule.zone == zone and schedule.kind == "daily"
    assert Schedule.from_json(schedule.to_json()) == schedule
    assert schedule.describe().endswith(zone or "UTC")


@pytest.mark.parametrize("text, words", [
    ("daily 18:00 Europe/Pari", "unknown time zone 'Europe/Pari'"),
    ("daily 18:00 Mars/Olympus", "unknown time zone 'Mars/Olympus'"),
    ("daily 18:00 Eur\u00f6pe/Paris", "unknown time zone"),
    ("daily \u0661\u0668:00 Europe/Paris", "is not a schedule"),        # digits are 0-9 (P51)
    ("daily 18:00 ../../etc/passwd", "is not a schedule"),
])
def test_an_unknown_zone_is_refused_in_words(text, words):
    with pytest.raises(InvalidInput) as caught:
        Schedule.parse(text)
    assert words in caught.value.message
    assert "Europe/Paris" in caught.value.describe()


def test_deadlines_in_a_zone_are_utc_and_follow_daylight_saving_time():
    paris = Schedule.parse("daily 18:00 Europe/Paris")
    winter = paris.next_deadline(datetime(2026, 3, 28, 12, 0, tzinfo=timezone.utc))
    summer = paris.next_deadline(winter)
    assert winter == datetime(2026, 3, 28, 17, 0, tzinfo=timezone.utc) and winter.tzinfo is timezone.utc
    assert summer == datetime(2026, 3, 29, 16, 0, tzinfo=timezone.utc)
    autumn = paris.next_deadline(datetime(2026, 10, 25, 12, 0, tzinfo=timezone.utc))
    assert autumn == datetime(2026, 10, 25, 17, 0, tzinfo=timezone.utc)
    assert summer - winter == timedelta(hours=23)


async def test_a_game_runs_on_its_zones_schedule_and_a_bad_zone_changes_nothing(table):
    service = table.service
    await table.refused(service.create_game(guild_id=1, channel_id=30, actor=table.MODERATOR,
                                            schedule="daily 18:00 Europe/Pari"), InvalidInput, "unknown time zone")
    game = await table.new_game(schedule="daily 18:00 Asia/Tokyo")
    assert game.deadline_at == datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc)      # 18:00 in Tokyo (UTC+9)
    await table.refused(service.configure(game.id, actor=table.MODERATOR, schedule="daily 18:00 Nowhere"),
                        InvalidInput, "unknown time zone 'Nowhere'")
    game = await service.configure(game.id, actor=table.MODERATOR, schedule="daily 18:00 Europe/Paris")
    assert service.schedule(game).describe() == "every day at 18:00 Europe/Paris"
    result = await table.resolve(game.id)          # the new schedule takes effect from the next deadline
    assert result.resolved
    assert (await service.get_game(game.id)).deadline_at == datetime(2026, 11, 23, 17, 0, tzinfo=timezone.utc)
