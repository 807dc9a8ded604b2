"""A consistent copy of the live database, through SQLite's online backup API.

Copying ``lama.db`` by hand can miss what is still in ``lama.db-wal``, or catch
a write halfway; the backup API copies a snapshot that includes the log, while
the bot goes on writing.  The copy is written next to the target and renamed
into place, so a failed backup never leaves a half-written file behind.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from contextlib import closing, suppress
from pathlib import Path


class BackupError(Exception):
    """The backup could not be made; the message says why."""


def backup(source: Path, target: Path) -> Path:
    """Copy the database ``source`` to ``target`` (replacing it); return ``target``."""
    if not source.is_file():
        raise BackupError(f"there is no database at {str(source)!r}")
    if target.exists() and target.resolve() == source.resolve():
        raise BackupError("the backup must go to another file than the database itself")
    folder = target.absolute().parent
    if not folder.is_dir():
        raise BackupError(f"the folder {str(folder)!r} does not exist")
    try:
        handle, partial = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".part")
    except OSError as exc:
        raise BackupError(f"cannot write to {str(folder)!r} ({exc.strerror})") from exc
    os.close(handle)
    try:
        uri = f"{source.absolute().as_uri()}?mode=ro"
        with (
            closing(sqlite3.connect(uri, uri=True)) as src,
            closing(sqlite3.connect(partial)) as dst,
        ):
            src.backup(dst)
            # The copy is a plain file on its own: no write-ahead log to carry along.
            dst.execute("PRAGMA journal_mode = DELETE")
        os.replace(partial, target)
    except sqlite3.Error as exc:
        raise BackupError(f"could not copy {str(source)!r}: {exc}") from exc
    except OSError as exc:
        raise BackupError(f"could not write {str(target)!r} ({exc.strerror})") from exc
    finally:
        with suppress(FileNotFoundError):
            os.unlink(partial)
    return target
