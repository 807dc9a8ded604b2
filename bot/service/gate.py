"""A gate with a few places, let in by priority: the most urgent waiting goes in first."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager


class PriorityGate:
    """``places`` at once; the others wait, the lowest ``priority`` first, then in order."""

    def __init__(self, places: int, on_change: Callable[[], None] | None = None) -> None:
        if places < 1:
            raise ValueError("a gate needs a place")
        #: called whenever the count of those waiting may have changed (an anytime
        #: search stops at its floor when work waits: ``Thinking``)
        self._on_change = on_change
        self._free = places
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @property
    def waiting(self) -> int:
        """How many wait for a place."""
        return sum(1 for _, _, f in self._waiting if not f.done())

    def waiting_at(self, priority: int) -> int:
        """How many of ``priority`` wait for a place."""
        return sum(1 for p, _, f in self._waiting if p == priority and not f.done())

    @asynccontextmanager
    async def place(self, priority: int) -> AsyncIterator[None]:
        """Hold a place for the ``async with``, once one is given."""
        await self._enter(priority)
        try:
            yield
        finally:
            self._leave()

    async def _enter(self, priority: int) -> None:
        if self._free > 0:  # a free place means nobody waits: each leaving hands its on
            self._free -= 1
            return
        given: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), given))
        self._changed()
        try:
            await given
        except asyncio.CancelledError:
            if given.done() and not given.cancelled():
                self._leave()  # the place came just as the wait was cancelled: hand it on
            else:
                given.cancel()  # passed over when a place is handed on
                self._changed()
            raise

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()

    def _leave(self) -> None:
        while self._waiting:
            _, _, given = heapq.heappop(self._waiting)
            if not given.done():
                given.set_result(None)
                self._changed()
                return
        self._free += 1


__all__ = ["PriorityGate"]
