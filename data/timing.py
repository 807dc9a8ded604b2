"""A database that reports how long each unit of work took, for the bot's metrics.

The store's connections are each wrapped in one when it opens, and
:meth:`Store.time_units <data.store.Store.time_units>` gives them what to report
to: from then on every unit of work (one public method of a part, one transaction)
is timed from asking for the connection to its commit or rollback, and
``observe(kind, seconds)`` is called with ``"write"`` or ``"read"``.  (Wrapped
from the start, so the store's parts, each given its databases when the store
opens, are timed too once the bot has its metrics.)
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
    """``inner``, each unit of work timed for ``observe`` once it is set (untimed
    until then)."""

    def __init__(self, inner: Database, observe: Observe | None = None) -> None:
        self.inner = inner
        self.dialect = inner.dialect
        #: Told how long each unit of work took; None: nobody asks yet.
        self.observe = observe

    def __getattr__(self, name: str) -> Any:  # the backend's own attributes, for tests
        return getattr(self.inner, name)

    @asynccontextmanager
    async def _timed(
        self, kind: str, unit: AbstractAsyncContextManager[Unit], observe: Observe
    ) -> AsyncIterator[Unit]:
        began = time.perf_counter()
        try:
            async with unit as opened:
                yield opened
        finally:
            observe(kind, time.perf_counter() - began)

    def _unit(
        self, kind: str, unit: AbstractAsyncContextManager[Unit]
    ) -> AbstractAsyncContextManager[Unit]:
        return unit if self.observe is None else self._timed(kind, unit, self.observe)

    def write(self) -> AbstractAsyncContextManager[Unit]:
        return self._unit("write", self.inner.write())

    def read(self) -> AbstractAsyncContextManager[Unit]:
        return self._unit("read", self.inner.read())

    async def close(self) -> None:
        await self.inner.close()

    async def compact(self, tables: Sequence[str]) -> None:
        await self.inner.compact(tables)

    async def settings(self) -> dict[str, int | str]:
        return await self.inner.settings()


__all__ = ["Observe", "TimedDatabase"]
