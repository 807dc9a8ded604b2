"""Hard's resumable search: today's moves at today's work, and the anytime search
between that floor and the idle work, whose move depends on the work done only."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from game import Ruleset, SeatView
from game.ai import HardParams, HardPlayer, NormalPlayer
from game.ai.hard import candidates, replay, think
from game.ai.search import IDLE_FACTOR, Search
from testkit.arena import play_game

RULESETS = {
    "gold-2": (2, Ruleset()),
    "gold-4": (4, Ruleset()),
    "gold-6": (6, Ruleset()),
    "gold-all": (4, Ruleset(no_drama=True, party=True, komarami=True)),
}

#: The moves Hard made on these positions before its search became resumable
#: (main at 6cd5528, ``HardPlayer().decide``): today's Hard must not change.
TODAYS_MOVES = {
    "gold-2": (
        "play_5 draw draw play_1 play_3 draw quit play_Llama draw draw quit draw play_6 "
        "play_6 quit quit quit draw draw quit draw quit play_3 play_4 draw draw play_1 "
        "play_2 play_4 quit play_4 quit quit play_2 quit quit play_3 play_4 quit draw"
    ),
    "gold-4": (
        "play_Llama draw play_6 play_6 draw play_6 quit draw play_4 quit play_5 draw "
        "play_3 draw draw draw draw play_6 play_6 quit play_6 draw quit quit draw play_2 "
        "play_5 play_2 quit draw draw draw play_1"
    ),
    "gold-6": (
        "draw play_1 play_4 play_6 quit draw quit play_4 play_4 draw play_2 quit quit "
        "draw quit quit play_4 play_Llama play_1 draw draw draw draw draw draw play_5 "
        "draw quit play_2 play_4 play_2 draw quit"
    ),
    "gold-all": (
        "play_2 play_3+ play_5 play_5 play_1+ play_1 play_1 quit draw play_2 play_4 "
        "play_6 quit draw play_1 draw draw play_Llama draw play_1 draw play_5 play_6 draw "
        "draw draw draw draw draw play_1 play_1 play_2 play_5 play_4 quit quit "
        "play_Pink_Llama play_1 play_1+ draw"
    ),
}


def views(seed: str, every: int = 3) -> list[SeatView]:
    """Positions with a choice to make, from a seeded game between Normal players."""
    players, ruleset = RULESETS[seed]
    out: list[SeatView] = []

    def record(seat: int, view: SeatView) -> None:
        if len(candidates(view)) > 1:
            out.append(view)

    play_game([NormalPlayer()] * players, ruleset, seed, on_decision=record)
    return out[::every][:40]


@pytest.mark.slow  # Hard's whole search on 40 positions a ruleset
@pytest.mark.parametrize("seed", list(TODAYS_MOVES))
def test_hard_makes_todays_moves_at_todays_work(seed: str) -> None:
    hard = HardPlayer()
    moves = [
        str(hard.decide(view, random.Random(f"{seed}:{i}"))).replace(" ", "_")
        for i, view in enumerate(views(seed))
    ]
    assert " ".join(moves) == TODAYS_MOVES[seed]


def test_the_idle_work_is_four_times_todays() -> None:
    today, idle = HardParams(), HardParams.idle()
    assert IDLE_FACTOR == 4
    for players in range(2, 7):
        samples, work = today.limits(players)
        assert idle.limits(players) == (4 * samples, 4 * work)
    # only the work differs: the idle Hard scores and reads as today's
    assert idle.stop_z == today.stop_z and idle.read_total == today.read_total


@pytest.mark.slow  # Hard's search, twice a position
def test_an_anytime_search_stopped_at_its_floor_makes_todays_move() -> None:
    hard = HardPlayer()
    for i, view in enumerate(views("gold-4", every=4)):
        seed = f"floor:{i}"
        move, done = think(view, seed, lambda search: False)
        assert move == hard.decide(view, random.Random(seed))
        floor = hard.search(view, candidates(view), random.Random(seed))
        floor.run()
        assert done == floor.done  # exactly today's determinizations, none more


@pytest.mark.slow  # Hard's idle search (4x today's work)
def test_an_anytime_search_left_to_run_makes_the_idle_move_with_more_work() -> None:
    idle = HardPlayer(HardParams.idle())
    more = 0
    for i, view in enumerate(views("gold-6", every=4)):
        seed = f"idle:{i}"
        _, floor = think(view, seed, lambda search: False)
        move, done = think(view, seed, lambda search: True)
        assert move == idle.decide(view, random.Random(seed))
        assert done >= floor
        more += done > floor
    assert more > 0  # close calls search on past today's work


@pytest.mark.slow  # Hard's search, twice a position
def test_the_same_work_gives_the_same_move() -> None:
    for i, view in enumerate(views("gold-all", every=4)):
        seed = f"replay:{i}"
        asked = iter(range(random.Random(i).randrange(1, 12)))

        def keep_going(search: Search, asked: Iterator[int] = asked) -> bool:
            return next(asked, None) is not None

        move, done = think(view, seed, keep_going)
        assert replay(view, seed, done) == move

        def as_far(search: Search, done: int = done) -> bool:
            return search.done < done

        again, _ = think(view, seed, as_far)
        assert again == move


@pytest.mark.slow  # Hard's idle search
def test_a_clear_choice_stops_before_the_idle_work() -> None:
    stops = []
    for i, view in enumerate(views("gold-2", every=2)):
        _, done = think(view, f"clear:{i}", lambda search: True)
        stops.append(done)
    samples, _ = HardParams.idle().limits(2)
    assert min(stops) < samples // 4  # clear decisions end early, even with time to spare
