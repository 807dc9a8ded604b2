"""Fixtures every layer's tests share: pytest's markers and one real PostgreSQL.

The Discord fixtures (a LamaBot inside SimCord) are in ``tests/simcord_fixtures.py``, for
``tests/bot`` and ``tests/process`` only: ``tests/game``, ``tests/data`` and
``tests/service`` run without discord.py or SimCord, ``tests/frontend`` and ``tests/cogs``
(the pure helpers of ``bot/frontend`` and ``cogs``) without SimCord.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.pg import PostgresServer
from tests.pg import available as postgres_missing


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "real_pacing: keep the production AI pause and table-edit pacing"
    )
    config.addinivalue_line("markers", "cooldowns: keep the production per-person cooldowns")
    config.addinivalue_line(
        "markers",
        "parked_retries: a failed Discord call is tried again only once the test moves"
        " SimCord's clock past tests.simcord_fixtures.PARKED_RETRY",
    )
    config.addinivalue_line(
        "markers",
        "slow: waits in real time (a process, the bot's real pacing, a held store read),"
        " or takes over a quarter second on a quiet machine; the quick loop leaves it out:"
        " -m 'not slow'",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The whole processes of tests/process, the AI's real worker processes (the service
    tests' ``pool``) and the bot's real pacing are slow by nature."""
    for item in items:
        if (
            "process" in item.path.parent.parts[-1:]
            or "pool" in getattr(item, "fixturenames", ())
            or item.get_closest_marker("real_pacing")
        ):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One real PostgreSQL for the whole run; skipped only on a developer's machine
    without its binaries (in CI, which installs them, that is a failure)."""
    missing = postgres_missing()
    if missing is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI needs PostgreSQL for the store tests: {missing}")
        pytest.skip(missing)
    server = PostgresServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def _migrate(path: Path) -> None:
    from data import Store  # tests/game's runs need no store

    await (await Store.open(path, durable=False)).close()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], Path]:
    """Puts a SQLite database the store's migrations already ran on at the path it is
    given, and returns that path: a copy of one migrated once a run (running the
    migrations took about 30 ms a test, the copy 2 ms). What a store does on an empty
    file is the migration tests' (tests/data/test_store_migrations.py)."""
    template = tmp_path_factory.mktemp("migrated") / "lama.db"
    # In a thread of its own: asyncio.run here would unset the test's event loop.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, _migrate(template)).result()

    def copy(path: Path) -> Path:
        shutil.copyfile(template, path)
        return path

    return copy
