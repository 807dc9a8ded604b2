"""The clocks of a table: turn deadline and warning, idle lobby, idle game.

All of them ring through the one :class:`~.scheduler.Scheduler`.  A clock's
action checks when it rings that it is still the table's clock (the stamp of
the turn, the time the lobby opened, the last move), so one set again later
needs no cancelling, and a failing store makes it try again, not stop.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from game import Match

from . import timing
from .core import CLOCK, WARNING, ServiceCore
from .errors import ServiceError
from .table import Seat, Status, Table

log = logging.getLogger(__name__)


class Clocks(ServiceCore):
    async def _time_out(self, table: Table, stamp: int) -> bool:
        """Quit the player's turn for them (the move pipeline does it)."""
        raise NotImplementedError

    def _deadline(
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
        return self.clock() + table.turn_timer

    def _arm_turn_timer(self, table: Table) -> None:
        """Set the clocks of a running game for the turn it is at now."""
        key = table.game_id
        self.clocks.cancel((key, WARNING))
        deadline = table.turn_deadline
        if deadline is not None:
            stamp = table.stamp
            warn_at = deadline - min(timing.WARNING_BEFORE, table.turn_timer / 4)
            if not table.warned and self.clock() < warn_at:
                self.clocks.at((key, WARNING), warn_at, lambda: self._warn(table, stamp))
            self.clocks.at((key, CLOCK), deadline, lambda: self._ring_out(table, stamp))
        elif table.turn_timer <= 0:
            # End a game without a turn timer that nobody has moved in for
            # GAME_IDLE, so that it doesn't hold its channel for good.
            since = table.active_at
            self._close_at(
                table,
                since + timing.GAME_IDLE,
                lambda: table.status is Status.RUNNING and table.active_at == since,
                "closed.idle_game",
            )
        else:
            self.clocks.cancel((key, CLOCK))  # an AI's turn: it moves by itself

    async def _warn(self, table: Table, stamp: int) -> None:
        # In turn with the table's other notices: a move made while the warning
        # is on its way has its notice wait for it, and so takes it down with
        # the turn; a warning for a turn over by now is not sent at all.
        async with table.notice_lock:
            if table.stamp != stamp or table.status is not Status.RUNNING:
                return
            table.warned = True
            if self.listener is not None:
                await self.listener.turn_warning(table)

    async def _ring_out(self, table: Table, stamp: int) -> None:
        try:
            done = await self._time_out(table, stamp)
        except Exception:
            log.exception("game %s: could not time out a turn", table.game_id)
            done = False
        if not done:  # the turn is still over: try again in a while
            again = self.clock() + timing.SAVE_RETRY
            self.clocks.at((table.game_id, CLOCK), again, lambda: self._ring_out(table, stamp))

    def _arm_lobby_timer(self, table: Table) -> None:
        """A lobby nobody changes for LOBBY_IDLE closes; every change starts it again."""
        table.opened_at = self.clock()
        self._arm_lobby_clock(table)

    def _arm_lobby_clock(self, table: Table) -> None:
        opened = table.opened_at
        self._close_at(
            table,
            opened + timing.LOBBY_IDLE,
            lambda: table.status is Status.LOBBY and table.opened_at == opened,
            "closed.idle",
        )

    def _close_at(self, table: Table, when: float, still: Callable[[], bool], reason: str) -> None:
        """At ``when``, cancel the table for ``reason`` if ``still()`` holds then."""
        self.clocks.at((table.game_id, CLOCK), when, lambda: self._close_if(table, still, reason))

    async def _close_if(self, table: Table, still: Callable[[], bool], reason: str) -> None:
        async with table.lock:
            if not still():
                return
            try:
                await self._close(table, Status.CANCELLED, reason)
                return
            except ServiceError:
                pass  # the store failed and logged it; the table stays open for now
        self._close_at(table, self.clock() + timing.SAVE_RETRY, still, reason)
