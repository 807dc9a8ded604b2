"""The cog base class: a cog whose slash commands and button families join the bot's shared ones."""

from __future__ import annotations

from typing import Any, TypeVar

from discord import app_commands
from discord.ext import commands

from bot.frontend.cog_host import CogHost
from bot.frontend.items import Handler, Routed, TableHandler
from bot.service.history.stats import Stats

R = TypeVar("R", bound=Routed)


def attach_commands(
    cog: commands.Cog, group: app_commands.Group
) -> list[app_commands.Command[Any, ..., Any]]:
    """Move a cog's slash commands under the shared /lama group.

    Several cogs share one group, which discord.py does not do by itself; this
    runs in ``cog_load``, before the cog's commands would be added to the tree.
    """
    moved = [c for c in cog.__cog_app_commands__ if isinstance(c, app_commands.Command)]
    for command in moved:
        group.add_command(command)
    cog.__cog_app_commands__ = [c for c in cog.__cog_app_commands__ if c not in moved]
    return moved


def detach_commands(
    group: app_commands.Group, commands_: list[app_commands.Command[Any, ..., Any]]
) -> None:
    for command in commands_:
        group.remove_command(command.name)


class LamaCog(commands.Cog):
    """A cog whose slash commands live under the shared /lama group, and whose
    button families (:meth:`route`) are answered by its handlers while it is loaded."""

    def __init__(self, bot: CogHost) -> None:
        self.bot = bot
        self._commands: list[app_commands.Command[Any, ..., Any]] = []
        self._families: list[type[Any]] = []

    def route(self, family: type[R], handler: Handler[R]) -> None:
        """Answer the clicks of ``family`` with ``handler`` until the cog is unloaded."""
        self.bot.router.register(family, handler)
        self._families.append(family)

    def route_at_table(self, family: type[R], handler: TableHandler[R]) -> None:
        """As :meth:`route`, for a game's family: ``handler`` is also given the table the
        click's place check found (None if the service holds no such game)."""
        self.bot.router.register_at_table(family, handler)
        self._families.append(family)

    @property
    def stats(self) -> Stats:
        """The finished games' reads (what the stats, history and replays show)."""
        return self.bot.service.stats

    async def cog_load(self) -> None:
        self._commands = attach_commands(self, self.bot.lama)

    async def cog_unload(self) -> None:
        detach_commands(self.bot.lama, self._commands)
        for family in self._families:
            self.bot.router.unregister(family)
        self._families.clear()
