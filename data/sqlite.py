"""SQLite under the store: aiosqlite connections in WAL mode.

Units on one connection never interleave: an ``asyncio.Lock`` serializes them,
writes open with ``BEGIN IMMEDIATE`` and reads with a plain ``BEGIN``.  The
store opens two connections: one for the games (every write), and a read-only
one for the stats, which WAL lets read a snapshot while the other one writes.
Both delete securely (``secure_delete``: a deleted row's bytes are overwritten).
The files (the database, its ``-wal`` and ``-shm``) are the bot's user's alone.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from pathlib import Path

import aiosqlite

from .database import Database, Params, Row, Unit
from .records import StoreError
from .schema import Migration, check_version, migrate, schema_version

MEMORY = ":memory:"


class SqliteUnit(Unit):
    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def fetch(self, query: str, params: Params = ()) -> list[Row]:
        return [tuple(row) for row in await self.conn.execute_fetchall(query, params)]

    async def execute(self, query: str, params: Params = ()) -> None:
        await self.conn.execute(query, params)

    async def executemany(self, query: str, rows: Iterable[Params]) -> None:
        await self.conn.executemany(query, rows)


class SqliteDatabase(Database):
    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, *, path: str) -> None:
        self.connection: aiosqlite.Connection | None = conn
        self.path = path
        self._lock = asyncio.Lock()

    @classmethod
    async def open(
        cls, path: str | Path, *, durable: bool, migrations: list[Migration], migrating: bool = True
    ) -> tuple[SqliteDatabase, int]:
        """The games' connection, the database migrated (without ``migrating``: refused
        unless at the newest schema); and the schema version."""
        if str(path) != MEMORY:
            _make_private(Path(path))
        conn = await _connect(str(path), uri=False)
        try:
            await conn.execute("PRAGMA busy_timeout = 5000")
            await conn.execute("PRAGMA secure_delete = ON")  # deleted rows overwritten
            rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
            if rows[0][0] != "wal" and str(path) != MEMORY:
                raise StoreError(f"could not switch {path} to WAL mode (got {rows[0][0]})")
            if str(path) != MEMORY:
                _make_private(Path(path))  # the log files WAL mode has just made
            await conn.execute("PRAGMA foreign_keys = ON")
            await conn.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
            if migrating:
                version = await migrate(conn, migrations)
            else:
                version = await schema_version(conn)
                check_version(version, migrations, migrating=False)
        except BaseException as error:
            await conn.close()
            if isinstance(error, sqlite3.Error):
                raise StoreError(f"could not open the database {path}: {error}") from error
            raise
        return cls(conn, path=str(path)), version

    async def reader(self) -> SqliteDatabase:
        """A second, read-only connection to the same file (this one for an in-memory one)."""
        if self.path == MEMORY:
            return self
        conn = await _connect(Path(self.path).resolve().as_uri() + "?mode=ro", uri=True)
        try:
            await conn.execute("PRAGMA busy_timeout = 5000")
            await conn.execute("PRAGMA secure_delete = ON")
            await conn.execute("PRAGMA query_only = ON")
        except BaseException as error:
            await conn.close()
            if isinstance(error, sqlite3.Error):
                raise StoreError(f"could not open the database {self.path}: {error}") from error
            raise
        return SqliteDatabase(conn, path=self.path)

    def write(self) -> AbstractAsyncContextManager[Unit]:
        return self._unit("BEGIN IMMEDIATE", "could not save")

    def read(self) -> AbstractAsyncContextManager[Unit]:
        return self._unit("BEGIN", "could not load")

    @asynccontextmanager
    async def _unit(self, begin: str, failure: str) -> AsyncIterator[Unit]:
        async with self._lock:
            conn = self.connection
            if conn is None:
                raise StoreError(f"{failure}: the store is closed")
            try:
                await conn.execute(begin)
                yield SqliteUnit(conn)
                await conn.execute("COMMIT")
            except BaseException as error:
                # Rolled back even when the BEGIN failed: cancelled while aiosqlite's
                # thread ran it, the transaction may have begun all the same, and without
                # the ROLLBACK every later unit on this connection would fail ("cannot
                # start a transaction within a transaction"). Some failures (a full disk,
                # say) end the transaction themselves: its ROLLBACK's error is no news.
                with suppress(sqlite3.Error):
                    await conn.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error):
                    raise StoreError(f"{failure}: {error}") from error
                raise

    async def compact(self, tables: Sequence[str]) -> None:
        """VACUUM the whole file, then empty the write-ahead log into it: with
        ``secure_delete`` the pages were zeroed, and now no older copy of them is left in
        the log or in a free page."""
        async with self._lock:
            conn = self.connection
            if conn is None:
                raise StoreError("could not vacuum: the store is closed")
            try:
                await conn.execute("VACUUM")
                await conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as error:
                raise StoreError(f"could not vacuum: {error}") from error

    async def close(self) -> None:
        async with self._lock:
            if self.connection is not None:
                conn, self.connection = self.connection, None
                with suppress(sqlite3.Error):
                    await conn.execute("PRAGMA optimize")  # refresh planner stats if stale
                await conn.close()

    async def settings(self) -> dict[str, int | str]:
        out: dict[str, int | str] = {}
        async with self.read() as unit:
            for name in (
                "journal_mode",
                "foreign_keys",
                "synchronous",
                "busy_timeout",
                "secure_delete",
            ):
                out[name] = (await unit.fetch(f"PRAGMA {name}"))[0][0]
            out["user_version"] = (await unit.fetch("PRAGMA user_version"))[0][0]
        return out


async def _connect(target: str, *, uri: bool) -> aiosqlite.Connection:
    try:
        return await aiosqlite.connect(target, isolation_level=None, uri=uri)
    except sqlite3.Error as error:
        raise StoreError(f"could not open the database {target}: {error}") from error


def _make_private(path: Path) -> None:
    """Make the database file (created if missing) and its log files, if there, readable
    and writable by this user alone: they hold live interaction tokens and players' ids
    and names.  SQLite creates a file 0644 less the umask, and gives its ``-wal`` and
    ``-shm`` the database's mode; made 0600 first, all three are private whatever the
    umask or folder, and the files an older version left readable are made so too.

    By path, never by opening a file SQLite may have open in this process: closing any
    descriptor of a file drops every POSIX lock the process holds on it, SQLite's too."""
    try:
        with suppress(FileExistsError):
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        for file in (path, *(path.with_name(path.name + s) for s in ("-wal", "-shm"))):
            with suppress(FileNotFoundError):
                if file.stat().st_uid == os.geteuid():  # another user's is theirs to set
                    file.chmod(0o600)
    except OSError as error:
        raise StoreError(f"could not open the database {path}: {error.strerror}") from error
