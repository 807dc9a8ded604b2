"""``python -m bot backup FILE`` and the copy made before migrations change a database."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.client import discord_clock
from bot.config import Settings
from bot.startup import open_store
from data.schema import load_migrations
from tests.process.cli import run_bot


def _live_database(path: Path) -> sqlite3.Connection:
    """A WAL database whose last rows are still only in the write-ahead log, held open."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")  # keep everything in lama.db-wal
    conn.execute("CREATE TABLE moves (n INTEGER)")
    conn.executemany("INSERT INTO moves VALUES (?)", [(n,) for n in range(100)])
    return conn


def test_backup_copies_a_live_database_with_what_is_still_in_its_log(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DATABASE_PATH=lama.db\n", encoding="utf-8")
    with closing(_live_database(tmp_path / "lama.db")):
        assert (tmp_path / "lama.db-wal").stat().st_size > 0
        result = run_bot(tmp_path, "backup", "copy.db")
        assert result.returncode == 0, result.stderr
        assert "Backed up lama.db to copy.db" in result.stdout
    with closing(sqlite3.connect(tmp_path / "copy.db")) as copy:
        assert copy.execute("SELECT COUNT(*), SUM(n) FROM moves").fetchone() == (100, 4950)
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    assert not (tmp_path / "copy.db-wal").exists()


@pytest.mark.parametrize(
    ("target", "needle"), [("missing/copy.db", "does not exist"), ("lama.db", "another file")]
)
def test_a_backup_that_cannot_be_made_is_one_line(tmp_path: Path, target: str, needle: str) -> None:
    with closing(_live_database(tmp_path / "lama.db")):
        result = run_bot(tmp_path, "backup", target)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and needle in result.stderr
    assert "Traceback" not in result.stderr
    assert not list(tmp_path.glob(".*.part")), "a half-written copy was left behind"


def test_backup_without_a_database_says_so(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "backup", "copy.db")
    assert result.returncode == 2
    assert "there is no database at 'lama.db'" in result.stderr
    assert not (tmp_path / "copy.db").exists()


async def test_migrations_back_the_database_up_before_they_change_it(tmp_path: Path) -> None:
    path = tmp_path / "lama.db"
    older = load_migrations()[:-1]
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        for migration in older:
            conn.executescript(migration.sql)
        conn.execute("INSERT INTO guild_settings (guild_id, language) VALUES (1, 'de')")
    version = len(older)

    store = await open_store(Settings(token="", database_path=path), clock=discord_clock)
    await store.close()

    copy = tmp_path / f"lama.db.v{version}.bak"
    with closing(sqlite3.connect(copy)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (version,)
        assert conn.execute("SELECT guild_id, language FROM guild_settings").fetchall() == [
            (1, "de")
        ]
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (version + 1,)
    # Up to date: the next start copies nothing.
    copy.unlink()
    store = await open_store(Settings(token="", database_path=path), clock=discord_clock)
    await store.close()
    assert not copy.exists()
