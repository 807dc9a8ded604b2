"""Clocks never die: whatever fails while a clock rings, every clock goes on."""

from __future__ import annotations

import pytest
import simcord

from bot.service import TableListener
from bot.service.play.table import Table
from game import Card
from testkit.simcord_play import last_moves, rig, service, two_player_game

C = Card
JUNK = [C.ONE, C.ONE, C.TWO, C.TWO, C.SIX, C.SIX]


class WarningFails:
    """The front end, except that posting the turn warning fails with ``error``."""

    def __init__(self, inner: TableListener, error: BaseException) -> None:
        self.inner = inner
        self.error = error
        self.warnings = 0

    async def table_changed(self, table: Table) -> None:
        await self.inner.table_changed(table)

    async def turn_started(self, table: Table) -> None:
        await self.inner.turn_started(table)

    async def turn_warning(self, table: Table) -> None:
        self.warnings += 1
        raise self.error

    async def table_closed(self, table: Table, reason: str) -> None:
        await self.inner.table_closed(table, reason)


@pytest.mark.parametrize(
    "error",
    [
        ConnectionResetError(104, "Connection reset by peer"),
        TimeoutError(),
        RuntimeError("anything at all"),
    ],
    ids=["reset", "timeout", "any"],
)
async def test_a_turn_times_out_on_schedule_when_the_warning_fails(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    error: BaseException,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [JUNK, JUNK], C.FOUR, [C.LLAMA] * 8)
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    games = service(simcord_env)
    assert games.notices.listener is not None
    failing = WarningFails(games.notices.listener, error)
    games.notices.listener = failing

    await simcord_env.advance_time(61)

    assert failing.warnings == 1
    assert table.match is not None and table.match.round is not None
    assert table.match.round.active == [False, True], "alice's turn did not time out"
    assert table.to_move == 1 and table.seats[0].missed_turns == 1
    await simcord_env.advance_time(3)
    assert "alice ran out of time and quit the round" in last_moves(channel)


@pytest.mark.parametrize("status", [500, 503, 429])
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_turn_times_out_on_schedule_when_discord_refuses_the_warning(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    status: int,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [JUNK, JUNK], C.FOUR, [C.LLAMA] * 8)
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    await simcord_env.advance_time(40)
    simcord_env.inject_error("*", f"/channels/{channel.id}/messages*", status=status, times=None)

    await simcord_env.advance_time(21)

    assert table.match is not None and table.match.round is not None
    assert table.match.round.active == [False, True], "alice's turn did not time out"
