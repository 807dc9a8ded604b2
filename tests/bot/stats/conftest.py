"""Fixtures for the stats tests.

The stats tests play many short games; the table-edit pacing only slows them
down. The presenter waits up to ``MIN_INTERVAL`` between two edits of a table
message (and ``DEBOUNCE`` before any), which SimCord sits out in real time after
each click. Pacing is tested in tests/bot; here every edit goes out at once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

import bot.frontend.table_edits
from bot.client import LamaBot


@pytest.fixture(autouse=True)
def no_edit_pacing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.frontend.table_edits, "MIN_INTERVAL", 0.0)
    monkeypatch.setattr(bot.frontend.table_edits, "DEBOUNCE", 0.0)


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
