"""``python -m bot.engine``: the engine's command line (SCENARIOS.md).

    python -m bot.engine scenario FILE...        resolve each file and compare with [expect]
    python -m bot.engine scenario --print FILE   the position after the update, as scenario TOML
    python -m bot.engine moves FILE              every piece's legal destinations, as JSON (a piece a line)

Exit status of ``scenario``: 2 if any file is malformed, else 1 if any fails, else 0; every file
still gets its line.
"""

from __future__ import annotations

import argparse
import json
import sys

from .runner import run_scenario, state_to_toml
from .scenario import ScenarioError, load_scenario
from .abilities import position_for
from .validation import legal_destinations
from .variants import VariantUnavailable, variant_for


def _moves(args: argparse.Namespace) -> int:
    try:
        scenario = load_scenario(args.file)
    except ScenarioError as exc:
        print(exc, file=sys.stderr)
        return 2
    position = position_for(scenario.ruleset, scenario.state)
    try:   # the variant knows its family's own moves (megachess: bonus pieces, D58)
        listing = variant_for(scenario.ruleset).destinations
    except VariantUnavailable:   # a ruleset not playable yet still has its moves listed
        def listing(state, piece, position):
            return legal_destinations(position, piece, state=state)
    pieces = sorted(scenario.state.board, key=lambda p: p.canonical_key)
    out = {"pieces": [
        {"at": list(p.square), "kind": p.kind, "owner": p.owner,
         "dests": [list(s) for s in listing(scenario.state, p, position=position)]}
        for p in pieces
    ]}
    sys.stdout.write(_one_piece_a_line(out))
    return 0


def _one_piece_a_line(listing: dict, width: int = 100) -> str:
    """The JSON of SCENARIOS.md laid out for reading: a piece a line, a long list of destinations
    continued on indented lines of at most ``width`` characters; the whole is still one JSON document."""
    pieces = listing["pieces"]
    if not pieces:
        return '{"pieces": []}\n'
    blocks = []
    for piece in pieces:
        head = json.dumps({key: value for key, value in piece.items() if key != "dests"})[:-1] + ', "dests": ['
        squares = [json.dumps(square) for square in piece["dests"]]
        lines, line = [], "  " + head
        for index, square in enumerate(squares):
            text = square + ("," if index + 1 < len(squares) else "")
            if len(line) + len(text) + 1 > width and not line.endswith("["):
                lines.append(line)
                line = "      " + text
            else:
                line += ("" if line.endswith("[") else " ") + text
        lines.append(line + "]}")
        blocks.append("\n".join(lines))
    return '{"pieces": [\n' + ",\n".join(blocks) + "\n]}\n"


def _scenario(args: argparse.Namespace) -> int:
    malformed = failed = False
    for path in args.files:
        try:
            scenario = load_scenario(path)
        except ScenarioError as exc:
            print(f"ERROR {path}\n  {exc}")
            malformed = True
            continue
        try:
            outcome = run_scenario(scenario)
        except Exception as exc:  # a crash is reported per file, never hides the other files
            print(f"FAIL {path}\n  the engine raised {type(exc).__name__}: {exc}")
            failed = True
            continue
        if args.print:
            sys.stdout.write(state_to_toml(scenario, outcome.state))
            if args.report:    # as TOML comments: the printed position stays a scenario file
                sys.stdout.write("".join(f"# {line}\n" for line in outcome.report.text_with_refusals().splitlines()))
            continue
        if outcome.passed:
            print(f"PASS {path}")
        else:
            failed = True
            print(f"FAIL {path}")
            for difference in outcome.differences:
                print(f"  - {difference}")
        if args.report:
            print("  " + outcome.report.text_with_refusals().replace("\n", "\n  "))
    return 2 if malformed else 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.engine", description="Skirmish's rules engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    scenario = commands.add_parser("scenario", help="resolve scenario files and compare with their [expect]")
    scenario.add_argument("files", nargs="+", metavar="FILE", help="scenario files (their format: docs/scenarios.md)")
    scenario.add_argument("--print", action="store_true", help="print the position after the update as TOML")
    scenario.add_argument("--report", action="store_true",
                          help="also print each update's public report and every refused order with its reason "
                               "(with --print: as # comments after the position)")
    scenario.set_defaults(run=_scenario)
    moves = commands.add_parser("moves", help="print every piece's legal destinations in a scenario file, as JSON")
    moves.add_argument("file", help="a scenario file (its format: docs/scenarios.md)")
    moves.set_defaults(run=_moves)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
