"""docs/rules/catalogue.md lists every scenario under the rules its description cites."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _module():
    spec = importlib.util.spec_from_file_location("make_catalogue", ROOT / "docs" / "rules" / "make_catalogue.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_catalogue_is_up_to_date():
    module = _module()
    assert (ROOT / "docs" / "rules" / "catalogue.md").read_text(encoding="utf-8") == module.render(), (
        "run .venv/bin/python docs/rules/make_catalogue.py")


def test_every_decision_of_sections_3_and_9_has_a_scenario():
    found = _module().citations()
    # D18: sandbox; D20: notation (unit-tested); D37 (blank lines) and D38 (multi-move) are not cited yet
    wanted = [f"D{n}" for n in range(8, 37) if n not in (18, 20)]
    missing = [d for d in wanted if d not in found]
    assert not missing, f"no scenario cites {missing}"


def test_every_territory_decision_has_a_scenario():
    """RULES 5.4's T1 to T43; T5 (the set-up's draws) and T39 (malformed files) are unit-tested
    (test_territory_turn.py, test_territory_scenario_format.py)."""
    found = _module().citations()
    missing = [f"T{n}" for n in range(1, 44) if n not in (5, 39) and f"T{n}" not in found]
    assert not missing, f"no scenario cites {missing}"
