"""Two bot processes, one shard each, on one database: each plays and resumes its own games.

Every process runs in its own SimCord (see ``shard_process.py``); they share
only the database, SQLite or a real PostgreSQL, as processes of one bot would.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from data.shards import _host
from tests.data._helpers import Backend
from tests.pg import PostgresServer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "postgres":
        server: PostgresServer = request.getfixturevalue("postgres_server")
        return Backend("postgres", await server.new_database())
    return Backend("sqlite", str(tmp_path / "lama.db"))


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for child in started:
        if child.poll() is None:
            child.kill()
        child.communicate(timeout=30)


def start(
    processes: list[subprocess.Popen[str]], database: Backend, shard: int, mode: str
) -> tuple[subprocess.Popen[str], list[list[str]]]:
    """A bot process on ``shard`` of 2; its output lines up to READY (or its end)."""
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.process.shard_process",
            database.target,
            "2",
            str(shard),
            mode,
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    processes.append(child)
    assert child.stdout is not None
    lines = []
    for line in child.stdout:
        lines.append(line.split())
        if line.startswith("READY"):
            break
    return child, lines


def said(lines: list[list[str]], word: str) -> list[int]:
    [found] = [words[1:] for words in lines if words[0] == word]
    return [int(n) for n in found]


async def events(database: Backend, game_id: int) -> int:
    [(n,)] = await database.rows("SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,))
    return int(n)


async def test_two_shard_processes_play_resume_and_refuse_a_third(
    database: Backend, processes: list[subprocess.Popen[str]]
) -> None:
    first, lines = start(processes, database, 0, "play")
    [game_0] = said(lines, "GAME")
    second, lines = start(processes, database, 1, "play")
    [game_1] = said(lines, "GAME")
    assert game_0 != game_1

    # A third process on shard 1 while the second runs: refused, in one line.
    third, lines = start(processes, database, 1, "resume")
    _, errors = third.communicate(timeout=120)
    assert third.returncode == 1 and lines == []
    assert errors.strip().splitlines() == [
        f"lama-bot: could not claim shard 1 of 2: shard 1 is already served by the process "
        f"{second.pid} on {_host()}; stop it, or give this process other SHARD_IDS"
    ]

    # kill -9 the second; started again, it resumes exactly its own game and plays on.
    second.kill()
    second.communicate(timeout=30)
    before_0, before_1 = await events(database, game_0), await events(database, game_1)
    again, lines = start(processes, database, 1, "resume")
    assert said(lines, "RESUMED") == [game_1], lines
    assert await events(database, game_1) > before_1
    assert await events(database, game_0) == before_0  # shard 0's game: not touched
    assert first.poll() is None and again.poll() is None  # both still serving
