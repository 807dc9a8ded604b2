"""What the service tells the front end: the protocol the presenter implements."""

from __future__ import annotations

from typing import Protocol

from bot.service.play.table import Table


class TableListener(Protocol):
    async def table_changed(self, table: Table) -> None: ...
    async def turn_started(self, table: Table) -> None: ...
    async def turn_warning(self, table: Table) -> None: ...
    async def table_closed(self, table: Table, reason: str) -> None: ...
    async def table_gone(self, table: Table) -> None:
        """The table's channel or server is gone: forget it, without a word to Discord."""
        ...
