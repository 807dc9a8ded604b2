"""Fixtures for the stats tests.

The stats tests play many short games; every table edit goes out at once (the
``pacing`` fixture of tests/simcord_fixtures.py), as in the rest of tests/bot.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from bot.client import LamaBot


@pytest_asyncio.fixture(autouse=True)
async def close_the_store(simcord_bot: LamaBot) -> AsyncIterator[None]:
    """Close the bot's SQLite connection after SimCord has shut the bot down.

    SimCord's shutdown cancels the bot's tasks but doesn't call ``bot.close()``, so
    the connection would be closed by the garbage collector later, from another
    test's event loop ("Event loop is closed" in aiosqlite's worker thread).
    Set up before ``simcord_env``, this is torn down after it.
    """
    yield
    store = getattr(simcord_bot, "store", None)
    if store is not None:
        await store.close()
