"""``python -m bot`` as a process: friendly failures, exit codes and --check-config."""

from __future__ import annotations

from pathlib import Path

from tests.process.cli import run_bot


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


def test_cli_check_config_ok(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc.def.ghi\nDEV_GUILD_ID=42\n", encoding="utf-8")
    result = run_bot(tmp_path, "--check-config")
    assert result.returncode == 0, result.stderr
    assert "Configuration OK" in result.stdout
    assert "REST 40/s to Discord," in result.stdout
    assert "abc.def.ghi" not in result.stdout


def test_cli_check_config_names_the_rest_proxy(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=abc.def.ghi\nDISCORD_API_BASE=http://nirn-proxy:8080/\n", encoding="utf-8"
    )
    result = run_bot(tmp_path, "--check-config")
    assert result.returncode == 0, result.stderr
    assert "REST 50/s through http://nirn-proxy:8080," in result.stdout


def test_cli_check_config_names_the_shards(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=abc.def.ghi\nSHARD_COUNT=4\nSHARD_IDS=3,2\n", encoding="utf-8"
    )
    result = run_bot(tmp_path, "--check-config")
    assert result.returncode == 0, result.stderr
    assert "shards 2,3 of 4." in result.stdout
