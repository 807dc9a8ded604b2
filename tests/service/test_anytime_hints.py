"""Hints and reviews search anytime: more than today's work on an idle machine,
today's work when an AI move (or for a review, a hint) waits, a hint answered
within its limit, and the same answer for the same work (real worker processes)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from bot.service import Timing
from bot.service.play.registry import TableRegistry
from bot.service.play.table import Seat, Status, Table
from bot.service.thinking.hints import HintDesk
from bot.service.thinking.pool import Thinking
from bot.service.thinking.urgency import Urgency
from data import Store
from game import Match, Ruleset, SeatView
from game.ai import NormalPlayer, Strength
from game.ai.advice import replay_advice, replay_judge, think_advice, think_judge
from game.ai.search import Search
from testkit.arena import play_game
from testkit.service_game import people, stored_game

PEOPLE = people("Ann", "Bob", "Cat", "Dan")
#: A deadline far enough off for the work's ceiling, not the clock, to end a search that
#: nothing stops, on a loaded machine too (the reviews' process runs at nice 19).
ROOM = 120.0


def hold_until(path: str, limit: float) -> None:
    """Keep a worker busy until ``path`` exists (the test lets it go), ``limit`` at most."""
    ends = time.monotonic() + limit
    while not os.path.exists(path) and time.monotonic() < ends:
        time.sleep(0.01)


def never(search: Search) -> bool:
    return False


def hint_matches(count: int) -> list[Match]:
    """Games (4 Normal players) up to a move where the player to move has a choice."""
    ruleset = Ruleset()
    events = play_game([NormalPlayer()] * 4, ruleset, "anytime-hints").events
    found: list[Match] = []
    for k in range(0, len(events), 5):
        match = Match.replay(ruleset, 4, events[:k])
        seat = match.to_move
        if match.in_round and seat is not None and len(match.view(seat).legal) > 1:
            found.append(match)
            if len(found) == count:
                return found
    raise AssertionError("no choice in the game")


def hint_views(count: int) -> list[SeatView]:
    out = []
    for match in hint_matches(count):
        assert match.to_move is not None
        out.append(match.view(match.to_move))
    return out


def floor_of(view: SeatView) -> int:
    """The determinizations today's hint's estimates do."""
    return think_advice(view, never)[1]


def judged_floor(view: SeatView) -> int:
    return think_judge(1, view, view.legal[0], never)[1]


async def test_an_idle_pool_gives_a_hint_more_than_todays_work(pool: Thinking) -> None:
    (view,) = hint_views(1)
    advice, done = await pool.hint(view, time.monotonic() + ROOM)  # time for the ceiling
    floor = floor_of(view)
    assert done > floor  # more than today's hint
    assert replay_advice(view, done) == advice  # the same work gives the same hint


async def test_a_move_waiting_holds_a_hint_to_todays_work(pool: Thinking) -> None:
    view, other = hint_views(2)
    deadline = time.monotonic() + ROOM
    hint = asyncio.ensure_future(pool.hint(view, deadline))
    await asyncio.sleep(0)  # the hint has the worker
    move = asyncio.ensure_future(pool.decide(other, Strength.HARD, "m"))
    (advice, done), _ = await asyncio.gather(hint, move)
    assert done == floor_of(view)  # stopped at the floor: an AI move waited
    assert advice == think_advice(view, never)[0]  # today's hint exactly


async def test_a_hint_waiting_holds_another_to_todays_work(pool: Thinking) -> None:
    first, second = hint_views(2)
    deadline = time.monotonic() + ROOM
    running = asyncio.ensure_future(pool.hint(first, deadline))
    await asyncio.sleep(0)
    waiting = asyncio.ensure_future(pool.hint(second, deadline))
    (_, done), (_, later) = await asyncio.gather(running, waiting)
    assert done == floor_of(first)
    assert later > floor_of(second)  # nothing waited for the second


async def test_reviews_waiting_hold_no_hint_back(pool: Thinking, tmp_path: Path) -> None:
    """Reviews think in their own process: waiting for it, they take no worker."""
    (view,) = hint_views(1)
    await pool.run(int, priority=Urgency.REVIEW)  # the reviews' process is up
    let_go = str(tmp_path / "let-go")
    busy = asyncio.ensure_future(pool.run(hold_until, let_go, ROOM, priority=Urgency.REVIEW))
    await asyncio.sleep(0)
    queued = asyncio.ensure_future(pool.run(int, priority=Urgency.REVIEW))
    await asyncio.sleep(0)
    assert pool.waiting()["review"] == 1
    _, done = await pool.hint(view, time.monotonic() + ROOM)
    assert pool.waiting()["review"] == 1, "the review waited all along"
    assert done > floor_of(view)
    Path(let_go).touch()
    await asyncio.gather(busy, queued)


async def test_an_idle_machine_gives_a_review_decision_more_than_todays_work(
    pool: Thinking,
) -> None:
    (view,) = hint_views(1)
    played = view.legal[0]
    await pool.run(int, priority=Urgency.REVIEW)  # the reviews' process is up
    decision, done = await pool.judge(1, view, played, time.monotonic() + ROOM)
    assert done > judged_floor(view)
    assert replay_judge(1, view, played, done) == decision


async def test_a_hint_waiting_holds_a_review_decision_to_todays_work(
    pool: Thinking, tmp_path: Path
) -> None:
    view, other = hint_views(2)
    await pool.run(int, priority=Urgency.REVIEW)  # the reviews' process is up
    let_go = str(tmp_path / "let-go")
    busy = asyncio.ensure_future(pool.run(hold_until, let_go, ROOM, priority=Urgency.MOVE))
    await asyncio.sleep(0)  # the worker is taken until the test lets it go
    hint = asyncio.ensure_future(pool.hint(other, time.monotonic() + ROOM))
    await asyncio.sleep(0)
    assert pool.waiting()["hint"] == 1
    decision, done = await pool.judge(1, view, view.legal[0], time.monotonic() + ROOM)
    assert not hint.done()  # it waited all along
    assert done == judged_floor(view)  # stopped at the floor: a hint waited
    assert decision == think_judge(1, view, view.legal[0], never)[0]
    Path(let_go).touch()
    await asyncio.gather(busy, hint)


@pytest.mark.parametrize("hint_time", [0.0, ROOM])
async def test_a_hint_asked_at_the_desk_thinks_past_todays_work_only_within_its_time(
    pool: Thinking, store: Store, hint_time: float
) -> None:
    (match,) = hint_matches(1)
    seat = match.to_move
    assert seat is not None
    seats = [Seat(p.id, None, p.name) for p in PEOPLE]
    game_id = await stored_game(store, seats, guild_id=9, channel_id=50, ruleset=Ruleset())
    table = Table(game_id, 9, 50, PEOPLE[0].id, Ruleset(), 0, "en", seats, status=Status.RUNNING)
    table.hints = True
    table.match = match
    registry = TableRegistry()
    registry.register(table)
    desk = HintDesk(registry, store, pool, timing=Timing(hint_time=hint_time))
    hint = await desk.hint(table, PEOPLE[seat].id)
    view = match.view(seat)
    assert hint.view == view
    if hint_time == 0.0:  # no time past today's work: today's hint exactly
        assert hint.searched == floor_of(view)
        assert hint.advice == think_advice(view, never)[0]
    else:  # an idle pool and time to spare: more
        assert hint.searched > floor_of(view)
    assert replay_advice(view, hint.searched) == hint.advice


async def test_a_hint_thought_again_after_its_worker_died_still_gives_way_to_a_move(
    pool: Thinking,
) -> None:
    """A worker killed under a hint: the hint is thought again in a thread, and there too
    an AI move waiting holds it to today's work (the table is not kept waiting longer)."""
    view, other = hint_views(2)
    worker = await pool.run(os.getpid)
    hint = asyncio.ensure_future(pool.hint(view, time.monotonic() + ROOM))
    await asyncio.sleep(0)  # the hint has the worker
    move = asyncio.ensure_future(pool.decide(other, Strength.HARD, "m"))
    await asyncio.sleep(0)
    assert pool.waiting()["move"] == 1
    os.kill(worker, signal.SIGKILL)
    (advice, done), _ = await asyncio.gather(hint, move)
    assert done == floor_of(view), "stopped at the floor: an AI move waited"
    assert advice == think_advice(view, never)[0]
