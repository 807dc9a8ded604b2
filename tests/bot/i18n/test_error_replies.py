"""An unexpected failure is still answered, in the language of the one who clicked."""

from __future__ import annotations

import logging

import pytest
import simcord

from testkit.simcord_play import enabled, open_hand, table_message, two_player_game

from .conftest import Locales


async def test_a_button_that_fails_unexpectedly_gets_an_answer_in_the_players_language(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    locales: Locales,
    caplog: pytest.LogCaptureFixture,
) -> None:
    bob = locales.user(guild.add_member(simcord_env.create_user("bob")), "de")
    await two_player_game(simcord_env, alice, bob, channel)
    simcord_env.inject_error("POST", "/interactions/*/*/callback", status=500)

    with caplog.at_level(logging.ERROR, logger="cogs"):
        result = await bob.click(table_message(channel), label="Show my hand")

    assert result.acknowledged and result.ephemeral
    assert result.response is not None
    assert result.response.content.startswith("Da ist bei mir etwas schiefgegangen")
    assert any(r.name.startswith("cogs") for r in caplog.records), "and the failure is logged"
    hand = await open_hand(alice, channel)  # the bot goes on as usual
    assert enabled(hand, "lama:")
