"""Hard's move thought in the pause its seat waits anyway, stopped when it ends.

The anytime search stops at a checkpoint when the pause ends or other work
waits for a worker.  It always does today's work (the floor: ``HardPlayer()``'s move);
past it, at each checkpoint, it goes on only while nothing waits for a worker
and the next chunk ends before the pause does, up to the idle work
(``HardParams.idle()``).  The move depends only on the view, the seed and the
determinizations done, which come back with it: ``game.ai.hard.replay`` makes
the same move from them.

What waits is counted in the service (``Thinking``: its gates) and shared with
each worker process through one integer in shared memory, handed over when the
worker starts (:func:`share`); the deadline is a ``time.monotonic()`` time,
the same clock in every process of the machine.
"""

from __future__ import annotations

import time
from typing import Protocol

from game import Action, SeatView
from game.ai.hard import think
from game.ai.search import Search

#: How many of the next chunk's estimated time must still fit before the pause
#: ends: an estimate from the last chunk, so with room for a slower one.
SAFETY = 1.5


class Waiting(Protocol):
    """How many pieces of work wait for a worker (a shared ``c_int``)."""

    value: int


_WAITING: Waiting | None = None  # this worker's view of the service's count


def share(waiting: Waiting) -> None:
    """Run in each worker as it starts: where to read what waits."""
    global _WAITING
    _WAITING = waiting


def think_move(
    view: SeatView, seed: int | str, deadline: float, waiting: Waiting | None = None
) -> tuple[Action, int]:
    """Hard's move for ``view`` and ``seed`` and the determinizations it took: at
    least today's work, more while nothing waits (``waiting``, else what
    :func:`share` gave) and the next chunk ends by ``deadline`` (monotonic)."""
    counter = waiting if waiting is not None else _WAITING
    last_time, last_done = time.monotonic(), 0

    def keep_going(search: Search) -> bool:
        nonlocal last_time, last_done
        if counter is not None and counter.value > 0:
            return False  # other work waits: the floor is enough
        now = time.monotonic()
        per_row = (now - last_time) / max(1, search.done - last_done)
        last_time, last_done = now, search.done
        return now + SAFETY * per_row * search.params.stop_every <= deadline

    return think(view, seed, keep_going)


__all__ = ["Waiting", "share", "think_move"]
