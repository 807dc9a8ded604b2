"""Turn pings: the pings sent and not yet taken down, so a restart takes them all down.

Every ping is stored from Discord's answer to its sending until it is gone, so
a bot that stops after that (killed, or while Discord refuses a deletion)
leaves none of them standing for good: a restarted bot takes down every one it
finds here.
"""

from __future__ import annotations

from .database import Database
from .records import PingRecord
from .shards import Leases, served


class PingRows:
    """The pings sent and not known to be gone, so a restart can take them down."""

    def __init__(self, db: Database, leases: Leases) -> None:
        self._db = db
        self._leases = leases  # only the pings of games this process serves come back

    async def add_ping(self, ping: PingRecord) -> None:
        """Remember a ping that was sent (again: once is enough)."""
        async with self._db.write() as unit:
            query = """INSERT INTO pings (message_id, game_id, channel_id, application_id,
                                          token, sent_at)
                       VALUES (?, ?, ?, ?, ?, ?)
                       ON CONFLICT (message_id) DO NOTHING
                    """
            await unit.execute(
                query,
                (
                    ping.message_id,
                    ping.game_id,
                    ping.channel_id,
                    ping.application_id,
                    ping.token,
                    ping.sent_at,
                ),
            )

    async def drop_ping(self, message_id: int) -> None:
        """The ping ``message_id`` is gone."""
        async with self._db.write() as unit:
            await unit.execute("DELETE FROM pings WHERE message_id = ?", (message_id,))

    async def standing_pings(self) -> list[PingRecord]:
        """Every ping not known to be gone; once this process has claimed its shards, only
        those of games in their guilds."""
        where, params = served(self._leases.shards, column="g.guild_id")
        async with self._db.read() as unit:
            query = f"""SELECT p.game_id, g.guild_id, p.channel_id, p.message_id,
                               p.application_id, p.token, p.sent_at
                        FROM pings p JOIN games g ON g.id = p.game_id
                        WHERE {where}
                        ORDER BY p.message_id
                     """
            rows = await unit.fetch(query, params)
        return [PingRecord(*row) for row in rows]
