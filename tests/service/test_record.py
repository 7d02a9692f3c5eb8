"""A game record anyone can re-check (issue 29): /game export and python -m bot replay."""

from __future__ import annotations

import copy
import json

import pytest

from bot.__main__ import main
from bot.service import NotAllowed, WrongTime
from bot.service.record import RECORD_FORMAT, RecordError, replay_record

from .conftest import MODERATOR

ALICE, BOB, CLEO = 1, 2, 3


async def _played(table):
    """A neisg game: kings placed (update 1), a secret order and a capture attempt (update 2), a
    moderator's edit, then update 3; update 4 is open with a pending order."""
    game = await table.playing_game()
    service = table.service
    await service.submit_order(game.id, user_id=ALICE, text="+N(2,-1)", source="dm")
    await service.submit_order(game.id, user_id=BOB, text="K(10,0)-(9,0)")
    assert (await table.resolve(game.id)).resolved
    await service.set_balance(game.id, actor=MODERATOR, player="Cleo", amount="15")
    await service.submit_order(game.id, user_id=CLEO, text="K(0,10)-(0,9)")
    assert (await table.resolve(game.id)).resolved
    await service.submit_order(game.id, user_id=ALICE, text="K(0,0)-(1,0)")     # update 4, not resolved
    return await service.get_game(game.id)


async def _record(table, game):
    _, data = await table.service.export_record(game.id, actor=MODERATOR)
    return json.loads(data)


async def test_the_record_holds_every_update_its_orders_and_the_edit_as_what_it_is(table):
    game = await _played(table)
    record = await _record(table, game)
    assert record["format"] == RECORD_FORMAT and record["version"] == 1
    assert record["game"]["ruleset"] == "neisg" and record["game"]["seed"] == "7"
    kinds = [(e["kind"], e["update"], e["revision"]) for e in record["entries"]]
    assert kinds == [("start", 0, 0), ("update", 1, 0), ("update", 2, 0), ("edit", 2, 1), ("update", 3, 0)]
    update_2 = record["entries"][2]
    assert update_2["orders"] == {"Alice": "+N(2,-1)", "Bob": "K(10,0)-(9,0)"}      # the secret one, resolved
    assert record["entries"][3]["reason"].startswith("edit")
    assert all("K(0,0)-(1,0)" not in json.dumps(e) for e in record["entries"])   # the open update is not in it
    assert [a["action"] for a in record["moderation"]][-1] == "balance"
    posted = [p for p in await table.posts(game.id) if p.kind == "record"]
    assert len(posted) == 1 and posted[0].filename == f"game-{game.id}-record.json"
    assert "python -m bot replay" in posted[0].body


async def test_every_update_of_an_exported_game_replays_the_same(table):
    record = await _record(table, await _played(table))
    checks = replay_record(record)
    assert [(c.update, c.matches) for c in checks] == [(1, True), (2, True), (3, True)]


async def test_a_record_edited_by_hand_is_caught_at_the_first_difference(table):
    record = await _record(table, await _played(table))
    changed_order = copy.deepcopy(record)
    changed_order["entries"][2]["orders"]["Bob"] = "K(10,0)-(11,0)"
    checks = replay_record(changed_order)
    assert [c.matches for c in checks] == [True, False, True]     # the next update starts from the record's
    # the order that differs is named, not its consequence in the position (issue 37)
    assert checks[1].difference == ("the order of Bob: the record's report says K(10,0)-(9,0) (played), the "
                                    "replay of the record's orders gives K(10,0)-(11,0) (played)")
    changed_after = copy.deepcopy(record)
    changed_after["entries"][1]["after"]["players"][0]["balance"] = 99        # Alice's health after update 1
    checks = replay_record(changed_after)
    assert not checks[0].matches and "balance" in checks[0].difference
    assert not checks[1].matches and "starting position" in checks[1].difference    # the chain breaks too


async def test_a_rollback_appears_as_what_it_is_and_still_replays(table):
    game = await _played(table)
    await table.service.rollback(game.id, to_update=2, actor=MODERATOR)
    record = await _record(table, game)
    rolled = [(e["kind"], e["update"]) for e in record["entries"] if e["rolled_back"]]
    assert rolled == [("update", 3)]
    assert "rollback" in [a["action"] for a in record["moderation"]]
    assert all(c.matches for c in replay_record(record))


async def test_only_a_moderator_exports_and_only_a_started_game(table):
    game = await table.service.create_game(guild_id=1, channel_id=10, actor=MODERATOR)
    await table.refused(table.service.export_record(game.id, actor=MODERATOR), WrongTime, "has not started yet")
    await table.refused(table.service.export_record(game.id, actor=ALICE), NotAllowed, "only a moderator")


@pytest.mark.parametrize("broken, words", [
    ({"format": "something else"}, "not a Skirmish game record"),
    ({"format": RECORD_FORMAT, "version": 7, "entries": []}, "record version 7 is not supported"),
    ({"format": RECORD_FORMAT, "version": 1, "entries": [], "game": {"ruleset": "chess960"}}, "cannot be loaded"),
    ({"format": RECORD_FORMAT, "version": 1, "entries": [{"kind": "update"}], "game": {"ruleset": "neisg"}},
     "entry 1 cannot be read"),
])
def test_a_file_that_is_not_a_record_is_refused_in_words(broken, words):
    with pytest.raises(RecordError, match=words):
        replay_record(broken)


async def test_the_replay_command_says_update_by_update_and_exits_by_the_result(table, tmp_path, capsys):
    record = await _record(table, await _played(table))
    good = tmp_path / "record.json"
    good.write_text(json.dumps(record))
    assert main(["replay", str(good)]) == 0
    out = capsys.readouterr().out
    assert "update 1: matches" in out and "3 of 3 updates of game 1 (neisg) match" in out
    record["entries"][4]["orders"]["Cleo"] = "K(0,10)-(1,10)"
    bad = tmp_path / "edited.json"
    bad.write_text(json.dumps(record))
    assert main(["replay", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "update 3: DIFFERS" in out and "the first that differs is update 3" in out
    (tmp_path / "junk.json").write_text("not json")
    assert main(["replay", str(tmp_path / "junk.json")]) == 2
    assert "not a JSON game record" in capsys.readouterr().err


async def test_the_replay_shows_each_refused_order_with_its_reason(table, tmp_path, capsys):
    """Issue 36: a refused order is part of what happened. Bob's move was checked on the position
    before a moderator moved his king away, so the update refuses it (RULES 3.1); the replay says so."""
    game = await table.playing_game()
    await table.service.submit_order(game.id, user_id=BOB, text="K(10,0)-(11,0)")
    await table.service.move_piece(game.id, actor=MODERATOR, origin="(10,0)", target="(10,2)")
    assert (await table.resolve(game.id)).resolved
    record = await _record(table, game)
    checks = replay_record(record)
    assert [c.matches for c in checks] == [True, True]
    assert checks[0].refused == ()
    [refused] = checks[1].refused
    assert refused.startswith("Bob: K(10,0)-(11,0) -- ") and "(10,0)" in refused.split(" -- ", 1)[1]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = lines.index("update 2: matches")
    assert lines[at + 1] == f"  refused: {refused}"
