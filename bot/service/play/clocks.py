"""The clocks of a table: turn deadline and warning, idle lobby and game, the wait.

The wait is that of a game whose people are all away, for one of them to be back.

All of them ring through the one :class:`~.scheduler.Scheduler`.  A clock's
action checks when it rings that it is still the table's clock (the stamp of
the turn and its person still at the seat, the time the lobby opened, the last
move), so one set again later needs no cancelling, and a failing store makes it
try again, not stop.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.service.errors import ServiceError
from bot.service.play.scheduler import Scheduler
from bot.service.play.table import Seat, Status, Table, all_humans_gone, only_person, waiting
from bot.service.timing import Timing
from data.records import ABANDONED, AWAY, IDLE_GAME
from game import Match

log = logging.getLogger(__name__)

# The clocks of a table, by the second half of their scheduler key.
CLOCK = "clock"  # the turn deadline, the idle lobby or idle game limit, or the wait
WARNING = "warning"  # the turn's warning

#: ``time_out(table, stamp)``: quit turn ``stamp`` for its player; False if not saved.
TimeOut = Callable[[Table, int], Awaitable[bool]]
#: ``warn(table, stamp)``: tell the player turn ``stamp`` runs out soon.
Warn = Callable[[Table, int], Awaitable[None]]
#: ``close(table, status, reason)``: close the table; raises ServiceError if not saved.
Close = Callable[[Table, Status, str], Awaitable[None]]


class TableClocks:
    """Sets each table's clocks; what happens when one rings is the callbacks' job.

    ``time_out`` quits a turn that ran out, ``warn`` warns of it, ``close``
    cancels a lobby or an untimed game nobody touched for too long.
    """

    def __init__(
        self,
        scheduler: Scheduler,
        clock: Callable[[], float],
        *,
        time_out: TimeOut,
        warn: Warn,
        close: Close,
        timing: Timing | None = None,
    ) -> None:
        self._scheduler = scheduler
        self._timing = timing if timing is not None else Timing()
        self._clock = clock
        self._time_out = time_out
        self._warn = warn
        self._close = close

    def deadline(
        self, table: Table, match: Match, seats: Sequence[Seat] | None = None
    ) -> float | None:
        """When the player to move runs out of time; None without a timer or for an AI.

        ``seats`` are the seats as they will be (the table's own by default).
        """
        seat = match.to_move
        now = table.seats if seats is None else seats
        controller = now[seat].controller if seat is not None else None
        if table.turn_timer <= 0 or seat is None or controller is not None:
            return None
        return self._clock() + table.turn_timer

    def wait_from_now(self) -> float:
        """Until when a game whose every person went away now waits for one to be back."""
        return self._clock() + self._timing.away_wait

    def arm_turn(self, table: Table) -> None:
        """Set the clocks of a running game for the turn it is at now (or, while its
        people are all away, for the end of its wait)."""
        key = table.game_id
        self._scheduler.cancel((key, WARNING))
        deadline, until = table.turn_deadline, table.waits_until
        if until is not None and waiting(table):
            # Nobody back by then: it ends, rated as the loss of those who went away.
            self._close_at(
                table, until, lambda: waiting(table) and table.waits_until == until, AWAY
            )
        elif deadline is not None:
            stamp = table.stamp
            warn_at = deadline - min(self._timing.warning_before, table.turn_timer / 4)
            if not table.warned and self._clock() < warn_at:
                self._scheduler.at((key, WARNING), warn_at, lambda: self._warn(table, stamp))
            self._scheduler.at((key, CLOCK), deadline, lambda: self._ring_out(table, stamp))
        elif table.turn_timer <= 0:
            # End a game without a turn timer that nobody has moved in for
            # Timing.game_idle, so that it doesn't hold its channel for good; one its only
            # person plays against AIs sooner: nobody else waits on it, the channel does.
            since = table.active_at
            alone = only_person(table) is not None
            idle = self._timing.alone_game_idle if alone else self._timing.game_idle
            self._close_at(
                table,
                since + idle,
                lambda: table.status is Status.RUNNING and table.active_at == since,
                IDLE_GAME,
            )
        else:
            self._scheduler.cancel((key, CLOCK))  # an AI's turn: it moves by itself

    @property
    def alone_idle_hours(self) -> int:
        """The hours an untimed game its only person plays against AIs waits for a move."""
        return round(self._timing.alone_game_idle / 3600)

    def turn_from_now(self, table: Table) -> None:
        """Give the player to move a whole turn from now (the bot was away, not them)."""
        if table.turn_deadline is not None and table.match is not None:
            table.turn_deadline = self.deadline(table, table.match)
            table.warned = False
        self.arm_turn(table)

    async def _ring_out(self, table: Table, stamp: int) -> None:
        try:
            done = await self._time_out(table, stamp)
        except Exception:
            log.exception("game %s: could not time out a turn", table.game_id)
            done = False
        if not done:  # the turn is still over: try again in a while
            again = self._clock() + self._timing.save_retry
            key = (table.game_id, CLOCK)
            self._scheduler.at(key, again, lambda: self._ring_out(table, stamp))

    def arm_lobby(self, table: Table) -> None:
        """A lobby nobody changes for Timing.lobby_idle closes; every change starts it again.

        Each change gets a time of its own, a millisecond after the one before at least
        (a clock that stood still, as a test's or the demo's may): the lobby drawn anew
        for it differs (its Add AI select, a new component, shows no pick)."""
        table.opened_at = max(self._clock(), table.opened_at + 0.001)
        self.arm_lobby_clock(table)

    def arm_lobby_clock(self, table: Table) -> None:
        """Set the lobby's idle clock from its last change (``table.opened_at``)."""
        opened = table.opened_at
        self._close_at(
            table,
            opened + self._timing.lobby_idle,
            lambda: table.status is Status.LOBBY and table.opened_at == opened,
            "closed.idle",
        )

    async def close_abandoned(self, table: Table) -> None:
        """Close a running game nobody is left to play for; the caller holds its lock.

        Its last seat change is saved by now, so a store that fails the close must
        not undo it or refuse it: the close is tried again every Timing.save_retry
        (and at a restart), while no AI plays on at the table for nobody.
        """
        try:
            await self._close(table, Status.CANCELLED, ABANDONED)
        except ServiceError:
            self.abandon_later(table, self._timing.save_retry)

    def abandon_later(self, table: Table, delay: float = 0.0) -> None:
        """Close a running game nobody is left to play for ``delay`` seconds from now
        (and again after each failure), unless a player is back at it by then."""
        when = self._clock() + delay
        self._close_at(table, when, lambda: all_humans_gone(table), ABANDONED)

    def _close_at(self, table: Table, when: float, still: Callable[[], bool], reason: str) -> None:
        """At ``when``, cancel the table for ``reason`` if ``still()`` holds then."""
        key = (table.game_id, CLOCK)
        self._scheduler.at(key, when, lambda: self._close_if(table, still, reason))

    async def _close_if(self, table: Table, still: Callable[[], bool], reason: str) -> None:
        async with table.lock:
            if not still():
                return
            try:
                await self._close(table, Status.CANCELLED, reason)
                return
            except ServiceError:
                pass  # the store failed and logged it; the table stays open for now
        self._close_at(table, self._clock() + self._timing.save_retry, still, reason)
