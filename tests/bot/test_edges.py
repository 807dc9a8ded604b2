"""Bad input at the bot's edges gets a clear answer; odd but real cases still work."""

from __future__ import annotations

import pytest
import simcord

from bot.frontend.custom_ids import TableButtonId
from bot.service.play.table import Status
from game import Card as C
from testkit.simcord_play import (
    forged,
    rig,
    service,
    started_game,
    table_message,
    take_simple_turn,
    two_player_game,
)


@pytest.mark.parametrize("seconds", [1, 9, 14])
async def test_a_turn_timer_under_15_seconds_is_refused(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    seconds: int,
) -> None:
    result = await alice.slash(channel, "lama new", turn_timer=seconds)
    assert result.ephemeral and result.response is not None
    assert "at least 15 seconds" in result.response.content
    assert service(simcord_env).registry.table_in(channel.id) is None


@pytest.mark.parametrize("seconds", [0, 15])
async def test_no_timer_or_a_15_second_timer_is_fine(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    seconds: int,
) -> None:
    result = await alice.slash(channel, "lama new", turn_timer=seconds)
    assert result.response is not None and not result.ephemeral
    table = service(simcord_env).registry.table_in(channel.id)
    assert table is not None and table.turn_timer == seconds


async def test_a_player_who_left_the_server_can_be_kicked(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    table = await started_game(simcord_env, alice, [bob, carol], channel)
    guild.remove_member(carol)

    result = await alice.slash(channel, "lama kick", member=carol.user)

    assert result.response is not None and "An AI now plays for carol" in result.response.content
    assert table.seats[2].controller is not None and table.status is Status.RUNNING


async def test_the_rules_of_a_finished_table_are_its_own(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Rules on a finished table sums up the variants that table played, as it did
    while the game ran, not every variant there is."""
    rig(simcord_env, [[C.FOUR], [C.SIX] * 3], C.FOUR, [])
    table = await two_player_game(simcord_env, alice, bob, channel, threshold=1, komarami=True)
    await take_simple_turn(alice, channel)
    await simcord_env.advance_time(3)
    assert table.status is Status.FINISHED

    result = await bob.click(table_message(channel), label="Rules")

    assert result.ephemeral and result.response is not None
    assert "Lato z Komarami:** 7 Llamas" in result.response.content
    assert "choose them with /lama new" not in result.response.content

    elsewhere = guild.create_text_channel("elsewhere")
    copied = forged(simcord_env, elsewhere, TableButtonId("rules", table.game_id).custom_id)
    other = await bob.click(copied, label="Forged")
    assert other.response is not None, "answered, with no game's rules"
    assert "choose them with /lama new" in other.response.content
