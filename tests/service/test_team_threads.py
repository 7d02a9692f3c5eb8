"""Team threads (issue 22 item 7): the service keeps each team's roster from the position and the
players' rows, and puts a ``team_threads`` post in the outbox whenever it changes, saying how.

Megachess with the table's usual players, kings 10 squares apart (D62 asks 8): Alice's king on
(0,0) joins alabaster (the teams are even, ties go to alabaster), Bob's on (10,0) brushed metal (now
the smaller), Cleo's on (0,10) alabaster (even again)."""

from __future__ import annotations

from bot.engine.state import GameState
from bot.service.teams import roster_of

ALICE, BOB, CLEO = 1, 2, 3


async def megachess(table):
    return await table.playing_game(ruleset="megachess")


async def team_posts(table, game_id: int) -> list[str]:
    return [post.body for post in await table.posts(game_id) if post.kind == "team_threads"]


async def test_joins_settled_at_the_update_put_their_players_on_the_team_rosters(table):
    game = await megachess(table)
    assert await team_posts(table, game.id) == [
        "Team threads: Alice joins alabaster; Bob joins brushed metal; Cleo joins alabaster."]
    threads = await table.service.team_threads(game.id)
    assert [(t.team, t.thread_id, t.members) for t in threads.teams] == [
        ("alabaster", None, ((ALICE, "Alice"), (CLEO, "Cleo"))), ("brushed metal", None, ((BOB, "Bob"),))]
    assert threads.players == {ALICE, BOB, CLEO}
    # the next update changes nothing: no post
    await table.resolve(game.id)
    assert len(await team_posts(table, game.id)) == 1
    await table.service.keep_team_thread(game.id, "alabaster", 555)
    assert [t.thread_id for t in (await table.service.team_threads(game.id)).teams] == [555, None]


async def test_a_player_who_leaves_changes_team_or_is_replaced_leaves_the_roster(table):
    game = await megachess(table)
    await table.service.kick(game.id, actor=table.MODERATOR, user_id=CLEO, reason="away")
    assert (await team_posts(table, game.id))[-1] == "Team threads: Cleo leaves alabaster."

    def to_alabaster(ruleset, state: GameState):
        state.players["Bob"].team = "alabaster"
        return "Bob plays for alabaster", {}

    await table.service._edit(game.id, table.MODERATOR, "balance", to_alabaster)
    assert (await team_posts(table, game.id))[-1] == "Team threads: Bob moves from brushed metal to alabaster."
    await table.service.substitute(game.id, actor=table.MODERATOR, player="Alice", user_id=7)
    assert (await team_posts(table, game.id))[-1] == "Team threads: Alice's seat on alabaster passes to another member."
    threads = await table.service.team_threads(game.id)
    assert [(t.team, t.member_ids) for t in threads.teams] == [("alabaster", {7, BOB}), ("brushed metal", set())]
    assert threads.players == {ALICE, BOB, CLEO, 7}       # Alice and Cleo's members are taken out of the thread
    # an undo puts Bob back on brushed metal
    await table.service.undo_edit(game.id, actor=table.MODERATOR)
    assert (await team_posts(table, game.id))[-1] == "Team threads: Bob moves from alabaster to brushed metal."


async def test_a_rollback_to_before_the_joins_empties_the_rosters(table):
    game = await megachess(table)
    await table.resolve(game.id)
    await table.service.rollback(game.id, to_update=0, actor=table.MODERATOR)
    assert (await team_posts(table, game.id))[-1] == ("Team threads: Alice leaves alabaster; Bob leaves brushed metal; "
                                                      "Cleo leaves alabaster.")


async def test_games_without_teams_post_nothing_and_roster_of_reads_only_active_players(table):
    game = await table.playing_game()
    await table.resolve(game.id)
    assert await team_posts(table, game.id) == []
    state = (await table.service.history(game.id, 1)).state
    rows = await table.service.players(game.id)
    assert roster_of(state, rows) == {}
    state.players["Alice"].team, state.players["Bob"].team = "red", "blue"
    state.players["Bob"].status = "eliminated"          # a megachess player whose king was taken (D61)
    assert roster_of(state, rows) == {ALICE: "red"}


async def test_the_file_publisher_writes_the_team_post_as_a_message_of_its_own(table, tmp_path):
    from bot.service import FilePublisher, OutboxRelay

    game = await megachess(table)
    await OutboxRelay(table.service, FilePublisher(tmp_path / "posts")).deliver_due()
    [written] = sorted((tmp_path / "posts" / "0001").glob("team_threads-*.md"))
    assert written.read_text(encoding="utf-8").startswith("Team threads: Alice joins alabaster")


async def test_the_standings_post_of_a_game_of_teams_ends_with_each_teams_total(table):
    game = await megachess(table)
    [text] = [post.body for post in await table.posts(game.id) if post.kind == "health_text"]
    # each count agrees with its noun (issue 39): the team line is the render's words
    # (bot/render/scene/health.team_words), "1 point · 1 player"
    assert text.split("\n") == ["1. Alice (Red, alabaster): 1 point", "2. Bob (Blue, brushed metal): 1 point",
                                "3. Cleo (Green, alabaster): 1 point", "alabaster: 2 points · 2 players",
                                "brushed metal: 1 point · 1 player"]
