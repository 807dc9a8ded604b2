"""A database that reports how long each unit of work took, for the bot's metrics.

:meth:`Store.time_units <data.store.Store.time_units>` puts one around the
store's connections: every unit of work (one public store method, one
transaction) is timed from asking for the connection to its commit or rollback,
and ``observe(kind, seconds)`` is called with ``"write"`` or ``"read"``.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from .database import Database, Unit

#: ``observe(kind, seconds)``: a unit of work of ``kind`` ("write" or "read") took so long.
Observe = Callable[[str, float], None]


class TimedDatabase(Database):
    """``inner``, each unit of work timed for ``observe``."""

    def __init__(self, inner: Database, observe: Observe) -> None:
        self.inner = inner
        self.dialect = inner.dialect
        self._observe = observe

    def __getattr__(self, name: str) -> Any:  # the backend's own attributes, for tests
        return getattr(self.inner, name)

    @asynccontextmanager
    async def _timed(
        self, kind: str, unit: AbstractAsyncContextManager[Unit]
    ) -> AsyncIterator[Unit]:
        began = time.perf_counter()
        try:
            async with unit as opened:
                yield opened
        finally:
            self._observe(kind, time.perf_counter() - began)

    def write(self) -> AbstractAsyncContextManager[Unit]:
        return self._timed("write", self.inner.write())

    def read(self) -> AbstractAsyncContextManager[Unit]:
        return self._timed("read", self.inner.read())

    async def close(self) -> None:
        await self.inner.close()

    async def compact(self, tables: Sequence[str]) -> None:
        await self.inner.compact(tables)

    async def settings(self) -> dict[str, int | str]:
        return await self.inner.settings()


__all__ = ["Observe", "TimedDatabase"]
