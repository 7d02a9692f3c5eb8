"""No rule outside the engine (issue 18, ARCHITECTURE "Rules of the house").

Cogs, rendering, the service and the demo ask the game's variant (``bot.engine.variants``) what a
game does; none of them reads a ruleset's rule sections, compares a ruleset's name with a preset's,
or calls the engine's rule internals directly. This test reads every module of ``bot/`` outside
``bot/engine`` and of ``cogs/`` (with :mod:`ast`, nothing is imported) and names each place that does.

Reading a ruleset's data to draw or name things stays allowed: ``ruleset.title``, ``ruleset.name``,
``ruleset.section`` (a citation), ``ruleset.pieces``/``kind()``/``letters`` (pieces are data to draw
and to name), ``bounds_for``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: A ruleset's rule sections: what a variant and its policies interpret (bot/engine/ruleset.py).
SECTIONS = {"board", "orders", "resolution", "economy", "generation", "promotion", "events", "teams"}
#: Expressions that hold a Ruleset: a name, an attribute (``self.ruleset``, ``scenario.ruleset``), or
#: a call (``self.service.ruleset(game)``, ``load_preset(name)``).
RULESET_NAMES = {"ruleset", "rules", "rules_set"}
RULESET_CALLS = {"ruleset", "load_preset", "load_ruleset", "_ruleset", "_load_ruleset", "applied_to",
                 "with_events_from"}
#: The shipped presets: code outside the engine never branches on which one a game plays.
PRESETS = {"neisg", "sandbox", "arena", "megachess", "territory"}
#: Engine modules that are rules, not questions to ask: imported only by the engine.
RULE_MODULES = ("bot.engine.economy", "bot.engine.policies", "bot.engine.steps", "bot.engine.update",
                "bot.engine.variants.simultaneous", "bot.engine.variants.summary")
#: Names of engine modules that answer a rule question the variant answers (module -> names).
RULE_NAMES = {
    "bot.engine.events": {"scheduled", "EventEffects", "describe_event", "step_events"},
    "bot.engine.validation": {"check_order"},
    "bot.engine.standings": {"health_board_lines"},
}
#: Reads that stay, each with its reason: (module, the whole expression).
ALLOWED = {
    # the piece sheet prints the currency's name ("cost 3 health") for any ruleset file, playable or
    # not: `python -m bot render --pieces megachess` draws a ruleset that has no variant yet
    ("bot/render/scene/pieces.py", "ruleset.economy.currency"),
}


def _holds_ruleset(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id in RULESET_NAMES
    if isinstance(node, ast.Attribute):
        return node.attr in RULESET_NAMES
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        return name in RULESET_CALLS
    return False


def _strings(node: ast.AST) -> list[str]:
    """The string constants of a compared operand (``"neisg"``, ``("arena", "megachess")``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _chain(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> ast.AST:
    """The longest attribute chain ``node`` starts (``ruleset.economy`` -> ``ruleset.economy.currency``)."""
    while isinstance(parents.get(node), ast.Attribute):
        node = parents[node]
    return node


def rule_uses(source: str, path: str = "<snippet>") -> list[str]:
    """Every rule the code in ``source`` reads outside the engine, as ``path:line: what``."""
    tree = ast.parse(source)
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    found = []
    for node in ast.walk(tree):
        where = f"{path}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Attribute) and node.attr in SECTIONS and _holds_ruleset(node.value):
            whole = ast.unparse(_chain(node, parents))
            if (path, whole) not in ALLOWED:
                found.append(f"{where}: reads the ruleset's [{node.attr}] rules: {whole}")
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            named = sorted({s for operand in operands for s in _strings(operand) if s in PRESETS})
            if named:
                found.append(f"{where}: compares with the preset name {', '.join(named)}: {ast.unparse(node)}")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            module = node.module
            names = {alias.name for alias in node.names}
            if any(module == m or module.startswith(m + ".") for m in RULE_MODULES):
                found.append(f"{where}: imports the engine's rules from {module}")
            elif names & RULE_NAMES.get(module, set()):
                found.append(f"{where}: imports {', '.join(sorted(names & RULE_NAMES[module]))} from {module}: "
                             "ask the variant")
            elif module == "bot.engine" and names & {m.rsplit(".", 1)[1] for m in RULE_MODULES if m.count(".") == 2}:
                found.append(f"{where}: imports the engine's rules from bot.engine")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if any(alias.name == m or alias.name.startswith(m + ".") for m in RULE_MODULES):
                    found.append(f"{where}: imports the engine's rules: {alias.name}")
    return found


def _modules() -> list[Path]:
    engine = ROOT / "bot" / "engine"
    files = [p for p in sorted((ROOT / "bot").rglob("*.py")) if engine not in p.parents]
    return files + sorted((ROOT / "cogs").rglob("*.py"))


def test_no_module_outside_the_engine_reads_a_rule():
    found = []
    for path in _modules():
        found += rule_uses(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())
    assert not found, "rules outside bot/engine (ask the variant):\n" + "\n".join(found)


def test_the_modules_checked_include_the_cogs_the_service_the_renderers_and_the_demo():
    checked = {p.relative_to(ROOT).as_posix() for p in _modules()}
    for module in ("cogs/play.py", "bot/service/views.py", "bot/render/scene/health.py", "bot/demo/session.py",
                   "bot/__main__.py"):
        assert module in checked
    assert not any(name.startswith("bot/engine/") for name in checked)


@pytest.mark.parametrize("code", [
    # what the cogs, the renderer, the service and the demo did before issue 18
    "if ruleset.orders.fallbacks: pass",
    "text = self.service.ruleset(view.game).economy.currency",
    "economy = ruleset.economy",
    "duration = rules.events.duration",
    "x = self.ruleset.promotion.pawn",
    "if table.ruleset.orders.generation: pass",
    "(x0, y0), (x1, y1) = ruleset.board.bounds",
    "teams = ruleset.teams.names",
    "start = load_preset(name).events.events_from",
    "if ruleset.name == 'sandbox': pass",
    "secret = game.ruleset in ('neisg', 'arena')",
    "from bot.engine.events import EventEffects, describe_event, scheduled",
    "from bot.engine.validation import check_order, legal_destinations",
    "from bot.engine.economy import regenerate",
    "from bot.engine.steps.moves import movement",
    "import bot.engine.policies",
    "from bot.engine.variants.summary import rules_summary",
])
def test_a_rule_read_outside_the_engine_is_named(code):
    assert rule_uses(code)


@pytest.mark.parametrize("code", [
    # what stays: data to draw and name, and the variant's answers
    "title = ruleset.title or ruleset.name",
    "kind = self.ruleset.pieces[piece.kind]",
    "letters = ruleset.match_letters(text); king = ruleset.kind(letter).royal",
    "cite = ruleset.section or 'RULES 5'",
    "bounds = state.board.bounds or ruleset.bounds_for(len(state.players))",
    "currency = variant.features.currency",
    "draws = self.service.variant(game).first_event",
    "if state.events: pass",
    "ruleset: str = 'neisg'",
    "from bot.engine.events import EVENTS",
    "from bot.engine.variants import variant_for, playable_presets",
    "from bot.engine.validation import legal_destinations, generation_cost",
])
def test_data_and_the_variants_answers_are_not_flagged(code):
    assert rule_uses(code) == []
