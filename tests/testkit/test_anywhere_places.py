"""The kit's places and installs: what an app sees from a group DM, a server without its bot,
its DM and a server with it (Discord: interactions/receiving-and-responding, Interaction
Structure and Authorizing Integration Owners Object)."""

from __future__ import annotations

import discord
import pytest
import simcord
from simcord.backend.errors import SetupError

from testkit.anywhere import Anywhere, PlaceKind
from testkit.anywhere_model import BOT_DM_APP_PERMISSIONS, PRIVATE_APP_PERMISSIONS

from .places import app_of, contents, server_with_bot, server_without_bot


def people(env: simcord.Env, *names: str) -> list[simcord.UserHandle]:
    return [env.create_user(name) for name in names]


async def test_a_group_dm_command_carries_the_private_channel_context_and_its_installer(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    app = app_of(simcord_env)
    ann, ben, cat = people(simcord_env, "ann", "ben", "cat")
    anywhere.install(ann)
    place = anywhere.group_dm(ann, ben, cat)

    opened = await anywhere.slash(ann, place, "play open")

    seen = app.seen[-1]
    assert seen.context.private_channel and not seen.context.guild
    assert anywhere.owners(opened) == {"1": str(ann.id)}
    assert seen.is_user_integration() and not seen.is_guild_integration()
    assert seen.guild is None and seen.guild_id is None
    assert isinstance(seen.channel, discord.GroupChannel)
    assert {user.id for user in seen.channel.recipients} == {ann.id, ben.id, cat.id}
    assert isinstance(seen.user, discord.User) and not isinstance(seen.user, discord.Member)
    assert seen.app_permissions.value == PRIVATE_APP_PERMISSIONS
    table = anywhere.shown(place)
    assert [shown.content for shown in table] == ["the table"]


async def test_anyone_in_the_group_dm_presses_a_button_with_the_installers_owners(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    app = app_of(simcord_env)
    ann, ben = people(simcord_env, "ann", "ben")
    anywhere.install(ann)
    place = anywhere.group_dm(ann, ben)
    await anywhere.slash(ann, place, "play open")
    bot_calls_before = anywhere.calls.bot_total

    click = await anywhere.click(ben, place, anywhere.shown(place)[0].id, label="Move")

    assert anywhere.owners(click) == {"1": str(ann.id)}
    seen = app.seen[-1]
    assert seen.user.id == ben.id
    assert not seen.is_user_integration() and not seen.is_guild_integration()
    assert seen.message is not None and seen.message.interaction_metadata is not None
    assert seen.message.interaction_metadata.is_user_integration()  # ann's, the installer's
    assert contents(anywhere, place) == ["moved by ben"]
    assert anywhere.calls.at(place) == (0, 2)
    assert anywhere.calls.bot_total == bot_calls_before


async def test_nobody_runs_a_command_where_the_app_is_not_installed_or_not_allowed(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    ann, ben = people(simcord_env, "ann", "ben")
    anywhere.install(ann)
    group = anywhere.group_dm(ann, ben)
    with pytest.raises(SetupError, match="not offered"):
        await anywhere.slash(ben, group, "play open")
    with pytest.raises(SetupError, match="not offered"):
        await anywhere.slash(ann, group, "settings")
    server = anywhere.botless_server()
    member = anywhere.guild(server).add_member(ben)
    with pytest.raises(SetupError, match="not offered"):
        await anywhere.slash(member, server, "play open")
    assert app_of(simcord_env).seen == []


async def test_a_server_without_the_bot_is_unknown_to_its_gateway_yet_its_interactions_arrive(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    app = app_of(simcord_env)
    place, (ann,) = server_without_bot(simcord_env, anywhere, "ann")
    assert place.kind is PlaceKind.BOTLESS_SERVER and place.guild_id is not None
    anywhere.install(ann)

    opened = await anywhere.slash(ann, place, "play open")

    assert app.get_guild(place.guild_id) is None
    assert app.get_channel(place.channel_id) is None
    seen = app.seen[-1]
    assert seen.guild_id == place.guild_id and seen.context.guild
    assert anywhere.owners(opened) == {"1": str(ann.id)}
    assert seen.is_user_integration() and not seen.is_guild_integration()
    # discord.py builds a Guild it does not cache (from the payload's partial guild) ...
    assert seen.guild is not None and seen.guild.id == place.guild_id
    assert app.get_guild(place.guild_id) is None
    # ... a text channel in it, and the person as a Member of it.
    assert isinstance(seen.channel, discord.TextChannel) and seen.channel.id == place.channel_id
    assert isinstance(seen.user, discord.Member)
    assert contents(anywhere, place) == ["the table"]


async def test_in_a_server_with_the_bot_the_server_owns_the_interaction(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    app = app_of(simcord_env)
    place, (ann, ben) = server_with_bot(simcord_env, anywhere, "ann", "ben")
    anywhere.install(ben)

    by_ann = await anywhere.slash(ann, place, "play open")
    assert anywhere.owners(by_ann) == {"0": str(place.guild_id)}
    assert app.seen[-1].is_guild_integration() and not app.seen[-1].is_user_integration()
    by_ben = await anywhere.slash(ben, place, "play open")
    assert anywhere.owners(by_ben) == {"0": str(place.guild_id), "1": str(ben.id)}
    assert app.seen[-1].is_guild_integration() and app.seen[-1].is_user_integration()
    settings = await anywhere.slash(ann, place, "settings")
    assert settings.acknowledged


async def test_the_dm_with_the_bot_is_the_bot_dm_context(
    simcord_env: simcord.Env, anywhere: Anywhere
) -> None:
    app = app_of(simcord_env)
    ann = simcord_env.create_user("ann")
    place = anywhere.bot_dm(ann)
    assert place.kind is PlaceKind.BOT_DM

    opened = await anywhere.slash(ann, place, "play open")

    assert anywhere.owners(opened) == {"0": "0"}
    seen = app.seen[-1]
    assert seen.context.dm_channel
    assert seen.app_permissions.value == BOT_DM_APP_PERMISSIONS
    assert isinstance(seen.channel, discord.DMChannel)
