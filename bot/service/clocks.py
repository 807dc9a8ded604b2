"""The clocks of a table: turn deadline and warning, idle lobby, idle game."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from game import Match

from ..tables import Status, Table
from . import timing
from .core import ServiceCore
from .errors import ServiceError


class Clocks(ServiceCore):
    async def _time_out(self, table: Table, stamp: int) -> bool:
        """Quit the player's turn for them (the move pipeline does it)."""
        raise NotImplementedError

    def _deadline(self, table: Table, match: Match) -> float | None:
        """When the player to move runs out of time; None without a timer or for an AI."""
        seat = match.to_move
        if table.turn_timer <= 0 or seat is None or table.seats[seat].controller is not None:
            return None
        return self.clock() + table.turn_timer

    def _arm_deadline(self, table: Table, match: Match) -> None:
        table.turn_deadline = self._deadline(table, match)
        table.warned = False

    def _arm_turn_timer(self, table: Table) -> None:
        old = self._timers.pop(table.game_id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if table.turn_deadline is not None:
            clock = self._turn_clock(table, table.stamp)
        elif table.turn_timer <= 0:
            clock = self._idle_clock(table, table.active_at)
        else:
            return  # an AI's turn: it moves by itself
        self._timers[table.game_id] = asyncio.create_task(clock, name=f"lama-timer-{table.game_id}")

    async def _idle_clock(self, table: Table, since: float) -> None:
        """End a game without a turn timer that nobody has moved in for GAME_IDLE,
        so that it doesn't hold its channel for good."""
        await self._close_at(
            table,
            since + timing.GAME_IDLE,
            lambda: table.status is Status.RUNNING and table.active_at == since,
            "closed.idle_game",
        )

    async def _turn_clock(self, table: Table, stamp: int) -> None:
        deadline = table.turn_deadline
        if deadline is None:
            return
        warn_at = deadline - min(timing.WARNING_BEFORE, table.turn_timer / 4)
        if not table.warned and self.clock() < warn_at:
            await asyncio.sleep(warn_at - self.clock())
            if table.stamp != stamp or table.status is not Status.RUNNING:
                return
            table.warned = True
            if self.listener is not None:
                await self.listener.turn_warning(table)
        await asyncio.sleep(max(0.0, deadline - self.clock()))
        while not await self._time_out(table, stamp):
            await asyncio.sleep(timing.SAVE_RETRY)  # the store failed; the turn is still over

    def _arm_lobby_timer(self, table: Table) -> None:
        table.opened_at = self.clock()
        old = self._timers.pop(table.game_id, None)
        if old is not None:
            old.cancel()
        self._timers[table.game_id] = asyncio.create_task(
            self._lobby_clock(table), name=f"lama-lobby-{table.game_id}"
        )

    async def _lobby_clock(self, table: Table) -> None:
        await self._close_at(
            table,
            table.opened_at + timing.LOBBY_IDLE,
            lambda: table.status is Status.LOBBY,
            "closed.idle",
        )

    async def _close_at(
        self, table: Table, when: float, still: Callable[[], bool], reason: str
    ) -> None:
        """At ``when``, cancel the table for ``reason`` if ``still()`` holds then."""
        await asyncio.sleep(max(0.0, when - self.clock()))
        while still():
            async with table.lock:
                if not still():
                    return
                try:
                    await self._close(table, Status.CANCELLED, reason)
                    return
                except ServiceError:
                    pass  # the store failed and logged it; the table stays open for now
            await asyncio.sleep(timing.SAVE_RETRY)
