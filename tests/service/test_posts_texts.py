"""The reports an update posts are the report's own texts (issue 25): update_posts reads the public
report's context once and tells the public report and every private one from it, which must give
what :meth:`Report.text` and :meth:`Report.private_text` give, each with its rulebook line."""

import random
import re
from pathlib import Path

import pytest

from bot.engine.runner import run_scenario
from bot.engine.scenario import load_scenario
from bot.service.posts import cited, entries_by_player, update_posts
from bot.service.rulebook import Rulebook, citations

CATALOGUE = Path(__file__).resolve().parents[1] / "scenarios"
SCENARIOS = ["neisg/dodge.toml", "neisg/king-captured.toml", "neisg/implosion-annihilates.toml",
             "sandbox/s3-capturable-fallback-fires.toml", "sandbox/s3-collision-capturable-shared-fallback.toml",
             "neisg/s4-d30-eliminated.toml", "neisg/s8-timethief-dodge.toml"]


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_posted_reports_are_the_reports_texts(name):
    scenario = load_scenario(CATALOGUE / name)
    outcome = run_scenario(scenario)
    report = outcome.report
    user_ids = {player: index for index, player in enumerate(sorted(outcome.state.players))}
    rulebook = Rulebook("https://example.org/rulebook")
    drafts = update_posts(scenario.ruleset, scenario.state, outcome.state, report, user_ids, "game",
                          rulebook=rulebook)
    public = [d.body for d in drafts if d.kind == "report"]
    assert public == [cited(report.text(), rulebook)]
    private = {d.recipient: d.body for d in drafts if d.kind == "private_report"}
    concerned = entries_by_player(report)
    expected = {user_ids[player]: cited(report.private_text(player), rulebook)
                for player in sorted(user_ids) if concerned.get(player)}
    assert private == expected and private


# ----------------------------------------------------------------------------- citations
PLAIN_CITATION = re.compile(r"\b(?:[DT][1-9]\d*|P[1-9]\d*)\b|\bRULES (?:\d+(?:\.\d+)*)")


def plain_citations(text: str) -> list[str]:
    return list(dict.fromkeys(match.group(0) for match in PLAIN_CITATION.finditer(text)))


@pytest.mark.parametrize("text", [
    "(D12)", "D12", "xD12", "_D12", "éD12", "D12x", "D12_", "D0", "P0 and P51", "T4.", "RULES 3.4.1.", "ARULES 3",
    "RULES 3.", "RULES x", "(RULES 5.4.3, T8)", "D1\nD2", "\nRULES 1", "D12D13", "D 12", "1D12", "-D12-", "D١٢",
])
def test_the_citations_found_are_those_the_plain_pattern_finds(text):
    assert citations(text) == plain_citations(text)


def test_citations_in_texts_at_random_are_those_the_plain_pattern_finds():
    rng = random.Random(27)
    alphabet = "DTPRULES 0123456789._-(),\nxé"
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        assert citations(text) == plain_citations(text), text
    rulebook = Rulebook()
    for path in sorted(CATALOGUE.rglob("*.toml")):
        report = run_scenario(load_scenario(path)).report
        for text in [report.text()] + [report.text(name) for name in sorted({p for e in report.entries
                                                                               for p in e.players})]:
            assert citations(text) == plain_citations(text)
            assert rulebook.footer(text) or not plain_citations(text)
