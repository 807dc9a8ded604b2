"""A cooldown's refusal in the language of the person refused, with their seconds left."""

from __future__ import annotations

import pytest
import simcord

from testkit.simcord_play import open_lobby, table_message

from .conftest import Locales


@pytest.mark.cooldowns
async def test_a_table_opened_too_soon_is_refused_in_the_persons_language(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    locales: Locales,
) -> None:
    anna = locales.user(guild.add_member(simcord_env.create_user("anna")), "de")
    ida = locales.user(guild.add_member(simcord_env.create_user("ida")), "pl")
    await open_lobby(simcord_env, anna, channel)
    await anna.click(table_message(channel), label="Cancel")
    await simcord_env.advance_time(18)
    refused = await anna.slash(channel, "lama new")
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == (
        "Das war zu oft hintereinander. Versuch es bitte in 2 Sekunden noch einmal."
    )
    await ida.slash(channel, "lama stats")
    again = await ida.slash(channel, "lama stats")
    assert again.response is not None
    assert again.response.content == "Za często. Spróbuj ponownie za 5 sekund."
