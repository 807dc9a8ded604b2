"""Start-up checks that turn a bad environment into one readable line.

Everything here runs before the bot logs in, so a database the bot cannot use
stops it before it touches Discord (and before any resumed game pings anyone).
"""

from __future__ import annotations

import logging
import sqlite3
import tempfile
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from bot.config import Settings
from data import Store, StoreError
from data.backup import backup
from data.postgres import PostgresDatabase
from data.schema import load_migrations
from data.shards import RENEW_EVERY

log = logging.getLogger(__name__)


class StartupError(Exception):
    """The bot cannot start; the message is one sentence saying what to do."""


def _folder(path: Path) -> Path:
    return path.absolute().parent


#: The store's queries use ``RETURNING``, which SQLite has since 3.35.
SQLITE_NEEDED = (3, 35)


def check_database(path: Path) -> None:
    """Raise :class:`StartupError` unless the bot can open and write the database at ``path``.

    A missing file is fine (the bot creates it) as long as its folder exists and
    is writable: SQLite keeps its write-ahead log next to the file.
    """
    if sqlite3.sqlite_version_info < SQLITE_NEEDED:
        raise StartupError(
            f"the bot needs SQLite 3.35 or newer and this Python has SQLite "
            f"{sqlite3.sqlite_version}; run it on a newer Python build (the Docker image has "
            "one) or on PostgreSQL with DATABASE_URL."
        )
    folder = _folder(path)
    if not folder.is_dir():
        raise StartupError(
            f"DATABASE_PATH is {str(path)!r}, but the folder {str(folder)!r} does not exist; "
            "create it or point DATABASE_PATH into an existing folder."
        )
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".lama-write-check-"):
            pass
    except OSError as exc:
        raise StartupError(
            f"DATABASE_PATH is in the folder {str(folder)!r}, which the bot cannot write to "
            f"({exc.strerror}); make it writable for the user running the bot or move the "
            "database elsewhere."
        ) from exc
    if not path.exists():
        return
    try:
        with closing(sqlite3.connect(f"{path.absolute().as_uri()}?mode=rw", uri=True)) as conn:
            conn.execute("PRAGMA schema_version")  # reads the header: fails on other files
            conn.execute("BEGIN IMMEDIATE")  # takes the write lock, so writes will work
            conn.execute("ROLLBACK")
    except sqlite3.DatabaseError as exc:
        if "not a database" in str(exc):
            raise StartupError(
                f"DATABASE_PATH points to {str(path)!r}, which is not an SQLite database; "
                "point DATABASE_PATH at the bot's database file or at a new file name."
            ) from exc
        raise StartupError(
            f"the database {str(path)!r} cannot be opened for writing ({exc}); check its "
            "permissions and that no other program holds it locked."
        ) from exc


async def check_postgres(url: str) -> None:
    """Raise :class:`StartupError` unless the PostgreSQL server at ``url`` lets the bot in.

    Only a connection: the database is not migrated or otherwise changed.
    """
    try:
        database = await PostgresDatabase.connect(url, size=1)
    except StoreError as exc:
        raise StartupError(f"{exc}.") from exc
    await database.close()


def _pending_migration(path: Path) -> int | None:
    """The schema version of an existing database that migrations are about to change."""
    if not path.exists():
        return None
    with closing(sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)) as conn:
        (version,) = conn.execute("PRAGMA user_version").fetchone()
    latest = len(load_migrations())
    return int(version) if 0 < version < latest else None


def backup_before_migrating(path: Path) -> Path | None:
    """Copy the database aside before migrations change it; return the copy's path."""
    version = _pending_migration(path)
    if version is None:
        return None
    copy = path.with_name(f"{path.name}.v{version}.bak")
    backup(path, copy)
    log.info("Backed up %s to %s before migrating it from schema version %d", path, copy, version)
    return copy


async def open_store(
    settings: Settings,
    *,
    clock: Callable[[], float],
    migrating: bool = True,
    renew_every: float = RENEW_EVERY,
) -> Store:
    """Check, back up if migrations are due, and open the store; errors are one line.

    Without ``migrating`` (a tool such as ``forget`` beside a running bot) nothing is
    backed up or migrated, and a database at another schema version is refused.
    A PostgreSQL store (``DATABASE_URL``) opens as it is; its errors are already one line.
    ``renew_every``: seconds between two renewals of the shard leases the store claims.
    """
    if settings.database_url is not None:
        try:
            return await Store.open(
                settings.database_url, clock=clock, migrating=migrating, renew_every=renew_every
            )
        except StoreError as exc:  # unreachable, wrong login, a newer schema ...
            raise StartupError(f"{exc}.") from exc
    path = settings.database_path
    check_database(path)
    try:
        if migrating:
            backup_before_migrating(path)
        return await Store.open(path, clock=clock, migrating=migrating, renew_every=renew_every)
    except (StoreError, sqlite3.Error, OSError) as exc:
        raise StartupError(f"could not open the database {str(path)!r}: {exc}.") from exc
