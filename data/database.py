"""The connection under the store: a unit of work is one transaction on one backend.

The parts of the store (games, settings, stats…), each given the databases it
reads and writes, write their SQL once, with ``?`` placeholders, against
:class:`Unit`; a :class:`Database` hands out units and
turns its driver's errors into :class:`StoreError`.  Each backend (SQLite in
``sqlite.py``) says what its ``dialect`` is, for the few queries that must differ.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

Row = tuple[Any, ...]  # a result row; its columns are named in the query above it
Params = Sequence[Any]


class Unit(ABC):
    """One open transaction: queries run in it, and it commits or rolls back whole."""

    dialect: str  # "sqlite" or "postgres"

    @abstractmethod
    async def fetch(self, query: str, params: Params = ()) -> list[Row]:
        """Run ``query`` and return all its rows."""

    @abstractmethod
    async def execute(self, query: str, params: Params = ()) -> None:
        """Run ``query`` for its effect."""

    @abstractmethod
    async def executemany(self, query: str, rows: Iterable[Params]) -> None:
        """Run ``query`` once per parameter row."""


class Database(ABC):
    """Where units of work come from. ``write()`` units may change data, ``read()`` ones not;
    a read sees one consistent snapshot and never another unit's half-done work."""

    dialect: str

    @abstractmethod
    def write(self) -> AbstractAsyncContextManager[Unit]: ...

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Unit]: ...

    @abstractmethod
    async def close(self) -> None:
        """Wait for the running units, then close. Closing twice is fine."""

    @abstractmethod
    async def compact(self, tables: Sequence[str]) -> None:
        """Rewrite ``tables`` (SQLite: the whole file) so deleted rows leave no bytes behind
        where the database can still read them; outside any unit of work."""

    @abstractmethod
    async def settings(self) -> dict[str, int | str]:
        """The connection's settings, for diagnostics and tests."""
