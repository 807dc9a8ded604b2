"""The channels one person keeps busy are bounded, and a refusal says the limits in the
person's own language."""

from __future__ import annotations

import pytest
import simcord

from bot.service.play.table import Status
from testkit.simcord_play import open_lobby, service, table_message

from .conftest import Locales


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_fourth_channel_is_refused_in_german_with_the_limits(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
    locales: Locales,
) -> None:
    """The issue's case: alice, who reads German, starts one game against an AI after
    another, each in a channel of its own. The fourth /lama new is refused in German,
    saying how many channels she may keep and when an idle game against AIs ends."""
    locales.user(alice, "de")
    places = [channel, *(guild.create_text_channel(f"lama-{n}") for n in range(3))]
    for place in places[:3]:
        table = await open_lobby(simcord_env, alice, place)
        await alice.select(table_message(place), ["easy"])
        await alice.click(table_message(place), label="Start")
        assert table.status is Status.RUNNING
    refused = await alice.slash(places[3], "lama new")
    assert refused.ephemeral and refused.response is not None
    assert refused.response.content == (
        "Du hältst in diesem Server schon 3 Kanäle belegt: Lobbys, die du leitest, und "
        "Spiele, die du allein gegen KIs spielst, zählen gleich. Beende, verlasse oder "
        "brich zuerst eines davon ab. Ein Spiel ohne Zugzeit gegen KIs, in dem niemand "
        "zieht, endet nach 6 Stunden."
    )
    assert service(simcord_env).registry.table_in(places[3].id) is None
    await open_lobby(simcord_env, bob, places[3])  # someone else still may
