"""Two clicks at the same moment: the first wins, the second is told why.

SimCord runs one click at a time, so these call the game service the way two
clicks arriving together would: concurrently, each waiting for the table's lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

import pytest
import simcord

from bot.service import GameService, Person, ServiceError
from bot.service.play.table import Status, Table
from data import SeatRecord
from game import Ruleset
from testkit.simcord_play import (
    one_move_from_the_end,
    open_lobby,
    service,
    table_message,
    take_simple_turn,
)
from tests.simcord_fixtures import DEV_GUILD_ID


async def test_start_twice_and_a_join_at_once_start_the_game_once(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await open_lobby(simcord_env, alice, channel, turn_timer=60)
    await bob.click(table_message(channel), label="Join")
    games = service(simcord_env)

    results = await asyncio.gather(
        games.lobbies.start(table, alice.id),
        games.lobbies.start(table, alice.id),
        games.lobbies.join(table, Person(42, "carol")),
        return_exceptions=True,
    )

    assert results[0] is table
    assert [getattr(r, "key", r) for r in results[1:]] == [
        "error.already_started",
        "error.already_started",
    ]
    assert all(isinstance(r, ServiceError) for r in results[1:])
    assert table.status is Status.RUNNING and len(table.seats) == 2
    stored = await games.store.games.load_game(table.game_id)
    assert stored is not None
    assert stored.turn_deadline == table.turn_deadline, "the losing start moved no deadline"
    assert [type(e).__name__ for e in stored.events].count("RoundDealt") == 1


def _open(games: GameService, channel_id: int, person: Person) -> Awaitable[Table]:
    return games.lobbies.open_lobby(
        guild_id=DEV_GUILD_ID,
        channel_id=channel_id,
        host=person,
        ruleset=Ruleset(),
        turn_timer=60,
        locale="en",
    )


async def _open_in(games: GameService, channel_id: int) -> list[int]:
    return [r.id for r in await games.store.games.unfinished_games() if r.channel_id == channel_id]


async def test_two_new_lobbies_at_once_open_one_and_tell_the_other_a_game_is_open(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle
) -> None:
    games = service(simcord_env)

    results = await asyncio.gather(
        _open(games, channel.id, Person(1, "ann")),
        _open(games, channel.id, Person(2, "ben")),
        return_exceptions=True,
    )

    won = [r for r in results if isinstance(r, Table)]
    lost = [r for r in results if isinstance(r, ServiceError)]
    assert len(won) == 1 and [e.key for e in lost] == ["error.channel_busy"]
    assert games.registry.table_in(channel.id) is won[0]
    assert await _open_in(games, channel.id) == [won[0].game_id]


async def test_a_channel_with_a_game_open_in_the_store_is_busy_for_the_service(
    simcord_env: simcord.Env, guild: simcord.GuildHandle
) -> None:
    """Another bot process holds the channel: the store's unique index refuses."""
    games = service(simcord_env)
    other = guild.create_text_channel("other")
    await games.store.games.create_game(
        guild_id=DEV_GUILD_ID,
        channel_id=other.id,
        host_id=9,
        ruleset=Ruleset(),
        turn_timer=0,
        seats=[SeatRecord(0, 9, None, "zed")],
    )
    with pytest.raises(ServiceError) as refused:
        await _open(games, other.id, Person(1, "ann"))
    assert refused.value.key == "error.channel_busy"
    assert games.registry.table_in(other.id) is None


async def test_two_rematch_clicks_at_once_open_one_lobby(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await one_move_from_the_end(simcord_env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    assert table.status is Status.FINISHED
    games = service(simcord_env)

    results = await asyncio.gather(
        games.lobbies.rematch(table.game_id, Person(alice.id, "alice"), channel.id, guild.id),
        games.lobbies.rematch(table.game_id, Person(bob.id, "bob"), channel.id, guild.id),
        games.lobbies.rematch(table.game_id, Person(alice.id, "alice"), channel.id, guild.id),
        return_exceptions=True,
    )

    won = [r for r in results if isinstance(r, Table)]
    lost = [getattr(r, "key", r) for r in results if not isinstance(r, Table)]
    assert len(won) == 1 and lost == ["error.channel_busy", "error.channel_busy"]
    assert games.registry.table_in(channel.id) is won[0]
    assert await _open_in(games, channel.id) == [won[0].game_id]


async def test_two_cancels_at_once_tell_the_second_the_game_is_gone(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """The host and an admin press Cancel together: nobody is told a save failed."""
    table = await open_lobby(simcord_env, alice, channel, turn_timer=60)
    games = service(simcord_env)

    results = await asyncio.gather(
        games.lobbies.cancel(table, alice.id, can_manage=False),
        games.lobbies.cancel(table, 7, can_manage=True),
        return_exceptions=True,
    )

    assert results[0] is table
    assert getattr(results[1], "key", results[1]) == "error.game_gone"
    assert table.status is Status.CANCELLED


async def test_two_quick_clicks_on_hints_turn_them_off_and_on_again(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    table = await open_lobby(simcord_env, alice, channel, turn_timer=60)
    games = service(simcord_env)
    assert table.hints

    await asyncio.gather(
        games.lobbies.toggle_hints(table, alice.id),
        games.lobbies.toggle_hints(table, alice.id),
    )

    assert table.hints, "two toggles must give back the original value"
    stored = await games.store.games.load_game(table.game_id)
    assert stored is not None and stored.hints is True
