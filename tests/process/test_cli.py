"""``python -m bot`` as a process: friendly failures, exit codes and --check-config."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.process.cli import TOKEN, TOKEN_ID, run_bot
from tests.process.fake_discord import FakeDiscord, Ran, fake_discord, run_bot_beside


def test_cli_without_token_exits_2_without_traceback(tmp_path: Path) -> None:
    result = run_bot(tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr
    assert "Developer Portal" in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_cli_malformed_env_file_exits_2(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nTHIS IS NOT VALID\n", encoding="utf-8")
    result = run_bot(tmp_path, "--check-config")
    assert result.returncode == 2
    assert "Line 2" in result.stderr
    assert "Traceback" not in result.stderr


def offline(*command: str) -> tuple[str, ...]:
    """``command`` in a network namespace of its own: no network, no DNS, as on a
    machine that cannot reach Discord (the tests must not depend on this one's)."""
    return ("unshare", "--net", *command)


needs_unshare = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None,
    reason="a network namespace of its own needs root and unshare",
)


@needs_unshare
def test_cli_check_config_ok_says_the_token_was_not_checked_without_a_network(
    tmp_path: Path,
) -> None:
    """Issue 42: --check-config said OK to any token and never said it was not checked."""
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nDEV_GUILD_ID=42\n", encoding="utf-8")
    result = run_bot(tmp_path, "--check-config", wrap=offline)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(
        "Configuration OK: token NOT checked with Discord (Discord could not be reached: "
    )
    assert f"for the bot with id {TOKEN_ID})" in result.stdout
    assert "REST 40/s to Discord," in result.stdout
    assert TOKEN not in result.stdout


@pytest.mark.parametrize("token", ["abc", "abc.def.ghi", "0123456789abcdef0123456789abcdef"])
def test_cli_check_config_refuses_what_is_no_bot_token(tmp_path: Path, token: str) -> None:
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={token}\n", encoding="utf-8")
    result = run_bot(tmp_path, "--check-config")
    assert result.returncode == 2
    assert result.stderr.startswith("lama-bot: DISCORD_TOKEN is not a bot token")
    assert token not in result.stderr and not result.stdout
    assert len(result.stderr.strip().splitlines()) == 1


async def check_config_against(tmp_path: Path, fake: FakeDiscord, *lines: str) -> Ran:
    settings = [f"DISCORD_TOKEN={TOKEN}", f"DISCORD_API_BASE={fake.base}", *lines]
    (tmp_path / ".env").write_text("\n".join(settings) + "\n", encoding="utf-8")
    return await run_bot_beside(tmp_path, "--check-config")


async def test_cli_check_config_asks_discord_about_the_token(tmp_path: Path) -> None:
    async with fake_discord("ok") as fake:
        result = await check_config_against(tmp_path, fake, "SHARD_COUNT=4", "SHARD_IDS=3,2")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(
        f"Configuration OK: token accepted by Discord for the bot lama (id {TOKEN_ID}), "
    )
    assert f"REST 50/s through {fake.base}," in result.stdout  # the proxy setting is heeded
    assert "shards 2,3 of 4." in result.stdout
    assert fake.calls == ["GET /api/v10/users/@me"]
    assert TOKEN not in result.stdout


async def test_cli_check_config_refuses_a_token_discord_refuses(tmp_path: Path) -> None:
    async with fake_discord("401") as fake:
        result = await check_config_against(tmp_path, fake)
    assert result.returncode == 2
    assert result.stderr.startswith("lama-bot: DISCORD_TOKEN was rejected by Discord; reset")
    assert not result.stdout and len(result.stderr.strip().splitlines()) == 1


async def test_cli_check_config_says_plainly_what_kept_discord_from_answering(
    tmp_path: Path,
) -> None:
    async with fake_discord("503") as fake:
        result = await check_config_against(tmp_path, fake)
    assert result.returncode == 0, result.stderr
    assert (
        f"token NOT checked with Discord (the REST proxy DISCORD_API_BASE={fake.base} "
        "answered 503 Service Unavailable;" in result.stdout
    )


async def test_cli_check_config_says_so_when_nothing_answers_in_time(tmp_path: Path) -> None:
    # The check's 10 seconds made short: the wait is what is tested, not its length.
    short = (
        "import sys, bot.check_config as t, bot.__main__ as m; t.CHECK_TIMEOUT = 0.5; "
        "sys.exit(m.main())"
    )
    async with fake_discord("hang") as fake:
        (tmp_path / ".env").write_text(
            f"DISCORD_TOKEN={TOKEN}\nDISCORD_API_BASE={fake.base}\n", encoding="utf-8"
        )
        result = await run_bot_beside(tmp_path, "--check-config", launcher=short)
    assert result.returncode == 0, result.stderr
    assert (
        f"token NOT checked with Discord (the REST proxy DISCORD_API_BASE={fake.base} did "
        "not answer within 0.5 seconds;" in result.stdout
    )


async def test_cli_check_config_says_so_when_the_proxy_is_not_there(tmp_path: Path) -> None:
    async with fake_discord("ok") as fake:
        pass  # stopped: its port refuses connections now
    result = await check_config_against(tmp_path, fake)
    assert result.returncode == 0, result.stderr
    assert (
        f"token NOT checked with Discord (the REST proxy DISCORD_API_BASE={fake.base} could "
        "not be reached: " in result.stdout
    )
