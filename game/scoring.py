"""What a hand costs at the end of a round."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .rules import Ruleset

LLAMA_POINTS = 10
PINK_LLAMA_POINTS = 20


@dataclass(frozen=True, slots=True)
class Penalty:
    """A hand's cost, broken down the way a player checks it by hand."""

    values: tuple[int, ...]  # each distinct number value, counted once
    llamas: int  # ordinary llamas held
    llama_points: int  # 10 for one or more, or 10 each under Komarami
    pink_llama_points: int  # 20 with the pink llama, else 0

    @property
    def total(self) -> int:
        return sum(self.values) + self.llama_points + self.pink_llama_points


def penalty(hand: Sequence[Card], ruleset: Ruleset) -> Penalty:
    values: set[int] = set()
    llamas = 0
    pink = False
    for card in hand:
        if card is Card.LLAMA:
            llamas += 1
        elif card is Card.PINK_LLAMA:
            pink = True
        else:
            values.add(card.number)
    if ruleset.komarami:
        llama_points = LLAMA_POINTS * llamas
    else:
        llama_points = LLAMA_POINTS if llamas else 0
    return Penalty(
        values=tuple(sorted(values)),
        llamas=llamas,
        llama_points=llama_points,
        pink_llama_points=PINK_LLAMA_POINTS if pink else 0,
    )


def penalty_points(hand: Sequence[Card], ruleset: Ruleset) -> int:
    return penalty(hand, ruleset).total


def best_discard(hand: Sequence[Card], ruleset: Ruleset) -> Card | None:
    """The card whose discard saves the most points (ruling for No Drama).

    Ties go to the highest card so the choice is deterministic.
    """
    if not hand:
        return None
    base = penalty_points(hand, ruleset)
    best: Card | None = None
    best_saving = -1
    for card in sorted(set(hand), reverse=True):
        rest = list(hand)
        rest.remove(card)
        saving = base - penalty_points(rest, ruleset)
        if saving > best_saving:
            best, best_saving = card, saving
    return best
