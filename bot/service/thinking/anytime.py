"""Hard's thinking past today's work while nothing more urgent waits and time allows.

Three kinds of work search anytime: an AI seat's move in the pause its seat
waits anyway, a hint, and each decision a review judges.  Each always does
today's work (the floor: the answer of before, exactly); past it, at each
checkpoint, it goes on only while nothing it must give way to waits for a
worker and the next chunk ends before its deadline, up to its ceiling
(``HardParams.idle()`` for a move; for a hint and a review's decision their
estimates go on, once all of today's work is done, up to ``advice.HINT_FACTOR``
and ``advice.REVIEW_FACTOR`` times it).  A move
gives way to any work waiting (another table's move, a hint, a review); a hint
to a move or another hint; a review's decision to anything.  So hints and
reviews never hold up an AI move longer than they did.  The answer depends
only on the view, the seed and the determinizations done, which come back with
it: ``game.ai.hard.replay`` and ``game.ai.advice.replay_advice`` /
``replay_judge`` give the same answer from them.

What waits is counted in the service (``Thinking``: its gates), by priority,
and shared with each worker process through an array of integers in shared
memory, handed over when the worker starts (:func:`share`); the deadline is a
``time.monotonic()`` time, the same clock in every process of the machine.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Protocol

from bot.service.thinking.urgency import Urgency
from game import Action, SeatView
from game.ai.advice import Advice, Decision, Done, think_advice, think_judge
from game.ai.hard import think
from game.ai.search import KeepGoing, Search

#: How many of the next chunk's estimated time must still fit before the deadline:
#: an estimate from the last chunk, so with room for a slower one.
SAFETY = 1.5
#: What each kind of work gives way to past its floor.  A move gives way to
#: anything waiting: a table's move is late only by its own floor, never by
#: another's extra work, and a hint or review waits for at most one floor.
MOVE_GIVES_WAY = frozenset(Urgency)
#: A hint gives way to moves and other hints, not to reviews: reviews run in a
#: process of their own and are the lowest urgency, so a hint need not wait on them.
HINT_GIVES_WAY = frozenset({Urgency.MOVE, Urgency.HINT})
#: A review's decision gives way to everything, other reviews too: with two
#: reviews at once neither goes past its floor, so many reviews never take more
#: than today's work each from the tables' moves and hints.
REVIEW_GIVES_WAY = frozenset(Urgency)


class Waiting(Protocol):
    """How many pieces of work of each priority wait for a worker (a shared ``c_int``
    array, indexed by ``Urgency``)."""

    def __getitem__(self, priority: int, /) -> int: ...


_WAITING: Waiting | None = None  # this worker's view of the service's counts


def share(waiting: Waiting) -> None:
    """Run in each worker as it starts: where to read what waits."""
    global _WAITING
    _WAITING = waiting


def keep_going(
    deadline: float, waiting: Waiting | None, gives_way: Collection[Urgency]
) -> KeepGoing:
    """Asked at each checkpoint past the floor: on while no work of ``gives_way``
    waits (``waiting``, else what :func:`share` gave) and the next chunk ends by
    ``deadline`` (monotonic), estimated from the last one of the same search."""
    counter = waiting if waiting is not None else _WAITING
    last_time, last_done = time.monotonic(), 0

    def going_on(search: Search) -> bool:
        nonlocal last_time, last_done
        if counter is not None and any(counter[p] > 0 for p in gives_way):
            return False  # other work waits: the floor is enough
        now = time.monotonic()
        per_row = (now - last_time) / max(1, search.done - last_done)
        last_time, last_done = now, search.done
        return now + SAFETY * per_row * search.params.stop_every <= deadline

    return going_on


def think_move(
    view: SeatView, seed: int | str, deadline: float, waiting: Waiting | None = None
) -> tuple[Action, int]:
    """Hard's move for ``view`` and ``seed`` and the determinizations it took: at
    least today's work, more while nothing waits and the next chunk ends by
    ``deadline`` (monotonic)."""
    return think(view, seed, keep_going(deadline, waiting, MOVE_GIVES_WAY))


def think_hint(
    view: SeatView, deadline: float, waiting: Waiting | None = None
) -> tuple[Advice, Done]:
    """The hint for ``view`` and its estimates' determinizations: at least today's
    work, more while no move or other hint waits and the next chunk ends by
    ``deadline``."""
    return think_advice(view, keep_going(deadline, waiting, HINT_GIVES_WAY))


def think_judgement(
    seq: int, view: SeatView, played: Action, deadline: float, waiting: Waiting | None = None
) -> tuple[Decision | None, Done]:
    """One decision of a review judged (``advice.judge``) and its estimates'
    determinizations: at least today's work, more while nothing else waits and the
    next chunk ends by ``deadline``."""
    going_on = keep_going(deadline, waiting, REVIEW_GIVES_WAY)
    return think_judge(seq, view, played, going_on)


__all__ = [
    "HINT_GIVES_WAY",
    "MOVE_GIVES_WAY",
    "REVIEW_GIVES_WAY",
    "Waiting",
    "keep_going",
    "share",
    "think_hint",
    "think_judgement",
    "think_move",
]
