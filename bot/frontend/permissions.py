"""What the bot and the person need in a channel: the table's permissions, Manage Server."""

from __future__ import annotations

import discord

from bot.i18n import text

from .places import bot_member
from .replies import Interaction


def table_permissions(in_thread: bool) -> tuple[str, ...]:
    """What the bot needs in a channel to keep a table going after its first response.

    The lobby is posted as the interaction response, which Discord allows
    without any channel permission; editing the table, the turn pings and the
    chip chart all need these (the invite list of docs/server.md). In a thread, sending
    takes Send Messages in Threads instead of Send Messages.
    """
    send = "send_messages_in_threads" if in_thread else "send_messages"
    return ("view_channel", send, "embed_links", "attach_files")


def missing_of(granted: discord.Permissions, in_thread: bool) -> list[str]:
    """The ``discord.Permissions`` names of the table permissions ``granted`` lacks."""
    return [name for name in table_permissions(in_thread) if not getattr(granted, name)]


def missing_table_permissions(interaction: Interaction) -> list[str]:
    """The ``discord.Permissions`` names of the table permissions the bot lacks here;
    none where it is no member (a group DM, a server only a person installed it in):
    there every message of a table rides on the players' clicks' tokens."""
    if not bot_member(interaction):
        return []
    return missing_of(interaction.app_permissions, isinstance(interaction.channel, discord.Thread))


def missing_in_channel(channel: discord.TextChannel | discord.ForumChannel) -> list[str]:
    """The table permissions the bot lacks in ``channel`` (a forum's tables are in its
    posts, threads); none known while the bot's own member isn't cached."""
    me = channel.guild.me
    if me is None:
        return []
    return missing_of(channel.permissions_for(me), isinstance(channel, discord.ForumChannel))


def missing_permissions_text(locale: object, key: str, missing: list[str], **params: str) -> str:
    """The message ``key`` naming the ``missing`` permissions as Discord's client does
    (and its other ``params``: where)."""
    names = ", ".join(f"**{text(locale, f'permission.{name}')}**" for name in missing)
    return text(locale, key, count=len(missing), permissions=names, **params)


def may_write_here(interaction: Interaction) -> bool:
    """Whether the person may send messages where they ask (in a thread: Send Messages
    in Threads). A lobby is the interaction's answer, which Discord posts whatever the
    person may do there: without this, a member of a read-only channel (announcements,
    one locked by a moderator) would post a table where they can't write. A timed-out
    member's interaction permissions have no Send Messages either. A locked thread is
    written in only by those who may manage threads, which its permissions don't say."""
    if interaction.guild_id is None:
        return True  # a DM or group DM: everyone in it writes there (no permissions apply)
    channel, granted = interaction.channel, interaction.permissions
    if isinstance(channel, discord.Thread):
        return granted.send_messages_in_threads and (not channel.locked or granted.manage_threads)
    return granted.send_messages


def can_manage(interaction: Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def everyone_reading_may_see(
    guild: discord.Guild, place: discord.abc.GuildChannel | discord.Thread, here: object
) -> bool:
    """Whether everyone who may read ``here`` may see ``place`` (a channel, or a thread by
    its parent's permissions): ``@everyone`` may, and no role or member that may read
    ``here`` is denied it by an overwrite (the member list isn't cached: judged from the
    overwrites alone, so a doubt keeps it private)."""
    channel = place.parent if isinstance(place, discord.Thread) else place
    if channel is None or not channel.permissions_for(guild.default_role).view_channel:
        return False
    reading = here.parent if isinstance(here, discord.Thread) else here
    return all(
        overwrite.view_channel is not False
        or target.id == guild.default_role.id
        or _kept_out(reading, target.id, guild)
        for target, overwrite in channel.overwrites.items()
    )


def _kept_out(channel: object, target_id: int, guild: discord.Guild) -> bool:
    """Whether nobody the overwrite of ``target_id`` (a role or a member) denies may read
    ``channel`` either: it denies them there too, and for a role no other role's or
    member's overwrite lets one of its holders back in (a member's is the last word)."""
    overwrites = getattr(channel, "overwrites", None)
    if not isinstance(overwrites, dict):
        return False
    mine = [o for t, o in overwrites.items() if t.id == target_id]
    if not mine or mine[0].view_channel is not False:
        return False
    if guild.get_role(target_id) is None:  # a member's overwrite
        return True
    return not any(
        overwrite.view_channel
        for target, overwrite in overwrites.items()
        if target.id not in (target_id, guild.default_role.id)
    )
