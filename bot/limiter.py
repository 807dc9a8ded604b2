"""The bot token's REST budget: a token bucket that serves the most urgent call first.

Discord allows one bot token about 50 requests per second, across every process
and every route (calls made with an interaction token don't count).  A process
that goes over gets answers of 429 and waits anyway, and the calls it waits for
are in no particular order.  This limiter keeps the process under its own
budget instead: ``rate`` calls a second after a burst of ``burst``, and when
calls have to wait, a turn ping goes before a table edit, and both before a
cosmetic post (a finished game's chart, a warning's table edit).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Awaitable, Callable
from enum import IntEnum

EPSILON = 1e-9  # a token short by a rounding error is a whole one: no endless tiny sleeps


class Priority(IntEnum):
    """Lower goes first."""

    PING = 0  # a turn ping: a player who isn't looking learns it's their turn
    TABLE = 1  # the table message, and taking down pings that are over
    # The chart, a warning's table edit, the pings an earlier run left: nothing waits on them.
    COSMETIC = 2


class Limiter:
    def __init__(
        self,
        rate: float,
        *,
        burst: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if rate <= 0:
            raise ValueError("the rate must be positive")
        self.rate = rate
        self.burst = max(1.0, burst if burst is not None else rate)
        self._clock = clock
        self._sleep = sleep
        self._tokens = self.burst
        self._stamp = clock()
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()  # first come, first served within a priority
        self._dispenser: asyncio.Task[None] | None = None

    @property
    def waiting(self) -> int:
        """Calls waiting for their turn now."""
        return sum(1 for *_, future in self._waiting if not future.done())

    async def acquire(self, priority: Priority = Priority.TABLE) -> None:
        """Wait until one more call fits the budget (at once while it does)."""
        self._refill()
        if not self._waiting and self._tokens >= 1 - EPSILON:
            self._tokens -= 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), future))
        if self._dispenser is None or self._dispenser.done():
            self._dispenser = asyncio.create_task(self._dispense(), name="lama-rest-budget")
        await future  # a caller that gives up cancels it, and its turn is skipped

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    async def _dispense(self) -> None:
        while self._waiting:
            self._refill()
            if self._tokens < 1 - EPSILON:
                await self._sleep((1 - self._tokens) / self.rate)
                continue
            *_, future = heapq.heappop(self._waiting)
            if not future.done():
                self._tokens -= 1
                future.set_result(None)

    async def close(self) -> None:
        if self._dispenser is not None:
            self._dispenser.cancel()
        for *_, future in self._waiting:
            future.cancel()
        self._waiting.clear()
