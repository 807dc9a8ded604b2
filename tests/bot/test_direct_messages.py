"""The game commands live in servers: a DM shows only /lama-about.

Discord ignores ``guild_only`` on a subcommand, so the whole ``/lama`` group
has to be guild only; otherwise every ``/lama`` command is offered in DMs,
where it has no channel to play in. Checked on a globally synced bot, the way
production publishes its commands (``python -m bot sync``).
"""

from __future__ import annotations

import dataclasses

import pytest
import simcord

from bot.client import LamaBot
from bot.config import Settings
from bot.frontend.pacing import Pacing
from bot.service.timing import Timing
from tests.simcord_fixtures import RENEW_DAILY


@pytest.fixture
def simcord_bot(
    settings: Settings, timing: Timing, pacing: Pacing, cooldowns: dict[str, float] | None
) -> LamaBot:
    return LamaBot(
        dataclasses.replace(settings, dev_guild_id=None),
        sync_globally=True,
        timing=timing,
        pacing=pacing,
        cooldowns=cooldowns,
        renew_every=RENEW_DAILY,
    )


async def test_a_dm_offers_only_the_about_command(simcord_env: simcord.Env) -> None:
    dora = simcord_env.create_user("dora")

    assert dora.available_commands() == ("lama-about",)
    result = await dora.slash("lama-about")
    assert result.response is not None
    about = str(result.response.content)
    assert about.startswith("**L.A.M.A.**")
    assert about.endswith(
        "Games are played in server channels: start a table in one with `/lama new`."
    )


async def test_the_game_commands_are_all_there_in_a_server(simcord_env: simcord.Env) -> None:
    guild = simcord_env.create_guild("Llama Lounge 2")
    channel = guild.create_text_channel("lama")
    alice = guild.add_member(simcord_env.create_user("alice"))

    visible = alice.available_commands(channel)

    assert "lama-about" in visible
    assert {"lama new", "lama join", "lama stats", "lama chart"} <= set(visible)


async def test_about_in_a_channel_points_to_this_channel(
    guild: simcord.GuildHandle, channel: simcord.ChannelHandle, alice: simcord.MemberActor
) -> None:
    result = await alice.slash(channel, "lama-about")
    assert result.response is not None
    assert str(result.response.content).endswith("Start a table in this channel with `/lama new`.")
