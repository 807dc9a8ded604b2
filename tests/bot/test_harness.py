"""The bot starts inside SimCord, syncs its commands to the dev guild and answers them."""

from __future__ import annotations

import simcord

from bot.client import LamaBot
from tests.simcord_fixtures import DEV_GUILD_ID


async def test_bot_logs_in(simcord_env: simcord.Env) -> None:
    bot = simcord_env.bot
    assert isinstance(bot, LamaBot)
    assert bot.user is not None
    assert bot.is_ready()
    assert bot.get_guild(DEV_GUILD_ID) is not None


async def test_bot_requests_no_privileged_intents(simcord_env: simcord.Env) -> None:
    intents = simcord_env.bot.intents
    assert intents.guilds
    assert not (intents.members or intents.presences or intents.message_content)


async def test_commands_synced_to_dev_guild_only(simcord_env: simcord.Env) -> None:
    syncs = [
        r for r in simcord_env.http_requests if r.method == "PUT" and r.path.endswith("/commands")
    ]
    assert len(syncs) == 1
    assert f"/guilds/{DEV_GUILD_ID}/commands" in syncs[0].path
    names = {c["name"] for c in syncs[0].json}
    assert names == {"lama-about", "lama"}
    lama = next(c for c in syncs[0].json if c["name"] == "lama")
    subcommands = {o["name"] for o in lama["options"]}
    assert {"new", "join", "leave", "start", "cancel", "hand", "rules"} <= subcommands


async def test_member_sees_lama_about(
    alice: simcord.MemberActor, channel: simcord.ChannelHandle
) -> None:
    assert "lama-about" in alice.available_commands(channel)


async def test_lama_about_replies_ephemerally(
    alice: simcord.MemberActor, channel: simcord.ChannelHandle
) -> None:
    result = await alice.slash(channel, "lama-about")

    assert result.acknowledged
    assert result.response is not None
    assert result.response.ephemeral
    assert "L.A.M.A." in result.response.content
    assert "/lama new" in result.response.content
    # Ephemeral replies are not posted to the channel for everyone.
    assert channel.last_message is None
