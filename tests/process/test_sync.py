"""``python -m bot sync`` as a host runs it: from the settings of ``.env``, beside the running
bot, publishing the commands and exiting (issue 42: ``--sync`` started a second bot, which
the running one's shard lease refused)."""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
from pathlib import Path

from tests.process.cli import REPO_ROOT, TOKEN
from tests.process.common import rows
from tests.process.fake_discord import COMMANDS, RUN_TIMEOUT, fake_discord, run_bot_beside


async def test_sync_publishes_the_commands_and_exits_beside_a_running_bot(
    tmp_path: Path,
) -> None:
    database = tmp_path / "lama.db"
    # The running bot: in SimCord, playing a game on this database, holding its shard lease.
    serving = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.process.serve_process",
        str(database),
        cwd=REPO_ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert serving.stdout is not None
    try:
        said: list[str] = []
        while not said or said[-1] != "READY":
            line = await asyncio.wait_for(serving.stdout.readline(), RUN_TIMEOUT)
            assert line, "the running bot ended before it was ready"
            said.append(line.decode().strip())
        lease = "SELECT shard_id, pid FROM shard_leases"
        assert rows(database, lease) == [(0, serving.pid)]  # what refused a second bot

        # The running bot's metrics port, taken: the sync serves none.
        with socket.create_server(("127.0.0.1", 0)) as metrics:
            port = metrics.getsockname()[1]
            async with fake_discord() as discord:
                (tmp_path / ".env").write_text(
                    f"DISCORD_TOKEN={TOKEN}\nDATABASE_PATH={database}\n"
                    f"DISCORD_API_BASE={discord.base}\nMETRICS_PORT={port}\n",
                    encoding="utf-8",
                )
                synced = await run_bot_beside(tmp_path, "sync")
        assert synced.returncode == 0, synced.stderr
        assert synced.stdout.startswith("Published the slash commands /lama-about, /lama to ")
        assert "Traceback" not in synced.stderr
        # Its log lines, to a pipe as in `docker logs`: discord.py's, without colour codes.
        assert "] [INFO    ] discord.client: logging in using static token" in synced.stderr
        assert "\x1b[" not in synced.stderr
        assert discord.calls == [
            "GET /api/v10/users/@me",
            "GET /api/v10/oauth2/applications/@me",
            f"PUT {COMMANDS}",
        ]
        [published] = discord.published
        assert sorted(command["name"] for command in published) == ["lama", "lama-about"]

        # The running bot served on all along: its lease was never taken from it.
        assert rows(database, lease) == [(0, serving.pid)]
        serving.send_signal(signal.SIGTERM)
        rest, _ = await asyncio.wait_for(serving.communicate(), RUN_TIMEOUT)
        assert rest.decode().split() == ["STOPPED", "SIGTERM", "True"]
        assert serving.returncode == 0
    finally:
        if serving.returncode is None:
            serving.kill()
            await serving.wait()


async def test_sync_needs_the_token(tmp_path: Path) -> None:
    result = await run_bot_beside(tmp_path, "sync")
    assert result.returncode == 2
    assert result.stderr.startswith("lama-bot: DISCORD_TOKEN is not set")
    assert len(result.stderr.strip().splitlines()) == 1


async def test_sync_says_when_discord_refuses_the_token(tmp_path: Path) -> None:
    async with fake_discord("401") as discord:
        (tmp_path / ".env").write_text(
            f"DISCORD_TOKEN={TOKEN}\nDISCORD_API_BASE={discord.base}\n", encoding="utf-8"
        )
        result = await run_bot_beside(tmp_path, "sync")
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        .splitlines()[-1]
        .startswith("lama-bot: DISCORD_TOKEN was rejected by Discord")
    )
    assert not (tmp_path / "lama.db").exists()
