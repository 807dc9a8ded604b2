"""Where the AI thinks: Hard in worker processes, so no search ever holds the event loop.

Hard's search is plain Python and runs for tens of milliseconds.  In a thread
it would share the interpreter lock with the event loop (16 Hard decisions at
once stalled the loop for about 200 ms); in a process it shares nothing.  The
loop only hands the view over and gets the move back.  Easy and Normal answer
in well under a millisecond, so they decide right where they are asked.

The workers start with the first Hard move (or :meth:`Thinking.start`), so a
bot without Hard players never starts one.  ``Thinking(workers=0)`` thinks in
a thread instead: for tools and tests that build a service without a pool.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from game import Action, SeatView
from game.ai import Strength, choose

log = logging.getLogger(__name__)


def _ready() -> int:
    """Run in a worker when it starts: the AI is imported and the worker counted."""
    return os.getpid()


class Thinking:
    """Decides AI moves; Hard's in a pool of ``workers`` processes (0: a thread)."""

    def __init__(self, workers: int) -> None:
        if workers < 0:
            raise ValueError("workers must be 0 (a thread) or more")
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    def _new_pool(self) -> ProcessPoolExecutor:
        # Spawned, not forked: the bot has threads (the store's), and a fork
        # copies their locks in whatever state they are.
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))

    def _ensure_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:  # no await in between: one pool, however many ask at once
            self._pool = self._new_pool()
        return self._pool

    async def start(self) -> None:
        """Start every worker now, so the first Hard move doesn't wait for one."""
        if self.workers == 0:
            return
        pool = self._ensure_pool()
        loop = asyncio.get_running_loop()
        # Starting a process takes a few milliseconds of the caller's time: not the loop's.
        futures = await loop.run_in_executor(
            None, lambda: [pool.submit(_ready) for _ in range(self.workers)]
        )
        await asyncio.gather(*(asyncio.wrap_future(f) for f in futures))

    async def decide(self, view: SeatView, strength: Strength, seed: int | str) -> Action:
        """The move ``choose(view, strength, seed)`` makes, without blocking the loop."""
        if self._closed:
            raise RuntimeError("the AI has been shut down")
        if strength != Strength.HARD:
            return choose(view, strength, seed)
        if self.workers == 0:
            return await asyncio.to_thread(choose, view, strength, seed)
        pool = self._ensure_pool()
        loop = asyncio.get_running_loop()
        try:
            action = await loop.run_in_executor(pool, choose, view, strength, seed)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool for the
            # next move and think this one in a thread, so the table goes on.
            log.warning("an AI worker process died; starting new ones")
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            action = await asyncio.to_thread(choose, view, strength, seed)
        # The move came back as a copy: answer with the view's own object.
        return view.legal[view.legal.index(action)]

    async def close(self) -> None:
        """Stop the workers and wait until they are gone; no decision is taken after."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


__all__ = ["Thinking"]
