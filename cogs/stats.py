"""Stats: /lama stats, leaderboard, history and chart, and the chart posted at a game's end.

Everything here reads finished games of one server through the service; nothing is
kept in memory, so the leaderboard's Previous/Next buttons carry only the
server, the page and the order (``lama:board:<guild>:<page>:<order>``) and
work after a restart.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.art.chart import render_chip_chart, seats_named_elsewhere
from bot.i18n import language_of, text
from data.records import LEADERBOARD_ORDERS, ChipHistory, HistoryRow, LeaderboardRow, PlayerStats
from data.stats import StatsReads
from data.store import StoreError

from .components import BOARD_ACTION, ComponentId, LamaButton
from .glue import Interaction, LamaCog, reply

if TYPE_CHECKING:
    from bot.client import LamaBot
    from bot.service import GameService

log = logging.getLogger(__name__)

PAGE_SIZE = 10  # leaderboard rows per page
MIN_GAMES = 3  # finished games a player needs to be ranked by win rate or average
HISTORY_SIZE = 10  # games listed by /lama history
CHART_FILE = "chips.png"
COLOR_STATS = discord.Colour.purple()
_COMMA_DECIMALS = frozenset({"de", "es", "pl"})


# ---------------------------------------------------------------- formatting
def number(locale: object, value: float, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals and the language's decimal mark."""
    shown = f"{value:.{digits}f}"
    return shown.replace(".", ",") if language_of(locale) in _COMMA_DECIMALS else shown


def percent(locale: object, rate: float) -> str:
    return text(locale, "stats.percent", value=number(locale, rate * 100, 0))


def min_games(order: str) -> int:
    """Ranking by wins counts everyone; the ratios need a few games to mean something."""
    return 1 if order == "wins" else MIN_GAMES


def board_id(guild_id: int, page: int, order: str) -> str:
    return f"lama:{BOARD_ACTION}:{guild_id}:{page}:{LEADERBOARD_ORDERS.index(order)}"


def _names(names: tuple[str, ...] | list[str]) -> str:
    return ", ".join(discord.utils.escape_markdown(n) for n in names) or "—"


# ---------------------------------------------------------------- embeds
def stats_embed(locale: object, name: str, stats: PlayerStats) -> discord.Embed:
    embed = discord.Embed(
        title=text(locale, "stats.title", name=discord.utils.escape_markdown(name)),
        colour=COLOR_STATS,
    )
    fields = [
        ("stats.games", str(stats.games)),
        ("stats.wins", str(stats.wins)),
        ("stats.win_rate", percent(locale, stats.win_rate)),
        ("stats.average", number(locale, stats.average_points)),
        (
            "stats.emptied",
            text(locale, "stats.emptied_value", emptied=stats.rounds_emptied, rounds=stats.rounds),
        ),
        ("stats.returned", str(stats.chips_returned)),
    ]
    for key, value in fields:
        embed.add_field(name=text(locale, key), value=value, inline=True)
    embed.add_field(
        name=text(locale, "stats.best"),
        value=text(
            locale,
            "stats.best_value",
            count=stats.best_points,
            game=stats.best_game_id,
            time=int(stats.best_game_at),
        ),
        inline=False,
    )
    embed.set_footer(text=text(locale, "stats.footer"))
    return embed


def board_embed(
    locale: object, order: str, rows: list[LeaderboardRow], page: int, pages: int
) -> discord.Embed:
    lines = [
        text(
            locale,
            "board.line",
            rank=row.rank,
            name=discord.utils.escape_markdown(row.name),
            wins=text(locale, "board.wins", count=row.wins),
            games=text(locale, "board.games", count=row.games),
            rate=percent(locale, row.win_rate),
            average=number(locale, row.average_points),
        )
        for row in rows
    ]
    embed = discord.Embed(
        title=text(locale, "board.title", order=text(locale, f"board.order.{order}")),
        description="\n".join(lines),
        colour=COLOR_STATS,
    )
    embed.set_footer(text=text(locale, "board.footer", page=page + 1, pages=pages, count=MIN_GAMES))
    return embed


def board_view(locale: object, guild_id: int, order: str, page: int, pages: int) -> discord.ui.View:
    """Previous/Next, each disabled at its end; their ids always differ (pages >= 2)."""
    view = discord.ui.View(timeout=None)
    last = pages - 1
    view.add_item(
        LamaButton.make(
            board_id(guild_id, max(page - 1, 0), order),
            text(locale, "button.previous"),
            discord.ButtonStyle.secondary,
            emoji="◀️",
            disabled=page <= 0,
        )
    )
    view.add_item(
        LamaButton.make(
            board_id(guild_id, min(page + 1, last), order),
            text(locale, "button.next"),
            discord.ButtonStyle.secondary,
            emoji="▶️",
            disabled=page >= last,
        )
    )
    return view


async def board_page(
    stats: StatsReads, guild_id: int, order: str, page: int, locale: object
) -> tuple[str | None, discord.Embed | None, discord.ui.View | None]:
    """(message, None, None) for an empty leaderboard, else (None, embed, view).

    A page past the end shows the last page.
    """
    least = min_games(order)
    total = await stats.leaderboard_count(guild_id, min_games=least)
    if total == 0:
        return text(locale, "board.empty_min", count=least), None, None
    pages = -(-total // PAGE_SIZE)
    page = max(0, min(page, pages - 1))
    rows = await stats.leaderboard(
        guild_id, order=order, min_games=least, limit=PAGE_SIZE, offset=page * PAGE_SIZE
    )
    embed = board_embed(locale, order, rows, page, pages)
    view = board_view(locale, guild_id, order, page, pages) if pages > 1 else None
    return None, embed, view


def history_embed(locale: object, name: str, rows: list[HistoryRow]) -> discord.Embed:
    lines = [
        ("🏆 " if row.winner else "")
        + text(
            locale,
            "history.line",
            time=int(row.finished_at),
            game=row.game_id,
            players=text(locale, "history.players", count=row.players),
            points=text(locale, "history.points", count=row.points),
            place=row.place,
            winners=_names(row.winners),
        )
        for row in rows
    ]
    embed = discord.Embed(
        title=text(locale, "history.title", name=discord.utils.escape_markdown(name)),
        description="\n".join(lines),
        colour=COLOR_STATS,
    )
    embed.set_footer(text=text(locale, "history.footer"))
    return embed


#: The coloured square beside a name in the message, matching its line's colour (SEAT_COLORS).
SEAT_SQUARES = ("🟦", "🟧", "🟩", "🟪", "🟫", "⬛")


async def chart_embed(locale: object, history: ChipHistory) -> tuple[discord.Embed, bytes]:
    """The embed and the PNG (to attach as ``CHART_FILE``) of one game's chip history.

    The PNG is drawn in a worker thread, so the bot goes on answering meanwhile. Names
    the chart's font can't draw are labelled by seat there and given here, beside
    their line's colour.
    """
    png = await asyncio.to_thread(
        render_chip_chart,
        history,
        title=text(locale, "chart.heading"),
        x_label=text(locale, "chart.round"),
        threshold_label=text(locale, "chart.threshold", threshold=history.threshold),
        seat_label=text(locale, "chart.seat", seat="{seat}"),
    )
    lines = [
        text(
            locale,
            "chart.description",
            winners=_names([history.names[seat] for seat in history.winners]),
            threshold=history.threshold,
        )
    ]
    lines += [
        text(
            locale,
            "chart.named",
            color=SEAT_SQUARES[seat % len(SEAT_SQUARES)],
            seat=text(locale, "chart.seat", seat=seat + 1),
            name=discord.utils.escape_markdown(history.names[seat]),
        )
        for seat in seats_named_elsewhere(history)
    ]
    embed = discord.Embed(
        title=text(locale, "chart.title", game=history.game_id),
        description="\n".join(lines),
        colour=COLOR_STATS,
    )
    embed.set_image(url=f"attachment://{CHART_FILE}")
    return embed, png


def chart_file(png: bytes) -> discord.File:
    return discord.File(io.BytesIO(png), CHART_FILE)


async def finished_chart(
    games: GameService, game_id: int, locale: object, *, guild_id: int | None = None
) -> tuple[discord.Embed, bytes] | None:
    """The chart of a finished game (of ``guild_id``, if given); None if there is none."""
    history = await games.finished_chips(game_id, guild_id=guild_id)
    if history is None or not history.totals or not history.winners:
        return None
    return await chart_embed(locale, history)


# ---------------------------------------------------------------- the cog
class Stats(LamaCog):
    """Numbers from finished games: per player, per server and per game."""

    def __init__(self, bot: LamaBot) -> None:
        super().__init__(bot)

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
        who = member or interaction.user
        locale = interaction.locale
        try:
            stats = await self.stats.player_stats(interaction.guild_id, who.id)
        except StoreError as error:
            await self._failed(interaction, error)
            return
        if stats is None:
            await reply(interaction, self._nobody(interaction, who), ephemeral=True)
            return
        embed = stats_embed(locale, who.display_name, stats)
        await interaction.response.send_message(embed=embed)

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
        chosen = order.value if order is not None else "wins"
        try:
            message, embed, view = await board_page(
                self.stats, interaction.guild_id, chosen, 0, interaction.locale
            )
        except StoreError as error:
            await self._failed(interaction, error)
            return
        if embed is None:
            await reply(interaction, message or "", ephemeral=True)
            return
        if view is None:
            await interaction.response.send_message(embed=embed)
        else:
            await interaction.response.send_message(embed=embed, view=view)

    @app_commands.command(
        name="history",
        description="Recent finished L.A.M.A. games in this server, yours or a member's.",
    )
    @app_commands.describe(member="Whose games to show (default: you)")
    async def history_command(
        self, interaction: Interaction, member: discord.Member | None = None
    ) -> None:
        assert interaction.guild_id is not None
        who = member or interaction.user
        try:
            rows = await self.stats.history(interaction.guild_id, who.id, limit=HISTORY_SIZE)
        except StoreError as error:
            await self._failed(interaction, error)
            return
        if not rows:
            await reply(interaction, self._nobody(interaction, who), ephemeral=True)
            return
        embed = history_embed(interaction.locale, who.display_name, rows)
        await interaction.response.send_message(embed=embed)

    @app_commands.command(
        name="chart", description="Every player's points round by round in a finished game."
    )
    @app_commands.describe(
        game_id="The game's number, from /lama history (default: your latest, else the server's)"
    )
    async def chart_command(
        self,
        interaction: Interaction,
        game_id: app_commands.Range[int, 1, 2**53] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        locale = interaction.locale
        guild_id = interaction.guild_id
        note: str | None = None  # says so when the chart is not the asker's own game
        try:
            if game_id is None:
                # The asker's latest finished game here, else the server's latest.
                latest = await self.stats.history(guild_id, interaction.user.id, limit=1)
                if latest:
                    game_id = latest[0].game_id
                else:
                    game_id = await self.stats.latest_finished_game(guild_id)
                    note = text(locale, "chart.server_latest")
                if game_id is None:
                    await reply(interaction, text(locale, "chart.none"))
                    return
            chart = await finished_chart(self.bot.service, game_id, locale, guild_id=guild_id)
        except StoreError as error:
            await self._failed(interaction, error)
            return
        if chart is None:
            await reply(interaction, text(locale, "chart.unknown", game=game_id))
            return
        embed, png = chart
        await interaction.response.send_message(note, embed=embed, file=chart_file(png))

    # ------------------------------------------------------------ buttons
    async def handle_component(self, interaction: Interaction, cid: ComponentId) -> None:
        """Previous/Next on a leaderboard: show that page in the same message."""
        if cid.option is None or cid.stamp is None or cid.game_id != interaction.guild_id:
            await reply(interaction, text(interaction.locale, "error.unknown_button"))
            return
        order = LEADERBOARD_ORDERS[cid.option]
        try:
            message, embed, view = await board_page(
                self.stats, cid.game_id, order, cid.stamp, interaction.locale
            )
        except StoreError as error:
            await self._failed(interaction, error)
            return
        if embed is None:
            await interaction.response.edit_message(content=message, embed=None, view=None)
            return
        await interaction.response.edit_message(embed=embed, view=view)

    # ------------------------------------------------------------ helpers
    @staticmethod
    def _nobody(interaction: Interaction, who: discord.abc.User) -> str:
        if who.id == interaction.user.id:
            return text(interaction.locale, "stats.none_self")
        return text(interaction.locale, "stats.none_member", name=who.display_name)

    @staticmethod
    async def _failed(interaction: Interaction, error: StoreError) -> None:
        log.warning("stats could not be read: %s", error)
        await reply(interaction, text(interaction.locale, "stats.failed"))


async def setup(bot: LamaBot) -> None:
    await bot.add_cog(Stats(bot))
