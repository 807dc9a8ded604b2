"""Forgetting leaves nothing readable behind: not in SQLite's free pages or its write-ahead
log, and on PostgreSQL the touched tables are vacuumed."""

from __future__ import annotations

from pathlib import Path

import pytest

from data import EVERYTHING, Store
from data.records import ALL_TIME, GameRating, PlayerRating, SeasonPlan, SeatRating
from data.schema import load_migrations
from data.sqlite import SqliteDatabase
from game import Match, Ruleset

from ._helpers import Backend, counter_clock, humans, new_running_game, play_random_game

#: A name that appears nowhere else, so its bytes in the file can only be the seat's.
SECRET_NAME = "Qwzxv Forgetme Jkplq"
KEPT_NAME = "Kept Player Name"


async def _games(store: Store) -> None:
    for n in range(30):  # enough rows for pages of their own
        await new_running_game(
            store, Match(Ruleset(), 2), humans((900 + n, SECRET_NAME), (7, "Other")), guild_id=77
        )
        await new_running_game(
            store, Match(Ruleset(), 2), humans((1, KEPT_NAME), (2, "Two")), guild_id=88
        )


def _on_disk(path: Path) -> bytes:
    files = [path, path.with_name(path.name + "-wal")]
    return b"".join(file.read_bytes() for file in files if file.exists())


async def test_a_forgotten_servers_names_are_not_in_the_sqlite_files(db_path: Path) -> None:
    store = await Store.open(str(db_path), clock=counter_clock())
    try:
        await _games(store)
        assert SECRET_NAME.encode() in _on_disk(db_path)
        done = await store.forget.forget_guild(77)
        assert done.games == 30
    finally:
        await store.close()
    assert SECRET_NAME.encode() not in _on_disk(db_path)
    assert KEPT_NAME.encode() in _on_disk(db_path)


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_forgotten_persons_name_is_not_in_the_sqlite_files(db_path: Path) -> None:
    store = await Store.open(str(db_path), clock=counter_clock())
    try:
        await _games(store)
        for n in range(30):
            await store.forget.forget_user(900 + n)
    finally:
        await store.close()
    assert SECRET_NAME.encode() not in _on_disk(db_path)


async def test_the_names_are_gone_while_the_store_is_still_open(db_path: Path) -> None:
    store = await Store.open(str(db_path), clock=counter_clock())
    try:
        await _games(store)
        await store.forget.forget_guild(77)
        assert SECRET_NAME.encode() not in _on_disk(db_path)
    finally:
        await store.close()


async def test_every_sqlite_connection_deletes_securely(db_path: Path) -> None:
    games, _ = await SqliteDatabase.open(db_path, durable=False, migrations=load_migrations())
    reads = await games.reader()
    try:
        for db in (games, reads):
            assert (await db.settings())["secure_delete"] == 1
    finally:
        await reads.close()
        await games.close()


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_postgresql_vacuums_the_tables_forget_touched(backend: Backend) -> None:
    if backend.name != "postgres":
        return
    store = await Store.open(backend.target, clock=counter_clock())
    try:
        await _games(store)
        await store.forget.forget_guild(77)
    finally:
        await store.close()
    rows = await backend.rows(
        "SELECT relname FROM pg_stat_user_tables WHERE last_vacuum IS NOT NULL ORDER BY relname"
    )
    vacuumed = {name for (name,) in rows}
    assert {"games", "seats", "events", "guild_settings", "open_hands", "ratings"} <= vacuumed


async def test_forgetting_takes_a_servers_ratings_and_a_persons_own(store: Store) -> None:
    async def rated(guild_id: int, seed: int) -> int:
        game_id, _ = await play_random_game(store, Ruleset(), 2, seed, guild_id=guild_id)
        changes = tuple(
            SeatRating(seat, ALL_TIME, player, seat + 1, 25.0, 8.0, 26.0 - seat, 7.9)
            for seat, player in ((0, "user:500"), (1, "ai:normal"))
        )
        players = (
            PlayerRating(ALL_TIME, "user:500", 500, None, SECRET_NAME, 26.0, 7.9, 1),
            PlayerRating(ALL_TIME, "ai:normal", None, "normal", "normal", 25.0, 7.9, 1),
        )
        await store.rating_writes.save_ratings(
            [GameRating(game_id, guild_id, 2_000.0, 100, changes, players)]
        )
        return game_id

    gone, kept = await rated(77, 1), await rated(88, 2)
    await store.rating_writes.add_season_plan(77, SeasonPlan(1_000, 7))
    await store.rating_writes.add_season_plan(88, SeasonPlan(1_000, 7))
    await store.forget.forget_guild(77)
    assert await store.ratings.rating_board(77, sight=EVERYTHING) == []
    assert await store.ratings.season_plans(77) == []
    assert await store.ratings.rated_seasons(77) == []
    assert await store.ratings.rating_changes(gone) == []
    assert len(await store.ratings.rating_board(88, sight=EVERYTHING)) == 2

    await store.forget.forget_user(500)
    board = await store.ratings.rating_board(88, sight=EVERYTHING)
    assert [(row.user_id, row.ai) for row in board] == [(None, "normal")]
    assert await store.ratings.rating_history(88, ALL_TIME, 500, sight=EVERYTHING) == []
    # The game's changes stay for the others, under no name and no id.
    changes = await store.ratings.rating_changes(kept)
    assert [(c.seat, c.user_id, c.ai) for c in changes] == [(0, None, None), (1, None, "normal")]
    assert await store.ratings.season_plans(88) == [SeasonPlan(1_000, 7)]
