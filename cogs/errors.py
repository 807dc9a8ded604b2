"""The last word on any failure: an unexpected error in a command still gets a
readable, private answer (and a log line), never "This interaction failed".

Buttons and selects are :class:`~discord.ui.DynamicItem`s, whose errors
discord.py only logs; :mod:`cogs.components` answers those itself.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from .glue import answer_unexpected

if TYPE_CHECKING:
    from bot.client import LamaBot

    ErrorHandler = Callable[
        [discord.Interaction[LamaBot], app_commands.AppCommandError], Coroutine[Any, Any, Any]
    ]


class ErrorReplies(commands.Cog):
    """Answers a slash command that raised, then hands the error on to be logged."""

    def __init__(self, bot: LamaBot) -> None:
        self.bot = bot
        self._previous: ErrorHandler | None = None

    async def cog_load(self) -> None:
        self._previous = self.bot.tree.on_error
        self.bot.tree.error(self._on_error)

    async def cog_unload(self) -> None:
        if self._previous is not None:
            self.bot.tree.error(self._previous)

    async def _on_error(
        self, interaction: discord.Interaction[LamaBot], error: app_commands.AppCommandError
    ) -> None:
        await answer_unexpected(interaction)
        if self._previous is not None:
            await self._previous(interaction, error)  # discord.py's handler logs it
