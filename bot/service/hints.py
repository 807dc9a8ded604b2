"""Hints: what Hard would do for the player to move, and a finished game's review.

Both think where the AI does (``Thinking.run``: a worker process), from one
seat's view only; neither touches the table, so they take no lock.  A review
reads the stored events of a finished game, never a running one.  Clicks
asking for the same hint or review share one search: a player mashing Hint
must not queue searches ahead of the Hard moves of other tables.

A shutdown gives the searches under way ``timing.ANSWER_GRACE`` to finish (a
hint takes a fraction of a second; a review may take 20) and cuts the rest
short: whoever waits for one, or asks once the shutdown began, is refused with
``error.restarting`` rather than left to an error of the AI being closed.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from data import GameRecord, Store, StoreError
from game import SeatView
from game.ai.advice import Advice, Decision, Review, advise, costliest_first, decisions_of, judge

from . import timing
from .core import ServiceCore
from .errors import ServiceError
from .table import Status

#: Reviews kept, so a second click answers at once.
REVIEWS_KEPT = 256
#: Hints kept, so a click on a moment already asked about answers at once.
HINTS_KEPT = 256
#: Seat notes after which an AI plays the seat, and the one that gives it back.
AI_TAKES = frozenset({"kicked", "left", "takeover"})
AI_GIVES_BACK = "back"

T = TypeVar("T")
K = TypeVar("K")


@dataclass(frozen=True, slots=True)
class Hint:
    view: SeatView  # what the player saw when asking
    advice: Advice


@dataclass(frozen=True, slots=True)
class _Moment:
    view: SeatView
    stamp: int  # the table's (its events so far): the moment a hint is for


class Hints(ServiceCore):
    def __init__(self, store: Store, **options: Any) -> None:
        super().__init__(store, **options)
        # Finished games' reviews by (game, user), the newest last, and those being made.
        self._reviews: OrderedDict[tuple[int, int], Review] = OrderedDict()
        self._reviewing: dict[tuple[int, int], asyncio.Task[Review]] = {}
        # Hints by (game, user, table stamp): the moment asked about, the newest last.
        self._hints: OrderedDict[tuple[int, int, int], Hint] = OrderedDict()
        self._hinting: dict[tuple[int, int, int], asyncio.Task[Hint]] = {}
        self._closing = False  # the shutdown began: no new search, those under way end

    def hint_view(self, game_id: int, user_id: int) -> SeatView:
        """The view a hint for ``user_id`` is made from; they must be to move at a
        running table that allows hints."""
        return self._moment(game_id, user_id).view

    def _moment(self, game_id: int, user_id: int) -> _Moment:
        table = self.by_id.get(game_id)
        if table is None or table.status is not Status.RUNNING or table.match is None:
            raise ServiceError("hint.no_game")
        if not table.hints:
            raise ServiceError("hint.off")
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError("error.not_a_player")
        if table.seats[seat].controller is not None:
            raise ServiceError("error.seat_is_ai")
        if table.to_move != seat:
            raise ServiceError("hint.not_your_turn")
        return _Moment(table.match.view(seat), table.stamp)

    async def hint(self, game_id: int, user_id: int) -> Hint:
        """What Hard would do for ``user_id`` now, thought in a worker; refused as
        :meth:`hint_view` is.  Every ask about the same moment shares one search."""
        moment = self._moment(game_id, user_id)
        self._refuse_when_closing()
        key = (game_id, user_id, moment.stamp)
        return await self._shared(
            self._hints, self._hinting, key, lambda: self._hint(moment.view), HINTS_KEPT
        )

    async def _hint(self, view: SeatView) -> Hint:
        return Hint(view, await self.thinking.run(advise, view))

    async def review(self, game_id: int, user_id: int, *, guild_id: int) -> Review:
        """The costliest decisions of ``user_id`` in the finished game ``game_id``."""
        return await self._shared(
            self._reviews,
            self._reviewing,
            (game_id, user_id),
            lambda: self._review(game_id, user_id, guild_id),
            REVIEWS_KEPT,
            keep=lambda review: review.complete,  # one cut short may do better later
        )

    async def _shared(
        self,
        done: OrderedDict[K, T],
        running: dict[K, asyncio.Task[T]],
        key: K,
        search: Callable[[], Coroutine[Any, Any, T]],
        kept: int,
        keep: Callable[[T], bool] = lambda _: True,
    ) -> T:
        """The outcome of ``search`` for ``key``: remembered (the newest ``kept``), or
        the search under way that every asker shares, or a new one."""
        if key in done:
            return done[key]
        self._refuse_when_closing()
        task = running.get(key)
        if task is None:
            task = asyncio.create_task(search())
            running[key] = task
            task.add_done_callback(lambda _: running.pop(key, None))
        outcome = await self._outcome(task)
        if keep(outcome):
            done[key] = outcome
            while len(done) > kept:
                done.popitem(last=False)
        return outcome

    def _refuse_when_closing(self) -> None:
        if self._closing:
            raise ServiceError("error.restarting")

    async def _outcome(self, task: asyncio.Task[T]) -> T:
        """What the shared search ``task`` found; refused if the shutdown cut it short."""
        try:
            return await asyncio.shield(task)  # one asker going away leaves it to the others
        except asyncio.CancelledError:
            me = asyncio.current_task()
            if task.cancelled() and self._closing and (me is None or not me.cancelling()):
                raise ServiceError("error.restarting") from None
            raise

    async def close(self) -> None:
        """Let the hints and reviews under way finish within ``timing.ANSWER_GRACE``,
        cut the rest short, then stop everything else."""
        self._closing = True
        searches = [*self._hinting.values(), *self._reviewing.values()]
        if searches:
            _, late = await asyncio.wait(searches, timeout=timing.ANSWER_GRACE)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        await super().close()

    async def latest_review(self, guild_id: int, channel_id: int, user_id: int) -> Review:
        """The review of ``user_id``'s latest finished game in the guild; refused while
        they play at this channel's table."""
        here = self.by_channel.get(channel_id)
        if here is not None and here.status is Status.RUNNING and here.seat_of(user_id) is not None:
            raise ServiceError("review.not_finished")
        try:
            latest = await self.stats.history(guild_id, user_id, limit=1)
        except StoreError as error:
            raise ServiceError("review.unreadable") from error
        if not latest:
            raise ServiceError("review.no_game")
        return await self.review(latest[0].game_id, user_id, guild_id=guild_id)

    async def _review(self, game_id: int, user_id: int, guild_id: int) -> Review:
        live = self.by_id.get(game_id)
        if live is not None and live.live:
            raise ServiceError("review.not_finished")
        try:
            record = await self.store.load_game(game_id)
        except StoreError as error:
            raise ServiceError("review.unreadable") from error
        if record is None or record.guild_id != guild_id:
            raise ServiceError("error.game_gone")
        if record.status != Status.FINISHED.value:
            raise ServiceError("review.not_finished")
        seat = next((s.seat for s in record.seats if s.user_id == user_id), None)
        if seat is None:
            raise ServiceError("error.not_a_player")
        # One decision at a time in the workers, so the AI moves of other tables
        # take their turns in between; the budget bounds the whole review.
        decisions = await asyncio.to_thread(
            decisions_of,
            record.ruleset,
            len(record.seats),
            record.events,
            seat,
            made_for(record, seat),
        )
        found: list[Decision] = []
        started = time.monotonic()
        checked = 0
        for seq, view, played in decisions:
            if time.monotonic() - started >= timing.REVIEW_BUDGET:
                break
            decision = await self.thinking.run(judge, seq, view, played)
            checked += 1
            if decision is not None:
                found.append(decision)
        complete = checked == len(decisions)
        return Review(record.ruleset, costliest_first(found), checked=checked, complete=complete)


def made_for(record: GameRecord, seat: int) -> frozenset[int]:
    """The seqs of the moves made for ``seat`` rather than by its player: a timeout,
    and every move while an AI played the seat (kicked, left, away)."""
    skip = set(record.automatic)
    changes: dict[int, list[str]] = {}
    for note in record.notes:
        if note.seat == seat:
            changes.setdefault(note.seq, []).append(note.kind)
    by_ai = False
    for seq in range(len(record.events)):
        for kind in changes.get(seq, ()):
            by_ai = kind in AI_TAKES or (by_ai and kind != AI_GIVES_BACK)
        if by_ai:
            skip.add(seq)
    return frozenset(skip)


__all__ = ["Hint", "Hints", "made_for"]
