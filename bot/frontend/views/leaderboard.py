"""The leaderboard message: one page of a server's board, with Previous and Next.

By rating (a season's or all time's, or the house-rules board's: the games with house
rules of a server that rates them apart), or by the old orders (wins, win rate, average
over all time). A rating board says where games with house rules count, and offers the
other board when the server has one.

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
from data.records import ALL_TIME, HOUSE_RULES, LeaderboardRow, RatingRow, Sight
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
    """Which ratings a board shows: a season (its key and [start, end)), all time, or the
    house-rules board."""

    key: int = ALL_TIME
    start: int = 0
    end: int = 0

    def label(self, locale: object) -> str:
        if self.key == ALL_TIME:
            return text(locale, "board.all_time")
        if self.key == HOUSE_RULES:
            return text(locale, "board.house_rules")
        return season_label(locale, self.start, self.end)


ALL = Scope()
HOUSE = Scope(HOUSE_RULES)


@dataclass(frozen=True, slots=True)
class Boards:
    """What a rating board says of games with house rules: whether the server rates them
    apart (``own``), and the other board to switch to, if there is one."""

    own: bool = True
    other: Scope | None = None

    def note(self, locale: object, scope: Scope) -> str:
        if scope.key == HOUSE_RULES:
            # A server that now counts them with every game keeps this board for the
            # games rated apart before: it holds no new ones.
            return text(locale, "board.house_note" if self.own else "board.house_note_before")
        if self.own:
            return text(locale, "board.house_apart")
        earlier = self.other is not None and self.other.key == HOUSE_RULES
        return text(locale, "board.house_together_earlier" if earlier else "board.house_together")


SAME = Boards()


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
    locale: object,
    guild_id: int,
    order: str,
    scope: Scope,
    page: int,
    pages: int,
    other: Scope | None,
) -> ui.ActionRow[Any] | None:
    """Previous/Next (with more than one page), each disabled at its end, and the other
    board's first page; their ids always differ (pages >= 2; the other's scope is not
    this one's). None without any."""
    last = pages - 1
    buttons = []
    if pages > 1:
        buttons += [
            button(
                BoardId(guild_id, max(page - 1, 0), order, scope.key),
                text(locale, "button.previous"),
                discord.ButtonStyle.secondary,
                emoji="◀️",
                disabled=page <= 0,
            ),
            button(
                BoardId(guild_id, min(page + 1, last), order, scope.key),
                text(locale, "button.next"),
                discord.ButtonStyle.secondary,
                emoji="▶️",
                disabled=page >= last,
            ),
        ]
    if other is not None:
        key = "button.house_board" if other.key == HOUSE_RULES else "button.server_board"
        buttons.append(
            button(
                BoardId(guild_id, 0, order, other.key),
                text(locale, key),
                discord.ButtonStyle.primary,
                emoji="🔀",
            )
        )
    return row(*buttons) if buttons else None


def board_view(
    locale: object,
    faces: Faces,
    guild_id: int,
    order: str,
    scope: Scope,
    lines: list[str],
    page: int,
    pages: int,
    boards: Boards = SAME,
) -> Layout:
    """One page of a board: the heading beside the llama card, the lines, the page and
    what counts (for ratings, where games with house rules count), and the buttons when
    there is more than one page or another board."""
    llama = faces.card(Card.LLAMA)
    title = text(locale, "board.title", order=text(locale, f"board.order.{order}"))
    other = None
    if order == RATING:
        what = text(locale, "board.rating_scope", scope=scope.label(locale), llama=llama)
        what += "\n-# " + boards.note(locale, scope)
        other = boards.other
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
        _buttons(locale, guild_id, order, scope, page, pages, other),
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
    boards: Boards = SAME,
) -> tuple[str | None, Layout | None]:
    """(words, None) for an empty board, else (None, its layout), over the games in
    ``sight``; by rating in ``scope`` (``boards``: where games with house rules count),
    or by an old order over all time.

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
        shown = board_view(locale, faces, guild_id, order, scope, lines, rated.page, pages, boards)
        return None, shown
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
