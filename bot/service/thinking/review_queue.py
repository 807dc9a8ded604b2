"""Reviews take turns: one per person, a few thought at once, the rest waiting in order."""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from bot.service.errors import ServiceError

#: Reviews thought at once; each is one decision at a time in the reviews' process.
REVIEWS_AT_ONCE = 2
#: Reviews waiting for their turn; one more asked for is refused until some are done.
REVIEWS_WAITING = 24

#: A review: (game, person).
Key = tuple[int, int]


class ReviewQueue:
    """Who is reviewed now and who waits.  A person has one review asked for at a time
    (under way or waiting); asking for it again shares it, another is refused.

    ``at_once`` reviews are thought at once and ``waiting`` more may wait their turn
    (:data:`REVIEWS_AT_ONCE` and :data:`REVIEWS_WAITING` unless given).
    """

    def __init__(self, *, at_once: int = REVIEWS_AT_ONCE, waiting: int = REVIEWS_WAITING) -> None:
        self._at_once = at_once
        self._most_waiting = waiting
        self._by_person: dict[int, Key] = {}
        self._thinking: set[Key] = set()
        self._waiting: OrderedDict[Key, asyncio.Future[None]] = OrderedDict()

    def ask(self, key: Key) -> int:
        """Take a turn for ``key`` (or find it taken): how many turns are ahead of it,
        0 when it goes on at once.  Refused when its person has another review asked
        for, or too many wait."""
        _, person = key
        mine = self._by_person.get(person)
        if mine is not None and mine != key:
            raise ServiceError("review.yours_first")
        if mine is None:
            if len(self._thinking) < self._at_once and not self._waiting:
                self._thinking.add(key)
            elif len(self._waiting) >= self._most_waiting:
                raise ServiceError("review.queue_full")
            else:
                self._waiting[key] = asyncio.get_running_loop().create_future()
            self._by_person[person] = key
        return self.ahead(key)

    def ahead(self, key: Key) -> int:
        """Turns ahead of ``key``'s: 0 once it is thought."""
        for place, waiting in enumerate(self._waiting, 1):
            if waiting == key:
                return place
        return 0

    async def turn(self, key: Key) -> None:
        """Wait until ``key`` (asked for) is thought."""
        waiting = self._waiting.get(key)
        if waiting is not None:
            await asyncio.shield(waiting)

    def done(self, key: Key) -> None:
        """``key``'s review is over (answered, failed or cut short): the next goes on."""
        self._by_person.pop(key[1], None)
        self._thinking.discard(key)
        waiting = self._waiting.pop(key, None)
        if waiting is not None and not waiting.done():
            waiting.cancel()
        while self._waiting and len(self._thinking) < self._at_once:
            following, given = self._waiting.popitem(last=False)
            self._thinking.add(following)
            if not given.done():
                given.set_result(None)


__all__ = ["REVIEWS_AT_ONCE", "REVIEWS_WAITING", "ReviewQueue"]
