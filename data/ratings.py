"""The ratings' reads: a server's rating boards, a person's rating over time, a game's changes.

The ratings themselves are written by the rater (``data/rating_writes.py``) once per
finished game; see migration 0012 for the tables.  Every read here runs on the stats'
own connection.  A rating counts every rated game of the server, but the board takes
a :class:`~data.records.Sight` like the other stats: a person is listed only to those
who may see at least one of their rated games in that scope (the AI strengths always).
"""

from __future__ import annotations

from .database import Database, Row
from .records import (
    ALL_TIME,
    RatingChange,
    RatingPage,
    RatingPoint,
    RatingRow,
    SeasonPlan,
    Sight,
)
from .stats import _in_sight

#: The largest row offset a page may ask for: SQLite's INTEGER and PostgreSQL's BIGINT.
_LARGEST_OFFSET = 2**63 - 1
#: Who is listed on a board, in a sight: AI strengths always, a person only with a rated
#: game of this scope that the sight shows.  The people whose every rated game of the
#: scope lies in a hidden channel (``{hidden}``: their hidden games counted in one read of
#: ``rating_changes_by_channel``, grouped, against the ``games`` their ratings row counts;
#: a person's games are their changes rows, one a game) are found once and hashed: nobody
#: is probed one by one.  Of those, a person is still listed to a viewer who sat at one of
#: their games (``{seated}``, if any).  ``{r}`` is the ratings row's alias.  SQLite
#: is told the index (``{by_channel}``): without fresh planner statistics (a bot's
#: file grows for months between two ``ANALYZE``) it reads the whole scope by player
#: instead, three times slower; PostgreSQL's autovacuum keeps its statistics.
_LISTED = """({r}.user_id IS NULL OR {r}.player NOT IN (
                  SELECT h.player FROM rating_changes AS h{by_channel}
                  JOIN ratings AS x ON x.guild_id = h.guild_id AND x.season = h.season
                                   AND x.player = h.player
                  WHERE h.guild_id = ? AND h.season = ? AND {hidden}
                  GROUP BY h.player, x.games HAVING COUNT(*) >= x.games){seated})"""

#: A game in a hidden channel is still seen by those who sat at it.
_SEATED = """ OR EXISTS (
                  SELECT 1 FROM rating_changes AS c
                  JOIN seats AS v ON v.game_id = c.game_id AND v.user_id = ?
                  WHERE c.guild_id = {r}.guild_id AND c.season = {r}.season
                    AND c.player = {r}.player)"""


#: The ``player`` key of a forgotten person's seat: rated as a newcomer, no rating kept.
FORMER = "former"


def user_player(user_id: int) -> str:
    """The ``player`` key of a person's ratings."""
    return f"user:{user_id}"


def ai_player(strength: str) -> str:
    """The ``player`` key of an AI strength's ratings."""
    return f"ai:{strength}"


def _listed(
    sight: Sight, guild_id: int, season: int, dialect: str, r: str = "r"
) -> tuple[str, tuple[int, ...]]:
    """``AND`` the board's :data:`_LISTED` for ``sight`` on the ratings row ``r``, and what
    it binds; nothing when nothing is hidden.  The same games as
    :func:`data.stats._in_sight` keeps."""
    if not sight.hidden:
        return "", ()
    hidden = tuple(sorted(sight.hidden))
    marks = ", ".join("?" * len(hidden))
    by_channel = " INDEXED BY rating_changes_by_channel" if dialect == "sqlite" else ""
    parts = {"r": r, "hidden": f"h.channel_id IN ({marks})", "by_channel": by_channel}
    binds = (guild_id, season, *hidden)
    if sight.viewer is None:
        return " AND " + _LISTED.format(seated="", **parts), binds
    listed = _LISTED.format(seated=_SEATED.format(r=r), **parts)
    return " AND " + listed, (*binds, sight.viewer)


class RatingReads:
    """What the leaderboard, /lama stats, the finished table and the export read."""

    def __init__(self, db: Database, reads: Database) -> None:
        self._db = db  # the season plans, read beside their writes: a new plan counts at once
        self._reads = reads  # the stats' own connection, for the boards

    async def rating_board(
        self,
        guild_id: int,
        season: int = ALL_TIME,
        *,
        limit: int = 10,
        offset: int = 0,
        sight: Sight,
    ) -> list[RatingRow]:
        """The rated players of a scope, best (highest mu - 3 sigma) first; equal ones
        share a rank and are listed by their key."""
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset cannot be negative")
        listed, seen = _listed(sight, guild_id, season, self._reads.dialect)
        query = f"""SELECT RANK() OVER (ORDER BY r.ordinal DESC) AS place,
                           r.user_id, r.ai, r.name, r.mu, r.sigma, r.games
                    FROM ratings AS r
                    WHERE r.guild_id = ? AND r.season = ?{listed}
                    ORDER BY place, r.player
                    LIMIT ? OFFSET ?
                 """
        async with self._reads.read() as unit:
            rows = await unit.fetch(query, (guild_id, season, *seen, limit, offset))
        return [_row(row) for row in rows]

    async def rating_page(
        self,
        guild_id: int,
        season: int = ALL_TIME,
        *,
        page: int = 0,
        size: int = 10,
        sight: Sight,
    ) -> RatingPage:
        """Page ``page`` (0-based, ``size`` rows) of :meth:`rating_board` and how many rows
        it has in all, in one read: the sight's check is the board's cost, done once for
        both.  A page past the end is the last page."""
        if page < 0 or size < 1:
            raise ValueError("the page cannot be negative nor its size below one")
        # Past the end either way, and its offset must stay a 64-bit integer the store takes
        # (a page of a forged Next button may be any id-sized number).
        page = min(page, _LARGEST_OFFSET // size)
        listed, seen = _listed(sight, guild_id, season, self._reads.dialect)
        # The listed rows are materialized once; the total comes with the page's rows (a
        # page past the end comes back with the total alone and is read again).
        query = f"""WITH listed AS MATERIALIZED (
                        SELECT r.player, r.user_id, r.ai, r.name, r.mu, r.sigma, r.games,
                               r.ordinal
                        FROM ratings AS r
                        WHERE r.guild_id = ? AND r.season = ?{listed})
                    SELECT t.total, p.place, p.user_id, p.ai, p.name, p.mu, p.sigma, p.games
                    FROM (SELECT COUNT(*) AS total FROM listed) AS t
                    LEFT JOIN (SELECT RANK() OVER (ORDER BY ordinal DESC) AS place, player,
                                      user_id, ai, name, mu, sigma, games
                               FROM listed
                               ORDER BY place, player
                               LIMIT ? OFFSET ?) AS p ON 1 = 1
                    ORDER BY p.place, p.player
                 """
        async with self._reads.read() as unit:
            params = (guild_id, season, *seen, size, page * size)
            rows = await unit.fetch(query, params)
            total = int(rows[0][0])
            last = max(0, -(-total // size) - 1)
            if page > last:
                page = last
                rows = await unit.fetch(query, (guild_id, season, *seen, size, page * size))
        found = [_row(row[1:]) for row in rows if row[1] is not None]
        return RatingPage(total=total, page=page, rows=found)

    async def rating_of(
        self, guild_id: int, season: int, user_id: int, *, sight: Sight
    ) -> RatingRow | None:
        """A person's rating in a scope with their rank among everyone rated there that
        ``sight``'s board lists (so a rank never counts someone only a hidden channel
        shows); None before their first rated game in it, or when ``sight`` shows none."""
        listed, seen = _listed(sight, guild_id, season, self._reads.dialect)
        shown, shown_binds = _listed(sight, guild_id, season, self._reads.dialect, r="o")
        query = f"""SELECT (SELECT COUNT(*) FROM ratings AS r
                           WHERE r.guild_id = o.guild_id AND r.season = o.season
                             AND r.ordinal > o.ordinal{listed}) + 1,
                          o.user_id, o.ai, o.name, o.mu, o.sigma, o.games
                   FROM ratings AS o
                   WHERE o.guild_id = ? AND o.season = ? AND o.player = ?{shown}
                """
        params = (*seen, guild_id, season, user_player(user_id), *shown_binds)
        async with self._reads.read() as unit:
            rows = await unit.fetch(query, params)
        return _row(rows[0]) if rows else None

    async def rating_history(
        self, guild_id: int, season: int, user_id: int, *, sight: Sight
    ) -> list[RatingPoint]:
        """A person's rating after each of their rated games of a scope (those ``sight``
        shows), oldest first."""
        where, seen = _in_sight(sight)
        query = f"""SELECT c.game_id, g.finished_at, c.mu_after, c.sigma_after
                    FROM rating_changes AS c JOIN games AS g ON g.id = c.game_id
                    WHERE c.guild_id = ? AND c.season = ? AND c.player = ?{where}
                    ORDER BY g.finished_at, c.game_id
                 """
        async with self._reads.read() as unit:
            rows = await unit.fetch(query, (guild_id, season, user_player(user_id), *seen))
        return [
            RatingPoint(game_id=int(game), finished_at=float(at), mu=float(mu), sigma=float(sigma))
            for game, at, mu, sigma in rows
        ]

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """What a finished game did to each seat's ratings (its season's and all time's),
        by scope (all time first) and seat; empty while it is not rated."""
        query = """SELECT c.game_id, c.seat, c.season, s.user_id, c.player, c.rank,
                          c.mu_before, c.sigma_before, c.mu_after, c.sigma_after
                   FROM rating_changes AS c
                   JOIN seats AS s ON s.game_id = c.game_id AND s.seat = c.seat
                   WHERE c.game_id = ?
                   ORDER BY c.season, c.seat
                """
        async with self._reads.read() as unit:
            rows = await unit.fetch(query, (game_id,))
        return [
            RatingChange(
                game_id=int(game),
                seat=int(seat),
                season=int(season),
                user_id=None if user is None else int(user),
                ai=player.removeprefix("ai:") if player.startswith("ai:") else None,
                rank=int(rank),
                mu_before=float(mu_before),
                sigma_before=float(sigma_before),
                mu_after=float(mu_after),
                sigma_after=float(sigma_after),
            )
            for (
                game,
                seat,
                season,
                user,
                player,
                rank,
                mu_before,
                sigma_before,
                mu_after,
                sigma_after,
            ) in rows
        ]

    async def has_ratings(self, guild_id: int, season: int) -> bool:
        """Whether anyone is rated in the server's scope ``season`` (its house-rules board,
        say), whoever may see them."""
        query = "SELECT 1 FROM ratings WHERE guild_id = ? AND season = ? LIMIT 1"
        async with self._reads.read() as unit:
            return bool(await unit.fetch(query, (guild_id, season)))

    async def rated_seasons(self, guild_id: int) -> list[int]:
        """The keys of the seasons with rated games in a server, newest first."""
        query = """SELECT DISTINCT season FROM rated_games WHERE guild_id = ?
                   ORDER BY season DESC"""
        async with self._reads.read() as unit:
            rows = await unit.fetch(query, (guild_id,))
        return [int(season) for (season,) in rows]

    async def season_plans(self, guild_id: int) -> list[SeasonPlan]:
        """A server's season plans, oldest first (none: calendar months)."""
        query = """SELECT started_at, days FROM season_plans WHERE guild_id = ?
                   ORDER BY started_at"""
        async with self._db.read() as unit:
            rows = await unit.fetch(query, (guild_id,))
        return [
            SeasonPlan(started_at=int(at), days=None if days is None else int(days))
            for at, days in rows
        ]


def _row(row: Row) -> RatingRow:
    rank, user, ai, name, mu, sigma, games = row
    return RatingRow(
        rank=int(rank),
        user_id=None if user is None else int(user),
        ai=ai,
        name=name,
        mu=float(mu),
        sigma=float(sigma),
        games=int(games),
    )
