"""The game commands are offered everywhere the app can be used: servers, its DM, group DMs.

Discord ignores installs and contexts on a subcommand, so the whole ``/lama`` group
says where it may be installed (a server, a person) and used. Checked on a globally
synced bot, the way production publishes its commands (``python -m bot sync``).
"""

from __future__ import annotations

import pytest
import simcord

from bot.client import LamaBot
from bot.config import Settings
from bot.frontend.pacing import Pacing
from bot.service.timing import Timing
from testkit.simcord_play import bot_token_calls, enabled
from tests.simcord_fixtures import globally_synced_bot


@pytest.fixture
def simcord_bot(
    settings: Settings, timing: Timing, pacing: Pacing, cooldowns: dict[str, float] | None
) -> LamaBot:
    return globally_synced_bot(settings, timing, pacing, cooldowns)


async def test_a_dm_offers_the_game_commands_too(simcord_env: simcord.Env) -> None:
    dora = simcord_env.create_user("dora")

    assert {"lama-about", "lama new", "lama join", "lama stats"} <= set(dora.available_commands())
    result = await dora.slash("lama-about")
    assert result.response is not None
    about = str(result.response.content)
    assert about.startswith("**L.A.M.A.**")
    assert about.endswith("Start a table in this channel with `/lama new`.")


def test_the_lama_group_is_installable_to_a_server_and_a_person(
    simcord_bot: LamaBot,
) -> None:
    """Discord reads installs and contexts off the group only (a subcommand's are ignored)."""
    payload = simcord_bot.lama.to_dict(simcord_bot.tree)
    assert sorted(payload["integration_types"]) == [0, 1]  # GUILD_INSTALL, USER_INSTALL
    assert sorted(payload["contexts"]) == [0, 1, 2]  # GUILD, BOT_DM, PRIVATE_CHANNEL


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


async def test_a_game_against_an_ai_in_the_bots_dm_runs_on_the_clicks_tokens(
    simcord_env: simcord.Env,
) -> None:
    """In its DM the bot writes nothing with its token: the lobby, the table and its
    edits are the clicks' answers and followups."""
    dora = simcord_env.create_user("dora")
    before = len(simcord_env.http_requests)
    result = await dora.slash("lama new", turn_timer=0)
    assert result.response is not None and not result.ephemeral
    lobby = result.response
    await dora.select(lobby, ["easy"])
    started = await dora.click(lobby, label="Start")
    await simcord_env.advance_time(5)
    hand = await dora.click(started.response or lobby, label="Show my hand")
    assert hand.ephemeral
    for prefix in ("lama:play:", "lama:draw:", "lama:quit:"):
        ids = enabled(hand.response, prefix)
        if ids:
            await dora.click(hand.response, custom_id=ids[0])
            break
    await simcord_env.advance_time(30)

    assert bot_token_calls(simcord_env, simcord_env.http_requests[before:]) == []
