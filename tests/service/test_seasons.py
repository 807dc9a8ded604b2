"""Seasons: each instant in one season, seasons tiling time, new plans moving nothing past."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.service.ratings.seasons import (
    DAY,
    MAX_DAYS,
    MIN_DAYS,
    Season,
    next_plan,
    season_at,
    with_plan,
)
from data.records import SeasonPlan


def utc(*parts: int) -> int:
    return int(datetime(*parts, tzinfo=UTC).timestamp())  # type: ignore[arg-type,misc]


#: 2020 to 2040, in seconds, with fractions (a game finishes at any float time).
instants = st.floats(min_value=utc(2020, 1, 1), max_value=utc(2040, 1, 1), allow_nan=False)
lengths = st.one_of(st.none(), st.integers(min_value=MIN_DAYS, max_value=MAX_DAYS))
plan_lists = st.lists(
    st.builds(
        SeasonPlan,
        started_at=st.integers(min_value=utc(2020, 1, 1), max_value=utc(2039, 1, 1)),
        days=lengths,
    ),
    max_size=6,
    unique_by=lambda p: p.started_at,
)


def test_no_plan_is_calendar_months() -> None:
    assert season_at([], utc(2026, 12, 2, 17)) == Season(
        key=utc(2026, 12, 1), start=utc(2026, 12, 1), end=utc(2027, 1, 1), days=None
    )
    assert season_at([], utc(2026, 2, 1)).end == utc(2026, 3, 1)
    assert season_at([], utc(2026, 3, 1) - 0.001).start == utc(2026, 2, 1)


def test_a_plan_of_days_repeats_from_its_start() -> None:
    start = utc(2026, 5, 10, 12)
    plans = [SeasonPlan(started_at=start, days=10)]
    assert season_at(plans, start + 25 * DAY) == Season(
        start + 20 * DAY, start + 20 * DAY, start + 30 * DAY, 10
    )
    # Before the plan: calendar months, the last one cut short where the plan starts.
    assert season_at(plans, start - 1) == Season(utc(2026, 5, 1), utc(2026, 5, 1), start, None)


def test_a_monthly_plan_runs_to_the_next_month_then_calendar_months() -> None:
    start = utc(2026, 5, 10, 12)
    plans = [SeasonPlan(started_at=utc(2026, 1, 1), days=30), SeasonPlan(start, None)]
    assert season_at(plans, start + DAY) == Season(start, start, utc(2026, 6, 1), None)
    assert season_at(plans, utc(2026, 7, 4)) == Season(
        utc(2026, 7, 1), utc(2026, 7, 1), utc(2026, 8, 1), None
    )


@given(plan_lists, instants)
def test_every_instant_is_in_the_season_it_is_given(plans: list[SeasonPlan], at: float) -> None:
    season = season_at(plans, at)
    assert season.key == season.start
    assert season.start <= at < season.end
    # Its start names the same season, whatever order the plans come in.
    assert season_at(list(reversed(plans)), season.start) == season


@given(plan_lists, instants)
def test_seasons_tile_time(plans: list[SeasonPlan], at: float) -> None:
    """The next season starts where this one ends: no gap, no overlap."""
    season = season_at(plans, at)
    after = season_at(plans, season.end)
    assert after.start == season.end
    assert season_at(plans, season.end - 0.5).key == season.key
    assert season_at(plans, season.start - 0.5).end == season.start


@given(plan_lists, instants, lengths, st.booleans(), st.floats(min_value=0, max_value=400 * DAY))
def test_a_new_plan_never_moves_an_instant_before_now(
    plans: list[SeasonPlan], at: float, days: int | None, start_now: bool, later: float
) -> None:
    now = at + later
    plan = next_plan(plans, now, days=days, start_now=start_now)
    changed = with_plan(plans, plan)
    for instant in (at, now - 0.001, now - later / 2):
        if instant < now:
            assert season_at(changed, instant).key == season_at(plans, instant).key
    # The season in force from now on (from the next whole second, if it starts now) is
    # the new plan's first, of the length asked for.
    current = season_at(changed, max(now, plan.started_at))
    assert current.start == plan.started_at
    assert current.days == days
    assert current.end > now


@given(plan_lists, instants, lengths)
def test_a_new_length_keeps_the_season_under_way_when_it_can(
    plans: list[SeasonPlan], now: float, days: int | None
) -> None:
    before = season_at(plans, now)
    plan = next_plan(plans, now, days=days, start_now=False)
    after = season_at(with_plan(plans, plan), max(now, plan.started_at))
    if plan.started_at == before.start:
        assert after.key == before.key
    else:  # the season under way would have been over already under the new length
        kept = season_at([SeasonPlan(before.start, days)], before.start)
        assert kept.end <= now < plan.started_at + 1


def test_starting_now_cuts_the_season_under_way() -> None:
    plans: list[SeasonPlan] = []
    now = utc(2026, 12, 2, 17, 30) + 0.25
    plan = next_plan(plans, now, days=14, start_now=True)
    assert plan == SeasonPlan(started_at=utc(2026, 12, 2, 17, 30) + 1, days=14)
    changed = with_plan(plans, plan)
    assert season_at(changed, now).end == plan.started_at  # December is cut short
    assert season_at(changed, plan.started_at) == Season(
        plan.started_at, plan.started_at, plan.started_at + 14 * DAY, 14
    )


def test_a_shorter_length_that_would_be_over_starts_now() -> None:
    now = utc(2026, 12, 20)
    plan = next_plan([], now, days=7, start_now=False)
    assert plan == SeasonPlan(started_at=now, days=7)  # December 1 + 7 days is past
    assert next_plan([], now, days=30, start_now=False) == SeasonPlan(utc(2026, 12, 1), 30)


@pytest.mark.parametrize("days", [0, MIN_DAYS - 1, MAX_DAYS + 1])
def test_lengths_out_of_range_are_refused(days: int) -> None:
    with pytest.raises(ValueError):
        next_plan([], utc(2026, 12, 2), days=days, start_now=False)
