"""The ratings as one person may see them: a board's page, a person's rating and its history."""

from __future__ import annotations

from bot.service.saver import read
from data import Sight, Store
from data.records import RatingPage, RatingPoint, RatingRow

#: What a person is told when the ratings' reads fail.
FAILED = "stats.failed"


class RatingBoards:
    """The reads of the rating boards and of /lama stats' ratings, each in a ``sight``
    (a board lists only people rated in games the asker may see); a store that fails
    is refused with ``stats.failed``. On the stats' connection, as the boards are."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def page(
        self, guild_id: int, season: int, *, page: int, size: int, sight: Sight
    ) -> RatingPage:
        """Page ``page`` of the board of ``season`` (a key, or ``ALL_TIME``) and its size."""
        reading = self._store.ratings.rating_page(
            guild_id, season, page=page, size=size, sight=sight
        )
        return await read(reading, FAILED, f"guild {guild_id}: a rating board")

    async def rating_of(
        self, guild_id: int, season: int, user_id: int, *, sight: Sight
    ) -> RatingRow | None:
        reading = self._store.ratings.rating_of(guild_id, season, user_id, sight=sight)
        return await read(reading, FAILED, f"guild {guild_id}: a person's rating")

    async def history(
        self, guild_id: int, season: int, user_id: int, *, sight: Sight
    ) -> list[RatingPoint]:
        """A person's rating after each of their rated games ``sight`` shows, oldest first."""
        reading = self._store.ratings.rating_history(guild_id, season, user_id, sight=sight)
        return await read(reading, FAILED, f"guild {guild_id}: a person's rating history")

    async def has_ratings(self, guild_id: int, season: int) -> bool:
        """Whether anyone is rated in the server's scope ``season`` (its house-rules board,
        say): whether to offer that board, which names nobody."""
        reading = self._store.ratings.has_ratings(guild_id, season)
        return await read(reading, FAILED, f"guild {guild_id}: whether a board has ratings")

    async def rated_seasons(self, guild_id: int) -> list[int]:
        """The keys of the seasons with rated games in the server, newest first."""
        reading = self._store.ratings.rated_seasons(guild_id)
        return await read(reading, FAILED, f"guild {guild_id}: its rated seasons")
