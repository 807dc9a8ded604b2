"""A seat an AI plays shows its former owner no cards: nobody peeks at the AI's hand."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.service.play.table import Table
from game import Card
from testkit.simcord_play import (
    custom_ids,
    enabled,
    open_hand,
    rig,
    started_game,
    table_message,
    texts,
    title,
    two_player_game,
)
from testkit.slow_store import held

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


@pytest.mark.parametrize("starter", [0, 2], ids=["on-alices-turn", "on-carols-turn"])
async def test_a_kicked_player_sees_no_cards(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    starter: int,
) -> None:
    """carol is kicked with her hand open, on someone else's turn or on her own: the
    hand opened before says her seat is the AI's, with no cards and no Refresh (the
    deal is rigged so who starts is known; on alice's turn it kept carol's cards)."""
    rig(simcord_env, [JUNK, JUNK, JUNK], C.FOUR, [C.LLAMA] * 8, starter=starter)
    table, _, carol = await three_players(simcord_env, guild, channel, alice)
    assert table.to_move == starter
    hand = await open_hand(carol, channel)  # opened before the kick
    await alice.slash(channel, "lama kick", member=carol)
    assert table.seats[2].ai is not None
    await simcord_env.advance_time(3)  # the seat's AI moves, open hands are redrawn

    assert not shows_cards(await open_hand(carol, channel))
    assert not shows_cards(hand)
    assert "handed to an AI" in texts(hand)
    assert not [label for _, label, _ in custom_ids(hand) if label == "Refresh"]


async def alice_away(
    env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> Table:
    """A two-player game in which alice missed two turns in a row: an AI plays her seat."""
    rig(env, [JUNK, JUNK], C.FOUR, [C.LLAMA] * 8)
    rig(env, [JUNK, JUNK], C.FOUR, [C.LLAMA] * 8, starter=1)
    table = await two_player_game(env, alice, bob, channel, turn_timer=60, threshold=100)
    await env.advance_time(61)  # alice misses her first turn
    bobs = await open_hand(bob, channel)
    await bob.click(bobs, custom_id=enabled(bobs, "lama:quit:")[0])  # round 1 ends
    bobs = await open_hand(bob, channel)
    await bob.click(bobs, custom_id=enabled(bobs, "lama:draw:")[0])
    await env.advance_time(61)  # the second miss in a row
    assert table.seats[0].away
    return table


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_after_a_takeover_for_missed_turns_no_cards_until_i_am_back(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await alice_away(simcord_env, channel, alice, bob)

    away = await open_hand(alice, channel)
    assert not shows_cards(away)
    assert "I'm back" in [label for _, label, _ in custom_ids(away)]

    result = await alice.click(table_message(channel), label="I'm back")
    assert not table.seats[0].away
    assert shows_cards(result.response)
    assert shows_cards(await open_hand(alice, channel))


@pytest.mark.slow  # waits ACK_AFTER (1.5 s) in real time
async def test_i_am_back_saved_slowly_shows_the_hand_to_its_owner_alone(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """I'm back is pressed on the table, for all to see: a save slow enough to have the
    click acknowledged meanwhile must not turn the table into alice's hand."""
    table = await alice_away(simcord_env, channel, alice, bob)
    games = simcord_env.bot.service  # type: ignore[attr-defined]

    before = len(simcord_env.http_requests)

    with held(games.store.games, "update_timer", 5.0):
        result = await alice.click(table_message(channel), label="I'm back")
        await simcord_env.advance_time(6)

    assert not table.seats[0].away
    # Acknowledged as an update of the message clicked (6), its answer would be the table.
    calls = simcord_env.http_requests[before:]
    (ack,) = [c.json for c in calls if c.path.endswith("/callback")]
    assert ack["type"] == 5 and ack["data"]["flags"] & 64, "a private 'thinking…' of its own"
    assert result.ephemeral and result.response is not None
    assert title(result.response) == "Your hand" and shows_cards(result.response)
    assert title(table_message(channel)).startswith("🦙 L.A.M.A. — round")
