"""The leaderboard message: one page of a server's board, with Previous and Next.

By rating (a season's or all time's), or by the old orders (wins, win rate, average
over all time).

Nothing is kept in memory: the buttons carry the server, the page, the order and the
season (:class:`~bot.frontend.custom_ids.BoardId`), so they work after a restart. Only the
games in the asker's sight count (see :func:`~bot.frontend.views.stats.audience`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
from discord import ui

from bot.i18n import text
from bot.service.history.stats import Stats
from bot.service.ratings.boards import RatingBoards
from bot.service.ratings.rating_scale import shown
from data.records import ALL_TIME, LeaderboardRow, RatingRow, Sight
from game import Card

from ..custom_ids import BoardId
from ..faces import Faces
from ..words import number, percent, plain_name, season_label
from .layout import COLOR_STATS, Layout, block, button, fit, heading, layout, picture, row

PAGE_SIZE = 10  # leaderboard rows per page
MIN_GAMES = 3  # finished games a player needs to be ranked by win rate or average
RATING = "rating"
_MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


@dataclass(frozen=True, slots=True)
class Scope:
    """Which ratings a board shows: a season (its key and [start, end)) or all time."""

    key: int = ALL_TIME
    start: int = 0
    end: int = 0

    def label(self, locale: object) -> str:
        if self.key == ALL_TIME:
            return text(locale, "board.all_time")
        return season_label(locale, self.start, self.end)


ALL = Scope()


def min_games(order: str) -> int:
    """Ranking by wins or rating counts everyone; the ratios need a few games to mean something."""
    return MIN_GAMES if order in ("win_rate", "average") else 1


def notice_view(words: str) -> Layout:
    """A board message that has nothing to list any more (a page turned after its games
    went): a layout still, since a Components V2 message stays one."""
    return layout(COLOR_STATS, [ui.TextDisplay(words)])


# ---------------------------------------------------------------- lines
def _rank(rank: int) -> str:
    return _MEDALS.get(rank, f"**{rank}.**")


def _rating_line(locale: object, entry: RatingRow) -> str:
    if entry.ai is not None:
        name = text(locale, "board.ai", strength=text(locale, f"ai.{entry.ai}"))
    else:
        name = plain_name(entry.name)
    return text(
        locale,
        "board.rating_line",
        rank=_rank(entry.rank),
        name=name,
        rating=shown(entry.mu, entry.sigma),
        games=text(locale, "board.games", count=entry.games),
    )


def _old_line(locale: object, entry: LeaderboardRow) -> str:
    return text(
        locale,
        "board.line",
        rank=_rank(entry.rank),
        name=plain_name(entry.name),
        wins=text(locale, "board.wins", count=entry.wins),
        games=text(locale, "board.games", count=entry.games),
        rate=percent(locale, entry.win_rate),
        average=number(locale, entry.average_points),
    )


# ---------------------------------------------------------------- the layout
def _buttons(
    locale: object, guild_id: int, order: str, scope: Scope, page: int, pages: int
) -> ui.ActionRow[Any]:
    """Previous/Next, each disabled at its end; their ids always differ (pages >= 2)."""
    last = pages - 1
    return row(
        button(
            BoardId(guild_id, max(page - 1, 0), order, scope.key).custom_id,
            text(locale, "button.previous"),
            discord.ButtonStyle.secondary,
            emoji="◀️",
            disabled=page <= 0,
        ),
        button(
            BoardId(guild_id, min(page + 1, last), order, scope.key).custom_id,
            text(locale, "button.next"),
            discord.ButtonStyle.secondary,
            emoji="▶️",
            disabled=page >= last,
        ),
    )


def board_view(
    locale: object,
    faces: Faces,
    guild_id: int,
    order: str,
    scope: Scope,
    lines: list[str],
    page: int,
    pages: int,
) -> Layout:
    """One page of a board: the heading beside the llama card, the lines, the page and
    what counts, and the buttons when there is more than one page."""
    llama = faces.card(Card.LLAMA)
    title = text(locale, "board.title", order=text(locale, f"board.order.{order}"))
    if order == RATING:
        what = text(locale, "board.rating_scope", scope=scope.label(locale), llama=llama)
        footer = text(locale, "board.rating_footer", page=page + 1, pages=pages)
    else:
        what = text(locale, "board.old_scope", llama=llama)
        footer = text(locale, "board.footer", page=page + 1, pages=pages, count=MIN_GAMES)
    name = text(locale, "card.llama")
    items: list[ui.Item[Any] | None] = [
        block(heading(title) + "\n" + what, picture(faces.image(Card.LLAMA), name)),
        ui.Separator(),
        ui.TextDisplay("\n".join(lines)),
        ui.Separator(),
        ui.TextDisplay("-# " + footer),
        _buttons(locale, guild_id, order, scope, page, pages) if pages > 1 else None,
    ]
    return fit(layout(COLOR_STATS, items))


async def board_page(
    stats: Stats,
    ratings: RatingBoards,
    guild_id: int,
    order: str,
    scope: Scope,
    page: int,
    locale: object,
    faces: Faces,
    *,
    sight: Sight,
) -> tuple[str | None, Layout | None]:
    """(words, None) for an empty board, else (None, its layout), over the games in
    ``sight``; by rating in ``scope``, or by an old order over all time.

    A page past the end shows the last page.
    """
    if order == RATING:
        # The count and the page in one read: the sight's check is the board's cost.
        rated = await ratings.page(
            guild_id, scope.key, page=max(0, page), size=PAGE_SIZE, sight=sight
        )
        if rated.total == 0:
            return text(locale, "board.rating_empty", scope=scope.label(locale)), None
        lines = [_rating_line(locale, entry) for entry in rated.rows]
        pages = -(-rated.total // PAGE_SIZE)
        return None, board_view(locale, faces, guild_id, order, scope, lines, rated.page, pages)
    least = min_games(order)
    total = await stats.leaderboard_count(guild_id, min_games=least, sight=sight)
    if total == 0:
        return text(locale, "board.empty_min", count=least), None
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
    lines = [_old_line(locale, entry) for entry in rows]
    return None, board_view(locale, faces, guild_id, order, scope, lines, page, pages)
