"""How fast does ``/move`` suggest orders as a player types? ``order_suggestions`` on a 50,000-piece board.

    .venv/bin/python benchmarks/autocomplete.py [--players N] [--quick] [--seed N]

The board is ``benchmarks/validate.py``'s: 50,000 pieces of random kinds owned by 250 players
(about 200 pieces each), scattered over a 6,000 x 6,000 area of the unbounded neisg board. It is
stored as the current snapshot of a running game in a fresh SQLite file, every owner a player of
the game, and the suggestions are asked of the real :class:`~bot.service.Service` exactly as the
cog asks them (a read of the game, the player and the working state, the variant's
``may_order``, the engine's legal destinations, ``check`` of the typed text).

For each of ``--players`` players (default 20) it types one of their moves key by key, as a player
would: ``""``, ``"N"``, ``"N("``, ``"N(-2"``, ... up to the whole order; then the move's short form
(``N(x,y)``, the square it goes to), a capture's prefix when they have one, and ``"res"``. Each
keystroke is one call, timed on the wall clock. It prints, separately:

- the very first call of the process, which reads the 50,000-piece state from the database (the
  service keeps it for every later call of the same revision);
- each player's first keystroke (their move list is made: the position for movement queries, the
  first pieces' destinations);
- then ``"("``, a text no move completes: the worst case, every one of the player's pieces has
  its destinations computed (about 200 pieces, once; later keystrokes read them);
- every later keystroke (the cache per game, revision and player is warm);

with the median, p90, p99 and the slowest call, against Discord's limit: an autocomplete must be
answered within 3 seconds. Numbers only, no asserts; they depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # runnable without installing the project

from _timing import percentile  # noqa: E402
from validate import SEED, build_state  # noqa: E402

from bot.engine import serialize  # noqa: E402
from bot.engine.ruleset import load_preset  # noqa: E402
from bot.render.palette import colour_names  # noqa: E402
from bot.service import Moderator, Service  # noqa: E402
from bot.store import Store  # noqa: E402

MODERATOR = Moderator(user_id=1, guild_id=1)
DISCORD_LIMIT_MS = 3000
#: typed second by every player: no move completes it, so every one of their pieces' moves is computed
WORST = "("


def colours(count: int) -> list[str]:
    names = list(colour_names())
    found = names + [f"{a}/{b}" for a in names for b in names if a != b]
    return found[:count]


async def set_up(service: Service, store: Store, state) -> tuple[int, dict[str, int]]:
    """A running neisg game whose current snapshot is ``state``; every player of it joined."""
    game = await service.create_game(guild_id=1, channel_id=1, actor=MODERATOR, name="autocomplete benchmark", seed=1)
    await service.start_game(game.id, actor=MODERATOR)
    users = {name: 10_000 + index for index, name in enumerate(sorted(state.players))}
    update = state.update - 1
    async with store.transaction() as q:
        for (name, user_id), colour in zip(sorted(users.items()), colours(len(users))):
            await q.insert_player(game_id=game.id, user_id=user_id, name=name, colour=colour,
                                  joined_at=service.now(), joined_update=1)
        await q.insert_snapshot(game_id=game.id, update_no=update, revision=0, base_revision=None,
                                state=serialize.dumps(state), orders={}, seed="1", report=None, reason="update",
                                created_at=service.now())
        await q.update_game(game.id, update_no=update + 1, snapshot_update=update, snapshot_revision=0)
    service._forget_state(game.id)
    return game.id, users


def keystrokes(state, name: str, rng: random.Random, position) -> list[str]:
    """What ``name`` types, key by key: one of their moves (long form), its short form, a capture's
    prefix if they have one, and the start of ``resign``."""
    from bot.engine.model import format_square
    from bot.engine.validation import legal_destinations

    pieces = state.pieces_of(name)
    rng.shuffle(pieces)
    texts: list[str] = ["", WORST]
    for piece in pieces:
        targets = legal_destinations(position, piece, state=state)
        if not targets:
            continue
        target = rng.choice(targets)
        move = f"{piece.kind}{format_square(piece.square)}-{format_square(target)}"
        texts += [move[:end] for end in range(1, len(move) + 1)]
        short = f"{piece.kind}{format_square(target)}"
        texts += [short[:end] for end in range(len(piece.kind) + 1, len(short) + 1)]
        captures = [t for t in targets if any(p.owner != name for p in state.board.at(t))]
        if captures:
            texts.append(f"{piece.kind}{format_square(piece.square)}-{format_square(captures[0])[:3]}")
        break
    return texts + ["r", "re", "res"]


def line(title: str, values_ms: list[float]) -> str:
    values = sorted(values_ms)
    return (f"  {title:<40} {len(values):5d} calls   median {statistics.median(values):8.1f} ms   "
            f"p90 {percentile(values, 90):8.1f} ms   p99 {percentile(values, 99):8.1f} ms   max {values[-1]:8.1f} ms")


async def run(players: int, seed: int, folder: str) -> None:
    ruleset = load_preset("neisg")
    began = time.perf_counter()
    state = build_state(ruleset, random.Random(SEED))
    print(f"board: {len(state.board)} pieces, {len(state.players)} players (built in {time.perf_counter() - began:.1f} s)")
    store = await Store.open(Path(folder) / "autocomplete.sqlite3")
    try:
        service = Service(store)
        game_id, users = await set_up(service, store, state)
        rng = random.Random(seed)
        owners = sorted({p.owner for p in state.board if p.owner is not None})
        chosen = rng.sample(owners, min(players, len(owners)))
        from bot.engine.abilities import position_for

        position = position_for(ruleset, state)
        typing = {name: keystrokes(state, name, rng, position) for name in chosen}
        first_call: float | None = None
        first: list[float] = []
        worst: list[float] = []
        later: list[float] = []
        offered = 0
        for name in chosen:
            for index, typed in enumerate(typing[name]):
                started = time.perf_counter()
                suggestions = await service.order_suggestions(game_id, user_id=users[name], typed=typed)
                elapsed = (time.perf_counter() - started) * 1000
                offered += len(suggestions)
                if first_call is None:
                    first_call = elapsed
                elif index == 0:
                    first.append(elapsed)
                elif typed == WORST:
                    worst.append(elapsed)
                else:
                    later.append(elapsed)
        print(f"order_suggestions(): {len(chosen)} players typing {sum(map(len, typing.values()))} keystrokes; "
              f"{offered} suggestions offered (machine: {platform.machine()}, Python {platform.python_version()})")
        print(f"  {'the first call (the state read from the database)':<40}     1 call    {first_call:8.1f} ms")
        if first:
            print(line("a player's first keystroke", first))
        print(line("then a text no move completes", worst))
        print(line("every later keystroke", later))
        print(line("all keystrokes but the very first", first + worst + later))
        slowest = max([first_call or 0.0] + first + worst + later)
        print(f"Discord's limit is {DISCORD_LIMIT_MS} ms: the slowest call took {slowest:.0f} ms "
              f"({'within' if slowest < DISCORD_LIMIT_MS else 'OVER'} the limit)")
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20, help="players who type (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="5 players")
    args = parser.parse_args()
    if args.quick:
        args.players = 5
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args.players, args.seed, folder))


if __name__ == "__main__":
    main()
