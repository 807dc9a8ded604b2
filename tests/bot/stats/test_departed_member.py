"""A player who has left the server: their stats and history can still be asked for."""

from __future__ import annotations

import pytest
import simcord

from testkit.simcord_play import texts

from .games import play_rigged_game
from .test_rating_change import QUICK


@pytest.mark.parametrize("command", ["lama stats", "lama history"])
@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_the_stats_of_a_player_who_left_the_server_are_shown(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    command: str,
) -> None:
    carol = guild.add_member(simcord_env.create_user("carol"))
    await play_rigged_game(simcord_env, channel, [alice, carol], QUICK)
    await simcord_env.advance_time(3)
    guild.remove_member(carol)

    result = await alice.slash(channel, command, member=carol.user)

    assert result.response is not None
    assert "carol" in texts(result.response), "not 'Something went wrong'"
