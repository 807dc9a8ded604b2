"""Stale pings in the store: the pings a restarted bot still has to take down."""

from __future__ import annotations

from data import StalePing, Store
from game import Ruleset

from ._helpers import Backend, humans


async def test_stale_pings_are_kept_once_until_dropped_and_go_with_their_game(
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
        first, second = StalePing(game_id, 2, 7001), StalePing(game_id, 2, 7002)
        for ping in (second, first, second):  # the same one stored twice is one
            await store.add_stale_ping(ping)
        assert await store.stale_pings() == [first, second]

        await store.drop_stale_ping(first.message_id)
        assert await store.stale_pings() == [second]
        await store.forget_guild(1)
        assert await backend.rows("SELECT message_id FROM stale_pings") == []
    finally:
        await store.close()
