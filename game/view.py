"""What one seat may know (its own hand and everything public), and what everyone may know."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import Card
from .chips import Chips
from .events import MoveEvent
from .results import RoundResult
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
        return tuple(Chips.of(p, pink_chips=self.ruleset.pink_chips) for p in self.points)

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat


@dataclass(frozen=True, slots=True)
class PublicView:
    """The table as someone watching sees it: no card that is in a hand or the pile.

    The rounds already scored are public (every hand is shown at scoring), so
    ``results`` holds them; the cards of the round being played appear only
    as counts, the discard pile and the moves.
    """

    ruleset: Ruleset
    round_no: int  # the round being played, or the last one scored between rounds
    hand_sizes: tuple[int, ...]  # zeros between rounds
    in_round: tuple[bool, ...]
    top: Card | None  # None between rounds
    discard: tuple[Card, ...]  # the discard pile, bottom first
    draw_pile: int
    points: tuple[int, ...]
    to_move: int | None
    no_drama_holder: int | None
    history: tuple[MoveEvent, ...]  # this round's moves; draws never show the card
    #: Why the player to move may not draw (an ``IllegalMove`` code:
    #: ``last_player_cannot_draw`` or ``draw_pile_empty``); None if they may,
    #: or if nobody is to move.
    draw_refused: str | None
    results: tuple[RoundResult, ...]  # every round scored so far
    winners: tuple[int, ...]  # empty until the game is over

    @property
    def players(self) -> int:
        return len(self.points)

    @property
    def live(self) -> bool:
        """A round is being played."""
        return self.top is not None

    @property
    def game_over(self) -> bool:
        return bool(self.winners)

    @property
    def may_draw(self) -> bool:
        """The player to move may draw a card."""
        return self.to_move is not None and self.draw_refused is None

    @property
    def chips(self) -> tuple[Chips, ...]:
        return tuple(Chips.of(p, pink_chips=self.ruleset.pink_chips) for p in self.points)
