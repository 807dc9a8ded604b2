"""A player that picks uniformly among the legal moves: the floor for benchmarks."""

from __future__ import annotations

import random

from ..actions import Action
from ..view import SeatView
from .knowledge import legal_moves


class RandomPlayer:
    name = "random"

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        return rng.choice(legal_moves(view))
