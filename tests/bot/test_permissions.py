"""No table where the bot couldn't keep it going: its own channel permissions.

The lobby goes out as the interaction response, which Discord allows without
any channel permission, but every later edit, ping and the chip chart need the
bot's own permissions. SimCord computes ``app_permissions`` of each interaction
from the bot's roles and the channel's overwrites (a thread uses its parent's),
so the tests take permissions away with a member overwrite for the bot.
"""

from __future__ import annotations

import discord
import pytest
import simcord
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType

from bot.i18n import text
from game import Card as C
from testkit.simcord_play import (
    below_title,
    enabled,
    is_components_v2,
    lock,
    one_move_from_the_end,
    open_hand,
    open_lobby,
    rig,
    service,
    table_message,
    take_simple_turn,
    two_player_game,
)

from .i18n.conftest import Locales, locales  # noqa: F401  (a fixture, found by name)

NO_LOBBY = "There's no L.A.M.A. lobby in this channel. Open one with /lama new."


def without(guild: simcord.GuildHandle, name: str, **denied: bool) -> simcord.ChannelHandle:
    """A new text channel in which the bot lacks the ``denied`` permissions."""
    assert guild.me is not None
    overwrite = discord.PermissionOverwrite(**denied)
    return guild.create_text_channel(name, overwrites={guild.me: overwrite})


def thread_in(
    env: simcord.Env, channel: simcord.ChannelHandle, owner: simcord.MemberActor
) -> simcord.ChannelHandle:
    """A public thread in ``channel`` (SimCord's builders have none; its backend does)."""
    env.backend.create_thread(channel.id, "lama-thread", owner.id)
    (thread,) = channel.threads
    return thread


def deny_bot(env: simcord.Env, channel: simcord.ChannelHandle, **denied: bool) -> None:
    """An admin takes permissions away from the bot in ``channel`` (an overwrite)."""
    env.backend.set_overwrite(
        channel.id,
        Overwrite(
            target_id=env.bot.user.id,  # type: ignore[union-attr]
            type=OverwriteType.MEMBER,
            allow=0,
            deny=discord.Permissions(**denied).value,
        ),
    )


async def refused(
    member: simcord.MemberActor, channel: simcord.ChannelHandle, command: str = "lama new"
) -> str:
    result = await member.slash(channel, command)
    assert result.ephemeral and result.response is not None
    return str(result.response.content)


async def test_new_is_refused_naming_exactly_the_missing_permissions(
    simcord_env: simcord.Env, guild: simcord.GuildHandle, alice: simcord.MemberActor
) -> None:
    channel = without(guild, "no-embeds", embed_links=False, attach_files=False)

    message = await refused(alice, channel)

    assert message == (
        "I can't run a L.A.M.A. table in this channel: I'm missing these permissions here: "
        "**Embed Links**, **Attach Files**. An admin needs to grant them to the bot in this "
        "channel; then try again."
    )
    assert channel.history() == [], "no lobby or table message"
    assert service(simcord_env).registry.table_in(channel.id) is None
    assert await simcord_env.bot.store.games.unfinished_games() == []  # type: ignore[attr-defined]
    assert await refused(alice, channel, "lama join") == NO_LOBBY


async def test_a_single_missing_permission_reads_in_the_singular(
    guild: simcord.GuildHandle, alice: simcord.MemberActor
) -> None:
    channel = without(guild, "no-files", attach_files=False)
    message = await refused(alice, channel)
    assert "I'm missing the **Attach Files** permission here." in message
    assert "grant it to the bot in this channel" in message


async def test_a_thread_needs_send_messages_in_threads_not_send_messages(
    simcord_env: simcord.Env, guild: simcord.GuildHandle, alice: simcord.MemberActor
) -> None:
    quiet = without(guild, "no-sending", send_messages=False)
    assert "**Send Messages**" in await refused(alice, quiet)
    await open_lobby(simcord_env, alice, thread_in(simcord_env, quiet, alice))

    no_threads = without(guild, "no-thread-sending", send_messages_in_threads=False)
    thread = thread_in(simcord_env, no_threads, alice)
    message = await refused(alice, thread)
    assert "missing the **Send Messages in Threads** permission" in message
    assert service(simcord_env).registry.table_in(thread.id) is None
    await open_lobby(simcord_env, alice, no_threads)


async def test_a_rematch_is_refused_when_the_bot_lost_a_permission(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    table = await one_move_from_the_end(simcord_env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    assert table.match is not None and table.match.over
    await simcord_env.advance_time(3)  # the final table edit and the chip chart
    deny_bot(simcord_env, channel, embed_links=True)

    result = await bob.click(table_message(channel), label="Rematch")

    assert result.ephemeral and result.response is not None
    assert "missing the **Embed Links** permission" in str(result.response.content)
    assert service(simcord_env).registry.table_in(channel.id) is None
    assert await simcord_env.bot.store.games.unfinished_games() == []  # type: ignore[attr-defined]


def hand_text(response: object) -> str:
    assert response is not None and is_components_v2(response), "a hand is a V2 layout"
    return below_title(response)


async def test_players_are_told_when_the_bot_loses_its_permissions_mid_game(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    rig(simcord_env, [[C.TWO, C.THREE, C.FIVE], [C.THREE, C.FOUR, C.SIX]], C.ONE, [])
    table = await two_player_game(simcord_env, alice, bob, channel)
    await simcord_env.advance_time(3)
    assert any("<@" in m.content for m in channel.history()), "a turn ping before"

    deny_bot(simcord_env, channel, send_messages=True)
    hand = await open_hand(alice, channel)
    result = await alice.click(hand, custom_id=enabled(hand, "lama:play:")[0])

    warning = hand_text(result.response)
    assert warning.startswith(
        "🚫 I can't keep the table in this channel up to date: I'm missing the "
        "**Send Messages** permission here. Your moves still count."
    )
    assert table.match is not None and table.match.round is not None
    assert table.match.round.discard[-1] is C.TWO, "the move counted all the same"
    await simcord_env.advance_time(3)
    # A click's followup needs no channel permission: bob is pinged all the same.
    pings = [m for m in channel.history() if f"<@{bob.id}>" in m.content]
    assert len(pings) == 1, "the ping went out with alice's click's token"

    # bob's hand says the same, in his turn
    assert hand_text(await open_hand(bob, channel)).startswith("🚫 I can't keep the table")

    # The admin gives the permission back: the warning goes, the game goes on.
    simcord_env.backend.delete_overwrite(channel.id, simcord_env.bot.user.id)  # type: ignore[union-attr]
    await simcord_env.advance_time(10)  # alice looks away (one who just clicked isn't pinged)
    hand = await open_hand(bob, channel)
    result = await bob.click(hand, custom_id=enabled(hand, "lama:play:")[0])
    assert "🚫" not in hand_text(result.response)
    await simcord_env.advance_time(3)
    assert any(f"<@{alice.id}>" in m.content for m in channel.history()), "pings are back"


async def test_without_attach_files_only_the_chart_is_missing_so_hands_stay_quiet(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    await two_player_game(simcord_env, alice, bob, channel)
    deny_bot(simcord_env, channel, attach_files=True)

    assert "🚫" not in hand_text(await open_hand(alice, channel))


@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
async def test_a_channel_listed_where_the_bot_lacks_permissions_is_listed_with_a_warning(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    locales: Locales,  # noqa: F811
    language: str,
) -> None:
    """/lama settings channel puts a channel on the list where the bot couldn't keep a
    table going: the admin is told there, in their language, which permissions it lacks
    (every /lama new there would be refused until they are granted)."""
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = locales.user(guild.add_member(simcord_env.create_user("mod"), roles=[mods]), language)
    games = without(guild, "games", embed_links=False, attach_files=False)

    result = await mod.slash(channel, "lama settings channel", channel=games, allowed=True)

    assert result.ephemeral and result.response is not None
    answer = result.response.content
    for name in ("embed_links", "attach_files"):
        assert f"**{text(language, f'permission.{name}')}**" in answer
    assert text(language, "permission.send_messages") not in answer
    assert (await service(simcord_env).front.server_settings(guild.id)).channels == (games.id,)
    fine = await mod.slash(channel, "lama settings channel", channel=channel, allowed=True)
    assert fine.response is not None
    assert text(language, "permission.embed_links") not in fine.response.content


async def test_nobody_opens_a_table_where_they_may_not_write(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """A read-only channel (announcements, rules, a channel locked during a raid) gets
    no lobby from a member who can't write there: neither /lama new nor a finished
    table's Rematch posts one on their behalf."""
    announcements = guild.create_text_channel("announcements")
    lock(simcord_env, guild, announcements)
    message = await refused(alice, announcements)
    assert message == (
        "You can't send messages in this channel, so you can't open a L.A.M.A. table here either."
    )
    assert (
        announcements.history() == []
        and service(simcord_env).registry.table_in(announcements.id) is None
    )
    # Where members talk in threads only (Send Messages in Threads is theirs), a thread's
    # table is theirs to open.
    await open_lobby(simcord_env, alice, thread_in(simcord_env, announcements, alice))

    table = await one_move_from_the_end(simcord_env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    assert table.match is not None and table.match.over
    await simcord_env.advance_time(3)
    lock(simcord_env, guild, channel)
    result = await bob.click(table_message(channel), label="Rematch")
    assert result.ephemeral and result.response is not None
    assert "You can't send messages in this channel" in str(result.response.content)
    assert service(simcord_env).registry.table_in(channel.id) is None


async def test_a_timed_out_member_opens_no_table_with_a_rematch(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
    bob: simcord.MemberActor,
) -> None:
    """A member a moderator timed out may click, not write: no lobby of theirs."""
    await one_move_from_the_end(simcord_env, alice, bob, channel)
    await take_simple_turn(alice, channel)
    await simcord_env.advance_time(3)
    until = "2099-01-01T00:00:00+00:00"
    simcord_env.backend.edit_member(guild.id, bob.id, {"timed_out_until": until})
    result = await bob.click(table_message(channel), label="Rematch")
    assert result.ephemeral and result.response is not None
    assert "You can't send messages in this channel" in str(result.response.content)
    assert service(simcord_env).registry.table_in(channel.id) is None


async def test_nobody_but_a_thread_moderator_opens_a_table_in_a_locked_thread(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    alice: simcord.MemberActor,
) -> None:
    """A moderator locked the thread: only those who may manage threads write there
    (Discord's permissions alone still grant Send Messages in Threads), so only they
    open a table in it."""
    thread = thread_in(simcord_env, channel, alice)
    simcord_env.backend.edit_channel(thread.id, {}, thread_metadata={"locked": True})
    message = await refused(alice, thread)
    assert message == (
        "You can't send messages in this channel, so you can't open a L.A.M.A. table here either."
    )
    assert thread.history() == [] and service(simcord_env).registry.table_in(thread.id) is None
    mods = guild.create_role("Thread mods", permissions=discord.Permissions(manage_threads=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    await open_lobby(simcord_env, mod, thread)
