"""AI turns: scheduling the AI seat on turn, deciding its move, retrying a failed save.

A Hard seat starts thinking as soon as its turn comes, not when its pause
(``Timing.ai_delay``) ends: the search may use the pause, up to the idle work,
and answers by its end (``anytime.py``).  When the pause is over the move is
taken from that thought if the table is still where it was (same move
number, seat and strength), else thought again as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.service.errors import ServiceError
from bot.service.log_context import about_table
from bot.service.metrics import NO_METRICS, ServiceMetrics
from bot.service.play.moves import MoveOutcome
from bot.service.play.scheduler import Scheduler
from bot.service.play.table import Status, Table, waiting
from bot.service.thinking.pool import Thinking
from bot.service.timing import Timing
from game import Action
from game.ai import Strength

log = logging.getLogger(__name__)

AI = "ai"  # the scheduler key of a table's next AI move (beside its ``clock``)

#: ``apply(table, seat, action)``: the move pipeline's apply, under the table's lock.
Apply = Callable[[Table, int, Action], Awaitable[MoveOutcome]]
#: ``after_change(table)``: show the change and set the next turn going.
AfterChange = Callable[[Table], Awaitable[None]]


@dataclass(frozen=True)
class _Early:
    """A move being thought during its pause."""

    seed: str
    seat: int
    strength: Strength
    thought: asyncio.Task[tuple[Action, int]]


def _retrieve(task: asyncio.Task[tuple[Action, int]]) -> None:
    """A thought nobody came for (the table moved on): its failure is nobody's."""
    if not task.cancelled():
        task.exception()


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
        timing: Timing | None = None,
    ) -> None:
        self._scheduler = scheduler
        self._timing = timing if timing is not None else Timing()
        self._clock = clock
        self._thinking = thinking
        self._apply = apply
        self._after_change = after_change
        self._metrics = metrics
        self._failures: dict[int, int] = {}  # game id: AI moves in a row not saved
        self._early: dict[int, _Early] = {}  # game id: the Hard move thought in its pause
        #: game id: the determinizations of each Hard move thought in its pause
        #: (the last few; the same work gives the same move: ``hard.replay``)
        self.searched: dict[int, list[int]] = {}

    def prepare(self, table: Table) -> None:
        """A table with a Hard seat gets the AI's workers started now, so that its
        first Hard move doesn't wait for them with the table locked."""
        if any(seat.ai is Strength.HARD for seat in table.seats):
            self._thinking.prepare()

    def forget(self, table: Table) -> None:
        """The table is gone: drop its count of failed AI moves."""
        self._failures.pop(table.game_id, None)
        self.searched.pop(table.game_id, None)
        early = self._early.pop(table.game_id, None)
        if early is not None:
            early.thought.cancel()

    def schedule(self, table: Table) -> None:
        """If an AI plays the seat to move, have it move after the AI's pause; none moves
        while the game waits for its people, all away."""
        seat = table.to_move
        if seat is None or table.seats[seat].controller is None or waiting(table):
            return
        key = (table.game_id, AI)
        if not self._scheduler.pending(key):
            self._scheduler.at(
                key, self._clock() + self._timing.ai_delay, lambda: self._turn(table)
            )
            self._think_early(table, seat)

    def _think_early(self, table: Table, seat: int) -> None:
        """A Hard seat's move starts thinking now, to answer by the end of its pause."""
        match = table.match
        strength = table.seats[seat].controller
        if match is None or strength is not Strength.HARD or table.status is not Status.RUNNING:
            return
        seed = f"{table.game_id}:{len(match.events)}"
        deadline = time.monotonic() + self._timing.ai_delay
        thought = asyncio.ensure_future(
            # The table's host's share of the pool: one person's many tables wait their turn.
            self._thinking.think_in_pause(
                match.view(seat), strength, seed, deadline, owner=table.host_id
            )
        )
        thought.add_done_callback(_retrieve)
        old = self._early.pop(table.game_id, None)
        if old is not None:
            old.thought.cancel()
        self._early[table.game_id] = _Early(seed, seat, strength, thought)

    async def _decide(self, table: Table, seat: int, strength: Strength, seed: str) -> Action:
        """The move thought in the pause if it is still this one's, else thought now."""
        assert table.match is not None
        view = table.match.view(seat)
        early = self._early.pop(table.game_id, None)
        if early is not None:
            if (early.seed, early.seat, early.strength) == (seed, seat, strength):
                action, done = await early.thought
                searched = self.searched.setdefault(table.game_id, [])
                searched.append(done)
                del searched[:-16]
                log.debug("game %s: Hard searched %d determinizations", table.game_id, done)
                return view.legal[view.legal.index(action)]
            early.thought.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await early.thought
        return await self._thinking.decide(view, strength, seed, owner=table.host_id)

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
            if waiting(table):
                # Everyone went away since this move was scheduled: the AIs stand still
                # until one is back (whose "I'm back" schedules it again).
                return
            strength = table.seats[seat].controller
            if strength is None:
                return
            view = match.view(seat)
            seed = f"{table.game_id}:{len(match.events)}"
            try:
                # Hard searches in a worker process (``bot.service.thinking``): other tables
                # and the gateway heartbeat keep moving.  The table lock is held.
                action = await self._decide(table, seat, strength, seed)
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
        timing = self._timing
        first = max(timing.ai_delay, timing.ai_retry)
        pause = min(timing.ai_retry_max, first * 2 ** (failures - 1))
        key = (table.game_id, AI)
        self._scheduler.at(key, self._clock() + pause, lambda: self._turn(table))
