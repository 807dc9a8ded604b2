"""At most one lobby-or-running game per channel, kept by the database itself."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from data import ChannelBusy, Store, StoreError
from data.schema import bundled_migrations, load_migrations
from game import Match, Ruleset

from ._helpers import humans


async def _lobby(store: Store, channel_id: int, guild_id: int = 1) -> int:
    return await store.games.create_game(
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=1,
        ruleset=Ruleset(),
        turn_timer=0,
        seats=humans((1, "A")),
    )


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_second_open_game_in_a_channel_is_refused_and_nothing_is_written(
    store: Store,
) -> None:
    first = await _lobby(store, channel_id=7)
    with pytest.raises(ChannelBusy, match="already has a game open"):
        await _lobby(store, channel_id=7)
    assert isinstance(ChannelBusy("x"), StoreError)
    assert [r.id for r in await store.games.unfinished_games()] == [first]

    match = Match(Ruleset(), 2)
    match.deal(1)
    await store.games.update_lobby(first, seats=humans((1, "A"), (2, "B")))
    await store.games.start_game(first, seats=humans((1, "A"), (2, "B")), events=match.events)
    with pytest.raises(ChannelBusy):
        await _lobby(store, channel_id=7)  # a running game holds the channel too

    other = await _lobby(store, channel_id=8)  # another channel is free
    await store.games.set_status(first, "cancelled")
    again = await _lobby(store, channel_id=7)  # a closed game frees its channel
    assert [r.id for r in await store.games.unfinished_games()] == [other, again]


async def test_a_database_with_two_open_games_in_a_channel_keeps_the_running_one(
    db_path: Path,
) -> None:
    """Before the index, a race could leave two; the upgrade cancels all but one."""
    folder = Path(str(bundled_migrations()))
    with closing(sqlite3.connect(db_path, isolation_level=None)) as raw:
        for migration in load_migrations()[:4]:
            raw.executescript((folder / migration.name).read_text(encoding="utf-8"))
        ruleset = json.dumps(Ruleset().to_json())
        raw.executemany(
            "INSERT INTO games (id, guild_id, channel_id, host_id, ruleset, status,"
            " created_at, updated_at) VALUES (?, 1, ?, 1, ?, ?, 1000, 1000)",
            [
                (1, 5, ruleset, "running"),
                (2, 5, ruleset, "lobby"),
                (3, 6, ruleset, "lobby"),
                (4, 6, ruleset, "lobby"),
                (5, 6, ruleset, "finished"),
            ],
        )
    store = await Store.open(db_path)
    try:
        assert [(r.id, r.status) for r in await store.games.unfinished_games()] == [
            (1, "running"),
            (4, "lobby"),
        ]
        cancelled = [await store.games.load_game(i) for i in (2, 3)]
        assert [r.status for r in cancelled if r is not None] == ["cancelled", "cancelled"]
    finally:
        await store.close()


async def test_lobbies_opened_at_once_in_one_channel_leave_one(store: Store) -> None:
    """Units at the same instant (side by side on PostgreSQL): one lobby, the rest refused."""
    await asyncio.gather(
        *(store.settings.get_language(1) for _ in range(8))
    )  # every connection open
    results = await asyncio.gather(
        *(_lobby(store, channel_id=9) for _ in range(6)), return_exceptions=True
    )
    opened = [r for r in results if isinstance(r, int)]
    assert len(opened) == 1
    assert all(isinstance(r, ChannelBusy) for r in results if not isinstance(r, int))
    assert [r.id for r in await store.games.unfinished_games()] == opened
