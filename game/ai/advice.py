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
  decisions of one seat that Hard's own measure rates furthest below Hard's
  move from the same view: the chance of winning the game (in percent) plus
  relative points, as Hard scores a played-out round.  A cheap quit that lost
  the game is so listed, though it saved points; the review tells the chance
  and the points apart (:func:`weigh`).

The estimates come from Hard's own search (``HardPlayer.evaluate``), on the
determinizations its decision draws (the seed decides them), each move played
out in all of them (no early stop).  ``cost`` is the same search scored by
one's own points only (``win_model`` off, ``relative`` and ``win_bonus`` at 0).  Quitting is
exact: its cost is what the hand costs now.  A review judges a decision with
the seed a hint uses, so it says what a hint said then; its chance of winning
is the same search scored by that chance alone (``win_points`` 0), on the same
determinizations, so the value is exactly the chance plus the points.
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
    choice = _choice(view, decided, {e.action: e.value for e in every})
    return Advice(choice, tuple(by_move[a] for a in asked))


def _choice(view: SeatView, decided: Action, values: dict[Action, float]) -> Action:
    """Hard's move: its decision, unless its full estimates rate another higher.

    Hard decides with its early stop and only among the moves it simulates; when
    its full estimates rate another move higher, the advice follows the estimates
    it shows (the first legal one of the best), else it would contradict itself.
    """
    best = max(values.values())
    if values[decided] >= best:
        return view.legal[view.legal.index(decided)]
    return next(a for a in view.legal if values[a] == best)


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


@dataclass(frozen=True, slots=True)
class Worth:
    """A move by Hard's measure: ``value`` = ``chance`` + ``win_points`` x relative points."""

    action: Action
    value: float  # Hard's score of the move, higher is better
    chance: float  # the chance of winning the game after it, in percent (0 to 100)


def weigh(
    view: SeatView,
    seed: int | str,
    params: HardParams = DEFAULT_HARD,
    samples: int | None = None,
) -> tuple[Action, tuple[Worth, ...]]:
    """Hard's move in ``view`` (as :func:`advise` chooses it) and every legal move's
    worth, on the determinizations Hard's decision with ``seed`` uses."""
    legal_moves(view)
    decided = HardPlayer(params, samples).decide(view, random.Random(seed))
    full = replace(params, stop_z=0.0)  # every move in every determinization
    values = HardPlayer(full, samples).evaluate(view, list(view.legal), random.Random(seed))
    if params.win_model:
        # The same search scored by the chance alone: the same deals and playouts.
        alone = HardPlayer(replace(full, win_points=0.0), samples)
        chances = alone.evaluate(view, list(view.legal), random.Random(seed))
    else:  # the Hard of before scores points only
        chances = [0.0] * len(view.legal)
    worths = tuple(
        Worth(action, value, chance)
        for action, value, chance in zip(view.legal, values, chances, strict=True)
    )
    return _choice(view, decided, {w.action: w.value for w in worths}), worths


# ---------------------------------------------------------------- after the game
@dataclass(frozen=True, slots=True)
class Decision:
    """A move a player made, and what Hard would have done from the same view."""

    seq: int  # the move's place in the game's events
    round_no: int
    move_no: int  # the move's number in its round, 1 for the first
    played: Action
    better: Action  # Hard's move
    #: what the move played lost against Hard's by Hard's measure (``chance`` +
    #: ``points``), what the review ranks by
    lost: float
    #: of which the chance of winning the game, in percentage points
    chance: float
    #: and the points: relative points (the others' average change minus one's own)
    #: times ``win_points``; negative when the move played saved points
    points: float


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
    """One decision: Hard's move from the view, and what ``played`` lost against it by
    Hard's measure (the chance to win the game plus points); None if Hard would do the
    same or it loses nothing.  Searched as a hint is (the same seed), so Hard's move is
    the one a hint showed then."""
    better, worths = weigh(view, view_seed(view), samples=samples)
    if better == played:
        return None
    by_move = {w.action: w for w in worths}
    lost = by_move[better].value - by_move[played].value
    if lost <= 0:
        return None
    chance = by_move[better].chance - by_move[played].chance
    return Decision(
        seq, view.round_no, len(view.history) + 1, played, better, lost, chance, lost - chance
    )


def costliest_first(found: Iterable[Decision], limit: int = 3) -> tuple[Decision, ...]:
    """The ``limit`` decisions that lost the most by Hard's measure, ties in game order."""
    return tuple(sorted(found, key=lambda d: (-d.lost, d.seq))[:limit])


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
    """The ``limit`` decisions of ``seat`` that lost the most against Hard's move by
    Hard's measure, in one go (the bot judges them one at a time, see
    ``bot.service.hints``).

    Only moves that differ from Hard's and that Hard's measure rates lower count.
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
    "Worth",
    "action_of",
    "advise",
    "costliest",
    "costliest_first",
    "decisions_of",
    "estimates",
    "judge",
    "view_seed",
    "weigh",
]
