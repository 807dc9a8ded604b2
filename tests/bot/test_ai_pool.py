"""A Hard AI seat thinks in the bot's worker processes, which stop with the pool."""

from __future__ import annotations

import multiprocessing

import simcord

from bot.bot import LamaBot
from bot.tables import Status
from game.events import CardDrawn, CardPlayed, PlayerQuit

from .play import open_lobby, table_message, take_simple_turn


async def test_hard_thinks_in_a_worker_process(
    simcord_env: simcord.Env,
    simcord_bot: LamaBot,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    before = set(multiprocessing.active_children())
    table = await open_lobby(simcord_env, alice, channel, turn_timer=0)
    await alice.select(table_message(channel), ["hard"])
    await alice.click(table_message(channel), label="Start")
    assert table.match is not None
    hard_moves = 0
    for _ in range(12):
        await simcord_env.advance_time(5)
        hard_moves = sum(
            1
            for e in table.match.events
            if isinstance(e, CardPlayed | CardDrawn | PlayerQuit) and e.seat == 1
        )
        if hard_moves or table.status is not Status.RUNNING:
            break
        if table.to_move == 0:
            await take_simple_turn(alice, channel)
    assert hard_moves > 0
    workers = set(multiprocessing.active_children()) - before
    assert workers, "Hard's move was not thought in a worker process"
    await simcord_bot.thinking.close()
    assert not any(p.is_alive() for p in workers)
