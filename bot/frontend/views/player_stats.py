"""The /lama stats message: a person's ratings, their numbers, their rating over time.

Their rating this season and all time with their rank, their numbers from the
finished games, and the rating game by game as a picture.

Only the games in the asker's sight count for the numbers and the picture (see
:func:`~bot.frontend.views.stats.audience`); a rating itself counts every rated game
of the server, as the board does.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass
from typing import Any

import discord
from discord import ui

from bot.art.rating_chart import RatingSeries, render_rating_chart
from bot.i18n import text
from bot.service.ratings.rating_scale import OFFSET, shown
from data.records import PlayerStats, RatingPoint, RatingRow
from game import Card

from ..faces import Faces
from ..words import number, percent, plain_name
from .layout import COLOR_STATS, Layout, block, fit, heading, layout, picture

RATING_FILE = "rating.png"


@dataclass(frozen=True, slots=True)
class Ratings:
    """What /lama stats shows of a person's ratings: the current season's (labelled) and
    all time's, each None before their first rated game there, and the history of both
    (the games in the asker's sight), oldest first; the house-rules board's, if they are
    rated there."""

    season_label: str
    season: RatingRow | None
    all_time: RatingRow | None
    season_history: list[RatingPoint]
    all_time_history: list[RatingPoint]
    house_rules: RatingRow | None = None


def _rating_line(locale: object, scope: str, rating: RatingRow | None) -> str:
    if rating is None:
        return text(locale, "stats.unrated", scope=scope)
    return text(
        locale,
        "stats.rating_line",
        scope=scope,
        rating=shown(rating.mu, rating.sigma),
        rank=rating.rank,
        games=text(locale, "board.games", count=rating.games),
    )


def _numbers(locale: object, stats: PlayerStats) -> str:
    best = text(
        locale,
        "stats.best_value",
        count=stats.best_points,
        game=stats.best_game_id,
        time=int(stats.best_game_at),
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
        ("stats.best", best),
    ]
    return "\n".join(f"**{text(locale, key)}:** {value}" for key, value in fields)


def stats_view(
    locale: object,
    faces: Faces,
    name: str,
    stats: PlayerStats | None,
    ratings: Ratings,
    *,
    chart: bool,
) -> Layout:
    """The stats layout; ``chart``: the rating picture is attached as ``RATING_FILE``.
    ``stats`` None: no game of theirs finished, but one they left was rated."""
    title = text(locale, "stats.title", name=plain_name(name))
    rated = [
        f"**{text(locale, 'stats.rating')}**",
        _rating_line(locale, ratings.season_label, ratings.season),
        _rating_line(locale, text(locale, "board.all_time"), ratings.all_time),
    ]
    if ratings.house_rules is not None:  # a board of its own, shown only to those on it
        rated.append(_rating_line(locale, text(locale, "board.house_rules"), ratings.house_rules))
    llama = text(locale, "card.llama")
    items: list[ui.Item[Any] | None] = [
        block(heading(title) + "\n" + "\n".join(rated), picture(faces.image(Card.LLAMA), llama)),
        ui.Separator(),
        ui.TextDisplay(_numbers(locale, stats) if stats else text(locale, "stats.only_left")),
    ]
    if chart:
        gallery = discord.MediaGalleryItem(
            f"attachment://{RATING_FILE}", description=text(locale, "stats.chart_heading")
        )
        items += [ui.Separator(), ui.MediaGallery(gallery)]
    items.append(ui.TextDisplay("-# " + text(locale, "stats.footer")))
    return fit(layout(COLOR_STATS, items))


def rating_series(locale: object, ratings: Ratings) -> list[RatingSeries]:
    """All time's line from a newcomer's 1000 through each rated game, and this season's
    beside it (a season starts from a newcomer's rating too), by game along the x axis."""
    where = {point.game_id: i for i, point in enumerate(ratings.all_time_history, 1)}
    start = round(OFFSET)
    series = [
        RatingSeries(
            label=text(locale, "board.all_time"),
            points=((0, start),)
            + tuple((i, shown(p.mu, p.sigma)) for i, p in enumerate(ratings.all_time_history, 1)),
        )
    ]
    season = [
        (where[p.game_id], shown(p.mu, p.sigma))
        for p in ratings.season_history
        if p.game_id in where
    ]
    if season:
        series.append(
            RatingSeries(
                label=ratings.season_label,
                points=((season[0][0] - 1, start), *season),
            )
        )
    return series


async def rating_png(locale: object, ratings: Ratings) -> bytes | None:
    """The rating over time as a PNG, drawn in a worker thread so the bot goes on
    answering meanwhile; None without a rated game in sight."""
    if not ratings.all_time_history:
        return None
    return await asyncio.to_thread(
        render_rating_chart,
        rating_series(locale, ratings),
        title=text(locale, "stats.chart_heading"),
        x_label=text(locale, "stats.chart_games"),
    )


def rating_file(png: bytes) -> discord.File:
    return discord.File(io.BytesIO(png), RATING_FILE)
