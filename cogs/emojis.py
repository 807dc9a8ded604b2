"""The cards and chips as the application's own emojis, with plain emojis to fall back on.

At start the cog makes sure every picture of :mod:`bot.art` is an application
emoji: it lists the application's emojis and uploads only the missing ones, so
a restart never makes a duplicate. Of several processes starting at once, only
the one serving shard 0 uploads (the shard leases make it one process); the
others list again, less and less often, until the emojis are all there. The
uploader tries again as often when it fails (Discord failing for a moment, no
permission yet, the emoji limit), else one failed upload would leave every
process plain. Until that is done the messages use the plain emojis (keycaps,
🦙) they always had, and the log says why, once.  Each listing and upload waits
its turn at the bot token's REST budget, behind the games' calls: the plain
emojis serve meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

import discord
from discord.ext import commands

from bot import art
from bot.frontend.background import log_failure
from bot.frontend.cog_host import CogHost
from bot.frontend.faces import PLAIN, Faces
from bot.limiter import Limiter, Priority

log = logging.getLogger(__name__)


RELIST_FIRST = 10.0  # seconds before a process that doesn't upload lists the emojis again
RELIST_MAX = 600.0  # ...doubling each time up to this


class EmojiApp(Protocol):
    """The application's emojis, as a client lists and uploads them."""

    async def fetch_application_emojis(self) -> list[discord.Emoji]: ...

    async def create_application_emoji(self, *, name: str, image: bytes) -> discord.Emoji: ...


async def sync_emojis(
    bot: EmojiApp,
    *,
    upload: bool = True,
    quiet: bool = False,
    limiter: Limiter | None = None,
) -> Faces:
    """Every art picture as an application emoji, uploading only what is missing
    (nothing without ``upload``: another process does); each call waits its turn at
    ``limiter``, the bot token's REST budget, as a cosmetic one.

    Returns :data:`PLAIN` (and logs why, unless ``quiet``: said already) if any
    of them can't be had: half a deck of own emojis next to keycaps would be
    worse than none.
    """
    say = log.debug if quiet else log.warning

    async def turn() -> None:
        if limiter is not None:
            await limiter.acquire(Priority.COSMETIC)

    try:
        await turn()
        existing = {e.name: e for e in await bot.fetch_application_emojis()}
    except Exception as error:  # any failure (HTTP, network, no application id): plain
        say("Could not list the application's emojis (%s); using plain emojis", error)
        return PLAIN
    if not upload:
        return listed(existing)
    emojis: dict[str, discord.Emoji] = {}
    for name in art.ALL_NAMES:
        emoji = existing.get(name)
        if emoji is None:
            try:
                await turn()
                emoji = await bot.create_application_emoji(name=name, image=art.read_emoji(name))
            except Exception as error:  # no permission, the limit, Discord failing
                say(
                    "Could not upload the application emoji %s (%s); using plain emojis",
                    name,
                    error,
                )
                return PLAIN
        emojis[name] = emoji
    return Faces(emojis)


def listed(existing: dict[str, discord.Emoji]) -> Faces:
    """The application's own faces if it has every picture, else :data:`PLAIN`."""
    if any(name not in existing for name in art.ALL_NAMES):
        return PLAIN
    return Faces({name: existing[name] for name in art.ALL_NAMES})


class Emojis(commands.Cog):
    """Syncs the card faces in the background at start, then hands them to the bot."""

    def __init__(self, bot: CogHost) -> None:
        self.bot = bot
        self._task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        # Not awaited: a slow or failing upload must not hold up the bot's start.
        self._task = asyncio.create_task(self._sync(), name="lama-emoji-sync")
        self._task.add_done_callback(log_failure)  # plain faces stay; the failure is logged

    async def _sync(self) -> None:
        # The shard leases are claimed before the cogs load: one process holds shard 0.
        uploads = 0 in self.bot.store.leases.shards.ids
        limiter = self.bot.limiter
        faces = await sync_emojis(self.bot, upload=uploads, limiter=limiter)
        wait = RELIST_FIRST
        if faces is PLAIN and not uploads:
            log.info("The process serving shard 0 uploads the card emojis; plain ones until then")
        while faces is PLAIN:  # the uploader too: Discord may fail once, or a while
            await asyncio.sleep(wait)
            wait = min(2 * wait, RELIST_MAX)
            faces = await sync_emojis(self.bot, upload=uploads, quiet=True, limiter=limiter)
        if faces is not PLAIN:
            self.bot.faces = faces
            log.info("Using %d application emojis for the cards", len(faces.emojis))

    async def cog_unload(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()


async def setup(bot: CogHost) -> None:
    await bot.add_cog(Emojis(bot))
