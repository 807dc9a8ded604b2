"""PostgreSQL under the store, through asyncpg (the ``postgres`` extra).

``DATABASE_URL=postgresql://user:password@host/db`` selects it.  A pool of
connections serves the games and a second, small one the stats, so neither
waits for the other.  Units run side by side on the server (its row locks and
the event log's keys keep them apart): a write is one ``READ COMMITTED``
transaction, a read one ``REPEATABLE READ`` read-only transaction, so it sees
one snapshot.  The store's SQL uses ``?`` placeholders; they are numbered here.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from .database import Database, Params, Row, Unit
from .records import StoreError
from .schema import Migration, check_version

try:
    import asyncpg
except ImportError:  # the postgres extra is not installed; connect() says so
    asyncpg = None  # type: ignore[assignment]

#: The advisory lock two processes starting at once take to migrate one after the other.
MIGRATION_LOCK = 0x4C414D41  # "LAMA"
CONNECT_TIMEOUT = 15.0  # seconds to reach the server before giving up

_PLACEHOLDER = re.compile(r"\?")


def is_postgres_url(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


#: The query parameters libpq and asyncpg read a password from.
_PASSWORD_PARAMS = frozenset({"password", "sslpassword"})


def url_passwords(url: str) -> list[str]:
    """Every password ``url`` holds, as written: before the host and in the query."""
    parts = urlsplit(url)
    found = [parts.password] if parts.password else []
    for pair in parts.query.split("&"):
        name, _, value = pair.partition("=")
        if name in _PASSWORD_PARAMS and value:
            found.append(value)
    return found


def shown_url(url: str) -> str:
    """The URL without its passwords (before the host or in the query), for messages
    and logs."""
    parts = urlsplit(url)
    if parts.password is not None:
        netloc = parts.netloc.rsplit("@", 1)[1]
        parts = parts._replace(netloc=f"{parts.username or ''}:***@{netloc}")
    query = "&".join(
        f"{name}=***" if name in _PASSWORD_PARAMS and sep else f"{name}{sep}{value}"
        for name, sep, value in (pair.partition("=") for pair in parts.query.split("&"))
    )
    return urlunsplit(parts._replace(query=query if parts.query else ""))


@lru_cache(maxsize=256)
def numbered(query: str) -> str:
    """``?, ?`` to ``$1, $2``: the store's queries have no ``?`` anywhere else."""
    count = iter(range(1, 1 << 16))
    return _PLACEHOLDER.sub(lambda _: f"${next(count)}", query)


def _errors() -> tuple[type[BaseException], ...]:
    """What a failing server, network or login raises."""
    assert asyncpg is not None
    return (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text


class PostgresUnit(Unit):
    dialect = "postgres"

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def fetch(self, query: str, params: Params = ()) -> list[Row]:
        return [tuple(row) for row in await self.conn.fetch(numbered(query), *params)]

    async def execute(self, query: str, params: Params = ()) -> None:
        await self.conn.execute(numbered(query), *params)

    async def executemany(self, query: str, rows: Iterable[Params]) -> None:
        batch = list(rows)
        if batch:
            await self.conn.executemany(numbered(query), batch)


class PostgresDatabase(Database):
    dialect = "postgres"

    def __init__(self, pool: Any, *, url: str) -> None:
        self.pool: Any = pool
        self.url = url

    @classmethod
    async def connect(cls, url: str, *, size: int, durable: bool = True) -> PostgresDatabase:
        """A pool of ``size`` connections, or a one-line StoreError saying why not.

        ``durable=False`` lets a commit return before it reaches the disk
        (``synchronous_commit=off``): a crash may lose the last commits, never more.
        """
        if asyncpg is None:
            raise StoreError(
                "DATABASE_URL asks for PostgreSQL, but asyncpg is not installed; "
                'install the postgres extra: pip install -e ".[postgres]"'
            )
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=size,
                timeout=CONNECT_TIMEOUT,
                server_settings={
                    "synchronous_commit": "on" if durable else "off",
                    # Every query here is short; the planner's cost guesses for the boards'
                    # sight (a subplan per row) pass the JIT's threshold, and compiling
                    # takes longer (~12 ms) than the query runs.
                    "jit": "off",
                },
            )
        except _errors() + (ValueError,) as error:
            raise StoreError(
                f"could not connect to PostgreSQL at {shown_url(url)}: {_one_line(error)}"
            ) from error
        return cls(pool, url=url)

    async def migrate(self, migrations: list[Migration]) -> int:
        """Bring the database up to the newest migration; return the version it is at."""
        async with self._connection("could not migrate") as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                return await _migrate(conn, migrations)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

    async def expect(self, migrations: list[Migration]) -> int:
        """The schema version, refused unless it is the newest migration's."""
        async with self._connection("could not read the schema version") as conn:
            found = await conn.fetchval("SELECT to_regclass('schema_version')")
            version = await conn.fetchval("SELECT version FROM schema_version") if found else 0
        version = int(version or 0)
        check_version(version, migrations, migrating=False)
        return version

    def write(self) -> AbstractAsyncContextManager[Unit]:
        return self._unit("could not save", isolation="read_committed", readonly=False)

    def read(self) -> AbstractAsyncContextManager[Unit]:
        return self._unit("could not load", isolation="repeatable_read", readonly=True)

    @asynccontextmanager
    async def _unit(self, failure: str, *, isolation: str, readonly: bool) -> AsyncIterator[Unit]:
        async with self._connection(failure) as conn:
            try:
                async with conn.transaction(isolation=isolation, readonly=readonly):
                    yield PostgresUnit(conn)
            except _errors() as error:
                raise StoreError(f"{failure}: {_one_line(error)}") from error

    @asynccontextmanager
    async def _connection(self, failure: str) -> AsyncIterator[Any]:
        pool = self.pool
        if pool is None:
            raise StoreError(f"{failure}: the store is closed")
        try:
            conn = await pool.acquire()
        except _errors() as error:
            raise StoreError(f"{failure}: {_one_line(error)}") from error
        try:
            yield conn
        finally:
            await pool.release(conn)

    async def compact(self, tables: Sequence[str]) -> None:
        """VACUUM ``tables``, outside a transaction: their deleted rows' space is freed for
        new rows (their bytes stay in the files until new rows overwrite them)."""
        names = ", ".join(_identifier(table) for table in tables)
        async with self._connection("could not vacuum") as conn:
            try:
                await conn.execute(f"VACUUM {names}")
            except _errors() as error:
                raise StoreError(f"could not vacuum: {_one_line(error)}") from error

    async def close(self) -> None:
        if self.pool is not None:
            pool, self.pool = self.pool, None
            await pool.close()  # waits for the units still running

    async def settings(self) -> dict[str, int | str]:
        async with self.read() as unit:
            [(version,)] = await unit.fetch("SHOW server_version")
            [(isolation,)] = await unit.fetch("SHOW default_transaction_isolation")
            [(schema,)] = await unit.fetch("SELECT version FROM schema_version")
        return {"server_version": version, "isolation": isolation, "schema_version": schema}


async def _migrate(conn: Any, migrations: list[Migration]) -> int:
    async with conn.transaction():
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        version = await conn.fetchval("SELECT version FROM schema_version")
        if version is None:
            version = 0
            await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
    for migration in check_version(version, migrations, migrating=True):
        try:
            async with conn.transaction():
                await conn.execute(migration.sql)
                await conn.execute("UPDATE schema_version SET version = $1", migration.version)
        except asyncpg.PostgresError as error:
            raise StoreError(
                f"migration postgres/{migration.name} failed, the database stays at version "
                f"{version}: {_one_line(error)}"
            ) from error
        version = migration.version
    return int(version)


def _identifier(name: str) -> str:
    """A table name of the store's own, checked: VACUUM takes no parameters."""
    if not name.isidentifier() or not name.islower():
        raise ValueError(f"not a table name: {name!r}")
    return name
