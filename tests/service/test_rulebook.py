"""The rulebook players are pointed to (issue 27 item 1): docs/rulebook explains every rule a message
can cite, and refusals, reports and /rules say where.

The citations are found the way a player meets them: in the text of the messages. Every string of
the engine's modules (and of the service's and the cogs', which add a few) that is not a docstring
is scanned for D-, T- and P-numbers and ``RULES x.y`` sections, and so is each ruleset's ``section``
(cited by refusals of the rules the presets share). The scenario checker's own messages (scenario
files are a moderator's tool, docs/scenarios.md) are left out.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

from bot.engine.ruleset import load_preset
from bot.engine.variants import playable_presets
from bot.service import OrderRefused
from bot.service.rulebook import RULEBOOK_DIR, RULESET_PAGES, Rulebook, citations
from cogs import error_text

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK = ROOT / RULEBOOK_DIR
#: modules whose strings are no player's message: the scenario checker and the command line
NOT_MESSAGES = {"scenario.py", "runner.py", "__main__.py"}


def _message_strings(path: Path) -> list[str]:
    """The string constants of a module, docstrings left out (f-strings give their literal parts)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def cited_in_messages() -> dict[str, str]:
    """Every rule reference a message can cite -> one place that cites it."""
    found: dict[str, str] = {}
    sources = [*sorted((ROOT / "bot" / "engine").rglob("*.py")), *sorted((ROOT / "bot" / "service").rglob("*.py")),
               *sorted((ROOT / "cogs").rglob("*.py"))]
    for path in sources:
        if path.name in NOT_MESSAGES:
            continue
        for text in _message_strings(path):
            for reference in citations(text):
                found.setdefault(reference, str(path.relative_to(ROOT)))
    for path in sorted((ROOT / "assets" / "rulesets").glob("*.toml")):
        section = tomllib.loads(path.read_text(encoding="utf-8")).get("section")
        for reference in citations(section):
            found.setdefault(reference, str(path.relative_to(ROOT)))
    return found


def anchors(page: str) -> set[str]:
    return set(re.findall(r'<a id="([^"]+)"></a>', (RULEBOOK / page).read_text(encoding="utf-8")))


def test_the_scan_finds_the_citations_players_meet():
    """A scan that found nothing would let every rule through: these are cited by refusals and reports."""
    cited = cited_in_messages()
    for reference in ("D1", "D5", "D12", "D15", "D19", "D48", "D62", "D72", "T4", "T25", "P51", "P72", "RULES 3.4",
                      "RULES 4", "RULES 5.1", "RULES 5.4.6"):
        assert reference in cited, reference
    assert "P0" not in cited            # the position before the update, not a decision
    assert len(cited) > 100


def test_every_rule_a_message_can_cite_has_its_entry_in_the_rulebook():
    missing = []
    for reference, where in sorted(cited_in_messages().items()):
        page, anchor = Rulebook.entry(reference).split("#")
        if not (RULEBOOK / page).is_file() or anchor not in anchors(page):
            missing.append(f"{reference} (cited in {where}): no <a id=\"{anchor}\"></a> in {RULEBOOK_DIR}/{page}")
    assert missing == []


def test_each_decision_is_explained_under_its_number_with_an_example():
    text = (RULEBOOK / "decisions.md").read_text(encoding="utf-8")
    entries = re.findall(r'<a id="([dtp]\d+)"></a>\n### ([DTP]\d+)\. .+\n((?:.+\n)+)', text)
    assert len(entries) == len(re.findall(r'<a id="', text)) > 120
    for anchor, number, body in entries:
        assert anchor == number.lower()
    assert [number for _, number, body in entries if "*Example:*" not in body] == []


def test_every_link_between_the_rulebook_pages_lands_on_an_anchor():
    broken = []
    for path in sorted(RULEBOOK.glob("*.md")):
        for target, anchor in re.findall(r"\]\(([\w./-]+\.md)(?:#([\w-]+))?\)", path.read_text(encoding="utf-8")):
            page = (path.parent / target).resolve()
            if not page.is_file():
                broken.append(f"{path.name}: {target} does not exist")
            elif anchor and page.parent == RULEBOOK and anchor not in anchors(page.name):
                broken.append(f"{path.name}: {target} has no anchor {anchor!r}")
    assert broken == []


def test_each_playable_preset_has_its_page():
    for name in playable_presets():
        assert RULESET_PAGES[name] in {p.name for p in RULEBOOK.glob("*.md")}
        assert f"rules-{load_preset(name).section.removeprefix('RULES ').replace('.', '-')}" in anchors(RULESET_PAGES[name])


# ----------------------------------------------------------------------------- where messages point
def test_a_references_address_names_its_page_and_anchor():
    local, web = Rulebook(), Rulebook("https://example.org/skirmish/docs/rulebook/")
    assert local.link("D12") == "docs/rulebook/decisions.md#d12"
    assert web.link("T4") == "https://example.org/skirmish/docs/rulebook/decisions.md#t4"
    assert local.link("RULES 3.4") == "docs/rulebook/basics.md#rules-3-4"
    assert local.link("RULES 5.4.3") == "docs/rulebook/territory.md#rules-5-4-3"
    assert local.link("RULES 5") == "docs/rulebook/README.md#rules-5"
    assert local.ruleset_page("sandbox") == "docs/rulebook/sandbox.md"
    assert local.ruleset_page("my-variant") == "docs/rulebook/README.md"
    assert local.footer("nothing cited here, P0 is the board") == ""
    assert local.footer("a fallback has no fallback of its own (D12)", None, "D12") == \
        "Read D12 in the rulebook: docs/rulebook/decisions.md#d12"
    assert web.footer("(D14, D15)") == ("Read D14 and D15 in the rulebook: "
                                        "<https://example.org/skirmish/docs/rulebook/decisions.md#d14>, "
                                        "<https://example.org/skirmish/docs/rulebook/decisions.md#d15>")
    many = web.footer("D1 D2 D3 D4 (RULES 5.2)")          # beyond four, the pages
    assert many.endswith("<https://example.org/skirmish/docs/rulebook/decisions.md>, "
                         "<https://example.org/skirmish/docs/rulebook/arena.md>")


async def test_a_refused_order_ends_with_where_to_read_its_rule(table):
    game = await table.new_game()
    with pytest.raises(OrderRefused) as refused:
        await table.service.submit_order(game.id, user_id=1, text="K(0,0) else K(1,1)")
    text = error_text(refused.value, Rulebook("https://example.org/rulebook"))
    assert refused.value.rule or citations(refused.value.message)
    reference = (citations(refused.value.message, refused.value.hint, refused.value.rule))[0]
    assert text.splitlines()[-1].startswith(f"Read {reference}")
    assert f"<{Rulebook('https://example.org/rulebook').link(reference)}>" in text.splitlines()[-1]
    # what the player typed is not searched for rules: a name that looks like one is no citation
    with pytest.raises(OrderRefused) as typed:
        await table.service.submit_order(game.id, user_id=1, text="D12(0,0)")
    assert "D12 in the rulebook" not in error_text(typed.value)


@pytest.mark.parametrize("ruleset", ["neisg", "sandbox", "arena", "megachess", "territory"])
async def test_rules_give_the_summary_and_the_games_page_in_one_message(table, ruleset):
    game = await table.service.create_game(guild_id=1, channel_id=50, actor=table.MODERATOR, ruleset=ruleset)
    text = table.service.rules_summary(game)
    assert text.splitlines()[-1] == f"The full rules: docs/rulebook/{RULESET_PAGES[ruleset]}"
    # with the longest rulebook URL the configuration accepts (100 characters), it still fits
    table.service.rulebook = Rulebook("https://example.org/" + "x" * 66 + "/docs/rulebook")
    assert len(table.service.rulebook.base) == 100
    text = table.service.rules_summary(game)
    assert text.endswith(f"/docs/rulebook/{RULESET_PAGES[ruleset]}>") and len(text) <= 2000


async def test_an_updates_reports_say_where_the_rules_they_cite_are_explained(table):
    """Two knights generated on one square collide (RULES 3.4): the public report and both players'
    private reports end with the rulebook's line, with the service's rulebook URL."""
    table.service.rulebook = Rulebook("https://example.org/rulebook")
    game = await table.playing_game()
    await table.service.submit_order(game.id, user_id=1, text="+N(5,5)")
    await table.service.submit_order(game.id, user_id=2, text="+N(5,5)")
    await table.resolve(game.id)
    posts = [p for p in await table.posts(game.id) if p.update_no == 2]
    texts = {p.kind if p.recipient is None else p.recipient: p.body for p in posts}
    for key in ("report", 1, 2):
        cited = citations(texts[key].rsplit("\n\n", 1)[0])
        assert "RULES 3.4" in cited, texts[key]
        assert texts[key].rsplit("\n", 1)[-1] == Rulebook("https://example.org/rulebook").footer(
            texts[key].rsplit("\n\n", 1)[0]), texts[key]
    assert "<https://example.org/rulebook/basics.md#rules-3-4>" in texts["report"]
    assert "Read" not in texts["board"]          # a text that cites nothing gets no line
