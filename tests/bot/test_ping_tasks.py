"""A turn ping's watch over its token: one per table at most, gone with its ping.

Each ping sent with a click's token has a task that takes it down before the token runs
out.  A bot with thousands of tables must not keep one such task asleep per turn played
(a quarter hour each), nor any once a game is over."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest
import simcord

from game import Card as C
from testkit.simcord_play import pings, rig, service, take_simple_turn, two_player_game

#: Nothing fits the top card: every turn is a draw, and the round goes on.
MISFITS = [C.FIVE] * 8 + [C.FOUR] * 8 + [C.SIX] * 2 + [C.LLAMA] * 8


def ping_watches() -> Counter[str]:
    """The live tasks watching a ping's token, by name (one name per game)."""
    names = (task.get_name() for task in asyncio.all_tasks() if not task.done())
    return Counter(name for name in names if name.startswith("lama-ping-end-"))


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_table_keeps_at_most_one_ping_watch_and_none_once_over(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    dave = guild.add_member(simcord_env.create_user("dave"))
    side = guild.create_text_channel("side")
    tables = []
    for (host, other), place in (((alice, bob), channel), ((carol, dave), side)):
        rig(simcord_env, [[C.SIX] * 3, [C.SIX] * 3], C.ONE, MISFITS)
        tables.append((await two_player_game(simcord_env, host, other, place), place))
    players = {p.id: p for p in (alice, bob, carol, dave)}
    for _ in range(12):
        for table, place in tables:
            seat = table.to_move
            assert seat is not None
            await take_simple_turn(players[table.seats[seat].user_id or 0], place)
            await simcord_env.advance_time(20)  # the next player looks away: pinged
    assert all(len(pings(place)) == 1 for _, place in tables)
    watches = ping_watches()
    assert set(watches) == {f"lama-ping-end-{table.game_id}" for table, _ in tables}
    assert max(watches.values()) == 1, watches

    # A game cancelled: its watch goes with its ping; the other game's stays.
    await alice.slash(channel, "lama cancel")
    await simcord_env.advance_time(3)
    assert pings(channel) == []
    assert set(ping_watches()) == {f"lama-ping-end-{tables[1][0].game_id}"}
    await carol.slash(side, "lama cancel")
    await simcord_env.advance_time(3)
    assert ping_watches() == Counter()
    assert service(simcord_env).registry.table_in(side.id) is None
