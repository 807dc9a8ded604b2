"""AI turns: alone with a recording apply, and whole games through the service."""

from __future__ import annotations

from bot.service import ServiceError, Timing
from bot.service.play.moves import MoveOutcome
from bot.service.play.scheduler import Scheduler
from bot.service.play.table import Seat, Status, Table
from bot.service.thinking.ai_turns import AITurns
from bot.service.thinking.pool import Thinking
from game import Action, Card, Match, Ruleset
from game.ai import Strength
from testkit.deals import whole_deal
from testkit.service_game import ManualClock, ServiceGame, eventually, people

(ANN,) = people("Ann")


def ai_to_move() -> Table:
    seats = [Seat(None, Strength.NORMAL, "AI 1"), Seat(1, None, "Ann")]
    table = Table(1, 9, 50, 1, Ruleset(), 0, "en", seats, status=Status.RUNNING)
    table.match = Match(Ruleset(), 2)
    table.match.start_round(whole_deal([[Card.ONE] * 6, [Card.TWO] * 6], Card.THREE)(table.match))
    return table


async def test_a_failed_ai_move_is_tried_again_after_longer_and_longer(
    clock: ManualClock,
) -> None:
    timing = Timing(ai_delay=0.0)
    tried: list[float] = []
    shown: list[int] = []

    async def apply(table: Table, seat: int, action: Action) -> MoveOutcome:
        tried.append(clock.now)
        if len(tried) < 3:
            raise ServiceError("error.save_failed")
        return MoveOutcome(table, seat, (), ())

    async def after_change(table: Table) -> None:
        shown.append(table.game_id)

    scheduler = Scheduler(clock, sleep=clock.sleep)
    turns = AITurns(
        scheduler,
        clock,
        Thinking(workers=0),
        apply=apply,
        after_change=after_change,
        timing=timing,
    )
    start = clock.now
    turns.schedule(ai_to_move())
    await eventually(lambda: len(tried) == 1)
    clock.advance(timing.ai_retry)
    await eventually(lambda: len(tried) == 2)
    clock.advance(timing.ai_retry)
    assert len(tried) == 2  # the second wait is twice as long
    clock.advance(timing.ai_retry)
    await eventually(lambda: shown == [1])
    assert [t - start for t in tried] == [0, 2, 6]
    await scheduler.close()


async def test_an_ai_seat_not_to_move_is_not_scheduled(clock: ManualClock) -> None:
    async def apply(table: Table, seat: int, action: Action) -> MoveOutcome:
        raise AssertionError("not the AI's turn")

    async def after_change(table: Table) -> None:
        return None

    scheduler = Scheduler(clock, sleep=clock.sleep)
    turns = AITurns(scheduler, clock, Thinking(workers=0), apply=apply, after_change=after_change)
    table = ai_to_move()
    table.seats = list(reversed(table.seats))  # now the human is to move
    turns.schedule(table)
    assert not scheduler.pending((1, "ai"))
    await scheduler.close()


async def test_a_game_against_ais_plays_to_its_end(game: ServiceGame) -> None:
    game.service.dealer.scripted.append(
        whole_deal([[Card.ONE] * 6, [Card.TWO] * 6, [Card.THREE] * 6], Card.FOUR)
    )
    table = await game.lobby([ANN], [Strength.EASY, Strength.NORMAL], ruleset=Ruleset(threshold=10))
    await game.play_out(table)
    assert table.status is Status.FINISHED
    record = await game.store.games.load_game(table.game_id)
    assert record is not None and record.status == "finished"
    assert len(record.events) == table.stamp
    assert game.service.registry.table(table.game_id) is None
