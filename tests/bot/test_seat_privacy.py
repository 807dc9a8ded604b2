"""A seat an AI plays shows its former owner no cards: nobody peeks at the AI's hand."""

from __future__ import annotations

from typing import Any

import simcord

from bot.service.table import Table
from game import Card
from testkit.simcord_play import (
    custom_ids,
    enabled,
    open_hand,
    rig,
    started_game,
    table_message,
    texts,
    two_player_game,
)

C = Card
JUNK = [C.ONE, C.ONE, C.TWO, C.TWO, C.SIX, C.SIX]


def shows_cards(response: Any) -> bool:
    """Whether a hand response lets its reader see the seat's cards or move for it."""
    buttons = [cid for cid, _, _ in custom_ids(response)]
    return "card" in texts(response).lower() or any(
        cid.startswith(("lama:play:", "lama:draw:", "lama:quit:")) for cid in buttons
    )


async def three_players(
    env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    **options: Any,
) -> tuple[Table, simcord.MemberActor, simcord.MemberActor]:
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    table = await started_game(env, alice, [bob, carol], channel, **options)
    return table, bob, carol


async def test_a_player_who_left_sees_no_cards_of_the_seat_the_ai_now_plays(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    table, bob, _ = await three_players(simcord_env, guild, channel, alice)
    assert shows_cards(await open_hand(bob, channel))
    await bob.slash(channel, "lama leave")
    assert table.seats[1].ai is not None

    clicked = await open_hand(bob, channel)
    assert not shows_cards(clicked)
    assert "handed to an AI" in texts(clicked)
    typed = await bob.slash(channel, "lama hand")
    assert typed.ephemeral and not shows_cards(typed.response)


async def test_a_kicked_player_sees_no_cards(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    table, _, carol = await three_players(simcord_env, guild, channel, alice)
    hand = await open_hand(carol, channel)  # opened before the kick
    await alice.slash(channel, "lama kick", member=carol)
    assert table.seats[2].ai is not None

    assert not shows_cards(await open_hand(carol, channel))
    # The refresh button of the hand opened before is no way round it either.
    refreshed = await carol.click(hand, label="Refresh")
    assert not shows_cards(refreshed.response)


async def test_after_a_takeover_for_missed_turns_no_cards_until_i_am_back(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [JUNK, JUNK], C.FOUR, [C.LLAMA] * 8)
    rig(simcord_env, [JUNK, JUNK], C.FOUR, [C.LLAMA] * 8, starter=1)
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60, threshold=100)
    await simcord_env.advance_time(61)  # alice misses her first turn
    bobs = await open_hand(bob, channel)
    await bob.click(bobs, custom_id=enabled(bobs, "lama:quit:")[0])  # round 1 ends
    bobs = await open_hand(bob, channel)
    await bob.click(bobs, custom_id=enabled(bobs, "lama:draw:")[0])
    await simcord_env.advance_time(61)  # the second miss in a row
    assert table.seats[0].away

    away = await open_hand(alice, channel)
    assert not shows_cards(away)
    assert "I'm back" in [label for _, label, _ in custom_ids(away)]

    result = await alice.click(table_message(channel), label="I'm back")
    assert not table.seats[0].away
    assert shows_cards(result.response)
    assert shows_cards(await open_hand(alice, channel))
