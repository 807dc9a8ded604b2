"""SimCord's settling, indexed: the same answers, found without a scan per waiting task.

SimCord 3.2 asks, for every task the bot has waiting, whether a virtual timer wakes it,
by scanning every timer: the work grows with tables² per settle, and a settle comes with
every click.  ``indexed()`` answers the same question from an index of the timers by
the future they wake, rebuilt whenever the list of timers changes.  Only benchmarks that
play many tables at once use it; tests see SimCord as it is.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from simcord import _dpy_internals, _settlement

_WAKES = "_set_result_unless_cancelled"


class _Index:
    def __init__(self) -> None:
        self.key: tuple[int, int] | None = None
        self.by_waiter: dict[int, list[Any]] = {}
        self.unsure: list[Any] = []  # timers without a handle yet: looked at each time

    def build(self, callbacks: list[Any]) -> None:
        self.key = (id(callbacks), len(callbacks))
        self.by_waiter = {}
        self.unsure = []
        for record in callbacks:
            handle = record.handle
            if handle is None:
                self.unsure.append(record)
                continue
            callback = _dpy_internals._original_callback(getattr(handle, "_callback", None))
            if getattr(callback, "__name__", "") != _WAKES:
                continue
            for arg in getattr(handle, "_args", ()):
                self.by_waiter.setdefault(id(arg), []).append(record)


def _waiter_check(index: _Index) -> Any:
    def is_virtual_sleep_waiter(self: Any, waiter: Any, deadline: float) -> bool:
        if waiter is None or waiter.done():
            return False
        callbacks = self.work.callbacks
        if index.key != (id(callbacks), len(callbacks)):
            index.build(callbacks)
        for record in [*index.by_waiter.get(id(waiter), ()), *index.unsure]:
            handle = record.handle
            if record.when is None or handle is None or handle.cancelled():
                continue
            if _settlement._callback_fire_time(self, record) <= deadline:
                continue
            callback = _dpy_internals._original_callback(getattr(handle, "_callback", None))
            if getattr(callback, "__name__", "") == _WAKES and any(
                arg is waiter for arg in getattr(handle, "_args", ())
            ):
                return True
        return False

    return is_virtual_sleep_waiter


@contextlib.contextmanager
def indexed() -> Iterator[None]:
    saved = _settlement._is_virtual_sleep_waiter
    _settlement._is_virtual_sleep_waiter = _waiter_check(_Index())
    try:
        yield
    finally:
        _settlement._is_virtual_sleep_waiter = saved
