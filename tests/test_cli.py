"""``python -m bot``'s command line as a newcomer meets it: a mistyped option is named with the one
it most looks like, and the help points at files the repository has."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import build_parser, main

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("argv", "unknown", "suggested"), [
    (["demo", "--rulset", "arena"], "--rulset", "--ruleset"),
    (["demo", "--rulset=arena"], "--rulset=arena", "--ruleset"),
    (["demo", "--player", "4", "--update", "3x"], None, None),   # argparse's own abbreviations, then 3x refused
    (["render", "board.toml", "--aftr", "--out", "b.png"], "--aftr", "--after"),
    (["store", "copy", "a.sqlite3", "b.sqlite3", "--upgrade-sorce"], "--upgrade-sorce", "--upgrade-source"),
])
def test_a_mistyped_option_is_named_with_the_one_it_looks_like(argv, unknown, suggested, tmp_path, monkeypatch,
                                                              capsys):
    monkeypatch.chdir(tmp_path)
    if suggested is None:
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2 and "'3x' is not a whole number" in capsys.readouterr().err
        return
    assert main(argv) == 2
    err = capsys.readouterr().err
    command = " ".join(argv[:2] if argv[0] == "store" else argv[:1])
    assert err.splitlines() == [f"python -m bot {command}: error: unrecognized argument {unknown!r}: "
                                f"did you mean {suggested}?", f"(python -m bot {command} --help lists its options)"]
    assert list(tmp_path.iterdir()) == []           # nothing was played, drawn or copied


def test_an_argument_too_many_is_named_without_a_guess(capsys):
    assert main(["replay", "record.json", "other.json"]) == 2
    assert capsys.readouterr().err.splitlines()[0] == "python -m bot replay: error: unrecognized argument 'other.json'"


def test_every_file_the_help_names_is_in_the_repository():
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices
    helps = "\n".join(command.format_help() for command in commands.values())
    assert "SCENARIOS.md" not in helps and "RULES.md" not in helps
    assert "docs/scenarios.md" in commands["render"].format_help()
    cited = {word.strip(".,():;'") for word in helps.split() if word.strip(".,():;'").endswith(".md")}
    documents = {name for name in cited if name.startswith("docs/") or name.removesuffix(".md").isupper()}
    assert "docs/record.md" in documents
    for named in documents:
        assert (ROOT / named).exists(), named
