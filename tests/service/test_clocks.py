"""The table clocks alone: a real scheduler, a clock moved by hand, recording callbacks."""

from __future__ import annotations

from bot.service import ServiceError, Timing
from bot.service.play.clocks import TableClocks
from bot.service.play.scheduler import Scheduler
from bot.service.play.table import Seat, Status, Table
from game import Match, Ruleset
from game.ai import Strength
from testkit.service_game import ManualClock, eventually, settled


class Calls:
    """The clocks' callbacks, writing down each call."""

    def __init__(self) -> None:
        self.log: list[tuple[str, int, object]] = []
        self.time_out_works = True
        self.close_works = True

    async def time_out(self, table: Table, stamp: int) -> bool:
        self.log.append(("time_out", table.game_id, stamp))
        return self.time_out_works

    async def warn(self, table: Table, stamp: int) -> None:
        self.log.append(("warn", table.game_id, stamp))

    async def close(self, table: Table, status: Status, reason: str) -> None:
        self.log.append(("close", table.game_id, reason))
        if not self.close_works:
            raise ServiceError("error.save_failed")
        table.status = status


def running(turn_timer: int) -> Table:
    seats = [Seat(1, None, "Ann"), Seat(2, None, "Bob")]
    table = Table(1, 9, 50, 1, Ruleset(), turn_timer, "en", seats, status=Status.RUNNING)
    table.match = Match(Ruleset(), 2)
    table.match.deal(3)
    return table


def clocks_for(clock: ManualClock) -> tuple[TableClocks, Calls, Scheduler]:
    calls = Calls()
    scheduler = Scheduler(clock, sleep=clock.sleep)
    clocks = TableClocks(
        scheduler, clock, time_out=calls.time_out, warn=calls.warn, close=calls.close
    )
    return clocks, calls, scheduler


async def test_a_turn_is_warned_then_timed_out_with_its_stamp(clock: ManualClock) -> None:
    clocks, calls, scheduler = clocks_for(clock)
    table = running(turn_timer=60)
    assert table.match is not None
    table.turn_deadline = clocks.deadline(table, table.match)
    assert table.turn_deadline == clock.now + 60
    clocks.arm_turn(table)
    clock.advance(44)
    await settled(clock)  # whatever rings by now has rung
    assert calls.log == []
    clock.advance(1)  # 15 s before the end: a quarter of the turn
    await eventually(lambda: len(calls.log) == 1)
    clock.advance(15)
    await eventually(lambda: len(calls.log) == 2)
    assert calls.log == [("warn", 1, table.stamp), ("time_out", 1, table.stamp)]
    await scheduler.close()


async def test_a_timeout_that_was_not_saved_is_tried_again(clock: ManualClock) -> None:
    clocks, calls, scheduler = clocks_for(clock)
    calls.time_out_works = False
    table = running(turn_timer=60)
    table.warned = True
    table.turn_deadline = clock.now + 60
    clocks.arm_turn(table)
    clock.advance(60)
    await eventually(lambda: len(calls.log) == 1)
    calls.time_out_works = True
    clock.advance(Timing().save_retry)
    await eventually(lambda: len(calls.log) == 2)
    clock.advance(Timing().save_retry)
    await settled(clock)  # a third try would have rung by now
    assert [c[0] for c in calls.log] == ["time_out", "time_out"]
    await scheduler.close()


async def test_no_deadline_without_a_timer_or_for_an_ai(clock: ManualClock) -> None:
    clocks, _, scheduler = clocks_for(clock)
    table = running(turn_timer=0)
    assert table.match is not None
    assert clocks.deadline(table, table.match) is None
    timed = running(turn_timer=60)
    assert timed.match is not None
    seat = timed.match.to_move
    assert seat is not None
    ai_seats = [
        Seat(None, Strength.NORMAL, "AI") if i == seat else s for i, s in enumerate(timed.seats)
    ]
    assert clocks.deadline(timed, timed.match, ai_seats) is None
    await scheduler.close()


async def test_an_idle_lobby_closes_and_a_change_starts_its_clock_again(
    clock: ManualClock,
) -> None:
    clocks, calls, scheduler = clocks_for(clock)
    table = running(turn_timer=0)
    table.status, table.match = Status.LOBBY, None
    clocks.arm_lobby(table)
    clock.advance(Timing().lobby_idle - 60)
    clocks.arm_lobby(table)  # someone joined
    clock.advance(120)
    await settled(clock)  # the first clock's time is past: it would have rung
    assert calls.log == []
    clock.advance(Timing().lobby_idle)
    await eventually(lambda: calls.log == [("close", 1, "closed.idle")])
    assert table.status is Status.CANCELLED
    await scheduler.close()


async def test_an_idle_close_that_fails_is_tried_again(clock: ManualClock) -> None:
    clocks, calls, scheduler = clocks_for(clock)
    calls.close_works = False
    table = running(turn_timer=0)
    table.active_at = clock.now
    clocks.arm_turn(table)  # an untimed game: closes after Timing.game_idle without a move
    clock.advance(Timing().game_idle)
    await eventually(lambda: len(calls.log) == 1)
    calls.close_works = True
    clock.advance(Timing().save_retry)
    await eventually(lambda: len(calls.log) == 2)
    assert calls.log[-1] == ("close", 1, "closed.idle_game")
    assert table.status is Status.CANCELLED
    await scheduler.close()
