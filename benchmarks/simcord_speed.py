"""SimCord's settling, indexed: the same answers, found without a scan per waiting task.

SimCord 3.2 asks, for every task the bot has waiting, which virtual timers wake it, by
scanning every timer: the work grows with tables² per settle, and a settle comes with
every click.  ``indexed()`` answers the same two questions (``_is_virtual_sleep_waiter``,
``_timer_records_waking``) from an index of the timers by the future or task they
wake, rebuilt whenever the list of timers changes, and then asks SimCord's own test of
each candidate.  Only benchmarks that play many tables at once use it; tests see
SimCord as it is.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from simcord import _dpy_internals, _settlement

_WAKES = "_set_result_unless_cancelled"


def _key(callbacks: list[Any]) -> tuple[int, ...]:
    ends = (id(callbacks[0]), id(callbacks[-1])) if callbacks else ()
    return (id(callbacks), len(callbacks), *ends)


class _Index:
    def __init__(self) -> None:
        self.key: tuple[int, ...] | None = None
        self.by_waiter: dict[int, list[Any]] = {}  # sleeps, by the future they wake
        self.by_object: dict[int, list[Any]] = {}  # any timer, by an argument or its owner
        self.unsure: list[Any] = []  # timers without a handle yet: looked at each time

    def fresh(self, callbacks: list[Any]) -> _Index:
        if self.key != _key(callbacks):
            self.build(callbacks)
        return self

    def build(self, callbacks: list[Any]) -> None:
        self.key = _key(callbacks)
        self.by_waiter, self.by_object, self.unsure = {}, {}, []
        for record in callbacks:
            handle = record.handle
            if handle is None:
                self.unsure.append(record)
                continue
            callback = _dpy_internals._original_callback(getattr(handle, "_callback", None))
            args = getattr(handle, "_args", None) or ()  # None for a handle without any
            owner = getattr(callback, "__self__", None)
            related = (*args, owner, getattr(owner, "_task", None))
            for each in {id(thing) for thing in related if thing is not None}:
                self.by_object.setdefault(each, []).append(record)
            if getattr(callback, "__name__", "") == _WAKES:
                for arg in args:
                    self.by_waiter.setdefault(id(arg), []).append(record)

    def around(self, *objects: Any) -> list[Any]:
        """The timers that may concern these objects (each once, in the list's order)."""
        found: dict[int, Any] = {}
        for each in objects:
            if each is None:
                continue
            for record in self.by_object.get(id(each), ()):
                found[id(record)] = record
        for record in self.unsure:
            found[id(record)] = record
        return list(found.values())


def _waiter_check(index: _Index) -> Any:
    def is_virtual_sleep_waiter(self: Any, waiter: Any, deadline: float) -> bool:
        if waiter is None or waiter.done():
            return False
        index.fresh(self.work.callbacks)
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


def _waking(index: _Index) -> Any:
    def timer_records_waking(self: Any, task: Any, waiter: Any) -> list[Any]:
        found: list[Any] = []
        for record in index.fresh(self.work.callbacks).around(waiter, task):
            handle = record.handle
            if record.when is None or handle is None or handle.cancelled():
                continue
            if record.when <= self.virtual_time:
                continue
            callback = _dpy_internals._original_callback(getattr(handle, "_callback", None))
            if _dpy_internals.is_wakeup_callback(
                callback, getattr(handle, "_args", ()), waiter, task
            ):
                found.append(record)
        return found

    return timer_records_waking


@contextlib.contextmanager
def indexed() -> Iterator[None]:
    saved = (_settlement._is_virtual_sleep_waiter, _settlement._timer_records_waking)
    index = _Index()
    _settlement._is_virtual_sleep_waiter = _waiter_check(index)
    _settlement._timer_records_waking = _waking(index)
    try:
        yield
    finally:
        _settlement._is_virtual_sleep_waiter, _settlement._timer_records_waking = saved
