"""Turn pings in the store: every ping sent and not known to be gone, which a restarted
bot takes down."""

from __future__ import annotations

import shutil
from pathlib import Path

from data import PingRecord, Store
from data.schema import bundled_migrations
from game import Ruleset

from ._helpers import Backend, humans

BUNDLED = Path(str(bundled_migrations()))


async def test_pings_are_kept_once_until_dropped_and_go_with_their_game(
    backend: Backend,
) -> None:
    store = await Store.open(backend.target, durable=False)
    try:
        game_id = await store.create_game(
            guild_id=1,
            channel_id=2,
            host_id=10,
            ruleset=Ruleset(),
            turn_timer=60,
            seats=humans((10, "alice"), (11, "bob")),
        )
        first, second = PingRecord(game_id, 1, 2, 7001), PingRecord(game_id, 1, 2, 7002)
        for ping in (second, first, second):  # the same one stored twice is one
            await store.add_ping(ping)
        assert await store.standing_pings() == [first, second]

        await store.drop_ping(first.message_id)
        assert await store.standing_pings() == [second]
        await store.forget_guild(1)
        assert await backend.rows("SELECT message_id FROM pings") == []
    finally:
        await store.close()


async def test_pings_stored_before_0010_are_still_taken_down(
    backend: Backend, tmp_path: Path
) -> None:
    """A version 9 database: a finished game's own ping id (which nothing looked at
    once the game was over) and a ping whose deletion failed are both kept by 0010."""
    folder = tmp_path / "migrations"
    (folder / "postgres").mkdir(parents=True)
    for path in BUNDLED.glob("**/*.sql"):
        if int(path.name[:4]) <= 9:
            shutil.copy(path, folder / path.relative_to(BUNDLED))
    old = await Store.open(backend.target, durable=False, migrations=folder)
    try:
        assert old.schema_version == 9
        game_id = await old.create_game(
            guild_id=1, channel_id=2, host_id=10, ruleset=Ruleset(), turn_timer=60, seats=[]
        )
    finally:
        await old.close()
    await backend.rows(
        "UPDATE games SET ping_message_id = 7001, status = 'finished' WHERE id = ?", (game_id,)
    )
    await backend.rows(
        "INSERT INTO stale_pings (message_id, game_id, channel_id) VALUES (7002, ?, 2)",
        (game_id,),
    )

    store = await Store.open(backend.target, durable=False)
    try:
        assert store.schema_version == 10
        assert await store.standing_pings() == [
            PingRecord(game_id, 1, 2, 7001),
            PingRecord(game_id, 1, 2, 7002),
        ]
    finally:
        await store.close()
