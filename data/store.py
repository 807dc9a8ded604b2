"""The store: every game, move and result, written before anyone sees it.

:class:`Store` is the one interface the bot uses.  It is put together from its
parts, one per job: :class:`~data.games.Games` (lobbies, moves, resuming),
:class:`~data.settings.GuildSettings`, :class:`~data.stats.StatsReads`, the ratings
(:class:`~data.ratings.RatingReads`, :class:`~data.rating_writes.RatingWrites`),
:class:`~data.export.ExportReads` (the CSV export's pages) and
:class:`~data.forget.Forgetting` (a server's or a person's data erased); each
public method is one unit of work in one transaction, and a failure rolls the
whole unit back and raises :class:`StoreError`.  Underneath is SQLite in WAL
mode (``sqlite.py``) or PostgreSQL (``postgres.py``); either way the stats read
on their own connection, so a long stats read never holds up a move.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from importlib.resources.abc import Traversable
from pathlib import Path
from types import TracebackType

from .database import Database
from .export import ExportReads
from .forget import Forgetting
from .games import Games
from .hands import OpenHandRows
from .pings import PingRows
from .postgres import PostgresDatabase, is_postgres_url, shown_url
from .rating_writes import RatingWrites
from .ratings import RatingReads
from .records import (
    ChipHistory,
    GameRecord,
    HistoryRow,
    LeaderboardRow,
    OpenHandRecord,
    PingRecord,
    PlayerStats,
    SeatNote,
    SeatRecord,
    StoreError,
)
from .schema import load_migrations
from .settings import GuildSettings
from .shards import RENEW_EVERY, Leases, Shards
from .sqlite import SqliteDatabase
from .stats import StatsReads
from .timing import Observe, TimedDatabase

log = logging.getLogger(__name__)

#: PostgreSQL connections for the games and for the stats (each its own pool).
GAME_CONNECTIONS = 8
STATS_CONNECTIONS = 2

__all__ = [
    "ChipHistory",
    "GameRecord",
    "HistoryRow",
    "LeaderboardRow",
    "OpenHandRecord",
    "PlayerStats",
    "SeatNote",
    "SeatRecord",
    "PingRecord",
    "Store",
    "StoreError",
]


class Store(
    Games,
    GuildSettings,
    OpenHandRows,
    PingRows,
    StatsReads,
    RatingReads,
    RatingWrites,
    ExportReads,
    Leases,
    Forgetting,
):
    """Persistence for games, guild settings and statistics. Open with :meth:`open`."""

    def __init__(
        self,
        db: Database,
        reads: Database,
        *,
        path: str,
        clock: Callable[[], float],
        version: int,
        renew_every: float = RENEW_EVERY,
    ) -> None:
        self._db = db
        self._reads = reads
        self._clock = clock
        self._shards = Shards()
        self._lease_owner = None
        self._renewer = None
        self._on_lost = None
        self._renew_every = renew_every
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
        migrating: bool = True,
        renew_every: float = RENEW_EVERY,
    ) -> Store:
        """Open (creating if needed) and migrate the database at ``path``.

        Without ``migrating`` (a tool beside a running bot, which may be of another
        version) the schema is left alone: a database not at the newest migration
        is refused with a :class:`StoreError`.

        ``path`` is a SQLite file, or a ``postgresql://`` URL for PostgreSQL.
        ``durable`` makes each commit wait for the disk (``synchronous=FULL``);
        with ``False`` (``NORMAL``) a power cut may lose the last commits, but
        never corrupts the database.  ``migrations`` replaces the bundled
        migrations directory (for tests); ``clock`` gives the unix time;
        ``renew_every`` is how many seconds go by between two renewals of the shard
        leases it claims.
        """
        if isinstance(path, str) and is_postgres_url(path):
            return await cls._open_postgres(
                path, durable, migrations, clock, migrating, renew_every
            )
        plan = load_migrations(migrations)
        db, version = await SqliteDatabase.open(
            path, durable=durable, migrations=plan, migrating=migrating
        )
        try:
            reads = await db.reader()
        except BaseException:
            await db.close()
            raise
        return cls(db, reads, path=str(path), clock=clock, version=version, renew_every=renew_every)

    @classmethod
    async def _open_postgres(
        cls,
        url: str,
        durable: bool,
        migrations: Traversable | Path | None,
        clock: Callable[[], float],
        migrating: bool,
        renew_every: float,
    ) -> Store:
        plan = load_migrations(migrations, dialect="postgres")
        db = await PostgresDatabase.connect(url, size=GAME_CONNECTIONS, durable=durable)
        try:
            version = await (db.migrate(plan) if migrating else db.expect(plan))
            reads = await PostgresDatabase.connect(url, size=STATS_CONNECTIONS, durable=durable)
        except BaseException:
            await db.close()
            raise
        return cls(
            db, reads, path=shown_url(url), clock=clock, version=version, renew_every=renew_every
        )

    async def close(self) -> None:
        """Give back the shard leases, wait for the running units of work, then close.
        Closing twice is fine."""
        try:
            await self.release_shards()
        except StoreError as error:  # they run out by themselves
            log.warning("could not give back the lease of %s: %s", self._shards, error)
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

    def time_units(self, observe: Observe) -> None:
        """From now on, ``observe(kind, seconds)`` after every unit of work ("write" or
        "read"), for the bot's metrics; once per store."""
        self._db = TimedDatabase(self._db, observe)
        self._reads = TimedDatabase(self._reads, observe)

    async def ping(self) -> None:
        """Run the smallest query; raises :class:`StoreError` if the store does not answer
        (closed, the server gone), for the health check."""
        async with self._db.read() as unit:
            await unit.fetch("SELECT 1")

    async def pragmas(self) -> dict[str, int | str]:
        """The connection settings, for diagnostics and tests."""
        return await self._db.settings()
