"""The :class:`LamaBot` client: intents, extension loading and command syncing."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.i18n.commands import LamaTranslator
from bot.service import GameService
from bot.thinking import Thinking
from data.store import Store

log = logging.getLogger(__name__)

#: Extensions loaded in :meth:`LamaBot.setup_hook`, in order.
INITIAL_EXTENSIONS: tuple[str, ...] = (
    "cogs.meta",
    "cogs.emojis",
    "cogs.gameplay",
    "cogs.lobby",
    "cogs.settings",
    "cogs.stats",
)


def make_intents() -> discord.Intents:
    """Only the ``guilds`` intent: slash commands and buttons need nothing privileged."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class LamaBot(commands.Bot):
    """discord.py bot that hosts L.A.M.A. games."""

    def __init__(self, settings: Settings, *, sync_globally: bool = False) -> None:
        # The bot never joins voice, so the "PyNaCl/davey is not installed" warnings are noise.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=make_intents(),
        )
        self.settings = settings
        self.sync_globally = sync_globally
        # Every cog adds its commands to this one group in its cog_load.
        # Guild only as a whole: Discord ignores guild_only on a subcommand.
        self.lama = app_commands.Group(
            name="lama", description="Play L.A.M.A. in this channel", guild_only=True
        )
        self.store: Store
        self.service: GameService
        self.thinking: Thinking

    async def setup_hook(self) -> None:
        # One clock for the store's timestamps and the service's timers.
        clock = lambda: discord.utils.utcnow().timestamp()  # noqa: E731
        self.store = await Store.open(self.settings.database, clock=clock)
        # Hard thinks in these processes; they start with the first Hard move.
        self.thinking = Thinking(self.settings.ai_workers)
        self.service = GameService(self.store, clock=clock, thinking=self.thinking)
        for extension in INITIAL_EXTENSIONS:
            await self.load_extension(extension)
            log.debug("Loaded extension %s", extension)
        self.tree.add_command(self.lama)
        await self.tree.set_translator(LamaTranslator())
        resumed = await self.service.resume()
        if resumed:
            log.info("Resumed %d unfinished game(s)", len(resumed))
            for table in resumed:
                # A fresh ping with the deadline as it is now replaces the old one.
                await self.service.notify(table)
        await self.sync_commands()

    async def close(self) -> None:
        # Everything is already saved; stop the background work, then the store.
        if hasattr(self, "service"):
            await self.service.close()
            await self.thinking.close()
        for extension in list(self.extensions):
            await self.unload_extension(extension)
        if hasattr(self, "store"):
            await self.store.close()
        await super().close()

    async def sync_commands(self) -> None:
        """Push the slash commands to Discord according to the settings."""
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d command(s) to dev guild %d", len(synced), guild_id)
        elif self.sync_globally:
            synced = await self.tree.sync()
            log.info(
                "Synced %d global command(s); Discord may take a moment to show them", len(synced)
            )
        else:
            log.warning(
                "Slash commands were not synced; run once with `python -m bot --sync` "
                "(global) or set DEV_GUILD_ID to sync instantly to one test server"
            )

    async def on_ready(self) -> None:
        log.info("Logged in as %s in %d guild(s)", self.user, len(self.guilds))
