"""Who sees which finished games, and the chip chart of one game.

The leaderboard is drawn in :mod:`.leaderboard`, a person's stats in :mod:`.player_stats`.

Who sees what: an answer holds only the games the asker may see (:func:`audience`),
and is private when some of them are from a channel not everyone reading here may see.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot.art.chart import render_chip_chart, seats_named_elsewhere
from bot.i18n import text
from data.records import ChipHistory, Sight
from game import Card

from ..faces import Faces
from ..permissions import everyone_reading_may_see, may_write_here
from ..places import bot_member, place_of
from ..replies import Interaction
from ..words import plain_name, stored_name
from .layout import COLOR_STATS, Layout, block, fit, heading, layout, picture

if TYPE_CHECKING:
    from bot.service import GameService
    from bot.service.history.stats import Stats

CHART_FILE = "chips.png"


# ---------------------------------------------------------------- who sees what
@dataclass(frozen=True, slots=True)
class Audience:
    """What one asker may be shown where they ask."""

    sight: Sight  # the games they may see: not those of channels hidden from them
    private_channels: frozenset[int]  # channels with games not all readers here may see
    private: bool  # some game in sight is from one of those (or they may not write here)


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
    here's parent), a public thread of here, or @everyone and every role and member
    reading here may see it (their overwrites included)."""
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
        return everyone_reading_may_see(guild, place, here)
    except discord.ClientException:
        return False


async def audience(stats: Stats, interaction: Interaction) -> Audience:
    """The games the asker may be shown where they ask (a channel or thread of their
    server): those of the channels they may see now, and those they sat at anywhere.

    Reads the channels of the server's finished games; the checks are the cache's.
    """
    user, guild, here = interaction.user, interaction.guild, interaction.channel
    channels = await stats.finished_channels(place_of(interaction))
    played = await stats.finished_channels(place_of(interaction), user_id=user.id)
    if not bot_member(interaction):
        # The bot sees nothing of the place (a group DM, a server only a person installed
        # it in): this channel's games are for everyone reading it, who saw them played;
        # any other channel's, for those who sat at them, privately.
        others = frozenset(c for c in channels if c != interaction.channel_id)
        return Audience(Sight(viewer=user.id, hidden=others), others, bool(played & others))
    if guild is None or not isinstance(user, discord.Member):  # unknown here: their own only
        return Audience(Sight(viewer=user.id, hidden=channels), channels, bool(played))
    hidden = frozenset(c for c in channels if not _sees(guild, user, c))
    if not may_write_here(interaction):
        # Shown to the channel, the answer would be a message of theirs where they may
        # not write (a read-only channel, one locked by a moderator): theirs alone.
        return Audience(Sight(viewer=user.id, hidden=hidden), channels, True)
    private = frozenset(c for c in channels if not _open_here(guild, c, here))
    in_sight = (channels - hidden) | played
    return Audience(Sight(viewer=user.id, hidden=hidden), private, bool(in_sight & private))


# ---------------------------------------------------------------- formatting
def _names(names: tuple[str, ...] | list[str]) -> str:
    return ", ".join(plain_name(n) for n in names) or "—"


#: The coloured square beside a name in the message, matching its line's colour (SEAT_COLORS).
SEAT_SQUARES = ("🟦", "🟧", "🟩", "🟪", "🟫", "⬛")


async def chart_view(
    locale: object, faces: Faces, history: ChipHistory, *, note: str | None = None
) -> tuple[Layout, bytes]:
    """The layout and the PNG (to attach as ``CHART_FILE``) of one game's chip history,
    the llama card beside its title as the other stats have it; ``note`` says why it is
    this game, when it is not the asker's own.

    The PNG is drawn in a worker thread, so the bot goes on answering meanwhile. Names
    the chart's font can't draw are labelled by seat there and given here, beside
    their line's colour.
    """
    history = replace(history, names=tuple(stored_name(locale, n) for n in history.names))
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
    head = heading(text(locale, "chart.title", game=history.game_id))
    gallery = discord.MediaGalleryItem(
        f"attachment://{CHART_FILE}", description=text(locale, "chart.heading")
    )
    items: list[ui.Item[Any] | None] = [
        block(
            head if note is None else f"{head}\n-# {note}",
            picture(faces.image(Card.LLAMA), text(locale, "card.llama")),
        ),
        ui.TextDisplay("\n".join(lines)),
        ui.MediaGallery(gallery),
    ]
    return fit(layout(COLOR_STATS, items)), png


def chart_file(png: bytes) -> discord.File:
    return discord.File(io.BytesIO(png), CHART_FILE)


async def finished_chart(
    games: GameService,
    faces: Faces,
    game_id: int,
    locale: object,
    *,
    guild_id: int | None = None,
    note: str | None = None,
) -> tuple[Layout, bytes] | None:
    """The chart of a finished game (of ``guild_id``, if given); None if there is none."""
    history = await games.stats.finished_chips(game_id, guild_id=guild_id)
    if history is None or not history.totals or not history.winners:
        return None
    return await chart_view(locale, faces, history, note=note)
