"""The bot's logs never carry a secret: interaction and webhook tokens, the bot token."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot.__main__ as cli
from bot.config import Settings
from bot.logs import setup_logging
from tests.process.cli import CONFIG_VARS

BOT_TOKEN = "MTk4NjIyNDgzNDcxOTI1MjQ4.GaBcDe.b0t-t0k3n_abcdefghijklmnopqrstuvwxyz012"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OTpzM2NyM3Q" + "x" * 80
APP_ID = "1234567890123456789"
INTERACTION_ID = "1111111111111111111"


@pytest.fixture
def root_logging() -> Iterator[None]:
    """Put the root logger back as it was: main() installs its handler there."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)


def _log_what_discord_logs() -> None:
    http = logging.getLogger("discord.http")
    callback = (
        f"https://discord.com/api/v10/interactions/{INTERACTION_ID}/{INTERACTION_TOKEN}/callback"
    )
    followup = (
        f"https://discord.com/api/v10/webhooks/{APP_ID}/{INTERACTION_TOKEN}/messages/@original"
    )
    http.debug("%s %s with %s has returned %s", "POST", callback, None, 204)
    http.debug("%s %s has received %s", "PATCH", followup, {"id": "1"})
    http.warning("We are being rate limited. %s %s responded with 429.", "POST", followup)
    gateway = logging.getLogger("discord.gateway")
    event = {"t": "INTERACTION_CREATE", "d": {"id": INTERACTION_ID, "token": INTERACTION_TOKEN}}
    gateway.debug("For Shard ID %s: WebSocket Event: %s", 0, event)
    logging.getLogger("discord.client").debug("headers {'Authorization': 'Bot %s'}", BOT_TOKEN)
    try:
        raise RuntimeError(f"request to {followup} failed")
    except RuntimeError:
        logging.getLogger("bot.presenter").exception("Editing failed")


def test_debug_logs_of_a_running_bot_redact_every_token(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    root_logging: None,
) -> None:
    for name in CONFIG_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", BOT_TOKEN)
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")

    async def run(settings: Settings, *, sync_globally: bool) -> None:
        _log_what_discord_logs()

    monkeypatch.setattr(cli, "_run", run)
    assert cli.main([]) == 0
    logged = capsys.readouterr().err
    assert "WebSocket Event" in logged and "Editing failed" in logged
    assert "responded with 429" in logged and "Traceback" in logged
    for secret in (INTERACTION_TOKEN, INTERACTION_TOKEN[:20], BOT_TOKEN, BOT_TOKEN[-20:]):
        assert secret not in logged
    assert f"/interactions/{INTERACTION_ID}/" in logged  # the id stays, to follow a request
    assert f"/webhooks/{APP_ID}/" in logged


@pytest.mark.parametrize(
    "written",
    [
        "postgresql://lama:{password}@db.example:5432/lama",
        "postgresql://lama@db.example:5432/lama?password={password}",
        "postgresql://lama@db.example:5432/lama?sslmode=require&sslpassword={password}",
    ],
)
def test_the_database_password_never_reaches_the_logs(
    written: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    root_logging: None,
) -> None:
    """A traceback or a library's debug line may quote DATABASE_URL: its password is
    as secret as the bot token."""
    password = "s3cr3t-Pa55word"
    url = written.format(password=password)
    for name in CONFIG_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", BOT_TOKEN)
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")

    async def run(settings: Settings, *, sync_globally: bool) -> None:
        store = logging.getLogger("data.postgres")
        store.debug("connecting to %s", url)
        try:
            raise OSError(f"could not connect with dsn={url!r}")
        except OSError:
            store.exception("the store could not be opened")

    monkeypatch.setattr(cli, "_run", run)
    assert cli.main([]) == 0
    logged = capsys.readouterr().err
    assert "connecting to" in logged and "Traceback" in logged
    assert password not in logged
    assert "db.example" in logged  # where it went stays, to follow the failure


def _logged_through(handler: logging.Handler) -> None:
    setup_logging(logging.INFO, handler=handler)
    logging.getLogger("discord.client").info("logging in using static token")
    handler.flush()


def test_lines_to_a_file_carry_no_colour_codes(tmp_path: Path, root_logging: None) -> None:
    """Issue 42: discord.py colours its lines wherever it thinks it runs in Docker, so
    ``docker logs`` and log files showed escape codes."""
    path = tmp_path / "lama.log"
    with path.open("w", encoding="utf-8") as file:
        _logged_through(logging.StreamHandler(file))
    written = path.read_text(encoding="utf-8")
    assert "\x1b[" not in written
    assert re.fullmatch(
        r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] \[INFO    \] discord\.client: "
        r"logging in using static token\n",
        written,
    ), written


def test_lines_to_a_terminal_keep_discords_colours(root_logging: None) -> None:
    main, side = os.openpty()
    with open(side, "w", encoding="utf-8", closefd=True) as terminal:
        _logged_through(logging.StreamHandler(terminal))
    try:
        shown = os.read(main, 4096).decode()
    finally:
        os.close(main)
    assert "\x1b[" in shown and "logging in using static token" in shown
