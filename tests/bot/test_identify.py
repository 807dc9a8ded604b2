"""The sharded bot's identify hook: PostgreSQL's turns, SQLite's discord.py spacing, and
what happens when either Discord or the database can't say."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.client import ShardedLamaBot, make_bot
from bot.config import Settings
from data.identify import IdentifyTurns
from tests.pg import PostgresServer
from tests.process.cli import TOKEN

SPACING = 1.0
#: A turn long enough that waiting it out can't be mistaken for a busy machine's delay:
#: the tests that a turn is given back wait far less (how soon is not a goal of theirs).
HELD = 30.0


def sharded(database: dict[str, str], ids: str = "0,1") -> ShardedLamaBot:
    """Shards ``ids`` of 4 on ``database``, their identify turns held ``SPACING`` s."""
    environ = {"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "4", "SHARD_IDS": ids, **database}
    bot = make_bot(Settings.from_env(environ), identify_spacing=SPACING)
    assert isinstance(bot, ShardedLamaBot)
    return bot


def answer_concurrency(bot: ShardedLamaBot, concurrency: int | Exception) -> list[int]:
    """Discord's GET /gateway/bot, answered here; the list counts the calls."""
    calls: list[int] = []

    async def gateway() -> tuple[int, str, dict[str, int]]:
        calls.append(1)
        if isinstance(concurrency, Exception):
            raise concurrency
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0}
        return 4, "wss://gateway.invalid", {**limit, "max_concurrency": concurrency}

    bot.http.get_bot_gateway = gateway  # type: ignore[assignment,method-assign]
    return calls


@pytest.fixture
def discords_own(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int | None, bool]]:
    """discord.py's own hook (5 s between one process's IDENTIFYs), recorded, not slept."""
    calls: list[tuple[int | None, bool]] = []

    async def own(self: Any, shard_id: int | None, *, initial: bool = False) -> None:
        calls.append((shard_id, initial))

    monkeypatch.setattr(discord.Client, "before_identify_hook", own)
    return calls


async def test_on_sqlite_discord_py_spaces_the_shards(
    tmp_path: Path, discords_own: list[tuple[int | None, bool]]
) -> None:
    bot = sharded({"DATABASE_PATH": str(tmp_path / "lama.db")})
    calls = answer_concurrency(bot, 1)
    await bot.before_identify_hook(0, initial=True)
    await bot.before_identify_hook(1, initial=False)
    assert discords_own == [(0, True), (1, False)]
    assert calls == []  # no need to ask Discord


@pytest.mark.slow  # waits out identify turns in real time
async def test_on_postgresql_a_bucket_is_one_shards_for_the_spacing(
    postgres_server: PostgresServer,
    discords_own: list[tuple[int | None, bool]],
) -> None:
    url = await postgres_server.new_database()
    bot = sharded({"DATABASE_URL": url}, ids="0,1,2")
    calls = answer_concurrency(bot, 2)
    let: dict[int, float] = {}
    try:
        for shard in (0, 1, 2):  # buckets 0, 1, 0
            await bot.before_identify_hook(shard, initial=shard == 0)
            let[shard] = time.monotonic()
        assert let[1] - let[0] < SPACING / 2  # another bucket: at once
        assert let[2] - let[0] >= SPACING - 0.1  # the same bucket: its turn after the spacing
        # Another process, on bucket 1, waits for this one's turn to end.
        other = IdentifyTurns(url, spacing=SPACING)
        started = time.monotonic()
        await other.take(3, 2)
        assert time.monotonic() - let[1] >= SPACING - 0.1
        await other.close()
    finally:
        if bot._identify is not None:
            await bot._identify.close()
    assert calls == [1]  # max_concurrency asked once
    assert discords_own == []
    # Closing gives the turns back at once: a process closing in its long turn keeps no
    # other waiting for it (a wait ten times the spacing would be its turn kept).
    holder = IdentifyTurns(url, spacing=HELD)
    await holder.take(0, 2)
    again = IdentifyTurns(url, spacing=SPACING)
    started = time.monotonic()
    await holder.close()
    await again.take(0, 2)
    assert time.monotonic() - started < HELD / 2, "the closed process kept its turn"
    await again.close()


async def test_a_database_out_of_reach_falls_back_to_discord_pys_spacing(
    discords_own: list[tuple[int | None, bool]], caplog: pytest.LogCaptureFixture
) -> None:
    bot = sharded({"DATABASE_URL": "postgresql://lama:pw@127.0.0.1:1/lama"})
    answer_concurrency(bot, 1)
    with caplog.at_level(logging.WARNING, logger="bot.identify"):
        await bot.before_identify_hook(0, initial=True)
    assert discords_own == [(0, False)]  # the 5 s wait even first: another may just have
    [record] = caplog.records
    assert "shard 0 identifies with discord.py's own spacing" in record.getMessage()
    assert "pw" not in record.getMessage()


@pytest.mark.slow  # waits out identify turns in real time
async def test_without_max_concurrency_one_at_a_time_and_asked_again(
    postgres_server: PostgresServer,
) -> None:
    url = await postgres_server.new_database()
    bot = sharded({"DATABASE_URL": url})
    calls = answer_concurrency(bot, discord.GatewayNotFound())
    try:
        await bot.before_identify_hook(0, initial=True)
        started = time.monotonic()
        await bot.before_identify_hook(1, initial=False)  # bucket 0 of 1 as well: it waits
        assert time.monotonic() - started >= SPACING - 0.05
    finally:
        if bot._identify is not None:
            await bot._identify.close()
    assert calls == [1, 1]


@pytest.mark.slow  # waits out identify turns in real time
async def test_a_cancelled_wait_gives_the_bucket_back(postgres_server: PostgresServer) -> None:
    url = await postgres_server.new_database()
    holder, waiter = IdentifyTurns(url, spacing=HELD), IdentifyTurns(url, spacing=SPACING)
    await holder.take(0, 1)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(waiter.take(1, 1), 0.3)  # as discord.py's connect timeout
    await holder.close()
    # Neither the holder nor the cancelled wait keeps it (kept, it would wait for good).
    await asyncio.wait_for(waiter.take(2, 1), HELD / 2)
    await waiter.close()
