"""Telling the front end: changes, warnings, closed tables and places gone, in order."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.service.errors import ServiceError
from bot.service.listener import TableListener
from bot.service.play.registry import TableRegistry
from bot.service.play.table import Status, Table, persons_turn
from bot.service.saver import Saver
from data import Store
from data.records import SeatNote

log = logging.getLogger(__name__)


def notice_name(table: Table) -> str:
    """The name of a table's notice tasks, by which they are found to be stopped."""
    return f"lama-notice-{table.game_id}"


class Notices:
    """Everything the service tells its :class:`TableListener`, in the order of the changes.

    Each table's ``notice_lock`` is fair, so notices go out in the order they
    were asked for.  Closing a table lives here too, since its last word is a
    notice: the closed table must not be followed by a ping for it.
    """

    def __init__(self, store: Store, saver: Saver, registry: TableRegistry) -> None:
        self.listener: TableListener | None = None  # the front end, once it is connected
        self._store = store
        self._saver = saver
        self._registry = registry
        self._tasks: set[asyncio.Task[None]] = set()  # notices going out in the background

    async def notify(self, table: Table) -> None:
        """Show the table as it is now (after a restart, say), in turn with other notices."""
        if self.listener is not None:
            await self._show(table)

    def show_later(self, table: Table) -> None:
        """Show the table in the background: the click that changed it is answered
        as soon as the change is saved, not once Discord has been told."""
        if self.listener is not None:
            task = asyncio.create_task(self._show(table), name=notice_name(table))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _show(self, table: Table) -> None:
        assert self.listener is not None
        # The lock is fair: notices go out in the order of the changes, and a
        # ping for an earlier turn never lands after the ping for a later one.
        async with table.notice_lock:
            try:
                await self.listener.table_changed(table)
                if table.status is Status.RUNNING:
                    await self.listener.turn_started(table)
            except Exception:
                log.exception("game %s: could not show a change", table.game_id)

    async def warn(self, table: Table, stamp: int) -> None:
        """The turn ``stamp`` runs out soon: tell the player, unless it is over or
        their seat is an AI's by now (they were kicked, or left)."""
        # A move or seat change being saved as the warning rings is waited for (the
        # seats change only once it is saved): the person kicked this moment isn't
        # pinged that their time runs out.  The lock isn't held while the warning
        # goes out, so Discord being slow holds up no move.
        async with table.lock:
            if persons_turn(table, stamp) is None:
                return
        # In turn with the table's other notices: a move made while the warning
        # is on its way has its notice wait for it, and so takes it down with
        # the turn; a warning for a turn over by now, or for a seat that changed
        # while earlier notices went out, is not sent at all.
        async with table.notice_lock:
            if persons_turn(table, stamp) is None:
                return
            table.warned = True
            if self.listener is not None:
                await self.listener.turn_warning(table)

    async def close_table(
        self,
        table: Table,
        status: Status,
        reason: str,
        *,
        rated: bool = False,
        gone: SeatNote | None = None,
    ) -> None:
        """Store the table as ``status``, forget it, and tell the front end why it closed;
        ``rated``, ``gone`` (the note of who let it stall, or left it cancelling it):
        whether the rater rates it, stored with it (``Games.set_status``).

        The caller holds the table's lock; a failed write raises
        :class:`ServiceError` and leaves the table open.
        """
        await self._saver.save(
            self._store.games.set_status(
                table.game_id, status.value, reason=reason, rated=rated, gone=gone
            )
        )
        table.status = status
        table.end_reason = reason
        table.rated_end = status is Status.CANCELLED and (rated or gone is not None)
        table.turn_deadline = None
        self._registry.unregister(table)
        if self.listener is not None:
            # After any notice still going out: a turn ping sent for this table
            # is then taken down, not left standing under the closed table.
            async with table.notice_lock:
                await self.listener.table_closed(table, reason)

    async def abandon_where(
        self, *, channel_id: int | None = None, guild_id: int | None = None
    ) -> list[Table]:
        """End the games of a channel or thread that was deleted, or of a server the
        bot was removed from: stored as cancelled, their clocks and notices stopped,
        and nothing more sent there (the listener is only told to forget them)."""
        gone = [
            table
            for table in self._registry.tables()
            if table.channel_id == channel_id or table.guild_id == guild_id
        ]
        for table in gone:
            async with table.lock:
                if not table.live:
                    continue
                try:
                    # Its place is gone: no end to show there, also after a restart.
                    cancelled = Status.CANCELLED.value
                    await self._saver.save(
                        self._store.games.set_status(table.game_id, cancelled, shown=True)
                    )
                except ServiceError:
                    # Kept as it was in the store; a restart finds its place gone again.
                    log.warning("game %s: could not save it as abandoned", table.game_id)
                await self.forget_table(table)
            log.info("game %s: its channel or server is gone; ended", table.game_id)
        return gone

    async def forget_table(self, table: Table) -> None:
        """Close a table nobody is to hear of any more (its channel gone, or its lobby
        never shown), already saved so by the caller, who holds its lock: its clocks and
        notices stopped, and the front end only told to forget it."""
        table.status = Status.CANCELLED
        table.turn_deadline = None
        self._registry.unregister(table)
        self._stop_notices(table)
        if self.listener is not None:
            await self.listener.table_gone(table)

    def _stop_notices(self, table: Table) -> None:
        """Cancel the notices of ``table`` going out, but not the one asking."""
        for task in self._tasks:
            if task.get_name() == notice_name(table) and task is not asyncio.current_task():
                task.cancel()

    async def close(self) -> None:
        """Stop the notices going out (the state they show is already saved)."""
        tasks = [*self._tasks]
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
