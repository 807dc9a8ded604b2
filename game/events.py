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

# The fields of each kind of event, exactly as ``to_json`` writes them.
_FIELDS: dict[str, frozenset[str]] = {
    "deal": frozenset({"kind", "round_no", "hands", "top", "draw_pile", "starter"}),
    "play": frozenset({"kind", "seat", "card"}),
    "draw": frozenset({"kind", "seat"}),
    "quit": frozenset({"kind", "seat"}),
}


def _int(raw: Any) -> int:
    # Exactly an int: True, 1.0 and "1" are not, nor is 1.9 rounded down.
    if type(raw) is not int:
        raise ReplayError(f"{raw!r} is not a whole number")
    return raw


def _card(raw: Any) -> Card:
    card = _BY_VALUE.get(raw) if type(raw) is int else None
    if card is None:
        raise ReplayError(f"{raw!r} is not a card")
    return card


def _cards(raw: Any) -> tuple[Card, ...]:
    if type(raw) is not list:
        raise ReplayError(f"{raw!r} is not a list of cards")
    lookup = _BY_VALUE
    try:
        # Only exact ints are looked up: True or 1.0 would find the 1 too.
        cards = [lookup[c] for c in raw if type(c) is int]
    except KeyError as error:
        raise ReplayError(f"{error.args[0]!r} is not a card") from None
    if len(cards) != len(raw):
        raise ReplayError(f"{raw!r} is not a list of cards")
    return tuple(cards)


def event_from_json(data: dict[str, Any]) -> Event:
    """The event ``to_json`` wrote, and nothing else: a field missing, added or of
    another type than written (a seat of 1.9, a card of ``true``) is refused."""
    if type(data) is not dict:
        raise ReplayError(f"malformed event {data!r}: not an object")
    kind = data.get("kind")
    fields = _FIELDS.get(kind) if type(kind) is str else None
    if fields is None:
        raise ReplayError(f"unknown event kind {kind!r}")
    if data.keys() != fields:
        raise ReplayError(f"malformed event {data!r}: its fields are not {sorted(fields)}")
    try:
        if kind == "deal":
            hands = data["hands"]
            if type(hands) is not list:
                raise ReplayError(f"{hands!r} is not a list of hands")
            return RoundDealt(
                round_no=_int(data["round_no"]),
                hands=tuple(_cards(h) for h in hands),
                top=_card(data["top"]),
                draw_pile=_cards(data["draw_pile"]),
                starter=_int(data["starter"]),
            )
        if kind == "play":
            return CardPlayed(seat=_int(data["seat"]), card=_card(data["card"]))
        if kind == "draw":
            return CardDrawn(seat=_int(data["seat"]))
        return PlayerQuit(seat=_int(data["seat"]))
    except ReplayError as error:
        raise ReplayError(f"malformed event {data!r}: {error}") from None
