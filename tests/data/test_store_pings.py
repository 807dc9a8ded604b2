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
    empty_backend: Backend,
) -> None:
    store = await Store.open(empty_backend.target, durable=False)
    try:
        game_id = await store.games.create_game(
            guild_id=1,
            channel_id=2,
            host_id=10,
            ruleset=Ruleset(),
            turn_timer=60,
            seats=humans((10, "alice"), (11, "bob")),
        )
        first, second = PingRecord(game_id, 1, 2, 7001), PingRecord(game_id, 1, 2, 7002)
        for ping in (second, first, second):  # the same one stored twice is one
            await store.pings.add_ping(ping)
        assert await store.pings.standing_pings() == [first, second]

        await store.pings.drop_ping(first.message_id)
        assert await store.pings.standing_pings() == [second]
        await store.forget.forget_guild(1)
        assert await empty_backend.rows("SELECT message_id FROM pings") == []
    finally:
        await store.close()


async def version_9(backend: Backend, tmp_path: Path) -> None:
    """Bring the database at ``backend`` to schema version 9, the one before 0010."""
    folder = tmp_path / "migrations"
    (folder / "postgres").mkdir(parents=True)
    for path in BUNDLED.glob("**/*.sql"):
        if int(path.name[:4]) <= 9:
            shutil.copy(path, folder / path.relative_to(BUNDLED))
    old = await Store.open(backend.target, durable=False, migrations=folder)
    await old.close()
    assert old.schema_version == 9


async def old_game(backend: Backend, channel_id: int, status: str, ping_id: int) -> int:
    """A game of a version 9 database, ``status``, with ``ping_id`` in its own ping column."""
    [(game_id,)] = await backend.rows(
        "INSERT INTO games (guild_id, channel_id, host_id, ruleset, status, turn_timer,"
        " created_at, updated_at, ping_message_id) VALUES (1, ?, 10, '{}', ?, 60, 1, 1, ?)"
        " RETURNING id",
        (channel_id, status, ping_id),
    )
    return int(game_id)


async def test_pings_stored_before_0010_are_still_taken_down(
    empty_backend: Backend, tmp_path: Path
) -> None:
    """A version 9 database: a running game's own ping id (its ping stands) and a
    finished game's ping whose deletion failed are both kept by 0010."""
    await version_9(empty_backend, tmp_path)
    running = await old_game(empty_backend, 2, "running", 7001)
    finished = await old_game(empty_backend, 3, "finished", 7002)
    await empty_backend.rows(
        "INSERT INTO stale_pings (message_id, game_id, channel_id) VALUES (7003, ?, 3)",
        (finished,),
    )

    store = await Store.open(empty_backend.target, durable=False)
    try:
        assert store.schema_version >= 10  # 0010 and any after it ran
        assert await store.pings.standing_pings() == [
            PingRecord(running, 1, 2, 7001),
            PingRecord(finished, 1, 3, 7003),
        ]
    finally:
        await store.close()


async def test_a_game_over_before_0010_leaves_no_ping_to_take_down(
    empty_backend: Backend, tmp_path: Path
) -> None:
    """The old code never cleared a game's ping id once it was over (its ping was taken
    down, or failed into stale_pings): a finished or cancelled game's old id is not
    turned into a deletion for the first start to send, one per old game."""
    await version_9(empty_backend, tmp_path)
    await old_game(empty_backend, 2, "finished", 7001)
    await old_game(empty_backend, 3, "cancelled", 7002)
    lobby = await old_game(empty_backend, 4, "lobby", 7003)

    store = await Store.open(empty_backend.target, durable=False)
    try:
        assert store.schema_version >= 10  # 0010 and any after it ran
        assert await store.pings.standing_pings() == [PingRecord(lobby, 1, 4, 7003)]
    finally:
        await store.close()
