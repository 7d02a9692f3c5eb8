"""Front ends talk to the service alone (ARCHITECTURE "Rules of the house", issue 36).

``cogs/`` and ``bot/web/`` translate Discord and HTTP to service calls; what they need of the store, the engine or the
renderer (the game row, the events' names, the playable rulesets, the colours) ``bot.service`` hands
over. This test reads every module of the front ends with :mod:`ast` (nothing is imported) and names
each import of ``bot.store``, ``bot.engine`` or ``bot.render``, wherever it is written (a function's
body too). The web viewer (``bot/web/``) is held to the same rule.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FRONT_ENDS = ("cogs", "bot/web")
BELOW_THE_SERVICE = ("bot.store", "bot.engine", "bot.render")


def _below(module: str) -> bool:
    return any(module == name or module.startswith(name + ".") for name in BELOW_THE_SERVICE)


def imports_below_the_service(source: str, path: str = "<snippet>") -> list[str]:
    """Every import in ``source`` of a package under the service, as ``path:line: import ...``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            if node.module == "bot":      # from bot import store, engine
                modules = [f"bot.{alias.name}" for alias in node.names]
        else:
            continue
        for module in modules:
            if _below(module):
                found.append(f"{path}:{node.lineno}: imports {module}")
                break
    return found


def test_no_front_end_imports_the_store_the_engine_or_the_renderer():
    modules = sorted(path for front_end in FRONT_ENDS for path in (ROOT / front_end).rglob("*.py"))
    assert ROOT / "cogs" / "moderation.py" in modules and ROOT / "cogs" / "__init__.py" in modules
    found = [line for path in modules
             for line in imports_below_the_service(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert not found, "front ends ask bot.service, which hands over what they need:\n" + "\n".join(found)


def test_the_check_finds_every_way_of_writing_such_an_import():
    source = """
from bot.store import Game
import bot.engine.events
from bot import render
from bot.service import Game as Row
from . import answer

def later():
    from bot.engine.variants import playable_presets
"""
    assert imports_below_the_service(source) == [
        "<snippet>:2: imports bot.store", "<snippet>:3: imports bot.engine.events",
        "<snippet>:4: imports bot.render", "<snippet>:9: imports bot.engine.variants"]
