"""The last word on any failure: a command or click that raised still gets a private answer.

An unexpected error in a slash command, or in a button's or select's handler,
is answered in the person's language (and logged), never with "This
interaction failed". Buttons and selects are dynamic items, whose errors
discord.py only logs: the bot's :class:`~bot.frontend.items.Router` hands
them here while this cog is loaded.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.frontend.cog_host import CogHost
from bot.frontend.items import ErrorHandler
from bot.frontend.replies import answer_unexpected

log = logging.getLogger(__name__)

CommandErrorHandler = Callable[
    [discord.Interaction[Any], app_commands.AppCommandError], Coroutine[Any, Any, Any]
]


class ErrorReplies(commands.Cog):
    """Answers a slash command that raised, then hands the error on to be logged;
    answers and logs a click whose handler raised."""

    def __init__(self, bot: CogHost) -> None:
        self.bot = bot
        self._previous: CommandErrorHandler | None = None
        self._previous_click: ErrorHandler | None = None

    async def cog_load(self) -> None:
        self._previous = self.bot.tree.on_error
        self.bot.tree.error(self._on_error)
        self._previous_click = self.bot.router.on_error
        self.bot.router.on_error = self._on_click_error

    async def cog_unload(self) -> None:
        if self._previous is not None:
            self.bot.tree.error(self._previous)
        if self._previous_click is not None:
            self.bot.router.on_error = self._previous_click

    async def _on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await answer_unexpected(interaction)
        if self._previous is not None:
            await self._previous(interaction, error)  # discord.py's handler logs it

    async def _on_click_error(
        self, interaction: discord.Interaction[Any], error: Exception, custom_id: str | None
    ) -> None:
        log.error("component %s failed", custom_id, exc_info=error)
        await answer_unexpected(interaction)
