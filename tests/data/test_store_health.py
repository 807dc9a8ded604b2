"""The health check's store work: never on the games' connection, and bounded whatever the
rate at which it is asked."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from data import Store, StoreError

from ._helpers import counter_clock


def still(seconds: float = 1000.0) -> Callable[[], float]:
    """A clock that does not move."""
    return lambda: seconds


async def test_the_health_check_answers_while_a_move_waits_for_the_database(
    db_path: Path,
) -> None:
    store = await Store.open(db_path, durable=False, clock=counter_clock())
    try:
        with closing(sqlite3.connect(db_path, isolation_level=None, timeout=0)) as other:
            other.execute("BEGIN IMMEDIATE")  # another program writes: a save must wait
            saving = asyncio.create_task(store.settings.set_language(1, "de"))
            await asyncio.sleep(0)  # the save has the games' connection, waiting for the file
            await store.ping()
            assert not saving.done(), "the health check waited behind the games' save"
            other.execute("ROLLBACK")
        await saving
    finally:
        await store.close()


async def test_a_flood_of_health_checks_costs_the_store_one_query(db_path: Path) -> None:
    store = await Store.open(db_path, durable=False, clock=still())
    units: list[str] = []
    store.time_units(lambda kind, _seconds: units.append(kind))
    try:
        await asyncio.gather(*(store.ping() for _ in range(50)))
        for _ in range(50):
            await store.ping()
        assert len(units) == 1
    finally:
        await store.close()


async def test_the_health_check_asks_again_once_its_answer_is_old(db_path: Path) -> None:
    now = [1000.0]
    store = await Store.open(db_path, durable=False, clock=lambda: now[0])
    units: list[str] = []
    store.time_units(lambda kind, _seconds: units.append(kind))
    try:
        await store.ping()
        now[0] += 60
        await store.ping()
        assert len(units) == 2
    finally:
        await store.close()


async def test_a_closed_store_fails_the_health_check_at_once(db_path: Path) -> None:
    store = await Store.open(db_path, durable=False, clock=still())
    await store.ping()
    await store.close()
    with pytest.raises(StoreError):
        await store.ping()


async def test_a_failed_check_is_logged_once_whoever_asked(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = await Store.open(db_path, durable=False, clock=still())
    await store._reads.close()  # the stats' connection gone, as a server that went away
    try:
        for _ in range(20):
            with pytest.raises(StoreError):
                await store.ping()
        assert caplog.text.count("does not answer the health check") == 1
    finally:
        await store.close()
