"""The health check's question to the store, shared: one query at a time, its answer kept.

A monitor asks ``/healthz`` as often as it likes, and so may anyone who reaches the
port.  However often it is asked, the store runs at most one check at a time (callers
at once share it) and one per :data:`FRESH_FOR` seconds (a newer caller gets the last
answer), so a flood costs the database a bounded amount of work.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from .records import StoreError

log = logging.getLogger(__name__)

#: Seconds a check's answer (all well, or the error) stands for every caller.
FRESH_FOR = 2.0


class SharedCheck:
    """``check`` run for its callers at most once at a time and once per ``fresh_for``."""

    def __init__(
        self,
        check: Callable[[], Awaitable[None]],
        clock: Callable[[], float],
        fresh_for: float = FRESH_FOR,
    ) -> None:
        self._check = check
        self._clock = clock
        self._fresh_for = fresh_for
        self._running: asyncio.Future[None] | None = None
        self._answered_at: float | None = None
        self._error: StoreError | None = None
        self._closed = False

    async def __call__(self) -> None:
        """Return if the last answer (or a new one) is that all is well; else raise its
        :class:`StoreError`."""
        if self._closed:
            raise StoreError("the store is closed")
        at = self._answered_at
        if at is None or not 0 <= self._clock() - at < self._fresh_for:
            if self._running is None:
                self._running = asyncio.ensure_future(self._ask())
            # Shielded: a caller that stops waiting (its timeout) leaves the check to the others.
            await asyncio.shield(self._running)
        if self._error is not None:
            raise self._error.with_traceback(None)  # not one traceback longer per caller

    async def _ask(self) -> None:
        try:
            await self._check()
            self._error = None
        except StoreError as error:
            self._error = error
        except Exception as error:  # noqa: BLE001  # any failure is an answer: not well
            self._error = StoreError(f"the check failed: {type(error).__name__}")
        finally:
            self._answered_at = self._clock()
            self._running = None
        if self._error is not None:  # once a check, not once a caller: the host's log
            log.warning("the store does not answer the health check: %s", self._error)

    def close(self) -> None:
        """From now on every call fails at once: the store is closed."""
        self._closed = True
