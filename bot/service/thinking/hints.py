"""Hints: what Hard would do for the player to move, and a finished game's review.

Both think where the AI does (``Thinking.run``: a worker process), from one
seat's view only; neither touches the table, so they take no lock.  A review
reads the stored events of a finished game, never a running one.  Clicks
asking for the same hint or review share one search: a player mashing Hint
must not queue searches ahead of the Hard moves of other tables.

A hint goes after the AI moves waiting, a review after both (``Urgency``).
Both search anytime (``anytime``): today's work at least, and more only while
nothing they give way to waits for a worker, a hint for ``Timing.hint_time``
at most, a review's decision within its share of the review's budget.
Reviews take turns (:mod:`.review_queue`): one per person, a few at once; a
review is for the asker's own game in this server, checked before any answer
kept; one cut short keeps what it found and goes on from there when asked again.

A hint is stored (``store.hints``) before it is shown, and a review leaves out every
move made as a hint advised it: the review searches on its own, and in a close call
may judge the other way; nobody is blamed for doing what a hint told them.

A shutdown gives the searches under way ``Timing.answer_grace`` to finish (a
hint takes a fraction of a second; a review may take 20) and cuts the rest
short: whoever waits for one, or asks once the shutdown began, is refused with
``error.restarting`` rather than left to an error of the AI being closed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.service.errors import ServiceError
from bot.service.play.registry import TableRegistry
from bot.service.play.table import Status, Table, ai_seat_error
from bot.service.thinking.pool import Thinking
from bot.service.thinking.review_queue import Key, ReviewQueue
from bot.service.thinking.searches import SharedSearches
from bot.service.thinking.urgency import Urgency
from bot.service.timing import Timing
from data import EVERYTHING, GameRecord, Store, StoreError
from game import Action, Ruleset, SeatView
from game.ai.advice import Advice, Decision, Done, Review, costliest_first, decisions_of

log = logging.getLogger(__name__)

#: Reviews kept, so a second click answers at once.
REVIEWS_KEPT = 256
#: Hints kept, so a click on a moment already asked about answers at once.
HINTS_KEPT = 256
#: Reviews cut short kept, to go on from where they stopped.
CUT_SHORT_KEPT = 32
#: The share of a review's budget left that its decisions may think for, spread
#: evenly over the decisions left: past today's work only within it.
REVIEW_SHARE = 0.5
#: Seat notes after which an AI plays the seat, and the one that gives it back.
AI_TAKES = frozenset({"kicked", "left", "takeover"})
AI_GIVES_BACK = "back"


@dataclass(frozen=True, slots=True)
class Hint:
    view: SeatView  # what the player saw when asking
    advice: Advice
    #: the determinizations its estimates took (with the view, the whole answer:
    #: ``advice.replay_advice``)
    searched: Done = 0


@dataclass(frozen=True, slots=True)
class _Moment:
    game_id: int
    view: SeatView
    stamp: int  # the table's (its events so far): the moment a hint is for


@dataclass(frozen=True, slots=True)
class _Played:
    """A finished game: its server and who played it, in which seat."""

    guild_id: int
    seats: dict[int, int]  # user id: seat


@dataclass(slots=True)
class _Progress:
    """A review so far: every decision to judge, how many are judged, what was found."""

    ruleset: Ruleset
    decisions: list[tuple[int, SeatView, Action]]
    #: the moves hints advised the seat, by seq: a decision made so is no mistake
    advised: dict[int, frozenset[Action]] = field(default_factory=dict)
    checked: int = 0
    found: list[Decision] = field(default_factory=list)


class HintDesk:
    """Answers hints and reviews with the AI's thinking, sharing and keeping searches.

    Reads the live tables from ``registry`` and finished games from ``store``; reviews
    take turns in ``reviews`` (a :class:`ReviewQueue` of its defaults unless given).
    """

    def __init__(
        self,
        registry: TableRegistry,
        store: Store,
        thinking: Thinking,
        *,
        timing: Timing | None = None,
        reviews: ReviewQueue | None = None,
    ) -> None:
        self._registry = registry
        self._timing = timing if timing is not None else Timing()
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
        self._queue = reviews if reviews is not None else ReviewQueue()
        self._played: OrderedDict[int, _Played] = OrderedDict()  # finished games, newest last
        self._cut_short: OrderedDict[Key, _Progress] = OrderedDict()

    @property
    def closing(self) -> bool:
        """The shutdown began: hints and reviews are refused from now on."""
        return self._closing

    def hint_view(self, table: Table | None, user_id: int) -> SeatView:
        """The view a hint for ``user_id`` at ``table`` (the asker's, as they found it;
        None: no game) is made from; they must be to move at a running table that
        allows hints."""
        return self._moment(table, user_id).view

    @staticmethod
    def _moment(table: Table | None, user_id: int) -> _Moment:
        if table is None or table.status is not Status.RUNNING or table.match is None:
            raise ServiceError("hint.no_game")
        if not table.hints:
            raise ServiceError("hint.off")
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError("error.not_a_player")
        if table.seats[seat].controller is not None:
            raise ServiceError(ai_seat_error(table.seats[seat]))
        if table.to_move != seat:
            raise ServiceError("hint.not_your_turn")
        return _Moment(table.game_id, table.match.view(seat), table.stamp)

    async def hint(self, table: Table | None, user_id: int) -> Hint:
        """What Hard would do for ``user_id`` at ``table`` now, thought in a worker;
        refused as :meth:`hint_view` is (asked again: the turn may have moved on since).
        Every ask about the same moment shares one search."""
        moment = self._moment(table, user_id)
        game_id = moment.game_id
        self._hints.refuse_when_closing()
        key = (game_id, user_id, moment.stamp)
        return await self._hints.answer(key, lambda: self._hint(game_id, moment, user_id))

    async def _hint(self, game_id: int, moment: _Moment, user_id: int) -> Hint:
        advice, searched = await self._thinking.hint(
            moment.view, time.monotonic() + self._timing.hint_time, owner=user_id
        )
        # Stored before anyone sees it, for the review to leave the move out if the
        # player makes it (shown unstored, a review could blame them for following it).
        try:
            await self._store.hints.add_hint(game_id, moment.stamp, moment.view.seat, advice.choice)
        except StoreError as error:
            log.warning("game %s: could not store a hint: %s", game_id, error)
            raise ServiceError("hint.not_saved") from error
        return Hint(moment.view, advice, searched)

    async def review(
        self,
        game_id: int,
        user_id: int,
        *,
        guild_id: int,
        on_queued: Callable[[int], Awaitable[None]] | None = None,
    ) -> Review:
        """The costliest decisions of ``user_id`` in the finished game ``game_id`` of
        the guild.  One that has to wait its turn calls ``on_queued`` first, with the
        number of reviews ahead of it."""
        played = await self._finished(game_id, guild_id)
        seat = played.seats.get(user_id)
        if seat is None:
            raise ServiceError("error.not_a_player")
        key = (game_id, user_id)
        kept = self._reviews.kept(key)
        if kept is not None:
            return kept
        self._reviews.refuse_when_closing()
        ahead = self._queue.ask(key)
        # No await between the turn taken and the search that gives it back.
        task = self._reviews.begin(key, lambda: self._review_in_turn(key, seat))
        if ahead and on_queued is not None:
            try:
                await on_queued(ahead)
            except Exception:  # the "queued" line is a courtesy: the review goes on
                log.exception("game %s: could not say a review is queued", game_id)
        return await self._reviews.outcome(key, task)

    async def _finished(self, game_id: int, guild_id: int) -> _Played:
        """Who played the finished game ``game_id`` of the guild; refused otherwise."""
        live = self._registry.table(game_id)
        if live is not None and live.live:
            raise ServiceError("review.not_finished")
        played = self._played.get(game_id)
        if played is None:
            try:
                record = await self._store.games.load_game(game_id)
            except StoreError as error:
                raise ServiceError("review.unreadable") from error
            if record is None or record.guild_id != guild_id:
                raise ServiceError("error.game_gone")
            if record.status == Status.CANCELLED.value:
                raise ServiceError("review.cancelled")  # it never will be over
            if record.status != Status.FINISHED.value:
                raise ServiceError("review.not_finished")
            seats = {s.user_id: s.seat for s in record.seats if s.user_id is not None}
            played = _Played(record.guild_id, seats)
            self._played[game_id] = played
            while len(self._played) > REVIEWS_KEPT:
                self._played.popitem(last=False)
        if played.guild_id != guild_id:
            raise ServiceError("error.game_gone")
        return played

    async def close(self) -> None:
        """Let the hints and reviews under way finish within ``Timing.answer_grace``
        and cut the rest short."""
        self._closing = True
        searches: list[asyncio.Task[object]] = [*self._hints.running(), *self._reviews.running()]
        if searches:
            _, late = await asyncio.wait(searches, timeout=self._timing.answer_grace)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)

    async def latest_review(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        *,
        on_queued: Callable[[int], Awaitable[None]] | None = None,
    ) -> Review:
        """The review of ``user_id``'s latest finished game in the guild; refused while
        they play at this channel's table.  ``on_queued`` as for :meth:`review`."""
        here = self._registry.table_in(channel_id)
        if here is not None and here.status is Status.RUNNING and here.seat_of(user_id) is not None:
            raise ServiceError("review.not_finished")
        try:
            # Their own games: theirs to review wherever they were played.
            latest = await self._store.stats.history(guild_id, user_id, limit=1, sight=EVERYTHING)
        except StoreError as error:
            raise ServiceError("review.unreadable") from error
        if not latest:
            raise ServiceError("review.no_game")
        return await self.review(latest[0].game_id, user_id, guild_id=guild_id, on_queued=on_queued)

    async def _review_in_turn(self, key: Key, seat: int) -> Review:
        try:
            await self._queue.turn(key)
            return await self._review(key, seat)
        finally:
            self._queue.done(key)

    async def _review(self, key: Key, seat: int) -> Review:
        progress = self._cut_short.pop(key, None)
        if progress is None:
            progress = await self._decisions(key[0], seat)
        # One decision at a time, so the review can stop when its time is up; the
        # budget bounds this ask, and what is judged stays if the review stops.
        started = time.monotonic()
        try:
            while progress.checked < len(progress.decisions):
                seq, view, played = progress.decisions[progress.checked]
                if played in progress.advised.get(seq, ()):
                    # Made as a hint advised: not theirs to be blamed for, whatever a
                    # search would find (it may search further than the hint did).
                    progress.checked += 1
                    continue
                now = time.monotonic()
                left = self._timing.review_budget - (now - started)
                if left <= 0:
                    break
                # Past today's work a decision may think until its even share of
                # half the time left: the other half stays for today's work on the
                # decisions after it, so the extra work seldom cuts a review short.
                share = REVIEW_SHARE * left / (len(progress.decisions) - progress.checked)
                deadline = now + min(self._timing.review_decision_time, share)
                decision, _ = await self._thinking.judge(seq, view, played, deadline)
                progress.checked += 1
                if decision is not None:
                    progress.found.append(decision)
        finally:
            if progress.checked < len(progress.decisions):
                self._cut_short[key] = progress
                while len(self._cut_short) > CUT_SHORT_KEPT:
                    self._cut_short.popitem(last=False)
        complete = progress.checked == len(progress.decisions)
        found = costliest_first(progress.found)
        return Review(progress.ruleset, found, checked=progress.checked, complete=complete)

    async def _decisions(self, game_id: int, seat: int) -> _Progress:
        try:
            record = await self._store.games.load_game(game_id)
            advised = await self._store.hints.hints_of(game_id, seat)
        except StoreError as error:
            raise ServiceError("review.unreadable") from error
        if record is None:
            raise ServiceError("error.game_gone")
        # Replaying the game is the reviews' work too: not on the loop, nor before moves.
        decisions = await self._thinking.run(
            decisions_of,
            record.ruleset,
            len(record.seats),
            record.events,
            seat,
            made_for(record, seat),
            priority=Urgency.REVIEW,
        )
        return _Progress(record.ruleset, decisions, advised)


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
