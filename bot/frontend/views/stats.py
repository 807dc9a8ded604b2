"""The stats messages: a player's stats, the leaderboard and its paging, the chip chart.

Everything here reads finished games of one server; nothing is kept in
memory, so the leaderboard's Previous/Next buttons carry only the server, the
page and the order (:class:`~bot.frontend.custom_ids.BoardId`) and work after
a restart.

Who sees what: an answer holds only the games the asker may see (:func:`audience`),
and is private when some of them are from a channel not everyone reading here may see.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.art.chart import render_chip_chart, seats_named_elsewhere
from bot.i18n import text
from data.records import ChipHistory, LeaderboardRow, PlayerStats, Sight
from data.stats import StatsReads

from ..custom_ids import BoardId
from ..items import LamaButton
from ..replies import Interaction
from ..words import number, percent, plain_name

if TYPE_CHECKING:
    from bot.service import GameService

PAGE_SIZE = 10  # leaderboard rows per page
MIN_GAMES = 3  # finished games a player needs to be ranked by win rate or average
CHART_FILE = "chips.png"
COLOR_STATS = discord.Colour.purple()


# ---------------------------------------------------------------- who sees what
@dataclass(frozen=True, slots=True)
class Audience:
    """What one asker may be shown where they ask."""

    sight: Sight  # the games they may see: not those of channels hidden from them
    private_channels: frozenset[int]  # channels with games not all readers here may see
    private: bool  # some game in sight is from one of those: answer ephemerally


def _sees(guild: discord.Guild, member: discord.Member, channel_id: int) -> bool:
    """Whether ``member`` may see the channel or thread now; a gone one (deleted, or an
    archived thread out of the cache) nobody may, nor a private thread they're not known in."""
    place = guild.get_channel_or_thread(channel_id)
    if place is None:
        return False
    try:
        allowed = place.permissions_for(member)
    except discord.ClientException:  # a thread whose parent isn't cached
        return False
    if not allowed.view_channel:
        return False
    if isinstance(place, discord.Thread) and place.is_private():
        return (
            allowed.manage_threads
            or place.owner_id == member.id
            or any(joined.id == member.id for joined in place.members)
        )
    return True


def _open_here(guild: discord.Guild, channel_id: int, here: object) -> bool:
    """Whether everyone reading ``here`` may see the channel or thread: it is here (or
    here's parent), a public thread of here, or @everyone may see it."""
    here_id = getattr(here, "id", None)
    if channel_id == here_id or (isinstance(here, discord.Thread) and channel_id == here.parent_id):
        return True
    place = guild.get_channel_or_thread(channel_id)
    if place is None:
        return False
    if isinstance(place, discord.Thread):
        if place.is_private():
            return False
        if place.parent_id == here_id:
            return True
    try:
        return place.permissions_for(guild.default_role).view_channel
    except discord.ClientException:
        return False


async def audience(stats: StatsReads, interaction: Interaction) -> Audience:
    """The games the asker may be shown where they ask (a channel or thread of their
    server): those of the channels they may see now, and those they sat at anywhere.

    Reads the channels of the server's finished games; the checks are the cache's.
    """
    assert interaction.guild_id is not None
    user, guild, here = interaction.user, interaction.guild, interaction.channel
    channels = await stats.finished_channels(interaction.guild_id)
    played = await stats.finished_channels(interaction.guild_id, user_id=user.id)
    if guild is None or not isinstance(user, discord.Member):  # unknown here: their own only
        return Audience(Sight(viewer=user.id, hidden=channels), channels, bool(played))
    hidden = frozenset(c for c in channels if not _sees(guild, user, c))
    private = frozenset(c for c in channels if not _open_here(guild, c, here))
    in_sight = (channels - hidden) | played
    return Audience(Sight(viewer=user.id, hidden=hidden), private, bool(in_sight & private))


# ---------------------------------------------------------------- formatting
def min_games(order: str) -> int:
    """Ranking by wins counts everyone; the ratios need a few games to mean something."""
    return 1 if order == "wins" else MIN_GAMES


def _names(names: tuple[str, ...] | list[str]) -> str:
    return ", ".join(plain_name(n) for n in names) or "—"


# ---------------------------------------------------------------- embeds
def stats_embed(locale: object, name: str, stats: PlayerStats) -> discord.Embed:
    embed = discord.Embed(
        title=text(locale, "stats.title", name=plain_name(name)),
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
            name=plain_name(row.name),
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
            BoardId(guild_id, max(page - 1, 0), order).custom_id,
            text(locale, "button.previous"),
            discord.ButtonStyle.secondary,
            emoji="◀️",
            disabled=page <= 0,
        )
    )
    view.add_item(
        LamaButton.make(
            BoardId(guild_id, min(page + 1, last), order).custom_id,
            text(locale, "button.next"),
            discord.ButtonStyle.secondary,
            emoji="▶️",
            disabled=page >= last,
        )
    )
    return view


async def board_page(
    stats: StatsReads,
    guild_id: int,
    order: str,
    page: int,
    locale: object,
    *,
    sight: Sight | None = None,
) -> tuple[str | None, discord.Embed | None, discord.ui.View | None]:
    """(message, None, None) for an empty leaderboard, else (None, embed, view), over
    the games in ``sight``.

    A page past the end shows the last page.
    """
    least = min_games(order)
    total = await stats.leaderboard_count(guild_id, min_games=least, sight=sight)
    if total == 0:
        return text(locale, "board.empty_min", count=least), None, None
    pages = -(-total // PAGE_SIZE)
    page = max(0, min(page, pages - 1))
    rows = await stats.leaderboard(
        guild_id,
        order=order,
        min_games=least,
        limit=PAGE_SIZE,
        offset=page * PAGE_SIZE,
        sight=sight,
    )
    embed = board_embed(locale, order, rows, page, pages)
    view = board_view(locale, guild_id, order, page, pages) if pages > 1 else None
    return None, embed, view


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
            name=plain_name(history.names[seat]),
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
