"""Hard: determinized Monte Carlo over the rest of the round.

For each decision Hard deals the cards it has not seen (deck minus own hand
minus discard pile) at random into the other hands and the draw pile,
keeping every count its view shows — a *determinization* — and reads the
public moves to make the guesses likelier:

* every move of this round is read as Normal would have made it
  (``reading``): for each player holding a small hand, every hand the unseen
  cards allow is checked against all of their moves, and the hands that
  explain them are dealt in proportion to the ways they can be dealt — the
  exact chance of that hand given what the player did;
* larger hands are dealt knowing that nobody draws or quits with a card to
  play (``sim.hints``).

In each determinization Hard tries every candidate move and plays the round
out (``playout``) with every seat on the Normal heuristic (each on its own hand only), then
scores the finished round for itself: its relative points (the opponents'
average point change minus its own) plus its chance of winning the game from
the points the round leaves, in percent (``standing.win_chance``: the share
of the win if the round ends the game, else a model fitted to games between
Normal players).  Early in a game the chance moves little and the points
decide; near the end it swings by tens of percent and decides: Hard plays on
for its only chance when quitting would lose the game, and closes a game it
leads.  (Relative points alone with a bonus for winning when the round ends
the game, ``win_model=False``, is the Hard of before: see the README's AI
strength section for the paired games that compare them.)
The same determinizations are used for every candidate (common random
numbers); the move with the best mean wins, Normal's own choice on a tie.

Determinizations are spent where they can change the choice: after
``stop_after`` of them, and every ``stop_every`` after, a move that the
leading one beats by more than ``stop_z`` standard errors of the paired
difference is no longer played out (it keeps its mean), and the search stops
once one move is left.  Clear decisions so stop after a few dozen, close
ones go on to the most the table size allows (``SAMPLES``), or until the
search has done ``WORK``: the moves played out, the hands the reading
checked times their holders' moves, and a fixed cost a determinization (a
decision's time follows them: early in a round playouts are long).  Never
fewer than ``stop_after`` determinizations.  Every step depends only on the
outcomes of the playouts, never on the clock, so a decision depends only on
the view and the seed, and its time is bounded (``benchmarks/ai_latency.py``
measures it).

Moves that are never better are not simulated: with a card that fits Hard
plays (drawing instead only adds a card, and playing leaves quitting open for
next turn); only with No Drama does quitting compete with playing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..actions import DRAW, QUIT, Action, Play
from ..cards import Card
from ..round import Round
from ..view import SeatView
from .knowledge import legal_moves, unseen_cards
from .normal import DEFAULT_PARAMS, NormalParams, NormalPlayer, opponents_stuck
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
    #: how every seat plays in the simulations
    rollout: NormalParams = field(default=DEFAULT_PARAMS)
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


DEFAULT_HARD = HardParams()


def candidates(view: SeatView) -> list[Action]:
    """The moves worth simulating, in the order of ``view.legal``."""
    plays: list[Action] = [a for a in view.legal if isinstance(a, Play)]
    if not plays:
        return list(view.legal)
    if view.ruleset.no_drama and QUIT in view.legal:
        return [*plays, QUIT]
    return plays


#: Deals one determinization: ``(view, unseen cards, rng) -> Round``.
Dealer = Callable[[SeatView, Sequence[Card], random.Random], Round]


class HardPlayer:
    name = "hard"

    def __init__(
        self,
        params: HardParams = DEFAULT_HARD,
        samples: int | None = None,
        dealer: Dealer | None = None,
    ) -> None:
        self.params = params
        self.samples = samples
        self.normal = NormalPlayer(params.rollout)
        #: replaces the honest dealing, for experiments only: a dealer that
        #: peeks at the real hands measures what information is worth
        #: (``benchmarks/ai_information.py``)
        self.dealer = dealer

    def work_budget(self, players: int) -> int:
        if self.samples is not None:
            return 0  # a fixed number of determinizations, whatever they cost
        table = self.params.work
        return table[min(players, len(table) - 1)]

    def budget(self, players: int) -> int:
        if self.samples is not None:
            return self.samples
        table = self.params.samples
        return table[min(players, len(table) - 1)]

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        legal_moves(view)
        options = candidates(view)
        if len(options) == 1:
            return options[0]
        samples = self.simulate(view, options, rng)
        return options[self.pick(view, options, samples)]

    def pick(self, view: SeatView, options: list[Action], samples: list[list[float]]) -> int:
        """Normal's move, unless the simulations show another one better with confidence.

        The comparison is paired (every option was played out in the same
        determinizations): an option replaces Normal's move when its mean gain
        exceeds ``confidence`` standard errors of that gain.
        """
        normal = self.normal.decide(view, random.Random(0))
        base = options.index(normal) if normal in options else 0
        n = len(samples)
        best, best_gain = base, 0.0
        for i in range(len(options)):
            if i == base:
                continue
            diffs = [row[i] - row[base] for row in samples]
            mean = sum(diffs) / n
            if mean <= best_gain:
                continue
            var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
            if mean * mean * n > self.params.confidence**2 * var:
                best, best_gain = i, mean
        return best

    def evaluate(self, view: SeatView, options: list[Action], rng: random.Random) -> list[float]:
        """Mean utility of each option over the determinizations."""
        samples = self.simulate(view, options, rng)
        return [sum(row[i] for row in samples) / len(samples) for i in range(len(options))]

    def simulate(
        self, view: SeatView, options: list[Action], rng: random.Random
    ) -> list[list[float]]:
        """Utility of each option in each determinization (one row per determinization)."""
        p = self.params
        seat = view.seat
        points = view.points
        threshold = view.ruleset.threshold
        others = [s for s in range(view.players) if s != seat]
        unseen = unseen_cards(view)
        remaining = remaining_counts(view.ruleset, view.discard)
        rows: list[list[float]] = []
        n = self.budget(view.players)
        known = hints(view) if p.infer else {}
        stuck0 = opponents_stuck(view)
        weighed, checked = (
            ({}, 0)
            if self.dealer is not None or not p.read
            else weigh_hands(
                view, unseen, moves_by_seat(view), rng, p.read_limit, p.read_total, p.rollout
            )
        )
        budget = self.work_budget(view.players)
        work = READ_WORK * checked
        # What a playout can still do at the start, as it counts its moves: cards
        # not yet played, cards to draw, players still in (the same in every deal).
        at_start = sum(remaining) + view.draw_pile + view.in_round.count(True)
        alive = list(range(len(options)))  # the moves still played out
        dropped = [0.0] * len(options)  # a dropped move's mean when it was dropped
        for _ in range(n):
            if self.dealer is not None:
                base = self.dealer(view, unseen, rng)
            elif weighed:
                base = combine(view, unseen, weighed, known, rng)
            elif known:
                base = determinize_informed(view, unseen, known, rng)
            else:
                base = determinize(view, unseen, rng)
            start = Playout.of(base, remaining, stuck0)
            row = list(dropped)
            last = alive[-1]
            # the moves a playout makes: cards played + cards drawn + players out
            work += ROW_WORK + len(alive) * at_start
            for i in alive:
                st = start.clone() if i != last else start
                st.move(options[i])
                play_out(st, points, p.rollout)
                work -= sum(st.remaining) + len(st.pile) + st.active_count
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
            rows.append(row)
            done = len(rows)
            if budget and work >= budget and done >= p.stop_after:
                break  # long playouts (or a long reading): enough time spent
            if (
                p.stop_z
                and done >= p.stop_after
                and (done - p.stop_after) % p.stop_every == 0
                and done < n
            ):
                for i in beaten(rows, alive, p.stop_z):
                    alive.remove(i)
                    dropped[i] = sum(r[i] for r in rows) / done
                if len(alive) == 1:
                    break
        return rows


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


__all__ = ["DEFAULT_HARD", "DRAW", "HardParams", "HardPlayer", "candidates"]
