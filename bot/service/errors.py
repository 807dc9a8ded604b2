"""What the service hands the front end besides tables: refusals, people, outcomes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from game import Event, RoundResult

from .table import Table


class ServiceError(Exception):
    """A refusal a person can read; ``key`` names the message in the catalog."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True, slots=True)
class Person:
    id: int
    name: str


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    table: Table
    seat: int
    events: tuple[Event, ...]
    results: tuple[RoundResult, ...]


class TableListener(Protocol):
    async def table_changed(self, table: Table) -> None: ...
    async def turn_started(self, table: Table) -> None: ...
    async def turn_warning(self, table: Table) -> None: ...
    async def table_closed(self, table: Table, reason: str) -> None: ...
    async def table_gone(self, table: Table) -> None:
        """The table's channel or server is gone: forget it, without a word to Discord."""
        ...
