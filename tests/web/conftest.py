"""Fixtures of the viewer's tests: the played game of :mod:`viewer_game`, built once per module."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from viewer_game import build_viewer_db  # noqa: E402  (tests/web is not a package)

from bot.service import Service  # noqa: E402
from bot.store import Store  # noqa: E402


@pytest.fixture(scope="module")
def viewer_db(tmp_path_factory):
    """(path of the database, the game's id)."""
    path = tmp_path_factory.mktemp("viewer") / "skirmish.sqlite3"
    return path, build_viewer_db(path)


@pytest.fixture
async def viewer_service(viewer_db):
    store = await Store.open(viewer_db[0])
    try:
        yield Service(store)
    finally:
        await store.close()
