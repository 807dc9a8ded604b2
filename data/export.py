"""The export's part of the store: a server's finished games, seat by seat, a page at a time.

``/lama export`` writes every finished game of a server into one CSV; a big server has
100,000 of them, so they are read newest first in pages (keyset paging on
``(finished_at, id)``), never all at once.  Each seat comes with the rating its game's
season gave it (``rated_games`` and ``rating_changes``, migration 0012), or none while
the game is not rated.  Like the stats, the reads take a :class:`~data.records.Sight`
and run on the stats' own connection.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

from game import Ruleset

from .database import Database, Row
from .records import Sight
from .stats import _in_sight

#: Games per page: a page is one query; 500 games of up to 6 seats are 3,000 rows.
EXPORT_PAGE = 500


@dataclass(frozen=True, slots=True)
class SeatRating:
    """What a game did to a seat's rating in the game's own season."""

    rank: int  # the seat's place in the rating's order
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


@dataclass(frozen=True, slots=True)
class ExportSeat:
    seat: int
    user_id: int | None  # None: an AI seat
    ai: str | None  # the AI strength of an AI seat
    name: str
    points: int  # the final points
    winner: bool
    place: int  # 1 + the seats with fewer points
    rating: SeatRating | None  # None while the game is not rated


@dataclass(frozen=True, slots=True)
class ExportGame:
    """One finished game, with every seat's result."""

    game_id: int
    finished_at: float  # unix time
    channel_id: int
    ruleset: Ruleset
    seats: tuple[ExportSeat, ...]  # by seat


#: Where a page starts: after the game with this (finished_at, id), newest first.
After = tuple[float, int]

_FINISHED = "g.guild_id = ? AND g.status = 'finished'"


class ExportReads:
    """The export's reads: how many finished games a server has, and their pages."""

    def __init__(self, reads: Database) -> None:
        self._reads = reads  # the stats' own connection: a long read never holds up a move

    async def export_count(self, guild_id: int, *, game_id: int | None = None, sight: Sight) -> int:
        """How many finished games of the server ``sight`` shows (only ``game_id``, if
        given: 1 or 0)."""
        where, seen = _in_sight(sight)
        one, only = _only(game_id)
        query = f"SELECT COUNT(*) FROM games AS g WHERE {_FINISHED}{one}{where}"
        async with self._reads.read() as unit:
            [(count,)] = await unit.fetch(query, (guild_id, *only, *seen))
        return int(count)

    async def export_page(
        self,
        guild_id: int,
        *,
        after: After | None = None,
        limit: int = EXPORT_PAGE,
        game_id: int | None = None,
        sight: Sight,
    ) -> list[ExportGame]:
        """Up to ``limit`` finished games (in ``sight``; only ``game_id``, if given)
        newest first, starting after the game ``after`` (the last one of the page
        before; None: the newest)."""
        if limit < 1:
            raise ValueError("a page holds at least one game")
        where, seen = _in_sight(sight)
        one, only = _only(game_id)
        start = ""
        bound: tuple[float, ...] = ()
        if after is not None:
            start = " AND (g.finished_at < ? OR (g.finished_at = ? AND g.id < ?))"
            bound = (after[0], after[0], after[1])
        # The page's games first (the index on games finds them), then their seats;
        # the rating is the one of the game's own season, if it is rated at all.
        query = f"""SELECT p.id, p.finished_at, p.channel_id, p.ruleset,
                           s.seat, s.user_id, s.ai, s.name, r.points, r.winner, r.place,
                           c.rank, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after
                    FROM (SELECT g.id, g.finished_at, g.channel_id, g.ruleset
                          FROM games AS g
                          WHERE {_FINISHED}{one}{where}{start}
                          ORDER BY g.finished_at DESC, g.id DESC
                          LIMIT ?) AS p
                    JOIN seats AS s ON s.game_id = p.id
                    JOIN game_results AS r ON r.game_id = s.game_id AND r.seat = s.seat
                    LEFT JOIN rated_games AS rg ON rg.game_id = p.id
                    LEFT JOIN rating_changes AS c
                           ON c.game_id = p.id AND c.seat = s.seat AND c.season = rg.season
                    ORDER BY p.finished_at DESC, p.id DESC, s.seat
                 """
        async with self._reads.read() as unit:
            rows = await unit.fetch(query, (guild_id, *only, *seen, *bound, limit))
        # Thousands of rows a page: turned into records off the event loop.
        return await asyncio.to_thread(_games, rows)


def _games(rows: list[Row]) -> list[ExportGame]:
    """The rows of a page (by game, then seat) as its games."""
    games: list[ExportGame] = []
    seats: list[ExportSeat] = []
    rulesets: dict[str, Ruleset] = {}  # a server's games share a few rulesets
    for index, row in enumerate(rows):
        seats.append(_seat(row))
        if index + 1 == len(rows) or rows[index + 1][0] != row[0]:
            game_id, finished_at, channel_id, ruleset = row[:4]
            if ruleset not in rulesets:
                rulesets[ruleset] = Ruleset.from_json(json.loads(ruleset))
            games.append(
                ExportGame(
                    game_id=int(game_id),
                    finished_at=float(finished_at),
                    channel_id=int(channel_id),
                    ruleset=rulesets[ruleset],
                    seats=tuple(seats),
                )
            )
            seats = []
    return games


def _only(game_id: int | None) -> tuple[str, tuple[int, ...]]:
    """An ``AND ...`` keeping one game, and what it binds; nothing for every game."""
    return ("", ()) if game_id is None else (" AND g.id = ?", (game_id,))


def _seat(row: Row) -> ExportSeat:
    seat, user, ai, name, points, winner, place = row[4:11]
    rank, mu_before, sigma_before, mu_after, sigma_after = row[11:16]
    rating = None
    if rank is not None:
        rating = SeatRating(
            rank=int(rank),
            mu_before=float(mu_before),
            sigma_before=float(sigma_before),
            mu_after=float(mu_after),
            sigma_after=float(sigma_after),
        )
    return ExportSeat(
        seat=int(seat),
        user_id=None if user is None else int(user),
        ai=ai,
        name=name,
        points=int(points),
        winner=bool(winner),
        place=int(place),
        rating=rating,
    )


__all__ = ["EXPORT_PAGE", "After", "ExportGame", "ExportReads", "ExportSeat", "SeatRating"]
