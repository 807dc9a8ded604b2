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

The estimates come from Hard's own search (``search.Search``), on the
determinizations its decision draws (the seed decides them), each move played
out in all of them (no early stop).  ``cost`` is the same search scored by
one's own points only (``win_model`` off, ``relative`` and ``win_bonus`` at 0).  Quitting is
exact: its cost is what the hand costs now.  A review judges a decision with
the seed a hint uses, so it says what a hint said then; its chance of winning
is the same search scored by that chance alone (``win_points`` 0), on the same
determinizations, so the value is exactly the chance plus the points.

Each runs anytime too, as Hard's moves do in the bot (``hard.think``):
:func:`think_advice` and :func:`think_judge` do at least today's work (stopped
there, exactly :func:`advise`'s and :func:`judge`'s answer); then the estimates
go on, asking at every checkpoint whether to, up to ``HINT_FACTOR`` (a hint) or
``REVIEW_FACTOR`` (a review's decision) times today's work.  Hard's decision
stays at today's work.  The answer depends only on the view, the seed and the
determinizations done (``Done``), never on the clock: ``replay_advice`` and
``replay_judge`` give it again from them.
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
from .hard import DEFAULT_HARD, IDLE_FACTOR, HardParams, HardPlayer
from .knowledge import legal_moves
from .search import KeepGoing, Search, search_on

#: The most work a hint may get, in times today's: it goes past today's only while
#: the machine has a worker to spare and the person has not waited long
#: (``bot.service.thinking.anytime``); 3x keeps it to a few hundred milliseconds.
HINT_FACTOR = 3
#: ... and each decision a review judges: reviews think in the background.
REVIEW_FACTOR = IDLE_FACTOR


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


#: The determinizations an anytime hint or review's estimates did (every move
#: played out in each).  With the view and the seed they say the whole answer
#: (:func:`replay_advice`, :func:`replay_weigh`).
Done = int


def _never(search: Search) -> bool:
    return False


def _anytime(
    view: SeatView,
    seed: int | str,
    keep_going: KeepGoing,
    floor: HardParams,
    most: HardParams,
    samples: int | None,
    others: Sequence[HardParams],
) -> tuple[Action, list[list[float]], Done]:
    """Hard's decision at ``floor``'s work, and the mean of every legal move in the
    full search (no early stop) scored by ``most`` and by each of ``others``
    (derived from it: the same deals and playouts), anytime between ``floor``'s
    work and ``most``'s.

    Only the estimates go past the floor, once every floor is done: a piece of
    work that waits meanwhile waits for one chunk at most, not for today's work
    put off behind extra work; and the estimates are what a hint shows and a
    review ranks by (more guesses for Hard's decision measured no gain, README).
    """
    decided = HardPlayer(floor, samples).decide(view, random.Random(seed))
    lead, *followers = _full(view, seed, most, others, samples)
    search_on(lead, HardPlayer(floor, samples).limits(view.players), keep_going, followers)
    return decided, [s.means() for s in (lead, *followers)], lead.done


def _full(
    view: SeatView,
    seed: int | str,
    most: HardParams,
    others: Sequence[HardParams],
    samples: int | None,
) -> list[Search]:
    """The estimates' searches, not started: every move is played out in every
    determinization (Hard's early stop drops a move once it is clearly beaten,
    which is enough to choose but leaves its estimate rough).  Without the early
    stop the checkpoints change nothing but where the search may be stopped: one
    after every determinization past the first ``stop_after``, so that work
    waiting for the worker waits for one at most."""
    return [
        HardPlayer(replace(params, stop_z=0.0, stop_every=1), samples).search(
            view, list(view.legal), random.Random(seed)
        )
        for params in (most, *others)
    ]


def _replayed(
    view: SeatView,
    seed: int | str,
    done: Done,
    floor: HardParams,
    most: HardParams,
    others: Sequence[HardParams],
) -> tuple[Action, list[list[float]]]:
    """What :func:`_anytime` found after ``done`` determinizations."""
    decided = HardPlayer(floor).decide(view, random.Random(seed))
    searches = _full(view, seed, most, others, None)
    for search in searches:
        search.run(done)
    return decided, [s.means() for s in searches]


def _own(params: HardParams) -> HardParams:
    """The search scored by one's own points only: the cost of a move."""
    return replace(params, relative=0.0, win_bonus=0.0, win_model=False)


def _chance(params: HardParams) -> HardParams:
    """The search scored by the chance of winning alone."""
    return replace(params, win_points=0.0)


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
    return think_advice(
        view, _never, seed=seed, actions=actions, floor=params, most=params, samples=samples
    )[0]


def think_advice(
    view: SeatView,
    keep_going: KeepGoing,
    *,
    seed: int | str | None = None,
    actions: Sequence[Action] | None = None,
    floor: HardParams = DEFAULT_HARD,
    most: HardParams | None = None,
    samples: int | None = None,
) -> tuple[Advice, Done]:
    """:func:`advise` anytime, and the estimates' determinizations: ``floor``'s work
    first (stopped there, ``advise(view, seed, params=floor)``'s advice exactly),
    then the estimates on, asking ``keep_going`` at every checkpoint, up to
    ``most``'s work (by default ``HINT_FACTOR`` times today's).  The advice depends
    only on the view, the seed and the work done (:func:`replay_advice`)."""
    legal_moves(view)
    seed = view_seed(view) if seed is None else seed
    asked = _asked(view, actions)
    most = most or HardParams.times(HINT_FACTOR)
    decided, (values, costs), done = _anytime(
        view, seed, keep_going, floor, most, samples, [_own(most)]
    )
    return _advice(view, asked, decided, values, costs), done


def replay_advice(
    view: SeatView,
    done: Done,
    *,
    seed: int | str | None = None,
    actions: Sequence[Action] | None = None,
    floor: HardParams = DEFAULT_HARD,
    most: HardParams | None = None,
) -> Advice:
    """The advice :func:`think_advice` gave for ``view`` after ``done`` determinizations."""
    legal_moves(view)
    seed = view_seed(view) if seed is None else seed
    asked = _asked(view, actions)
    most = most or HardParams.times(HINT_FACTOR)
    decided, (values, costs) = _replayed(view, seed, done, floor, most, [_own(most)])
    return _advice(view, asked, decided, values, costs)


def _asked(view: SeatView, actions: Sequence[Action] | None) -> list[Action]:
    asked = list(view.legal if actions is None else actions)
    if any(a not in view.legal for a in asked):
        raise ValueError(f"not a legal move here: {asked!r}")
    return asked


def _advice(
    view: SeatView,
    asked: Sequence[Action],
    decided: Action,
    values: Sequence[float],
    costs: Sequence[float],
) -> Advice:
    # The choice is made from estimates of every legal move, asked about or not.
    every = [
        Estimate(action, -cost, value)
        for action, cost, value in zip(view.legal, costs, values, strict=True)
    ]
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
    move, worths, _ = think_weigh(view, seed, _never, floor=params, most=params, samples=samples)
    return move, worths


def think_weigh(
    view: SeatView,
    seed: int | str,
    keep_going: KeepGoing,
    *,
    floor: HardParams = DEFAULT_HARD,
    most: HardParams | None = None,
    samples: int | None = None,
) -> tuple[Action, tuple[Worth, ...], Done]:
    """:func:`weigh` anytime, as :func:`think_advice` advises (by default up to
    ``REVIEW_FACTOR`` times today's work), and the determinizations it took."""
    legal_moves(view)
    most = most or HardParams.times(REVIEW_FACTOR)
    # The same search scored by the chance alone: the same deals and playouts
    # (the Hard of before scores points only).
    others = [_chance(most)] if most.win_model else []
    decided, means, done = _anytime(view, seed, keep_going, floor, most, samples, others)
    return (*_worths(view, decided, means), done)


def replay_weigh(
    view: SeatView,
    seed: int | str,
    done: Done,
    floor: HardParams = DEFAULT_HARD,
    most: HardParams | None = None,
) -> tuple[Action, tuple[Worth, ...]]:
    """What :func:`think_weigh` found for ``view`` and ``seed`` after ``done`` determinizations."""
    legal_moves(view)
    most = most or HardParams.times(REVIEW_FACTOR)
    others = [_chance(most)] if most.win_model else []
    decided, means = _replayed(view, seed, done, floor, most, others)
    return _worths(view, decided, means)


def _worths(
    view: SeatView, decided: Action, means: Sequence[Sequence[float]]
) -> tuple[Action, tuple[Worth, ...]]:
    values = means[0]
    chances = means[1] if len(means) > 1 else [0.0] * len(view.legal)
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
    same or it loses nothing.  Searched as a hint is (the same seed and work), so
    Hard's move is the one a hint showed then at today's work."""
    return think_judge(seq, view, played, _never, most=DEFAULT_HARD, samples=samples)[0]


def think_judge(
    seq: int,
    view: SeatView,
    played: Action,
    keep_going: KeepGoing,
    *,
    most: HardParams | None = None,
    samples: int | None = None,
) -> tuple[Decision | None, Done]:
    """:func:`judge` anytime (:func:`think_weigh`: today's work at least, by default
    up to ``REVIEW_FACTOR`` times it), and the determinizations it took."""
    better, worths, done = think_weigh(
        view, view_seed(view), keep_going, most=most, samples=samples
    )
    return _judged(seq, view, played, better, worths), done


def replay_judge(
    seq: int, view: SeatView, played: Action, done: Done, most: HardParams | None = None
) -> Decision | None:
    """The judgement :func:`think_judge` made after ``done`` determinizations."""
    better, worths = replay_weigh(view, view_seed(view), done, most=most)
    return _judged(seq, view, played, better, worths)


def _judged(
    seq: int, view: SeatView, played: Action, better: Action, worths: Sequence[Worth]
) -> Decision | None:
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
    ``bot.service.thinking.hints``).

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
    "HINT_FACTOR",
    "REVIEW_FACTOR",
    "Advice",
    "Decision",
    "Done",
    "Estimate",
    "Review",
    "Worth",
    "action_of",
    "advise",
    "costliest",
    "costliest_first",
    "decisions_of",
    "judge",
    "replay_advice",
    "replay_judge",
    "replay_weigh",
    "think_advice",
    "think_judge",
    "think_weigh",
    "view_seed",
    "weigh",
]
