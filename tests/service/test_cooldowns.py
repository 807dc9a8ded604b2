"""Per-person cooldowns, on a clock moved by hand: per person and action, seconds rounded up."""

from __future__ import annotations

import pytest

from bot.service import GameService
from bot.service.cooldowns import DEFAULTS, Cooldowns
from testkit.service_game import ManualClock, ServiceGame

ANN, BOB = 101, 102


def test_a_cooldown_counts_per_person_and_per_action(clock: ManualClock) -> None:
    cooldowns = Cooldowns(clock, {"hint": 5, "stats": 10})
    assert cooldowns.take(ANN, "hint") == 0  # free: taken
    assert cooldowns.take(ANN, "hint") == 5
    assert cooldowns.take(BOB, "hint") == 0  # someone else
    assert cooldowns.take(ANN, "stats") == 0  # something else
    clock.advance(3.2)
    assert cooldowns.left(ANN, "hint") == 2  # 1.8 s, rounded up
    assert cooldowns.take(ANN, "hint") == 2  # refused: the wait does not start again
    clock.advance(1.8)
    assert cooldowns.take(ANN, "hint") == 0
    assert cooldowns.left(ANN, "unknown") == 0  # an action without a cooldown


def test_left_only_asks_and_use_starts_the_wait(clock: ManualClock) -> None:
    cooldowns = Cooldowns(clock, {"new": 20})
    assert cooldowns.left(ANN, "new") == 0 and cooldowns.left(ANN, "new") == 0
    cooldowns.use(ANN, "new")
    assert cooldowns.left(ANN, "new") == 20
    clock.advance(20)
    assert cooldowns.left(ANN, "new") == 0


def test_a_reservation_refuses_the_next_until_released(clock: ManualClock) -> None:
    """/lama new reserves the wait as it checks it, so a double submit arriving while
    the first still reads the store is refused; a refusal afterwards releases it."""
    cooldowns = Cooldowns(clock, {"new": 20})
    assert cooldowns.take(ANN, "new") == 0  # reserved
    assert cooldowns.take(ANN, "new") == 20  # the double submit: refused
    cooldowns.release(ANN, "new", cooldowns.until(ANN, "new"))  # refused after all: no wait
    assert cooldowns.left(ANN, "new") == 0
    assert cooldowns.take(ANN, "new") == 0  # and the next may go
    clock.advance(5)
    assert cooldowns.take(ANN, "new") == 15  # done: the wait stands
    cooldowns.release(BOB, "new", None)  # nothing reserved: nothing changes
    assert cooldowns.left(ANN, "new") == 15


def test_a_late_release_gives_back_only_its_own_wait(clock: ManualClock) -> None:
    """A /lama new whose store call outlasts its wait, then fails, gives back its own
    wait only: the table opened meanwhile (its wait taken after the first ran out)
    keeps the person waiting as ever."""
    cooldowns = Cooldowns(clock, {"new": 20})
    assert cooldowns.take(ANN, "new") == 0  # the first: its store call hangs
    first = cooldowns.until(ANN, "new")
    clock.advance(21)
    assert cooldowns.take(ANN, "new") == 0  # the second, after the wait: it opens a table
    cooldowns.release(ANN, "new", first)  # the first fails at last
    assert cooldowns.left(ANN, "new") == 20, "the second table's wait stands"


@pytest.mark.slow  # over a quarter second on a quiet machine
def test_those_long_over_are_forgotten(clock: ManualClock) -> None:
    cooldowns = Cooldowns(clock, {"hint": 5})
    for person in range(5000):
        cooldowns.take(person, "hint")
    clock.advance(6)
    cooldowns.take(ANN, "hint")
    assert len(cooldowns) < 5000


async def test_the_service_has_the_default_cooldowns_on_its_clock_or_those_given(
    game: ServiceGame,
) -> None:
    assert game.service.cooldowns.seconds == DEFAULTS
    assert set(DEFAULTS) == {
        *("new", "rematch", "lobby", "hint", "review", "stats", "chart", "export", "page")
    }
    mine = Cooldowns(game.clock, {"hint": 1})
    other = GameService(
        game.store,
        clock=game.clock,
        sleep=game.clock.sleep,
        cooldowns=mine,
        timing=game.service.timing,
    )
    try:
        assert other.cooldowns is mine
    finally:
        await other.close()
