"""The engine's house rules (ARCHITECTURE.md): pure, and layered with no import cycle.

Counted as a run-time import: every ``import`` and ``from ... import`` statement, at the top of a
module or inside a function; those under ``if TYPE_CHECKING:`` are left out (they never run).
``from . import x`` where ``x`` is a submodule imports that submodule; the package itself is
imported only when a name that is not a submodule is taken from it.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "bot" / "engine"
PACKAGE = "bot.engine"


def _module_name(path: Path) -> str:
    parts = [PACKAGE, *path.relative_to(ENGINE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(ENGINE.rglob("*.py"))}


def _type_checking_only(tree: ast.AST) -> set[int]:
    """ids of the nodes inside ``if TYPE_CHECKING:`` blocks."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else test.attr if isinstance(test, ast.Attribute) else ""
            if name == "TYPE_CHECKING":
                skipped.update(id(inner) for statement in node.body for inner in ast.walk(statement))
    return skipped


def runtime_imports(module: str) -> tuple[set[str], set[str]]:
    """(engine modules, top-level outside packages) that ``module`` imports at run time."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skipped = _type_checking_only(tree)
    inside, outside = set(), set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                (inside if alias.name in MODULES else outside).add(alias.name if alias.name in MODULES
                                                                   else alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if not source.startswith(PACKAGE):
                if source != "__future__":
                    outside.add(source.split(".")[0])
                continue
            submodules = {f"{source}.{alias.name}" for alias in node.names} & MODULES.keys()
            inside |= submodules
            if len(submodules) < len(node.names) and source in MODULES:
                inside.add(source)
    inside.discard(module)
    return inside, outside


def import_cycles() -> list[list[str]]:
    """The strongly connected components of the engine's import graph with more than one module."""
    graph = {module: runtime_imports(module)[0] for module in MODULES}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(module: str) -> None:   # Tarjan's algorithm
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return cycles


def test_the_engine_has_no_import_cycle():
    assert import_cycles() == []


def test_the_engine_imports_only_the_standard_library_and_itself():
    allowed = set(sys.stdlib_module_names)
    foreign = {module: sorted(outside - allowed) for module in MODULES
               for outside in [runtime_imports(module)[1]] if outside - allowed}
    assert foreign == {}


def test_the_cycle_finder_sees_a_cycle_through_a_function_level_import(tmp_path, monkeypatch):
    """The check itself can fail: a function-level import that closes a circle is found, and one
    under TYPE_CHECKING is not."""
    package = tmp_path / "engine"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from . import b\n")
    (package / "b.py").write_text("def f():\n    from .c import g\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import b\n"
                                  "def g():\n    from .a import thing\n")
    monkeypatch.setattr(sys.modules[__name__], "ENGINE", package)
    monkeypatch.setattr(sys.modules[__name__], "MODULES",
                        {_module_name(path): path for path in sorted(package.rglob("*.py"))})
    assert import_cycles() == [["bot.engine.a", "bot.engine.b", "bot.engine.c"]]
    (package / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import g\n")
    assert import_cycles() == []


@pytest.mark.parametrize("module", ["bot.engine.update", "bot.engine.steps.moves", "bot.engine.variants.simultaneous"])
def test_layers_point_downward(module):
    """The update's context sits below the steps, the steps below the variants (ARCHITECTURE.md)."""
    above = {"bot.engine.update": {"bot.engine.steps", "bot.engine.variants", "bot.engine.resolution"},
             "bot.engine.steps.moves": {"bot.engine.variants", "bot.engine.resolution"},
             "bot.engine.variants.simultaneous": {"bot.engine.resolution", "bot.engine.runner"}}[module]
    imported = runtime_imports(module)[0]
    assert not {m for m in imported if any(m == a or m.startswith(a + ".") for a in above)}
