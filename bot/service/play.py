"""The move pipeline: a player's move, an AI's move or a timeout, applied, saved,
then shown."""

from __future__ import annotations

import asyncio
import logging

from data import SeatNote
from game import QUIT, Action, CardPlayed, Match

from . import timing
from .clocks import Clocks
from .core import AI, notice_name
from .errors import MoveOutcome, ServiceError
from .records import seat_records
from .table import MoveLine, Seat, Status, Table, changed_seat

log = logging.getLogger(__name__)


class Play(Clocks):
    async def move(self, game_id: int, user_id: int, action: Action, stamp: int) -> MoveOutcome:
        table = self._require(game_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError("error.not_a_player")
        async with table.lock:
            if table.status is not Status.RUNNING or table.match is None:
                raise ServiceError("error.game_gone")
            if stamp != table.stamp:
                raise ServiceError("error.stale")
            if table.seats[seat].controller is not None:
                raise ServiceError("error.seat_is_ai")
            seats = None
            if table.seats[seat].missed_turns:
                # Moving yourself ends a run of missed turns.
                seats = changed_seat(table.seats, seat, missed_turns=0)
            outcome = await self._apply(table, seat, action, seats=seats)
        await self._after_change(table)
        return outcome

    async def _apply(
        self,
        table: Table,
        seat: int,
        action: Action,
        kind: str | None = None,
        *,
        seats: list[Seat] | None = None,
        then: str | None = None,
    ) -> MoveOutcome:
        """Apply to a copy of the match, deal on if the round ended, save, and
        only then make the copy the table's match.

        Nobody ever sees a move that isn't saved, and a failed write, whatever
        the store raised, leaves the table as it was.  ``seats`` are the seats
        as the move leaves them (missed turns, a takeover), rewritten only
        then, which keeps an ordinary move to a few statements; ``then`` notes
        a seat change that comes with the move (``takeover``).
        """
        live = table.match
        assert live is not None
        match = live.clone()
        match.verify(seat, action)  # raises IllegalMove with the player's message
        first = len(match.events)
        done = len(match.results)
        event = match.apply(seat, action)
        if not match.over and match.awaiting_deal:
            self._deal(match)
        events = tuple(match.events[first:])
        results = tuple(match.results[done:])
        over = match.over
        deadline = None if over else self._deadline(table, match, seats)
        try:
            await self.store.append_events(
                table.game_id,
                first,
                events,
                meta=[{"auto": kind}] if kind else None,
                results=results,
                finished=match.winners if over else None,
                final_points=list(match.points) if over else None,
                turn_deadline=deadline,
                seats=seat_records(seats) if seats is not None else None,
                notes=[SeatNote(len(match.events), seat, then)] if then else (),
            )
        except Exception as error:
            log.warning("game %s: could not save a move: %s", table.game_id, error)
            raise ServiceError("error.save_failed") from error
        table.match = match
        if seats is not None:
            table.seats = seats
        table.turn_deadline = deadline
        table.warned = False
        line_kind = kind or event.kind
        card = int(event.card) if isinstance(event, CardPlayed) else None
        table.recent.append(MoveLine(seat=seat, kind=line_kind, card=card))
        for result in results:
            table.recent.append(MoveLine(seat=result.ended_by, kind="round_end"))
            if not over:
                table.recent.append(MoveLine(seat=result.ended_by, kind="deal"))
        if then:
            table.recent.append(MoveLine(seat=seat, kind=then))
        if over:
            table.status = Status.FINISHED
        return MoveOutcome(table=table, seat=seat, events=events, results=results)

    def _deal(self, match: Match) -> None:
        if self.scripted_deals:
            match.start_round(self.scripted_deals.popleft()(match))
        else:
            match.deal(self.seed_source())

    async def _after_change(self, table: Table) -> None:
        """Tell the front end, then let AI seats and the clock take over.

        The front end's work (the table edit, the turn ping, the next player's
        hand) runs in the background: the click that made the change is
        answered as soon as the change is saved.
        """
        if table.status is Status.FINISHED:
            self._unregister(table)
        if self.listener is not None:
            task = asyncio.create_task(self._notify(table), name=notice_name(table))
            self._notices.add(task)
            task.add_done_callback(self._notices.discard)
        if table.status is Status.RUNNING:
            table.active_at = self.clock()
            self._schedule_ai(table)
            self._arm_turn_timer(table)

    async def _time_out(self, table: Table, stamp: int) -> bool:
        """Quit the player's turn for them; False if that couldn't be saved."""
        async with table.lock:
            match = table.match
            if match is None or table.stamp != stamp or table.status is not Status.RUNNING:
                return True
            seat = match.to_move
            if seat is None:
                return True
            missed = table.seats[seat].missed_turns + 1
            away = missed >= timing.MISSES_BEFORE_TAKEOVER
            seats = changed_seat(table.seats, seat, missed_turns=missed, away=away)
            try:
                await self._apply(
                    table,
                    seat,
                    QUIT,
                    kind="timeout",
                    seats=seats,
                    then="takeover" if away else None,
                )
            except ServiceError:
                return False
            abandoned = self._all_humans_gone(table)
            if abandoned:
                await self._close(table, Status.CANCELLED, "closed.abandoned")
        if abandoned:
            return True
        await self._after_change(table)
        return True

    def _all_humans_gone(self, table: Table) -> bool:
        return table.status is Status.RUNNING and all(s.controller is not None for s in table.seats)

    # ------------------------------------------------------------ AI seats
    def _schedule_ai(self, table: Table) -> None:
        seat = table.to_move
        if seat is None or table.seats[seat].controller is None:
            return
        key = (table.game_id, AI)
        if not self.clocks.pending(key):
            self.clocks.at(key, self.clock() + timing.AI_DELAY, lambda: self._ai_turn(table))

    async def _ai_turn(self, table: Table) -> None:
        """The AI on turn moves; the clocks then take the next turn."""
        async with table.lock:
            match = table.match
            seat = table.to_move
            if match is None or seat is None or table.status is not Status.RUNNING:
                return
            strength = table.seats[seat].controller
            if strength is None:
                return
            view = match.view(seat)
            seed = f"{table.game_id}:{len(match.events)}"
            try:
                # Hard searches in a worker process (``bot.service.thinking``): other tables
                # and the gateway heartbeat keep moving.  The table lock is held.
                action = await self.thinking.decide(view, strength, seed)
            except Exception:
                # A broken AI must not stall the table: make the plainest legal move.
                log.exception("game %s: the %s AI failed", table.game_id, strength)
                action = view.legal[0]
            try:
                await self._apply(table, seat, action)
            except Exception as error:
                if not isinstance(error, ServiceError):
                    log.exception("game %s: an AI move failed", table.game_id)
                self._retry_ai(table)
                return
            self._ai_failures.pop(table.game_id, None)
        await self._after_change(table)

    def _retry_ai(self, table: Table) -> None:
        """Try the AI's move again later, waiting twice as long after each failure,
        so that a store that is down isn't asked again and again."""
        failures = self._ai_failures.get(table.game_id, 0) + 1
        self._ai_failures[table.game_id] = failures
        first = max(timing.AI_DELAY, timing.AI_RETRY)
        pause = min(timing.AI_RETRY_MAX, first * 2 ** (failures - 1))
        key = (table.game_id, AI)
        self.clocks.at(key, self.clock() + pause, lambda: self._ai_turn(table))
