"""A bot configured with the rulebook's URL (``[docs] rulebook_url``) links the rules players meet
(issue 27 item 1): /rules ends with the game's page, a refusal with the entry of the rule it cites."""

from __future__ import annotations

import pytest

from bot.client import SkirmishBot
from bot.config import Config

URL = "https://example.org/skirmish/blob/main/docs/rulebook"


@pytest.fixture
def simcord_bot(service) -> SkirmishBot:
    return SkirmishBot(Config(rulebook_url=URL), service=service)


async def test_rules_end_with_the_games_page_on_the_web(world):
    await world.game(ruleset="sandbox")
    text = (await world.alice.slash(world.channel, "rules")).response.content
    assert text.startswith("**Sandbox Chess** (`sandbox`)") and len(text) <= 2000
    assert text.endswith(f"\nThe full rules: <{URL}/sandbox.md>")


async def test_a_refusal_links_the_entry_of_the_rule_it_cites(world):
    game = await world.game()
    await world.join(game, world.alice, "Navy")
    await world.alice.slash(world.channel, "move", order="K(0,0)")
    refused = (await world.alice.slash(world.channel, "move", order="Nf3")).response.content
    assert "(D4)" in refused
    assert refused.endswith(f"```\nRead D4 in the rulebook: <{URL}/decisions.md#d4>")
