"""``python -m bot demo`` (INTERFACES.md, "Command line"): reduced sessions, run as CI runs them.

Two runs with the same seed go side by side; they must produce the posts layout, positive counts
and the same posts, file for file. They play with ``--interval 0`` (each update resolves at its
deadline, set to the moment the last one resolved, once the players' orders are in): the posts of
a seed do not depend on the interval (tests/test_demo_stores.py plays its reference at the default
3 s). Each game family the demo plays has its pair: neisg (sandbox once),
arena (issue 21: seats, several moves a round, M.A.D., power-ups, the verdict) and megachess
(issue 22: joins over time, teams in turn, bounces).
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.demo import DemoError, planner_for, seat_count
from bot.engine import serialize
from bot.engine.variants import load_variant

ROOT = Path(__file__).resolve().parents[1]
PLAYERS, UPDATES, SEED = 6, 8, 1     # 8 updates: the first event starts at update 2 (RULES 4)
#: no wait between deadlines (the players' orders are always in before their update resolves)
INTERVAL = "0"
TEXT_SUFFIXES = (".md", ".txt")


def run_demo(out: Path, *extra: str, players: int | None = PLAYERS, updates: int = UPDATES,
             timeout: float = 180) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKIRMISH_FAULT")}
    sizes = ["--players", str(players)] if players is not None else []
    return subprocess.run([sys.executable, "-m", "bot", "demo", *sizes, "--updates", str(updates),
                           "--seed", str(SEED), "--interval", INTERVAL, "--out", str(out), *extra],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def run_twice(factory, *extra: str, **sizes) -> list[tuple[Path, subprocess.CompletedProcess]]:
    """Two runs of one session side by side, each in its own directory."""
    outs = [factory.mktemp("demo") / "out" for _ in range(2)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda out: run_demo(out, *extra, **sizes), outs))
    return list(zip(outs, results))


def counts(stdout: str) -> dict[str, int]:
    """The summary's counts by label: ``  captures         5`` -> {"captures": 5},
    ``  M.A.D. collisions  3 (...)`` -> {"M.A.D. collisions": 3}."""
    found = {}
    for line in stdout.splitlines():
        match = re.match(r"^  ([A-Za-z][A-Za-z. -]*?)\s{2,}(\d+)", line)
        if match and match.group(1) != "time":
            found[match.group(1)] = int(match.group(2))
    return found


def text_posts(posts: Path) -> dict[str, str]:
    return {str(p.relative_to(posts)): p.read_text(encoding="utf-8") for p in sorted(posts.rglob("*"))
            if p.is_file() and p.suffix in TEXT_SUFFIXES}


def pictures(posts: Path) -> dict[str, bytes]:
    return {str(p.relative_to(posts)): p.read_bytes() for p in sorted(posts.rglob("*.png"))}


def summary_line(stdout: str, label: str) -> str:
    """The value of one line of the summary (``end``: how the game ended)."""
    for line in stdout.splitlines():
        match = re.match(rf"^  {re.escape(label)}\s{{2,}}(.*)$", line)
        if match:
            return match.group(1)
    raise AssertionError(f"no {label!r} line in the summary:\n{stdout}")


def replayed(out: Path) -> list:
    """Issue 29: the demo's game exported as its record (through the service, as /game export does)
    and every update re-resolved from the record by the engine."""
    import asyncio

    from bot.service import Moderator, Service
    from bot.service.record import replay_record
    from bot.store import Store

    async def export() -> bytes:
        store = await Store.open(out / "skirmish.sqlite3")
        try:
            service = Service(store)
            [game] = await service.games_in(include_ended=True)
            _, data = await service.export_record(game.id, post=False,
                                                  actor=Moderator(user_id=game.created_by, guild_id=game.guild_id))
            return data
        finally:
            await store.close()

    import json

    return replay_record(json.loads(asyncio.run(export())))


def assert_the_record_replays(out: Path) -> None:
    checks = replayed(out)
    assert checks and all(check.matches for check in checks), [c.line() for c in checks if not c.matches]


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory) -> list[tuple[Path, subprocess.CompletedProcess]]:
    return run_twice(tmp_path_factory)


def test_demo_succeeds_and_prints_positive_counts(two_runs):
    _, result = two_runs[0]
    assert result.returncode == 0, result.stdout + result.stderr
    found = counts(result.stdout)
    for label in ("orders", "refusals", "captures", "fallbacks fired", "implosions", "events", "kings placed",
                  "posts"):
        assert found.get(label, 0) > 0, f"{label} is zero or missing:\n{result.stdout}"
    assert f"updates          {UPDATES} of {UPDATES}" in result.stdout
    # neisg has no end of its own: the session's length cuts it short, and the summary says so
    assert summary_line(result.stdout, "end") == f"cut short after update {UPDATES} (--updates {UPDATES}): " \
                                                 "the game had no verdict yet"
    assert "secret, by direct message" in result.stdout
    assert "\r" not in result.stdout, "a progress bar is drawn only on a terminal"
    assert "FAILED" not in result.stdout


def test_demo_writes_the_posts_layout(two_runs):
    out, _ = two_runs[0]
    posts = out / "posts"
    assert (out / "skirmish.sqlite3").is_file()
    for update in range(1, UPDATES + 1):
        folder = posts / f"{update:04d}"
        for name in ("board.png", "health.png", "health.txt", "report.md"):
            assert (folder / name).is_file(), f"{folder / name} is missing"
        assert (folder / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (folder / "report.md").read_text(encoding="utf-8").startswith(f"Update {update}")
    assert (posts / "0002" / "events.md").is_file(), "the first event starts at update 2"
    assert "Event " in (posts / "0002" / "events.md").read_text(encoding="utf-8")
    assert (posts / "timelapse.gif").read_bytes()[:6] in (b"GIF87a", b"GIF89a")
    assert list(posts.glob("*/private/*.md")), "players get their private reports"
    notices = [p.read_text(encoding="utf-8") for p in posts.glob("*/notice-*.md")]
    assert notices and all("has submitted a secret move" in n for n in notices)


def test_each_refusal_is_answered_privately_as_the_bot_answers_it(two_runs):
    """Issue 37: a refused order is answered at once to its sender alone, so no channel post shows
    it; the demo writes each answer beside the player's private report of that update: the word
    "refused", the order, the reason with the part at fault pointed at, the hint where there is one,
    and where the rulebook explains the rule."""
    out, result = two_runs[0]
    at_once = int(re.search(r"^  refusals\s+\d+ \((\d+) at once", result.stdout, re.MULTILINE).group(1))
    answers = {path: path.read_text(encoding="utf-8") for path in sorted((out / "posts").glob("*/private/*-refused.md"))}
    headers = [re.match(r"\*\*Order refused\*\* \(update (\d+), sent (with /move|by direct message)\): `(.+)`$", line)
               for text in answers.values() for line in text.splitlines() if "Order refused" in line]
    assert at_once > 0 and len(headers) == at_once and all(headers), answers
    for path, text in answers.items():
        update = int(path.parent.parent.name)
        for block in text.split("\n\n"):
            header, fence, reason, quoted, carets, *rest = block.splitlines()
            order = re.match(r".*: `(.+)`$", header).group(1)
            assert f"(update {update}," in header and fence == "```" and reason
            assert quoted.strip() == order and set(carets.strip()) == {"^"}
            assert "```" in rest
    assert any("\nHint: " in text for text in answers.values())
    assert any("in the rulebook: docs/rulebook/" in text for text in answers.values())
    posts = text_posts(out / "posts")
    assert not [name for name, text in posts.items() if "Order refused" in text and "/private/" not in name]


def test_the_demo_ends_with_its_record_which_replays_and_export_writes_it_again(two_runs, tmp_path):
    """Issue 37: the demo ends by writing its game's record (DIR/record.json, as /game export posts
    it); ``python -m bot replay`` re-checks it, and ``python -m bot export`` writes any game's
    record from a store: the same record (but the moment it was exported)."""
    import json

    out, result = two_runs[0]
    record = out / "record.json"
    assert f"  record           {record} (re-check it: python -m bot replay {record})" in result.stdout
    replay = subprocess.run([sys.executable, "-m", "bot", "replay", str(record)], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, check=False)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert replay.stdout.splitlines()[-1] == f"{UPDATES} of {UPDATES} updates of game 1 (neisg) match"
    again = tmp_path / "game-1.json"
    export = subprocess.run([sys.executable, "-m", "bot", "export", "--store-url", f"sqlite:///{out / 'skirmish.sqlite3'}",
                             "--game", "1", "--out", str(again)], cwd=ROOT, capture_output=True, text=True,
                            timeout=120, check=False)
    assert export.returncode == 0, export.stderr
    assert export.stdout == f"wrote the record of game 1 to {again}; re-check it with: python -m bot replay {again}\n"
    exported, written = json.loads(again.read_text(encoding="utf-8")), json.loads(record.read_text(encoding="utf-8"))
    assert exported.pop("exported_at") >= written.pop("exported_at")
    assert exported == written
    missing = subprocess.run([sys.executable, "-m", "bot", "export", "--store-url", f"sqlite:///{out / 'skirmish.sqlite3'}",
                              "--game", "7", "--out", str(tmp_path / "game-7.json")], cwd=ROOT, capture_output=True,
                             text=True, timeout=120, check=False)
    assert missing.returncode == 2 and not (tmp_path / "game-7.json").exists()
    assert missing.stderr.startswith("python -m bot export: error: --game 7: ") and "has no game 7 (its games: 1 (" \
        in missing.stderr


def test_every_post_is_delivered_once(two_runs):
    out, _ = two_runs[0]
    with sqlite3.connect(out / "skirmish.sqlite3") as db:
        unsent = db.execute("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL").fetchone()[0]
        game = db.execute("SELECT status, update_no FROM games").fetchall()
    assert unsent == 0
    assert game == [("ended", UPDATES + 1)]


def test_same_seed_gives_the_same_text_posts(two_runs):
    (first, _), (second, _) = two_runs
    a, b = text_posts(first / "posts"), text_posts(second / "posts")
    assert a.keys() == b.keys()
    assert [name for name in a if a[name] != b[name]] == []
    pictures = {str(p.relative_to(first / "posts")) for p in (first / "posts").rglob("*.png")}
    assert pictures == {str(p.relative_to(second / "posts")) for p in (second / "posts").rglob("*.png")}
    assert counts(two_runs[0][1].stdout) == counts(two_runs[1][1].stdout)


def test_a_finished_demo_is_summarised_again(two_runs):
    out, first = two_runs[0]
    again = run_demo(out, timeout=60)
    assert again.returncode == 0, again.stdout + again.stderr
    assert counts(again.stdout) == counts(first.stdout)
    # issue 27 item 6: a re-run says that nothing was played, and gives no time for it
    assert "nothing was played: this session had ended already" in again.stdout
    assert "nothing was played" not in first.stdout
    assert not re.search(r"^  time\s", again.stdout, re.MULTILINE)


def test_a_directory_holding_another_session_is_refused(two_runs):
    out, _ = two_runs[0]
    result = subprocess.run([sys.executable, "-m", "bot", "demo", "--players", "3", "--out", str(out)],
                            cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert "holds another session" in result.stderr


def test_a_ruleset_that_cannot_be_played_is_refused_before_anything_is_written(tmp_path):
    result = run_demo(tmp_path / "chess960", "--ruleset", "chess960", timeout=60)
    assert result.returncode == 2
    assert "invalid choice: 'chess960' (choose from 'arena', " in result.stderr
    assert not (tmp_path / "chess960").exists()


def test_a_sandbox_demo_plays_energy_and_moves_its_first_event_into_the_session(tmp_path):
    """``python -m bot demo --ruleset sandbox`` (issue 11): the same pipeline on the second ruleset.
    Sandbox's first event is at update 25 (RULES 5.1); an 8-update session moves it to update 2 and
    says so. No order is secret: sandbox takes orders only in the game channel."""
    out = tmp_path / "sandbox"
    result = run_demo(out, "--ruleset", "sandbox")
    assert result.returncode == 0, result.stdout + result.stderr
    found = counts(result.stdout)
    for label in ("orders", "refusals", "captures", "events", "kings placed", "posts"):
        assert found.get(label, 0) > 0, f"{label} is zero or missing:\n{result.stdout}"
    assert "0 secret, by direct message" in result.stdout
    assert "the first drawn at update 2; the ruleset's own is 25" in result.stdout
    assert "FAILED" not in result.stdout
    health = (out / "posts" / f"{UPDATES:04d}" / "health.txt").read_text(encoding="utf-8")
    assert "--- Energy: " in health and "Health" not in health
    assert "Event " in (out / "posts" / "0002" / "events.md").read_text(encoding="utf-8")
    assert_the_record_replays(out)        # issue 29: the whole game re-checked from its record


# ============================================================================ Chess Arena (issue 21)
ARENA_UPDATES = 12


@pytest.fixture(scope="module")
def arena_runs(tmp_path_factory) -> list[tuple[Path, subprocess.CompletedProcess]]:
    """The default 12 players, clamped to arena's 8 seats; 12 rounds (power-ups appear after round 3)."""
    return run_twice(tmp_path_factory, "--ruleset", "arena", players=None, updates=ARENA_UPDATES)


def test_an_arena_demo_seats_its_players_and_plays_to_the_verdict(arena_runs):
    out, result = arena_runs[0]
    assert result.returncode == 0, result.stdout + result.stderr
    assert "arena, 8 players (12 asked; Chess Arena seats 2 to 8)" in result.stdout
    found = counts(result.stdout)
    for label in ("orders", "refusals", "captures", "M.A.D. collisions", "power-ups taken", "posts"):
        assert found.get(label, 0) > 0, f"{label} is zero or missing:\n{result.stdout}"
    assert "FAILED" not in result.stdout
    # the game ends by its own verdict (D68 at the session's length, or D52), and the summary names it
    end = summary_line(result.stdout, "end")
    assert re.fullmatch(r"\w+( and \w+)* (wins|share the win) with \d+ points: .*\((D52|D68)\)", end), end
    assert found["updates"] <= ARENA_UPDATES
    with sqlite3.connect(out / "skirmish.sqlite3") as db:
        seats = db.execute("SELECT seat FROM players ORDER BY seat").fetchall()
        status = db.execute("SELECT status FROM games").fetchone()[0]
        orders = [row[0] for row in db.execute("SELECT canonical FROM orders WHERE status = 'resolved'")]
    assert seats == [(n,) for n in range(1, 9)], "every player took a seat before the start"
    assert status == "ended"
    # a submission holds 1 + kings moves of different pieces (D41): two lines for a player with a king
    assert sum("; " in order for order in orders) > len(orders) / 2
    announcements = [p.read_text(encoding="utf-8") for p in (out / "posts").glob("*/announcement-*.md")]
    ended = [text for text in announcements if " has ended: " in text]
    assert len(ended) == 1 and " wins after update " in ended[0], "the end and its verdict in one announcement"


def test_the_same_seed_plays_the_same_arena_session(arena_runs):
    (first, one), (second, two) = arena_runs
    assert text_posts(first / "posts") == text_posts(second / "posts")
    assert pictures(first / "posts") == pictures(second / "posts")
    assert counts(one.stdout) == counts(two.stdout)


def test_after_an_arena_demo_the_ratings_print_its_leaderboard(arena_runs):
    """Issue 42: the demo's one game rates its eight players on server 1; one rated game is fewer
    than a member needs to count, so every one is listed as provisional, the winner first. Both runs
    of the same seed print the same numbers (ratings are a pure function of the stored games)."""
    printed = []
    for out, _ in arena_runs:
        result = subprocess.run([sys.executable, "-m", "bot", "ratings", "--store-url",
                                 f"sqlite:///{out / 'skirmish.sqlite3'}"], cwd=ROOT, capture_output=True,
                                text=True, timeout=120, check=False)
        assert result.returncode == 0, result.stdout + result.stderr
        printed.append(result.stdout)
    lines = printed[0].splitlines()
    assert lines[0] == "Server 1, arena: 0 counted, 8 provisional (a member counts after 5 rated games)"
    assert len(lines) == 9 and all(line.endswith(" (provisional)") for line in lines[1:])
    assert re.search(r"^    \?\. \w+ \(user \d+\): -?\d+\.\d \(\d+\.\d ± \d\.\d\), 1 game, 1 won", lines[1])
    assert sum(", 1 won" in line for line in lines[1:]) == len(summary_line(arena_runs[0][1].stdout, "end")
                                                                   .split(" with ")[0].split(" and "))
    assert printed[0] == printed[1]


# ============================================================================ Megachess (issue 22)
MEGA_PLAYERS, MEGA_UPDATES = 6, 6
TEAMS = ("alabaster", "brushed metal")      # alabaster moves on odd updates (RULES 5.3)


@pytest.fixture(scope="module")
def megachess_runs(tmp_path_factory) -> list[tuple[Path, subprocess.CompletedProcess]]:
    return run_twice(tmp_path_factory, "--ruleset", "megachess", players=MEGA_PLAYERS, updates=MEGA_UPDATES)


def test_a_megachess_demo_joins_players_over_time_and_alternates_the_teams(megachess_runs):
    out, result = megachess_runs[0]
    assert result.returncode == 0, result.stdout + result.stderr
    found = counts(result.stdout)
    for label in ("orders", "refusals", "joins", "captures", "bounces", "posts"):
        assert found.get(label, 0) > 0, f"{label} is zero or missing:\n{result.stdout}"
    assert "FAILED" not in result.stdout
    # megachess has no end: the session's length cuts it short
    assert summary_line(result.stdout, "end").startswith(f"cut short after update {MEGA_UPDATES} ")
    posts = out / "posts"
    joined = {update for update in range(1, MEGA_UPDATES + 1)
              if " joined " in (posts / f"{update:04d}" / "report.md").read_text(encoding="utf-8")}
    assert len(joined) >= 2 and 1 in joined, f"players join over time, not all at once: {sorted(joined)}"
    with sqlite3.connect(out / "skirmish.sqlite3") as db:
        names = dict(db.execute("SELECT user_id, name FROM players").fetchall())
        states = {update: serialize.loads(state) for update, state in
                  db.execute("SELECT update_no, state FROM snapshots ORDER BY update_no, revision")}
        orders = db.execute("SELECT update_no, user_id, canonical FROM orders WHERE status = 'resolved'").fetchall()
    moved = set()
    for update, user, canonical in orders:
        if ")-(" not in canonical:
            continue            # a king placement (a join) is accepted on any update (D65)
        team = states[update - 1].players[names[user]].team
        assert team == TEAMS[(update - 1) % 2], f"{names[user]} of {team} moved on update {update}"
        moved.add(team)
        assert canonical.count("; ") >= 1, "a player moves many pieces in one submission"
    assert moved == set(TEAMS)


def test_the_same_seed_plays_the_same_megachess_session(megachess_runs):
    (first, one), (second, two) = megachess_runs
    assert text_posts(first / "posts") == text_posts(second / "posts")
    assert pictures(first / "posts") == pictures(second / "posts")
    assert counts(one.stdout) == counts(two.stdout)


def test_the_careers_of_a_megachess_demo_add_up_to_its_stored_updates(megachess_runs):
    """Issue 42: megachess has no verdict, so its players get careers: each member's updates played
    are the updates with a resolved order of theirs, and the kings captured and armies taken of all
    the members add up to the captured kings and the hand-overs of the stored reports (D61)."""
    import asyncio
    import json

    from bot.service import Service
    from bot.store import Store

    out, _ = megachess_runs[0]
    with sqlite3.connect(out / "skirmish.sqlite3") as db:
        members = [row[0] for row in db.execute("SELECT user_id FROM players WHERE departure IS NULL "
                                                "OR departure != 'left'")]
        played = dict(db.execute("SELECT user_id, COUNT(DISTINCT update_no) FROM orders WHERE status = 'resolved' "
                                 "GROUP BY user_id").fetchall())
        reports = [json.loads(row[0]) for row in db.execute(
            "SELECT report FROM snapshots WHERE reason = 'update' AND rolled_back = 0")]
    entries = [entry for report in reports for entry in report["entries"]]
    armies = sum(entry["type"] == "army" for entry in entries)
    kings = sum(entry["type"] == "capture" and entry["data"]["kind"] == "king" for entry in entries)

    async def careers():
        store = await Store.open(out / "skirmish.sqlite3")
        try:
            service = Service(store)
            return {member: (await service.profile(1, member)).careers for member in members}
        finally:
            await store.close()

    found = asyncio.run(careers())
    assert all(len(lines) == 1 and lines[0].family == "megachess" for lines in found.values())
    assert {member: lines[0].updates_played for member, lines in found.items()} == \
        {member: played.get(member, 0) for member in members}
    assert sum(lines[0].armies_taken for lines in found.values()) == armies, (armies, kings)
    assert sum(lines[0].kings_captured for lines in found.values()) == kings, (armies, kings)


# ============================================================================ the players are never late
def test_players_slower_than_the_interval_still_have_their_orders_in_the_update_they_saw(tmp_path, monkeypatch):
    """The deadline of an update is set when the update before resolves; players who take longer
    than the interval to decide (a busy machine drawing boards) used to send orders after it had
    passed, into the next update, and the posts changed. The demo's scheduler waits for them: the
    same posts as players who decide at once."""
    import asyncio
    import dataclasses
    import time

    from bot.demo import DemoOptions
    from bot.demo import session as demo_session

    def play(out: Path, interval: int) -> dict[str, bytes]:
        options = DemoOptions(players=4, updates=3, seed=7, out=out, interval=interval)
        summary = asyncio.run(demo_session.run_demo(options))
        assert summary.late == 0 and not summary.missing()
        return {str(p.relative_to(out / "posts")): p.read_bytes() for p in sorted((out / "posts").rglob("*"))
                if p.is_file()}

    quick = play(tmp_path / "quick", 0)
    planner_for = demo_session.planner_for

    def slow_planner(variant):
        planner = planner_for(variant)

        def plan(ruleset, state, update, *args):
            if update >= 2:
                time.sleep(1.5)             # longer than the 1 s interval: the deadline passes meanwhile
            return planner.plan(ruleset, state, update, *args)
        return dataclasses.replace(planner, plan=plan)

    monkeypatch.setattr(demo_session, "planner_for", slow_planner)
    assert play(tmp_path / "slow", 1) == quick


# ============================================================================ the families and their seats
def test_the_demo_asks_the_variant_how_many_players_it_seats():
    arena, megachess = load_variant("arena"), load_variant("megachess")
    assert seat_count(arena, 12) == (8, " (12 asked; Chess Arena seats 2 to 8)")
    assert seat_count(arena, 3) == (3, "")
    assert seat_count(megachess, 12) == (12, "")
    with pytest.raises(DemoError, match="needs at least 2 players"):
        seat_count(arena, 1)


@pytest.mark.parametrize("asked", ["1", "0", "-3"])
def test_too_few_players_get_one_limit_in_one_message(asked, tmp_path, capsys):
    """Issue 27 item 6: --players 1 and --players 0 used to give two different limits."""
    from bot.__main__ import main

    out = tmp_path / "demo"
    assert main(["demo", "--players", asked, "--out", str(out)]) == 2
    assert f"needs at least 2 players, not {asked}: the demo plays 2 to " in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("asked", ["25", "-1"])
def test_an_interval_out_of_range_is_refused_in_one_message_before_anything_is_written(asked, tmp_path, capsys):
    from bot.__main__ import main

    out = tmp_path / "demo"
    assert main(["demo", "--interval", asked, "--out", str(out)]) == 2
    assert capsys.readouterr().err.endswith(
        f"error: --interval is the seconds between two deadlines, 0 to 24, not {asked}\n")
    assert not out.exists()


def test_the_limit_says_the_whole_range():
    neisg = load_variant("neisg")
    with pytest.raises(DemoError) as zero:
        seat_count(neisg, 0)
    with pytest.raises(DemoError) as one:
        seat_count(neisg, 1)
    assert str(zero.value).replace("not 0", "not 1") == str(one.value)
    assert "needs at least 2 players, not 1: the demo plays 2 to " in str(one.value)
    with pytest.raises(DemoError, match="one colour each"):
        seat_count(neisg, 1000)


def test_each_family_has_its_planner_and_one_without_is_refused_in_words():
    for ruleset in ("neisg", "sandbox", "arena", "megachess", "territory"):
        variant = load_variant(ruleset)
        assert planner_for(variant).family == variant.family
    unplayed = SimpleNamespace(family="go", title="Go")        # a family the demo has no players for
    with pytest.raises(DemoError, match="no simulated players for Go .*choose one of .*territory"):
        planner_for(unplayed)


# ============================================================================ records (issue 29)
def _exports_and_replays(runs) -> None:
    """A community can re-check a whole game: the demo's game of each ruleset (neisg, arena and
    megachess here, sandbox and territory in their own tests) exported as its record, every update
    re-resolved by the engine."""
    out, result = runs[0]
    assert result.returncode == 0, result.stdout + result.stderr
    assert_the_record_replays(out)


# one test per family, each naming its sessions' fixture: under pytest-xdist a test and the
# sessions it reads go to the same worker (tests/conftest.py), so no session is played twice
def test_a_whole_neisg_demo_game_exports_and_every_update_replays(two_runs):
    _exports_and_replays(two_runs)


def test_a_whole_arena_demo_game_exports_and_every_update_replays(arena_runs):
    _exports_and_replays(arena_runs)


def test_a_whole_megachess_demo_game_exports_and_every_update_replays(megachess_runs):
    _exports_and_replays(megachess_runs)



# ============================================================================ Territory (issue 24)
#: 24 turns: turn 3 is always skipped (nobody controls Green yet, RULES 5.4.3); seed 1's players
#: place, draft, move, use abilities and capture within them
TERRITORY_UPDATES = 24


@pytest.fixture(scope="module")
def territory_runs(tmp_path_factory) -> list[tuple[Path, subprocess.CompletedProcess]]:
    return run_twice(tmp_path_factory, "--ruleset", "territory", players=2, updates=TERRITORY_UPDATES)


def test_a_territory_demo_plays_turn_by_turn_until_a_verdict_or_its_length(territory_runs):
    out, result = territory_runs[0]
    assert result.returncode == 0, result.stdout + result.stderr
    found = counts(result.stdout)
    for label in ("orders", "refusals", "placements", "drafts", "moves", "abilities", "captures", "skipped turns",
                  "posts"):
        assert found.get(label, 0) > 0, f"{label} is zero or missing:\n{result.stdout}"
    assert "FAILED" not in result.stdout
    end = summary_line(result.stdout, "end")
    assert (end == f"cut short after update {TERRITORY_UPDATES} (--updates {TERRITORY_UPDATES}): the game had no "
                   "verdict yet" or re.fullmatch(r"\w+ \((Red|Blue)\) wins on turn \d+: .*\(T9\)", end)), end
    assert "warning" not in result.stdout, "every submission was in before its turn ended"
    posts = out / "posts"
    # a skipped turn is posted as one line and no board (issue 24)
    assert (posts / "0003" / "report.md").read_text(encoding="utf-8").strip() == \
        "Turn 3 is Green's, which nobody controls: it is skipped."
    assert not (posts / "0003" / "board.png").exists()
    variant = load_variant("territory")
    with sqlite3.connect(out / "skirmish.sqlite3") as db:
        names = dict(db.execute("SELECT user_id, name FROM players").fetchall())
        seats = db.execute("SELECT name, seat FROM players ORDER BY seat").fetchall()
        states = {update: serialize.loads(state) for update, state in
                  db.execute("SELECT update_no, state FROM snapshots ORDER BY update_no, revision")}
        orders = db.execute("SELECT update_no, user_id FROM orders WHERE status = 'resolved'").fetchall()
    assert seats == [("Ada", 1), ("Basil", 2)]
    assert {name: player.colour for name, player in states[0].players.items()} == {"Ada": "Red", "Basil": "Blue"}
    played = [update for update, _ in orders]
    assert len(played) == len(set(played)), "a turn ends at its first accepted submission"
    for update, user in orders:
        assert variant.who_may_order(states[update - 1]) == [names[user]], f"turn {update} was not {names[user]}'s"
    last = max(states)
    skipped = {update for update in range(1, last + 1) if not variant.who_may_order(states[update - 1])}
    assert set(played) | skipped == set(range(1, last + 1)), "every turn is played or skipped, none missed"


def test_the_same_seed_plays_the_same_territory_session(territory_runs):
    (first, one), (second, two) = territory_runs
    # the start says how long a turn lasts, not the clock time the first one closes at (issue 37)
    start = (first / "posts" / "0000").glob("announcement-*.md")
    assert [path.read_text(encoding="utf-8") for path in start] == [
        "**Skirmish demo (territory, 2 players, 24 updates, seed 1)** has started: Territory. Seats: Ada (Red), "
        "Basil (Blue). Send your orders with /move. Each turn lasts up to 24 hours: it ends as soon as its "
        "player's submission is accepted.\n"]
    assert text_posts(first / "posts") == text_posts(second / "posts")
    assert pictures(first / "posts") == pictures(second / "posts")
    assert counts(one.stdout) == counts(two.stdout)


def test_a_territory_demo_game_exports_and_every_turn_replays(territory_runs):
    out, result = territory_runs[0]
    assert result.returncode == 0, result.stdout + result.stderr
    assert_the_record_replays(out)


def test_territory_players_order_on_their_turn_and_the_other_is_refused_as_out_of_turn():
    """The planner alone, turn by turn on the engine (no service): the player whose turn it is sends
    one submission the variant accepts; nobody sends anything on a skipped turn; a submission of the
    other player's is "not your turn" (T25)."""
    from bot.demo.territory import PLANNER as TERRITORY, plan_turn

    variant = load_variant("territory")
    ruleset = variant.ruleset
    players = TERRITORY.cast(2)
    state = variant.set_up([variant.new_player(p.name, p.colour) for p in players], SEED)
    out_of_turn = skipped = 0
    for turn in range(1, 13):
        intents = plan_turn(ruleset, state, turn, SEED, players)
        active = variant.who_may_order(state)
        if not active:
            assert intents == [], f"turn {turn} is skipped: nobody orders"
            skipped += 1
        else:
            assert [i.player.name for i in intents if i.order is not None] == active
        for intent in intents:
            if intent.order is not None:
                assert variant.check(state, intent.player.name, intent.order).ok, intent.order
            if intent.slip is not None:
                check = variant.check(state, intent.player.name, intent.slip)
                assert not check.ok, intent.slip
                if intent.player.name not in active:
                    assert str(check.error).startswith("not your turn"), check.error
                    out_of_turn += 1
        state, _ = variant.resolve(state, {i.player.name: i.order for i in intents if i.order is not None}, SEED)
    assert skipped and out_of_turn


@pytest.mark.parametrize("order, counted", [
    ("Bal(0,-4)-(0,-2)", "moves"),
    ("Sun(-2,-3)-(-2,-2); +Wood(-4,-3)", "moves"),
    ("Bal(0,-4)<>(3,2)", "ability:swap"),
    ("Lf(2,-4)<>(0,-2)-(1,0)", "ability:swap"),
    ("Moon(1,-4)<(-2,-1)-(3,-2)", "ability:pull"),
    ("Pwr(0,-3)>(0,-1)", "ability:push"),
    ("Pwr(0,-4)-(0,-2)>(0,1)", "ability:push"),
    ("Wind(1,-4)-(1,-3)&(-4,-5)-(0,-2)", "ability:carry"),
    ("Wood(1,-2)x(3,0)", "ability:shot"),
    ("Fire(0,-4)-(1,-2)-(2,-1)-(2,0)", "ability:chain"),
    ("Ldr(3,-2):Wtr(-5,-4)-(-5,-1)", "ability:lead"),
    ("+Sun(3,-5)", None),
    ("draft Bal, Fire, Ice", None),
    ("pass", None),
])
def test_the_territory_summary_counts_each_action_by_its_form(order, counted):
    """The summary reads what each turn did from its canonical echo (RULES 5.4.7's forms)."""
    from collections import Counter

    from bot.demo.territory import count
    from bot.engine.report import Entry

    found: Counter = Counter()
    count(found, Entry("order", ("Ada",), data={"order": order, "outcome": "played"}))
    actions = {key: n for key, n in found.items() if n and (key in ("moves", "abilities") or ":" in key)}
    if counted is None:
        assert actions == {}
    elif counted == "moves":
        assert actions == {"moves": 1}
    else:
        assert actions == {"abilities": 1, counted: 1}
