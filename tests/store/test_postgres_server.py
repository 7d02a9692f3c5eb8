"""The test PostgreSQL server of tests/postgres.py: what the multi-process and fault tests rely on."""

from __future__ import annotations

import subprocess
import sys

import asyncpg
import pytest

pytestmark = pytest.mark.postgres

CHILD = """
import asyncio, sys
import asyncpg

async def main():
    connection = await asyncpg.connect(sys.argv[1])
    await connection.execute("CREATE TABLE made_by_a_child (n BIGINT)")
    await connection.close()

asyncio.run(main())
"""


async def test_a_child_process_reaches_the_database_by_its_url(postgres_url):
    subprocess.run([sys.executable, "-c", CHILD, postgres_url], check=True, timeout=60)
    connection = await asyncpg.connect(postgres_url)
    try:
        tables = [row[0] for row in await connection.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")]
    finally:
        await connection.close()
    assert tables == ["made_by_a_child"]


async def test_each_test_gets_an_empty_database_of_its_own(postgres_url, postgres_server):
    assert postgres_url.startswith(postgres_server.url) and postgres_url != postgres_server.url
    connection = await asyncpg.connect(postgres_url)
    try:
        assert await connection.fetchval("SELECT count(*) FROM information_schema.tables"
                                         " WHERE table_schema = 'public'") == 0
    finally:
        await connection.close()


async def test_a_restarted_server_keeps_what_was_committed(postgres_url, postgres_server):
    connection = await asyncpg.connect(postgres_url)
    await connection.execute("CREATE TABLE kept (n BIGINT); INSERT INTO kept VALUES (7)")
    await connection.close()
    postgres_server.kill()                      # as a crash: the next start recovers from the log
    postgres_server.start()
    connection = await asyncpg.connect(postgres_url)
    try:
        assert await connection.fetchval("SELECT n FROM kept") == 7
    finally:
        await connection.close()


ORPHAN = """
import os, signal, sys
sys.path.insert(0, sys.argv[1])
from postgres import PostgresServer

server = PostgresServer()
print(server.folder, flush=True)
os.kill(os.getpid(), signal.SIGKILL)          # a test run killed outright: nobody stops its server
"""


def test_a_killed_runs_server_is_stopped_and_removed_by_the_next_run(postgres_server):
    from pathlib import Path

    from postgres import PostgresServer

    tests = str(Path(__file__).resolve().parents[1])
    child = subprocess.run([sys.executable, "-c", ORPHAN, tests], capture_output=True, text=True, timeout=120)
    folder = Path(child.stdout.strip())
    assert (folder / "data" / "postmaster.pid").exists()        # its server outlived it
    successor = PostgresServer()
    try:
        assert not folder.exists()
    finally:
        successor.close()
    assert postgres_server.running()                            # a live run's server is left alone
