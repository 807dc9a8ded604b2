"""Saved before shown: a move is made on a copy, written, and only then is it the game."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import simcord

from bot.service import ServiceError
from game import DRAW, Card
from testkit.simcord_play import rig, service, two_player_game

C = Card
JUNK = [C.ONE, C.ONE, C.TWO, C.TWO, C.SIX, C.SIX]


async def test_a_move_being_written_is_not_seen_and_any_store_failure_undoes_it(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [JUNK, JUNK], C.FOUR, [C.LLAMA] * 8)
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    games = service(simcord_env)
    assert table.match is not None and table.to_move == 0
    before = table.match.snapshot()
    stamp, deadline, seats = table.stamp, table.turn_deadline, list(table.seats)
    writing, fail = asyncio.Event(), asyncio.Event()

    async def write_then_fail(*args: Any, **kwargs: Any) -> None:
        writing.set()
        await fail.wait()
        raise RuntimeError("the disk went away")  # not a StoreError

    games.store.games.append_events = write_then_fail  # type: ignore[method-assign]
    try:
        move = asyncio.create_task(games.moves.move(table, alice.id, DRAW, stamp))
        await writing.wait()
        # Another player looks at the table while the move is being written.
        assert table.match.snapshot() == before, "an unsaved move is visible"
        assert (table.stamp, table.to_move, table.turn_deadline) == (stamp, 0, deadline)
        fail.set()
        with pytest.raises(ServiceError) as refused:
            await move
    finally:
        del games.store.games.append_events  # the real store again
    assert refused.value.key == "error.save_failed"
    assert table.match.snapshot() == before, "a move that wasn't saved was kept"
    assert (table.stamp, table.turn_deadline, table.seats) == (stamp, deadline, seats)

    outcome = await games.moves.move(table, alice.id, DRAW, stamp)
    assert outcome.seat == 0 and table.stamp == stamp + 1 and table.to_move == 1
    stored = await games.store.games.load_game(table.game_id)
    assert stored is not None and list(stored.events) == table.match.events
