"""A gate with a few places, shared fairly among owners, then let in by priority.

An owner (the person a piece of work is for) who already has places or waits for
them goes after those who have fewer: one person with twenty tables of Hard seats
gets a place in turn with each other person, not twenty in a row.  Among equal
shares the most urgent goes first (an AI seat's move before a hint), then in order.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager


class PriorityGate:
    """``places`` at once; the others wait, the owner with the fewest places held or
    asked for first, then the lowest ``priority``, then in order."""

    def __init__(self, places: int, on_change: Callable[[], None] | None = None) -> None:
        if places < 1:
            raise ValueError("a gate needs a place")
        #: called whenever the count of those waiting may have changed (an anytime
        #: search stops at its floor when work waits: ``Thinking``)
        self._on_change = on_change
        self._free = places
        #: (its owner's places held and asked for when it came, priority, order, the place)
        self._waiting: list[tuple[int, int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._shares: dict[object, int] = {}  # places held and asked for, by owner

    @property
    def waiting(self) -> int:
        """How many wait for a place."""
        return sum(1 for _, _, _, f in self._waiting if not f.done())

    def waiting_at(self, priority: int) -> int:
        """How many of ``priority`` wait for a place."""
        return sum(1 for _, p, _, f in self._waiting if p == priority and not f.done())

    @asynccontextmanager
    async def place(self, priority: int, owner: object = None) -> AsyncIterator[None]:
        """Hold a place for the ``async with``, once one is given; ``owner`` is whose
        work it is, for the fair share (None: nobody's, by priority and order alone)."""
        share = 0 if owner is None else self._shares.get(owner, 0)
        if owner is not None:
            self._shares[owner] = share + 1
        try:
            await self._enter(priority, share)
            try:
                yield
            finally:
                self._leave()
        finally:
            if owner is not None:
                self._shares[owner] -= 1
                if not self._shares[owner]:
                    del self._shares[owner]

    async def _enter(self, priority: int, share: int) -> None:
        if self._free > 0:  # a free place means nobody waits: each leaving hands its on
            self._free -= 1
            return
        given: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (share, priority, next(self._order), given))
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
            given = heapq.heappop(self._waiting)[3]
            if not given.done():
                given.set_result(None)
                self._changed()
                return
        self._free += 1


__all__ = ["PriorityGate"]
