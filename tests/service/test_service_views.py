"""What players and moderators look at (boards, health board, their own view, who has ordered) and
a game's configuration. Views read only: each view test checks the database did not change."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from PIL import Image

from bot.service import Moderator, InvalidInput, NotAllowed, NotFound, WrongTime

MOD = Moderator(user_id=99, guild_id=1)     # a moderator of the tests' server
ALICE, BOB, CLEO = 1, 2, 3



#: the text standings' first line: it names the score (issue 27 item 5)
HEADING = "Rank. Player (colour): score --- Health (score: the cost of the player's pieces on the board, king 0)"


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


async def test_views_show_the_board_without_changing_anything(table):
    service = table.service
    game = await table.playing_game()
    await service.submit_order(game.id, user_id=BOB, text="K(10,0)-(10,1)", source="dm")
    before = table.dump()

    whole = await service.board_picture(game.id)
    assert whole.png.startswith(b"\x89PNG") and whole.caption == f"{game.name}: the board for update 2"
    near = await service.board_picture(game.id, center="(0,0)", radius=2)
    far = await service.board_picture(game.id, center="(0,0)", radius=6)
    assert size(near.png)[0] < size(far.png)[0]                     # 5 squares a side, not 13
    king = await service.board_picture(game.id, piece="(0,0)", user_id=ALICE)
    assert king.caption == f"{game.name}: the King on (0,0) can move to 8 squares (framed)"

    lines, picture = await service.health_board(game.id)
    assert lines == [HEADING, "1. Alice (Red): 0 --- Health: 11 💖", "2. Bob (Blue): 0 --- Health: 11 💖",
                     "3. Cleo (Green): 0 --- Health: 11 💖"]
    assert picture.png.startswith(b"\x89PNG")
    sheet = await service.piece_sheet(game.id)
    assert sheet.png.startswith(b"\x89PNG") and "Never-Ending Infinite Sandbox Game" in sheet.caption

    status = await service.order_status(game.id)
    assert (status.ordered, status.waiting) == (("Bob",), ("Alice", "Cleo"))
    assert status.text().splitlines() == [f"Update 2 of {game.name}: 1 of 3 players have ordered.",
                                          "Not yet: Alice, Cleo", f"Deadline: {game.deadline_at:%Y-%m-%d %H:%M} UTC"]
    mine = await service.player_view(game.id, user_id=BOB)
    assert (mine.name, mine.colour, mine.balance, mine.pieces, mine.has_king) == ("Bob", "Blue", "11", 1, True)
    assert (mine.order, mine.order_secret) == ("K(10,0)-(10,1)", True)
    assert mine.last_report == "Update 1 (your report, Bob)\n- You placed a king on (10,0).\n- You: +1 health (regeneration)."
    other = await service.player_view(game.id, user_id=ALICE)
    assert other.order is None                                      # nobody sees another's order
    assert table.dump() == before


@pytest.mark.parametrize("arguments, error_type, words", [
    ({"radius": 0}, InvalidInput, ["the radius is 1 to 60 squares, not 0"]),
    ({"radius": 10**100}, InvalidInput, ["the radius is 1 to 60 squares"]),
    ({"center": f"({10**100},0)"}, InvalidInput, ["is not a square"]),
    ({"center": "(5000000,0)"}, InvalidInput, ["off the board", "(D1)"]),
    ({"piece": "(7,7)"}, NotFound, ["there is no piece on (7,7)"]),
    ({"piece": "x" * 100_000}, InvalidInput, ["is not a square"]),
])
async def test_a_bad_board_request_is_refused(table, arguments, error_type, words):
    game = await table.playing_game()
    await table.refused(table.service.board_picture(game.id, **arguments), error_type, *words)


async def test_views_of_unknown_games_and_strangers_are_refused(table):
    game = await table.playing_game()
    await table.refused(table.service.board_picture(999), NotFound, "there is no game 999")
    await table.refused(table.service.order_status(999), NotFound, "there is no game 999")
    await table.refused(table.service.player_view(game.id, user_id=42), NotAllowed, "you are not a player")
    await table.refused(table.service.my_order(game.id, user_id=42), NotAllowed, "you are not a player")
    unstarted = await table.service.create_game(guild_id=1, channel_id=20, actor=MOD)
    await table.refused(table.service.board_picture(unstarted.id), WrongTime, "has not started yet")


# ---------------------------------------------------------------------------------------------- configure
async def test_a_schedule_set_on_a_manual_game_starts_its_deadlines(table):
    service = table.service
    game = await table.playing_game(schedule="manual")
    assert game.deadline_at is None
    changed = await service.configure(game.id, actor=MOD, schedule="every 30 minutes", name="Blitz")
    assert changed.name == "Blitz" and changed.deadline_at == table.clock.now + timedelta(minutes=30)
    assert (await service.audit_log(game.id))[-1].detail == {"schedule": "every 30 minutes", "name": "Blitz"}
    table.clock.past(changed.deadline_at)
    assert (await service.resolve_if_due(game.id, 2)).resolved
    daily = await service.configure(game.id, actor=MOD, schedule="daily 18:00")
    assert daily.schedule == {"kind": "daily", "at": "18:00"}
    manual = await service.configure(game.id, actor=MOD, schedule="manual")
    assert manual.deadline_at is None and manual.lock_at is None


async def test_configure_refuses_nonsense_and_changes_nothing(table):
    service = table.service
    game = await table.playing_game()
    await table.refused(service.configure(game.id, actor=MOD), InvalidInput, "nothing to change")
    await table.refused(service.configure(game.id, actor=MOD, settings={"lock_before": -5}), InvalidInput,
                  "lock_before must be a number of minutes from 0 to 10,080")
    await table.refused(service.configure(game.id, actor=MOD, schedule="daily 25:00"), InvalidInput,
                  "is not a time of day")
    await table.refused(service.configure(game.id, actor=MOD, name=" "), InvalidInput, "cannot be empty")
    await service.end_game(game.id, actor=MOD)
    await table.refused(service.configure(game.id, actor=MOD, name="Again"), WrongTime, "has ended")


# ---------------------------------------------------------------------------------------------- framing (issue 27 item 3)
FAR_APART = [(ALICE, "Alice", "Red", (0, 0)), (BOB, "Bob", "Blue", (120, 0)), (CLEO, "Cleo", "Green", (0, 90))]


async def test_a_players_board_shows_the_area_around_their_own_army(table):
    service = table.service
    game = await table.playing_game(players=FAR_APART)
    before = table.dump()
    mine = await service.board_picture(game.id, user_id=ALICE)
    assert mine.caption == (f"{game.name}: the board for update 2, around your army (Alice's pieces); "
                            "zoom:all shows the whole board")
    whole = await service.board_picture(game.id)                       # no player asking: the whole board
    assert whole.caption == f"{game.name}: the board for update 2"
    assert size(mine.png)[0] < size(whole.png)[0]
    asked = await service.board_picture(game.id, user_id=ALICE, focus="all")
    assert asked.png == whole.png and "around your army" not in asked.caption
    stranger = await service.board_picture(game.id, user_id=42)
    assert stranger.png == whole.png
    assert table.dump() == before


async def test_a_viewport_the_picture_names_is_accepted_as_zoom_or_centre(table):
    """The overview says "ask for a viewport such as A1"; /board refused A1."""
    service = table.service
    game = await table.playing_game(players=FAR_APART)
    zoomed = await service.board_picture(game.id, focus="B1")
    assert zoomed.caption == f"{game.name}: the board for update 2, zoomed on viewport B1"
    centred = await service.board_picture(game.id, center="b1", user_id=ALICE)
    assert centred.png == zoomed.png
    await table.refused(service.board_picture(game.id, focus="D7"), InvalidInput,
                        "the board has no viewport D7: it names A1, B1, A2", "a viewport")
    # a chess square is not a viewport of this board: still "not a square"
    await table.refused(service.board_picture(game.id, center="e4"), InvalidInput, "'e4' is not a square")
