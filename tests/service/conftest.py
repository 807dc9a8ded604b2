"""Fixtures for the service's parts: a real SQLite store, a clock moved by hand, an AI pool.

Each store starts as the migrations leave a new database (``migrated_sqlite``: a copy)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import pytest_asyncio

from bot.service.thinking.pool import Thinking
from bot.service.timing import Timing
from data import Store
from testkit.service_game import ManualClock, ServiceGame


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest_asyncio.fixture
async def store(
    tmp_path: Path, clock: ManualClock, migrated_sqlite: Callable[[Path], Path]
) -> AsyncIterator[Store]:
    opened = await Store.open(migrated_sqlite(tmp_path / "lama.db"), durable=False, clock=clock)
    try:
        yield opened
    finally:
        await opened.close()


@pytest_asyncio.fixture
async def game(
    tmp_path: Path, clock: ManualClock, migrated_sqlite: Callable[[Path], Path]
) -> AsyncIterator[ServiceGame]:
    """A whole service over its own store, with a recording listener; its AI seats
    move at once (the pause is for people following the table, and the clock here is
    moved by hand anyway)."""
    timing = Timing(ai_delay=0.0)
    path = migrated_sqlite(tmp_path / "game.db")
    opened = await ServiceGame.open(path, clock=clock, timing=timing)
    try:
        yield opened
    finally:
        await opened.close()


@pytest_asyncio.fixture
async def pool() -> AsyncIterator[Thinking]:
    """The AI's thinking in one real worker process, started."""
    thinking = Thinking(workers=1)
    await thinking.start()
    try:
        yield thinking
    finally:
        await thinking.close()
