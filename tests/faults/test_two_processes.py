"""Two bot processes on one database, under faults (issue 26 item 4).

Each test runs real OS processes (``tests/faults/worker.py``: its own event loop, Store, Service and
publisher) on one shared database and reads the outcome from the database at the end:

1. a burst of orders from 1,000 players, half through each process at the same instant: every order
   is confirmed once and stored once, none lost, duplicated or reordered (D6);
2. duplicate deadline triggers: both processes resolve the same update at the same moment, several
   times each, and the scheduler's deadline job fires twice in each: one resolution, one set of posts;
3. a process killed with SIGKILL in the middle of an update (at each fault point of
   ``bot/service/faults.py``, or at a random moment): the other process, or a restart of the killed
   one, picks the update up once the dead holder's lease has passed; it is resolved exactly once, no
   order is lost, and every post is delivered exactly once (one file per post identity, made
   exclusively: a second delivery is seen).

Besides: a process killed in the middle of a burst of orders loses none it confirmed; the PostgreSQL
server killed in the middle of an update; with shards, orders by direct message through shard 0
while the game's owner alone resolves and posts, and a killed owner picked up by its restart; two
processes running every shard (a second copy by mistake): one sends each game's posts, once each,
and when it is killed the other takes them over after its lease, repeating only the post in flight.
"""

from __future__ import annotations

import random
import time
from collections import Counter, defaultdict

import pytest

from .conftest import BEAT, at, check_posts_delivered_once, deliveries

PLAYERS = 1000
SMALL = 12              # players of the games whose updates are resolved (each update draws their boards)
FIRST_USER = 1000


def king(index: int, players: int) -> tuple[int, int]:
    per_row = int(players ** 0.5) + 1
    return (index % per_row) * 4, (index // per_row) * 4


def order_rows(facts: dict, update: int) -> dict[int, list[dict]]:
    """The stored orders of ``update`` per player, in the order they were stored."""
    rows = defaultdict(list)
    for order in facts["orders"]:
        if order["update"] == update:
            rows[order["user"]].append(order)
    return rows


def test_a_thousand_players_order_at_once_through_two_processes(store_url, tmp_path, processes):
    a = processes(store_url, "A", tmp_path, offset_hours=0)
    game = a.ask(do="setup", players=PLAYERS)["game"]
    b = processes(store_url, "B", tmp_path, offset_hours=0)

    # each player's first order is their king's placement; every fourth sends a second one at once,
    # which must win (D6); even players order through A, odd ones through B
    burst = {"A": [], "B": []}
    for index in range(PLAYERS):
        x, y = king(index, PLAYERS)
        orders = [f"K({x},{y})"] + ([f"K({x},{y + 1})"] if index % 4 == 0 else [])
        burst["A" if index % 2 == 0 else "B"].extend([FIRST_USER + index, text] for text in orders)
    start = at(1.0)
    a.send(do="submit", game=game, orders=burst["A"], at=start)
    b.send(do="submit", game=game, orders=burst["B"], at=start)
    answers = {"A": a.answer(), "B": b.answer()}

    # then some players change their minds through the other process (a DM reaching another shard)
    later = {"A": [], "B": []}
    for index in range(3, PLAYERS, 7):
        x, y = king(index, PLAYERS)
        later["B" if index % 2 == 0 else "A"].append([FIRST_USER + index, f"K({x + 1},{y})"])
    afterwards = {"A": a.ask(do="submit", game=game, orders=later["A"]),
                  "B": b.ask(do="submit", game=game, orders=later["B"])}

    made = sum(len(orders) for orders in burst.values())
    seconds = max(answer["seconds"] for answer in answers.values())
    print(f"\n{store_url.split(':')[0]}: {made} orders from {PLAYERS} players through 2 processes confirmed in "
          f"{seconds:.2f} s: {made / seconds:,.0f} orders/s")

    receipts = defaultdict(list)             # per player, in the order each was made
    for round_ in (answers, afterwards):
        for name in ("A", "B"):
            for receipt in round_[name]["receipts"]:
                assert "error" not in receipt, receipt
                assert receipt["update"] == 1
                receipts[receipt["user"]].append(receipt)
    assert len(receipts) == PLAYERS
    for user, theirs in receipts.items():
        # each receipt names the order it replaced: the player's previous one, whichever process took it
        assert [r["replaced"] for r in theirs] == [None] + [r["canonical"] for r in theirs[:-1]], user

    facts = a.ask(do="facts", game=game)
    stored = order_rows(facts, 1)
    assert set(stored) == set(receipts)
    for user, theirs in receipts.items():
        rows = stored[user]
        # stored once each, in the order confirmed; the last one is the player's order (D6)
        assert [row["canonical"] for row in rows] == [r["canonical"] for r in theirs], user
        assert [row["status"] for row in rows] == ["superseded"] * (len(rows) - 1) + ["pending"], user
    assert sum(len(rows) for rows in stored.values()) == made + sum(len(o) for o in later.values())


def test_a_process_killed_in_a_burst_of_orders_loses_none_it_confirmed(store_url, tmp_path, processes):
    players = 400
    a = processes(store_url, "A", tmp_path, offset_hours=0)
    game = a.ask(do="setup", players=players)["game"]
    b = processes(store_url, "B", tmp_path, offset_hours=0)
    # every player a placement, then another (D6: the later wins); A's in ten waves 0.1 s apart,
    # killed once a third of them are confirmed; B's all at once, at the same moment
    sent = {"A": [], "B": []}
    for second in (False, True):
        for index in range(players):
            x, y = king(index, players)
            sent["A" if index % 2 == 0 else "B"].append([FIRST_USER + index, f"+K({x},{y + second})"])
    start = at(1.0)
    a.send(do="submit", game=game, orders=sent["A"], waves=10, pause=0.1, stream=True, at=start)
    b.send(do="submit", game=game, orders=sent["B"], at=start)
    confirmed = []
    while len(confirmed) < len(sent["A"]) // 3:
        line = a.line()
        assert "confirmed" in line, f"A answered before it was killed: {line}"
        confirmed.append(line["confirmed"])
    a.kill()
    answered_b = b.answer()["receipts"]
    assert all("error" not in r for r in answered_b), "the other process's orders are all taken"

    stored = order_rows(b.ask(do="facts", game=game), 1)
    stored_a = [(row["user"], row["canonical"]) for index in range(0, players, 2)
                for row in stored.get(FIRST_USER + index, [])]
    print(f"\n{store_url.split(':')[0]}: A killed after {len(confirmed)} confirmations; {len(stored_a)} of its "
          f"{len(sent['A'])} orders stored")
    assert len(stored_a) < len(sent["A"]), "the kill struck before A's last wave"
    for receipt in confirmed:                    # nothing confirmed is lost
        assert (receipt["user"], receipt["canonical"]) in stored_a, receipt
    for receipt in answered_b:
        assert receipt["canonical"] in [row["canonical"] for row in stored[receipt["user"]]], receipt
    for user, rows in stored.items():
        # what was stored of a player's orders is what they sent, in order, once each; the book holds the last
        theirs = [text for u, text in sent["A"] + sent["B"] if u == user]
        assert [row["canonical"] for row in rows] == theirs[:len(rows)], user
        assert [row["status"] for row in rows] == ["superseded"] * (len(rows) - 1) + ["pending"], user


def small_game(url, out, processes) -> tuple[int, dict[str, str]]:
    """A game of ``SMALL`` players whose update 1 (the kings' placements) is resolved and whose
    update 2 has an order from every player but the last two, sent through two processes at once;
    its deadline is due for the processes the tests start next. Returns the game and the orders."""
    setup = processes(url, "setup", out, offset_hours=0)
    game = setup.ask(do="setup", players=SMALL, placed=True)["game"]
    other = processes(url, "setup-2", out, offset_hours=0)
    orders = {}
    sent = {setup: [], other: []}
    for index in range(SMALL - 2):
        x, y = king(index, SMALL)
        orders[f"P{index:04d}"] = f"K({x},{y})-({x + 1},{y})"
        sent[setup if index % 2 else other].append([FIRST_USER + index, orders[f"P{index:04d}"]])
    start = at(0.5)
    for process, batch in sent.items():
        process.send(do="submit", game=game, orders=batch, at=start)
    for process in sent:
        assert all("error" not in r for r in process.answer()["receipts"])
        process.close()
    return game, orders


def check_resolved_once(facts: dict, update: int, orders: dict[str, str]) -> None:
    """``update`` was resolved exactly once, with every order sent for it, and announced once."""
    assert facts["game"]["update"] == update + 1 and facts["game"]["claimed_by"] is None
    resolutions = [s for s in facts["snapshots"] if s["update"] == update and s["reason"] == "update"]
    assert len(resolutions) == 1, f"update {update} resolved {len(resolutions)} times"
    assert resolutions[0]["orders"] == orders, "the update resolved every order sent, and only those"
    rows = order_rows(facts, update)
    assert sorted(row["canonical"] for rows_ in rows.values() for row in rows_) == sorted(orders.values())
    assert {row["status"] for rows_ in rows.values() for row in rows_} == {"resolved"}
    posts = [(p["kind"], p["recipient"], p["filename"]) for p in facts["posts"]    # the update's own posts
             if p["update"] == update and p["kind"] not in ("announcement", "notice", "reminder", "team_threads")]
    assert Counter(posts).most_common(1)[0][1] == 1, f"update {update} was announced twice: {sorted(posts)}"
    assert sum(1 for kind, _, _ in posts if kind == "board") == 1


def test_duplicate_deadline_triggers_in_two_processes_resolve_once(store_url, tmp_path, processes):
    game, orders = small_game(store_url, tmp_path, processes)
    a, b = processes(store_url, "A", tmp_path), processes(store_url, "B", tmp_path)
    start = at(1.0)
    # in each process: resolve_if_due four times and the scheduler's deadline job twice, all at once
    for process in (a, b):
        process.send(do="resolve", game=game, update=2, times=4, jobs=2, at=start)
    outcomes = a.answer()["outcomes"] + b.answer()["outcomes"]
    resolved = [o for o in outcomes if o.endswith("resolved") and "already" not in o]
    assert len(resolved) == 1, outcomes
    assert set(outcomes) - set(resolved) <= {"busy", "already_resolved", "job: busy", "job: already_resolved",
                                             "job: nothing due (None)"}, outcomes

    a.ask(do="deliver")
    facts = b.ask(do="facts", game=game)
    check_resolved_once(facts, 2, orders)
    check_posts_delivered_once(tmp_path, facts)


def test_two_processes_starting_at_once_resolve_an_overdue_update_once(store_url, tmp_path, processes):
    game, orders = small_game(store_url, tmp_path, processes)
    a, b = processes(store_url, "A", tmp_path), processes(store_url, "B", tmp_path)
    # both start their schedulers at the same moment, as two bots started together after an outage:
    # each catches up on what fell due while they were down
    start = at(1.0)
    for process in (a, b):
        process.send(do="start_scheduler", at=start)
    outcomes = a.answer()["outcomes"] + b.answer()["outcomes"]
    print(f"\n{store_url.split(':')[0]}: two schedulers started at once: {outcomes}")
    assert outcomes.count("resolved") == 1 and set(outcomes) <= {"resolved", "busy", "already_resolved"}, outcomes
    a.ask(do="deliver")
    facts = b.ask(do="facts", game=game)
    check_resolved_once(facts, 2, orders)
    check_posts_delivered_once(tmp_path, facts)


#: (how the process dies, who picks its update up): each fault point with the other process there,
#: two with the killed process started again instead, and SIGKILLs at moments drawn from a seed
KILLS = ([(point, "other") for point in ("after_claim", "after_engine", "after_commit", "mid_publish")]
         + [("after_claim", "restart"), ("mid_publish", "restart")]
         + [(f"random-{seed}", ("other", "restart")[i % 2]) for i, seed in enumerate((10, 1, 4, 8, 6))])
#: the longest wait for the update to be picked up after a kill
PICK_UP_LIMIT = 60.0
#: how much later than the lease a killed process's update may be picked up (a restart starts
#: its process meanwhile; the machine may be busy)
PICK_UP_SLACK = 5.0


#: what the database shows after a kill at each fault point
STAGES = {"after_claim": "holding the claim", "after_engine": "holding the claim",
          "after_commit": "resolved, no post sent",
          "mid_publish": "resolved, no post sent"}      # its first post was published, not marked sent


def stage_of(facts: dict, update: int) -> str:
    """Where the update stood when its process died, as the database shows it."""
    resolved = any(s["update"] == update and s["reason"] == "update" for s in facts["snapshots"])
    if not resolved:
        return "holding the claim" if facts["game"]["claimed_by"] else "not claimed"
    sent = [p["sent"] for p in facts["posts"] if p["update"] == update]
    if all(sent):
        return "resolved and posted"
    return "resolved, posts being sent" if any(sent) else "resolved, no post sent"


@pytest.mark.parametrize("death, pickup", KILLS, ids=[f"{d}-{p}" for d, p in KILLS])
def test_a_process_killed_mid_update_loses_nothing(store_url, tmp_path, processes, death, pickup):
    game, orders = small_game(store_url, tmp_path, processes)
    at_random = death.startswith("random")
    a = processes(store_url, "A", tmp_path, fault=None if at_random else (death, 2))
    other = processes(store_url, "B", tmp_path) if pickup == "other" else None

    a.send(do="resolve_and_deliver", game=game, update=2)
    if at_random:
        # anywhere from before the claim to the last post (A takes about 0.6 s for all of it here)
        time.sleep(random.Random(death).uniform(0.0, 0.6))
        finished_first = a.answered()
        killed_at = a.kill()
    else:
        finished_first = False
        killed_at = a.died()

    picker = other or processes(store_url, "A-restarted", tmp_path)
    stage = stage_of(picker.ask(do="facts", game=game), 2)
    assert death.startswith("random") or stage == STAGES[death], f"killed {death}, the database says {stage}"
    picked = picker.ask(do="resolve_until", game=game, update=2, limit=PICK_UP_LIMIT)
    assert picked["outcomes"][-1] in ("resolved", "already_resolved"), picked
    if death in ("after_claim", "after_engine"):
        # the dead process held the claim: it is free once the holder's heartbeat is a lease old
        # (not before: a silent holder may only be slow), and the update is resolved by the one
        # that picks it up, promptly
        assert picked["outcomes"][-1] == "resolved", picked
        if pickup == "other":
            assert picked["outcomes"] == ["busy", "resolved"], picked
        lease, took = picker.ready["lease"], picked["at"] - killed_at
        print(f"\n{store_url.split(':')[0]}: killed {death} ({stage}), picked up by {pickup} "
              f"{took:.2f} s after the kill (lease {lease:.0f} s, {picked['attempts']} attempts)")
        assert lease - BEAT - 0.5 <= took <= lease + PICK_UP_SLACK, f"picked up {took:.2f} s after the kill"
    elif death in ("after_commit", "mid_publish"):
        assert picked["outcomes"] == ["already_resolved"], picked
    if at_random:
        print(f"\n{store_url.split(':')[0]}: killed at random ({stage}); {pickup} went on: {picked['outcomes']}, "
              f"{picked['at'] - killed_at:.2f} s after the kill")
    # the killed process may have been sending the game's posts: they are the picker's once its
    # lease has passed (bot/service/publishing.py), not before
    delivered = picker.ask(do="deliver_until", game=game, limit=PICK_UP_LIMIT)
    assert delivered["unsent"] == 0, delivered
    if death == "mid_publish":
        took = delivered["first_at"] - killed_at
        print(f"\n{store_url.split(':')[0]}: killed mid-publish, its posts taken over by {pickup} {took:.2f} s "
              f"after the kill (lease {picker.ready['lease']:.0f} s)")
        assert picker.ready["lease"] - BEAT - 0.5 <= took <= picker.ready["lease"] + PICK_UP_SLACK, took

    facts = picker.ask(do="facts", game=game)
    check_resolved_once(facts, 2, orders)
    # a kill between a post's publication and its being marked sent publishes it again (the
    # publisher absorbs it: Discord's nonce, the file publisher's rewrite); nothing else is repeated
    may_repeat = death == "mid_publish" or (at_random and not finished_first)
    repeats = check_posts_delivered_once(tmp_path, facts, repeats_allowed=1 if may_repeat else 0)
    if death == "mid_publish":
        assert len(repeats) == 1 and repeats[0]["process"] != "A", repeats
    # the repeated post is the one A was delivering: its first delivery is A's, in the log, or not in
    # it when A was killed between making the post's file and writing its line (conftest)
    first_by = {d["path"]: d["process"] for d in deliveries(tmp_path) if d["first"]}
    for repeat in repeats:
        assert first_by.get(repeat["path"], "A") == "A", "only the post the killed process was delivering is repeated"


#: (seconds after the resolving process began, seconds the server stays down): killed in the claim,
#: during the engine and the drawing, about the commit and the posts; back at once, or after two
#: seconds (what was under way then fails, and is tried again)
RESTARTS = [(moment, down) for down in (0.0, 2.0) for moment in (0.05, 0.2, 0.4)]


@pytest.mark.postgres
@pytest.mark.parametrize("moment, down", RESTARTS, ids=[f"at-{m}s-down-{d}s" for m, d in RESTARTS])
def test_the_database_restarting_mid_update_loses_nothing(postgres_server, postgres_url, tmp_path, processes,
                                                          moment, down):
    game, orders = small_game(postgres_url, tmp_path, processes)
    a, b = processes(postgres_url, "A", tmp_path), processes(postgres_url, "B", tmp_path)
    a.send(do="resolve_and_deliver", game=game, update=2)
    time.sleep(moment)
    postgres_server.kill()                 # as a crash: no checkpoint, every connection cut
    time.sleep(down)
    postgres_server.start()
    first = a.answer(failed_ok=True)
    # both processes go on as their schedulers would: each tries again until the update is resolved
    for process in (a, b):
        process.send(do="resolve_until", game=game, update=2, limit=PICK_UP_LIMIT)
    went_on = [a.answer(), b.answer()]
    print(f"\npostgresql killed {moment} s into the update, down {down} s: the resolving process "
          f"{'failed (' + first['error'][:90] + ')' if 'error' in first else 'went on: ' + str(first['outcomes'])}"
          f"{'' if 'error' in first else ' in %.2f s' % first['seconds']}; "
          f"then A {went_on[0]['outcomes']}, B {went_on[1]['outcomes']}")
    for process_went_on in went_on:
        assert process_went_on["outcomes"][-1] in ("resolved", "already_resolved"), went_on
    a.ask(do="deliver")

    facts = b.ask(do="facts", game=game)
    check_resolved_once(facts, 2, orders)
    # a post published just before its "sent" was cut is published again (and absorbed)
    repeats = check_posts_delivered_once(tmp_path, facts, repeats_allowed=1)
    assert all(repeat["process"] == "A" for repeat in repeats)


#: a server on shard 1 of 2 (Discord's rule: ``(guild_id >> 22) % 2``): the game's owner runs shard 1,
#: the other process shard 0, which alone receives direct messages (docs/sharding.md)
SHARD_1_GUILD = 1 << 22


def sharded_game(url, out, processes, *, fault: tuple[str, int] | None = None):
    """A game on shard 1 of 2 whose update 2 is due, the process of shard 0 and the owner (shard 1):
    orders for update 2 come at once by direct message through shard 0 (even players) and in the
    channel through the owner (odd players). Returns the game, the orders, and the two processes."""
    setup = processes(url, "setup", out, offset_hours=0)
    game = setup.ask(do="setup", players=SMALL, placed=True, guild=SHARD_1_GUILD)["game"]
    setup.close()
    dms = processes(url, "shard-0", out, shards="0", shard_count=2)
    owner = processes(url, "shard-1", out, shards="1", shard_count=2, fault=fault)
    orders, sent = {}, {dms: [], owner: []}
    for index in range(SMALL - 2):
        x, y = king(index, SMALL)
        orders[f"P{index:04d}"] = f"K({x},{y})-({x + 1},{y})"
        sent[owner if index % 2 else dms].append([FIRST_USER + index, orders[f"P{index:04d}"]])
    start = at(0.5)
    dms.send(do="submit", game=game, orders=sent[dms], source="dm", at=start)
    owner.send(do="submit", game=game, orders=sent[owner], at=start)
    for process in (dms, owner):
        assert all("error" not in r for r in process.answer()["receipts"])
    return game, orders, dms, owner


def test_with_shards_direct_messages_reach_shard_0_and_the_owner_alone_resolves_and_posts(store_url, tmp_path,
                                                                                          processes):
    game, orders, dms, owner = sharded_game(store_url, tmp_path, processes)
    start = at(1.0)
    # the deadline job fires twice in each process; the owner also resolves twice directly
    dms.send(do="resolve", game=game, update=2, times=0, jobs=2, at=start)
    owner.send(do="resolve", game=game, update=2, times=2, jobs=2, at=start)
    assert dms.answer()["outcomes"] == ["job: nothing due (None)"] * 2, "shard 0 does not resolve another's game"
    outcomes = owner.answer()["outcomes"]
    assert outcomes.count("resolved") + outcomes.count("job: resolved") == 1, outcomes

    # both relays at the same moment: the game's posts go out from its owner only, once each
    start = at(1.0)
    for process in (dms, owner):
        process.send(do="deliver", at=start)
    assert dms.answer()["delivered"] == 0
    assert owner.answer()["delivered"] > 0
    facts = dms.ask(do="facts", game=game)
    check_resolved_once(facts, 2, orders)
    check_posts_delivered_once(tmp_path, facts)
    assert {d["process"] for d in deliveries(tmp_path)} == {"shard-1"}
    # the secret notices shard 0 wrote for the game's channel, delivered by the owner
    notices = [p for p in facts["posts"] if p["kind"] == "notice" and p["recipient"] is None]
    assert len(notices) == len(orders) // 2 and all(p["sent"] for p in notices)


def test_with_shards_a_killed_owner_is_picked_up_by_its_restart_only(store_url, tmp_path, processes):
    game, orders, dms, owner = sharded_game(store_url, tmp_path, processes, fault=("after_claim", 2))
    owner.send(do="resolve_and_deliver", game=game, update=2)
    killed_at = owner.died()
    # meanwhile shard 0's deadline job fires, and its relay runs: neither touches the owner's game
    assert dms.ask(do="resolve", game=game, update=2, times=0, jobs=2)["outcomes"] == ["job: nothing due (None)"] * 2
    assert dms.ask(do="deliver")["delivered"] == 0
    restarted = processes(store_url, "shard-1-restarted", tmp_path, shards="1", shard_count=2)
    picked = restarted.ask(do="resolve_until", game=game, update=2, limit=PICK_UP_LIMIT)
    assert picked["outcomes"][-1] == "resolved", picked
    took, lease = picked["at"] - killed_at, restarted.ready["lease"]
    print(f"\n{store_url.split(':')[0]}: the owner of shard 1 killed holding the claim, its restart resolved "
          f"{took:.2f} s after the kill (lease {lease:.0f} s)")
    assert took <= lease + PICK_UP_SLACK
    restarted.ask(do="deliver")
    facts = restarted.ask(do="facts", game=game)
    check_resolved_once(facts, 2, orders)
    check_posts_delivered_once(tmp_path, facts)


def test_two_processes_running_every_shard_deliver_each_post_once(store_url, tmp_path, processes):
    """Two live processes that both own a game (a second copy started by mistake, or a deploy that
    starts the new process before stopping the old one): one sends its posts, the other stays idle."""
    game, orders = small_game(store_url, tmp_path, processes)
    a, b = processes(store_url, "A", tmp_path), processes(store_url, "B", tmp_path)
    assert a.ask(do="resolve", game=game, update=2)["outcomes"] == ["resolved"]
    start = at(1.0)
    for process in (a, b):
        process.send(do="deliver", at=start)
    counts = sorted([a.answer()["delivered"], b.answer()["delivered"]])
    facts = b.ask(do="facts", game=game)
    print(f"\n{store_url.split(':')[0]}: two copies delivering at once: {counts[1]} of {len(facts['posts'])} posts "
          f"from one, {counts[0]} from the other")
    assert counts == [0, len(facts["posts"])], f"each process delivered {counts} of {len(facts['posts'])} posts"
    check_resolved_once(facts, 2, orders)
    check_posts_delivered_once(tmp_path, facts)
    assert len({d["process"] for d in deliveries(tmp_path)}) == 1, "the game's posts came from one sender"


def test_when_the_sender_of_two_copies_is_killed_the_other_takes_over_after_the_lease(store_url, tmp_path,
                                                                                     processes):
    game, orders = small_game(store_url, tmp_path, processes)
    # A sends the game's posts (it delivered first); B, a second live copy, leaves them to it
    a = processes(store_url, "A", tmp_path, fault=("mid_publish", 2))
    assert a.ask(do="deliver")["delivered"] > 0
    b = processes(store_url, "B", tmp_path)
    # A resolves update 2 and dies publishing its first post (published, not marked sent)
    a.send(do="resolve_and_deliver", game=game, update=2)
    killed_at = a.died()
    taken = b.ask(do="deliver_until", game=game, limit=PICK_UP_LIMIT)
    assert taken["unsent"] == 0 and taken["delivered"] > 0, taken
    lease, took = b.ready["lease"], taken["first_at"] - killed_at
    print(f"\n{store_url.split(':')[0]}: the sender killed mid-publish, the other copy took its posts over "
          f"{took:.2f} s after the kill (lease {lease:.0f} s, {taken['rounds']} rounds)")
    # not before the dead sender's lease (a silent sender may only be slow), and promptly after
    assert lease - BEAT - 0.5 <= took <= lease + PICK_UP_SLACK, f"taken over {took:.2f} s after the kill"

    facts = b.ask(do="facts", game=game)
    check_resolved_once(facts, 2, orders)
    # nothing lost; only the post A was publishing when it died went out again, from B
    repeats = check_posts_delivered_once(tmp_path, facts, repeats_allowed=1)
    assert len(repeats) == 1 and repeats[0]["process"] == "B", repeats
