"""What a game's points are worth: the chance of winning the game from them.

Hard plays rounds out, but a game is won by ending it with the fewest
points, so it scores each simulated round by the chance of winning the game
from the points it leaves (``HardParams.win_model``).

A finished game pays the share of the win.  Otherwise every player's points
to come are taken as the same drift plus normal noise of a spread that
shrinks as the leader nears the threshold, ``SPREAD[players]``:
``spread² = slope × (threshold − highest) + base``.  The seat wins if its
final points are below every opponent's; the opponents' noise is
independent given the seat's own, which is integrated out by Gauss–Hermite
quadrature.

Both numbers per table size were fitted by maximum likelihood to where
10,000 games per table size between Normal players stood after each round
and who won them (threshold 40): the chances come out calibrated in every
decile, and the log loss is 7–9% below the even share's.  An earlier model
(each opponent beaten independently, a spread of 6 points a round) was
worse than the even share: far too sure of itself.  The numbers come from
the base game at threshold 40; variants and other thresholds use them too
(the threshold enters through the leader's points left to it).
``benchmarks/ai_win_model.py`` fits them again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: ``SPREAD[players] = (slope, base)``: the spread², in points², of the points
#: still to come between now and the game's end, by the points the leader has
#: left to the threshold.
SPREAD: tuple[tuple[float, float], ...] = (
    (36.9, 311.2),
    (36.9, 311.2),
    (36.9, 311.2),
    (27.5, 207.1),
    (20.3, 131.8),
    (15.7, 88.1),
    (14.0, 74.3),
)
#: Gauss–Hermite nodes (for the standard normal) and weights, the positive
#: half of eight: the integrand is evaluated at ``±x``.
_NODES: tuple[tuple[float, float], ...] = (
    (0.539079811351, 0.373012257679),
    (1.636519042435, 0.117239907662),
    (2.802485861288, 0.009635220121),
    (4.144547186126, 0.000112614538),
)
_SQRT2 = math.sqrt(2.0)

_MEMO_LIMIT = 100_000
# Packed int keys and float values: the collector never tracks this memo.
_MEMO: dict[int, float] = {}


def _key(points: Sequence[int], seat: int, threshold: int) -> int:
    key = threshold << 6 | len(points) << 3 | seat
    for p in points:
        key = key << 9 | p
    return key


def win_chance(points: Sequence[int], seat: int, threshold: int) -> float:
    """The chance that ``seat`` wins the game from these points (shared wins split)."""
    high = max(points)
    mine = points[seat]
    if high >= threshold:
        low = min(points)
        return 1.0 / points.count(low) if mine == low else 0.0
    key = _key(points, seat, threshold)
    found = _MEMO.get(key)
    if found is None:
        if len(_MEMO) > _MEMO_LIMIT:
            _MEMO.clear()
        slope, base = SPREAD[min(len(points), len(SPREAD) - 1)]
        found = _MEMO[key] = chance(points, seat, threshold, slope, base)
    return found


def chance(points: Sequence[int], seat: int, threshold: int, slope: float, base: float) -> float:
    """The model's chance for a game not yet over, with these spread numbers
    (``benchmarks/ai_win_model.py`` fits them)."""
    spread = math.sqrt(slope * (threshold - max(points)) + base)
    mine = points[seat]
    # (theirs - mine) / spread, in units of the standard normal, over sqrt 2 for erf
    gaps = [(p - mine) / spread for s, p in enumerate(points) if s != seat]
    total = 0.0
    for x, w in _NODES:
        for own in (x, -x):
            # the seat's own noise is ``own``: each opponent's must stay above it
            beat = 1.0
            for g in gaps:
                beat *= 0.5 * (1.0 + math.erf((g - own) / _SQRT2))
            total += w * beat
    return total


__all__ = ["SPREAD", "chance", "win_chance"]
