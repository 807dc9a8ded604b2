"""The finished games as one person may see them: numbers, boards, histories, charts."""

from __future__ import annotations

from bot.service.saver import read
from data import ChipHistory, HistoryRow, LeaderboardRow, PlayerStats, Sight, Store

#: What a person is told when the stats' reads fail.
FAILED = "stats.failed"


class Stats:
    """The reads of /lama stats, leaderboard, history, chart and replay, each in a
    ``sight`` (who asks may see only those games); a store that fails is refused with
    ``stats.failed``. They run on the stats' own connection, so a long read never holds
    up a move."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def finished_channels(
        self, guild_id: int, *, user_id: int | None = None
    ) -> frozenset[int]:
        """The channels of a server's finished (or rated) games; with ``user_id``, those
        where that person sat: what a sight is made of."""
        reading = self._store.stats.finished_channels(guild_id, user_id=user_id)
        return await read(reading, FAILED, f"guild {guild_id}: the games' channels")

    async def player_stats(
        self, guild_id: int, user_id: int, *, sight: Sight
    ) -> PlayerStats | None:
        reading = self._store.stats.player_stats(guild_id, user_id, sight=sight)
        return await read(reading, FAILED, f"guild {guild_id}: a person's stats")

    async def history(
        self, guild_id: int, user_id: int, *, limit: int = 10, sight: Sight
    ) -> list[HistoryRow]:
        reading = self._store.stats.history(guild_id, user_id, limit=limit, sight=sight)
        return await read(reading, FAILED, f"guild {guild_id}: a person's history")

    async def latest_finished_game(self, guild_id: int, *, sight: Sight) -> int | None:
        reading = self._store.stats.latest_finished_game(guild_id, sight=sight)
        return await read(reading, FAILED, f"guild {guild_id}: the latest game")

    async def finished_game_channel(
        self, guild_id: int, game_id: int, *, sight: Sight
    ) -> int | None:
        """The channel of a finished game of the server if ``sight`` shows it, else None:
        a game hidden from the asker is answered as one that doesn't exist."""
        reading = self._store.stats.finished_game_channel(guild_id, game_id, sight=sight)
        return await read(reading, FAILED, f"guild {guild_id}: game {game_id}'s channel")

    async def leaderboard(
        self, guild_id: int, *, order: str, min_games: int, limit: int, offset: int, sight: Sight
    ) -> list[LeaderboardRow]:
        reading = self._store.stats.leaderboard(
            guild_id, order=order, min_games=min_games, limit=limit, offset=offset, sight=sight
        )
        return await read(reading, FAILED, f"guild {guild_id}: the leaderboard")

    async def leaderboard_count(self, guild_id: int, *, min_games: int, sight: Sight) -> int:
        reading = self._store.stats.leaderboard_count(guild_id, min_games=min_games, sight=sight)
        return await read(reading, FAILED, f"guild {guild_id}: the leaderboard's size")

    async def finished_chips(
        self, game_id: int, *, guild_id: int | None = None
    ) -> ChipHistory | None:
        """The chip history of a finished game (of ``guild_id``, if given), else None."""
        failed = f"game {game_id}: its chips"
        if guild_id is not None:
            record = await read(self._store.games.load_game(game_id), FAILED, failed)
            if record is None or record.guild_id != guild_id or record.status != "finished":
                return None
        return await read(self._store.stats.chip_history(game_id), FAILED, failed)
