"""Start-up failures are one line and exit code 2; resumed games wait for the gateway."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import discord
import pytest
import simcord

import bot.__main__ as cli
from bot.client import LamaBot
from bot.config import Settings
from bot.startup import StartupError
from testkit.simcord_play import open_lobby, started_game, table_message
from tests.pg import PostgresServer
from tests.process.cli import CONFIG_VARS, REPO_ROOT, TOKEN, run_bot
from tests.process.common import restart, running
from tests.simcord_fixtures import DEV_GUILD_ID, DEV_GUILD_NAME


def assert_one_line_exit_2(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("lama-bot: "), result.stderr
    for needle in needles:
        assert needle in last, last


def write_env(folder: Path, **values: str) -> None:
    """A .env of ``values`` and a token; Discord out of reach (a REST proxy that is not
    there), so that --check-config says the token was not checked on any machine."""
    unreachable = f"http://127.0.0.1:{closed_port()}"
    settings = {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": unreachable, **values}
    lines = [f"{k}={v}" for k, v in settings.items()]
    (folder / ".env").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("args", [(), ("--check-config",)])
def test_a_database_in_a_missing_folder_stops_the_bot_before_it_logs_in(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    write_env(tmp_path, DATABASE_PATH="nowhere/lama.db")
    result = run_bot(tmp_path, *args)
    assert_one_line_exit_2(result, "DATABASE_PATH", "does not exist")
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("args", [(), ("--check-config",)])
def test_a_file_that_is_not_a_database_stops_the_bot(tmp_path: Path, args: tuple[str, ...]) -> None:
    (tmp_path / "notes.txt").write_text("shopping list\n" * 200, encoding="utf-8")
    write_env(tmp_path, DATABASE_PATH="notes.txt")
    result = run_bot(tmp_path, *args)
    assert_one_line_exit_2(result, "notes.txt", "not an SQLite database")
    assert len(result.stderr.strip().splitlines()) == 1
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "shopping list\n" * 200


def _read_only_run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` with ``folder`` mounted read-only (a private mount namespace)."""
    environ = {k: v for k, v in os.environ.items() if k not in CONFIG_VARS}
    environ["PYTHONPATH"] = str(REPO_ROOT)
    script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
    return subprocess.run(
        ["unshare", "--mount", "sh", "-c", script, "sh", str(folder)]
        + [sys.executable, "-m", "bot", *args],
        cwd=folder,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


needs_root_mounts = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None,
    reason="a read-only bind mount needs root and unshare",
)


@needs_root_mounts
@pytest.mark.parametrize("existing", [False, True])
def test_a_database_in_a_read_only_folder_stops_the_bot(tmp_path: Path, existing: bool) -> None:
    write_env(tmp_path)
    if existing:
        assert run_bot(tmp_path, "--check-config").returncode == 0
        import sqlite3

        sqlite3.connect(tmp_path / "lama.db").close()
    for args in ((), ("--check-config",)):
        result = _read_only_run(tmp_path, *args)
        assert_one_line_exit_2(result, "cannot write to")
        assert len(result.stderr.strip().splitlines()) == 1


def test_check_config_says_the_database_can_be_written(tmp_path: Path) -> None:
    write_env(tmp_path, DATABASE_PATH="data/lama.db")
    (tmp_path / "data").mkdir()
    result = run_bot(tmp_path, "--check-config")
    assert result.returncode == 0, result.stderr
    assert "can be opened and written" in result.stdout
    assert list((tmp_path / "data").iterdir()) == [], "checking creates no file"


def closed_port() -> int:
    """A local port nobody listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("args", [(), ("--check-config",)])
def test_an_unreachable_postgresql_stops_the_bot_in_one_line(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    port = closed_port()
    write_env(tmp_path, DATABASE_URL=f"postgresql://lama:secret@127.0.0.1:{port}/lama")
    result = run_bot(tmp_path, *args)
    where = f"postgresql://lama:***@127.0.0.1:{port}/lama"
    assert_one_line_exit_2(result, f"could not connect to PostgreSQL at {where}: ")
    assert len(result.stderr.strip().splitlines()) == 1
    assert "secret" not in result.stderr + result.stdout


@pytest.mark.parametrize(
    "query", ["password=secret", "sslmode=disable&password=secret", "sslpassword=secret"]
)
def test_a_password_given_in_the_urls_query_is_not_shown_either(tmp_path: Path, query: str) -> None:
    # libpq and asyncpg take the password from the query as well as before the host.
    port = closed_port()
    write_env(tmp_path, DATABASE_URL=f"postgresql://lama@127.0.0.1:{port}/lama?{query}")
    result = run_bot(tmp_path)
    assert_one_line_exit_2(result, "could not connect to PostgreSQL at postgresql://lama@")
    assert "secret" not in result.stderr + result.stdout


@pytest.mark.parametrize("args", [(), ("--check-config",)])
def test_a_wrong_postgresql_password_stops_the_bot_in_one_line(
    tmp_path: Path, postgres_server: PostgresServer, args: tuple[str, ...]
) -> None:
    write_env(tmp_path, DATABASE_URL=postgres_server.url(password="not-the-password"))
    result = run_bot(tmp_path, *args)
    assert_one_line_exit_2(result, "could not connect to PostgreSQL", "password authentication")
    assert len(result.stderr.strip().splitlines()) == 1
    assert "not-the-password" not in result.stderr + result.stdout


def test_check_config_says_postgresql_can_be_reached(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    write_env(tmp_path, DATABASE_URL=postgres_server.url())
    result = run_bot(tmp_path, "--check-config")
    assert result.returncode == 0, result.stderr
    assert "(can be reached)" in result.stdout


def test_a_network_that_never_answers_is_a_one_line_timeout(tmp_path: Path) -> None:
    # A server that accepts connections and never says a word.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        write_env(tmp_path)
        environ = {k: v for k, v in os.environ.items() if k not in CONFIG_VARS}
        environ["PYTHONPATH"] = str(REPO_ROOT)
        environ["DISCORD_API_BASE"] = f"http://127.0.0.1:{port}"  # where the REST calls go
        launcher = "import sys, bot.__main__ as m; m.CONNECT_TIMEOUT = 2.0; sys.exit(m.main([]))"
        result = subprocess.run(
            [sys.executable, "-c", launcher],
            cwd=tmp_path,
            env=environ,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert_one_line_exit_2(
        result, f"the REST proxy DISCORD_API_BASE=http://127.0.0.1:{port} did not answer within 2"
    )


def _fail_with(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> None:
    async def failing(settings: Settings, *, sync_globally: bool) -> None:
        raise error

    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setattr(cli, "_run", failing)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kwargs: None)


def test_discord_asking_for_sharding_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Socket:
        close_code = cli.SHARDING_REQUIRED

    monkeypatch.chdir(tmp_path)
    for name in CONFIG_VARS:
        monkeypatch.delenv(name, raising=False)
    _fail_with(monkeypatch, discord.ConnectionClosed(Socket(), shard_id=None))  # type: ignore[arg-type]
    with pytest.raises(SystemExit) as info:
        cli.main([])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "connect in shards" in err and "SHARD_COUNT" in err
    assert len(err.strip().splitlines()) == 1


def test_an_empty_timeout_still_says_what_happened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in CONFIG_VARS:
        monkeypatch.delenv(name, raising=False)
    _fail_with(monkeypatch, TimeoutError())
    with pytest.raises(SystemExit) as info:
        cli.main([])
    assert info.value.code == 2
    assert "could not reach Discord (TimeoutError)" in capsys.readouterr().err


def test_a_proxy_that_cannot_be_reached_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in CONFIG_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_API_BASE", "http://nirn-proxy:8080")
    _fail_with(monkeypatch, TimeoutError())
    with pytest.raises(SystemExit) as info:
        cli.main([])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "could not reach the REST proxy DISCORD_API_BASE=http://nirn-proxy:8080" in err
    assert len(err.strip().splitlines()) == 1


async def test_a_dev_guild_the_bot_is_not_in_stops_it_before_any_game_is_resumed(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel)
    await alice.select(table_message(channel), ["normal"])
    await alice.click(table_message(channel), label="Start")
    await simcord_env.shutdown()
    await simcord_env.bot.close()

    wrong = Settings(
        token="test-token", database_path=settings.database_path, dev_guild_id=DEV_GUILD_ID + 1
    )
    lama = LamaBot(wrong)
    env = simcord.Env(lama)
    env.create_guild(DEV_GUILD_NAME, id=DEV_GUILD_ID)
    with pytest.raises(StartupError, match=f"DEV_GUILD_ID is {DEV_GUILD_ID + 1}") as info:
        await env.start()
    assert "\n" not in str(info.value)
    assert lama.service.registry.table(table.game_id) is None, "the game was resumed"
    posted = [r for r in env.http_requests if r.method in ("POST", "PATCH")]
    assert not [r for r in posted if "/channels/" in r.path], "somebody was pinged"
    await lama.close()


async def test_resumed_games_are_shown_only_once_the_gateway_is_connected(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await started_game(simcord_env, alice, [bob], channel)
    transcript = simcord_env.backend.transcript
    cursor = len(transcript)

    await restart(simcord_env, settings)
    await simcord_env.advance_time(1)

    assert running(simcord_env, table.game_id)
    after = transcript[cursor:]
    # SimCord's transcript leaves READY out; the guild arrives right after it.
    ready = next(
        i
        for i, (kind, name, _) in enumerate(after)
        if kind == "GATEWAY" and name in ("READY", "GUILD_CREATE")
    )
    shown = [
        i
        for i, (kind, name, _) in enumerate(after)
        if kind == "HTTP" and f"/channels/{channel.id}/messages" in name
    ]
    assert shown, "the resumed game was not shown"
    assert min(shown) > ready, "a resumed table went out before the gateway was connected"


async def test_sync_publishes_globally_even_with_a_dev_guild(settings: Settings) -> None:
    lama = LamaBot(settings, sync_globally=True)
    env = simcord.Env(lama)
    env.create_guild(DEV_GUILD_NAME, id=DEV_GUILD_ID)
    await env.start()
    try:
        puts = [r.path for r in env.http_requests if r.method == "PUT"]
        assert any(p.endswith("/commands") and "/guilds/" not in p for p in puts), puts
    finally:
        await env.shutdown()
        await lama.close()


def test_an_sqlite_too_old_for_the_store_stops_the_bot_in_one_line(tmp_path: Path) -> None:
    """The store's queries use ``RETURNING`` (SQLite 3.35): on an older SQLite
    (Debian bullseye has 3.34, Ubuntu 20.04 3.31) the first game would fail.
    The bot says so before it logs in, and creates no database."""
    write_env(tmp_path, DATABASE_PATH="lama.db")
    environ = {k: v for k, v in os.environ.items() if k not in CONFIG_VARS}
    environ["PYTHONPATH"] = str(REPO_ROOT)
    old_sqlite = (
        "import runpy, sqlite3; sqlite3.sqlite_version_info = (3, 34, 1); "
        "sqlite3.sqlite_version = '3.34.1'; runpy.run_module('bot', run_name='__main__')"
    )
    result = subprocess.run(
        [sys.executable, "-c", old_sqlite, "--check-config"],
        cwd=tmp_path,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert_one_line_exit_2(result, "SQLite 3.35", "3.34.1", "DATABASE_URL")
    assert not (tmp_path / "lama.db").exists()
