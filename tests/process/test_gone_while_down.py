"""A channel, thread or server that went while the bot was down: once it is back and
connected, the games there end as they would have with the bot watching."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.config import Settings
from bot.service.play.table import Status, Table
from testkit.simcord_play import enabled, service, two_player_game

from .common import open_hand_anywhere, restart, running


def sent_to(env: simcord.Env, channel_id: int, since: int) -> list[str]:
    """What the bot sent, edited or deleted in ``channel_id`` after the ``since``-th call."""
    return [
        f"{r.method} {r.path}"
        for r in env.http_requests[since:]
        if f"/channels/{channel_id}/" in r.path and r.method != "GET"
    ]


async def ended_for_good(env: simcord.Env, table: Table, channel_id: int, since: int) -> None:
    games = service(env)
    assert (
        games.registry.table(table.game_id) is None and games.registry.table_in(channel_id) is None
    )
    stored = await games.store.games.load_game(table.game_id)
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
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
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
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Not in the cache, but Discord fails to say whether it is gone: the game is not
    ended on a guess."""
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    simcord_env.inject_error("GET", f"/channels/{channel.id}", status=500, times=None)

    await restart(
        simcord_env, settings, while_down=lambda: simcord_env.backend.delete_channel(channel.id)
    )

    assert running(simcord_env, table.game_id).channel_id == channel.id


async def thread_game(
    env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle, alice: Any
) -> tuple[Table, simcord.ChannelHandle, dict[int, Any]]:
    env.backend.create_thread(channel.id, "lama-thread", alice.id)
    (thread,) = channel.threads
    bob = guild.add_member(env.create_user("bob"))
    table = await two_player_game(env, alice, bob, thread, turn_timer=60)
    return table, thread, {alice.id: alice, bob.id: bob}


def archive(env: simcord.Env, thread_id: int) -> None:
    """Archived while the bot was down (by Discord after a day unused, say): a restarted
    bot's cache has no such thread, since Discord's GUILD_CREATE lists only the active
    ones (SimCord lists every thread of the guild, so this one is left out of it)."""
    thread = env.backend.channels[thread_id]
    assert thread.guild_id is not None and thread.thread_metadata is not None
    thread.thread_metadata.archived = True
    env.backend.get_guild(thread.guild_id).thread_ids.remove(thread_id)


async def a_move_is_made(
    env: simcord.Env, thread: Any, players: dict[int, Any], game_id: int
) -> None:
    """The player to move quits the round from /lama hand, and the game goes on."""
    table = running(env, game_id)
    assert table.match is not None and table.to_move is not None
    moves = len(table.match.events)
    player = players[table.seats[table.to_move].user_id or 0]
    hand = await open_hand_anywhere(player, thread, slash=True)
    [quit_id] = enabled(hand, "lama:quit:")
    await player.click(hand, custom_id=quit_id)
    assert len(table.match.events) > moves and service(env).registry.table(game_id) is table


async def test_a_thread_archived_while_the_bot_was_down_keeps_its_game(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    table, thread, players = await thread_game(simcord_env, guild, channel, alice)

    await restart(simcord_env, settings, while_down=lambda: archive(simcord_env, thread.id))
    await simcord_env.advance_time(1)

    assert simcord_env.bot.get_channel(thread.id) is None, "the thread is in the cache"
    await a_move_is_made(simcord_env, thread, players, table.game_id)


async def test_missing_access_to_an_archived_thread_after_a_restart_ends_no_game(
    simcord_env: simcord.Env,
    settings: Settings,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """Discord's Missing Access (403, 50001) when the bot looks the place up, as when an
    admin hid it from the bot for now: the game is not ended; it goes on through the
    players' private hands until access is back (or the idle limit ends it)."""
    table, thread, players = await thread_game(simcord_env, guild, channel, alice)

    def hide() -> None:
        archive(simcord_env, thread.id)
        simcord_env.inject_error(
            "GET",
            f"/channels/{thread.id}",
            status=403,
            code=50001,
            message="Missing Access",
            times=None,
        )

    await restart(simcord_env, settings, while_down=hide)
    await simcord_env.advance_time(1)

    assert [r for r in simcord_env.http_requests if r.path == f"/channels/{thread.id}"], (
        "the bot never looked the thread up"
    )
    await a_move_is_made(simcord_env, thread, players, table.game_id)
