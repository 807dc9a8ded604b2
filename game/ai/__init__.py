"""Computer players for L.A.M.A. in three strengths.

The bot needs one call::

    from game.ai import Strength, choose
    action = choose(match.view(seat), Strength.NORMAL, seed=f"{table_id}:{len(match.events)}")
    match.apply(seat, action)

``choose`` decides from the :class:`~game.SeatView` alone (own hand, the
other hands' sizes, the discard and draw piles, points, this round's public
moves), returns one of ``view.legal``, and gives the same move for the same
view, strength and seed.

- :class:`EasyPlayer` — plays the lowest card that fits, otherwise draws,
  and quits when its hand is cheap.  Deterministic.
- :class:`NormalPlayer` — a heuristic: estimates what a hand will cost at the
  end of the round from calibrated chances of being stuck with each value
  (``normal_tables.py``, measured by ``python -m benchmarks.calibrate``), keeps runs
  along the 1..6, Llama cycle, weighs drawing (expected cost of the unseen
  cards) against quitting, the danger of the round ending soon, chip refunds,
  No Drama and the end threshold.  Deterministic.
- :class:`HardPlayer` — determinized Monte Carlo: guesses the hidden cards
  consistently with the view and with every move the other players made this
  round (small hands are read exactly: ``reading.py``), plays the rest of the
  round out with the Normal heuristic for every move worth trying, and picks
  the best on average (``playout.py`` plays the rounds out fast).  A fixed
  number of simulations and a bounded reading keep it reproducible and its
  time bounded; the bot runs it in worker processes.
- :class:`RandomPlayer` — a random legal move, the floor for benchmarks.

All follow the :class:`Player` protocol: ``decide(view, rng) -> Action``.
"""

from .base import Player, Strength, choose, player_for
from .easy import EasyPlayer
from .hard import HardParams, HardPlayer
from .normal import NormalParams, NormalPlayer
from .randomplayer import RandomPlayer

__all__ = [
    "EasyPlayer",
    "HardParams",
    "HardPlayer",
    "NormalParams",
    "NormalPlayer",
    "Player",
    "RandomPlayer",
    "Strength",
    "choose",
    "player_for",
]
