"""The stats' part of the store: what finished games say about the people who played them.

Every method is one read on the stats' own connection (``reads``), so
a big leaderboard never holds up a move.  The SQL runs unchanged on SQLite and
PostgreSQL: no bare columns in aggregates, sums that start from 0, and doubles
where a ratio is wanted.

Each read takes a :class:`~data.records.Sight`: the games in its hidden channels are
left out of everything (counts, sums, names, ranks), in SQL, except the games its
viewer sat at.  None shows every game (the chart a table posts in its own channel).
"""

from __future__ import annotations

import json

from game import Ruleset

from .database import Database
from .rating_writes import RATED
from .records import (
    LEADERBOARD_ORDERS,
    ChipHistory,
    HistoryRow,
    LeaderboardRow,
    PlayerStats,
    Sight,
)

#: How each leaderboard order ranks (keys of LEADERBOARD_ORDERS; literals, never input).
_RANKINGS = {"wins": "wins DESC", "win_rate": "win_rate DESC", "average": "average ASC"}

#: The leaderboard's rows: one per person (never an AI seat) with at least some finished
#: games in a guild.  Binds the guild id, the sight's (``{sight}``), then the least number
#: of games.
_PER_PERSON = """FROM games AS g
                 JOIN seats AS s ON s.game_id = g.id
                 JOIN game_results AS r ON r.game_id = s.game_id AND r.seat = s.seat
                 WHERE g.guild_id = ? AND g.status = 'finished' AND s.user_id IS NOT NULL{sight}
                 GROUP BY s.user_id
                 HAVING COUNT(*) >= ?"""


def _in_sight(sight: Sight, games: str = "g") -> tuple[str, tuple[int, ...]]:
    """An ``AND ...`` keeping the games (``games`` is their alias) ``sight`` may see,
    and what it binds; nothing when nothing is hidden."""
    if not sight.hidden:
        return "", ()
    hidden = tuple(sorted(sight.hidden))
    outside = f"{games}.channel_id NOT IN ({', '.join('?' * len(hidden))})"
    if sight.viewer is None:
        return f" AND {outside}", hidden
    seated = f"EXISTS (SELECT 1 FROM seats AS v WHERE v.game_id = {games}.id AND v.user_id = ?)"
    return f" AND ({outside} OR {seated})", (*hidden, sight.viewer)


class StatsReads:
    """The stats reads: all that /lama stats and its kin may ask of the store."""

    def __init__(self, reads: Database) -> None:
        self._reads = reads  # the stats' own connection: a long read never holds up a move

    async def player_stats(
        self, guild_id: int, user_id: int, *, sight: Sight
    ) -> PlayerStats | None:
        """A person's finished games in a guild (in ``sight``); None if there are none."""
        where, seen = _in_sight(sight)
        params = (guild_id, user_id, *seen)
        async with self._reads.read() as unit:
            query = """SELECT COUNT(*), COALESCE(SUM(r.winner), 0), AVG(r.points)
                       FROM games AS g
                       JOIN seats AS s ON s.game_id = g.id
                       JOIN game_results AS r ON r.game_id = s.game_id AND r.seat = s.seat
                       WHERE g.guild_id = ? AND g.status = 'finished' AND s.user_id = ?{where}
                    """
            [(games, wins, average)] = await unit.fetch(query.format(where=where), params)
            if not games:
                return None

            query = """SELECT s.name
                       FROM games AS g
                       JOIN seats AS s ON s.game_id = g.id
                       WHERE g.guild_id = ? AND g.status = 'finished' AND s.user_id = ?{where}
                       ORDER BY g.finished_at DESC, g.id DESC
                       LIMIT 1
                    """
            [(name,)] = await unit.fetch(query.format(where=where), params)

            query = """SELECT r.points, g.id, g.finished_at
                       FROM games AS g
                       JOIN seats AS s ON s.game_id = g.id
                       JOIN game_results AS r ON r.game_id = s.game_id AND r.seat = s.seat
                       WHERE g.guild_id = ? AND g.status = 'finished' AND s.user_id = ?{where}
                       ORDER BY r.points, g.finished_at, g.id
                       LIMIT 1
                    """
            [best] = await unit.fetch(query.format(where=where), params)

            query = """SELECT COUNT(*), COALESCE(SUM(rr.emptied), 0), COALESCE(SUM(rr.returned), 0)
                       FROM games AS g
                       JOIN seats AS s ON s.game_id = g.id
                       JOIN round_results AS rr ON rr.game_id = s.game_id AND rr.seat = s.seat
                       WHERE g.guild_id = ? AND g.status = 'finished' AND s.user_id = ?{where}
                    """
            [(rounds, emptied, returned)] = await unit.fetch(query.format(where=where), params)
        return PlayerStats(
            user_id=user_id,
            name=name,
            games=int(games),
            wins=int(wins),
            win_rate=int(wins) / int(games),
            average_points=float(average),
            rounds=int(rounds),
            rounds_emptied=int(emptied),
            chips_returned=int(returned),
            best_points=int(best[0]),
            best_game_id=int(best[1]),
            best_game_at=float(best[2]),
        )

    async def leaderboard(
        self,
        guild_id: int,
        *,
        order: str = "wins",
        min_games: int = 1,
        limit: int = 10,
        offset: int = 0,
        sight: Sight,
    ) -> list[LeaderboardRow]:
        """People (never AI seats) with at least ``min_games`` finished games, best first.

        ``wins``: most wins; ``win_rate``: highest share of games won;
        ``average``: lowest average final points.  Ties share a rank and are
        listed by games played, then user id.  Only the games in ``sight`` count.
        """
        if order not in LEADERBOARD_ORDERS:
            raise ValueError(f"unknown leaderboard order {order!r}")
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset cannot be negative")
        where, seen = _in_sight(sight)
        per_person = _PER_PERSON.format(sight=where)
        async with self._reads.read() as unit:
            query = f"""WITH per_user AS (
                            SELECT s.user_id AS user_id,
                                   MAX(g.id) AS last_game,
                                   COUNT(*) AS games,
                                   SUM(r.winner) AS wins,
                                   CAST(SUM(r.winner) AS DOUBLE PRECISION) / COUNT(*) AS win_rate,
                                   CAST(AVG(r.points) AS DOUBLE PRECISION) AS average
                            {per_person}
                        )
                        SELECT RANK() OVER (ORDER BY {_RANKINGS[order]}) AS place,
                               p.user_id, n.name, p.games, p.wins, p.win_rate, p.average
                        FROM per_user AS p
                        -- the name they used in their latest game
                        JOIN seats AS n ON n.game_id = p.last_game AND n.user_id = p.user_id
                        ORDER BY place, p.games DESC, p.user_id
                        LIMIT ? OFFSET ?
                     """
            rows = await unit.fetch(query, (guild_id, *seen, min_games, limit, offset))
        return [
            LeaderboardRow(
                rank=int(rank),
                user_id=user,
                name=name,
                games=int(games),
                wins=int(wins),
                win_rate=float(win_rate),
                average_points=float(average),
            )
            for rank, user, name, games, wins, win_rate, average in rows
        ]

    async def leaderboard_count(self, guild_id: int, *, min_games: int = 1, sight: Sight) -> int:
        """How many rows the whole leaderboard (in ``sight``) has, for paging."""
        where, seen = _in_sight(sight)
        per_person = _PER_PERSON.format(sight=where)
        async with self._reads.read() as unit:
            query = f"SELECT COUNT(*) FROM (SELECT 1 {per_person}) AS per_user"
            rows = await unit.fetch(query, (guild_id, *seen, min_games))
        return int(rows[0][0])

    async def history(
        self, guild_id: int, user_id: int, *, limit: int = 10, sight: Sight
    ) -> list[HistoryRow]:
        """A person's most recent finished games in a guild (in ``sight``), newest first."""
        where, seen = _in_sight(sight)
        params = (guild_id, user_id, *seen, limit)
        async with self._reads.read() as unit:
            query = """SELECT g.id, g.finished_at,
                              (SELECT COUNT(*) FROM seats AS c WHERE c.game_id = g.id),
                              r.points, r.place, r.winner
                       FROM games AS g
                       JOIN seats AS s ON s.game_id = g.id
                       JOIN game_results AS r ON r.game_id = s.game_id AND r.seat = s.seat
                       WHERE g.guild_id = ? AND g.status = 'finished' AND s.user_id = ?{where}
                       ORDER BY g.finished_at DESC, g.id DESC
                       LIMIT ?
                    """
            rows = await unit.fetch(query.format(where=where), params)

            query = """SELECT wr.game_id, w.name
                       FROM game_results AS wr
                       JOIN seats AS w ON w.game_id = wr.game_id AND w.seat = wr.seat
                       WHERE wr.winner = 1 AND wr.game_id IN (
                           SELECT g.id
                           FROM games AS g
                           JOIN seats AS s ON s.game_id = g.id
                           WHERE g.guild_id = ? AND g.status = 'finished' AND s.user_id = ?{where}
                           ORDER BY g.finished_at DESC, g.id DESC
                           LIMIT ?
                       )
                       ORDER BY wr.game_id, wr.seat
                    """
            winners: dict[int, list[str]] = {}
            for game_id, name in await unit.fetch(query.format(where=where), params):
                winners.setdefault(game_id, []).append(name)
        return [
            HistoryRow(
                game_id=game_id,
                finished_at=float(finished_at),
                players=int(players),
                points=int(points),
                place=int(place),
                winner=bool(winner),
                winners=tuple(winners.get(game_id, ())),
            )
            for game_id, finished_at, players, points, place, winner in rows
        ]

    async def latest_finished_game(self, guild_id: int, *, sight: Sight) -> int | None:
        """The id of the game (in ``sight``) that finished last in a guild; None if none."""
        where, seen = _in_sight(sight)
        async with self._reads.read() as unit:
            query = f"""SELECT g.id FROM games AS g
                        WHERE g.guild_id = ? AND g.status = 'finished'{where}
                        ORDER BY g.finished_at DESC, g.id DESC
                        LIMIT 1
                     """
            rows = await unit.fetch(query, (guild_id, *seen))
        return int(rows[0][0]) if rows else None

    async def finished_game_channel(
        self, guild_id: int, game_id: int, *, sight: Sight
    ) -> int | None:
        """The channel of a finished game of a guild, if ``sight`` shows it; else None,
        just as for a game that doesn't exist."""
        where, seen = _in_sight(sight)
        async with self._reads.read() as unit:
            query = f"""SELECT g.channel_id FROM games AS g
                        WHERE g.guild_id = ? AND g.id = ? AND g.status = 'finished'{where}
                     """
            rows = await unit.fetch(query, (guild_id, game_id, *seen))
        return int(rows[0][0]) if rows else None

    async def finished_channels(
        self, guild_id: int, *, user_id: int | None = None
    ) -> frozenset[int]:
        """The channels (and threads) of a guild's finished games, and of its games rated
        though cancelled (:data:`~data.rating_writes.RATED`: their ratings are that
        channel's too, to hide where it is hidden); with ``user_id``, only those where
        that person sat at such a game."""
        # Not only the finished games': a rating from a game every person left in a
        # channel with no finished game would list its player to those who can't see it.
        games = f"(g.status = 'finished' OR ({RATED}))"
        async with self._reads.read() as unit:
            if user_id is None:
                # Each part a range of games_by_guild, not every game of the server.
                query = f"""SELECT g.channel_id FROM games AS g
                            WHERE g.guild_id = ? AND g.status = 'finished'
                            UNION
                            SELECT g.channel_id FROM games AS g
                            WHERE g.guild_id = ? AND g.status = 'cancelled' AND {RATED}
                         """
                rows = await unit.fetch(query, (guild_id, guild_id))
            else:
                query = f"""SELECT DISTINCT g.channel_id
                            FROM games AS g JOIN seats AS s ON s.game_id = g.id
                            WHERE g.guild_id = ? AND {games} AND s.user_id = ?
                         """
                rows = await unit.fetch(query, (guild_id, user_id))
        return frozenset(int(channel) for (channel,) in rows)

    async def chip_history(self, game_id: int) -> ChipHistory | None:
        """Every seat's points after every finished round; None if there is no such game."""
        async with self._reads.read() as unit:
            query = "SELECT ruleset FROM games WHERE id = ?"
            games = await unit.fetch(query, (game_id,))
            if not games:
                return None

            query = "SELECT name FROM seats WHERE game_id = ? ORDER BY seat"
            names = tuple(name for (name,) in await unit.fetch(query, (game_id,)))

            query = """SELECT round_no, seat, total FROM round_results
                       WHERE game_id = ? ORDER BY round_no, seat
                    """
            rounds: dict[int, list[int]] = {}
            for round_no, seat, total in await unit.fetch(query, (game_id,)):
                rounds.setdefault(round_no, [0] * len(names))[seat] = total

            query = "SELECT seat FROM game_results WHERE game_id = ? AND winner = 1 ORDER BY seat"
            winners = tuple(seat for (seat,) in await unit.fetch(query, (game_id,)))
        ruleset = Ruleset.from_json(json.loads(games[0][0]))
        return ChipHistory(
            game_id=game_id,
            names=names,
            threshold=ruleset.threshold,
            totals=tuple(tuple(rounds[r]) for r in sorted(rounds)),
            winners=winners,
        )
