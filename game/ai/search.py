"""Hard's search, resumable: determinizations in chunks between checkpoints.

A :class:`Search` deals determinizations and plays every candidate move out
in each (``hard.py`` says how), one chunk at a time: up to the next
checkpoint (the first after ``stop_after`` determinizations, then every
``stop_every``), where the moves the leading one clearly beats are dropped
(``beaten``).  Between chunks the caller may stop it and take the best move
so far, so the same search serves a fixed budget (``HardPlayer``: run to the
end) and a deadline (the bot's AI seats think in the pause they wait anyway
and stop at a checkpoint when the pause is over or other work waits).

Every step depends only on the view, the seed and the playouts' outcomes,
never on the clock: the determinizations done (:attr:`Search.done`) say the
whole state, so a search stopped after ``k`` of them, for whatever reason,
picks the move any search of the same view and seed picks after ``k``
(:meth:`Search.run`).  A search with larger limits plays the same
determinizations in the same order as one with smaller limits, so when it is
stopped where the smaller one ends (:meth:`Search.reached`) it has exactly
its rows: the larger budget only ever adds to the smaller.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..actions import Action
from ..cards import Card
from ..round import Round
from ..view import SeatView
from .knowledge import unseen_cards
from .normal import DEFAULT_PARAMS, NormalParams, opponents_stuck
from .playout import Playout, play_out
from .reading import combine, moves_by_seat, weigh_hands
from .sim import determinize, determinize_informed, hints, remaining_counts
from .standing import win_chance

#: Most determinizations per decision, by number of players (index 2..6): twice
#: what a decision played out every time, since most decisions now stop early
#: (``HardParams.stop_z``) and the ones that don't are the close calls, where
#: more samples measurably pay (``benchmarks/ai_duplicate.py``).
SAMPLES: tuple[int, ...] = (0, 0, 200, 192, 168, 144, 120)
#: The most work per decision, by number of players: moves played out, plus
#: ``ROW_WORK`` a determinization.  Measured to keep a decision's p99 under
#: 100 ms on a 2-core machine (``benchmarks/ai_latency.py``).
WORK: tuple[int, ...] = (0, 0, 12_000, 12_000, 12_000, 12_000, 12_000)
#: What dealing a determinization and scoring its playouts costs, in moves
#: played out (about 0.09 ms against 0.005 ms a move).
ROW_WORK = 20
#: ... and for each hand the reading checks, for each move of its holder
#: (``reading.weigh_hands``: a bound, about 0.007 ms each, so counted high).
READ_WORK = 2
#: How many times today's work an idle machine gives a decision (``HardParams.idle``).
IDLE_FACTOR = 4


@dataclass(frozen=True, slots=True)
class HardParams:
    #: determinizations per decision by player count; each is played out once per candidate
    samples: tuple[int, ...] = SAMPLES
    #: and at most this much work by player count (0: no bound): the moves played
    #: out, plus ``ROW_WORK`` a determinization
    work: tuple[int, ...] = WORK
    #: weight of the opponents' mean point change in relative points
    relative: float = 1.0
    #: without ``win_model``: bonus for winning (shared wins split) when the
    #: round ends the game
    win_bonus: float = 20.0
    #: how every seat plays in the simulations ...
    rollout: NormalParams = field(default=DEFAULT_PARAMS)
    #: ... but Hard's own seat, with this (None: ``rollout`` too; the others are
    #: read and played as Normal).  A rollout's estimates improve with a better
    #: policy for one's own later moves: an experiment of #28 with a Normal' +0.20
    #: better than Normal measured no gain (README, AI strength), so None.
    own_policy: NormalParams | None = None
    #: deal the hidden cards knowing that drawing or quitting means nothing fit
    infer: bool = True
    #: standard errors by which a move must beat Normal's choice to be taken instead
    #: (0: the best mean wins)
    confidence: float = 0.0
    #: score a simulated round by the chance of winning the game from its points,
    #: in percent (``standing.win_chance``) ...
    win_model: bool = True
    #: ... plus this weight of its relative points (0: the chance alone, which
    #: gives up points that ``benchmarks/ai_duplicate.py`` counts); without
    #: ``win_model``: relative points and ``win_bonus``
    win_points: float = 1.0
    #: read every move of the players whose hands can be listed (``reading``)
    read: bool = True
    #: read a player only if their possible hands number at most this many ...
    read_limit: int = 210
    #: ... and stop after checking this many hands in all (bounds the time)
    read_total: int = 400
    #: stop early once the leading move beats every other by this many standard
    #: errors of the paired difference (0: always play every determinization) ...
    stop_z: float = 3.0
    #: ... checked after this many determinizations and every ``stop_every`` after
    stop_after: int = 24
    stop_every: int = 8

    @classmethod
    def idle(cls) -> HardParams:
        """Hard with the work an idle machine gives it: ``IDLE_FACTOR`` times
        today's determinizations and work bound, fixed, so the same seeds give
        the same moves (the bot's AI seats stop anywhere between today's work
        and this, at a checkpoint)."""
        return cls.times(IDLE_FACTOR)

    @classmethod
    def times(cls, factor: int) -> HardParams:
        """Hard with ``factor`` times today's determinizations and work bound (the
        most a hint or a review's decision may get: ``advice``)."""
        return cls(
            samples=tuple(factor * n for n in SAMPLES),
            work=tuple(factor * w for w in WORK),
        )

    def limits(self, players: int) -> tuple[int, int]:
        """The most determinizations and the most work (0: no bound) for a table size."""
        return (
            self.samples[min(players, len(self.samples) - 1)],
            self.work[min(players, len(self.work) - 1)],
        )


DEFAULT_HARD = HardParams()

#: Deals one determinization: ``(view, unseen cards, rng) -> Round``.
Dealer = Callable[[SeatView, Sequence[Card], random.Random], Round]


class Search:
    """One decision's search, resumable: :meth:`step` plays out the determinizations
    up to the next checkpoint; :attr:`rows` holds each one's utility of every option.

    It ends by itself (:attr:`over`) after ``samples`` determinizations, once its
    work reaches ``work`` (0: no bound; never before ``stop_after``), or when one
    move is left.
    """

    def __init__(
        self,
        params: HardParams,
        view: SeatView,
        options: Sequence[Action],
        rng: random.Random,
        *,
        samples: int,
        work: int,
        dealer: Dealer | None = None,
    ) -> None:
        self.params = params
        self.view = view
        self.options = list(options)
        self.samples = samples
        self.work_limit = work
        self._rng = rng
        self._dealer = dealer
        self._others = [s for s in range(view.players) if s != view.seat]
        self._unseen = unseen_cards(view)
        self._remaining = remaining_counts(view.ruleset, view.discard)
        self._known = hints(view) if params.infer else {}
        self._stuck = opponents_stuck(view)
        self._weighed, checked = (
            ({}, 0)
            if dealer is not None or not params.read
            else weigh_hands(
                view,
                self._unseen,
                moves_by_seat(view),
                rng,
                params.read_limit,
                params.read_total,
                params.rollout,
            )
        )
        #: the work done: hands the reading checked times their holders' moves,
        #: moves played out, ``ROW_WORK`` a determinization
        self.work = READ_WORK * checked
        # What a playout can still do at the start, as it counts its moves: cards
        # not yet played, cards to draw, players still in (the same in every deal).
        self._at_start = sum(self._remaining) + view.draw_pile + view.in_round.count(True)
        self.alive = list(range(len(self.options)))  # the moves still played out
        self._dropped = [0.0] * len(self.options)  # a dropped move's mean when dropped
        self.rows: list[list[float]] = []
        self.over = samples <= 0

    @property
    def done(self) -> int:
        """The determinizations played out so far: the search's whole state."""
        return len(self.rows)

    def reached(self, samples: int, work: int) -> bool:
        """Whether a search of the same view and seed limited to ``samples`` and
        ``work`` (with the same other parameters) would have ended here."""
        done = self.done
        return (
            done >= samples
            or (work > 0 and self.work >= work and done >= self.params.stop_after)
            or (self.over and len(self.alive) == 1)
        )

    def step(self, floor: tuple[int, int] | None = None) -> None:
        """Determinizations up to the next checkpoint or the end; and, when given
        ``floor`` (samples, work) not reached yet, no further than where it is."""
        below = floor is not None and not self.reached(*floor)
        while not self.over:
            if self._row():
                return
            if below and floor is not None and self.reached(*floor):
                return

    def run(self, done: int | None = None) -> None:
        """On to the end, or until ``done`` determinizations (a search stopped there)."""
        while not self.over and (done is None or self.done < done):
            self._row()

    def means(self) -> list[float]:
        """Each option's mean utility over the determinizations (a dropped one's
        when it was dropped)."""
        n = max(1, self.done)
        return [sum(row[i] for row in self.rows) / n for i in range(len(self.options))]

    def _deal(self) -> Round:
        view, unseen, rng = self.view, self._unseen, self._rng
        if self._dealer is not None:
            return self._dealer(view, unseen, rng)
        if self._weighed:
            return combine(view, unseen, self._weighed, self._known, rng)
        if self._known:
            return determinize_informed(view, unseen, self._known, rng)
        return determinize(view, unseen, rng)

    def _row(self) -> bool:
        """One determinization played out for every move still alive; whether it
        ended at a checkpoint (or ended the search)."""
        p = self.params
        view = self.view
        seat, points, threshold = view.seat, view.points, view.ruleset.threshold
        others = self._others
        start = Playout.of(self._deal(), self._remaining, self._stuck)
        own = None if p.own_policy is None else (seat, p.own_policy)
        row = list(self._dropped)
        alive = self.alive
        last = alive[-1]
        # the moves a playout makes: cards played + cards drawn + players out
        self.work += ROW_WORK + len(alive) * self._at_start
        for i in alive:
            st = start.clone() if i != last else start
            st.move(self.options[i])
            play_out(st, points, p.rollout, own)
            self.work -= sum(st.remaining) + len(st.pile) + st.active_count
            new = st.settle(points)
            mine = new[seat] - points[seat]
            theirs = sum(new[s] - points[s] for s in others) / len(others)
            utility = p.relative * theirs - mine
            if p.win_model:
                row[i] = p.win_points * utility + 100.0 * win_chance(new, seat, threshold)
                continue
            if max(new) >= threshold:
                low = min(new)
                if new[seat] == low:
                    utility += p.win_bonus / new.count(low)
            row[i] = utility
        self.rows.append(row)
        done = self.done
        if self.work_limit and self.work >= self.work_limit and done >= p.stop_after:
            self.over = True  # long playouts (or a long reading): enough time spent
            return True
        if done >= self.samples:
            self.over = True
            return True
        if done >= p.stop_after and (done - p.stop_after) % p.stop_every == 0:
            if p.stop_z:  # without an early stop, a checkpoint only lets the caller stop
                for i in beaten(self.rows, alive, p.stop_z):
                    alive.remove(i)
                    self._dropped[i] = sum(r[i] for r in self.rows) / done
                self.over = len(alive) == 1
            return True
        return False


#: Whether an anytime search goes on past its floor, asked at each checkpoint.
KeepGoing = Callable[[Search], bool]


def search_on(
    search: Search,
    floor: tuple[int, int],
    keep_going: KeepGoing,
    followers: Sequence[Search] = (),
) -> None:
    """``search`` anytime: up to where a search limited to ``floor`` (samples, work)
    ends, whatever happens; then on, checkpoint by checkpoint, while ``keep_going``
    says so, to its own end at most.

    ``followers`` are searches of the same view and seed scored another way (the
    same deals and playouts, so the same work): each plays the determinizations
    ``search`` did before ``keep_going`` is asked, so all stop at the same point.
    """
    while not search.over:
        search.step(floor)
        for other in followers:
            other.run(search.done)
        if search.reached(*floor) and not keep_going(search):
            break


def beaten(rows: Sequence[Sequence[float]], alive: Sequence[int], z: float) -> list[int]:
    """The moves in ``alive`` that the one with the best mean beats by more than
    ``z`` standard errors of the paired difference (the rows are the
    determinizations): playing them out further would hardly change the choice.

    A move that came out equal to the best in every determinization counts as
    beaten too: more samples would only tell apart moves that hardly differ (it
    keeps its mean, so a tie still goes to Normal's choice).
    """
    n = len(rows)
    sums = {i: sum(row[i] for row in rows) for i in alive}
    lead = max(alive, key=sums.__getitem__)
    out: list[int] = []
    for i in alive:
        if i == lead:
            continue
        diffs = [row[lead] - row[i] for row in rows]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if var == 0.0 or mean * mean * n > z * z * var:
            out.append(i)
    return out


__all__ = [
    "DEFAULT_HARD",
    "IDLE_FACTOR",
    "Dealer",
    "HardParams",
    "KeepGoing",
    "Search",
    "beaten",
    "search_on",
]
