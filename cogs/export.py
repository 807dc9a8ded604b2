"""/lama export [game]: a CSV file of the server's finished games, for its admins, privately.

Only members with Manage Server may export.  The file holds the games the asker may
see (:func:`~bot.frontend.views.stats.audience`, the stats' rule: not those of channels
hidden from them, unless they sat at them), and at most one attachment's worth
(``cap``); a server with more gets its most recent games and is told how many of how
many.  The file is built by :mod:`bot.service.history.export`.
"""

from __future__ import annotations

import io
import logging
from datetime import UTC, datetime

import discord
from discord import app_commands

from bot.frontend.cog_host import CogHost
from bot.frontend.custom_ids import fits_store
from bot.frontend.permissions import can_manage
from bot.frontend.places import bot_member
from bot.frontend.replies import Interaction, reply
from bot.frontend.seen import read_in_sight
from bot.frontend.views.stats import Audience
from bot.i18n import text
from bot.service.history.export import MAX_BYTES, Export

from .lama_cog import LamaCog

log = logging.getLogger(__name__)


def file_name(guild_id: int, now: datetime, game_id: int | None = None) -> str:
    """``lama-games-<server>-<date>.csv`` (``lama-game-<number>.csv`` for one game)."""
    if game_id is not None:
        return f"lama-game-{game_id}.csv"
    return f"lama-games-{guild_id}-{now:%Y-%m-%d}.csv"


def export_note(locale: object, export: Export) -> str:
    """What the message with the file says: how many games, and whether that is all."""
    if export.complete:
        return text(locale, "export.done", count=export.games)
    return text(locale, "export.truncated", count=export.total, shown=export.games)


class ExportCommands(LamaCog, name="Export"):
    """The server's finished games as a file. ``cap``: the most bytes one attachment
    may have (Discord's upload limit for the bot)."""

    def __init__(self, bot: CogHost, *, cap: int = MAX_BYTES) -> None:
        super().__init__(bot)
        self.cap = cap

    @app_commands.command(
        name="export",
        description="A CSV file of this server's finished L.A.M.A. games (Manage Server).",
    )
    @app_commands.describe(game_id="Only this game, its number from /lama history (default: all)")
    async def export_command(
        self,
        interaction: Interaction,
        game_id: app_commands.Range[int, 1, 2**53 - 1] | None = None,
    ) -> None:
        locale = interaction.locale
        guild_id = interaction.guild_id
        # A refusal is a polite answer, not a failed check (see the settings' _refused).
        if guild_id is None or not bot_member(interaction):
            await reply(interaction, text(locale, "error.server_with_bot_only"))
            return
        if not can_manage(interaction):
            await reply(interaction, text(locale, "export.not_allowed"))
            return
        if game_id is not None and not fits_store(game_id):  # Discord checks the range, we too
            await reply(interaction, text(locale, "export.unknown", game=game_id))
            return
        exports = self.bot.service.exports

        async def read(seen: Audience) -> Export:
            return await exports.csv(guild_id, game_id=game_id, sight=seen.sight, cap=self.cap)

        # A big server takes a while: acknowledged meanwhile, privately.
        done = await read_in_sight(
            interaction,
            self.bot.service,
            read,
            cooldown="export",
            failed="export.failed",
            private=True,
        )
        if done is None:
            return
        _, export = done
        if not export.total:
            # A game of another server, or of a channel they can't see, is answered as
            # one that doesn't exist: no probing.
            key = "export.none" if game_id is None else "export.unknown"
            await reply(interaction, text(locale, key, game=game_id))
            return
        log.info(
            "Guild %s: exported %s of %s games (%s bytes)",
            guild_id,
            export.games,
            export.total,
            len(export.data),
        )
        note = export_note(locale, export)
        attached = discord.File(
            io.BytesIO(export.data), filename=file_name(guild_id, datetime.now(UTC), game_id)
        )
        if interaction.response.is_done():
            await interaction.followup.send(note, file=attached, ephemeral=True)
        else:
            await interaction.response.send_message(note, file=attached, ephemeral=True)


async def setup(bot: CogHost) -> None:
    await bot.add_cog(ExportCommands(bot))
