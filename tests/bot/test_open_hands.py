"""Open hands: kept without a database write per click; a new round's cards at once."""

from __future__ import annotations

from typing import Any

import simcord

from data import OpenHandRecord
from game import Card as C
from testkit.simcord_play import (
    bot_token_calls,
    enabled,
    open_hand,
    rig,
    service,
    take_simple_turn,
    texts,
    two_player_game,
)

MOVES = ("lama:play:", "lama:draw:", "lama:quit:")


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
    save = store.hands.save_open_hand

    async def counting(hand: OpenHandRecord) -> None:
        saved.append(hand)
        await save(hand)

    store.hands.save_open_hand = counting  # type: ignore[method-assign]
    hand: Any = await open_hand(alice, channel)
    for _ in range(2):  # two of her three cards: the round goes on
        await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
        await take_simple_turn(bob, channel)
        await simcord_env.advance_time(1)
    alices = [h for h in saved if h.user_id == alice.id]
    assert len(alices) == 1, [h.message_id for h in alices]


async def test_a_new_rounds_cards_reach_every_open_hand_as_soon_as_they_are_dealt(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    # bob quits the round; alice ends it and starts the next. bob's open hand
    # shows his new cards at once (to plan with), its moves not his until his turn.
    rig(simcord_env, [[C.FOUR, C.FIVE], [C.SIX] * 3], C.FOUR, [C.ONE] * 8)
    rig(simcord_env, [[C.TWO] * 3, [C.ONE, C.THREE, C.THREE, C.THREE]], C.ONE, [], starter=0)
    table = await two_player_game(simcord_env, alice, bob, channel)
    hand: Any = await open_hand(alice, channel)
    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    bobs: Any = await open_hand(bob, channel)
    await bob.click(bobs, custom_id=enabled(bobs, "lama:quit:")[0])
    assert "You are out of this round." in texts(bobs)
    await simcord_env.advance_time(10)  # bob looks away
    before = len(simcord_env.http_requests)

    await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    await simcord_env.advance_time(1)

    assert table.match is not None and table.match.round_no == 2 and table.to_move == 0
    assert "**4 cards:**" in texts(bobs) and "You are out" not in texts(bobs)
    assert "Waiting for alice." in texts(bobs)
    assert not [cid for cid in enabled(bobs, "lama:") if cid.startswith(MOVES)]
    assert bot_token_calls(simcord_env, simcord_env.http_requests[before:]) == []
