"""One round: hands, piles, whose turn it is, and the moves that change them."""

from __future__ import annotations

from collections.abc import Sequence

from .actions import DRAW, PLAY, QUIT, Action, Draw, Play, Quit
from .cards import FITS, PLUS_CARDS, Card
from .errors import (
    CardDoesNotFit,
    CardNotInHand,
    DrawPileEmpty,
    IllegalMove,
    LastPlayerCannotDraw,
    NoSuchSeat,
    NotInRound,
    NotYourTurn,
    RoundOver,
)
from .events import CardDrawn, CardPlayed, MoveEvent, PlayerQuit, RoundDealt
from .rules import MAX_PLAYERS, Ruleset

# Events are frozen, so the hot path shares one per seat (and card) instead of
# building a new one for every move.
_PLUS = frozenset(PLUS_CARDS)
_PLAYED: tuple[dict[Card, CardPlayed], ...] = tuple(
    {card: CardPlayed(seat, card) for card in Card} for seat in range(MAX_PLAYERS)
)
_DRAWN: tuple[CardDrawn, ...] = tuple(CardDrawn(seat) for seat in range(MAX_PLAYERS))
_QUIT: tuple[PlayerQuit, ...] = tuple(PlayerQuit(seat) for seat in range(MAX_PLAYERS))


class Round:
    """The mutable state of one round.

    ``apply`` checks a move and then does it; ``step`` only does it, for
    simulations that take their moves from ``legal_actions`` (so legality is
    never checked twice on the hot path).
    """

    __slots__ = (
        "ruleset",
        "round_no",
        "hands",
        "pile",
        "discard",
        "active",
        "active_count",
        "to_move",
        "no_drama_holder",
        "ended_by",
        "emptied_by",
        "history",
    )

    def __init__(self, ruleset: Ruleset, dealt: RoundDealt) -> None:
        players = len(dealt.hands)
        ruleset.check_players(players)
        if not 0 <= dealt.starter < players:
            raise NoSuchSeat(dealt.starter)
        self.ruleset = ruleset
        self.round_no = dealt.round_no
        self.hands: list[list[Card]] = [list(h) for h in dealt.hands]
        # Stored reversed so that drawing is a pop from the end.
        self.pile: list[Card] = list(reversed(dealt.draw_pile))
        self.discard: list[Card] = [dealt.top]
        self.active: list[bool] = [True] * players
        self.active_count = players
        self.to_move: int | None = dealt.starter
        self.no_drama_holder: int | None = None
        self.ended_by: int | None = None
        self.emptied_by: int | None = None
        self.history: list[MoveEvent] = []

    # ------------------------------------------------------------ queries
    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def top(self) -> Card:
        return self.discard[-1]

    @property
    def over(self) -> bool:
        return self.to_move is None

    def can_draw(self) -> bool:
        return bool(self.pile) and (self.active_count > 1 or self.ruleset.last_player_draws)

    def legal_actions(self) -> list[Action]:
        """The moves open to the player to move, in a fixed order; empty once over."""
        seat = self.to_move
        if seat is None:
            return []
        fits = FITS[self.discard[-1]]
        actions: list[Action] = [PLAY[c] for c in sorted(fits.intersection(self.hands[seat]))]
        if self.pile and (self.active_count > 1 or self.ruleset.last_player_draws):
            actions.append(DRAW)
        actions.append(QUIT)
        return actions

    def verify(self, seat: int, action: Action) -> None:
        """Raise the ``IllegalMove`` that explains why ``seat`` can't do ``action``."""
        if type(seat) is not int or not 0 <= seat < len(self.hands):
            raise NoSuchSeat(seat)
        if self.to_move is None:
            raise RoundOver()
        if not self.active[seat]:
            raise NotInRound(seat)
        if seat != self.to_move:
            raise NotYourTurn(seat, self.to_move)
        # Exact type checks, the same as ``step`` uses, so that whatever passes
        # here is a move ``step`` can do (a plain int is not a card).
        if type(action) is Play:
            card = action.card
            if type(card) is not Card:
                raise IllegalMove(f"There is no card {card!r}.", card=card)
            if card not in self.hands[seat]:
                raise CardNotInHand(card)
            if card not in FITS[self.discard[-1]]:
                raise CardDoesNotFit(card, self.discard[-1])
        elif type(action) is Draw:
            if self.active_count == 1 and not self.ruleset.last_player_draws:
                raise LastPlayerCannotDraw()
            if not self.pile:
                raise DrawPileEmpty()
        elif type(action) is not Quit:
            raise IllegalMove(f"Unknown move {action!r}.")

    def can(self, seat: int, action: Action) -> bool:
        try:
            self.verify(seat, action)
        except IllegalMove:
            return False
        return True

    # ------------------------------------------------------------ moves
    def apply(self, seat: int, action: Action) -> MoveEvent:
        """Check and do a move. A rejected move raises and changes nothing."""
        self.verify(seat, action)
        return self.step(action)

    def step(self, action: Action) -> MoveEvent:
        """Do a move for the player to move, unchecked: ``action`` must be legal."""
        seat = self.to_move
        assert seat is not None
        event: MoveEvent
        if type(action) is Play:
            card = action.card
            hand = self.hands[seat]
            hand.remove(card)
            self.discard.append(card)
            event = _PLAYED[seat][card]
            if not hand:
                self.emptied_by = seat
                self._end(seat)
            elif card not in _PLUS:
                self.to_move = self._next_active(seat)
            # A Plus card keeps the turn with the same player.
        elif type(action) is Draw:
            self.hands[seat].append(self.pile.pop())
            event = _DRAWN[seat]
            self.to_move = self._next_active(seat)
        else:
            self.active[seat] = False
            self.active_count -= 1
            if self.ruleset.no_drama_card:
                self.no_drama_holder = seat
            event = _QUIT[seat]
            if self.active_count == 0:
                self._end(seat)
            else:
                self.to_move = self._next_active(seat)
        self.history.append(event)
        return event

    def _next_active(self, seat: int) -> int:
        players = len(self.hands)
        active = self.active
        nxt = seat
        for _ in range(players):
            nxt = (nxt + 1) % players
            if active[nxt]:
                return nxt
        raise AssertionError("no active player left")  # callers check active_count

    def _end(self, seat: int) -> None:
        self.to_move = None
        self.ended_by = seat

    # ------------------------------------------------------------ copies
    def clone(self) -> Round:
        """An independent copy for simulation: lists copied, immutables shared."""
        other = Round.__new__(Round)
        other.ruleset = self.ruleset
        other.round_no = self.round_no
        other.hands = [list(h) for h in self.hands]
        other.pile = list(self.pile)
        other.discard = list(self.discard)
        other.active = list(self.active)
        other.active_count = self.active_count
        other.to_move = self.to_move
        other.no_drama_holder = self.no_drama_holder
        other.ended_by = self.ended_by
        other.emptied_by = self.emptied_by
        other.history = list(self.history)
        return other

    def draw_pile(self) -> tuple[Card, ...]:
        """The draw pile, next card first."""
        return tuple(reversed(self.pile))

    def cards(self) -> list[Card]:
        """Every card of the round, wherever it is (for conservation checks)."""
        out: list[Card] = list(self.pile) + list(self.discard)
        for hand in self.hands:
            out.extend(hand)
        return out


def explicit_deal(
    hands: Sequence[Sequence[Card]],
    top: Card,
    draw_pile: Sequence[Card],
    starter: int = 0,
    round_no: int = 1,
) -> RoundDealt:
    """A deal from given cards, for tests, replays and puzzles."""
    return RoundDealt(
        round_no=round_no,
        hands=tuple(tuple(h) for h in hands),
        top=top,
        draw_pile=tuple(draw_pile),
        starter=starter,
    )
