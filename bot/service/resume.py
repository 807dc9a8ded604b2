"""Picking up after a restart: every unfinished game rebuilt with its clocks."""

from __future__ import annotations

import logging

from .hints import Hints
from .lobby import Lobby
from .records import table_from_record
from .table import Status, Table

log = logging.getLogger(__name__)


class GameService(Lobby, Hints):
    """Lobbies, moves, AI turns and turn timers, persisted.

    Cogs talk to this and nothing else; it speaks engine types and knows
    nothing of Discord.  Each table has one lock, so a double click or two
    players clicking at once apply exactly one move.  Every change is written
    to the store before anyone is shown it; a failed write leaves the game as
    it was.  The parts live in the modules of this package by job.
    """

    async def resume(self) -> list[Table]:
        """Rebuild every unfinished game from its events, with its clocks.

        A lobby's idle clock goes on from its last change before the restart;
        the player to move gets a whole turn from now, since it was the bot
        that was away, not them.
        """
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
                table.opened_at = record.updated_at
                self._arm_lobby_clock(table)
                continue
            table.active_at = record.updated_at
            self._turn_from_now(table)
            self._schedule_ai(table)
        self._resumed = list(tables)
        return tables

    def resumed_tables(self) -> list[Table]:
        """The tables :meth:`resume` picked up that are still open, handed out once:
        for the bot to show (with :meth:`notify`) once it is connected.

        Connecting can take a while with many games, so their turns start
        again from now: no turn runs out before its player could click.
        """
        tables = [t for t in self._resumed if t.live and self.by_id.get(t.game_id) is t]
        self._resumed = []
        for table in tables:
            if table.status is Status.RUNNING:
                self._turn_from_now(table)
        return tables

    def _turn_from_now(self, table: Table) -> None:
        if table.turn_deadline is not None and table.match is not None:
            table.turn_deadline = self._deadline(table, table.match)
            table.warned = False
        self._arm_turn_timer(table)
