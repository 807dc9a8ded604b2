"""The image's health check asks the /healthz the bot really serves (issue 42: with the
README's ``docker run --env-file .env``, ``.env.example``'s empty ``METRICS_PORT=``
overrode the image's 9108 and the check asked ``127.0.0.1:``, refused: unhealthy).

No Docker here: the container's environment is made as Docker makes it, from the
Dockerfile's ``ENV`` lines and the env file's, and the check runs as the image runs it.
"""

from __future__ import annotations

import shlex
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import yaml

from bot.config import Settings
from bot.healthcheck import check, health_url
from bot.metrics import BotMetrics
from bot.monitor import Monitor
from tests.process.cli import CONFIG_VARS, REPO_ROOT
from tests.process.fake_discord import Ran, run_bot_beside


def image_env() -> dict[str, str]:
    """The Dockerfile's ``ENV`` variables (``ENV A=1 \\`` continued lines joined)."""
    text = (REPO_ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    found: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("ENV "):
            for pair in shlex.split(line.removeprefix("ENV ")):
                name, _, value = pair.partition("=")
                found[name] = value
    return found


def env_file(path: Path) -> dict[str, str]:
    """What ``docker run --env-file`` sets: each ``NAME=value`` line as written (no
    quotes taken off, an empty value set empty); comments, blank lines and bare names
    (the host's value, none here) left out."""
    found: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.lstrip()
        if line and not line.startswith("#") and "=" in line:
            name, _, value = line.partition("=")
            found[name] = value
    return found


def compose_env(service: str) -> dict[str, str]:
    """A compose service's own ``environment:`` (it wins over its env_file)."""
    compose = yaml.safe_load((REPO_ROOT / "deploy" / "compose.yaml").read_text(encoding="utf-8"))
    return {k: str(v) for k, v in compose["services"][service].get("environment", {}).items()}


def test_the_readmes_docker_run_with_the_shipped_env_example_asks_port_9108() -> None:
    """``docker run --env-file .env`` with ``.env`` copied from ``.env.example``."""
    container = {**image_env(), **env_file(REPO_ROOT / ".env.example")}
    settings = Settings.from_env(container, require_token=False)
    assert settings.metrics_port == 9108 and settings.metrics_host == "0.0.0.0"
    assert health_url(settings) == "http://127.0.0.1:9108/healthz"


def test_compose_with_the_shipped_env_example_asks_port_9108() -> None:
    container = {
        **image_env(),
        **env_file(REPO_ROOT / ".env.example"),
        **compose_env("lama-bot"),
    }
    settings = Settings.from_env(container, require_token=False)
    assert health_url(settings) == "http://127.0.0.1:9108/healthz"


def test_the_image_runs_this_check() -> None:
    dockerfile = (REPO_ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert 'CMD ["python", "-m", "bot.healthcheck"]' in dockerfile
    assert "urllib" not in dockerfile  # the old one-liner, which read METRICS_PORT itself


@pytest.mark.parametrize(
    ("host", "asked"),
    [
        ("0.0.0.0", "127.0.0.1"),
        ("127.0.0.1", "127.0.0.1"),
        ("10.1.2.3", "10.1.2.3"),
        ("::", "[::1]"),
        ("::1", "[::1]"),
    ],
)
def test_the_check_asks_where_the_bot_listens(host: str, asked: str) -> None:
    settings = Settings(token="", metrics_port=9108, metrics_host=host)
    assert health_url(settings) == f"http://{asked}:9108/healthz"


@pytest.mark.parametrize(("port", "why"), [(None, "is empty"), (0, "is 0 (any free port)")])
def test_without_a_port_to_ask_it_says_nothing_is_checked(port: int | None, why: str) -> None:
    code, line = check(Settings(token="", metrics_port=port))
    assert code == 0
    assert line.startswith(f"not checked: METRICS_PORT {why}, so the bot serves no /healthz")


@asynccontextmanager
async def bot_health(reason: str | None) -> AsyncIterator[int]:
    """The bot's own /healthz server on a free port, its check answering ``reason``."""

    async def health() -> str | None:
        return reason

    monitor = Monitor(BotMetrics(), health)
    await monitor.start("0.0.0.0", 0)
    assert monitor.port is not None
    try:
        yield monitor.port
    finally:
        await monitor.close()


async def run_check(folder: Path, **settings: str) -> Ran:
    """``python -m bot.healthcheck`` as the image runs it, the settings in ``.env``."""
    assert set(settings) <= set(CONFIG_VARS)
    lines = [f"{name}={value}" for name, value in settings.items()]
    (folder / ".env").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return await run_bot_beside(folder, module="bot.healthcheck")


async def test_a_healthy_bot_passes(tmp_path: Path) -> None:
    async with bot_health(None) as port:
        ran = await run_check(tmp_path, METRICS_PORT=str(port), METRICS_HOST="0.0.0.0")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == f"healthy: http://127.0.0.1:{port}/healthz says ok"


async def test_an_unhealthy_bot_fails_with_its_reason(tmp_path: Path) -> None:
    async with bot_health("the gateway is not connected") as port:
        ran = await run_check(tmp_path, METRICS_PORT=str(port))
    assert ran.returncode == 1
    assert ran.stderr.strip() == (
        f"unhealthy: http://127.0.0.1:{port}/healthz answered 503: the gateway is not connected"
    )


async def test_no_bot_listening_fails(tmp_path: Path) -> None:
    async with bot_health(None) as port:
        pass  # closed: nothing listens there now
    ran = await run_check(tmp_path, METRICS_PORT=str(port))
    assert ran.returncode == 1
    assert ran.stderr.startswith(f"unhealthy: nothing answers at http://127.0.0.1:{port}/healthz")


async def test_settings_the_bot_refuses_fail(tmp_path: Path) -> None:
    ran = await run_check(tmp_path, METRICS_PORT="ninety")
    assert ran.returncode == 1
    assert ran.stderr.startswith("unhealthy: the bot cannot start with these settings: ")
    assert "METRICS_PORT must be a TCP port number" in ran.stderr


async def test_the_command_line_has_it_too(tmp_path: Path) -> None:
    ran = await run_bot_beside(tmp_path, "healthcheck")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("not checked: METRICS_PORT is empty")
