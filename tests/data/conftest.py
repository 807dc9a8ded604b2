"""Fixtures for the store tests: a fresh store on a real SQLite file per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from data import Store

from ._helpers import counter_clock


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "lama.db"


@pytest_asyncio.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    # durable=False only spares the tests an fsync per move; the SQL is the same.
    opened = await Store.open(db_path, durable=False, clock=counter_clock())
    try:
        yield opened
    finally:
        await opened.close()
