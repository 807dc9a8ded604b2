"""Stepping away is not leaving, through Discord: the table waits, says until when, and
"I'm back" plays on; nobody back by then ends it, with a Rematch."""

from __future__ import annotations

import pytest
import simcord

from bot.config import Settings
from bot.service.play.table import Status, Table
from game import Card
from testkit.simcord_play import (
    open_lobby,
    rig,
    service,
    table_message,
    texts,
)
from tests.process.common import restart, running

C = Card
JUNK = [C.ONE, C.ONE, C.TWO, C.TWO, C.SIX, C.SIX]
TURN = 60


async def alice_against_an_ai(
    env: simcord.Env, alice: simcord.MemberActor, channel: simcord.ChannelHandle
) -> Table:
    """Alice (seat 0) and a Normal AI, a 60 s turn timer, Alice to move; she lets two
    turns run out (the AI ends the first round, so it starts the second)."""
    rig(env, [JUNK, JUNK], C.FOUR, [C.LLAMA] * 8)
    table = await open_lobby(env, alice, channel, turn_timer=TURN, threshold=100)
    await alice.select(table_message(channel), ["normal"])
    await alice.click(table_message(channel), label="Start")
    while not table.seats[0].away:
        assert table.status is Status.RUNNING and table.to_move == 0
        await env.advance_time(TURN + 1)
    await env.advance_time(3)
    return table


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_the_table_waits_for_a_player_away_and_im_back_plays_on(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    table = await alice_against_an_ai(simcord_env, alice, channel)
    shown = texts(table_message(channel))
    # Before: "Every player's seat is held by an AI, so the game was ended."
    assert "Everybody is away" in shown, shown
    until = table.waits_until
    assert until is not None and table.status is Status.RUNNING
    assert f"waits for **alice** until <t:{int(until)}:t>" in shown
    stamp = table.stamp
    await simcord_env.advance_time(20 * 60)  # the AI to move stands still
    assert table.stamp == stamp and table.status is Status.RUNNING
    result = await alice.click(table_message(channel), label="I'm back")
    assert result.ephemeral or (result.response is not None and result.response.ephemeral)
    await simcord_env.advance_time(3)
    assert table.waits_until is None and table.stamp > stamp  # the AI played on
    assert "Everybody is away" not in texts(table_message(channel))
    assert any(line.kind == "back" for line in table.recent)
    await simcord_env.advance_time(11 * 60)  # past the wait's old end: still on
    assert table.status is Status.RUNNING


@pytest.mark.parametrize("restarted", [False, True], ids=["", "restarted"])
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_nobody_back_by_then_ends_the_game_rated_with_a_rematch(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    restarted: bool,
) -> None:
    """Also when the bot restarts while the game waits: it waits on until the time its
    table said, and ends then."""
    table = await alice_against_an_ai(simcord_env, alice, channel)
    until = table.waits_until
    assert until is not None
    if restarted:
        await simcord_env.advance_time(10 * 60)
        await restart(simcord_env, settings)
        await simcord_env.advance_time(3)
        table = running(simcord_env, table.game_id)
        assert table.waits_until == until
        assert f"until <t:{int(until)}:t>" in texts(table_message(channel))
    await simcord_env.advance_time(until - simcord_env.now().timestamp() + 1)
    assert table.status is Status.CANCELLED
    await simcord_env.advance_time(3)
    ended = table_message(channel)
    assert "nobody came back within 30 minutes" in texts(ended), texts(ended)
    store = simcord_env.bot.store  # type: ignore[attr-defined]
    assert await store.ratings.rating_changes(table.game_id)  # rated, as before
    result = await alice.click(ended, label="Rematch")
    assert result.response is not None and not result.ephemeral
    rematch = service(simcord_env).registry.table_in(channel.id)
    assert rematch is not None and rematch.status is Status.LOBBY
    assert rematch.humans == [alice.id] and len(rematch.seats) == 2
