"""Schema migrations: numbered SQL files, one set per SQL dialect.

``data/migrations/NNNN_name.sql`` holds SQLite's migration NNNN, the version
kept in ``PRAGMA user_version``.  Each file is a whole transaction — ``BEGIN;
... PRAGMA user_version = NNNN; COMMIT;`` — because ``executescript`` commits
any open transaction before it runs a script.  If a statement fails, the runner
rolls the transaction back, so the database stays at the version before that
migration and the error says which one failed.

``data/migrations/postgres/NNNN_name.sql`` is the same migration for
PostgreSQL (types and triggers differ); its runner (``postgres.py``) wraps
each file in a transaction and keeps the version in a table.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

import aiosqlite

from .records import StoreError

_FILE = re.compile(r"^(\d{4})_[A-Za-z0-9_-]+\.sql$")
_SETS_VERSION = re.compile(r"PRAGMA\s+user_version\s*=\s*(\d+)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def bundled_migrations() -> Traversable:
    """The migrations shipped in the package (package data, see pyproject)."""
    return files(__package__ or "data").joinpath("migrations")


def load_migrations(
    directory: Traversable | Path | None = None, *, dialect: str = "sqlite"
) -> list[Migration]:
    """The migrations in ``directory``, checked to be numbered 1, 2, 3, ... without gaps.

    For ``dialect="postgres"``, those in its ``postgres`` subfolder.
    """
    folder: Traversable = bundled_migrations() if directory is None else directory
    if dialect == "postgres":
        folder = folder.joinpath("postgres")
        if not folder.is_dir():
            raise StoreError(f"there are no PostgreSQL migrations in {folder}")
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _FILE.match(entry.name)
        if match is None or not entry.is_file():
            continue
        found.append(Migration(int(match[1]), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise StoreError(f"migration {expected:04d} is missing (found {migration.name})")
        if dialect == "postgres":
            continue
        sets = _SETS_VERSION.findall(migration.sql)
        if not sets or int(sets[-1]) != expected:
            raise StoreError(f"{migration.name} must set PRAGMA user_version = {expected}")
    return found


async def schema_version(conn: aiosqlite.Connection) -> int:
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


def check_version(version: int, migrations: list[Migration], *, migrating: bool) -> list[Migration]:
    """The migrations a database at schema ``version`` still needs, or a refusal.

    Both backends ask this.  A database newer than this bot's newest migration
    is never touched.  Without ``migrating`` (a tool that must not change the
    schema under a running bot of another version) only the newest version will
    do, and nothing is left to run.
    """
    latest = migrations[-1].version if migrations else 0
    if not migrating and version != latest:
        raise StoreError(
            f"the database is at schema version {version}, this bot expects {latest}; "
            "a bot of another version may be running on it, so it is left as it is "
            "(start this version of the bot once to migrate it, then try again)"
        )
    if version > latest:
        raise StoreError(
            f"the database is at schema version {version}, newer than this bot ({latest}); "
            "refusing to touch it"
        )
    return migrations[version:]


async def migrate(conn: aiosqlite.Connection, migrations: list[Migration]) -> int:
    """Bring the database up to the newest migration; return the version it is at."""
    version = await schema_version(conn)
    for migration in check_version(version, migrations, migrating=True):
        try:
            await conn.executescript(migration.sql)
        except sqlite3.Error as error:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise StoreError(
                f"migration {migration.name} failed, the database stays at version "
                f"{version}: {error}"
            ) from error
        version = await schema_version(conn)
        if version != migration.version:
            raise StoreError(f"{migration.name} left user_version at {version}")
    return version
