"""Settings parsing and the friendly failure modes of ``python -m bot``."""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

import discord
import pytest

import bot.__main__ as cli
from bot.config import ConfigError, Settings, token_id
from tests.process.cli import CONFIG_VARS, TOKEN, TOKEN_ID


def env(**values: str) -> dict[str, str]:
    return {"DISCORD_TOKEN": TOKEN, **values}


@pytest.fixture
def clean_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory and no lama-bot variables in ``os.environ``."""
    for name in CONFIG_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def assert_one_sentence(message: str) -> None:
    assert message.endswith(".")
    assert "\n" not in message
    # No sentence break inside: a full stop followed by a space and a capital letter.
    assert not re.search(r"\.\s+[A-Z]", message[:-1])


def test_defaults(clean_cwd: Path) -> None:
    settings = Settings.from_env(env())
    assert settings.token == TOKEN
    assert settings.database_path == Path("lama.db")
    assert settings.dev_guild_id is None
    assert settings.log_level == logging.INFO
    assert settings.turn_timer == 120


def test_all_values(clean_cwd: Path) -> None:
    settings = Settings.from_env(
        env(
            DATABASE_PATH="games/lama.sqlite",
            DEV_GUILD_ID="1100000000000000001",
            LOG_LEVEL="debug",
            DEFAULT_TURN_TIMER="0",
        )
    )
    assert settings.database_path == Path("games/lama.sqlite")
    assert settings.dev_guild_id == 1100000000000000001
    assert settings.log_level == logging.DEBUG
    assert settings.turn_timer == 0


def test_empty_optional_values_mean_default(clean_cwd: Path) -> None:
    settings = Settings.from_env(
        env(DATABASE_PATH="", DEV_GUILD_ID="", LOG_LEVEL=" ", DEFAULT_TURN_TIMER="")
    )
    assert settings == Settings(token=TOKEN)


def test_token_is_not_in_repr() -> None:
    assert "s3cret" not in repr(Settings(token="s3cret"))


def test_missing_token_explains_how_to_get_one(clean_cwd: Path) -> None:
    with pytest.raises(ConfigError) as info:
        Settings.from_env({})
    message = str(info.value)
    assert "DISCORD_TOKEN" in message
    assert "Developer Portal" in message
    assert "Reset Token" in message
    assert ".env" in message
    assert_one_sentence(message)


def test_missing_token_allowed_when_not_required(clean_cwd: Path) -> None:
    assert Settings.from_env({}, require_token=False).token == ""


@pytest.mark.parametrize("token", ["abc def", '"abc.def"', "'abc'", "Bot abc.def", "abc\n"])
def test_malformed_token(clean_cwd: Path, token: str) -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN") as info:
        Settings.from_env({"DISCORD_TOKEN": token})
    assert_one_sentence(str(info.value))


@pytest.mark.parametrize(
    "token",
    [
        "abc",  # issue 42: --check-config said OK
        "abc.def.ghi",  # three parts, but the first is no id
        "0123456789abcdef0123456789abcdef",  # the client secret, pasted instead
        "MTExMTExMTExMTExMTExMTEx.GaBcDe",  # two parts
        "MTExMTExMTExMTExMTExMTEx.GaBcDe.sig.more",  # four
        "MTExMTExMTExMTExMTExMTEx..sig",  # an empty part
        "MTExMTExMTExMTExMTExMTEx.GaB+De.sig",  # not base64url
        "MA.GaBcDe.signature",  # the id 0
        "bGxhbWE.GaBcDe.signature",  # "llama", not digits
    ],
)
def test_a_token_not_of_a_bot_tokens_form_is_refused(clean_cwd: Path, token: str) -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN is not a bot token") as info:
        Settings.from_env({"DISCORD_TOKEN": token})
    message = str(info.value)
    assert "Reset Token" in message and "client secret" in message
    assert token not in message
    assert_one_sentence(message)


def test_a_bot_tokens_first_part_is_its_id() -> None:
    assert token_id(TOKEN) == TOKEN_ID
    # Unpadded base64 of any length of digits, as Discord writes it.
    assert token_id("MTk4NjIyNDgzNDcxOTI1MjQ4.GaBcDe.x") == 198622483471925248
    assert token_id("NDE.x.y") == 41


def test_tools_that_need_no_token_take_any(clean_cwd: Path) -> None:
    """backup, forget, rerate … read the settings without the token: a wrong one there
    is the bot's business, not theirs."""
    assert Settings.from_env({"DISCORD_TOKEN": "abc"}, require_token=False).token == "abc"


@pytest.mark.parametrize("value", ["abc", "-5", "0", "12.5", "1e18", str(2**64)])
def test_malformed_dev_guild_id(clean_cwd: Path, value: str) -> None:
    with pytest.raises(ConfigError, match="DEV_GUILD_ID") as info:
        Settings.from_env(env(DEV_GUILD_ID=value))
    assert_one_sentence(str(info.value))


def test_bad_log_level(clean_cwd: Path) -> None:
    with pytest.raises(ConfigError, match="LOG_LEVEL") as info:
        Settings.from_env(env(LOG_LEVEL="loud"))
    assert "DEBUG" in str(info.value)
    assert_one_sentence(str(info.value))


@pytest.mark.parametrize("value", ["-1", "1", "14", "3601", "two minutes", "1.5"])
def test_bad_turn_timer(clean_cwd: Path, value: str) -> None:
    with pytest.raises(ConfigError, match="DEFAULT_TURN_TIMER") as info:
        Settings.from_env(env(DEFAULT_TURN_TIMER=value))
    assert_one_sentence(str(info.value))


def test_turn_timer_bounds(clean_cwd: Path) -> None:
    assert Settings.from_env(env(DEFAULT_TURN_TIMER="3600")).turn_timer == 3600
    assert Settings.from_env(env(DEFAULT_TURN_TIMER="15")).turn_timer == 15


def test_rest_budget(clean_cwd: Path) -> None:
    assert Settings.from_env(env()).rest_budget == 40.0
    assert Settings.from_env(env(REST_BUDGET="12.5")).rest_budget == 12.5


@pytest.mark.parametrize(
    ("value", "base"),
    [
        ("http://nirn-proxy:8080", "http://nirn-proxy:8080"),
        ("https://proxy.example.com/", "https://proxy.example.com"),
        ("http://127.0.0.1:9000", "http://127.0.0.1:9000"),
        ("http://[::1]:9000", "http://[::1]:9000"),
    ],
)
def test_api_base_takes_the_whole_rest_budget(clean_cwd: Path, value: str, base: str) -> None:
    assert Settings.from_env(env()).api_base is None
    settings = Settings.from_env(env(DISCORD_API_BASE=value))
    assert (settings.api_base, settings.rest_budget) == (base, 50.0)
    assert Settings.from_env(env(DISCORD_API_BASE=value, REST_BUDGET="30")).rest_budget == 30.0


@pytest.mark.parametrize(
    "value",
    [
        "nirn-proxy:8080",
        "ftp://proxy:8080",
        "http://proxy:8080/api/v10",
        "http://proxy:8080?x=1",
        "http://proxy:8080#top",
        "http://user:pw@proxy:8080",
        "http://proxy:99999",
        "http://proxy:0",
        "http://proxy 8080",
        "http://",
    ],
)
def test_bad_api_base(clean_cwd: Path, value: str) -> None:
    with pytest.raises(ConfigError, match="DISCORD_API_BASE") as info:
        Settings.from_env(env(DISCORD_API_BASE=value))
    assert_one_sentence(str(info.value))


@pytest.mark.parametrize("value", ["0", "51", "fast", "nan", "inf"])
def test_bad_rest_budget(clean_cwd: Path, value: str) -> None:
    with pytest.raises(ConfigError, match="REST_BUDGET") as info:
        Settings.from_env(env(REST_BUDGET=value))
    assert_one_sentence(str(info.value))


def test_database_path_must_not_be_a_directory(clean_cwd: Path) -> None:
    with pytest.raises(ConfigError, match="DATABASE_PATH"):
        Settings.from_env(env(DATABASE_PATH=str(clean_cwd)))


def test_env_file_is_loaded_without_overriding_real_env(
    clean_cwd: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (clean_cwd / ".env").write_text(
        f"# comment\nDISCORD_TOKEN={SECRET}\nexport LOG_LEVEL=warning\nDEFAULT_TURN_TIMER=30\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("DEFAULT_TURN_TIMER", "45")
    # load_dotenv writes into os.environ; let monkeypatch restore these afterwards.
    for name in ("DISCORD_TOKEN", "LOG_LEVEL"):
        monkeypatch.setenv(name, "placeholder")
        monkeypatch.delenv(name)

    settings = Settings.from_env()

    assert settings.token == SECRET
    assert settings.log_level == logging.WARNING
    assert settings.turn_timer == 45


def test_malformed_env_line_is_named(clean_cwd: Path) -> None:
    (clean_cwd / ".env").write_text(
        f"# lama-bot settings\nDISCORD_TOKEN={TOKEN}\nTHIS IS NOT VALID\n", encoding="utf-8"
    )
    with pytest.raises(ConfigError) as info:
        Settings.from_env()
    message = str(info.value)
    assert "Line 3" in message
    assert ".env" in message
    assert_one_sentence(message)
    assert "DISCORD_TOKEN" not in os.environ  # nothing was loaded from the broken file


def test_cli_rejected_token_exits_2(
    clean_cwd: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def rejected(settings: Settings, *, sync_globally: bool) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setattr(cli, "_run", rejected)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kwargs: None)
    with pytest.raises(SystemExit) as info:
        cli.main([])
    assert info.value.code == 2
    assert "DISCORD_TOKEN was rejected by Discord" in capsys.readouterr().err


def test_database_url_selects_postgresql(clean_cwd: Path) -> None:
    assert Settings.from_env(env()).database == "lama.db"
    url = "postgresql://lama:secret@db.example/lama"
    settings = Settings.from_env(env(DATABASE_URL=url))
    assert settings.database_url == settings.database == url
    assert "secret" not in repr(settings)


def test_a_database_url_that_is_not_postgresql(clean_cwd: Path) -> None:
    with pytest.raises(ConfigError, match="DATABASE_URL must be a PostgreSQL URL") as info:
        Settings.from_env(env(DATABASE_URL="mysql://root:hunter2@db/lama"))
    assert "hunter2" not in str(info.value)
    assert_one_sentence(str(info.value))


def test_shard_settings(clean_cwd: Path) -> None:
    settings = Settings.from_env(env(SHARD_COUNT="4", SHARD_IDS="3, 1"))
    assert settings.shard_count == 4 and settings.shard_ids == (1, 3)
    assert Settings.from_env(env()).shard_ids is None


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        ({"SHARD_COUNT": "2"}, "go together"),
        ({"SHARD_IDS": "0"}, "go together"),
        ({"SHARD_COUNT": "0", "SHARD_IDS": "0"}, "SHARD_COUNT must be a positive"),
        ({"SHARD_COUNT": "two", "SHARD_IDS": "0"}, "SHARD_COUNT must be a positive"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0;1"}, "separated by commas"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "distinct"),
    ],
)
def test_bad_shard_settings(clean_cwd: Path, values: dict[str, str], problem: str) -> None:
    with pytest.raises(ConfigError, match=problem) as info:
        Settings.from_env(env(**values))
    assert_one_sentence(str(info.value))


SECRET = "MTk4NjIyNDgzNDcxOTI1MjQ4.GaBcDe.s3cr3t-t0k3n-value_abcdefghij"


@pytest.mark.parametrize(
    ("line", "named"),
    [
        (f"DISCORD_TOKEN {SECRET}", None),  # the = forgotten
        (f"DISCORD_TOKEN='{SECRET}", "DISCORD_TOKEN"),  # a quote not closed
    ],
)
def test_an_unparsable_env_line_is_named_by_number_and_variable_never_echoed(
    clean_cwd: Path, line: str, named: str | None
) -> None:
    (clean_cwd / ".env").write_text(f"# settings\n{line}\nLOG_LEVEL=INFO\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        Settings.from_env()
    message = str(info.value)
    assert "Line 2" in message
    for piece in ("MTk4", "s3cr3t", "GaBcDe"):
        assert piece not in message
    if named is not None:
        assert named in message
    assert_one_sentence(message)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEV_GUILD_ID", "x" + SECRET),
        ("LOG_LEVEL", SECRET),
        ("DEFAULT_TURN_TIMER", SECRET),
        ("AI_WORKERS", SECRET),
        ("REST_BUDGET", SECRET),
        ("DATABASE_URL", f"mysql://{SECRET}"),
        ("SHARD_IDS", SECRET),
        ("DISCORD_API_BASE", f"http://proxy/{SECRET}"),
    ],
)
def test_a_bad_setting_is_named_and_its_value_never_echoed(
    clean_cwd: Path, name: str, value: str
) -> None:
    values = {"SHARD_COUNT": "2", "SHARD_IDS": "0"} if name.startswith("SHARD") else {}
    with pytest.raises(ConfigError, match=name) as info:
        Settings.from_env(env(**{**values, name: value}))
    for piece in ("MTk4", "s3cr3t", "GaBcDe"):
        assert piece not in str(info.value)


def test_metrics_and_log_format_settings(clean_cwd: Path) -> None:
    settings = Settings.from_env(env())
    assert (settings.metrics_port, settings.metrics_host, settings.log_format) == (
        None,
        "127.0.0.1",
        "text",
    )
    settings = Settings.from_env(
        env(METRICS_PORT="9108", METRICS_HOST="0.0.0.0", LOG_FORMAT="JSON")
    )
    assert (settings.metrics_port, settings.metrics_host, settings.log_format) == (
        9108,
        "0.0.0.0",
        "json",
    )
    assert Settings.from_env(env(METRICS_PORT="0")).metrics_port == 0


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("METRICS_PORT", "http"),
        ("METRICS_PORT", "-1"),
        ("METRICS_PORT", "65536"),
        ("METRICS_HOST", "every where"),
        ("METRICS_HOST", "host/path"),
        ("LOG_FORMAT", "yaml"),
    ],
)
def test_bad_metrics_or_log_format(clean_cwd: Path, name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name) as info:
        Settings.from_env(env(**{name: value}))
    assert_one_sentence(str(info.value))


def test_docs_url_is_the_link_of_lama_help(clean_cwd: Path) -> None:
    assert Settings.from_env(env()).docs_url is None
    assert Settings.from_env(env(DOCS_URL="")).docs_url is None
    url = "https://example.org/lama-bot/"
    assert Settings.from_env(env(DOCS_URL=f"  {url} ")).docs_url == url
    assert Settings.from_env(env(DOCS_URL="http://docs.local:8000")).docs_url == (
        "http://docs.local:8000"
    )


@pytest.mark.parametrize(
    "value", ["example.org/lama-bot", "ftp://example.org/", "https://", "https://exa mple.org/"]
)
def test_bad_docs_url(clean_cwd: Path, value: str) -> None:
    with pytest.raises(ConfigError, match="DOCS_URL") as info:
        Settings.from_env(env(DOCS_URL=value))
    assert_one_sentence(str(info.value))
