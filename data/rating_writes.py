"""The ratings' writes: a server's season plans, and (for the rater) each game's ratings.

The rating math lives in the service (``bot/service/ratings.py``); here is only what it
reads and writes, one unit of work each.  See migration 0012 for the tables.
"""

from __future__ import annotations

from .database import Part
from .records import SeasonPlan


class RatingWrites(Part):
    """Season plans, and what rating a finished game writes."""

    async def add_season_plan(self, guild_id: int, plan: SeasonPlan) -> None:
        """From ``plan.started_at`` on, the server's seasons follow ``plan``; a plan that
        starts at the same second is replaced."""
        async with self._db.write() as unit:
            query = """INSERT INTO season_plans (guild_id, started_at, days) VALUES (?, ?, ?)
                       ON CONFLICT (guild_id, started_at) DO UPDATE SET days = excluded.days
                    """
            await unit.execute(query, (guild_id, plan.started_at, plan.days))
