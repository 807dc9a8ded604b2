"""Runs ``python -m bot`` as a child process, with none of the lama-bot variables of
this environment, for the tests of the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

#: The id a test bot token names: the bot's user id, and its application's.
TOKEN_ID = 111111111111111111
#: A bot token of the real form (its first part is TOKEN_ID in base64), signed by nobody.
TOKEN = "MTExMTExMTExMTExMTExMTEx.GaBcDe.n0t-a-r3al_s1gnature-0123456789abcdefgh"

CONFIG_VARS = (
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "DATABASE_URL",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "DEFAULT_TURN_TIMER",
    "SHARD_COUNT",
    "SHARD_IDS",
    "DISCORD_API_BASE",
    "REST_BUDGET",
    "METRICS_PORT",
    "METRICS_HOST",
    "LOG_FORMAT",
    "DOCS_URL",
)


def bot_environ() -> dict[str, str]:
    """This environment without its lama-bot variables, this checkout first on the path."""
    environ = {k: v for k, v in os.environ.items() if k not in CONFIG_VARS}
    environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(REPO_ROOT), environ.get("PYTHONPATH", "")])
    )
    return environ


def run_bot(
    cwd: Path, *args: str, wrap: Callable[..., Sequence[str]] = lambda *c: c
) -> subprocess.CompletedProcess[str]:
    """``python -m bot *args`` in ``cwd``; ``wrap`` makes the command line (e.g. in a
    namespace)."""
    return subprocess.run(
        wrap(sys.executable, "-m", "bot", *args),
        cwd=cwd,
        env=bot_environ(),
        capture_output=True,
        text=True,
        timeout=60,
    )
