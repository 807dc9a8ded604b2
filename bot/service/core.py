"""The state every part of the service shares: the live tables, the store, the
listener, background tasks; saving and closing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from data import ChannelBusy, ChipHistory, OpenHandRecord, PingRecord, Store, StoreError
from data.stats import StatsReads
from game import Match, RoundDealt
from game.ai import Strength

from .errors import ServiceError, TableListener
from .scheduler import Scheduler
from .table import Status, Table
from .thinking import Thinking

log = logging.getLogger(__name__)

# The clocks of a table, by the second half of their scheduler key.
CLOCK = "clock"  # the turn deadline, or the idle lobby or idle game limit
WARNING = "warning"  # the turn's warning
AI = "ai"  # the next AI move


def notice_name(table: Table) -> str:
    """The name of a table's notice tasks, by which they are found to be stopped."""
    return f"lama-notice-{table.game_id}"


class ServiceCore:
    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float],
        seed_source: Callable[[], int] = lambda: secrets.randbits(63),
        thinking: Thinking | None = None,
    ) -> None:
        self.store = store
        # Where AI moves are decided: the bot passes its process pool; without
        # one, Hard thinks in a thread.
        self.thinking = thinking if thinking is not None else Thinking(workers=0)
        self.clock = clock
        self.seed_source = seed_source
        self.listener: TableListener | None = None
        self.by_channel: dict[int, Table] = {}
        self.by_id: dict[int, Table] = {}
        self._claimed: set[int] = set()  # channels with a lobby being opened
        self._resumed: list[Table] = []  # picked up after a restart, not yet shown
        # Deals to use before random ones: for puzzles and tests.
        self.scripted_deals: deque[Callable[[Match], RoundDealt]] = deque()
        # Every clock of every table: turns, warnings, idle tables, AI moves.
        self.clocks = Scheduler(clock)
        self._ai_failures: dict[int, int] = {}  # game id: AI moves in a row not saved
        self._notices: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------ lookup
    def table(self, game_id: int) -> Table | None:
        return self.by_id.get(game_id)

    def table_in(self, channel_id: int) -> Table | None:
        return self.by_channel.get(channel_id)

    def legal_for(self, table: Table, user_id: int) -> tuple[int | None, bool]:
        seat = table.seat_of(user_id)
        return seat, seat is not None and table.to_move == seat

    def _require(self, game_id: int) -> Table:
        table = self.by_id.get(game_id)
        if table is None or not table.live:
            raise ServiceError("error.game_gone")
        return table

    def _register(self, table: Table) -> None:
        self.by_channel[table.channel_id] = table
        self.by_id[table.game_id] = table
        self._prepare_ai(table)

    def _prepare_ai(self, table: Table) -> None:
        """A table with a Hard seat gets the AI's workers started now, so that its
        first Hard move doesn't wait for them with the table locked."""
        if any(seat.ai is Strength.HARD for seat in table.seats):
            self.thinking.prepare()

    def _unregister(self, table: Table) -> None:
        if self.by_channel.get(table.channel_id) is table:
            del self.by_channel[table.channel_id]
        self.by_id.pop(table.game_id, None)
        self.clocks.cancel_game(table.game_id)
        self._ai_failures.pop(table.game_id, None)

    # ------------------------------------------------------------ language
    async def public_locale(self, guild_id: int, fallback: str) -> str:
        """The language of public messages: the server's setting, else its locale."""
        return await self.store.get_language(guild_id) or fallback

    async def set_language(self, guild_id: int, language: str | None) -> None:
        await self._save(self.store.set_language(guild_id, language))

    # ------------------------------------------------------------ stats
    @property
    def stats(self) -> StatsReads:
        """The stats reads (on their own connection): all that /lama stats and its kin
        may ask of the store."""
        return self.store

    async def finished_chips(
        self, game_id: int, *, guild_id: int | None = None
    ) -> ChipHistory | None:
        """The chip history of a finished game (of ``guild_id``, if given), else None."""
        if guild_id is not None:
            record = await self.store.load_game(game_id)
            if record is None or record.guild_id != guild_id or record.status != "finished":
                return None
        return await self.store.chip_history(game_id)

    # ------------------------------------------------------------ messages
    async def set_table_message(self, table: Table, message_id: int) -> None:
        table.table_message_id = message_id
        await self._save(self.store.set_table_message(table.game_id, message_id))

    async def notify(self, table: Table) -> None:
        """Show the table as it is now (after a restart, say), in turn with other notices."""
        if self.listener is not None:
            await self._notify(table)

    async def _notify(self, table: Table) -> None:
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

    # ------------------------------------------------------------ saving, closing
    async def _save(self, write: Awaitable[Any]) -> Any:
        try:
            return await write
        except ChannelBusy as error:
            # Another lobby got the channel first (in another process, say).
            raise ServiceError("error.channel_busy") from error
        except StoreError as error:
            log.warning("could not save: %s", error)
            raise ServiceError("error.save_failed") from error
        except Exception as error:
            # Whatever else went wrong under the store, nothing was saved.
            log.exception("could not save")
            raise ServiceError("error.save_failed") from error

    async def _close(self, table: Table, status: Status, reason: str) -> None:
        await self._save(self.store.set_status(table.game_id, status.value))
        table.status = status
        table.turn_deadline = None
        self._unregister(table)
        if self.listener is not None:
            # After any notice still going out: a turn ping sent for this table
            # is then taken down, not left standing under the closed table.
            async with table.notice_lock:
                await self.listener.table_closed(table, reason)

    # ------------------------------------------------------------ open hands
    async def remember_hand(self, hand: OpenHandRecord) -> None:
        """Keep an open hand for after a restart; failing costs only its refreshes."""
        try:
            await self.store.save_open_hand(hand)
        except StoreError as error:
            log.warning("game %s: could not save an open hand: %s", hand.game_id, error)
        except Exception:  # a background task: log it and carry on
            log.exception("game %s: saving an open hand failed", hand.game_id)

    async def open_hands(self) -> list[OpenHandRecord]:
        """The open hands stored before a restart that may still be edited."""
        try:
            return await self.store.open_hands()
        except StoreError as error:
            log.warning("could not load the open hands: %s", error)
            return []

    # ------------------------------------------------------------ turn pings
    async def remember_ping(self, ping: PingRecord) -> None:
        """Keep a ping just sent until it is gone, so that if the bot stops from now on,
        a restart takes it down."""
        try:
            await self.store.add_ping(ping)
        except Exception as error:  # it costs a ping left standing, not the turn
            log.warning("game %s: could not save a ping to take down: %s", ping.game_id, error)

    async def forget_ping(self, ping: PingRecord) -> None:
        """The ping is gone."""
        try:
            await self.store.drop_ping(ping.message_id)
        except Exception as error:  # a restart tries deleting it once more: no harm
            log.warning("game %s: could not forget a ping taken down: %s", ping.game_id, error)

    async def standing_pings(self) -> list[PingRecord]:
        """The pings stored and not known to be gone (sent before a restart, say)."""
        try:
            return await self.store.standing_pings()
        except StoreError as error:
            log.warning("could not load the pings to take down: %s", error)
            return []

    # ------------------------------------------------------------ places gone
    async def abandon_where(
        self, *, channel_id: int | None = None, guild_id: int | None = None
    ) -> list[Table]:
        """End the games of a channel or thread that was deleted, or of a server the
        bot was removed from: stored as cancelled, their clocks and notices stopped,
        and nothing more sent there (the listener is only told to forget them)."""
        gone = [
            table
            for table in list(self.by_id.values())
            if table.channel_id == channel_id or table.guild_id == guild_id
        ]
        for table in gone:
            async with table.lock:
                if not table.live:
                    continue
                try:
                    await self._save(self.store.set_status(table.game_id, Status.CANCELLED.value))
                except ServiceError:
                    # Kept as it was in the store; a restart finds its place gone again.
                    log.warning("game %s: could not save it as abandoned", table.game_id)
                table.status = Status.CANCELLED
                table.turn_deadline = None
                self._unregister(table)
                for task in self._notices:
                    if task.get_name() == notice_name(table) and task is not asyncio.current_task():
                        task.cancel()
                if self.listener is not None:
                    await self.listener.table_gone(table)
            log.info("game %s: its channel or server is gone; ended", table.game_id)
        return gone

    async def close(self) -> None:
        """Stop every background task (the state is already saved)."""
        await self.clocks.close()
        tasks = [*self._notices]
        self._notices.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
