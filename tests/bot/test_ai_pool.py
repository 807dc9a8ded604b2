"""A Hard AI seat thinks in the bot's worker processes, which stop with the pool."""

from __future__ import annotations

import multiprocessing

import pytest
import simcord

from bot.client import LamaBot
from bot.config import Settings
from bot.service.play.table import Status
from game import Card as C
from game.events import CardDrawn, CardPlayed, PlayerQuit
from testkit.simcord_play import open_lobby, rig, table_message, take_simple_turn
from tests.process.common import restart, running

pytestmark = pytest.mark.slow  # real AI worker processes


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


def new_workers(before: set[multiprocessing.process.BaseProcess]) -> list[object]:
    return [p for p in multiprocessing.active_children() if p not in before and p.is_alive()]


async def test_a_hard_seat_in_a_lobby_starts_the_workers_before_the_game_does(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    """The first Hard move must not wait, under its table's lock, for a process to start."""
    before = set(multiprocessing.active_children())
    await open_lobby(simcord_env, alice, channel, turn_timer=0)
    await simcord_env.settle()
    assert not new_workers(before), "a lobby without Hard needs no AI process"

    await alice.select(table_message(channel), ["hard"])
    await simcord_env.settle()

    assert new_workers(before), "the Hard seat's workers were not started before the game"


async def test_a_resumed_game_with_a_hard_seat_has_its_workers_when_the_bot_is_back(
    simcord_env: simcord.Env,
    settings: Settings,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.THREE] * 3, [C.FOUR] * 3], C.THREE, [C.ONE] * 8)  # alice moves first
    table = await open_lobby(simcord_env, alice, channel, turn_timer=0)
    await alice.select(table_message(channel), ["hard"])
    await alice.click(table_message(channel), label="Start")
    assert table.to_move == 0
    before = set(multiprocessing.active_children())

    await restart(simcord_env, settings)

    assert running(simcord_env, table.game_id).to_move == 0, "no Hard move was asked for yet"
    assert new_workers(before), "the restarted bot has no AI process for its Hard seat"
