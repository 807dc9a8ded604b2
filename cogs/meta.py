"""Meta commands: what the bot is and how to start playing."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

if TYPE_CHECKING:
    from bot.bot import LamaBot

log = logging.getLogger(__name__)

ABOUT_TEXT = (
    "**L.A.M.A.** (Lege alle Minuspunkte ab — “lay down all minus points”) is a quick "
    "card game for 2–6 players. On your turn, play a card of the same value as the top "
    "of the discard pile or one higher (a llama follows a 6, a 1 follows a llama), draw a "
    "card, or quit the round. The round ends when someone empties their hand or everybody "
    "has quit; every *different* value left in your hand costs points (a llama is 10). "
    "Emptying your hand lets you return a chip, and the game ends when someone reaches "
    "40 points — lowest score wins.\n\n"
    "Start a table in this channel with `/lama new`."
)


class Meta(commands.Cog):
    """Information about the bot."""

    def __init__(self, bot: LamaBot) -> None:
        self.bot = bot

    @app_commands.command(name="lama-about", description="What this bot is and how to play")
    async def about(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(ABOUT_TEXT, ephemeral=True)


async def setup(bot: LamaBot) -> None:
    await bot.add_cog(Meta(bot))
