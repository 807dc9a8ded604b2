"""A Rematch through Discord: its lobby shows who confirmed, Start plays only them (and the
AI seats) and tells the host whom it left out; nobody absent is seated, pinged or rated."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.service.play.table import Status, Table
from game import Card as C
from testkit.simcord_play import (
    open_lobby,
    pings,
    play_to_the_end,
    rig,
    service,
    table_message,
    take_simple_turn,
    texts,
)


async def one_game(env: simcord.Env, channel: simcord.ChannelHandle, alice: Any, bob: Any) -> Table:
    """alice and bob play one game, which alice ends with her only card."""
    rig(env, [[C.FOUR], [C.SIX] * 3], C.FOUR, [], starter=0)
    table = await open_lobby(env, alice, channel, threshold=1)
    await bob.click(table_message(channel), label="Join")
    await alice.click(table_message(channel), label="Start")
    await take_simple_turn(alice, channel)
    assert table.status is Status.FINISHED
    await env.advance_time(3)
    return table


async def test_a_rematch_bob_never_confirmed_starts_without_him_and_says_so(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    await one_game(simcord_env, channel, alice, bob)
    await alice.click(table_message(channel), label="Rematch")
    rematch = service(simcord_env).registry.table_in(channel.id)
    assert rematch is not None
    shown = texts(table_message(channel))
    assert f"<@{alice.id}> 👑 — ✅ confirmed" in shown
    assert f"<@{bob.id}> — ⏳ not confirmed yet" in shown
    assert "only once they press Join" in shown
    refused = await alice.click(table_message(channel), label="Start")
    assert refused.response is not None and refused.ephemeral
    assert "only those who pressed Join play" in refused.response.content
    await alice.select(table_message(channel), ["easy"])
    started = await alice.click(table_message(channel), label="Start")
    assert rematch.status is Status.RUNNING
    assert rematch.humans == [alice.id] and len(rematch.seats) == 2
    told = [m.content for m in started.followups if m.ephemeral]
    assert told == [
        f"Started without <@{bob.id}>: they didn't press Join in the rematch, so they don't play."
    ]
    await simcord_env.advance_time(5)
    assert not any(str(bob.id) in ping for ping in pings(channel))


@pytest.mark.slow  # two whole games
async def test_those_who_press_join_in_the_rematch_play_it(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    await one_game(simcord_env, channel, alice, bob)
    await bob.click(table_message(channel), label="Rematch")
    rematch = service(simcord_env).registry.table_in(channel.id)
    assert rematch is not None
    await alice.click(table_message(channel), label="Join")  # she confirms
    assert [s.away for s in rematch.seats] == [False, False]
    assert "not confirmed" not in texts(table_message(channel))  # all in: a plain lobby
    await bob.click(table_message(channel), label="Start")
    assert rematch.status is Status.RUNNING and rematch.humans == [alice.id, bob.id]
    await play_to_the_end(rematch, [alice, bob], channel)
