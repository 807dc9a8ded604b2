"""``python -m bot forget``: a server's data deleted, a person's id and name removed,
on SQLite and on PostgreSQL alike."""

from __future__ import annotations

import logging
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest
import pytest_asyncio
import simcord

from bot.client import discord_clock
from bot.config import Settings
from bot.service.play.table import Status
from bot.service.timing import Timing
from bot.startup import open_store
from data import EVERYTHING, Shards, Store
from data.records import FORMER_PLAYER
from data.schema import bundled_migrations, load_migrations
from game.ai import Strength
from testkit.service_game import ManualClock, ServiceGame, eventually, people
from testkit.simcord_play import one_move_from_the_end, take_simple_turn
from tests.data._helpers import Backend
from tests.pg import PostgresServer
from tests.process.cli import run_bot
from tests.simcord_fixtures import DEV_GUILD_ID

ANN, BOB = people("Ann", "Bob")
#: The trigger (and on PostgreSQL its function) that refuses a server's ratings.
REFUSE = "refuse_ratings"


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
        assert await store.stats.player_stats(DEV_GUILD_ID, alice.id, sight=EVERYTHING) is None
        stats = await store.stats.player_stats(DEV_GUILD_ID, bob.id, sight=EVERYTHING)
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


async def games_in(backend: Backend, guilds: Sequence[int]) -> None:
    """A finished game of Ann, Bob and a Normal AI in each of ``guilds``, rated as it
    finished."""
    clock = ManualClock()
    store = await Store.open(backend.target, durable=False, clock=clock)
    game = await ServiceGame.open(Path(), clock=clock, store=store, timing=Timing(ai_delay=0.0))
    try:
        for guild_id in guilds:
            table = await game.lobby([ANN, BOB], [Strength.NORMAL], guild_id=guild_id)
            await game.play_out(table)
            shown = ("changed", table.game_id, table.stamp)
            await eventually(lambda s=shown: s in game.listener.notices)  # type: ignore[misc]
    finally:
        await game.close()


async def refuse_ratings_of(backend: Backend, guild_id: int) -> None:
    """The database itself refuses to save the server's ratings, as a broken disk would."""
    if backend.name == "sqlite":
        await backend.rows(
            f"CREATE TRIGGER {REFUSE} BEFORE INSERT ON rated_games "
            f"WHEN NEW.guild_id = {guild_id} BEGIN SELECT RAISE(ABORT, 'disk on fire'); END"
        )
        return
    await backend.rows(
        f"CREATE FUNCTION {REFUSE}() RETURNS trigger LANGUAGE plpgsql "
        "AS $$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$"
    )
    await backend.rows(
        f"CREATE TRIGGER {REFUSE} BEFORE INSERT ON rated_games FOR EACH ROW "
        f"WHEN (NEW.guild_id = {guild_id}) EXECUTE FUNCTION {REFUSE}()"
    )


async def test_a_person_forgotten_whose_servers_cannot_be_rated_again_is_told_so(
    backend: Backend, tmp_path: Path
) -> None:
    """Bob is forgotten, the servers he played in are rated again, but one of them can't
    be (its ratings can't be saved): he is told he is forgotten, which server was not
    rated again and how to retry; the exit code says it was not all done."""
    await games_in(backend, [1, 2, 3])
    await refuse_ratings_of(backend, 2)

    result = forget(backend, tmp_path, "--user", str(BOB.id))

    assert result.returncode == 1, result.stderr
    assert f"Forgot user {BOB.id}: 3 seat(s) made anonymous" in result.stdout
    assert "Rated 2 game(s) in 2 server(s) again." in result.stdout
    said = " ".join(result.stderr.split())
    assert f"user {BOB.id} is forgotten, but server 2 could not be rated again" in said
    assert "disk on fire" in said
    assert "python -m bot rerate --guild 2" in said
    assert "nothing was deleted" not in said
    assert await backend.rows("SELECT COUNT(*) FROM seats WHERE user_id = ?", (BOB.id,)) == [(0,)]
    assert await backend.rows("SELECT DISTINCT guild_id FROM rated_games ORDER BY 1") == [
        (1,),
        (3,),
    ]

    # Once the database takes them again, the retry it named rates that server.
    await backend.rows(
        f"DROP TRIGGER {REFUSE}" + (" ON rated_games" if backend.name == "postgres" else "")
    )
    retry = run_bot(tmp_path, "rerate", "--guild", "2")
    assert retry.returncode == 0, retry.stderr
    assert "Rated 1 game(s) in 1 server(s)" in retry.stdout


@pytest.mark.parametrize("whom", ["--user", "--guild"])
async def test_forget_beside_a_running_bot_refuses_and_deletes_nothing(
    simcord_env: simcord.Env,
    backend: Backend,
    tmp_path: Path,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    whom: str,
) -> None:
    # A running bot holds its tables in memory: it would write Alice's id and name back
    # with its next seat change, so "forgotten" would be a lie. (SimCord's bot keeps its
    # lease in SimCord's time; the bot beside is a store holding one in the real time.)
    await _finished_game(simcord_env, guild, channel, alice)
    rows = backend.rows
    seated = "SELECT COUNT(*) FROM seats WHERE user_id = ?"
    assert await rows(seated, (alice.id,)) == [(1,)]
    running = await Store.open(backend.target, durable=False)
    try:
        await running.leases.claim_shards(Shards())  # as a running bot does at its start
        target = alice.id if whom == "--user" else DEV_GUILD_ID
        result = forget(backend, tmp_path, whom, str(target))
    finally:
        await running.close()

    assert result.returncode != 0, result.stdout
    assert "nothing was deleted" in result.stderr and "bot is running" in result.stderr
    assert result.stderr.count("\n") == 1, "one line"
    assert await rows(seated, (alice.id,)) == [(1,)]

    again = forget(backend, tmp_path, whom, str(target))
    assert again.returncode == 0, f"once it stopped: {again.stderr}"
    assert await rows(seated, (alice.id,)) == [(0,)]
