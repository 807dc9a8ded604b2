"""Shared searches: one search per question however many ask, its answer kept."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from typing import Any, Generic, TypeVar

from bot.service.errors import ServiceError

T = TypeVar("T")
K = TypeVar("K")


def _always(_: object) -> bool:
    return True


class SharedSearches(Generic[K, T]):
    """The answers to questions ``K``: kept (the newest ``kept``), or being searched.

    Every asker of the same question shares the one search under way, so a
    player mashing a button queues no searches ahead of other tables' AI
    moves.  ``keep`` says which answers to keep (one cut short may do better
    later); ``closing()`` tells that the shutdown began: no new search starts,
    and an asker whose search the shutdown cut short is refused with
    ``error.restarting``.
    """

    def __init__(
        self,
        kept: int,
        closing: Callable[[], bool],
        keep: Callable[[T], bool] = _always,
    ) -> None:
        self._done: OrderedDict[K, T] = OrderedDict()  # the newest last
        self._running: dict[K, asyncio.Task[T]] = {}
        self._kept = kept
        self._closing = closing
        self._keep = keep

    def running(self) -> list[asyncio.Task[T]]:
        """The searches under way."""
        return list(self._running.values())

    def kept(self, key: K) -> T | None:
        """The answer to ``key`` remembered, if there is one."""
        return self._done.get(key)

    def is_running(self, key: K) -> bool:
        """A search for ``key`` is under way."""
        return key in self._running

    async def answer(self, key: K, search: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """The outcome of ``search`` for ``key``: remembered, or the search under way
        that every asker shares, or a new one."""
        if key in self._done:
            return self._done[key]
        return await self.outcome(key, self.begin(key, search))

    def begin(self, key: K, search: Callable[[], Coroutine[Any, Any, T]]) -> asyncio.Task[T]:
        """The search under way for ``key``, or a new one; refused once closing."""
        self.refuse_when_closing()
        task = self._running.get(key)
        if task is None:
            task = asyncio.create_task(search())
            self._running[key] = task
            task.add_done_callback(lambda _: self._running.pop(key, None))
        return task

    async def outcome(self, key: K, task: asyncio.Task[T]) -> T:
        """What ``task`` (:meth:`begin`'s for ``key``) found, kept if it is to be."""
        outcome = await self._outcome(task)
        if self._keep(outcome):
            self._done[key] = outcome
            while len(self._done) > self._kept:
                self._done.popitem(last=False)
        return outcome

    def refuse_when_closing(self) -> None:
        if self._closing():
            raise ServiceError("error.restarting")

    async def _outcome(self, task: asyncio.Task[T]) -> T:
        """What the shared search ``task`` found; refused if the shutdown cut it short."""
        try:
            return await asyncio.shield(task)  # one asker going away leaves it to the others
        except asyncio.CancelledError:
            me = asyncio.current_task()
            if task.cancelled() and self._closing() and (me is None or not me.cancelling()):
                raise ServiceError("error.restarting") from None
            raise
