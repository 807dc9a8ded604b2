"""A server's seasons through the service: the one now, a new length, a new season now."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.service import ServiceError
from bot.service.ratings.seasons import DAY, Season
from data import StoreError
from data.records import SeasonPlan
from testkit.service_game import ServiceGame


def utc(*parts: int) -> int:
    return int(datetime(*parts, tzinfo=UTC).timestamp())  # type: ignore[arg-type,misc]


async def test_a_server_without_a_plan_has_calendar_months(game: ServiceGame) -> None:
    game.clock.now = utc(2026, 12, 2, 17) + 0.5
    assert await game.service.seasons.current(1) == Season(
        utc(2026, 12, 1), utc(2026, 12, 1), utc(2027, 1, 1), None
    )
    assert await game.service.seasons.of_key(1, utc(2026, 11, 1)) == Season(
        utc(2026, 11, 1), utc(2026, 11, 1), utc(2026, 12, 1), None
    )


async def test_a_new_length_keeps_the_season_under_way_and_start_now_starts_one(
    game: ServiceGame,
) -> None:
    service = game.service
    game.clock.now = utc(2026, 12, 2, 17)
    season = await service.seasons.set(1, days=14, start_now=False)
    assert season == Season(utc(2026, 12, 1), utc(2026, 12, 1), utc(2026, 12, 15), 14)
    assert await service.seasons.current(1) == season
    assert await service.seasons.current(2) != season  # another server keeps its months

    game.clock.advance(3 * DAY + 0.25)
    now = utc(2026, 12, 5, 17) + 1  # the next whole second
    started = await service.seasons.set(1, days=None, start_now=True)
    assert started == Season(now, now, utc(2027, 1, 1), None)
    game.clock.advance(1)
    assert await service.seasons.current(1) == started
    # The season cut short is still there, by its key, ending where the new one starts.
    assert (await service.seasons.of_key(1, utc(2026, 12, 1))).end == now


@pytest.mark.parametrize("days", [0, 6, 366])
async def test_a_length_out_of_range_is_refused_with_the_range(
    game: ServiceGame, days: int
) -> None:
    with pytest.raises(ServiceError) as refused:
        await game.service.seasons.set(1, days=days, start_now=False)
    assert refused.value.key == "season.range"
    assert refused.value.params == {"min": 7, "max": 365}
    assert await game.store.ratings.season_plans(1) == []


async def test_a_key_that_starts_no_season_is_unknown(game: ServiceGame) -> None:
    with pytest.raises(ServiceError) as refused:
        await game.service.seasons.of_key(1, utc(2026, 12, 2))
    assert refused.value.key == "season.unknown"


async def test_a_plan_the_store_refuses_is_a_readable_refusal(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def full(*args: object) -> None:
        raise StoreError("disk full")

    monkeypatch.setattr(game.store.rating_writes, "add_season_plan", full)
    with pytest.raises(ServiceError) as refused:
        await game.service.seasons.set(1, days=30, start_now=True)
    assert refused.value.key == "error.save_failed"


async def test_many_seasons_by_key_read_the_plans_once_and_skip_keys_that_start_none(
    game: ServiceGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    game.clock.now = utc(2026, 12, 2, 17)
    await game.service.seasons.set(1, days=14, start_now=False)
    reads: list[int] = []
    real = game.store.ratings.season_plans

    async def counted(guild_id: int) -> list[SeasonPlan]:
        reads.append(guild_id)
        return await real(guild_id)

    monkeypatch.setattr(game.store.ratings, "season_plans", counted)
    keys = [utc(2026, 12, 15), utc(2026, 12, 2), utc(2026, 12, 1), utc(2026, 11, 1)]
    seasons = await game.service.seasons.of_keys(1, keys)
    assert seasons == [
        Season(utc(2026, 12, 15), utc(2026, 12, 15), utc(2026, 12, 29), 14),
        Season(utc(2026, 12, 1), utc(2026, 12, 1), utc(2026, 12, 15), 14),
        Season(utc(2026, 11, 1), utc(2026, 11, 1), utc(2026, 12, 1), None),
    ]
    assert reads == [1], "the plans are read once"
