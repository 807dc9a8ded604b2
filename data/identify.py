"""Identify turns: every process's shards identify one per bucket every few seconds.

Discord lets a bot start ``max_concurrency`` sessions at once, one per bucket
``shard_id % max_concurrency``, and then none in that bucket for 5 s.  discord.py
spaces its own shards' IDENTIFYs in one process; processes starting together on
one PostgreSQL take turns here.  A shard's turn is its bucket's advisory lock,
taken on a connection of its own (never one of the store's pools, which the
games need): the turn starts once no other process holds the lock, and the
lock stays held for :data:`IDENTIFY_SPACING` seconds after it, the time the
IDENTIFY goes out, so the next one in that bucket, in any process, comes at
least that long after.  Different buckets never wait for each other.  A
process that dies gives its locks back with its connections.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress
from typing import Any

from .postgres import CONNECT_TIMEOUT, _errors, _one_line, shown_url
from .records import StoreError

try:
    import asyncpg
except ImportError:  # the postgres extra is not installed; take() says so
    asyncpg = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

#: Discord's 5 s between a bucket's IDENTIFYs, and half a second for the IDENTIFY to
#: leave after its turn started.
IDENTIFY_SPACING = 5.5
#: The advisory locks' first key; the bucket is the second (``pg_advisory_lock(int, int)``).
IDENTIFY_LOCKS = 0x4C414D49  # "LAMI"


def bucket_of(shard_id: int, max_concurrency: int) -> int:
    """The bucket Discord counts a shard's IDENTIFY in."""
    return shard_id % max(1, max_concurrency)


class IdentifyTurns:
    """Turns to identify, taken on the PostgreSQL database at ``url`` that every process of
    the bot shares."""

    def __init__(self, url: str, *, spacing: float = IDENTIFY_SPACING) -> None:
        self.url = url
        self.spacing = spacing
        #: One waiting connection per bucket in this process: its shards queue here first.
        self._buckets: dict[int, asyncio.Lock] = {}
        self._holds: set[asyncio.Task[None]] = set()

    async def take(self, shard_id: int, max_concurrency: int) -> None:
        """Return once ``shard_id`` may identify: nobody in its bucket, in any process, has
        for ``spacing`` seconds, and nobody will for ``spacing`` seconds from now.

        Raises :class:`StoreError` (one line) if the database can't be reached."""
        bucket = bucket_of(shard_id, max_concurrency)
        local = self._buckets.setdefault(bucket, asyncio.Lock())
        await local.acquire()
        try:
            conn = await self._lock(bucket)
        except BaseException:
            local.release()
            raise
        hold = asyncio.create_task(self._hold(conn, bucket, local), name=f"lama-identify-{bucket}")
        self._holds.add(hold)
        hold.add_done_callback(self._holds.discard)

    async def _lock(self, bucket: int) -> Any:
        if asyncpg is None:
            raise StoreError("identify turns need asyncpg: install the postgres extra")
        try:
            conn = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT)
        except _errors() + (ValueError,) as error:
            raise StoreError(
                f"could not take an identify turn at {shown_url(self.url)}: {_one_line(error)}"
            ) from error
        try:
            await conn.execute("SELECT pg_advisory_lock($1, $2)", IDENTIFY_LOCKS, bucket)
        except BaseException as error:
            conn.terminate()  # a cancelled wait too: the lock goes with the connection
            if isinstance(error, _errors()):
                raise StoreError(f"could not take an identify turn: {_one_line(error)}") from error
            raise
        return conn

    async def _hold(self, conn: Any, bucket: int, local: asyncio.Lock) -> None:
        try:
            await asyncio.sleep(self.spacing)
            await conn.execute("SELECT pg_advisory_unlock($1, $2)", IDENTIFY_LOCKS, bucket)
            await conn.close(timeout=CONNECT_TIMEOUT)
        except BaseException as error:
            conn.terminate()
            if not isinstance(error, _errors()):
                raise
            log.warning("identify turn of bucket %d: %s", bucket, _one_line(error))
        finally:
            local.release()

    async def close(self) -> None:
        """Give back the turns still held (their spacing cut short)."""
        holds = list(self._holds)
        for hold in holds:
            hold.cancel()
        for hold in holds:
            with suppress(asyncio.CancelledError):
                await hold
