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

The search itself lives in ``search.py`` and is resumable, checkpoint by
checkpoint.  ``HardPlayer`` runs it to the end of its work; :func:`think`
runs it anytime, between a floor (today's work, ``HardParams()``) and the
work an idle machine gives it (``HardParams.idle()``, 4x), asking at each
checkpoint whether to go on: the bot's AI seats think in the pause they wait
anyway.  The move depends on the determinizations done, never on the clock
(:func:`replay` makes it again from them).

Moves that are never better are not simulated: with a card that fits Hard
plays (drawing instead only adds a card, and playing leaves quitting open for
next turn); only with No Drama does quitting compete with playing.
"""

from __future__ import annotations

import random

from ..actions import DRAW, QUIT, Action, Play
from ..view import SeatView
from .knowledge import legal_moves
from .normal import NormalPlayer
from .search import (
    DEFAULT_HARD,
    IDLE_FACTOR,
    Dealer,
    HardParams,
    KeepGoing,
    Search,
    beaten,
    search_on,
)


def candidates(view: SeatView) -> list[Action]:
    """The moves worth simulating, in the order of ``view.legal``."""
    plays: list[Action] = [a for a in view.legal if isinstance(a, Play)]
    if not plays:
        return list(view.legal)
    if view.ruleset.no_drama_card and QUIT in view.legal:
        return [*plays, QUIT]
    return plays


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

    def limits(self, players: int) -> tuple[int, int]:
        """The most determinizations and the most work (0: no bound) for a table size."""
        if self.samples is not None:
            return self.samples, 0  # a fixed number, whatever they cost
        return self.params.limits(players)

    def search(self, view: SeatView, options: list[Action], rng: random.Random) -> Search:
        """A search of ``view`` at this player's work, not started yet."""
        samples, work = self.limits(view.players)
        return Search(
            self.params, view, options, rng, samples=samples, work=work, dealer=self.dealer
        )

    def simulate(
        self, view: SeatView, options: list[Action], rng: random.Random
    ) -> list[list[float]]:
        """Utility of each option in each determinization (one row per determinization)."""
        search = self.search(view, options, rng)
        search.run()
        return search.rows


def think(
    view: SeatView,
    seed: int | str,
    keep_going: KeepGoing,
    floor: HardParams = DEFAULT_HARD,
    most: HardParams | None = None,
) -> tuple[Action, int]:
    """Hard's move by an anytime search, and the determinizations it took.

    The search does at least ``floor``'s work (today's Hard: stopped there, it
    makes ``HardPlayer(floor)``'s move) and at most ``most``'s (by default
    ``HardParams.idle()``: run to the end, ``HardPlayer(most)``'s move); in
    between it asks ``keep_going`` at every checkpoint.  The move depends only on
    the view, the seed and the determinizations done: :func:`replay` makes it
    again from them.
    """
    most = most or HardParams.idle()
    legal_moves(view)
    options = candidates(view)
    player = HardPlayer(most)
    if len(options) == 1:
        return options[0], 0
    search = player.search(view, options, random.Random(seed))
    search_on(search, floor.limits(view.players), keep_going)
    return options[player.pick(view, options, search.rows)], search.done


def replay(view: SeatView, seed: int | str, done: int, most: HardParams | None = None) -> Action:
    """The move :func:`think` made for ``view`` and ``seed`` after ``done`` determinizations."""
    player = HardPlayer(most or HardParams.idle())
    options = candidates(view)
    if len(options) == 1:
        return options[0]
    search = player.search(view, options, random.Random(seed))
    search.run(done)
    return options[player.pick(view, options, search.rows)]


__all__ = [
    "DEFAULT_HARD",
    "DRAW",
    "IDLE_FACTOR",
    "HardParams",
    "HardPlayer",
    "KeepGoing",
    "beaten",
    "candidates",
    "replay",
    "think",
]
