"""Stale pings: turn pings that are over but still stand, because Discord refused
their deletion for now; the bot keeps trying, and a restarted bot takes them down."""

from __future__ import annotations

from .database import Part
from .records import StalePing
from .shards import served


class StalePings(Part):
    async def add_stale_ping(self, ping: StalePing) -> None:
        """Remember a ping to take down (again: once is enough)."""
        async with self._db.write() as unit:
            query = """INSERT INTO stale_pings (message_id, game_id, channel_id)
                       VALUES (?, ?, ?)
                       ON CONFLICT (message_id) DO NOTHING
                    """
            await unit.execute(query, (ping.message_id, ping.game_id, ping.channel_id))

    async def drop_stale_ping(self, message_id: int) -> None:
        """The ping ``message_id`` is gone."""
        async with self._db.write() as unit:
            await unit.execute("DELETE FROM stale_pings WHERE message_id = ?", (message_id,))

    async def stale_pings(self) -> list[StalePing]:
        """Every ping still to take down; once this process has claimed its shards, only
        those of games in their guilds."""
        where, params = served(self._shards, column="g.guild_id")
        async with self._db.read() as unit:
            query = f"""SELECT p.game_id, p.channel_id, p.message_id
                        FROM stale_pings p JOIN games g ON g.id = p.game_id
                        WHERE {where}
                        ORDER BY p.message_id
                     """
            rows = await unit.fetch(query, params)
        return [StalePing(*row) for row in rows]
