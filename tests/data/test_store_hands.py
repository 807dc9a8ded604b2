"""Open hands in the store: kept for a restart while Discord lets them be edited."""

from __future__ import annotations

from data import OpenHandRecord, Shards, Store
from data.hands import TOKEN_LIFETIME
from game import Ruleset

from ._helpers import Backend, guild_on, humans


def hand(game_id: int, user_id: int, opened_at: float, token: str = "t") -> OpenHandRecord:
    return OpenHandRecord(game_id, user_id, 42, token, 7000 + user_id, "de", None, opened_at)


async def test_open_hands_are_kept_replaced_and_dropped_once_too_old(backend: Backend) -> None:
    now = [10_000.0]
    store = await Store.open(backend.target, durable=False, clock=lambda: now[0])
    try:
        game_id = await store.games.create_game(
            guild_id=1,
            channel_id=2,
            host_id=10,
            ruleset=Ruleset(),
            turn_timer=60,
            seats=humans((10, "alice"), (11, "bob")),
        )
        await store.hands.save_open_hand(hand(game_id, 10, now[0]))
        await store.hands.save_open_hand(hand(game_id, 11, now[0], token="old"))
        bobs = hand(game_id, 11, now[0] + 60, token="new")
        await store.hands.save_open_hand(bobs)  # bob opened his hand again
        assert await store.hands.open_hands() == [hand(game_id, 10, now[0]), bobs]

        now[0] += TOKEN_LIFETIME + 30  # alice's token can no longer edit her hand
        assert await store.hands.open_hands() == [bobs]
        now[0] += 60  # nor bob's
        await store.hands.save_open_hand(hand(game_id, 10, now[0], token="later"))
        rows = await backend.rows("SELECT user_id, token FROM open_hands ORDER BY user_id")
        assert rows == [(10, "later")], "expired rows are pruned as new ones come in"
    finally:
        await store.close()


async def test_a_process_restores_only_the_open_hands_of_its_shards(backend: Backend) -> None:
    # Two processes, one shard each: after a restart each refreshes only its own games' hands.
    now = 10_000.0
    games = {}
    setup = await Store.open(backend.target, durable=False, clock=lambda: now)
    try:
        for shard in (0, 1):
            games[shard] = await setup.games.create_game(
                guild_id=guild_on(shard, 2),
                channel_id=100 + shard,
                host_id=10,
                ruleset=Ruleset(),
                turn_timer=60,
                seats=humans((10, "alice"), (11, "bob")),
            )
            await setup.hands.save_open_hand(hand(games[shard], 10 + shard, now))
    finally:
        await setup.close()

    for shards, shard in ((Shards(2, (0,)), 0), (Shards(2, (1,)), 1)):
        store = await Store.open(backend.target, durable=False, clock=lambda: now)
        try:
            await store.leases.claim_shards(shards)
            assert await store.hands.open_hands() == [hand(games[shard], 10 + shard, now)], shards
        finally:
            await store.close()
