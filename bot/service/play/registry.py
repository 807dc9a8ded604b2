"""The live tables, by game id and by channel, and the channels claimed for lobbies."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from bot.service.errors import ServiceError
from bot.service.play.table import Table


def _nothing(table: Table) -> None:
    return None


class TableRegistry:
    """Where the service finds a table: by game id (a button) or by channel (a command).

    ``on_register`` and ``on_unregister`` run for each table coming and going:
    the service readies the AI for a new table and stops the clocks of one gone.
    """

    def __init__(
        self,
        *,
        on_register: Callable[[Table], None] = _nothing,
        on_unregister: Callable[[Table], None] = _nothing,
    ) -> None:
        self._by_id: dict[int, Table] = {}
        self._by_channel: dict[int, Table] = {}
        self._claimed: set[int] = set()  # channels with a lobby being opened
        self._on_register = on_register
        self._on_unregister = on_unregister

    def table(self, game_id: int) -> Table | None:
        return self._by_id.get(game_id)

    def table_in(self, channel_id: int) -> Table | None:
        return self._by_channel.get(channel_id)

    def tables(self) -> list[Table]:
        """Every table registered, as a list that stays as it is while tables come and go."""
        return list(self._by_id.values())

    def require(self, game_id: int) -> Table:
        """The live table ``game_id``; ``error.game_gone`` if it is closed or unknown."""
        table = self._by_id.get(game_id)
        if table is None or not table.live:
            raise ServiceError("error.game_gone")
        return table

    @contextmanager
    def claim(self, channel_id: int) -> Iterator[None]:
        """Hold ``channel_id`` for a lobby being opened.

        Taken before the first ``await``, so of two lobbies opened at once only
        one gets past this; the store's unique index backs it across processes.
        """
        if channel_id in self._by_channel or channel_id in self._claimed:
            raise ServiceError("error.channel_busy")
        self._claimed.add(channel_id)
        try:
            yield
        finally:
            self._claimed.discard(channel_id)

    def register(self, table: Table) -> None:
        self._by_channel[table.channel_id] = table
        self._by_id[table.game_id] = table
        self._on_register(table)

    def unregister(self, table: Table) -> None:
        # A newer table in the same channel (a rematch) keeps its place.
        if self._by_channel.get(table.channel_id) is table:
            del self._by_channel[table.channel_id]
        self._by_id.pop(table.game_id, None)
        self._on_unregister(table)
