"""What a newcomer reads stays true to the repository (issue 37): the README's layout names every
part of the bot, the docs cite only files the repository has, the directories the README's commands
make are ignored by git, and the README leads from the demo to its replayed record."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = {path: path.read_text(encoding="utf-8") for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]}
#: the project's working papers, kept outside the repository: a reader of the docs has none of them
OUTSIDE = ("RULES.md", "SCENARIOS.md", "INTERFACES.md", "ARCHITECTURE.md")


def test_no_doc_cites_a_file_outside_the_repository():
    cited = [f"{path.relative_to(ROOT)}:{number}" for path, text in DOCS.items()
             for number, line in enumerate(text.splitlines(), 1) if any(name in line for name in OUTSIDE)]
    assert cited == []


def test_the_readme_layout_names_every_part_of_the_bot():
    layout = README.split("## Layout", 1)[1].split("```")[1]
    parts = [f"bot/{path.name}" for path in (ROOT / "bot").iterdir()
             if path.name != "__init__.py" and (path.suffix == ".py" or (path / "__init__.py").exists())]
    parts += [path.name for path in (ROOT / "cogs").glob("*.py") if path.name != "__init__.py"]
    named = [part for part in parts if part.removesuffix("/") not in layout and f"{part}/" not in layout]
    assert len(parts) > 15 and named == []
    commands = re.search(r"bot/__main__.py +python -m bot ([a-z |]+)", layout).group(1)
    from bot.__main__ import build_parser

    subcommands = build_parser()._subparsers._group_actions[0].choices
    assert {word for word in commands.split() if word != "|"} >= set(subcommands)


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_the_directories_the_readmes_commands_make_are_ignored_by_git():
    made = set(re.findall(r"--out (demo[\w-]*)", README)) | {"demo"}
    assert {"demo", "demo-arena", "demo-territory"} <= made
    ignored = subprocess.run(["git", "check-ignore", "--no-index", *(f"{name}/posts/0001/board.png" for name in made)],
                             cwd=ROOT, capture_output=True, text=True, check=False).stdout.split()
    assert sorted(ignored) == sorted(f"{name}/posts/0001/board.png" for name in made)


def test_the_readme_leads_from_the_demo_to_its_refusals_and_replayed_record():
    first = README.split("## Set-up", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    assert "make demo" in first and "python -m bot replay demo/record.json" in first and "make test" in first
    assert "private/<player>-refused.md" in README and "**Order refused**" in README
    assert "pgserver" in README and "minutes" in first
