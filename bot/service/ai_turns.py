"""AI turns: scheduling the AI seat on turn, deciding its move, retrying a failed save."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from game import Action
from game.ai import Strength

from . import timing
from .errors import ServiceError
from .log_context import about_table
from .metrics import NO_METRICS, ServiceMetrics
from .moves import MoveOutcome
from .scheduler import Scheduler
from .table import Status, Table
from .thinking import Thinking

log = logging.getLogger(__name__)

AI = "ai"  # the scheduler key of a table's next AI move (beside its ``clock``)

#: ``apply(table, seat, action)``: the move pipeline's apply, under the table's lock.
Apply = Callable[[Table, int, Action], Awaitable[MoveOutcome]]
#: ``after_change(table)``: show the change and set the next turn going.
AfterChange = Callable[[Table], Awaitable[None]]


class AITurns:
    """Moves the AI seats: each AI move a pause after the change before it, decided
    where the AI thinks (:class:`~.thinking.Thinking`), applied by ``apply``."""

    def __init__(
        self,
        scheduler: Scheduler,
        clock: Callable[[], float],
        thinking: Thinking,
        *,
        apply: Apply,
        after_change: AfterChange,
        metrics: ServiceMetrics = NO_METRICS,
    ) -> None:
        self._scheduler = scheduler
        self._clock = clock
        self._thinking = thinking
        self._apply = apply
        self._after_change = after_change
        self._metrics = metrics
        self._failures: dict[int, int] = {}  # game id: AI moves in a row not saved

    def prepare(self, table: Table) -> None:
        """A table with a Hard seat gets the AI's workers started now, so that its
        first Hard move doesn't wait for them with the table locked."""
        if any(seat.ai is Strength.HARD for seat in table.seats):
            self._thinking.prepare()

    def forget(self, table: Table) -> None:
        """The table is gone: drop its count of failed AI moves."""
        self._failures.pop(table.game_id, None)

    def schedule(self, table: Table) -> None:
        """If an AI plays the seat to move, have it move after ``timing.AI_DELAY``."""
        seat = table.to_move
        if seat is None or table.seats[seat].controller is None:
            return
        key = (table.game_id, AI)
        if not self._scheduler.pending(key):
            self._scheduler.at(key, self._clock() + timing.AI_DELAY, lambda: self._turn(table))

    async def _turn(self, table: Table) -> None:
        """The AI on turn moves; the clocks then take the next turn."""
        with about_table(table):
            await self._move(table)

    async def _move(self, table: Table) -> None:
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
                action = await self._thinking.decide(view, strength, seed)
            except Exception:
                # A broken AI must not stall the table: make the plainest legal move.
                log.exception("game %s: the %s AI failed", table.game_id, strength)
                action = view.legal[0]
            try:
                await self._apply(table, seat, action)
            except Exception as error:
                if not isinstance(error, ServiceError):
                    log.exception("game %s: an AI move failed", table.game_id)
                self._retry(table)
                return
            self._failures.pop(table.game_id, None)
            self._metrics.moved("ai")
        await self._after_change(table)

    def _retry(self, table: Table) -> None:
        """Try the AI's move again later, waiting twice as long after each failure,
        so that a store that is down isn't asked again and again."""
        failures = self._failures.get(table.game_id, 0) + 1
        self._failures[table.game_id] = failures
        first = max(timing.AI_DELAY, timing.AI_RETRY)
        pause = min(timing.AI_RETRY_MAX, first * 2 ** (failures - 1))
        key = (table.game_id, AI)
        self._scheduler.at(key, self._clock() + pause, lambda: self._turn(table))
