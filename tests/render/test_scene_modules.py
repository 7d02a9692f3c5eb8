"""Issue 38: a scene says what a picture shows and knows no Pillow; the painters draw it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SCENES = sorted((Path(__file__).resolve().parents[2] / "bot" / "render" / "scene").glob("*.py"))


@pytest.mark.parametrize("path", SCENES, ids=lambda path: path.name)
def test_a_scene_module_imports_no_pillow(path):
    imported = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            imported.append(node.module or "")
    assert not [name for name in imported if name.split(".")[0] == "PIL"], path.name


def test_the_scenes_of_this_issue_are_there():
    assert {"health.py", "territory.py", "pieces.py", "timelapse.py"} <= {path.name for path in SCENES}
