"""The store: every game, move and result, written before anyone sees it.

:class:`Store` is the one interface the bot uses.  It opens and closes the
databases and is made of parts, one per job, each an attribute given in its
constructor just what it reads and writes: ``games``
(:class:`~data.games.Games`: lobbies, moves, resuming), ``settings``
(:class:`~data.settings.GuildSettings`), ``hands`` and ``pings`` (what a restart
picks up again), ``hints`` (:class:`~data.hints.HintRows`: the moves hints
advised), ``endings`` (:class:`~data.endings.EndingRows`: ends to show),
``stats`` (:class:`~data.stats.StatsReads`), the ratings (``ratings``,
:class:`~data.ratings.RatingReads`; ``rating_writes``,
:class:`~data.rating_writes.RatingWrites`), ``export`` (the CSV export's pages),
``leases`` (:class:`~data.shards.Leases`: which shards this process serves) and
``forget`` (:class:`~data.forget.Forgetting`: a server's or a person's data
erased).  Each public method of a part is one unit of work in one transaction,
and a failure rolls the whole unit back and raises :class:`StoreError`.
Underneath is SQLite in WAL mode (``sqlite.py``) or PostgreSQL
(``postgres.py``); either way the stats read on their own connection, so a long
stats read never holds up a move.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from importlib.resources.abc import Traversable
from pathlib import Path
from types import TracebackType

from .database import Database
from .endings import EndingRows
from .export import ExportReads
from .forget import Forgetting
from .games import Games
from .hands import OpenHandRows
from .health import SharedCheck
from .hints import HintRows
from .listed import ListedRows
from .pings import PingRows
from .postgres import PostgresDatabase, is_postgres_url, shown_url
from .rating_writes import RatingWrites
from .ratings import RatingReads
from .records import StoreError
from .saved_rules import SavedRules
from .schema import load_migrations
from .settings import GuildSettings
from .shards import RENEW_EVERY, Leases
from .sqlite import SqliteDatabase
from .stats import StatsReads
from .table_tokens import TableTokenRows
from .timing import Observe, TimedDatabase

log = logging.getLogger(__name__)

#: PostgreSQL connections for the games and for the stats (each its own pool).
GAME_CONNECTIONS = 8
STATS_CONNECTIONS = 2


class Store:
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
        # Timed once the bot has its metrics (time_units), parts included.
        self._db = TimedDatabase(db)
        self._reads = TimedDatabase(reads)
        #: The shards' leases; the games, hands and pings resumed are of these shards.
        self.leases = Leases(self._db, clock, renew_every)
        #: Lobbies, moves, finished games; resuming the unfinished ones.
        self.games = Games(self._db, clock, self.leases)
        #: A server's language, /lama new's defaults and allowed channels.
        self.settings = GuildSettings(self._db)
        #: A server's saved house rules, which /lama new offers.
        self.saved_rules = SavedRules(self._db, clock)
        #: The players' open hands, for a restart to edit again.
        self.hands = OpenHandRows(self._db, clock, self.leases)
        #: The token that edits each table message, for a restart to edit on with.
        self.table_tokens = TableTokenRows(self._db, clock, self.leases)
        #: The pings standing, for a restart to take down.
        self.pings = PingRows(self._db, self.leases)
        #: The moves hints advised, for the game's review to leave out.
        self.hints = HintRows(self._db)
        #: The games that ended whose table may not show it yet, for a restart to show.
        self.endings = EndingRows(self._db, self.leases)
        #: How far each table message listed its game's moves, for a restart to count on.
        self.listed = ListedRows(self._db)
        #: /lama stats and its kin (on the stats' connection).
        self.stats = StatsReads(self._reads)
        #: Rating boards, a person's rating over time, what a game did to its seats.
        self.ratings = RatingReads(self._db, self._reads)
        #: Season plans, and what rating finished games reads and writes.
        self.rating_writes = RatingWrites(self._db, self._reads, self.leases)
        #: The CSV export's pages (on the stats' connection).
        self.export = ExportReads(self._reads)
        #: A server's or a person's data erased.
        self.forget = Forgetting(self._db, clock)
        #: The health check's query: on the stats' connection, so never queued with the
        #: moves; shared and kept a while, so a flood of checks costs one query.
        self._health = SharedCheck(self._ping_once, clock)
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
        self._health.close()
        try:
            await self.leases.release_shards()
        except StoreError as error:  # they run out by themselves
            log.warning("could not give back the lease of %s: %s", self.leases.shards, error)
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
        self._db.observe = observe
        self._reads.observe = observe

    async def ping(self) -> None:
        """Raise :class:`StoreError` if the store does not answer (closed, the server
        gone), for the health check: the smallest query, at most one at a time and one
        per :data:`~data.health.FRESH_FOR` seconds of the store's clock, whoever asks."""
        await self._health()

    async def _ping_once(self) -> None:
        async with self._reads.read() as unit:
            await unit.fetch("SELECT 1")

    async def pragmas(self) -> dict[str, int | str]:
        """The connection settings, for diagnostics and tests."""
        return await self._db.settings()
