"""What a round cost each seat: the rows of a chip history."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .chips import Chips
from .scoring import Penalty


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    hand: tuple[Card, ...]  # every card held at the end, revealed
    discarded: Card | None  # the card the No Drama holder threw away
    penalty: Penalty  # what the hand cost after the discard
    emptied: bool  # played their last card
    gained: int  # points added this round
    returned: int  # value of the chip given back (0 for none)
    total: int  # points after the round
    chips: Chips  # the chips those points are held as


@dataclass(frozen=True, slots=True)
class RoundResult:
    round_no: int
    ended_by: int  # who played the last card or quit last: starts the next round
    emptied_by: int | None
    no_drama_holder: int | None
    seats: tuple[SeatResult, ...]
    game_over: bool
    winners: tuple[int, ...]  # empty until the game is over
