"""Hints and reviews anytime: today's answer at today's work, more work when let go
on, and the same answer for the same work."""

from __future__ import annotations

import hashlib
import random

import pytest

from game import Ruleset, SeatView
from game.ai import HardParams, NormalPlayer
from game.ai.advice import (
    HINT_FACTOR,
    REVIEW_FACTOR,
    advise,
    replay_advice,
    replay_judge,
    think_advice,
    think_judge,
    think_weigh,
    view_seed,
    weigh,
)
from game.ai.search import KeepGoing, Search
from testkit.arena import play_game

RULESETS = {
    "hint-2": (2, Ruleset()),
    "hint-4": (4, Ruleset()),
    "hint-all": (5, Ruleset(no_drama=True, party=True, komarami=True)),
}

#: Hints and reviews' weighing on these views before they became anytime (main at
#: a4f32d9, ``advise(view)`` and ``weigh(view, view_seed(view))``): the moves, and a
#: digest of every figure, which must not change at today's work.
TODAYS = {
    "hint-2": ("play_3 play_6 quit play_5", "535e9c97f7a32538", "029a72b1e57581c6"),
    "hint-4": ("play_5 play_Llama play_2 quit", "346db27a103206dd", "54afcda22de7f5dd"),
    "hint-all": ("play_Llama play_1 play_6 play_2", "883778fee6c42e87", "660543e96d97141c"),
}


def views(name: str) -> list[SeatView]:
    """Positions with a choice, from a seeded game between Normal players."""
    players, ruleset = RULESETS[name]
    out: list[SeatView] = []

    def record(seat: int, view: SeatView) -> None:
        if len(view.legal) > 1:
            out.append(view)

    play_game([NormalPlayer()] * players, ruleset, name, on_decision=record)
    return out[::7][:4]


def digest(answers: list[object]) -> str:
    found = hashlib.sha256()
    for answer in answers:
        found.update(repr(answer).encode())
    return found.hexdigest()[:16]


def never(search: Search) -> bool:
    return False


def always(search: Search) -> bool:
    return True


@pytest.mark.slow  # hints and reviews at today's whole work
@pytest.mark.parametrize("name", list(TODAYS))
def test_hints_and_reviews_stopped_at_their_floor_answer_as_today(name: str) -> None:
    moves, hinted, weighed = TODAYS[name]
    shown = views(name)
    today = [advise(view) for view in shown]
    assert " ".join(str(a.choice).replace(" ", "_") for a in today) == moves
    assert digest(today) == hinted
    assert digest([weigh(view, view_seed(view)) for view in shown]) == weighed
    # anytime, with room for more work but stopped at the floor: the same figures
    assert digest([think_advice(view, never)[0] for view in shown]) == hinted
    anytime = [think_weigh(view, view_seed(view), never) for view in shown]
    assert digest([(move, worths) for move, worths, _ in anytime]) == weighed


def test_the_ceilings_are_multiples_of_todays_work() -> None:
    today = HardParams()
    for factor in (HINT_FACTOR, REVIEW_FACTOR):
        assert 2 <= factor <= 4
        for players in range(2, 7):
            samples, work = today.limits(players)
            assert HardParams.times(factor).limits(players) == (factor * samples, factor * work)


@pytest.mark.slow  # a hint's whole ceiling of work
def test_a_hint_let_go_on_does_more_work_up_to_its_ceiling() -> None:
    ceiling = HardParams.times(HINT_FACTOR)
    for view in views("hint-4")[:3]:
        floor_advice, floor = think_advice(view, never)
        advice, done = think_advice(view, always)
        # the estimates play every move out to the end of their work: always more
        assert done > floor
        assert advice == advise(view, params=ceiling)  # the ceiling's advice, run to its end
        assert replay_advice(view, done) == advice
        assert replay_advice(view, floor) == floor_advice


def going_on(times: int) -> KeepGoing:
    """Goes on at the first ``times`` checkpoints past the floor, whichever search's."""
    asked = iter(range(times))
    return lambda search: next(asked, None) is not None


@pytest.mark.slow  # hints and judgements, twice each
def test_the_same_work_gives_the_same_hint_and_judgement() -> None:
    rng = random.Random(5)
    for view in views("hint-all")[:3]:
        advice, done = think_advice(view, going_on(rng.randrange(1, 10)))
        assert replay_advice(view, done) == advice
        played = view.legal[-1]
        judged, done = think_judge(7, view, played, going_on(rng.randrange(1, 10)))
        assert replay_judge(7, view, played, done) == judged
