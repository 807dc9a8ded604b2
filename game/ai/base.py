"""The strengths, the player interface and the one call the bot needs."""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Protocol

from ..actions import Action
from ..view import SeatView
from .easy import EasyPlayer
from .hard import HardPlayer
from .knowledge import legal_moves
from .normal import NormalPlayer


class Strength(StrEnum):
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


class Player(Protocol):
    """Anything that picks a move from a seat's view (``view.legal`` non-empty)."""

    def decide(self, view: SeatView, rng: random.Random) -> Action: ...


_PLAYERS: dict[Strength, Player] = {
    Strength.EASY: EasyPlayer(),
    Strength.NORMAL: NormalPlayer(),
    Strength.HARD: HardPlayer(),
}


def player_for(strength: Strength | str) -> Player:
    """The shared player object of a strength (players keep no state between calls)."""
    return _PLAYERS[Strength(strength)]


def choose(view: SeatView, strength: Strength | str, seed: int | str) -> Action:
    """The move an AI of ``strength`` makes in ``view``; always one of ``view.legal``.

    The same view, strength and seed always give the same move.  Raises
    ``ValueError`` when it isn't the seat's turn (``view.legal`` is empty).
    """
    legal_moves(view)
    action = player_for(strength).decide(view, random.Random(seed))
    if action not in view.legal:  # never expected; a bot must not stall on a bug
        raise AssertionError(f"{strength} AI chose {action!r}, not one of {view.legal!r}")
    return action
