"""Shard leases: one process per shard, and each resumes only the games of its shards."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest

from data import Shards, ShardTaken, Store, shard_of
from data.shards import _host
from game import Match, Ruleset

from ._helpers import Backend, counter_clock, guild_on, new_running_game, random_seats


async def open_store(backend: Backend) -> Store:
    return await Store.open(backend.target, durable=False, clock=counter_clock())


async def test_a_second_process_on_a_shard_is_refused(store: Store, backend: Backend) -> None:
    await store.leases.claim_shards(Shards(2, (0,)))
    other = await open_store(backend)
    try:
        with pytest.raises(ShardTaken) as taken:
            await other.leases.claim_shards(Shards(2, (0, 1)))
        assert str(taken.value) == (
            f"could not claim shards 0,1 of 2: shard 0 is already served by the process "
            f"{os.getpid()} on {_host()}; stop it, or give this "
            "process other SHARD_IDS"
        )
        with pytest.raises(ShardTaken, match="runs with SHARD_COUNT=2; every process needs"):
            await other.leases.claim_shards(Shards(3, (2,)))
        with pytest.raises(ShardTaken, match="runs with SHARD_COUNT=2"):
            await other.leases.claim_shards(Shards())  # one process for everything: no
        await other.leases.claim_shards(Shards(2, (1,)))  # the other shard is free
        assert other.leases.shards == Shards(2, (1,))
    finally:
        await other.close()
    # Closing gave shard 1 back.
    again = await open_store(backend)
    try:
        await again.leases.claim_shards(Shards(2, (1,)))
    finally:
        await again.close()


async def test_closing_gives_the_shards_back(backend: Backend) -> None:
    first = await open_store(backend)
    await first.leases.claim_shards(Shards(1, (0,)))
    await first.close()
    second = await open_store(backend)
    try:
        await second.leases.claim_shards(Shards(1, (0,)))
        assert await backend.rows("SELECT shard_id, shard_count FROM shard_leases") == [(0, 1)]
    finally:
        await second.close()
    assert await backend.rows("SELECT COUNT(*) FROM shard_leases") == [(0,)]


async def test_a_lease_left_by_a_dead_process_or_run_out_is_free(
    store: Store, backend: Backend
) -> None:
    """kill -9 leaves the row: a dead pid on this host frees it at once, elsewhere the clock."""
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    dead_pid = int(dead.stdout)
    query = """INSERT INTO shard_leases (shard_id, shard_count, owner, host, pid, expires_at)
               VALUES (?, 4, 'old', ?, ?, ?)"""
    await backend.rows(query, (0, _host(), dead_pid, 10.0**10))  # died here
    await backend.rows(query, (1, "elsewhere", 1, 999.0))  # ran out before our clock's 1000
    await backend.rows(query, (2, "elsewhere", 1, 10.0**10))  # alive elsewhere
    with pytest.raises(ShardTaken, match="shard 2 is already served by the process 1 on elsewhere"):
        await store.leases.claim_shards(Shards(4, (0, 1, 2)))
    await store.leases.claim_shards(Shards(4, (0, 1)))
    rows = await backend.rows("SELECT shard_id, host FROM shard_leases ORDER BY shard_id")
    assert rows == [(0, _host()), (1, _host()), (2, "elsewhere")]


async def test_a_process_resumes_only_the_games_of_its_shards(
    store: Store, backend: Backend
) -> None:
    ids = {}
    for shard in range(3):
        for n in range(2):
            guild = guild_on(shard, 3, n)
            ids[guild] = await new_running_game(
                store, Match(Ruleset(), 2), random_seats(2), guild_id=guild
            )
    everything = await store.games.unfinished_games()
    assert len(everything) == 6  # before claiming: the whole bot

    await store.leases.claim_shards(Shards(3, (0, 2)))
    mine = await store.games.unfinished_games()
    assert [r.id for r in mine] == sorted(i for g, i in ids.items() if shard_of(g, 3) != 1)
    assert all(r.seats and r.events for r in mine)  # with their seats and events

    other = await open_store(backend)
    try:
        await other.leases.claim_shards(Shards(3, (1,)))
        assert [r.id for r in await other.games.unfinished_games()] == sorted(
            i for g, i in ids.items() if shard_of(g, 3) == 1
        )
    finally:
        await other.close()


async def test_renewing_keeps_the_lease_alive(store: Store, backend: Backend) -> None:
    await store.leases.claim_shards(Shards())
    [(before,)] = await backend.rows("SELECT expires_at FROM shard_leases")
    await store.leases._renew(
        store.leases._lease_owner or ""
    )  # what the background task does every 10 s
    [(after,)] = await backend.rows("SELECT expires_at FROM shard_leases")
    assert after > before


async def test_the_lease_is_renewed_as_often_as_the_store_is_told(backend: Backend) -> None:
    """Every 10 s unless told otherwise; here every 20 ms, so a moment sees renewals."""
    store = await Store.open(backend.target, durable=False, clock=counter_clock(), renew_every=0.02)
    try:
        await store.leases.claim_shards(Shards())
        [(before,)] = await backend.rows("SELECT expires_at FROM shard_leases")
        for _ in range(200):
            await asyncio.sleep(0.02)
            [(after,)] = await backend.rows("SELECT expires_at FROM shard_leases")
            if after > before:
                break
        assert after > before, "the background task renewed the lease"
    finally:
        await store.close()


async def test_a_lease_taken_over_by_another_process_is_reported(
    store: Store, backend: Backend
) -> None:
    """Renewals failed long enough for another process to take the shard: the bot must stop."""
    lost: list[bool] = []
    await store.leases.claim_shards(Shards(), on_lost=lambda: lost.append(True))
    await store.leases._renew(store.leases._lease_owner or "")
    assert lost == []
    await backend.rows("UPDATE shard_leases SET owner = 'the other process'")
    await store.leases._renew(store.leases._lease_owner or "")
    assert lost == [True]


async def test_a_lease_left_by_an_earlier_process_with_this_pid_is_free(
    store: Store, backend: Backend
) -> None:
    """A container restarted after a crash is pid 1 again: its own old lease doesn't hold it."""
    query = """INSERT INTO shard_leases (shard_id, shard_count, owner, host, pid, expires_at)
               VALUES (0, 1, 'before the crash', ?, ?, ?)"""
    await backend.rows(query, (_host(), os.getpid(), 10.0**10))
    await store.leases.claim_shards(Shards())
    assert store.leases.shards == Shards()
