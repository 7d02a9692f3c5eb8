"""Every scenario file of the catalogue (tests/scenarios/<ruleset>/*.toml) passes.

The files are the rules' test cases, like the DATC for Diplomacy: each names the rule or decision
it checks in its description and gives its expectations worked out by hand.
"""

from pathlib import Path

import pytest

from bot.engine.runner import run_scenario
from bot.engine.scenario import load_scenario

CATALOGUE = Path(__file__).resolve().parents[1] / "scenarios"
FILES = sorted(CATALOGUE.rglob("*.toml"))


def test_the_catalogue_is_not_empty():
    assert len(FILES) >= 8


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(CATALOGUE)) for p in FILES])
def test_scenario(path):
    scenario = load_scenario(path)
    assert scenario.description, f"{path.name} must say which rule it checks"
    outcome = run_scenario(scenario)
    assert outcome.passed, "\n".join(outcome.differences)
