"""The house-rule dimensions of ``game/rules.py`` the engine plays: the hand size, the
last player's draw and the chip an emptied hand gives back. Each test shows the house
rule's effect, and the preset's default (``shared/RULES.md``) unchanged beside it."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import (
    DIMENSIONS,
    DRAW,
    PLAY,
    PRESETS,
    QUIT,
    Card,
    ChipBack,
    Chips,
    LastPlayerCannotDraw,
    Match,
    Ruleset,
    build_deck,
    explicit_deal,
)

C = Card
L = Card.LLAMA
BASE = Ruleset()
HAND_SIZES = next(d.choices for d in DIMENSIONS if d.name == "hand_size")


@st.composite
def house_rulesets(draw: st.DrawFn) -> Ruleset:
    """Any ruleset the lobby can compose: some presets, then any dimensions changed to
    any of the values ``DIMENSIONS`` offers, and a threshold."""
    presets = draw(st.lists(st.sampled_from(sorted(PRESETS)), unique=True, max_size=3))
    changes = {d.name: draw(st.sampled_from(d.choices)) for d in DIMENSIONS if draw(st.booleans())}
    return Ruleset.compose(*presets, threshold=draw(st.integers(5, 30)), **changes)


@settings(max_examples=60, deadline=None)
@given(ruleset=house_rulesets(), players=st.integers(2, 6), seed=st.integers(0, 2**32))
@pytest.mark.slow  # over a quarter second on a quiet machine
def test_random_legal_play_of_any_ruleset_keeps_every_card_and_ends(
    ruleset: Ruleset, players: int, seed: int
) -> None:
    """Random legal moves (quitting seldom, so rounds run long) under any composed
    ruleset: every card of the deck stays in exactly one place, each move is one the
    engine offered, and every round and the match end."""
    rng = random.Random(seed)
    match = Match(ruleset, players)
    deck = Counter(build_deck(ruleset))
    for _ in range(300):
        if match.over:
            return
        match.deal(rng.getrandbits(32))
        assert match.round is not None
        for _ in range(2 * len(build_deck(ruleset)) + players):
            if not match.in_round:
                break
            legal = match.legal_actions()
            action = QUIT if len(legal) == 1 or rng.random() < 0.03 else rng.choice(legal[:-1])
            match.apply(match.to_move, action)  # type: ignore[arg-type]
            assert Counter(match.round.cards()) == deck
        assert not match.in_round
    raise AssertionError("the match did not end")


def table(hands: list[list[Card]], top: Card, pile: list[Card], ruleset: Ruleset) -> Match:
    match = Match(ruleset, len(hands))
    match.start_round(explicit_deal(hands, top, pile))
    return match


def emptied_with(points_card: list[Card], ruleset: Ruleset) -> Match:
    """A two-seat match where seat 1 first scores ``points_card`` (seat 0 empties its
    hand), then empties its own hand in round 2."""
    match = Match(ruleset, 2)
    match.start_round(explicit_deal([[C.TWO], points_card], C.ONE, [C.THREE] * 5))
    match.apply(0, PLAY[C.TWO])
    match.start_round(explicit_deal([[C.SIX, C.SIX], [C.TWO]], C.ONE, [C.THREE], 0, round_no=2))
    match.apply(0, DRAW)
    match.apply(1, PLAY[C.TWO])
    return match


# ================================================================ hand size
def test_the_presets_deal_hands_of_6() -> None:
    for ruleset in (BASE, Ruleset(party=True), Ruleset(komarami=True), Ruleset(no_drama=True)):
        assert ruleset.hand_size == 6
        dealt = Match(ruleset, 3).deal(seed=5)
        assert [len(hand) for hand in dealt.hands] == [6, 6, 6]


@pytest.mark.parametrize("size", HAND_SIZES)
@pytest.mark.parametrize("players", [2, 6])
def test_every_hand_size_the_lobby_offers_deals_that_many_cards_and_the_rest_to_the_pile(
    size: int, players: int
) -> None:
    ruleset = Ruleset(hand_size=size)
    match = Match(ruleset, players)
    dealt = match.deal(seed=f"hands of {size}")
    assert [len(hand) for hand in dealt.hands] == [size] * players
    assert len(dealt.draw_pile) == len(build_deck(ruleset)) - size * players - 1
    every = [dealt.top, *dealt.draw_pile, *(c for hand in dealt.hands for c in hand)]
    assert Counter(every) == Counter(build_deck(ruleset))
    # every seat sees its own hand of that size, and everyone the sizes
    for seat in range(players):
        view = match.view(seat)
        assert len(view.hand) == size
        assert view.hand_sizes == (size,) * players
    assert match.public_view().draw_pile == len(dealt.draw_pile)


def test_hands_of_7_take_the_first_7_cards_of_the_shuffle_for_each_seat() -> None:
    six = Match(BASE, 3).deal(seed=11)
    seven = Match(Ruleset(hand_size=7), 3).deal(seed=11)
    shuffled6 = [c for hand in six.hands for c in hand] + [six.top, *six.draw_pile]
    shuffled7 = [c for hand in seven.hands for c in hand] + [seven.top, *seven.draw_pile]
    assert shuffled6 == shuffled7  # the same shuffle, cut at 7 instead of 6
    assert seven.hands[1] == tuple(shuffled7[7:14])


# ================================================================ the last player's draw
def alone(ruleset: Ruleset) -> Match:
    """Seat 0 quits; seat 1 is left alone holding a 6 and a 5 on a 1."""
    match = table([[C.SIX], [C.SIX, C.FIVE]], C.ONE, [C.THREE, C.TWO, C.FOUR], ruleset)
    match.apply(0, QUIT)
    return match


def test_by_the_rules_the_last_player_left_may_not_draw() -> None:
    match = alone(BASE)
    assert not BASE.last_player_draws
    assert match.legal_actions() == [QUIT]
    assert not match.can(1, DRAW)
    assert match.public_view().draw_refused == LastPlayerCannotDraw.code


def test_with_the_house_rule_the_last_player_left_draws_while_the_pile_lasts() -> None:
    rules = BASE.with_changes(last_player_draws=True)
    match = alone(rules)
    assert match.legal_actions() == [DRAW, QUIT]
    assert match.public_view().may_draw
    match.apply(1, DRAW)  # a 4: nothing fits yet
    assert match.to_move == 1
    match.apply(1, DRAW)  # a 2
    match.apply(1, PLAY[C.TWO])
    match.apply(1, DRAW)  # a 3, the pile's last card
    match.apply(1, PLAY[C.THREE])
    match.apply(1, PLAY[C.FOUR])
    match.apply(1, PLAY[C.FIVE])
    assert match.legal_actions() == [PLAY[C.SIX], QUIT]
    match.apply(1, PLAY[C.SIX])
    result = match.results[-1]
    assert result.emptied_by == 1 and result.seats[1].gained == 0


def test_with_the_house_rule_the_last_player_still_cannot_draw_from_an_empty_pile() -> None:
    rules = BASE.with_changes(last_player_draws=True)
    match = table([[C.SIX], [C.SIX, C.FIVE]], C.ONE, [], rules)
    match.apply(0, QUIT)
    assert match.legal_actions() == [QUIT]
    assert match.public_view().draw_refused == "draw_pile_empty"


# ================================================================ the chip given back
def test_by_the_rules_an_emptied_hand_gives_back_the_largest_chip() -> None:
    match = emptied_with([L, C.FOUR], BASE)
    assert BASE.chip_back is ChipBack.LARGEST
    assert match.results[-1].seats[1].returned == 10
    assert match.points == [9, 4]


def test_with_white_an_emptied_hand_gives_back_one_point() -> None:
    match = emptied_with([L, C.FOUR], BASE.with_changes(chip_back=ChipBack.WHITE))
    row = match.results[-1].seats[1]
    assert row.emptied and row.returned == 1 and row.total == 13
    assert match.chips(1) == Chips(white=3, black=1)


def test_with_white_in_the_party_edition_a_pink_chip_is_changed_for_one_white() -> None:
    rules = Ruleset(party=True).with_changes(chip_back=ChipBack.WHITE)
    match = emptied_with([L, C.SIX, C.FIVE], rules)  # 21 points: a pink and a white
    assert match.results[0].seats[1].total == 21
    assert match.results[-1].seats[1].returned == 1
    assert match.chips(1) == Chips(pink=1)


def test_with_white_a_player_with_no_chips_gives_back_nothing() -> None:
    rules = BASE.with_changes(chip_back=ChipBack.WHITE)
    match = table([[C.TWO], [C.FIVE]], C.ONE, [C.THREE], rules)
    match.apply(0, PLAY[C.TWO])
    assert match.results[-1].seats[0].returned == 0
    assert match.points == [0, 5]


def test_with_none_an_emptied_hand_gives_nothing_back() -> None:
    match = emptied_with([L, C.FOUR], BASE.with_changes(chip_back=ChipBack.NONE))
    row = match.results[-1].seats[1]
    assert row.emptied and row.gained == 0 and row.returned == 0
    assert match.points == [9, 14]


@pytest.mark.parametrize(
    ("chip_back", "returned"), [(ChipBack.LARGEST, 10), (ChipBack.WHITE, 1), (ChipBack.NONE, 0)]
)
def test_the_no_drama_holder_left_with_nothing_gives_back_what_the_rule_says(
    chip_back: ChipBack, returned: int
) -> None:
    match = Match(Ruleset(no_drama=True).with_changes(chip_back=chip_back), 2)
    match.start_round(explicit_deal([[C.TWO], [L, C.FOUR]], C.ONE, [C.THREE] * 5))
    match.apply(0, PLAY[C.TWO])
    assert match.points == [0, 14]
    match.start_round(explicit_deal([[C.SIX, C.SIX], [L]], C.ONE, [C.THREE], 0, round_no=2))
    match.apply(0, QUIT)
    match.apply(1, QUIT)
    row = match.results[-1].seats[1]
    assert row.discarded is L and row.gained == 0 and row.returned == returned
    assert match.points == [6, 14 - returned]
