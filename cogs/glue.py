"""Small pieces every cog shares: the /lama group wiring and error replies."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import text
from bot.service import ServiceError
from game import IllegalMove, Ruleset

if TYPE_CHECKING:
    from bot.client import LamaBot

    Interaction = discord.Interaction[LamaBot]
else:
    Interaction = discord.Interaction

log = logging.getLogger(__name__)

#: How long a cog being unloaded (the bot shutting down) waits for the answers it is
#: still sending: one followup each, before the connection to Discord is closed.
ANSWERS_GRACE = 3.0


class Answers:
    """The answers a cog is still working on, for its unload to let them go out."""

    def __init__(self) -> None:
        self._pending: set[asyncio.Future[None]] = set()

    @contextlib.asynccontextmanager
    async def giving(self) -> AsyncIterator[None]:
        done = asyncio.get_running_loop().create_future()
        self._pending.add(done)
        try:
            yield
        finally:
            self._pending.discard(done)
            done.set_result(None)

    async def sent(self, timeout: float = ANSWERS_GRACE) -> None:
        """Wait until every answer begun is given, or ``timeout`` has passed."""
        if self._pending:
            await asyncio.wait(set(self._pending), timeout=timeout)


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
    """A cog whose slash commands live under the shared /lama group."""

    def __init__(self, bot: LamaBot) -> None:
        self.bot = bot
        self._commands: list[app_commands.Command[Any, ..., Any]] = []

    async def cog_load(self) -> None:
        self._commands = attach_commands(self, self.bot.lama)

    async def cog_unload(self) -> None:
        detach_commands(self.bot.lama, self._commands)


def error_text(locale: object, error: Exception, ruleset: Ruleset | None = None) -> str:
    """What went wrong, for the player; cards named as ``ruleset`` (the game's
    edition) names them."""
    if isinstance(error, ServiceError):
        return text(locale, error.key, **error.params)
    if isinstance(error, IllegalMove):
        params = {k: _param(locale, v, ruleset) for k, v in error.params.items()}
        key = f"illegal.{error.code}"
        try:
            return text(locale, key, **params)
        except KeyError:
            return str(error)
    raise error


def _param(locale: object, value: Any, ruleset: Ruleset | None) -> Any:
    from game import Card

    from .render import card_name

    if isinstance(value, Card):
        return card_name(str(getattr(locale, "value", locale)), value, ruleset or Ruleset())
    return value


async def reply(interaction: Interaction, message: str, *, ephemeral: bool = True) -> None:
    """Answer once, whether or not the interaction was deferred."""
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=ephemeral)
    else:
        await interaction.response.send_message(message, ephemeral=ephemeral)


async def reply_error(interaction: Interaction, error: Exception) -> None:
    await reply(interaction, error_text(interaction.locale, error))


async def answer_unexpected(interaction: discord.Interaction[Any]) -> None:
    """Tell whoever clicked or typed, in their language, that it failed on our side,
    instead of leaving them with Discord's "This interaction failed"."""
    try:
        await reply(interaction, text(interaction.locale, "error.unexpected"))
    except discord.HTTPException as error:
        log.warning("could not answer a failed interaction: %s", error)


async def defer_private(interaction: Interaction) -> None:
    """Answer now (a private "thinking…" for a command, a quiet ack for a button)
    when what follows may wait longer than the 3 s Discord gives an answer;
    :func:`reply` then fills it in."""
    if interaction.response.is_done():
        return
    if interaction.type is discord.InteractionType.component:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


def table_permissions(in_thread: bool) -> tuple[str, ...]:
    """What the bot needs in a channel to keep a table going after its first response.

    The lobby is posted as the interaction response, which Discord allows
    without any channel permission; editing the table, the turn pings and the
    chip chart all need these (the README's invite list). In a thread, sending
    takes Send Messages in Threads instead of Send Messages.
    """
    send = "send_messages_in_threads" if in_thread else "send_messages"
    return ("view_channel", send, "embed_links", "attach_files")


def missing_table_permissions(interaction: Interaction) -> list[str]:
    """The ``discord.Permissions`` names of the table permissions the bot lacks here."""
    needed = table_permissions(isinstance(interaction.channel, discord.Thread))
    granted = interaction.app_permissions
    return [name for name in needed if not getattr(granted, name)]


def missing_permissions_text(locale: object, key: str, missing: list[str]) -> str:
    """The message ``key`` naming the ``missing`` permissions as Discord's client does."""
    names = ", ".join(f"**{text(locale, f'permission.{name}')}**" for name in missing)
    return text(locale, key, count=len(missing), permissions=names)


def can_manage(interaction: Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)
