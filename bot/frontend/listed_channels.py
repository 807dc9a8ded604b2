"""The server's /lama new list as the server has it: a listed channel deleted goes off it.

A channel deleted while the bot runs is taken off when its delete event comes. One
deleted while the bot was down sends none, so the list is checked where it is read (a
refusal, /lama settings): a channel the server's cached channels no longer hold goes
off, rather than being named as #deleted-channel, counted to the 25, or, the last
one listed, keeping /lama new refused in every channel.
"""

from __future__ import annotations

import dataclasses
import logging

import discord

from bot.service import GameService, ServiceError
from data import ServerSettings

log = logging.getLogger(__name__)


def gone_channels(guild: discord.Guild | None, channels: tuple[int, ...]) -> tuple[int, ...]:
    """The listed channels ``guild`` no longer has; none while the bot doesn't know its
    channels (the server not cached yet, or unavailable: every channel would look gone)."""
    if guild is None or guild.unavailable:
        return ()
    return tuple(channel_id for channel_id in channels if guild.get_channel(channel_id) is None)


async def forget_channel(service: GameService, guild_id: int, channel_id: int) -> None:
    """Take a deleted channel off the server's list; a store that can't is logged (the
    channel is left out where the list is read all the same, and tried again there)."""
    try:
        await service.front.allow_channel(guild_id, channel_id, False)
    except ServiceError as error:
        log.warning(
            "Guild %s: deleted channel %s not taken off the list: %s", guild_id, channel_id, error
        )


async def settings_of(
    service: GameService, guild_id: int, guild: discord.Guild | None
) -> ServerSettings:
    """The server's settings, its list without the channels ``guild`` no longer has
    (taken off the list too)."""
    settings = await service.front.server_settings(guild_id)
    gone = gone_channels(guild, settings.channels)
    for channel_id in gone:
        await forget_channel(service, guild_id, channel_id)
    if not gone:
        return settings
    kept = tuple(channel_id for channel_id in settings.channels if channel_id not in gone)
    return dataclasses.replace(settings, channels=kept)
