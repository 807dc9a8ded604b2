"""The sharded bot's IDENTIFYs in Discord's order, across every process of the bot.

Discord starts one session per ``max_concurrency`` bucket (``shard_id %
max_concurrency``) every 5 s, whichever process asks.  On PostgreSQL, which all
the processes share, each shard waits for its bucket's turn there
(:class:`data.identify.IdentifyTurns`) before discord.py sends its IDENTIFY; the
bot's ``max_concurrency`` comes from ``GET /gateway/bot`` once.  On SQLite (one
process) discord.py spaces its own shards, as it always has; so it does if the
database can't be reached for a turn.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import aiohttp
import discord
from discord.http import HTTPClient

from bot.config import Settings
from bot.limiter import Limiter, Priority
from data import StoreError
from data.identify import IDENTIFY_SPACING, IdentifyTurns

log = logging.getLogger(__name__)

#: discord.py's own ``before_identify_hook``: 5 s between one process's IDENTIFYs.
Default = Callable[..., Awaitable[None]]


class IdentifyOrder:
    """Where a shard of this process waits before it identifies: on PostgreSQL, a turn
    of its bucket held ``spacing`` seconds (:data:`~data.identify.IDENTIFY_SPACING`
    unless given)."""

    def __init__(
        self,
        settings: Settings,
        http: HTTPClient,
        limiter: Limiter,
        *,
        spacing: float = IDENTIFY_SPACING,
    ) -> None:
        url = settings.database_url
        self._turns = IdentifyTurns(url, spacing=spacing) if url else None
        self._http = http
        self._limiter = limiter
        self._concurrency: int | None = None

    async def wait(self, shard_id: int | None, *, initial: bool, default: Default) -> None:
        """Return when ``shard_id`` may identify."""
        if self._turns is None or shard_id is None:
            await default(shard_id, initial=initial)
            return
        try:
            await self._turns.take(shard_id, await self.max_concurrency())
        except StoreError as error:
            log.warning("shard %d identifies with discord.py's own spacing: %s", shard_id, error)
            await default(shard_id, initial=False)
        else:
            log.debug("shard %d: its turn to identify", shard_id)

    async def max_concurrency(self) -> int:
        """The bot's ``max_concurrency``; 1 (one IDENTIFY at a time) until Discord says it."""
        if self._concurrency is None:
            try:
                await self._limiter.acquire(Priority.TABLE)
                _, _, limit = await self._http.get_bot_gateway()
            except (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError) as error:
                log.warning(
                    "could not learn max_concurrency (%s); identifying one at a time", error
                )
                return 1  # asked again at the next IDENTIFY
            self._concurrency = max(1, int(limit["max_concurrency"]))
            log.info("Identifying %d shard(s) at a time", self._concurrency)
        return self._concurrency

    async def close(self) -> None:
        if self._turns is not None:
            await self._turns.close()
