"""The one scale a rating is shown on everywhere: (mu - 3 sigma) x 40 + 1000, rounded.

mu - 3 sigma is the conservative estimate of a player's skill (openskill's ordinal): a
newcomer (mu 25, sigma 25/3) is shown 1000 and climbs as the games make them surer.
"""

from __future__ import annotations

#: openskill's Plackett-Luce defaults: a newcomer's mean and spread.
MU = 25.0
SIGMA = 25.0 / 3.0
#: The shown number: ordinal x SCALE + OFFSET.
SCALE = 40.0
OFFSET = 1000.0


def ordinal(mu: float, sigma: float) -> float:
    """The conservative estimate the boards rank by."""
    return mu - 3.0 * sigma


def shown(mu: float, sigma: float) -> int:
    """The rating as players see it."""
    return round(ordinal(mu, sigma) * SCALE + OFFSET)


def shown_change(mu_before: float, sigma_before: float, mu_after: float, sigma_after: float) -> int:
    """How many shown points a game gave (or took): the "+18" on a finished table."""
    return shown(mu_after, sigma_after) - shown(mu_before, sigma_before)
