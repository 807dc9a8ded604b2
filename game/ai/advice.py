"""Hard as a teacher: what it would do from a seat's view, and what each move is worth.

Two uses, both from one seat's view only (a :class:`~game.SeatView`, never the
match):

* :func:`advise` — a hint for the player to move: Hard's move (what
  :class:`HardPlayer` decides for that view and seed, unless the estimates
  below rate another move higher: then that one, so a hint never shows a
  "next best" its own figures rate better) and, for every legal move, the
  points it is expected to add to the player's own total this round
  (``cost``) and Hard's own score of it (``value``: relative points plus
  the chance of winning the game after the round in percent, as
  ``HardPlayer`` scores a simulated round).
* :func:`costliest` — after a game, replays its events and finds the
  decisions of one seat where Hard's move from the same view was expected to
  cost that player the fewest points compared with the move they made.

The estimates come from Hard's own search (``HardPlayer.evaluate``), on the
determinizations its decision draws (the seed decides them), each move played
out in all of them (no early stop).  ``cost`` is the same search scored by
one's own points only (``win_model`` off, ``relative`` and ``win_bonus`` at 0).  Quitting is
exact: its cost is what the hand costs now.  A review judges a decision with
the seed a hint uses, so it says what a hint said then.
"""

from __future__ import annotations

import random
import time
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace

from ..actions import DRAW, PLAY, QUIT, Action
from ..events import CardDrawn, CardPlayed, Event, MoveEvent, RoundDealt
from ..match import Match
from ..rules import Ruleset
from ..view import SeatView
from .hard import DEFAULT_HARD, HardParams, HardPlayer
from .knowledge import legal_moves


@dataclass(frozen=True, slots=True)
class Estimate:
    action: Action
    #: points the move is expected to add to the player's own total this round
    #: (negative: a chip given back)
    cost: float
    #: Hard's score of the move, higher is better (relative points + win chance in %)
    value: float


@dataclass(frozen=True, slots=True)
class Advice:
    choice: Action  # what Hard would do
    estimates: tuple[Estimate, ...]  # the moves asked about, in their order

    def of(self, action: Action) -> Estimate:
        return next(e for e in self.estimates if e.action == action)


def view_seed(view: SeatView) -> str:
    """A seed made of the view alone: the same view always gets the same advice."""
    return f"advice:{view.round_no}:{len(view.history)}"


def advise(
    view: SeatView,
    seed: int | str | None = None,
    *,
    actions: Sequence[Action] | None = None,
    params: HardParams = DEFAULT_HARD,
    samples: int | None = None,
) -> Advice:
    """Hard's move in ``view`` and the estimates of ``actions`` (default: every legal move).

    Raises ``ValueError`` when it isn't the seat's turn.
    """
    legal_moves(view)
    seed = view_seed(view) if seed is None else seed
    asked = list(view.legal if actions is None else actions)
    if any(a not in view.legal for a in asked):
        raise ValueError(f"not a legal move here: {asked!r}")
    decided = HardPlayer(params, samples).decide(view, random.Random(seed))
    # The choice is made from estimates of every legal move, asked about or not.
    every = estimates(view, seed, view.legal, params, samples)
    by_move = {e.action: e for e in every}
    # Hard decides with its early stop and only among the moves it simulates; when
    # its full estimates rate another move higher, the hint follows the estimates
    # it shows (the first legal one of the best), else it would contradict itself.
    best = max(e.value for e in every)
    choice = (
        decided
        if by_move[decided].value >= best
        else next(e.action for e in every if e.value == best)
    )
    return Advice(view.legal[view.legal.index(choice)], tuple(by_move[a] for a in asked))


def estimates(
    view: SeatView,
    seed: int | str,
    actions: Sequence[Action],
    params: HardParams = DEFAULT_HARD,
    samples: int | None = None,
) -> tuple[Estimate, ...]:
    """The estimates of ``actions``, on the determinizations Hard's decision with
    ``seed`` uses."""
    # Every move is played out in every determinization: Hard's early stop drops a
    # move once it is clearly beaten, which is enough to choose but leaves its
    # estimate rough.
    params = replace(params, stop_z=0.0)
    values = HardPlayer(params, samples).evaluate(view, list(actions), random.Random(seed))
    own = HardPlayer(replace(params, relative=0.0, win_bonus=0.0, win_model=False), samples)
    costs = own.evaluate(view, list(actions), random.Random(seed))
    return tuple(
        Estimate(action, -cost, value)
        for action, cost, value in zip(actions, costs, values, strict=True)
    )


# ---------------------------------------------------------------- after the game
@dataclass(frozen=True, slots=True)
class Decision:
    """A move a player made, and what Hard would have done from the same view."""

    seq: int  # the move's place in the game's events
    round_no: int
    move_no: int  # the move's number in its round, 1 for the first
    played: Action
    better: Action  # Hard's move
    saved: float  # own points Hard's move was expected to save against the one played


@dataclass(frozen=True, slots=True)
class Review:
    ruleset: Ruleset  # the game's
    decisions: tuple[Decision, ...]  # the costliest first
    checked: int  # decisions looked at
    complete: bool  # False: the time ran out before every decision was looked at


def action_of(event: MoveEvent) -> Action:
    if isinstance(event, CardPlayed):
        return PLAY[event.card]
    return DRAW if isinstance(event, CardDrawn) else QUIT


def decisions_of(
    ruleset: Ruleset, players: int, events: Iterable[Event], seat: int, skip: Collection[int] = ()
) -> list[tuple[int, SeatView, Action]]:
    """Every real choice ``seat`` made: (seq, the view before it, the move).

    A move with no alternative is no decision, and the seqs in ``skip`` (moves
    made for the player: a timeout, an AI standing in) are left out.
    """
    match = Match(ruleset, players)
    found: list[tuple[int, SeatView, Action]] = []
    for seq, event in enumerate(events):
        if not isinstance(event, RoundDealt) and event.seat == seat and seq not in skip:
            view = match.view(seat)
            if len(view.legal) > 1:
                found.append((seq, view, action_of(event)))
        match.apply_event(event)
    return found


def judge(seq: int, view: SeatView, played: Action, samples: int | None = None) -> Decision | None:
    """One decision: Hard's move from the view, and the points it was expected to
    save against ``played``; None if Hard would do the same or it saves nothing.
    Searched as a hint is (the same seed), so it says what a hint said then."""
    advice = advise(view, samples=samples)
    better = advice.choice
    if better == played:
        return None
    saved = advice.of(played).cost - advice.of(better).cost
    if saved <= 0:
        return None
    return Decision(seq, view.round_no, len(view.history) + 1, played, better, saved)


def costliest_first(found: Iterable[Decision], limit: int = 3) -> tuple[Decision, ...]:
    return tuple(sorted(found, key=lambda d: (-d.saved, d.seq))[:limit])


def costliest(
    ruleset: Ruleset,
    players: int,
    events: Sequence[Event],
    seat: int,
    *,
    skip: Collection[int] = (),
    limit: int = 3,
    samples: int | None = None,
    budget: float | None = None,
) -> Review:
    """The ``limit`` decisions of ``seat`` where Hard's move saved the most points,
    in one go (the bot judges them one at a time, see ``bot.service.hints``).

    Only moves that differ from Hard's and were expected to cost more count.
    ``budget`` (seconds) bounds the time: decisions past it are not looked at,
    and the review says it is not complete.
    """
    start = time.monotonic()
    found: list[Decision] = []
    checked = 0
    complete = True
    for seq, view, played in decisions_of(ruleset, players, events, seat, skip):
        if budget is not None and time.monotonic() - start >= budget:
            complete = False
            break
        checked += 1
        decision = judge(seq, view, played, samples=samples)
        if decision is not None:
            found.append(decision)
    return Review(ruleset, costliest_first(found, limit), checked=checked, complete=complete)


__all__ = [
    "Advice",
    "Decision",
    "Estimate",
    "Review",
    "action_of",
    "advise",
    "costliest",
    "costliest_first",
    "decisions_of",
    "estimates",
    "judge",
    "view_seed",
]
