"""Where the AI thinks: Hard in worker processes, so no search ever holds the event loop.

Hard's search is plain Python and runs for tens of milliseconds.  In a thread
it would share the interpreter lock with the event loop (16 Hard decisions at
once stalled the loop for about 200 ms); in a process it shares nothing.  The
loop only hands the view over and gets the move back.  Easy and Normal answer
in well under a millisecond, so they decide right where they are asked.

The workers start as soon as a Hard seat is in sight (:meth:`Thinking.prepare`:
a Hard seat added to a lobby, a resumed game with one), so the first Hard move
doesn't wait for a process to start while its table is locked, and a bot
without Hard players never starts one.  ``Thinking(workers=0)`` thinks in a
thread instead: for tools and tests that build a service without a pool.

The work comes by owner, then by priority (:class:`Urgency`).  Each person's
work (their tables' AI seats, their hints) gets a fair share: one with many
tables of Hard seats waits their turn with each other person, not ahead of
them all.  At equal shares an AI seat's move goes ahead of every hint waiting
for a worker, so the pool is never handed more than it has workers: the order
is decided here, not in the pool's own first-come queue.  Reviews think apart,
one decision at a time, in a process of their own at the lowest CPU priority
(``nice`` 19): they use what the moves and hints leave of the machine and never
hold up either (with ``workers=0``, in a thread of their own).

Moves, hints and reviews' decisions all search anytime (``anytime``): today's
work at least, more only while no work they give way to waits; the gates count
what waits, by priority, and share the counts with the workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.service.metrics import NO_METRICS, ServiceMetrics, ThoughtKind
from bot.service.thinking.anytime import Waiting, share, think_hint, think_judgement, think_move
from bot.service.thinking.gate import PriorityGate
from bot.service.thinking.urgency import Urgency
from game import Action, SeatView
from game.ai import Strength, choose
from game.ai.advice import Advice, Decision, Done

log = logging.getLogger(__name__)

T = TypeVar("T")


#: How each priority is named in the metrics.
KINDS: dict[Urgency, ThoughtKind] = {
    Urgency.MOVE: "move",
    Urgency.HINT: "hint",
    Urgency.REVIEW: "review",
}


def _ready() -> int:
    """Run in a worker when it starts: the AI is imported and the worker counted."""
    return os.getpid()


def _in_the_background(waiting: Waiting) -> None:
    """Run in the reviews' process when it starts: the lowest CPU priority, and where
    to read what waits."""
    with contextlib.suppress(AttributeError, OSError):  # no nice() on this system
        os.nice(19)
    share(waiting)


class Thinking:
    """Decides AI moves; Hard's in a pool of ``workers`` processes (0: a thread)."""

    def __init__(self, workers: int, *, metrics: ServiceMetrics = NO_METRICS) -> None:
        if workers < 0:
            raise ValueError("workers must be 0 (a thread) or more")
        self.workers = workers
        self.metrics = metrics
        self._pool: ProcessPoolExecutor | None = None
        self._starting: asyncio.Future[None] | None = None  # the pool's workers coming up
        self._closed = False
        # What waits for a worker, by priority, in shared memory: a search past
        # today's work in a worker stops at its next checkpoint when work it gives
        # way to waits (``anytime``).
        spawn = multiprocessing.get_context("spawn")
        self._shared_waiting: ctypes.Array[ctypes.c_int] = spawn.RawArray("i", len(Urgency))
        # Moves and hints take turns for the pool's workers (a thread without a pool).
        self._gate = PriorityGate(max(1, workers), on_change=self._count_waiting)
        # Reviews for their own process (or thread), one decision at a time.
        self._review_gate = PriorityGate(1, on_change=self._count_waiting)
        self._review_pool: ProcessPoolExecutor | None = None

    def waiting(self) -> dict[str, int]:
        """How much work of each kind waits for a worker (its place at the gate)."""
        return {
            KINDS[Urgency.MOVE]: self._gate.waiting_at(Urgency.MOVE),
            KINDS[Urgency.HINT]: self._gate.waiting_at(Urgency.HINT),
            KINDS[Urgency.REVIEW]: self._review_gate.waiting,
        }

    def _count_waiting(self) -> None:
        shared = self._shared_waiting
        for priority in Urgency:
            shared[priority] = self._gate.waiting_at(priority) + self._review_gate.waiting_at(
                priority
            )

    def _new_pool(self) -> ProcessPoolExecutor:
        # Spawned, not forked: the bot has threads (the store's), and a fork
        # copies their locks in whatever state they are.  Each worker gets the
        # shared count of what waits as it starts (it can't travel with the work).
        return ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=share,
            initargs=(self._shared_waiting,),
        )

    def _ensure_pool(self) -> ProcessPoolExecutor:
        self._refuse_when_closed()  # asked before the close, let in by the gate after it
        if self._pool is None:  # no await in between: one pool, however many ask at once
            self._pool = self._new_pool()
        return self._pool

    def _refuse_when_closed(self) -> None:
        """No work, and above all no new worker process, once :meth:`close` ran: a process
        started then would never be shut down."""
        if self._closed:
            raise RuntimeError("the AI has been shut down")

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        """A worker of ``pool`` died: the next start or Hard move makes a fresh pool."""
        if self._pool is pool:
            self._pool = None
            self._starting = None
            pool.shutdown(wait=False, cancel_futures=True)

    def prepare(self) -> None:
        """Start every worker in the background, unless they are started already."""
        if self.workers == 0 or self._closed or self._starting is not None:
            return
        self._starting = asyncio.ensure_future(self._start_workers(self._ensure_pool()))

    async def start(self) -> None:
        """Start every worker now and wait until they are up; once is enough."""
        self.prepare()
        if self._starting is not None:
            await asyncio.shield(self._starting)

    async def _start_workers(self, pool: ProcessPoolExecutor) -> None:
        loop = asyncio.get_running_loop()
        try:
            # Starting a process takes a few milliseconds of the caller's time: not the loop's.
            futures = await loop.run_in_executor(
                None, lambda: [pool.submit(_ready) for _ in range(self.workers)]
            )
            await asyncio.gather(*(asyncio.wrap_future(f) for f in futures))
        except BrokenProcessPool:
            log.warning("an AI worker process died while starting; Hard thinks in a thread")
            self._discard(pool)
        except RuntimeError:  # closed while they started
            if not self._closed:
                raise

    async def decide(
        self, view: SeatView, strength: Strength, seed: int | str, *, owner: int | None = None
    ) -> Action:
        """The move ``choose(view, strength, seed)`` makes, without blocking the loop;
        Hard's goes ahead of every hint and review waiting of an ``owner`` (the person
        whose table it is) with as large a share."""
        if self._closed:
            raise RuntimeError("the AI has been shut down")
        if strength != Strength.HARD:
            began = time.perf_counter()
            easy = choose(view, strength, seed)
            self.metrics.thought("move", time.perf_counter() - began)
            return easy
        action = await self.run(choose, view, strength, seed, priority=Urgency.MOVE, owner=owner)
        # The move came back as a copy: answer with the view's own object.
        return view.legal[view.legal.index(action)]

    async def think_in_pause(
        self,
        view: SeatView,
        strength: Strength,
        seed: int | str,
        deadline: float,
        *,
        owner: int | None = None,
    ) -> tuple[Action, int]:
        """An AI seat's move thought in its pause, and the determinizations it took
        (0 for Easy and Normal): Hard does today's work at least, and more, up to
        the idle work, while nothing else waits for a worker and there is time
        before ``deadline`` (``time.monotonic()``); ``anytime.think_move``."""
        if self._closed:
            raise RuntimeError("the AI has been shut down")
        if strength != Strength.HARD:
            return await self.decide(view, strength, seed, owner=owner), 0
        action, done = await self.run(
            think_move,
            view,
            seed,
            deadline,
            *self._waiting_here(),
            priority=Urgency.MOVE,
            owner=owner,
        )
        return view.legal[view.legal.index(action)], done

    async def hint(
        self, view: SeatView, deadline: float, *, owner: int | None = None
    ) -> tuple[Advice, Done]:
        """The hint for ``view`` and its estimates' determinizations: today's work at
        least, more, up to ``advice.HINT_FACTOR`` times it, while no move or other
        hint waits for a worker and there is time before ``deadline``
        (``time.monotonic()``); ``anytime.think_hint``."""
        return await self.run(think_hint, view, deadline, *self._waiting_here(), owner=owner)

    async def judge(
        self, seq: int, view: SeatView, played: Action, deadline: float
    ) -> tuple[Decision | None, Done]:
        """One decision of a review judged, and its estimates' determinizations: today's
        work at least, more, up to ``advice.REVIEW_FACTOR`` times it, while nothing
        else waits and there is time before ``deadline``; ``anytime.think_judgement``."""
        return await self.run(
            think_judgement,
            seq,
            view,
            played,
            deadline,
            *self._waiting_here(),
            priority=Urgency.REVIEW,
        )

    def _share_here(self) -> None:
        """Before work meant for a worker is thought in a thread of this process (its
        worker died): an anytime search there reads what waits from the counts this
        process shares, as a worker reads them, so it still gives way past its floor."""
        share(self._shared_waiting)

    def _waiting_here(self) -> tuple[Waiting, ...]:
        """What an anytime search is handed to read what waits: in a thread the count
        where it is; a worker process was given it at its start."""
        return (self._shared_waiting,) if self.workers == 0 else ()

    async def run(
        self,
        work: Callable[..., T],
        *args: Any,
        priority: Urgency = Urgency.HINT,
        owner: int | None = None,
    ) -> T:
        """``work(*args)`` where Hard thinks, by ``owner``'s share (the person it is
        for; None: nobody's) and ``priority``: a move or hint in a worker process (a
        thread without a pool), a review in the reviews' own; never on the loop.  It
        must pickle."""
        self._refuse_when_closed()
        began = time.perf_counter()
        if priority is Urgency.REVIEW:
            async with self._review_gate.place(priority):
                result = await self._in_review_pool(work, *args)
        else:
            async with self._gate.place(priority, owner):
                result = await self._in_pool(work, *args)
        self.metrics.thought(KINDS[priority], time.perf_counter() - began)
        return result

    async def _in_pool(self, work: Callable[..., T], *args: Any) -> T:
        if self.workers == 0:
            return await asyncio.to_thread(work, *args)
        await self.start()  # at once when they are up, as they are when prepared
        pool = self._ensure_pool()
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(pool, work, *args)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): think this move in a thread,
            # so the table goes on, while fresh workers start for the next one.
            log.warning("an AI worker process died; starting new ones")
            self._discard(pool)
            self._share_here()
            thought = asyncio.to_thread(work, *args)
            result, _ = await asyncio.gather(thought, self.start())
            return result

    async def _in_review_pool(self, work: Callable[..., T], *args: Any) -> T:
        if self.workers == 0:
            return await asyncio.to_thread(work, *args)
        loop = asyncio.get_running_loop()
        self._refuse_when_closed()  # a review that waited its turn past the close
        pool = self._review_pool
        if pool is None:
            pool = self._review_pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_in_the_background,
                initargs=(self._shared_waiting,),
            )
        try:
            # The first submit starts the process: off the loop, as the workers start.
            future = await loop.run_in_executor(None, pool.submit, work, *args)
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            log.warning("the reviews' process died; starting a new one")
            if self._review_pool is pool:
                self._review_pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            self._share_here()
            return await asyncio.to_thread(work, *args)

    async def close(self) -> None:
        """Stop the workers and wait until they are gone; no decision is taken after."""
        self._closed = True
        if self._starting is not None:  # let the workers coming up finish, then stop them
            with contextlib.suppress(Exception):
                await asyncio.shield(self._starting)
        pools = [self._pool, self._review_pool]
        self._pool = self._review_pool = None
        for pool in pools:
            if pool is not None:
                await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


__all__ = ["Urgency", "Thinking"]
