"""``python -m bot.engine``: the engine's command line (SCENARIOS.md).

    python -m bot.engine moves FILE         every piece's legal destinations, as JSON
"""

from __future__ import annotations

import argparse
import json
import sys

from .scenario import ScenarioError, load_scenario
from .abilities import position_for
from .validation import legal_destinations


def _moves(args: argparse.Namespace) -> int:
    try:
        scenario = load_scenario(args.file)
    except ScenarioError as exc:
        print(exc, file=sys.stderr)
        return 2
    position = position_for(scenario.ruleset, scenario.state)
    pieces = sorted(scenario.state.board, key=lambda p: p.canonical_key)
    out = {"pieces": [
        {"at": list(p.square), "kind": p.kind, "owner": p.owner,
         "dests": [list(s) for s in legal_destinations(position, p, state=scenario.state)]}
        for p in pieces
    ]}
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.engine", description="Skirmish's rules engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    moves = commands.add_parser("moves", help="print every piece's legal destinations in a scenario file, as JSON")
    moves.add_argument("file", help="a scenario file (SCENARIOS.md)")
    moves.set_defaults(run=_moves)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
