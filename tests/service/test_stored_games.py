"""Stored games keep working (issue 20): a game stored when states were format version 1 resumes
under this code, its old updates replay the same, and its open update resolves as the old release
resolved it (tests/fixtures/make_stored_v1_game.py made both files with that release)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bot.engine import serialize
from bot.service import Service
from bot.store import Store

from .conftest import Clock

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture
async def stored(tmp_path):
    path = tmp_path / "skirmish.sqlite3"
    shutil.copy(FIXTURES / "stored-v1-game.sqlite3", path)
    store = await Store.open(path)            # the schema's own migrations run here
    try:
        yield Service(store, clock=Clock())
    finally:
        await store.close()


def test_the_fixture_holds_version_1_states():
    import sqlite3

    connection = sqlite3.connect(FIXTURES / "stored-v1-game.sqlite3")
    try:
        versions = {json.loads(state)["version"] for (state,) in connection.execute("SELECT state FROM snapshots")}
    finally:
        connection.close()
    assert versions == {1} and serialize.STATE_VERSION == 2


async def test_a_game_stored_before_seats_resumes_and_resolves_the_same(stored):
    expected = json.loads((FIXTURES / "stored-v1-game.expected.json").read_text())
    game = await stored.get_game(expected["game_id"])
    assert (game.status, game.update_no) == ("running", 3)
    assert await stored.replay(game.id, 1) and await stored.replay(game.id, 2)
    status = await stored.order_status(game.id)
    assert status.ordered == ("Alice", "Bob", "Cleo") and status.waiting == ()
    result = await stored.resolve_if_due(game.id, 3, force=True)
    assert result.resolved
    after = (await stored.history(game.id, 3)).state
    assert after.seats == ()
    assert serialize.state_to_json(after) == serialize.migrate(expected["state"])
    assert result.report.to_json() == expected["report"]
    # and it goes on: the next update takes orders and resolves
    await stored.submit_order(game.id, user_id=1, text="K(1,1)-(1,2)")
    assert (await stored.resolve_if_due(game.id, 4, force=True)).resolved


def test_a_version_1_state_gains_empty_seats():
    raw = json.loads((FIXTURES / "stored-v1-game.expected.json").read_text())["state"]
    assert raw["version"] == 1 and "seats" not in raw
    state = serialize.state_from_json(raw)
    assert state.seats == () and serialize.state_to_json(state)["version"] == 2


@pytest.mark.parametrize("version, words", [(3, "version 3 is not supported"), (None, "version None"),
                                            ("1", "version '1'"), (0, "version 0")])
def test_an_unknown_state_version_is_refused_not_misread(version, words):
    raw = json.loads((FIXTURES / "stored-v1-game.expected.json").read_text())["state"]
    raw["version"] = version
    with pytest.raises(serialize.StateFormatError, match=words):
        serialize.state_from_json(raw)
    assert "versions 1 to 2" in str(pytest.raises(serialize.StateFormatError, serialize.state_from_json, raw).value)
