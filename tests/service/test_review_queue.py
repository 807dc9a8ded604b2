"""Reviews take turns: checked before any kept answer, one per person, a few at once, resumed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from bot.service import ServiceError, Timing
from bot.service.play.registry import TableRegistry
from bot.service.play.table import Status, Table
from bot.service.thinking.hints import HintDesk
from bot.service.thinking.pool import Thinking
from bot.service.thinking.review_queue import ReviewQueue
from game import Action, SeatView
from game.ai.advice import Decision, Done
from testkit.service_game import GUILD, ServiceGame, eventually, people

T = TypeVar("T")
ANN, BOB, CAT = people("Ann", "Bob", "Cat")


class QuickJudge(Thinking):
    """Thinks in a thread, but judges every decision at once as costing nothing
    (counting them); with ``held``, each judge waits until ``opened``."""

    def __init__(self, held: bool = False) -> None:
        super().__init__(workers=0)
        self.judged: list[tuple[int, int]] = []  # (the review's game, the decision's seq)
        self.opened = asyncio.Event()
        self.holding = 0  # the judges waiting to be let through
        if not held:
            self.opened.set()
        self.after_judge: Callable[[], None] = lambda: None

    async def judge(
        self, seq: int, view: SeatView, played: Action, deadline: float
    ) -> tuple[Decision | None, Done]:
        self.holding += 1
        try:
            await self.opened.wait()
        finally:
            self.holding -= 1
        self.judged.append((id(view), seq))
        self.after_judge()
        return None, 0


async def thought_about(thinking: QuickJudge) -> None:
    """Wait until a review is being thought: its first judge held."""
    await eventually(lambda: thinking.holding > 0, what="a review's judge held")


async def finished(game: ServiceGame, *players: Any) -> Table:
    table = await game.lobby(list(players))
    await game.play_out(table)
    assert table.status is Status.FINISHED
    return table


def desk_over(
    game: ServiceGame,
    thinking: Thinking,
    timing: Timing | None = None,
    reviews: ReviewQueue | None = None,
) -> HintDesk:
    return HintDesk(TableRegistry(), game.store, thinking, timing=timing, reviews=reviews)


async def test_a_kept_review_is_shown_in_its_own_server_only(game: ServiceGame) -> None:
    table = await finished(game, ANN, BOB)
    hints = desk_over(game, QuickJudge())
    review = await hints.review(table.game_id, ANN.id, guild_id=GUILD)
    assert review.complete
    with pytest.raises(ServiceError) as refused:
        await hints.review(table.game_id, ANN.id, guild_id=GUILD + 1)
    assert refused.value.key == "error.game_gone", "the kept review answered another server"


async def test_a_review_is_for_a_player_of_the_game_even_once_kept(game: ServiceGame) -> None:
    table = await finished(game, ANN, BOB)
    hints = desk_over(game, QuickJudge())
    await hints.review(table.game_id, ANN.id, guild_id=GUILD)
    with pytest.raises(ServiceError) as refused:
        await hints.review(table.game_id, CAT.id, guild_id=GUILD)
    assert refused.value.key == "error.not_a_player"


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_one_review_per_person_at_a_time(game: ServiceGame) -> None:
    first = await finished(game, ANN, BOB)
    second = await finished(game, ANN, BOB)
    thinking = QuickJudge(held=True)
    hints = desk_over(game, thinking)
    asking = asyncio.create_task(hints.review(first.game_id, ANN.id, guild_id=GUILD))
    await thought_about(thinking)
    with pytest.raises(ServiceError) as refused:
        await asyncio.wait_for(hints.review(second.game_id, ANN.id, guild_id=GUILD), 2)
    assert refused.value.key == "review.yours_first"
    # the same review asked again shares the one under way
    again = asyncio.create_task(hints.review(first.game_id, ANN.id, guild_id=GUILD))
    thinking.opened.set()
    assert await asking == await again
    assert (await hints.review(second.game_id, ANN.id, guild_id=GUILD)).complete


async def test_past_the_few_at_once_a_review_waits_its_turn_and_says_so(
    game: ServiceGame,
) -> None:
    table = await finished(game, ANN, BOB)
    thinking = QuickJudge(held=True)
    hints = desk_over(game, thinking, reviews=ReviewQueue(at_once=1))
    queued: list[tuple[str, int]] = []

    async def told(name: str, ahead: int) -> None:
        queued.append((name, ahead))

    ann = asyncio.create_task(
        hints.review(table.game_id, ANN.id, guild_id=GUILD, on_queued=lambda n: told("Ann", n))
    )
    await thought_about(thinking)
    bob = asyncio.create_task(
        hints.review(table.game_id, BOB.id, guild_id=GUILD, on_queued=lambda n: told("Bob", n))
    )
    await eventually(lambda: bool(queued), what="someone was told their review waits")
    assert queued == [("Bob", 1)], "Ann's went ahead at once; Bob was told he waits"
    judged_before_bob = len(thinking.judged)
    thinking.opened.set()
    await asyncio.gather(ann, bob)
    ann_review = ann.result()
    assert ann_review.complete and bob.result().complete
    # Bob's review thought only once Ann's was done
    assert len(thinking.judged) > judged_before_bob


async def test_a_full_queue_refuses_politely(game: ServiceGame) -> None:
    table = await finished(game, ANN, BOB)
    thinking = QuickJudge(held=True)
    hints = desk_over(game, thinking, reviews=ReviewQueue(at_once=1, waiting=0))
    ann = asyncio.create_task(hints.review(table.game_id, ANN.id, guild_id=GUILD))
    await thought_about(thinking)
    with pytest.raises(ServiceError) as refused:
        await hints.review(table.game_id, BOB.id, guild_id=GUILD)
    assert refused.value.key == "review.queue_full"
    thinking.opened.set()
    await ann


async def test_a_review_cut_short_goes_on_where_it_stopped(game: ServiceGame) -> None:
    table = await finished(game, ANN, BOB)
    thinking = QuickJudge()
    timing = Timing()
    hints = desk_over(game, thinking, timing)

    def out_of_time_after_three() -> None:
        if len(thinking.judged) == 3:
            timing.review_budget = 0.0

    thinking.after_judge = out_of_time_after_three
    cut = await hints.review(table.game_id, ANN.id, guild_id=GUILD)
    assert not cut.complete and cut.checked == 3
    timing.review_budget = 20.0
    whole = await hints.review(table.game_id, ANN.id, guild_id=GUILD)
    assert whole.complete
    seqs = [seq for _, seq in thinking.judged]
    assert len(seqs) == len(set(seqs)) == whole.checked, "the first three were judged again"
