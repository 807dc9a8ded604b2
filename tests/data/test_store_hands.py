"""Open hands in the store: kept for a restart while Discord lets them be edited."""

from __future__ import annotations

from data import OpenHandRecord, Store
from data.hands import TOKEN_LIFETIME
from game import Ruleset

from ._helpers import Backend, humans


def hand(game_id: int, user_id: int, opened_at: float, token: str = "t") -> OpenHandRecord:
    return OpenHandRecord(game_id, user_id, 42, token, 7000 + user_id, "de", None, opened_at)


async def test_open_hands_are_kept_replaced_and_dropped_once_too_old(backend: Backend) -> None:
    now = [10_000.0]
    store = await Store.open(backend.target, durable=False, clock=lambda: now[0])
    try:
        game_id = await store.create_game(
            guild_id=1,
            channel_id=2,
            host_id=10,
            ruleset=Ruleset(),
            turn_timer=60,
            seats=humans((10, "alice"), (11, "bob")),
        )
        await store.save_open_hand(hand(game_id, 10, now[0]))
        await store.save_open_hand(hand(game_id, 11, now[0], token="old"))
        bobs = hand(game_id, 11, now[0] + 60, token="new")
        await store.save_open_hand(bobs)  # bob opened his hand again
        assert await store.open_hands() == [hand(game_id, 10, now[0]), bobs]

        now[0] += TOKEN_LIFETIME + 30  # alice's token can no longer edit her hand
        assert await store.open_hands() == [bobs]
        now[0] += 60  # nor bob's
        await store.save_open_hand(hand(game_id, 10, now[0], token="later"))
        rows = await backend.rows("SELECT user_id, token FROM open_hands ORDER BY user_id")
        assert rows == [(10, "later")], "expired rows are pruned as new ones come in"
    finally:
        await store.close()
