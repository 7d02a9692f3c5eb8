"""A task cancelled in the middle of a transaction never leaves the connection inside one (both back ends)."""

import asyncio

import asyncpg

from bot.store import Store


async def transactions_left_open(store_url: str) -> list:
    """PostgreSQL: the connections of the database that sit inside a transaction (none for SQLite,
    whose connections the store checks itself below)."""
    if not store_url.startswith("postgresql"):
        return []
    connection = await asyncpg.connect(store_url)
    try:
        return await connection.fetch("SELECT pid, state, query FROM pg_stat_activity WHERE datname = current_database()"
                                      " AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'")
    finally:
        await connection.close()


async def test_cancelled_transactions_and_reads_leave_the_store_usable(store_url):
    store = await Store.open(store_url)
    try:
        async def write_forever():
            while True:
                async with store.transaction() as q:
                    await q.games()

        async def read_forever():
            while True:
                async with store.snapshot_read() as q:
                    await q.games()

        for delay in (0, 0.0005, 0.001, 0.002, 0.005):
            tasks = [asyncio.create_task(write_forever()), asyncio.create_task(read_forever())]
            await asyncio.sleep(delay)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            assert await transactions_left_open(store_url) == []
            # both connections must accept a new transaction at once
            async with store.transaction() as q:
                assert await q.games() == []
            async with store.snapshot_read() as q:
                assert await q.games() == []
    finally:
        await store.close()


async def test_a_cancelled_task_whose_database_operation_then_fails_is_told_it_was_cancelled():
    """A loop that catches errors (the outbox relay) must stop when cancelled, even if the
    operation it waited for fails meanwhile (a database going away during shutdown): the task
    sees CancelledError, not the operation's error."""
    from bot.store.database import to_completion

    started = asyncio.Event()

    async def failing_operation():
        started.set()
        await asyncio.sleep(0.01)
        raise OSError("the server went away")

    async def caller():
        return await to_completion(failing_operation())

    task = asyncio.create_task(caller())
    await started.wait()
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    else:
        raise AssertionError("the cancelled task finished as if nothing happened")
    assert task.cancelled()
