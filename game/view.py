"""What one seat may know: its own hand and everything public."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import Card
from .chips import Chips
from .events import MoveEvent
from .rules import Ruleset


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    ruleset: Ruleset
    round_no: int
    hand: tuple[Card, ...]  # sorted; empty between rounds
    hand_sizes: tuple[int, ...]
    in_round: tuple[bool, ...]
    top: Card | None  # None between rounds
    discard: tuple[Card, ...]  # the discard pile, bottom first
    draw_pile: int
    points: tuple[int, ...]
    to_move: int | None
    no_drama_holder: int | None
    history: tuple[MoveEvent, ...]  # this round's moves; draws never show the card
    legal: tuple[Action, ...]  # the seat's moves, empty unless it is to move
    game_over: bool

    @property
    def players(self) -> int:
        return len(self.points)

    @property
    def chips(self) -> tuple[Chips, ...]:
        return tuple(Chips.of(p, pink_chips=self.ruleset.party) for p in self.points)

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat
