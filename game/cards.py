"""Cards, decks and the one rule of what may follow what.

Cards are small ints (an ``IntEnum``) so that hands are plain lists and the
hot path of simulated games never allocates per card.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from .rules import Ruleset


class Card(IntEnum):
    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    LLAMA = 7
    ONE_PLUS = 11
    TWO_PLUS = 12
    THREE_PLUS = 13
    FOUR_PLUS = 14
    FIVE_PLUS = 15
    SIX_PLUS = 16
    PINK_LLAMA = 20

    @property
    def label(self) -> str:
        """The short face of the card: ``4``, ``4+``, ``Llama``, ``Pink Llama``."""
        return _LABELS[self]

    @property
    def is_plus(self) -> bool:
        return 11 <= self <= 16

    @property
    def is_llama(self) -> bool:
        return self is Card.LLAMA or self is Card.PINK_LLAMA

    @property
    def number(self) -> int:
        """The number value 1–6, or 0 for either llama."""
        return _NUMBER[self]


NUMBERS: tuple[Card, ...] = (Card.ONE, Card.TWO, Card.THREE, Card.FOUR, Card.FIVE, Card.SIX)
PLUS_CARDS: tuple[Card, ...] = (
    Card.ONE_PLUS,
    Card.TWO_PLUS,
    Card.THREE_PLUS,
    Card.FOUR_PLUS,
    Card.FIVE_PLUS,
    Card.SIX_PLUS,
)
ALL_CARDS: tuple[Card, ...] = tuple(Card)

_LABELS: dict[Card, str] = {
    **{c: str(int(c)) for c in NUMBERS},
    **{c: f"{int(c) - 10}+" for c in PLUS_CARDS},
    Card.LLAMA: "Llama",
    Card.PINK_LLAMA: "Pink Llama",
}
_NUMBER: dict[Card, int] = {
    c: (int(c) % 10 if c not in (Card.LLAMA, Card.PINK_LLAMA) else 0) for c in Card
}

# The "step" of a card on the 1..6, Llama cycle: numbers and Plus cards by
# their number, both llamas as 7.  What may follow step s is s or s+1, and
# after 7 comes 7 or 1 (never 1 on a 6, which falls out of this naturally).
_STEP: dict[Card, int] = {c: (7 if c.is_llama else c.number) for c in Card}


def _follows(top: Card, card: Card) -> bool:
    if card is Card.PINK_LLAMA:
        return True  # the pink llama goes on anything
    top_step, step = _STEP[top], _STEP[card]
    if top_step == 7:
        return step in (7, 1)
    return step in (top_step, top_step + 1)


#: ``FITS[top]`` is the set of cards that may be played on ``top``.
FITS: dict[Card, frozenset[Card]] = {
    top: frozenset(c for c in Card if _follows(top, c)) for top in Card
}


def fits(top: Card, card: Card) -> bool:
    return card in FITS[top]


def build_deck(ruleset: Ruleset) -> list[Card]:
    """The full deck for a ruleset, in a fixed order (shuffling is the caller's)."""
    deck: list[Card] = [c for c in NUMBERS for _ in range(ruleset.copies)]
    deck += [Card.LLAMA] * ruleset.llamas
    if ruleset.plus_cards:
        deck += list(PLUS_CARDS)
    if ruleset.pink_llama:
        deck.append(Card.PINK_LLAMA)
    return deck


#: Hand order: by step on the cycle, the plain card before its Plus twin.
_SORT_KEY: dict[Card, tuple[int, int]] = {c: (_STEP[c], int(c)) for c in Card}
_by_sort_key = _SORT_KEY.__getitem__


def sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """``cards`` in hand order (see ``_SORT_KEY``)."""
    return tuple(sorted(cards, key=_by_sort_key))


def with_article(card: Card) -> str:
    """English name with its article, for error messages: "a 4", "an 8", "the Pink Llama"."""
    if card is Card.PINK_LLAMA:
        return "the Pink Llama"
    return f"a {card.label}"
