"""Ratings put straight into a store, as the rater would leave them: for tests of what shows them.

Plain SQL on the store's own connection (migration 0012's tables), so a test decides the
exact numbers a board, /lama stats or an export must show, without playing the games
the rater would need for them.
"""

from __future__ import annotations

from dataclasses import dataclass

from data.ratings import ai_player, user_player
from data.records import ALL_TIME
from data.store import Store


@dataclass(frozen=True, slots=True)
class Rated:
    """One rated player of a scope: a person (``user_id``) or an AI strength (``ai``)."""

    name: str
    mu: float
    sigma: float
    games: int
    user_id: int | None = None
    ai: str | None = None

    @property
    def player(self) -> str:
        if self.user_id is not None:
            return user_player(self.user_id)
        assert self.ai is not None
        return ai_player(self.ai)


async def put_rating(store: Store, guild_id: int, season: int, rated: Rated) -> None:
    """``rated`` on the server's board of ``season`` (a season's key or ALL_TIME)."""
    query = """INSERT INTO ratings (guild_id, season, player, user_id, ai, name, mu, sigma,
                                    ordinal, games, last_game)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)"""
    params = (
        guild_id,
        season,
        rated.player,
        rated.user_id,
        rated.ai,
        rated.name,
        rated.mu,
        rated.sigma,
        rated.mu - 3 * rated.sigma,
        rated.games,
    )
    async with store._db.write() as unit:
        await unit.execute(query, params)


async def put_change(
    store: Store,
    guild_id: int,
    season: int,
    game_id: int,
    seat: int,
    player: str,
    before: tuple[float, float],
    after: tuple[float, float],
) -> None:
    """What ``game_id`` did to one seat's rating in ``season``, and the game marked rated
    (in the season it counts for, when ``season`` is one, or on the house-rules board)."""
    async with store._db.write() as unit:
        await unit.execute(
            """INSERT INTO rating_changes (game_id, seat, season, guild_id, player, channel_id,
                                           rank, mu_before, sigma_before, mu_after, sigma_after)
               SELECT ?, ?, ?, ?, ?, channel_id, 1, ?, ?, ?, ? FROM games WHERE id = ?""",
            (game_id, seat, season, guild_id, player, *before, *after, game_id),
        )
        if season != ALL_TIME:  # a season's, or the house-rules board's
            await unit.execute(
                """INSERT INTO rated_games (game_id, guild_id, finished_at, season)
                   SELECT id, guild_id, finished_at, ? FROM games WHERE id = ?
                   ON CONFLICT (game_id) DO NOTHING""",
                (season, game_id),
            )
