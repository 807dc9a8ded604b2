"""The ratings' writes: a server's season plans, and what the rater reads and writes.

The rating math lives in the service (``bot/service/ratings/rater.py``); here is only what it
reads (the finished games not yet rated, in the order they finished; the ratings of
given players) and writes (one game's ratings, all or nothing; a server's ratings wiped
for a recomputation), one unit of work each.  See migration 0012 for the tables.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from .codec import GAME_COLUMNS, assemble
from .database import Database, Unit
from .records import (
    ABANDONED,
    AWAY,
    CANCELLED,
    IDLE_GAME,
    AlreadyRated,
    FinishedGame,
    GameRating,
    SeasonPlan,
    Skill,
)
from .shards import Leases, served

log = logging.getLogger(__name__)

#: A place in the order games are rated in: (finished_at, game id).
Cursor = tuple[float, int]
#: The games that are rated (``g``): every finished one, each one cancelled because no
#: person played at it any more (or none came back from being away) with someone left
#: to rank ahead of the leavers (one whose seats all left would rank them all alike: it
#: gets no ``finished_at``, see ``Games.set_status``), each one cancelled because nobody moved
#: in it for long that was stored with the note of who let it stall (one with nobody else
#: to rank ahead of them, or cancelled so before that note, gets none), and each one
#: cancelled once a person other than its canceller moved (or by its only person still
#: playing after a move of theirs), a canceller who played it with the note of their
#: leaving (likewise).
#: All keep when they ended in ``finished_at``, in order in the partial index of
#: migration 0019.
RATED = f"""g.finished_at IS NOT NULL
    AND (g.status = 'finished'
         OR (g.status = 'cancelled'
             AND g.end_reason IN ('{ABANDONED}', '{AWAY}', '{IDLE_GAME}', '{CANCELLED}')))"""


class RatingWrites:
    """Season plans, and what rating finished games reads and writes."""

    def __init__(self, db: Database, reads: Database, leases: Leases) -> None:
        self._db = db
        self._reads = reads  # the stats' connection, for the long reads of finished games
        self._leases = leases  # only the games of the shards this process serves are rated

    async def add_season_plan(self, guild_id: int, plan: SeasonPlan) -> None:
        """From ``plan.started_at`` on, the server's seasons follow ``plan``; a plan that
        starts at the same second is replaced."""
        async with self._db.write() as unit:
            query = """INSERT INTO season_plans (guild_id, started_at, days) VALUES (?, ?, ?)
                       ON CONFLICT (guild_id, started_at) DO UPDATE SET days = excluded.days
                    """
            await unit.execute(query, (guild_id, plan.started_at, plan.days))

    async def unrated_guilds(self) -> list[int]:
        """The servers (of this process's shards) with a game to rate (:data:`RATED`)
        not yet rated."""
        where, params = served(self._leases.shards, "g.guild_id")
        query = f"""SELECT DISTINCT g.guild_id FROM games AS g
                    WHERE {RATED} AND {where}
                      AND NOT EXISTS (SELECT 1 FROM rated_games AS r WHERE r.game_id = g.id)
                    ORDER BY g.guild_id
                 """
        async with self._reads.read() as unit:
            rows = await unit.fetch(query, params)
        return [int(guild) for (guild,) in rows]

    async def newest_rated(self, guild_id: int) -> Cursor | None:
        """Where the server's latest rated game stands in the order: (finished_at, id)."""
        query = """SELECT finished_at, game_id FROM rated_games WHERE guild_id = ?
                   ORDER BY finished_at DESC, game_id DESC LIMIT 1"""
        async with self._db.read() as unit:
            rows = await unit.fetch(query, (guild_id,))
        return (float(rows[0][0]), int(rows[0][1])) if rows else None

    async def unrated_games(
        self, guild_id: int, *, after: Cursor | None = None, limit: int = 200
    ) -> tuple[list[FinishedGame], Cursor | None]:
        """Up to ``limit`` games of the server to rate (:data:`RATED`) not yet rated, in
        the order they ended ((finished_at, id)), from just after ``after``; and the cursor
        to go on from (None: there are no more).  A cancelled one has no result stored
        (``points`` empty, no winners).  A game whose stored data can't be read is logged
        and left out, so it can't hold up the others."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        at, game = after if after is not None else (float("-inf"), 0)
        query = f"""SELECT g.id, g.finished_at FROM games AS g
                    WHERE g.guild_id = ? AND {RATED}
                      AND (g.finished_at > ? OR (g.finished_at = ? AND g.id > ?))
                      AND NOT EXISTS (SELECT 1 FROM rated_games AS r WHERE r.game_id = g.id)
                    ORDER BY g.finished_at, g.id
                    LIMIT ?
                 """
        async with self._reads.read() as unit:
            found = await unit.fetch(query, (guild_id, at, at, game, limit))
            if not found:
                return [], None
            ids = [int(row[0]) for row in found]
            marks = ", ".join("?" for _ in ids)
            # Every id is bound; only the number of marks comes from here.
            games = await unit.fetch(f"SELECT {GAME_COLUMNS} FROM games WHERE id IN ({marks})", ids)
            seats = await unit.fetch(
                f"""SELECT game_id, seat, user_id, ai, name, missed_turns, away FROM seats
                    WHERE game_id IN ({marks}) ORDER BY game_id, seat""",
                ids,
            )
            events = await unit.fetch(
                f"""SELECT game_id, kind, payload, meta FROM events
                    WHERE game_id IN ({marks}) ORDER BY game_id, seq""",
                ids,
            )
            order = "id" if unit.dialect == "postgres" else "rowid"
            notes = await unit.fetch(
                f"""SELECT game_id, seq, seat, kind FROM seat_notes
                    WHERE game_id IN ({marks}) ORDER BY game_id, seq, {order}""",
                ids,
            )
            results = await unit.fetch(
                f"""SELECT game_id, seat, points, winner FROM game_results
                    WHERE game_id IN ({marks}) ORDER BY game_id, seat""",
                ids,
            )
            boards = await unit.fetch(
                f"SELECT game_id, board FROM game_boards WHERE game_id IN ({marks})", ids
            )
        records, broken = assemble(games, seats, events, notes)
        for broken_id, reason in broken.items():
            log.error(
                "game %s cannot be rated, its stored data is unreadable: %s", broken_id, reason
            )
        points: dict[int, list[int]] = {}
        winners: dict[int, set[int]] = {}
        for game_id, seat, own, winner in results:
            points.setdefault(game_id, []).append(int(own))
            if winner:
                winners.setdefault(game_id, set()).add(int(seat))
        by_id = {record.id: record for record in records}
        board_of = {int(game_id): str(board) for game_id, board in boards}
        finished = [
            FinishedGame(
                record=by_id[game_id],
                points=tuple(points.get(game_id, ())),
                winners=frozenset(winners.get(game_id, ())),
                board=board_of.get(game_id),
            )
            for game_id in ids
            if game_id in by_id
        ]
        last = (float(found[-1][1]), int(found[-1][0]))
        return finished, (last if len(found) == limit else None)

    async def skills(
        self, guild_id: int, seasons: Sequence[int], players: Sequence[str]
    ) -> dict[tuple[int, str], Skill]:
        """The ratings the ``players`` have in the ``seasons`` now, by (season, player);
        one not yet rated in a scope is not in it."""
        if not seasons or not players:
            return {}
        in_seasons = ", ".join("?" for _ in seasons)
        in_players = ", ".join("?" for _ in players)
        query = f"""SELECT season, player, mu, sigma, games FROM ratings
                    WHERE guild_id = ? AND season IN ({in_seasons}) AND player IN ({in_players})
                 """
        async with self._db.read() as unit:
            rows = await unit.fetch(query, (guild_id, *seasons, *players))
        return {
            (int(season), str(player)): Skill(float(mu), float(sigma), int(games))
            for season, player, mu, sigma, games in rows
        }

    async def save_ratings(self, ratings: Sequence[GameRating]) -> None:
        """Write what rating each game did (the game marked rated, each seat's change, each
        rated player's new rating), in their order, in one transaction (a recomputation's
        many games, without a commit for each): all or nothing; :class:`AlreadyRated` if a
        game is rated already."""
        async with self._db.write() as unit:
            for rating in ratings:
                await _write_rating(unit, rating)

    async def wipe_ratings(self, guild_id: int) -> int:
        """Delete every rating of the server (its season plans stay, and the boards its
        games with house rules were rated on), for recomputing them from the games; how
        many rated games there were."""
        async with self._db.write() as unit:
            await unit.execute("DELETE FROM rating_changes WHERE guild_id = ?", (guild_id,))
            await unit.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
            rated = await unit.fetch(
                "DELETE FROM rated_games WHERE guild_id = ? RETURNING game_id", (guild_id,)
            )
        return len(rated)

    async def rated_guilds_of(self, user_id: int) -> list[int]:
        """The servers where a person has a rating."""
        query = "SELECT DISTINCT guild_id FROM ratings WHERE user_id = ? ORDER BY guild_id"
        async with self._db.read() as unit:
            rows = await unit.fetch(query, (user_id,))
        return [int(guild) for (guild,) in rows]

    async def finished_guilds(self) -> list[int]:
        """Every server with a game to rate (:data:`RATED`), rated or not (for
        recomputing them all)."""
        query = f"SELECT DISTINCT g.guild_id FROM games AS g WHERE {RATED} ORDER BY g.guild_id"
        async with self._reads.read() as unit:
            rows = await unit.fetch(query)
        return [int(guild) for (guild,) in rows]


async def _write_rating(unit: Unit, rating: GameRating) -> None:
    query = """INSERT INTO rated_games (game_id, guild_id, finished_at, season)
               VALUES (?, ?, ?, ?)
               ON CONFLICT (game_id) DO NOTHING
               RETURNING game_id
            """
    params = (rating.game_id, rating.guild_id, rating.finished_at, rating.season)
    if not await unit.fetch(query, params):
        raise AlreadyRated(f"could not save: game {rating.game_id} is rated already")
    if rating.board is not None:
        # The first rating's board stays the game's: a recomputation rates it there again.
        query = """INSERT INTO game_boards (game_id, guild_id, board) VALUES (?, ?, ?)
                   ON CONFLICT (game_id) DO NOTHING"""
        await unit.execute(query, (rating.game_id, rating.guild_id, rating.board))
    # Each change keeps its game's channel, so that a board's sight reads no games.
    query = """INSERT INTO rating_changes (game_id, seat, season, guild_id, player, channel_id,
                                           rank, mu_before, sigma_before, mu_after, sigma_after)
               SELECT ?, ?, ?, ?, ?, g.channel_id, ?, ?, ?, ?, ? FROM games AS g WHERE g.id = ?
            """
    await unit.executemany(
        query,
        [
            (
                rating.game_id,
                c.seat,
                c.season,
                rating.guild_id,
                c.player,
                c.rank,
                c.mu_before,
                c.sigma_before,
                c.mu_after,
                c.sigma_after,
                rating.game_id,
            )
            for c in rating.changes
        ],
    )
    query = """INSERT INTO ratings (guild_id, season, player, user_id, ai, name, mu, sigma,
                                    ordinal, games, last_game)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (guild_id, season, player) DO UPDATE
               SET user_id = excluded.user_id, ai = excluded.ai, name = excluded.name,
                   mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,
                   games = excluded.games, last_game = excluded.last_game
            """
    await unit.executemany(
        query,
        [
            (
                rating.guild_id,
                p.season,
                p.player,
                p.user_id,
                p.ai,
                p.name,
                p.mu,
                p.sigma,
                p.mu - 3.0 * p.sigma,
                p.games,
                rating.game_id,
            )
            for p in rating.players
        ],
    )
