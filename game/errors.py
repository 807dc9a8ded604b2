"""Illegal moves, each with a message a player can read.

``code`` and ``params`` let a front end translate the message; ``str(error)``
is the English text.
"""

from __future__ import annotations

from typing import Any

from .cards import Card, with_article


class IllegalMove(Exception):
    code = "illegal_move"

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message)
        self.params = params


class NotYourTurn(IllegalMove):
    code = "not_your_turn"

    def __init__(self, seat: int, to_move: int | None) -> None:
        super().__init__("It's not your turn.", seat=seat, to_move=to_move)


class CardNotInHand(IllegalMove):
    code = "card_not_in_hand"

    def __init__(self, card: Card) -> None:
        super().__init__(f"You don't have {with_article(card)} in your hand.", card=card)


class CardDoesNotFit(IllegalMove):
    code = "card_does_not_fit"

    def __init__(self, card: Card, top: Card) -> None:
        super().__init__(
            f"You can't play {with_article(card)} on {with_article(top)}.", card=card, top=top
        )


class DrawPileEmpty(IllegalMove):
    code = "draw_pile_empty"

    def __init__(self) -> None:
        super().__init__("The draw pile is empty.")


class LastPlayerCannotDraw(IllegalMove):
    code = "last_player_cannot_draw"

    def __init__(self) -> None:
        super().__init__("You are the last player in this round, so you can't draw.")


class NotInRound(IllegalMove):
    code = "not_in_round"

    def __init__(self, seat: int) -> None:
        super().__init__("You have quit this round and must wait for the next one.", seat=seat)


class RoundOver(IllegalMove):
    code = "round_over"

    def __init__(self) -> None:
        super().__init__("This round is over.")


class GameOver(IllegalMove):
    code = "game_over"

    def __init__(self) -> None:
        super().__init__("This game is over.")


class NoSuchSeat(IllegalMove):
    code = "no_such_seat"

    def __init__(self, seat: int) -> None:
        super().__init__("You're not in this game.", seat=seat)


class ReplayError(ValueError):
    """An event list that does not describe a possible game."""
