"""Whether a table's place is still there for the bot: its server, its channel or thread.

The gateway tells the bot when a channel is deleted or the bot is removed from a
server, and the games there end (``GameService.abandon_where``).  What happened
while the bot was down, or while its gateway was reconnecting, it is not told:
these checks ask Discord instead.
"""

from __future__ import annotations

import logging

import discord

from bot.limiter import Limiter, Priority

log = logging.getLogger(__name__)


async def channel_gone(
    client: discord.Client, channel_id: int, limiter: Limiter | None = None
) -> bool:
    """Whether Discord says the bot can't see ``channel_id``: deleted (Unknown Channel),
    or hidden from it (Missing Access).  Any other failure (a 5xx, a dropped
    connection, a timeout) is no answer: it stays.  The look-up waits its turn at
    ``limiter``, the bot token's REST budget."""
    try:
        if limiter is not None:
            await limiter.acquire(Priority.TABLE)
        await client.fetch_channel(channel_id)
    except (discord.NotFound, discord.Forbidden):
        return True
    except Exception as error:  # no answer is not "gone": a game is not ended on a guess
        log.warning("could not look up the channel %s: %r", channel_id, error)
    return False


async def place_gone(
    client: discord.Client, guild_id: int, channel_id: int, limiter: Limiter | None = None
) -> bool:
    """Whether, connected, the bot is out of the server ``guild_id`` or can't see the
    channel or thread ``channel_id`` in it.

    A server the gateway sent as unavailable (an outage at Discord) is not gone.  A
    thread archived while the bot was down is not in the cache; Discord is asked.
    """
    guild = client.get_guild(guild_id)
    if guild is None:
        return True
    if guild.unavailable or guild.get_channel_or_thread(channel_id) is not None:
        return False
    return await channel_gone(client, channel_id, limiter)
