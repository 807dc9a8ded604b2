"""``python -m bot migrate-to-postgres URL``: a SQLite database copied whole, then compared."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.service.ratings.rater import Rater
from data import EVERYTHING, PingRecord, SeatNote, Store, StoreError
from data.records import SeasonPlan
from data.transfer import TABLES, copy_to_postgres
from game import DRAW, PLAY, Card, Match, Ruleset
from tests.pg import PostgresServer

from ._helpers import Backend, humans, new_running_game, play_random_game

REPO_ROOT = Path(__file__).resolve().parents[2]


async def fill(path: Path) -> dict[int, Match]:
    """Finished and unfinished games, a lobby (someone removed from it), seat notes,
    hints shown and settings in two guilds."""
    store = await Store.open(path, durable=False)
    matches: dict[int, Match] = {}
    try:
        for seed in range(4):
            game_id, match = await play_random_game(
                store, Ruleset(no_drama=seed % 2 == 0), 2 + seed, seed, guild_id=1 + seed % 2
            )
            matches[game_id] = match
        game_id, match = await play_random_game(store, Ruleset(), 3, 9, stop_after=5)
        await store.games.update_timer(game_id, turn_deadline=77.5, note=SeatNote(6, 1, "takeover"))
        await store.games.update_timer(game_id, turn_deadline=78.5, note=SeatNote(6, 1, "back"))
        matches[game_id] = match
        await store.pings.add_ping(PingRecord(game_id, 1, 10, 9001))  # its turn ping stands
        await store.hints.add_hint(game_id, 3, 0, DRAW)
        await store.hints.add_hint(game_id, 3, 0, PLAY[Card.LLAMA])
        lobby = await store.games.create_game(
            guild_id=2,
            channel_id=5,
            host_id=1,
            ruleset=Ruleset(party=True),
            turn_timer=30,
            seats=humans((1, "Ann")),
            language="de",
        )
        await store.games.update_lobby(lobby, seats=humans((1, "Ann")), removed=2)
        await store.settings.set_language(1, "es")
        await store.settings.set_default_timer(2, 45)
        await store.settings.set_default_hints(2, False)
        await store.settings.allow_channel(2, 5)
        await store.settings.allow_channel(2, 6)
        await store.rating_writes.add_season_plan(2, SeasonPlan(started_at=500, days=30))
        assert (await Rater(store).rate_all()).games == 4
    finally:
        await store.close()
    return matches


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_copy_holds_every_row_and_plays_on(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    source = tmp_path / "lama.db"
    matches = await fill(source)
    url = await postgres_server.new_database()

    copied = await copy_to_postgres(source, url)
    assert set(copied.rows) == {table for table, _, _ in TABLES}
    assert copied.rows["games"] == 6 and copied.rows["seat_notes"] == 2
    assert copied.rows["pings"] == 1 and copied.rows["lobby_removals"] == 1
    assert copied.rows["hints_shown"] == 2

    old, new = await Store.open(source), await Store.open(url)
    try:
        for game_id in [*matches, 6]:
            assert await new.games.load_game(game_id) == await old.games.load_game(game_id)
            assert await new.hints.hints_of(game_id, 0) == await old.hints.hints_of(game_id, 0)
        assert await new.games.unfinished_games() == await old.games.unfinished_games()
        for guild in (1, 2):
            assert await new.stats.leaderboard(
                guild, sight=EVERYTHING
            ) == await old.stats.leaderboard(guild, sight=EVERYTHING)
            assert await new.settings.guild_settings(guild) == await old.settings.guild_settings(
                guild
            )
        assert (await new.settings.guild_settings(2)).channels == (5, 6)
        assert copied.rows["season_plans"] == 1 and copied.rows["rated_games"] == 4
        assert await new.ratings.season_plans(2) == [SeasonPlan(500, 30)]
        for guild in (1, 2):
            for season in await old.ratings.rated_seasons(guild):
                assert await new.ratings.rating_board(
                    guild, season, sight=EVERYTHING
                ) == await old.ratings.rating_board(guild, season, sight=EVERYTHING)
        assert await new.ratings.rating_changes(1) == await old.ratings.rating_changes(1)
        assert copied.rows["guild_channels"] == 2
        # New games get fresh ids after the copied ones.
        game_id = await new.games.create_game(
            guild_id=1, channel_id=1, host_id=1, ruleset=Ruleset(), turn_timer=0, seats=[]
        )
        assert game_id == 7
    finally:
        await old.close()
        await new.close()


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_database_in_use_is_not_copied_into(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    source = tmp_path / "lama.db"
    await fill(source)
    url = await postgres_server.new_database()
    target = Backend("postgres", url)
    async with await Store.open(url) as store:
        match = Match(Ruleset(), 2)
        await new_running_game(store, match, humans((1, "A"), (2, "B")))
    with pytest.raises(StoreError, match="already holds 1 games .* copy into an empty database"):
        await copy_to_postgres(source, url)
    assert await target.rows("SELECT COUNT(*) FROM events") == [(1,)]  # left as it was


@pytest.mark.slow  # the command as a process
def test_the_command_copies_and_says_what(tmp_path: Path, postgres_server: PostgresServer) -> None:
    source = tmp_path / "lama.db"
    asyncio.run(fill(source))
    url = asyncio.run(postgres_server.new_database())
    environ = {**os.environ, "DATABASE_PATH": str(source), "PYTHONPATH": str(REPO_ROOT)}
    environ.pop("DISCORD_TOKEN", None)  # copying needs no token
    result = subprocess.run(
        [sys.executable, "-m", "bot", "migrate-to-postgres", url],
        cwd=tmp_path,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"Copied {source} to postgresql://postgres:***@")
    assert "6 games" in result.stdout and "2 seat_notes" in result.stdout

    again = subprocess.run(
        [sys.executable, "-m", "bot", "migrate-to-postgres", url],
        cwd=tmp_path,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 1
    assert again.stderr.strip().splitlines() == [
        f"lama-bot: postgresql://postgres:***@127.0.0.1:{postgres_server.port}/"
        f"{url.rsplit('/', 1)[1]} already holds 6 games and 2 guild settings; "
        "copy into an empty database"
    ]
