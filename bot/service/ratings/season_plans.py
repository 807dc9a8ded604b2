"""A server's seasons as the front end asks for them: the one now, one by key, a new plan."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable

from bot.service.errors import ServiceError
from bot.service.ratings.seasons import (
    MAX_DAYS,
    MIN_DAYS,
    Season,
    next_plan,
    on_the_calendar,
    season_at,
    valid_days,
    with_plan,
)
from bot.service.saver import Saver
from data import Store, StoreError
from data.records import SeasonPlan

log = logging.getLogger(__name__)


class SeasonPlans:
    """Reads a server's season plans and saves new ones (``/lama settings season``)."""

    def __init__(
        self,
        store: Store,
        saver: Saver,
        clock: Callable[[], float],
        rating_lock: Callable[[int], asyncio.Lock],
    ) -> None:
        self._store = store
        self._saver = saver
        self._clock = clock
        self._rating_lock = rating_lock  # the server's, its games are rated under

    async def plans(self, guild_id: int) -> list[SeasonPlan]:
        """The server's plans; ``error.settings_unread`` if the store can't say."""
        try:
            return await self._store.ratings.season_plans(guild_id)
        except StoreError as error:
            log.warning("guild %s: could not read its season plans: %s", guild_id, error)
            raise ServiceError("error.settings_unread") from error

    async def current(self, guild_id: int) -> Season:
        """The season under way in the server now."""
        return season_at(await self.plans(guild_id), self._clock())

    async def of_key(self, guild_id: int, key: int) -> Season:
        """The server's season that starts at ``key``; ``season.unknown`` if none does."""
        if not on_the_calendar(key):
            raise ServiceError("season.unknown")
        season = season_at(await self.plans(guild_id), key)
        if season.key != key:
            raise ServiceError("season.unknown")
        return season

    async def of_keys(self, guild_id: int, keys: Iterable[int]) -> list[Season]:
        """The server's seasons that start at ``keys``, in their order, the plans read
        once; a key that starts none (no plan makes it one) is left out."""
        plans = await self.plans(guild_id)
        found = ((key, season_at(plans, key)) for key in keys if on_the_calendar(key))
        return [season for key, season in found if season.key == key]

    async def set(self, guild_id: int, *, days: int | None, start_now: bool) -> Season:
        """Give the server seasons of ``days`` days (None: calendar months), from the season
        under way on or (``start_now``) from a new one starting now; the season in force
        then.  ``season.range`` names the lengths allowed."""
        if not valid_days(days):
            raise ServiceError("season.range", min=MIN_DAYS, max=MAX_DAYS)
        # Under the ratings' lock, "now" read inside it: a pass of the rater before the
        # save rates only games that finished before now, whose seasons no new plan
        # moves; a pass after it reads the new plan.  Unlocked, a game finishing while
        # the plan is saved was rated with the plans before it, for the old season.
        async with self._rating_lock(guild_id):
            plans = await self.plans(guild_id)
            now = self._clock()
            plan = next_plan(plans, now, days=days, start_now=start_now)
            await self._saver.save(
                self._store.rating_writes.add_season_plan(guild_id, plan),
                f"guild {guild_id}: could not save a season plan",
            )
        return season_at(with_plan(plans, plan), max(now, plan.started_at))
