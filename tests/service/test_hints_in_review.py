"""A move made as a hint advised it is never a mistake in the game's review.

Hints and reviews search anytime: a hint up to 3x today's work, a review's decision
up to 4x, so in a close call the two may judge otherwise.  Here the hints think to
their ceiling or stop at today's work as the test sets ``Timing.hint_time``, and the
review's decisions stop at today's work (``review_decision_time`` 0): at the moment
:data:`MOMENT` the two differ.  Everywhere else Ann does what today's hint says,
which today's review agrees with, so the only decision a review could list is the
one at :data:`MOMENT`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.service import Timing
from bot.service.play.table import Status, Table
from bot.service.thinking.hints import made_for
from game import Action, Ruleset
from game.ai.advice import Review, advise, costliest, think_advice
from testkit.service_game import GUILD, ManualClock, ServiceGame, people

ANN, BOB, CAT, DAN = PEOPLE = people("Ann", "Bob", "Cat", "Dan")
RULES = Ruleset(threshold=3)  # a round or two
#: The stamp of the table (Ann to move, her 7th decision) where her hint thought to
#: its ceiling advises another move than today's work, found by playing the game below
#: and comparing at each of her decisions.  The tests check that it still does.
MOMENT = 26
#: Far enough off for the work's ceiling, not the clock, to end the hint's search.
ROOM = 120.0


@pytest_asyncio.fixture
async def game(tmp_path: Path, clock: ManualClock) -> AsyncIterator[ServiceGame]:
    timing = Timing(ai_delay=0.0, hint_time=0.0, review_decision_time=0.0, review_budget=ROOM)
    opened = await ServiceGame.open(tmp_path / "game.db", clock=clock, timing=timing)
    try:
        yield opened
    finally:
        await opened.close()


async def hint_at(game: ServiceGame, table: Table, *, ceiling: bool) -> Action:
    """Ann asks for a hint now, thought to its ceiling or stopped at today's work."""
    game.service.timing.hint_time = ROOM if ceiling else 0.0
    try:
        return (await game.service.hints.hint(table, ANN.id)).advice.choice
    finally:
        game.service.timing.hint_time = 0.0


async def play(game: ServiceGame, *, at_the_moment: bool) -> tuple[Table, Action, Action]:
    """The game, Ann asking for a hint at every decision of hers and doing as it says,
    except at :data:`MOMENT`: there she plays what a hint thought to its ceiling advises,
    after a hint thought so (``at_the_moment``) or one of today's work (not followed).

    Returns the table, and the moves advised at the moment to its ceiling and today."""
    table = await game.lobby(PEOPLE, ruleset=RULES)
    furthest = today = None
    while table.status is Status.RUNNING:
        seat = table.to_move
        assert seat is not None and table.match is not None
        view = table.match.view(seat)
        if seat != 0 or len(view.legal) == 1:
            await game.play(table)
            continue
        if table.stamp == MOMENT:
            today = advise(view).choice
            if at_the_moment:
                furthest = await hint_at(game, table, ceiling=True)
            else:
                assert await hint_at(game, table, ceiling=False) == today
                furthest = think_advice(view, lambda _: True)[0].choice
            move = furthest
        else:
            move = await hint_at(game, table, ceiling=False)
        await game.service.moves.move(table, ANN.id, move, table.stamp)
    assert furthest is not None and today is not None, "the game never came to the moment"
    assert furthest != today, "the hint to its ceiling and today's no longer differ there"
    return table, furthest, today


async def review_of(game: ServiceGame, table: Table) -> Review:
    return await game.service.hints.review(table.game_id, ANN.id, guild_id=GUILD)


@pytest.mark.slow  # a whole game's review at today's work
async def test_a_move_made_as_its_hint_advised_is_no_mistake_in_the_review(
    game: ServiceGame,
) -> None:
    table, advised, _ = await play(game, at_the_moment=True)
    review = await review_of(game, table)
    blamed = [d for d in review.decisions if d.seq == MOMENT]
    assert not blamed, f"the review blames the move the hint advised ({advised}): {blamed}"
    assert review.complete and review.decisions == ()


@pytest.mark.slow  # a whole game's review at today's work
async def test_a_hint_not_followed_leaves_the_review_as_it_was(game: ServiceGame) -> None:
    table, played, advised = await play(game, at_the_moment=False)
    review = await review_of(game, table)
    record = await game.store.games.load_game(table.game_id)
    assert record is not None
    unhinted = costliest(
        record.ruleset, len(record.seats), record.events, 0, skip=made_for(record, 0)
    )
    assert review.decisions == unhinted.decisions
    assert [(d.seq, d.played, d.better) for d in review.decisions] == [(MOMENT, played, advised)]
