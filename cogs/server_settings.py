"""Server settings commands: /lama settings language (Manage Server only)."""

from __future__ import annotations

import logging

from discord import app_commands
from discord.ext import commands

from bot.frontend.cog_host import CogHost
from bot.frontend.permissions import can_manage
from bot.frontend.replies import Interaction, reply, reply_error
from bot.i18n import language_of, text
from bot.service import ServiceError

log = logging.getLogger(__name__)

#: Choice value that clears the setting, so the server's Discord language applies.
SERVER_DEFAULT = "default"


class ServerSettingsCommands(commands.Cog, name="Settings"):
    """Per-server settings, under /lama settings (Manage Server only)."""

    settings = app_commands.Group(
        name="settings", description="Settings for this server (Manage Server)."
    )

    def __init__(self, bot: CogHost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        # /lama settings …: move the cog's own (bound) copy of the group under the
        # shared /lama group instead of letting discord.py add it as a top-level command.
        group = next(c for c in self.__cog_app_commands__ if c.name == self.settings.name)
        self.__cog_app_commands__ = [c for c in self.__cog_app_commands__ if c is not group]
        self.bot.lama.add_command(group)

    async def cog_unload(self) -> None:
        self.bot.lama.remove_command(self.settings.name)

    @settings.command(
        name="language", description="The language of public game messages in this server."
    )
    @app_commands.describe(
        language=(
            "Language of lobbies and tables; private replies follow each player's Discord language"
        )
    )
    @app_commands.choices(
        language=[
            app_commands.Choice(name="English", value="en"),
            app_commands.Choice(name="Deutsch", value="de"),
            app_commands.Choice(name="Español", value="es"),
            app_commands.Choice(name="Polski", value="pl"),
            app_commands.Choice(name="Server default", value=SERVER_DEFAULT),
        ]
    )
    async def language(self, interaction: Interaction, language: app_commands.Choice[str]) -> None:
        # Checked here rather than with a check decorator: a failed check is an
        # error for discord.py, and a refusal is an ordinary, polite answer.
        if interaction.guild_id is None or not can_manage(interaction):
            await reply(interaction, text(interaction.locale, "settings.not_allowed"))
            return
        chosen = None if language.value == SERVER_DEFAULT else language.value
        try:
            await self.bot.service.set_language(interaction.guild_id, chosen)
        except ServiceError as error:
            await reply_error(interaction, error)
            return
        log.info("Guild %s: language set to %s", interaction.guild_id, chosen or "server default")
        locale = interaction.locale
        if chosen is None:
            name = text(locale, f"language.{language_of(interaction.guild_locale)}")
            message = text(locale, "settings.language.default", language=name)
        else:
            name = text(locale, f"language.{chosen}")
            message = text(locale, "settings.language.set", language=name)
        await reply(interaction, message)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(ServerSettingsCommands(bot))
