"""The :class:`LamaBot` client: intents, extension loading and command syncing."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.i18n.commands import LamaTranslator
from bot.service import GameService
from bot.thinking import Thinking
from data.shards import Shards
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
        shards: dict[str, Any] = {}
        if settings.shard_count is not None:  # only AutoShardedBot takes shard_ids
            ids = list(settings.shard_ids or ())
            shards = {"shard_count": settings.shard_count, "shard_ids": ids}
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=make_intents(),
            **shards,
        )
        self.settings = settings
        self.sync_globally = sync_globally
        # Every cog adds its commands to this one group in its cog_load.
        # Guild only as a whole: Discord ignores guild_only on a subcommand.
        self.lama = app_commands.Group(
            name="lama", description="Play L.A.M.A. in this channel", guild_only=True
        )
        self.store: Store
        self._stopping: asyncio.Task[None] | None = None  # after the shards' lease was lost
        self.service: GameService
        self.thinking: Thinking

    async def setup_hook(self) -> None:
        # One clock for the store's timestamps and the service's timers.
        clock = lambda: discord.utils.utcnow().timestamp()  # noqa: E731
        self.store = await Store.open(self.settings.database, clock=clock)
        # Before anything is resumed: a second process on these shards stops here.
        await self.store.claim_shards(shards_of(self.settings), on_lost=self._lost_shards)
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

    def _lost_shards(self) -> None:
        # Another process serves these shards now: playing on would play its games twice.
        log.critical("Stopping: the shards' lease was lost to another process")
        self._stopping = asyncio.create_task(self.close())

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
        """Push the slash commands to Discord according to the settings.

        Of several processes, only the one serving shard 0 syncs (or any with --sync).
        """
        guild_id = self.settings.dev_guild_id
        if not self.sync_globally and 0 not in shards_of(self.settings).ids:
            log.info("Slash commands are synced by the process serving shard 0")
        elif guild_id is not None:
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


class ShardedLamaBot(LamaBot, commands.AutoShardedBot):
    """The bot on the shards SHARD_IDS of SHARD_COUNT, for running several processes."""


def make_bot(settings: Settings, *, sync_globally: bool = False) -> LamaBot:
    """The bot the settings ask for: sharded with SHARD_COUNT, else one plain client."""
    kind = LamaBot if settings.shard_count is None else ShardedLamaBot
    return kind(settings, sync_globally=sync_globally)


def shards_of(settings: Settings) -> Shards:
    if settings.shard_count is None or settings.shard_ids is None:
        return Shards()
    return Shards(settings.shard_count, settings.shard_ids)
