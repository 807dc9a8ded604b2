"""Open hands are kept for after a restart without a database write per click."""

from __future__ import annotations

from typing import Any

import simcord

from data import OpenHandRecord
from game import Card as C

from .play import enabled, open_hand, rig, service, take_simple_turn, two_player_game


async def test_moves_made_from_one_open_hand_store_it_once(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Every click on a hand is a fresh interaction; saving each one would double the
    writes of every move, and other tables' moves would queue behind them."""
    rig(simcord_env, [[C.THREE] * 3, [C.THREE] * 3], C.TWO, [C.ONE] * 8)
    await two_player_game(simcord_env, alice, bob, channel)
    store = service(simcord_env).store
    saved: list[OpenHandRecord] = []
    save = store.save_open_hand

    async def counting(hand: OpenHandRecord) -> None:
        saved.append(hand)
        await save(hand)

    store.save_open_hand = counting  # type: ignore[method-assign]
    hand: Any = await open_hand(alice, channel)
    for _ in range(2):  # two of her three cards: the round goes on
        await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
        await take_simple_turn(bob, channel)
        await simcord_env.advance_time(1)
    alices = [h for h in saved if h.user_id == alice.id]
    assert len(alices) == 1, [h.message_id for h in alices]
