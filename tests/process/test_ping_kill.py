"""A bot killed while its last turn ping is being taken down: the restarted bot takes
it down, whatever moment the process died at."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import simcord

from bot.config import Settings

from .bot_process import populate, settings_for
from .common import killed_at


@pytest.fixture
def killed(tmp_path: Path) -> tuple[int, int]:
    """Run ``ping_process`` until it asks Discord to take its ping down, then SIGKILL it;
    the channel's and the ping's ids."""
    path = tmp_path / "lama.db"
    lines = killed_at("tests.process.ping_process", [str(path)], tmp_path / "ping.log", "DELETING")
    [ids] = [words for words in lines if words[0] == "IDS"]
    [ping] = [words for words in lines if words[0] == "PING"]
    assert lines[-1] == ["DELETING", ping[1]]
    return int(ids[2]), int(ping[1])


@pytest.fixture
def before_start() -> Callable[[simcord.Env], object]:
    """The killed process's channel and players are there, as on Discord."""
    return populate


@pytest.fixture
def settings(tmp_path: Path, killed: tuple[int, int]) -> Settings:
    """The bot under test starts on the killed process's database."""
    return settings_for(tmp_path / "lama.db")


async def test_a_ping_whose_deletion_the_bot_died_in_is_taken_down_after_a_restart(
    killed: tuple[int, int], simcord_env: simcord.Env
) -> None:
    """Its game ended with the move before: only a stored ping can say it stands."""
    channel_id, ping_id = killed
    await simcord_env.settle()
    deleted = [
        r.path
        for r in simcord_env.http_requests
        if r.method == "DELETE" and r.path == f"/channels/{channel_id}/messages/{ping_id}"
    ]
    assert deleted, "the restarted bot left the killed one's turn ping standing"
