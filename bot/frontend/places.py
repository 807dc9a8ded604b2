"""Whether a table's place is still there for the bot: its server, its channel or thread.

The gateway tells the bot when a channel is deleted or the bot is removed from a
server, and the games there end (``service.notices.abandon_where``).  What happened
while the bot was down, or while its gateway was reconnecting, it is not told:
these checks ask Discord instead.  A place is gone only when it is deleted or the
bot is out of its server: an archived thread, or one hidden from the bot for now,
keeps its game.
"""

from __future__ import annotations

import logging

import discord

from bot.limiter import Limiter, Priority

from .host import Lookups
from .replies import Interaction

log = logging.getLogger(__name__)


def place_of(interaction: Interaction) -> int:
    """Where a game, its stats and its ratings belong: the server's id, or minus the
    channel's outside a server (a group DM, a DM), each such place a server of its own."""
    if interaction.guild_id is not None:
        return interaction.guild_id
    return -(interaction.channel_id or 0)


def bot_member(interaction: Interaction) -> bool:
    """Whether the bot is a member where the interaction comes from (a server that
    installed it), not only installed by a person (a group DM, another server)."""
    return bot_present(interaction.client, place_of(interaction))


def left_the_group(interaction: Interaction, players: list[int]) -> list[int]:
    """The ``players`` no longer in the group DM the interaction comes from (Discord
    sends its recipients with each interaction there, and no event to a bot outside
    it); none elsewhere, or when the recipients are not known."""
    channel = interaction.channel
    if not isinstance(channel, discord.GroupChannel) or not channel.recipients:
        return []
    there = {user.id for user in channel.recipients} | {interaction.user.id}
    return [user_id for user_id in players if user_id not in there]


def bot_present(client: Lookups, guild_id: int) -> bool:
    """Whether the bot is a member where the game is (so its token may write there).

    A game outside a server (a group DM, a DM: its place id is minus the channel's id)
    or in a server that installed the app only through a person has no bot member:
    everything there rides on interaction tokens."""
    return guild_id > 0 and client.get_guild(guild_id) is not None


async def channel_gone(
    client: Lookups,
    channel_id: int,
    limiter: Limiter | None = None,
    priority: Priority = Priority.TABLE,
) -> bool:
    """Whether Discord says ``channel_id`` is gone: deleted (404, Unknown Channel).

    Only that ends a game.  Missing Access (403, 50001) is not gone: an admin who hides
    a channel or thread from the bot for a while (a permission changed, a role
    edited) expects the game to be there when it is shown again, as with any other
    permission taken away during a game; it goes on through the players' private
    hands, which name what the bot is missing, and a game nobody plays is ended by
    the idle limit anyway.  Any other failure (a 5xx, a dropped connection, a
    timeout) is no answer: it stays too.  The look-up waits its turn at ``limiter``,
    the bot token's REST budget, at ``priority``.
    """
    try:
        if limiter is not None:
            await limiter.acquire(priority)
        await client.fetch_channel(channel_id)
    except discord.NotFound:
        return True
    except discord.Forbidden as error:
        log.info("the channel %s is hidden from the bot for now: %s", channel_id, error)
    except Exception as error:  # no answer is not "gone": a game is not ended on a guess
        log.warning("could not look up the channel %s: %r", channel_id, error)
    return False


async def place_gone(
    client: Lookups,
    guild_id: int,
    channel_id: int,
    limiter: Limiter | None = None,
    priority: Priority = Priority.TABLE,
) -> bool:
    """Whether, connected, the bot is out of the server ``guild_id`` or the channel or
    thread ``channel_id`` in it was deleted (:func:`channel_gone`).

    A server the gateway sent as unavailable (an outage at Discord) is not gone.  A
    thread archived while the bot was down is not in the cache (Discord sends only
    the active ones); Discord is asked, and finds it there: an archived thread is not
    gone, its game goes on (a message sent there unarchives it).
    """
    guild = client.get_guild(guild_id)
    if guild is None:
        return True
    if guild.unavailable or guild.get_channel_or_thread(channel_id) is not None:
        return False
    return await channel_gone(client, channel_id, limiter, priority)
