"""Hard thinks in the pause its seat waits: more than today's work on an idle pool,
today's work when other work waits, by the end of the pause, and the same move
for the same work (real worker processes)."""

from __future__ import annotations

import asyncio
import time

from bot.service import Timing
from bot.service.play.moves import MoveOutcome
from bot.service.play.scheduler import Scheduler
from bot.service.play.table import Seat, Status, Table
from bot.service.thinking.ai_turns import AITurns
from bot.service.thinking.pool import Thinking
from bot.service.thinking.urgency import Urgency
from game import Action, Match, Ruleset, SeatView
from game.ai import NormalPlayer, Strength, choose
from game.ai.hard import candidates, replay, think
from testkit.arena import play_game
from testkit.service_game import ManualClock, eventually, settled


def floor_of(view: SeatView, seed: str) -> int:
    """The determinizations today's Hard does for ``view`` and ``seed``."""
    return think(view, seed, lambda search: False)[1]


def idle_of(view: SeatView, seed: str) -> int:
    """The determinizations Hard does with the idle work."""
    return think(view, seed, lambda search: True)[1]


GAME = 7  # the table's game id: AI seeds are "game id:move number"


def close_call_matches(count: int) -> list[Match]:
    """Games (4 Normal players) up to a move where the idle work searches on past today's."""
    ruleset = Ruleset()
    events = play_game([NormalPlayer()] * 4, ruleset, "anytime").events
    found: list[Match] = []
    for k in range(len(events)):
        match = Match.replay(ruleset, 4, events[:k])
        if not match.in_round or match.to_move is None:
            continue
        view, seed = match.view(match.to_move), f"{GAME}:{k}"
        if len(candidates(view)) > 1 and idle_of(view, seed) > floor_of(view, seed):
            found.append(match)
            if len(found) == count:
                return found
    raise AssertionError("no close call in the game")


def close_calls(count: int) -> list[tuple[SeatView, str]]:
    """Views and seeds where the idle work searches on past today's."""
    out = []
    for match in close_call_matches(count):
        assert match.to_move is not None
        out.append((match.view(match.to_move), f"{GAME}:{len(match.events)}"))
    return out


async def test_an_idle_pool_searches_past_todays_work_up_to_the_idle_work(
    pool: Thinking,
) -> None:
    """A pause longer than the idle work takes on the busiest machine: the search runs to
    the idle work and answers then. (How soon after a short pause it answers is a speed
    goal: benchmarks.ai_anytime prints it, late p50/p99/max, goal p99 under 50 ms.)"""
    ((view, seed),) = close_calls(1)
    deadline = time.monotonic() + 3600.0
    action, done = await pool.think_in_pause(view, Strength.HARD, seed, deadline)
    assert done == idle_of(view, seed) > floor_of(view, seed)  # more than today's Hard
    assert replay(view, seed, done) == action  # the same work gives the same move


async def test_work_waiting_for_the_worker_holds_a_search_to_todays_work(
    pool: Thinking,
) -> None:
    (first, first_seed), (second, second_seed) = close_calls(2)
    deadline = time.monotonic() + 5.0  # time enough for the idle work
    running = asyncio.ensure_future(pool.think_in_pause(first, Strength.HARD, first_seed, deadline))
    await asyncio.sleep(0)  # the first has the worker
    waiting = asyncio.ensure_future(
        pool.think_in_pause(second, Strength.HARD, second_seed, deadline)
    )
    (action, done), (_, later) = await asyncio.gather(running, waiting)
    assert done == floor_of(first, first_seed)  # stopped at the floor: another move waited
    assert action == replay(first, first_seed, done)
    assert later > floor_of(second, second_seed)  # nothing waited for the second


async def test_a_hint_waiting_holds_a_move_to_todays_work(pool: Thinking) -> None:
    ((view, seed),) = close_calls(1)
    deadline = time.monotonic() + 5.0
    move = asyncio.ensure_future(pool.think_in_pause(view, Strength.HARD, seed, deadline))
    await asyncio.sleep(0)
    hint = asyncio.ensure_future(
        pool.run(choose, view, Strength.NORMAL, 0, priority=Urgency.HINT)  # any work will do
    )
    (_, done), _ = await asyncio.gather(move, hint)
    assert done == floor_of(view, seed)


async def test_a_pause_already_over_gets_todays_move(pool: Thinking) -> None:
    ((view, seed),) = close_calls(1)
    action, done = await pool.think_in_pause(view, Strength.HARD, seed, time.monotonic())
    assert done == floor_of(view, seed)
    assert action == think(view, seed, lambda search: False)[0]


async def test_a_hard_seat_moves_with_what_it_thought_in_its_pause(pool: Thinking) -> None:
    """The pause is long on the service's clock (moved by hand, so a loaded machine can't
    cut it short): the search thinks on to the idle work and the seat moves with it, once
    the pause is over."""
    pause = 3600.0
    (match,) = close_call_matches(1)
    seat = match.to_move
    assert seat is not None
    view, seed = match.view(seat), f"{GAME}:{len(match.events)}"
    clock = ManualClock()
    moved: list[tuple[Action, float]] = []

    async def apply(table: Table, seat: int, action: Action) -> MoveOutcome:
        moved.append((action, clock()))
        return MoveOutcome(table, seat, (), ())

    async def after_change(table: Table) -> None:
        return None

    # a table whose Hard seat is where the close call was
    seats = [Seat(i + 1, None, f"P{i}") for i in range(view.players)]
    seats[seat] = Seat(None, Strength.HARD, "AI")
    table = Table(GAME, 9, 50, 1, view.ruleset, 0, "en", seats, status=Status.RUNNING)
    table.match = match
    scheduler = Scheduler(clock, sleep=clock.sleep)
    turns = AITurns(
        scheduler,
        clock,
        pool,
        apply=apply,
        after_change=after_change,
        timing=Timing(ai_delay=pause),
    )
    began = clock()
    turns.schedule(table)
    await settled(clock)  # its thinking done, its pause not yet over
    assert not moved  # not before its pause is over
    clock.advance(pause)
    await eventually(lambda: bool(moved), what="the Hard seat moved")
    ((action, at),) = moved
    (done,) = turns.searched[GAME]
    assert done == idle_of(view, seed) > floor_of(view, seed)  # it used the pause
    assert action == replay(view, seed, done)
    assert at - began == pause  # when its pause is over (how soon: benchmarks.ai_anytime)
    await scheduler.close()
