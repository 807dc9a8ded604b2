"""Stats commands: /lama stats, leaderboard and chart, and the leaderboard's paging.

Everything here reads finished games of one server through the service, only those
the asker may see (:func:`~bot.frontend.views.stats.audience`), and answers privately
when some of them are from a channel not everyone reading here may see; the messages
are drawn by :mod:`bot.frontend.views.stats`.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.frontend.cog_host import CogHost
from bot.frontend.cooldowns import too_soon
from bot.frontend.custom_ids import BoardId, fits_store
from bot.frontend.replies import Interaction, in_time, reply
from bot.frontend.views.stats import (
    audience,
    board_page,
    chart_file,
    finished_chart,
    stats_embed,
)
from bot.frontend.words import plain_name
from bot.i18n import text
from data.stats import StatsReads
from data.store import StoreError

from .lama_cog import LamaCog

log = logging.getLogger(__name__)


class StatsCommands(LamaCog, name="Stats"):
    """Numbers from finished games: per player, per server and per game."""

    async def cog_load(self) -> None:
        await super().cog_load()
        self.route(BoardId, self.handle_button)

    @property
    def stats(self) -> StatsReads:
        return self.bot.service.stats

    @app_commands.command(
        name="stats", description="Your L.A.M.A. stats in this server, or a member's."
    )
    @app_commands.describe(member="Whose stats to show (default: you)")
    async def stats_command(
        self, interaction: Interaction, member: discord.Member | None = None
    ) -> None:
        assert interaction.guild_id is not None
        if await too_soon(interaction, self.bot.service.cooldowns, "stats"):
            return
        who = member or interaction.user
        locale = interaction.locale
        try:
            seen = await audience(self.stats, interaction)
            stats = await self.stats.player_stats(interaction.guild_id, who.id, sight=seen.sight)
        except StoreError as error:
            await self._failed(interaction, error)
            return
        if stats is None:
            await reply(interaction, self._nobody(interaction, who), ephemeral=True)
            return
        embed = stats_embed(locale, who.display_name, stats)
        await interaction.response.send_message(embed=embed, ephemeral=seen.private)

    @app_commands.command(
        name="leaderboard", description="The best L.A.M.A. players in this server."
    )
    @app_commands.describe(order="How to rank the players")
    @app_commands.choices(
        order=[
            app_commands.Choice(name="Wins", value="wins"),
            app_commands.Choice(name="Win rate", value="win_rate"),
            app_commands.Choice(name="Average score", value="average"),
        ]
    )
    async def leaderboard_command(
        self, interaction: Interaction, order: app_commands.Choice[str] | None = None
    ) -> None:
        assert interaction.guild_id is not None
        if await too_soon(interaction, self.bot.service.cooldowns, "stats"):
            return
        chosen = order.value if order is not None else "wins"
        try:
            seen = await audience(self.stats, interaction)
            message, embed, view = await board_page(
                self.stats, interaction.guild_id, chosen, 0, interaction.locale, sight=seen.sight
            )
        except StoreError as error:
            await self._failed(interaction, error)
            return
        if embed is None:
            await reply(interaction, message or "", ephemeral=True)
            return
        await self._send_board(interaction, embed, view, ephemeral=seen.private)

    @app_commands.command(
        name="chart", description="Every player's points round by round in a finished game."
    )
    @app_commands.describe(
        game_id="The game's number, from /lama history (default: your latest, else the server's)"
    )
    async def chart_command(
        self,
        interaction: Interaction,
        game_id: app_commands.Range[int, 1, 2**53 - 1] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        if await too_soon(interaction, self.bot.service.cooldowns, "chart"):
            return
        locale = interaction.locale
        guild_id = interaction.guild_id
        note: str | None = None  # says so when the chart is not the asker's own game
        if game_id is not None and not fits_store(game_id):  # Discord checks the range, we too
            await reply(interaction, text(locale, "chart.unknown", game=game_id))
            return
        try:
            seen = await audience(self.stats, interaction)
            if game_id is None:
                # The asker's latest finished game here, else the server's latest they may see.
                latest = await self.stats.history(
                    guild_id, interaction.user.id, limit=1, sight=seen.sight
                )
                if latest:
                    game_id = latest[0].game_id
                else:
                    game_id = await self.stats.latest_finished_game(guild_id, sight=seen.sight)
                    note = text(locale, "chart.server_latest")
                if game_id is None:
                    await reply(interaction, text(locale, "chart.none"))
                    return
            # A game they may not see is answered as one that doesn't exist: no probing.
            place = await self.stats.finished_game_channel(guild_id, game_id, sight=seen.sight)
            chart = None
            if place is not None:
                chart = await finished_chart(self.bot.service, game_id, locale, guild_id=guild_id)
        except StoreError as error:
            await self._failed(interaction, error)
            return
        if chart is None:
            await reply(interaction, text(locale, "chart.unknown", game=game_id))
            return
        embed, png = chart
        await interaction.response.send_message(
            note, embed=embed, file=chart_file(png), ephemeral=place in seen.private_channels
        )

    # ------------------------------------------------------------ buttons
    async def handle_button(self, interaction: Interaction, cid: BoardId) -> None:
        """Previous/Next on a leaderboard: show that page in the same message."""
        if cid.guild_id != interaction.guild_id:
            await reply(interaction, text(interaction.locale, "error.unknown_button"))
            return

        async def read() -> tuple[
            bool, tuple[str | None, discord.Embed | None, discord.ui.View | None]
        ]:
            seen = await audience(self.stats, interaction)
            page = await board_page(
                self.stats, cid.guild_id, cid.order, cid.page, interaction.locale, sight=seen.sight
            )
            return seen.private, page

        try:
            # A slow store must not lose the click: acknowledged meanwhile (in_time).
            private, (message, embed, view) = await in_time(interaction, read())
        except StoreError as error:
            await self._failed(interaction, error)
            return
        shared = interaction.message is not None and not interaction.message.flags.ephemeral
        if private and shared:
            # Their page holds games not everyone here may see: theirs alone, not an edit.
            if embed is None:
                await reply(interaction, message or "", ephemeral=True)
            else:
                await self._send_board(interaction, embed, view, ephemeral=True)
            return
        edit = (
            interaction.edit_original_response
            if interaction.response.is_done()
            else interaction.response.edit_message
        )
        if embed is None:
            await edit(content=message, embed=None, view=None)
            return
        await edit(embed=embed, view=view)

    # ------------------------------------------------------------ helpers
    @staticmethod
    async def _send_board(
        interaction: Interaction,
        embed: discord.Embed,
        view: discord.ui.View | None,
        *,
        ephemeral: bool,
    ) -> None:
        if interaction.response.is_done():  # acknowledged while the store was slow
            if view is None:
                await interaction.followup.send(embed=embed, ephemeral=ephemeral)
            else:
                await interaction.followup.send(embed=embed, view=view, ephemeral=ephemeral)
        elif view is None:
            await interaction.response.send_message(embed=embed, ephemeral=ephemeral)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=ephemeral)

    @staticmethod
    def _nobody(interaction: Interaction, who: discord.abc.User) -> str:
        if who.id == interaction.user.id:
            return text(interaction.locale, "stats.none_self")
        return text(interaction.locale, "stats.none_member", name=plain_name(who.display_name))

    @staticmethod
    async def _failed(interaction: Interaction, error: StoreError) -> None:
        log.warning("stats could not be read: %s", error)
        await reply(interaction, text(interaction.locale, "stats.failed"))


async def setup(bot: CogHost) -> None:
    await bot.add_cog(StatsCommands(bot))
