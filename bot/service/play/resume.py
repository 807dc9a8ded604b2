"""Picking up after a restart: every unfinished game rebuilt with its clocks."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.service.play.clocks import TableClocks
from bot.service.play.registry import TableRegistry
from bot.service.play.rows import table_from_record
from bot.service.play.table import Status, Table, all_humans_gone, waiting
from bot.service.thinking.ai_turns import AITurns
from data import GameRecord, Store

log = logging.getLogger(__name__)


class Resumer:
    """Rebuilds the unfinished games from the store and hands them out, once, to be shown.

    ``kept(record)`` is given each game's record as it is rebuilt: what the store kept
    of its table message is the front end's to read back (``FrontStore``).
    """

    def __init__(
        self,
        store: Store,
        registry: TableRegistry,
        clocks: TableClocks,
        ai: AITurns,
        *,
        kept: Callable[[GameRecord], None],
    ) -> None:
        self._store = store
        self._kept = kept
        self._registry = registry
        self._clocks = clocks
        self._ai = ai
        self._resumed: list[Table] = []  # picked up after a restart, not yet shown

    async def resume(self) -> list[Table]:
        """Rebuild every unfinished game from its events, with its clocks.

        A lobby's idle clock goes on from its last change before the restart;
        the player to move gets a whole turn from now, since it was the bot
        that was away, not them.  A game waiting for its people, all away, waits
        until when it said it would.
        """
        tables = []
        for record in await self._store.games.unfinished_games():
            try:
                table = table_from_record(record)
            except Exception:
                log.exception("game %s could not be rebuilt; leaving it alone", record.id)
                continue
            self._kept(record)
            self._registry.register(table)
            tables.append(table)
            if table.status is Status.LOBBY:
                table.opened_at = record.updated_at
                self._clocks.arm_lobby_clock(table)
                continue
            table.active_at = record.updated_at
            if all_humans_gone(table) and not waiting(table):
                # Its last player left, but the store failed to end the game before
                # the bot stopped: it ends now, and no AI plays it out for nobody.
                self._clocks.abandon_later(table)
                continue
            self._clocks.turn_from_now(table)
            self._ai.schedule(table)
        self._resumed = list(tables)
        return tables

    def resumed_tables(self) -> list[Table]:
        """The tables :meth:`resume` picked up that are still open, handed out once:
        for the bot to show (with :meth:`Notices.notify`) once it is connected.

        Connecting can take a while with many games, so their turns start
        again from now: no turn runs out before its player could click.
        """
        tables = [t for t in self._resumed if t.live and self._registry.table(t.game_id) is t]
        self._resumed = []
        for table in tables:
            # One nobody plays any more waits for its close (tried again while the store
            # fails it): a turn's clock in its place would keep it open, or end it as
            # idle, unrated.
            if table.status is Status.RUNNING and (waiting(table) or not all_humans_gone(table)):
                self._clocks.turn_from_now(table)
        return tables
