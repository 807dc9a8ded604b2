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
from dataclasses import dataclass

from data import GameRecord, Store, StoreError
from game import SeatView
from game.ai.advice import Advice, Decision, Review, advise, costliest_first, decisions_of, judge

from . import timing
from .errors import ServiceError
from .registry import TableRegistry
from .searches import SharedSearches
from .table import Status
from .thinking import Thinking

#: Reviews kept, so a second click answers at once.
REVIEWS_KEPT = 256
#: Hints kept, so a click on a moment already asked about answers at once.
HINTS_KEPT = 256
#: Seat notes after which an AI plays the seat, and the one that gives it back.
AI_TAKES = frozenset({"kicked", "left", "takeover"})
AI_GIVES_BACK = "back"


@dataclass(frozen=True, slots=True)
class Hint:
    view: SeatView  # what the player saw when asking
    advice: Advice


@dataclass(frozen=True, slots=True)
class _Moment:
    view: SeatView
    stamp: int  # the table's (its events so far): the moment a hint is for


class HintDesk:
    """Answers hints and reviews with the AI's thinking, sharing and keeping searches.

    Reads the live tables from ``registry`` and finished games from ``store``.
    """

    def __init__(self, registry: TableRegistry, store: Store, thinking: Thinking) -> None:
        self._registry = registry
        self._store = store
        self._thinking = thinking
        self._closing = False  # the shutdown began: no new search, those under way end
        # Hints by (game, user, table stamp): the moment asked about.
        self._hints: SharedSearches[tuple[int, int, int], Hint] = SharedSearches(
            HINTS_KEPT, lambda: self._closing
        )
        # Finished games' reviews by (game, user); one cut short may do better later.
        self._reviews: SharedSearches[tuple[int, int], Review] = SharedSearches(
            REVIEWS_KEPT, lambda: self._closing, keep=lambda review: review.complete
        )

    @property
    def closing(self) -> bool:
        """The shutdown began: hints and reviews are refused from now on."""
        return self._closing

    def hint_view(self, game_id: int, user_id: int) -> SeatView:
        """The view a hint for ``user_id`` is made from; they must be to move at a
        running table that allows hints."""
        return self._moment(game_id, user_id).view

    def _moment(self, game_id: int, user_id: int) -> _Moment:
        table = self._registry.table(game_id)
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
        self._hints.refuse_when_closing()
        key = (game_id, user_id, moment.stamp)
        return await self._hints.answer(key, lambda: self._hint(moment.view))

    async def _hint(self, view: SeatView) -> Hint:
        return Hint(view, await self._thinking.run(advise, view))

    async def review(self, game_id: int, user_id: int, *, guild_id: int) -> Review:
        """The costliest decisions of ``user_id`` in the finished game ``game_id``."""
        return await self._reviews.answer(
            (game_id, user_id), lambda: self._review(game_id, user_id, guild_id)
        )

    async def close(self) -> None:
        """Let the hints and reviews under way finish within ``timing.ANSWER_GRACE``
        and cut the rest short."""
        self._closing = True
        searches: list[asyncio.Task[object]] = [*self._hints.running(), *self._reviews.running()]
        if searches:
            _, late = await asyncio.wait(searches, timeout=timing.ANSWER_GRACE)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)

    async def latest_review(self, guild_id: int, channel_id: int, user_id: int) -> Review:
        """The review of ``user_id``'s latest finished game in the guild; refused while
        they play at this channel's table."""
        here = self._registry.table_in(channel_id)
        if here is not None and here.status is Status.RUNNING and here.seat_of(user_id) is not None:
            raise ServiceError("review.not_finished")
        try:
            latest = await self._store.history(guild_id, user_id, limit=1)
        except StoreError as error:
            raise ServiceError("review.unreadable") from error
        if not latest:
            raise ServiceError("review.no_game")
        return await self.review(latest[0].game_id, user_id, guild_id=guild_id)

    async def _review(self, game_id: int, user_id: int, guild_id: int) -> Review:
        live = self._registry.table(game_id)
        if live is not None and live.live:
            raise ServiceError("review.not_finished")
        try:
            record = await self._store.load_game(game_id)
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
            decision = await self._thinking.run(judge, seq, view, played)
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


__all__ = ["Hint", "HintDesk", "made_for"]
