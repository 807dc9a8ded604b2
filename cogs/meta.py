"""Meta commands: what the bot is and how to start playing."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.frontend.cog_host import CogHost
from bot.i18n import text

from .error_replies import ErrorReplies

log = logging.getLogger(__name__)


class Meta(commands.Cog):
    """Information about the bot."""

    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    @app_commands.command(name="lama-about", description="What this bot is and how to play")
    async def about(self, interaction: discord.Interaction) -> None:
        # A table opens anywhere /lama is offered: servers, this DM, group DMs.
        start = text(interaction.locale, "about.start")
        about = text(interaction.locale, "about.text") + "\n\n" + start
        await interaction.response.send_message(about, ephemeral=True)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(Meta(bot))
    # The bot's extension list is bot/client.py's; the error replies come with this one,
    # loaded first, so that they cover every command.
    await bot.add_cog(ErrorReplies(bot))
