"""What a hand costs at the end of a round."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .chips import BLACK, PINK, WHITE
from .rules import ChipBack, LlamaCost, Ruleset

# Looked up once: attribute access on an Enum class is slow in the hot path.
_LLAMA = Card.LLAMA
_PINK_LLAMA = Card.PINK_LLAMA
_NUMBER: dict[Card, int] = {c: c.number for c in Card}  # 0 for either llama

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
    number = _NUMBER
    values = {number[card] for card in hand}
    values.discard(0)  # the llamas
    llamas = hand.count(_LLAMA)
    pink = _PINK_LLAMA in hand
    if ruleset.llama_cost is LlamaCost.EACH:
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
    number = _NUMBER
    # What each discard saves, worked out from the scoring rule instead of
    # rescoring the hand once per card: a number saves its value when no other
    # card (plain or Plus) shows it, a Llama saves 10 when it is the only one
    # (or always, when each llama costs 10), the pink Llama always saves 20.
    held: dict[int, int] = {}
    for card in hand:
        value = number[card]
        held[value] = held.get(value, 0) + 1
    llamas = hand.count(_LLAMA)
    llama_saving = LLAMA_POINTS if ruleset.llama_cost is LlamaCost.EACH or llamas == 1 else 0
    best: Card | None = None
    best_saving = -1
    for card in sorted(set(hand), reverse=True):
        if card is _LLAMA:
            saving = llama_saving
        elif card is _PINK_LLAMA:
            saving = PINK_LLAMA_POINTS
        else:
            value = number[card]
            saving = value if held[value] == 1 else 0
        if saving > best_saving:
            best, best_saving = card, saving
    return best


def chip_returned(points: int, ruleset: Ruleset) -> int:
    """The points a player holding ``points`` gives back for an emptied hand (also
    the No Drama holder left with nothing): the largest chip they hold by the rules,
    one white chip, or nothing (``ruleset.chip_back``); nothing without chips.

    The largest chip of the greedy split (``Chips.of``), worked out without building
    it: Hard's playouts ask this for every seat of every simulated round.
    """
    rule = ruleset.chip_back
    if points <= 0 or rule is ChipBack.NONE:
        return 0
    if rule is ChipBack.WHITE:
        return WHITE
    if ruleset.pink_chips and points >= PINK:
        return PINK
    return BLACK if points >= BLACK else WHITE
