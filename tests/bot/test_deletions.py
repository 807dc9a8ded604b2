"""The table survives an admin's clean-up: a deleted table message comes back and play
goes on; a deleted channel or thread, or the bot removed from the server, ends the game
there for good, with no clock left ticking and no call left going out."""

from __future__ import annotations

import pytest
import simcord

from bot.service.play.table import Status, Table
from game import Card as C
from testkit.simcord_play import (
    fail_table_edits,
    open_hand,
    open_lobby,
    rig,
    service,
    shown_at,
    table_message,
    take_simple_turn,
    two_player_game,
)


def calls_to(env: simcord.Env, channel_id: int, since: int) -> list[str]:
    """The REST calls the bot made about ``channel_id`` after the ``since``-th call."""
    return [
        f"{r.method} {r.path}"
        for r in env.http_requests[since:]
        if f"/channels/{channel_id}" in r.path
    ]


async def test_a_deleted_table_message_is_posted_again_and_play_goes_on(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.TWO, C.FIVE], [C.THREE, C.SIX]], C.ONE, [])
    table = await two_player_game(simcord_env, alice, bob, channel)
    old = table_message(channel)
    simcord_env.backend.delete_message(channel.id, old.id)  # an admin tidies up

    hand = (await alice.slash(channel, "lama hand")).response
    await alice.click(hand, label="Play 2")
    await simcord_env.advance_time(3)

    again = table_message(channel)
    assert again.id != old.id and shown_at(simcord_env, table) == again.id
    stored = await service(simcord_env).store.games.load_game(table.game_id)
    assert stored is not None and stored.table_message_id == again.id, "saved for a restart"
    await take_simple_turn(bob, channel)  # bob plays on from the table posted again
    assert table.to_move == 0 and table.status is Status.RUNNING


async def closed_for_good(env: simcord.Env, table: Table, channel_id: int, since: int) -> None:
    assert service(env).registry.table(table.game_id) is None and table.status is Status.CANCELLED
    stored = await service(env).store.games.load_game(table.game_id)
    assert stored is not None and stored.status == "cancelled"
    await env.advance_time(3 * 60)  # long past the turn's deadline and warning
    assert calls_to(env, channel_id, since) == []
    assert not env.errors


@pytest.mark.parametrize("in_thread", [False, True], ids=["channel", "thread"])
async def test_a_deleted_channel_or_thread_ends_its_game_and_nothing_more_is_sent_there(
    simcord_env: simcord.Env,
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
    await open_hand(alice, place)
    since = len(simcord_env.http_requests)

    simcord_env.backend.delete_channel(place.id)
    await simcord_env.settle()

    await closed_for_good(simcord_env, table, place.id, since)


async def test_the_bot_removed_from_the_server_ends_its_games_there(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    side = guild.create_text_channel("side")
    lobby = await open_lobby(simcord_env, alice, side)
    since = len(simcord_env.http_requests)

    simcord_env.backend.remove_guild(guild.id)
    await simcord_env.settle()

    await closed_for_good(simcord_env, table, channel.id, since)
    assert (
        lobby.status is Status.CANCELLED
        and service(simcord_env).registry.table(lobby.game_id) is None
    )


def delete_unseen(env: simcord.Env, channel_id: int) -> None:
    """Delete a channel without the bot hearing of it, as when its gateway was reconnecting."""
    listeners = list(env.backend.subscribers)
    env.backend.subscribers.clear()
    try:
        env.backend.delete_channel(channel_id)
    finally:
        env.backend.subscribers.extend(listeners)


async def test_a_channel_deleted_unseen_ends_its_game_at_the_next_table_edit(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Discord's Unknown Channel to a table edit, confirmed by a look-up, ends the game as a
    deletion does: no clock, no AI move, no ping goes on for a table nobody can see."""
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    delete_unseen(simcord_env, channel.id)
    assert service(simcord_env).registry.table(table.game_id) is table, "nobody told the bot yet"
    message_id = shown_at(simcord_env, table)

    before = len(simcord_env.http_requests)
    await simcord_env.advance_time(61)  # the turn runs out; the table's edit finds no channel
    since = len(simcord_env.http_requests)
    # The Start click's token edits the table at first: its failure has the bot token
    # try, and that one's Unknown Channel has the bot look the channel up.
    calls = [f"{r.method} {r.path}" for r in simcord_env.http_requests[before:since]]
    edit = f"PATCH /channels/{channel.id}/messages/{message_id}"
    assert edit in calls and calls[calls.index(edit) + 1] == f"GET /channels/{channel.id}"

    await closed_for_good(simcord_env, table, channel.id, since)


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_an_unknown_channel_answer_for_a_channel_that_is_there_ends_nothing(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    # The Start click's token edits the table at first; an Unknown Channel from it has the
    # bot token try, and that one's Unknown Channel has the bot look the channel up.
    fail_table_edits(
        simcord_env, channel, times=1, status=404, code=10003, message="Unknown Channel"
    )

    players = [alice, bob]
    first = table.to_move
    assert first is not None
    await take_simple_turn(players[first], channel)
    await simcord_env.settle()
    assert simcord_env.backend.faults == [], "the table's edit met Unknown Channel"
    assert (
        table.status is Status.RUNNING
        and service(simcord_env).registry.table(table.game_id) is table
    )
    await take_simple_turn(players[1 - first], channel)  # the table shows the game again

    assert table.status is Status.RUNNING and table.to_move == first
    assert table_message(channel).id == shown_at(simcord_env, table)


async def test_missing_access_when_the_bot_looks_a_channel_up_ends_nothing(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """The table edit meets Unknown Channel and the look-up Missing Access (403, 50001):
    hidden from the bot, not deleted, so the game goes on."""
    table = await two_player_game(simcord_env, alice, bob, channel, turn_timer=60)
    fail_table_edits(
        simcord_env, channel, times=1, status=404, code=10003, message="Unknown Channel"
    )
    simcord_env.inject_error(
        "GET", f"/channels/{channel.id}", status=403, code=50001, message="Missing Access"
    )

    players = [alice, bob]
    first = table.to_move
    assert first is not None
    await take_simple_turn(players[first], channel)
    await simcord_env.settle()
    assert simcord_env.backend.faults == [], "the look-up met Missing Access"
    assert (
        table.status is Status.RUNNING
        and service(simcord_env).registry.table(table.game_id) is table
    )
    await take_simple_turn(players[1 - first], channel)
    assert table.status is Status.RUNNING and table.to_move == first
