"""``python -m bot rerate``: the ratings recomputed from the stored games are exactly the
ones the games gave as they finished, on SQLite and on PostgreSQL."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.service.play.table import Status
from bot.service.ratings.seasons import DAY
from bot.service.timing import Timing
from data import Shards, Store
from game.ai import Strength
from testkit.service_game import ManualClock, ServiceGame, eventually, people
from tests.data._helpers import Backend
from tests.process.cli import run_bot

ANN, BOB, CY = people("Ann", "Bob", "Cy")
TABLES = {
    "ratings": "guild_id, season, player",
    "rated_games": "game_id",
    "rating_changes": "game_id, seat, season",
}


@pytest_asyncio.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "postgres":
        server = request.getfixturevalue("postgres_server")
        return Backend("postgres", await server.new_database())
    return Backend("sqlite", str(tmp_path / "lama.db"))


async def snapshot(backend: Backend) -> dict[str, list[tuple[Any, ...]]]:
    return {
        table: await backend.rows(f"SELECT * FROM {table} ORDER BY {order}")
        for table, order in TABLES.items()
    }


def rerate(backend: Backend, folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    setting = "DATABASE_URL" if backend.name == "postgres" else "DATABASE_PATH"
    (folder / ".env").write_text(f"{setting}={backend.target}\n", encoding="utf-8")
    return run_bot(folder, "rerate", *args)


async def play_games(backend: Backend) -> None:
    """Games of two seasons, with AIs, a leaver and a game with two Normal AIs, rated one
    by one as they finish."""
    clock = ManualClock()
    store = await Store.open(backend.target, durable=False, clock=clock)
    game = await ServiceGame.open(Path(), clock=clock, store=store, timing=Timing(ai_delay=0.0))
    try:
        await game.service.seasons.set(1, days=7, start_now=True)
        for n in range(5):
            players = [ANN, BOB] if n % 2 else [ANN, CY, BOB]
            table = await game.lobby(players, [Strength.NORMAL, Strength.HARD][: n % 3])
            if n == 2:
                await game.service.seats.leave_game(table, CY.id)
            await game.play_out(table)
            assert table.status is Status.FINISHED
            shown = ("changed", table.game_id, table.stamp)
            await eventually(lambda s=shown: s in game.listener.notices)  # type: ignore[misc]
            game.clock.advance(4 * DAY)
    finally:
        await game.close()


async def test_rerate_gives_exactly_the_ratings_the_games_gave(
    backend: Backend, tmp_path: Path
) -> None:
    await play_games(backend)
    incremental = await snapshot(backend)
    assert len(incremental["rated_games"]) == 5
    assert len({row[1] for row in incremental["ratings"]}) == 4  # three seasons, all time

    result = rerate(backend, tmp_path)

    assert result.returncode == 0, result.stderr
    assert "Rated 5 game(s) in 1 server(s)" in result.stdout
    assert await snapshot(backend) == incremental

    result = rerate(backend, tmp_path, "--guild", "2")  # a server without games
    assert result.returncode == 0, result.stderr
    assert "Rated 0 game(s) in 1 server(s)" in result.stdout
    assert await snapshot(backend) == incremental


async def test_forgetting_a_person_rates_their_servers_as_a_rerate_would(
    backend: Backend, tmp_path: Path
) -> None:
    await play_games(backend)
    setting = "DATABASE_URL" if backend.name == "postgres" else "DATABASE_PATH"
    (tmp_path / ".env").write_text(f"{setting}={backend.target}\n", encoding="utf-8")

    forgot = run_bot(tmp_path, "forget", "--user", str(BOB.id))

    assert forgot.returncode == 0, forgot.stderr
    assert "Rated 5 game(s) in 1 server(s) again" in forgot.stdout
    after_forget = await snapshot(backend)
    assert not [row for row in after_forget["ratings"] if row[2] == f"user:{BOB.id}"]
    assert rerate(backend, tmp_path).returncode == 0
    assert await snapshot(backend) == after_forget


def test_rerate_without_a_database_rates_nothing(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "rerate")
    assert result.returncode == 2
    assert "nothing was rated: there is no database" in result.stderr


async def test_rerate_beside_a_running_bot_refuses(backend: Backend, tmp_path: Path) -> None:
    # A running bot rates each game as it ends: ratings from scratch beside it would be
    # overwritten, or overwrite its own.
    await play_games(backend)
    before = await snapshot(backend)
    running = await Store.open(backend.target, durable=False)
    try:
        await running.leases.claim_shards(Shards())  # as a running bot does at its start
        result = rerate(backend, tmp_path)
    finally:
        await running.close()
    assert result.returncode != 0, result.stdout
    assert "nothing was rated" in result.stderr and "bot is running" in result.stderr
    assert await snapshot(backend) == before
