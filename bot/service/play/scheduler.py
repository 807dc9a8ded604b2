"""One dispatcher for every clock of every table.

Modelled on RoboDanny's ``cogs/reminder.py`` ``dispatch_timers``: a single
loop sleeps until the earliest timer is due, fires it and looks again; a timer
sooner than the one it sleeps for starts the loop over.  With no timers left
the loop ends, and the next timer starts it again.  Each timer's action runs in a
task of its own, and whatever it raises is logged and goes no further: a
failed warning post doesn't keep the same turn from timing out, nor any other
table's clocks from ringing.  If the loop itself ever fails, it logs that and
carries on.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

Key = tuple[int, str]  # (game id, which clock)
TimerAction = Callable[[], Awaitable[None]]


@dataclass(order=True)
class _Timer:
    when: float
    order: int  # ties ring in the order they were set
    key: Key = field(compare=False)
    action: TimerAction = field(compare=False)
    cancelled: bool = field(default=False, compare=False)


async def _nothing() -> None:
    return None


class Scheduler:
    """Runs each timer's action at its time (unix time, by ``clock``).

    ``sleep`` waits for a delay measured by that clock: ``asyncio.sleep`` by
    default (looked up when it sleeps); a test whose clock it moves by hand
    passes that clock's own.
    """

    def __init__(
        self,
        clock: Callable[[], float],
        *,
        sleep: Callable[[float], Awaitable[None]] | None = None,
    ) -> None:
        self._clock = clock
        self._sleep = sleep
        self._heap: list[_Timer] = []
        self._pending: dict[Key, _Timer] = {}
        self._order = itertools.count()
        self._loop_task: asyncio.Task[None] | None = None
        self._sleeping_until: float | None = None  # the loop's wake-up time while it sleeps
        self._running: set[asyncio.Task[None]] = set()
        self._closed = False

    def at(self, key: Key, when: float, action: TimerAction) -> None:
        """Run ``action`` at ``when`` (unix time), in place of ``key``'s pending timer."""
        self.cancel(key)
        if self._closed:
            return  # the bot is shutting down: a late click starts no clock

        timer = _Timer(when, next(self._order), key, action)
        heapq.heappush(self._heap, timer)
        self._pending[key] = timer
        if self._loop_task is None or self._loop_task.done():
            self._start()
        elif self._sleeping_until is not None and when < self._sleeping_until:
            # Asleep until a later timer: start over, as RoboDanny does.
            self._loop_task.cancel()
            self._start()

    def pending(self, key: Key) -> bool:
        return key in self._pending

    def cancel(self, key: Key) -> None:
        timer = self._pending.pop(key, None)
        if timer is None:
            return
        # The entry stays in the heap until it comes up, maybe days later: let go
        # of the table its action holds now, and drop the dead entries once they
        # outnumber the live ones (every move of an untimed game re-arms a clock).
        timer.cancelled = True
        timer.action = _nothing
        if len(self._heap) > 2 * len(self._pending) + 16:
            self._heap = [t for t in self._heap if not t.cancelled]
            heapq.heapify(self._heap)

    def cancel_game(self, game_id: int) -> None:
        for key in [k for k in self._pending if k[0] == game_id]:
            self.cancel(key)

    def _start(self) -> None:
        self._sleeping_until = None
        self._loop_task = asyncio.create_task(self._dispatch(), name="lama-clocks")

    async def _dispatch(self) -> None:
        """Fire the timers in order of time; done when there are none left."""
        while True:
            try:
                while self._heap and self._heap[0].cancelled:
                    heapq.heappop(self._heap)
                if not self._heap:
                    return
                timer = self._heap[0]
                delay = timer.when - self._clock()
                if delay > 0:
                    self._sleeping_until = timer.when
                    await (self._sleep or asyncio.sleep)(delay)
                    self._sleeping_until = None
                    continue
                heapq.heappop(self._heap)
                del self._pending[timer.key]
                task = asyncio.create_task(self._fire(timer), name=f"lama-clock-{timer.key[1]}")
                self._running.add(task)
                task.add_done_callback(self._running.discard)
            except Exception:
                log.exception("the clocks failed; carrying on")
                await asyncio.sleep(1)  # not a busy loop if the failure repeats

    @staticmethod
    async def _fire(timer: _Timer) -> None:
        try:
            await timer.action()
        except Exception:
            game_id, clock = timer.key
            log.exception("game %s: the %s clock failed", game_id, clock)

    async def close(self) -> None:
        """Drop every timer and stop what is running."""
        self._closed = True
        self._pending.clear()
        self._heap.clear()
        tasks = [*self._running, *([self._loop_task] if self._loop_task else [])]
        self._loop_task = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
