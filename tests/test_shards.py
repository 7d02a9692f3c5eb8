"""Which process owns a game (issue 26 item 3, docs/sharding.md): Discord's shard rule, the
``--shards A-B --shard-count N`` values, and the SQL filter the store runs on both back ends."""

from __future__ import annotations

import sqlite3

import discord
import pytest

from bot.shards import Shards, ShardError, parse_shards, shard_of
from bot.store.queries import _owned

#: ids of real public servers, with their snowflake's milliseconds since 2015 (``id >> 22``) and
#: their shard of 8 (those milliseconds modulo 8)
REAL_GUILDS = {
    81384788765712384: (19403645698, 2),
    613425648685547541: (146252071544, 0),
    197038439483310086: (46977624770, 2),
}


@pytest.mark.parametrize("guild_id", sorted(REAL_GUILDS))
def test_a_server_lands_on_the_shard_discord_sends_its_events_to(guild_id):
    milliseconds, shard = REAL_GUILDS[guild_id]
    created = discord.utils.snowflake_time(guild_id)        # the same bits, read by discord.py
    assert round(created.timestamp() * 1000) - discord.utils.DISCORD_EPOCH == milliseconds
    assert shard_of(guild_id, 8) == shard
    mine = Shards((shard,), 8)
    assert mine.owns(guild_id)
    assert not any(Shards((other,), 8).owns(guild_id) for other in range(8) if other != shard)


def test_every_server_has_exactly_one_owner_among_the_processes():
    processes = [Shards.span(0, 2, 8), Shards.span(3, 3, 8), Shards.span(4, 7, 8)]
    for guild_id in [*REAL_GUILDS, *(((n * 7919) << 22) | 4095 for n in range(200))]:
        assert sum(process.owns(guild_id) for process in processes) == 1


def test_direct_messages_reach_the_process_with_shard_zero_only():
    assert Shards.span(0, 3, 8).direct_messages
    assert not Shards.span(4, 7, 8).direct_messages
    assert Shards.whole().direct_messages


def test_one_process_without_shards_owns_every_game():
    whole = Shards.whole()
    assert whole.everything and all(whole.owns(guild_id) for guild_id in [1, 2**62, *REAL_GUILDS])
    assert _owned(whole) == ("", [])          # nothing to filter: the queries stay as they were
    assert Shards.span(0, 7, 8).everything and _owned(Shards.span(0, 7, 8)) == ("", [])


@pytest.mark.parametrize("shards, count, ids", [
    ("0-3", 8, (0, 1, 2, 3)), ("4-7", 8, (4, 5, 6, 7)), ("3", 8, (3,)), ("0", 1, (0,)), (" 2 - 5 ", 6, (2, 3, 4, 5)),
    (None, None, (0,)),
])
def test_the_shards_a_process_runs(shards, count, ids):
    parsed = parse_shards(shards, count)
    assert parsed.ids == ids and parsed.count == (count or 1)


@pytest.mark.parametrize("shards, count, words", [
    ("3-1", 8, "ends before it starts"),
    ("0-8", 8, "numbered 0 to 7"),
    ("8", 8, "numbered 0 to 7"),
    ("0-3", None, "--shards needs --shard-count"),
    (None, 8, "--shard-count needs --shards"),
    ("0-0", 0, "--shard-count must be 1 or more"),
    ("0", -2, "--shard-count must be 1 or more"),
    ("a-b", 8, "must be a whole number"),
    ("-1", 8, "must be a whole number"),
    ("1,2", 8, "not a list"),
    ("", 8, "must be a whole number"),
])
def test_impossible_shards_are_refused_saying_why(shards, count, words):
    with pytest.raises(ShardError, match=words):
        parse_shards(shards, count)


def test_the_value_refuses_shards_that_cannot_be():
    for ids, count in [((), 4), ((4,), 4), ((2, 1), 4), ((1, 1), 4), ((0,), 0)]:
        with pytest.raises(ShardError):
            Shards(ids, count)


def test_the_text_names_the_shards():
    assert Shards.span(0, 3, 8).text() == "shards 0-3 of 8"
    assert Shards((3,), 8).text() == "shard 3 of 8"
    assert Shards.whole().text() == "all servers"


def test_the_sql_condition_picks_the_same_servers_as_the_rule():
    """The condition the store adds to its queries, run by SQLite on real and made-up ids (the same
    text runs on PostgreSQL: tests/test_sharded_processes.py)."""
    guilds = [*REAL_GUILDS, *(((n * 104729) << 22) | n for n in range(300)), 2**63 - 1]
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, guild_id INTEGER NOT NULL)")
    connection.executemany("INSERT INTO games (guild_id) VALUES (?)", [(g,) for g in guilds])
    for shards in (Shards.span(0, 1, 4), Shards((2,), 4), Shards.span(3, 6, 7)):
        condition, values = _owned(shards)
        picked = {row[0] for row in connection.execute(f"SELECT guild_id FROM games WHERE {condition}", values)}
        assert picked == {g for g in guilds if shards.owns(g)}
        assert picked and picked != set(guilds)
