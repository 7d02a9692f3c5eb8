"""The service's reads for the viewer (bot/service/viewer.py): revisions, and one load per update."""

from __future__ import annotations

import asyncio
import shutil

from bot.service import Moderator, Service
from bot.store import Store

MODERATOR = Moderator(user_id=99, guild_id=1)


async def test_a_moderators_edit_is_shown_as_its_new_revision_and_the_old_one_stays(viewer_db, tmp_path):
    path = tmp_path / "edited.sqlite3"
    shutil.copy(viewer_db[0], path)
    _, game_id = viewer_db
    store = await Store.open(path)
    try:
        service = Service(store)
        before = await service.viewed_update(game_id)
        assert before.update == 3 and not before.state.board.at((5, 5))
        await service.place_piece(game_id, actor=MODERATOR, kind="Q", square="(5,5)", owner="Ada")
        after = await service.viewed_update(game_id)
        assert (after.update, after.revision) == (3, before.revision + 1)
        assert [p.kind for p in after.state.board.at((5, 5))] == ["Q"]
        square = await service.viewer_square(game_id, 3, 5, 5)
        assert square["pieces"][0]["kind"] == "Queen" and square["pieces"][0]["destinations"]
        old = await service.viewed_update(game_id, 3, before.revision)      # its tiles' address still answers
        assert not old.state.board.at((5, 5))
    finally:
        await store.close()


async def test_viewers_asking_at_once_load_an_update_once(viewer_service, viewer_db, monkeypatch):
    _, game_id = viewer_db
    from bot.engine import serialize

    loads = []
    real = serialize.loads
    monkeypatch.setattr(serialize, "loads", lambda text: loads.append(1) or real(text))
    answers = await asyncio.gather(*(viewer_service.viewed_update(game_id, 2) for _ in range(20)))
    assert len(loads) == 1 and all(answer is answers[0] for answer in answers)
