"""The ends to show: games that ended whose table message may not say so yet.

The write that ends a game (its last move, a cancel) stores its end as not shown;
the front end says once the table's last edit is made.  A bot stopped or killed in
between (the edit paced a moment later, or failing at Discord) shows the end at its
next start, so a table never keeps showing a game that is over.  A finished game's
chip chart likewise: stored as not posted when the game finishes, as posted once the
front end is done with it, so a restart posts it if it had not gone out, and only then.
"""

from __future__ import annotations

from .database import Database
from .shards import Leases, served


class EndingRows:
    """Which ended games' tables are still to show how they ended."""

    def __init__(self, db: Database, leases: Leases) -> None:
        self._db = db
        self._leases = leases

    async def set_end_shown(self, game_id: int) -> None:
        """The table of a finished or cancelled game shows how it ended: a restart
        leaves it alone from now on."""
        async with self._db.write() as unit:
            query = "UPDATE games SET end_shown = 1 WHERE id = ? AND end_shown = 0"
            await unit.execute(query, (game_id,))

    async def endings_unshown(self) -> list[int]:
        """The games that ended (finished or cancelled) whose table may not show it yet,
        by id; once this process has claimed its shards, only the games of their guilds."""
        where, params = served(self._leases.shards)
        async with self._db.read() as unit:
            query = f"""SELECT id FROM games
                        WHERE end_shown = 0 AND status IN ('finished', 'cancelled')
                              AND {where}
                        ORDER BY id
                     """
            return [int(row[0]) for row in await unit.fetch(query, params)]

    async def set_chart_posted(self, game_id: int) -> None:
        """A finished game's chart was posted (or given up on): a restart leaves it."""
        async with self._db.write() as unit:
            query = "UPDATE games SET chart_posted = 1 WHERE id = ? AND chart_posted = 0"
            await unit.execute(query, (game_id,))

    async def charts_unposted(self) -> list[int]:
        """The finished games whose chart may not have gone out yet, by id; once this
        process has claimed its shards, only the games of their guilds."""
        where, params = served(self._leases.shards)
        async with self._db.read() as unit:
            query = f"""SELECT id FROM games
                        WHERE chart_posted = 0 AND status = 'finished' AND {where}
                        ORDER BY id
                     """
            return [int(row[0]) for row in await unit.fetch(query, params)]
