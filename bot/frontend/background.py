"""The front end's background work (retries, chart posts, hand saves), logged if it fails.

Kept while it runs and cancelled when the bot stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine, Iterable
from typing import Any

log = logging.getLogger(__name__)


def log_failure(task: asyncio.Task[None]) -> None:
    """A background task that failed is logged, not lost unseen."""
    if not task.cancelled() and (error := task.exception()) is not None:
        log.error("%s failed", task.get_name(), exc_info=error)


class Background:
    """The tasks spawned by every part of the front end, in one set."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def spawn(self, work: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        """The work started; kept here while it runs, logged if it fails."""
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(log_failure)
        return task

    def named(self, name: str) -> list[asyncio.Task[None]]:
        return [task for task in self._tasks if task.get_name() == name]

    def take_all(self) -> list[asyncio.Task[None]]:
        """Every task still running, let go of (for :func:`stop`)."""
        tasks = [*self._tasks]
        self._tasks.clear()
        return tasks


async def stop(tasks: Iterable[asyncio.Task[None] | None]) -> None:
    """Cancel the tasks, then wait for each to end (whatever it raises)."""
    running = [task for task in tasks if task is not None]
    for task in running:
        task.cancel()
    for task in running:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
