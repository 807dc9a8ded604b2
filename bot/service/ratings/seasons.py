"""A server's seasons: which season an instant falls in under its plans, and the next plan.

Pure functions over :class:`~data.records.SeasonPlan`: with no plan a season is a
calendar month (UTC); from a plan's ``started_at`` on, seasons last its ``days`` days
each, or (``days`` None) the first one lasts until the next month starts and calendar
months follow.  The latest plan that has started rules, and a plan that starts later
cuts the season under way short at its start.  A season is keyed by its start (unix
seconds), which no later plan ever changes for an instant already past: a finished
game stays in its season, so the ratings can always be recomputed from the games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from data.records import SeasonPlan

#: The lengths (days) a server may give its seasons.
MIN_DAYS = 7
MAX_DAYS = 365
DAY = 86_400
#: Past the last season key the calendar can hold: 9999-01-01 (UTC), so that even a
#: monthly season starting before it ends within Python's dates (year 9999 at most).
#: A key from a forged button or a typed number may be any number the store holds.
KEYS_END = int(datetime(9999, 1, 1, tzinfo=UTC).timestamp())


@dataclass(frozen=True, slots=True)
class Season:
    """The season [start, end) in unix seconds (UTC); ``key`` == ``start`` names it in the
    store; ``days`` its plan's length, None for a calendar month (or a monthly plan's
    first, shorter season)."""

    key: int
    start: int
    end: int
    days: int | None


def month_start(at: float) -> int:
    """The start of the calendar month (UTC) ``at`` is in."""
    moment = datetime.fromtimestamp(math.floor(at), UTC)
    return int(datetime(moment.year, moment.month, 1, tzinfo=UTC).timestamp())


def next_month_start(at: float) -> int:
    """The start of the calendar month (UTC) after the one ``at`` is in."""
    moment = datetime.fromtimestamp(math.floor(at), UTC)
    year, month = (moment.year + 1, 1) if moment.month == 12 else (moment.year, moment.month + 1)
    return int(datetime(year, month, 1, tzinfo=UTC).timestamp())


def _under(plan: SeasonPlan | None, at: float) -> tuple[int, int]:
    """The season [start, end) ``at`` falls in under ``plan`` alone (None: no plan)."""
    if plan is None:
        return month_start(at), next_month_start(at)
    if plan.days is None:
        first_end = next_month_start(plan.started_at)
        if at < first_end:
            return plan.started_at, first_end
        return month_start(at), next_month_start(at)
    length = plan.days * DAY
    # Whole seconds: the boundaries are whole, and float division could round past one.
    start = plan.started_at + (math.floor(at) - plan.started_at) // length * length
    return start, start + length


def season_at(plans: Sequence[SeasonPlan], at: float) -> Season:
    """The season the instant ``at`` (unix seconds) falls in under a server's ``plans``
    (in any order): the latest plan started by then rules, the next one cuts it short."""
    ruling: SeasonPlan | None = None
    cut: int | None = None
    for plan in sorted(plans, key=lambda p: p.started_at):
        if plan.started_at <= at:
            ruling = plan
        else:
            cut = plan.started_at
            break
    start, end = _under(ruling, at)
    if cut is not None:
        end = min(end, cut)
    return Season(key=start, start=start, end=end, days=None if ruling is None else ruling.days)


def on_the_calendar(key: int) -> bool:
    """Whether ``key`` can start a season: from 1970 to before :data:`KEYS_END`."""
    return 0 <= key < KEYS_END


def valid_days(days: int | None) -> bool:
    """A season length a server may set (None: calendar months)."""
    return days is None or MIN_DAYS <= days <= MAX_DAYS


def next_plan(
    plans: Sequence[SeasonPlan], now: float, *, days: int | None, start_now: bool
) -> SeasonPlan:
    """The plan that gives a server seasons of ``days`` days (None: calendar months).

    ``start_now``: a new season starts now.  Else the season under way keeps its start
    and takes the new length, unless under it that season would already be over: then
    the new season starts now.  "Now" is rounded up to the next whole second, so no game
    finished before ``now`` ever moves to another season.
    """
    if not valid_days(days):
        raise ValueError(f"a season lasts {MIN_DAYS} to {MAX_DAYS} days, not {days}")
    at = math.ceil(now)
    if start_now:
        return SeasonPlan(started_at=at, days=days)
    current = season_at(plans, now)
    kept = SeasonPlan(started_at=current.start, days=days)
    if _under(kept, current.start)[1] <= now:
        return SeasonPlan(started_at=at, days=days)
    return kept


def with_plan(plans: Sequence[SeasonPlan], plan: SeasonPlan) -> list[SeasonPlan]:
    """``plans`` once ``plan`` is added, replacing one that starts at the same second (as
    the store's upsert does), oldest first."""
    kept = [p for p in plans if p.started_at != plan.started_at]
    return sorted([*kept, plan], key=lambda p: p.started_at)
