"""A player that picks uniformly among the legal moves: the floor for benchmarks."""

from __future__ import annotations

import random

from ..actions import Action
from ..view import SeatView


class RandomPlayer:
    name = "random"

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        if not view.legal:
            raise ValueError("It's not this seat's turn.")
        return rng.choice(view.legal)
