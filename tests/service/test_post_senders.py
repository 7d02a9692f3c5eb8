"""One sender of a game's posts (issue 26 items 4 and 5): of two live services that both own a game
(a second copy started by mistake, a deploy that starts the new process before stopping the old one,
two services in one process), only the one holding the game's delivery claim (``games.posting_by``)
delivers its posts; the other stays idle for that game and says so once in its log, takes over at
once when the holder stops cleanly, and after the lease when it dies. A holder that lost the claim
while it was publishing gives the game up: at most the post then in flight goes out twice.

Nothing sleeps: the lease is crossed by moving the service clock (the services beat by hand)."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

import pytest

from bot.service import MemoryPublisher, Moderator, OutboxRelay, Service
from bot.service.claims import LIVENESS
from bot.service.publishing import BACKOFF

MOD = Moderator(user_id=99, guild_id=1)
LEASE = LIVENESS.lease
BEAT = LIVENESS.beat
RELAY_LOG = "bot.service.publishing"


async def unsent(table, game_id: int) -> list[int]:
    return [p.id for p in await table.posts(game_id) if p.sent_at is None]


async def announce(service, game_id: int, *texts: str) -> None:
    for text in texts:
        await service.announce(game_id, actor=MOD, text=text)


async def test_a_second_live_service_leaves_the_games_posts_to_the_first_and_says_so_once(table, caplog):
    game = await table.playing_game()
    first = table.service
    second = await table.other_process("second-copy")
    second.host = "host-2"
    one, two = MemoryPublisher(), MemoryPublisher()
    mine, theirs = OutboxRelay(first, one), OutboxRelay(second, two)
    caplog.set_level(logging.INFO, logger=RELAY_LOG)

    assert await mine.deliver_due() == len(await table.posts(game.id))
    for round_ in range(3):                       # the first lives: it beats, and goes on posting
        table.clock.advance(seconds=BEAT.total_seconds())
        await first.beat()
        await announce(first, game.id, f"news {round_}")
        assert await theirs.deliver_due() == 0, "the second copy posted a live sender's game"
        assert await mine.deliver_due() == 1
    assert two.delivered == [] and await unsent(table, game.id) == []
    assert [p.id for p in one.delivered] == sorted(p.id for p in one.delivered)        # in order, once each
    assert Counter(p.id for p in one.delivered) == Counter(p.id for p in await table.posts(game.id))

    said = [r for r in caplog.records if r.name == RELAY_LOG and "leaves them" in r.getMessage()]
    assert len(said) == 1, "said once, not every round"
    assert said[0].levelno == logging.INFO
    text = said[0].getMessage()
    assert f"game {game.id}'s posts are sent by service {first.holder} on host {first.host}" in text
    assert mine.sent_elsewhere == {} and theirs.sent_elsewhere == {game.id: first.holder}


async def test_a_clean_stop_hands_the_posts_over_at_once(table):
    game = await table.playing_game()
    first = table.service
    second = await table.other_process("second-copy")
    assert await OutboxRelay(first, MemoryPublisher()).deliver_due() > 0
    await announce(first, game.id, "one", "two")
    relay = OutboxRelay(second, MemoryPublisher())
    assert await relay.deliver_due() == 0
    await first.stop()                            # its row goes: its claims are free, no lease to wait for
    assert await relay.deliver_due() == 2
    assert [p.body for p in relay.publisher.delivered] == ["one", "two"]
    assert await unsent(table, game.id) == []


async def test_a_dead_senders_posts_are_taken_over_after_the_lease_and_none_is_lost(table, caplog):
    game = await table.playing_game()
    dead = table.service
    assert await OutboxRelay(dead, MemoryPublisher()).deliver_due() > 0
    await announce(dead, game.id, "before the crash", "and another")   # written, never sent: the process dies
    heir = await table.other_process("heir")
    relay = OutboxRelay(heir, MemoryPublisher())
    caplog.set_level(logging.INFO, logger=RELAY_LOG)

    table.clock.advance(seconds=LEASE.total_seconds() - 1)            # silent, but not for a lease yet
    await heir.beat()
    assert await relay.deliver_due() == 0
    table.clock.advance(seconds=2)                                   # now it has been silent for longer
    assert await relay.deliver_due() == 2
    assert [p.body for p in relay.publisher.delivered] == ["before the crash", "and another"]
    assert await unsent(table, game.id) == []
    [took] = [r for r in caplog.records if "sends them now" in r.getMessage()]
    assert took.levelno == logging.WARNING and dead.holder in took.getMessage()
    # the heir keeps the game's posts: a new one goes out at once
    await announce(heir, game.id, "after")
    assert await relay.deliver_due() == 1


async def test_two_services_in_one_process_deliver_each_post_once(table):
    game = await table.playing_game()
    other_game = await table.playing_game(channel_id=11)
    one = Service(table.store, clock=table.clock)
    two = Service(table.store, clock=table.clock)
    await one.start()
    await two.start()
    try:
        publishers = [MemoryPublisher(), MemoryPublisher()]
        relays = [OutboxRelay(one, publishers[0]), OutboxRelay(two, publishers[1])]
        for round_ in range(3):
            await announce(table.service, game.id, f"news {round_}")
            await announce(table.service, other_game.id, f"other news {round_}")
            await asyncio.gather(*(relay.deliver_due() for relay in relays))
        delivered = [p.id for publisher in publishers for p in publisher.delivered]
        everything = [p.id for g in (game, other_game) for p in await table.posts(g.id)]
        assert Counter(delivered) == Counter(everything), "each post delivered exactly once"
        # each game has one sender, which delivered all its posts in order
        for g in (game, other_game):
            senders = [i for i, publisher in enumerate(publishers) if any(p.game_id == g.id for p in publisher.delivered)]
            assert len(senders) == 1, f"game {g.id}'s posts came from {len(senders)} services"
            ids = [p.id for p in publishers[senders[0]].delivered if p.game_id == g.id]
            assert ids == sorted(ids)
    finally:
        await one.stop()
        await two.stop()


class Stalling(MemoryPublisher):
    """Publishes; while publishing its first post, the process "stalls" past the lease, and another
    service takes its games over (its relay's round: delivering them, or failing to)."""

    def __init__(self, table, heir_relay: OutboxRelay) -> None:
        super().__init__()
        self.table, self.heir_relay, self.stalled = table, heir_relay, False

    async def publish(self, post):
        if not self.stalled:
            self.stalled = True
            self.table.clock.advance(seconds=LEASE.total_seconds() + 1)
            await self.heir_relay.service.beat()
            await self.heir_relay.deliver_due()
        return await super().publish(post)


@pytest.mark.parametrize("heir_delivers", [True, False], ids=["heir-delivers", "heir-fails-for-now"])
async def test_a_sender_that_lost_its_games_while_publishing_sends_nothing_more_of_them(table, heir_delivers):
    games = [await table.playing_game(), await table.playing_game(channel_id=11)]
    for game in games:
        await announce(table.service, game.id, "a", "b")
    heir = await table.other_process("heir")
    heir_relay = OutboxRelay(heir, MemoryPublisher(failures=0 if heir_delivers else 1))
    stalling = Stalling(table, heir_relay)

    # its mark of the post in flight is refused (the heir sent it, or holds the game now), and it
    # publishes nothing more of either game: the heir holds both
    assert await OutboxRelay(table.service, stalling).deliver_due() == 0
    posts = [p for game in games for p in await table.posts(game.id)]
    assert [p.id for p in stalling.delivered] == [min(p.id for p in posts)]
    while any([await unsent(table, game.id) for game in games]):
        table.clock.advance(seconds=BACKOFF[0] + 1)
        await heir.beat()
        assert await heir_relay.deliver_due() > 0
    # none lost, each place's in order; only the post in flight went out twice
    delivered = heir_relay.publisher.delivered
    posts = [p for game in games for p in await table.posts(game.id)]
    assert sorted(p.id for p in delivered) == sorted(p.id for p in posts)
    for place in {(p.game_id, p.recipient) for p in delivered}:
        ids = [p.id for p in delivered if (p.game_id, p.recipient) == place]
        assert ids == sorted(ids), f"the posts to {place} out of order"
    posts = [p for game in games for p in await table.posts(game.id)]      # each marked sent once, by its sender
    assert {p.message_id for p in posts} == {f"memory-{p.id}" for p in posts}


async def test_an_idle_copy_does_not_spin_on_a_live_senders_retries(table):
    game = await table.playing_game()
    first = table.service
    await OutboxRelay(first, MemoryPublisher(failures=1)).deliver_due()      # failed: retries fall due later
    second = await table.other_process("second-copy")
    table.clock.advance(minutes=1)
    await first.beat()
    async with second.store.snapshot_read() as q:
        assert await q.next_retry_at(owned=second.shards, sender=second.holder) is None
        assert await q.next_retry_at(owned=first.shards, sender=first.holder) is not None
    assert await OutboxRelay(second, MemoryPublisher()).deliver_due() == 0
    assert await unsent(table, game.id)
