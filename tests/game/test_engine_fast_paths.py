"""The engine's fast paths agree with the plain code they replace."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import (
    ALL_CARDS,
    HAND_SIZE,
    Card,
    CardDrawn,
    CardPlayed,
    Match,
    PlayerQuit,
    Ruleset,
    best_discard,
    build_deck,
    penalty_points,
)

ALL_RULESETS = [
    Ruleset(no_drama=True, party=party, komarami=komarami)
    for party in (False, True)
    for komarami in (False, True)
]


def reference_best_discard(hand: list[Card], ruleset: Ruleset) -> Card | None:
    """Rescore the hand without each card; the highest card wins ties."""
    if not hand:
        return None
    base = penalty_points(hand, ruleset)
    best, best_saving = None, -1
    for card in sorted(set(hand), reverse=True):
        rest = list(hand)
        rest.remove(card)
        saving = base - penalty_points(rest, ruleset)
        if saving > best_saving:
            best, best_saving = card, saving
    return best


@settings(max_examples=300, deadline=None)
@given(
    ruleset=st.sampled_from(ALL_RULESETS),
    hand=st.lists(st.sampled_from(ALL_CARDS), max_size=12),
)
@pytest.mark.slow  # over a quarter second on a quiet machine
def test_best_discard_saves_as_much_as_rescoring_the_hand_without_each_card(
    ruleset: Ruleset, hand: list[Card]
) -> None:
    if not ruleset.plus_cards:
        hand = [c for c in hand if c <= Card.LLAMA]
    hand = [c for c in hand if c is not Card.PINK_LLAMA] + [Card.PINK_LLAMA] * (
        Card.PINK_LLAMA in hand
    )  # one pink llama at most
    assert best_discard(hand, ruleset) == reference_best_discard(hand, ruleset)


def test_dealing_shuffles_exactly_like_random_shuffle() -> None:
    """``Match.deal`` inlines ``random.Random.shuffle``; the deals must not change."""
    for seed in range(300):
        for ruleset in ALL_RULESETS:
            players = 2 + seed % 5
            rng = random.Random(seed)
            deck = build_deck(ruleset)
            rng.shuffle(deck)
            starter = rng.randrange(players)
            dealt = Match(ruleset, players).deal(seed)
            assert [c for hand in dealt.hands for c in hand] == deck[: players * HAND_SIZE]
            assert dealt.top == deck[players * HAND_SIZE]
            assert list(dealt.draw_pile) == deck[players * HAND_SIZE + 1 :]
            assert dealt.starter == starter


def test_match_step_does_what_match_apply_does() -> None:
    for seed in range(40):
        ruleset = ALL_RULESETS[seed % 4]
        rng = random.Random(seed)
        checked, fast = Match(ruleset, 4), Match(ruleset, 4)
        while not checked.over:
            deal_seed = rng.getrandbits(32)
            checked.deal(deal_seed)
            fast.deal(deal_seed)
            while checked.in_round:
                action = rng.choice(checked.legal_actions())
                assert checked.to_move is not None
                assert checked.apply(checked.to_move, action) == fast.step(action)
                assert checked == fast
        assert fast.over and fast.results == checked.results


def test_shared_move_events_equal_new_ones() -> None:
    match = Match(Ruleset(party=True), 6)
    rng = random.Random(1)
    while not match.over:
        match.deal(rng.getrandbits(32))
        while match.in_round:
            match.step(rng.choice(match.legal_actions()))
    for event in match.events:
        if isinstance(event, CardPlayed):
            assert event == CardPlayed(event.seat, event.card)
        elif isinstance(event, CardDrawn):
            assert event == CardDrawn(event.seat)
        elif isinstance(event, PlayerQuit):
            assert event == PlayerQuit(event.seat)
