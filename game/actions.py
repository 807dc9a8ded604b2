"""The three moves of a turn. Instances are shared, so creating moves costs nothing."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card


@dataclass(frozen=True, slots=True)
class Play:
    card: Card

    def __str__(self) -> str:
        return f"play {self.card.label}"


@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Quit:
    def __str__(self) -> str:
        return "quit"


Action = Play | Draw | Quit

DRAW = Draw()
QUIT = Quit()
PLAY: dict[Card, Play] = {card: Play(card) for card in Card}
