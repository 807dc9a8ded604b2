"""Hard thinks in worker processes: the same moves as in-process, and a clean stop."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bot.config import ConfigError, Settings
from bot.service.thinking.pool import Thinking
from bot.service.thinking.urgency import Urgency
from bot.service.timing import Timing
from game import Ruleset, SeatView
from game.ai import EasyPlayer, NormalPlayer, Player, Strength, choose
from game.ai.hard import candidates
from testkit.arena import play_game
from testkit.service_game import ServiceGame, eventually
from tests.process.cli import TOKEN
from tests.service.test_anytime_hints import hold_until


def hard_positions(count: int) -> list[SeatView]:
    """Views in which Hard has a real choice, from a game of Normal and Easy players."""
    views: list[SeatView] = []
    lineup: list[Player] = [NormalPlayer(), EasyPlayer(), NormalPlayer()]
    play_game(lineup, Ruleset(no_drama=True), "thinking", on_decision=lambda s, v: views.append(v))
    chosen = [v for v in views if len(candidates(v)) > 1][:count]
    assert len(chosen) == count
    return chosen


@pytest.mark.slow  # real worker processes
async def test_the_pool_decides_as_in_process() -> None:
    views = hard_positions(6)
    thinking = Thinking(workers=2)
    try:
        # all at once, as many tables would ask
        moves = await asyncio.gather(
            *(thinking.decide(v, Strength.HARD, f"seed:{i}") for i, v in enumerate(views))
        )
        assert moves == [choose(v, Strength.HARD, f"seed:{i}") for i, v in enumerate(views)]
        assert all(m in v.legal for m, v in zip(moves, views, strict=True))
        for strength in (Strength.EASY, Strength.NORMAL):
            assert await thinking.decide(views[0], strength, 1) == choose(views[0], strength, 1)
    finally:
        await thinking.close()


@pytest.mark.slow  # real worker processes
async def test_closing_the_pool_leaves_no_process() -> None:
    before = set(multiprocessing.active_children())
    thinking = Thinking(workers=2)
    await thinking.start()
    workers = [p for p in multiprocessing.active_children() if p not in before]
    assert len(workers) == 2 and all(p.is_alive() for p in workers)
    await thinking.close()
    assert not any(p.is_alive() for p in workers)
    assert not set(multiprocessing.active_children()) - before
    with pytest.raises(RuntimeError):
        await thinking.decide(hard_positions(1)[0], Strength.HARD, 0)


@pytest.mark.slow  # real worker processes
async def test_closing_while_the_workers_start_leaves_no_process() -> None:
    before = set(multiprocessing.active_children())
    thinking = Thinking(workers=2)
    thinking.prepare()  # as a Hard seat added to a lobby does, right before a shutdown
    await thinking.close()
    assert not set(multiprocessing.active_children()) - before
    thinking.prepare()  # and a closed pool starts nothing again
    assert not set(multiprocessing.active_children()) - before


@pytest.mark.slow  # real worker processes
async def test_a_killed_worker_costs_no_move() -> None:
    view, later = hard_positions(2)
    before = set(multiprocessing.active_children())
    thinking = Thinking(workers=1)
    try:
        await thinking.start()
        (worker,) = [p for p in multiprocessing.active_children() if p not in before]
        assert worker.pid is not None
        os.kill(worker.pid, signal.SIGKILL)
        worker.join()
        assert await thinking.decide(view, Strength.HARD, "k") == choose(view, Strength.HARD, "k")
        # A fresh worker is up for the next move before that move is asked for,
        (fresh,) = [p for p in multiprocessing.active_children() if p not in before]
        assert fresh.pid != worker.pid and fresh.is_alive()
        # and the next move is thought in it, not in yet another one.
        assert await thinking.decide(later, Strength.HARD, "k") == choose(later, Strength.HARD, "k")
        assert [p for p in multiprocessing.active_children() if p not in before] == [fresh]
    finally:
        await thinking.close()
    assert not set(multiprocessing.active_children()) - before


async def test_in_a_thread_without_workers() -> None:
    view = hard_positions(1)[0]
    before = set(multiprocessing.active_children())
    thinking = Thinking(workers=0)
    assert await thinking.decide(view, Strength.HARD, 3) == choose(view, Strength.HARD, 3)
    assert not set(multiprocessing.active_children()) - before
    await thinking.close()


def test_ai_workers_setting() -> None:
    env = {"DISCORD_TOKEN": TOKEN}
    assert Settings.from_env(env).ai_workers == max(1, (os.cpu_count() or 1) - 1)
    assert Settings.from_env({**env, "AI_WORKERS": "3"}).ai_workers == 3
    for bad in ("0", "-1", "two", "65"):
        with pytest.raises(ConfigError, match="AI_WORKERS"):
            Settings.from_env({**env, "AI_WORKERS": bad})


@pytest.mark.slow  # real worker processes
async def test_a_move_goes_ahead_of_a_hint_asked_for_before_it() -> None:
    """With the one worker busy, a hint asked for and then another table's Hard move:
    the move is thought first."""
    from game.ai.advice import advise

    view, other = hard_positions(2)
    thinking = Thinking(workers=1)
    try:
        await thinking.start()
        busy = asyncio.ensure_future(thinking.run(time.sleep, 0.5))
        await asyncio.sleep(0)  # it takes the one place at the gate (at once: it is free)
        done: list[str] = []

        async def noted(name: str, thought: Any) -> None:
            await thought
            done.append(name)

        await asyncio.gather(
            busy,
            noted("hint", thinking.run(advise, view)),
            noted("move", thinking.decide(other, Strength.HARD, "m")),
        )
        assert done == ["move", "hint"]
    finally:
        await thinking.close()


#: The longest the AI moves' worker is held: only a guard, should the test fail to let it go.
HELD = 600.0


@pytest.mark.slow  # the AI's real worker processes
async def test_a_review_waits_for_no_move_and_no_move_for_a_review(
    game: ServiceGame, tmp_path: Path
) -> None:
    """The worker of the AI moves is busy: a review goes on all the same, beside it.
    The worker is held until the review is in (a review that waited for it would wait
    for ever, and the test's timeout tell), not for a time a busy machine may outlast."""
    from bot.service.play.registry import TableRegistry
    from bot.service.thinking.hints import HintDesk
    from testkit.service_game import GUILD, people

    ann, bob = people("Ann", "Bob")
    table = await game.lobby([ann, bob])
    await game.play_out(table)
    thinking = Thinking(workers=1)
    try:
        await thinking.start()
        hints = HintDesk(
            TableRegistry(), game.store, thinking, timing=Timing(review_budget=0.05)
        )  # a decision or two
        released = tmp_path / "let-go"
        busy = asyncio.ensure_future(thinking.run(hold_until, str(released), HELD))
        await asyncio.sleep(0)  # it takes the one place at the gate (at once: it is free)
        try:
            review = await hints.review(table.game_id, ann.id, guild_id=GUILD)
            assert review.checked >= 1
            assert not busy.done(), "the review waited for the AI moves' worker"
        finally:
            released.touch()
        await busy
    finally:
        await thinking.close()


def held_work(began: list[str], through: threading.Event, name: str) -> str:
    """Work for the AI's thread that notes it began, then waits to be let through."""
    began.append(name)
    through.wait()
    return name


async def test_one_person_with_many_hard_tables_waits_their_turn_with_others() -> None:
    """One person's twenty tables of Hard seats ask for moves back to back: another
    person's move, and even their hint, is thought after the first of those, not after
    all of them."""
    thinking = Thinking(workers=0)  # one place: a thread
    began: list[str] = []
    through = threading.Event()
    hog, other = 1, 2

    def asked(name: str, owner: int, priority: Urgency) -> asyncio.Future[str]:
        return asyncio.ensure_future(
            thinking.run(held_work, began, through, name, priority=priority, owner=owner)
        )

    try:
        hogs = [asked(f"hog {n}", hog, Urgency.MOVE) for n in range(4)]
        await eventually(lambda: began == ["hog 0"])
        others = [asked("other's hint", other, Urgency.HINT)]
        others.append(asked("other's move", other, Urgency.MOVE))
        for _ in range(5):
            await asyncio.sleep(0)  # all of them at the gate
        through.set()
        await asyncio.gather(*hogs, *others)
        assert began[:3] == ["hog 0", "other's hint", "hog 1"], began
        assert began.index("other's move") < began.index("hog 3")
    finally:
        through.set()
        await thinking.close()
