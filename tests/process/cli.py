"""Runs ``python -m bot`` as a child process, with none of the lama-bot variables of
this environment, for the tests of the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

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
)


def run_bot(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in CONFIG_VARS}
    environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(REPO_ROOT), environ.get("PYTHONPATH", "")])
    )
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
