"""Fixtures for the store tests: a fresh store per test, on SQLite and on PostgreSQL.

``store`` (and ``backend``) run each test twice: on a real SQLite file, and on
a fresh database of the session's real PostgreSQL server (see ``tests/pg.py``); both
start as the migrations leave a new database (a copy of one migrated once a run).
``empty_backend`` is an empty database, for the migrations' own tests. Tests of what
only SQLite has (its pragmas, its file) use ``db_path`` directly.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import pytest_asyncio

from data import Store

from ._helpers import Backend, counter_clock


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "lama.db"


@pytest_asyncio.fixture(params=["sqlite", "postgres"])
async def backend(
    request: pytest.FixtureRequest, db_path: Path, migrated_sqlite: Callable[[Path], Path]
) -> Backend:
    """A new database the migrations ran on."""
    if request.param == "postgres":
        server = request.getfixturevalue("postgres_server")
        return Backend("postgres", await server.migrated_database())
    return Backend("sqlite", str(migrated_sqlite(db_path)))


@pytest_asyncio.fixture(params=["sqlite", "postgres"])
async def empty_backend(request: pytest.FixtureRequest, db_path: Path) -> Backend:
    """A new, empty database: what the migrations start from."""
    if request.param == "postgres":
        server = request.getfixturevalue("postgres_server")
        return Backend("postgres", await server.new_database())
    return Backend("sqlite", str(db_path))


@pytest_asyncio.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    # durable=False only spares the tests an fsync per move; the SQL is the same.
    opened = await Store.open(backend.target, durable=False, clock=counter_clock())
    try:
        yield opened
    finally:
        await opened.close()


@pytest_asyncio.fixture
async def sqlite_store(db_path: Path) -> AsyncIterator[Store]:
    """A store on SQLite only, for what only SQLite has."""
    opened = await Store.open(db_path, durable=False, clock=counter_clock())
    try:
        yield opened
    finally:
        await opened.close()
