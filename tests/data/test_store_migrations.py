"""Schema migrations: numbered SQL files, applied in place, each all or nothing."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from data import Store, StoreError
from data.records import ABANDONED
from data.schema import bundled_migrations, load_migrations
from game import Match, Ruleset
from tests.pg import PostgresServer

from ._helpers import Backend, counter_clock, humans, new_running_game, random_seats

BUNDLED = Path(str(bundled_migrations()))


def migrations_dir(tmp_path: Path, *versions: int, extra: dict[str, str] | None = None) -> Path:
    """A migrations folder with the bundled migrations ``versions`` and ``extra`` files."""
    folder = tmp_path / "migrations"
    folder.mkdir()
    for path in BUNDLED.glob("*.sql"):
        if int(path.name[:4]) in versions:
            shutil.copy(path, folder / path.name)
    for name, sql in (extra or {}).items():
        (folder / name).write_text(sql, encoding="utf-8")
    return folder


def user_version(path: Path) -> int:
    with closing(sqlite3.connect(path)) as raw:
        return int(raw.execute("PRAGMA user_version").fetchone()[0])


def tables(path: Path) -> set[str]:
    with closing(sqlite3.connect(path)) as raw:
        rows = raw.execute("SELECT name FROM sqlite_schema WHERE type = 'table'").fetchall()
    return {name for (name,) in rows}


def test_the_migrations_ship_as_package_data() -> None:
    """Found through importlib.resources, numbered 1.. without gaps, each setting its version."""
    names = sorted(entry.name for entry in bundled_migrations().iterdir())
    assert names[:2] == ["0001_initial.sql", "0002_guild_settings_and_stats.sql"]
    plan = load_migrations()
    assert [m.version for m in plan] == list(range(1, len(plan) + 1))
    for migration in plan:
        text = migration.sql
        assert "\nBEGIN;\n" in text and text.rstrip().endswith("COMMIT;")


def test_the_sqlite_migrations_drop_no_column() -> None:
    """ALTER TABLE ... DROP COLUMN needs SQLite 3.35 (Debian bullseye has 3.34, Ubuntu
    20.04 3.31): a column no longer used stays in SQLite's schema instead."""
    for migration in load_migrations():
        code = "\n".join(line.split("--")[0] for line in migration.sql.splitlines())
        assert "DROP COLUMN" not in code.upper(), migration.name


async def test_a_column_left_unused_does_no_harm(db_path: Path) -> None:
    """games.ping_message_id (0003, unused since 0010) is still there on SQLite; games are
    stored and read all the same (migrate-to-postgres's tests copy them on)."""
    store = await Store.open(db_path)
    try:
        game_id = await store.games.create_game(
            guild_id=1, channel_id=2, host_id=3, ruleset=Ruleset(), turn_timer=60, seats=[]
        )
        [record] = await store.games.unfinished_games()
        assert record.id == game_id and record.status == "lobby"
    finally:
        await store.close()
    with closing(sqlite3.connect(db_path)) as raw:
        columns = {row[1] for row in raw.execute("PRAGMA table_info(games)")}
    assert "ping_message_id" in columns


async def test_a_new_database_gets_the_latest_schema(db_path: Path) -> None:
    store = await Store.open(db_path)
    await store.close()
    assert store.schema_version == user_version(db_path) == len(load_migrations())
    assert {"games", "seats", "events", "round_results", "game_results", "guild_settings"} <= (
        tables(db_path)
    )
    # Opening again is a no-op.
    store = await Store.open(db_path)
    await store.close()
    assert user_version(db_path) == len(load_migrations())


async def test_an_older_database_upgrades_in_place(tmp_path: Path, db_path: Path) -> None:
    """A version 1 database with a game in it: opening it upgrades it and keeps the game."""
    with closing(sqlite3.connect(db_path, isolation_level=None)) as raw:
        raw.executescript((BUNDLED / "0001_initial.sql").read_text(encoding="utf-8"))
        assert user_version(db_path) == 1
        match = Match(Ruleset(party=True), 2)
        match.deal(seed=11)
        seat = match.to_move
        assert seat is not None
        match.apply(seat, match.legal_actions()[0])
        raw.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_id, ruleset, status, turn_timer,"
            " turn_deadline, created_at, updated_at) VALUES (7, 1, 2, 3, ?, 'running', 60,"
            " 1234.5, 1000, 1001)",
            (json.dumps(match.ruleset.to_json()),),
        )
        raw.executemany(
            "INSERT INTO seats (game_id, seat, user_id, ai, name) VALUES (7, ?, ?, ?, ?)",
            [(0, 3, None, "Ann"), (1, None, "hard", "Bot")],
        )
        raw.executemany(
            "INSERT INTO events (game_id, seq, kind, payload, created_at)"
            " VALUES (7, ?, ?, ?, 1000)",
            [(i, e.kind, json.dumps(e.to_json())) for i, e in enumerate(match.events)],
        )
    assert "guild_settings" not in tables(db_path)

    store = await Store.open(db_path)
    try:
        assert store.schema_version == len(load_migrations()) >= 2
        [record] = await store.games.unfinished_games()
        assert (record.id, record.status, record.turn_timer, record.turn_deadline) == (
            7,
            "running",
            60,
            1234.5,
        )
        assert record.language is None  # the column 0002 added
        assert [s.name for s in record.seats] == ["Ann", "Bot"]
        assert Match.replay(record.ruleset, 2, record.events) == match
        await store.settings.set_language(1, "es")  # the table 0002 added
        assert await store.settings.get_language(1) == "es"
    finally:
        await store.close()
    assert user_version(db_path) == len(load_migrations())


async def test_a_failed_migration_leaves_the_previous_version(
    tmp_path: Path, db_path: Path
) -> None:
    store = await Store.open(db_path)
    await store.settings.set_language(5, "de")
    await store.close()
    before = user_version(db_path)

    broken = (
        "BEGIN;\n"
        "CREATE TABLE half_done (x INTEGER);\n"
        "ALTER TABLE games ADD COLUMN half_done INTEGER;\n"
        "INSERT INTO no_such_table VALUES (1);\n"
        f"PRAGMA user_version = {before + 1};\n"
        "COMMIT;\n"
    )
    folder = migrations_dir(
        tmp_path, *range(1, before + 1), extra={f"{before + 1:04d}_broken.sql": broken}
    )
    with pytest.raises(StoreError, match=f"{before + 1:04d}_broken.sql failed.*no such table"):
        await Store.open(db_path, migrations=folder)

    assert user_version(db_path) == before
    assert "half_done" not in tables(db_path)
    with closing(sqlite3.connect(db_path)) as raw:
        columns = [row[1] for row in raw.execute("PRAGMA table_info(games)")]
    assert "half_done" not in columns
    store = await Store.open(db_path)  # the shipped migrations still open it, data intact
    try:
        assert await store.settings.get_language(5) == "de"
    finally:
        await store.close()


async def test_migrations_stop_at_the_first_failure(tmp_path: Path, db_path: Path) -> None:
    """1 applies, 2 fails: the database stays at 1, usable by a version-1 build."""
    broken = "BEGIN;\nCREATE TABLE games (id INTEGER);\nPRAGMA user_version = 2;\nCOMMIT;\n"
    folder = migrations_dir(tmp_path, 1, extra={"0002_clash.sql": broken})
    with pytest.raises(StoreError, match="0002_clash.sql failed, .* stays at version 1"):
        await Store.open(db_path, migrations=folder)
    assert user_version(db_path) == 1


async def test_a_newer_database_is_left_alone(db_path: Path) -> None:
    with closing(sqlite3.connect(db_path)) as raw:
        raw.execute("PRAGMA user_version = 999")
    with pytest.raises(StoreError, match="newer than this bot"):
        await Store.open(db_path)
    assert user_version(db_path) == 999


def test_migration_files_must_be_numbered_without_gaps(tmp_path: Path) -> None:
    folder = migrations_dir(tmp_path, 1, extra={"0003_later.sql": "PRAGMA user_version = 3;"})
    with pytest.raises(StoreError, match="migration 0002 is missing"):
        load_migrations(folder)


def test_migration_files_must_set_their_version(tmp_path: Path) -> None:
    folder = migrations_dir(
        tmp_path, 1, extra={"0002_x.sql": "BEGIN; PRAGMA user_version = 1; COMMIT;"}
    )
    with pytest.raises(StoreError, match="must set PRAGMA user_version = 2"):
        load_migrations(folder)


def test_every_migration_has_a_postgresql_twin() -> None:
    """The same numbered migrations for both dialects, under the same names."""
    sqlite = [m.name for m in load_migrations()]
    postgres = [m.name for m in load_migrations(dialect="postgres")]
    assert postgres == sqlite


async def test_postgresql_migrates_a_new_database_once(postgres_server: PostgresServer) -> None:
    url = await postgres_server.new_database()
    # Two processes starting at once: the advisory lock lets one migrate, the other waits.
    first, second = await asyncio.gather(Store.open(url), Store.open(url))
    try:
        assert first.schema_version == second.schema_version == len(load_migrations())
        await first.settings.set_language(1, "de")
        assert await second.settings.get_language(1) == "de"
    finally:
        await first.close()
        await second.close()


async def test_a_failed_postgresql_migration_leaves_the_previous_version(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    url = await postgres_server.new_database()
    store = await Store.open(url)
    await store.settings.set_language(5, "de")
    await store.close()
    latest = len(load_migrations())

    folder = migrations_dir(tmp_path, *range(1, latest + 1))
    (folder / "postgres").mkdir()
    for path in (BUNDLED / "postgres").glob("*.sql"):
        shutil.copy(path, folder / "postgres" / path.name)
    broken = "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n"
    (folder / "postgres" / f"{latest + 1:04d}_broken.sql").write_text(broken, encoding="utf-8")
    with pytest.raises(StoreError, match=f"{latest + 1:04d}_broken.sql failed.*no_such_table"):
        await Store.open(url, migrations=folder)

    store = await Store.open(url)  # the shipped migrations still open it, data intact
    try:
        assert store.schema_version == latest
        assert await store.settings.get_language(5) == "de"
        # Nothing of the failed migration stayed.
        async with store._db.read() as unit:
            assert await unit.fetch("SELECT to_regclass('half_done')") == [(None,)]
    finally:
        await store.close()


async def test_a_newer_postgresql_database_is_left_alone(postgres_server: PostgresServer) -> None:
    url = await postgres_server.new_database()
    store = await Store.open(url)
    async with store._db.write() as unit:
        await unit.execute("UPDATE schema_version SET version = 999")
    await store.close()
    with pytest.raises(StoreError, match="newer than this bot"):
        await Store.open(url)


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_the_games_every_person_left_before_the_upgrade_are_rated_where_they_ended(
    tmp_path: Path, empty_backend: Backend
) -> None:
    """0019: a game cancelled as abandoned before, that an AI seat started, keeps its last
    write's time as its end, for the rater to put it in order; no other cancelled game
    gets one."""
    folder = migrations_dir(tmp_path, *range(1, 19))
    (folder / "postgres").mkdir()
    for path in (BUNDLED / "postgres").glob("*.sql"):
        if int(path.name[:4]) < 19:
            shutil.copy(path, folder / "postgres" / path.name)
    store = await Store.open(empty_backend.target, migrations=folder, clock=counter_clock())
    try:
        assert store.schema_version == 18
        left = await new_running_game(store, Match(Ruleset(), 2), random_seats(2))
        await store.games.set_status(left, "cancelled", reason=ABANDONED)
        people = await new_running_game(store, Match(Ruleset(), 2), humans((1, "A"), (2, "B")))
        await store.games.set_status(people, "cancelled", reason=ABANDONED)
        idle = await new_running_game(store, Match(Ruleset(), 2), random_seats(2))
        await store.games.set_status(idle, "cancelled", reason="closed.idle_game")
    finally:
        await store.close()
    # As the version before kept them: a cancelled game had no end time.
    await empty_backend.rows("UPDATE games SET finished_at = NULL WHERE status = 'cancelled'")
    [(ended,)] = await empty_backend.rows("SELECT updated_at FROM games WHERE id = ?", (left,))

    store = await Store.open(empty_backend.target, clock=counter_clock())
    try:
        assert store.schema_version == len(load_migrations())
        record = await store.games.load_game(left)
        assert record is not None and record.finished_at == ended
        for other in (people, idle):  # only people started it; cancelled otherwise
            record = await store.games.load_game(other)
            assert record is not None and record.finished_at is None
    finally:
        await store.close()
