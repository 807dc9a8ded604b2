"""Picking up after a restart: every unfinished game rebuilt with its clocks."""

from __future__ import annotations

import logging

from ..tables import Status, Table
from . import timing
from .lobby import Lobby
from .records import table_from_record

log = logging.getLogger(__name__)


class GameService(Lobby):
    """Lobbies, moves, AI turns and turn timers, persisted.

    Cogs talk to this and nothing else; it speaks engine types and knows
    nothing of Discord.  Each table has one lock, so a double click or two
    players clicking at once apply exactly one move.  Every change is written
    to the store before anyone is shown it; a failed write leaves the game as
    it was.  The parts live in the modules of this package by job.
    """

    async def resume(self) -> list[Table]:
        """Rebuild every unfinished game from its events, with its clock."""
        tables = []
        for record in await self.store.unfinished_games():
            try:
                table = table_from_record(record)
            except Exception:
                log.exception("game %s could not be rebuilt; leaving it alone", record.id)
                continue
            self._register(table)
            tables.append(table)
            if table.status is Status.LOBBY:
                self._arm_lobby_timer(table)
                continue
            if table.turn_deadline is not None:
                table.turn_deadline = max(table.turn_deadline, self.clock() + timing.RESUME_GRACE)
            table.active_at = record.updated_at
            self._schedule_ai(table)
            self._arm_turn_timer(table)
        return tables
