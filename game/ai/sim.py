"""Simulating the rest of a round from what a seat knows.

``determinize`` deals the cards a seat has not seen (deck minus own hand
minus discard pile) into the other hands and the draw pile, keeping every
count the view shows, and builds a :class:`~game.Round` in that state;
``determinize_informed`` also respects what draws and quits reveal
(``hints``; ``reading`` reads every move more closely).  Hard then plays
the round out from there (``playout``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import FITS, Card
from ..events import CardDrawn, CardPlayed
from ..round import Round
from ..rules import Ruleset
from ..view import SeatView
from .knowledge import full_deck


def build_round(view: SeatView, hands: list[list[Card]], pile: list[Card]) -> Round:
    """A mid-round ``Round`` with the public state of ``view`` and the given hidden cards.

    ``pile`` is the draw pile with the next card *last* (``Round``'s own order).
    """
    rnd = Round.__new__(Round)
    rnd.ruleset = view.ruleset
    rnd.round_no = view.round_no
    rnd.hands = hands
    rnd.pile = pile
    rnd.discard = list(view.discard)
    rnd.active = list(view.in_round)
    rnd.active_count = sum(view.in_round)
    rnd.to_move = view.to_move
    rnd.no_drama_holder = view.no_drama_holder
    rnd.ended_by = None
    rnd.emptied_by = None
    rnd.history = []
    return rnd


def determinize(view: SeatView, unseen: Sequence[Card], rng: random.Random) -> Round:
    """One consistent guess of the hidden cards, as a playable ``Round``."""
    cards = list(unseen)
    rng.shuffle(cards)
    hands: list[list[Card]] = []
    at = 0
    for s, size in enumerate(view.hand_sizes):
        if s == view.seat:
            hands.append(list(view.hand))
        else:
            hands.append(cards[at : at + size])
            at += size
    return build_round(view, hands, cards[at:])


#: A seat's limit: at most ``bound`` of its hand's cards lie in ``cards``.
Limit = tuple[frozenset[Card], int]


def hints(view: SeatView) -> dict[int, list[Limit]]:
    """What the other seats' moves tell about the cards they hold now.

    Nobody sensible draws or quits with a card to play (Easy and Normal never
    do).  So a player who drew on top card ``T`` held nothing that fits ``T``;
    a card of theirs that fits ``T`` must have been drawn since.  Hence at most
    ``d - p`` of their cards fit ``T`` now, where ``d`` counts their draws from
    that one on and ``p`` the cards fitting ``T`` they played since (each of
    those used up a draw too).  A quitter's hand is frozen: nothing in it fits
    the top card they quit on.  Limits that no longer bind are dropped.
    """
    fits: dict[int, list[frozenset[Card]]] = {}
    bounds: dict[int, list[int]] = {}
    plays = 0  # the top card a move saw is ``view.discard[plays before it]``
    for event in view.history:
        seat = event.seat
        if type(event) is CardPlayed:
            plays += 1
            if seat in fits:
                b = bounds[seat]
                for k, fitting in enumerate(fits[seat]):
                    if event.card in fitting and b[k] > 0:
                        b[k] -= 1
            continue
        if seat == view.seat:
            continue
        fits.setdefault(seat, []).append(FITS[view.discard[plays]])
        b = bounds.setdefault(seat, [])
        b.append(0)
        if type(event) is CardDrawn:
            for k in range(len(b)):
                b[k] += 1
    out: dict[int, list[Limit]] = {}
    for seat, fitting_sets in fits.items():
        size = view.hand_sizes[seat]
        kept = [(f, b) for f, b in zip(fitting_sets, bounds[seat], strict=True) if b < size]
        if kept:
            out[seat] = kept
    return out


def determinize_informed(
    view: SeatView,
    unseen: Sequence[Card],
    limits: dict[int, list[Limit]],
    rng: random.Random,
    fixed: dict[int, list[Card]] | None = None,
) -> Round:
    """Like :func:`determinize`, but the hands respect ``limits`` (see :func:`hints`)
    as far as the unseen cards allow: each limited hand, tightest first, takes
    the first cards of a shuffle that keep it within its limits.

    Seats in ``fixed`` get the hands given there, whose cards ``unseen`` must
    already leave out.
    """
    cards = list(unseen)
    rng.shuffle(cards)
    hands: list[list[Card] | None] = [None] * len(view.hand_sizes)
    hands[view.seat] = list(view.hand)
    if fixed:
        for s, given in fixed.items():
            hands[s] = given
    order = sorted((s for s in limits if hands[s] is None), key=lambda s: (-len(limits[s]), s))
    for seat in order:
        lims = limits[seat]
        size = view.hand_sizes[seat]
        used = [0] * len(lims)
        hand: list[Card] = []
        rest: list[Card] = []
        for c in cards:
            if len(hand) < size:
                ok = True
                for k, (fitting, bound) in enumerate(lims):
                    if c in fitting and used[k] >= bound:
                        ok = False
                        break
                if ok:
                    for k, (fitting, _bound) in enumerate(lims):
                        if c in fitting:
                            used[k] += 1
                    hand.append(c)
                    continue
            rest.append(c)
        short = size - len(hand)  # the unseen cards can't meet the limits: relax them
        hand.extend(rest[:short])
        hands[seat] = hand
        cards = rest[short:]
    at = 0
    full: list[list[Card]] = []
    for s, size in enumerate(view.hand_sizes):
        h = hands[s]
        if h is None:
            h = cards[at : at + size]
            at += size
        full.append(h)
    return build_round(view, full, cards[at:])


def remaining_counts(ruleset: Ruleset, discard: Sequence[Card]) -> list[int]:
    """Cards by ``int(card)`` that are not on the discard pile."""
    counts = [0] * 21
    for c in full_deck(ruleset):
        counts[c] += 1
    for c in discard:
        counts[c] -= 1
    return counts
