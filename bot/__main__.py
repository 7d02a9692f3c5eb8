"""``python -m bot``: Skirmish's command line (INTERFACES.md, "Command line").

    python -m bot render SCENARIO [--after] [--region=X0,Y0,X1,Y1] [--center=X,Y --radius=R] --out FILE
    python -m bot render SCENARIO [--after] --health --out FILE
    python -m bot render --pieces RULESET --out FILE
    python -m bot demo [--ruleset NAME] [--players N] [--updates N] [--seed N] [--events-from N] [--out DIR]
                       [--store-url URL] [--interval SECONDS] [--serve [PORT]]
    python -m bot run [--config PATH] [--shards A-B --shard-count N]
    python -m bot export --store-url URL --game ID --out FILE
    python -m bot store copy FROM TO [--upgrade-source]
    python -m bot web [--config PATH] [--store-url URL] [--host H] [--port P]
    python -m bot ratings [--store-url URL] [--family F]

``render`` draws a scenario's board (``--after``: the position after resolving the scenario's
update, with its last moves; a board of areas, territory's, is drawn whole with its turn cycle,
reserves and draft area), its health board (whose text lines also go to standard output) or a
ruleset's piece sheet (``RULESET``: a preset name or a path to a ruleset file). Values that start with a minus sign are
written with ``=`` (``--region=-5,-5,5,5``). Errors (a missing or malformed file, a bad region)
print one clear message and exit with status 2. ``--out`` names a ``.png`` file, or a ``.jpg`` /
``.jpeg`` one for a JPEG, in a folder that exists.

``demo`` plays an offline session with simulated players through the real service, scheduler and
outbox (:mod:`bot.demo`): the database is ``DIR/skirmish.sqlite3`` (or the one ``--store-url``
names: ``sqlite:///PATH`` or ``postgresql://USER@HOST:PORT/DATABASE``, with the same posts), the
posts go to ``DIR/posts/`` (with the answers to refused orders), the game's record to
``DIR/record.json`` at the end; it prints a summary of counts and exits with status 1 when a count the
session should produce is zero. Run again on the same ``DIR`` (and database), it continues an
unfinished session. With ``--serve [PORT]`` it then serves the web viewer on the session's database
(127.0.0.1, port 8080 by default), prints ``viewer: http://127.0.0.1:PORT/`` once it answers, and exits
with status 0 on SIGINT or SIGTERM; a session already played in DIR is served without playing again.

``run`` runs the Discord bot (:mod:`bot.client`) with the settings of ``PATH`` (default
``./config.toml``; every key is in ``config.example.toml``) and the token in ``DISCORD_TOKEN``; a
missing or invalid setting, or a missing token, prints one message naming it and exits with status 2.
With ``--shards A-B --shard-count N`` (or ``--shards A``) the process runs only shards A to B of N
with discord.py's ``AutoShardedBot``, and only the games of their servers (docs/sharding.md); an
impossible range exits with status 2 too.

``replay`` re-checks a game's record (docs/record.md); ``export`` writes one game's record from a
store, as /game export posts it (a missing game, or one not started, exits with status 2).

``store copy`` copies every game from one store to another, e.g. from the SQLite file to PostgreSQL
(:mod:`bot.store.copy`, docs/store.md): TO must hold no Skirmish data; a problem (a bad URL, a server
that cannot be reached, a TO with data, a FROM newer than the code) exits with status 2, TO unchanged.

``web`` serves the web viewer (:mod:`bot.web`, docs/web.md) of every game in the store (the
configuration's, or ``--store-url``), read only, on ``--host``/``--port`` (default: ``[web]``'s,
127.0.0.1:8080); it prints ``viewer: URL`` once it answers and exits with status 0 on SIGINT or SIGTERM.
``ratings`` prints each server's leaderboards, worked out from the stored games (docs/ratings.md):
the database is ``--store-url``'s, else ``[store]`` of ``./config.toml`` (its default without one).

Each subcommand is one ``_add_<name>`` function that registers its parser and its handler; the
bot (``run``) and the offline session (``demo``) slot in the same way.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXIT_USAGE = 2


class CommandError(Exception):
    """A problem with the command's input: printed as one message, exit status 2."""


def _pair(text: str, what: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2:
        raise CommandError(f"{what} must be X,Y (two integers separated by a comma), not {text!r}")
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        raise CommandError(f"{what} must be X,Y with integer coordinates, not {text!r}") from None


def parse_region(text: str) -> tuple[int, int, int, int]:
    """``X0,Y0,X1,Y1`` (corners in any order) as (x0, y0, x1, y1) with x0 <= x1 and y0 <= y1."""
    from bot.engine.model import COORDINATE_LIMIT

    parts = text.split(",")
    if len(parts) != 4:
        raise CommandError(f"--region must be X0,Y0,X1,Y1 (four integers separated by commas), not {text!r}")
    try:
        x0, y0, x1, y1 = (int(p) for p in parts)
    except ValueError:
        raise CommandError(f"--region must be X0,Y0,X1,Y1 with integer coordinates, not {text!r}") from None
    if any(abs(v) > COORDINATE_LIMIT for v in (x0, y0, x1, y1)):
        raise CommandError(f"--region {text}: coordinates are limited to ±{COORDINATE_LIMIT:,} (D1)")
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _load_ruleset(name: str):
    from bot.engine.ruleset import RulesetError, load_preset, load_ruleset, preset_names

    try:
        if name in preset_names():
            return load_preset(name)
        path = Path(name)
        if not path.exists():
            raise CommandError(f"{name}: no such ruleset file, and not a preset "
                               f"(presets: {', '.join(preset_names())})")
        return load_ruleset(path)
    except RulesetError as exc:
        raise CommandError(str(exc)) from None


#: The image formats ``render --out`` writes, by the file's suffix.
IMAGE_FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}


def _image_format(path: str) -> str:
    """The format of the image file ``path`` names by its suffix; refuses another suffix and a
    folder that does not exist (checked before any drawing, so a typo costs nothing)."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in IMAGE_FORMATS:
        named = f"ends in {target.suffix!r}" if target.suffix else "has no suffix"
        raise CommandError(f"--out {path} {named}: write a .png file (or .jpg / .jpeg for a JPEG)")
    folder = target.parent
    if not folder.is_dir():
        raise CommandError(f"--out {path}: the folder {folder} does not exist (create it first; "
                           f"render does not create folders)")
    return IMAGE_FORMATS[suffix]


def _write(path: str, png: bytes) -> None:
    """Write the picture ``png`` (PNG bytes) to ``path`` in the format its suffix names."""
    kind = _image_format(path)
    data = png
    if kind != "PNG":
        from io import BytesIO

        from PIL import Image

        buffer = BytesIO()
        Image.open(BytesIO(png)).convert("RGB").save(buffer, kind, quality=92)
        data = buffer.getvalue()
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None


def _print_utf8(text: str) -> None:
    """Print text with hearts in it even where the terminal's encoding has none (as UTF-8 bytes)."""
    try:
        sys.stdout.write(text)
    except UnicodeEncodeError:
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()


# ----------------------------------------------------------------------------- render
def _render(args: argparse.Namespace) -> int:
    _image_format(args.out)
    if args.pieces is not None:
        if args.scenario is not None:
            raise CommandError("--pieces draws a ruleset's piece sheet: give RULESET, not a scenario")
        if (args.after or args.health or args.region or args.center or args.radius is not None or args.focus
                or args.caller):
            raise CommandError("--pieces takes only RULESET and --out")
        from bot.render.paint.pieces import render_piece_sheet

        _write(args.out, render_piece_sheet(_load_ruleset(args.pieces)).png)
        return 0

    if args.scenario is None:
        raise CommandError("give a SCENARIO file to render (or --pieces RULESET)")
    if (args.center is None) != (args.radius is None):
        raise CommandError("--center and --radius go together: --center=X,Y --radius=R")
    if args.region is not None and args.center is not None:
        raise CommandError("give either --region or --center/--radius, not both")
    if args.health and (args.region is not None or args.center is not None or args.focus is not None):
        raise CommandError("--region, --center and --focus apply to a board, not to --health")
    if args.focus is not None and (args.region is not None or args.center is not None):
        raise CommandError("give either --focus or --region or --center/--radius, not two of them")
    if args.caller is not None and not args.health:
        raise CommandError("--caller applies to the health board: --health --caller=NAME")
    region = parse_region(args.region) if args.region is not None else None
    center = _pair(args.center, "--center") if args.center is not None else None
    if args.radius is not None and args.radius < 0:
        raise CommandError(f"--radius must be 0 or more, not {args.radius}")

    from bot.engine.scenario import ScenarioError, load_scenario

    try:
        scenario = load_scenario(args.scenario)
    except ScenarioError as exc:
        raise CommandError(str(exc)) from None
    state = scenario.state
    last_moves = None           # the board's default: the state's memory of the previous update
    report = None
    if args.after:
        from bot.engine.runner import run_scenario

        outcome = run_scenario(scenario)
        state, report = outcome.state, outcome.report
        captured = {tuple(entry.data["at"]) for entry in outcome.report.of_type("capture") if "at" in entry.data}
        last_moves = [(move.origin, move.target, move.target in captured) for move in state.moved_last_update]

    if args.health:
        from bot.engine.variants import VariantUnavailable, variant_for
        from bot.render.paint.health import render_health_board
        from bot.render.scene.health import standings_lines

        try:
            variant = variant_for(scenario.ruleset)
        except VariantUnavailable as exc:
            raise CommandError(f"cannot draw its health board: {exc}") from None
        panel = variant.standings_panel(state)
        rendered = render_health_board(panel, state, game_title=variant.title, palette=args.palette,
                                       caller=args.caller)
        _write(args.out, rendered.png)
        _print_utf8("".join(line + "\n" for line in standings_lines(panel, args.caller)))
        return 0

    from bot.render.paint.territory import render_territory
    from bot.render.scene.territory import has_areas

    if has_areas(scenario.ruleset, state):      # a board of areas (territory): drawn whole, with its panels
        if region is not None or center is not None or args.focus is not None:
            raise CommandError("this board is drawn whole: --region, --center and --focus do not apply to it")
        _write(args.out, render_territory(scenario.ruleset, state, palette=args.palette, report=report).png)
        return 0

    from bot.render.board import render_board

    try:
        rendered = render_board(scenario.ruleset, state, region=region, center=center, radius=args.radius,
                                palette=args.palette, last_moves=last_moves, focus=args.focus)
    except ValueError as exc:
        raise CommandError(f"cannot draw that board: {exc}") from None
    _write(args.out, rendered.png)
    return 0


def _add_render(commands) -> None:
    render = commands.add_parser(
        "render", help="draw a scenario's board or health board, or a ruleset's piece sheet",
        description="Draw a scenario's board (or, with --health, its health board) or, with --pieces, "
                    "a ruleset's piece sheet, as a PNG (or a JPEG: --out FILE.jpg). Write values that start "
                    "with a minus sign with '=': --region=-5,-5,5,5.")
    render.add_argument("scenario", nargs="?", metavar="SCENARIO",
                        help="a scenario file (its format: docs/scenarios.md)")
    render.add_argument("--after", action="store_true",
                        help="draw the position after resolving the scenario's update")
    render.add_argument("--region", metavar="X0,Y0,X1,Y1", help="the squares to draw (corners included)")
    render.add_argument("--center", metavar="X,Y", help="the centre square of the view (with --radius)")
    render.add_argument("--radius", type=int, metavar="R", help="squares shown on each side of --center")
    render.add_argument("--focus", metavar="WHAT",
                        help="frame part of the board: team:NAME, player:NAME (their pieces) or kingdom:NAME")
    render.add_argument("--health", action="store_true",
                        help="draw the health board instead; its lines also go to standard output")
    render.add_argument("--caller", metavar="NAME",
                        help="with --health: the player asking (their row outlined; an endless game shows "
                             "the top rows and theirs)")
    render.add_argument("--pieces", metavar="RULESET",
                        help="draw the piece sheet of a ruleset (a preset name or a ruleset file)")
    render.add_argument("--palette", choices=("default", "colourblind"), default="default",
                        help="player colours: as named, or their colour-blind-safe alternatives")
    render.add_argument("--out", required=True, metavar="FILE",
                        help="the image to write: FILE.png, or FILE.jpg / FILE.jpeg for a JPEG; its folder must exist")
    render.set_defaults(run=_render, command_parser=render)


# ----------------------------------------------------------------------------- demo
def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def _whole(text: str) -> int:
    """A whole number; its limits are the demo's to say (``--players``: one message for 0 and 1)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _store_url(text: str) -> str:
    """A store URL (INTERFACES.md, "[store]"): ``sqlite:///PATH`` or ``postgresql://...``."""
    from bot.demo.common import STORE_SCHEMES

    if not text.startswith(STORE_SCHEMES) or text in STORE_SCHEMES:
        raise argparse.ArgumentTypeError(f"{text[:80]!r} is not a store URL: write sqlite:///relative/path.sqlite3, "
                                         "sqlite:////absolute/path.sqlite3 or postgresql://USER@HOST:PORT/DATABASE")
    return text


def _demo(args: argparse.Namespace) -> int:
    from bot.demo import DemoError, DemoOptions, main as play

    try:
        options = DemoOptions(ruleset=args.ruleset, players=args.players, updates=args.updates, seed=args.seed,
                              out=Path(args.out), events_from=args.events_from, store_url=args.store_url,
                              interval=args.interval)
        status = play(options)
    except DemoError as exc:
        raise CommandError(str(exc)) from None
    if args.serve is None or status == 130:         # 130: interrupted while playing
        return status
    _run_viewer(options.store, "127.0.0.1", args.serve)
    return 0


def _add_demo(commands) -> None:
    from bot.demo.common import INTERVAL_SECONDS, MAX_INTERVAL_SECONDS
    from bot.engine.variants import playable_presets

    demo = commands.add_parser(
        "demo", help="play an offline session with simulated players; posts go to files",
        description="Play a whole session with simulated players, no Discord and no token: the real "
                    "service, scheduler and outbox, deadlines a few seconds apart. The database is "
                    "DIR/skirmish.sqlite3 (or the one --store-url names: the same posts on either), every "
                    "post a file under DIR/posts/, each refused order answered as the bot answers it "
                    "privately (DIR/posts/NNNN/private/PLAYER-refused.md), and at the end the game's record "
                    "in DIR/record.json (python -m bot replay DIR/record.json re-checks it). Prints a summary "
                    "of counts and exits with status 1 when a count the session should produce is zero. Run "
                    "again on the same DIR (and database), it continues an unfinished session.")
    demo.add_argument("--ruleset", default="neisg", choices=playable_presets(),
                      help="the preset to play (default: neisg)")
    demo.add_argument("--players", type=_whole, default=12, metavar="N",
                      help="simulated players, 2 or more (default: 12)")
    demo.add_argument("--updates", type=_positive, default=20, metavar="N", help="updates to play (default: 20)")
    demo.add_argument("--seed", type=int, default=1, metavar="N", help="the game's seed (default: 1)")
    demo.add_argument("--events-from", type=_positive, default=None, metavar="N",
                      help="the update of the first event (default: the ruleset's, or earlier if the session "
                           "would end before it)")
    demo.add_argument("--out", default="demo", metavar="DIR", help="where the database and posts go (default: ./demo)")
    demo.add_argument("--store-url", type=_store_url, default=None, metavar="URL",
                      help="play on this database instead of DIR/skirmish.sqlite3: sqlite:///PATH (relative; "
                           "sqlite:////PATH absolute) or postgresql://USER[:PASSWORD]@HOST:PORT/DATABASE; the "
                           "posts still go to DIR/posts/, the same as on SQLite")
    demo.add_argument("--interval", type=_whole, default=INTERVAL_SECONDS, metavar="SECONDS",
                      help=f"seconds between two deadlines, 0 to {MAX_INTERVAL_SECONDS} (default: {INTERVAL_SECONDS}); "
                           "0 plays as fast as the machine resolves. The players are never late: the same seed "
                           "plays the same session at any interval")
    demo.add_argument("--serve", type=_port, nargs="?", const=8080, default=None, metavar="PORT",
                      help="then serve the web viewer of the session's database on 127.0.0.1:PORT (default 8080), "
                           "printing 'viewer: URL', until Ctrl-C; a session already played is not played again")
    demo.set_defaults(run=_demo, command_parser=demo)


# ----------------------------------------------------------------------------- run
async def _serve(bot, token: str) -> None:
    """Run ``bot`` until it is closed, by Ctrl-C or SIGTERM as well (a clean close stops the
    scheduler and the relay and closes the store; the process then exits with status 0; a second
    signal during the close waits for the same close)."""
    import asyncio
    import logging
    import signal

    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task] = []

    def stop() -> None:
        stopping.append(loop.create_task(bot.close()))

    for number in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(number, stop)
        except (NotImplementedError, RuntimeError):     # not on this platform: Ctrl-C still stops it
            pass
    async with bot:
        try:
            await bot.start(token)
        except Exception as exc:
            if not stopping:
                raise
            # a signal came while logging in: the close cut its requests short; nothing to report
            logging.getLogger("bot").info("stopped while connecting to Discord (%s)", exc)


async def _open_then_serve(config, shards, token: str) -> None:
    """Open the store first, so a database that cannot be used stops the command before it connects
    to Discord (and says so), then serve; the store is closed after the bot's own close."""
    import logging

    from bot.client import make_bot
    from bot.store import Store

    store = await Store.open(config.store_url)
    try:
        await _serve(make_bot(config, shards=shards, store=store), token)
    finally:
        await store.close()
        logging.getLogger("bot").info("closed the store")


def _run(args: argparse.Namespace) -> int:
    from bot.config import ConfigError, load_config, token_from_environment
    from bot.shards import ShardError, parse_shards

    try:
        shards = (parse_shards(args.shards, args.shard_count)
                  if args.shards is not None or args.shard_count is not None else None)
    except ShardError as exc:
        raise CommandError(str(exc)) from None
    try:
        config = load_config(args.config)
        token = token_from_environment()
    except ConfigError as exc:
        raise CommandError(str(exc)) from None

    import asyncio

    import aiohttp
    import discord

    from bot.store import StoreError

    discord.utils.setup_logging()
    try:
        asyncio.run(_open_then_serve(config, shards, token))
    except discord.LoginFailure:
        raise CommandError("Discord refused the token in DISCORD_TOKEN: copy it again from the Developer "
                           "Portal (your application > Bot > Reset Token)") from None
    except discord.ConnectionClosed as exc:
        if exc.code not in _SHARDS_REFUSED:
            raise
        raise CommandError(f"Discord refused {shards.text() if shards else 'one shard'}: "
                           f"{_SHARDS_REFUSED[exc.code]}") from None
    except StoreError as exc:
        raise CommandError(f"store.url: {exc}") from None
    except aiohttp.ClientConnectorError as exc:
        raise CommandError(f"cannot reach Discord at {config.api_base} (discord.api_base): {exc}") from None
    except KeyboardInterrupt:
        pass
    return 0


#: the gateway's close codes about shards (Discord's documentation, "Gateway close event codes")
_SHARDS_REFUSED = {
    4010: "an invalid shard (check --shards and --shard-count)",
    4011: "the bot is in too many servers for that few shards: start every process with a larger "
          "--shard-count (Discord asks for one shard per 2,500 servers at most)",
}


def _add_run(commands) -> None:
    run = commands.add_parser(
        "run", help="run the Discord bot (the token is read from DISCORD_TOKEN)",
        description="Run Skirmish on Discord. Settings come from a TOML file (every key is in "
                    "config.example.toml; a missing ./config.toml means the defaults); the bot's token "
                    "from the environment variable DISCORD_TOKEN. A missing or invalid setting exits "
                    "with status 2 and names it.")
    run.add_argument("--config", metavar="PATH", help="the configuration file (default: ./config.toml)")
    run.add_argument("--shards", metavar="A-B",
                     help="run only Discord shards A to B (or one shard, A) of --shard-count; this process then "
                          "runs only the games of their servers, and the one with shard 0 also takes direct "
                          "messages (docs/sharding.md). Default: one process, every shard and game")
    run.add_argument("--shard-count", type=_whole, metavar="N",
                     help="how many shards the bot has in all, over every process (with --shards)")
    run.set_defaults(run=_run, command_parser=run)


# ----------------------------------------------------------------------------- replay
def _replay(args: argparse.Namespace) -> int:
    """Re-resolve every update of an exported game record; 0 when every one matches (issue 29)."""
    import json

    from bot.service.record import RecordError, replay_record

    try:
        record = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CommandError(f"{args.file}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CommandError(f"{args.file}: not a JSON game record: {exc}") from None
    try:
        checks = replay_record(record)
    except RecordError as exc:
        raise CommandError(f"{args.file}: {exc}") from None
    for check in checks:
        print(check.line())
    differing = [check for check in checks if not check.matches]
    game = record.get("game", {})
    print(f"{len(checks) - len(differing)} of {len(checks)} updates of game {game.get('id')} "
          f"({game.get('ruleset')}) match" + ("" if not differing else f"; the first that differs is update "
                                              f"{differing[0].update}"))
    return 1 if differing else 0


def _add_replay(commands) -> None:
    replay = commands.add_parser(
        "replay", help="re-check an exported game record: every update re-resolved by the engine",
        description="Re-resolve every update of a game record (from /game export) with the engine and "
                    "say, update by update, whether the result matches the record, and where not, the "
                    "first difference. Exit status 0 when every update matches, 1 when one differs, 2 "
                    "for a file that is not a record. The format is described in docs/record.md.")
    replay.add_argument("file", metavar="FILE", help="the record (JSON)")
    replay.set_defaults(run=_replay, command_parser=replay)


# ----------------------------------------------------------------------------- export
def _export(args: argparse.Namespace) -> int:
    """Write one game's record from a store, as /game export posts it (docs/record.md)."""
    import asyncio

    from bot.service import Moderator, Service, ServiceError
    from bot.service.publishing import write_atomically
    from bot.store import Store, StoreError
    from bot.store.database import parse_url, redact

    out = Path(args.out)
    if not out.parent.is_dir():
        raise CommandError(f"--out {args.out}: the folder {out.parent} does not exist (create it first)")
    where = redact(args.store_url)
    try:
        backend, path = parse_url(args.store_url)
    except StoreError as exc:
        raise CommandError(f"--store-url: {exc}") from None
    if backend == "sqlite" and not Path(path).is_file():      # opening it would create an empty one
        raise CommandError(f"--store-url {where}: no such SQLite file {path}")

    async def export() -> bytes:
        try:
            store = await Store.open(args.store_url)
        except StoreError as exc:
            raise CommandError(f"--store-url {where}: {exc}") from None
        except OSError as exc:          # the server cannot be reached, or refuses (asyncpg's own errors)
            raise CommandError(f"--store-url {where}: cannot open it: {exc}") from None
        except Exception as exc:        # noqa: BLE001 - a PostgreSQL refusal: no such database, a wrong password
            raise CommandError(f"--store-url {where}: cannot open it: {type(exc).__name__}: {exc}") from None
        try:
            service = Service(store)
            games = await service.games_in(include_ended=True)
            game = next((game for game in games if game.id == args.game), None)
            if game is None:
                held = ", ".join(f"{g.id} ({g.name})" for g in sorted(games, key=lambda g: g.id)[:20]) or "none"
                raise CommandError(f"--game {args.game}: {where} has no game {args.game} (its games: {held})")
            # whoever holds the database holds every server's games: the command line's user may
            # export any of them, as the server's moderator would (nothing is posted nor audited)
            _, data = await service.export_record(game.id, actor=Moderator(user_id=0, guild_id=game.guild_id),
                                                  post=False)
            return data
        except ServiceError as exc:
            raise CommandError(f"--game {args.game}: {exc.describe()}") from None
        finally:
            await store.close()

    data = asyncio.run(export())
    try:
        write_atomically(out, data)
    except OSError as exc:
        raise CommandError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    print(f"wrote the record of game {args.game} to {args.out}; re-check it with: python -m bot replay {args.out}")
    return 0


def _add_export(commands) -> None:
    export = commands.add_parser(
        "export", help="write a game's record from a store (as /game export posts it)",
        description="Write the record of one game of a store (every resolved update: positions, orders, "
                    "seeds, reports; moderator edits and rollbacks as what they are) to a JSON file, as a "
                    "moderator's /game export posts it; nothing is posted. Re-check it with "
                    "'python -m bot replay FILE' (docs/record.md). Exit status 2 for a store that cannot be "
                    "opened, a game it does not hold or one not started yet.")
    export.add_argument("--store-url", required=True, type=_store_url, metavar="URL",
                        help="the database: sqlite:///PATH (relative; sqlite:////PATH absolute) or "
                             "postgresql://USER[:PASSWORD]@HOST:PORT/DATABASE")
    export.add_argument("--game", required=True, type=_positive, metavar="ID", help="the game's id (/games lists them)")
    export.add_argument("--out", required=True, metavar="FILE", help="the record to write (JSON); its folder must exist")
    export.set_defaults(run=_export, command_parser=export)


# ----------------------------------------------------------------------------- store
def _store_copy(args: argparse.Namespace) -> int:
    import asyncio

    from bot.store import StoreError
    from bot.store.copy import TerminalProgress, copy_store

    try:
        result = asyncio.run(copy_store(args.source, args.target, upgrade_source=args.upgrade_source,
                                        progress=TerminalProgress(sys.stdout)))
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    except KeyboardInterrupt:
        raise CommandError("interrupted: nothing was written to TO") from None
    print(result.summary())
    return 0


def _add_store(commands) -> None:
    store = commands.add_parser(
        "store", help="work on a store (database) as a whole: store copy FROM TO",
        description="Work on a Skirmish database as a whole. 'store copy' (named for what it does: every "
                    "row of one store copied into another, the first left as it was) moves a community from "
                    "the SQLite file to PostgreSQL, or back for a restore or a test (docs/store.md).")
    actions = store.add_subparsers(dest="action", required=True, metavar="ACTION")
    copy = actions.add_parser(
        "copy", help="copy every game from the store FROM into the empty store TO",
        description="Copy every game of the store FROM into the store TO, losing nothing: every table of the "
                    "schema (but the running processes of 'services'), ids kept, in one transaction on TO (all or "
                    "nothing). TO must hold no Skirmish data: a new database, or one with only the schema the "
                    "bot makes; a SQLite file is created. Stop every bot using FROM first. Prints the rows of "
                    "each table as it goes and a summary. Exit status 2, TO unchanged, for a bad URL, a server "
                    "that cannot be reached, a TO with data, a FROM newer than this code (or older, without "
                    "--upgrade-source).")
    urls = ("sqlite:///relative/path.sqlite3, sqlite:////absolute/path.sqlite3, a plain file path or "
            "postgresql://USER[:PASSWORD]@HOST:PORT/DATABASE")
    copy.add_argument("source", metavar="FROM", help=f"the store to copy: {urls}")
    copy.add_argument("target", metavar="TO", help=f"the empty store to fill: {urls}")
    copy.add_argument("--upgrade-source", action="store_true",
                      help="if FROM has an older schema than this code, upgrade it in place first (as the bot does "
                           "when it starts); without it such a FROM is refused and left as it is")
    copy.set_defaults(run=_store_copy, command_parser=copy)



# ----------------------------------------------------------------------------- web
def _web(args: argparse.Namespace) -> int:
    """The viewer over the store, until Ctrl-C or SIGTERM (exit 0)."""
    from bot.config import ConfigError, load_config

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        raise CommandError(str(exc)) from None
    store_url = args.store_url or config.store_url
    host = args.host or config.web.host
    port = args.port if args.port is not None else config.web.port
    _run_viewer(store_url, host, port, public_url=config.web.public_url, secret=config.web.secret)
    return 0


def _run_viewer(store_url, host: str, port: int, *, public_url: str | None = None, secret: str | None = None) -> None:
    """Open the store, serve the viewer on host:port, print ``viewer: URL`` (flushed) once it
    answers, and stop cleanly on SIGINT or SIGTERM."""
    import asyncio
    import signal

    from bot.service import Service
    from bot.store import Store, StoreError
    from bot.web import start

    async def main() -> None:
        store = await Store.open(store_url)
        try:
            try:
                service = Service(store)
                service.use_link_secret(secret)     # players' links: [web] secret, else the store's
                runner = await start(service, host, port, public_url=public_url)
            except OSError as exc:
                raise CommandError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
            try:
                stop = asyncio.Event()
                loop = asyncio.get_running_loop()
                for number in (signal.SIGINT, signal.SIGTERM):     # before the line that says it is ready
                    try:
                        loop.add_signal_handler(number, stop.set)
                    except (NotImplementedError, RuntimeError):
                        pass
                shown = f"[{host}]" if ":" in host else host
                print(f"viewer: http://{shown}:{port}/", flush=True)
                await stop.wait()
            finally:
                await runner.cleanup()
        finally:
            await store.close()

    try:
        asyncio.run(main())
    except StoreError as exc:
        raise CommandError(f"store: {exc}") from None
    except KeyboardInterrupt:
        pass


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, not {value}")
    return value


def _add_web(commands) -> None:
    web = commands.add_parser(
        "web", help="serve the web viewer of every game in the store (read only)",
        description="Serve the web viewer: every game of the store, update by update, in a browser (docs/web.md). "
                    "It only reads the store, so several of these may serve one PostgreSQL store (docs/deploy.md). "
                    "Prints 'viewer: URL' once it answers; Ctrl-C or SIGTERM stops it.")
    web.add_argument("--config", metavar="PATH", help="the configuration file (default: ./config.toml): its [store] "
                                                      "and [web] settings")
    web.add_argument("--store-url", type=_store_url, default=None, metavar="URL",
                     help="the store to read instead of the configuration's: sqlite:///PATH or postgresql://...")
    web.add_argument("--host", metavar="H", help="the address to listen on (default: [web] host, 127.0.0.1)")
    web.add_argument("--port", type=_port, metavar="P", help="the port to listen on (default: [web] port, 8080)")
    web.set_defaults(run=_web, command_parser=web)
# ----------------------------------------------------------------------------- ratings
def _ratings(args: argparse.Namespace) -> int:
    """Print each server's leaderboards, worked out from the stored games (issue 42)."""
    import asyncio

    from bot.store import StoreError

    store_url = args.store_url
    if store_url is None:
        from bot.config import ConfigError, load_config

        try:
            store_url = load_config().store_url
        except ConfigError as exc:
            raise CommandError(str(exc)) from None
    try:
        boards = asyncio.run(_leaderboards(store_url, args.family))
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    if not boards:
        print(f"No {args.family + ' ' if args.family else ''}game has ended with a verdict yet: nobody is rated.")
        return 0
    for number, board in enumerate(boards):
        if number:
            print()
        _print_utf8("\n".join(board.lines()) + "\n")
    return 0


async def _leaderboards(store_url: str, family: str | None):
    from bot.service import Service
    from bot.store import Store

    store = await Store.open(store_url)
    try:
        return await Service(store).leaderboards(family=family)
    finally:
        await store.close()


def _add_ratings(commands) -> None:
    ratings = commands.add_parser(
        "ratings", help="print each server's leaderboards (ratings from the games that ended at their verdict)",
        description="Work out the ratings of every server from the stored games (openskill's Plackett-Luce, per "
                    "server and game family, the games taken in the order they ended; docs/ratings.md) and print "
                    "each server's leaderboard: the members who count, then the provisional ones (fewer than "
                    "5 rated games), marked. Members who hid their profile are not shown. The same numbers as "
                    "/leaderboard, however often it is run.")
    ratings.add_argument("--store-url", type=_store_url, default=None, metavar="URL",
                         help="the database: sqlite:///PATH (relative; sqlite:////PATH absolute) or "
                              "postgresql://USER[:PASSWORD]@HOST:PORT/DATABASE (default: [store] of ./config.toml)")
    ratings.add_argument("--family", default=None, metavar="F",
                         help="only this game family's leaderboards (arena, territory)")
    ratings.set_defaults(run=_ratings, command_parser=ratings)


# ----------------------------------------------------------------------------- main
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Skirmish: simultaneous-move chess by post.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_render(commands)
    _add_demo(commands)
    _add_run(commands)
    _add_replay(commands)
    _add_export(commands)
    _add_store(commands)
    _add_web(commands)
    _add_ratings(commands)
    return parser


def _unknown_options(args: argparse.Namespace, extras: list[str]) -> str:
    """The message for arguments the command does not take: the first one named, with the option
    it most looks like (``--rulset`` -> ``--ruleset``), and where the command's options are listed."""
    # every command registers its parser as command_parser; one that does not is named by its words
    parser = getattr(args, "command_parser", None) or argparse.ArgumentParser(
        prog=" ".join(["python -m bot", *filter(None, (getattr(args, "command", None), getattr(args, "action", None)))]),
        add_help=False)
    first = extras[0]
    message = f"{parser.prog}: error: unrecognized argument {first!r}"
    if first.startswith("-"):
        import difflib

        known = [option for action in parser._actions for option in action.option_strings if option.startswith("--")]
        close = difflib.get_close_matches(first.split("=", 1)[0], known, n=1, cutoff=0.6)
        if close:
            message += f": did you mean {close[0]}?"
    return f"{message}\n(python -m bot {' '.join(parser.prog.split()[3:])} --help lists its options)"


def main(argv: list[str] | None = None) -> int:
    # a usage error exits with status 2 (argparse); an argument the command does not take is
    # named with the option it most looks like, rather than the top-level usage argparse prints
    args, extras = build_parser().parse_known_args(argv)
    if extras:
        print(_unknown_options(args, extras), file=sys.stderr)
        return EXIT_USAGE
    try:
        return args.run(args)
    except CommandError as exc:
        command = " ".join(filter(None, (args.command, getattr(args, "action", None))))
        print(f"python -m bot {command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
