"""The ratings' tables and reads on both backends (the rater's writes have their own tests)."""

from __future__ import annotations

from data import Store
from data.records import ALL_TIME, SeasonPlan


async def test_a_server_without_rated_games_has_an_empty_board_and_no_seasons(
    store: Store,
) -> None:
    assert store.schema_version == 12
    assert await store.rating_board(1, ALL_TIME) == []
    assert await store.rating_board_count(1, ALL_TIME) == 0
    assert await store.rating_of(1, ALL_TIME, 7) is None
    assert await store.rating_history(1, ALL_TIME, 7) == []
    assert await store.rated_seasons(1) == []
    assert await store.season_plans(1) == []
    assert await store.rating_changes(1) == []


async def test_a_season_plan_is_kept_and_one_at_the_same_second_replaced(store: Store) -> None:
    await store.add_season_plan(1, SeasonPlan(started_at=2_000, days=14))
    await store.add_season_plan(1, SeasonPlan(started_at=1_000, days=None))
    await store.add_season_plan(2, SeasonPlan(started_at=1_500, days=7))
    assert await store.season_plans(1) == [SeasonPlan(1_000, None), SeasonPlan(2_000, 14)]
    await store.add_season_plan(1, SeasonPlan(started_at=2_000, days=30))
    assert await store.season_plans(1) == [SeasonPlan(1_000, None), SeasonPlan(2_000, 30)]
    assert await store.season_plans(2) == [SeasonPlan(1_500, 7)]
