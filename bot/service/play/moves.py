"""The move pipeline: a player's move or a timeout, applied, saved, then shown."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.service.errors import MoveRefused, ServiceError
from bot.service.log_context import about_table
from bot.service.metrics import NO_METRICS, ServiceMetrics
from bot.service.play.clocks import TableClocks
from bot.service.play.dealer import Dealer
from bot.service.play.notices import Notices
from bot.service.play.registry import TableRegistry
from bot.service.play.rows import seat_records
from bot.service.play.table import (
    MoveLine,
    Seat,
    Status,
    Table,
    ai_seat_error,
    all_humans_gone,
    changed_seat,
    everyone_away,
    persons_turn,
    waiting,
)
from bot.service.saver import Saver
from bot.service.timing import Timing
from data import MatchProgress, SeatNote, Store
from game import QUIT, Action, CardPlayed, Event, IllegalMove, RoundResult

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """A move saved and made the table's: whose seat moved, and what it led to (the
    move's event, then a deal's if its round ended; the rounds it ended)."""

    table: Table
    seat: int
    events: tuple[Event, ...]
    results: tuple[RoundResult, ...]


class MovePipeline:
    """Applies a move to a copy of the match, saves it, and only then shows it.

    ``schedule_ai(table)`` lets an AI seat on turn move after a change; the
    clocks arm the next turn; ``rate(table)`` rates a finished game before anyone is
    shown it (the rater's, which never raises).
    """

    def __init__(
        self,
        store: Store,
        saver: Saver,
        registry: TableRegistry,
        dealer: Dealer,
        clocks: TableClocks,
        notices: Notices,
        clock: Callable[[], float],
        *,
        schedule_ai: Callable[[Table], None],
        rate: Callable[[Table], Awaitable[None]],
        metrics: ServiceMetrics = NO_METRICS,
        timing: Timing | None = None,
    ) -> None:
        self._store = store
        self._timing = timing if timing is not None else Timing()
        self._saver = saver
        self._registry = registry
        self._dealer = dealer
        self._clocks = clocks
        self._notices = notices
        self._clock = clock
        self._schedule_ai = schedule_ai
        self._rate = rate
        self._metrics = metrics

    async def move(self, table: Table, user_id: int, action: Action, stamp: int) -> MoveOutcome:
        """``user_id`` makes ``action`` on the turn ``stamp`` (a button's) at ``table``
        (the click's, as it found it): one click of many. Refused with a
        :class:`ServiceError` (not a player, the game over, an AI plays the seat), or with
        :class:`MoveRefused` once the seat is known (a stale button, an illegal move)."""
        with about_table(table):
            return await self._move(table, user_id, action, stamp)

    async def _move(self, table: Table, user_id: int, action: Action, stamp: int) -> MoveOutcome:
        seat = table.seat_of(user_id)  # the one check of who moves
        if seat is None:
            raise ServiceError("error.not_a_player")
        async with table.lock:
            if table.status is not Status.RUNNING or table.match is None:
                raise ServiceError("error.game_gone")
            if stamp != table.stamp:
                raise MoveRefused(seat, ServiceError("error.stale"))
            if table.seats[seat].controller is not None:
                raise ServiceError(ai_seat_error(table.seats[seat]))
            seats = None
            if table.seats[seat].missed_turns:
                # Moving yourself ends a run of missed turns.
                seats = changed_seat(table.seats, seat, missed_turns=0)
            try:
                outcome = await self.apply(table, seat, action, seats=seats)
            except IllegalMove as error:
                raise MoveRefused(seat, error) from error
            self._metrics.moved("human")
        log.debug("game %s: seat %d moved", table.game_id, seat)
        await self.after_change(table)
        return outcome

    async def apply(
        self,
        table: Table,
        seat: int,
        action: Action,
        kind: str | None = None,
        *,
        seats: list[Seat] | None = None,
        then: str | None = None,
        waits_until: float | None = None,
    ) -> MoveOutcome:
        """Apply to a copy of the match, deal on if the round ended, save, and
        only then make the copy the table's match.

        Nobody ever sees a move that isn't saved, and a failed write, whatever
        the store raised, leaves the table as it was.  ``seats`` are the seats
        as the move leaves them (missed turns, a takeover), rewritten only
        then, which keeps an ordinary move to a few statements; ``then`` notes
        a seat change that comes with the move (``takeover``); ``waits_until``:
        the game waits for its people until then, every one of them away by it.
        The caller holds the table's lock.
        """
        live = table.match
        assert live is not None
        match = live.clone()
        match.verify(seat, action)  # raises IllegalMove with the player's message
        first = len(match.events)
        done = len(match.results)
        event = match.apply(seat, action)
        if not match.over and match.awaiting_deal:
            self._dealer.deal(match)
        progress = MatchProgress.since(match, first, done)
        events, results, over = progress.events, progress.results, match.over
        deadline = None if over else self._clocks.deadline(table, match, seats)
        await self._saver.save(
            self._store.games.append_progress(
                table.game_id,
                progress,
                meta=[{"auto": kind}] if kind else None,
                turn_deadline=deadline,
                seats=seat_records(seats) if seats is not None else None,
                notes=[SeatNote(len(match.events), seat, then)] if then else (),
                waits_until=None if over else waits_until,
            ),
            f"game {table.game_id}: could not save a move",
        )
        table.match = match
        if seats is not None:
            table.seats = seats
        table.turn_deadline = deadline
        table.waits_until = None if over else waits_until
        table.warned = False
        line_kind = kind or event.kind
        card = int(event.card) if isinstance(event, CardPlayed) else None
        table.recent.append(MoveLine(seat=seat, kind=line_kind, card=card))
        for result in results:
            table.recent.append(MoveLine(seat=result.ended_by, kind="round_end"))
            if not over:
                table.recent.append(MoveLine(seat=result.ended_by, kind="deal"))
        if then:
            missed = table.seats[seat].missed_turns if then == "takeover" else None
            table.recent.append(MoveLine(seat=seat, kind=then, count=missed))
        if over:
            table.status = Status.FINISHED
        return MoveOutcome(table=table, seat=seat, events=events, results=results)

    async def after_change(self, table: Table) -> None:
        """Tell the front end, then let AI seats and the clock take over.

        The front end's work (the table edit, the turn ping, the next player's
        hand) runs in the background: the click that made the change is
        answered as soon as the change is saved.
        """
        if table.status is Status.FINISHED:
            self._registry.unregister(table)
            # Saved as finished by now: rated before the finished table goes out, so it
            # shows the rating changes (without them if rating failed; the next start
            # rates it).
            await self._rate(table)
        self._notices.show_later(table)
        if table.status is Status.RUNNING:
            table.active_at = self._clock()
            self._schedule_ai(table)
            self._clocks.arm_turn(table)

    async def time_out(self, table: Table, stamp: int) -> bool:
        """Quit the player's turn ``stamp`` for them; False if that couldn't be saved.

        After ``Timing.misses_before_takeover`` turns missed in a row an AI plays
        the seat until its player comes back.  Once every person is away so, the
        game waits for them (``Timing.away_wait``, its AIs standing still): being
        away is not leaving.  The last human gone (left or kicked) ends the game.
        """
        with about_table(table):
            return await self._time_out(table, stamp)

    async def _time_out(self, table: Table, stamp: int) -> bool:
        async with table.lock:
            # Looked at again under the lock: a kick or a leave saved while the clock
            # rang hands the seat to an AI within the same turn, and the AI plays it
            # (that change scheduled its move); the person missed no turn.
            seat = persons_turn(table, stamp)
            if seat is None:
                return True
            missed = table.seats[seat].missed_turns + 1
            away = missed >= self._timing.misses_before_takeover
            seats = changed_seat(table.seats, seat, missed_turns=missed, away=away)
            until = self._clocks.wait_from_now() if everyone_away(seats) else None
            try:
                await self.apply(
                    table,
                    seat,
                    QUIT,
                    kind="timeout",
                    seats=seats,
                    then="takeover" if away else None,
                    waits_until=until,
                )
            except ServiceError:
                return False
            self._metrics.moved("timer")
            abandoned = all_humans_gone(table) and not waiting(table)
            if abandoned:
                await self._clocks.close_abandoned(table)
        if abandoned:
            return True
        await self.after_change(table)
        return True
