"""A game's buttons work only where the game is: a custom_id copied into another
server or channel is refused, and a Rematch reopens only a finished game of its channel."""

from __future__ import annotations

import pytest
import simcord

from bot.service.play.table import Status
from testkit.simcord_play import (
    forged,
    one_move_from_the_end,
    service,
    take_simple_turn,
    two_player_game,
)


def elsewhere(
    env: simcord.Env, *players: simcord.MemberActor
) -> tuple[simcord.ChannelHandle, simcord.MemberActor, list[simcord.MemberActor]]:
    """A channel in another server, that server's owner, and ``players`` as its members."""
    owner = env.create_user("mallory")
    other = env.create_guild("Elsewhere", owner=owner)
    members = [other.add_member(player.user) for player in players]
    return other.create_text_channel("games"), other.add_member(owner), members


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_cancel_button_copied_into_another_server_is_refused(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await two_player_game(simcord_env, alice, bob, channel)
    there, mallory, _ = elsewhere(simcord_env)

    result = await mallory.click(
        forged(simcord_env, there, f"lama:cancel:{table.game_id}"), label="Forged"
    )

    assert result.ephemeral and result.response is not None
    assert "another channel" in result.response.content
    assert table.status is Status.RUNNING


async def test_a_button_copied_into_another_channel_of_the_server_is_refused(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await two_player_game(simcord_env, alice, bob, channel)
    side = guild.create_text_channel("side")
    before = table.stamp

    for custom_id in (f"lama:cancel:{table.game_id}", f"lama:draw:{table.game_id}:{before}"):
        result = await alice.click(forged(simcord_env, side, custom_id), label="Forged")
        assert result.ephemeral and result.response is not None
        assert "another channel" in result.response.content
    assert table.status is Status.RUNNING and table.stamp == before


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_rematch_reopens_only_a_finished_game_of_this_channel(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    finished = await one_move_from_the_end(simcord_env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    assert finished.status is Status.FINISHED
    there, _, (alice_there,) = elsewhere(simcord_env, alice)
    side = guild.create_text_channel("side")
    games = service(simcord_env)

    for place, clicker in ((there, alice_there), (side, alice)):
        result = await clicker.click(
            forged(simcord_env, place, f"lama:rematch:{finished.game_id}"), label="Forged"
        )
        assert result.ephemeral and result.response is not None, place
        assert games.registry.table_in(place.id) is None, (
            "no lobby opened with the old game's seats"
        )

    # A game still running is no game to rematch, not even in its own channel.
    running = await two_player_game(simcord_env, alice, bob, side)
    await simcord_env.advance_time(3)
    result = await bob.click(
        forged(simcord_env, channel, f"lama:rematch:{running.game_id}"), label="Forged"
    )
    assert result.ephemeral and result.response is not None
    assert games.registry.table_in(channel.id) is None
