"""/profile and /leaderboard on Discord (issue 42): answered privately, about the server they are
used in, from the games that ended at their verdict (played by the service tests' ranked variant:
tests/service/test_careers.py)."""

from __future__ import annotations

import pytest

from bot.service import base as service_base
from bot.service import games as service_games
from bot.service.careers import PROVISIONAL_GAMES
from tests.service.test_careers import RankedVariant


@pytest.fixture(autouse=True)
def ranked(monkeypatch):
    made = {}

    def variant_for(ruleset):
        return made.setdefault(ruleset, RankedVariant(ruleset))

    monkeypatch.setattr(service_base, "variant_for", variant_for)
    monkeypatch.setattr(service_games, "variant_for", variant_for)


KINGS = ("K(0,0)", "K(10,0)", "K(0,10)")


async def play(world, health: dict):
    """One game to its verdict in the world's channel: kings placed, then each member's health set."""
    service, moderator = world.service, world.moderator
    game = await service.create_game(guild_id=world.guild.id, channel_id=world.channel.id, actor=moderator, seed=7)
    for (member, _), colour in zip(health.items(), ("Red", "Blue", "Green")):
        await world.join(game, member, colour)
    await service.start_game(game.id, actor=moderator)
    for member, king in zip(health, KINGS):
        await service.submit_order(game.id, user_id=member.id, text=king)
    assert not (await world.resolve(game)).ended
    for member, amount in health.items():
        await service.set_balance(game.id, actor=moderator, player=member.name, amount=amount)
    assert (await world.resolve(game)).ended
    return game


async def test_the_leaderboard_lists_the_counted_members_the_provisional_ones_and_your_rank(world):
    for _ in range(PROVISIONAL_GAMES):
        await play(world, {world.alice: 30, world.bob: 20})
    await play(world, {world.alice: 30, world.cleo: 20})
    result = await world.bob.slash(world.lobby, "leaderboard")
    assert result.ephemeral and world.deferred_privately()
    text = result.response.content
    assert text.startswith("**Leaderboard: ranked** (2 members with 5 or more rated games)")
    assert f"\n1. <@{world.alice.id}> " in text and f"\n2. <@{world.bob.id}> " in text
    assert "; you are 2nd of 2." in text
    assert f"Provisional (fewer than 5 rated games): <@{world.cleo.id}>." in text
    assert world.public(world.lobby) == []
    assert [c["value"] for c in await world.bob.autocomplete(world.lobby, "leaderboard", "family", "ra")] == ["ranked"]
    assert await world.bob.autocomplete(world.lobby, "leaderboard", "family", "chess") == []
    refused = await world.bob.slash(world.lobby, "leaderboard", family="chess")
    assert "no 'chess' game of this server has been rated; the rated families are ranked" in refused.response.content


async def test_profile_hide_keeps_a_member_off_the_leaderboard_and_their_profile_says_so(world):
    for _ in range(PROVISIONAL_GAMES):
        await play(world, {world.alice: 30, world.bob: 20})
    hidden = await world.alice.slash(world.lobby, "profile", hide=True)
    assert hidden.ephemeral
    assert hidden.response.content.startswith("You are off this server's leaderboards now (still rated")
    assert "(hidden from the leaderboards" in hidden.response.content
    board = (await world.bob.slash(world.lobby, "leaderboard")).response.content
    assert f"<@{world.alice.id}>" not in board and f"2. <@{world.bob.id}>" in board
    own = (await world.alice.slash(world.lobby, "leaderboard")).response.content
    assert "you are 1st of 2 (hidden: only you see it)." in own
    other = await world.bob.slash(world.lobby, "profile", player=world.alice, hide=False)
    assert "only your own profile can be hidden or shown" in other.response.content
    assert f"<@{world.alice.id}>" not in (await world.cleo.slash(world.lobby, "leaderboard")).response.content
    looked = (await world.cleo.slash(world.lobby, "profile", player=world.alice)).response.content
    assert "Their ratings are private" in looked and "- ranked:" not in looked and ", 1st)" not in looked


async def test_a_profile_shows_ratings_with_their_uncertainty_and_the_recent_games(world):
    game = await play(world, {world.alice: 30, world.bob: 20})
    result = await world.cleo.slash(world.lobby, "profile", player=world.bob)
    text = result.response.content
    assert result.ephemeral and text.startswith(f"**Profile of <@{world.bob.id}>** on this server")
    assert "- ranked: " in text and " ± sigma " in text and "1 rated game, 0 won — provisional" in text
    recent = text.split("Recent games:\n", 1)[1]
    assert recent.startswith(f"- game {game.id} **{game.name}** (")
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}"
    assert recent.endswith(f", ended, 2nd): [channel]({link})")
    nobody = (await world.cleo.slash(world.lobby, "profile")).response.content
    assert "Not rated yet" in nobody


async def test_a_moderator_rolls_back_a_finished_game_by_its_number_and_it_leaves_the_leaderboard(world):
    from .test_moderation import Mods, confirmation

    mods = Mods(world, "referee")
    await world.env.settle()
    game = await play(world, {world.alice: 30, world.bob: 20})
    assert "**Leaderboard: ranked**" in (await world.bob.slash(world.lobby, "leaderboard")).response.content
    refused = await mods.admin.slash(world.channel, "mod rollback", update=1)      # the channel's game has ended
    assert "no game runs in this channel" in refused.response.content
    elsewhere = await mods.admin.slash(world.channel, "mod rollback", update=1, game=game.id + 1)
    assert f"there is no game {game.id + 1} on this server" in elsewhere.response.content
    asked = await confirmation(world, mods.admin, "mod rollback", update=1, game=game.id)
    assert "It ended; it runs again from there, and its result no longer counts in the ratings" in \
        asked.response.content
    done = await mods.admin.click(asked.response.message, label="Confirm")
    assert "back at the board after update 1; orders are open for update 2" in done.response.content
    assert (await world.service.get_game(game.id)).status == "running"
    gone = (await world.bob.slash(world.lobby, "leaderboard")).response.content
    assert "no game of this server has ended with a verdict yet" in gone


async def test_with_a_public_url_a_profile_links_each_recent_game_to_the_viewer(world, monkeypatch):
    from types import SimpleNamespace

    from cogs.careers import CareersCog

    # the address is the configuration's [web] public_url (config.web.public_url), where it has one
    cog = CareersCog(SimpleNamespace(config=SimpleNamespace(web=SimpleNamespace(public_url="https://x.example"))))
    assert cog._public_url() == "https://x.example"
    assert CareersCog(SimpleNamespace(config=SimpleNamespace()))._public_url() is None
    game = await play(world, {world.alice: 30, world.bob: 20})
    monkeypatch.setattr(CareersCog, "_public_url", lambda self: "https://skirmish.example")
    text = (await world.bob.slash(world.lobby, "profile")).response.content
    assert f" · [viewer](https://skirmish.example/games/{game.id})" in text
