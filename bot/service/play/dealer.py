"""Dealing rounds: from the seed source, or from scripted deals first."""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable

from game import Match, RoundDealt


def random_seed() -> int:
    return secrets.randbits(63)


class Dealer:
    """Deals each new round of a match.

    ``scripted`` deals (puzzles, tests) go first, in order; after them each
    deal is shuffled from a seed of ``seed_source``, which a benchmark may
    replace to replay the same games.
    """

    def __init__(self, seed_source: Callable[[], int] = random_seed) -> None:
        self.seed_source = seed_source
        self.scripted: deque[Callable[[Match], RoundDealt]] = deque()

    def deal(self, match: Match) -> None:
        if self.scripted:
            match.start_round(self.scripted.popleft()(match))
        else:
            match.deal(self.seed_source())
