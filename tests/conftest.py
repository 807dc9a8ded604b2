"""Fixtures every layer's tests share: pytest's markers and one real PostgreSQL.

The Discord fixtures (a LamaBot inside SimCord) are in ``tests/simcord_fixtures.py``, for
``tests/bot`` and ``tests/process`` only: ``tests/game``, ``tests/data`` and
``tests/service`` run without discord.py or SimCord, ``tests/frontend`` and ``tests/cogs``
(the pure helpers of ``bot/frontend`` and ``cogs``) without SimCord.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

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
        "slow: waits in real time (a process, the bot's real pacing, a held store read);"
        " the quick loop leaves it out: -m 'not slow'",
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
