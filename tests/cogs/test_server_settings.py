"""What /lama settings takes (cogs.server_settings): a season's length, a turn timer."""

from __future__ import annotations

import pytest

from bot.config import MAX_TURN_TIMER, MIN_TURN_TIMER
from bot.service.ratings.seasons import MAX_DAYS, MIN_DAYS
from cogs.server_settings import MONTHLY, season_length, timer_allowed


@pytest.mark.parametrize("typed", [MONTHLY, " Monthly ", "month", "monatlich"])
def test_monthly_in_any_language_is_a_season_of_calendar_months(typed: str) -> None:
    assert season_length(typed) is None


def test_a_number_of_days_in_range_is_a_season_of_that_many_days() -> None:
    assert season_length(str(MIN_DAYS)) == MIN_DAYS
    assert season_length(f" {MAX_DAYS} ") == MAX_DAYS


@pytest.mark.parametrize("typed", [str(MIN_DAYS - 1), str(MAX_DAYS + 1), "soon", "", "²"])
def test_any_other_length_is_refused(typed: str) -> None:
    with pytest.raises(ValueError):
        season_length(typed)


def test_a_turn_timer_is_none_or_within_its_bounds() -> None:
    assert timer_allowed(0) and timer_allowed(MIN_TURN_TIMER) and timer_allowed(MAX_TURN_TIMER)
    assert not timer_allowed(MIN_TURN_TIMER - 1) and not timer_allowed(MAX_TURN_TIMER + 1)
