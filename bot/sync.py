"""``python -m bot sync``: the bot's slash commands published to Discord, and nothing else.

A host runs it once after installing and after an update that changed the commands,
also while the bot runs: it logs in over REST only (no gateway), opens no database
(so it claims no shard and resumes no game) and serves no metrics.  Its commands are
the running bot's own, built by the same cogs (:meth:`LamaBot.load_commands`), and
published as ``--sync`` publishes them (:meth:`LamaBot.sync_commands`): globally.
"""

from __future__ import annotations

import dataclasses

from bot.client import INITIAL_EXTENSIONS, LamaBot
from bot.config import Settings
from bot.frontend.presenter import Presenter

#: The cogs that hold the slash commands: all but the card emojis' upload, which is the
#: running bot's job (it needs the store, and the process serving shard 0).
COMMAND_EXTENSIONS = tuple(name for name in INITIAL_EXTENSIONS if name != "cogs.emojis")


class CommandSync(LamaBot):
    """The bot's slash commands without the bot: its login publishes them globally."""

    def __init__(self, settings: Settings) -> None:
        # One client that only calls REST: no shards to connect, no metrics to serve.
        alone = dataclasses.replace(settings, shard_count=None, shard_ids=None, metrics_port=None)
        super().__init__(alone, sync_globally=True)
        #: The top-level commands published, by name, once the login is done.
        self.published: list[str] = []

    async def setup_hook(self) -> None:
        self.logged_in.set()
        # The gameplay cog holds the presenter; nothing is shown through it here.
        self.presenter = Presenter(self)
        await self.load_commands(COMMAND_EXTENSIONS)
        await self.sync_commands()
        self.published = [command.name for command in self.tree.get_commands()]
