"""The hint desk: refusals, one search shared by everyone asking at once, kept answers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from bot.service import ServiceError, Timing
from bot.service.play.registry import TableRegistry
from bot.service.play.table import Seat, Status, Table
from bot.service.thinking.hints import HintDesk
from bot.service.thinking.pool import Thinking
from data import Store
from game import Card, Match, Ruleset
from testkit.deals import whole_deal
from testkit.service_game import eventually, people, stored_game

T = TypeVar("T")
ANN, BOB = people("Ann", "Bob")


class HeldThinking(Thinking):
    """Thinks in a thread, counting its searches, each held until ``opened``."""

    def __init__(self) -> None:
        super().__init__(workers=0)
        self.searches = 0
        self.opened = asyncio.Event()

    async def run(self, work: Callable[..., T], *args: Any, **options: Any) -> T:
        self.searches += 1
        await self.opened.wait()
        return await super().run(work, *args, **options)


async def running(store: Store, hints: bool = True, channel_id: int = 50) -> Table:
    seats = [Seat(ANN.id, None, "Ann"), Seat(BOB.id, None, "Bob")]
    game_id = await stored_game(store, seats, guild_id=9, channel_id=channel_id, ruleset=Ruleset())
    table = Table(game_id, 9, channel_id, ANN.id, Ruleset(), 0, "en", seats, status=Status.RUNNING)
    table.hints = hints
    table.match = Match(Ruleset(), 2)
    deal = whole_deal([[Card.ONE, Card.TWO, Card.FIVE], [Card.SIX] * 3], Card.ONE, starter=0)
    table.match.start_round(deal(table.match))
    return table


def desk(
    store: Store, *tables: Table, timing: Timing | None = None
) -> tuple[HintDesk, HeldThinking]:
    registry = TableRegistry()
    for table in tables:
        registry.register(table)
    thinking = HeldThinking()
    return HintDesk(registry, store, thinking, timing=timing), thinking


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_everyone_asking_at_once_shares_one_search_and_it_is_kept(store: Store) -> None:
    table = await running(store)
    hints, thinking = desk(store, table)
    asking = [asyncio.create_task(hints.hint(table, ANN.id)) for _ in range(5)]
    # The askers start in order, and each asks the desk at once (no wait before it): by
    # the time the first's search runs, all five share it.
    await eventually(lambda: thinking.searches == 1, what="the search is under way")
    assert not any(ask.done() for ask in asking)
    thinking.opened.set()
    answers = await asyncio.gather(*asking)
    assert thinking.searches == 1
    assert all(a is answers[0] for a in answers)
    assert await hints.hint(table, ANN.id) is answers[0]  # kept: no new search
    assert thinking.searches == 1


@pytest.mark.parametrize(
    ("user", "hints_on", "key"),
    [
        (BOB.id, True, "hint.not_your_turn"),
        (999, True, "error.not_a_player"),
        (ANN.id, False, "hint.off"),
    ],
)
async def test_hint_refusals(store: Store, user: int, hints_on: bool, key: str) -> None:
    table = await running(store, hints=hints_on)
    hints, _ = desk(store, table)
    with pytest.raises(ServiceError) as refused:
        await hints.hint(table, user)
    assert refused.value.key == key


@pytest.mark.slow  # over a quarter second on a quiet machine
async def test_a_hint_is_stored_before_it_is_shown_and_not_shown_unstored(
    store: Store,
) -> None:
    table = await running(store)
    hints, thinking = desk(store, table)
    thinking.opened.set()
    hint = await hints.hint(table, ANN.id)
    advised = await store.hints.hints_of(table.game_id, 0)
    assert advised == {table.stamp: {hint.advice.choice}}
    other = await running(store, channel_id=51)
    other.game_id = 999  # a table whose game is not stored: no hint of it can be
    hints, thinking = desk(store, other)
    thinking.opened.set()
    with pytest.raises(ServiceError) as refused:
        await hints.hint(other, ANN.id)
    assert refused.value.key == "hint.not_saved"


async def test_no_hint_for_a_game_not_running(store: Store) -> None:
    hints, _ = desk(store)
    with pytest.raises(ServiceError) as refused:
        hints.hint_view(None, ANN.id)
    assert refused.value.key == "hint.no_game"


async def test_a_shutdown_cuts_a_long_search_short_and_refuses_new_ones(
    store: Store,
) -> None:
    table = await running(store)
    hints, thinking = desk(store, table, timing=Timing(answer_grace=0.01))
    asking = asyncio.create_task(hints.hint(table, ANN.id))
    await eventually(lambda: thinking.searches == 1, what="the search is under way")
    await hints.close()  # the search never gets through: held
    assert hints.closing
    with pytest.raises(ServiceError) as refused:
        await asking
    assert refused.value.key == "error.restarting"
    with pytest.raises(ServiceError) as refused:
        await hints.hint(table, ANN.id)
    assert refused.value.key == "error.restarting"


async def test_a_review_is_only_of_a_finished_game(store: Store) -> None:
    table = await running(store)
    hints, _ = desk(store, table)
    with pytest.raises(ServiceError) as refused:
        await hints.review(table.game_id, ANN.id, guild_id=9)
    assert refused.value.key == "review.not_finished"
