"""Scripted deals: exactly these hands and top card, from the whole deck, for puzzles and tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from game import Card, Match, RoundDealt, build_deck, explicit_deal


def whole_deal(
    hands: Sequence[Sequence[Card]],
    top: Card,
    pile: Sequence[Card] = (),
    starter: int = 0,
    *,
    starter_by_rules: bool = False,
) -> Callable[[Match], RoundDealt]:
    """A deal of exactly these hands and top card, the draw pile starting with ``pile``
    and going on with the rest of the deck, so every card of the deck is in play as in a
    real deal (a restart rebuilds only deals of the whole deck): the deck of the rules
    the match plays.

    ``starter`` starts the round; with ``starter_by_rules`` only the first round, and
    later ones whoever the rules say (the player who ended the round before).
    """

    def deal(match: Match) -> RoundDealt:
        rest = Counter(build_deck(match.ruleset))
        rest.subtract([*(c for hand in hands for c in hand), top, *pile])
        if any(n < 0 for n in rest.values()):
            raise ValueError(f"the deal uses cards the deck doesn't have: {-rest}")
        full_pile = [*pile, *sorted(rest.elements())]
        first = starter if not starter_by_rules or match.next_starter is None else None
        to_start = first if first is not None else match.next_starter
        assert to_start is not None
        return explicit_deal(hands, top, full_pile, to_start, round_no=len(match.results) + 1)

    return deal
