"""The front end's pacing (bot.frontend.pacing): a failed call's retries back off."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.frontend.pacing import Pacing


def test_retries_double_from_the_first_up_to_the_most() -> None:
    pacing = Pacing(retry_first=1.0, retry_max=60.0)
    assert [pacing.backoff(n) for n in range(1, 9)] == [1, 2, 4, 8, 16, 32, 60, 60]


@given(st.floats(0.01, 10.0), st.floats(10.0, 120.0), st.integers(1, 200))
def test_a_retry_waits_no_less_than_the_first_nor_more_than_the_most(
    first: float, most: float, failures: int
) -> None:
    pacing = Pacing(retry_first=first, retry_max=most)
    assert first <= pacing.backoff(failures) <= most
    assert pacing.backoff(failures) <= pacing.backoff(failures + 1)
