"""Per-person cooldowns: how soon one person may do one thing (open a table, ask a hint) again."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

#: Seconds between two of one person's: tables opened, rematches, lobby changes (Join,
#: Leave, Add AI, Remove AI, Hints on/off: each a write to the store and an edit of the
#: table), hints, reviews, stats (stats, leaderboard, history), charts, exports (a whole
#: server's games) and leaderboard pages turned (each reads the board again).
DEFAULTS: Mapping[str, float] = {
    "new": 20.0,
    "rematch": 20.0,
    "lobby": 2.0,
    "hint": 3.0,
    "review": 10.0,
    "stats": 5.0,
    "chart": 10.0,
    "export": 60.0,
    "page": 1.0,
}

#: Entries kept before those whose wait is over are swept out.
SWEEP_AT = 1024


class Cooldowns:
    """When each person last did each thing, on ``clock`` (unix seconds); the waits
    are ``seconds`` by action (:data:`DEFAULTS` unless given).

    In memory: a restart forgets them, which costs at most one more of each.
    """

    def __init__(
        self, clock: Callable[[], float], seconds: Mapping[str, float] | None = None
    ) -> None:
        self._clock = clock
        self.seconds = dict(DEFAULTS if seconds is None else seconds)
        self._until: dict[tuple[int, str], float] = {}  # (person, action): free again then

    def __len__(self) -> int:
        return len(self._until)

    def left(self, person_id: int, action: str) -> int:
        """Whole seconds (rounded up) before ``person_id`` may do ``action`` again; 0: now."""
        until = self._until.get((person_id, action))
        if until is None:
            return 0
        return max(0, math.ceil(until - self._clock() - 1e-9))

    def use(self, person_id: int, action: str) -> None:
        """``person_id`` did ``action`` now: their wait starts."""
        wait = self.seconds.get(action, 0.0)
        if wait <= 0:
            return
        now = self._clock()
        if len(self._until) >= SWEEP_AT:
            self._until = {key: t for key, t in self._until.items() if t > now}
        self._until[person_id, action] = now + wait

    def take(self, person_id: int, action: str) -> int:
        """0, and the wait starts, if ``person_id`` may do ``action`` now; else the
        seconds left (the wait goes on as it was).

        The wait starts as the check passes, before anything is awaited, so that a
        second request arriving meanwhile (a double submit) is refused; an action
        refused after all calls :meth:`release`.
        """
        left = self.left(person_id, action)
        if not left:
            self.use(person_id, action)
        return left

    def until(self, person_id: int, action: str) -> float | None:
        """When ``person_id``'s wait for ``action`` runs out (None: no wait kept): what
        :meth:`take` reserved, for :meth:`release` to give back that one only."""
        return self._until.get((person_id, action))

    def release(self, person_id: int, action: str, until: float | None) -> None:
        """The ``action`` that ``take`` let ``person_id`` do was refused after all (not
        allowed here, the store failed): a refusal costs no wait.

        ``until`` is what :meth:`until` said right after that ``take``: only that wait
        is given back.  One taken since (the first's store call outlasted its wait, and
        the person did it again) stays."""
        key = (person_id, action)
        if until is not None and self._until.get(key) == until:
            del self._until[key]
