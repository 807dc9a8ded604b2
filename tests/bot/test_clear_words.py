"""Words that misled a new player (issue 42): a second Rematch, the AI seats' names,
the lobby's Add AI select."""

from __future__ import annotations

import pytest
import simcord

from bot.service.table import Status
from testkit.simcord_play import (
    one_move_from_the_end,
    service,
    table_message,
    take_simple_turn,
)


def answer(result: simcord.InteractionResult) -> str:
    """What a click was told, privately."""
    assert result.response is not None and result.ephemeral
    return str(result.response.content)


@pytest.mark.cooldowns
async def test_a_second_rematch_says_where_the_new_game_is_not_to_wait(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """Rematch works once: "try again in 20 seconds" could never work."""
    table = await one_move_from_the_end(simcord_env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    assert table.status is Status.FINISHED
    finished = table_message(channel)
    await alice.click(finished, label="Rematch")
    lobby = service(simcord_env).table_in(channel.id)
    assert lobby is not None and lobby.table_message_id is not None
    link = f"https://discord.com/channels/{guild.id}/{channel.id}/{lobby.table_message_id}"
    for clicker in (alice, bob):  # alice within her 20 s, bob without a wait
        said = answer(await clicker.click(finished, label="Rematch"))
        assert "try again" not in said
        assert said == f"A Rematch works once, and a newer game is already open here: {link}"
