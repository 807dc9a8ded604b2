"""Frozen records of what happened: the deal and each move.

A match is fully described by its ruleset, its number of seats and this
event list; the store persists exactly that and replays it.  The dealt order
is recorded card by card, so a replay never depends on a shuffle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import Card
from .errors import ReplayError


@dataclass(frozen=True, slots=True)
class RoundDealt:
    kind: ClassVar[str] = "deal"
    round_no: int
    hands: tuple[tuple[Card, ...], ...]
    top: Card
    draw_pile: tuple[Card, ...]  # the next card drawn first
    starter: int

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "round_no": self.round_no,
            "hands": [[int(c) for c in hand] for hand in self.hands],
            "top": int(self.top),
            "draw_pile": [int(c) for c in self.draw_pile],
            "starter": self.starter,
        }


@dataclass(frozen=True, slots=True)
class CardPlayed:
    kind: ClassVar[str] = "play"
    seat: int
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "card": int(self.card)}


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """A draw; which card was drawn follows from the dealt pile, and is secret."""

    kind: ClassVar[str] = "draw"
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class PlayerQuit:
    kind: ClassVar[str] = "quit"
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat}


MoveEvent = CardPlayed | CardDrawn | PlayerQuit
Event = RoundDealt | MoveEvent


# Resuming replays every stored deal; a dict lookup is several times faster
# than ``Card(value)``, which goes through the enum machinery.
_BY_VALUE: dict[int, Card] = {int(c): c for c in Card}


def _card(raw: Any) -> Card:
    card = _BY_VALUE.get(raw) if type(raw) is int else None
    return card if card is not None else Card(raw)


def _cards(raw: Any) -> tuple[Card, ...]:
    lookup = _BY_VALUE
    try:
        return tuple([lookup[c] for c in raw])
    except (KeyError, TypeError):
        return tuple(_card(c) for c in raw)  # raises ValueError for a non-card


def event_from_json(data: dict[str, Any]) -> Event:
    try:
        kind = data["kind"]
        if kind == "deal":
            return RoundDealt(
                round_no=int(data["round_no"]),
                hands=tuple(_cards(h) for h in data["hands"]),
                top=_card(data["top"]),
                draw_pile=_cards(data["draw_pile"]),
                starter=int(data["starter"]),
            )
        if kind == "play":
            return CardPlayed(seat=int(data["seat"]), card=_card(data["card"]))
        if kind == "draw":
            return CardDrawn(seat=int(data["seat"]))
        if kind == "quit":
            return PlayerQuit(seat=int(data["seat"]))
    except (KeyError, TypeError, ValueError) as error:
        raise ReplayError(f"malformed event {data!r}: {error}") from error
    raise ReplayError(f"unknown event kind {kind!r}")
