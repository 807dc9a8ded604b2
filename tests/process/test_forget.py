"""``python -m bot forget``: a server's data deleted, a person's id and name removed,
on SQLite and on PostgreSQL alike."""

from __future__ import annotations

import logging
import shutil
import subprocess
from pathlib import Path

import pytest
import pytest_asyncio
import simcord

from bot.client import discord_clock
from bot.config import Settings
from bot.service.table import Status
from bot.startup import open_store
from data import Store
from data.records import FORMER_PLAYER
from data.schema import bundled_migrations, load_migrations
from testkit.simcord_play import one_move_from_the_end, take_simple_turn
from tests.data._helpers import Backend
from tests.pg import PostgresServer
from tests.process.cli import run_bot
from tests.simcord_fixtures import DEV_GUILD_ID


@pytest_asyncio.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "postgres":
        server = request.getfixturevalue("postgres_server")
        return Backend("postgres", await server.new_database())
    return Backend("sqlite", str(tmp_path / "lama.db"))


@pytest.fixture
def settings(backend: Backend, tmp_path: Path) -> Settings:
    """The bot under test, and then the command, on this backend."""
    postgres = backend.name == "postgres"
    return Settings(
        token="test-token",
        dev_guild_id=DEV_GUILD_ID,
        log_level=logging.WARNING,
        database_path=tmp_path / "unused.db" if postgres else Path(backend.target),
        database_url=backend.target if postgres else None,
    )


def forget(backend: Backend, folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    setting = "DATABASE_URL" if backend.name == "postgres" else "DATABASE_PATH"
    (folder / ".env").write_text(f"{setting}={backend.target}\n", encoding="utf-8")
    return run_bot(folder, "forget", *args)


async def _finished_game(
    env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> simcord.MemberActor:
    bob = guild.add_member(env.create_user("bob"))
    table = await one_move_from_the_end(env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    assert table.status is Status.FINISHED
    await env.shutdown()
    await env.bot.close()
    return bob


async def test_forgetting_a_user_keeps_the_others_results(
    simcord_env: simcord.Env,
    backend: Backend,
    tmp_path: Path,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    bob = await _finished_game(simcord_env, guild, channel, alice)
    rows = backend.rows
    assert await rows("SELECT COUNT(*) FROM open_hands WHERE user_id = ?", (alice.id,)) == [(1,)]

    result = forget(backend, tmp_path, "--user", str(alice.id))

    assert result.returncode == 0, result.stderr
    assert "1 seat(s) made anonymous, 1 game(s) without a host" in result.stdout
    assert await rows("SELECT COUNT(*) FROM seats WHERE user_id = ?", (alice.id,)) == [(0,)]
    assert await rows("SELECT COUNT(*) FROM games WHERE host_id = ?", (alice.id,)) == [(0,)]
    assert await rows("SELECT COUNT(*) FROM seats WHERE name = 'alice'") == [(0,)]
    assert await rows("SELECT name FROM seats WHERE seat = 0") == [(FORMER_PLAYER,)]
    assert await rows("SELECT COUNT(*) FROM open_hands WHERE user_id = ?", (alice.id,)) == [(0,)]
    store = await open_store(simcord_env.bot.settings, clock=discord_clock)  # type: ignore[attr-defined]
    try:
        assert await store.stats.player_stats(DEV_GUILD_ID, alice.id) is None
        stats = await store.stats.player_stats(DEV_GUILD_ID, bob.id)
        assert stats is not None and stats.games == 1 and stats.name == "bob"
    finally:
        await store.close()


async def test_forgetting_a_server_deletes_its_games_and_settings(
    simcord_env: simcord.Env,
    backend: Backend,
    tmp_path: Path,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    await _finished_game(simcord_env, guild, channel, alice)
    rows = backend.rows
    await rows("INSERT INTO guild_settings (guild_id, language) VALUES (?, 'de')", (DEV_GUILD_ID,))

    result = forget(backend, tmp_path, "--guild", str(DEV_GUILD_ID))

    assert result.returncode == 0, result.stderr
    assert "1 game(s) and 1 setting row(s)" in result.stdout
    for table in (
        "games",
        "seats",
        "events",
        "round_results",
        "game_results",
        "guild_settings",
        "open_hands",
        "seat_notes",
        "hints_shown",
    ):
        assert await rows(f"SELECT COUNT(*) FROM {table}") == [(0,)], table
    if backend.name == "sqlite":  # nor are the names still in the file's free pages
        for file in (Path(backend.target), Path(backend.target + "-wal")):
            if file.exists():
                assert b"alice" not in file.read_bytes() and b"bob" not in file.read_bytes()


def test_forget_without_a_database_deletes_nothing(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "forget", "--guild", "1")
    assert result.returncode == 2
    assert "nothing was deleted: there is no database" in result.stderr


async def schema_version(backend: Backend) -> int:
    if backend.name == "postgres":
        [(version,)] = await backend.rows("SELECT version FROM schema_version")
    else:
        [(version,)] = await backend.rows("PRAGMA user_version")
    return int(version)


async def test_forget_leaves_the_schema_of_an_older_bots_database_alone(
    backend: Backend, tmp_path: Path
) -> None:
    """A bot of the previous version may be running on it: forget must not migrate, and
    deletes nothing."""
    bundled = Path(str(bundled_migrations()))
    latest = len(load_migrations())
    older = tmp_path / "older"
    (older / "postgres").mkdir(parents=True)
    for migration in bundled.glob("**/*.sql"):
        if int(migration.name[:4]) < latest:
            shutil.copy(migration, older / migration.relative_to(bundled))
    store = await Store.open(backend.target, migrations=older)
    await store.close()
    await backend.rows("INSERT INTO guild_settings (guild_id, language) VALUES (1, 'de')")

    result = forget(backend, tmp_path, "--guild", "1")

    assert result.returncode == 2, result.stderr
    assert "nothing was deleted" in result.stderr
    assert f"schema version {latest - 1}, this bot expects {latest}" in result.stderr
    assert await schema_version(backend) == latest - 1
    assert await backend.rows("SELECT language FROM guild_settings") == [("de",)]


async def test_forget_on_a_postgresql_database_no_bot_set_up_creates_nothing(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    backend = Backend("postgres", await postgres_server.new_database())

    result = forget(backend, tmp_path, "--user", "1")

    assert result.returncode == 2, result.stderr
    assert "nothing was deleted" in result.stderr
    assert f"schema version 0, this bot expects {len(load_migrations())}" in result.stderr
    assert await backend.rows("SELECT to_regclass('schema_version'), to_regclass('games')") == [
        (None, None)
    ]
