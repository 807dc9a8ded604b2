"""A channel, thread or server that went while the bot was down: once it is back and
connected, the games there end as they would have with the bot watching."""

from __future__ import annotations

import pytest
import simcord

from bot.config import Settings
from bot.tables import Status, Table
from tests.bot.play import service, two_player_game

from .common import restart, running


def sent_to(env: simcord.Env, channel_id: int, since: int) -> list[str]:
    """What the bot sent, edited or deleted in ``channel_id`` after the ``since``-th call."""
    return [
        f"{r.method} {r.path}"
        for r in env.http_requests[since:]
        if f"/channels/{channel_id}/" in r.path and r.method != "GET"
    ]


async def ended_for_good(env: simcord.Env, table: Table, channel_id: int, since: int) -> None:
    games = service(env)
    assert games.table(table.game_id) is None and games.table_in(channel_id) is None
    stored = await games.store.load_game(table.game_id)
    assert stored is not None and stored.status == "cancelled", "the store still has it open"
    await env.advance_time(3 * 60)  # long past the turn's deadline and warning
    assert sent_to(env, channel_id, since) == []
    assert not env.errors


@pytest.mark.parametrize("in_thread", [False, True], ids=["channel", "thread"])
async def test_a_channel_or_thread_deleted_while_the_bot_was_down_ends_its_game(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    in_thread: bool,
) -> None:
    place = channel
    if in_thread:
        simcord_env.backend.create_thread(channel.id, "lama-thread", alice.id)
        (place,) = channel.threads
    bob = guild.add_member(simcord_env.create_user("bob"))
    table = await two_player_game(simcord_env, alice, bob, place, turn_timer=60)
    side = guild.create_text_channel("side")
    other = await two_player_game(simcord_env, bob, alice, side, turn_timer=60)
    since = len(simcord_env.http_requests)

    await restart(
        simcord_env, settings, while_down=lambda: simcord_env.backend.delete_channel(place.id)
    )

    await ended_for_good(simcord_env, table, place.id, since)
    assert running(simcord_env, other.game_id).channel_id == side.id, "the other game goes on"


@pytest.mark.simcord(strict_sync=False)  # the commands are synced to the dev guild only
async def test_a_server_that_removed_the_bot_while_it_was_down_ends_its_games(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    bob = guild.add_member(simcord_env.create_user("bob"))
    kept = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    other = simcord_env.create_guild("Llama Lounge 2")
    there = other.create_text_channel("lama")
    carol = other.add_member(simcord_env.create_user("carol"))
    dave = other.add_member(simcord_env.create_user("dave"))
    table = await two_player_game(simcord_env, carol, dave, there, turn_timer=60)
    since = len(simcord_env.http_requests)

    await restart(
        simcord_env, settings, while_down=lambda: simcord_env.backend.remove_guild(other.id)
    )

    await ended_for_good(simcord_env, table, there.id, since)
    assert running(simcord_env, kept.game_id).status is Status.RUNNING


async def test_no_answer_from_discord_about_a_channel_ends_no_game(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """Not in the cache, but Discord fails to say whether it is gone: the game is not
    ended on a guess."""
    bob = guild.add_member(simcord_env.create_user("bob"))
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    simcord_env.inject_error("GET", f"/channels/{channel.id}", status=500, times=None)

    await restart(
        simcord_env, settings, while_down=lambda: simcord_env.backend.delete_channel(channel.id)
    )

    assert running(simcord_env, table.game_id).channel_id == channel.id
