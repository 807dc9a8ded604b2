"""Easy: the way a beginner plays.

It plays the lowest card that fits (a card of the top's own value before
the next one, a 1 before a Llama, Plus cards and the pink Llama last).  When
nothing fits it quits if its hand is cheap, or if it may not draw; otherwise
it draws.  It never looks at the other players.  No randomness.
"""

from __future__ import annotations

import random

from ..actions import DRAW, QUIT, Action, Play
from ..rules import LlamaCost
from ..view import SeatView
from .knowledge import hand_cost, legal_moves

#: Easy quits when nothing fits and its hand costs at most this much.
CHEAP_HAND = 6


class EasyPlayer:
    name = "easy"

    def __init__(self, cheap_hand: int = CHEAP_HAND) -> None:
        self.cheap_hand = cheap_hand

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        legal = legal_moves(view)
        for action in legal:  # plays come first, in hand order
            if isinstance(action, Play):
                return action
        if (
            DRAW in legal
            and hand_cost(view.hand, view.ruleset.llama_cost is LlamaCost.EACH) > self.cheap_hand
        ):
            return DRAW
        return QUIT
