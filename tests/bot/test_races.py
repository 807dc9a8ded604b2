"""Two clicks at the same moment: the first wins, the second is told why.

SimCord runs one click at a time, so these call the game service the way two
clicks arriving together would: concurrently, each waiting for the table's lock.
"""

from __future__ import annotations

import asyncio

import simcord

from bot.service import Person, ServiceError
from bot.tables import Status

from .play import open_lobby, service, table_message


async def test_start_twice_and_a_join_at_once_start_the_game_once(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    bob = guild.add_member(simcord_env.create_user("bob"))
    table = await open_lobby(simcord_env, alice, channel, turn_timer=60)
    await bob.click(table_message(channel), label="Join")
    games = service(simcord_env)

    results = await asyncio.gather(
        games.start(table.game_id, alice.id),
        games.start(table.game_id, alice.id),
        games.join(table.game_id, Person(42, "carol")),
        return_exceptions=True,
    )

    assert results[0] is table
    assert [getattr(r, "key", r) for r in results[1:]] == [
        "error.already_started",
        "error.already_started",
    ]
    assert all(isinstance(r, ServiceError) for r in results[1:])
    assert table.status is Status.RUNNING and len(table.seats) == 2
    stored = await games.store.load_game(table.game_id)
    assert stored is not None
    assert stored.turn_deadline == table.turn_deadline, "the losing start moved no deadline"
    assert [type(e).__name__ for e in stored.events].count("RoundDealt") == 1
