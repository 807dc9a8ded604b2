"""The bot token's budget: never more than the rate, the most urgent call first.

The limiter runs on a clock of the test's own, which moves only when the
limiter sleeps: nothing here depends on how fast the machine is.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.limiter import Limiter, Priority


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


def limiter(time: FakeTime, rate: float = 40, burst: float | None = None) -> Limiter:
    return Limiter(rate, burst=burst, clock=time.clock, sleep=time.sleep)


async def granted_at(bucket: Limiter, time: FakeTime, priority: Priority, log: list[float]) -> None:
    await bucket.acquire(priority)
    log.append(time.now)


async def test_a_burst_goes_out_at_once_and_the_rest_at_the_rate() -> None:
    time = FakeTime()
    bucket = limiter(time, rate=40)
    times: list[float] = []
    await asyncio.gather(*(granted_at(bucket, time, Priority.TABLE, times) for _ in range(80)))
    assert times[:40] == [0.0] * 40
    assert times[-1] == pytest.approx(1.0)  # 40 more at 40 a second
    # Over any second, no more than the burst and the rate together.
    for start in times:
        assert sum(1 for t in times if start <= t < start + 1) <= 40 + 40


async def test_the_rate_holds_over_a_long_stretch() -> None:
    time = FakeTime()
    bucket = limiter(time, rate=40, burst=10)
    times: list[float] = []
    await asyncio.gather(*(granted_at(bucket, time, Priority.TABLE, times) for _ in range(410)))
    assert times[-1] == pytest.approx(10.0)  # 10 at once, then 400 in 10 s
    assert sum(1 for t in times if 5 <= t < 6) <= 41


async def test_pings_go_before_table_edits_and_those_before_cosmetic_posts() -> None:
    time = FakeTime()
    bucket = limiter(time, rate=10, burst=1)
    order: list[str] = []

    async def call(name: str, priority: Priority) -> None:
        await bucket.acquire(priority)
        order.append(name)

    await bucket.acquire()  # the bucket is empty now: everything below waits
    await asyncio.gather(
        call("chart", Priority.COSMETIC),
        call("warning edit", Priority.COSMETIC),
        call("table", Priority.TABLE),
        call("ping", Priority.PING),
    )
    assert order == ["ping", "table", "chart", "warning edit"]
    assert time.now == pytest.approx(0.4)


async def test_a_caller_that_gives_up_uses_no_part_of_the_budget() -> None:
    time = FakeTime()
    bucket = limiter(time, rate=10, burst=1)
    await bucket.acquire()
    gone = asyncio.create_task(bucket.acquire(Priority.PING))
    await asyncio.sleep(0)
    gone.cancel()
    times: list[float] = []
    await granted_at(bucket, time, Priority.COSMETIC, times)
    assert times == [pytest.approx(0.1)], "the next call gets the cancelled one's turn"
    assert bucket.waiting == 0


async def test_an_idle_budget_fills_up_to_its_burst_only() -> None:
    time = FakeTime()
    bucket = limiter(time, rate=10, burst=5)
    time.now = 3600.0  # an hour without a call
    times: list[float] = []
    await asyncio.gather(*(granted_at(bucket, time, Priority.TABLE, times) for _ in range(6)))
    assert times[:5] == [3600.0] * 5
    assert times[5] == pytest.approx(3600.1)


def test_a_budget_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        Limiter(0)
