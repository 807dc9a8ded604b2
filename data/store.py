"""The store: every game, move and result, written before anyone sees it.

:class:`Store` is the one interface the bot uses.  It is put together from its
parts, one per job: :class:`~data.games.Games` (lobbies, moves, resuming),
:class:`~data.settings.GuildSettings` and :class:`~data.stats.Stats`; each
public method is one unit of work in one transaction, and a failure rolls the
whole unit back and raises :class:`StoreError`.  Underneath is SQLite in WAL
mode (``sqlite.py``): one connection for the games, and a read-only one for the
stats, so a long stats read never holds up a move.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib.resources.abc import Traversable
from pathlib import Path
from types import TracebackType

from .database import Database
from .games import Games
from .records import (
    ChipHistory,
    GameRecord,
    HistoryRow,
    LeaderboardRow,
    PlayerStats,
    SeatNote,
    SeatRecord,
    StoreError,
)
from .schema import load_migrations
from .settings import GuildSettings
from .sqlite import SqliteDatabase
from .stats import Stats

__all__ = [
    "ChipHistory",
    "GameRecord",
    "HistoryRow",
    "LeaderboardRow",
    "PlayerStats",
    "SeatNote",
    "SeatRecord",
    "Store",
    "StoreError",
]


class Store(Games, GuildSettings, Stats):
    """Persistence for games, guild settings and statistics. Open with :meth:`open`."""

    def __init__(
        self,
        db: Database,
        reads: Database,
        *,
        path: str,
        clock: Callable[[], float],
        version: int,
    ) -> None:
        self._db = db
        self._reads = reads
        self._clock = clock
        self.path = path
        self.schema_version = version

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        durable: bool = True,
        migrations: Traversable | Path | None = None,
        clock: Callable[[], float] = time.time,
    ) -> Store:
        """Open (creating if needed) and migrate the database at ``path``.

        ``durable`` makes each commit wait for the disk (``synchronous=FULL``);
        with ``False`` (``NORMAL``) a power cut may lose the last commits, but
        never corrupts the database.  ``migrations`` replaces the bundled
        migrations directory (for tests); ``clock`` gives the unix time.
        """
        plan = load_migrations(migrations)
        db, version = await SqliteDatabase.open(path, durable=durable, migrations=plan)
        try:
            reads = await db.reader()
        except BaseException:
            await db.close()
            raise
        return cls(db, reads, path=str(path), clock=clock, version=version)

    async def close(self) -> None:
        """Wait for the running units of work, then close. Closing twice is fine."""
        await self._reads.close()
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def pragmas(self) -> dict[str, int | str]:
        """The connection settings, for diagnostics and tests."""
        return await self._db.settings()
