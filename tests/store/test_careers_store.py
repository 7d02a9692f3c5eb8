"""Issue 42 on both back ends: migration 0013 (game_results, profiles) brings an older database up
to date, and the games that ended before it are rated the first time ratings are read."""

from __future__ import annotations

from bot.service import Service
from bot.store import SCHEMA_VERSION, Store
from bot.store.database import migrations

from tests.service.conftest import Clock, Table
from tests.service.test_careers import ALICE, BOB, CLEO, play, ranked  # noqa: F401  (ranked: a fixture)

from .test_store import Database


async def test_a_database_from_before_the_migration_is_upgraded_and_its_ended_games_rated(ranked, store_url):
    [version] = [number for number, name, _ in migrations() if name == "0013_careers.sql"]
    store = await Store.open(store_url)
    try:
        table = Table(None, store, Clock())
        await play(table, {ALICE: 30, BOB: 20, CLEO: 10})
        await play(table, {ALICE: 10, BOB: 30, CLEO: 20}, channel_id=11)
        expected = await table.service.ratings()
    finally:
        await store.close()
    database = Database(store_url)
    # the database as it was before issue 42: without its tables nor those of the migrations after
    # it (issue 41's web links), the version before it
    later = ["DROP TABLE web_links", "DROP TABLE web_secret"]
    if database.backend == "sqlite":
        database.script(later + ["DROP TABLE game_results", "DROP TABLE profiles", f"PRAGMA user_version = {version - 1}"])
    else:
        database.script(later + ["DROP TABLE game_results", "DROP TABLE profiles",
                                 f"DELETE FROM skirmish_schema WHERE version >= {version}"])
    assert "game_results" not in database.tables() and database.version() == version - 1

    store = await Store.open(store_url)
    try:
        assert database.version() == SCHEMA_VERSION and {"game_results", "profiles"} <= database.tables()
        assert database.query("SELECT COUNT(*) FROM game_results") == [(0,)]
        service = Service(store)
        assert await service.ratings() == expected                 # worked out from the stored games
        assert database.query("SELECT game_id, rated FROM game_results ORDER BY game_id") == [(1, 1), (2, 1)]
        await service.set_profile_hidden(1, BOB, True)
        board = await service.leaderboard(1)
        assert {s.rating.user_id for s in board.provisional} == {ALICE, CLEO}
    finally:
        await store.close()
